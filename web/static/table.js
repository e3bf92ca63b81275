// The table display: the public view, big enough to read across the table.
// It draws the public payload (GET /api/public/stream): the game, what the table is doing,
// whose turn it is, the seats, scores with a chart of the match, vote tallies after a
// reveal, and the game's own panel when web/static/games/<id>.js has one.
"use strict";

(() => {
  const {el, fill, live, gamePanel, showConnection, COLORS} = window.Mutiny;
  const $ = (id) => document.getElementById(id);

  function nameOf(names, seat) {
    return (names && names[seat]) || `Seat ${seat + 1}`;
  }

  function draw(payload) {
    const match = payload.match || null;
    const summary = payload.summary || {};
    const table = payload.table || {seats: 0, names: [], claimed: []};
    const names = (match && match.names) || table.names || [];

    const title = summary.title || (match && match.title) || "Mutiny Table";
    $("game-title").textContent = title;
    document.querySelector(".tv-brand").hidden = title === "Mutiny Table";
    document.title = `${title} - table`;
    $("headline").textContent = summary.headline ||
      (match ? "" : "Waiting for a game: the host or seat 1 picks one.");

    // In the middle of the felt: the result, whose turn, the public lines, the game panel.
    const result = $("result");
    if (match && match.over) {
      const winners = ((match.result && match.result.winners) || []).map((s) => nameOf(names, s));
      result.textContent = winners.length
        ? `${winners.join(" & ")} ${winners.length > 1 ? "win" : "wins"}!`
        : "The match has ended.";
      if (match.result && match.result.reason) {
        result.append(el("span", {class: "tv-reason"}, match.result.reason));
      }
      result.hidden = false;
    } else {
      result.hidden = true;
    }
    const turn = (match && !match.over && summary.turn) || [];
    const turnBox = $("turn");
    if (match && match.paused) {
      turnBox.textContent = "Paused by the host";
      turnBox.hidden = false;
    } else {
      turnBox.textContent = turn.length ? `Turn: ${turn.map((s) => nameOf(names, s)).join(", ")}` : "";
      turnBox.hidden = !turn.length;
    }
    // The public lines sit on the felt; when the game draws a panel of its own there,
    // they move to the side.
    fill($("lines"), (summary.lines || []).map((line) => el("li", {}, line)));
    fill($("notes"), (summary.lines || []).map((line) => el("li", {}, line)));
    gamePanel("table", match, $("game-panel"), payload).then((drawn) => {
      document.body.classList.toggle("has-panel", drawn);
      $("notes-card").hidden = !drawn || !(summary.lines || []).length;
    });
    drawLobby(payload);
    drawSeats(table, match, summary, names, turn);
    drawScores(summary, names, payload.history || [], match);
    drawTallies(summary.tallies || []);
    $("help").hidden = !!(match && (summary.scores || (summary.tallies || []).length));
  }

  function drawLobby(payload) {
    const lobby = $("lobby");
    if (payload.match) { lobby.hidden = true; return; }
    const games = (payload.lobby && payload.lobby.games) || [];
    fill($("lobby-games"), games.map((game) => el("li", {},
      el("b", {}, game.title || game.id),
      el("span", {}, ` ${game.min_seats}-${game.max_seats} players`))));
    lobby.hidden = false;
  }

  // Seats sit round the felt, seat 1 at the bottom, going clockwise.
  function drawSeats(table, match, summary, names, turn) {
    const count = Math.max(table.seats || 0, names.length);
    const players = match ? (match.names || []).length : count;
    const winners = (match && match.over && match.result && match.result.winners) || [];
    const scores = summary.scores || null;
    const items = [];
    for (let seat = 0; seat < count; seat++) {
      // On an ellipse that keeps every seat card inside the area and off the middle
      // of the felt, where the game's own panel goes.
      const angle = Math.PI / 2 + (seat * 2 * Math.PI) / count;
      const cos = Math.cos(angle).toFixed(4), sin = Math.sin(angle).toFixed(4);
      const claimed = !!(table.claimed && table.claimed[seat]);
      const playing = seat < players;
      const classes = ["tv-seat"];
      if (!claimed) classes.push("unclaimed");
      if (!playing) classes.push("sitting-out");
      if (turn.includes(seat)) classes.push("turn");
      if (winners.includes(seat)) classes.push("winner");
      const status = !playing ? "not playing" : claimed ? "joined" : "scan to join";
      items.push(el("li", {
        class: classes.join(" "),
        style: `left:calc(50% + ${cos} * (50% - var(--seat-w) / 2));` +
               `top:calc(50% + ${sin} * (50% - var(--seat-h) / 2));` +
               `--seat-color:${COLORS[seat % COLORS.length]}`,
        dataset: {seat: String(seat)},
      },
      el("span", {class: "tv-seat-no"}, `Seat ${seat + 1}`),
      el("span", {class: "tv-seat-name"}, nameOf(playing && match ? names : table.names, seat)),
      el("span", {class: "tv-seat-status"}, winners.includes(seat) ? "winner" : status),
      scores && playing && scores[seat] !== undefined && scores[seat] !== null
        ? el("span", {class: "tv-seat-score"}, String(scores[seat])) : null));
    }
    fill($("seats"), items);
  }

  function drawScores(summary, names, history, match) {
    const card = $("scores-card");
    const scores = summary.scores;
    if (!match || !scores || !scores.length) { card.hidden = true; return; }
    card.hidden = false;
    $("score-label").textContent = summary.score_label || "Scores";
    const top = Math.max(...scores);
    fill($("scores"), scores.map((value, seat) => el("li", {
      class: value === top ? "lead" : "",
      style: `--seat-color:${COLORS[seat % COLORS.length]}`,
    },
    el("i", {class: "swatch", "aria-hidden": "true"}),
    el("span", {class: "who"}, nameOf(names, seat)),
    el("b", {}, String(value)))));
    fill($("chart"), window.Mutiny.scoreChart(history, names, summary.score_label || "Score"));
  }

  function drawTallies(tallies) {
    fill($("tallies"), tallies.map((tally) => {
      const rows = tally.rows || [];
      const most = Math.max(1, ...rows.map((row) => Number(row[1]) || 0));
      return el("section", {class: "tv-card tv-tally"},
        el("h2", {}, tally.title || "Votes"),
        el("ol", {}, rows.map(([label, n]) => el("li", {},
          el("span", {class: "who"}, String(label)),
          el("span", {class: "tally-bar"}, el("i", {style: `width:${(100 * (Number(n) || 0)) / most}%`})),
          el("b", {}, String(n))))));
    }));
  }

  live("/api/public/stream", "/api/public/view", draw,
       (state) => showConnection($("conn"), state));
})();
