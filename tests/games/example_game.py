"""Raid or Bank: the example game of docs/writing-a-game.md (not installed: tests only).

Every round the companion deals each pirate a hidden chest of 1 to 6 gold (chance). Then,
one pirate at a time in seat order, each either banks their chest or raids another
pirate. When all have chosen, the chests are opened: a raid on a smaller chest takes its
gold (the raider keeps their own too) and that chest is lost to its owner; a raid on an
equal or bigger chest loses the raider's own chest. Every other chest is kept. After the
last round the richest pirate wins (ties share).

Rulings (the rulebook above is this docstring): a chest raided by several pirates pays
each winning raider in full; choices are public as they are made, chests stay hidden
until the round's end.
"""
from __future__ import annotations

import random

from companion.engine import (CHANCE, PUBLIC, Choice, Display, Game, GameSpec, Option, Result,
                              Step, always)
from companion.engine.match import clone
from companion.games import kit

BANK = "bank"
CHEST_MOST = 6

SPEC = GameSpec("raid-or-bank", "Raid or Bank", 2, 4,
                (Option("rounds", 3, "rounds to play", minimum=1, maximum=9),))


# -- rules: who acts in each step and what they may do ------------------------------------

def _deal(state, chance):
    return {"type": "deal", "chests": chance.roll(CHEST_MOST, state["seats"])}


def _raids(state, seat):
    return [{"target": other} for other in kit.clockwise(state["seats"], seat)]


class RaidOrBank(Game):
    spec = SPEC
    steps = {
        "deal": Step(who=lambda state: [CHANCE], chance={"deal": _deal}),
        "choose": Step(who=lambda state: [state["turn"]],
                       moves={"bank": always, "raid": _raids}),
    }

    def setup(self, seats, options):
        return {"seats": seats, "rounds": options["rounds"], "round": 1, "step": "deal",
                "chests": [None] * seats, "plans": [None] * seats, "turn": 0,
                "gold": [0] * seats, "events": [], "opened": None}

    def move_deal(self, state, actor, action, ctx):
        state["chests"] = list(action["chests"])
        state["plans"] = [None] * state["seats"]
        state["turn"], state["step"] = 0, "choose"

    def move_bank(self, state, actor, action, ctx):
        self._plan(state, actor, BANK, ctx)

    def move_raid(self, state, actor, action, ctx):
        self._plan(state, actor, action["target"], ctx)

    def _plan(self, state, seat, plan, ctx):
        state["plans"][seat] = plan
        if seat + 1 < state["seats"]:
            state["turn"] = seat + 1
            return
        ctx.reveal()  # the chests are opened: no undo past this point
        self._open_chests(state)

    def _open_chests(self, state):
        chests, plans, events = state["chests"], state["plans"], []
        lost = [False] * state["seats"]
        for seat, target in enumerate(plans):
            if target == BANK:
                continue
            won = chests[seat] > chests[target]
            lost[target if won else seat] = True
            if won:
                state["gold"][seat] += chests[target]
            kit.log_event(events, "raid_won" if won else "raid_lost", seat=seat,
                          target=target, n=chests[target] if won else chests[seat])
        for seat in range(state["seats"]):
            if not lost[seat]:
                state["gold"][seat] += chests[seat]
                kit.log_event(events, "keep", seat=seat, n=chests[seat])
        state["events"], state["opened"] = events, list(chests)
        state["round"] += 1
        state["chests"], state["step"] = [None] * state["seats"], "deal"

    def result(self, state):
        if state["round"] <= state["rounds"]:
            return None
        top = max(state["gold"])
        return Result([s for s, g in enumerate(state["gold"]) if g == top], list(state["gold"]))

    def max_actions(self, seats, options):
        return options["rounds"] * (seats + 1)

    # -- what each viewer may see -----------------------------------------------------------
    def view(self, state, viewer):
        out = {key: state[key] for key in ("seats", "round", "rounds", "turn", "step")}
        out |= {"gold": list(state["gold"]), "plans": list(state["plans"]),
                "events": [dict(e) for e in state["events"]], "opened": state["opened"]}
        if viewer != PUBLIC:
            out["my_chest"] = state["chests"][viewer]
        return out

    def redeal(self, state, viewer, rng: random.Random):
        """Every chest the viewer cannot see, dealt again (chests opened are history)."""
        state = clone(state)
        for seat, chest in enumerate(state["chests"]):
            if seat != viewer and chest is not None:
                state["chests"][seat] = rng.randint(1, CHEST_MOST)
        return state

    # -- what a seat and the table show ----------------------------------------------------
    def display(self, view, seat):
        state, names = view["state"], view["names"]
        choices = tuple(_choice(action, names) for action in view["you"]["legal"])
        last = [_said(e, names) for e in state["events"] if e["seat"] == seat]
        return Display(title=f"Round {min(state['round'], state['rounds'])}",
                       lines=(f"Your gold: {state['gold'][seat]}", *last), choices=choices,
                       private=(f"Your chest: {state.get('my_chest') or 'not dealt'}",),
                       led="on" if choices else "off")

    def summary(self, view):
        state, names = view["state"], view["names"]
        over = view.get("result") is not None
        headline = "Match over" if over else (
            f"{kit.seat_name(names, state['turn'])} chooses: raid or bank")
        return {"headline": headline, "turn": [] if over else [state["turn"]],
                "scores": list(state["gold"]), "score_label": "Gold",
                "lines": [_said(e, names) for e in state["events"]]}


#: The round's end in words (kit.word names the seats).
EVENT_TEXTS = {"keep": "{seat} keeps a chest of {n}",
               "raid_won": "{seat} raids {target} for {n}",
               "raid_lost": "{seat} raids {target} and loses {n}"}


def _said(event, names):
    return kit.word(event, names, EVENT_TEXTS)


def _choice(action, names):
    if action["type"] == "bank":
        return Choice("Bank your chest", action)
    target = kit.seat_name(names, action["target"])
    return Choice(f"Raid {target}", action, group=("Raid a pirate",), short=target)


GAME = RaidOrBank()
