/* Display preferences kept in this browser only (localStorage): the four-colour deck, the
 * sound for your turn and the hand helper (`handHelper`, off unless turned on). The server
 * never hears of them. */

export function pref(name, fallback) {
  const value = window.localStorage.getItem("poker." + name);
  return value === null ? fallback : value === "1";
}

export function setPref(name, on) {
  window.localStorage.setItem("poker." + name, on ? "1" : "0");
}

/* Draw the cards of `root` in four colours if this browser asked for it. */
export function applyFourColour(root) {
  const on = pref("fourColour", false);
  root.classList.toggle("four-colour", on);
  return on;
}

let audio = null;

/* Two short tones for "your turn", unless the sound is off. */
export function beep() {
  if (!pref("sound", true)) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    [0, 0.16].forEach((start, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = i ? 880 : 660;
      gain.gain.setValueAtTime(0.0001, audio.currentTime + start);
      gain.gain.exponentialRampToValueAtTime(0.15, audio.currentTime + start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + start + 0.14);
      osc.connect(gain).connect(audio.destination);
      osc.start(audio.currentTime + start);
      osc.stop(audio.currentTime + start + 0.15);
    });
  } catch (e) {
    /* No audio in this browser: the turn banner still shows. */
  }
}
