"""Players of the series: guests (walk-ins without an account) merged into an account.

A guest is a ``Player`` row without a user. When the walk-in signs up, a director merges the
guest into the account: every row pointing at the guest moves to the account's player. The
rows are found through ``Player._meta`` (documented API), not by naming the models, so the
tournaments' entries move too without the series importing the tournaments (docs/architecture.md:
series reads no tournament internals). The season standings are derived, so they are not
moved but recomputed.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import models, transaction
from django.db.models import ForeignObjectRel, Q
from django.utils.translation import gettext as _

from series.models import Event, Player, Result, Standing, StandingPoint
from series.services.standings import standings_schedule

# Rows computed from the results: they go with the guest (on_delete CASCADE) and the
# recompute writes them again for the account.
DERIVED: tuple[type[models.Model], ...] = (Standing, StandingPoint)


class PlayerError(Exception):
    """A refused player workflow; the message says why, for the director."""


def player_for_account(user: User) -> Player | None:
    """The account's series player, if the account ever had one."""
    return Player.objects.filter(user=user).first()


def _relations() -> list[ForeignObjectRel]:
    """Every many-to-one and one-to-one relation pointing at ``Player``.

    ``include_hidden`` because some point at it with ``related_name="+"`` (the settle-up's
    payer and payee) and still must move.
    """
    return [
        field
        for field in Player._meta.get_fields(include_hidden=True)
        if isinstance(field, ForeignObjectRel)
        and (field.one_to_many or field.one_to_one)
        and field.related_model not in DERIVED
    ]


def _clashes(relation: ForeignObjectRel, guest: Player, target: Player) -> list[models.Model]:
    """The guest's rows of ``relation`` that would break a uniqueness rule on moving.

    For each unique constraint (or ``unique_together``) of the related model that includes
    the foreign key, a clash is a guest row and a target row equal on the other fields (a
    result of each in one event, an entry of each with one number in one tournament).
    """
    model = relation.related_model
    fk = relation.field.name
    manager = model._default_manager
    if relation.one_to_one:
        if manager.filter(**{fk: target}).exists() and manager.filter(**{fk: guest}).exists():
            return list(manager.filter(**{fk: guest}))
        return []
    rules: list[tuple[list[str], Q | None]] = []
    for constraint in model._meta.constraints:
        if isinstance(constraint, models.UniqueConstraint) and fk in constraint.fields:
            rules.append((list(constraint.fields), constraint.condition))
    for together in model._meta.unique_together:
        if fk in together:
            rules.append((list(together), None))
    clashes: list[models.Model] = []
    for fields, condition in rules:
        others = [name for name in fields if name != fk]
        guest_rows = manager.filter(**{fk: guest})
        target_rows = manager.filter(**{fk: target})
        if condition is not None:
            guest_rows, target_rows = guest_rows.filter(condition), target_rows.filter(condition)
        if not others:
            if guest_rows.exists() and target_rows.exists():
                clashes.extend(guest_rows)
            continue
        taken = set(target_rows.values_list(*others))
        for row in guest_rows:
            values = tuple(getattr(row, model._meta.get_field(name).attname) for name in others)
            # One row may break two rules: name it once.
            if values in taken and all(row.pk != seen.pk for seen in clashes):
                clashes.append(row)
    return clashes


def _described(row: models.Model) -> str:
    """A clashing row in words: itself, and what it belongs to ("Bob #1 (Friday PLO8)")."""
    owners = [
        str(getattr(row, field.name))
        for field in row._meta.get_fields()
        if isinstance(field, models.ForeignKey)
        and field.related_model is not Player
        and getattr(row, field.attname) is not None
    ]
    return f"{row} ({', '.join(owners)})" if owners else str(row)


@transaction.atomic
def player_merge(guest_id: int, into: int | User, *, by: User) -> Player:
    """Merge the guest ``guest_id`` into an account and return the account's player.

    ``into`` is the account's ``Player`` id or the account (``User``) itself; an account
    that never played gets the guest's row (it simply gains the account). Refused with a
    ``PlayerError``, changing nothing, when the guest is not a guest, the target has no
    account, or both have a result in one event (the message names the events).
    """
    guest = Player.objects.select_for_update().filter(pk=guest_id).first()
    if guest is None:
        raise PlayerError(_("This guest does not exist (merged already?)."))
    if not guest.is_guest:
        raise PlayerError(
            _("%(player)s has an account: only a guest can be merged into one.")
            % {"player": guest.name}
        )
    seasons = set(Event.objects.filter(results__player=guest).values_list("season_id", flat=True))
    if isinstance(into, User):
        target = Player.objects.select_for_update().filter(user=into).first()
        if target is None:
            # The account never played: the guest's row becomes the account's player, so
            # every row pointing at it stays where it is.
            guest.user = into
            guest.save(update_fields=["user"])
            _recompute_after_commit(seasons)
            return guest
    else:
        target = Player.objects.select_for_update().filter(pk=into).first()
        if target is None:
            raise PlayerError(_("The account's player does not exist."))
    if target.pk == guest.pk:
        raise PlayerError(_("A guest cannot be merged into itself."))
    if target.is_guest:
        raise PlayerError(
            _(
                "%(target)s is a guest with no account: merge %(guest)s into a player who has an "
                "account."
            )
            % {"target": target.name, "guest": guest.name}
        )

    relations = _relations()
    for relation in relations:
        clashes = _clashes(relation, guest, target)
        if not clashes:
            continue
        if relation.related_model is Result:
            events = Event.objects.filter(results__in=clashes).order_by("starts_at")
            raise PlayerError(
                _(
                    "%(guest)s and %(target)s both have a result in %(events)s: correct that "
                    "event's results first (one result per player)."
                )
                % {
                    "guest": guest.name,
                    "target": target.name,
                    "events": ", ".join(str(event) for event in events),
                }
            )
        raise PlayerError(
            _("%(guest)s and %(target)s both have %(things)s where only one may: %(rows)s.")
            % {
                "guest": guest.name,
                "target": target.name,
                "things": relation.related_model._meta.verbose_name_plural,
                "rows": "; ".join(_described(row) for row in clashes),
            }
        )
    for relation in relations:
        fk = relation.field.name
        relation.related_model._default_manager.filter(**{fk: guest}).update(**{fk: target})
    guest.delete()
    _recompute_after_commit(seasons)
    return target


def _recompute_after_commit(season_ids: set[int]) -> None:
    # standings_schedule sends the task after the merge commits.
    for season_id in sorted(season_ids):
        standings_schedule(season_id)
