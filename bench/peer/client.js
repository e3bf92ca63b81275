// The peer benchmark's clients: 8 seats and 2 spectators on boardgame.io's SocketIO
// transport, all on loopback, against server.js:
//   node client.js PORT VOTES [WARMUP] [PACE_MS]
// Creates a match through the Lobby API, joins every seat (each gets its credentials,
// as our seats get their cookies), then casts VOTES ballots one after another, seat
// k % 8 casting ballot k. Each is timed from the move call until all 10 clients hold
// the state that counts it; one latency in ms per line, then a summary JSON line.
// WARMUP ballots (default 16) are cast first and not reported. Ballots start at least
// PACE_MS apart (default 0: each as soon as the last reached every client).
'use strict';

process.env.NODE_ENV = process.env.NODE_ENV || 'production';

const { performance } = require('node:perf_hooks');
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { VoteGame, ballotFor, NAME } = require('./vote');

const SEATS = 8;
const SPECTATORS = 2;
const VOTE_TIMEOUT_MS = 10000;

function usage() {
  console.error('usage: node client.js PORT VOTES [WARMUP] [PACE_MS]');
  process.exit(2);
}

const port = Number(process.argv[2]);
const votes = Number(process.argv[3]);
const warmup = process.argv[4] === undefined ? 16 : Number(process.argv[4]);
const paceMs = process.argv[5] === undefined ? 0 : Number(process.argv[5]);
if (!Number.isInteger(port) || !Number.isInteger(votes) || votes < 1 || !Number.isInteger(warmup) || warmup < 0 || !(paceMs >= 0)) {
  usage();
}
const base = `http://127.0.0.1:${port}`;

async function lobby(path, body) {
  const response = await fetch(`${base}/games/${NAME}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`lobby ${path}: HTTP ${response.status} ${await response.text()}`);
  return response.json();
}

// How many ballots a client's state counts: the same in a seat's and a spectator's view.
function progress(state) {
  return state && state.G ? (state.G.round - 1) * SEATS + state.G.ballotsIn : -1;
}

function quantile(sorted, q) {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index];
}

async function main() {
  const { matchID } = await lobby('/create', { numPlayers: SEATS });
  const credentials = [];
  for (let seat = 0; seat < SEATS; seat += 1) {
    const joined = await lobby(`/${matchID}/join`, { playerID: String(seat), playerName: `Seat ${seat + 1}` });
    credentials.push(joined.playerCredentials);
  }

  const clients = [];
  for (let i = 0; i < SEATS + SPECTATORS; i += 1) {
    const seat = i < SEATS;
    clients.push(Client({
      game: VoteGame,
      numPlayers: SEATS,
      matchID,
      playerID: seat ? String(i) : undefined,
      credentials: seat ? credentials[i] : undefined,
      multiplayer: SocketIO({ server: base }),
      debug: false,
    }));
  }

  // Every client reports the ballot count of each state it is handed; the waiter of
  // the current ballot resolves when the last of the 10 holds it.
  const seen = clients.map(() => -1);
  let waiter = null;
  const check = () => {
    if (waiter && seen.every((n) => n >= waiter.target)) {
      const done = waiter;
      waiter = null;
      done.resolve(performance.now());
    }
  };
  clients.forEach((client, i) => {
    client.subscribe((state) => {
      seen[i] = progress(state);
      check();
    });
  });
  const reach = (target) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(
      `ballot ${target} did not reach every client within ${VOTE_TIMEOUT_MS} ms (seen ${seen})`)), VOTE_TIMEOUT_MS);
    waiter = { target, resolve: (t) => { clearTimeout(timer); resolve(t); } };
    check();
  });

  for (const client of clients) client.start();
  await reach(0); // every client is connected and synced

  const latencies = [];
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  let lastStart = -Infinity;
  for (let k = 0; k < warmup + votes; k += 1) {
    const wait = lastStart + paceMs - performance.now();
    if (wait > 0) await sleep(wait);
    lastStart = performance.now();
    const seat = k % SEATS;
    const round = 1 + Math.floor(k / SEATS);
    const target = reach(k + 1);
    const started = performance.now();
    clients[seat].moves.vote(ballotFor(seat, round, SEATS));
    const finished = await target;
    if (k >= warmup) {
      const ms = finished - started;
      latencies.push(ms);
      process.stdout.write(`${ms.toFixed(3)}\n`);
    }
  }

  const sorted = [...latencies].sort((a, b) => a - b);
  const round3 = (x) => Math.round(x * 1000) / 1000;
  console.log(JSON.stringify({
    summary: true, votes, warmup, clients: clients.length,
    p50_ms: round3(quantile(sorted, 0.5)), p99_ms: round3(quantile(sorted, 0.99)),
    max_ms: round3(sorted[sorted.length - 1]),
  }));
  for (const client of clients) client.stop();
  process.exit(0);
}

main().catch((err) => {
  console.error(err && err.stack ? err.stack : err);
  process.exit(1);
});
