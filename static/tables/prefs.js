/* Display preferences kept in this browser only (localStorage): the four-colour deck, the
 * hand helper (`handHelper`, off unless turned on), the sounds (`sound`: unset until the
 * player chooses, and silent until then, see sound.js) and the movements (`motion`, on
 * unless turned off or the system asks for reduced motion, see motion.js). The server never
 * hears of them. `pref(name, null)` tells an unset preference from a chosen one. */

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
