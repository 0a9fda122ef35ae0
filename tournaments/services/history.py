"""The hand histories of an online tournament as PHH.

Every hand its live tables dealt, in the order dealt, through the engine's one writer
(``tables.engine.phh``) with the tournament's facts added: the players' names, the table,
the level the hand was dealt at, and each player's starting and finishing stacks.
"""

from __future__ import annotations

from django.db.models import Prefetch

from tables.engine.phh import PhhError, dumps_phhs, hand_to_phh
from tables.models import Hand, HandPlayer
from tables.table_state import engine_of
from tournaments.models import Tournament, TournamentTable


def tournament_phhs(tournament: Tournament) -> str:
    """The ``.phhs`` text of every hand of the tournament, in the order dealt."""
    numbers = dict(
        TournamentTable.objects.filter(tournament=tournament, live_table__isnull=False).values_list(
            "live_table_id", "number"
        )
    )
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
        extra = {
            "players": [names.get(seat, f"seat {seat}") for seat in engine.seats],
            "table": f"{tournament.event.name}, table {numbers[hand.table_id]}",
            "hand": hand.number,
            "event": tournament.event.name,
            # The level the table was given with the hand's stakes; a hand dealt before
            # tables kept it has none (two levels may share their blinds: no guessing).
            "level": hand.level,
        }
        try:
            text = hand_to_phh(engine, **extra)
        except PhhError:
            # A house rule PHH replays do not follow (no cap heads-up in limit): written as
            # faithfully as PHH allows.
            text = hand_to_phh(engine, check=False, **extra)
        out.append((f"table-{numbers[hand.table_id]}-hand-{hand.number}", text))
    return dumps_phhs(out)
