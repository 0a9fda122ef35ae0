"""The admin pages of the tournaments open for directors, with their inlines."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tournaments.models import Entry, EntryState, Tournament, TournamentAction
from tournaments.services.entries import entry_add_walk_in

pytestmark = pytest.mark.django_db


def test_directors_manage_tournaments_in_the_admin(
    tournament: Tournament, director: User, director_client: Client
) -> None:
    entry = entry_add_walk_in(tournament.pk, "Bob", by=director)
    pages = [
        reverse("admin:tournaments_tournament_changelist"),
        reverse("admin:tournaments_tournament_change", args=[tournament.pk]),
        reverse("admin:tournaments_blindstructure_change", args=[tournament.blind_structure_id]),
        reverse("admin:tournaments_entry_change", args=[entry.pk]),
    ]
    for url in pages:
        assert director_client.get(url).status_code == 200, url
    page = director_client.get(pages[1]).content.decode()
    assert "Bob" in page  # the entries inline
    blind_structure = director_client.get(pages[2]).content.decode()
    assert 'name="levels-0-small_blind"' in blind_structure  # the levels inline


def test_the_action_log_is_read_only(
    tournament: Tournament, director: User, admin_client: Client
) -> None:
    entry_add_walk_in(tournament.pk, "Bob", by=director)
    action = TournamentAction.objects.get()
    url = reverse("admin:tournaments_tournamentaction_change", args=[action.pk])
    page = admin_client.get(url).content.decode()
    assert "Walk-in: Bob" in page and 'name="summary"' not in page
    assert admin_client.get(reverse("admin:tournaments_tournamentaction_add")).status_code == 403
    assert Entry.objects.get().state == EntryState.REGISTERED
