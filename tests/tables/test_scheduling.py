"""The tasks the services ask for (``tables.scheduling``): sent by name, results ignored."""

from __future__ import annotations

import time
from typing import Any

import pytest
from celery import current_app
from django.test import override_settings

from tables import scheduling


@override_settings(TABLES_SCHEDULE_TASKS=True)
def test_a_scheduled_tick_is_sent_without_waiting_for_a_result(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A send by name does not know the task is ``ignore_result``; left to the default, the
    # Redis result backend subscribes to a result that never comes, on every send.
    sent: list[tuple[str, Any, dict[str, Any]]] = []
    monkeypatch.setattr(
        current_app, "send_task", lambda name, args, **options: sent.append((name, args, options))
    )
    scheduling.schedule_tick_now(7, 1.5)
    deadline = time.monotonic() + 5
    while not sent and time.monotonic() < deadline:
        time.sleep(0.01)
    assert sent == [
        (scheduling.TICK_TASK, (7,), {"countdown": 1.5, "ignore_result": True}),
    ]
