"""The level a tournament hand was dealt at: given to its live table with the stakes, kept
on the hand's row when it starts, and written into the hand histories as it was kept (no
guess from the blinds)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from series.models import Event, Season
from tables import services as tables
from tables.engine.phh import read_hands
from tables.models import Hand, Seat, SeatState
from tables.models import Table as LiveTable
from tournaments.models import Tournament, TournamentTable
from tournaments.services import lifecycle, online
from tournaments.services.clock.controls import clock_next
from tournaments.services.history import tournament_phhs
from tournaments.services.simulate import blind_structure_for, director_user

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

FAST = {
    "TABLES_SCHEDULE_TASKS": False,
    "TOURNAMENTS_SCHEDULE_TASKS": False,
    "TABLES_NEXT_HAND_DELAY_MS": 0,
    "TABLES_RUNOUT_STEP_MS": 0,
}


def _everyone_away(table: LiveTable) -> None:
    """Every player at ``table`` away: each hand is dealt, posted and folded at once."""
    Seat.objects.filter(table=table, user__isnull=False).update(
        bot_style="", state=SeatState.SITTING_OUT, sat_out_reason="timed out"
    )


def _online_tournament() -> tuple[Tournament, LiveTable]:
    """An online tournament of three players on one live table, started, nobody at it."""
    today = timezone.localdate()
    season = Season.objects.create(
        name="Online", starts_on=today - timedelta(days=1), ends_on=today + timedelta(days=9)
    )
    event = Event.objects.create(
        season=season, name="Online PLO8", starts_at=timezone.now(), buy_in=20, starting_stack=1000
    )
    director = director_user()
    tournament = Tournament.objects.create(
        event=event,
        blind_structure=blind_structure_for(1000, limit=False),
        online=True,
        seats_per_table=6,
    )
    online.online_bots_fill(tournament.pk, 3, by=director)
    lifecycle.tournament_start(tournament.pk, by=director, now=timezone.now())
    live = TournamentTable.objects.select_related("live_table").get(tournament=tournament)
    _everyone_away(live.live_table)
    return Tournament.objects.get(pk=tournament.pk), live.live_table


def test_a_tournament_hand_keeps_the_level_its_blinds_came_from(transactional_db: None) -> None:
    # docs/rules.md, Tournaments: "Levels (23): a new level applies to the next hand, not the one being dealt."
    with override_settings(**FAST):
        tournament, table = _online_tournament()
        assert tables.table_tick(table.pk, timezone.now())
        first = Hand.objects.get(table=table)
        assert first.level == 1 and first.ended_at is not None
        clock_next(tournament.pk, by=None)  # level 2, for the next hand
        table.refresh_from_db()
        assert table.stakes_level == 2
        first.refresh_from_db()
        assert first.level == 1  # a hand keeps the level it was dealt at


def test_the_hand_histories_write_the_level_each_hand_kept(transactional_db: None) -> None:
    with override_settings(**FAST):
        tournament, table = _online_tournament()
        assert tables.table_tick(table.pk, timezone.now())
        (hand,) = read_hands("t.phhs", tournament_phhs(tournament))
        assert (hand.data or {})["level"] == 1
        # A hand dealt before tables kept the level writes none: the blinds are no guide
        # (two levels may share them).
        Hand.objects.filter(table=table).update(level=None)
        (hand,) = read_hands("t.phhs", tournament_phhs(tournament))
        assert "level" not in (hand.data or {})


def test_stakes_of_a_new_level_are_news_even_with_the_same_blinds(db: None) -> None:
    table = tables.tournament_table_open(
        name="Table 1",
        game="omaha-hi-lo",
        structure="pot-limit",
        seat_count=6,
        stakes=tables.Stakes(small_blind=25, big_blind=50, level=3),
        sitters={},
    )
    assert table.stakes_level == 3
    assert tables.table_stakes_set(table.pk, tables.Stakes(small_blind=25, big_blind=50, level=4))
    assert LiveTable.objects.get(pk=table.pk).stakes_level == 4
    assert not tables.table_stakes_set(
        table.pk, tables.Stakes(small_blind=25, big_blind=50, level=4)
    )
