/* The live table page: keeps the newest snapshot and hands it to the pieces that draw it.
 *
 *   felt.js      the felt (seats, cards, bets, board, pots, button, results)
 *   controls.js  the action bar, amount sizing, shortcuts, the seat's own buttons
 *   side.js      last hands, chat, deck commitment
 *   clock.js     the turn countdown, "next hand in", the "your turn" banner
 *   socket.js    the WebSocket: reconnects, resyncs, sends frames with refs
 *   prefs.js     this browser's preferences: sound, motion, four-colour deck
 *   motion.js    cards and chips moving, over the state already drawn (changes.js says what)
 *   sound.js     the table's sounds: your turn, the moves, a win, your last seconds
 *   a11y.js      the table in words for a screen reader, and the keys that read and act
 *
 * The page is painted from the snapshot embedded in it before the socket connects.
 */

import { renderFelt, stakesText, el } from "./felt.js";
import { openTableSocket } from "./socket.js";
import { createControls } from "./controls.js";
import { createSide } from "./side.js";
import { startClock } from "./clock.js";
import { applyFourColour, pref, setPref } from "./prefs.js";
import { createMotion } from "./motion.js";
import { createSound } from "./sound.js";
import { createA11y } from "./a11y.js";

const root = document.getElementById("poker");
const felt = root.querySelector(".felt");
const status = root.querySelector(".conn-status");
const toasts = root.querySelector(".toasts");
const soundToggle = root.querySelector("[data-toggle=sound]");
const colourToggle = root.querySelector("[data-toggle=four-colour]");
const initial = document.getElementById("snapshot");
let snap = initial ? JSON.parse(initial.textContent) : null;
let lastHandEnded = undefined;
let lastClosed = undefined;

function toast(message, kind) {
  const item = el("div", "toast" + (kind ? " toast-" + kind : ""), message);
  item.setAttribute("role", "alert");
  toasts.append(item);
  setTimeout(() => item.remove(), 5000);
}

/* Words for this player alone (removed by the host, a request refused): they stay until
 * read and closed, since what they explain (the seat gone) stays too. */
function showAlert(frame) {
  const item = el("div", "toast toast-alert", "");
  item.setAttribute("role", "alert");
  item.append(el("span", "", frame.message || frame.code));
  const close = el("button", "toast-close", "×");
  close.type = "button";
  close.setAttribute("aria-label", gettext("Close"));
  close.addEventListener("click", () => item.remove());
  item.append(close);
  toasts.append(item);
  document.dispatchEvent(new CustomEvent("table-alert", { detail: frame }));
}

function applyPrefs() {
  colourToggle.setAttribute("aria-pressed", String(applyFourColour(root)));
}

colourToggle.addEventListener("click", () => { setPref("fourColour", !pref("fourColour", false)); applyPrefs(); });

// The controls and panels send through the socket, which is opened once they exist.
const send = (frame) => socket.send(frame);
const controls = createControls({ root, send, toast });
const side = createSide({ root, send });
const clock = startClock({ root, felt, current: () => snap });
const motion = createMotion({ root, felt, toggle: root.querySelector("[data-toggle=motion]") });
const sound = createSound({ root, toggle: soundToggle });
const a11y = createA11y({ root, felt });
// Every snapshot redraws the table's buttons (the action bar, the seats, the host's panel).
// A click counts only where the press began and ended on the same button: a button replaced
// between the two (a snapshot landing mid-press, as a bot acts or a seat fills) loses the
// tap, and the player taps again. So a snapshot that comes while a button is pressed is
// drawn once the press is over, after its click (the newest one only).
const PRESS_MOST_MS = 10000;
let pressing = false;
let drawAfterPress = false;
let pressTimer = 0;

function pressOver() {
  if (!pressing) return;
  window.clearTimeout(pressTimer);
  // Later than the click, which the browser sends right after the press ends.
  window.setTimeout(() => {
    pressing = false;
    if (drawAfterPress) {
      drawAfterPress = false;
      render();
    }
  }, 0);
}

root.addEventListener("pointerdown", (event) => {
  if (!event.isPrimary || !(event.target instanceof Element) || !event.target.closest("button")) return;
  pressing = true;
  window.clearTimeout(pressTimer);
  // A press whose end the page never hears (the window left meanwhile) waits no longer.
  pressTimer = window.setTimeout(pressOver, PRESS_MOST_MS);
}, true);
window.addEventListener("pointerup", pressOver, true);
window.addEventListener("pointercancel", pressOver, true);
window.addEventListener("blur", pressOver);
document.addEventListener("visibilitychange", pressOver);

const socket = openTableSocket(root.dataset.wsPath, {
  onSnapshot(frame) {
    snap = frame;
    controls.setLive(true);
    if (pressing) {
      drawAfterPress = true;
      return;
    }
    render();
  },
  onError(frame) {
    toast(frame.message || frame.code, "error");
    controls.refused();
  },
  onChat(frame) {
    side.addChat(frame);
    side.heard(frame);
  },
  onAlert: showAlert,
  onStatus(text, kind) {
    status.textContent = text;
    status.dataset.kind = kind;
    if (kind !== "ok") controls.setLive(false);
  },
});

function render() {
  root.querySelector(".table-stakes").textContent = stakesText(snap.table);
  const seated = snap.you && snap.you.seat;
  // A tournament seats its players itself: no "Sit" button at its tables.
  renderFelt(felt, snap, { onSit: seated || snap.table.tournament ? null : controls.sitAt });
  controls.render(snap);
  side.render(snap);
  applyPrefs();
  clock.update(snap);
  // Last, once the page is laid out: the movements start from where things are drawn.
  motion.show(snap);
  sound.show(snap);
  a11y.update(snap);
  root.dataset.version = snap.version;
  // Panels other apps add to the page (a tournament's rebuy, a deal) refresh when a hand
  // ends: the newest finished hand heads the recent list.
  const recent = snap.recent_hands;
  const ended = recent && recent.length ? recent[0].id : null;
  // A table closing (a tournament's end) refreshes them too: its panel names the winner.
  const closedNow = Boolean(snap.table.closed);
  if ((lastHandEnded !== undefined && ended !== lastHandEnded) || (closedNow && lastClosed === false)) {
    document.dispatchEvent(new CustomEvent("table-hand-ended", { detail: { hand: ended } }));
  }
  lastHandEnded = ended;
  lastClosed = closedNow;
  import("./host.js").then((host) => host.renderHost({ root, snap, send, toast }));
}

applyPrefs();
if (snap) render();
