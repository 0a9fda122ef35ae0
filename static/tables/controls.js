/* The player's controls: the action bar (fold, check, call, bet, raise; show, muck), the
 * amount slider with its Min / − / + / Pot or All-in buttons, the moves chosen before the
 * turn (check/fold, check, call, call any, fold), the keyboard shortcuts, and the seat's own
 * buttons (sit down, sit out or in, leave, muck losing hands).
 *
 * Which buttons exist and their amounts come from the snapshot's `you.legal`; the server
 * refuses anything else. `send(frame)` is the socket's (it returns null when not sent).
 */

import { chips, el, helperText, nameOf } from "./felt.js";
import { pref, setPref } from "./prefs.js";
import { showPanel } from "./show.js";

// The keyboard shortcut of each action (see the keydown handler below and the page's "?").
const KEYS = { fold: "F", check: "C", call: "C", bet: "R", raise: "R" };

export function createControls({ root, send, toast }) {
  const actionBar = root.querySelector(".action-bar");
  const seatControls = root.querySelector(".seat-controls");
  const sitDialog = document.getElementById("sit-dialog");
  const helperLine = root.querySelector(".hand-helper");
  const authenticated = root.dataset.authenticated === "1";
  let snap = null;
  let pending = false;
  // The amount being chosen, kept when a new snapshot comes mid-decision (someone sat down),
  // never past it: acting, or the turn passing, drops it, so the next decision (on this
  // street or the next) starts at the minimum and never offers an amount chosen before.
  let chosen = null;
  // Fold when checking is free takes a second tap: the first arms it until this time (ms).
  let foldArmedUntil = 0;
  // The socket's own snapshot has come since it (re)connected. Until then the buttons shown
  // are the page's (or the last connection's) and a move made from them may be refused as
  // out of date: opening the table on one's own turn changes it (the player connected, the
  // turn's clock given its reconnection seconds). So they wait, disabled, for that snapshot.
  let live = false;

  function act(action, amount) {
    const legal = snap && snap.you && snap.you.legal;
    if (!legal || pending || !live) return;
    // Unless the player chose to fold at once (their setting, kept in this browser).
    if (action === "fold" && legal.check && pref("foldFreeAsks", true) && Date.now() > foldArmedUntil) {
      foldArmedUntil = Date.now() + 4000;
      const button = actionBar.querySelector('button[data-action="fold"]');
      button.textContent = gettext("Fold? Checking is free");
      button.classList.add("armed");
      setTimeout(() => {
        // The bar may have been redrawn since (a new snapshot): disarm the Fold shown now.
        const shown = actionBar.querySelector('button[data-action="fold"].armed');
        if (shown && Date.now() > foldArmedUntil) {
          shown.textContent = gettext("Fold");
          shown.classList.remove("armed");
        }
      }, 4100);
      return;
    }
    const frame = { type: "act", hand: legal.hand, version: legal.version, action: action };
    if (amount !== undefined) frame.amount = amount;
    if (send(frame)) {
      pending = true;
      chosen = null;
      foldArmedUntil = 0;
      disableBar();
    }
  }

  function actionButton(label, action, className, amountFn) {
    const button = el("button", "act " + (className || ""), label);
    button.type = "button";
    button.dataset.action = action;
    const key = KEYS[action];
    if (key) {
      button.setAttribute("aria-keyshortcuts", key);
      button.title = interpolate(gettext("Key: %s"), [key]);
    }
    button.addEventListener("click", () => act(action, amountFn ? amountFn() : undefined));
    return button;
  }

  /* The amount box, slider and presets for a bet or raise between range.min and range.max;
   * the returned element holds the bet or raise button too. */
  function sizingControls(kind, range) {
    const legal = snap.you.legal;
    const wrap = el("div", "sizing");
    const structure = snap.table.structure;
    const number = el("input", "amount");
    number.type = "number";
    number.min = range.min;
    number.max = range.max;
    number.value = range.min;
    number.setAttribute("aria-label", kind === "bet" ? gettext("Bet amount") : gettext("Raise amount"));
    const slider = el("input", "slider");
    slider.type = "range";
    slider.min = range.min;
    slider.max = range.max;
    slider.value = range.min;
    slider.setAttribute("aria-label", gettext("Amount slider"));
    const clamp = (v) => Math.max(range.min, Math.min(range.max, Math.round(Number(v) || range.min)));
    const label = (amount) => interpolate(kind === "bet" ? gettext("Bet %(amount)s") : gettext("Raise to %(amount)s"),
      { amount: chips(amount) }, true);
    const go = actionButton(label(range.min), kind, "act-raise", () => clamp(number.value));
    // While typing, the box keeps what is typed; the amount sent is always held to the range.
    const set = (value, typing) => {
      const amount = clamp(value);
      if (!typing) number.value = amount;
      slider.value = amount;
      go.textContent = label(amount);
      // What is being typed is kept as typed ("6" on the way to "60" is not the minimum yet).
      chosen = { hand: legal.hand, street: snap.hand && snap.hand.street, amount: amount,
        typed: typing ? String(value) : null };
    };
    slider.addEventListener("input", () => set(slider.value));
    number.addEventListener("input", () => set(number.value, true));
    number.addEventListener("change", () => set(number.value));
    if (chosen && chosen.hand === legal.hand && chosen.street === (snap.hand && snap.hand.street)
      && chosen.amount >= range.min && chosen.amount <= range.max) {
      const typed = chosen.typed;
      set(typed === null ? chosen.amount : typed, typed !== null);
      if (typed !== null) number.value = typed;
    }
    if (range.min === range.max) {
      wrap.append(go);
      return wrap;
    }
    const presets = el("div", "presets");
    const step = Number(snap.table.big_blind) || 1;
    // The top preset names its amount, the pot-limit maximum included, before it is pressed.
    const words = { amount: chips(range.max) };
    const maxLabel = structure === "pot-limit" ? interpolate(gettext("Pot %(amount)s"), words, true)
      : structure === "no-limit" ? interpolate(gettext("All-in %(amount)s"), words, true)
        : interpolate(gettext("Max %(amount)s"), words, true);
    [[gettext("Min"), () => range.min, ""], ["−", () => clamp(number.value) - step, gettext("Less")],
      ["+", () => clamp(number.value) + step, gettext("More")], [maxLabel, () => range.max, ""]].forEach(([text, fn, name]) => {
      const b = el("button", "preset", text);
      b.type = "button";
      if (name) b.setAttribute("aria-label", name);
      if (text === maxLabel) b.dataset.preset = "max";
      b.addEventListener("click", () => set(fn()));
      presets.append(b);
    });
    const row = el("div", "sizing-row");
    row.append(slider, number);
    wrap.append(presets, row, go);
    return wrap;
  }

  /* The moves this player may choose before their turn (`you.pre_action`), as toggles: the
   * chosen one pressed, pressed again to clear it. The server keeps the choice (every page
   * of the player shows it, and it holds while the phone sleeps), makes it when the turn
   * comes, and drops it when the bet it was chosen against changes (an alert says so). */
  function preActionBar(offer) {
    const bar = el("div", "pre-actions");
    bar.setAttribute("role", "group");
    bar.setAttribute("aria-label", gettext("Your move before your turn"));
    const chosenKind = offer.chosen ? offer.chosen.kind : null;
    const words = { amount: chips(offer.to_call) };
    const labels = {
      check_fold: gettext("Check/Fold"),
      check: gettext("Check"),
      call: offer.all_in
        ? interpolate(gettext("Call %(amount)s · all-in"), words, true)
        : interpolate(gettext("Call %(amount)s"), words, true),
      call_any: gettext("Call any"),
      fold: gettext("Fold"),
    };
    offer.kinds.forEach((kind) => {
      const button = el("button", "pre pre-" + kind, labels[kind] || kind);
      button.type = "button";
      button.dataset.pre = kind;
      const on = kind === chosenKind;
      button.setAttribute("aria-pressed", String(on));
      button.addEventListener("click", () => {
        const frame = on ? { type: "pre_action", kind: null }
          : { type: "pre_action", hand: offer.hand, kind: kind };
        if (!on && kind === "call") frame.amount = offer.to_call;
        if (!send(frame)) return;
        // Shown at once; the next snapshot confirms it, a refusal redraws the bar as it was.
        bar.querySelectorAll("button").forEach((b) => {
          b.setAttribute("aria-pressed", String(!on && b === button));
        });
      });
      bar.append(button);
    });
    return bar;
  }

  function renderActions() {
    actionBar.replaceChildren();
    const legal = snap.you && snap.you.legal;
    root.classList.toggle("my-turn", Boolean(legal));
    if (!legal) {
      chosen = null;
      foldArmedUntil = 0;
      const hand = snap.hand;
      if (hand && hand.run_twice && !hand.complete) {
        actionBar.append(runTwicePanel(snap));
        return;
      }
      let text = "";
      if (hand && hand.to_act) text = interpolate(gettext("Waiting for %s…"), [nameOf(snap, hand.to_act)]);
      // A closed table deals no next hand (a tournament's panel names its winner).
      else if (snap.table.closed) text = gettext("This table is closed.");
      else if (!hand || hand.results) text = gettext("Waiting for the next hand…");
      // After the hand, until the next one (the clock counts it down in the line below):
      // the player's cards still face down, to show.
      if (snap.you && snap.you.can_show) actionBar.append(showPanel(snap, send));
      actionBar.append(el("p", "waiting", text));
      if (snap.you && snap.you.pre_action) actionBar.append(preActionBar(snap.you.pre_action));
      return;
    }
    const buttons = el("div", "act-buttons");
    if (legal.fold) {
      const armed = legal.check && Date.now() <= foldArmedUntil;
      const fold = actionButton(armed ? gettext("Fold? Checking is free") : gettext("Fold"), "fold", "act-fold");
      if (armed) fold.classList.add("armed");
      buttons.append(fold);
    }
    if (legal.check) buttons.append(actionButton(gettext("Check"), "check", "act-check"));
    if (legal.call !== null && legal.call !== undefined && legal.call !== false) {
      const words = { amount: chips(legal.call) };
      const text = legal.call_all_in
        ? interpolate(gettext("Call %(amount)s · all-in"), words, true)
        : interpolate(gettext("Call %(amount)s"), words, true);
      buttons.append(actionButton(text, "call", "act-call"));
    }
    if (legal.show) buttons.append(actionButton(gettext("Show"), "show", "act-check"));
    if (legal.muck) buttons.append(actionButton(gettext("Muck"), "muck", "act-fold"));
    const range = legal.bet || legal.raise;
    if (range) {
      const sizing = sizingControls(legal.bet ? "bet" : "raise", range);
      buttons.append(sizing.querySelector(".act-raise"));
      if (sizing.childNodes.length) actionBar.append(sizing);
    }
    actionBar.append(buttons);
    if (!live) disableBar();
  }

  function disableBar() {
    actionBar.querySelectorAll("button, input").forEach((b) => { b.disabled = true; });
  }

  /* The players still in are asked whether to run the board twice (docs/rules.md, Home-game
   * options): Yes and No for each of them until they answer, "waiting" for everyone else.
   * The seconds left are clock.js's (`.run-twice-left`); silence is no. */
  function runTwicePanel(snap) {
    const vote = snap.hand.run_twice;
    const mine = snap.you && snap.you.seat;
    const asked = mine !== null && mine !== undefined && vote.asked.includes(mine);
    const panel = el("div", "run-twice-ask");
    panel.setAttribute("role", "group");
    panel.setAttribute("aria-label", gettext("Run it twice?"));
    const question = el("p", "run-twice-question");
    if (!asked || vote.agreed.includes(mine)) {
      question.textContent = asked
        ? gettext("You agreed to run it twice. Waiting for the other votes…")
        : gettext("Run it twice? Waiting for the players' votes…");
      question.append(" ", el("span", "run-twice-left"));
      panel.append(question);
      return panel;
    }
    question.append(el("strong", "", gettext("Run it twice?")), " ", el("span", "run-twice-left"));
    const help = el("p", "run-twice-help",
      gettext("The rest of the board is dealt twice, each run for half of every pot. Everyone still in must agree: no answer is no."));
    const buttons = el("div", "act-buttons");
    [[gettext("Yes"), true, "act-call"], [gettext("No"), false, "act-fold"]].forEach(([label, agree, kind]) => {
      const button = el("button", "act " + kind, label);
      button.type = "button";
      button.dataset.runTwice = agree ? "yes" : "no";
      button.addEventListener("click", () => {
        if (pending) return;
        if (send({ type: "run_twice", hand: snap.hand.id, agree: agree })) {
          pending = true;
          buttons.querySelectorAll("button").forEach((b) => { b.disabled = true; });
        }
      });
      buttons.append(button);
    });
    panel.append(question, help, buttons);
    return panel;
  }

  function frameButton(label, type, extra) {
    const b = el("button", "button button-small button-ghost", label);
    b.type = "button";
    b.dataset.frame = type;
    b.addEventListener("click", () => send({ type: type, ...extra }));
    return b;
  }

  function renderSeatControls() {
    seatControls.replaceChildren();
    const you = snap.you || {};
    if (you.seat === null || you.seat === undefined) {
      if (snap.table.tournament) {
        // Nobody logs in to sit at a tournament's table: visitors, logged in or not, watch.
        seatControls.append(el("span", "muted", gettext("Watching this tournament table")));
      } else if (!authenticated) {
        const link = el("a", "button button-small", gettext("Log in to play"));
        link.href = root.dataset.loginUrl;
        seatControls.append(link);
      } else {
        seatControls.append(el("span", "muted", gettext("Watching · pick an empty seat to play")));
      }
      return;
    }
    const mine = snap.seats.find((s) => s.seat === you.seat) || {};
    if (mine.removing) {
      seatControls.append(el("p", "owes",
        gettext("The host is removing you from this table: you play this hand out, then your chips are cashed out.")));
    }
    if (you.owes) seatControls.append(el("p", "owes", owesSentence(you.owes, you.wait_for_big_blind)));
    if (mine.state === "sitting_out" && you.owes) {
      seatControls.append(
        frameButton(gettext("Post and play"), "sit_in", { wait_for_big_blind: false }),
        frameButton(gettext("Wait for the big blind"), "sit_in", { wait_for_big_blind: true }));
    } else if (mine.state === "sitting_out") {
      seatControls.append(frameButton(gettext("Sit in"), "sit_in"));
    } else {
      if (mine.state === "waiting" && you.owes) {
        // Back after a rebuy, owing the blinds: both ways in, the one in force pressed
        // (the big blind brings the player in unless they choose to post).
        const waits = you.wait_for_big_blind !== false;
        const post = frameButton(gettext("Post and play"), "sit_in", { wait_for_big_blind: false });
        const wait = frameButton(gettext("Wait for the big blind"), "sit_in", { wait_for_big_blind: true });
        post.setAttribute("aria-pressed", String(!waits));
        wait.setAttribute("aria-pressed", String(waits));
        seatControls.append(post, wait);
      }
      seatControls.append(frameButton(gettext("Sit out"), "sit_out"));
    }
    if (!snap.table.tournament) seatControls.append(frameButton(gettext("Leave"), "leave"));
    if (snap.table.forced_bets) seatControls.append(forcedBetsControls(snap.table.forced_bets, you, mine));
    const muck = el("label", "muck-choice");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.checked = you.muck_losing !== false;
    box.addEventListener("change", () => {
      if (!send({ type: "options", muck_losing: box.checked })) box.checked = !box.checked;
    });
    muck.append(box, document.createTextNode(" " + gettext("Muck losing hands")));
    muck.title = gettext("Off: your hand is shown at the showdown even when it cannot win");
    seatControls.append(muck);
    const helper = el("label", "helper-choice");
    const helperBox = document.createElement("input");
    helperBox.type = "checkbox";
    helperBox.name = "hand-helper";
    helperBox.checked = pref("handHelper", false);
    helperBox.addEventListener("change", () => {
      setPref("handHelper", helperBox.checked);
      renderHelper();
    });
    helper.append(helperBox, document.createTextNode(" " + gettext("Hand helper")));
    helper.title = gettext("Shows your best hand so far; nobody else sees it");
    seatControls.append(helper);
    // Folding when checking is free: asked again (the default), or done at the first tap.
    const foldAsks = el("label", "fold-free-choice");
    const foldBox = document.createElement("input");
    foldBox.type = "checkbox";
    foldBox.name = "fold-free-asks";
    foldBox.checked = pref("foldFreeAsks", true);
    foldBox.addEventListener("change", () => setPref("foldFreeAsks", foldBox.checked));
    foldAsks.append(foldBox, document.createTextNode(" " + gettext("Ask before folding when checking is free")));
    foldAsks.title = gettext("Off: Fold folds at the first tap, even when you could check for nothing");
    seatControls.append(foldAsks);
  }

  /* "Straddle next hand" for the player in the straddle's seat for it, and the vote for a bomb
   * pot next hand (docs/rules.md, Home-game options). The server checks both again. */
  function forcedBetsControls(forced, you, mine) {
    const box = el("span", "forced-bets");
    const straddling = Boolean(you.straddle_next);
    if (forced.straddle !== "none" && !forced.bomb_pot_next
      && (straddling || forced.straddle_seat === you.seat)) {
      const b = frameButton(straddling ? gettext("Straddling next hand") : gettext("Straddle next hand"),
        "straddle", { on: !straddling });
      b.setAttribute("aria-pressed", String(straddling));
      b.title = interpolate(gettext("Post %s, twice the big blind, before the cards; you act last before the flop"),
        [chips(2 * snap.table.big_blind)]);
      box.append(b);
    }
    if (forced.straddle !== "none") {
      // The standing choice: straddle every hand this player is in the straddle's seat for.
      const always = el("label", "straddle-always-choice");
      const alwaysBox = document.createElement("input");
      alwaysBox.type = "checkbox";
      alwaysBox.checked = Boolean(you.straddle_always);
      alwaysBox.addEventListener("change", () => {
        if (!send({ type: "straddle", on: alwaysBox.checked, always: true })) alwaysBox.checked = !alwaysBox.checked;
      });
      always.append(alwaysBox, document.createTextNode(" " + gettext("Straddle every hand")));
      always.title = gettext("Straddle each hand you are in the straddle's seat for, until you untick it");
      box.append(always);
    }
    if (forced.bomb_pot_next) {
      box.append(el("span", "forced-bets-note", gettext("Next hand: bomb pot")));
    } else if (forced.bomb_pot_by_vote && mine.state === "playing" && !mine.bot) {
      const voted = Boolean(you.votes_bomb_pot);
      const b = frameButton(interpolate(gettext("Bomb pot %(votes)s/%(voters)s"),
        { votes: forced.bomb_pot_votes, voters: forced.bomb_pot_voters }, true), "bomb_pot_vote", { yes: !voted });
      b.setAttribute("aria-pressed", String(voted));
      b.title = gettext("Vote for a bomb pot next hand: it comes when every player in the game votes for it (the house bots say yes)");
      box.append(b, el("span", "muted", gettext("all must vote")));
      if (forced.bomb_pot_vote_until) {
        // The vote is open until then: a player who has not said yes by that time counts as no.
        const time = new Date(forced.bomb_pot_vote_until).toLocaleTimeString(
          document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
        box.append(el("span", "muted forced-bets-note",
          interpolate(gettext("vote open until %(time)s; no answer counts as no"), { time: time }, true)));
      }
    }
    return box;
  }

  /* The missed blinds in a sentence: what they are and the two ways back in, or, once the
   * player chose to post them, when that happens. */
  function owesSentence(owes, waits) {
    if (waits === false) {
      return owes.small
        ? gettext("You post the small (dead) and big blind to come back in.")
        : gettext("You post the big blind to come back in.");
    }
    if (owes.small && owes.big) {
      return gettext("You missed the blinds: post the small (dead) and big blind to come back in, or wait for the big blind.");
    }
    if (owes.big) return gettext("You missed the big blind: post it to come back in, or wait for the big blind.");
    return gettext("You missed the small blind: post it (dead) to come back in, or wait for the big blind.");
  }

  /* The hand helper's line (your best high, and low in Hi/Lo), when this browser wants it. */
  function renderHelper() {
    if (!helperLine) return;
    const helper = snap && snap.you && snap.you.helper;
    const text = helper && pref("handHelper", false) ? helperText(helper) : "";
    helperLine.textContent = text;
    helperLine.hidden = !text;
  }

  /* The sit dialog for an empty seat the viewer clicked (the felt's "Sit" button). */
  function sitAt(seatNumber) {
    if (!authenticated) {
      window.location.href = root.dataset.loginUrl;
      return;
    }
    if (snap.you && snap.you.seat) {
      toast(gettext("You already have a seat."), "error");
      return;
    }
    const form = sitDialog.querySelector("form");
    form.elements.seat.value = seatNumber;
    sitDialog.querySelector(".sit-seat").textContent = seatNumber;
    const buyIn = form.elements.buy_in;
    buyIn.min = snap.table.min_buy_in;
    buyIn.max = snap.table.max_buy_in;
    buyIn.value = snap.table.max_buy_in;
    sitDialog.querySelector(".sit-range").textContent = interpolate(gettext("%(min)s to %(max)s"),
      { min: chips(snap.table.min_buy_in), max: chips(snap.table.max_buy_in) }, true);
    sitDialog.showModal();
  }

  sitDialog.querySelector("form").addEventListener("submit", (event) => {
    const form = event.target;
    if (event.submitter && event.submitter.value === "cancel") return;
    event.preventDefault();
    if (!form.reportValidity()) return;
    send({
      type: "sit",
      seat: Number(form.elements.seat.value),
      buy_in: Number(form.elements.buy_in.value),
      wait_for_big_blind: form.elements.wait.value === "1",
    });
    sitDialog.close();
  });

  /* Keys for the main actions, unless typing: F fold, C check or call. */
  document.addEventListener("keydown", (event) => {
    // A held key repeats: never a second press (the one that confirms a fold when checking is free).
    if (event.target.closest("input, textarea, select, dialog, [contenteditable]") || event.ctrlKey || event.metaKey
      || event.altKey || event.repeat) return;
    // B and R (to the amount) and A (the most) are a11y.js's.
    const pick = { f: ["fold"], c: ["check", "call"] }[event.key.toLowerCase()];
    if (!pick) return;
    for (const action of pick) {
      const button = actionBar.querySelector('button[data-action="' + action + '"]:not(:disabled)');
      if (button) {
        button.click();
        return;
      }
    }
  });

  return {
    /* Draw the controls for a new snapshot: whatever was sent has been answered. */
    render(next) {
      snap = next;
      pending = false;
      renderActions();
      renderSeatControls();
      renderHelper();
    },
    /* The socket: `true` as its snapshot comes (drawn next), `false` as it drops. */
    setLive(on) {
      live = on;
      if (!on) disableBar();
    },
    /* A frame was refused: the action bar comes back as it was. */
    refused() {
      pending = false;
      if (snap) renderActions();
    },
    sitAt,
  };
}
