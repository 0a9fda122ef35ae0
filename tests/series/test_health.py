"""The heartbeat of beat and the worker, the health page's checks, and the director's
warning about a silent worker."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from celery import current_app
from django.conf import settings
from django.contrib.auth.models import User
from django.db import OperationalError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from series.models import WorkerHeartbeat
from series.services import health as health_service
from series.services.health import CHECKS, beat_tick_record, worker_heartbeat_record
from series.tasks import worker_heartbeat
from tests.tables.servers import free_port

pytestmark = pytest.mark.django_db

SILENT = "No task worker has run"


@pytest.fixture
def silent_after(settings) -> int:  # type: ignore[no-untyped-def]
    settings.WORKER_SILENT_AFTER_SECONDS = 30
    return 30


def beat(seconds_ago: float) -> None:
    """The worker ran the heartbeat ``seconds_ago``."""
    worker_heartbeat_record("celery@host", timezone.now() - timedelta(seconds=seconds_ago))


def tick(seconds_ago: float) -> None:
    """Beat sent the heartbeat ``seconds_ago``."""
    beat_tick_record(timezone.now() - timedelta(seconds=seconds_ago))


def health(client: Client, status: int = 200, query: str = "") -> dict[str, Any]:
    response = client.get(reverse("health") + query)
    assert response.status_code == status, response.content
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


def test_beat_stores_its_tick_when_it_sends_the_heartbeat() -> None:
    """Sending the task is beat's part (``after_task_publish`` runs in the sender's
    process); nothing has run it yet, so the worker's time stays empty."""
    with current_app.connection_for_write() as connection:
        worker_heartbeat.apply_async(connection=connection, expires=5.0)
    row = WorkerHeartbeat.objects.get()
    assert timezone.now() - row.beat_sent_at < timedelta(seconds=5)
    assert (row.seen_at, row.hostname) == (None, "")


def test_beat_goes_on_when_its_tick_cannot_be_stored(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def database_down(**kwargs: Any) -> None:
        raise OperationalError("the database is restarting")

    monkeypatch.setattr(WorkerHeartbeat.objects, "update_or_create", database_down)
    beat_tick_record()
    assert "Could not store beat's tick." in caplog.text


@pytest.mark.asyncio
async def test_the_channel_layer_check_leaves_no_channel_behind() -> None:
    """Each page asks again: a channel kept per check would add up for as long as the
    process runs."""
    from channels.layers import get_channel_layer

    for _attempt in range(3):
        assert await health_service.channel_layer_check()
    layer = get_channel_layer()
    if settings_redis_url():
        from redis.asyncio import Redis

        # Pub/sub channels are server-wide: another test worker's own checks (its prefix
        # names its database) may be under way.
        prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"]
        client = Redis.from_url(settings_redis_url())
        try:
            assert await client.pubsub_channels(f"{prefix}health.*") == []
        finally:
            await client.aclose()
    else:
        assert not [name for name in layer.channels if "health." in name]  # type: ignore[union-attr]


def settings_redis_url() -> str:
    from django.conf import settings

    return str(settings.REDIS_URL)


def test_health_is_ok_while_beat_ticks_and_the_worker_beats(
    client: Client, silent_after: int
) -> None:
    tick(seconds_ago=2)
    beat(seconds_ago=3)
    report = health(client)
    assert (report["status"], report["failing"]) == ("ok", [])
    assert list(report["checks"]) == list(CHECKS)
    for name, check in report["checks"].items():
        assert check["ok"] is True, name
        assert check["error"] == ""
        assert isinstance(check["ms"], int)
    assert report["checks"]["channel_layer"]["backend"]
    assert report["checks"]["broker"]["transport"]
    assert report["checks"]["beat"]["seconds_ago"] == 2
    worker = {
        "status": "ok",
        "hostname": "celery@host",
        "last_seen": WorkerHeartbeat.objects.get().seen_at.isoformat(),
        "seconds_ago": 3,
        "text": "worker: last seen 3 s ago",
    }
    assert report["worker"] == worker
    assert report["checks"]["worker"] == {
        "ok": True,
        "ms": report["checks"]["worker"]["ms"],
        "error": "",
        **worker,
    }


def test_health_fails_once_the_worker_is_silent_too_long(client: Client, silent_after: int) -> None:
    tick(seconds_ago=1)
    beat(seconds_ago=silent_after + 15)
    report = health(client, status=503)
    assert (report["status"], report["failing"]) == ("failing", ["worker"])
    assert report["worker"]["status"] == "silent"
    assert report["worker"]["text"] == "worker: last seen 45 s ago"
    assert report["checks"]["worker"]["error"] == "worker: last seen 45 s ago"


def test_health_fails_when_no_worker_was_ever_seen(client: Client) -> None:
    tick(seconds_ago=1)
    report = health(client, status=503)
    assert report["failing"] == ["worker"]
    assert report["worker"]["status"] == "never-seen"
    assert report["worker"]["text"] == "worker: never seen"


def test_health_fails_when_beat_is_silent_and_says_the_worker_is_not(
    client: Client, silent_after: int
) -> None:
    tick(seconds_ago=silent_after + 30)
    beat(seconds_ago=1)
    report = health(client, status=503)
    assert report["failing"] == ["beat"]
    assert report["checks"]["beat"]["status"] == "silent"
    assert report["checks"]["beat"]["error"] == "beat: last tick 60 s ago"
    assert report["checks"]["worker"]["ok"] is True


def test_health_fails_when_beat_never_ticked(client: Client) -> None:
    beat(seconds_ago=1)
    report = health(client, status=503)
    assert report["failing"] == ["beat"]
    assert report["checks"]["beat"]["text"] == "beat: never seen"


def test_health_fails_when_the_database_does_not_answer(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    tick(seconds_ago=1)
    beat(seconds_ago=1)

    def database_down() -> None:
        raise OperationalError("connection to server at 10.0.0.5 refused")

    monkeypatch.setattr(health_service, "database_check", database_down)
    report = health(client, status=503)
    assert (report["status"], report["failing"]) == ("failing", ["database"])
    assert report["checks"]["database"]["error"] == (
        "OperationalError: connection to server at 10.0.0.5 refused"
    )


def test_a_check_that_hangs_fails_after_its_time_limit(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    tick(seconds_ago=1)
    beat(seconds_ago=1)
    monkeypatch.setattr(health_service, "CHECK_TIMEOUT_SECONDS", 0.3)
    # The check answers only once the page has: the page's answer is the time limit's.
    answered = threading.Event()
    monkeypatch.setattr(health_service, "broker_check", lambda: answered.wait(60))
    try:
        report = health(client, status=503)
    finally:
        answered.set()
    assert report["failing"] == ["broker"]
    assert report["checks"]["broker"]["error"] == "no answer within 0.3 s"


def test_health_fails_fast_when_redis_is_down(
    client: Client,
    settings,
    monkeypatch: pytest.MonkeyPatch,  # type: ignore[no-untyped-def]
) -> None:
    """Redis on a port where nothing listens, for the channel layer and the broker."""
    closed = f"redis://127.0.0.1:{free_port()}/0"
    tick(seconds_ago=1)
    beat(seconds_ago=1)
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": closed}]},
        }
    }
    # Celery reads its broker's address from the environment first.
    monkeypatch.setenv("CELERY_BROKER_WRITE_URL", closed)
    report = health(client, status=503)
    assert report["failing"] == ["channel_layer", "broker"]
    # Each says the connection was refused, at once: neither waited for the time limit.
    assert "onnect" in report["checks"]["broker"]["error"]
    for check in ("channel_layer", "broker"):
        assert "no answer within" not in report["checks"][check]["error"]
    assert report["checks"]["database"]["ok"] is True


def test_health_asks_about_some_checks_only(client: Client) -> None:
    """A proxy asks whether a web process can serve pages; a silent worker does not stop
    it sending them."""
    report = health(client, query="?check=database&check=channel_layer")
    assert list(report["checks"]) == ["database", "channel_layer"]
    assert "worker" not in report


def test_health_refuses_an_unknown_check(client: Client) -> None:
    report = health(client, status=400, query="?check=database&check=cache")
    assert report == {
        "error": "Unknown check cache; the checks are database, channel_layer, broker, beat, "
        "worker."
    }


def test_health_answers_get_only(client: Client) -> None:
    assert client.post(reverse("health")).status_code == 405


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
