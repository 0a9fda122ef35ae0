/* The felt: draws one snapshot-shaped object (docs/protocol.md: `table`, `seats`, `hand`,
 * `you`) into the markup of templates/tables/_felt.html. The live table draws each snapshot
 * the socket brings; the replayer draws the steps tables/replay.py made in the same shape.
 *
 * It draws what it is given and decides nothing: no rule of poker lives here.
 * Words come from Django's JavaScript catalog (gettext, interpolate), loaded before it.
 */

const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };
const SUIT_NAMES = { c: gettext("clubs"), d: gettext("diamonds"), h: gettext("hearts"), s: gettext("spades") };
const RANK_NAMES = { T: "10", J: gettext("jack"), Q: gettext("queen"), K: gettext("king"), A: gettext("ace") };
/* A rank as a card's corner shows it: R, D, V for K, Q, J in French. */
const RANK_LETTERS = {
  T: "10", J: pgettext("card rank", "J"), Q: pgettext("card rank", "Q"), K: pgettext("card rank", "K"),
  A: pgettext("card rank", "A"),
};
/* The game as every page names it (tables.models.Table.label), by the snapshot's codes. */
const GAMES = {
  "limit omaha": gettext("Limit Omaha High"),
  "pot-limit omaha": gettext("Pot-Limit Omaha High"),
  "no-limit omaha": gettext("No-Limit Omaha High"),
  "limit omaha-hi-lo": gettext("Limit Omaha Hi/Lo"),
  "pot-limit omaha-hi-lo": gettext("Pot-Limit Omaha Hi/Lo"),
  "no-limit omaha-hi-lo": gettext("No-Limit Omaha Hi/Lo"),
};
const STREETS = {
  preflop: gettext("Preflop"), flop: gettext("Flop"), turn: gettext("Turn"), river: gettext("River"),
  showdown: gettext("Showdown"), complete: gettext("Hand over"),
};
const HALVES = { high: gettext("high"), low: gettext("low") };
/* Ranks in words, one and several, for the hand helper. */
const RANK_ONE = {
  2: gettext("deuce"), 3: gettext("three"), 4: gettext("four"), 5: gettext("five"), 6: gettext("six"),
  7: gettext("seven"), 8: gettext("eight"), 9: gettext("nine"), T: gettext("ten"), J: gettext("jack"),
  Q: gettext("queen"), K: gettext("king"), A: gettext("ace"),
};
const RANK_MANY = {
  2: gettext("deuces"), 3: gettext("threes"), 4: gettext("fours"), 5: gettext("fives"), 6: gettext("sixes"),
  7: gettext("sevens"), 8: gettext("eights"), 9: gettext("nines"), T: gettext("tens"), J: gettext("jacks"),
  Q: gettext("queens"), K: gettext("kings"), A: gettext("aces"),
};
/* A high hand by the server's code (tables.runtime.snapshots.HIGH_CODES): the sentence and which of its
 * five ranks (in the order they matter) fill it. */
const HIGHS = {
  "high-card": [gettext("High card, %(one)s high"), 0],
  "one-pair": [gettext("One pair, %(many)s"), 0],
  "two-pair": [gettext("Two pair, %(many)s and %(other)s"), 0, 2],
  "three-of-a-kind": [gettext("Three of a kind, %(many)s"), 0],
  "straight": [gettext("Straight, %(one)s high"), 0],
  "flush": [gettext("Flush, %(one)s high"), 0],
  "full-house": [gettext("Full house, %(many)s full of %(other)s"), 0, 3],
  "four-of-a-kind": [gettext("Four of a kind, %(many)s"), 0],
  "straight-flush": [gettext("Straight flush, %(one)s high"), 0],
};
const NUMBERS = new Intl.NumberFormat(document.documentElement.lang || undefined);

/* A new element with a class and a text. */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

/* "1,250" in the page's language. */
export function chips(amount) {
  return NUMBERS.format(Number(amount || 0));
}

/* A card in words, as a screen reader says it: "Ace of spades" for "As". */
export function cardName(code) {
  const words = interpolate(gettext("%(rank)s of %(suit)s"),
    { rank: RANK_NAMES[code[0]] || code[0], suit: SUIT_NAMES[code[1]] }, true);
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/* A playing card ("Ah"), or a face-down one for a null code: an image named in words. */
export function cardEl(code, extra) {
  const card = el("span", "pc" + (extra ? " " + extra : ""));
  card.setAttribute("role", "img");
  if (!code) {
    card.classList.add("pc-back");
    card.setAttribute("aria-label", gettext("face-down card"));
    return card;
  }
  const rank = code[0];
  const suit = code[1];
  card.classList.add("suit-" + suit);
  card.setAttribute("aria-label", cardName(code));
  card.title = code;
  card.append(el("span", "pc-rank", RANK_LETTERS[rank] || rank), el("span", "pc-suit", SUITS[suit]));
  return card;
}

/* "Pot-Limit Omaha Hi/Lo · 1/2": the table's game (as every page names it) and stakes. */
export function stakesText(table) {
  const blinds = table.structure === "limit"
    ? chips(table.big_blind) + "/" + chips(table.big_bet)
    : chips(table.small_blind) + "/" + chips(table.big_blind);
  const game = GAMES[table.structure + " " + table.game] || table.label || "";
  return game + " · " + blinds;
}

/* The hand helper's line from `you.helper` (codes and ranks, as tables/runtime/snapshots.py sends them):
 * "Two pair, kings and fives · Low 8-6-4-3-A", or "… · No low" in Hi/Lo. */
export function helperText(helper) {
  let text = highText(helper.high);
  if (!text) return "";
  if (helper.low !== undefined) {
    const low = helper.low
      ? interpolate(gettext("Low %s"), [helper.low.join("-")])
      : gettext("No low");
    text = interpolate(gettext("%(high)s · %(low)s"), { high: text, low: low }, true);
  }
  return text;
}

/* A high hand (`{code, ranks}`) in words: "Two pair, kings and fives". */
function highText(high) {
  const shape = HIGHS[high.code];
  if (!shape) return "";
  const top = high.ranks[shape[1]];
  return high.code === "straight-flush" && top === "A"
    ? gettext("Royal flush")
    : interpolate(shape[0], {
      one: RANK_ONE[top], many: RANK_MANY[top],
      other: shape.length > 2 ? RANK_MANY[high.ranks[shape[2]]] : "",
    }, true);
}

/* A winning hand as the server sends it (docs/protocol.md: `{"high": {code, ranks}}` or
 * `{"low": [ranks]}`) in words: "Flush, ace high", "Low 8-6-4-3-A". */
export function shapeText(shape) {
  if (!shape) return "";
  if (typeof shape === "string") return shape;
  if (shape.low) return interpolate(gettext("Low %s"), [shape.low.join("-")]);
  return shape.high ? highText(shape.high) : "";
}

/* One award in words: "ann wins 24 (high) with Flush, ace high". */
export function awardText(award, name) {
  const words = { name: name, amount: chips(award.amount) };
  let line = award.half && HALVES[award.half]
    ? interpolate(gettext("%(name)s wins %(amount)s (%(half)s)"), { ...words, half: HALVES[award.half] }, true)
    : interpolate(gettext("%(name)s wins %(amount)s"), words, true);
  const hand = shapeText(award.hand);
  if (hand) line = interpolate(gettext("%(award)s with %(hand)s"), { award: line, hand: hand }, true);
  // A hand run twice: each run's winners apart.
  if (award.run) line = interpolate(gettext("Run %(run)s: %(award)s"), { run: award.run, award: line }, true);
  return line;
}

/* A hand run twice: each run's winners, one line per player and half (a player who wins a
 * half of the main and of a side pot on one board wins it with the same hand), the first
 * run first. */
function byRun(results) {
  const lines = new Map();
  results.forEach((award) => {
    const key = award.run + ":" + award.seat + ":" + award.half;
    const line = lines.get(key);
    if (line) line.amount += award.amount;
    else lines.set(key, { ...award });
  });
  return [...lines.values()].sort((a, b) => a.run - b.run);
}

/* Five board cards, face up where dealt, empty slots for the rest. */
function boardRow(cards) {
  const row = el("div", "board");
  for (let i = 0; i < 5; i++) row.append(cards[i] ? cardEl(cards[i]) : el("span", "pc pc-slot"));
  return row;
}

/* The name of the player in a seat, for sentences. */
export function nameOf(snap, seatNumber) {
  const seat = (snap.seats || []).find((s) => s.seat === Number(seatNumber));
  return seat && seat.player ? seat.player.name : interpolate(gettext("seat %s"), [seatNumber]);
}

/* Where seat k of n sits on the rail: k = 0 is the bottom centre, then clockwise. */
function seatAngle(k, n) {
  return Math.PI / 2 + (k * 2 * Math.PI) / n;
}

function place(node, angle, rx, ry) {
  node.style.left = (50 + 50 * rx * Math.cos(angle)).toFixed(2) + "%";
  node.style.top = (50 + 50 * ry * Math.sin(angle)).toFixed(2) + "%";
}

function seatNote(seat) {
  if (seat.state === "sitting_out") {
    return seat.sat_out_reason === "timed out" ? gettext("timed out") : gettext("away");
  }
  if (seat.state === "waiting") return gettext("waiting");
  if (seat.folded) return gettext("folded");
  return "";
}

function percent(share) {
  return Math.round(share * 100) + "%";
}

/* A seat's all-in equity at a run-out. With side pots, its share of each pot it can win
 * ("Main pot 0%", "Side pot 100%"): a short stack can win only the main pot, and a hand
 * with no chance there may still win a side pot. Its expected share of every chip in the
 * middle is the badge's title. */
function equityBadge(hand, number) {
  const equity = hand && hand.equity;
  if (!equity || equity[number] === undefined) return null;
  const pots = hand.pot_equity || [];
  if (pots.length < 2) {
    const badge = el("span", "seat-equity", percent(equity[number]));
    badge.title = gettext("All-in equity");
    return badge;
  }
  const badge = el("span", "seat-equity seat-equity-pots");
  pots.forEach((pot, k) => {
    const share = pot.shares[number];
    if (share === undefined) return;
    let text;
    if (k === 0) text = interpolate(gettext("Main pot %s"), [percent(share)]);
    else if (pots.length === 2) text = interpolate(gettext("Side pot %s"), [percent(share)]);
    else text = interpolate(gettext("Side pot %(number)s %(share)s"), { number: k, share: percent(share) }, true);
    badge.append(el("span", "equity-pot", text));
  });
  badge.title = interpolate(gettext("All-in equity: %s of all the chips in the pots"), [percent(equity[number])]);
  return badge;
}

function drawSeat(ring, seat, angle, snap, winners, options) {
  const hand = snap.hand;
  const you = snap.you || {};
  const box = el("div", "seat");
  box.dataset.seat = seat.seat;
  place(box, angle, 1, 1);
  if (Math.sin(angle) < -0.3) box.classList.add("seat-top");
  if (!seat.player) {
    box.classList.add("seat-empty");
    if (options.onSit) {
      const button = el("button", "sit-button", gettext("Sit"));
      button.type = "button";
      button.setAttribute("aria-label", interpolate(gettext("Sit in seat %s"), [seat.seat]));
      button.addEventListener("click", () => options.onSit(seat.seat));
      box.append(button);
    } else {
      box.append(el("span", "seat-open", interpolate(gettext("Seat %s"), [seat.seat])));
    }
    ring.append(box);
    return;
  }
  if (seat.seat === you.seat) box.classList.add("seat-mine");
  if (hand && hand.to_act === seat.seat) box.classList.add("seat-to-act");
  if (seat.folded) box.classList.add("seat-folded");
  if (seat.state === "sitting_out") box.classList.add("seat-away");
  if (winners[seat.seat]) box.classList.add("seat-winner");

  const cards = el("div", "seat-cards");
  // Cards shown after the hand (the seat's `shown_after`): face up for everyone, marked.
  const shownAfter = seat.shown_after || [];
  if (seat.cards && seat.cards.length) {
    seat.cards.forEach((c) => cards.append(cardEl(c, shownAfter.includes(c) ? "pc-shown" : "")));
  } else {
    shownAfter.forEach((c) => cards.append(cardEl(c, "pc-shown")));
    for (let i = shownAfter.length; i < (seat.card_count || 0); i++) cards.append(cardEl(null));
  }
  box.append(cards);
  if (shownAfter.length) {
    box.classList.add("seat-showed");
    box.append(el("span", "shown-label", pgettext("cards shown after the hand", "shown")));
  }

  const plate = el("div", "seat-plate");
  const name = el("div", "seat-name");
  name.append(el("span", "seat-name-text", seat.player.name));
  if (seat.bot) name.append(el("span", "badge", gettext("bot")));
  plate.append(name);
  const stack = el("div", "seat-stack", seat.all_in ? gettext("All-in") : chips(seat.stack));
  const note = seatNote(seat);
  if (note) stack.append(el("span", "seat-note", note));
  if (seat.connected === false) stack.append(el("span", "seat-note seat-offline", gettext("offline")));
  plate.append(stack);
  const timer = el("div", "seat-timer");
  timer.append(el("span", "seat-timer-bar"));
  plate.append(timer);
  box.append(plate);
  const badges = el("div", "seat-badges");
  if (hand && !hand.complete && hand.straddle === seat.seat) {
    // docs/rules.md, Home-game options: a live straddle of twice the big blind, posted this hand.
    const straddle = el("span", "seat-straddle", gettext("Straddle"));
    straddle.title = gettext("Posted a straddle of twice the big blind: acts last before the flop");
    badges.append(straddle);
  }
  const share = equityBadge(hand, seat.seat);
  if (share) badges.append(share);
  if (winners[seat.seat]) badges.append(el("span", "seat-won", "+" + chips(winners[seat.seat])));
  if (badges.childNodes.length) box.append(badges);
  ring.append(box);

  if (seat.bet) {
    const bet = el("div", "bet");
    bet.dataset.seat = seat.seat; // whose chips, for the movements (motion.js)
    bet.append(el("span", "chip"), el("span", "bet-amount", chips(seat.bet)));
    place(bet, angle, 0.62, 0.58);
    ring.append(bet);
  }
  if (hand && hand.button === seat.seat) {
    const n = snap.seats.length;
    const button = el("div", "dealer-button", gettext("D"));
    button.title = gettext("Dealer button");
    button.dataset.angle = angle;
    place(button, angle + 0.42 * (4 / Math.max(n, 4)), 0.74, 0.72);
    ring.append(button);
  }
}

function drawCenter(center, snap) {
  const hand = snap.hand || null;
  center.replaceChildren();
  const info = el("div", "hand-info");
  if (hand) {
    info.textContent = interpolate(gettext("Hand #%(number)s · %(street)s"),
      { number: hand.number, street: STREETS[hand.street] || hand.street || "" }, true);
  } else {
    info.textContent = snap.table ? stakesText(snap.table) : "";
  }
  let board = boardRow((hand && hand.board) || []);
  if (hand && hand.boards) {
    // Run it twice: both runs, one row each, dealt side by side.
    board = el("div", "boards");
    hand.boards.forEach((cards, k) => {
      const run = el("div", "board-run");
      run.append(el("span", "board-run-label", interpolate(gettext("Run %s"), [k + 1])), boardRow(cards));
      board.append(run);
    });
  }
  const pots = el("div", "pots");
  let potList = (hand && hand.pots) || [];
  const collected = potList.reduce((sum, pot) => sum + Number(pot.amount || 0), 0);
  const bets = (snap.seats || []).reduce((sum, seat) => sum + Number(seat.bet || 0), 0);
  // From the deal to the end of the first round the pot is mostly the bets in front of the
  // players: show it with them, the blinds included (a dead blind is already in the middle).
  if (hand && !hand.results && hand.street === "preflop" && potList.length <= 1 && collected + bets > 0) {
    potList = [{ amount: collected + bets }];
  }
  potList.forEach((pot, i) => {
    let label = gettext("Pot");
    if (i > 0) label = potList.length > 2 ? interpolate(gettext("Side %s"), [i]) : gettext("Side");
    const item = el("span", "pot");
    item.append(el("span", "chip"), el("span", "", label + " " + chips(pot.amount)));
    pots.append(item);
  });
  center.append(info, board, pots);
  const forced = snap.table && snap.table.forced_bets;
  if (hand && hand.bomb_pot) {
    // docs/rules.md, Home-game options: antes from everyone, no blinds, the betting from the flop.
    const tag = el("p", "bomb-pot-tag", gettext("Bomb pot"));
    tag.title = gettext("Everyone antes, nobody posts a blind, and the betting starts on the flop");
    center.insertBefore(tag, board);
  } else if ((!hand || hand.complete) && forced && forced.bomb_pot_next) {
    center.insertBefore(el("p", "bomb-pot-tag bomb-pot-next", gettext("Bomb pot next hand")), board);
  }
  const vote = hand && hand.run_twice;
  if (vote) {
    // The players still in are asked to run it twice: everyone sees where the answers are.
    center.append(el("p", "run-twice-note", interpolate(
      gettext("Run it twice? %(agreed)s of %(asked)s agreed"),
      { agreed: vote.agreed.length, asked: vote.asked.length }, true)));
  }
  if (hand && hand.results && hand.results.length) {
    const results = el("ul", "results");
    (hand.boards ? byRun(hand.results) : hand.results).forEach((award) => {
      results.append(el("li", "result-line", awardText(award, award.name || nameOf(snap, award.seat))));
    });
    if (hand.boards) {
      // A phone's felt has no room for both runs' sentences: one short line a run instead.
      results.classList.add("results-twice");
      [1, 2].forEach((run) => {
        const won = byRun(hand.results).filter((award) => award.run === run).map((award) => {
          const words = { name: award.name || nameOf(snap, award.seat), amount: chips(award.amount) };
          return award.half && HALVES[award.half]
            ? interpolate(gettext("%(name)s %(amount)s (%(half)s)"), { ...words, half: HALVES[award.half] }, true)
            : interpolate(gettext("%(name)s %(amount)s"), words, true);
        });
        results.append(el("li", "result-run",
          interpolate(gettext("Run %(run)s: %(award)s"), { run: run, award: won.join(", ") }, true)));
      });
    }
    center.append(results);
  }
}

/* Draw the seats, cards, bets, button, board, pots and results of `snap` into `felt`.
 * `options.onSit(seatNumber)` puts a "Sit" button on each empty seat. */
export function renderFelt(felt, snap, options) {
  options = options || {};
  const hand = snap.hand || null;
  const you = snap.you || {};
  const seats = snap.seats || [];
  const n = seats.length || (snap.table && snap.table.seat_count) || 1;
  // The viewer sits at the bottom centre; a spectator sees seat 1 there.
  const anchor = Math.max(0, seats.findIndex((s) => s.seat === you.seat));
  const winners = {};
  ((hand && hand.results) || []).forEach((award) => {
    winners[award.seat] = (winners[award.seat] || 0) + award.amount;
  });
  const ring = felt.querySelector(".seat-ring");
  ring.replaceChildren();
  seats.forEach((seat, index) => {
    drawSeat(ring, seat, seatAngle((index - anchor + n) % n, n), snap, winners, options);
  });
  drawCenter(felt.querySelector(".felt-center"), snap);
  keepClear(felt);
  if (!felt.dataset.keptClear && window.ResizeObserver) {
    // The seats sit by percentages: a new size can bring them onto the button or the hand line.
    felt.dataset.keptClear = "1";
    new ResizeObserver(() => keepClear(felt)).observe(felt);
  }
}

/* Whether two boxes come closer than `gap` pixels. */
function overlaps(a, b, gap = 0) {
  return a.left < b.right + gap && b.left < a.right + gap && a.top < b.bottom + gap && b.top < a.bottom + gap;
}

const SEAT_PARTS = ".seat-plate, .seat-cards .pc, .seat-badges, .shown-label, .seat-open, .sit-button, .bet";

/* The dealer button and the hand line, kept clear of the seats, bets and board as laid out
 * now: the button at the first free spot between its seat and the centre (nearest the seat
 * first, then a little to either side), the hand line under the pots if a seat covers it. */
function keepClear(felt) {
  const ring = felt.querySelector(".seat-ring");
  const center = felt.querySelector(".felt-center");
  const info = center.querySelector(".hand-info");
  const boxes = (root, selector) => [...root.querySelectorAll(selector)].map((node) => node.getBoundingClientRect());
  const seats = boxes(ring, SEAT_PARTS);
  if (info) {
    info.classList.remove("hand-info-low");
    if (seats.some((box) => overlaps(box, info.getBoundingClientRect()))) info.classList.add("hand-info-low");
  }
  const button = ring.querySelector(".dealer-button");
  if (!button || !ring.offsetWidth) return;
  const obstacles = seats.concat(boxes(center, ".board .pc, .board-run-label, .pots, .hand-info, .bomb-pot-tag, .run-twice-note, .results"));
  const angle = Number(button.dataset.angle);
  const [w, h] = [ring.offsetWidth, ring.offsetHeight];
  // From the seat towards the centre, in pixels of the ring; `side` is across that line.
  const seatX = (w / 2) * Math.cos(angle);
  const seatY = (h / 2) * Math.sin(angle);
  const length = Math.hypot(seatX, seatY) || 1;
  const start = [button.style.left, button.style.top];
  for (const reach of [0.8, 0.72, 0.64, 0.56, 0.48, 0.4, 0.32, 0.24]) {
    for (const side of [0, 16, -16, 32, -32, 48, -48]) {
      const x = w / 2 + seatX * reach - (seatY / length) * side;
      const y = h / 2 + seatY * reach + (seatX / length) * side;
      button.style.left = ((100 * x) / w).toFixed(2) + "%";
      button.style.top = ((100 * y) / h).toFixed(2) + "%";
      const box = button.getBoundingClientRect();
      if (!obstacles.some((other) => overlaps(box, other, 2))) return;
    }
  }
  [button.style.left, button.style.top] = start;
}
