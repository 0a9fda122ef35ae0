"""Only directors reach director pages: every URL pattern marked director-only is walked."""

from collections.abc import Callable, Iterator
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

pytestmark = pytest.mark.django_db


def _event_kwargs() -> dict[str, object]:
    from tests.tournaments.factories import sample_event

    return {"event_id": sample_event().pk}


def _event_kwargs_season() -> int:
    from tests.tournaments.factories import sample_event

    return sample_event().season_id


def _move_kwargs() -> dict[str, object]:
    from series.models import EventAction
    from tests.tournaments.factories import sample_event

    event = sample_event()
    move = EventAction.objects.create(
        event=event,
        kind="moved",
        at=event.starts_at,
        starts_before=event.starts_at + timedelta(days=1),
        starts_after=event.starts_at,
    )
    return {"event_id": event.pk, "action_id": move.pk}


def _tournament_kwargs() -> dict[str, object]:
    from tests.tournaments.factories import sample_tournament

    return {"tournament_id": sample_tournament().pk}


# Arguments for director pages whose URL takes some; a new one must be added here. A
# callable builds the rows the page needs (inside the test's database) and returns them.
SAMPLE_KWARGS: dict[str, dict[str, object] | Callable[[], dict[str, object]]] = {
    "tournaments:new": _event_kwargs,
    "tournaments:edit": _tournament_kwargs,
    "tournaments:console": _tournament_kwargs,
    # The first built-in blind structure and its first row (data migration tournaments 0002).
    "tournaments:blind_structure_edit": {"blind_structure_id": 1},
    "tournaments:blind_structure_row": {"blind_structure_id": 1, "row_id": 1},
    "tournaments:console_seating": _tournament_kwargs,
    "tournaments:console_results": _tournament_kwargs,
    "tournaments:console_online": _tournament_kwargs,
    "tournaments:console_chips": _tournament_kwargs,
    "tournaments:console_chips_section": _tournament_kwargs,
    "tournaments:console_requests": _tournament_kwargs,
    "tournaments:console_walk_in_suggest": _tournament_kwargs,
    "tournaments:clock_panel": _tournament_kwargs,
    "tournaments:sheet_seats": _tournament_kwargs,
    "tournaments:sheet_blind_structure": _tournament_kwargs,
    "tournaments:sheet_payouts": _tournament_kwargs,
    "series:event_corrections": _event_kwargs,
    "series:scoring": lambda: {"season_id": _event_kwargs_season()},
    "series:season_edit": lambda: {"season_id": _event_kwargs_season()},
    "series:event_new": lambda: {"season_id": _event_kwargs_season()},
    "series:events_recurring": lambda: {"season_id": _event_kwargs_season()},
    "series:season_close": lambda: {"season_id": _event_kwargs_season()},
    "series:season_reopen": lambda: {"season_id": _event_kwargs_season()},
    "series:event_edit": _event_kwargs,
    "series:event_delete": _event_kwargs,
    "series:event_publish": _event_kwargs,
    "series:event_cancel": _event_kwargs,
    "series:event_uncancel": _event_kwargs,
    "series:event_moved_back": _move_kwargs,
    "series:notice_decide": {"notice_id": 1},
}


def walk(patterns: list[URLPattern | URLResolver], namespace: str = "") -> Iterator[str]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace == "admin":
                continue  # the admin has its own staff check, tested below
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            yield from walk(pattern.url_patterns, inner)
        elif getattr(pattern.callback, "director_only", False):
            assert pattern.name, f"director-only pattern {pattern.pattern} needs a name"
            yield f"{namespace}{pattern.name}"


DIRECTOR_URL_NAMES = sorted(set(walk(get_resolver().url_patterns)))


def test_the_walk_finds_the_director_pages() -> None:
    assert "director_dashboard" in DIRECTOR_URL_NAMES


@pytest.fixture(params=DIRECTOR_URL_NAMES)
def director_url(request: pytest.FixtureRequest, db: None) -> str:
    sample = SAMPLE_KWARGS.get(request.param)
    return reverse(request.param, kwargs=sample() if callable(sample) else sample)


def test_anonymous_visitors_are_sent_to_log_in(client: Client, director_url: str) -> None:
    response = client.get(director_url)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_players_are_refused(player_client: Client, director_url: str) -> None:
    assert player_client.get(director_url).status_code == 403


def test_directors_get_in(director_client: Client, director_url: str) -> None:
    assert director_client.get(director_url).status_code == 200


def test_players_cannot_open_the_admin(player_client: Client) -> None:
    response = player_client.get(reverse("admin:index"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


def test_directors_manage_the_calendar_in_the_admin(director_client: Client) -> None:
    assert director_client.get(reverse("admin:series_event_changelist")).status_code == 200
    assert director_client.get(reverse("admin:series_season_add")).status_code == 200
    # Directors run the series, not the user accounts.
    assert director_client.get(reverse("admin:auth_user_changelist")).status_code == 403


def test_the_director_link_shows_only_for_directors(
    director_client: Client, player_client: Client
) -> None:
    dashboard = reverse("director_dashboard")
    assert dashboard in director_client.get(reverse("home")).content.decode()
    assert dashboard not in player_client.get(reverse("home")).content.decode()


def test_a_superuser_counts_as_a_director(client: Client) -> None:
    admin = User.objects.create_superuser("root", password="x-long-password-1")
    client.force_login(admin)
    assert client.get(reverse("director_dashboard")).status_code == 200
