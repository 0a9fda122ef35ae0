"""The director's action log and its undo, shared by every console action.

Each workflow a director triggers records one ``TournamentAction`` with ``action_record``
inside its own transaction, carrying in ``undo`` what it takes to reverse it (the rows'
values before the action, or the ids it created). The module that owns the action kind
registers the function that reverses it::

    @undo.register(ActionKind.REBUY)
    def _undo_rebuy(tournament: Tournament, action: TournamentAction) -> None:
        ...

``action_undo`` undoes the action the console's Undo button names, only while it is the
newest action not yet undone, so a director walks back the last actions one at a time, in
order, and two taps (or two directors) naming the same action undo it once; a shell or a
test may call ``action_undo_last``. A workflow that calls another one which logs its
own action (a late entry drawing a seat, the start drawing every seat) records its action
last, with ``undo["includes"] = [the other action's id]``: one Undo then reverses both, the
included one first. Undoing runs with the tournament row locked, the
same lock every action takes, so an undo never interleaves with a new action; if the
handler finds the action can no longer be reversed (a rebought player has since been
eliminated, say), it raises ``TournamentError`` and the transaction rolls back whole.

A console form carries a one-time token (``tournaments.views.once``); the view runs the
workflow inside ``action_token(token)``, and ``action_record`` stores the token on the first
action the workflow records. The token is unique per tournament, so the same form sent
twice (a double tap, a resent page) is refused at its first ``action_record``, which rolls
the whole workflow back; under the tournament lock the second post only gets there once the
first has committed. A refused post records nothing, so its token stays usable.

After commit, ``tournament_changed`` is sent (tournament id, action) so the clock screens'
and consoles' broadcaster can tell them to refresh without this module knowing about
sockets.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import TournamentError
from tournaments.models import Tournament, TournamentAction
from tournaments.services.locks import tournament_locked
from tournaments.summaries import Message

UndoHandler = Callable[[Tournament, TournamentAction], None]

SUMMARY_MAX = TournamentAction._meta.get_field("summary").max_length or 300

# Sent after commit with ``tournament_id`` and ``action`` whenever an action is recorded or
# undone (``undone`` True for an undo).
tournament_changed = Signal()

# In an action's ``undo`` data: the ids of actions recorded as part of it (see
# ``action_undo_last``).
INCLUDES = "includes"

_handlers: dict[str, UndoHandler] = {}
_discovered = False


@dataclass
class _Token:
    """The one-time token of the form being handled, and the action of this block that
    carries it once recorded (a workflow may record several)."""

    value: str
    action_id: int | None = None


# A context variable rather than a parameter of every workflow: the token is the form's
# business, not the rules', and each request (thread or task) sees only its own.
_token: ContextVar[_Token | None] = ContextVar("tournament_action_token", default=None)


@contextmanager
def action_token(token: str | None) -> Iterator[None]:
    """Actions recorded inside the block carry ``token``, a console form's one-time token.

    The first one recorded stores it; if an earlier post already recorded an action with
    the same token in that tournament, ``action_record`` refuses with "That was already
    recorded" and the workflow rolls back. A block without a token (None or "") records as
    usual.
    """
    if not token:
        yield
        return
    reset = _token.set(_Token(token))
    try:
        yield
    finally:
        _token.reset(reset)


def _already(action: TournamentAction) -> TournamentError:
    return TournamentError(
        _("That was already recorded: “%(action)s”.") % {"action": action.summary_text}
    )


def _token_to_store(tournament: Tournament) -> str | None:
    """The token the action about to be recorded should carry, or None; raises when another
    post already spent it."""
    claim = _token.get()
    if claim is None:
        return None
    used = TournamentAction.objects.filter(tournament=tournament, once_token=claim.value).first()
    if used is None:
        return claim.value
    if used.pk == claim.action_id:
        # This same workflow recorded an earlier action with it (the start logs its seat
        # draw first): the later ones go without.
        return None
    raise _already(used)


def register(kind: str) -> Callable[[UndoHandler], UndoHandler]:
    """Register the function that reverses actions of ``kind``.

    One handler per kind: a second, different handler is a programming error (two modules
    would disagree on how to reverse the same action). Re-registering the same function, as
    a module reload does, is harmless.
    """

    def decorator(func: UndoHandler) -> UndoHandler:
        known = _handlers.get(kind)
        if known is not None and (known.__module__, known.__qualname__) != (
            func.__module__,
            func.__qualname__,
        ):
            raise ValueError(f"an undo handler for {kind!r} is already registered: {known!r}")
        _handlers[kind] = func
        return func

    return decorator


def _discover_handlers() -> None:
    """Import every ``tournaments.services`` module once, so each registers its handlers.

    Handlers register at import; a process that records an action has imported its module,
    but one that only undoes (a fresh worker serving the console's Undo button) may not have.
    """
    global _discovered
    if _discovered:
        return
    package = importlib.import_module("tournaments.services")
    for module in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"tournaments.services.{module.name}")
    _discovered = True


def handler_for(kind: str) -> UndoHandler | None:
    """The registered reverse of ``kind``, or None when actions of that kind cannot be undone."""
    _discover_handlers()
    return _handlers.get(kind)


def _notify(tournament_id: int, action: TournamentAction, *, undone: bool) -> None:
    transaction.on_commit(
        lambda: tournament_changed.send(
            sender=TournamentAction, tournament_id=tournament_id, action=action, undone=undone
        )
    )


def action_record(
    tournament: Tournament, kind: str, summary: str, *, by: Any, undo: dict[str, Any]
) -> TournamentAction:
    """Log what a director (or a player registering) did, with what it takes to undo it.

    Call it inside the action's transaction, after the change, with the tournament row
    locked: the log and the change commit or roll back together. ``by`` is the user who
    acted (None for the system); ``summary`` is the line the console shows ("Rebuy: Ann (2
    of 3)"), made with ``tournaments.summaries.message`` so each reader gets it in their own
    language (plain text is kept as written).
    """
    if not isinstance(undo, dict):
        raise TypeError("undo must be a dict of JSON values")
    user = by if by is not None and getattr(by, "is_authenticated", False) else None
    token = _token_to_store(tournament)
    with transaction.atomic():
        try:
            with transaction.atomic():
                action = TournamentAction.objects.create(
                    tournament=tournament,
                    kind=str(kind),
                    summary=summary[:SUMMARY_MAX],
                    summary_message=summary.data if isinstance(summary, Message) else {},
                    by=user,
                    undo=undo,
                    once_token=token or "",
                )
        except IntegrityError:
            # A caller that did not hold the tournament lock raced another post of the same
            # form: the unique token still lets only one of them record.
            used = TournamentAction.objects.filter(tournament=tournament, once_token=token)
            if token is None or not used.exists():
                raise
            raise _already(used.get()) from None
        claim = _token.get()
        if token is not None and claim is not None:
            claim.action_id = action.pk
        _notify(tournament.pk, action, undone=False)
    return action


def action_last(tournament_id: int) -> TournamentAction | None:
    """The newest action not yet undone: the one the console's Undo button reverses."""
    return (
        TournamentAction.objects.filter(tournament_id=tournament_id, undone_at__isnull=True)
        .order_by("-pk")
        .first()
    )


def action_can_undo(action: TournamentAction | None) -> bool:
    """Whether the console should offer Undo for ``action`` (its kind, and the kinds of the
    actions it includes, have a reverse)."""
    if action is None or action.undone_at is not None or handler_for(action.kind) is None:
        return False
    kinds = TournamentAction.objects.filter(pk__in=action.undo.get(INCLUDES, [])).values_list(
        "kind", flat=True
    )
    return all(handler_for(kind) is not None for kind in kinds)


# An action's id as a form sends it: ASCII digits that fit a database integer.
_ACTION_ID = re.compile(r"[0-9]{1,18}")


def _action_id(raw: Any) -> int:
    if isinstance(raw, int) and not isinstance(raw, bool):
        text = str(raw)
    elif isinstance(raw, str):
        text = raw.strip()
    else:
        text = ""
    if not _ACTION_ID.fullmatch(text) or int(text) < 1:
        raise TournamentError(_("Say which action to undo: reload the console and try again."))
    return int(text)


def action_undo(tournament_id: int, action_id: Any, *, by: Any) -> TournamentAction:
    """Undo the action ``action_id`` names (as the console's Undo button posts it), and
    mark it undone by ``by``.

    Refused, changing nothing, unless it is the newest action not yet undone: a second tap,
    or a second director who saw the same Undo, finds it already undone (or a newer action
    recorded meanwhile) instead of undoing the next one, which nobody chose. Otherwise as
    ``action_undo_last``.
    """
    return _undo(tournament_id, _action_id(action_id), by=by)


def action_undo_last(tournament_id: int, *, by: Any) -> TournamentAction:
    """Undo the newest action not yet undone, and mark it undone by ``by``.

    Actions are undone newest first: each one's ``undo`` data describes the rows as they
    were just before it, which is only true again once every later action is reversed.
    Raises ``TournamentError`` when there is nothing to undo, when the action's kind cannot
    be undone, or when its handler finds it can no longer be reversed; nothing changes then.
    """
    return _undo(tournament_id, None, by=by)


def _refusal(tournament_id: int, wanted: int, newest: TournamentAction | None) -> TournamentError:
    """Why the action ``wanted`` is not the one to undo (``newest`` is)."""
    named = TournamentAction.objects.filter(tournament_id=tournament_id, pk=wanted).first()
    if named is None:
        if newest is None:
            return TournamentError(_("There is nothing to undo."))
        return TournamentError(_("This action does not exist."))
    if named.undone_at is not None or newest is None:
        return TournamentError(
            _("“%(action)s” is already undone.") % {"action": named.summary_text}
        )
    return TournamentError(
        _("“%(action)s” can no longer be undone: a newer action came first (“%(newer)s”).")
        % {"action": named.summary_text, "newer": newest.summary_text}
    )


def _undo(tournament_id: int, wanted: int | None, *, by: Any) -> TournamentAction:
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        # Read under the tournament lock: every action and every undo takes it, so no new
        # action can slip in between choosing this one and reversing it, and of two undos
        # naming the same action the second finds it already undone.
        action = action_last(tournament_id)
        if wanted is not None and (action is None or action.pk != wanted):
            raise _refusal(tournament_id, wanted, action)
        if action is None:
            raise TournamentError(_("There is nothing to undo."))
        user = by if by is not None and getattr(by, "is_authenticated", False) else None
        now = timezone.now()
        # Actions another workflow recorded as part of this one (the seat a late entry
        # drew) happened after its own change: they are reversed first, newest first.
        included = TournamentAction.objects.filter(
            tournament_id=tournament_id,
            pk__in=action.undo.get(INCLUDES, []),
            undone_at__isnull=True,
        ).order_by("-pk")
        for part in [*included, action]:
            handler = handler_for(part.kind)
            if handler is None:
                raise TournamentError(
                    _("“%(action)s” cannot be undone.") % {"action": part.summary_text}
                )
            handler(tournament, part)
            part.undone_at = now
            part.undone_by = user
            part.save(update_fields=["undone_at", "undone_by"])
        _notify(tournament.pk, action, undone=True)
    return action
