"""A tournament night read in French: singulars for one, elision, "0 jeton", no English.

What a French director found on a real night: "Inscrits" and "Éliminés" over a single
player, "Tapis de ann" (French says "Tapis d’ann" before a vowel), "avait 0 jetons" (0 and
1 are singular in French), "PRIZE POOL" in the lobby, and the built-in blind structures
described in English. The lobby, the console, the TV clock and the tournament's page are
read here in French, first with one player registered (ann), then in play with one player
out.
"""

from __future__ import annotations

import doctest
import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation

from core import amounts
from series import elision
from series.models import Player
from tests.tournaments.factories import seat
from tournaments.errors import TournamentError
from tournaments.models import BlindStructure, Entry, EntryState, Tournament
from tournaments.services import entries, results
from tournaments.services.blind_structures import blind_structure_templates_install

FRENCH = {"HTTP_ACCEPT_LANGUAGE": "fr"}
# English a French page showed, whatever its case on screen ("PRIZE POOL" is CSS's).
LEFTOVERS = ("prize pool", "registered", "out so far", "entrants", "chips", "'s stack")


class _Text(HTMLParser):
    """What a person reads: the text outside scripts and styles, and the labels a screen
    reader speaks (aria-label, title, placeholder)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in {"script", "style", "template"}:
            self._skip += 1
        for name, value in attrs:
            if value and name in {"aria-label", "title", "placeholder"}:
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in {"script", "style", "template"} and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        # Only ASCII white space is collapsed: French writes a no-break space in "10 000"
        # and before a colon, and the test reads them as they are.
        text = re.sub(r"[ \t\r\n\f]+", " ", data).strip()
        if not self._skip and text:
            self.parts.append(text)


def text_of(html: str) -> str:
    reader = _Text()
    reader.feed(html)
    return "\n".join(reader.parts)


def french(client: Client, url: str) -> tuple[str, str]:
    """The page's HTML and its text, read in French."""
    response = client.get(url, **FRENCH)
    assert response.status_code == 200, url
    html = response.content.decode()
    assert 'lang="fr"' in html, url
    return html, text_of(html)


def leftovers(text: str) -> list[str]:
    """The lines of ``text`` with English a French page showed."""
    return [line for line in text.split("\n") if any(w in line.lower() for w in LEFTOVERS)]


def pages(tournament: Tournament) -> dict[str, str]:
    return {
        "console": reverse("tournaments:console", args=[tournament.pk]),
        "lobby": reverse("tournaments:lobby", args=[tournament.pk]),
        "tv": reverse("tournaments:tv_clock", args=[tournament.tv_token]),
        "detail": reverse("tournaments:detail", args=[tournament.pk]),
    }


@pytest.fixture(autouse=True)
def no_tasks(settings) -> None:  # type: ignore[no-untyped-def]
    settings.TOURNAMENTS_SCHEDULE_TASKS = False


def test_one_registered_player_reads_in_the_singular(
    tournament: Tournament, director_client: Client
) -> None:
    Entry.objects.create(tournament=tournament, player=Player.objects.create(name="ann"))
    urls = pages(tournament)

    html, text = french(director_client, urls["console"])
    assert re.search(r"<dt>Inscrit</dt>\s*<dd>1</dd>", html)
    assert re.search(r'class="badge state-registered">Inscrit<', html)
    assert "Inscrits" not in text
    assert leftovers(text) == []

    html, text = french(director_client, urls["lobby"])
    assert re.search(r">Inscrit\s*<span", html)  # the entrants' heading, over one entry
    assert "Cagnotte" in text
    assert leftovers(text) == []

    _html, text = french(director_client, urls["tv"])
    assert "Cagnotte" in text
    assert leftovers(text) == []

    _html, text = french(director_client, urls["detail"])
    assert "10\u00a0000 jetons" in text
    assert leftovers(text) == []


def test_a_night_in_play_with_one_player_out_reads_in_french(
    tournament: Tournament, director: User, director_client: Client
) -> None:
    tournament.capacity = None
    tournament.save(update_fields=["capacity"])
    night = seat(tournament, {1: {1: "ann", 2: "Ben", 3: "Cal", 4: "Dee"}})
    results.entry_eliminate(tournament.pk, [night["Dee"].pk], by=director)
    entries.entry_rebuy(night["ann"].pk, by=director, stack=0)
    urls = pages(tournament)

    html, text = french(director_client, urls["console"])
    assert "Tapis d’ann" in text  # the rebuy's stack, for a screen reader
    assert "Tapis d’ann au début de la main" in text  # the elimination form
    assert "Tapis de ann" not in text
    assert "Recave\u00a0: ann (1 sur 2, avait 0 jeton)" in text
    assert "Élimination\u00a0: Dee (rang 4)" in text and "Éliminés\u00a0: Dee" not in text
    assert re.search(r'class="subhead">Éliminé</h3>', html)
    assert re.search(r'class="badge state-out">Éliminé<', html)
    assert re.search(r"<dt>Entrées</dt>\s*<dd>4</dd>", html)
    assert leftovers(text) == []

    html, text = french(director_client, urls["lobby"])
    assert "Éliminé jusqu’ici" in text and "Éliminés jusqu’ici" not in text
    assert "Cagnotte" in text
    assert leftovers(text) == []

    _html, text = french(director_client, urls["tv"])
    assert "Cagnotte" in text
    assert leftovers(text) == []

    _html, text = french(director_client, urls["detail"])
    assert leftovers(text) == []


def test_french_amounts_and_names_read_as_french_writes_them() -> None:
    assert doctest.testmod(elision).failed == 0
    assert [elision.elides(name) for name in ("ann", "Hélène", "Yves", "Ben", "Yann")] == [
        True,
        True,
        True,
        False,
        False,
    ]
    with translation.override("fr"):
        assert amounts.chips(10000) == "10\u00a0000 jetons"
        assert amounts.chips(0) == "0 jeton"
        assert amounts.chips(1) == "1 jeton"
        assert amounts.chips(2) == "2 jetons"


def test_the_built_in_blind_structures_are_described_in_french(
    director_client: Client, db: None
) -> None:
    blind_structure_templates_install()
    template = BlindStructure.objects.get(name="Home series PLO8", is_template=True)
    english = template.description
    _html, text = french(
        director_client, reverse("tournaments:blind_structure_edit", args=[template.pk])
    )
    assert english not in text
    assert "10\u00a0000 jetons" in text
    with translation.override("fr"):
        assert template.description_text != english
    with translation.override("en"):
        assert template.description_text == english


def test_a_rebuy_refusal_in_french_counts_in_jetons(tournament: Tournament, director: User) -> None:
    night = seat(tournament, {1: {1: "ann", 2: "Ben"}})
    with translation.override("fr"), pytest.raises(TournamentError) as refused:
        entries.entry_rebuy(night["ann"].pk, by=director, stack=12000)
    message = refused.value.message
    assert "10\u00a0000 jetons" in message and "12\u00a0000 jetons" in message
    assert Entry.objects.get(pk=night["ann"].pk).state == EntryState.PLAYING
