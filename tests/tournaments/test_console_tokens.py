"""Each console form carries a one-time token: a double tap (or a resent form) records once.

The token is spent by the action it records, so a refused post leaves it usable, and a post
without one (a script, an old page) still works: only a reused token is refused.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import close_old_connections, connection
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import make_player, make_user, start
from tournaments.errors import TournamentError
from tournaments.models import Entry, EntryState, Tournament
from tournaments.services import undo
from tournaments.services.clock.controls import clock_start
from tournaments.services.entries import entry_rebuy, entry_register
from tournaments.views.once import FIELD

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
TOKEN = "k3y-0f-0ne-f0rm-r3nder"
ALREADY = "That was already recorded"


def playing(tournament: Tournament, name: str) -> Entry:
    return Entry.objects.create(
        tournament=tournament, player=make_player(name), state=EntryState.PLAYING
    )


def rebuy_url(tournament: Tournament, entry: Entry) -> str:
    return reverse("tournaments:console_rebuy", args=[tournament.pk, entry.pk])


def rebuys_of(entry: Entry) -> int:
    entry.refresh_from_db()
    return entry.rebuys


def test_a_double_post_of_a_rebuy_records_one_rebuy(
    tournament: Tournament, director_client: Client
) -> None:
    # The rules allow two rebuys: only the token tells the second post from a second rebuy.
    ann = playing(tournament, "ann")
    start(tournament)
    data = {"stack": "0", FIELD: TOKEN}

    first = director_client.post(rebuy_url(tournament, ann), data)
    second = director_client.post(rebuy_url(tournament, ann), data, follow=True)

    assert first.status_code == 302
    assert rebuys_of(ann) == 1 and tournament.actions.count() == 1
    page = second.content.decode()
    assert f"{ALREADY}: “Rebuy: ann (1 of 2, had 0 chips)”." in page


def test_a_double_post_of_a_rebuy_with_htmx_records_one_rebuy(
    tournament: Tournament, director_client: Client
) -> None:
    ann = playing(tournament, "ann")
    start(tournament)
    data = {"stack": "0", FIELD: TOKEN}

    first = director_client.post(rebuy_url(tournament, ann), data, **HTMX)
    second = director_client.post(rebuy_url(tournament, ann), data, **HTMX)

    assert first.status_code == 200 and "Rebuy for ann." in first.content.decode()
    assert second.status_code == 200
    body = second.content.decode()
    assert body.startswith('<div id="console-entries"') and ALREADY in body
    assert rebuys_of(ann) == 1 and tournament.actions.count() == 1


def test_two_forms_with_their_own_tokens_record_two_rebuys(
    tournament: Tournament, director_client: Client
) -> None:
    ann = playing(tournament, "ann")
    start(tournament)
    for token in ("first-form-render-0001", "second-form-render-002"):
        director_client.post(rebuy_url(tournament, ann), {"stack": "0", FIELD: token})
    assert rebuys_of(ann) == 2


def test_a_post_without_a_token_still_records(
    tournament: Tournament, director_client: Client
) -> None:
    ann = playing(tournament, "ann")
    start(tournament)
    director_client.post(rebuy_url(tournament, ann), {"stack": "0"})
    director_client.post(rebuy_url(tournament, ann), {"stack": "0"})
    assert rebuys_of(ann) == 2


@pytest.mark.parametrize("token", ["short", "x" * 65, "has spaces in it ok", "²" * 20])
def test_a_malformed_token_is_refused_and_changes_nothing(
    tournament: Tournament, director_client: Client, token: str
) -> None:
    ann = playing(tournament, "ann")
    start(tournament)
    response = director_client.post(rebuy_url(tournament, ann), {"stack": "0", FIELD: token})
    assert response.status_code == 400
    assert "reload the console" in response.content.decode()
    assert rebuys_of(ann) == 0


def test_a_refused_post_does_not_spend_its_token(
    tournament: Tournament, director_client: Client
) -> None:
    ann = playing(tournament, "ann")
    start(tournament)
    refused = director_client.post(
        rebuy_url(tournament, ann), {"stack": "999999", FIELD: TOKEN}, follow=True
    )
    assert rebuys_of(ann) == 0 and ALREADY not in refused.content.decode()
    # The same form, corrected and sent again.
    director_client.post(rebuy_url(tournament, ann), {"stack": "0", FIELD: TOKEN})
    assert rebuys_of(ann) == 1


def test_a_workflow_that_records_several_actions_spends_its_token_once(
    tournament: Tournament, director: User, director_client: Client
) -> None:
    # The start draws the seats (its own logged action) and then logs itself.
    for name in ("ann", "bob", "cal"):
        entry_register(tournament.pk, make_user(name))
    response = director_client.post(
        reverse("tournaments:console_start", args=[tournament.pk]), {FIELD: TOKEN}
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.is_started
    assert tournament.actions.filter(once_token=TOKEN).count() == 1


def test_a_token_is_refused_again_only_in_its_own_tournament(
    tournament: Tournament, director: User
) -> None:
    ann = playing(tournament, "ann")
    start(tournament)
    with undo.action_token(TOKEN):
        entry_rebuy(ann.pk, by=director, stack=0)
    with pytest.raises(TournamentError, match=ALREADY), undo.action_token(TOKEN):
        entry_rebuy(ann.pk, by=director, stack=0)
    assert rebuys_of(ann) == 1


def test_a_double_post_of_a_clock_control_moves_the_clock_once(
    tournament: Tournament, director: User, director_client: Client
) -> None:
    start(tournament)
    clock_start(tournament.pk, by=director)
    tournament.refresh_from_db()
    ends = tournament.level_ends_at
    url = reverse("tournaments:clock_adjust", args=[tournament.pk])
    data = {"seconds": "60", FIELD: TOKEN}

    assert director_client.post(url, data, **HTMX).status_code == 200
    second = director_client.post(url, data, **HTMX)

    assert ALREADY in second.content.decode()
    tournament.refresh_from_db()
    assert (tournament.level_ends_at - ends).total_seconds() == pytest.approx(60, abs=2)


def test_every_console_form_carries_a_token() -> None:
    templates = Path(settings.BASE_DIR) / "templates" / "tournaments"
    forms = 0
    for template in sorted(templates.glob("_console_*.html")):
        source = template.read_text()
        for form in re.findall(r'<form[^>]*method="post".*?</form>', source, flags=re.S):
            forms += 1
            assert "{% once_token %}" in form, f"{template.name}: {form[:120]}"
    assert forms >= 25


def test_each_form_on_the_console_gets_its_own_token(
    tournament: Tournament, director: User, director_client: Client
) -> None:
    ann = playing(tournament, "ann")
    start(tournament)
    entry_rebuy(ann.pk, by=director, stack=0)
    page = director_client.get(reverse("tournaments:console", args=[tournament.pk])).content
    tokens = re.findall(rf'name="{FIELD}" value="([^"]+)"'.encode(), page)
    assert len(tokens) >= 3 and len(set(tokens)) == len(tokens)


@pytest.mark.django_db(transaction=True)
def test_two_posts_of_one_form_at_once_record_one_rebuy(
    tournament: Tournament, director: User
) -> None:
    if connection.vendor == "sqlite":
        pytest.skip("SQLite serialises writers on its own; the race needs row locks (PostgreSQL)")
    ann = playing(tournament, "ann")
    start(tournament)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def tap() -> None:
        try:
            barrier.wait()
            with undo.action_token(TOKEN):
                entry_rebuy(ann.pk, by=director, stack=0)
            outcomes.append("recorded")
        except TournamentError as error:
            outcomes.append(error.message)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=tap) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(outcomes) == 2 and outcomes.count("recorded") == 1
    assert rebuys_of(ann) == 1
