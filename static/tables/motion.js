/* The table's movements: cards dealt from the middle, the board's new cards turned, chips
 * going out in front of a seat, to the pot at the end of a round and to the winners, a
 * folded hand going to the muck. What moves comes from the difference between two snapshots
 * (changes.js).
 *
 * Never a delay: the felt is drawn first, whole and right, and a movement only plays over
 * it, on the new elements or on short-lived ones in a layer of its own. Each lasts at most
 * 400 ms, its delay included; the next snapshot clears the layer and draws anew, so a fast
 * burst of snapshots shows each state at once. Nothing moves when the system asks for
 * reduced motion or the player turned "Motion" off (prefs.js, `motion`): not a class is set.
 */

import { el } from "./felt.js";
import { pref, setPref } from "./prefs.js";
import { tableChanges } from "./changes.js";

// Each movement's start, staggered so a deal or a flop reads in order, within the 400 ms.
const DEAL_STEP_MS = 30;
const DEAL_LAST_MS = 150;
const FLIP_STEP_MS = 60;
const WIN_AFTER_MS = 100;
const LEFTOVER_MS = 1000;

export function createMotion({ root, felt, toggle }) {
  const layer = el("div", "motion-layer");
  layer.setAttribute("aria-hidden", "true");
  felt.append(layer);
  const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");
  let shown = null;
  let spots = null;

  function on() {
    return pref("motion", true) && !reduced.matches;
  }

  function showToggle() {
    toggle.setAttribute("aria-pressed", String(on()));
    toggle.title = reduced.matches
      ? gettext("Your device asks for reduced motion: cards and chips do not move")
      : gettext("Cards and chips move to where they go");
    root.dataset.motion = on() ? "on" : "off";
    if (!on()) layer.replaceChildren();
  }

  toggle.addEventListener("click", () => {
    setPref("motion", !pref("motion", true));
    showToggle();
    spots = on() ? measure() : null;
  });
  reduced.addEventListener("change", showToggle);

  /* The middle of `node` in the felt's own coordinates. */
  function middleOf(node, origin) {
    const box = node.getBoundingClientRect();
    return { x: box.left + box.width / 2 - origin.left, y: box.top + box.height / 2 - origin.top };
  }

  /* Where each thing is on the felt now: the next snapshot's chips and cards leave from here. */
  function measure() {
    const origin = felt.getBoundingClientRect();
    const found = { seats: {}, cards: {}, bets: {}, pot: null,
      middle: middleOf(felt.querySelector(".board") || felt, origin) };
    felt.querySelectorAll(".seat[data-seat]").forEach((box) => {
      found.seats[box.dataset.seat] = middleOf(box.querySelector(".seat-plate") || box, origin);
      const cards = box.querySelector(".seat-cards");
      if (cards && cards.childElementCount) found.cards[box.dataset.seat] = middleOf(cards, origin);
    });
    felt.querySelectorAll(".bet[data-seat]").forEach((bet) => {
      found.bets[bet.dataset.seat] = middleOf(bet, origin);
    });
    const pot = felt.querySelector(".pots .pot");
    if (pot) found.pot = middleOf(pot, origin);
    return found;
  }

  /* Play `name` on an element of the felt, from `from` to where it is (`to`). */
  function move(node, name, from, to, delay) {
    if (from && to) {
      node.style.setProperty("--mx", (from.x - to.x).toFixed(1) + "px");
      node.style.setProperty("--my", (from.y - to.y).toFixed(1) + "px");
    }
    if (delay) node.style.setProperty("--md", delay + "ms");
    node.classList.add("motion", "motion-" + name);
    node.addEventListener("animationend", () => node.classList.remove("motion", "motion-" + name), { once: true });
  }

  /* A short-lived chip or card over the felt, from `from` to `to`. */
  function fly(name, from, to, delay, content) {
    if (!from || !to) return;
    const node = el("span", "motion-fly");
    node.style.left = to.x.toFixed(1) + "px";
    node.style.top = to.y.toFixed(1) + "px";
    node.append(content);
    layer.append(node);
    move(node, name, from, to, delay);
    node.addEventListener("animationend", () => node.remove(), { once: true });
    setTimeout(() => node.remove(), LEFTOVER_MS);
  }

  function play(changes, before) {
    const now = measure();
    const chipFrom = (seat) => now.seats[seat] || before.seats[seat];
    changes.forEach((change) => {
      if (change.kind === "deal") {
        const origin = felt.getBoundingClientRect();
        felt.querySelectorAll(".seat").forEach((box, k) => {
          const delay = Math.min(k * DEAL_STEP_MS, DEAL_LAST_MS);
          box.querySelectorAll(".seat-cards .pc").forEach((card) => {
            move(card, "deal", now.middle, middleOf(card, origin), delay);
          });
        });
      } else if (change.kind === "board") {
        felt.querySelectorAll(".board .pc:not(.pc-slot)").forEach((card, i) => {
          if (i >= change.from) move(card, "flip", null, null, (i - change.from) * FLIP_STEP_MS);
        });
      } else if (["post", "bet", "call"].includes(change.kind)) {
        const bet = felt.querySelector('.bet[data-seat="' + change.seat + '"]');
        if (bet) move(bet, "chips", chipFrom(change.seat), now.bets[change.seat]);
      } else if (change.kind === "fold") {
        fly("muck", before.cards[change.seat], now.middle, 0, el("span", "pc pc-back"));
      } else if (change.kind === "collect") {
        change.seats.forEach((seat) => {
          fly("fly", before.bets[seat], now.pot || now.middle, 0, el("span", "chip"));
        });
      } else if (change.kind === "win") {
        change.seats.forEach((seat) => {
          fly("fly", before.pot || now.middle, now.seats[seat], WIN_AFTER_MS, el("span", "chip"));
          const won = felt.querySelector('.seat[data-seat="' + seat + '"] .seat-won');
          if (won) move(won, "pop", null, null, WIN_AFTER_MS);
        });
      }
    });
    return now;
  }

  // The felt changes size with the page (a phone turned, the chat opened): measure again.
  new ResizeObserver(() => { if (spots) spots = measure(); }).observe(felt);
  showToggle();

  return {
    /* A snapshot was drawn: play what changed since the one before, over it. */
    show(snap) {
      const prev = shown;
      shown = snap;
      layer.replaceChildren();
      if (!on()) {
        spots = null;
        return;
      }
      if (!prev || !spots || prev.version === snap.version) {
        spots = measure();
        return;
      }
      spots = play(tableChanges(prev, snap), spots);
    },
  };
}
