// Captain's Orders on a phone: a card of your hand is tapped, then where it goes. The
// hand is the seat's panel (companion/games/captains_orders/board.py panel: one card a
// rank, its face the rank), shown while the eye is held. A card tapped is picked; then
// a pirate's line on the board's ledger passes it to them, and the standing order (or
// its empty place) takes it as an order, a follow or a belay. A card with one use and
// no place to go (a discard, a give to the pirate who asked) goes with its tap alone.
"use strict";

(() => {
  const WITH_A_CARD = new Set(["pass", "play", "follow", "belay", "discard", "give"]);
  const ON_THE_ORDER = new Set(["play", "follow", "belay"]);
  const ALONE = new Set(["discard", "give"]);

  const nameOf = (match, seat) => ((match && match.names) || [])[seat] || `Seat ${seat + 1}`;

  // The standing order: its card (face up, "open") or, with no order, its empty place
  // (whose words name the order: the board draws no card there to tap).
  function isTheOrder(spot) {
    if (spot.kind === "card") return spot.item.kind === "order" && spot.item.state === "open";
    return spot.kind === "empty" && /order/i.test(spot.part.empty || "");
  }

  function pickCard(spot, seat) {
    const rank = Number(spot.item.face);
    const uses = seat.choices.filter((c) => WITH_A_CARD.has(c.action.type) && c.action.rank === rank);
    if (!uses.length) return null;
    if (uses.length === 1 && ALONE.has(uses[0].action.type)) return {choice: uses[0]};
    const where = [uses.some((c) => c.action.type === "pass") ? "a pirate's line at the table to pass it" : "",
                   uses.some((c) => ON_THE_ORDER.has(c.action.type)) ? "the standing order to play it there" : ""];
    return {pick: {id: `rank ${rank}`, rank, says: `your ${rank}`, uses,
                   hint: `Now tap ${where.filter(Boolean).join(", or ")}.`}};
  }

  window.MutinyGames["captains-orders"] = {
    taps: {
      // In phones mode (the hand is on the phone) every move with a card of it.
      onBoard(choice, match) {
        const me = match && match.state && match.state.me;
        return WITH_A_CARD.has(choice.action.type) && choice.action.rank !== undefined &&
               !!(me && me.hand);
      },
      at(spot, seat) {
        if (spot.from === "panel" && spot.kind === "card") return pickCard(spot, seat);
        const picked = seat.picked;
        if (!picked || spot.from !== "board") return null;
        const mine = (c) => c.action.rank === picked.rank;
        if (spot.kind === "seat") {
          const choice = seat.choices.find((c) => mine(c) && c.action.type === "pass" && c.action.to === spot.seat);
          return choice ? {choice, words: `Pass the card you picked to ${nameOf(seat.match, spot.seat)}`} : null;
        }
        if (isTheOrder(spot)) {
          const choice = seat.choices.find((c) => mine(c) && ON_THE_ORDER.has(c.action.type));
          return choice ? {choice, words: "Play the card you picked on the standing order"} : null;
        }
        return null;
      },
    },
  };
})();
