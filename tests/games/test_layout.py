"""One shape for every game (docs/engine.md, "One shape for every game"): each package in
companion/games holds the same modules, imports absolutely and the engine's names from
``companion.engine`` alone, keeps its spec in ``data.py``, and names its modules once
(``Game.parts``) instead of writing methods that only hand a call on.

The checks read the source (``ast``), so they also judge a package written here on
purpose to stray: that test proves each check can fail.
"""
from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import companion.games
from companion.engine import Game

GAMES_DIR = Path(companion.games.__file__).parent
PACKAGES = sorted(p.parent.name for p in GAMES_DIR.glob("*/__init__.py"))

#: Every game package holds these modules.
SHAPE = {"__init__", "data", "rules", "views", "show", "board", "howto"}
#: Modules beyond the shape, each a real job named for it (the package's docstring
#: says what it does).
EXTRA_JOBS = {
    "captains_orders": {"entry"},      # cards mode: which hand entries can still be right
    "card_mutiny": {"holdings"},       # what the table holds, asked of the state
    "mit_mutiny": {"battle",           # the battle and the cup
                   "cards",            # the card data file and the data a match dealt
                   "flow",             # a round outside the battle
                   "words"},           # the game in words for the table and the seats
}
#: What each module of the shape must define (the engine's Parts call them).
MUST_DEFINE = {"views": {"view", "redeal"}, "show": {"display"},
               "board": {"summary", "board", "panel"},
               "howto": {"HOWTO", "my_part", "my_secret"}}
#: Hooks the base class answers from the package's Parts: a Game subclass never writes
#: them again.
PARTS_HOOKS = {"view", "redeal", "display", "summary", "board", "panel", "how_to_play",
               "my_part", "my_secret"}


def _defined(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return names


def _delegates(method: ast.FunctionDef) -> bool:
    """Whether a method only hands its arguments on to another module's function:
    ``return show.display(view, seat)``."""
    body = method.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], ast.Return):
        return False
    call = body[0].value
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
        return False
    params = [a.arg for a in method.args.args[1:]]
    passed = [a.id for a in call.args if isinstance(a, ast.Name)]
    return len(passed) == len(call.args) and passed == params and not call.keywords \
        and isinstance(call.func.value, ast.Name) and call.func.value.id != "self"


def strays(package: Path, extras: set[str] = frozenset()) -> list[str]:
    """Every way a game package strays from the shape, in words (none: an empty list)."""
    found: list[str] = []
    modules = {p.stem for p in package.glob("*.py")}
    found += [f"missing module {m}.py" for m in sorted(SHAPE - modules)]
    found += [f"extra module {m}.py" for m in sorted(modules - SHAPE - extras)]
    trees = {m: ast.parse((package / f"{m}.py").read_text()) for m in modules}
    for module, names in MUST_DEFINE.items():
        if module in trees:
            missing = sorted(names - _defined(trees[module]))
            found += [f"{module}.py defines no {name}" for name in missing]
    for module, tree in sorted(trees.items()):
        where = f"{module}.py"
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    found.append(f"{where}: a relative import (from {'.' * node.level}"
                                 f"{node.module or ''})")
                elif (node.module or "").startswith("companion.engine."):
                    found.append(f"{where}: imports from {node.module}, not companion.engine")
        if module != "data" and "SPEC" in _defined(tree):
            found.append(f"{where}: SPEC outside data.py")
        for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
            for method in (n for n in cls.body if isinstance(n, ast.FunctionDef)):
                if _delegates(method):
                    found.append(f"{where}: {cls.name}.{method.name} only hands its call on")
                elif method.name in PARTS_HOOKS and any(
                        isinstance(b, ast.Name) and b.id == "Game" for b in cls.bases):
                    found.append(f"{where}: {cls.name}.{method.name} is the engine's, "
                                 "from Parts")
    if "data" in trees and "SPEC" not in _defined(trees["data"]):
        found.append("data.py: no SPEC")
    docstring = (ast.get_docstring(trees["__init__"]) or "") if "__init__" in trees else ""
    found += [f"__init__.py's docstring does not name {m}"
              for m in sorted(modules - {"__init__"}) if f"``{m}``" not in docstring]
    return found


@pytest.mark.parametrize("name", PACKAGES)
def test_every_game_package_has_the_one_shape(name):
    assert strays(GAMES_DIR / name, EXTRA_JOBS.get(name, set())) == []


@pytest.mark.parametrize("name", PACKAGES)
def test_the_game_names_its_own_modules_once(name):
    package = importlib.import_module(f"companion.games.{name}")
    game = package.GAME
    assert isinstance(game, Game) and game.parts is not None
    assert type(game).__module__ == f"companion.games.{name}.rules"
    for part in ("views", "show", "board", "howto"):
        assert getattr(game.parts, part).__name__ == f"companion.games.{name}.{part}"
    assert game.spec is importlib.import_module(f"companion.games.{name}.data").SPEC


def test_every_game_is_a_package():
    modules = {p.stem for p in GAMES_DIR.glob("*.py")} - {"__init__", "kit"}
    assert modules == set() and set(PACKAGES) == set(EXTRA_JOBS) | {"booty_dice", "moon_yeti"}


def test_a_package_that_strays_is_told_each_way(tmp_path):
    stray = tmp_path / "stray"
    stray.mkdir()
    (stray / "__init__.py").write_text('"""A stray game: ``rules``, ``views``."""\n')
    (stray / "data.py").write_text("LIMIT = 3\n")
    (stray / "rules.py").write_text(
        "from companion.engine.rules import Game\n"
        "from . import views\n"
        "SPEC = None\n"
        "class Stray(Game):\n"
        "    def view(self, state, viewer):\n"
        "        return views.view(state, viewer)\n"
        "    def summary(self, view):\n"
        "        return {'headline': view['step']}\n")
    (stray / "views.py").write_text("def view(state, viewer):\n    return {}\n")
    (stray / "screens.py").write_text("")
    assert strays(stray) == [
        "missing module board.py", "missing module howto.py", "missing module show.py",
        "extra module screens.py",
        "views.py defines no redeal",
        "rules.py: imports from companion.engine.rules, not companion.engine",
        "rules.py: a relative import (from .)",
        "rules.py: SPEC outside data.py",
        "rules.py: Stray.view only hands its call on",
        "rules.py: Stray.summary is the engine's, from Parts",
        "data.py: no SPEC",
        "__init__.py's docstring does not name data",
        "__init__.py's docstring does not name screens",
    ]
