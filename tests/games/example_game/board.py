"""What the table shows of Raid or Bank, from the public view: the summary, the board
parts (whose choice, the ballot box, every purse, the last round, the result), and a
seat's private panel (its own chest)."""
from __future__ import annotations

from typing import Any

from companion.engine import Part
from companion.engine import board as b
from companion.games import kit
from tests.games.example_game.show import said


def summary(view: dict[str, Any]) -> dict[str, Any]:
    state, names = view["state"], view["names"]
    over = view.get("result") is not None
    if over:
        headline = "Match over"
    elif state["vote"] is not None:
        headline = "Everyone chooses in secret: raid or bank"
    else:
        headline = f"{kit.seat_name(names, state['turn'])} chooses: raid or bank"
    return {"headline": headline, "turn": [] if over or state["vote"] else [state["turn"]],
            "scores": list(state["gold"]), "score_label": "Gold",
            "lines": [said(e, names) for e in state["events"]]}


def board(view: dict[str, Any]) -> list[Part]:
    state, names = view["state"], view["names"]
    parts = [b.headline(summary(view)["headline"])]
    vote = state["vote"]
    if vote is not None and not vote["revealed"]:
        parts.append(b.ballots(vote["ballots_in"], vote["ballots_total"], title="Choices"))
    parts.append(b.ledger(["Gold"], names, [[gold] for gold in state["gold"]],
                          turn=summary(view)["turn"]))
    if state["events"]:
        parts.append(b.log([said(e, names) for e in state["events"]], title="Last round"))
    result = view.get("result")
    if result is not None:
        parts.append(b.result(result["winners"], names, scores=result["scores"],
                              score_label="Gold"))
    return parts


def panel(view: dict[str, Any], seat: int) -> list[Part]:
    chest = view["state"]["my_chest"]
    return [b.dice([chest], title="Your chest")] if chest else []
