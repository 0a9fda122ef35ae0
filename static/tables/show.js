/* Showing your cards after the hand (docs/rules.md, Home-game options): once a hand is over,
 * until the next hand starts, a player dealt in may turn up any of their cards still face
 * down. The snapshot's `you.can_show` (`{"hand", "cards"}`) offers them; each is a button
 * to pick, then "Show" sends the picked ones and "Show all" every one left, as a
 * `show_cards` frame. The server decides what may be shown; this only asks.
 */

import { cardEl, el } from "./felt.js";

// The cards picked so far, kept while snapshots come (a chat line redraws the dock).
let picked = { hand: null, cards: [] };

/* The panel for `snap.you.can_show`; `send(frame)` is the socket's (null when not sent). */
export function showPanel(snap, send) {
  const offer = snap.you.can_show;
  if (picked.hand !== offer.hand) picked = { hand: offer.hand, cards: [] };
  picked.cards = picked.cards.filter((code) => offer.cards.includes(code));

  const panel = el("div", "show-panel");
  panel.setAttribute("role", "group");
  panel.setAttribute("aria-label", gettext("Show your cards"));
  panel.append(el("p", "show-note",
    gettext("You may show your cards until the next hand starts: tap the ones to show.")));
  const row = el("div", "show-row");
  const cards = el("div", "show-cards");
  const showPicked = el("button", "act act-check show-picked");
  showPicked.type = "button";
  const showAll = el("button", "act show-all", gettext("Show all"));
  showAll.type = "button";

  function label() {
    const count = picked.cards.length;
    showPicked.textContent = count
      ? interpolate(ngettext("Show %s card", "Show %s cards", count), [count])
      : gettext("Show");
    showPicked.disabled = !count;
  }

  offer.cards.forEach((code) => {
    const face = cardEl(code);
    const button = el("button", "show-card");
    button.type = "button";
    button.setAttribute("aria-label", face.getAttribute("aria-label"));
    button.setAttribute("aria-pressed", String(picked.cards.includes(code)));
    button.append(face);
    button.addEventListener("click", () => {
      const on = !picked.cards.includes(code);
      picked.cards = on ? [...picked.cards, code] : picked.cards.filter((c) => c !== code);
      button.setAttribute("aria-pressed", String(on));
      label();
    });
    cards.append(button);
  });

  function sendCards(list) {
    if (!list.length) return;
    if (send({ type: "show_cards", hand: offer.hand, cards: list })) {
      // The next snapshot draws them face up on the seat (or an error brings these back).
      panel.querySelectorAll("button").forEach((b) => { b.disabled = true; });
      picked.cards = [];
    }
  }
  // In the order dealt, whatever the order they were picked in.
  showPicked.addEventListener("click", () => sendCards(offer.cards.filter((c) => picked.cards.includes(c))));
  showAll.addEventListener("click", () => sendCards(offer.cards.slice()));
  label();
  row.append(cards, showPicked, showAll);
  panel.append(row);
  return panel;
}
