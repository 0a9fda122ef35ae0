"""The hand histories of an online tournament as PHH.

Every hand its live tables dealt, in the order dealt, through the engine's one writer
(``tables.engine.phh``) with the tournament's facts added: the players' names, the table,
the level the hand was dealt at, and each player's starting and finishing stacks.
"""

from __future__ import annotations

from django.db.models import Prefetch

from tables.engine.phh import PhhError, dumps_phhs, hand_to_phh
from tables.engines import engine_of
from tables.models import Hand, HandPlayer
from tournaments.models import Tournament, TournamentTable
from tournaments.services.clock import clock_rows


def _levels(tournament: Tournament) -> dict[tuple[int, int], int]:
    """Level number by (small blind, big blind): how a hand's blinds name its level."""
    found: dict[tuple[int, int], int] = {}
    for row in clock_rows(tournament.blind_structure_id):
        if row.number is not None:
            big = (
                row.small_bet or row.big_blind
                if tournament.event.structure == "limit"
                else row.big_blind
            )
            found.setdefault((min(row.small_blind, big), big), row.number)
    return found


def tournament_phhs(tournament: Tournament) -> str:
    """The ``.phhs`` text of every hand of the tournament, in the order dealt."""
    numbers = dict(
        TournamentTable.objects.filter(tournament=tournament, live_table__isnull=False).values_list(
            "live_table_id", "number"
        )
    )
    levels = _levels(tournament)
    hands = (
        Hand.objects.filter(table_id__in=list(numbers), ended_at__isnull=False)
        .select_related("table")
        .prefetch_related(
            Prefetch("handplayer_set", queryset=HandPlayer.objects.select_related("user"))
        )
        .order_by("started_at", "pk")
    )
    out = []
    for hand in hands:
        engine = engine_of(hand)
        names = {
            hp.seat: hp.user.first_name or hp.user.username for hp in hand.handplayer_set.all()
        }
        config = engine.config
        extra = {
            "players": [names.get(seat, f"seat {seat}") for seat in engine.seats],
            "table": f"{tournament.event.name}, table {numbers[hand.table_id]}",
            "hand": hand.number,
            "event": tournament.event.name,
            "level": levels.get((config.small_blind or 0, config.big_blind)),
        }
        try:
            text = hand_to_phh(engine, **extra)
        except PhhError:
            # A house rule PHH replays do not follow (no cap heads-up in limit): written as
            # faithfully as PHH allows.
            text = hand_to_phh(engine, check=False, **extra)
        out.append((f"table-{numbers[hand.table_id]}-hand-{hand.number}", text))
    return dumps_phhs(out)
