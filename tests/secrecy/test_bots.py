"""A bot at the table tells no secret by its presence or its pace (docs/bots.md, "At the
table"): twin tables with the same bot in the same seat, one of whose First Mates peeks
at the bot's dice and the other's at another pirate's, show the bot thinking alike, due
at the same moment of their clocks, acting alike; nobody at either table can tell them
apart. The pace is compared on the tables' fake clocks, never by a wall clock."""
from __future__ import annotations

from typing import Any

from tests.secrecy.harness import Side, Twins, action_is

BOT = 3  # seat 4


class BotTwins(Twins):
    """Twin tables whose seat ``bot`` is empty and has the same bot (same level and
    seed) before the match starts."""

    def __init__(self, folder, game: str, players: int, options: dict[str, Any],
                 seed: str, bot: int = BOT):
        self.one = Side(folder, "one", players)
        self.two = Side(folder, "two", players)
        self.bot = bot
        for side in self.sides:
            # Worlds alone decide (no clock cap): on a machine too busy to give the bots'
            # worker a core, a cap would cut the twins' searches at different worlds.
            side.table.bots.search_clock = False
            side.table.replace_seat(bot, unclaim=True)  # the seat is empty: a bot sits
            side.table.seat_bot(bot, "easy", seed="twins")
            side.start(game, players, options, seed)

    def thinking(self):
        """Each table's decision under way for the bot (or None)."""
        return [side.table.bots.seats[self.bot].thinking for side in self.sides]

    def people_due(self) -> list[int]:
        match = self.one.match
        return [s for s in match.acting() if isinstance(s, int) and s != self.bot
                and self.one.hardware[s].display.choices]

    def bot_acts(self, private=()) -> None:
        """Only the bot is due: both bots think alike and act at the same moment."""
        one, two = self.thinking()
        assert one is not None and two is not None, "the bot is not thinking"
        assert (one.began, one.due) == (two.began, two.due)
        assert self.one.table.payload(0)[1]["summary"] == self.two.table.payload(0)[1]["summary"]
        self.assert_same(private=private)  # thinking, on every page and screen alike
        acted = len(self.one.table.bots.acted)
        self.advance(one.due - self.one.hardware.clock.now())
        done = [side.table.bots.acted for side in self.sides]
        assert len(done[0]) == acted + 1
        # The same scheduled moments (and the same choice) at both tables.
        assert done[0] == done[1]
        assert done[0][-1]["acted"] - done[0][-1]["began"] == one.due - one.began
        self.assert_same(private=private)

    def play(self, done, private=(), bot_turns: int | None = None) -> int:
        """People make their first choice, the bot its own, until ``done(match)`` (or
        ``bot_turns`` of the bot's); returns how many times the bot acted."""
        turns = 0
        for _ in range(400):
            if done(self.one.match) or (bot_turns is not None and turns >= bot_turns):
                return turns
            people = self.people_due()
            if people:
                seat = people[0]
                wanted = self.one.hardware[seat].display.choices[0].action
                self.both(seat, lambda action, wanted=wanted: action == wanted)
            else:
                self.bot_acts(private)
                turns += 1
        raise AssertionError(f"not reached: {self.one.match.step()}")


def test_nobody_can_tell_from_the_bot_whose_dice_the_first_mate_peeked_at(tmp_path):
    pair = BotTwins(tmp_path, "mit-mutiny", 4, {}, seed="bot-peek")
    try:
        assert pair.one.table.payload("public")[1]["table"]["names"][BOT] == "Bot (easy)"
        pair.play(lambda match: match.step() == "peek")
        mate = pair.one.match.acting()[0]
        assert mate != BOT, "this seed makes the bot the First Mate: pick another"
        other = next(s for s in range(4) if s not in (mate, BOT))
        pair.apart(mate, action_is(type="peek", seat=BOT), action_is(type="peek", seat=other))
        pair.assert_same(private=[mate])
        # The bot's every later turn: thinking alike, due alike, acting alike.
        turns = pair.play(lambda match: match.is_over, private=[mate], bot_turns=4)
        assert turns == 4
    finally:
        pair.close()
