"""A clock or deal task that meets a locked database runs again (Celery's retry), instead of
being dropped until the next sweep."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from django.db import OperationalError

from tournaments import tasks
from tournaments.models import DealState
from tournaments.services import deals
from tournaments.services.clock import sweep

pytestmark = pytest.mark.django_db


def locked_once(calls: list[Any], answer: Any) -> Any:
    def service(*args: Any) -> Any:
        calls.append(args)
        if len(calls) == 1:
            raise OperationalError("database is locked")
        return answer

    return service


def test_a_clock_task_that_meets_a_locked_database_is_retried(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[Any] = []
    monkeypatch.setattr(sweep, "clock_sweep", locked_once(calls, 0))
    result = tasks.clock_tick_task.apply((7, 1, 3))  # eager: the retry runs at once, in place
    assert len(calls) == 2
    assert result.successful()


def test_a_deal_release_that_meets_a_locked_database_is_retried(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[Any] = []
    released = SimpleNamespace(state=DealState.OPEN)
    monkeypatch.setattr(deals, "deal_release", locked_once(calls, released))
    result = tasks.deal_release_task.apply((5,))
    assert calls == [(5,), (5,)]
    assert result.successful()
