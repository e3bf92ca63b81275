"""The peer benchmark's game on our side: a repeating 8-seat secret vote.

The same work as ``bench/peer/vote.js``, its boardgame.io twin: every seat may vote at
any time for one of the other seats; a ballot is secret (a seat sees only its own, the
public only how many are in); when every seat has voted the ballots are revealed,
tallied and added to each seat's public "votes received", and the next vote opens at
once. Both sides pick the same ballots, so the two servers do the same work per vote.

A bench-only game: it is not registered in :mod:`companion.games` (the benchmark hands
the instance to :meth:`companion.table.Table.start`).
"""
from __future__ import annotations

import copy
import random
from typing import Any

from companion.engine import Choice, Display, Game, GameSpec, Option, Result, votes
from companion.engine.rules import Actor, Context, State, Viewer

SPEC = GameSpec("bench-vote", "Bench Vote", 2, 8,
                (Option("rounds", 3, "votes to hold", minimum=1, maximum=100_000),))


def ballot_for(seat: int, round_: int, seats: int = 8) -> int:
    """The seat ``seat`` votes for in vote ``round_`` (1-based): never itself, and a
    different one from round to round. ``vote.js`` picks the same."""
    return (seat + 1 + (round_ % (seats - 1))) % seats


class VoteGame(Game):
    spec = SPEC
    action_types = frozenset({"vote"})

    def setup(self, seats: int, options: dict[str, Any]) -> State:
        return {"seats": seats, "rounds": options["rounds"], "round": 1,
                "vote": self._open(seats, 1), "received": [0] * seats, "last": None}

    @staticmethod
    def _open(seats: int, round_: int) -> votes.Vote:
        return votes.open_vote(f"vote {round_}",
                               [[t for t in range(seats) if t != s] for s in range(seats)])

    def acting(self, state: State) -> list[Actor]:
        return votes.waiting(state["vote"]) if state["vote"] else []

    def step(self, state: State) -> str:
        return "vote" if state["vote"] else "over"

    def legal_actions(self, state: State, actor: Actor) -> list[dict[str, Any]]:
        if not state["vote"] or not isinstance(actor, int):
            return []
        return [{"type": "vote", "seat": t} for t in votes.choices_for(state["vote"], actor)]

    def move_vote(self, state: State, actor: Actor, action: dict[str, Any], ctx: Context) -> None:
        vote = state["vote"]
        votes.cast(vote, actor, action["seat"], ctx)
        if not votes.is_complete(vote):
            return
        ballots = votes.reveal(vote, ctx)
        for seat_ballots in ballots:
            for target in seat_ballots:
                state["received"][target] += 1
        state["last"] = {"round": state["round"], "ballots": ballots,
                         "tally": [[c, n] for c, n in votes.tally(ballots).items()],
                         "top": votes.top_choice(ballots)}
        state["round"] += 1
        more = state["round"] <= state["rounds"]
        state["vote"] = self._open(state["seats"], state["round"]) if more else None

    def result(self, state: State) -> Result | None:
        if state["vote"] is not None:
            return None
        most = max(state["received"])
        return Result([s for s, n in enumerate(state["received"]) if n == most],
                      list(state["received"]), "the votes are over")

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        last = state["last"]
        if last is not None:  # public since its reveal; copied, never shared
            last = {"round": last["round"], "ballots": [list(b) for b in last["ballots"]],
                    "tally": [list(t) for t in last["tally"]], "top": last["top"]}
        return {"round": state["round"], "rounds": state["rounds"],
                "received": list(state["received"]), "last": last,
                "vote": votes.vote_view(state["vote"], viewer) if state["vote"] else None}

    def display(self, view: dict[str, Any], seat: int) -> Display:
        names, state, you = view["names"], view["state"], view["you"]
        vote, last = state["vote"], state["last"]
        lines = []
        if vote:
            lines.append(f"{vote['ballots_in']}/{vote['ballots_total']} votes in")
        if last:
            top = last["top"]
            lines.append(f"Vote {last['round']}: " + (names[top] if top is not None else "tie"))
        mine = vote.get("mine") if vote else None
        return Display(
            title=f"Vote {state['round']}" if vote else "Votes over",
            lines=tuple(lines),
            choices=tuple(Choice(names[a["seat"]], a, secret=True) for a in you["legal"]),
            private=(f"You voted {names[mine[0]]}",) if mine else (),
            led="blink" if you["may_act"] else "off")

    def summary(self, view: dict[str, Any]) -> dict[str, Any]:
        state, names = view["state"], view["names"]
        vote, last = state["vote"], state["last"]
        tallies = []
        if last:
            tallies.append({"title": f"Vote {last['round']}",
                            "rows": [[names[c], n] for c, n in last["tally"]]})
        headline = (f"Vote {state['round']}: {vote['ballots_in']}/{vote['ballots_total']} in"
                    if vote else "The votes are over")
        return {"headline": headline, "turn": [], "scores": None, "score_label": "",
                "lines": [f"{names[s]}: {n} votes received"
                          for s, n in enumerate(state["received"]) if n],
                "tallies": tallies}

    def redeal(self, state: State, viewer: Viewer, rng: random.Random) -> State:
        state = copy.deepcopy(state)
        if state["vote"]:
            votes.redeal_vote(state["vote"], viewer, rng)
        return state

    def max_actions(self, seats: int, options: dict[str, Any]) -> int:
        return options["rounds"] * seats


GAME = VoteGame()
