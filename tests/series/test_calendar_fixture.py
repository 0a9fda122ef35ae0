"""The demo-size season builder itself: numbered events, finished ones with results."""

import pytest

from series.models import Player, Result
from tests.series.season_fixture import build_season

pytestmark = pytest.mark.django_db


def test_build_season_makes_numbered_events_players_and_results() -> None:
    season = build_season(events=20, players=40, seed=1)
    events = list(season.events.order_by("number"))
    assert [e.number for e in events] == list(range(1, 21))
    finished = [e for e in events if e.finished_at]
    assert len(finished) == 12
    assert Player.objects.count() == 40
    assert Player.objects.filter(user__isnull=True).exists()
    for event in finished:
        places = list(Result.objects.filter(event=event).values_list("place", flat=True))
        assert sorted(places) == list(range(1, len(places) + 1))
    assert not Result.objects.filter(event__finished_at__isnull=True).exists()
    assert Result.objects.filter(paid_in__gt=0).exists()
