/* The table for a screen reader and the keyboard alone.
 *
 * What happens is said in the page's live regions: a polite log for what the others do (and
 * what you did, the cards dealt, who won), an assertive line for "your turn". A snapshot
 * carries no record of moves: they are the ones changes.js reads from two snapshots in a
 * row (the same reading as the movements and the sounds), put in words with their amounts.
 * Snapshots may skip versions, so this is a close account of the table, never its record:
 * the hand history is that.
 *
 * Keys read the table aloud (H your hand, T the table, P the pot, S your stack, W whose turn,
 * L the last thing said) and act (B or R: to the amount box, Enter bets it, Escape leaves it;
 * A: the most you may put in, waiting on Enter). F and C are controls.js's. "?" or the
 * toolbar's "Keyboard" button opens the list of keys. No key fires while typing in a box or
 * with a dialog open. The felt gets the names a screen reader needs: a list of seats, each
 * with its bet, the button and the turn in words.
 *
 * It decides nothing: what is legal comes from `you.legal`, and the server refuses the rest.
 */

import { awardText, cardName, chips, helperText, nameOf } from "./felt.js";
import { tableChanges } from "./changes.js";
import { pref } from "./prefs.js";

const LOG_KEPT = 30;
// The player's own warning before their time runs out, in milliseconds.
const WARN_BEFORE = 10000;

const STREETS = {
  preflop: gettext("Preflop"), flop: gettext("Flop"), turn: gettext("Turn"), river: gettext("River"),
  showdown: gettext("Showdown"), complete: gettext("Hand over"),
};
// The board's new cards named by how many there are once they are out.
const DEALT = { 3: "flop", 4: "turn", 5: "river" };
// A move in words: [someone else's, yours].
const MOVES = {
  fold: [gettext("%(name)s folds"), gettext("You fold")],
  check: [gettext("%(name)s checks"), gettext("You check")],
  call: [gettext("%(name)s calls %(amount)s"), gettext("You call %(amount)s")],
  bet: [gettext("%(name)s bets %(amount)s"), gettext("You bet %(amount)s")],
  raise: [gettext("%(name)s raises to %(amount)s"), gettext("You raise to %(amount)s")],
  post: [gettext("%(name)s posts %(amount)s"), gettext("You post %(amount)s")],
  show: [gettext("%(name)s shows %(cards)s")],
};

function sentence(text) {
  return /[.…?!]$/.test(text) ? text : text + ".";
}

function cardList(cards) {
  return cards.map(cardName).join(", ");
}

function seatOf(snap, number) {
  return (snap.seats || []).find((seat) => seat.seat === number) || null;
}

function betsOf(snap) {
  return (snap.seats || []).reduce((sum, seat) => sum + Number(seat.bet || 0), 0);
}

export function createA11y({ root, felt }) {
  const log = root.querySelector("[data-a11y=log]");
  const turnLine = root.querySelector("[data-a11y=turn]");
  const said = root.querySelector("[data-a11y=said]");
  const actionBar = root.querySelector(".action-bar");
  const help = document.getElementById("keys-dialog");
  const helpButton = root.querySelector("[data-a11y=keys]");
  let snap = null;
  let skew = 0;
  let lastLine = "";
  let warning = null;
  // The control that had the focus, to give it back when a snapshot redraws it under the
  // player's fingers (a chat line, someone sitting down).
  let focused = null;
  let helpFrom = null;

  felt.setAttribute("role", "region");
  felt.setAttribute("aria-label", gettext("Table"));

  function mine(number) {
    return Boolean(snap && snap.you && snap.you.seat === number);
  }

  function move(kind, number, words, allIn) {
    const text = interpolate(MOVES[kind][mine(number) ? 1 : 0],
      { name: nameOf(snap, number), ...words }, true);
    return allIn ? interpolate(gettext("%s, all-in"), [text]) : text;
  }

  /* The log's new line: what changed from `before` to `after` (both snapshots), as
   * changes.js reads the moves, in words with their amounts. */
  function changes(before, after, found) {
    const lines = [];
    const old = {};
    (before.seats || []).forEach((seat) => { old[seat.seat] = seat; });
    (after.seats || []).forEach((seat) => {
      const was = old[seat.seat];
      if (!was || mine(seat.seat)) return;
      if (seat.player && !was.player) {
        lines.push(interpolate(gettext("%(name)s sits down in seat %(seat)s"),
          { name: seat.player.name, seat: seat.seat }, true));
      } else if (!seat.player && was.player) {
        lines.push(interpolate(gettext("%s leaves the table"), [was.player.name]));
      }
    });
    const hand = after.hand;
    if (!hand) return lines;
    const bet = (seat) => Number((seat && seat.bet) || 0);
    const highest = Math.max(0, ...(before.seats || []).map(bet));
    const ended = [];
    found.forEach((change) => {
      const number = change.seat;
      const now = seatOf(after, number);
      const was = old[number];
      const allIn = Boolean(now && now.all_in && !(was && was.all_in));
      if (change.kind === "deal") {
        lines.push(interpolate(gettext("Hand #%(number)s: %(name)s has the button"),
          { number: hand.number, name: nameOf(after, hand.button) }, true));
      } else if (change.kind === "post") {
        lines.push(move("post", number, { amount: chips(bet(now)) }, now.all_in));
      } else if (change.kind === "fold" || change.kind === "check") {
        lines.push(move(change.kind, number, {}));
      } else if (change.kind === "call") {
        // A call that closed the round has gone to the pot: it was what the seat owed.
        const grown = bet(now) - bet(was);
        lines.push(move("call", number, { amount: chips(grown > 0 ? grown : highest - bet(was)) }, allIn));
      } else if (change.kind === "bet") {
        lines.push(move(change.raise ? "raise" : "bet", number, { amount: chips(bet(now)) }, allIn));
      } else if (change.kind === "board") {
        const board = hand.board || [];
        // The flop comes as three cards, then one card a street.
        for (let shown = Math.max(3, change.from + 1); shown <= board.length; shown++) {
          const from = shown === 3 ? 0 : shown - 1;
          lines.push(interpolate(gettext("%(street)s: %(cards)s"),
            { street: STREETS[DEALT[shown]], cards: cardList(board.slice(from, shown)) }, true));
        }
      } else if (change.kind === "win") {
        ended.push(...resultLines(hand, after));
      }
    });
    if (found.some((change) => change.kind === "deal")) {
      const me = after.you && seatOf(after, after.you.seat);
      if (me && me.cards && me.cards.length) lines.push(interpolate(gettext("Your cards: %s"), [cardList(me.cards)]));
    }
    // The hands turned up at the showdown (or for an all-in), before who won.
    (after.seats || []).forEach((seat) => {
      const was = old[seat.seat];
      if (seat.cards && seat.cards.length && !mine(seat.seat) && was && !(was.cards && was.cards.length)) {
        lines.push(move("show", seat.seat, { cards: cardList(seat.cards) }));
      }
    });
    return lines.concat(ended);
  }

  function resultLines(hand, at) {
    return hand.results.map((award) => awardText(award, award.name || nameOf(at, award.seat)));
  }

  /* Something happened: a new line in the log (polite), the oldest dropped. */
  function record(lines) {
    if (!lines.length) return;
    lastLine = lines.map(sentence).join(" ");
    const line = document.createElement("p");
    line.textContent = lastLine;
    log.append(line);
    while (log.childNodes.length > LOG_KEPT) log.firstChild.remove();
  }

  /* Words for a live region, emptied first so that the same words twice are said twice. */
  function speak(region, text) {
    clearTimeout(region.pending);
    region.textContent = "";
    region.pending = setTimeout(() => { region.textContent = text; }, 60);
  }

  /* The answer to a key (polite). */
  function say(text) {
    speak(said, text);
  }

  function choices(legal) {
    const list = [];
    const range = (one, many, r) => (r.min === r.max
      ? interpolate(one, [chips(r.min)])
      : interpolate(many, { min: chips(r.min), max: chips(r.max) }, true));
    if (legal.check) list.push(gettext("check"));
    if (legal.call !== null && legal.call !== undefined && legal.call !== false) {
      const call = interpolate(gettext("call %s"), [chips(legal.call)]);
      list.push(legal.call_all_in ? interpolate(gettext("%s, all-in"), [call]) : call);
    }
    if (legal.bet) list.push(range(gettext("bet %s"), gettext("bet from %(min)s to %(max)s"), legal.bet));
    if (legal.raise) list.push(range(gettext("raise to %s"), gettext("raise from %(min)s to %(max)s"), legal.raise));
    if (legal.show) list.push(gettext("show"));
    if (legal.muck) list.push(gettext("muck"));
    if (legal.fold && !legal.check) list.push(gettext("fold"));
    return list.join(", ");
  }

  function potTotal(s) {
    return ((s.hand && s.hand.pots) || []).reduce((sum, pot) => sum + Number(pot.amount || 0), 0);
  }

  /* Your turn (assertive) when a decision begins, and a warning before the time runs out. */
  function yourTurn(after, began) {
    const legal = after.you && after.you.legal;
    if (!legal) {
      clearTimeout(warning);
      clearTimeout(turnLine.pending);
      turnLine.textContent = "";
      return;
    }
    if (!began) return;
    speak(turnLine, interpolate(gettext("Your turn: %(choices)s. Pot %(pot)s."),
      { choices: choices(legal), pot: chips(potTotal(after) + betsOf(after)) }, true));
    clearTimeout(warning);
    const hand = after.hand;
    const left = hand && hand.deadline ? hand.deadline - (Date.now() + skew) : 0;
    if (left > WARN_BEFORE) {
      warning = setTimeout(() => {
        speak(turnLine, interpolate(gettext("Your turn: %s seconds left."), [WARN_BEFORE / 1000]));
      }, left - WARN_BEFORE);
    }
  }

  /* ---- What the keys read aloud ---- */

  function handWords() {
    const me = snap.you && seatOf(snap, snap.you.seat);
    if (!me) return gettext("You have no seat at this table.");
    if (!me.cards || !me.cards.length) return gettext("You have no cards.");
    let text = sentence(interpolate(gettext("Your cards: %s"), [cardList(me.cards)]));
    if (me.folded) text = gettext("You folded.") + " " + text;
    const helper = snap.you.helper;
    if (helper && pref("handHelper", false)) text += " " + sentence(interpolate(gettext("Best hand: %s"), [helperText(helper)]));
    return text;
  }

  function seatWords(seat) {
    const parts = [seat.player.name];
    if (seat.bot) parts.push(gettext("bot"));
    if (mine(seat.seat)) parts.push(gettext("you"));
    parts.push(seat.all_in ? gettext("all-in") : interpolate(ngettext("%s chip", "%s chips", seat.stack), [chips(seat.stack)]));
    if (seat.bet) parts.push(interpolate(pgettext("in front of a seat", "bet %s"), [chips(seat.bet)]));
    if (seat.folded) parts.push(gettext("folded"));
    else if (seat.state === "sitting_out") parts.push(gettext("away"));
    else if (seat.state === "waiting") parts.push(gettext("waiting"));
    if (seat.connected === false) parts.push(gettext("offline"));
    const hand = snap.hand;
    if (hand && hand.button === seat.seat) parts.push(gettext("dealer button"));
    if (hand && hand.to_act === seat.seat) parts.push(gettext("to act"));
    if (seat.cards && seat.cards.length && !mine(seat.seat)) parts.push(cardList(seat.cards));
    return interpolate(gettext("Seat %(seat)s: %(words)s"), { seat: seat.seat, words: parts.join(", ") }, true);
  }

  function tableWords() {
    const hand = snap.hand;
    const parts = [];
    if (!hand) {
      parts.push(gettext("No hand dealt yet."));
    } else {
      const board = hand.board || [];
      const words = { number: hand.number, street: STREETS[hand.street] || hand.street, cards: cardList(board) };
      parts.push(board.length
        ? interpolate(gettext("Hand #%(number)s, %(street)s. Board: %(cards)s."), words, true)
        : interpolate(gettext("Hand #%(number)s, %(street)s. No cards on the board yet."), words, true));
    }
    (snap.seats || []).filter((seat) => seat.player).forEach((seat) => parts.push(sentence(seatWords(seat))));
    return parts.join(" ");
  }

  function potWords() {
    const hand = snap.hand;
    if (!hand) return gettext("No pot yet.");
    const pots = hand.pots || [];
    const bets = betsOf(snap);
    const parts = [];
    if (pots.length > 1) {
      pots.forEach((pot, k) => parts.push(sentence(k === 0
        ? interpolate(gettext("Main pot %s"), [chips(pot.amount)])
        : interpolate(gettext("Side pot %s"), [chips(pot.amount)]))));
      if (bets) parts.push(sentence(interpolate(gettext("Bets this round: %s"), [chips(bets)])));
    } else if (bets) {
      // As the felt and "your turn" count it: the chips in the middle, this round's bets too.
      parts.push(sentence(interpolate(gettext("Pot %(pot)s, %(bets)s of it bet this round"),
        { pot: chips(potTotal(snap) + bets), bets: chips(bets) }, true)));
    } else {
      parts.push(sentence(interpolate(gettext("Pot %s"), [chips(potTotal(snap))])));
    }
    const legal = snap.you && snap.you.legal;
    const me = snap.you && seatOf(snap, snap.you.seat);
    let owed = 0;
    if (legal) owed = Number(legal.call || 0);
    else if (me && !me.folded && !hand.complete) {
      owed = Math.max(0, ...(snap.seats || []).map((seat) => Number(seat.bet || 0))) - Number(me.bet || 0);
    }
    parts.push(owed > 0 ? sentence(interpolate(gettext("To call: %s"), [chips(owed)])) : gettext("Nothing to call."));
    return parts.join(" ");
  }

  function stackWords() {
    const me = snap.you && seatOf(snap, snap.you.seat);
    if (!me || !me.player) return gettext("You have no seat at this table.");
    if (me.all_in) return gettext("You are all-in.");
    const text = interpolate(gettext("Your stack: %s"), [chips(me.stack)]);
    return sentence(me.bet ? interpolate(gettext("%(stack)s, and %(bet)s bet this round"),
      { stack: text, bet: chips(me.bet) }, true) : text);
  }

  function secondsLeft(hand) {
    const now = Date.now() + skew;
    if (!hand || !hand.deadline) return "";
    const left = Math.max(0, Math.ceil((hand.deadline - now) / 1000));
    return " " + sentence(interpolate(ngettext("%s second left", "%s seconds left", left), [left]));
  }

  function whoseTurn() {
    const hand = snap.hand;
    if (snap.you && snap.you.legal) return sentence(gettext("Your turn")) + secondsLeft(hand);
    if (hand && hand.to_act) return sentence(interpolate(gettext("%s to act"), [nameOf(snap, hand.to_act)])) + secondsLeft(hand);
    if (hand && !hand.complete) return gettext("Nobody is to act: the cards are being dealt.");
    if (snap.table.closed) return gettext("This table is closed.");
    if (snap.table.paused) return sentence(gettext("Paused by the host"));
    const next = snap.table.next_hand_at;
    const wait = next ? Math.ceil((next - Date.now() - skew) / 1000) : 0;
    if (wait > 0) return sentence(interpolate(ngettext("Next hand in %s second", "Next hand in %s seconds", wait), [wait]));
    return gettext("Waiting for the next hand…");
  }

  /* ---- Acting from the keyboard ---- */

  function barControl(selector) {
    return actionBar.querySelector(selector + ":not(:disabled)");
  }

  function toAmount() {
    const legal = snap && snap.you && snap.you.legal;
    if (!legal) return say(gettext("It is not your turn."));
    const amount = barControl("input.amount");
    const go = barControl(".act-raise");
    if (amount) {
      amount.focus();
      amount.select();
    } else if (go) {
      go.focus();
    } else {
      say(gettext("You cannot bet or raise now."));
    }
  }

  function toMost() {
    const legal = snap && snap.you && snap.you.legal;
    if (!legal) return say(gettext("It is not your turn."));
    const most = barControl("[data-preset=max]");
    if (most) most.click();
    // A stack that cannot cover the call goes all-in by calling.
    const go = barControl(".act-raise") || (legal.call_all_in && barControl('button[data-action="call"]'));
    if (!go) return say(gettext("You cannot bet or raise now."));
    go.focus();
    say(interpolate(gettext("%s: Enter to confirm, Escape to go back."), [go.textContent]));
  }

  function openHelp() {
    helpFrom = document.activeElement;
    help.showModal();
  }

  help.addEventListener("close", () => {
    if (helpFrom && helpFrom.isConnected && helpFrom !== document.body) helpFrom.focus();
    helpFrom = null;
  });
  // A click on the backdrop (outside the dialog's box) closes it too.
  help.addEventListener("click", (event) => { if (event.target === help) help.close(); });
  helpButton.addEventListener("click", openHelp);

  // Other apps' panels (a tournament's rebuy, a deal) are refreshed every few seconds into a
  // polite live region: the same panel again is not swapped in, so a screen reader does not
  // read it out anew each time, and a button in it keeps the keyboard's focus. (Each
  // response masks its CSRF token anew: that is not a change.)
  const panels = document.getElementById("table-panels");
  function comparable(node) {
    node.querySelectorAll("input[name=csrfmiddlewaretoken]").forEach((input) => input.removeAttribute("value"));
    return node.innerHTML.trim();
  }
  if (panels) {
    panels.addEventListener("htmx:beforeSwap", (event) => {
      if (event.detail.target !== panels || !event.detail.xhr) return;
      const fresh = document.createElement("div");
      fresh.innerHTML = event.detail.xhr.responseText;
      if (comparable(fresh) === comparable(panels.cloneNode(true))) event.detail.shouldSwap = false;
    });
  }

  const READERS = { h: handWords, t: tableWords, p: potWords, s: stackWords, w: whoseTurn };

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
    if (document.querySelector("dialog[open]")) return;
    const target = event.target;
    const inBar = target instanceof Element && actionBar.contains(target);
    if (inBar && event.key === "Escape") {
      target.blur();
      say(gettext("Back to the table."));
      return;
    }
    if (inBar && event.key === "Enter" && target.matches("input.amount")) {
      event.preventDefault();
      const go = barControl(".act-raise");
      if (go) go.click();
      return;
    }
    if (target instanceof Element && target.closest("input, textarea, select, [contenteditable]")) return;
    if (event.key === "?") {
      event.preventDefault();
      openHelp();
      return;
    }
    const key = event.key.toLowerCase();
    if (!snap) return;
    if (READERS[key]) {
      event.preventDefault();
      say(READERS[key]());
    } else if (key === "l") {
      say(lastLine || gettext("Nothing has happened yet."));
    } else if (key === "b" || key === "r") {
      event.preventDefault();
      toAmount();
    } else if (key === "a") {
      toMost();
    } else if (key === "f") {
      // controls.js's F, heard first: when checking is free it only armed the fold.
      const armed = barControl('button[data-action="fold"].armed');
      if (armed) say(interpolate(gettext("%s Press F again to fold."), [armed.textContent]));
    }
  });

  document.addEventListener("focusin", (event) => {
    focused = root.contains(event.target) ? event.target : null;
  });

  /* What makes a control the same one once redrawn: its kind, its data, and its words when
   * it has no data (the amount's "−" and "+", a seat's "Sit in seat 4", a hand's link). */
  function likeness(node) {
    const data = JSON.stringify({ ...node.dataset });
    const words = data === "{}" ? node.getAttribute("aria-label") || node.textContent : "";
    const kind = node.className.replace(/\barmed\b/, "").trim();
    return [node.tagName, node.type || "", kind, data, words, node.getAttribute("href") || ""].join("|");
  }

  /* The focused control was redrawn away (the action bar, the seat's buttons, the seats and
   * the last hands are drawn anew with each snapshot): the focus goes to its new self. */
  function refocus() {
    const lost = focused;
    if (!lost || lost.isConnected) return;
    focused = null;
    if (document.activeElement && document.activeElement !== document.body) return;
    const want = likeness(lost);
    const again = [...root.querySelectorAll("button, input, select, a[href]")]
      .find((node) => !node.disabled && likeness(node) === want);
    if (again) again.focus({ preventScroll: true });
  }

  /* The felt's names for a screen reader: a list of seats, each with its bet, the button
   * and the turn in words (drawn apart on the felt, hidden from it here). */
  function nameTheFelt() {
    const ring = felt.querySelector(".seat-ring");
    ring.setAttribute("role", "list");
    ring.setAttribute("aria-label", gettext("Seats"));
    ring.querySelectorAll(".bet, .dealer-button").forEach((node) => node.setAttribute("aria-hidden", "true"));
    ring.querySelectorAll(".seat").forEach((box) => {
      box.setAttribute("role", "listitem");
      box.querySelectorAll(".seat-timer").forEach((node) => node.setAttribute("aria-hidden", "true"));
      const seat = seatOf(snap, Number(box.dataset.seat));
      if (!seat || !seat.player || box.querySelector(".seat-words")) return;
      const words = document.createElement("span");
      words.className = "visually-hidden seat-words";
      words.textContent = interpolate(gettext("Seat %s"), [seat.seat]) + " ";
      box.prepend(words);
      const extra = [];
      if (seat.bet) extra.push(interpolate(pgettext("in front of a seat", "bet %s"), [chips(seat.bet)]));
      if (snap.hand && snap.hand.button === seat.seat) extra.push(gettext("dealer button"));
      if (snap.hand && snap.hand.to_act === seat.seat) extra.push(gettext("to act"));
      if (extra.length) {
        const after = document.createElement("span");
        after.className = "visually-hidden";
        after.textContent = ", " + extra.join(", ");
        box.append(after);
      }
    });
    const board = felt.querySelector(".board");
    if (board) {
      board.setAttribute("role", "group");
      board.setAttribute("aria-label", gettext("Board"));
      board.querySelectorAll(".pc-slot").forEach((slot) => slot.setAttribute("aria-hidden", "true"));
    }
  }

  return {
    /* A new snapshot, drawn already: say what changed, name the felt, keep the focus. */
    update(next) {
      const before = snap;
      snap = next;
      if (next.now) skew = next.now - Date.now();
      const found = before ? tableChanges(before, next) : [];
      if (before) record(changes(before, next, found));
      // The page opened on the player's turn: that is a turn beginning too.
      yourTurn(next, before ? found.some((change) => change.kind === "turn") : true);
      nameTheFelt();
      refocus();
    },
  };
}
