"""A tiny real game used to test the engine itself: "high card vote".

Each round every seat is dealt a hidden card (chance), then all seats vote secretly for
who they think holds the highest card; a correct voter scores. Three rounds.
"""
from __future__ import annotations

import copy

from companion.engine import (
    CHANCE,
    Choice,
    Display,
    Game,
    GameSpec,
    Option,
    Result,
    Step,
    votes,
)

SPEC = GameSpec("toy-high-card", "High Card Vote", 2, 5,
                (Option("rounds", 3, "rounds to play", minimum=1, maximum=9),
                 Option("dealt", True, "the companion deals (else cards are entered)")))


def _entering(state):
    return None in state["cards"]


def _dealer(state):
    return [CHANCE] if state["dealt"] else [state["cards"].index(None)]


def _deal(state, chance):
    return {"type": "deal", "cards": chance.sample(range(1, 100), state["seats"])}


def _cards(state, actor):
    return [{"card": c} for c in range(1, 10)]


def _targets(state, seat):
    return [{"seat": c} for c in votes.choices_for(state["vote"], seat)]


def _bumps(state, seat):
    return [{}] if state["bumps"] < 2 else []


class HighCard(Game):
    spec = SPEC
    # The engine's opt-out of its vote policy (docs/engine.md, "Secret votes"): the host
    # may undo a cast ballot here, so the engine's tests can undo across ballots.
    ballots_undoable = True
    steps = {
        "deal": Step(who=_dealer, moves={"enter": _cards}, chance={"deal": _deal}),
        "vote": Step(who=lambda state: votes.waiting(state["vote"]),
                     moves={"vote": _targets, "bump": _bumps}),
    }

    def setup(self, seats, options):
        return {"seats": seats, "rounds": options["rounds"], "dealt": options["dealt"],
                "round": 1, "cards": [None] * seats, "vote": None, "step": "deal",
                "scores": [0] * seats, "bumps": 0, "last": None}

    def move_deal(self, state, actor, action, ctx):
        assert actor == CHANCE
        state["cards"] = list(action["cards"])
        self._open(state)

    def move_enter(self, state, actor, action, ctx):
        state["cards"][state["cards"].index(None)] = action["card"]
        if not _entering(state):
            self._open(state)

    def move_bump(self, state, actor, action, ctx):
        state["bumps"] += 1  # an undoable, harmless action

    def _open(self, state):
        n = state["seats"]
        state["vote"] = votes.open_vote("high", [[t for t in range(n) if t != s] for s in range(n)])
        state["step"] = "vote"

    def move_vote(self, state, actor, action, ctx):
        votes.cast(state["vote"], actor, action["seat"], ctx)
        if votes.is_complete(state["vote"]):
            ballots = votes.reveal(state["vote"], ctx)
            best = max(range(state["seats"]), key=lambda s: state["cards"][s])
            for s, b in enumerate(ballots):
                if b == [best]:
                    state["scores"][s] += 1
            state["last"] = {"cards": list(state["cards"]), "ballots": ballots}
            state["round"] += 1
            state["cards"] = [None] * state["seats"]
            state["vote"] = None
            state["bumps"] = 0
            state["step"] = "deal"

    def result(self, state):
        if state["round"] <= state["rounds"]:
            return None
        top = max(state["scores"])
        return Result([s for s, v in enumerate(state["scores"]) if v == top], list(state["scores"]))

    def view(self, state, viewer):
        out = {"round": state["round"], "scores": list(state["scores"]), "last": state["last"],
               "vote": votes.vote_view(state["vote"], viewer) if state["vote"] else None,
               "bumps": state["bumps"]}
        if isinstance(viewer, int):
            out["my_card"] = state["cards"][viewer]
        return out

    def display(self, view, seat):
        you = view["you"]
        return Display(title=f"Round {view['state']['round']}",
                       choices=tuple(Choice(str(a), a, secret=True) for a in you["legal"]),
                       private=(f"card {view['state'].get('my_card')}",))

    def redeal(self, state, viewer, rng):
        state = copy.deepcopy(state)
        for s in range(state["seats"]):
            if s != viewer and state["cards"][s] is not None:
                state["cards"][s] = rng.randint(1, 99)
        if state["vote"]:
            votes.redeal_vote(state["vote"], viewer, rng)
        return state

    def max_actions(self, seats, options):
        return options["rounds"] * (seats * 2 + 3)


GAME = HighCard()
