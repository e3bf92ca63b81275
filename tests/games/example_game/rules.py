"""Raid or Bank's rules: setup, the steps, the moves, the opening of the chests and the
result. In turn, each choice is public; at once, the choices are a secret vote."""
from __future__ import annotations

from typing import Any

from companion.engine import (
    CHANCE,
    Action,
    Actor,
    Chance,
    Context,
    Game,
    Parts,
    Result,
    State,
    Step,
    always,
    votes,
)
from companion.games import kit
from tests.games.example_game import board, howto, show, views
from tests.games.example_game.data import BANK, CHEST_MOST, CHOOSE, DEAL, SPEC


def _deal(state: State, chance: Chance) -> Action:
    return {"type": "deal", "chests": chance.roll(CHEST_MOST, state["seats"])}


def _choosers(state: State) -> list[Actor]:
    """In turn, the pirate whose turn it is; at once, every pirate yet to choose."""
    if state["vote"] is None:
        return [state["turn"]]
    return list(votes.waiting(state["vote"]))


def _raids(state: State, seat: Actor) -> list[dict[str, Any]]:
    return [{"target": other} for other in kit.clockwise(state["seats"], seat)]


class RaidOrBank(Game):
    """The rules of Raid or Bank over plain JSON state."""

    spec = SPEC
    parts = Parts(views=views, show=show, board=board, howto=howto)
    steps = {
        DEAL: Step(who=lambda state: [CHANCE], chance={"deal": _deal}),
        CHOOSE: Step(who=_choosers, moves={"bank": always, "raid": _raids}),
    }

    def setup(self, seats: int, options: dict[str, Any]) -> State:
        return {"seats": seats, "rounds": options["rounds"], "at_once": options["at_once"],
                "round": 1, "step": DEAL, "chests": [None] * seats, "turn": 0,
                "plans": [None] * seats, "vote": None, "gold": [0] * seats,
                "events": [], "opened": None}

    def move_deal(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        seats = state["seats"]
        state["chests"], state["plans"] = list(action["chests"]), [None] * seats
        state["turn"], state["step"] = 0, CHOOSE
        if state["at_once"]:
            ballots = [[BANK, *kit.clockwise(seats, seat)] for seat in range(seats)]
            state["vote"] = votes.open_vote("plans", ballots)

    def move_bank(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        self._choose(state, actor, BANK, ctx)

    def move_raid(self, state: State, actor: Actor, action: Action, ctx: Context) -> None:
        self._choose(state, actor, action["target"], ctx)

    def _choose(self, state: State, seat: int, plan: int | str, ctx: Context) -> None:
        vote = state["vote"]
        if vote is None:  # in turn: each choice is public as it is made
            state["plans"][seat] = plan
            if seat + 1 < state["seats"]:
                state["turn"] = seat + 1
                return
            ctx.reveal()  # the chests are opened: no undo past this point
        else:  # at once: a secret ballot, final once cast
            votes.cast(vote, seat, plan, ctx)
            if not votes.is_complete(vote):
                return
            state["plans"] = [ballots[0] for ballots in votes.reveal(vote, ctx)]
        _open_chests(state)

    def result(self, state: State) -> Result | None:
        if state["round"] <= state["rounds"]:
            return None
        top = max(state["gold"])
        return Result([s for s, g in enumerate(state["gold"]) if g == top], list(state["gold"]))

    def max_actions(self, seats: int, options: dict[str, Any]) -> int:
        return options["rounds"] * (seats + 1)


def _open_chests(state: State) -> None:
    """Every raid against the chests, then every chest nobody lost is kept."""
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
    state["chests"], state["step"] = [None] * state["seats"], DEAL


GAME = RaidOrBank()
