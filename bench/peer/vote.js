// The peer benchmark's game on boardgame.io: the twin of bench/vote_game.py.
//
// A repeating secret vote: every seat may vote at any time for one of the other
// seats; a ballot is secret (a seat sees only its own, spectators only how many are
// in); when every seat has voted the ballots are revealed, tallied and added to each
// seat's public "votes received", and the next vote opens at once (a new turn, so
// boardgame.io's undo stack, like ours, never reaches back past a reveal).
//
// Secrets: ballots live in G.players[seat], which PlayerView.STRIP_SECRETS removes for
// everyone but that seat. The move is
//   - client: false, or the client would run it on its stripped copy of G and throw;
//   - redact: true, or the action log sent to every client would carry its argument
//     (the ballot) to everyone.
'use strict';

const { INVALID_MOVE, PlayerView, ActivePlayers } = require('boardgame.io/core');

const NAME = 'bench-vote';

// The seat `seat` votes for in vote `round` (1-based): as ballot_for in vote_game.py.
function ballotFor(seat, round, seats = 8) {
  return (seat + 1 + (round % (seats - 1))) % seats;
}

// Ballots per choice in first-seen order, as companion.engine.votes.tally.
function tally(ballots) {
  const counts = new Map();
  for (const seatBallots of ballots) {
    for (const choice of seatBallots) {
      if (choice !== null) counts.set(choice, (counts.get(choice) || 0) + 1);
    }
  }
  return counts;
}

// The choice with strictly the most ballots, or null on a tie.
function topChoice(counts) {
  let best = 0;
  let leaders = [];
  for (const [choice, n] of counts) {
    if (n > best) {
      best = n;
      leaders = [choice];
    } else if (n === best) {
      leaders.push(choice);
    }
  }
  return leaders.length === 1 ? leaders[0] : null;
}

function vote({ G, ctx, playerID, events }, target) {
  const seats = ctx.numPlayers;
  const me = G.players[playerID];
  if (me === undefined || me.ballot !== null) return INVALID_MOVE; // already voted
  if (!Number.isInteger(target) || target < 0 || target >= seats || target === +playerID) {
    return INVALID_MOVE;
  }
  me.ballot = target;
  G.ballotsIn += 1;
  if (G.ballotsIn < seats) return undefined;
  // Everyone has voted: reveal, tally, and open the next vote.
  const ballots = ctx.playOrder.map((id) => [G.players[id].ballot]);
  for (const [target_] of ballots) G.received[target_] += 1;
  const counts = tally(ballots);
  G.last = { round: G.round, ballots, tally: [...counts], top: topChoice(counts) };
  G.round += 1;
  G.ballotsIn = 0;
  for (const id of ctx.playOrder) G.players[id].ballot = null;
  events.endTurn();
  return undefined;
}

const VoteGame = {
  name: NAME,
  minPlayers: 2,
  maxPlayers: 8,
  setup: ({ ctx }) => ({
    round: 1,
    ballotsIn: 0,
    received: Array(ctx.numPlayers).fill(0),
    last: null,
    players: Object.fromEntries(ctx.playOrder.map((id) => [id, { ballot: null }])),
  }),
  turn: { activePlayers: ActivePlayers.ALL },
  moves: { vote: { move: vote, client: false, redact: true } },
  playerView: PlayerView.STRIP_SECRETS,
};

module.exports = { VoteGame, ballotFor, NAME };
