"""The tournament lobby, the player's panel on a live table, and the taps behind them."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tables.models import Table as LiveTable
from tests.pages import without_tokens
from tests.tournaments.online_tables import bust, chips_of
from tournaments.models import (
    DealOffer,
    DealState,
    Entry,
    EntryState,
    Tournament,
    TournamentTable,
)
from tournaments.services import deals, results


def client_of(name: str) -> Client:
    client = Client()
    client.force_login(User.objects.get(username=name))
    return client


def member() -> Client:
    """A member who is not in the tournament: the lobby names who plays, so it is for
    members (a visitor is asked to log in, ``tests/series/test_visibility.py``)."""
    user = User.objects.filter(username="mo").first() or User.objects.create_user("mo")
    client = Client()
    client.force_login(user)
    return client


def lobby_url(tournament) -> str:
    return reverse("tournaments:lobby", args=[tournament.pk])


def live_url(tournament, number: int) -> str:
    table = TournamentTable.objects.get(tournament=tournament, number=number).live_table
    return reverse("tables:table", args=[table.pk])


def test_the_lobby_shows_tables_stacks_and_watch_links_to_members(
    online_tournament, online_night
) -> None:
    cache.clear()
    page = member().get(lobby_url(online_tournament))
    assert page.status_code == 200
    html = page.content.decode()
    for name, chips in (("Ann", "6,000"), ("Ben", "14,000"), ("Cal", "9,000"), ("Dee", "11,000")):
        assert name in html
        assert chips in html
    assert html.count(">Watch<") == 2
    assert live_url(online_tournament, 1) in html
    assert f"/ws/tournaments/{online_tournament.tv_token}/clock/" in html
    assert "Go to my table" not in html


def test_a_player_still_in_gets_a_link_to_their_table_and_their_purchases(
    online_tournament, online_night
) -> None:
    html = client_of("ann").get(lobby_url(online_tournament)).content.decode()
    assert "Go to my table" in html
    assert live_url(online_tournament, 1) in html
    assert "Rebuy: 10,000 chips for 20" in html
    html = client_of("ben").get(lobby_url(online_tournament)).content.decode()
    assert "Rebuy:" not in html


def test_the_lobby_renders_for_the_director_with_the_console_link(
    online_tournament, online_night, director_client
) -> None:
    html = director_client.get(lobby_url(online_tournament)).content.decode()
    assert reverse("tournaments:console", args=[online_tournament.pk]) in html


def test_who_went_out_is_listed_with_place_and_prize(online_tournament, online_night) -> None:
    cache.clear()
    Entry.objects.filter(pk=online_night["cal"].pk).update(state=EntryState.OUT, place=4)
    online_tournament.payout_basis_points = [5000, 3000, 2000, 0][:3]
    online_tournament.save()
    Entry.objects.filter(pk=online_night["dee"].pk).update(state=EntryState.OUT, place=3)
    html = member().get(reverse("tournaments:lobby_public", args=[online_tournament.pk]))
    text = html.content.decode()
    assert "Out so far" in text
    words = without_tokens(text)
    assert words.index("Dee") < words.index("Cal")
    assert ">16<" in text  # third place: 20% of 80


def test_the_lobby_is_linked_from_the_tournament_and_event_pages(
    online_tournament, online_night
) -> None:
    detail = Client().get(online_tournament.get_absolute_url()).content.decode()
    assert lobby_url(online_tournament) in detail
    event = (
        Client().get(reverse("series:event", args=[online_tournament.event_id])).content.decode()
    )
    assert lobby_url(online_tournament) in event


def test_the_lobby_button_of_a_tournament_table_leads_to_the_tournaments_lobby(
    online_tournament, online_night
) -> None:
    html = client_of("ann").get(live_url(online_tournament, 1)).content.decode()
    assert f'<a class="tool" href="{lobby_url(online_tournament)}">Lobby</a>' in html
    assert f'<a class="tool" href="{reverse("tables:lobby")}">' not in html


def test_a_live_table_page_shows_the_player_their_rebuy_and_spectators_the_lobby_link(
    online_tournament, online_night
) -> None:
    url = live_url(online_tournament, 1)
    html = client_of("ann").get(url).content.decode()
    assert "Rebuy: 10,000 chips for 20" in html
    assert 'id="table-panels"' in html
    spectator = Client().get(url)
    assert spectator.status_code == 200
    text = spectator.content.decode()
    assert lobby_url(online_tournament) in text
    assert "Rebuy:" not in text


def test_the_panels_forms_come_back_to_the_table_not_to_the_fragment(
    online_tournament, online_night
) -> None:
    table_id = TournamentTable.objects.get(tournament=online_tournament, number=1).live_table_id
    # The table's panels refresh from their own URL; a form posted without htmx must come
    # back to the table's page, not to that fragment.
    html = client_of("ann").get(reverse("tables:table_panels", args=[table_id])).content.decode()
    back = reverse("tables:table", args=[table_id])
    assert f'name="next" value="{back}"' in html
    assert reverse("tables:table_panels", args=[table_id]) not in html
    lobby = client_of("ann").get(lobby_url(online_tournament)).content.decode()
    assert f'name="next" value="{lobby_url(online_tournament)}"' in lobby


def test_a_cash_table_has_no_panels(online_tournament, online_night) -> None:
    from tests.tournaments.online_tables import cash_table

    cash = cash_table(9)
    html = Client().get(reverse("tables:table", args=[cash.pk])).content.decode()
    assert 'id="table-panels"' not in html


def test_one_tap_rebuy_from_the_table_with_htmx_answers_with_the_panel(
    online_tournament, online_night
) -> None:
    ann = online_night["ann"]
    table_id = TournamentTable.objects.get(tournament=online_tournament, number=1).live_table_id
    data = {"kind": "rebuy", "entry": ann.pk, "seen": 0, "table": table_id}
    url = reverse("tournaments:purchase_take", args=[online_tournament.pk])
    client = client_of("ann")
    first = client.post(url, data, HTTP_HX_REQUEST="true")
    second = client.post(url, data, HTTP_HX_REQUEST="true")
    assert "Rebuy taken: 10,000 chips for 20" in first.content.decode()
    assert "That rebuy is already taken." in second.content.decode()
    ann.refresh_from_db()
    assert ann.rebuys == 1
    assert chips_of(ann) == 16000


def test_a_tap_without_javascript_redirects_back(online_tournament, online_night) -> None:
    ann = online_night["ann"]
    url = reverse("tournaments:purchase_take", args=[online_tournament.pk])
    table = TournamentTable.objects.get(tournament=online_tournament, number=1).live_table_id
    back = reverse("tables:table", args=[table])
    response = client_of("ann").post(
        url, {"kind": "rebuy", "entry": ann.pk, "seen": 0, "next": back}
    )
    assert response.status_code == 302
    assert response["Location"] == back
    # Its notice belongs to this tournament: never shown on a page that is not one of its.
    for elsewhere in ("https://evil.example/", "/elsewhere/"):
        response = client_of("ann").post(
            url, {"kind": "rebuy", "entry": ann.pk, "seen": 1, "next": elsewhere}
        )
        assert response["Location"] == lobby_url(online_tournament)


def test_anonymous_taps_go_to_log_in(online_tournament, online_night) -> None:
    url = reverse("tournaments:purchase_take", args=[online_tournament.pk])
    response = Client().post(url, {"kind": "rebuy", "entry": online_night["ann"].pk, "seen": 0})
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_the_deal_shows_on_each_players_screen_and_is_answered_there(
    online_tournament, online_night, director
) -> None:
    offer = deals.deal_offer(online_tournament.pk, "icm", by=director)
    url = reverse("tournaments:deal_answer", args=[online_tournament.pk])
    for name in ("ann", "ben", "cal"):
        client = client_of(name)
        page = client.get(live_url(online_tournament, 1)).content.decode()
        assert "Accept the deal" in page
        answer = client.post(
            url, {"offer": offer.pk, "answer": "accept"}, HTTP_HX_REQUEST="true"
        ).content.decode()
        assert "waiting for the others" in answer
    last = client_of("dee").post(
        url, {"offer": offer.pk, "answer": "accept"}, HTTP_HX_REQUEST="true"
    )
    assert "the deal is recorded" in last.content.decode()
    offer.refresh_from_db()
    assert offer.state == DealState.ACCEPTED


def test_a_deal_answer_for_another_tournament_is_refused(
    online_tournament, online_night, director
) -> None:
    offer = deals.deal_offer(online_tournament.pk, "icm", by=director)
    url = reverse("tournaments:deal_answer", args=[online_tournament.pk])
    ann = client_of("ann")
    for tampered in (offer.pk + 1, "1 OR 1", ""):
        html = ann.post(
            url, {"offer": tampered, "answer": "accept"}, HTTP_HX_REQUEST="true"
        ).content.decode()
        assert "This deal does not exist." in html
    elsewhere = reverse("tournaments:deal_answer", args=[online_tournament.pk + 1])
    assert ann.post(elsewhere, {"offer": offer.pk, "answer": "accept"}).status_code == 404
    stranger = User.objects.create_user("zed")
    client = Client()
    client.force_login(stranger)
    html = client.post(
        url, {"offer": offer.pk, "answer": "accept"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "not offered to you" in html
    assert not DealOffer.objects.get(pk=offer.pk).answers.exclude(answer="").exists()


def test_the_console_online_section_for_a_director(
    online_tournament, online_night, director_client
) -> None:
    html = director_client.get(
        reverse("tournaments:console", args=[online_tournament.pk])
    ).content.decode()
    assert 'id="console-online"' in html
    assert "Offer a deal" in html
    assert "Pause the tournament" in html
    response = director_client.post(
        reverse("tournaments:online_deal_offer", args=[online_tournament.pk]),
        {"method": "chip-chop"},
        HTTP_HX_REQUEST="true",
    )
    assert response["HX-Trigger"] == "tournament-changed"
    assert "Withdraw the deal" in response.content.decode()
    refused = director_client.post(
        reverse("tournaments:online_deal_offer", args=[online_tournament.pk]),
        {"method": "icm"},
        HTTP_HX_REQUEST="true",
    )
    assert "already offered" in refused.content.decode()
    offer = DealOffer.objects.get()
    director_client.post(
        reverse("tournaments:online_deal_cancel", args=[online_tournament.pk]), {"offer": offer.pk}
    )
    offer.refresh_from_db()
    assert offer.state == DealState.CANCELLED


def test_the_console_pause_and_resume_hold_the_tables(
    online_tournament, online_night, director_client
) -> None:
    director_client.post(reverse("tournaments:console_online_pause", args=[online_tournament.pk]))
    online_tournament.refresh_from_db()
    assert online_tournament.online_paused
    html = director_client.get(
        reverse("tournaments:console_online", args=[online_tournament.pk])
    ).content.decode()
    assert "Resume the tournament" in html
    director_client.post(reverse("tournaments:console_online_resume", args=[online_tournament.pk]))
    online_tournament.refresh_from_db()
    assert not online_tournament.online_paused


def test_players_cannot_use_the_online_controls(online_tournament, online_night) -> None:
    client = client_of("ann")
    for name in (
        "console_online_pause",
        "console_online_resume",
        "online_start",
        "online_deal_offer",
    ):
        assert (
            client.post(reverse(f"tournaments:{name}", args=[online_tournament.pk])).status_code
            == 403
        )
    assert (
        client.get(reverse("tournaments:console_online", args=[online_tournament.pk])).status_code
        == 403
    )


def test_an_in_person_console_has_no_online_section(tournament, director_client) -> None:
    html = director_client.get(
        reverse("tournaments:console", args=[tournament.pk])
    ).content.decode()
    assert 'id="console-online"' not in html


def test_hand_for_hand_is_shown_at_every_table_and_in_the_lobby(
    online_tournament, online_night
) -> None:
    Tournament.objects.filter(pk=online_tournament.pk).update(hand_for_hand=True)
    held = TournamentTable.objects.get(tournament=online_tournament, number=1).live_table
    LiveTable.objects.filter(pk=held.pk).update(held=True)
    playing = TournamentTable.objects.get(tournament=online_tournament, number=2).live_table
    LiveTable.objects.filter(pk=playing.pk).update(held=False)

    waiting = client_of("ann").get(live_url(online_tournament, 1)).content.decode()
    assert "Hand-for-hand" in waiting
    assert "Waiting for the other tables to finish their hand." in waiting
    dealt = client_of("ben").get(live_url(online_tournament, 2)).content.decode()
    assert "Every table plays this hand at the same time." in dealt

    cache.clear()
    lobby = member().get(lobby_url(online_tournament)).content.decode()
    assert "Hand-for-hand" in lobby and "The bubble has burst" not in lobby


def test_the_bubble_bursting_is_shown_at_the_tables_and_in_the_lobby(
    online_tournament, online_night
) -> None:
    cache.clear()
    assert "The bubble has burst" not in member().get(lobby_url(online_tournament)).content.decode()
    paid = results.paid_places(online_tournament)
    playing = list(Entry.objects.filter(tournament=online_tournament, state=EntryState.PLAYING))
    assert 0 < paid < len(playing)
    for place, entry in zip(range(len(playing), paid, -1), playing[::-1], strict=False):
        bust(entry, place)
    Tournament.objects.filter(pk=online_tournament.pk).update(
        hand_for_hand=False, hand_for_hand_hand=3
    )

    cache.clear()
    lobby = member().get(lobby_url(online_tournament)).content.decode()
    assert "The bubble has burst" in lobby and "Every player left is in the money." in lobby
    table = client_of("ann").get(live_url(online_tournament, 1)).content.decode()
    assert "The bubble has burst" in table
