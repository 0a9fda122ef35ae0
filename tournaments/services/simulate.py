"""A whole online tournament of house bots, played through the real services.

``tournament_simulate`` creates an event and a tournament, registers the bots
(``online_bots_fill``), starts it (the seat draw, the clock, the live tables) and then plays
every table in turn in this process, as fast as the machine allows: a house bot to act plays
at once (``bot_act``: its decision and move as in play, without the flood limit of a
person's sockets), a table with nothing to wait for is ticked (``table_tick``: a run-out's next street, the next hand), and
the clock moves to the next level every ``level_seconds`` (``clock_next``, unless it is
paused for hand-for-hand). Nothing sleeps: the caller sets the table's delay between hands
to 0 (``TABLES_NEXT_HAND_DELAY_MS``, ``TABLES_RUNOUT_STEP_MS``) and turns the Celery
scheduling off. Each hand's end is dealt with by the
tournament as in play (``hand_ended`` after commit).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.utils import timezone

from series.models import Event, Season
from series.services import director_grant
from tables.engine.config import Game, Structure
from tables.selectors import hands_dealt, hands_in_play, table_open, tables_version_total
from tables.services import bot_act, table_tick
from tournaments.errors import TournamentError
from tournaments.models import (
    BlindLevel,
    BlindStructure,
    Entry,
    LevelKind,
    Tournament,
    TournamentState,
    TournamentTable,
)
from tournaments.services import clock, lifecycle, online
from tournaments.services.results import payouts_compute

# Ticks look a moment ahead, so a next hand or a run-out's street due "now" (their delays
# set to 0) is never missed by a clock a microsecond behind.
LOOKAHEAD = timedelta(milliseconds=50)
# A table that made no progress for this long is stuck: the simulation stops and says so.
STALL_SECONDS = 30.0


@dataclass
class Simulation:
    tournament: Tournament
    hands: int = 0
    level_changes: int = 0
    move_seconds: list[float] = field(default_factory=list)
    seconds: float = 0.0

    def summary(self) -> dict[str, Any]:
        t = self.tournament
        places = [
            {"player": e.player.name, "place": e.place, "prize": e.prize}
            for e in Entry.objects.select_related("player")
            .filter(tournament=t, place__isnull=False)
            .order_by("place", "pk")
        ]
        return {
            "tournament": t.pk,
            "entrants": Entry.objects.filter(tournament=t).count(),
            "prize_pool": payouts_compute(t).pool,
            "hands": self.hands,
            "places": places,
        }


def blind_structure_for(starting_stack: int, *, limit: bool, levels: int = 40) -> BlindStructure:
    """Blinds rising by half each level from 1% of the starting stack (rounded to 5)."""
    structure = BlindStructure.objects.create(
        name=f"Simulation {timezone.now():%Y-%m-%d %H:%M:%S}", for_limit=limit
    )
    rows = []
    big = max(2, starting_stack // 100)
    for position in range(levels):
        small = max(1, big // 2)
        rows.append(
            BlindLevel(
                blind_structure=structure,
                position=position,
                kind=LevelKind.LEVEL,
                minutes=1,
                small_blind=small,
                big_blind=big,
                small_bet=big if limit else None,
                big_bet=2 * big if limit else None,
            )
        )
        big = max(big + 1, (big * 3 // 2) // 5 * 5)
    BlindLevel.objects.bulk_create(rows)
    return structure


def director_user() -> User:
    user, created = User.objects.get_or_create(
        username="simulator", defaults={"first_name": "Simulator"}
    )
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return director_grant(user)


def tournament_simulate(
    *,
    players: int,
    seats_per_table: int,
    seed: int = 0,
    game: Game | str = Game.OMAHA_HI_LO,
    structure: Structure | str = Structure.POT_LIMIT,
    level_seconds: float = 5.0,
    buy_in: int = 20,
    bounty: int = 0,
    starting_stack: int = 10000,
    payout_basis_points: list[int] | None = None,
    on_step: Callable[[Simulation], None] | None = None,
) -> Simulation:
    """Play an online tournament of ``players`` house bots to one winner."""
    tournament = tournament_for_simulation(
        payout_basis_points=payout_basis_points,
        players=players,
        seats_per_table=seats_per_table,
        seed=seed,
        game=game,
        structure=structure,
        buy_in=buy_in,
        bounty=bounty,
        starting_stack=starting_stack,
    )
    return tournament_play(tournament, level_seconds=level_seconds, on_step=on_step)


def tournament_for_simulation(
    *,
    players: int,
    seats_per_table: int,
    seed: int = 0,
    game: Game | str = Game.OMAHA_HI_LO,
    structure: Structure | str = Structure.POT_LIMIT,
    buy_in: int = 20,
    bounty: int = 0,
    starting_stack: int = 10000,
    payout_basis_points: list[int] | None = None,
) -> Tournament:
    """An online tournament of ``players`` house bots, started (its tables open)."""
    if players < 2:
        raise TournamentError("a tournament needs two players")
    random.seed(seed)
    director = director_user()
    today = timezone.localdate()
    season, _ = Season.objects.get_or_create(
        name="Simulations",
        defaults={"starts_on": today - timedelta(days=365), "ends_on": today + timedelta(days=365)},
    )
    event = Event.objects.create(
        season=season,
        name=f"Simulation {seed}",
        starts_at=timezone.now(),
        game=game,
        structure=structure,
        buy_in=buy_in,
        starting_stack=starting_stack,
        counts=False,
    )
    tournament = Tournament.objects.create(
        event=event,
        blind_structure=blind_structure_for(starting_stack, limit=structure == Structure.LIMIT),
        online=True,
        seats_per_table=seats_per_table,
        # Limit: capped heads-up too, as PHH replays are, so every hand exported replays.
        uncapped_heads_up=False,
        bounty=bounty,
        payout_basis_points=payout_basis_points or [],
        created_by=director,
    )
    online.online_bots_fill(tournament.pk, players, by=director)
    lifecycle.tournament_start(tournament.pk, by=director)
    return Tournament.objects.get(pk=tournament.pk)


def tournament_play(
    tournament: Tournament,
    *,
    level_seconds: float = 5.0,
    on_step: Callable[[Simulation], None] | None = None,
    shard: int = 0,
    shards: int = 1,
) -> Simulation:
    """Play the tournament's tables until it is over. With ``shards`` > 1, several
    processes share the work: this one plays the tables whose id is ``shard`` modulo
    ``shards`` (shard 0 also moves the clock), so hand-for-hand, moves and eliminations
    meet across processes as they do across servers."""
    sim = Simulation(tournament)
    levels = len(clock.clock_rows(tournament.blind_structure_id))
    started = time.monotonic()
    last_level = started
    last_progress = started
    seen_versions = None
    while True:
        tournament.refresh_from_db()
        if tournament.state not in (TournamentState.RUNNING, TournamentState.ON_BREAK):
            break
        now_mono = time.monotonic()
        if shard == 0 and now_mono - last_level >= level_seconds:
            last_level = now_mono
            if tournament.paused_remaining is None and tournament.level_index < levels - 1:
                clock.clock_next(tournament.pk, by=None)
                sim.level_changes += 1
        progressed = False
        live_ids = [
            live_id
            for live_id in TournamentTable.objects.filter(
                table_open("live_table_id"), tournament=tournament
            ).values_list("live_table_id", flat=True)
            if live_id is not None and live_id % shards == shard
        ]
        # One read says which tables wait on a bot (a hand with someone to act) and which
        # only need a tick (a run-out's street, the next hand).
        to_act = hands_in_play(live_ids)
        for live_id in live_ids:
            if to_act.get(live_id) is not None:
                t0 = time.perf_counter()
                if bot_act(live_id):
                    sim.move_seconds.append(time.perf_counter() - t0)
                    progressed = True
                    continue
            if table_tick(live_id, timezone.now() + LOOKAHEAD):
                progressed = True
        if on_step is not None and progressed:
            on_step(sim)
        if not progressed and shards > 1:
            # Another process's tables count: hand-for-hand waits on them, say.
            versions = tables_version_total(_live_ids_of(tournament))
            progressed = versions != seen_versions
            seen_versions = versions
            if not progressed:
                time.sleep(0.005)
        if progressed:
            last_progress = time.monotonic()
        elif time.monotonic() - last_progress > STALL_SECONDS:
            if online.online_sweep():
                last_progress = time.monotonic()
                continue
            raise TournamentError(f"the simulation of tournament {tournament.pk} is stuck")
    sim.seconds = time.monotonic() - started
    sim.hands = hands_dealt(_live_ids_of(tournament))
    return sim


def _live_ids_of(tournament: Tournament) -> QuerySet[TournamentTable, int]:
    """The ids of every live table the tournament opened: a subquery of the read given it."""
    return TournamentTable.objects.filter(tournament=tournament).values_list(
        "live_table_id", flat=True
    )
