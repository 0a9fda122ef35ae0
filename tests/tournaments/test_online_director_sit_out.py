"""The director sits out or removes a seated player of an online tournament, with a reason
the player reads on their panel: sat out, the seat stays and the engine's away rules play
it (blinds posted, hands folded); removed, the player is out as an elimination, their chips
leave play, and the log says so. Refused, with nothing changed: a non-director, another
tournament's entry, an entry with no seat, no reason."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from django.urls import reverse

from series.models import Event
from tables import services as tables
from tables.models import Seat, SeatState
from tables.models import Table as LiveTable
from tests.tournaments.factories import start
from tests.tournaments.online_tables import clock_running, hand_in_play, seat_online
from tournaments import player_panel
from tournaments.errors import TournamentError
from tournaments.models import (
    ActionKind,
    Entry,
    EntryState,
    Tournament,
    TournamentAction,
    TournamentTable,
)
from tournaments.services import online

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

LAYOUT = {
    1: {1: ("ann", 6000), 3: ("ben", 14000)},
    2: {2: ("cal", 9000), 5: ("dee", 11000)},
}


@pytest.fixture
def night(tournament: Tournament, settings: Any) -> dict[str, Entry]:
    settings.TABLES_SCHEDULE_TASKS = False
    settings.TOURNAMENTS_SCHEDULE_TASKS = False
    tournament.online = True
    tournament.save(update_fields=["online"])
    start(tournament)
    clock_running(tournament)
    return seat_online(tournament, LAYOUT)


def live(entry: Entry) -> LiveTable:
    return TournamentTable.objects.get(
        tournament_id=entry.tournament_id, number=entry.table_number
    ).live_table


def seat(entry: Entry) -> Seat:
    return Seat.objects.get(table=live(entry), number=entry.seat_number)


def panel_html(entry: Entry, table: LiveTable) -> str:
    request = RequestFactory().get("/")
    request.user = User.objects.get(pk=entry.player.user_id)
    panel = player_panel.panel_context(entry.tournament, request, table=table)
    return render_to_string("tournaments/_my_panel.html", {"panel": panel}, request=request)


def everything(tournament: Tournament) -> tuple[Any, ...]:
    """What a refusal must leave as it was."""
    entries = list(
        Entry.objects.filter(tournament=tournament)
        .order_by("pk")
        .values_list("state", "place", "director_note", "table_number", "seat_number")
    )
    seats = list(
        Seat.objects.filter(table__tournament_table__tournament=tournament)
        .order_by("pk")
        .values_list("user_id", "stack", "state", "sat_out_reason")
    )
    return entries, seats, TournamentAction.objects.filter(tournament=tournament).count()


def test_the_director_sits_out_a_player_with_a_reason_they_read(
    night: dict[str, Entry], director: User
) -> None:
    ann = night["ann"]
    online.online_entry_sit_out(ann.tournament_id, ann.pk, "Phone call, back soon", by=director)
    kept = seat(ann)
    assert kept.user_id == ann.player.user_id and kept.stack == 6000
    assert kept.state == SeatState.SITTING_OUT  # away: the engine posts and folds for them
    ann.refresh_from_db()
    assert ann.state == EntryState.PLAYING and ann.director_note == "Phone call, back soon"
    action = TournamentAction.objects.filter(tournament=ann.tournament).latest("pk")
    assert action.kind == ActionKind.SIT_OUT
    assert "Ann" in action.summary and "Phone call, back soon" in action.summary
    html = panel_html(ann, live(ann))
    assert "The director sat you out" in html and "Phone call, back soon" in html


def test_the_director_removes_a_player_their_chips_leave_play(
    night: dict[str, Entry], director: User
) -> None:
    ann = night["ann"]
    table = live(ann)
    online.online_entry_remove(ann.tournament_id, ann.pk, "Chip dumping", by=director)
    ann.refresh_from_db()
    assert ann.state == EntryState.OUT and ann.place == 4 and ann.director_note == "Chip dumping"
    assert ann.table_number is None
    emptied = Seat.objects.get(table=live(night["ben"]), number=1)
    assert emptied.user_id is None and emptied.stack == 0
    action = TournamentAction.objects.filter(tournament=ann.tournament).latest("pk")
    assert action.kind == ActionKind.REMOVE
    assert "Chip dumping" in action.summary and "6,000" in action.summary
    html = panel_html(ann, table)
    assert "The director removed you" in html and "Chip dumping" in html


def test_a_player_in_a_hand_is_removed_once_sat_out(
    night: dict[str, Entry], director: User
) -> None:
    ann = night["ann"]
    hand_in_play(live(ann))
    before = everything(ann.tournament)
    with pytest.raises(TournamentError, match="a hand is in play"):
        online.online_entry_remove(ann.tournament_id, ann.pk, "Chip dumping", by=director)
    assert everything(ann.tournament) == before


def test_bad_requests_change_nothing(
    night: dict[str, Entry], director: User, tournament: Tournament
) -> None:
    ann, ben = night["ann"], night["ben"]
    other_event = Event.objects.get(pk=tournament.event_id)
    other_event.pk = None
    other_event.save()
    other = Tournament.objects.create(
        event=other_event, blind_structure=tournament.blind_structure, capacity=6
    )
    before = everything(tournament)
    ann_user = User.objects.get(pk=ann.player.user_id)
    for action in (online.online_entry_sit_out, online.online_entry_remove):
        with pytest.raises(PermissionDenied):
            action(tournament.pk, ben.pk, "Because", by=ann_user)
        with pytest.raises(TournamentError, match="not in this tournament"):
            action(other.pk, ann.pk, "Because", by=director)
        with pytest.raises(TournamentError, match="reason"):
            action(tournament.pk, ann.pk, "   ", by=director)
        with pytest.raises(TournamentError, match="Null characters"):
            action(tournament.pk, ann.pk, "Why\x00", by=director)
        with pytest.raises(TournamentError, match="not in this tournament"):
            action(tournament.pk, "x", "Because", by=director)
    Entry.objects.filter(pk=ann.pk).update(table_number=None, seat_number=None)
    before = everything(tournament)
    for action in (online.online_entry_sit_out, online.online_entry_remove):
        with pytest.raises(TournamentError, match="has no seat"):
            action(tournament.pk, ann.pk, "Because", by=director)
    assert everything(tournament) == before


def test_the_console_sits_out_and_refuses_with_the_reason(
    night: dict[str, Entry], director: User, client: Client
) -> None:
    ann, ben = night["ann"], night["ben"]
    url = reverse("tournaments:online_player", args=[ann.tournament_id])
    client.force_login(director)
    console = client.get(reverse("tournaments:console_online", args=[ann.tournament_id]))
    assert "Sit out or remove a player" in console.content.decode()
    assert f'<option value="{ann.pk}">Ann (table 1, seat 1)</option>' in console.content.decode()
    before = everything(ann.tournament)
    refused = client.post(
        url, {"entry": ann.pk, "reason": "", "action": "sit-out"}, HTTP_HX_REQUEST="true"
    )
    assert "Give the player a reason." in refused.content.decode()
    refused = client.post(
        url, {"entry": "999999", "reason": "Why", "action": "remove"}, HTTP_HX_REQUEST="true"
    )
    assert "That player is not in this tournament." in refused.content.decode()
    refused = client.post(url, {"entry": ann.pk, "reason": "Why", "action": "kick"}, follow=True)
    assert "Choose to sit the player out or to remove them." in refused.content.decode()
    assert everything(ann.tournament) == before
    client.force_login(User.objects.get(pk=ben.player.user_id))
    assert (
        client.post(url, {"entry": ann.pk, "reason": "Why", "action": "remove"}).status_code == 403
    )
    assert everything(ann.tournament) == before
    client.force_login(director)
    done = client.post(
        url, {"entry": ann.pk, "reason": "Be right back", "action": "sit-out"}, follow=True
    )
    assert "Ann sits out; they read your reason." in done.content.decode()
    assert seat(ann).state == SeatState.SITTING_OUT


def test_the_reason_goes_once_the_player_is_back_or_out_by_the_cards(
    night: dict[str, Entry], director: User
) -> None:
    ann = night["ann"]
    table = live(ann)
    online.online_entry_sit_out(ann.tournament_id, ann.pk, "Phone call", by=director)
    tables.seat_sit_in(table.pk, User.objects.get(pk=ann.player.user_id))
    assert "Phone call" not in panel_html(ann, table)
    # Sat out again, then out on a hand of their own: the director did not remove them.
    online.online_entry_sit_out(ann.tournament_id, ann.pk, "Phone call", by=director)
    Entry.objects.filter(pk=ann.pk).update(state=EntryState.OUT, place=4)
    ann.refresh_from_db()
    assert "The director removed you" not in panel_html(ann, table)
