"""The worker's heartbeat, the health page and the director's warning about a silent worker."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from series.models import WorkerHeartbeat
from series.services.health import worker_heartbeat_record
from series.tasks import worker_heartbeat
from tests.tables.servers import free_port

pytestmark = pytest.mark.django_db

SILENT = "No task worker has run"


@pytest.fixture
def silent_after(settings) -> int:  # type: ignore[no-untyped-def]
    settings.WORKER_SILENT_AFTER_SECONDS = 30
    return 30


def beat(seconds_ago: float) -> None:
    worker_heartbeat_record("celery@host", timezone.now() - timedelta(seconds=seconds_ago))


def health(client: Client) -> dict[str, object]:
    response = client.get(reverse("health"))
    assert response.status_code == 200
    assert "no-cache" in response["Cache-Control"]
    return response.json()  # type: ignore[no-any-return]


def test_the_heartbeat_task_stores_when_and_where_it_ran() -> None:
    worker_heartbeat.apply()
    worker_heartbeat.apply()
    row = WorkerHeartbeat.objects.get()
    assert timezone.now() - row.seen_at < timedelta(seconds=5)
    assert row.hostname


def test_beat_sends_the_heartbeat_more_often_than_the_worker_counts_as_silent(
    settings,  # type: ignore[no-untyped-def]
) -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["worker-heartbeat"]
    assert entry["task"] == worker_heartbeat.name
    assert entry["schedule"] * 3 <= settings.WORKER_SILENT_AFTER_SECONDS


def test_health_is_ok_while_the_worker_beats(client: Client, silent_after: int) -> None:
    beat(seconds_ago=3)
    report = health(client)
    assert report["status"] == "ok"
    assert report["worker"] == {
        "status": "ok",
        "hostname": "celery@host",
        "last_seen": WorkerHeartbeat.objects.get().seen_at.isoformat(),
        "seconds_ago": 3,
        "text": "worker: last seen 3 s ago",
    }


def test_health_is_degraded_once_the_worker_is_silent_too_long(
    client: Client, silent_after: int
) -> None:
    beat(seconds_ago=silent_after + 15)
    report = health(client)
    assert report["status"] == "degraded"
    assert report["worker"]["status"] == "silent"  # type: ignore[index]
    assert report["worker"]["text"] == "worker: last seen 45 s ago"  # type: ignore[index]


def test_health_is_degraded_when_no_worker_was_ever_seen(client: Client) -> None:
    report = health(client)
    assert report["status"] == "degraded"
    assert report["worker"]["status"] == "never-seen"  # type: ignore[index]
    assert report["worker"]["text"] == "worker: never seen"  # type: ignore[index]


def test_health_says_redis_is_down_and_still_answers(
    client: Client, settings, silent_after: int
) -> None:  # type: ignore[no-untyped-def]
    settings.EMBEDDED = False
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
        }
    }
    beat(seconds_ago=1)
    report = health(client)
    assert (report["status"], report["redis"]) == ("degraded", "down")
    assert report["worker"]["status"] == "ok"  # type: ignore[index]


def test_the_director_is_warned_on_the_dashboard_when_the_worker_is_silent(
    director_client: Client, silent_after: int
) -> None:
    beat(seconds_ago=120)
    page = director_client.get(reverse("director_dashboard")).content.decode()
    assert "No task worker has run for 120 s" in page
    assert "the blind clock, bot moves and time-outs are waiting" in page


def test_the_dashboard_says_nothing_while_the_worker_beats(
    director_client: Client, silent_after: int
) -> None:
    beat(seconds_ago=2)
    page = director_client.get(reverse("director_dashboard")).content.decode()
    assert SILENT not in page


def test_the_console_warns_when_no_worker_was_ever_seen(
    director: User, director_client: Client
) -> None:
    from tests.tournaments.factories import sample_tournament

    tournament = sample_tournament()
    page = director_client.get(reverse("tournaments:console", args=[tournament.pk]))
    assert page.status_code == 200
    assert "No task worker has run yet" in page.content.decode()
