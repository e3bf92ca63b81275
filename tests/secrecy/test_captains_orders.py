"""Captain's Orders' hidden moves at the seat level: which card is passed face down,
and which card the receiver then discards, are told to nobody else (the receiver of
a pass sees the card, as at a real table) (docs/games/captains-orders.md;
docs/seats.md, "The secrecy rule")."""
from __future__ import annotations

import pytest

from tests.secrecy.harness import action_is


def ranks(side, seat, kind):
    return sorted({c.action["rank"] for c in side.hardware[seat].display.choices
                   if c.action["type"] == kind})


def at_a_turn(twins, **options):
    pair = twins("captains-orders", 4, options, seed="orders")
    pair.until(lambda match: any(a["type"] == "pass" for s in match.acting()
                                 for a in match.legal_actions(s)),
               pick=lambda action: action["type"] != "ask")
    passer = pair.one.match.acting()[0]
    return pair, passer


@pytest.mark.parametrize("turn_seconds", [0, 45])
def test_nobody_else_can_tell_which_card_was_passed_or_discarded(twins, turn_seconds):
    # With a turn timer, what it shows and the nudges of the next turn stay alike too.
    pair, passer = at_a_turn(twins, turn_seconds=turn_seconds)
    pair.assert_same()
    held = ranks(pair.one, passer, "pass")
    assert len(held) > 1
    receiver = next(c.action["to"] for c in pair.one.hardware[passer].display.choices
                    if c.action["type"] == "pass")
    pair.apart(passer, action_is(type="pass", rank=held[0], to=receiver),
               action_is(type="pass", rank=held[-1], to=receiver))
    told = [passer, receiver]
    pair.assert_same(private=told)
    assert pair.one.match.acting() == [receiver]
    one, two = ranks(pair.one, receiver, "discard"), ranks(pair.two, receiver, "discard")
    pair.apart(receiver, action_is(type="discard", rank=one[0]),
               action_is(type="discard", rank=two[-1]))
    pair.assert_same(private=told)
