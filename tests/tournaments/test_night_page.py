"""A player's night page and their asks for a rebuy or the add-on: always the viewer's own
night, the way in for a visitor who is nobody yet, and the director's one tap."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from series.models import Player
from tests.pages import without_tokens
from tests.tournaments.factories import make_user, seat, start
from tests.tournaments.levels import BREAK_1, LEVEL_4
from tournaments.errors import TournamentError
from tournaments.models import (
    ActionKind,
    Entry,
    EntryState,
    PurchaseRequest,
    PurchaseRequestState,
    Tournament,
    TournamentAction,
)
from tournaments.services import guest_pins, purchase_requests, undo
from tournaments.services.results import entry_eliminate

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def night_url(tournament: Tournament) -> str:
    return reverse("tournaments:night", args=[tournament.pk])


@pytest.fixture
def seated(tournament: Tournament) -> dict[str, Entry]:
    """Ann at table 2 seat 5 and Ben at table 1 seat 3 (accounts), Gus a guest, level 1."""
    entries = seat(tournament, {1: {3: "Ben", 4: "Gus"}, 2: {5: "Ann", 6: "Cy"}})
    for name in ("Ann", "Ben"):
        player = entries[name].player
        player.user = make_user(name.lower())
        player.save(update_fields=["user"])
    return entries


def client_of(entry: Entry) -> Client:
    client = Client()
    client.force_login(entry.player.user)
    return client


def test_a_logged_in_player_sees_their_own_seat(seated: dict[str, Entry]) -> None:
    page = client_of(seated["Ann"]).get(night_url(seated["Ann"].tournament))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-night-seat="2-5"' in html
    assert "Ann" in html and "Ben" not in without_tokens(html)
    # The clock and the payouts follow the clock's socket; the night its own.
    assert f"/ws/tournaments/{seated['Ann'].tournament.tv_token}/clock/" in html
    assert f"/ws/tournaments/{seated['Ann'].tournament.pk}/night/?lang=en" in html


def test_another_player_sees_only_their_own_night(seated: dict[str, Entry]) -> None:
    # No player id in the address: the same page shows Ben his seat, never Ann's.
    page = client_of(seated["Ben"]).get(night_url(seated["Ann"].tournament))
    html = page.content.decode()
    assert 'data-night-seat="1-3"' in html
    assert 'data-night-seat="2-5"' not in html and ">Ann<" not in html
    # A player id in the query string changes nothing.
    tampered = client_of(seated["Ben"]).get(
        night_url(seated["Ann"].tournament), {"player": seated["Ann"].player.pk}
    )
    assert 'data-night-seat="1-3"' in tampered.content.decode()


def test_an_anonymous_visitor_is_offered_log_in_or_a_guest_pin(tournament: Tournament) -> None:
    page = Client().get(night_url(tournament))
    assert page.status_code == 200
    html = page.content.decode()
    assert reverse("login") + "?next=" in html
    assert reverse("tournaments:night_pin", args=[tournament.pk]) in html
    assert "data-night-socket" not in html


def test_a_guest_with_a_proved_pin_sees_their_seat(seated: dict[str, Entry]) -> None:
    tournament = seated["Gus"].tournament
    pin = guest_pins.guest_pin_issue(tournament, seated["Gus"].player)
    client = Client()
    answer = client.post(
        reverse("tournaments:night_pin", args=[tournament.pk]),
        {"player": seated["Gus"].player.pk, "pin": pin},
    )
    assert answer.status_code == 302
    assert 'data-night-seat="1-4"' in client.get(night_url(tournament)).content.decode()


def test_a_player_with_no_entry_is_told_so(tournament: Tournament, ann: User) -> None:
    client = Client()
    client.force_login(ann)
    Player.objects.create(user=ann, name="ann")
    html = client.get(night_url(tournament)).content.decode()
    assert "You are not in this tournament." in html


def test_the_page_speaks_french(seated: dict[str, Entry]) -> None:
    client = client_of(seated["Ann"])
    client.cookies["django_language"] = "fr"
    html = client.get(night_url(seated["Ann"].tournament)).content.decode()
    assert "?lang=fr" in html


def test_out_shows_the_place(seated: dict[str, Entry], director: User) -> None:
    tournament = seated["Ann"].tournament
    entry_eliminate(tournament.pk, [seated["Ann"].pk], by=director)
    html = client_of(seated["Ann"]).get(night_url(tournament)).content.decode()
    assert "Out in 4th place" in html


# Asks -----------------------------------------------------------------------------------


def ask(entry: Entry, kind: str, **data: str) -> str:
    answer = client_of(entry).post(
        reverse("tournaments:night_ask", args=[entry.tournament_id]),
        {"kind": kind, **data},
        **HTMX,
    )
    assert answer.status_code == 200
    return answer.content.decode()


def test_a_player_asks_for_a_rebuy_and_sees_it_waiting(seated: dict[str, Entry]) -> None:
    html = ask(seated["Ann"], "rebuy", stack="2000")
    assert "Rebuy asked — waiting for the director." in html
    request = PurchaseRequest.objects.get(entry=seated["Ann"])
    assert (request.kind, request.state, request.stack) == ("rebuy", "pending", 2000)
    # Asked twice: refused with a message, still one pending.
    again = ask(seated["Ann"], "rebuy", stack="2000")
    assert "already asked for a rebuy" in again
    assert PurchaseRequest.objects.filter(entry=seated["Ann"]).count() == 1


def test_a_double_approve_records_one_rebuy(
    seated: dict[str, Entry], director_client: Client
) -> None:
    ask(seated["Ann"], "rebuy", stack="2000")
    request = PurchaseRequest.objects.get(entry=seated["Ann"])
    url = reverse("tournaments:console_request_approve", args=[seated["Ann"].tournament_id])
    form = {"ask": str(request.pk), "once_token": "a-token-of-sixteen-chars"}
    first = director_client.post(url, form, **HTMX)
    second = director_client.post(url, form, **HTMX)
    assert first.status_code == 204 and first["HX-Trigger"] == "tournament-changed"
    assert second.status_code == 200
    assert "That was already recorded" in second.content.decode() or (
        "already answered" in second.content.decode()
    )
    # Another director's tap with a fresh token: the ask is already answered.
    third = director_client.post(url, {**form, "once_token": "another-token-of-16"}, **HTMX)
    assert "already answered" in third.content.decode()
    seated["Ann"].refresh_from_db()
    assert seated["Ann"].rebuys == 1
    assert TournamentAction.objects.filter(kind=ActionKind.REBUY).count() == 1
    request.refresh_from_db()
    assert request.state == PurchaseRequestState.APPROVED and request.decided_at is not None
    # The player's page says so.
    assert (
        "Rebuy approved"
        in client_of(seated["Ann"]).get(night_url(seated["Ann"].tournament)).content.decode()
    )
    # The console's Undo takes the rebuy back like any other.
    undo.action_undo_last(seated["Ann"].tournament_id, by=request.decided_by)
    seated["Ann"].refresh_from_db()
    assert seated["Ann"].rebuys == 0


def test_the_director_refuses_an_ask(seated: dict[str, Entry], director_client: Client) -> None:
    ask(seated["Ann"], "rebuy", stack="500")
    request = PurchaseRequest.objects.get(entry=seated["Ann"])
    url = reverse("tournaments:console_request_refuse", args=[seated["Ann"].tournament_id])
    answer = director_client.post(url, {"ask": str(request.pk)})
    assert answer.status_code == 302
    request.refresh_from_db()
    assert request.state == PurchaseRequestState.REFUSED
    seated["Ann"].refresh_from_db()
    assert seated["Ann"].rebuys == 0
    page = client_of(seated["Ann"]).get(night_url(seated["Ann"].tournament)).content.decode()
    assert "Rebuy refused by the director." in page


def test_the_console_shows_requests_at_the_top(
    seated: dict[str, Entry], director_client: Client
) -> None:
    ask(seated["Ann"], "rebuy", stack="1500")
    html = director_client.get(
        reverse("tournaments:console", args=[seated["Ann"].tournament_id])
    ).content.decode()
    requests_at = html.index('id="console-requests"')
    assert requests_at < html.index('id="console-entries"')
    assert "asks for a rebuy (has 1,500 chips)" in html
    section = director_client.get(
        reverse("tournaments:console_requests", args=[seated["Ann"].tournament_id])
    ).content.decode()
    assert "Approve" in section and "Refuse" in section


def test_a_player_cannot_ask_when_the_rules_say_no(seated: dict[str, Entry]) -> None:
    tournament = seated["Ann"].tournament
    # Above the starting stack: refused with the rule's own words.
    html = ask(seated["Ann"], "rebuy", stack="25000")
    assert "A rebuy is only allowed at or below 10,000 chips" in html
    # The add-on is taken at the first break only.
    html = ask(seated["Ann"], "addon")
    assert "The add-on is taken at the break after level 3." in html
    # Past the rebuy levels.
    start(tournament, LEVEL_4)
    html = ask(seated["Ann"], "rebuy", stack="100")
    assert "Rebuys ended with level 3." in html
    assert not PurchaseRequest.objects.exists()


def test_the_add_on_at_its_break(seated: dict[str, Entry], director: User) -> None:
    start(seated["Ann"].tournament, BREAK_1)
    page = client_of(seated["Ann"]).get(night_url(seated["Ann"].tournament)).content.decode()
    assert "Ask for the add-on" in page
    ask(seated["Ann"], "addon")
    request = PurchaseRequest.objects.get(entry=seated["Ann"])
    purchase_requests.purchase_request_approve(request.pk, by=director)
    seated["Ann"].refresh_from_db()
    assert seated["Ann"].addon


def test_a_tampered_kind_or_stack_changes_nothing(seated: dict[str, Entry]) -> None:
    assert "Choose a rebuy or the add-on." in ask(seated["Ann"], "reentry")
    assert "Choose a rebuy or the add-on." in ask(seated["Ann"], "<script>")
    assert "Enter your stack in chips" in ask(seated["Ann"], "rebuy", stack="-5")
    assert "Enter your stack in chips" in ask(seated["Ann"], "rebuy", stack="9" * 40)
    assert not PurchaseRequest.objects.exists()


def test_another_players_ask_cannot_be_withdrawn(seated: dict[str, Entry]) -> None:
    ask(seated["Ann"], "rebuy", stack="100")
    request = PurchaseRequest.objects.get(entry=seated["Ann"])
    answer = client_of(seated["Ben"]).post(
        reverse("tournaments:night_withdraw", args=[seated["Ann"].tournament_id]),
        {"ask": str(request.pk)},
        **HTMX,
    )
    assert "This request does not exist." in answer.content.decode()
    request.refresh_from_db()
    assert request.state == PurchaseRequestState.PENDING
    # Ann herself may.
    client_of(seated["Ann"]).post(
        reverse("tournaments:night_withdraw", args=[seated["Ann"].tournament_id]),
        {"ask": str(request.pk)},
    )
    request.refresh_from_db()
    assert request.state == PurchaseRequestState.WITHDRAWN


def test_a_player_cannot_ask_on_someone_elses_entry(seated: dict[str, Entry]) -> None:
    with pytest.raises(TournamentError, match="not your entry"):
        purchase_requests.purchase_request_make(
            seated["Ann"].pk, seated["Ben"].player, "rebuy", stack=100
        )


def test_a_player_cannot_decide_an_ask(seated: dict[str, Entry]) -> None:
    ask(seated["Ann"], "rebuy", stack="100")
    request = PurchaseRequest.objects.get(entry=seated["Ann"])
    url = reverse("tournaments:console_request_approve", args=[seated["Ann"].tournament_id])
    assert client_of(seated["Ben"]).post(url, {"ask": str(request.pk)}).status_code == 403
    request.refresh_from_db()
    assert request.state == PurchaseRequestState.PENDING


def test_an_approval_the_rules_no_longer_allow_leaves_the_ask_pending(
    seated: dict[str, Entry], director_client: Client
) -> None:
    ask(seated["Ann"], "rebuy", stack="100")
    request = PurchaseRequest.objects.get(entry=seated["Ann"])
    start(seated["Ann"].tournament, LEVEL_4)
    url = reverse("tournaments:console_request_approve", args=[seated["Ann"].tournament_id])
    answer = director_client.post(url, {"ask": str(request.pk)}, **HTMX)
    assert "Rebuys ended with level 3." in answer.content.decode()
    request.refresh_from_db()
    assert request.state == PurchaseRequestState.PENDING
    assert Entry.objects.get(pk=seated["Ann"].pk).state == EntryState.PLAYING
    assert timezone.now()
