/* The hand replayer: steps through the states the server prepared for this viewer and draws
 * each with the table's own renderer. Nothing is computed here: a step is what it shows. */
(function () {
  "use strict";
  const root = document.getElementById("replayer");
  const data = JSON.parse(document.getElementById("replay").textContent || "null");
  if (!root || !data || !data.steps || !data.steps.length || !window.PokerTable) return;
  const felt = root.querySelector(".felt");
  const label = root.querySelector(".replay-step");
  const counter = root.querySelector(".replay-counter");
  const controls = root.querySelector(".replay-controls");
  const playButton = root.querySelector('[data-replay="play"]');
  const log = document.querySelectorAll(".replay-log li");
  let index = 0;
  let timer = null;
  const names = data.names || {};
  const info = data.table_info || {};
  const VERBS = { folded: "folds", checked: "checks", called: "calls", bet: "bets", raised: "raises to",
    shown: "shows", mucked: "mucks", allindeclared: "is all-in" };

  function nameAt(seat) {
    return names[seat] || "Seat " + seat;
  }

  /* The engine's view of a step, in the shape the table's renderer draws. */
  function asSnapshot(view) {
    const dealt = {};
    (view.seats || []).forEach((s) => { dealt[s.seat] = s; });
    const count = Math.max(info.seat_count || 0, ...Object.keys(dealt).map(Number));
    const seats = [];
    for (let n = 1; n <= count; n++) {
      const s = dealt[n];
      if (!s) { seats.push({ seat: n, player: null, state: "empty" }); continue; }
      const inHand = s.status === "active" || s.status === "all-in";
      seats.push({
        seat: n, player: { name: nameAt(n) }, stack: s.stack, bet: s.bet, state: "playing",
        folded: s.status === "folded", all_in: s.status === "all-in",
        cards: s.cards || null, card_count: inHand ? 4 : 0,
      });
    }
    return {
      table: { seat_count: count, structure: info.structure },
      seats: seats,
      you: { seat: data.seat },
      hand: {
        number: data.number, button: view.button, street: view.street, board: view.board,
        pots: view.pots, to_act: view.to_act, results: view.complete ? view.awards : null,
      },
    };
  }

  function describe(step, i) {
    if (!step.move) return i === 0 ? "Blinds posted, cards dealt" : "";
    const verb = VERBS[step.move.action] || step.move.action;
    return nameAt(step.move.seat) + " " + verb + (step.move.to ? " " + step.move.to : "");
  }

  function show(i) {
    index = Math.max(0, Math.min(data.steps.length - 1, i));
    const step = data.steps[index];
    window.PokerTable.renderFelt(felt, asSnapshot(step.view));
    label.textContent = describe(step, index) + (index === data.steps.length - 1 && data.summary ? " · " + data.summary : "");
    counter.textContent = index + 1 + " / " + data.steps.length;
    log.forEach((li, n) => li.classList.toggle("current", n === index));
    if (index === data.steps.length - 1) stop();
  }
  function stop() {
    clearInterval(timer);
    timer = null;
    playButton.textContent = "▶ Play";
  }
  function play() {
    if (timer) return stop();
    if (index === data.steps.length - 1) show(0);
    playButton.textContent = "Pause";
    timer = setInterval(() => show(index + 1), 1200);
  }
  const moves = { first: () => show(0), prev: () => show(index - 1), next: () => show(index + 1),
    last: () => show(data.steps.length - 1), play: play };
  controls.addEventListener("click", (event) => {
    const button = event.target.closest("[data-replay]");
    if (!button) return;
    if (button.dataset.replay !== "play") stop();
    moves[button.dataset.replay]();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowLeft") { stop(); show(index - 1); }
    if (event.key === "ArrowRight") { stop(); show(index + 1); }
  });
  if (window.localStorage.getItem("poker.fourColour") === "1") root.classList.add("four-colour");
  controls.hidden = false;
  show(0);
})();
