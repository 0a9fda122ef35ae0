/* The host's and the ledger's part of the table page.
 *
 *   - the table's state for everyone: "Paused by the host", "Closing after this hand", closed;
 *   - links to the ledger (players of the table) and the host page (its host and directors);
 *   - the host's Pause / Resume and Close buttons (the same frames the host page's forms do);
 *   - "Add chips" for a seated player, and the rebuy offered at once to a busted one;
 *   - on a private table, for a player who came with the invite link: "Ask for a seat".
 *
 * table.js calls renderHost with each snapshot. What this viewer may do comes once from
 * /tables/<id>/me/ (refreshed every 10 s for a host, who sees the pending requests); every
 * action is a socket frame the server checks again (docs/protocol.md).
 */

import { el } from "./felt.js";

let info = null;
let loading = null;
let ctx = null;
let offeredFor = null;
let polling = false;
let reloadedFor = null;
let reloading = false;

function meUrl(root) {
  return "/tables/" + root.dataset.tableId + "/me/";
}

function load(root) {
  loading = fetch(meUrl(root), { credentials: "same-origin", headers: { Accept: "application/json" } })
    .then((r) => (r.ok ? r.json() : null))
    .then((data) => { info = data; loading = null; if (ctx) draw(); })
    .catch(() => { loading = null; });
  return loading;
}

function ensureStyles() {
  if (document.querySelector("link[data-host-css]")) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("./host.css", import.meta.url).href;
  link.dataset.hostCss = "1";
  document.head.append(link);
}

function panel(root) {
  let found = root.querySelector(".host-panel");
  if (!found) {
    found = el("div", "host-panel");
    found.setAttribute("aria-live", "polite");
    // In the page's top bar, which spans the page on a phone and on a laptop alike.
    root.querySelector(".poker-top").append(found);
    // On a private table a guest's "Sit" picks the seat to ask the host for.
    root.addEventListener("click", (event) => {
      const sit = event.target.closest && event.target.closest(".sit-button");
      if (!sit || !root.classList.contains("host-ask")) return;
      event.stopPropagation();
      event.preventDefault();
      const number = sit.closest("[data-seat]");
      const select = root.querySelector("#request-seat");
      if (select && number) select.value = number.dataset.seat;
      const buyIn = root.querySelector("#request-buy-in");
      if (buyIn) buyIn.focus();
    }, true);
  }
  return found;
}

function rebuyRow(root) {
  let found = root.querySelector(".rebuy-row");
  if (!found) {
    found = el("div", "rebuy-row");
    root.querySelector(".dock").append(found);
  }
  return found;
}

function button(label, className, onClick) {
  const b = el("button", "button button-small " + (className || ""), label);
  b.type = "button";
  b.addEventListener("click", onClick);
  return b;
}

function mySeat(snap) {
  const number = snap.you && snap.you.seat;
  return number ? snap.seats.find((s) => s.seat === number) : null;
}

/* What a rebuy may be now: [least, most], or null when no chip can be added. */
function rebuyRange(snap, seat) {
  const held = seat.stack + (seat.adding || 0);
  const most = snap.table.max_buy_in - held;
  if (most <= 0) return null;
  return [Math.max(1, snap.table.min_buy_in - held), most];
}

function rebuyDialog() {
  let dialog = document.getElementById("rebuy-dialog");
  if (dialog) return dialog;
  dialog = document.createElement("dialog");
  dialog.id = "rebuy-dialog";
  dialog.className = "rebuy-dialog";
  const form = document.createElement("form");
  form.method = "dialog";
  const title = el("h2", "", "");
  const note = el("p", "muted rebuy-note", "");
  const label = el("label", "", "");
  label.htmlFor = "rebuy-amount";
  const input = document.createElement("input");
  input.type = "number";
  input.id = "rebuy-amount";
  input.name = "amount";
  input.required = true;
  const actions = el("div", "actions");
  const ok = el("button", "button", gettext("Add chips"));
  ok.value = "rebuy";
  const cancel = el("button", "button button-ghost", gettext("Not now"));
  cancel.value = "cancel";
  cancel.formNoValidate = true;
  actions.append(ok, cancel);
  form.append(title, note, label, input, actions);
  dialog.append(form);
  document.body.append(dialog);
  dialog.addEventListener("close", () => {
    if (dialog.returnValue !== "rebuy" || !ctx) return;
    const amount = parseInt(input.value, 10);
    if (!Number.isFinite(amount)) return;
    // next_hand: chips for a hand in play are added when it ends (the server decides).
    ctx.send({ type: "rebuy", amount, next_hand: true });
  });
  return dialog;
}

function openRebuy(busted) {
  const seat = mySeat(ctx.snap);
  if (!seat) return;
  const range = rebuyRange(ctx.snap, seat);
  if (!range) return;
  const dialog = rebuyDialog();
  dialog.querySelector("h2").textContent = busted ? gettext("You are out of chips") : gettext("Add chips");
  const running = ctx.snap.hand && !ctx.snap.hand.complete;
  dialog.querySelector(".rebuy-note").textContent = busted
    ? gettext("Rebuy to keep your seat and play the next hand.")
    : running
      ? gettext("Chips bought during a hand you are in are added when it ends.")
      : gettext("The chips go on your stack at once.");
  dialog.querySelector("label").textContent = interpolate(gettext("Chips (%s to %s)"), [...range]);
  const input = dialog.querySelector("input");
  input.min = range[0];
  input.max = range[1];
  input.value = busted ? Math.min(range[1], Math.max(range[0], ctx.snap.table.max_buy_in)) : range[1];
  dialog.returnValue = "";
  if (!dialog.open) dialog.showModal();
  input.focus();
}

function drawBanner(box, snap) {
  const t = snap.table;
  let text = null;
  let kind = "paused";
  if (t.closed) { text = gettext("This table is closed."); kind = "closed"; }
  else if (t.closing) text = gettext("The host is closing the table after this hand.");
  else if (t.paused) text = gettext("Paused by the host");
  if (text) {
    const banner = el("p", "host-banner", text);
    banner.dataset.kind = kind;
    box.append(banner);
  }
}

function drawHost(box, snap) {
  const t = snap.table;
  if (t.closed) return;
  if (t.paused) box.append(button(gettext("Resume"), "", () => ctx.send({ type: "resume" })));
  else box.append(button(gettext("Pause after this hand"), "button-ghost", () => ctx.send({ type: "pause" })));
  if (!t.closing) {
    box.append(button(gettext("Close the table"), "button-ghost", () => {
      if (window.confirm(gettext("Close the table? Everyone is cashed out after the hand in play."))) {
        ctx.send({ type: "close" });
      }
    }));
  }
  const forced = t.forced_bets;
  if (forced && forced.bomb_pot_ante) {
    // The host's call of a bomb pot for the next hand (docs/rules.md, Home-game options).
    if (forced.bomb_pot_called) {
      box.append(button(gettext("Call off the bomb pot"), "button-ghost",
        () => ctx.send({ type: "bomb_pot_call", on: false })));
    } else if (!forced.bomb_pot_next) {
      box.append(button(gettext("Bomb pot next hand"), "button-ghost",
        () => ctx.send({ type: "bomb_pot_call", on: true })));
    }
  }
  const link = el("a", "button button-small button-ghost host-link", gettext("Host"));
  link.href = info.host_url;
  if (info.requests) {
    const count = el("span", "host-count", String(info.requests));
    count.title = gettext("Seat requests waiting");
    link.append(count);
  }
  box.append(link);
}

function drawRequest(box, snap) {
  const free = snap.seats.filter((s) => !s.player);
  const mine = info.my_request;
  if (mine && mine.status === "pending") {
    box.append(el("span", "muted host-request-status",
      interpolate(gettext("You asked for seat %s: waiting for the host."), [mine.seat])));
    return;
  }
  if (mine && mine.status === "refused") {
    box.append(el("span", "muted host-request-status", gettext("The host refused your last request.")));
  }
  if (!free.length) return;
  const form = el("form", "host-request");
  form.append(el("span", "muted", gettext("A private table:")));
  const seatLabel = el("label", "", gettext("Seat"));
  const select = document.createElement("select");
  select.id = "request-seat";
  seatLabel.htmlFor = select.id;
  free.forEach((s) => { const o = el("option", "", String(s.seat)); o.value = s.seat; select.append(o); });
  const buyLabel = el("label", "", interpolate(gettext("Buy-in (%s to %s)"), [snap.table.min_buy_in, snap.table.max_buy_in]));
  const buyIn = document.createElement("input");
  buyIn.type = "number";
  buyIn.id = "request-buy-in";
  buyLabel.htmlFor = buyIn.id;
  buyIn.min = snap.table.min_buy_in;
  buyIn.max = snap.table.max_buy_in;
  buyIn.value = snap.table.max_buy_in;
  buyIn.required = true;
  const submit = el("button", "button button-small",
    info.invite_seats ? gettext("Take this seat") : gettext("Ask the host for a seat"));
  submit.type = "submit";
  form.append(seatLabel, select, buyLabel, buyIn, submit);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    ctx.send({
      type: "request_seat", seat: parseInt(select.value, 10), buy_in: parseInt(buyIn.value, 10),
      invite: info.invite, wait_for_big_blind: true,
    });
    // With the host's leave the link seats the player: the next snapshot shows the seat.
    if (!info.invite_seats) ctx.toast(gettext("Asked: the host will answer here."));
    setTimeout(() => load(ctx.root), 500);
  });
  box.append(form);
}

function drawRebuy(root, snap) {
  const row = rebuyRow(root);
  row.replaceChildren();
  const seat = mySeat(snap);
  if (!seat || snap.table.closed || snap.table.closing || seat.removing) return;
  if (seat.adding) {
    row.append(el("span", "muted", interpolate(gettext("+%s chips for the next hand"), [seat.adding])));
  }
  if (rebuyRange(snap, seat)) {
    row.append(button(gettext("Add chips"), "button-ghost rebuy-open", () => openRebuy(false)));
  }
  const busted = seat.stack === 0 && !seat.adding && seat.sat_out_reason === "no chips";
  // Offered once per bust (the hand that busted them), at once, instead of leaving.
  const key = busted ? String(snap.hand ? snap.hand.id : 0) : null;
  if (busted && key !== offeredFor) openRebuy(true);
  offeredFor = key;
}

function draw() {
  const { root, snap } = ctx;
  const box = panel(root);
  box.replaceChildren();
  drawBanner(box, snap);
  if (info) {
    if (info.host) drawHost(box, snap);
    if (info.ledger_url && !root.querySelector(".ledger-link")) {
      const link = el("a", "tool ledger-link", gettext("Ledger"));
      link.href = info.ledger_url;
      root.querySelector(".poker-tools").append(link);
    }
    const seated = snap.you && snap.you.seat;
    const asking = Boolean(info.private && info.invite && !info.host && !seated && info.authenticated
      && !snap.table.closed);
    root.classList.toggle("host-ask", asking);
    if (asking) drawRequest(box, snap);
    // Seated by the host's approval: the socket was opened by a spectator and counts as
    // this player's connection (the online dot, docs/protocol.md) only once it reconnects.
    if (seated && info.my_request && info.my_request.status === "pending" && !reloading) {
      reloading = true;
      window.location.reload();
      return;
    }
    // Seated since the page asked (an approved request, a sit): the ledger is theirs now.
    if (seated && !info.ledger_url && reloadedFor !== seated && loading === null) {
      reloadedFor = seated;
      load(root);
    }
  }
  drawRebuy(root, snap);
}

// The host answered this guest's request: ask again what they may do (the form comes back).
document.addEventListener("table-alert", (event) => {
  if (ctx && event.detail && event.detail.code === "request_refused") load(ctx.root);
});

export function renderHost(context) {
  ctx = context;
  ensureStyles();
  if (info === null && loading === null) load(context.root);
  if (info && info.host && !polling) {
    polling = true;
    setInterval(() => load(context.root), 10000);
  }
  draw();
}
