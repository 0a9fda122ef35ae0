"""Deals offered on the players' screens at an online final table.

The director offers an ICM or chip-chop deal from the console (``deal_offer``); every player
still in sees it on their table and in the lobby and accepts or declines (``deal_answer``);
one decline ends it, and when all have accepted the tournament ends with those prizes
through ``results.deal_record``, the same as a deal recorded by hand (the live tables close
when the tournament finishes). The director may withdraw it (``deal_cancel``).

House bots answer as soon as the offer is open, by one stated rule (``bot_answer``): a bot
accepts when its share is at least its ICM value (within ``BOT_ICM_TOLERANCE``), so it takes
any ICM deal and a chip-chop only when the chop does not cost it; it declines otherwise. The
people have the director's ``answer_minutes`` (two by default): an offer still missing
answers then lapses (``deals_lapse_due``, run by the tournaments' sweep every few seconds)
and the tables play on.

A deal applies between hands. Offering it holds the tables (``online.online_pause``: the
hands in play are played out, no new one is dealt); while a hand is still in play the offer
is ``held`` with no amounts, because that hand still moves chips. ``deal_release`` works the
amounts out from the live seats' chips once no hand is in play and opens the offer for
answers; a task retries it every ``RELEASE_SECONDS`` after the offer (``tournaments.tasks``),
and it is idempotent. A declined or withdrawn offer resumes the tables it held.

Locking: every function takes the tournament row first (``select_for_update``, the lock of
every console action and of ``deal_record``), then the offer. Two answers arriving at once
are applied one after the other, so the last "accept" is seen by exactly one of them and
the deal is recorded once; a second tap of the same answer changes nothing.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from series.models import Player
from tables import services as tables
from tournaments import selectors
from tournaments.errors import TournamentError
from tournaments.models import (
    DealAnswer,
    DealAnswerChoice,
    DealEnd,
    DealOffer,
    DealState,
    Entry,
    EntryState,
    Tournament,
    TournamentState,
)
from tournaments.permissions import require_director
from tournaments.services import locks, online, results
from tournaments.signals import deal_held

IN_PLAY = (TournamentState.RUNNING, TournamentState.ON_BREAK)
# How often a held offer looks again whether the hands in play have ended.
RELEASE_SECONDS = 2.0
# The players' time to answer an open offer: the director's choice within these bounds.
ANSWER_MINUTES_DEFAULT = 2
ANSWER_MINUTES_MAX = 60
# A house bot accepts a share no more than this fraction below its ICM value.
BOT_ICM_TOLERANCE = 0.02


def _lock_offer(offer_id: Any) -> tuple[Tournament, DealOffer]:
    try:
        offer_id = int(offer_id)
    except (TypeError, ValueError):
        raise TournamentError(_("This deal does not exist.")) from None
    tournament_id = (
        DealOffer.objects.filter(pk=offer_id).values_list("tournament_id", flat=True).first()
    )
    if tournament_id is None:
        raise TournamentError(_("This deal does not exist."))
    tournament = locks.tournament_locked(tournament_id)
    # Read again under the tournament's lock: another answer may have settled it meanwhile.
    return tournament, DealOffer.objects.select_for_update().get(pk=offer_id)


def _playing(tournament: Tournament) -> list[Entry]:
    return list(
        Entry.objects.select_related("player")
        .filter(tournament=tournament, state=EntryState.PLAYING)
        .order_by("table_number", "seat_number", "pk")
    )


def offer_refusal(tournament: Tournament) -> str | None:
    """Why no deal can be offered on the players' screens now (None: it can)."""
    if not tournament.online:
        return _("Only an online tournament's players answer a deal on their screens.")
    if tournament.state == TournamentState.FINISHED:
        return _("This tournament is already finished.")
    if tournament.state not in IN_PLAY:
        return _("This tournament is not running.")
    if DealOffer.objects.filter(
        tournament=tournament, state__in=(DealState.HELD, DealState.OPEN)
    ).exists():
        return _("A deal is already offered: wait for the answers or withdraw it.")
    if selectors.players_left(tournament) < 2:
        return _("A deal needs two or more players still in.")
    return None


def deal_offer(
    tournament_id: int,
    method: str,
    *,
    by: Any,
    answer_minutes: int = ANSWER_MINUTES_DEFAULT,
) -> DealOffer:
    """Offer the players still in a deal (``method`` "icm" or "chip-chop"), to be answered
    within ``answer_minutes`` of its opening.

    Holds the tables and asks every player still in. With no hand in play the amounts are
    worked out now and the offer is open at once; otherwise it waits (``deal_release``).
    Refused, changing nothing, when the payouts or the chips cannot make a deal.
    """
    require_director(by)
    if method not in results.DEAL_METHODS:
        raise TournamentError(_("Choose ICM or chip-chop."))
    if not 1 <= answer_minutes <= ANSWER_MINUTES_MAX:
        raise TournamentError(
            _("Give the players 1 to %(max)s minutes to answer.") % {"max": ANSWER_MINUTES_MAX}
        )
    with transaction.atomic():
        tournament = locks.tournament_locked(tournament_id)
        refusal = offer_refusal(tournament)
        if refusal:
            raise TournamentError(refusal)
        # A tournament the director had paused stays paused when the offer ends.
        paused = not tournament.online_paused
        if paused:
            online.online_pause(tournament.pk, by=by)
        offer = DealOffer.objects.create(
            tournament=tournament,
            method=method,
            offered_by=by,
            paused_tables=paused,
            answer_minutes=answer_minutes,
        )
        _ask(offer, _playing(tournament))
        _open_if_ready(tournament, offer)
        if offer.state == DealState.HELD:
            offer_id = offer.pk
            transaction.on_commit(lambda: deal_held.send(sender=DealOffer, offer_id=offer_id))
    return offer


def _ask(offer: DealOffer, playing: list[Entry]) -> None:
    """One unanswered row per player still in (again, if the held hand changed who is in)."""
    offer.answers.all().delete()
    DealAnswer.objects.bulk_create(DealAnswer(offer=offer, entry=entry) for entry in playing)


def _open_if_ready(tournament: Tournament, offer: DealOffer) -> None:
    """Work the amounts out and open the offer, if no hand is in play any more."""
    if offer.state != DealState.HELD or selectors.hands_in_play(tournament):
        return
    playing = _playing(tournament)
    if len(playing) < 2:
        _settle(tournament, offer, DealState.CANCELLED, DealEnd.ONE_LEFT)
        return
    if {a.entry_id for a in offer.answers.all()} != {e.pk for e in playing}:
        _ask(offer, playing)
    live_chips = selectors.live_chips_of(tournament)
    stacks: dict[str, int] = {}
    for entry in playing:
        chips = live_chips.get((entry.table_number or 0, entry.seat_number or 0))
        if not chips:
            raise TournamentError(
                _("%(name)s has no chips on a live table; no deal can be worked out.")
                % {"name": entry.player.name}
            )
        stacks[str(entry.pk)] = chips
    proposal = results.deal_propose(tournament.pk, method=offer.method, stacks=stacks)
    offer.stacks = stacks
    offer.amounts = {str(line.entry_id): line.prize for line in proposal.lines}
    offer.state = DealState.OPEN
    offer.answer_by = timezone.now() + timedelta(minutes=offer.answer_minutes)
    offer.save(update_fields=["stacks", "amounts", "state", "answer_by"])
    _bots_answer(tournament, offer)


def bot_answer(offered: int, icm_value: int) -> str:
    """A house bot's answer to a deal: accept a share at least its ICM value (less
    ``BOT_ICM_TOLERANCE``, so the rounding of an ICM deal never makes it decline), decline
    a share below it.

    >>> bot_answer(100, 100), bot_answer(99, 100), bot_answer(97, 100)
    ('accept', 'accept', 'decline')
    """
    if offered >= icm_value * (1 - BOT_ICM_TOLERANCE):
        return DealAnswerChoice.ACCEPT.value
    return DealAnswerChoice.DECLINE.value


def _bots_answer(tournament: Tournament, offer: DealOffer) -> None:
    """The house bots among the players answer the open offer at once (``bot_answer``)."""
    bots = [
        answer
        for answer in offer.answers.select_related("entry__player__user")
        if not answer.answer
        and answer.entry.player.user is not None
        and tables.bot_style_of(answer.entry.player.user)
    ]
    if not bots:
        return
    if offer.method == "icm":
        icm_of = {int(k): v for k, v in offer.amounts.items()}
    else:
        icm = results.deal_propose(tournament.pk, method="icm", stacks=offer.stacks)
        icm_of = {line.entry_id: line.prize for line in icm.lines}
    # Accepting bots first: a decline ends the offer, and says who declined.
    bots.sort(key=lambda a: bot_answer(offer.amounts[str(a.entry_id)], icm_of[a.entry_id]))
    for answer in bots:
        choice = bot_answer(offer.amounts[str(answer.entry_id)], icm_of[answer.entry_id])
        _answer_apply(tournament, offer, answer, choice)
        if offer.state != DealState.OPEN:
            return


def _answer_apply(tournament: Tournament, offer: DealOffer, mine: DealAnswer, answer: str) -> None:
    """Record one player's answer to the open ``offer`` (both rows locked by the caller):
    a decline ends it, the last acceptance records the deal."""
    mine.answer = answer
    mine.answered_at = timezone.now()
    mine.save(update_fields=["answer", "answered_at"])
    name = mine.entry.player.name
    if answer == DealAnswerChoice.DECLINE:
        _settle(tournament, offer, DealState.DECLINED, DealEnd.DECLINED, name)
    elif not offer.answers.exclude(answer=DealAnswerChoice.ACCEPT).exists():
        results.deal_record(tournament.pk, offer.amounts, by=offer.offered_by, stacks=offer.stacks)
        _settle(tournament, offer, DealState.ACCEPTED, DealEnd.ACCEPTED)


def deals_lapse_due(now: datetime | None = None) -> int:
    """Let every open offer whose answering time has run out lapse: the players who did not
    answer are named, and the tables it held play on. Returns how many lapsed; safe to run
    any number of times, at once from several processes."""
    now = now or timezone.now()
    lapsed = 0
    due = DealOffer.objects.filter(state=DealState.OPEN, answer_by__lte=now)
    for offer_id in due.values_list("pk", flat=True):
        with transaction.atomic():
            tournament, offer = _lock_offer(offer_id)
            if offer.state != DealState.OPEN or offer.answer_by is None or offer.answer_by > now:
                continue  # answered, withdrawn or lapsed meanwhile
            silent = [
                a.entry.player.name
                for a in offer.answers.select_related("entry__player").order_by(
                    "entry__player__name"
                )
                if not a.answer
            ]
            _settle(tournament, offer, DealState.CANCELLED, DealEnd.LAPSED, ", ".join(silent))
            lapsed += 1
    return lapsed


def deal_release(offer_id: int) -> DealOffer:
    """Open a held offer once the hands in play have ended; otherwise change nothing.

    Safe to call any number of times (the task that waits for the hands calls it). If the
    chips can no longer make a deal, the offer is withdrawn and the tables resume.
    """
    with transaction.atomic():
        tournament, offer = _lock_offer(offer_id)
        if offer.state != DealState.HELD:
            return offer
        if tournament.state not in IN_PLAY:
            # The held hand may have left one player, and so ended the tournament.
            reason = (
                DealEnd.ONE_LEFT if selectors.players_left(tournament) < 2 else DealEnd.NOT_RUNNING
            )
            _settle(tournament, offer, DealState.CANCELLED, reason)
            return offer
        try:
            with transaction.atomic():
                _open_if_ready(tournament, offer)
        except TournamentError:
            offer.refresh_from_db()
            _settle(tournament, offer, DealState.CANCELLED, DealEnd.NO_DEAL)
    return offer


def _settle(
    tournament: Tournament, offer: DealOffer, state: str, reason: str, name: str = ""
) -> None:
    offer.state = state
    offer.settled_at = timezone.now()
    offer.settled_reason = reason
    offer.settled_name = name[: DealOffer._meta.get_field("settled_name").max_length or 100]
    offer.save(update_fields=["state", "settled_at", "settled_reason", "settled_name"])
    if state != DealState.ACCEPTED and offer.paused_tables and tournament.state in IN_PLAY:
        tournament.refresh_from_db(fields=["online_paused"])
        if tournament.online_paused:
            online.online_resume(tournament.pk, by=offer.offered_by)


def _player_of(user: Any) -> Player | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(user=user).first()


def deal_answer(offer_id: Any, user: Any, answer: str) -> DealOffer:
    """A player accepts or declines the deal offered to them.

    Refused (changing nothing) when the offer is not open, is settled, or ``user`` is not
    one of its players. The same answer twice changes nothing; an answer once given stands.
    The last acceptance records the deal and ends the tournament; a decline ends the offer
    and the tables resume.
    """
    if answer not in DealAnswerChoice.values:
        raise TournamentError(_("Answer the deal with accept or decline."))
    if user is None or not getattr(user, "is_authenticated", False):
        raise TournamentError(_("Log in to answer the deal."))
    player = _player_of(user)
    with transaction.atomic():
        tournament, offer = _lock_offer(offer_id)
        mine = (
            offer.answers.select_related("entry__player").filter(entry__player=player).first()
            if player is not None
            else None
        )
        if mine is None:
            raise TournamentError(_("This deal was not offered to you."))
        if mine.answer == answer:
            return offer  # a second tap, or a second tab: already done
        if offer.state == DealState.HELD:
            raise TournamentError(
                _("The deal is worked out when the hands in play have ended; answer it then.")
            )
        if offer.state != DealState.OPEN:
            raise TournamentError(
                _("This deal is already settled: %(state)s.")
                % {"state": offer.get_state_display().lower()}
            )
        if mine.answer:
            raise TournamentError(_("You have already answered this deal."))
        _answer_apply(tournament, offer, mine, answer)
    return offer


def deal_cancel(offer_id: Any, *, by: Any) -> DealOffer:
    """The director withdraws a pending offer; the tables it held resume."""
    require_director(by)
    with transaction.atomic():
        tournament, offer = _lock_offer(offer_id)
        if not offer.is_pending:
            raise TournamentError(
                _("This deal is already settled: %(state)s.")
                % {"state": offer.get_state_display().lower()}
            )
        _settle(tournament, offer, DealState.CANCELLED, DealEnd.WITHDRAWN, by.get_username())
    return offer


def resume_withdrawing(tournament_id: int, *, by: Any, withdraw: Any = None) -> None:
    """The director resumes the tournament. While a deal is open the players are answering
    it on chips the next hands would change: resuming withdraws it, and only when the
    director said so (``withdraw``, the offer's id); otherwise refused, changing nothing."""
    require_director(by)
    with transaction.atomic():
        tournament = locks.tournament_locked(tournament_id)
        pending = DealOffer.objects.filter(
            tournament=tournament, state__in=(DealState.HELD, DealState.OPEN)
        ).first()
        if pending is not None:
            if str(withdraw or "") != str(pending.pk):
                raise TournamentError(
                    _(
                        "A deal is open: the players are answering it. Resuming withdraws "
                        "it; confirm to resume."
                    )
                )
            deal_cancel(pending.pk, by=by)
            tournament.refresh_from_db(fields=["online_paused"])
            if not tournament.online_paused:
                return
        online.online_resume(tournament_id, by=by)
