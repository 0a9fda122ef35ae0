/* A player's night page (templates/tournaments/night.html): their seat, state and asks, kept
 * live over the night socket (tournaments.consumers.NightConsumer), and the notices of what
 * happened to them ("Table 2 seat 5 → table 1 seat 3", "You finished 7th.") kept on the page
 * until dismissed, across reloads (localStorage). The clock and the payouts are clock.js's,
 * over the clock's socket: it counts on from the stored end time when the link drops.
 *
 * The server renders every text in the page's language; a frame carries the night's live
 * part as HTML. A move or an elimination that happened while the phone slept (the socket
 * closed, its notice sent to nobody) is seen on reconnecting: the seat or state differs from
 * the one this page last showed, and the page words the notice from the frame's format.
 * The link pings when quiet and is given up when a ping goes unanswered, then reconnects with
 * a growing, jittered delay; the server sends the whole night on every connect (resync).
 */
(function () {
  "use strict";

  const root = document.querySelector("[data-night]");
  if (!root) return;
  const _ = (text) => (typeof window.gettext === "function" ? window.gettext(text) : text);
  const fill = (format, values) => format.replace(/%\((\w+)\)s/g, (m, key) => String(values[key]));

  const key = root.dataset.nightKey;
  const state = root.querySelector("[data-night-state]");
  const noticesBox = root.querySelector("[data-night-notices]");
  const link = root.querySelector("[data-night-link]");
  const PING_MS = 5000;
  const ANSWER_MS = 8000;
  const CLOSE_NOBODY = 4003;
  const CLOSE_GONE = 4004;

  // ------------------------------------------------------------------ stored between visits

  function load(name, fallback) {
    try {
      const text = window.localStorage.getItem(`${key}:${name}`);
      return text === null ? fallback : JSON.parse(text);
    } catch (error) {
      return fallback;
    }
  }

  function save(name, value) {
    try {
      window.localStorage.setItem(`${key}:${name}`, JSON.stringify(value));
    } catch (error) {
      /* private mode: the notices last as long as the page */
    }
  }

  // ------------------------------------------------------------------ notices

  let notices = load("notices", []);

  function renderNotices() {
    noticesBox.replaceChildren(
      ...notices.map((notice) => {
        const item = document.createElement("div");
        item.className = `night-notice night-notice-${notice.kind}`;
        item.setAttribute("role", "alert");
        item.dataset.nightNotice = notice.kind;
        const text = document.createElement("p");
        text.textContent = notice.text;
        const close = document.createElement("button");
        close.type = "button";
        close.className = "night-notice-close";
        close.textContent = _("Dismiss");
        close.addEventListener("click", () => {
          notices = notices.filter((other) => other.id !== notice.id);
          save("notices", notices);
          renderNotices();
        });
        item.append(text, close);
        return item;
      }),
    );
  }

  function addNotice(kind, text) {
    if (!text) return;
    notices = [{ id: `${Date.now()}-${Math.random()}`, kind, text }, ...notices].slice(0, 5);
    save("notices", notices);
    renderNotices();
    if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
  }

  /* What changed since this page last showed the night, when no notice said it. */
  function missed(frame) {
    const last = load("last", null);
    save("last", { seat: frame.seat, status: frame.status, place: frame.place });
    if (!last || frame.notice) return;
    const seat = frame.seat;
    if (last.seat && seat && (last.seat[0] !== seat[0] || last.seat[1] !== seat[1])) {
      addNotice(
        "moved",
        fill(root.dataset.movedFormat, {
          from_table: last.seat[0],
          from_seat: last.seat[1],
          to_table: seat[0],
          to_seat: seat[1],
        }),
      );
    } else if (last.status === "playing" && frame.status === "out" && frame.out_text) {
      addNotice("out", frame.out_text);
    }
  }

  // ------------------------------------------------------------------ the live part

  let pending = null; // a frame held while the player types in one of its forms

  function typing() {
    const active = document.activeElement;
    return Boolean(active && state.contains(active) && active.matches("input, select, textarea"));
  }

  function paint(frame) {
    if (typing()) {
      pending = frame;
      return;
    }
    pending = null;
    state.innerHTML = frame.html;
    if (window.htmx) window.htmx.process(state);
  }

  state.addEventListener("focusout", () => {
    window.setTimeout(() => {
      if (pending && !typing()) paint(pending);
    });
  });

  function accept(frame) {
    if (!frame || frame.type !== "night") return;
    if (frame.notice) addNotice(frame.notice.kind, frame.notice.text);
    missed(frame);
    paint(frame);
  }

  // ------------------------------------------------------------------ the socket

  let socket = null;
  let delay = 1000;
  let heardAt = 0;
  let openedAt = 0;
  let pingSince = null;
  let stopped = false;

  function showLink(kind) {
    link.dataset.nightLink = kind;
    link.textContent = kind === "lost" ? _("Offline") : "";
    root.dataset.link = kind;
  }

  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    let current;
    try {
      current = new WebSocket(scheme + window.location.host + root.dataset.nightSocket);
    } catch (error) {
      retry();
      return;
    }
    socket = current;
    openedAt = Date.now();
    pingSince = null;
    const mine = () => socket === current;
    current.addEventListener("open", () => {
      if (!mine()) return;
      delay = 1000;
      heardAt = Date.now();
      showLink("live");
    });
    current.addEventListener("message", (event) => {
      if (!mine()) return;
      heardAt = Date.now();
      pingSince = null;
      showLink("live");
      try {
        accept(JSON.parse(event.data));
      } catch (error) {
        /* not a frame of ours: the next one replaces everything */
      }
    });
    current.addEventListener("close", (event) => {
      if (!mine()) return;
      socket = null;
      if (event.code === CLOSE_NOBODY) {
        // Logged out, or the guest's PIN expired: the page asks who you are again.
        stopped = true;
        window.location.reload();
        return;
      }
      if (event.code === CLOSE_GONE) {
        stopped = true;
        showLink("lost");
        return;
      }
      showLink("lost");
      retry();
    });
  }

  function abandon() {
    const old = socket;
    socket = null;
    pingSince = null;
    showLink("lost");
    if (old) {
      try {
        old.close();
      } catch (error) {
        /* already closing */
      }
    }
    retry();
  }

  function retry() {
    const wait = delay * (0.8 + Math.random() * 0.4);
    // At most ten seconds apart, as the clock's screens: back soon after the server is.
    delay = Math.min(delay * 2, 10000);
    window.setTimeout(() => {
      if (!socket && !stopped) connect();
    }, wait);
  }

  function soon() {
    if (!socket && !stopped && document.visibilityState === "visible") {
      delay = 1000;
      connect();
    }
  }

  window.setInterval(() => {
    const now = Date.now();
    if (!socket) return;
    if (socket.readyState === WebSocket.CONNECTING) {
      if (now - openedAt > ANSWER_MS + PING_MS) abandon();
      return;
    }
    if (socket.readyState !== WebSocket.OPEN) return;
    if (pingSince !== null) {
      if (now - pingSince > ANSWER_MS) abandon();
      return;
    }
    if (now - heardAt >= PING_MS) {
      pingSince = now;
      try {
        socket.send("ping");
      } catch (error) {
        abandon();
      }
    }
  }, 1000);

  window.addEventListener("offline", () => {
    if (socket) abandon();
  });
  window.addEventListener("online", soon);
  document.addEventListener("visibilitychange", soon);

  renderNotices();
  showLink("wait");
  connect();
})();
