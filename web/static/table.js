// The table display: the public view, big enough to read across the table.
// It draws the public payload (GET /api/public/stream): the game, what the table is doing,
// whose turn it is, the seats, the game's board (board.js draws its parts: docs/boards.md),
// scores with a chart of the match, the story so far, and the game's own panel when
// web/static/games/<id>.js has one.
"use strict";

(() => {
  const {el, fill, live, gamePanel, showConnection, COLORS} = window.Mutiny;
  const {draw: drawBoard, marker, fitWords} = window.MutinyBoard;
  const $ = (id) => document.getElementById(id);
  // Parts that read best beside the table than on it: the story and charts.
  const SIDE_PARTS = new Set(["log", "chart"]);
  let announced = "";

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
    // The board's headline, when it has one, is the bar's (the summary's otherwise).
    const top = ((match && payload.board) || []).find((part) => part.part === "headline");
    $("headline").textContent = (top && top.text) || summary.headline ||
      (match ? "" : "Waiting for a game: the host or seat 1 picks one.");
    window.MutinyPace.timer($("timer"), (match && payload.timer) || null);
    window.MutinyPace.nudges("table", payload.nudge);
    $("sound").hidden = !(payload.nudge && payload.nudge.sound);
    // Seat parts that do not answer: which, what to check, play that seat by phone.
    const faults = payload.faults || [];
    fill($("faults"), faults.map((fault) => el("li", {}, fault.words)));
    $("faults").hidden = faults.length === 0;

    const board = (match && payload.board) || [];
    const has = (kind) => board.some((part) => part.part === kind);
    // The result: the board's own result part tells it when there is one.
    const result = $("result");
    if (match && match.over && !has("result")) {
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
    announce(match, names);
    const turn = (match && !match.over && summary.turn) || [];
    const turnBox = $("turn");
    if (match && match.paused) {
      turnBox.textContent = "Paused by the host";
      turnBox.hidden = false;
    } else {
      turnBox.textContent = turn.length ? `Turn: ${turn.map((s) => nameOf(names, s)).join(", ")}` : "";
      turnBox.hidden = !turn.length;
    }
    // The board: on the felt, with the story and charts at the side.
    const ctx = {where: "table", names, level: 2};
    drawBoard($("board"), board.filter((part) => !SIDE_PARTS.has(part.part) && part.part !== "headline"), ctx);
    drawBoard($("side-board"), board.filter((part) => SIDE_PARTS.has(part.part)), ctx);
    gamePanel("table", match, $("game-panel"), payload).then((drawn) => {
      document.body.classList.toggle("has-panel", drawn);
      fitScreen();
    });
    drawLobby(payload);
    drawSeats(table, match, summary, names, turn);
    drawScores(summary, names, payload.history || [], match);
    drawTallies(has("tally") ? [] : summary.tallies || []);
    $("help").hidden = !!match;
    fitScreen();
  }

  // A TV cannot scroll: when the felt or the side holds more than the screen, their
  // parts get smaller type (and the grid smaller places) until all of it is in sight,
  // down to a floor that stays readable across the table, then flow in two columns.
  // Parts are sized in em (docs/boards.md).
  const SMALLEST = 0.62;
  // The how-to, while it teaches the game before the first move, is not counted: the
  // board is sized for the felt it will have to itself.
  function taught(box) {
    const howto = box.querySelector(".howto");
    return howto && howto.offsetHeight > 100 ? howto.offsetHeight + 12 : 0;  // open, not a button
  }
  const overflows = (box) => box.scrollHeight - taught(box) > box.clientHeight + 1;
  function shrink(box, holder, smallest) {
    holder.style.removeProperty("font-size");
    holder.style.removeProperty("--fit");
    fitWords(holder);
    let scale = 1;
    for (let tries = 0; tries < 10 && overflows(box) && scale > smallest; tries++) {
      scale = Math.max(smallest, scale * Math.max(0.8, Math.min(0.97, box.clientHeight / (box.scrollHeight - taught(box)))));
      holder.style.setProperty("font-size", `${scale.toFixed(3)}em`);
      holder.style.setProperty("--fit", scale.toFixed(3));
      fitWords(holder);
    }
  }
  function fitBox(box, holder) {
    holder.classList.remove("columns");
    if (getComputedStyle(box).overflowY === "visible") {  // a narrow page scrolls instead
      holder.style.removeProperty("font-size");
      holder.style.removeProperty("--fit");
      fitWords(holder);
    } else {
      shrink(box, holder, SMALLEST);
      // Still too much at the smallest type: the parts flow in two columns (a wide felt),
      // in type a notch smaller still if they must.
      if (overflows(box) && holder.clientWidth > 560) {
        holder.classList.add("columns");
        shrink(box, holder, SMALLEST - 0.12);
      }
    }
  }

  function fitScreen() {
    fitBox(document.querySelector(".tv-table"), $("board"));
    // The side holds the scores, the story, tonight's standings and the join codes: all
    // of it shrinks together (its cards are sized in em).
    const side = document.querySelector(".tv-side");
    fitBox(side, side);
  }
  // Fit again when the window, the felt's size (the seats' row above it grows) or the
  // how-to in the felt (howto.js draws it after us) changes.
  let refit = 0;
  const fitSoon = () => {
    cancelAnimationFrame(refit);
    refit = requestAnimationFrame(fitScreen);
  };
  window.addEventListener("resize", fitSoon);
  new ResizeObserver(fitSoon).observe(document.querySelector(".tv-table"));
  new MutationObserver(fitSoon).observe($("howto"), {childList: true, subtree: true});
  // night.js draws tonight's standings and the join codes into the side after us.
  new MutationObserver(fitSoon).observe(document.querySelector(".tv-side"),
                                        {childList: true, subtree: true});

  // Say a result once to a screen reader (the headline is a polite live region already).
  function announce(match, names) {
    let text = "";
    if (match && match.over && match.result) {
      const winners = (match.result.winners || []).map((s) => nameOf(names, s));
      text = winners.length ? `${winners.join(" and ")} ${winners.length > 1 ? "win" : "wins"}.`
                            : "The match has ended.";
    }
    if (text !== announced) {
      announced = text;
      $("announce").textContent = text;
    }
  }

  function drawLobby(payload) {
    const lobby = $("lobby");
    if (payload.match) { lobby.hidden = true; return; }
    const games = (payload.lobby && payload.lobby.games) || [];
    fill($("lobby-games"), games.map((game) => el("li", {},
      el("b", {}, game.title || game.id),
      el("span", {}, game.min_seats === game.max_seats ? ` ${game.min_seats} players`
                                                        : ` ${game.min_seats}-${game.max_seats} players`))));
    lobby.hidden = false;
  }

  // The seats in a row along the top of the table, in seat order (clockwise).
  function drawSeats(table, match, summary, names, turn) {
    const count = Math.max(table.seats || 0, names.length);
    const players = match ? (match.names || []).length : count;
    const winners = (match && match.over && match.result && match.result.winners) || [];
    const scores = summary.scores || null;
    const items = [];
    for (let seat = 0; seat < count; seat++) {
      const claimed = !!(table.claimed && table.claimed[seat]);
      const playing = seat < players;
      const classes = ["tv-seat"];
      if (!claimed) classes.push("unclaimed");
      if (!playing) classes.push("sitting-out");
      if (turn.includes(seat)) classes.push("turn");
      if (winners.includes(seat)) classes.push("winner");
      // A seat that had a player tonight is joined again only by a code the host shows
      // or its own screen, never by one on this display (docs/security.md).
      const open = !!(table.open_code && table.open_code[seat]);
      const status = (!playing ? "not playing" : claimed ? "joined"
        : open ? "scan to join" : "ask the host") +
        (turn.includes(seat) ? " \u00b7 their turn" : "");
      items.push(el("li", {
        class: classes.join(" "),
        style: `--seat-color:${COLORS[seat % COLORS.length]}`,
        dataset: {seat: String(seat)},
      },
      el("span", {class: "tv-seat-no"}, marker(seat), ` Seat ${seat + 1}`),
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
    marker(seat),
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

  window.MutinyPace.soundButton($("sound"));
  live("/api/public/stream", "/api/public/view", draw, (state) => {
    showConnection($("conn"), state);
    if (state === "live") window.MutinyPace.sync();
  });
})();
