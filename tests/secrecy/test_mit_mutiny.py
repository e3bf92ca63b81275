"""Mutiny in Time's hidden moves at the seat level: the First Mate's peek is told to
nobody, the peeked pirate included (docs/games/mit-mutiny.md; docs/seats.md, "The
secrecy rule")."""
from __future__ import annotations

from tests.secrecy.harness import action_is


def at_the_peek(twins):
    pair = twins("mit-mutiny", 4, seed="peek")
    pair.until(lambda match: match.step() == "peek")
    return pair, pair.one.match.acting()[0]


def test_nobody_can_tell_whether_the_first_mate_peeked(twins):
    pair, mate = at_the_peek(twins)
    pair.assert_same()
    target = next(s for s in range(4) if s != mate)
    pair.one.choose(mate, action_is(type="peek", seat=target))
    pair.two.choose(mate, action_is(type="no_peek"))
    pair.assert_same(private=[mate])


def test_nobody_can_tell_whose_dice_the_first_mate_peeked_at(twins):
    pair, mate = at_the_peek(twins)
    others = [s for s in range(4) if s != mate]
    pair.one.choose(mate, action_is(type="peek", seat=others[0]))
    pair.two.choose(mate, action_is(type="peek", seat=others[-1]))
    pair.assert_same(private=[mate])
    # The next step (the decisions) starts alike on both tables.
    seat = pair.one.match.acting()[0]
    pair.both(seat, lambda action: True)
    pair.assert_same(private=[mate])


def test_nobody_can_tell_a_secret_ballot(twins):
    """M6 'secret': each ballot (mutiny or defend) is cast apart; one table casts the
    first choice, the other the last; nobody else can tell until the last one reveals."""
    pair = twins("mit-mutiny", 4, {"ballot": "secret"}, seed="sides")
    pair.until(lambda match: match.step() == "ballot")
    told: list[int] = []
    while len(pair.one.match.acting()) > 1:  # the last ballot reveals them all
        seat = pair.one.match.acting()[0]
        offered = [c.action for c in pair.one.hardware[seat].display.choices
                   if c.action["type"] == "ballot"]
        pair.one.choose(seat, lambda a, want=offered[0]: a == want)
        pair.two.choose(seat, lambda a, want=offered[-1]: a == want)
        told.append(seat)
        pair.assert_same(private=told)
    assert len(told) == 2
