"""The hand replayer's steps: a finished hand as the table showed it, one point at a time.

``hand_replay_steps(hand, user)`` rebuilds the hand after the deal and after each move with
the engine's own replay (``Hand.copy`` then ``Hand.catch_up`` over the stored records), so
every record the rules derive from a move (the hands turned up for an all-in, the streets
of a run-out, the awards) comes with that move exactly as it did at the table. Nothing here
acts a move on its own reading of a record; the engine decides where one move ends.

Each step's ``view`` is what the live table's snapshot holds (docs/protocol.md: ``table``,
``seats``, ``hand``, ``you``), so static/tables/felt.js draws a step as it draws the table.
A street gets a step of its own ("Flop: Ah 7c 2d"), dealt after the move that closed the
round, and an all-in run-out is shown street by street with the equity, as the table dealt
it. What a viewer sees is the engine's ``view(seat)``: their own cards and the hands shown;
never another player's unshown, mucked or folded cards, the burns or the deck. Cards a
player showed after the hand (``CardsShown``) come last, a step each, face up on the felt.

Only a finished hand is replayed: the records of a hand still in play may already hold a
run-out the table has not dealt yet.
"""

from __future__ import annotations

from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from tables.engine.cards import card_str
from tables.engine.errors import RuleError
from tables.engine.records import (
    AllInDeclared,
    Bet,
    BoardDealt,
    Called,
    CardsShown,
    Checked,
    Folded,
    HandStarted,
    Mucked,
    PotAwarded,
    Raised,
    Record,
    RunTwiceVoted,
    Shown,
    record_from_json,
    record_to_json,
)
from tables.engine.state import Hand as EngineHand
from tables.i18n import hand_shape, hand_summary_words, shape_words
from tables.models import Hand, HandPlayer
from tables.runtime.snapshots import runout_equities

# The records a move (a player's, or the table's for a player) starts with. Every other
# record is derived by the engine from the move before it. A Shown is either: a move at the
# showdown, or derived when an all-in turns every hand up; so the engine, not this list, says
# where a move's records end.
MOVES = (
    Folded,
    Checked,
    Called,
    Bet,
    Raised,
    Shown,
    Mucked,
    AllInDeclared,
    CardsShown,
    RunTwiceVoted,
)


class HandInPlay(Exception):
    """The hand is not over: a replay now could show a board the table has not dealt."""

    def __init__(self, hand: Hand) -> None:
        super().__init__(_("Hand #%(number)s is still being played.") % {"number": hand.number})


def _deal_text(hand: EngineHand) -> str:
    """The first step of a replay: what was posted before the cards."""
    if hand.bomb_pot:
        return _("Bomb pot: antes posted, cards dealt")
    if hand.straddle is not None:
        return _("Blinds and a straddle posted, cards dealt")
    return _("Blinds posted, cards dealt")


def hand_replay_steps(hand: Hand, user: Any) -> dict[str, Any]:
    """The replayer's steps of a finished ``hand`` as ``user`` (None: a spectator) saw it.

    Returns ``{"hand", "table", "number", "seat", "names", "summary", "steps"}`` where
    ``seat`` is the viewer's seat in the hand (None if they were not dealt in), ``names``
    the players by seat, and each step is ``{"kind", "text", "move", "view"}``: ``kind`` is
    "deal", "move", "street" or "result", ``text`` says it in one line, ``move`` is the
    move's record as JSON (None but for a move), ``view`` the snapshot-shaped table.

    Raises ``HandInPlay`` for a hand that has not ended.
    """
    if not hand.is_complete:
        raise HandInPlay(hand)
    # By seat: without an order the rows come as the query plan finds them, and the page
    # (its players' names in seat order) changed with it, after a restore for one.
    players = list(HandPlayer.objects.filter(hand=hand).select_related("user").order_by("seat"))
    names = {p.seat: p.user.first_name or p.user.get_username() for p in players}
    ids = {p.seat: p.user_id for p in players}
    seat = next((p.seat for p in players if _is(user, p.user_id)), None)
    records = [record_from_json(r) for r in hand.records]
    started = records[0]
    if not isinstance(started, HandStarted):
        raise RuleError("a hand's records start with HandStarted", code="records_start")
    painter = _Painter(hand, started, records, names, ids, seat)

    # As the hand began: its start options (a dead small blind, a straddle, a bomb pot) too.
    engine = EngineHand.from_started(started)
    k = len(engine.records)
    if tuple(records[:k]) != engine.records:
        raise RuleError("the stored deal does not follow the rules", code="deal_breaks_rules")
    steps = painter.batch(None, engine, records[:k])
    while k < len(records):
        before = engine
        engine, end = _next_point(engine, records, k)
        steps += painter.batch(before, engine, records[k:end])
        k = end
    return {
        "hand": hand.pk,
        "table": hand.table_id,
        "number": hand.number,
        "seat": seat,
        "names": names,
        "summary": hand_summary_words(hand),
        "steps": steps,
    }


def _is(user: Any, user_id: int) -> bool:
    return bool(user is not None and getattr(user, "is_authenticated", False)) and (
        user.pk == user_id
    )


def _next_point(engine: EngineHand, records: list[Record], k: int) -> tuple[EngineHand, int]:
    """The hand after the move at ``records[k]`` and every record the rules derive from it.

    The move's records end where the next move begins, but a Shown is not always a move (an
    all-in turns every hand up by rule): try each possible end in turn, on a copy, until the
    engine accepts the records up to it as exactly what that move produces.
    """
    candidates = [j for j in range(k + 1, len(records)) if isinstance(records[j], MOVES)]
    for end in [*candidates, len(records)]:
        twin = engine.copy()
        try:
            twin.catch_up(records[k:end])
        except RuleError:
            if end == len(records):
                raise
            continue
        return twin, end
    raise RuleError(  # pragma: no cover
        f"record {k} does not follow the rules", code="record_breaks_rules", params={"k": k}
    )


class _Painter:
    """Turns each point of the hand into steps drawn like the live table's snapshot."""

    def __init__(
        self,
        hand: Hand,
        started: HandStarted,
        records: list[Record],
        names: dict[int, str],
        ids: dict[int, int],
        seat: int | None,
    ) -> None:
        self.hand = hand
        self.records = records
        self.names = names
        self.ids = ids
        self.seat = seat
        self.start_stacks = {s.seat: s.stack for s in started.seats}
        table = hand.table
        config = started.config
        # The stakes of this hand (a tournament's level may have changed since).
        self.table = {
            "id": table.pk,
            "name": table.name,
            "game": str(config.game),
            "structure": str(config.structure),
            "label": table.label,
            "small_blind": config.small_blind,
            "big_blind": config.big_blind,
            "big_bet": config.big_bet,
            "ante": config.ante,
            "seat_count": max([table.seat_count, *self.start_stacks]),
            "min_buy_in": table.min_buy_in,
            "max_buy_in": table.max_buy_in,
            "all_in_on_disconnect": config.all_in_on_timeout,
            "next_hand_at": None,
        }
        self.you = {"seat": seat, "legal": None, "owes": None, "muck_losing": None}
        self.shares: dict[int, tuple[Any, Any]] = {}

    # ------------------------------------------------------------------ steps

    def batch(
        self, before: EngineHand | None, after: EngineHand, batch: list[Record]
    ) -> list[dict[str, Any]]:
        """The steps of one point: the deal or a move, the streets it dealt, the awards."""
        move = batch[0] if before is not None else None
        if isinstance(move, CardsShown):
            # Cards shown after the hand: the finished hand, those cards now face up.
            return [
                {
                    "kind": "move",
                    "text": self.move_text(move),
                    "move": record_to_json(move),
                    "view": self.view(after, equity_at=after.runout_from),
                }
            ]
        derived = batch[1:] if move is not None else batch
        board_before = len(before.board) if before is not None else 0
        street_before = str(before.street) if before is not None else "preflop"
        text = self.move_text(move) if move is not None else _deal_text(after)
        first = {
            "kind": "move" if move is not None else "deal",
            "text": text,
            "move": record_to_json(move) if move is not None else None,
        }
        # A board run twice deals its second run beside the first, street by street.
        dealt = [r for r in derived if isinstance(r, BoardDealt) and r.run == 1]
        runout = after.runout_from
        # The hands are turned up with the move, or were before the players' answers on
        # running it twice, of which the last (or a no) runs the board out.
        turned_up = runout is not None and (
            any(isinstance(r, Shown) for r in derived) or isinstance(move, RunTwiceVoted)
        )
        steps: list[dict[str, Any]] = []
        if turned_up:
            # An all-in: every hand turned up, then the board run out street by street with
            # the chips in the middle until the river, as the table dealt it.
            assert runout is not None
            steps.append({**first, "view": self.runout(after, runout)})
            shown = board_before
            for r in dealt:
                shown += len(r.cards)
                view = (
                    self.runout(after, shown)
                    if shown >= runout
                    else self.before(after, shown, r.street)
                )
                steps.append(self.street_step(r, after, view))
        elif dealt or after.is_complete:
            # The move closed a round: it shows with the board as it was, the new street
            # (or the awards) in the step after.
            steps.append({**first, "view": self.before(after, board_before, street_before)})
            shown = board_before
            for r in dealt:
                shown += len(r.cards)
                view = (
                    self.view(after)
                    if shown == len(after.board) and not after.is_complete
                    else self.before(after, shown, r.street)
                )
                steps.append(self.street_step(r, after, view))
        else:
            # While the players answer on running it twice, the equity of the turn-up.
            voting = after.run_twice_vote is not None
            steps.append({**first, "view": self.view(after, len(after.board) if voting else None)})
        if after.is_complete:
            steps.append(
                {
                    "kind": "result",
                    "text": self.result_text(after),
                    "move": None,
                    "view": self.view(after, equity_at=runout),
                }
            )
        return steps

    def street_step(self, r: BoardDealt, after: EngineHand, view: dict[str, Any]) -> dict[str, Any]:
        shown = len(view["hand"]["board"])
        board = " ".join(card_str(c) for c in after.board[:shown])
        if len(after.boards) == 2:
            second = " ".join(card_str(c) for c in after.boards[1][:shown])
            board = _("Run 1: %(first)s · Run 2: %(second)s") % {"first": board, "second": second}
        labels = {"flop": _("Flop: %(board)s"), "turn": _("Turn: %(board)s")}
        label = labels.get(r.street, _("River: %(board)s"))
        return {"kind": "street", "text": label % {"board": board}, "move": None, "view": view}

    # ------------------------------------------------------------------ words

    def name(self, seat: int) -> str:
        return self.names.get(seat) or _("seat %(seat)s") % {"seat": seat}

    def move_text(self, r: Record) -> str:
        who = {"name": self.name(getattr(r, "seat", 0))}
        if isinstance(r, Folded):
            return _("%(name)s folds") % who
        if isinstance(r, Checked):
            return _("%(name)s checks") % who
        if isinstance(r, Called):
            text = _("%(name)s calls %(amount)s") % {**who, "amount": _chips(r.amount)}
        elif isinstance(r, Bet):
            text = _("%(name)s bets %(amount)s") % {**who, "amount": _chips(r.to)}
        elif isinstance(r, Raised):
            text = _("%(name)s raises to %(amount)s") % {**who, "amount": _chips(r.to)}
        elif isinstance(r, Shown):
            cards = " ".join(card_str(c) for c in r.cards)
            return _("%(name)s shows %(cards)s") % {**who, "cards": cards}
        elif isinstance(r, Mucked):
            return _("%(name)s mucks") % who
        elif isinstance(r, CardsShown):
            cards = " ".join(card_str(c) for c in r.cards)
            return _("%(name)s shows %(cards)s after the hand") % {**who, "cards": cards}
        elif isinstance(r, RunTwiceVoted):
            # The house option: the players still in answer whether to run it twice.
            if r.agree:
                return _("%(name)s agrees to run it twice") % who
            if r.silent:
                return _("%(name)s does not answer: the board is run once") % who
            return _("%(name)s says no: the board is run once") % who
        elif isinstance(r, AllInDeclared):
            # The house option: a player who timed out while disconnected plays on for what
            # is in the pot.
            return _("%(name)s timed out and is all-in") % who
        else:
            raise RuleError(
                f"{type(r).__name__} is not a move",
                code="not_a_move",
                params={"record": type(r).__name__},
            )
        if r.all_in:
            text = _("%(move)s and is all-in") % {"move": text}
        return text

    def result_text(self, after: EngineHand) -> str:
        won: dict[tuple[int, str, int], int] = {}
        what: dict[tuple[int, str, int], str] = {}
        for r in after.records:
            if isinstance(r, PotAwarded):
                key = (r.seat, str(r.half), r.run)
                won[key] = won.get(key, 0) + r.amount
                what[key] = r.hand
        twice = len(after.boards) == 2
        halves = {"high": _("high"), "low": _("low")}
        lines = []
        # A hand run twice: the first run's winners, then the second's.
        for (seat, half, run), amount in sorted(won.items(), key=lambda item: item[0][2]):
            words = {"name": self.name(seat), "amount": _chips(amount)}
            if half in halves:
                words["half"] = halves[half]
                line = _("%(name)s wins %(amount)s (%(half)s)") % words
            else:
                line = _("%(name)s wins %(amount)s") % words
            if what[(seat, half, run)]:
                hand = shape_words(hand_shape(what[(seat, half, run)])) or what[(seat, half, run)]
                line = _("%(award)s with %(hand)s") % {"award": line, "hand": hand}
            if twice:
                line = _("Run %(run)s: %(award)s") % {"run": run, "award": line}
            lines.append(line)
        return "; ".join(lines)

    # ------------------------------------------------------------------ pictures

    def view(self, engine: EngineHand, equity_at: int | None = None) -> dict[str, Any]:
        """The engine's own view of this point, as a snapshot."""
        return self.snapshot(engine.view(self.seat), equity_at)

    def runout(self, engine: EngineHand, board_cards: int) -> dict[str, Any]:
        """The table during an all-in run-out with ``board_cards`` of the board out."""
        return self.snapshot(engine.runout_view(self.seat, board_cards), board_cards)

    def before(self, engine: EngineHand, board_cards: int, street: str) -> dict[str, Any]:
        """This point with only ``board_cards`` of the board out and no award made yet.

        For the move that closed a round: its step shows the board as it was, and the hand
        not yet settled (each stack what it started with less what it put in), the way the
        engine's ``runout_view`` shows a run-out.
        """
        view = engine.view(self.seat)
        view["board"] = view["board"][:board_cards]
        view["street"] = street
        view["to_act"] = None
        view["awards"] = []
        view["complete"] = False
        for entry in view["seats"]:
            entry["stack"] = self.start_stacks[entry["seat"]] - entry["put_in"]
            if entry["status"] == "active" and entry["stack"] == 0:
                entry["status"] = "all-in"
        return self.snapshot(view, None)

    def snapshot(self, view: dict[str, Any], equity_at: int | None) -> dict[str, Any]:
        """An engine view in the shape of the snapshot's ``table``, ``seats``, ``hand``, ``you``.

        A seat's ``cards`` is None unless the viewer may see them (theirs, or shown).
        """
        dealt = {entry["seat"]: entry for entry in view["seats"]}
        equity, pot_equity = self.equity(equity_at)
        seats: list[dict[str, Any]] = []
        for number in range(1, self.table["seat_count"] + 1):
            entry = dealt.get(number)
            if entry is None:
                seats.append({"seat": number, "player": None, "state": "empty", "cards": None})
                continue
            status = entry["status"]
            seats.append(
                {
                    "seat": number,
                    "player": {"id": self.ids.get(number), "name": self.name(number)},
                    "stack": entry["stack"],
                    "state": "playing",
                    "bet": entry["bet"],
                    "folded": status == "folded",
                    "all_in": status == "all-in",
                    "card_count": 4 if status in ("active", "all-in") else 0,
                    "cards": entry["cards"],
                    "shown_after": entry["shown_after"],
                }
            )
        complete = bool(view["complete"])
        awards = view["awards"] if complete else []
        hand = {
            "id": self.hand.pk,
            "number": self.hand.number,
            "button": view["button"],
            "straddle": view["straddle"],
            "bomb_pot": view["bomb_pot"],
            "street": view["street"],
            "board": view["board"],
            "boards": view["boards"],
            "run_twice": view["run_twice"],
            "pots": view["pots"],
            "to_act": view["to_act"],
            "deadline": None,
            "countdown_from": None,
            "commitment": self.hand.commitment,
            "equity": equity,
            "pot_equity": pot_equity,
            "results": [
                {**a, "name": self.name(a["seat"]), "hand": hand_shape(a["hand"])} for a in awards
            ]
            if complete
            else None,
            "reveal": None,
            "complete": complete,
        }
        return {"table": self.table, "seats": seats, "hand": hand, "you": self.you}

    def equity(self, board_cards: int | None) -> tuple[Any, Any]:
        """The snapshot's ``equity`` and ``pot_equity`` with ``board_cards`` out, as the live
        table showed them (the same seeded estimate before the flop, so the numbers match)."""
        if board_cards is None:
            return None, None
        if board_cards not in self.shares:
            # Asked twice per run-out (as turned up, and on the finished hand): work it once.
            self.shares[board_cards] = runout_equities(self.records, board_cards)
        return self.shares[board_cards]


def _chips(amount: int) -> str:
    return number_format(amount, force_grouping=True)
