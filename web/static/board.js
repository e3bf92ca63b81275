// Board parts: one renderer for what a game describes (companion/engine/board.py,
// docs/boards.md), drawn the same way on the table display and on the phones.
//   MutinyBoard.draw(holder, parts, {me, where})  draw a list of parts into holder
//   MutinyBoard.part(part, ctx)                    one part as a DOM node
//   MutinyBoard.hasScript(gameId)                  whether web/static/games/<id>.js exists
//   MutinyBoard.tappable(node, spot, ctx)          on a phone: node as a button that makes a choice
//   MutinyBoard.gridTaps({types, field, shown})    a game's taps for the places of a grid
// Every word is drawn whole, as the game wrote it; seats get their colour and marker.
// On a phone a redraw keeps every node that did not change (see "drawing again"), and
// a word's fitted size is kept for the next time the same word is in the same place.
"use strict";

window.MutinyBoard = (() => {
  const {el, svg, fill, COLORS, MARKERS, scoreChart} = window.Mutiny;

  const hasScript = (id) => window.Mutiny.hasGameScript(id);

  const colorOf = (seat) => COLORS[((seat % COLORS.length) + COLORS.length) % COLORS.length];
  const markerOf = (seat) => MARKERS[((seat % MARKERS.length) + MARKERS.length) % MARKERS.length];
  const seatStyle = (seat) => (typeof seat === "number" ? `--seat-color:${colorOf(seat)}` : null);

  // A seat's marker: a coloured shape that tells seats apart without colour too.
  function marker(seat) {
    if (typeof seat !== "number") return null;
    return el("span", {class: "seat-mark", style: seatStyle(seat), "aria-hidden": "true"},
      markerOf(seat));
  }

  // A part's title, one level below the page's heading around the board (ctx.level).
  let level = 3;
  function heading(title) {
    return title ? el(`h${Math.min(level, 6)}`, {class: "part-title"}, title) : null;
  }

  const shown = (value) => (value === null || value === undefined ? "" : String(value));

  // -- parts --------------------------------------------------------------------------
  const draw = {
    headline(part) {
      return el("p", {class: "part-headline", dataset: {tone: part.tone || ""}}, part.text);
    },

    text(part) {
      return el("section", {class: "part-text", dataset: {tone: part.tone || ""}},
        heading(part.title), (part.lines || []).map((line) => el("p", {}, line)));
    },

    facts(part) {
      return el("section", {class: "part-facts"}, heading(part.title),
        el("dl", {}, (part.items || []).map(([label, value]) =>
          el("div", {class: "fact"}, el("dt", {}, label), el("dd", {}, shown(value))))));
    },

    card(part) {
      const words = part.down
        ? `Face down${part.back ? ` (${part.back})` : ""}`
        : [part.face, part.value !== undefined ? shown(part.value) : "", part.detail]
            .filter(Boolean).join(", ");
      const label = [part.label, words, part.state].filter(Boolean).join(": ");
      // A figure named by its words (a figure may not take an image's role).
      return el("figure", {
        class: "part-card" + (part.down ? " down" : " up"),
        dataset: {state: part.state || "", kind: part.kind || ""},
        style: seatStyle(part.seat), "aria-label": label,
      },
      el("div", {class: "card-body", "aria-hidden": "true"},
        part.down
          ? el("span", {class: "card-back"}, part.back || "")
          : [part.value !== undefined ? el("span", {class: "card-value"}, shown(part.value)) : null,
             el("span", {class: "card-face"}, part.face),
             part.detail ? el("span", {class: "card-detail"}, part.detail) : null]),
      part.label ? el("figcaption", {"aria-hidden": "true"}, part.label) : null);
    },

    cards(part, ctx) {
      const items = part.items || [];
      return el("section", {class: "part-cards"}, heading(part.title),
        items.length
          ? el("div", {class: "card-row", role: "list"},
              items.map((item, index) => el("div", {role: "listitem"},
                tappable(one(item, ctx), {kind: "card", part, index, item}, ctx))))
          : (part.empty ? tappable(el("p", {class: "part-empty"}, part.empty),
                                   {kind: "empty", part}, ctx) : null));
    },

    grid(part, ctx) {
      const cols = part.cols || 1, rows = part.rows || 1;
      const rowNames = part.row_names || [], colNames = part.col_names || [];
      const cells = part.cells || [];
      const head = colNames.length
        ? el("thead", {}, el("tr", {}, rowNames.length ? el("td", {}) : null,
            colNames.map((name) => el("th", {scope: "col"}, name))))
        : null;
      const body = [];
      for (let r = 0; r < rows; r++) {
        const line = [];
        if (rowNames.length) line.push(el("th", {scope: "row"}, rowNames[r]));
        for (let c = 0; c < cols; c++) {
          const cell = cells[r * cols + c];
          const place = [rowNames[r], colNames[c]].filter(Boolean).join("");
          line.push(el("td", {dataset: {place}},
            cell === null || cell === undefined
              ? el("span", {class: "grid-empty"}, el("span", {class: "sr-only"}, `${place}: no card`))
              : typeof cell === "object"
                ? tappable(one(cell, ctx), {kind: "cell", part, index: r * cols + c, item: cell}, ctx)
                : el("span", {class: "grid-word"}, shown(cell))));
        }
        body.push(el("tr", {}, line));
      }
      return el("section", {class: "part-grid", style: `--cols:${cols};--rows:${rows}`,
                            dataset: {rows: String(rows)}}, heading(part.title),
        el("div", {class: "grid-scroll"},
          el("table", {"aria-label": part.title || `A grid of ${rows} by ${cols}`}, head,
            el("tbody", {}, body))));
    },

    dice(part) {
      const faces = part.faces || [];
      const held = part.held || [];
      const tones = part.tones || [];
      const allHidden = faces.length && faces.every((f) => f === null || f === undefined);
      return el("section", {class: "part-dice", style: seatStyle(part.seat)}, heading(part.title),
        el("ol", {class: "dice-row", "aria-label": part.title || "Dice"},
          faces.map((face, i) => die(face, !!held[i], tones[i] || "", i))),
        allHidden && part.hidden ? el("p", {class: "part-empty"}, part.hidden) : null);
    },

    ledger(part, ctx) {
      const turn = new Set(part.turn || []), out = new Set(part.out || []);
      const winners = new Set(part.winners || []);
      const columns = part.columns || [];
      return el("section", {class: "part-ledger"}, heading(part.title),
        el("table", {},
          el("thead", {}, el("tr", {}, el("th", {scope: "col"}, "Seat"),
            columns.map((c) => el("th", {scope: "col"}, c)))),
          el("tbody", {}, (part.rows || []).map((row) => {
            const classes = [];
            if (turn.has(row.seat)) classes.push("turn");
            if (out.has(row.seat)) classes.push("out");
            if (winners.has(row.seat)) classes.push("winner");
            return el("tr", {class: classes.join(" "), dataset: {seat: String(row.seat)},
                             style: seatStyle(row.seat)},
              el("th", {scope: "row"}, tappable([marker(row.seat), el("span", {class: "who"}, row.name),
                turn.has(row.seat) ? el("span", {class: "tag"}, "turn") : null,
                winners.has(row.seat) ? el("span", {class: "tag"}, "winner") : null,
                out.has(row.seat) ? el("span", {class: "tag"}, "out") : null,
                row.note ? el("span", {class: "note"}, row.note) : null],
                {kind: "seat", part, seat: row.seat}, ctx)),
              (row.values || []).map((v, i) => el("td", {dataset: {label: shown(columns[i])}},
                shown(v))));
          }))));
    },

    seats(part) {
      return el("section", {class: "part-seats"}, heading(part.title),
        el("ul", {}, (part.people || []).map((p) => el("li", {
          class: [p.turn ? "turn" : "", p.out ? "out" : "", p.winner ? "winner" : ""].join(" ").trim(),
          style: seatStyle(p.seat), dataset: {seat: String(p.seat)},
        }, marker(p.seat), el("b", {}, p.name), p.role ? el("span", {class: "role"}, p.role) : null,
          p.note ? el("span", {class: "note"}, p.note) : null))));
    },

    ballots(part, ctx) {
      const total = part.total || 0, cast = part.cast || 0;
      const slots = [];
      for (let i = 0; i < total; i++) slots.push(el("i", {class: i < cast ? "in" : ""}));
      return el("section", {class: "part-ballots"}, heading(part.title),
        el("p", {class: "ballot-count"}, el("b", {}, `${cast} of ${total}`), " ballots in"),
        el("div", {class: "ballot-box", "aria-hidden": "true"}, slots),
        part.done ? el("p", {class: "ballot-done"}, part.done.length
          ? ["Voted: ", part.done.map((s) => nameOf(ctx, s)).join(", ")] : "Nobody has voted yet") : null);
    },

    tally(part) {
      const rows = part.rows || [];
      const most = Math.max(1, ...rows.map((row) => Number(row[1]) || 0));
      return el("section", {class: "part-tally"}, heading(part.title),
        el("ol", {}, rows.map(([label, n]) => el("li", {},
          el("span", {class: "who"}, String(label)),
          el("span", {class: "tally-bar", "aria-hidden": "true"},
            el("i", {style: `width:${(100 * (Number(n) || 0)) / most}%`})),
          el("b", {}, shown(n))))),
        part.note ? el("p", {class: "part-empty"}, part.note) : null);
    },

    log(part, ctx) {
      const lines = part.lines || [];
      const max = ctx.where === "table" ? 8 : lines.length;
      const list = el("ol", {class: "log-lines", "aria-live": ctx.where === "table" ? "polite" : "off"},
        lines.slice(-max).map((line) => el("li", {}, line)));
      if (ctx.where === "phone") {
        // On a phone the story folds away: the decision comes first.
        return el("details", {class: "part-log"},
          el("summary", {}, part.title || "What happened", ` (${lines.length})`), list);
      }
      return el("section", {class: "part-log"}, heading(part.title || "What happened"),
        lines.length ? list : el("p", {class: "part-empty"}, "Nothing yet."));
    },

    result(part) {
      const winners = new Set(part.winners || []);
      const names = part.names || [];
      const scores = part.scores || null;
      return el("section", {class: "part-result", role: "status"},
        el("p", {class: "result-title"}, part.title),
        (part.lines || []).map((line) => el("p", {}, line)),
        scores ? el("ol", {class: "result-scores", "aria-label": part.score_label || "Scores"},
          scores.map((v, seat) => el("li", {class: winners.has(seat) ? "winner" : "",
                                            style: seatStyle(seat)},
            marker(seat), el("span", {class: "who"}, names[seat] || `Seat ${seat + 1}`),
            el("b", {}, shown(v))))) : null);
    },

    chart(part) {
      return el("figure", {class: "part-chart"}, heading(part.title),
        scoreChart(part.points || [], part.names || [], part.label || "Score"));
    },

    group(part, ctx) {
      const title = heading(part.title);
      if (part.title) level += 1;  // the group's parts sit under its title
      try {
        return el("section", {class: "part-group" + (part.layout === "row" ? " row" : "")},
          title, el("div", {class: "group-parts"},
            (part.parts || []).map((child) => one(child, ctx))));
      } finally {
        if (part.title) level -= 1;
      }
    },
  };

  function nameOf(ctx, seat) {
    return (ctx.names && ctx.names[seat]) || `Seat ${seat + 1}`;
  }

  // Pips for 1-6 on a 30x30 face; a word for anything else.
  const PIPS = {1: [[15, 15]], 2: [[8, 8], [22, 22]], 3: [[8, 8], [15, 15], [22, 22]],
                4: [[8, 8], [22, 8], [8, 22], [22, 22]],
                5: [[8, 8], [22, 8], [15, 15], [8, 22], [22, 22]],
                6: [[8, 8], [22, 8], [8, 15], [22, 15], [8, 22], [22, 22]]};
  function die(face, held, tone, index) {
    const unknown = face === null || face === undefined;
    const words = unknown ? "not shown" : String(face);
    const pips = typeof face === "number" && PIPS[face];
    return el("li", {class: "die" + (held ? " held" : "") + (unknown ? " unknown" : ""),
                     dataset: {tone}, "aria-label": `Die ${index + 1}: ${words}${held ? ", held" : ""}`},
      pips
        ? svg("svg", {viewBox: "0 0 30 30", "aria-hidden": "true"},
            pips.map(([cx, cy]) => svg("circle", {cx, cy, r: 3.2, fill: "currentColor"})))
        : el("span", {class: "die-word", "aria-hidden": "true"}, unknown ? "?" : words),
      held ? el("span", {class: "die-held", "aria-hidden": "true"}, "held") : null);
  }

  // -- the phone: places to tap ----------------------------------------------------------
  // On a phone, a place of a part that makes one of the seat's choices (a grid's card, a
  // card of a hand, a ledger's seat, a die) is a real button, named by the choice's own
  // words. Which place makes which choice is the page's business: ctx.taps (seat.js)
  // answers resolve(spot) with null or {label, key, pressed, armed, disabled} and wires the
  // button with bind(button, tap) (a button kept by a redraw gets the new drawing's tap in
  // button.mutinyTap). spot: {from: ctx.from ("board", "panel", "game"),
  // kind: "cell" | "card" | "empty" | "seat" | "die", part, index, item, seat}. The table
  // display passes no taps: nothing on the TV is a button.
  function tappable(content, spot, ctx) {
    const taps = ctx && ctx.taps;
    if (!taps || content === null || content === undefined) return content;
    const tap = taps.resolve({...spot, from: ctx.from || "board"});
    if (!tap) return content;
    // The button says it in the choice's words (a screen reader's name for it); what it
    // shows (the card, the die, the pirate) is the picture of it, and an image role
    // inside a button would be a second name.
    [content].flat().forEach((node) => {
      if (!node || node.setAttribute === undefined) return;
      node.removeAttribute("role");
      node.removeAttribute("aria-label");
      node.setAttribute("aria-hidden", "true");
    });
    const button = el("button", {
      type: "button", class: "tap" + (tap.armed ? " armed" : "") + (tap.pressed ? " picked" : ""),
      dataset: {spot: tap.key},
      "aria-pressed": tap.pressed === undefined ? null : String(!!tap.pressed),
    }, el("span", {class: "sr-only"}, tap.label), content);
    button.disabled = !!tap.disabled;
    taps.bind(button, tap);
    return button;
  }

  // A game's taps (web/static/games/<id>.js) where a grid's place i is the action's
  // `field` for the action types `types` (Card Mutiny's flips, MIT Mutiny's Scout):
  // {onBoard, at} as seat.js asks them. shown(match): whether the board has that grid
  // now; words(index): the place's public words for a secret choice at rest.
  function gridTaps({types, field, shown, words}) {
    const kinds = new Set(types);
    return {
      onBoard: (choice, match) => kinds.has(choice.action.type) && !!(match && match.state && shown(match)),
      at(spot, seat) {
        if (spot.from !== "board" || spot.kind !== "cell" || spot.part.part !== "grid") return null;
        const choice = seat.choices.find((c) => kinds.has(c.action.type) && c.action[field] === spot.index);
        return choice ? {choice, words: words ? words(spot.index) : undefined} : null;
      },
    };
  }

  function one(part, ctx) {
    const maker = part && draw[part.part];
    if (!maker) return null;  // a kind this page does not know: left out, never guessed
    const node = maker(part, ctx);
    if (node && node.dataset) node.dataset.part = part.part;
    return node;
  }

  // Words in fixed places (a grid's cards, a die) are never broken: where the longest
  // word is wider than its place, its font shrinks until it fits. Call it again when
  // the holder's size or type changes (table.js does, as it fits the TV).
  // The smallest type a word may be given is the holder's data-least (px): the table
  // display sets its floor there (docs/boards.md); 6 px elsewhere.
  const FITTED = ".part-grid .card-body > span, .die-word, .grid-word";
  // A holder's fitting: the width and type it was fitted at, and each word's fitted size
  // there (by the word and its place: a grid's places all have the same width, given
  // the holder's width and the grid's rows and columns), so a word drawn again in a
  // place of the same size is given its size without measuring anything.
  const fitting = new WeakMap();  // holder -> {width, type, sizes: Map(key -> px or null)}

  const wordKey = (node) => {
    const grid = node.closest(".part-grid");
    return [node.className, grid ? grid.style.cssText : "", node.textContent].join("|");
  };

  // A word's size from its measures (null: it fits as it is).
  function fittedSize(node, least) {
    const room = node.clientWidth, need = node.scrollWidth;
    if (!room || need <= room + 0.5) return null;
    const size = parseFloat(getComputedStyle(node).fontSize);
    return Math.floor(size * room / need * 10) / 10;
  }

  function setSize(node, size, least) {
    if (!size) return;
    node.style.setProperty("font-size", `${Math.max(least, size)}px`);
    // A card's back too small for its word ("Island" on a phone's map) shows the back
    // alone: the card's label still says it to a screen reader.
    if (size < least && node.classList.contains("card-back")) node.classList.add("unfit");
  }

  // A ledger whose columns (each as wide as its longest word) are wider than its box
  // becomes one block per seat: measured with the words (one layout), written after.
  const overflows = (ledger) => ledger.scrollWidth > ledger.clientWidth + 1;

  function fitWords(holder) {
    if (!holder || holder.hidden) return;
    const least = Number(holder.dataset.least) || 6;
    const words = [...holder.querySelectorAll(FITTED)];
    const ledgers = [...holder.querySelectorAll(".part-ledger")];
    words.forEach((node) => {
      node.style.removeProperty("font-size");
      node.classList.remove("unfit");
    });
    ledgers.forEach((node) => node.classList.remove("stacked"));
    // Every measure first, then every write: one layout, not one per word.
    const width = holder.clientWidth, type = getComputedStyle(holder).fontSize;
    const sizes = words.map((node) => fittedSize(node, least));
    const wide = ledgers.map(overflows);
    const kept = new Map(words.map((node, i) => [wordKey(node), sizes[i]]));
    words.forEach((node, i) => setSize(node, sizes[i], least));
    ledgers.forEach((node, i) => { if (wide[i]) node.classList.add("stacked"); });
    fitting.set(holder, {width, type, sizes: kept});
  }

  // After a redraw that kept the places that did not change: only the new words are
  // fitted, at once from the sizes kept where the same word was fitted in a place of
  // the same size. A word never fitted there, or a ledger whose lines changed, is
  // measured in the next animation frame, every read before every write: the frame's
  // own layout, not one more forced in the middle of drawing the page.
  const toMeasure = new Map();    // holder -> {words, ledgers} waiting for the next frame
  let measuring = 0;
  function fitNew(holder, fresh, ledgers) {
    const known = fitting.get(holder);
    if (!known) { fitWords(holder); return; }
    const least = Number(holder.dataset.least) || 6;
    const within = (selector) => fresh.flatMap((node) => (node.querySelectorAll ? [
      ...(node.matches(selector) ? [node] : []), ...node.querySelectorAll(selector)] : []));
    const words = within(FITTED);
    const unknown = [];
    words.forEach((node) => {
      const key = wordKey(node);
      if (known.sizes.has(key)) setSize(node, known.sizes.get(key), least);
      else unknown.push(node);
    });
    ledgers.push(...within(".part-ledger"));
    if (!unknown.length && !ledgers.length) return;
    const waiting = toMeasure.get(holder) || {words: [], ledgers: []};
    waiting.words.push(...unknown);
    waiting.ledgers.push(...ledgers);
    toMeasure.set(holder, waiting);
    if (!measuring) measuring = requestAnimationFrame(measureWaiting);
  }

  function measureWaiting() {
    measuring = 0;
    const jobs = [...toMeasure].filter(([holder]) => holder.isConnected && !holder.hidden);
    toMeasure.clear();
    // A changed ledger is measured as one table (it may fit now); then every read (one
    // layout, this frame's own), then every write: all before the frame is painted.
    jobs.forEach(([, {ledgers}]) => ledgers.forEach((node) => node.classList.remove("stacked")));
    const reads = jobs.map(([holder, {words, ledgers}]) => {
      const known = fitting.get(holder);
      if (!known || getComputedStyle(holder).fontSize !== known.type ||
          holder.clientWidth !== known.width) return null;  // all fitted again below
      const least = Number(holder.dataset.least) || 6;
      const shown = words.filter((node) => holder.contains(node));
      const kept = ledgers.filter((node) => holder.contains(node));
      return {known, least, words: shown, keys: shown.map(wordKey),
              sizes: shown.map((node) => fittedSize(node, least)),
              ledgers: kept, wide: kept.map(overflows)};
    });
    jobs.forEach(([holder], i) => {
      const read = reads[i];
      if (!read) { fitWords(holder); return; }
      read.words.forEach((node, j) => {
        setSize(node, read.sizes[j], read.least);
        read.known.sizes.set(read.keys[j], read.sizes[j]);
      });
      read.ledgers.forEach((node, j) => { if (read.wide[j]) node.classList.add("stacked"); });
    });
  }

  // -- drawing again, keeping what did not change ----------------------------------------
  // A phone draws its board again after every move; most of a 7x7 grid is the same
  // as before. Each holder keeps the nodes of its last drawing as they were made
  // (before any fitting, never shown: `made`), and a redraw compares the new drawing with
  // them (Chromium's isEqualNode): a node the same as before is kept on the page, one
  // whose own tag is the same has its attributes set and its children compared in turn,
  // and only a node that really changed is put in new. Chromium lays out and the words
  // are fitted only there, and a finger or the focus on a kept place stays on it.
  const made = new WeakMap();    // holder -> the nodes of its last drawing, as made

  const isElement = (node) => !!node && node.nodeType === Node.ELEMENT_NODE;
  const isTap = (node) => isElement(node) && node.matches("button.tap");
  const sameTag = (a, b) => isElement(a) && isElement(b) && a.tagName === b.tagName &&
                            a.namespaceURI === b.namespaceURI;
  // (A word, or a node of words alone, is put in whole: its fitted size was for its text.)
  const hasElements = (node) => node.firstElementChild !== null;

  // Classes fitting gives a node, kept when its other attributes are set.
  const FIT_CLASSES = ["stacked", "unfit"];
  function setAttributes(shown, want) {
    for (const attr of [...shown.attributes]) {
      // (A story the player opened stays open.)
      if (attr.name === "open" && shown.tagName === "DETAILS") continue;
      if (!want.hasAttribute(attr.name)) shown.removeAttribute(attr.name);
    }
    for (const attr of want.attributes) {
      if (shown.getAttribute(attr.name) === attr.value) continue;
      const fitted = attr.name === "class" ? FIT_CLASSES.filter((c) => shown.classList.contains(c)) : [];
      shown.setAttribute(attr.name, attr.value);
      fitted.forEach((c) => shown.classList.add(c));
    }
  }

  // A tap on a kept place does what the new drawing says (seat.js reads button.mutinyTap).
  function keepTaps(shown, want) {
    const taps = (node) => [node, ...node.querySelectorAll("button.tap")].filter(isTap);
    const olds = taps(shown), wants = taps(want);
    olds.forEach((button, i) => {
      button.mutinyTap = wants[i].mutinyTap;
      button.disabled = wants[i].disabled;
    });
  }

  // Put `want` (the new drawing's node) where `shown` is on the page, `was` being what
  // `shown` was made as. Returns what `want`'s place in `made` holds from now on (a copy
  // where `want` itself went onto the page: fitting changes what is shown). out.fresh:
  // nodes put in new (their words to fit); out.ledgers: kept ledgers whose lines changed.
  function morph(shown, was, want, out) {
    if (shown.nodeType === Node.TEXT_NODE && want.nodeType === Node.TEXT_NODE) {
      if (shown.data !== want.data) shown.data = want.data;
      return want;
    }
    if (isElement(shown) && was.isEqualNode(want)) {
      keepTaps(shown, want);
      return want;
    }
    // A place that became a button (its seat may act now) or stopped being one keeps
    // its picture: the button's content is the same card, its attributes aside.
    if (isTap(want) && !isTap(was) && sameTag(want.lastChild, was)) {
      const content = want.lastChild, copy = want.cloneNode(true);
      shown.replaceWith(want);
      content.replaceWith(shown);
      morph(shown, was, content, out);
      return copy;
    }
    if (isTap(was) && !isTap(want) && sameTag(was.lastChild, want)) {
      const content = shown.lastChild;
      shown.replaceWith(content);
      return morph(content, was.lastChild, want, out);
    }
    // The same tag with the same number of children: its attributes set, its children
    // compared in turn (a card turned up keeps its place and frame; a button its tap).
    if (sameTag(was, want) && hasElements(want) && was.childNodes.length === want.childNodes.length &&
        was.childNodes.length === shown.childNodes.length) {
      setAttributes(shown, want);
      if (isTap(want)) shown.mutinyTap = want.mutinyTap;
      // (want's children that went onto the page are replaced by their copies.)
      want.replaceChildren(...morphChildren(shown, [...was.childNodes], [...want.childNodes], out));
      if (shown.classList.contains("part-ledger")) out.ledgers.push(shown);
      return want;
    }
    return put(shown, want, out);
  }

  // want onto the page in shown's place (or at the end of parent): a copy stays made.
  function put(shown, want, out, parent) {
    const copy = want.cloneNode(true);
    if (shown) shown.replaceWith(want);
    else parent.append(want);
    out.fresh.push(want);
    return copy;
  }

  // The children of parent (as made: was) become wanted's; returns them as made now.
  function morphChildren(parent, was, wanted, out) {
    const shown = [...parent.childNodes];
    const now = wanted.map((want, i) => (shown[i] && was[i] ? morph(shown[i], was[i], want, out)
      : put(shown[i], want, out, parent)));
    while (parent.childNodes.length > wanted.length) parent.lastChild.remove();
    return now;
  }

  // Draw parts into holder (replacing what was there); ctx: {where: "table"|"phone",
  // names: seat names (for ballots' "done"), level: the heading level of part titles
  // (default 3), taps and from: a phone's places to tap (see tappable)}. Returns whether
  // anything was drawn. On a phone, the places that did not change are kept (morph).
  function drawParts(holder, parts, ctx) {
    level = (ctx && ctx.level) || 3;
    const nodes = (parts || []).map((part) => one(part, ctx || {})).filter(Boolean);
    holder.hidden = nodes.length === 0;
    if (!(ctx && ctx.where === "phone")) {
      fill(holder, nodes);
      // The table display fits the words itself, once a frame, with the rest (table.js).
      if (ctx && ctx.fitsLater) return nodes.length > 0;
      fitWords(holder);
      watchWidth(holder);
      return nodes.length > 0;
    }
    const out = {fresh: [], ledgers: []};
    window.__t0 = performance.now();
    made.set(holder, morphChildren(holder, made.get(holder) || [], nodes, out));
    fitNew(holder, out.fresh, out.ledgers);
    if (window.__log) window.__log.push([holder.id, out.fresh.length, out.ledgers.length, performance.now() - window.__t0, out.fresh.slice(0, 6).map((n) => (n.parentNode ? n.parentNode.tagName + "." + n.parentNode.className + ">" : "") + (n.tagName || "#text") + "." + (n.className || "") + ":" + (n.textContent || "").slice(0, 40))]);
    watchWidth(holder);
    return nodes.length > 0;
  }

  // A page may show a holder only after drawing into it, and a phone may turn: its
  // words are fitted again when its width changes (measured by Chromium's own layout,
  // never by a read that would force one).
  const watched = new WeakSet();
  const widths = window.ResizeObserver ? new ResizeObserver((entries) => {
    for (const entry of entries) {
      const known = fitting.get(entry.target);
      if (known && !entry.target.hidden && entry.target.clientWidth !== known.width) {
        fitWords(entry.target);
      }
    }
  }) : null;
  function watchWidth(holder) {
    if (watched.has(holder)) return;
    watched.add(holder);
    if (widths) widths.observe(holder);
    else requestAnimationFrame(() => fitWords(holder));
  }

  // A new window size gives the places new widths: fit the words again.
  let refit = 0;
  window.addEventListener("resize", () => {
    cancelAnimationFrame(refit);
    refit = requestAnimationFrame(() => document.querySelectorAll(".board").forEach(fitWords));
  });

  return {draw: drawParts, part: one, hasScript, colorOf, markerOf, marker, fitWords, tappable,
          gridTaps};
})();
