"""A tiny real game used to test the engine itself: "high card vote".

Each round every seat is dealt a hidden card (chance), then all seats vote secretly for
who they think holds the highest card; a correct voter scores. Three rounds.
"""
from __future__ import annotations

import copy
import random

from companion.engine import CHANCE, PUBLIC, Choice, Display, Game, GameSpec, Option, Result
from companion.engine import votes

SPEC = GameSpec("toy-high-card", "High Card Vote", 2, 5,
                (Option("rounds", 3, "rounds to play", minimum=1, maximum=9),
                 Option("dealt", True, "the companion deals (else cards are entered)")))


class HighCard(Game):
    spec = SPEC
    action_types = frozenset({"deal", "enter", "vote", "bump"})

    def setup(self, seats, options):
        return {"seats": seats, "rounds": options["rounds"], "dealt": options["dealt"],
                "round": 1, "cards": [None] * seats, "vote": None,
                "scores": [0] * seats, "bumps": 0, "last": None}

    def chance_action(self, state, chance):
        if state["dealt"] and state["cards"][0] is None:
            return {"type": "deal", "cards": chance.sample(range(1, 100), state["seats"])}
        return None

    def _entering(self, state):
        return None in state["cards"]

    def acting(self, state):
        if state["round"] > state["rounds"]:
            return []
        if self._entering(state):
            return [] if state["dealt"] else [state["cards"].index(None)]
        return votes.waiting(state["vote"])

    def step(self, state):
        return "deal" if self._entering(state) else "vote"

    def legal_actions(self, state, actor):
        if self._entering(state):
            return [{"type": "enter", "card": c} for c in range(1, 10)]
        acts = [{"type": "vote", "seat": c} for c in votes.choices_for(state["vote"], actor)]
        if state["bumps"] < 2:
            acts.append({"type": "bump"})
        return acts

    def move_deal(self, state, actor, action, ctx):
        assert actor == CHANCE
        state["cards"] = list(action["cards"])
        self._open(state)

    def move_enter(self, state, actor, action, ctx):
        state["cards"][state["cards"].index(None)] = action["card"]
        if not self._entering(state):
            self._open(state)

    def move_bump(self, state, actor, action, ctx):
        state["bumps"] += 1  # an undoable, harmless action

    def _open(self, state):
        n = state["seats"]
        state["vote"] = votes.open_vote("high", [[t for t in range(n) if t != s] for s in range(n)])

    def move_vote(self, state, actor, action, ctx):
        votes.cast(state["vote"], actor, action["seat"])
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
