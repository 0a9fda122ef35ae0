"""The tables' words in the reader's language: a socket's language, the engine's refusals.

The engine (``tables.engine``) speaks English and knows nothing of Django; its ``RuleError``
carries a stable ``code`` and its numbers in ``params``. Where a refusal reaches a person,
it is worded here by its code, in the language of the socket or page that reads it.

A socket has no request, so no ``LocaleMiddleware``: ``language_from_scope`` reads its
language from the handshake as the middleware would from a request (the language cookie,
then Accept-Language, then the site's language).
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy, pgettext_lazy

from tables.engine.cards import RANKS
from tables.engine.errors import RuleError
from tables.engine.evaluator import describe_high, describe_low
from tables.engine.records import PotAwarded


def _headers(scope: Mapping[str, Any]) -> dict[str, str]:
    found: dict[str, str] = {}
    for name, value in scope.get("headers") or ():
        key = name.decode("latin-1").lower() if isinstance(name, bytes) else str(name).lower()
        text = value.decode("latin-1") if isinstance(value, bytes) else str(value)
        # Several Cookie headers are one list of cookies (RFC 6265 allows a browser one).
        found[key] = f"{found[key]}; {text}" if key in found and key == "cookie" else text
    return found


def _cookie(header: str, name: str) -> str | None:
    for part in header.split(";"):
        key, sep, value = part.strip().partition("=")
        if sep and key == name:
            return value.strip().strip('"')
    return None


def _accepted(header: str) -> list[str]:
    """The languages of an Accept-Language header, the most wanted first ("*" left out)."""
    weighted = []
    for position, part in enumerate(header.split(",")):
        tag, _sep, rest = part.strip().partition(";")
        tag = tag.strip()
        if not tag or tag == "*":
            continue
        quality = 1.0
        rest = rest.strip()
        if rest.startswith("q="):
            try:
                quality = float(rest[2:])
            except ValueError:
                continue
        if quality > 0:
            weighted.append((-quality, position, tag))
    return [tag for _q, _p, tag in sorted(weighted)]


def _supported(code: str) -> str | None:
    try:
        return translation.get_supported_language_variant(code.lower())
    except LookupError:
        return None


def language_from_scope(scope: Mapping[str, Any]) -> str:
    """The language to speak on a socket: its ``django_language`` cookie (the site's switch
    and the player's saved choice set it), else its Accept-Language, else the site's.

    >>> language_from_scope({"headers": [(b"accept-language", b"fr-CA,fr;q=0.9,en;q=0.5")]})
    'fr'
    """
    headers = _headers(scope)
    chosen = _cookie(headers.get("cookie", ""), settings.LANGUAGE_COOKIE_NAME)
    if chosen:
        found = _supported(chosen)
        if found:
            return found
    for tag in _accepted(headers.get("accept-language", "")):
        found = _supported(tag)
        if found:
            return found
    return _supported(settings.LANGUAGE_CODE) or settings.LANGUAGE_CODE


def render(message: str | Promise, params: Mapping[str, Any] | None = None) -> str:
    """``message`` in the active language, its named placeholders filled from ``params``
    (lazy values, such as an action's name, are worded in the active language too)."""
    if not params:
        return str(message)
    words = {
        key: str(value) if isinstance(value, Promise) else value for key, value in params.items()
    }
    # ``%`` on the lazy message itself: a plural (``ngettext_lazy`` with a named number)
    # picks its form from the parameters.
    return str(message % words)


# A move's name inside a sentence ("at the showdown a player shows or mucks; fold is not
# possible"): the engine's Action values.
ACTION_NAMES: dict[str, Promise] = {
    "fold": pgettext_lazy("poker action", "fold"),
    "check": pgettext_lazy("poker action", "check"),
    "call": pgettext_lazy("poker action", "call"),
    "bet": pgettext_lazy("poker action", "bet"),
    "raise": pgettext_lazy("poker action", "raise"),
    "show": pgettext_lazy("poker action", "show"),
    "muck": pgettext_lazy("poker action", "muck"),
}

# Every code the engine gives a RuleError, worded for a person (tests/tables/
# test_i18n_tables.py checks the engine raises no other). Most only a developer or a
# malformed record meets, but any of them may reach a page, so none is left in English.
RULE_MESSAGES: dict[str, Promise] = {
    "rule": _("that move breaks a rule of the game"),
    # A move at the table (Hand.act, Hand.declare_all_in).
    "not_an_action": _("%(action)s is not an action"),
    "hand_over": _("the hand is over"),
    "seat_not_in_hand": _("seat %(seat)s is not in this hand"),
    "nobody_to_act": _("nobody is to act now"),
    "not_your_turn": _("it is seat %(actor)s's turn, not seat %(seat)s's"),
    "showdown_show_or_muck": _(
        "at the showdown a player shows or mucks; %(action)s is not possible"
    ),
    "no_showdown_yet": _("there is no showdown yet; %(action)s is not possible"),
    "check_facing_bet": _("cannot check facing a bet of %(bet)s; call %(call)s or fold"),
    "nothing_to_call": _("there is no bet to call; check instead"),
    "call_amount": _("a call is to %(to)s, not %(amount)s"),
    "bet_needs_amount": _("say how much to bet to"),
    "raise_needs_amount": _("say how much to raise to"),
    "not_a_number_of_chips": _("%(amount)s is not a number of chips"),
    "bet_facing_bet": _("there is already a bet of %(bet)s; raise instead"),
    "nothing_to_raise": _("there is no bet to raise; bet instead"),
    "cannot_cover_bet": _("a player who cannot cover the bet can only call"),
    "cap_single_bet": _("a single bet is the cap in this round"),
    "cap_reached": ngettext_lazy(
        "a bet and %(raises)s raise is the cap in this round",
        "a bet and %(raises)s raises is the cap in this round",
        "raises",
    ),
    "raise_own_bet": _("nobody may raise their own bet"),
    "nobody_to_call_raise": _("nobody is left with chips to call a raise"),
    "limit_short_all_in_not_reopened": _(
        "an all-in for less than half a bet does not reopen the betting for a player who "
        "has already acted"
    ),
    "short_all_in_not_reopened": _(
        "an all-in short of a full raise does not reopen the betting for a player who has "
        "already acted"
    ),
    "bet_above_stack": _("bet to %(amount)s is more than the %(total)s in front of seat %(seat)s"),
    "raise_above_stack": _(
        "raise to %(amount)s is more than the %(total)s in front of seat %(seat)s"
    ),
    "bet_below_minimum": _("bet to %(amount)s is below the minimum %(minimum)s"),
    "raise_below_minimum": _("raise to %(amount)s is below the minimum %(minimum)s"),
    "limit_bet_exact": _("in limit a bet is exactly one more bet: to %(to)s"),
    "limit_raise_exact": _("in limit a raise is exactly one more bet: to %(to)s"),
    "bet_above_maximum": _("bet to %(amount)s is above the maximum %(maximum)s"),
    "raise_above_maximum": _("raise to %(amount)s is above the maximum %(maximum)s"),
    "bet_not_chip_unit": _("bet to %(amount)s is not a multiple of the chip unit %(unit)s"),
    "raise_not_chip_unit": _("raise to %(amount)s is not a multiple of the chip unit %(unit)s"),
    "no_all_in_on_timeout": _("this table does not treat a timed-out player as all-in"),
    "betting_over": _("the betting is over"),
    "seat_folded": _("seat %(seat)s has folded"),
    "seat_all_in": _("seat %(seat)s is already all-in"),
    "nothing_in_pot": _("seat %(seat)s has no chips in the pot; fold instead"),
    # Running the board twice (Hand.vote_run_twice).
    "run_twice_vote_open": _(
        "the players still in are answering whether to run it twice; nobody acts meanwhile"
    ),
    "no_run_twice_vote": _("no vote on running it twice is open"),
    "not_asked_run_twice": _("seat %(seat)s is not still in the hand, so it is not asked"),
    "run_twice_answered": _("seat %(seat)s has already agreed to run it twice"),
    "silence_is_no": _("silence is no: a silent answer cannot agree"),
    # Showing cards after the hand (Hand.show).
    "show_before_hand_over": _("cards are shown once the hand is over, and this hand is not"),
    "show_no_cards": _("say which cards to show"),
    "show_card_twice": _("%(card)s is named twice"),
    "show_card_not_held": _("seat %(seat)s does not hold %(card)s"),
    "show_card_already_shown": _("seat %(seat)s has already shown %(card)s"),
    # A move chosen before the turn (tables.engine.preactions).
    "pre_action_unknown": _("%(kind)s is not a pre-action"),
    "pre_action_facing_bet": _("there is a bet of %(call)s to call: choose fold, call or call any"),
    "pre_action_no_bet": _("there is no bet to call: choose check/fold, check or call any"),
    "pre_action_call_needs_amount": _("say the amount of the call"),
    "pre_action_call_amount": _("the call is %(call)s now, not %(amount)s"),
    # Dealing a hand (Hand.start) and seating.
    "bad_deck": _("the deck must be 52 distinct cards"),
    "too_few_players": _("a hand needs at least two players"),
    "too_many_players": _("a hand has at most %(maximum)s players"),
    "seat_dealt_twice": _("each seat may be dealt in only once"),
    "no_chips": _("seat %(seat)s has no chips to play"),
    "negative_blind": _("seat %(seat)s cannot post a negative blind"),
    "bad_button": _("the button must be a seat number, not %(button)s"),
    "heads_up_dead_small_blind": _("heads-up the button posts the small blind: it cannot be dead"),
    "bad_seat_number": _("a seat number is a positive whole number, not %(seat)s"),
    "seat_twice": _("seat %(seat)s is described twice"),
    "dead_button_needs_small_blind": _("a dead button needs the last hand's small blind seat"),
    # A straddle or a bomb pot (Hand.start; docs/rules.md, Home-game options).
    "no_straddle": _("this table plays no straddle"),
    "straddle_heads_up": _("there is no straddle heads-up"),
    "straddle_dead_small_blind": _("there is no straddle when the small blind is dead"),
    "straddle_no_button": _("nobody is on the button to straddle"),
    "straddle_position": _("only seat %(position)s may straddle this hand, not seat %(seat)s"),
    "straddle_posting": _("seat %(seat)s posts a blind to come in and cannot straddle"),
    "straddle_short": _(
        "a straddle is twice the big blind, %(straddle)s; seat %(seat)s has %(stack)s"
    ),
    "no_bomb_pots": _("this table plays no bomb pots"),
    "bomb_pot_straddle": _("a bomb pot has no betting before the flop, so no straddle"),
    "bomb_pot_blinds": _("a bomb pot has no blinds: every player posts the ante and nothing else"),
    "bomb_pot_no_preflop_betting": _("a bomb pot has no betting before the flop"),
    # A table's stakes (Config).
    "chip_unit": _("chip unit %(unit)s must be at least 1"),
    "big_blind_chip_unit": _(
        "big blind %(big_blind)s must be a positive multiple of the chip unit %(unit)s"
    ),
    "small_blind_range": _(
        "small blind %(small_blind)s must be between 0 and the big blind %(big_blind)s"
    ),
    "negative_ante": _("ante %(ante)s cannot be negative"),
    "big_bet_below_small_bet": _("big bet %(big_bet)s is below the small bet %(small_bet)s"),
    "raise_cap": _("raise cap %(cap)s must allow at least the opening bet"),
    "straddle_in_limit": _("a straddle is played in pot-limit and no-limit only"),
    "bomb_pot_ante": _(
        "the bomb pot ante %(ante)s must be a whole number of chip units (%(unit)s)"
    ),
    # A table's time bank (TimeBank).
    "time_bank_not_seconds": _("the time bank is set in whole seconds"),
    "time_bank_negative": _("time bank setting %(value)s cannot be negative"),
    "time_bank_too_big": _("a time bank holds at most %(maximum)s s, not %(cap)s s"),
    "time_bank_needs_cap": _("a time bank needs a cap above 0 (a cap of 0 is no time bank)"),
    "time_bank_above_cap": _("a time bank of %(value)s s is above its cap of %(cap)s s"),
    # Cards, hands and equity.
    "not_a_card": _("%(card)s is not a card"),
    "not_cards": _("%(cards)s is not a list of two-character cards"),
    "hole_cards": _("an Omaha hand has four hole cards, not %(count)s"),
    "showdown_board": _("a board has 3 to 5 cards at a showdown, not %(count)s"),
    "not_a_low": _("%(value)s is not a low value: five different ranks ace to eight"),
    "equity_hands": _("equity is for 2 to 9 hands, not %(count)s"),
    "equity_board": _("a board has 0, 3, 4 or 5 cards, not %(count)s"),
    "card_twice": _("each card is dealt once: %(cards)s appears twice"),
    "deck_short": _("not enough cards left in the deck to finish the board"),
    "equity_samples": _("samples must be at least 1, not %(samples)s"),
    "equity_pot": _("each pot is won by some of the hands, each named once"),
    "no_runout": _("this hand has no run-out with %(board_cards)s board cards"),
    # A hand's stored records, and hand histories (PHH).
    "records_start": _("a hand's records start with HandStarted"),
    "record_breaks_rules": _("record %(k)s does not follow the rules"),
    "deal_breaks_rules": _("the stored deal does not follow the rules"),
    "records_restart": _("a hand's later records cannot start another hand"),
    "record_not_a_move": _("record %(k)s is not a move the hand expects"),
    "not_a_move": _("%(record)s is not a move"),
    "unknown_record": _("unknown record kind %(kind)s"),
    "malformed_record": _("malformed %(kind)s record"),
    "phh_bet_not_above": _("a bet or raise must go above the current bet"),
    "all_in_hands_shown": _(
        "when no more betting can follow an all-in, every hand is turned up before the board "
        "is run out; a hand cannot be mucked"
    ),
}


def rule_message(exc: RuleError) -> tuple[Promise, dict[str, Any]]:
    """The engine's refusal as a lazy message and its parameters, for ``render``.

    A move's name among the parameters is worded too (``ACTION_NAMES``).
    """
    message = RULE_MESSAGES.get(exc.code, RULE_MESSAGES["rule"])
    params = dict(exc.params)
    action = params.get("action")
    if isinstance(action, str) and action in ACTION_NAMES:
        params["action"] = ACTION_NAMES[action]
    return message, params


# ---------------------------------------------------------------------- hands in words
# The engine names a winning hand in English ("Flush, ace high", "8-6-4-3-2") in its
# PotAwarded record, which is stored as it is. Pages and snapshots carry its shape instead
# (a code and ranks, as the hand helper does: tables.runtime.snapshots.HIGH_CODES) and word it in the
# reader's language: here for pages, in static/tables/felt.js for the live felt.

# A high by `high_category` (HIGH_CARD .. STRAIGHT_FLUSH): the hand helper and the awards
# name it by this code and the page words it (static/tables/felt.js).
HIGH_CODES = (
    "high-card",
    "one-pair",
    "two-pair",
    "three-of-a-kind",
    "straight",
    "flush",
    "full-house",
    "four-of-a-kind",
    "straight-flush",
)
_SHAPES: dict[str, dict[str, Any]] = {}


def _shapes() -> dict[str, dict[str, Any]]:
    """Every description the engine gives, back to its shape: made once, from the engine's
    own ``describe_high`` and ``describe_low`` (so the two can never disagree)."""
    if _SHAPES:
        return _SHAPES
    found: dict[str, dict[str, Any]] = {}
    # A description names at most the ranks at positions 0, 2 and 3 of the value.
    for category in range(len(HIGH_CODES)):
        for first in range(13):
            for third in range(13):
                for fourth in range(13):
                    ranks = (first, first, third, fourth, fourth)
                    value = category << 20
                    for position, rank in enumerate(ranks):
                        value |= rank << (16 - 4 * position)
                    text = describe_high(value)
                    found.setdefault(
                        text,
                        {
                            "high": {
                                "code": HIGH_CODES[category],
                                "ranks": [RANKS[r] for r in ranks],
                            }
                        },
                    )
    for low in combinations(range(8), 5):
        # A low value is 255 less the bits of its five ranks (ace is bit 0).
        value = 255 - sum(1 << bit for bit in low)
        text = describe_low(value)
        found[text] = {"low": text.split("-")}
    _SHAPES.update(found)
    return _SHAPES


def hand_shape(text: str) -> dict[str, Any] | None:
    """The shape of a hand the engine described, or None (nobody had to show).

    A high is its code and five ranks of which only those its words name count: the first
    (the top card, the pair, the set), the third (two pair's second pair) and the fourth (a
    full house's pair), as the hand helper's ranks are read (felt.js ``helperText``).

    >>> hand_shape("Flush, ace high")
    {'high': {'code': 'flush', 'ranks': ['A', 'A', '2', '2', '2']}}
    >>> hand_shape("8-6-4-3-A")
    {'low': ['8', '6', '4', '3', 'A']}
    """
    if not text:
        return None
    return _shapes().get(text)


_RANK_ONE: dict[str, Promise] = {
    "2": _("deuce"),
    "3": _("three"),
    "4": _("four"),
    "5": _("five"),
    "6": _("six"),
    "7": _("seven"),
    "8": _("eight"),
    "9": _("nine"),
    "T": _("ten"),
    "J": _("jack"),
    "Q": _("queen"),
    "K": _("king"),
    "A": _("ace"),
}
_RANK_MANY: dict[str, Promise] = {
    "2": _("deuces"),
    "3": _("threes"),
    "4": _("fours"),
    "5": _("fives"),
    "6": _("sixes"),
    "7": _("sevens"),
    "8": _("eights"),
    "9": _("nines"),
    "T": _("tens"),
    "J": _("jacks"),
    "Q": _("queens"),
    "K": _("kings"),
    "A": _("aces"),
}
# The sentence of each high and which of its five ranks fill it (as felt.js's HIGHS).
_HIGHS: dict[str, tuple[Promise, int, int | None]] = {
    "high-card": (_("High card, %(one)s high"), 0, None),
    "one-pair": (_("One pair, %(many)s"), 0, None),
    "two-pair": (_("Two pair, %(many)s and %(other)s"), 0, 2),
    "three-of-a-kind": (_("Three of a kind, %(many)s"), 0, None),
    "straight": (_("Straight, %(one)s high"), 0, None),
    "flush": (_("Flush, %(one)s high"), 0, None),
    "full-house": (_("Full house, %(many)s full of %(other)s"), 0, 3),
    "four-of-a-kind": (_("Four of a kind, %(many)s"), 0, None),
    "straight-flush": (_("Straight flush, %(one)s high"), 0, None),
}


def shape_words(shape: Mapping[str, Any] | None) -> str:
    """A hand's shape in words, in the active language ("Flush, ace high", "Low 8-6-4-3-A")."""
    if not shape:
        return ""
    if "low" in shape:
        return _("Low %s") % "-".join(shape["low"])
    high = shape["high"]
    sentence, first, other = _HIGHS[high["code"]]
    top = high["ranks"][first]
    if high["code"] == "straight-flush" and top == "A":
        return str(_("Royal flush"))
    return str(
        sentence
        % {
            "one": str(_RANK_ONE[top]),
            "many": str(_RANK_MANY[top]),
            "other": "" if other is None else str(_RANK_MANY[high["ranks"][other]]),
        }
    )


def hand_awards(records: Any, names: Mapping[int, str]) -> list[dict[str, Any]]:
    """Who won what in a hand, as data to word later: one entry per seat and half,
    ``{"seat", "name", "amount", "half", "hand"}`` (``hand`` a shape or None). A hand run
    twice has one per seat, half and run, with ``"run"`` (1 or 2)."""

    awarded = [r for r in records if isinstance(r, PotAwarded)]
    twice = any(r.run == 2 for r in awarded)
    won: dict[tuple[int, str, int], dict[str, Any]] = {}
    for r in awarded:
        entry = won.setdefault(
            (r.seat, str(r.half), r.run),
            {
                "seat": r.seat,
                "name": names.get(r.seat),
                "amount": 0,
                "half": str(r.half),
                "hand": None,
                **({"run": r.run} if twice else {}),
            },
        )
        entry["amount"] += r.amount
        entry["hand"] = hand_shape(r.hand) or entry["hand"]
    return list(won.values())


def awards_words(awards: list[Mapping[str, Any]]) -> str:
    """Awards (``hand_awards``) as one line in the active language: "ann wins 24 with a
    flush; bob wins 12 (low) with Low 8-6-4-3-A", or "no award"."""

    halves = {"high": _("high"), "low": _("low")}
    lines = []
    for award in awards:
        words = {
            "name": award.get("name") or _("seat %s") % award["seat"],
            "amount": number_format(award["amount"], force_grouping=True),
        }
        half = award.get("half")
        if half in halves:
            line = _("%(name)s wins %(amount)s (%(half)s)") % {**words, "half": halves[half]}
        else:
            line = _("%(name)s wins %(amount)s") % words
        hand = shape_words(award.get("hand"))
        if hand:
            line = _("%(award)s with %(hand)s") % {"award": line, "hand": hand}
        if award.get("run"):
            # A hand run twice: each run's winners apart.
            line = _("Run %(run)s: %(award)s") % {"run": award["run"], "award": line}
        lines.append(str(line))
    return "; ".join(lines) or str(_("no award"))


def hand_summary_words(hand: Any) -> str:
    """Who won what in a finished hand, in the active language (a hand stored before its
    awards were kept: its English summary)."""
    if hand.awards:
        return awards_words(hand.awards)
    return str(hand.summary)
