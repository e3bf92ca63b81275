// The simulated table's faults: put one into a seat (a screen that does not answer, a
// multiplexer gone, a button stuck down) and lift it again (POST /sim/fault, JSON only,
// as /sim/press). The table's own pages say what failed; this lists what was put in.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);

  function draw(state) {
    const kinds = $("fault-kind");
    if (!kinds.options.length) {
      for (const [kind, what] of Object.entries(state.kinds || {})) {
        const option = document.createElement("option");
        option.value = kind;
        option.textContent = kind;
        option.title = what;
        kinds.append(option);
      }
    }
    $("fault-list").replaceChildren(...(state.faults || []).map((fault) => {
      const row = document.createElement("li");
      const button = fault.kind === "button-stuck" ? ` (${fault.role})` : "";
      const name = `${fault.kind} on seat ${fault.seat}${button}`;
      const words = document.createElement("span");
      words.textContent = `${name}: ${fault.what}`;
      const lift = document.createElement("button");
      lift.type = "button";
      lift.textContent = "Lift";
      lift.setAttribute("aria-label", `Lift ${name}`);
      lift.addEventListener("click", () => send({kind: fault.kind, seat: fault.seat, role: fault.role, on: false}));
      row.append(words, " ", lift);
      return row;
    }));
  }

  async function send(body) {
    const reply = await fetch("/sim/fault", {
      method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify(body),
    });
    if (reply.ok) draw(await reply.json());
  }

  $("fault-form").addEventListener("submit", (event) => {
    event.preventDefault();
    send({kind: $("fault-kind").value, seat: Number($("fault-seat").value),
          role: $("fault-role").value, on: true});
  });

  fetch("/sim/faults").then((reply) => reply.ok ? reply.json() : null).then((state) => {
    if (state) draw(state);
  });
})();
