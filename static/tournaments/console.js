/* The director's console: the bar's menu of sections closes once a section is chosen, on a
 * tap elsewhere and on Escape (a <details>: without this script it works, and stays open). */
(function () {
  "use strict";

  function menus() {
    return document.querySelectorAll("#console-bar details.bar-menu[open]");
  }

  document.addEventListener("click", (event) => {
    for (const menu of menus()) {
      const link = event.target.closest("a");
      if (!menu.contains(event.target) || (link && menu.contains(link))) menu.open = false;
    }
  });

  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    for (const menu of menus()) {
      menu.open = false;
      menu.querySelector("summary").focus();
    }
  });
})();

/* A section fetches itself again on the events a console action answers with (its
 * hx-trigger "… from:body"). Two things would leave it wrong, so its fetch waits:
 * - while its previous fetch is on its way: htmx would queue the new one on the section,
 *   then drop it once the first answer replaced the section, leaving the first answer's
 *   (older) state on screen;
 * - while the director is filling in one of its forms (a field changed since the section
 *   came), or has a player's sheet open (a popover: the swap would close it under the
 *   thumb): the swap would wipe the ticks and typing; an answer to a fetch sent before
 *   the director began is not swapped in either;
 * - while one of its forms is sent and its answer not back: the answer's event
 *   ("tournament-changed", on which the sections fetch themselves again) is fired on the
 *   form, and from a form swapped away meanwhile it never reached the page: the action was
 *   done, and the console went on showing it undone.
 * And a section just drawn hears nothing until htmx has settled it, a few milliseconds
 * later (longer on a busy phone): news in between (a second tap's answer) would be lost,
 * and the section would stay one change behind. So every piece of news makes every section
 * that listens for it owed first; the sections that hear it take their fetch (or keep it
 * owed, as above), and the others make it once settled.
 * The fetch owed is made once the first one is back, the form is sent, the sheet closes,
 * or the director goes on to something outside the form. (No hx-sync on the sections: htmx gives it to
 * every form inside, which would queue a tap behind the section's fetch and lose it.) */
(function () {
  "use strict";

  const loading = new WeakSet(); // sections whose own fetch is on its way
  const edited = new Set(); // forms changed since their section was rendered
  const owed = new Set(); // ids of the sections with a fetch owed
  const sent = new WeakSet(); // open sheets whose form was sent: their answer may replace them
  const answering = new Set(); // forms sent whose answer is on its way
  const sentFrom = new WeakMap(); // request -> the section or form it was sent from
  const SECTION = "[hx-get][hx-trigger*='from:body']"; // a section that fetches itself on news

  function isRefresh(elt, verb) {
    return (
      String(verb).toLowerCase() === "get" &&
      elt instanceof Element &&
      elt.id !== "" &&
      elt.matches(SECTION)
    );
  }

  function isOpen(sheet) {
    try {
      return sheet.matches(":popover-open");
    } catch (error) {
      return false; /* a browser without popovers shows the sheets in the page */
    }
  }

  function editing(section) {
    for (const sheet of section.querySelectorAll("[popover]")) {
      if (isOpen(sheet) && !sent.has(sheet)) return true;
    }
    for (const form of edited) {
      if (section.contains(form)) return true;
    }
    for (const form of answering) {
      if (section.contains(form)) return true;
    }
    return false;
  }

  /* The console form a request is sent from, if it is one inside a section. */
  function sectionForm(elt) {
    const form = elt instanceof Element ? elt.closest("form") : null;
    return form && form.closest(SECTION) ? form : null;
  }

  function fetchOwed() {
    for (const id of owed) {
      const section = document.getElementById(id);
      if (!section) {
        owed.delete(id);
      } else if (!loading.has(section) && !editing(section)) {
        owed.delete(id);
        htmx
          .ajax("get", section.getAttribute("hx-get"), { source: section, target: section })
          .catch(() => {});
      }
    }
  }

  /* The names of the events the sections fetch themselves on ("… from:body"). */
  function newsOf(section) {
    return (section.getAttribute("hx-trigger") || "")
      .split(",")
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words.includes("from:body"))
      .map((words) => words[0]);
  }

  const heard = new Set(); // the news listened for, on the way down to the sections
  function listenForNews(root) {
    const sections = [...root.querySelectorAll(SECTION)];
    if (root.matches(SECTION)) sections.push(root);
    for (const section of sections) {
      for (const name of newsOf(section)) {
        if (heard.has(name)) continue;
        heard.add(name);
        document.addEventListener(name, () => owe(name), true);
      }
    }
  }

  /* Before htmx hears the news: every section listening for it is owed a fetch; each one
   * htmx asks to fetch is then settled by htmx:confirm below. */
  function owe(name) {
    for (const section of document.querySelectorAll(SECTION)) {
      if (section.id && newsOf(section).includes(name)) owed.add(section.id);
    }
  }

  // A section drawn (the page, or an answer's) is listening now: fetch what it missed.
  document.addEventListener("htmx:load", (event) => {
    if (event.target instanceof Element) listenForNews(event.target);
    window.setTimeout(fetchOwed);
  });
  listenForNews(document.documentElement);

  document.addEventListener("htmx:confirm", (event) => {
    const section = event.detail.elt;
    if (!isRefresh(section, event.detail.verb)) return;
    if (loading.has(section) || editing(section)) {
      event.preventDefault();
      owed.add(section.id);
    } else {
      owed.delete(section.id);
    }
  });

  document.addEventListener("htmx:beforeRequest", (event) => {
    const { elt, requestConfig, xhr } = event.detail;
    if (xhr) sentFrom.set(xhr, elt);
    if (isRefresh(elt, requestConfig.verb)) {
      loading.add(elt);
      return;
    }
    const form = sectionForm(elt);
    if (form) answering.add(form);
  });

  // A fetch sent before the director began filling in a form comes back: kept for later.
  document.addEventListener("htmx:beforeSwap", (event) => {
    const { elt, requestConfig } = event.detail;
    if (isRefresh(elt, requestConfig.verb) && editing(elt)) {
      event.detail.shouldSwap = false;
      owed.add(elt.id);
    }
  });

  document.addEventListener("htmx:afterRequest", (event) => {
    const { target, successful, xhr } = event.detail;
    // Swapped away by its own answer, the element a request was sent from is out of the page:
    // htmx tells the page on an ancestor still in it, which it names as the event's elt.
    const elt = (xhr && sentFrom.get(xhr)) || event.detail.elt;
    loading.delete(elt);
    const form = sectionForm(elt);
    answering.delete(form);
    // A form answered with its own section, drawn after the change: nothing is owed to it.
    if (form && successful && xhr && xhr.status === 200 && target instanceof Element && target.id) {
      owed.delete(target.id);
    }
    // After htmx has done with this answer (a form's answer may be the section itself).
    window.setTimeout(fetchOwed);
  });

  function noteEdit(event) {
    const form = event.target.form || event.target.closest?.("form");
    if (form && form.closest(SECTION)) edited.add(form);
  }
  document.addEventListener("input", noteEdit);
  document.addEventListener("change", noteEdit);

  // Sent: its answer (the section, or a refusal in it) comes back, then the fetch owed.
  document.addEventListener("submit", (event) => {
    edited.delete(event.target);
    const sheet = event.target.closest("[popover]");
    if (sheet) sent.add(sheet);
  });

  // A sheet opened or closed (popovers' toggle does not bubble: caught on the way down).
  document.addEventListener(
    "toggle",
    (event) => {
      if (!(event.target instanceof Element) || !event.target.matches("[popover]")) return;
      sent.delete(event.target);
      if (event.newState === "closed") fetchOwed();
    },
    true,
  );

  // Left: a tap or the focus elsewhere (Safari focuses no tapped checkbox, hence taps).
  function leave(event) {
    let left = false;
    for (const form of edited) {
      if (!form.isConnected || !form.contains(event.target)) {
        edited.delete(form);
        left = true;
      }
    }
    if (left) fetchOwed();
  }
  document.addEventListener("focusin", leave);
  document.addEventListener("click", leave);
})();

/* A large field: the players' search keeps the rows whose name holds the letters typed
 * (accents and case aside), and "By table" lists the players in play table by table, by
 * seat, under a heading per table (kept on this phone). Both are applied again after each
 * refresh of the players: the letters typed stay. */
(function () {
  "use strict";

  const KEY = "console-players-by-table";
  let typed = "";

  function fold(text) {
    return String(text || "")
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase();
  }

  function byTable() {
    try {
      return window.localStorage.getItem(KEY) === "1";
    } catch (error) {
      return false;
    }
  }

  function remember(on) {
    try {
      window.localStorage.setItem(KEY, on ? "1" : "0");
    } catch (error) {
      /* private browsing: for this page only */
    }
  }

  let grouped = byTable();

  function group(form, list) {
    for (const heading of list.querySelectorAll(":scope > li.entry-group")) heading.remove();
    const rows = Array.from(list.querySelectorAll(":scope > li.entry"));
    const number = (row, name) => Number(row.dataset[name] || 0) || Infinity;
    rows.sort((a, b) =>
      grouped
        ? number(a, "table") - number(b, "table") || number(a, "seat") - number(b, "seat") ||
          Number(a.dataset.order) - Number(b.dataset.order)
        : Number(a.dataset.order) - Number(b.dataset.order),
    );
    let table = null;
    for (const row of rows) {
      if (grouped && row.dataset.table !== table) {
        table = row.dataset.table;
        const heading = document.createElement("li");
        heading.className = "entry-group";
        heading.dataset.table = table || "";
        heading.textContent = table
          ? `${form.dataset.labelTable} ${table}`
          : form.dataset.labelUnseated;
        list.append(heading);
      }
      list.append(row);
    }
  }

  function apply() {
    const section = document.getElementById("console-players");
    const form = section && section.querySelector("form.players-find");
    if (!form) return;
    form.hidden = false;
    const find = form.querySelector("#players-find");
    if (find.value !== typed && document.activeElement !== find) find.value = typed;
    const toggle = form.querySelector("[data-players-group]");
    if (toggle) toggle.setAttribute("aria-pressed", grouped ? "true" : "false");
    const lists = section.querySelectorAll(".entry-list");
    if (lists.length) group(form, lists[0]);
    const wanted = fold(find.value.trim());
    let shown = 0;
    for (const row of section.querySelectorAll(".entry-list > li.entry")) {
      const match = !wanted || fold(row.dataset.name).includes(wanted);
      row.hidden = !match;
      if (match) shown += 1;
    }
    for (const heading of section.querySelectorAll(".entry-list > li.entry-group")) {
      let next = heading.nextElementSibling;
      let any = false;
      while (next && !next.classList.contains("entry-group")) {
        if (!next.hidden) any = true;
        next = next.nextElementSibling;
      }
      heading.hidden = !any;
    }
    // A player out who matches is shown: their list opens.
    const out = section.querySelector("details.entries-out");
    if (out && wanted && out.querySelector("li.entry:not([hidden])")) out.open = true;
    form.querySelector(".players-none").hidden = !wanted || shown > 0;
  }

  document.addEventListener("input", (event) => {
    if (event.target.id !== "players-find") return;
    typed = event.target.value;
    apply();
  });
  document.addEventListener("submit", (event) => {
    if (event.target.matches("form.players-find")) event.preventDefault();
  });
  document.addEventListener("click", (event) => {
    const toggle = event.target.closest("[data-players-group]");
    if (!toggle) return;
    grouped = !grouped;
    remember(grouped);
    apply();
  });
  document.addEventListener("htmx:afterSettle", apply);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", apply);
  else apply();
})();
