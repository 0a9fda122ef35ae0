"""What an online tournament's panel on a live table says once a deal or the tournament
has ended: a declined or lapsed deal leaves the table's panel (the lobby still tells how it
ended), and a finished tournament's table names its winner."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import User
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.utils import timezone

from tournaments import player_panel
from tournaments.models import Entry, EntryState, Tournament, TournamentTable
from tournaments.services import deals, results


def panel_of(tournament: Tournament, name: str, *, on_table: bool) -> dict:  # type: ignore[type-arg]
    request = RequestFactory().get("/")
    request.user = User.objects.get(username=name)
    table = (
        TournamentTable.objects.filter(tournament=tournament, number=1).first().live_table
        if on_table
        else None
    )
    return player_panel.panel_context(tournament, request, table=table)


def html_of(panel: dict) -> str:  # type: ignore[type-arg]
    return render_to_string("tournaments/_my_panel.html", {"panel": panel})


def test_a_declined_deal_leaves_the_table_panel(online_tournament, online_night, director) -> None:
    offer = deals.deal_offer(online_tournament.pk, "icm", by=director)
    assert panel_of(online_tournament, "ann", on_table=True)["deal"] is not None
    deals.deal_answer(offer.pk, User.objects.get(username="ben"), "decline")
    assert panel_of(online_tournament, "ann", on_table=True)["deal"] is None
    assert "Deal offered" not in html_of(panel_of(online_tournament, "ann", on_table=True))
    # The lobby still says how it ended, for a while.
    assert panel_of(online_tournament, "ann", on_table=False)["deal"] is not None


def test_a_lapsed_deal_leaves_the_table_panel(online_tournament, online_night, director) -> None:
    deals.deal_offer(online_tournament.pk, "icm", by=director, answer_minutes=1)
    assert deals.deals_lapse_due(timezone.now() + timedelta(minutes=2)) == 1
    assert panel_of(online_tournament, "cal", on_table=True)["deal"] is None


def test_a_finished_tournaments_table_names_its_winner(online_tournament, online_night) -> None:
    for name, place in (("ann", 4), ("cal", 3), ("dee", 2)):
        Entry.objects.filter(pk=online_night[name].pk).update(state=EntryState.OUT, place=place)
    results.tournament_finish_played(Tournament.objects.get(pk=online_tournament.pk))
    tournament = Tournament.objects.get(pk=online_tournament.pk)
    assert tournament.is_over
    panel = panel_of(tournament, "ann", on_table=True)
    assert panel["winner"] == "Ben"
    html = html_of(panel)
    assert "Ben wins the tournament." in html
