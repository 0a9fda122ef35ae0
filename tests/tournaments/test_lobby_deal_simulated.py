"""A deal offered while house bots play a hand, through the real online tables.

``tournament_simulate`` (the core's) plays six bots at one live table; when a hand is in
play, the director offers an ICM deal: it is held (the hand still moves chips), the tables
deal no new hand once it ends, the amounts come from the chips after it, and when every
player has accepted (house bots accept an ICM deal at once), the tournament ends with those prizes and its tables close.
Should the held hand leave one player, the tournament is won at the table and the offer
ends saying so.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from tables.models import Hand, Seat, Table
from tournaments.models import DealEnd, DealOffer, DealState, Entry, EntryState, TournamentState
from tournaments.services import deals
from tournaments.services.simulate import Simulation, tournament_simulate


@pytest.mark.django_db(transaction=True)
def test_a_deal_offered_during_a_bots_hand_applies_after_it(settings: Any) -> None:
    settings.TABLES_NEXT_HAND_DELAY_MS = 0
    settings.TOURNAMENTS_SCHEDULE_TASKS = False
    seen: dict[str, Any] = {}

    def step(sim: Simulation) -> None:
        tournament = sim.tournament
        offer = seen.get("offer")
        if offer is None:
            in_play = Table.objects.filter(
                tournament_table__tournament=tournament, hands__ended_at__isnull=True
            ).exists()
            if in_play:
                director = User.objects.get(username="simulator")
                offer = deals.deal_offer(tournament.pk, "icm", by=director)
                seen["offer"] = offer
                seen["held"] = offer.state == DealState.HELD
                seen["hands"] = Hand.objects.filter(
                    table__tournament_table__tournament=tournament
                ).count()
            return
        chips = sum(
            Seat.objects.filter(
                table__tournament_table__tournament=tournament, user__isnull=False
            ).values_list("stack", flat=True)
        )
        left = Entry.objects.filter(tournament=tournament, state=EntryState.PLAYING).count()
        offer = deals.deal_release(offer.pk)
        seen["offer"] = offer
        if offer.state == DealState.HELD:
            return
        seen.setdefault("left", left)
        # Opened: the chips as the hand left them (the house bots accept an ICM deal at once,
        # so it may be settled already).
        seen.setdefault("chips", chips)
        if offer.state != DealState.OPEN:
            return
        for answer in offer.answers.select_related("entry__player__user"):
            if not answer.answer and offer.state == DealState.OPEN:
                offer = deals.deal_answer(offer.pk, answer.entry.player.user, "accept")

    sim = tournament_simulate(players=6, seats_per_table=6, seed=3, level_seconds=60, on_step=step)
    tournament = sim.tournament
    tournament.refresh_from_db()
    offer = DealOffer.objects.get(tournament=tournament)
    assert seen["held"], "the deal was offered while a hand was in play"
    assert tournament.state == TournamentState.FINISHED
    if seen["left"] == 1:
        # The held hand knocked out all but one (the house bots play a first hand all-in
        # about once in sixty tournaments): won at the table, so no deal, and it says why.
        assert (offer.state, offer.settled_reason) == (DealState.CANCELLED, DealEnd.ONE_LEFT)
        assert offer.amounts == {}
    else:
        assert (offer.state, offer.settled_reason, offer.settled_name) == (
            DealState.ACCEPTED,
            DealEnd.ACCEPTED,
            "",
        )
        # The amounts came from the chips once the hand had ended: every chip is in them.
        assert sum(offer.stacks.values()) == seen["chips"] == 6 * 10000
        prizes = dict(
            Entry.objects.filter(
                tournament=tournament, pk__in=[int(k) for k in offer.amounts]
            ).values_list("pk", "prize")
        )
        assert {str(k): v for k, v in prizes.items()} == offer.amounts
    assert (
        sum(Entry.objects.filter(tournament=tournament).values_list("prize", flat=True)) == 6 * 20
    )
    assert not Table.objects.filter(
        tournament_table__tournament=tournament, closed_at__isnull=True
    ).exists()
    # No hand was dealt after the one in play when the deal was offered.
    assert (
        Hand.objects.filter(table__tournament_table__tournament=tournament).count() == seen["hands"]
    )
