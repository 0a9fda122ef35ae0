/* The blind clock on a screen: the TV page and the director console's clock panel.
 *
 * The server sends the clock as data (services.clock.clock_payload): the row in play, when
 * it ends (epoch ms), the server's now, and every row of the structure. This script counts
 * down locally against the server's clock and plays the following rows itself when a level
 * ends, exactly as tournaments/clock.py projects them, so the screen keeps going if its
 * socket drops; when the socket returns (reconnect with backoff) the state it sends replaces
 * the local one. Texts go through Django's JavaScript catalog (gettext, interpolate).
 */
(function () {
  "use strict";
  // htmx runs the scripts of a swapped-in panel again: one copy of the clock per page.
  if (window.tournamentClockLoaded) return;
  window.tournamentClockLoaded = true;

  const _ = (text) => (typeof window.gettext === "function" ? window.gettext(text) : text);
  const fill = (format, values) =>
    typeof window.interpolate === "function"
      ? window.interpolate(format, values, true)
      : format.replace(/%\((\w+)\)s/g, (m, key) => String(values[key]));
  const MINUTE = 60000;
  const numbers = new Intl.NumberFormat(document.documentElement.lang || undefined);
  const chips = (value) => (value === null || value === undefined ? "–" : numbers.format(value));

  function clockTime(ms) {
    if (ms === null || ms === undefined) return "–";
    const total = Math.max(0, Math.ceil(ms / 1000));
    const hours = Math.floor(total / 3600);
    const minutes = Math.floor((total % 3600) / 60);
    const seconds = String(total % 60).padStart(2, "0");
    return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
  }

  // ------------------------------------------------------------------ the clock's arithmetic

  // The extra levels stop doubling before an amount passes this (tournaments.clock.MOST_CHIPS).
  const MOST_CHIPS = 1000000000;

  /* The row at `index`: the structure's own, or past its end an extra level that doubles
   * the last level once per level (tournaments.clock.row_at, in JavaScript). */
  function rowAt(rows, index) {
    if (index >= 0 && index < rows.length) return rows[index];
    let base = null;
    for (let k = rows.length - 1; k >= 0 && base === null; k -= 1) if (!rows[k].is_break) base = rows[k];
    if (index < 0 || base === null) return null;
    const number = base.number + index - (rows.length - 1);
    const biggest = Math.max(base.small_blind, base.big_blind, base.ante, base.small_bet || 0, base.big_bet || 0);
    let doublings = number - base.number;
    while (doublings && biggest * 2 ** doublings > MOST_CHIPS) doublings -= 1;
    const times = 2 ** doublings;
    const doubled = (amount) => (amount === null || amount === undefined ? null : amount * times);
    return Object.assign({}, base, {
      index,
      number,
      levels_before: number - 1,
      small_blind: base.small_blind * times,
      big_blind: base.big_blind * times,
      ante: base.ante * times,
      small_bet: doubled(base.small_bet),
      big_bet: doubled(base.big_bet),
      colour_up: [],
    });
  }

  /* Where the clock is at `now` (server time): tournaments.clock.position, in JavaScript. */
  function position(clock, now) {
    const rows = clock.rows;
    let index = clock.index;
    if (!clock.started || clock.paused || clock.ends_at_ms === null) {
      return { index, endsAt: null, remaining: clock.remaining_ms, overtime: false };
    }
    let endsAt = clock.ends_at_ms;
    while (now >= endsAt) {
      const following = rowAt(rows, index + 1);
      if (following === null) break;
      index += 1;
      endsAt += following.minutes * MINUTE;
    }
    return { index, endsAt, remaining: Math.max(0, endsAt - now), overtime: now >= endsAt };
  }

  function bets(row) {
    if (row.small_bet !== null && row.big_bet !== null) {
      return `${chips(row.small_bet)} / ${chips(row.big_bet)}`;
    }
    return `${chips(row.small_blind)} / ${chips(row.big_blind)}`;
  }

  function ante(row) {
    if (!row.ante || row.ante_kind === "none") return "";
    if (row.ante_kind === "big-blind") return fill(_("Big-blind ante %(ante)s"), { ante: chips(row.ante) });
    return fill(_("Ante %(ante)s"), { ante: chips(row.ante) });
  }

  function describe(row) {
    if (!row) return _("None: this is the last level");
    if (row.is_break) return fill(_("Break, %(minutes)s min"), { minutes: row.minutes });
    const text = fill(_("Level %(number)s: %(bets)s"), { number: row.number, bets: bets(row) });
    const extra = ante(row);
    return extra ? `${text} · ${extra}` : text;
  }

  /* Every text of the screen at `now`: templatetags/tournament_clock.clock_texts, here. */
  function texts(payload, now) {
    const clock = payload.clock;
    const field = payload.field;
    const rows = clock.rows;
    const at = position(clock, now);
    const current = rowAt(rows, at.index);
    // The structure's rows still to come (the extra levels past its end have no break).
    const following = rows.slice(at.index + 1);
    const next = rowAt(rows, at.index + 1);
    let untilBreak = at.remaining;
    let nextBreak = null;
    for (const row of following) {
      if (row.is_break) {
        nextBreak = row;
        break;
      }
      untilBreak += row.minutes * MINUTE;
    }
    const state = payload.tournament.state;
    let status = "";
    // The state's own words here, not the payload's label: one payload goes to every screen,
    // written in the language of whoever changed the clock.
    if (state === "finished") status = _("Finished");
    else if (state === "cancelled") status = _("Cancelled");
    else if (!clock.started) status = _("Not started");
    else if (clock.paused) status = _("Paused");
    else if (at.overtime) status = _("Last level: the blinds stay");
    const onBreak = Boolean(current && current.is_break);
    let race = [];
    if (onBreak && current.colour_up.length) race = current.colour_up;
    else if (next && next.is_break) race = next.colour_up;
    const limit = Boolean(current && current.small_bet !== null && current.big_bet !== null);
    return {
      index: at.index,
      remaining: at.remaining,
      running: clock.started && !clock.paused && state !== "finished" && state !== "cancelled",
      onBreak,
      status,
      level: onBreak ? _("Break") : current ? fill(_("Level %(number)s"), { number: current.number }) : "",
      time: clockTime(at.remaining),
      betsLabel: limit ? _("Limits") : _("Blinds"),
      bets: onBreak || !current ? "" : bets(current),
      ante: onBreak || !current ? "" : ante(current),
      next: describe(next),
      nextBreak: nextBreak ? clockTime(untilBreak) : "–",
      players: fill(_("%(left)s of %(entries)s"), { left: field.players_left, entries: field.entries }),
      average: chips(field.average_stack),
      pool: chips(field.prize_pool),
      chipRace: race.length
        ? fill(_("Chip race at the break: the %(chips)s chips come off"), { chips: race.map(chips).join(", ") })
        : "",
      payouts: field.payouts,
    };
  }

  // ------------------------------------------------------------------ sound (Web Audio)

  const sound = {
    context: null,
    on: window.localStorage && localStorage.getItem("clock-sound") === "1",

    /* Browsers start audio only from a click: the sound button creates the context. */
    enable() {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return;
      if (!this.context) this.context = new Context();
      if (this.context.state === "suspended") this.context.resume();
    },

    beep(frequency, start, length) {
      const ctx = this.context;
      const oscillator = ctx.createOscillator();
      const gain = ctx.createGain();
      oscillator.type = "sine";
      oscillator.frequency.value = frequency;
      const t0 = ctx.currentTime + start;
      gain.gain.setValueAtTime(0.0001, t0);
      gain.gain.exponentialRampToValueAtTime(0.5, t0 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
      oscillator.connect(gain).connect(ctx.destination);
      oscillator.start(t0);
      oscillator.stop(t0 + length + 0.05);
    },

    play(kind) {
      if (!this.on || !this.context || this.context.state !== "running") return;
      if (kind === "level") {
        // Three rising tones: a new level (or a break) has started.
        this.beep(660, 0, 0.35);
        this.beep(880, 0.4, 0.35);
        this.beep(1100, 0.8, 0.6);
      } else {
        // Two short tones: one minute left.
        this.beep(880, 0, 0.2);
        this.beep(880, 0.3, 0.2);
      }
    },
  };

  // ------------------------------------------------------------------ feeds (one per socket)

  const feeds = new Map();

  function newFeed(path) {
    const feed = {
      path,
      payload: null,
      offset: 0,
      roots: new Set(),
      socket: null,
      delay: 1000,
      gone: false,
      lastIndex: null,
      lastRemaining: null,
      link: "wait",
    };
    connect(feed);
    return feed;
  }

  function accept(feed, payload) {
    if (!payload || payload.type !== "clock") return;
    if (feed.payload && payload.version < feed.payload.version) return;
    feed.payload = payload;
    // The server's now against ours: counting down from its end time with this offset
    // keeps every screen on the server's second, whatever the device's clock says.
    feed.offset = payload.clock.now_ms - Date.now();
  }

  function connect(feed) {
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    let socket;
    try {
      socket = new WebSocket(scheme + window.location.host + feed.path);
    } catch (error) {
      retry(feed);
      return;
    }
    feed.socket = socket;
    socket.addEventListener("open", () => {
      feed.delay = 1000;
      feed.link = "live";
    });
    socket.addEventListener("message", (event) => {
      try {
        accept(feed, JSON.parse(event.data));
      } catch (error) {
        /* a frame that is not JSON: ignore it, the next state replaces everything */
      }
    });
    socket.addEventListener("close", (event) => {
      feed.socket = null;
      if (event.code === 4004) {
        feed.gone = true;
        feed.link = "gone";
        return;
      }
      feed.link = "lost";
      retry(feed);
    });
  }

  function retry(feed) {
    // Backoff with jitter, so a room of phones does not come back in one burst.
    const wait = feed.delay * (0.8 + Math.random() * 0.4);
    feed.delay = Math.min(feed.delay * 2, 30000);
    window.setTimeout(() => {
      if (!feed.socket && !feed.gone) connect(feed);
    }, wait);
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    for (const feed of feeds.values()) {
      if (!feed.socket && !feed.gone) {
        feed.delay = 1000;
        connect(feed);
      }
    }
  });

  // ------------------------------------------------------------------ rendering

  function setText(root, name, value) {
    for (const element of root.querySelectorAll(`[data-clock="${name}"]`)) {
      if (element.textContent !== value) element.textContent = value;
    }
  }

  function setShown(root, name, shown) {
    for (const element of root.querySelectorAll(`[data-clock="${name}"]`)) element.hidden = !shown;
  }

  const LINK_TEXTS = {
    wait: () => _("Connecting…"),
    live: () => _("Live"),
    lost: () => _("Reconnecting…"),
    gone: () => _("This clock link no longer works"),
  };

  function renderPayouts(root, payouts) {
    const list = root.querySelector('[data-clock="payouts"]');
    if (!list) return;
    const key = JSON.stringify(payouts);
    if (list.dataset.key === key) return;
    list.dataset.key = key;
    list.replaceChildren();
    if (!payouts.length) {
      const item = document.createElement("li");
      item.className = "tv-none";
      item.textContent = _("Announced when the field is known");
      list.append(item);
      return;
    }
    for (const payout of payouts) {
      const item = document.createElement("li");
      const place = document.createElement("span");
      const prize = document.createElement("span");
      place.textContent = String(payout.place);
      prize.textContent = chips(payout.prize);
      item.append(place, prize);
      list.append(item);
    }
  }

  function render(root, view, feed) {
    setText(root, "event", feed.payload.tournament.name);
    setText(root, "level", view.level);
    setText(root, "status", view.status);
    setShown(root, "status", Boolean(view.status));
    setText(root, "time", view.time);
    setText(root, "bets-label", view.betsLabel);
    setText(root, "bets", view.bets);
    setShown(root, "bets-line", Boolean(view.bets));
    setText(root, "ante", view.ante);
    setShown(root, "ante", Boolean(view.ante));
    setText(root, "next", view.next);
    setText(root, "next-break", view.nextBreak);
    setText(root, "players", view.players);
    setText(root, "average", view.average);
    setText(root, "pool", view.pool);
    setText(root, "chip-race", view.chipRace);
    setShown(root, "chip-race", Boolean(view.chipRace));
    setText(root, "link", LINK_TEXTS[feed.link]());
    for (const element of root.querySelectorAll('[data-clock="link"]')) element.dataset.state = feed.link;
    renderPayouts(root, view.payouts);
    root.dataset.paused = feed.payload.clock.paused ? "1" : "0";
    root.dataset.onBreak = view.onBreak ? "1" : "0";
    root.dataset.urgent = view.running && !view.onBreak && view.remaining <= MINUTE ? "1" : "0";
  }

  function tick() {
    for (const feed of feeds.values()) {
      for (const root of [...feed.roots]) if (!root.isConnected) feed.roots.delete(root);
      if (!feed.roots.size) {
        // Its panel was replaced (an htmx swap brings a new one for the same socket soon).
        continue;
      }
      if (!feed.payload) continue;
      const view = texts(feed.payload, Date.now() + feed.offset);
      if (view.running && feed.lastIndex !== null) {
        if (view.index !== feed.lastIndex) sound.play("level");
        else if (feed.lastRemaining > MINUTE && view.remaining <= MINUTE) sound.play("minute");
      }
      feed.lastIndex = view.index;
      feed.lastRemaining = view.remaining;
      for (const root of feed.roots) render(root, view, feed);
    }
  }

  // ------------------------------------------------------------------ controls on the page

  function soundButton(button) {
    const show = () => {
      button.setAttribute("aria-pressed", sound.on ? "true" : "false");
      button.textContent = sound.on ? _("Sound on") : _("Sound off");
    };
    show();
    button.addEventListener("click", () => {
      sound.on = !sound.on;
      if (window.localStorage) localStorage.setItem("clock-sound", sound.on ? "1" : "0");
      if (sound.on) {
        sound.enable();
        sound.play("minute");
      }
      show();
    });
    // A remembered "on" still needs one tap after a reload before a browser plays sound.
    if (sound.on) {
      document.addEventListener("pointerdown", () => sound.enable(), { once: true });
    }
  }

  let wakeLock = null;
  async function keepAwake() {
    // A TV laptop or a phone on the table must not fall asleep mid-level.
    if (!("wakeLock" in navigator) || document.visibilityState !== "visible") return;
    try {
      wakeLock = await navigator.wakeLock.request("screen");
    } catch (error) {
      wakeLock = null;
    }
  }

  function attach(root) {
    if (root.dataset.clockAttached) return;
    root.dataset.clockAttached = "1";
    const path = root.dataset.clockSocket;
    let feed = feeds.get(path);
    if (!feed) {
      feed = newFeed(path);
      feeds.set(path, feed);
    }
    const data = root.dataset.clockData && document.getElementById(root.dataset.clockData);
    if (data) accept(feed, JSON.parse(data.textContent));
    feed.roots.add(root);
    for (const button of root.querySelectorAll('[data-clock-toggle="sound"]')) soundButton(button);
    for (const button of root.querySelectorAll('[data-clock-toggle="fullscreen"]')) {
      if (!document.fullscreenEnabled) {
        button.hidden = true;
        continue;
      }
      button.addEventListener("click", () => {
        if (document.fullscreenElement) document.exitFullscreen();
        else document.documentElement.requestFullscreen();
      });
    }
    if (root.dataset.clockSound === "1") {
      keepAwake();
      document.addEventListener("visibilitychange", () => {
        if (wakeLock === null || wakeLock.released) keepAwake();
      });
    }
  }

  function scan() {
    for (const root of document.querySelectorAll("[data-clock-root]")) attach(root);
    tick();
  }

  document.addEventListener("DOMContentLoaded", scan);
  // The console's panel is re-rendered by htmx after each control: pick the new one up.
  document.addEventListener("htmx:afterSettle", scan);
  window.setInterval(tick, 100);
})();
