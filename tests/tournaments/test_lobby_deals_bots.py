"""House bots answer a deal at once by a stated rule, the console says who has not answered,
and an offer nobody finishes answering lapses after the director's time."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils.html import strip_tags

from tournaments.models import DealEnd, DealOffer, DealState, Entry, Tournament, TournamentState
from tournaments.services import deals, results


def make_bots(*names: str) -> None:
    """Turn the fixture's players into house bots: accounts named ``bot-...`` that cannot log
    in with a password (how ``tables`` tells a house bot)."""
    for name in names:
        user = User.objects.get(username=name)
        user.username = f"bot-test-{name}"
        user.set_unusable_password()
        user.save()


def answers(offer: DealOffer) -> dict[str, str]:
    return {a.entry.player.name: a.answer for a in offer.answers.select_related("entry__player")}


def paused(tournament: Tournament) -> bool:
    return Tournament.objects.get(pk=tournament.pk).online_paused


def test_house_bots_accept_an_icm_deal_at_once(online_tournament, online_night, director):
    make_bots("cal", "dee")
    offer = deals.deal_offer(online_tournament.pk, "icm", by=director)
    assert offer.state == DealState.OPEN
    assert answers(offer) == {"Ann": "", "Ben": "", "Cal": "accept", "Dee": "accept"}


def test_a_house_bot_declines_a_deal_below_its_icm_value(online_tournament, online_night, director):
    offer_icm = deals.deal_offer(online_tournament.pk, "icm", by=director)
    stacks = offer_icm.stacks
    deals.deal_cancel(offer_icm.pk, by=director)
    icm = results.deal_propose(online_tournament.pk, method="icm", stacks=stacks)
    chop = results.deal_propose(online_tournament.pk, method="chip-chop", stacks=stacks)
    icm_of = {line.entry_id: line.prize for line in icm.lines}
    short = [line for line in chop.lines if line.prize < icm_of[line.entry_id] * 0.98]
    assert short, "the chip-chop pays some stack less than its ICM value"
    loser = Entry.objects.select_related("player__user").get(pk=short[0].entry_id)
    make_bots(loser.player.user.username)

    offer = deals.deal_offer(online_tournament.pk, "chip-chop", by=director)

    offer.refresh_from_db()
    assert offer.state == DealState.DECLINED
    assert offer.settled_text == f"{loser.player.name} declined"
    assert not paused(online_tournament)


def test_a_deal_every_bot_accepts_ends_the_tournament(online_tournament, online_night, director):
    make_bots("ann", "ben", "cal", "dee")
    offer = deals.deal_offer(online_tournament.pk, "icm", by=director)
    offer.refresh_from_db()
    online_tournament.refresh_from_db()
    assert offer.state == DealState.ACCEPTED
    assert online_tournament.state == TournamentState.FINISHED


def test_an_unanswered_offer_lapses_after_the_directors_time(
    online_tournament, online_night, director
):
    offer = deals.deal_offer(online_tournament.pk, "icm", by=director, answer_minutes=3)
    assert offer.answer_by is not None
    assert timedelta(minutes=2, seconds=59) < offer.answer_by - offer.offered_at
    assert offer.answer_by - offer.offered_at < timedelta(minutes=3, seconds=5)
    deals.deal_answer(offer.pk, User.objects.get(username="ann"), "accept")

    assert deals.deals_lapse_due(now=offer.answer_by - timedelta(seconds=1)) == 0
    offer.refresh_from_db()
    assert offer.state == DealState.OPEN and paused(online_tournament)

    assert deals.deals_lapse_due(now=offer.answer_by + timedelta(seconds=1)) == 1
    offer.refresh_from_db()
    assert offer.state == DealState.CANCELLED
    assert offer.settled_reason == DealEnd.LAPSED
    assert offer.settled_text == "no answer in time from Ben, Cal, Dee"
    assert not paused(online_tournament)  # the tables it held play on
    assert deals.deals_lapse_due(now=offer.answer_by + timedelta(minutes=5)) == 0


def test_the_default_answer_time_is_two_minutes(online_tournament, online_night, director):
    offer = deals.deal_offer(online_tournament.pk, "icm", by=director)
    assert offer.answer_minutes == 2


def test_the_console_says_who_has_not_answered_and_sets_the_time(
    online_tournament, online_night, director
):
    client = Client()
    client.force_login(director)
    console = reverse("tournaments:console_online", args=[online_tournament.pk])
    form = client.get(console).content.decode()
    assert 'name="answer_minutes"' in form
    token = _once_token(form, "online_deal_offer", online_tournament.pk)
    client.post(
        reverse("tournaments:online_deal_offer", args=[online_tournament.pk]),
        {"method": "icm", "answer_minutes": "5", **token},
    )
    offer = DealOffer.objects.get(tournament=online_tournament)
    assert offer.answer_minutes == 5
    deals.deal_answer(offer.pk, User.objects.get(username="ben"), "accept")
    page = strip_tags(client.get(console).content.decode())
    assert "Not answered yet: Ann, Cal, Dee" in " ".join(page.split())


def test_a_bad_answer_time_is_refused_and_offers_nothing(online_tournament, online_night, director):
    for minutes in ("0", "61", "x", "²"):
        client = Client()
        client.force_login(director)
        console = reverse("tournaments:console_online", args=[online_tournament.pk])
        token = _once_token(
            client.get(console).content.decode(), "online_deal_offer", online_tournament.pk
        )
        response = client.post(
            reverse("tournaments:online_deal_offer", args=[online_tournament.pk]),
            {"method": "icm", "answer_minutes": minutes, **token},
        )
        assert response.status_code < 500
    assert not DealOffer.objects.filter(tournament=online_tournament).exists()


def _once_token(html: str, url_name: str, tournament_id: int) -> dict[str, str]:
    """The one-time token of the console's form that posts to ``url_name``, if it has one."""
    import re

    action = reverse(f"tournaments:{url_name}", args=[tournament_id])
    form = html[html.index(f'action="{action}"') :]
    form = form[: form.index("</form>")]
    found = re.search(r'name="(once[^"]*)" value="([^"]+)"', form)
    return {found.group(1): found.group(2)} if found else {}
