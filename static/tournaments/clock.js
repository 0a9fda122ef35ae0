/* The blind clock on a screen: the TV page, the director console's clock panel and bar, and
 * the lobby.
 *
 * The server sends the clock as data (services.clock.payload.clock_payload), projected by
 * tournaments/clock.py: the row in play and when it ends (epoch ms), the server's now, the
 * next row, the next break and the rows coming up, each with when it starts. This script
 * only counts down to those instants against the server's clock and shows the rows as sent.
 * The server stores each level change (the level-change task, or the sweep) and sends it over
 * the socket (reconnect with backoff; each state replaces the one before). Until it does, the
 * TV moves on by itself through the rows ahead its page was sent
 * (services.clock.payload.clock_ahead, the server's own projection written out): a TV whose
 * server is away, or the service worker's copy reloaded without a network, shows the level
 * the clock is at now. Past those rows, or when they no longer fit the clock, the countdown
 * stops at 0:00 and waits. Texts go through Django's JavaScript catalog (gettext,
 * interpolate).
 *
 * A screen with the buttons for them (the TV) also announces what happens while it is open:
 * a sound for each new level (a break's end too), each break and the last minute of a row,
 * each with a pattern of its own, and the browser's own speech ("Level 5: blinds 100 and
 * 200, ante 25") in the page's language. Both are off until switched on, remembered by the
 * browser (localStorage), and start only after a click: browsers refuse sound and speech
 * to a page nobody has touched.
 */
(function () {
  "use strict";
  // htmx runs the scripts of a swapped-in panel again: one copy of the clock per page.
  if (window.tournamentClockLoaded) return;
  window.tournamentClockLoaded = true;

  const _ = (text) => (typeof window.gettext === "function" ? window.gettext(text) : text);
  const pgettext = (context, text) =>
    typeof window.pgettext === "function" ? window.pgettext(context, text) : text;
  const ngettext = (singular, plural, count) =>
    typeof window.ngettext === "function" ? window.ngettext(singular, plural, count) : count === 1 ? singular : plural;
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

  // ------------------------------------------------------------------ the countdown

  /* Whether the clock counts down: the server sends an end time only while it runs. */
  function counting(clock) {
    return clock.started && !clock.paused && clock.ends_at_ms !== null;
  }

  /* The time left at `now` (server time) until an instant the server sent (`atMs`), never
   * below zero; `leftMs` as sent when the clock is not counting down. */
  function timeLeft(clock, atMs, leftMs, now) {
    if (!counting(clock) || atMs === null || atMs === undefined) return leftMs;
    return Math.max(0, atMs - now);
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

  /* A limit level's blinds, shown beside its limits ("" for other levels). */
  function blinds(row) {
    if (row.small_bet === null || row.big_bet === null) return "";
    return fill(_("Blinds %(blinds)s"), { blinds: `${chips(row.small_blind)} / ${chips(row.big_blind)}` });
  }

  function describe(row, addonBreak) {
    if (!row) return _("None: this is the last level");
    if (row.is_break && row.index === addonBreak) {
      return fill(_("Add-on break, %(minutes)s min"), { minutes: row.minutes });
    }
    if (row.is_break) return fill(_("Break, %(minutes)s min"), { minutes: row.minutes });
    const text = fill(_("Level %(number)s: %(bets)s"), { number: row.number, bets: bets(row) });
    const extra = ante(row);
    return extra ? `${text} · ${extra}` : text;
  }

  /* The hand-for-hand line under the clock: tournament_clock.hand_for_hand_text, here. */
  function handForHandText(handForHand) {
    if (!handForHand || !handForHand.on) return "";
    const parts = [
      handForHand.hand ? fill(_("Hand %(hand)s"), { hand: handForHand.hand }) : _("Finishing the hands in play"),
    ];
    if (handForHand.burst) parts.push(_("Bubble burst: finishing this hand at every table"));
    const playing = handForHand.playing || [];
    if (playing.length) {
      const format = ngettext("Still playing: table %(tables)s", "Still playing: tables %(tables)s", playing.length);
      parts.push(fill(format, { tables: playing.join(", ") }));
    }
    return parts.join(" · ");
  }

  /* A row coming up as the TV lists it: its name, and its bets or length below. */
  function rowParts(row, addonBreak) {
    if (row.is_break) {
      return {
        name: row.index === addonBreak ? _("Add-on break") : _("Break"),
        detail: fill(_("%(minutes)s min"), { minutes: row.minutes }),
      };
    }
    const extra = ante(row);
    return {
      name: fill(_("Level %(number)s"), { number: row.number }),
      detail: extra ? `${bets(row)} · ${extra}` : bets(row),
    };
  }

  /* Every text of the screen at `now`: templatetags/tournament_clock.clock_texts, here. */
  function texts(payload, now) {
    const clock = payload.clock;
    const field = payload.field;
    const current = clock.current;
    const next = clock.next;
    const remaining = timeLeft(clock, clock.ends_at_ms, clock.remaining_ms, now);
    const state = payload.tournament.state;
    const over = state === "finished" || state === "cancelled";
    const tv = payload.tv || {};
    const addonBreak = tv.addon_break === undefined ? null : tv.addon_break;
    // The last row of a structure with no level to double keeps its blinds when its time
    // runs out (no state follows then); any other row waits at 0:00 for the server's next.
    const overtime = clock.overtime || (counting(clock) && clock.is_last && remaining === 0);
    let status = "";
    // The state's own words here, not the payload's label: one payload goes to every screen,
    // written in the language of whoever changed the clock.
    if (state === "finished") status = _("Finished");
    else if (state === "cancelled") status = _("Cancelled");
    else if (!clock.started) status = _("Not started");
    else if (payload.hand_for_hand && payload.hand_for_hand.on) status = _("Hand-for-hand");
    else if (clock.paused && payload.deal_held) status = _("Held for a deal");
    else if (clock.paused) status = _("Paused");
    else if (overtime) status = _("Last level: the blinds stay");
    const onBreak = Boolean(current && current.is_break);
    const race = clock.chip_race || [];
    const limit = Boolean(current && current.small_bet !== null && current.big_bet !== null);
    const leaving = tv.colour_up || [];
    // The rows coming up, each with the time until it starts (the TV's list).
    const coming = over
      ? []
      : (clock.coming || []).map((row) =>
          Object.assign(rowParts(row, addonBreak), {
            startsIn: clockTime(timeLeft(clock, row.starts_at_ms, row.starts_in_ms, now)),
          }),
        );
    return {
      index: clock.index,
      remaining,
      running: counting(clock) && !over,
      onBreak,
      status,
      over,
      level: onBreak
        ? clock.index === addonBreak
          ? _("Add-on break")
          : _("Break")
        : current
          ? fill(_("Level %(number)s"), { number: current.number })
          : "",
      time: clockTime(remaining),
      betsLabel: limit ? _("Limits") : _("Blinds"),
      bets: onBreak || !current ? "" : bets(current),
      ante: onBreak || !current ? "" : ante(current),
      blinds: onBreak || !current ? "" : blinds(current),
      next: describe(next, addonBreak),
      nextBreak:
        clock.next_break && !over
          ? clockTime(timeLeft(clock, clock.next_break_at_ms, clock.next_break_in_ms, now))
          : "–",
      players: fill(_("%(left)s of %(entries)s"), { left: field.players_left, entries: field.entries }),
      average: chips(field.average_stack),
      pool: chips(field.prize_pool),
      // The chip leader from the director's newest counts (templates/tournaments/_tv_chips.html).
      chipLeader: field.chip_leader ? field.chip_leader.name : _("Not counted yet"),
      chipLeaderChips: field.chip_leader ? chips(field.chip_leader.chips) : "",
      chipsInPlay: chips(field.chips_in_play),
      chipRace: race.length
        ? fill(_("Chip race at the break: the %(chips)s chips come off"), { chips: race.map(chips).join(", ") })
        : "",
      colourUp:
        leaving.length && !onBreak
          ? fill(_("Colour-up: the %(chips)s chips are no longer used"), { chips: leaving.map(chips).join(", ") })
          : "",
      coming,
      payouts: field.payouts,
      handForHand: over ? "" : handForHandText(payload.hand_for_hand),
    };
  }

  // ------------------------------------------------------------------ the rows ahead

  const ROW_KEYS = ["index", "is_break", "number", "minutes", "length_ms", "small_blind", "big_blind", "ante", "ante_kind", "small_bet", "big_bet"];
  const sameRow = (one, other) => Boolean(one && other) && ROW_KEYS.every((key) => one[key] === other[key]);

  /* The feed's payload as it is at `now`: when the row in play has ended and no state from
   * the server has said what follows, the clock moved on through the rows ahead that the page
   * was sent (`feed.ahead`), as the server projects it. They are used while they fit the
   * clock in play (the next row and the ones coming are theirs), moved in time as the clock
   * was since they were made (a pause, a minute added); a row is entered only when its end
   * is known (the next row's start) or none follows it. Otherwise the payload as it is. */
  function projected(feed, now) {
    const payload = feed.payload;
    const clock = payload.clock;
    const ahead = feed.ahead;
    if (!ahead || !ahead.length || !counting(clock) || now < clock.ends_at_ms) return payload;
    const first = ahead.findIndex((row) => row.index === clock.index + 1);
    if (first < 0 || !sameRow(ahead[first], clock.next)) return payload;
    if (!(clock.coming || []).every((row, k) => !ahead[first + k] || sameRow(ahead[first + k], row))) return payload;
    const shift = clock.ends_at_ms - ahead[first].starts_at_ms;
    const rows = ahead.slice(first).map((row) => Object.assign({}, row, { starts_at_ms: row.starts_at_ms + shift }));
    let at = -1;
    for (let k = 0; k < rows.length && rows[k].starts_at_ms <= now; k++) {
      if (k + 1 < rows.length || rows[k].is_last) at = k;
    }
    if (at < 0) return payload;
    const row = rows[at];
    const later = rows.slice(at + 1);
    const endsAt = later.length ? later[0].starts_at_ms : row.starts_at_ms + (row.length_ms != null ? row.length_ms : row.minutes * MINUTE);
    const nextBreak = later.find((other) => other.is_break) || null;
    const moved = Object.assign({}, clock, {
      index: row.index,
      // A break in a level (a break now that kept the level's rest) counts as that level.
      level_number: row.number !== null ? row.number : (row.interrupts != null ? row.interrupts : row.levels_before),
      on_break: row.is_break,
      current: row,
      next: later[0] || null,
      ends_at_ms: endsAt,
      remaining_ms: Math.max(0, endsAt - now),
      is_last: row.is_last,
      overtime: row.is_last && now >= endsAt,
      next_break: nextBreak,
      next_break_at_ms: nextBreak ? nextBreak.starts_at_ms : null,
      next_break_in_ms: nextBreak ? nextBreak.starts_at_ms - now : null,
      coming: later.slice(0, 3).map((other) => Object.assign({}, other, { starts_in_ms: other.starts_at_ms - now })),
      chip_race: row.chip_race || [],
    });
    return Object.assign({}, payload, { clock: moved, tv: Object.assign({}, payload.tv, { colour_up: row.leaving || [] }) });
  }

  // ------------------------------------------------------------------ sound (Web Audio)

  /* A switch this browser remembers ("1" on, anything else off); storage may be refused. */
  function remembered(key) {
    try {
      return window.localStorage.getItem(key) === "1";
    } catch (error) {
      return false;
    }
  }

  function remember(key, on) {
    try {
      window.localStorage.setItem(key, on ? "1" : "0");
    } catch (error) {
      /* no storage: the switch lasts as long as the page */
    }
  }

  const sound = {
    context: null,
    on: remembered("clock-sound"),

    // Each moment has its own tune, told apart without looking by rhythm and pitch:
    // [frequency Hz, start s, length s] of each tone, and the wave.
    PATTERNS: {
      // A level starts (a break's end too): three quick rising tones.
      level: {
        wave: "sine",
        tones: [
          [660, 0, 0.35],
          [880, 0.4, 0.35],
          [1100, 0.8, 0.6],
        ],
      },
      // A break starts: two long, low, falling chimes.
      break: {
        wave: "triangle",
        tones: [
          [784, 0, 0.9],
          [523, 0.8, 1.3],
        ],
      },
      // One minute left: three short high pips.
      minute: {
        wave: "sine",
        tones: [
          [1320, 0, 0.12],
          [1320, 0.22, 0.12],
          [1320, 0.44, 0.12],
        ],
      },
    },

    /* Browsers start audio only from a click: the sound button creates the context. */
    enable() {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return;
      if (!this.context) this.context = new Context();
      if (this.context.state === "suspended") this.context.resume();
    },

    beep(frequency, start, length, wave) {
      const ctx = this.context;
      const oscillator = ctx.createOscillator();
      const gain = ctx.createGain();
      oscillator.type = wave;
      oscillator.frequency.value = frequency;
      const t0 = ctx.currentTime + start;
      gain.gain.setValueAtTime(0.0001, t0);
      gain.gain.exponentialRampToValueAtTime(0.5, t0 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
      oscillator.connect(gain).connect(ctx.destination);
      oscillator.start(t0);
      oscillator.stop(t0 + length + 0.05);
    },

    /* Play a pattern; how long it lasts in seconds (0 when nothing plays). */
    play(kind) {
      if (!this.on || !this.context || this.context.state !== "running") return 0;
      const pattern = this.PATTERNS[kind];
      if (!pattern) return 0;
      let end = 0;
      for (const [frequency, start, length] of pattern.tones) {
        this.beep(frequency, start, length, pattern.wave);
        end = Math.max(end, start + length);
      }
      return end;
    },
  };

  // ------------------------------------------------------------------ speech (Web Speech API)

  /* Amounts as plain digits ("1000"): a speech engine reads a number in the voice's language,
   * while a thousands separator ("1,000", "1 000" with a narrow space) may be read as a
   * pause between two numbers. */
  const spoken = (value) => String(value);

  /* "25", "25 and 100", "25, 100 and 500", in the page's language. */
  function spokenList(values) {
    const words = values.map(spoken);
    if (typeof Intl.ListFormat !== "function") return words.join(", ");
    return new Intl.ListFormat(document.documentElement.lang || undefined, { type: "conjunction" }).format(words);
  }

  /* The words for a row that has just started: its level and blinds, or its break. */
  function levelWords(clock, tv) {
    const row = clock.current;
    if (row.is_break) {
      const addon = tv.addon_break !== undefined && tv.addon_break !== null && tv.addon_break === row.index;
      const format = addon
        ? ngettext("Add-on break: %(minutes)s minute", "Add-on break: %(minutes)s minutes", row.minutes)
        : ngettext("Break: %(minutes)s minute", "Break: %(minutes)s minutes", row.minutes);
      const words = [fill(format, { minutes: spoken(row.minutes) })];
      const race = clock.chip_race || [];
      if (race.length) words.push(fill(_("Chip race: the %(chips)s chips come off"), { chips: spokenList(race) }));
      return words;
    }
    const limit = row.small_bet !== null && row.big_bet !== null;
    const parts = [
      limit
        ? fill(_("Level %(number)s: limits %(small)s and %(big)s"), {
            number: spoken(row.number),
            small: spoken(row.small_bet),
            big: spoken(row.big_bet),
          })
        : fill(_("Level %(number)s: blinds %(small)s and %(big)s"), {
            number: spoken(row.number),
            small: spoken(row.small_blind),
            big: spoken(row.big_blind),
          }),
    ];
    if (limit) {
      parts.push(fill(_("blinds %(small)s and %(big)s"), { small: spoken(row.small_blind), big: spoken(row.big_blind) }));
    }
    if (row.ante && row.ante_kind !== "none") {
      const format = row.ante_kind === "big-blind" ? _("big blind ante %(ante)s") : _("ante %(ante)s");
      parts.push(fill(format, { ante: spoken(row.ante) }));
    }
    const words = [parts.join(", ")];
    const leaving = tv.colour_up || [];
    if (leaving.length) {
      words.push(fill(_("Colour-up: the %(chips)s chips are no longer used"), { chips: spokenList(leaving) }));
    }
    return words;
  }

  /* What the screen says for an announcement (see ``announcement``). */
  function speech(kind, payload) {
    const clock = payload.clock;
    const row = clock.current;
    if (kind === "minute") {
      if (row.is_break) return _("One minute left in the break");
      return fill(_("One minute left in level %(number)s"), { number: spoken(row.number) });
    }
    return levelWords(clock, payload.tv || {}).join(". ");
  }

  const voice = {
    on: remembered("clock-voice"),
    // Only a page with the voice button speaks (the TV): the console and the lobby, open in
    // the same browser, stay quiet.
    here: false,
    supported: "speechSynthesis" in window && typeof window.SpeechSynthesisUtterance === "function",

    /* The page's language ("fr", "en"): the utterance's, and its voice's. */
    lang() {
      return document.documentElement.lang || "en";
    },

    /* A voice of the browser for ``lang``: the same language and region, else the same
     * language (the browser's default one first); null lets the browser choose. */
    choose(lang) {
      const voices = window.speechSynthesis.getVoices() || [];
      const wanted = lang.toLowerCase();
      const base = wanted.split("-")[0];
      const tag = (candidate) => String(candidate.lang || "").toLowerCase().replace("_", "-");
      const same = voices.filter((candidate) => tag(candidate) === wanted || tag(candidate).split("-")[0] === base);
      return (
        same.find((candidate) => tag(candidate) === wanted && candidate.default) ||
        same.find((candidate) => tag(candidate) === wanted) ||
        same.find((candidate) => candidate.default) ||
        same[0] ||
        null
      );
    },

    say(text, delaySeconds) {
      if (!this.on || !this.here || !this.supported || !text) return;
      const speak = () => {
        if (!this.on) return;
        const utterance = new window.SpeechSynthesisUtterance(text);
        utterance.lang = this.lang();
        const chosen = this.choose(utterance.lang);
        if (chosen) utterance.voice = chosen;
        window.speechSynthesis.speak(utterance);
      };
      // After the sound, not over it.
      if (delaySeconds > 0) window.setTimeout(speak, Math.round(delaySeconds * 1000) + 200);
      else speak();
    },

    stop() {
      if (this.supported) window.speechSynthesis.cancel();
    },
  };

  // ------------------------------------------------------------------ announcements

  // A change seen this long after it happened is old news (a screen back from sleep, a socket
  // back after an outage, a level the director adjusted): it is shown, not announced.
  const FRESH_MS = 30000;
  // The last minute is announced only when the countdown crosses it, not seconds later (a
  // page whose timers the browser slowed down while hidden).
  const MINUTE_LATE_MS = 10000;

  /* What has just happened on a feed's clock, seen at this tick: "level" (a level started,
   * the end of a break too), "break" (a break started), "minute" (one minute left in the
   * row), or null. Compares with the last tick, so a state sent again (a resync, a reconnect)
   * announces nothing, and the first state of a page is never announced. */
  function announcement(feed, clock, view, now) {
    const row = clock.started ? clock.index : -1;
    const before = feed.lastIndex;
    const remainingBefore = feed.lastRemaining;
    feed.lastIndex = row;
    feed.lastRemaining = view.remaining;
    if (before === null || !view.running || !clock.current) return null;
    if (row !== before) {
      // The row started its full length before its end (a running clock has an end); a
      // level resumed after a break lasts the rest it had (`length_ms`).
      const length = clock.current.length_ms != null ? clock.current.length_ms : clock.current.minutes * MINUTE;
      const startedAt = clock.ends_at_ms - length;
      if (now - startedAt > FRESH_MS) return null;
      return clock.current.is_break ? "break" : "level";
    }
    if (remainingBefore > MINUTE && view.remaining <= MINUTE && view.remaining > MINUTE - MINUTE_LATE_MS) {
      return "minute";
    }
    return null;
  }

  function announce(kind, payload) {
    const length = sound.play(kind);
    voice.say(speech(kind, payload), length);
  }

  // ------------------------------------------------------------------ feeds (one per socket)

  const feeds = new Map();

  function newFeed(path) {
    const feed = {
      path,
      payload: null,
      // The rows the clock comes to after the one in play (the TV page's), with their starts.
      ahead: null,
      offset: 0,
      roots: new Set(),
      socket: null,
      delay: 1000,
      gone: false,
      lastIndex: null,
      lastRemaining: null,
      link: "wait",
      // The link's liveness: when this socket was opened, when it last said anything, and
      // since when a ping of ours has gone unanswered (null: none pending).
      openedAt: 0,
      heardAt: 0,
      pingSince: null,
    };
    connect(feed);
    return feed;
  }

  function accept(feed, payload) {
    if (!payload || payload.type !== "clock") return;
    if (feed.payload && payload.version < feed.payload.version) return;
    const handForHand = JSON.stringify(payload.hand_for_hand || null);
    if (feed.payload && handForHand !== JSON.stringify(feed.payload.hand_for_hand || null)) {
      // Hand-for-hand moved on (a dealer's tap, the bubble bursting): the console's clock
      // section fetches itself again for its per-table buttons.
      document.body.dispatchEvent(new CustomEvent("clock-hand-for-hand"));
    }
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
    feed.openedAt = Date.now();
    feed.pingSince = null;
    // Events of a socket given up for dead (``abandon``) no longer speak for the feed.
    const current = () => feed.socket === socket;
    socket.addEventListener("open", () => {
      if (!current()) return;
      feed.delay = 1000;
      feed.heardAt = Date.now();
      feed.link = "live";
    });
    socket.addEventListener("message", (event) => {
      if (!current()) return;
      feed.heardAt = Date.now();
      feed.pingSince = null;
      if (feed.link !== "live") feed.link = "live";
      try {
        accept(feed, JSON.parse(event.data));
      } catch (error) {
        /* a frame that is not JSON: ignore it, the next state replaces everything */
      }
    });
    socket.addEventListener("close", (event) => {
      if (!current()) return;
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

  // A socket whose far end has gone (a dropped Wi-Fi, a server frozen) may never say it
  // closed: the page pings when the link has been quiet, and gives the socket up when a ping
  // or the opening handshake goes unanswered this long. The server answers each ping at once
  // (tournaments.consumers), so a live link is never quiet for longer than PING_MS.
  const PING_MS = 5000;
  const ANSWER_MS = 8000;

  /* Give up a socket that no longer answers: the light goes out and a new one is tried. */
  function abandon(feed) {
    const socket = feed.socket;
    feed.socket = null;
    feed.link = "lost";
    feed.pingSince = null;
    if (socket) {
      try {
        socket.close();
      } catch (error) {
        /* already closing */
      }
    }
    retry(feed);
  }

  function watch(feed, now) {
    const socket = feed.socket;
    if (!socket) return;
    if (socket.readyState === WebSocket.CONNECTING) {
      if (now - feed.openedAt > ANSWER_MS + PING_MS) abandon(feed);
      return;
    }
    if (socket.readyState !== WebSocket.OPEN) return;
    if (feed.pingSince !== null) {
      if (now - feed.pingSince > ANSWER_MS) abandon(feed);
      return;
    }
    if (now - feed.heardAt >= PING_MS) {
      feed.pingSince = now;
      try {
        socket.send("ping");
      } catch (error) {
        abandon(feed);
      }
    }
  }

  const RETRY_MOST_MS = 10000;

  function retry(feed) {
    // Backoff with jitter, so a room of phones does not come back in one burst; at most ten
    // seconds apart, so a TV whose server was away half a minute (a restart on a busy laptop)
    // is live again within seconds of its return, not after another half minute.
    const wait = feed.delay * (0.8 + Math.random() * 0.4);
    feed.delay = Math.min(feed.delay * 2, RETRY_MOST_MS);
    window.setTimeout(() => {
      if (!feed.socket && !feed.gone) connect(feed);
    }, wait);
  }

  // The device says it lost its network: no need to wait for a ping to go unanswered.
  window.addEventListener("offline", () => {
    for (const feed of feeds.values()) if (feed.socket && !feed.gone) abandon(feed);
  });
  window.addEventListener("online", () => {
    for (const feed of feeds.values()) {
      if (!feed.socket && !feed.gone) {
        feed.delay = 1000;
        connect(feed);
      }
    }
  });

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

  /* Write a data- attribute only when it changes: a write, even of the same value, makes the
   * browser work out the page's style again at every redraw. */
  function setData(element, key, value) {
    if (element.dataset[key] !== value) element.dataset[key] = value;
  }

  function show(element, shown) {
    if (element.hidden === shown) element.hidden = !shown;
  }

  function setShown(root, name, shown) {
    for (const element of root.querySelectorAll(`[data-clock="${name}"]`)) show(element, shown);
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

  // ------------------------------------------------------------------ the TV's own parts

  const money = (value) => (value ? chips(value) : "–");

  function tvShown(root, name, shown) {
    for (const element of root.querySelectorAll(`[data-tv="${name}"]`)) show(element, shown);
  }

  function tvText(root, name, value) {
    for (const element of root.querySelectorAll(`[data-tv="${name}"]`)) {
      if (element.textContent !== value) element.textContent = value;
    }
  }

  /* Replace a list's items when what it shows changed (``key``), building each with ``make``. */
  function relist(list, items, make) {
    if (!list) return;
    const key = JSON.stringify(items);
    if (list.dataset.key === key) return;
    list.dataset.key = key;
    list.replaceChildren(...items.map(make));
  }

  function spans(item, texts, classes) {
    texts.forEach((text, n) => {
      const span = document.createElement("span");
      if (classes) span.className = classes[n];
      span.textContent = text;
      item.append(span);
    });
    return item;
  }

  function renderResults(root, results) {
    tvShown(root, "results-box", Boolean(results));
    tvShown(root, "places-box", Boolean(results));
    if (!results) return;
    const winner = results.winner || { name: "", prize: 0, bounties: 0 };
    tvText(root, "winner", winner.name);
    tvText(root, "winner-prize", money(winner.prize));
    tvText(root, "winner-bounties", fill(_("and %(amount)s in bounties"), { amount: chips(winner.bounties) }));
    tvShown(root, "winner-bounties", winner.bounties > 0);
    const deal = ngettext("Deal among the last %(count)s player", "Deal among the last %(count)s players", results.deal_players);
    tvText(root, "deal", fill(deal, { count: results.deal_players }));
    tvShown(root, "deal", results.deal);
    const tied = results.tied_places || [];
    const places = results.places.map((place) => ({ ...place, tied: tied.includes(place.place) }));
    relist(root.querySelector('[data-tv="places"]'), places, (place) => {
      const item = spans(document.createElement("li"), [String(place.place), place.name, money(place.prize)], [
        "tv-place",
        "tv-name",
        "tv-prize",
      ]);
      item.dataset.place = String(place.place);
      if (place.deal) item.dataset.deal = "1";
      if (place.tied) {
        // Players who tie share the place (as the server renders it: tv_clock.html).
        const mark = document.createElement("span");
        mark.className = "tv-tied";
        mark.textContent = pgettext("a finishing place shared by players who tie", "tied");
        item.querySelector(".tv-name").append(" ", mark);
      }
      return item;
    });
  }

  let reloadAsked = false;

  /* The chip counts' block is only in the page when the layout showed it at load: when the
   * director turns it on, the page is fetched again (once; never twice in a minute). */
  function reloadForChips() {
    if (reloadAsked) return;
    reloadAsked = true;
    let last = 0;
    try {
      last = Number(sessionStorage.getItem("tv-reloaded-at")) || 0;
      if (Date.now() - last < MINUTE) return;
      sessionStorage.setItem("tv-reloaded-at", String(Date.now()));
    } catch (error) {
      /* no storage: reload all the same, once for this page */
    }
    window.setTimeout(() => window.location.reload(), 300);
  }

  function renderTv(root, view, payload) {
    const tv = payload.tv || {};
    const layout = tv.layout || {};
    if (layout.theme) setData(root, "theme", layout.theme);
    setData(root, "over", view.over ? "1" : "0");
    tvShown(root, "clock", !view.over);
    tvShown(root, "end", view.over);
    tvShown(root, "playing", !view.over);
    tvShown(root, "payouts", !view.over && layout.show_payouts !== false);
    tvShown(root, "coming", !view.over && layout.show_next_levels !== false);
    const chipsShown = !view.over && layout.show_chips !== false;
    tvShown(root, "chips", chipsShown);
    // The chip counts' block has its own average stack.
    tvShown(root, "average", !view.over && !(chipsShown && root.querySelector('[data-tv="chips"]')));
    if (layout.show_chips && root.dataset.chipsBlock === "left-out") reloadForChips();
    tvText(root, "end-status", view.status);
    relist(root.querySelector('[data-clock="coming"]'), view.coming, (row) =>
      spans(document.createElement("li"), [row.name, row.startsIn, row.detail], ["tv-coming-name", "tv-coming-in", "tv-coming-bets"]),
    );
    renderResults(root, tv.results || null);
  }

  // The side column's panels shrink together until they fit (``--tv-fit``, clock.css), and
  // grow back when they have room again. Worked out again only when what the column shows
  // or the screen's size changes: its digits change every second and never its size.
  const FIT_SMALLEST = 0.4;
  function fitSide(root) {
    const side = root.querySelector(".tv-side");
    if (!side) return;
    const shown = [...side.querySelectorAll("[hidden]")].map((element) => element.dataset.tv || "").join();
    const key = `${window.innerWidth}x${window.innerHeight}|${shown}|${side.textContent.replace(/\d/g, "0")}`;
    if (side.dataset.fitKey === key) return;
    side.dataset.fitKey = key;
    const fits = (scale) => {
      side.style.setProperty("--tv-fit", String(scale));
      return side.scrollHeight <= side.clientHeight + 1 && side.scrollWidth <= side.clientWidth + 1;
    };
    if (fits(1)) return;
    let low = FIT_SMALLEST;
    let high = 1;
    for (let step = 0; step < 7; step += 1) {
      const middle = (low + high) / 2;
      if (fits(middle)) low = middle;
      else high = middle;
    }
    fits(low);
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
    setText(root, "chip-leader", view.chipLeader);
    setText(root, "chip-leader-chips", view.chipLeaderChips);
    setShown(root, "chip-leader-chips", Boolean(view.chipLeaderChips));
    setText(root, "chips-in-play", view.chipsInPlay);
    setText(root, "chip-race", view.chipRace);
    setText(root, "hand-for-hand", view.handForHand);
    setShown(root, "hand-for-hand", Boolean(view.handForHand));
    setShown(root, "chip-race", Boolean(view.chipRace));
    setText(root, "blinds", view.blinds);
    setShown(root, "blinds", Boolean(view.blinds));
    setText(root, "colour-up", view.colourUp);
    setShown(root, "colour-up", Boolean(view.colourUp));
    setText(root, "link", LINK_TEXTS[feed.link]());
    for (const element of root.querySelectorAll('[data-clock="link"]')) setData(element, "state", feed.link);
    renderPayouts(root, view.payouts);
    setData(root, "paused", feed.payload.clock.paused ? "1" : "0");
    setData(root, "onBreak", view.onBreak ? "1" : "0");
    setData(root, "urgent", view.running && !view.onBreak && view.remaining <= MINUTE ? "1" : "0");
    // The TV page (it has a theme) also follows the director's layout and the end.
    if (root.dataset.theme !== undefined) {
      renderTv(root, view, feed.payload);
      fitSide(root);
    }
  }

  function tick() {
    for (const feed of feeds.values()) {
      feed.counting = null;
      watch(feed, Date.now());
      for (const root of [...feed.roots]) if (!root.isConnected) feed.roots.delete(root);
      if (!feed.roots.size) {
        // Its panel was replaced (an htmx swap brings a new one for the same socket soon).
        continue;
      }
      if (!feed.payload) continue;
      const now = Date.now() + feed.offset;
      const payload = projected(feed, now);
      const view = texts(payload, now);
      const kind = announcement(feed, payload.clock, view, now);
      if (kind) announce(kind, payload);
      for (const root of feed.roots) render(root, view, feed);
      feed.counting = view.running ? view.remaining : null;
    }
  }

  /* When to draw again: as the time shown turns to its next second (it shows whole seconds,
   * rounded up), and at least once a second for the rest (the link's watch, the rows coming
   * up). Drawing ten times a second kept a phone's or a TV's processor busy for a screen
   * that changes once a second. */
  const TURN_MARGIN_MS = 5;

  function nextTickIn() {
    let wait = 1000;
    for (const feed of feeds.values()) {
      if (feed.counting) wait = Math.min(wait, (feed.counting % 1000 || 1000) + TURN_MARGIN_MS);
    }
    return wait;
  }

  function tickOnTime() {
    tick();
    window.setTimeout(tickOnTime, nextTickIn());
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
      remember("clock-sound", sound.on);
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

  function voiceButton(button) {
    if (!voice.supported) {
      button.hidden = true;
      return;
    }
    voice.here = true;
    const show = () => {
      button.setAttribute("aria-pressed", voice.on ? "true" : "false");
      button.textContent = voice.on ? _("Voice on") : _("Voice off");
    };
    show();
    button.addEventListener("click", () => {
      voice.on = !voice.on;
      remember("clock-voice", voice.on);
      // The click is the gesture a browser asks for before it speaks: say so now.
      if (voice.on) voice.say(_("Voice on"), 0);
      else voice.stop();
      show();
    });
    // A remembered "on" still needs one tap after a reload: an empty utterance spoken from
    // it is what lets a phone's browser (Safari) speak later without one.
    if (voice.on) {
      document.addEventListener(
        "pointerdown",
        () => {
          if (voice.on) window.speechSynthesis.speak(new window.SpeechSynthesisUtterance(""));
        },
        { once: true },
      );
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
    const ahead = root.dataset.clockAhead && document.getElementById(root.dataset.clockAhead);
    if (ahead) feed.ahead = JSON.parse(ahead.textContent);
    feed.roots.add(root);
    for (const button of root.querySelectorAll('[data-clock-toggle="sound"]')) soundButton(button);
    for (const button of root.querySelectorAll('[data-clock-toggle="voice"]')) voiceButton(button);
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
  tickOnTime();
})();
