/* The side panels of the live table: the last hands (links to their replays), the chat,
 * and the deck commitment with its "verify" link once the hand is over. */

import { awardText, el } from "./felt.js";

const CHAT_KEPT = 50;

export function createSide({ root, send }) {
  const recentList = root.querySelector(".recent-list");
  const chatList = root.querySelector(".chat-list");
  const chatForm = root.querySelector(".chat-form");
  const fairness = root.querySelectorAll(".fairness");
  const panel = root.querySelector(".side");
  const toggle = root.querySelector("[data-toggle=side]");
  const unreadMark = toggle.querySelector(".unread");
  let unread = 0;

  /* The chat toggle's count of lines not seen: only where the panels fold away (a phone). */
  function showUnread() {
    unreadMark.hidden = unread === 0;
    unreadMark.textContent = String(unread);
    toggle.setAttribute("aria-label", unread
      ? interpolate(ngettext("Chat, %s unread message", "Chat, %s unread messages", unread), [unread])
      : gettext("Chat"));
  }

  /* A chat line just said at the table: unread if the panel is folded away and it is not ours. */
  function heard(message) {
    const folded = getComputedStyle(toggle).display !== "none" && !panel.classList.contains("open");
    if (!folded || message.name === root.dataset.username) return;
    unread += 1;
    showUnread();
  }

  toggle.addEventListener("click", () => {
    panel.classList.toggle("open");
    const open = panel.classList.contains("open");
    toggle.setAttribute("aria-expanded", String(open));
    if (open) {
      unread = 0;
      showUnread();
      // Opened from the toggle (a phone): the chat, the other panels folded to their titles,
      // so the felt above keeps as much height as it can.
      panel.querySelectorAll("details").forEach((details) => {
        details.open = Boolean(details.querySelector(".chat-list"));
      });
    }
  });

  function addChat(message) {
    const li = el("li");
    li.append(el("strong", "", interpolate(gettext("%s: "), [message.name])), document.createTextNode(message.text));
    chatList.append(li);
    while (chatList.childNodes.length > CHAT_KEPT) chatList.firstChild.remove();
    chatList.scrollTop = chatList.scrollHeight;
  }

  function renderRecent(snap) {
    recentList.replaceChildren();
    (snap.recent_hands || []).slice(0, 10).forEach((h) => {
      const li = el("li");
      const a = el("a", "", "#" + h.number);
      a.href = root.dataset.handUrl.replace("/0/", "/" + h.id + "/");
      // Who won what, as data (awards) worded here; an old hand has only its summary.
      const summary = h.awards && h.awards.length
        ? h.awards.map((award) => awardText(award, award.name
          || interpolate(gettext("seat %s"), [award.seat]))).join("; ")
        : h.summary || "";
      li.append(a, document.createTextNode(" " + summary));
      recentList.append(li);
    });
    if (!recentList.childNodes.length) recentList.append(el("li", "muted", gettext("No hands yet.")));
  }

  function renderFairness(snap) {
    const hand = snap.hand;
    fairness.forEach((line) => {
      line.replaceChildren();
      if (!hand || !hand.commitment) return;
      line.append(el("span", "", gettext("Deck commitment") + " "));
      const code = el("code", "commitment", hand.commitment.slice(0, 12) + "…");
      code.title = hand.commitment;
      line.append(code);
      if (hand.reveal) {
        const a = el("a", "verify-link", interpolate(gettext("Verify hand #%s"), [hand.number]));
        a.href = root.dataset.verifyUrl.replace("/0/", "/" + hand.id + "/");
        line.append(document.createTextNode(" · "), a);
      }
    });
  }

  chatForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const input = chatForm.elements.text;
    const text = input.value.trim();
    if (!text) return;
    if (send({ type: "chat", text: text })) input.value = "";
  });

  return {
    render(snap) {
      renderRecent(snap);
      chatList.replaceChildren();
      (snap.chat || []).forEach(addChat);
      renderFairness(snap);
    },
    addChat,
    heard,
  };
}
