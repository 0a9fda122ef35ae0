/* The hand replayer: steps through what tables/replay.py prepared for this viewer and draws
 * each step with the live table's own felt renderer. Nothing is computed here: a step's
 * `view` is in the snapshot's shape and its `text` says what happened. */

import { renderFelt } from "./felt.js";
import { applyFourColour } from "./prefs.js";

const STEP_MS = 1200;
const root = document.getElementById("replayer");
const data = JSON.parse(document.getElementById("replay").textContent);
const steps = data.steps;
const felt = root.querySelector(".felt");
const label = root.querySelector(".replay-step");
const counter = root.querySelector(".replay-counter");
const controls = root.querySelector(".replay-controls");
const playButton = root.querySelector('[data-replay="play"]');
const log = document.querySelectorAll(".replay-log li");
let index = 0;
let timer = null;

function show(i) {
  index = Math.max(0, Math.min(steps.length - 1, i));
  const step = steps[index];
  renderFelt(felt, step.view);
  label.textContent = step.text;
  label.dataset.kind = step.kind;
  counter.textContent = interpolate(gettext("%(step)s / %(steps)s"), { step: index + 1, steps: steps.length }, true);
  log.forEach((li, n) => {
    li.classList.toggle("current", n === index);
    if (n === index) li.querySelector("button").setAttribute("aria-current", "step");
    else li.querySelector("button").removeAttribute("aria-current");
  });
  if (index === steps.length - 1) stop();
}

function stop() {
  clearInterval(timer);
  timer = null;
  playButton.textContent = gettext("▶ Play");
}

function play() {
  if (timer) return stop();
  if (index === steps.length - 1) show(0);
  playButton.textContent = gettext("Pause");
  timer = setInterval(() => show(index + 1), STEP_MS);
}

const moves = {
  first: () => show(0),
  prev: () => show(index - 1),
  next: () => show(index + 1),
  last: () => show(steps.length - 1),
  play: play,
};

controls.addEventListener("click", (event) => {
  const button = event.target.closest("[data-replay]");
  if (!button) return;
  if (button.dataset.replay !== "play") stop();
  moves[button.dataset.replay]();
});

/* A line of the log shows its step. */
document.querySelector(".replay-log").addEventListener("click", (event) => {
  const button = event.target.closest("[data-step]");
  if (!button) return;
  stop();
  show(Number(button.dataset.step));
  felt.scrollIntoView({ block: "nearest", behavior: "smooth" });
});

document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, textarea, select") || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "ArrowLeft") { stop(); show(index - 1); }
  if (event.key === "ArrowRight") { stop(); show(index + 1); }
});

applyFourColour(root);
controls.hidden = false;
show(0);
