"""The console's history is written in the reader's language, not the actor's.

A summary is stored as its catalog message and arguments (``TournamentAction.summary_message``)
and written out when it is shown. The French catalog is compiled by the lead, so these tests
stand a small fake catalog in for it: what they check is *when* the text is translated.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tournaments import summaries
from tournaments.models import Tournament, TournamentAction
from tournaments.services.entries import entry_add_walk_in
from tournaments.summaries import joined, message

pytestmark = pytest.mark.django_db

FAKE_FRENCH = {
    "Walk-in: %(name)s": "Sans inscription : %(name)s",
    "%(name)s → %(to)s": "%(name)s → %(to)s",
    "table %(table)s seat %(seat)s": "table %(table)s siège %(seat)s",
    "Broke table %(number)s: %(moves)s": "Table %(number)s cassée : %(moves)s",
}


@pytest.fixture
def fake_french(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fake catalog, used when French is the active language (as gettext would)."""

    def gettext(msgid: str) -> str:
        if translation.get_language() == "fr":
            return FAKE_FRENCH.get(msgid, msgid)
        return msgid

    monkeypatch.setattr(summaries, "gettext", gettext)


def test_a_summary_keeps_its_text_and_how_to_write_it_again() -> None:
    line = message("Walk-in: %(name)s", name="Ann")
    assert line == "Walk-in: Ann"
    assert line.data == {"msgid": "Walk-in: %(name)s", "args": {"name": "Ann"}}


def test_nested_and_joined_messages_are_translated_piece_by_piece(fake_french: None) -> None:
    seat = message("table %(table)s seat %(seat)s", table=2, seat=4)
    moves = joined([message("%(name)s → %(to)s", name=name, to=seat) for name in ("Ann", "Bob")])
    line = message("Broke table %(number)s: %(moves)s", number=1, moves=moves)
    assert line == "Broke table 1: Ann → table 2 seat 4, Bob → table 2 seat 4"
    with translation.override("fr"):
        assert summaries.render(line.data) == (
            "Table 1 cassée : Ann → table 2 siège 4, Bob → table 2 siège 4"
        )


def test_an_action_logged_in_english_reads_in_french_for_a_french_director(
    tournament: Tournament, director: User, fake_french: None
) -> None:
    entry_add_walk_in(tournament.pk, "Bob", by=director)
    action = tournament.actions.get()
    assert action.summary == "Walk-in: Bob"
    with translation.override("fr"):
        action = TournamentAction.objects.get(pk=action.pk)
        assert action.summary_text == "Sans inscription : Bob"
        assert str(action) == "Sans inscription : Bob"
    assert action.summary_text == "Walk-in: Bob"


def test_the_console_history_shows_the_readers_language(
    tournament: Tournament, director: User, fake_french: None
) -> None:
    with translation.override("fr"):
        entry_add_walk_in(tournament.pk, "Bob", by=director)
    client = Client()
    client.force_login(director)
    page = client.get(reverse("tournaments:console", args=[tournament.pk])).content.decode()
    assert "Walk-in: Bob" in page and "Sans inscription" not in page


def test_a_line_logged_before_summaries_were_data_still_shows(
    tournament: Tournament, director: User
) -> None:
    old: Any = TournamentAction.objects.create(
        tournament=tournament, kind="register", summary="Walk-in: Old", by=director
    )
    assert old.summary_message == {}
    with translation.override("fr"):
        assert old.summary_text == "Walk-in: Old"
