/* The table's clocks, redrawn four times a second from the snapshot's stored times: the
 * countdown bar on the seat to act, "next hand in 3s", the "your turn" banner, and what is
 * left of your time bank. Once the turn's own time is out (`hand.bank_from`), the bar and
 * its seconds turn blue ("in-bank") and count the player's time bank down to `deadline`.
 *
 * Times are the server's (milliseconds since the epoch); `skew` is the server's clock less
 * this browser's, taken from each snapshot's `now`.
 */

/* Set a property only when it changes: these redraw four times a second, and a write, even
 * of the same text, makes the browser lay the page out again. */
function put(target, key, value) {
  if (target[key] !== value) target[key] = value;
}

export function startClock({ root, felt, current }) {
  const actionBar = root.querySelector(".action-bar");
  const banner = root.querySelector(".turn-banner");
  const bankLine = root.querySelector(".time-bank-left");
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
    let inBank = false;
    if (seatBox && hand.deadline && hand.countdown_from) {
      const now = serverNow();
      const bankFrom = hand.bank_from || null;
      inBank = bankFrom !== null && now >= bankFrom;
      // The turn's own countdown ends where the bank starts; the bank counts to the deadline.
      const from = inBank ? bankFrom : hand.countdown_from;
      const to = bankFrom !== null && !inBank ? bankFrom : hand.deadline;
      if (now >= from) {
        const total = Math.max(1, to - from);
        left = Math.max(0, to - now);
        seatBox.classList.add("counting");
        seatBox.classList.toggle("in-bank", inBank);
        seatBox.querySelector(".seat-timer-bar").style.transform = "scaleX(" + (left / total).toFixed(3) + ")";
        put(seatBox.querySelector(".seat-timer").dataset, "left", String(Math.ceil(left / 1000)));
      }
    }
    const voteLeft = actionBar.querySelector(".run-twice-left");
    const vote = hand && hand.run_twice;
    if (voteLeft && vote && vote.until) {
      // The time left to answer whether to run it twice (silence is no).
      put(voteLeft, "textContent", interpolate(gettext("%s s left"), [Math.max(0, Math.ceil((vote.until - serverNow()) / 1000))]));
    }
    const waiting = actionBar.querySelector(".waiting");
    const next = snap.table && snap.table.next_hand_at;
    if (waiting && next && (!hand || hand.results) && next > serverNow()) {
      put(waiting, "textContent", interpolate(gettext("Next hand in %ss"), [Math.ceil((next - serverNow()) / 1000)]));
    }
    if (snap.you && snap.you.legal) {
      if (left === null) put(banner, "textContent", gettext("Your turn"));
      else if (inBank) put(banner, "textContent", interpolate(gettext("Your turn · time bank %ss"), [Math.ceil(left / 1000)]));
      else put(banner, "textContent", interpolate(gettext("Your turn · %ss"), [Math.ceil(left / 1000)]));
      banner.classList.toggle("in-bank", inBank);
      put(banner, "hidden", false);
    } else {
      put(banner, "hidden", true);
    }
    if (bankLine) {
      // What is left of your own bank; while your turn draws on it, the banner counts it.
      const mine = snap.you && typeof snap.you.time_bank === "number" ? snap.you.time_bank : null;
      const using = inBank && snap.you && snap.you.legal;
      put(bankLine, "hidden", mine === null || Boolean(using));
      if (mine !== null && !using) {
        put(bankLine, "textContent", interpolate(gettext("Time bank: %ss"), [Math.ceil(mine / 1000)]));
      }
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
