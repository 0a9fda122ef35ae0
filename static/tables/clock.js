/* The table's clocks, redrawn four times a second from the snapshot's stored times: the
 * countdown bar on the seat to act, "next hand in 3s", and the "your turn" banner.
 *
 * Times are the server's (milliseconds since the epoch); `skew` is the server's clock less
 * this browser's, taken from each snapshot's `now`.
 */

export function startClock({ root, felt, current }) {
  const actionBar = root.querySelector(".action-bar");
  const banner = root.querySelector(".turn-banner");
  let skew = 0;

  function serverNow() {
    return Date.now() + skew;
  }

  function tick() {
    const snap = current();
    if (!snap) return;
    const hand = snap.hand;
    const seatBox = hand && hand.to_act ? felt.querySelector('.seat[data-seat="' + hand.to_act + '"]') : null;
    let left = null;
    if (seatBox && hand.deadline && hand.countdown_from) {
      const now = serverNow();
      if (now >= hand.countdown_from) {
        const total = Math.max(1, hand.deadline - hand.countdown_from);
        left = Math.max(0, hand.deadline - now);
        seatBox.classList.add("counting");
        seatBox.querySelector(".seat-timer-bar").style.width = ((100 * left) / total).toFixed(1) + "%";
        seatBox.querySelector(".seat-timer").dataset.left = Math.ceil(left / 1000);
      }
    }
    const waiting = actionBar.querySelector(".waiting");
    const next = snap.table && snap.table.next_hand_at;
    if (waiting && next && (!hand || hand.results) && next > serverNow()) {
      waiting.textContent = interpolate(gettext("Next hand in %ss"), [Math.ceil((next - serverNow()) / 1000)]);
    }
    if (snap.you && snap.you.legal) {
      banner.textContent = left === null
        ? gettext("Your turn")
        : interpolate(gettext("Your turn · %ss"), [Math.ceil(left / 1000)]);
      banner.hidden = false;
    } else {
      banner.hidden = true;
    }
  }

  setInterval(tick, 250);
  return {
    /* A new snapshot: take its clock reading and redraw at once. */
    update(snap) {
      if (snap.now) skew = snap.now - Date.now();
      tick();
    },
  };
}
