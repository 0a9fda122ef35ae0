"""A small site with something on every page, for the bad-input walk (tests/test_bad_input.py).

One season with a finished event (results, a settle-up with transfers, a guest to merge),
an in-person tournament in play (seated at two tables, a late entry waiting for a seat),
an online tournament in play on live tables with a deal offered to its players, a blind
structure a director may still edit, a cash table with a finished hand, and a private
table with a seat request. ``pat`` (the player) plays in all of it; ``dana`` directs.
Built through the services where they exist, so each page shows its forms as in use.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from series.models import Event, Game, Player, Result, Season, Structure
from series.services import director_grant
from series.services.calendar import player_calendar_token_renew
from series.services.settle import settle_up_compute
from tables import services as tables
from tables.models import Hand, Table
from tests.conftest import PASSWORD
from tournaments.models import (
    BlindLevel,
    BlindStructure,
    DealOffer,
    Entry,
    EntryState,
    LevelKind,
    Tournament,
)
from tournaments.services import deals, entries, lifecycle

# (kind, minutes, small blind, big blind): three levels, a break, two levels.
LEVELS = [
    (LevelKind.LEVEL, 20, 25, 50),
    (LevelKind.LEVEL, 20, 50, 100),
    (LevelKind.LEVEL, 20, 75, 150),
    (LevelKind.BREAK, 10, 0, 0),
    (LevelKind.LEVEL, 20, 100, 200),
    (LevelKind.LEVEL, 20, 150, 300),
]


@dataclass
class World:
    director: User
    player: User
    me: Player  # the player's own row
    guest: Player
    season: Season
    finished_event: Event
    next_event: Event  # no tournament yet
    live: Tournament  # in person, in play
    online: Tournament  # online, in play, a deal offered
    offer: DealOffer
    my_live_entry: Entry
    late_entry: Entry  # registered late, no seat yet
    blind_structure: BlindStructure  # a director's own, not used yet: editable
    row: BlindLevel
    table: Table  # a cash table
    hand: Hand  # finished, at ``table``
    private_table: Table


def _user(name: str) -> User:
    return User.objects.create_user(name, password=PASSWORD)


def _account(name: str) -> tuple[User, Player]:
    user = _user(name)
    return user, Player.objects.create(user=user, name=name.capitalize())


def _blind_structure(name: str, owner: User | None = None) -> BlindStructure:
    blind_structure = BlindStructure.objects.create(
        name=name, chip_set=[25, 100, 500, 1000], created_by=owner
    )
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


def _event(season: Season, name: str, starts_at: object, **fields: object) -> Event:
    return Event.objects.create(
        season=season,
        name=name,
        starts_at=starts_at,
        venue="Ann's kitchen",
        game=Game.OMAHA_HI_LO,
        structure=Structure.POT_LIMIT,
        buy_in=20,
        fee=5,
        starting_stack=10000,
        **fields,
    )


def _tournament(event: Event, director: User, **fields: object) -> Tournament:
    return Tournament.objects.create(
        event=event,
        blind_structure=_blind_structure(f"{event.name} levels"),
        seats_per_table=4,
        late_registration_until_level=4,
        rebuys_allowed=2,
        rebuy_until_level=3,
        rebuy_chips=10000,
        rebuy_price=20,
        addon_at_break=3,
        addon_chips=15000,
        addon_price=20,
        reentries_allowed=1,
        reentry_until_level=4,
        created_by=director,
        **fields,
    )


def world_build() -> World:
    now = timezone.now()
    today = timezone.localdate()
    director = director_grant(_user("dana"))
    player, _me = _account("pat")
    me = player_calendar_token_renew(player)
    others = [_account(name) for name in ("ann", "ben", "cal", "dee", "eve")]
    guest = Player.objects.create(name="Gus")
    season = Season.objects.create(
        name="Spring", starts_on=today - timedelta(days=30), ends_on=today + timedelta(days=60)
    )

    # A finished night: Pat won 40, Ann 20, Gus nothing, each paid in 25 (fee 5).
    finished_event = _event(
        season, "Last week", now - timedelta(days=7), finished_at=now - timedelta(days=7)
    )
    for place, (who, prize) in enumerate([(me, 40), (others[0][1], 20), (guest, 0)], start=1):
        Result.objects.create(
            event=finished_event, player=who, place=place, prize=prize, paid_in=25
        )
    settle_up_compute(finished_event.pk)
    next_event = _event(season, "Next month", now + timedelta(days=30))

    # In person: Pat and four others drawn at tables of four, Eve late with no seat yet.
    live = _tournament(_event(season, "Tonight", now), director)
    for user in [player, *(user for user, _ in others[:4])]:
        entries.entry_register(live.pk, user)
    lifecycle.tournament_start(live.pk, by=director)
    late_entry = entries.entry_late(live.pk, others[4][1].pk, by=director)
    my_live_entry = Entry.objects.get(tournament=live, player=me, state=EntryState.PLAYING)

    # Online: Pat, Ann and Ben on the live tables, a deal offered to them.
    online = _tournament(_event(season, "Online tonight", now), director, online=True)
    for user in [player, others[0][0], others[1][0]]:
        entries.entry_register(online.pk, user)
    lifecycle.tournament_start(online.pk, by=director)
    offer = deals.deal_offer(online.pk, "icm", by=director)

    blind_structure = _blind_structure("Dana's draft", director)

    # A cash table where Pat folded a hand to Ann, and a private table Ben asked to join.
    table = tables.table_create(created_by=director, name="Friday Omaha", big_blind=2)
    tables.seat_take(table.pk, player, 1, table.max_buy_in)
    tables.seat_take(table.pk, others[0][0], 4, table.max_buy_in)
    tables.table_tick(table.pk, now=now + timedelta(minutes=5))
    hand = Hand.objects.get(table=table)
    table.refresh_from_db()
    to_act = player if hand.to_act == 1 else others[0][0]
    tables.table_act(table.pk, to_act, hand.pk, table.version, "fold")
    hand.refresh_from_db()
    private_table = tables.table_create(
        created_by=director, name="Dana's kitchen", big_blind=2, private=True
    )
    tables.seat_request(
        private_table.pk,
        others[1][0],
        2,
        private_table.max_buy_in,
        invite=private_table.invite_token,
    )
    return World(
        director=director,
        player=player,
        me=me,
        guest=guest,
        season=season,
        finished_event=finished_event,
        next_event=next_event,
        live=live,
        online=online,
        offer=offer,
        my_live_entry=my_live_entry,
        late_entry=late_entry,
        blind_structure=blind_structure,
        row=blind_structure.levels.order_by("position").first(),  # type: ignore[arg-type]
        table=table,
        hand=hand,
        private_table=private_table,
    )
