// The simulated table: draws each seat's OLED frame pixel for pixel and turns
// pointer and key presses into button edges on the simulated pins.
"use strict";

const WIDTH = 128, HEIGHT = 64;
const LIT = [190, 236, 255], DARK = [6, 10, 14];

// Each seat's place around the table (set here, not in a style attribute: the page's
// Content Security Policy allows no inline style).
document.querySelectorAll(".seat[data-seat]").forEach((seat, _i, all) => {
  seat.style.setProperty("--i", seat.dataset.seat);
  seat.style.setProperty("--n", String(all.length));
});

function drawFrame(canvas, base64) {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const ctx = canvas.getContext("2d");
  const image = ctx.createImageData(WIDTH, HEIGHT);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      // Pillow packs mode "1" rows most significant bit first, 16 bytes a row.
      const on = (bytes[y * 16 + (x >> 3)] >> (7 - (x & 7))) & 1;
      const [r, g, b] = on ? LIT : DARK;
      const i = (y * WIDTH + x) * 4;
      image.data[i] = r; image.data[i + 1] = g; image.data[i + 2] = b; image.data[i + 3] = 255;
    }
  }
  ctx.putImageData(image, 0, 0);
}

function send(seat, button, down) {
  return fetch("/sim/press", {
    method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify({seat, button, down}),
  });
}

function wireButtons() {
  for (const el of document.querySelectorAll(".seat button.hw")) {
    const seat = Number(el.closest(".seat").dataset.seat);
    const button = el.dataset.button;
    let down = false;
    const release = () => { if (down) { down = false; el.classList.remove("down"); send(seat, button, false); } };
    el.addEventListener("pointerdown", (event) => {
      event.preventDefault();
      el.setPointerCapture(event.pointerId);
      down = true; el.classList.add("down"); send(seat, button, true);
    });
    el.addEventListener("pointerup", release);
    el.addEventListener("pointercancel", release);
    el.addEventListener("lostpointercapture", release);
    el.addEventListener("contextmenu", (event) => event.preventDefault());
  }
}

// Keys: a seat's number picks the seat, then arrows and space press its buttons. On a
// focused button of the page, Enter and space press that button (the seat and button it
// names), and every other control keeps its own keys.
function wireKeys() {
  const keys = {ArrowLeft: "previous", " ": "select", Enter: "select", ArrowRight: "next"};
  let seat = 0;
  const held = new Map();  // key -> {seat, button} pressed by it, until it comes up
  const mark = () => document.querySelectorAll(".seat").forEach(
    (el) => el.classList.toggle("focused", Number(el.dataset.seat) === seat));
  const pressed = (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const hw = target && target.closest("button.hw");
    if (hw && (event.key === "Enter" || event.key === " ")) {
      return {seat: Number(hw.closest(".seat").dataset.seat), button: hw.dataset.button};
    }
    if (target && target.closest("input, select, textarea, button, a, summary")) return null;
    return keys[event.key] ? {seat, button: keys[event.key]} : null;
  };
  document.addEventListener("keydown", (event) => {
    const n = document.querySelectorAll(".seat").length;
    const inField = event.target instanceof Element && event.target.closest("input, select, textarea");
    if (!inField && /^[1-8]$/.test(event.key) && Number(event.key) <= n) {
      seat = Number(event.key) - 1; mark(); return;
    }
    const press = pressed(event);
    if (!press) return;
    event.preventDefault();
    if (held.has(event.key)) return;  // the key repeats while held
    held.set(event.key, press); send(press.seat, press.button, true);
  });
  document.addEventListener("keyup", (event) => {
    const press = held.get(event.key);
    if (!press) return;
    held.delete(event.key);
    event.preventDefault();  // (a button's own click on space's release: already pressed)
    send(press.seat, press.button, false);
  });
  mark();
}

function listen() {
  const status = document.getElementById("match-line");
  const source = new EventSource("/sim/stream");
  source.addEventListener("frames", (event) => {
    const data = JSON.parse(event.data);
    for (const seat of data.seats) {
      drawFrame(document.querySelector(`canvas[data-seat="${seat.seat}"]`), seat.frame);
      const led = document.querySelector(`.seat[data-seat="${seat.seat}"] .led`);
      led.className = "led " + seat.led;
    }
    status.textContent = data.match;
  });
  source.onerror = () => { status.textContent = "Reconnecting..."; };
}

wireButtons();
wireKeys();
listen();
