/* The live table: render each snapshot (docs/protocol.md) and send the player's frames.
 *
 * No rule of poker lives here: which buttons exist and their amounts come from `you.legal`,
 * and the server refuses anything else. Rendering is exported as `window.PokerTable` so the
 * hand replayer draws the same felt from its own steps.
 */
(function () {
  "use strict";

  const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
  const SUIT_NAMES = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
  const RANK_NAMES = { T: "10", J: "jack", Q: "queen", K: "king", A: "ace" };
  const STREETS = { preflop: "Preflop", flop: "Flop", turn: "Turn", river: "River", showdown: "Showdown",
    complete: "Hand over" };
  const GAMES = { omaha: "Omaha High", "omaha-hi-lo": "Omaha Hi/Lo 8" };
  const STRUCTURES = { limit: "Limit", "pot-limit": "Pot-limit", "no-limit": "No-limit" };

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function cardEl(code, extra) {
    const card = el("span", "pc" + (extra ? " " + extra : ""));
    if (!code) {
      card.classList.add("pc-back");
      card.setAttribute("aria-label", "face-down card");
      return card;
    }
    const rank = code[0];
    const suit = code[1];
    card.classList.add("suit-" + suit);
    card.setAttribute("aria-label", (RANK_NAMES[rank] || rank) + " of " + SUIT_NAMES[suit]);
    card.title = code;
    card.append(el("span", "pc-rank", rank === "T" ? "10" : rank), el("span", "pc-suit", SUITS[suit]));
    return card;
  }

  function chips(amount) {
    return Number(amount || 0).toLocaleString("en-US");
  }

  function stakesText(table) {
    const game = GAMES[table.game] || table.game;
    const structure = STRUCTURES[table.structure] || table.structure;
    const blinds = table.structure === "limit"
      ? chips(table.big_blind) + "/" + chips(table.big_bet)
      : chips(table.small_blind) + "/" + chips(table.big_blind);
    return structure + " " + game + " · " + blinds;
  }

  /* Where seat k of n sits on the rail: k = 0 is the bottom centre, then clockwise. */
  function seatAngle(k, n) {
    return Math.PI / 2 + (k * 2 * Math.PI) / n;
  }

  function place(node, angle, rx, ry) {
    node.style.left = (50 + 50 * rx * Math.cos(angle)).toFixed(2) + "%";
    node.style.top = (50 + 50 * ry * Math.sin(angle)).toFixed(2) + "%";
  }

  function nameOf(snap, seatNumber) {
    const seat = (snap.seats || []).find((s) => s.seat === Number(seatNumber));
    return seat && seat.player ? seat.player.name : "seat " + seatNumber;
  }

  /* Draw the felt, seats, board and pots of a snapshot-shaped state into `felt`.
   * `options.onSit(seatNumber)` adds a "Sit" button to empty seats. */
  function renderFelt(felt, snap, options) {
    options = options || {};
    const hand = snap.hand || null;
    const you = snap.you || {};
    const seats = snap.seats || [];
    const n = seats.length || (snap.table && snap.table.seat_count) || 1;
    const anchorIndex = Math.max(0, seats.findIndex((s) => s.seat === you.seat));
    const equity = (hand && hand.equity) || null;
    const winners = {};
    ((hand && hand.results) || []).forEach((award) => {
      winners[award.seat] = (winners[award.seat] || 0) + award.amount;
    });

    const ring = felt.querySelector(".seat-ring");
    ring.replaceChildren();
    seats.forEach((seat, index) => {
      const k = (index - anchorIndex + n) % n;
      const angle = seatAngle(k, n);
      const box = el("div", "seat");
      box.dataset.seat = seat.seat;
      place(box, angle, 1, 1);
      if (Math.sin(angle) < -0.3) box.classList.add("seat-top");
      if (!seat.player) {
        box.classList.add("seat-empty");
        if (options.onSit) {
          const button = el("button", "sit-button", "Sit");
          button.type = "button";
          button.setAttribute("aria-label", "Sit in seat " + seat.seat);
          button.addEventListener("click", () => options.onSit(seat.seat));
          box.append(button);
        } else {
          box.append(el("span", "seat-open", "Seat " + seat.seat));
        }
        ring.append(box);
        return;
      }
      const mine = seat.seat === you.seat;
      if (mine) box.classList.add("seat-mine");
      if (hand && hand.to_act === seat.seat) box.classList.add("seat-to-act");
      if (seat.folded) box.classList.add("seat-folded");
      if (seat.state === "sitting_out") box.classList.add("seat-away");
      if (winners[seat.seat]) box.classList.add("seat-winner");

      const cards = el("div", "seat-cards");
      if (seat.cards && seat.cards.length) {
        seat.cards.forEach((c) => cards.append(cardEl(c)));
      } else {
        for (let i = 0; i < (seat.card_count || 0); i++) cards.append(cardEl(null));
      }
      box.append(cards);

      const plate = el("div", "seat-plate");
      const name = el("div", "seat-name");
      name.append(el("span", "seat-name-text", seat.player.name));
      if (seat.bot) name.append(el("span", "badge", "bot"));
      plate.append(name);
      const stack = el("div", "seat-stack", seat.all_in ? "All-in" : chips(seat.stack));
      let note = "";
      if (seat.state === "sitting_out") note = seat.sat_out_reason === "timed out" ? "timed out" : "away";
      else if (seat.state === "waiting") note = "waiting";
      else if (seat.folded) note = "folded";
      if (note) stack.append(el("span", "seat-note", note));
      if (seat.connected === false) stack.append(el("span", "seat-note seat-offline", "offline"));
      plate.append(stack);
      const timer = el("div", "seat-timer");
      timer.append(el("span", "seat-timer-bar"));
      plate.append(timer);
      box.append(plate);
      const badges = el("div", "seat-badges");
      if (equity && equity[seat.seat] !== undefined) {
        const share = el("span", "seat-equity", Math.round(equity[seat.seat] * 100) + "%");
        share.title = "All-in equity";
        badges.append(share);
      }
      if (winners[seat.seat]) badges.append(el("span", "seat-won", "+" + chips(winners[seat.seat])));
      if (badges.childNodes.length) box.append(badges);
      ring.append(box);

      if (seat.bet) {
        const bet = el("div", "bet");
        bet.append(el("span", "chip"), el("span", "bet-amount", chips(seat.bet)));
        place(bet, angle, 0.62, 0.58);
        ring.append(bet);
      }
      if (hand && hand.button === seat.seat) {
        const button = el("div", "dealer-button", "D");
        button.title = "Dealer button";
        place(button, angle + 0.42 * (4 / Math.max(n, 4)), 0.74, 0.72);
        ring.append(button);
      }
    });

    const center = felt.querySelector(".felt-center");
    center.replaceChildren();
    const board = el("div", "board");
    const boardCards = (hand && hand.board) || [];
    for (let i = 0; i < 5; i++) {
      board.append(boardCards[i] ? cardEl(boardCards[i]) : el("span", "pc pc-slot"));
    }
    const pots = el("div", "pots");
    ((hand && hand.pots) || []).forEach((pot, i) => {
      const label = i === 0 ? "Pot" : hand.pots.length > 2 ? "Side " + i : "Side";
      const item = el("span", "pot");
      item.append(el("span", "chip"), el("span", "", label + " " + chips(pot.amount)));
      pots.append(item);
    });
    const info = el("div", "hand-info");
    if (hand) {
      info.textContent = "Hand #" + hand.number + " · " + (STREETS[hand.street] || hand.street || "");
    } else {
      info.textContent = snap.table ? stakesText(snap.table) : "";
    }
    center.append(info, board, pots);
    if (hand && hand.results && hand.results.length) {
      const results = el("ul", "results");
      hand.results.forEach((award) => {
        const half = award.half && award.half !== "whole" ? " (" + award.half + ")" : "";
        const what = award.hand ? " with " + award.hand : "";
        results.append(el("li", "", nameOf(snap, award.seat) + " wins " + chips(award.amount) + half + what));
      });
      center.append(results);
    }
  }

  window.PokerTable = { renderFelt, cardEl, chips, stakesText, nameOf };

  /* ---- The live page ---- */
  const root = document.getElementById("poker");
  if (!root || !root.dataset.wsPath) return;

  const initial = document.getElementById("snapshot");
  let snap = initial ? JSON.parse(initial.textContent) : null;
  let skew = snap && snap.now ? snap.now - Date.now() : 0;
  let socket = null;
  let attempts = 0;
  let pending = false;
  let refCounter = 0;
  let lastTurnKey = null;
  let chosen = null;
  const authenticated = root.dataset.authenticated === "1";
  const felt = root.querySelector(".felt");
  const actionBar = root.querySelector(".action-bar");
  const seatControls = root.querySelector(".seat-controls");
  const status = root.querySelector(".conn-status");
  const toasts = root.querySelector(".toasts");
  const chatList = root.querySelector(".chat-list");
  const chatForm = root.querySelector(".chat-form");
  const recentList = root.querySelector(".recent-list");
  const fairness = root.querySelectorAll(".fairness");
  const sitDialog = document.getElementById("sit-dialog");
  const turnBanner = root.querySelector(".turn-banner");

  /* Preferences kept in this browser only. */
  function pref(name, fallback) {
    const value = localStorage.getItem("poker." + name);
    return value === null ? fallback : value === "1";
  }
  function setPref(name, on) {
    localStorage.setItem("poker." + name, on ? "1" : "0");
  }
  const soundToggle = root.querySelector("[data-toggle=sound]");
  const colourToggle = root.querySelector("[data-toggle=four-colour]");
  function applyPrefs() {
    const four = pref("fourColour", Boolean(snap && snap.table && snap.table.four_colour));
    root.classList.toggle("four-colour", four);
    colourToggle.setAttribute("aria-pressed", String(four));
    soundToggle.setAttribute("aria-pressed", String(pref("sound", true)));
    soundToggle.textContent = pref("sound", true) ? "♪ On" : "♪ Off";
    soundToggle.title = "Sound for your turn";
  }
  soundToggle.addEventListener("click", () => { setPref("sound", !pref("sound", true)); applyPrefs(); });
  root.querySelector("[data-toggle=side]").addEventListener("click", (event) => {
    const side = root.querySelector(".side");
    side.classList.toggle("open");
    event.currentTarget.setAttribute("aria-expanded", String(side.classList.contains("open")));
  });
  colourToggle.addEventListener("click", () => {
    setPref("fourColour", !root.classList.contains("four-colour"));
    applyPrefs();
  });

  let audio = null;
  function beep() {
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
    } catch (e) { /* no audio in this browser: the banner still shows */ }
  }

  function toast(message, kind) {
    const item = el("div", "toast" + (kind ? " toast-" + kind : ""), message);
    item.setAttribute("role", "alert");
    toasts.append(item);
    setTimeout(() => item.remove(), 5000);
  }

  function send(frame) {
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      toast("Not connected yet: try again in a moment.", "error");
      return false;
    }
    socket.send(JSON.stringify(frame));
    return true;
  }

  function act(action, amount) {
    const legal = snap && snap.you && snap.you.legal;
    if (!legal || pending) return;
    const frame = { type: "act", hand: legal.hand, version: legal.version, action: action, ref: "c" + ++refCounter };
    if (amount !== undefined) frame.amount = amount;
    if (send(frame)) {
      pending = true;
      actionBar.querySelectorAll("button, input").forEach((b) => { b.disabled = true; });
    }
  }

  function actionButton(label, action, className, amountFn) {
    const button = el("button", "act " + (className || ""), label);
    button.type = "button";
    button.dataset.action = action;
    button.addEventListener("click", () => act(action, amountFn ? amountFn() : undefined));
    return button;
  }

  function sizingControls(kind, range) {
    const wrap = el("div", "sizing");
    const structure = snap.table.structure;
    const number = el("input", "amount");
    number.type = "number";
    number.min = range.min;
    number.max = range.max;
    number.value = range.min;
    number.setAttribute("aria-label", (kind === "bet" ? "Bet" : "Raise") + " amount");
    const slider = el("input", "slider");
    slider.type = "range";
    slider.min = range.min;
    slider.max = range.max;
    slider.value = range.min;
    slider.setAttribute("aria-label", "Amount slider");
    const verb = kind === "bet" ? "Bet " : "Raise to ";
    const go = actionButton(verb + chips(range.min), kind, "act-raise", () => clamp(number.value));
    function clamp(value) {
      const v = Math.round(Number(value));
      if (!Number.isFinite(v)) return range.min;
      return Math.min(range.max, Math.max(range.min, v));
    }
    function set(value, fromNumber) {
      const v = clamp(value);
      slider.value = v;
      if (!fromNumber) number.value = v;
      go.textContent = verb + chips(v);
      chosen = { hand: snap.you.legal.hand, amount: v };
    }
    slider.addEventListener("input", () => set(slider.value));
    number.addEventListener("input", () => set(number.value, true));
    number.addEventListener("change", () => set(number.value));
    // A new snapshot mid-decision (someone sat down) keeps the amount being chosen.
    if (chosen && chosen.hand === snap.you.legal.hand && chosen.amount >= range.min && chosen.amount <= range.max) {
      set(chosen.amount);
    }
    if (range.min === range.max) {
      wrap.append(go);
      return wrap;
    }
    const presets = el("div", "presets");
    const step = Number(snap.table.big_blind) || 1;
    const maxLabel = structure === "pot-limit" ? "Pot" : structure === "no-limit" ? "All-in" : "Max";
    [["Min", () => range.min], ["−", () => clamp(number.value) - step], ["+", () => clamp(number.value) + step],
      [maxLabel, () => range.max]].forEach(([label, fn]) => {
      const b = el("button", "preset", label);
      b.type = "button";
      if (label === maxLabel) b.dataset.preset = "max";
      b.addEventListener("click", () => set(fn()));
      presets.append(b);
    });
    const row = el("div", "sizing-row");
    row.append(slider, number);
    wrap.append(presets, row, go);
    return wrap;
  }

  function renderActions() {
    actionBar.replaceChildren();
    const legal = snap.you && snap.you.legal;
    root.classList.toggle("my-turn", Boolean(legal));
    if (!legal) {
      const hand = snap.hand;
      let text = "";
      if (hand && hand.to_act) text = "Waiting for " + nameOf(snap, hand.to_act) + "…";
      else if (!hand || hand.results) text = "Waiting for the next hand…";
      actionBar.append(el("p", "waiting", text));
      return;
    }
    const buttons = el("div", "act-buttons");
    if (legal.fold) buttons.append(actionButton("Fold", "fold", "act-fold"));
    if (legal.check) buttons.append(actionButton("Check", "check", "act-check"));
    if (legal.call !== null && legal.call !== undefined && legal.call !== false) {
      buttons.append(actionButton("Call " + chips(legal.call) + (legal.call_all_in ? " · all-in" : ""), "call", "act-call"));
    }
    if (legal.show) buttons.append(actionButton("Show", "show", "act-check"));
    if (legal.muck) buttons.append(actionButton("Muck", "muck", "act-fold"));
    const range = legal.bet || legal.raise;
    if (range) {
      const sizing = sizingControls(legal.bet ? "bet" : "raise", range);
      buttons.append(sizing.querySelector(".act-raise"));
      if (sizing.childNodes.length) actionBar.append(sizing);
    }
    actionBar.append(buttons);
  }

  function renderSeatControls() {
    seatControls.replaceChildren();
    const you = snap.you || {};
    if (you.seat === null || you.seat === undefined) {
      if (!authenticated) {
        const link = el("a", "button button-small", "Log in to play");
        link.href = root.dataset.loginUrl;
        seatControls.append(link);
      } else {
        seatControls.append(el("span", "muted", "Watching · pick an empty seat to play"));
      }
      return;
    }
    const mine = snap.seats.find((s) => s.seat === you.seat) || {};
    const frameButton = (label, type) => {
      const b = el("button", "button button-small button-ghost", label);
      b.type = "button";
      b.dataset.frame = type;
      b.addEventListener("click", () => send({ type: type }));
      return b;
    };
    if (mine.state === "sitting_out") seatControls.append(frameButton("Sit in", "sit_in"));
    else seatControls.append(frameButton("Sit out", "sit_out"));
    seatControls.append(frameButton("Leave", "leave"));
    const muck = el("label", "muck-choice");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.checked = you.muck_losing !== false;
    box.addEventListener("change", () => {
      if (!send({ type: "options", muck_losing: box.checked })) box.checked = !box.checked;
    });
    muck.append(box, document.createTextNode(" Muck losing hands"));
    muck.title = "Off: your hand is shown at the showdown even when it cannot win";
    seatControls.append(muck);
    if (you.owes) {
      const owes = typeof you.owes === "object"
        ? Object.entries(you.owes).map(([k, v]) => k.replace(/_/g, " ") + " " + v).join(", ")
        : chips(you.owes);
      seatControls.append(el("span", "muted owes", "Owes " + owes));
    }
  }

  function renderSide() {
    recentList.replaceChildren();
    (snap.recent_hands || []).slice(0, 10).forEach((h) => {
      const li = el("li");
      const a = el("a", "", "#" + h.number);
      a.href = root.dataset.handUrl.replace("/0/", "/" + h.id + "/");
      li.append(a, document.createTextNode(" " + (h.summary || "")));
      recentList.append(li);
    });
    if (!recentList.childNodes.length) recentList.append(el("li", "muted", "No hands yet."));
    chatList.replaceChildren();
    (snap.chat || []).forEach(addChat);

    const hand = snap.hand;
    fairness.forEach((line) => {
      line.replaceChildren();
      if (!hand || !hand.commitment) return;
      line.append(el("span", "", "Deck commitment "));
      const code = el("code", "commitment", hand.commitment.slice(0, 12) + "…");
      code.title = hand.commitment;
      line.append(code);
      if (hand.reveal) {
        const a = el("a", "verify-link", "Verify hand #" + hand.number);
        a.href = root.dataset.verifyUrl.replace("/0/", "/" + hand.id + "/");
        line.append(document.createTextNode(" · "), a);
      }
    });
  }

  function addChat(message) {
    const li = el("li");
    li.append(el("strong", "", message.name + ": "), document.createTextNode(message.text));
    chatList.append(li);
    while (chatList.childNodes.length > 50) chatList.firstChild.remove();
    chatList.scrollTop = chatList.scrollHeight;
  }

  function openSitDialog(seatNumber) {
    if (!authenticated) {
      window.location.href = root.dataset.loginUrl;
      return;
    }
    if (snap.you && snap.you.seat) {
      toast("You already have a seat.", "error");
      return;
    }
    const form = sitDialog.querySelector("form");
    form.elements.seat.value = seatNumber;
    sitDialog.querySelector(".sit-seat").textContent = seatNumber;
    const buyIn = form.elements.buy_in;
    buyIn.min = snap.table.min_buy_in;
    buyIn.max = snap.table.max_buy_in;
    buyIn.value = snap.table.max_buy_in;
    sitDialog.querySelector(".sit-range").textContent =
      chips(snap.table.min_buy_in) + " to " + chips(snap.table.max_buy_in);
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

  /* Keys for the main actions, unless typing: F fold, C check or call, R bet or raise. */
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select, dialog") || event.ctrlKey || event.metaKey || event.altKey) return;
    const pick = { f: ["fold"], c: ["check", "call"], r: ["bet", "raise"] }[event.key.toLowerCase()];
    if (!pick) return;
    for (const action of pick) {
      const button = actionBar.querySelector('button[data-action="' + action + '"]:not(:disabled)');
      if (button) {
        button.click();
        return;
      }
    }
  });

  chatForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const input = chatForm.elements.text;
    const text = input.value.trim();
    if (!text) return;
    if (send({ type: "chat", text: text })) input.value = "";
  });

  function serverNow() {
    return Date.now() + skew;
  }

  function tick() {
    const hand = snap && snap.hand;
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
    const next = snap && snap.table && snap.table.next_hand_at;
    if (waiting && next && (!hand || hand.results) && next > serverNow()) {
      waiting.textContent = "Next hand in " + Math.ceil((next - serverNow()) / 1000) + "s";
    }
    if (snap && snap.you && snap.you.legal) {
      turnBanner.textContent = left === null ? "Your turn" : "Your turn · " + Math.ceil(left / 1000) + "s";
      turnBanner.hidden = false;
    } else {
      turnBanner.hidden = true;
    }
  }

  function render() {
    root.querySelector(".table-stakes").textContent = stakesText(snap.table);
    renderFelt(felt, snap, { onSit: snap.you && snap.you.seat ? null : openSitDialog });
    renderActions();
    renderSeatControls();
    renderSide();
    applyPrefs();
    tick();
    const legal = snap.you && snap.you.legal;
    const key = legal ? legal.hand + ":" + legal.version : null;
    if (key && key !== lastTurnKey) beep();
    lastTurnKey = key;
    root.dataset.version = snap.version;
  }

  function setStatus(text, kind) {
    status.textContent = text;
    status.dataset.kind = kind;
  }

  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + window.location.host + root.dataset.wsPath);
    setStatus(attempts ? "Reconnecting…" : "Connecting…", "wait");
    socket.addEventListener("open", () => {
      attempts = 0;
      setStatus("Live", "ok");
    });
    socket.addEventListener("message", (event) => {
      let frame;
      try { frame = JSON.parse(event.data); } catch (e) { return; }
      if (frame.type === "snapshot") {
        snap = frame;
        skew = frame.now - Date.now();
        pending = false;
        render();
      } else if (frame.type === "error") {
        pending = false;
        toast(frame.message || frame.code, "error");
        renderActions();
      } else if (frame.type === "chat") {
        addChat(frame);
      }
    });
    socket.addEventListener("close", (event) => {
      if (event.code === 4004) {
        setStatus("This table is closed", "bad");
        return;
      }
      attempts += 1;
      const delay = Math.min(15000, 500 * 2 ** Math.min(attempts, 5)) * (0.75 + Math.random() / 2);
      setStatus(event.code === 4008 ? "Too many messages: reconnecting…" : "Disconnected: reconnecting…", "bad");
      setTimeout(connect, delay);
    });
  }

  if (snap) render();
  setInterval(tick, 250);
  connect();
})();
