/* What changed at the table between two snapshots, for the movements (motion.js) and the
 * sounds (sound.js). Snapshots are whole and carry no "last action" (docs/protocol.md), so
 * the moves are read from the difference: a seat's bet grew (a bet, raise or call), its
 * hand was folded, the seat to act passed on with nothing put in (a check), the board grew,
 * the bets went to the pot, the pot went to its winners.
 *
 * A burst of changes may arrive as one snapshot (version 57, then 59): each seat's change
 * is still seen, only a check hidden inside the burst is not. Nothing here decides a rule of
 * poker: it compares what the server drew.
 *
 * tableChanges(prev, next) returns a list of
 *   {kind: "deal"}                       a new hand was dealt
 *   {kind: "post", seat}                 a blind in front of a seat at the deal
 *   {kind: "fold" | "check" | "call", seat}
 *   {kind: "bet", seat, raise}           a bet, or a raise (raise: true)
 *   {kind: "board", from}                board cards from index `from` on are new
 *   {kind: "collect", seats}             the bets of these seats went to the pot
 *   {kind: "win", seats}                 the pot went to these seats
 *   {kind: "turn"}                       this viewer's turn began
 */

function bySeat(snap) {
  const seats = {};
  (snap.seats || []).forEach((seat) => {
    if (seat.player) seats[seat.seat] = seat;
  });
  return seats;
}

function bet(seat) {
  return Number((seat && seat.bet) || 0);
}

/* A new decision for this viewer: no turn before, or the one before was another street or
 * another amount to call (a chat line or a seat change bumps the version mid-turn). */
function turnBegan(prev, next) {
  const legal = next.you && next.you.legal;
  if (!legal) return false;
  const before = prev.you && prev.you.legal;
  if (!before || before.hand !== legal.hand) return true;
  return (prev.hand && prev.hand.street) !== (next.hand && next.hand.street)
    || before.call !== legal.call || before.bets !== legal.bets;
}

export function tableChanges(prev, next) {
  const changes = [];
  if (!prev || !next || !next.hand) return changes;
  const was = prev.hand;
  const hand = next.hand;
  const before = bySeat(prev);
  const after = bySeat(next);

  if (!was || was.id !== hand.id) {
    changes.push({ kind: "deal" });
    Object.values(after).forEach((seat) => {
      if (bet(seat) > 0) changes.push({ kind: "post", seat: seat.seat });
    });
    if (turnBegan(prev, next)) changes.push({ kind: "turn" });
    return changes;
  }

  const streetOver = was.street !== hand.street || Boolean(hand.results && !was.results);
  const highest = Math.max(0, ...Object.values(before).map(bet));
  const acted = new Set();
  Object.values(after).forEach((seat) => {
    const old = before[seat.seat];
    if (!old) return;
    if (seat.folded && !old.folded) {
      changes.push({ kind: "fold", seat: seat.seat });
      acted.add(seat.seat);
    } else if (!streetOver && bet(seat) > bet(old)) {
      if (bet(seat) > highest) changes.push({ kind: "bet", seat: seat.seat, raise: highest > 0 });
      else changes.push({ kind: "call", seat: seat.seat });
      acted.add(seat.seat);
    }
  });

  // The seat that was to act and is no longer, with no fold and no bet seen: it checked, or
  // it called and closed the round (its stack went down as the bets went to the pot). At the
  // hand's end the stacks already hold the winnings, so only folds are told there.
  const mover = was.to_act;
  if (mover && !acted.has(mover) && !hand.results && (hand.to_act !== mover || streetOver)) {
    const old = before[mover];
    const now = after[mover];
    if (old && now && !now.folded) {
      if (!streetOver) {
        if (bet(now) === bet(old)) changes.push({ kind: "check", seat: mover });
      } else {
        changes.push({ kind: Number(now.stack) < Number(old.stack) ? "call" : "check", seat: mover });
      }
    }
  }

  const shown = (was.board || []).length;
  if ((hand.board || []).length > shown) changes.push({ kind: "board", from: shown });
  if (streetOver) {
    const bettors = Object.values(before).filter((seat) => bet(seat) > 0).map((seat) => seat.seat);
    if (bettors.length) changes.push({ kind: "collect", seats: bettors });
  }
  if (hand.results && hand.results.length && !was.results) {
    changes.push({ kind: "win", seats: [...new Set(hand.results.map((award) => award.seat))] });
  }
  if (turnBegan(prev, next)) changes.push({ kind: "turn" });
  return changes;
}
