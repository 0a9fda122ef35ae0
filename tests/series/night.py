"""A finished night for the players, corrections and settle-up tests: an event with results."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from series.models import Event, Player, Result, Season
from tests.conftest import PASSWORD


def season(**fields: Any) -> Season:
    return Season.objects.create(
        name="Omaha 2026",
        starts_on=date(2026, 1, 1),
        ends_on=date(2026, 12, 31),
        **fields,
    )


def account(name: str) -> Player:
    """A player with an account (username = the name in lower case)."""
    user = User.objects.create_user(name.lower(), password=PASSWORD)
    return Player.objects.create(user=user, name=name)


def guest(name: str) -> Player:
    return Player.objects.create(name=name)


def finished_event(
    in_season: Season,
    rows: list[tuple[Player, int, int, int]],
    *,
    number: int = 1,
    buy_in: int = 20,
    fee: int = 5,
    finished: bool = True,
    starts_at: datetime | None = None,
) -> Event:
    """An event with one result per ``(player, place, prize, paid_in)``."""
    starts_at = starts_at or timezone.make_aware(datetime(2026, 3, 1, 19, 30)) + timedelta(
        weeks=number
    )
    event = Event.objects.create(
        season=in_season,
        name=f"Event {number}",
        number=number,
        starts_at=starts_at,
        buy_in=buy_in,
        fee=fee,
        finished_at=starts_at + timedelta(hours=4) if finished else None,
    )
    for player, place, prize, paid_in in rows:
        Result.objects.create(
            event=event, player=player, place=place, prize=prize, paid_in=paid_in, tournament_id=99
        )
    return event
