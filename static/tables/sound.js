/* The table's sounds, made with the Web Audio API (short synthesized tones, no files): your
 * turn, check, call, bet or raise, fold, a win, and a tick a second in the last five seconds
 * of your turn. What to play comes from the difference between two snapshots (changes.js).
 *
 * Browsers keep audio silent until the page is touched, so the sound starts off until the
 * player taps the speaker or an action button, and that choice is kept in this browser
 * (prefs.js, `sound`): a player who turned it off stays unbothered.
 *
 * window.pokerSound.log lists every cue as it comes ({name, played}), played or not: the
 * browser tests read it, since a headless browser has nothing to listen with.
 */

import { tableChanges } from "./changes.js";
import { pref, setPref } from "./prefs.js";

const CUES = { turn: "turn", check: "check", call: "call", bet: "bet", fold: "fold", win: "win" };
// The last seconds of your turn that tick, once each.
const WARN_SECONDS = 5;
const LOG_KEPT = 200;

let audio = null;

function context() {
  if (!audio) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    audio = new Context();
  }
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

/* A tone: `type` wave at `freq` Hz (gliding to `to`), starting `at` seconds from now. */
function tone(ctx, freq, at, length, { type = "sine", gain = 0.15, to = null } = {}) {
  const start = ctx.currentTime + at;
  const osc = ctx.createOscillator();
  const level = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  if (to) osc.frequency.exponentialRampToValueAtTime(to, start + length);
  level.gain.setValueAtTime(0.0001, start);
  level.gain.exponentialRampToValueAtTime(gain, start + Math.min(0.015, length / 3));
  level.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(level).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

/* A burst of filtered noise: a chip's click, or a swish when the band glides (`to`). */
function noise(ctx, freq, at, length, { gain = 0.2, to = null, q = 6 } = {}) {
  const start = ctx.currentTime + at;
  const samples = Math.ceil(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, samples, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < samples; i++) data[i] = Math.random() * 2 - 1;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const band = ctx.createBiquadFilter();
  band.type = "bandpass";
  band.Q.value = q;
  band.frequency.setValueAtTime(freq, start);
  if (to) band.frequency.exponentialRampToValueAtTime(to, start + length);
  const level = ctx.createGain();
  level.gain.setValueAtTime(gain, start);
  level.gain.exponentialRampToValueAtTime(0.0001, start + length);
  source.connect(band).connect(level).connect(ctx.destination);
  source.start(start);
}

/* Each cue, `at` seconds from now. Told apart by shape as well as pitch: two rising notes
 * for your turn, two knocks for a check, one chip for a call, a stack of chips for a bet,
 * a falling swish for a fold, four rising notes for a win, a dry tick for the clock. */
const VOICES = {
  turn(ctx, at) {
    tone(ctx, 660, at, 0.13, { gain: 0.16 });
    tone(ctx, 880, at + 0.15, 0.16, { gain: 0.16 });
  },
  check(ctx, at) {
    tone(ctx, 190, at, 0.07, { type: "triangle", gain: 0.2, to: 110 });
    tone(ctx, 190, at + 0.11, 0.07, { type: "triangle", gain: 0.2, to: 110 });
  },
  call(ctx, at) {
    noise(ctx, 3400, at, 0.05, { gain: 0.8 });
    tone(ctx, 2300, at, 0.05, { gain: 0.05 });
  },
  bet(ctx, at) {
    [0, 0.055, 0.11, 0.165].forEach((delay, i) => noise(ctx, 2800 + 400 * i, at + delay, 0.045, { gain: 0.7 }));
  },
  fold(ctx, at) {
    noise(ctx, 1400, at, 0.22, { gain: 0.6, to: 350, q: 2 });
  },
  win(ctx, at) {
    [523, 659, 784, 1047].forEach((freq, i) => tone(ctx, freq, at + 0.09 * i, 0.2, { type: "triangle", gain: 0.14 }));
  },
  time(ctx, at, last) {
    tone(ctx, last ? 1500 : 1150, at, 0.05, { type: "square", gain: 0.08 });
  },
};

export function createSound({ root, toggle }) {
  const hook = { log: [] };
  window.pokerSound = hook;
  let shown = null;
  let skew = 0;
  const ticked = new Set();

  /* On only once chosen: the speaker, or the first action button tapped. */
  function enabled() {
    return pref("sound", null) === true;
  }

  function play(names, extra) {
    const on = enabled();
    const ctx = on ? safeContext() : null;
    names.forEach((name, i) => {
      hook.log.push({ name: name, played: Boolean(ctx) });
      if (ctx) {
        try {
          VOICES[name](ctx, 0.12 * i, extra);
        } catch (e) {
          /* A browser without some node of Web Audio: the table shows the move all the same. */
        }
      }
    });
    if (hook.log.length > LOG_KEPT) hook.log.splice(0, hook.log.length - LOG_KEPT);
  }

  function safeContext() {
    try {
      return context();
    } catch (e) {
      return null;
    }
  }

  function showToggle() {
    const on = enabled();
    toggle.setAttribute("aria-pressed", String(on));
    toggle.title = on ? gettext("Sound on") : gettext("Sound off");
  }

  toggle.addEventListener("click", () => {
    setPref("sound", !enabled());
    showToggle();
    if (enabled()) safeContext();
  });
  // The first action tapped turns the sound on, unless the player chose before. A tap is
  // also what lets the browser start the audio, so it is resumed here.
  root.addEventListener("click", (event) => {
    if (!event.target.closest(".action-bar button, button[data-action]")) return;
    if (pref("sound", null) === null) {
      setPref("sound", true);
      showToggle();
    }
    if (enabled()) safeContext();
  }, true);
  // Any tap on the page lets the browser start the audio a player already chose.
  const wake = () => { if (enabled()) safeContext(); };
  document.addEventListener("pointerdown", wake, true);
  document.addEventListener("keydown", wake, true);
  showToggle();

  /* The last seconds of this viewer's turn: one tick a second, the last one higher. */
  function tick() {
    const snap = shown;
    const hand = snap && snap.hand;
    if (!hand || !hand.deadline || !(snap.you && snap.you.legal)) return;
    const left = Math.ceil((hand.deadline - (Date.now() + skew)) / 1000);
    if (left < 1 || left > WARN_SECONDS) return;
    const key = hand.id + ":" + hand.deadline + ":" + left;
    if (ticked.has(key)) return;
    ticked.add(key);
    play(["time"], left === 1);
  }
  setInterval(tick, 250);

  return {
    /* A snapshot was drawn: sound what changed since the one before. */
    show(snap) {
      const prev = shown;
      shown = snap;
      if (snap.now) skew = snap.now - Date.now();
      if (prev && prev.hand && snap.hand && prev.hand.id !== snap.hand.id) ticked.clear();
      if (!prev) {
        // The page opened on this viewer's turn.
        if (snap.you && snap.you.legal) play(["turn"]);
        return;
      }
      if (prev.version === snap.version) return;
      const names = [];
      tableChanges(prev, snap).forEach((change) => {
        const cue = CUES[change.kind];
        if (cue && !names.includes(cue)) names.push(cue);
      });
      // Your turn is heard last: the moves before it are what led to it.
      names.sort((a, b) => (a === "turn") - (b === "turn"));
      if (names.length) play(names);
      tick();
    },
    showToggle,
  };
}
