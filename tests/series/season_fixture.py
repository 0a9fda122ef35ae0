"""A demo-size season for page tests and screenshots: numbered events, players, results.

``build_season(events=20, players=40)`` makes a season the size a real
series reaches, for the pages to be shown with. Past events are finished and their results
go through the real path: the builder calls ``series.services.standings.event_results_store``
with the same plain dicts a finished tournament passes it (``tournaments.services.results``),
so what the series stores is what the pages show; ``Event.finished_at`` is set here, as the
finished tournament would have it.

Deterministic for a given ``seed`` (names, fields, places, prizes), relative to ``now``.
"""

from __future__ import annotations

import random
from datetime import date, datetime, time, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from series.models import Event, Player, Season
from series.services.standings import event_results_store
from tables.engine.config import Game, Structure
from tests.conftest import PASSWORD
from tournaments.models import (
    BlindLevel,
    BlindStructure,
    Entry,
    EntryState,
    LevelKind,
    Tournament,
    TournamentState,
)

FIRST_NAMES = (
    "Ann Ben Cal Dee Eve Fay Gus Hal Ivy Jon Kim Lou Max Ned Oli Pam Quin Ray Sue Tom "
    "Uma Vic Wes Xan Yve Zoe Abe Bea Cy Dot Eli Flo Gil Hep Ike Jo Kit Lem Mo Nan"
).split()
VENUES = ("Ann's kitchen", "Ben's garage", "The back room at Cal's", "Dee's flat")
NOTES = (
    "Bring snacks; the host has drinks.",
    "Last year's blind structure, 20-minute levels.",
    "Doors open half an hour early for the sit-down dinner.",
    "",
    "",
)
# (kind, minutes, small blind, big blind): the home series' usual structure.
LEVELS = [
    (LevelKind.LEVEL, 20, 25, 50),
    (LevelKind.LEVEL, 20, 50, 100),
    (LevelKind.LEVEL, 20, 75, 150),
    (LevelKind.BREAK, 10, 0, 0),
    (LevelKind.LEVEL, 20, 100, 200),
    (LevelKind.LEVEL, 20, 150, 300),
    (LevelKind.LEVEL, 20, 200, 400),
    (LevelKind.BREAK, 10, 0, 0),
    (LevelKind.LEVEL, 20, 300, 600),
    (LevelKind.LEVEL, 20, 400, 800),
]
REBUY_PRICE = 20
ADDON_PRICE = 20


SHORT_GAMES = {
    (Game.OMAHA_HI_LO, Structure.POT_LIMIT): "PLO8",
    (Game.OMAHA_HI_LO, Structure.LIMIT): "Limit O8",
    (Game.OMAHA_HI_LO, Structure.NO_LIMIT): "NLO8",
    (Game.OMAHA, Structure.POT_LIMIT): "PLO",
    (Game.OMAHA, Structure.LIMIT): "Limit Omaha",
    (Game.OMAHA, Structure.NO_LIMIT): "NLO",
}


def _event_name(number: int, day: date, game: str, betting: str) -> str:
    """Event 2 is named as the real one in ``docs/rules/sources/home-series-event-plo8.txt``."""
    if number == 2:
        return "Series Event 2"
    return f"{day:%A} {SHORT_GAMES[(Game(game), Structure(betting))]}"


def _notes(number: int, first_event_id: int) -> str:
    if number == 2:
        # docs/rules/sources/home-series-event-plo8.txt: "For the blind structure we used last year, click here."
        return (
            "20+5 Pot Limit Omaha/8.\n\n"
            f"For the blind structure we used last time, see /series/events/{first_event_id}/. "
            "We'll probably use something similar, but with a slightly larger starting stack."
        )
    return NOTES[number % len(NOTES)]


def _players(count: int, rng: random.Random) -> list[Player]:
    """About two players in three have an account; the rest are guests added by name."""
    players = []
    for index in range(count):
        first = FIRST_NAMES[index % len(FIRST_NAMES)]
        name = first if index < len(FIRST_NAMES) else f"{first} {index // len(FIRST_NAMES) + 1}"
        # A second season has the same people: they play again rather than sign up again.
        existing = Player.objects.filter(name=name).first()
        if existing is not None:
            players.append(existing)
        elif index % 3 == 2:
            players.append(Player.objects.create(name=name))
        else:
            username = name.lower().replace(" ", "")
            user = User.objects.create_user(username, password=PASSWORD)
            players.append(Player.objects.create(user=user, name=name))
    return players


def _blind_structure() -> BlindStructure:
    blind_structure = BlindStructure.objects.create(name="Home PLO8", chip_set=[25, 100, 500, 1000])
    BlindLevel.objects.bulk_create(
        BlindLevel(
            blind_structure=blind_structure,
            position=position,
            kind=kind,
            minutes=minutes,
            small_blind=small,
            big_blind=big,
        )
        for position, (kind, minutes, small, big) in enumerate(LEVELS)
    )
    return blind_structure


def _payouts(pool: int, field: int) -> list[int]:
    """Top quarter paid (at least one place), 50/30/20-like shares, rounded to whole units."""
    shares = {1: [100], 2: [65, 35], 3: [50, 30, 20], 4: [45, 27, 17, 11]}
    paid = min(4, max(1, field // 4))
    amounts = [pool * share // 100 for share in shares[paid]]
    amounts[0] += pool - sum(amounts)
    return amounts


def _results(event: Event, field: list[Player], rng: random.Random) -> list[dict[str, Any]]:
    """Plain dicts as ``tournaments.services.results`` sends them, best place first."""
    rows = []
    for player in field:
        rebuys = 0 if event.points_only else rng.choice((0, 0, 0, 1, 1, 2))
        addons = 0 if event.points_only else rng.choice((0, 1))
        rows.append({"player": player, "rebuys": rebuys, "addons": addons})
    pool = 0
    if not event.points_only:
        pool = sum(
            event.buy_in + r["rebuys"] * REBUY_PRICE + r["addons"] * ADDON_PRICE for r in rows
        )
    prizes = _payouts(pool, len(rows)) if pool else []
    # Knockouts: each player out (all but the winner) was knocked out by someone placed better.
    knockouts = [0] * len(rows)
    for place_index in range(1, len(rows)):
        knockouts[rng.randrange(place_index)] += 1
    results = []
    for index, row in enumerate(rows):
        player: Player = row["player"]
        paid_in = 0
        if not event.points_only:
            paid_in = (
                event.buy_in + event.fee + row["rebuys"] * REBUY_PRICE + row["addons"] * ADDON_PRICE
            )
        results.append(
            {
                "player_id": player.pk,
                "player_name": player.name,
                "is_guest": player.is_guest,
                "entry_numbers": [1],
                "place": index + 1,
                "prize": prizes[index] if index < len(prizes) else 0,
                "bounties": 0,
                "knockouts": knockouts[index],
                "rebuys": row["rebuys"],
                "addons": row["addons"],
                "reentries": 0,
                "paid_in": paid_in,
            }
        )
    return results


def build_season(
    events: int = 20,
    players: int = 40,
    seed: int = 0,
    director: User | None = None,
    now: datetime | None = None,
) -> Season:
    """A season of ``events`` numbered weekly events, the first 60% of them finished.

    Every event has a tournament (the same blind structure); finished ones have entries with
    places, upcoming ones a few registrations (the next one also a waiting list, capacity
    10). Event 2 is the home series' page's "Series Event 2, 20+5 Pot Limit Omaha/8" with
    notes linking the structure used last time, event 3 is played online, one upcoming event is a
    freeroll (points only), and event 4 is left out of the standings by the director.
    """
    rng = random.Random(seed)
    now = now or timezone.now()
    past = max(1, events * 3 // 5) if events > 1 else 0
    first_day = timezone.localdate(now) - timedelta(days=7 * past - 1)
    season = Season.objects.create(
        name=f"Omaha {first_day.year}",
        starts_on=first_day,
        ends_on=first_day + timedelta(days=7 * events),
        description="A season of Omaha tournaments among friends.",
    )
    people = _players(players, rng)
    blind_structure = _blind_structure()
    tz = timezone.get_current_timezone()
    first_event_id = 0
    for number in range(1, events + 1):
        day = first_day + timedelta(days=7 * (number - 1))
        starts_at = datetime.combine(day, time(19, 30), tzinfo=tz)
        is_past = number <= past
        online = number == 3
        game = Game.OMAHA if number % 3 == 0 else Game.OMAHA_HI_LO
        betting = (Structure.POT_LIMIT, Structure.LIMIT, Structure.NO_LIMIT)[number % 3]
        if number == 2:
            betting = Structure.POT_LIMIT
        points_only = number == past + 3
        event = Event.objects.create(
            season=season,
            name=_event_name(number, day, game, betting),
            number=number,
            starts_at=starts_at,
            venue="" if online else VENUES[number % len(VENUES)],
            game=game,
            structure=betting,
            buy_in=0 if points_only else (20 if number == 2 else rng.choice((20, 20, 30, 50))),
            fee=0 if points_only else 5,
            notes=_notes(number, first_event_id),
            counts=number != 4,
            points_only=points_only,
        )
        if number == 1:
            first_event_id = event.pk
        tournament = Tournament.objects.create(
            event=event,
            blind_structure=blind_structure,
            online=online,
            capacity=10 if number == past + 1 else None,
            rebuys_allowed=2,
            rebuy_until_level=3,
            rebuy_chips=10000,
            rebuy_price=REBUY_PRICE,
            addon_at_break=3,
            addon_chips=15000,
            addon_price=ADDON_PRICE,
            created_by=director,
        )
        if not is_past:
            count = 12 if number == past + 1 else rng.randint(0, 8)
            for index, player in enumerate(rng.sample(people, min(count, len(people)))):
                Entry.objects.create(
                    tournament=tournament,
                    player=player,
                    state=EntryState.WAITING if index >= 10 else EntryState.REGISTERED,
                )
            continue
        field = rng.sample(people, rng.randint(min(6, players), min(players, 16)))
        results = _results(event, field, rng)
        finished_at = starts_at + timedelta(hours=4)
        Entry.objects.bulk_create(
            Entry(
                tournament=tournament,
                player_id=row["player_id"],
                state=EntryState.OUT,
                rebuys=row["rebuys"],
                addon=bool(row["addons"]),
                place=row["place"],
                prize=row["prize"],
                knockouts_count=row["knockouts"],
                out_at=finished_at,
            )
            for row in results
        )
        tournament.state = TournamentState.FINISHED
        tournament.started_at = starts_at
        tournament.finished_at = finished_at
        tournament.save(update_fields=["state", "started_at", "finished_at"])
        event.finished_at = finished_at
        event.save(update_fields=["finished_at"])
        event_results_store(tournament.pk, event.pk, results)
    return season
