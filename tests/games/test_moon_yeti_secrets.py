"""Moon Yeti's secrets and screens: no view holds another seat's card or the Mutineer
before the end, screens and menus, twin matches that look the same to everyone else
(Y6 and the secret actions), and the re-deal.

Most tests type the time so a chosen role is the Mutineer; the helpers that start a match
and cast the votes: tests/games/moon_yeti_helpers.py.
"""
from __future__ import annotations

import random

import pytest

from companion.engine import PUBLIC, Match, RedealFailed
from companion.engine.display import menu
from companion.games.moon_yeti import BOATSWAIN, CHAPLAIN, GAME, HELMSMAN, NAVIGATOR, ROLES
from tests.games.moon_yeti_helpers import cast, ready_all, start, state, ten_32, to_guilt_vote

# -- secrets, the display, re-deal -----------------------------------------------------

def _values(tree, key):
    """Every value stored under ``key`` anywhere in a JSON tree."""
    if isinstance(tree, dict):
        for k, v in tree.items():
            if k == key:
                yield v
            yield from _values(v, key)
    elif isinstance(tree, list):
        for item in tree:
            yield from _values(item, key)


def _check_no_leak(match: Match) -> None:
    st = state(match)
    over = match.is_over
    public = match.view(PUBLIC)["state"]
    if not over:
        assert "reveal" not in public and "me" not in public
        assert not list(_values(public, "card")) and not list(_values(public, "ace"))
    for seat in range(match.seats):
        view = match.view(seat)["state"]
        role = st["roles"][seat]
        allowed = []
        if role in ROLES:
            allowed.append(ROLES.index(role))
            if role == BOATSWAIN and st["search"] is not None:
                allowed.append(ROLES.index(st["roles"][st["search"]]))
        deck = st["cards"] or st["aces"]
        seen = list(_values(view, "card")) + list(_values(view, "ace"))
        if not over:
            assert "reveal" not in view
            assert all(card in [deck[k] for k in allowed] for card in seen), (seat, seen)
            assert len(seen) == len(allowed) or st["step"] == "deal"
            # Whether someone is the Mutineer: only for oneself, a searched cabin
            # or (truthful) a confession.
            mine = view["me"]
            flagged = len(list(_values(view, "is_mutineer")))
            expected = ("is_mutineer" in mine) + ("search" in mine) + (
                "is_mutineer" in mine.get("confession", {}))
            assert flagged == expected
            for key in ("vote1", "vote2"):
                vote = view[key]
                if vote and not vote["revealed"]:
                    assert "cast" not in vote


@pytest.mark.slow
def test_no_view_ever_holds_another_seats_card_or_the_mutineer_before_the_end():
    for seed in range(60):
        rng = random.Random(seed)
        seats = 4 + seed % 5
        options = {"mode": rng.choice(["clock", "aces"]),
                   "time_source": rng.choice(["clock", "typed"]),
                   "confession": rng.choice(["truthful", "at_table"]), "jury": seed % 3 > 0}
        match = Match.create(GAME, seats, options, seed=seed, clock=ten_32)
        while not match.is_over:
            _check_no_leak(match)
            actor = rng.choice(match.acting())
            match.apply(actor, rng.choice(match.legal_actions(actor)))
        _check_no_leak(match)


SECRET_MOVES = {"vote", "one_vote", "bosun_wait", "search", "confess"}


def test_screens_name_everyone_in_full_and_keep_secrets_off_the_resting_lines():
    for seed in range(30):
        rng = random.Random(seed)
        names = [f"Sailor {'ABCDEFGH'[i]}{'x' * rng.randrange(12)}" for i in range(8)]
        seats = 4 + seed % 5
        options = {"mode": rng.choice(["clock", "aces"]),
                   "time_source": rng.choice(["clock", "typed"]),
                   "change_course": rng.choice(["player_recasts", "navigator_moves"])}
        match = Match.create(GAME, seats, options, seed=seed, names=names[:seats],
                             clock=ten_32)
        while True:
            for seat in range(seats):
                screen = match.display(seat)
                assert screen.title and screen.lines
                assert not set(screen.lines) & set(screen.private)
                assert not any("Mutineer" in line for line in screen.lines) or match.is_over
                # Declaring the time: anyone may, nobody must (no "your move").
                assert screen.led == ("off" if not screen.choices
                                      or match.step() == "declare" else
                                      "blink" if match.step() in ("vote1", "vote2")
                                      else "on")
                for choice in screen.choices:
                    action = choice.action
                    hidden = choice.group in (("Your move",), ("Your second vote",))
                    assert choice.secret == (action["type"] in SECRET_MOVES or hidden)
                    if choice.secret and not hidden:  # nothing secret in a public group
                        assert choice.group == ()
                    if "target" in action:  # names in full: the screens fit them
                        assert names[action["target"]] in choice.label
            if match.is_over:
                break
            actor = rng.choice(match.acting())
            match.apply(actor, rng.choice(match.legal_actions(actor)))


def test_menus_take_no_more_presses_than_the_old_steps():
    # A typed minute: a group per tens digit, then the minute (as tens, then units).
    match = Match.create(GAME, 4, {"time_source": "typed"}, seed=5, clock=ten_32)
    choices = match.display(2).choices
    top = menu(choices)
    assert [item.label for item in top] == [f"Minute {d}0-{d}9" for d in range(6)]
    assert all(item.is_group and item.count == 10 for item in top)
    inner = menu(choices, ("Minute 30-39",))
    assert [choices[item.index].action["minute"] for item in inner] == list(range(30, 40))
    # Dead Reckoning: a group per cast vote (as the old pick), then its new target.
    match, r = start(mutineer=BOATSWAIN)
    ready_all(match)
    cast(match, {r["B"]: [r["C"]], r["C"]: [r["H"]], r["H"]: [r["C"], r["C"]],
                 r["N"]: [r["C"]]})
    names = match.names
    choices = match.display(r["N"]).choices
    top = [item.label for item in menu(choices)]
    assert f"{names[r['H']]}'s first vote for {names[r['C']]}" in top
    assert f"{names[r['H']]}'s second vote for {names[r['C']]}" in top
    assert f"{names[r['B']]}'s vote for {names[r['C']]}" in top
    assert top[-1] == "Pass: move no vote"
    inner = menu(choices, (f"{names[r['B']]}'s vote for {names[r['C']]}",))
    assert [choices[item.index].label for item in inner] == [
        f"Move {names[r['B']]}'s vote for {names[r['C']]} to {names[r['H']]}"]


# -- Y6 and the secret actions: twin matches look the same to everyone else ----------

def seen_by_others(match: Match, actor: int) -> dict:
    """What the table and every seat but ``actor`` see: views, screens, the summary."""
    out = {"public": match.view(PUBLIC), "summary": match.summary()}
    for seat in range(match.seats):
        if seat != actor:
            out[seat] = (match.view(seat), match.display(seat).to_dict())
    return out


def at_rest(match: Match, seat: int) -> tuple:
    """What anyone glancing at a seat's screen sees: title, lines, LED, and the top
    level of its menu (a secret choice masked, a group of secrets without its count)."""
    screen = match.display(seat)
    top = []
    for item in menu(screen.choices):
        inside = [c for c in screen.choices if c.group[:1] == (item.label,)]
        if item.is_group:
            top.append((item.label, "?" if any(c.secret for c in inside) else item.count))
        else:
            top.append("?" if item.secret else item.label)
    return screen.title, screen.lines, screen.led, top


@pytest.mark.parametrize("condemned", [False, True])
def test_y6_nobody_can_tell_whether_the_boatswain_waits_until_the_reveal(condemned):
    twins = [to_guilt_vote(mutineer=HELMSMAN, innocent="C",
                           condemn="B" if condemned else None) for _ in range(2)]
    (waits, r), (votes_now, _) = twins
    assert seen_by_others(waits, r["B"]) == seen_by_others(votes_now, r["B"])
    presses = ([{"type": "bosun_wait"}] * 2 if condemned else [{"type": "bosun_wait"}],
               [{"type": "vote", "target": r["H"]}, {"type": "vote", "target": r["N"]}]
               [:2 if condemned else 1])
    for wait, vote in zip(*presses, strict=True):
        waits.apply(r["B"], wait)
        votes_now.apply(r["B"], vote)
        assert seen_by_others(waits, r["B"]) == seen_by_others(votes_now, r["B"])
        assert at_rest(waits, r["B"]) == at_rest(votes_now, r["B"])
    public = waits.view(PUBLIC)["state"]["vote2"]
    assert public["ballots_in"] == (2 if condemned else 1)
    for seat in (r["C"], r["H"]):  # every ballot but the last one, which reveals
        for match in (waits, votes_now):
            match.apply(seat, {"type": "vote", "target": r["N"]})
        assert seen_by_others(waits, r["B"]) == seen_by_others(votes_now, r["B"])
    for match in (waits, votes_now):
        match.apply(r["N"], {"type": "vote", "target": r["H"]})
    assert waits.step() == "bosun" and votes_now.step() != "bosun"
    assert waits.view(PUBLIC)["state"]["bosun_waited"] is True


def test_nobody_else_can_tell_whether_the_boatswain_searched_a_cabin():
    (searched, r), (idle, _) = start(mutineer=NAVIGATOR), start(mutineer=NAVIGATOR)
    searched.apply(r["B"], {"type": "search", "target": r["N"]})
    assert seen_by_others(searched, r["B"]) == seen_by_others(idle, r["B"])
    # The Boatswain's own screen at rest: same title, lines, LED and top-level menu
    # (the searches he no longer has are missing only inside "Your move").
    assert at_rest(searched, r["B"]) == at_rest(idle, r["B"])
    for match in (searched, idle):
        ready_all(match)
        match.apply(r["C"], {"type": "vote", "target": r["N"]})
    assert seen_by_others(searched, r["B"]) == seen_by_others(idle, r["B"])
    assert at_rest(searched, r["B"]) == at_rest(idle, r["B"])


@pytest.mark.parametrize("rule", ["truthful", "at_table"])
def test_only_the_target_can_tell_that_the_chaplain_took_a_confession(rule):
    twins = [start(mutineer=HELMSMAN, confession=rule) for _ in range(2)]
    (confessed, r), (idle, _) = twins
    confessed.apply(r["C"], {"type": "confess", "target": r["H"]})
    assert at_rest(confessed, r["C"]) == at_rest(idle, r["C"])
    on_screen = confessed.display(r["H"]).screen_private
    assert on_screen[len(idle.display(r["H"]).screen_private):] == (
        ("The Chaplain took", "your confession") if rule == "truthful" else
        ("Chaplain asks: are", "you the Mutineer?", "Answer with a sign"))
    told = confessed.display(r["H"]).private[len(idle.display(r["H"]).private):]
    assert told == (("The Chaplain took your confession (the Chaplain now knows whether"
                     " you are the Mutineer).",) if rule == "truthful" else
                    ("The Chaplain asks whether you are the Mutineer: answer with a sign"
                     " at the table.",))
    for _ in range(2):
        mine, theirs = seen_by_others(confessed, r["C"]), seen_by_others(idle, r["C"])
        # What the rules tell the target, and nothing else, sets the two apart.
        target_view, target_screen = mine.pop(r["H"])
        assert target_view["state"]["me"].pop("confessed_to") == r["C"]
        assert target_screen["private"][-len(told):] == list(told)
        target_screen["private"] = target_screen["private"][:-len(told)]
        assert (target_view, target_screen) == theirs.pop(r["H"])
        assert mine == theirs
        for match in (confessed, idle):
            ready_all(match)


def test_redeal_keeps_each_viewers_view_and_redraws_the_rest():
    match, r = start(mutineer=NAVIGATOR)
    match.apply(r["B"], {"type": "search", "target": r["C"]})
    st = state(match)
    changed = 0
    for viewer in [PUBLIC, *range(4)]:
        for k in range(5):
            twin = GAME.redeal(st, viewer, random.Random(k))
            assert GAME.view(twin, viewer) == GAME.view(st, viewer)
            changed += twin != st
            if viewer == r["B"]:
                assert twin["cards"][ROLES.index(BOATSWAIN)] == st["cards"][0]
                assert twin["cards"][ROLES.index(CHAPLAIN)] == st["cards"][1]
                assert twin["search"] == r["C"]
    assert changed > 10
    assert state(match) == st


def test_redeal_refuses_when_nothing_fits_what_the_viewer_knows():
    # An impossible position (the Mutineer declared innocent, yet the match goes on):
    # no re-deal can keep the Mutineer's view, so the re-deal says so.
    match, r = start(mutineer=NAVIGATOR)
    st = state(match)
    st["innocent"] = r["N"]
    with pytest.raises(RedealFailed):
        GAME.redeal(st, r["N"], random.Random(1))
