"""Dealing in, the button and the blinds: a cash table's and a tournament's (dead button).

Sequences are played on two small tables that keep what a table keeps between hands (the
button, the last blinds, each seat's flags) and check every plan against the engine: the
hand a plan starts posts its blinds exactly where the plan says.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tables.engine.config import Config, Game, Structure
from tables.engine.deal_in import (
    ButtonMode,
    DealPlan,
    Positions,
    Presence,
    SeatStatus,
    deal_in,
    next_positions,
    rebuy_amount,
)
from tables.engine.errors import RuleError
from tables.engine.records import BlindPosted, SeatSpec
from tables.engine.state import Action, Hand, Street

CONFIG = Config(Game.OMAHA_HI_LO, Structure.POT_LIMIT, big_blind=10)
DECK = tuple(range(52))
PLAYING, WAITING, SITTING_OUT = Presence.PLAYING, Presence.WAITING, Presence.SITTING_OUT


def check_against_the_engine(plan: DealPlan) -> Hand:
    """Start the plan's hand and check the engine posts the blinds where the plan says."""
    hand = plan.start_hand(CONFIG, DECK)
    posted = {r.blind: r.seat for r in hand.records if isinstance(r, BlindPosted)}
    assert posted.get("small") == plan.small_blind
    assert posted["big"] == plan.big_blind
    assert hand.button == plan.button
    live = {s.seat for s in plan.seats if s.live_post}
    dead = {s.seat for s in plan.seats if s.dead_post}
    assert {
        r.seat for r in hand.records if isinstance(r, BlindPosted) and r.blind == "live"
    } == live
    assert {
        r.seat for r in hand.records if isinstance(r, BlindPosted) and r.blind == "dead"
    } == dead
    return hand


class CashTable:
    """What the table layer keeps and does around `deal_in` in CASH mode."""

    def __init__(self, *numbers: int, stack: int = 500) -> None:
        self.seats = {n: SeatStatus(n, stack) for n in numbers}
        self.button = 0
        self.last_big_blind = 0

    def sit(self, number: int, *, wait_for_big_blind: bool) -> None:
        self.seats[number] = SeatStatus(
            number, 200, WAITING, is_new=True, wait_for_big_blind=wait_for_big_blind
        )

    def sit_out(self, number: int) -> None:
        self.seats[number] = replace(self.seats[number], state=SITTING_OUT)

    def sit_in(self, number: int, *, wait_for_big_blind: bool) -> None:
        s = self.seats[number]
        owes = s.owes_small or s.owes_big or s.is_new
        self.seats[number] = replace(
            s, state=WAITING if owes else PLAYING, wait_for_big_blind=wait_for_big_blind
        )

    def deal(self) -> DealPlan | None:
        plan = deal_in(
            list(self.seats.values()),
            previous_button=self.button,
            last_big_blind=self.last_big_blind,
            big_blind=10,
            small_blind=5,
        )
        if plan is None:
            return None
        check_against_the_engine(plan)
        for n in plan.owe_missed_blinds:
            self.seats[n] = replace(self.seats[n], owes_small=True, owes_big=True)
        for n in plan.dealt:
            self.seats[n] = replace(
                self.seats[n], is_new=False, owes_small=False, owes_big=False, state=PLAYING
            )
        for n in plan.waiting:
            self.seats[n] = replace(self.seats[n], state=WAITING)
        self.button = plan.button
        self.last_big_blind = plan.big_blind
        return plan


class TournamentTable:
    """What a tournament table keeps between hands: the last positions, who is new."""

    def __init__(self, *numbers: int, drawn_button: int, stack: int = 500) -> None:
        self.seats = {n: SeatStatus(n, stack) for n in numbers}
        self.positions = Positions(drawn_button - 1, 0, 0)

    def bust(self, *numbers: int) -> None:
        for n in numbers:
            del self.seats[n]

    def seat_new(self, number: int) -> None:
        """A late entrant or a player moved from another table."""
        self.seats[number] = SeatStatus(number, 500, is_new=True)

    def plan(self) -> DealPlan | None:
        return deal_in(
            list(self.seats.values()),
            previous_button=self.positions.button,
            last_small_blind=self.positions.small_blind,
            last_big_blind=self.positions.big_blind,
            mode=ButtonMode.TOURNAMENT,
            big_blind=10,
            small_blind=5,
        )

    def deal(self) -> DealPlan:
        plan = self.plan()
        assert plan is not None
        check_against_the_engine(plan)
        for n in plan.dealt:
            self.seats[n] = replace(self.seats[n], is_new=False)
        self.positions = plan.positions
        return plan


def roles(plan: DealPlan | None) -> tuple[int, int | None, int]:
    assert plan is not None
    return plan.button, plan.small_blind, plan.big_blind


# ----------------------------------------------------------------------------- cash


def test_cash_the_button_moves_clockwise_to_the_next_player() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "active table starts with the button moving clockwise to the next player. The"
    table = CashTable(2, 4, 7)
    assert [roles(table.deal()) for _ in range(4)] == [
        (2, 4, 7),
        (4, 7, 2),
        (7, 2, 4),
        (2, 4, 7),
    ]


def test_cash_heads_up_the_button_posts_the_small_blind() -> None:
    # docs/rules.md: "Heads-up: the button posts the small blind, acts first before the"
    table = CashTable(3, 8)
    assert roles(table.deal()) == (3, 3, 8)
    assert roles(table.deal()) == (8, 8, 3)


def test_cash_a_new_table_deals_everyone_in_free() -> None:
    # A fresh game: nobody has a blind to catch up on, even players who sat down waiting.
    table = CashTable()
    table.sit(1, wait_for_big_blind=True)
    table.sit(2, wait_for_big_blind=True)
    table.sit(3, wait_for_big_blind=False)
    plan = table.deal()
    assert plan is not None and plan.dealt == (1, 2, 3)
    assert all(not (s.live_post or s.dead_post) for s in plan.seats)


def test_cash_a_new_player_waits_for_the_big_blind_or_posts_at_once() -> None:
    # docs/rules/sources/omaha-hi-lo-partypoker.txt: "option of placing a Big Blind at the start of the next hand or wait for"
    table = CashTable(1, 2, 3)
    table.deal()  # button 1, blinds 2 and 3
    table.sit(5, wait_for_big_blind=True)
    table.sit(6, wait_for_big_blind=False)
    plan = table.deal()
    # Button 2, small blind 3: the big blind reaches seat 5 at once, so 5 plays without
    # posting anything else; 6 posts a live big blind out of position.
    assert roles(plan) == (2, 3, 5)
    assert plan is not None
    assert SeatSpec(5, 200) in plan.seats
    assert SeatSpec(6, 200, live_post=10) in plan.seats


def test_cash_a_waiting_new_player_is_dealt_in_when_the_big_blind_reaches_them() -> None:
    # docs/rules/sources/omaha-hi-lo-cardroom-rules.txt: "He may: (1) wait for his big blind,"
    table = CashTable(1, 2, 3, 4)
    table.deal()  # button 1, blinds 2 and 3
    table.sit(8, wait_for_big_blind=True)
    plans = [table.deal() for _ in range(2)]
    # Button 2: seat 8 would be dealt in after the big blind (4) without posting, so waits;
    # button 3: the big blind reaches seat 8.
    assert [roles(p) for p in plans] == [(2, 3, 4), (3, 4, 8)]
    assert [p.waiting for p in plans if p is not None] == [(8,), ()]
    assert SeatSpec(8, 200) in plans[1].seats  # type: ignore[union-attr]


def test_cash_nobody_enters_between_the_button_and_the_big_blind() -> None:
    # docs/rules/sources/omaha-hi-lo-cardroom-rules.txt: "A player may not enter play in the middle of the blinds; he must wait until the Button passes."
    table = CashTable(1, 3, 5)
    table.deal()  # button 1, blinds 3 and 5
    table.sit(4, wait_for_big_blind=False)  # would be the small blind next hand
    plan = table.deal()
    assert roles(plan) == (3, 5, 1)
    assert plan is not None and plan.waiting == (4,)
    plan = table.deal()
    assert roles(plan) == (5, 1, 3)
    assert plan is not None and SeatSpec(4, 200, live_post=10) in plan.seats


def test_cash_a_player_sitting_out_whom_the_big_blind_passed_owes_both_blinds() -> None:
    # docs/rules/sources/omaha-hi-lo-cardroom-rules.txt: "If a player leaves the table for any reason and the blinds pass their position, they may resume play by posting the total amount of the blinds"
    table = CashTable(1, 2, 3, 4)
    table.deal()  # button 1, blinds 2 and 3
    table.sit_out(1)
    plan = table.deal()
    assert roles(plan) == (2, 3, 4)
    assert plan is not None and plan.owe_missed_blinds == ()  # the big blind has not passed 1
    plan = table.deal()
    assert roles(plan) == (3, 4, 2)
    assert plan is not None and plan.owe_missed_blinds == (1,)
    assert table.seats[1].owes_small and table.seats[1].owes_big


def test_cash_missed_blinds_are_posted_small_dead_big_live_or_the_player_waits() -> None:
    # docs/rules/sources/omaha-hi-lo-cardroom-rules.txt: "If he chooses to post the total amount of the blinds, the small blind goes to the center of the pot while his big blind is live."
    table = CashTable(1, 2, 3, 4, 5)
    table.deal()  # button 1, blinds 2 and 3
    table.sit_out(4)
    table.deal()  # button 2, blinds 3 and 5: the big blind passed 4
    assert table.seats[4].owes_big
    posting = CashTable(1, 2, 3, 4, 5)
    posting.__dict__.update(
        seats=dict(table.seats), button=table.button, last_big_blind=table.last_big_blind
    )
    posting.sit_in(4, wait_for_big_blind=False)
    plan = posting.deal()
    assert roles(plan) == (3, 5, 1)
    assert plan is not None and plan.waiting == (4,)  # seat 4 is between button and blinds
    plan = posting.deal()
    assert roles(plan) == (5, 1, 2)
    assert plan is not None and SeatSpec(4, 500, live_post=10, dead_post=5) in plan.seats
    hand = plan.start_hand(CONFIG, DECK)
    posts = [(r.seat, r.amount, r.blind) for r in hand.records if isinstance(r, BlindPosted)]
    assert (4, 5, "dead") in posts and (4, 10, "live") in posts
    assert not posting.seats[4].owes_small and not posting.seats[4].owes_big
    # Or wait for the big blind: dealt in free when it comes round.
    table.sit_in(4, wait_for_big_blind=True)
    plans = [table.deal() for _ in range(4)]
    assert [roles(p) for p in plans] == [(3, 5, 1), (5, 1, 2), (1, 2, 3), (2, 3, 4)]
    assert [p.waiting for p in plans if p is not None] == [(4,), (4,), (4,), ()]
    assert SeatSpec(4, 500) in plans[3].seats  # type: ignore[union-attr]
    assert not table.seats[4].owes_big


def test_cash_nobody_leaving_out_of_chips_or_sitting_out_is_dealt_in() -> None:
    seats = [
        SeatStatus(1, 100),
        SeatStatus(2, 100, leaving=True),
        SeatStatus(3, 0, SITTING_OUT),
        SeatStatus(4, 100, SITTING_OUT),
        SeatStatus(5, 100),
    ]
    plan = deal_in(seats, previous_button=0, last_big_blind=0, big_blind=10, small_blind=5)
    assert plan is not None and plan.dealt == (1, 5)
    assert (
        deal_in(seats[1:4], previous_button=0, last_big_blind=0, big_blind=10, small_blind=5)
        is None
    )


def test_cash_every_plan_matches_the_table_rules_from_before_the_move() -> None:
    """Random seatings against the rules `tables/services.py` applied before the engine took
    them over (`previous_cash_rules`, kept verbatim as the reference)."""
    rng = random.Random(15)
    for _ in range(3000):
        seats = []
        for number in rng.sample(range(1, 10), rng.randint(0, 9)):
            seats.append(
                SeatStatus(
                    number,
                    rng.choice([0, 50, 100]),
                    rng.choice([PLAYING, PLAYING, WAITING, SITTING_OUT]),
                    is_new=rng.random() < 0.3,
                    wait_for_big_blind=rng.random() < 0.5,
                    owes_small=rng.random() < 0.2,
                    owes_big=rng.random() < 0.2,
                    leaving=rng.random() < 0.1,
                )
            )
        button, last_big_blind = rng.randint(0, 9), rng.choice([0, rng.randint(1, 9)])
        plan = deal_in(
            seats,
            previous_button=button,
            last_big_blind=last_big_blind,
            big_blind=10,
            small_blind=5,
        )
        expected = previous_cash_rules(seats, button, last_big_blind)
        if expected is None:
            assert plan is None
            continue
        assert plan is not None
        assert (plan.button, plan.small_blind, plan.big_blind) == expected[:3]
        assert list(plan.seats) == expected[3]
        assert list(plan.owe_missed_blinds) == expected[4]
        assert list(plan.waiting) == expected[5]
        check_against_the_engine(plan)


def previous_cash_rules(
    seats: list[SeatStatus], previous_button: int, last_big_blind: int
) -> tuple[int, int, int, list[SeatSpec], list[int], list[int]] | None:
    """`_hand_start`, `_clockwise`, `_blind_positions` and `_between` as `tables/services.py`
    had them before the engine took them over, on SeatStatus instead of Seat rows, deciding and not saving."""

    def clockwise(after: int, numbers: list[int]) -> list[int]:
        ordered = sorted(numbers)
        first = next((k for k, s in enumerate(ordered) if s > after), 0)
        return ordered[first:] + ordered[:first]

    def blind_positions(button: int, dealt: list[int]) -> tuple[int, int]:
        order = clockwise(button, dealt)
        if len(order) == 2:
            return order[1], order[0]
        return order[0], order[1]

    def between(start: int, end: int, seat: int) -> bool:
        if start < end:
            return start < seat <= end
        return seat > start or seat <= end

    seats = sorted(seats, key=lambda s: s.number)
    candidates = [
        s for s in seats if s.stack > 0 and not s.leaving and s.state in (PLAYING, WAITING)
    ]
    if len(candidates) < 2:
        return None
    established = [s for s in candidates if not (s.is_new or s.owes_small or s.owes_big)]
    if len(established) < 2:
        established = candidates
    button = clockwise(previous_button, [s.number for s in established])[0]
    dealt = {s.number: SeatSpec(s.number, s.stack) for s in established}
    for s in candidates:
        if s.number in dealt:
            continue
        small, big = blind_positions(button, [*dealt, s.number])
        if s.number == big:
            dealt[s.number] = SeatSpec(s.number, s.stack)
        elif s.number == small or s.number == button or s.wait_for_big_blind:
            continue
        else:
            owes_small = s.owes_small and not s.is_new
            dealt[s.number] = SeatSpec(
                s.number, s.stack, live_post=10, dead_post=5 if owes_small else 0
            )
    if len(dealt) < 2:
        return None
    small, big = blind_positions(button, list(dealt))
    owes = []
    if last_big_blind:
        owes = [
            s.number
            for s in seats
            if s.number not in dealt
            and s.state == SITTING_OUT
            and between(last_big_blind, big, s.number)
            and not s.is_new
        ]
    waiting = [s.number for s in candidates if s.number not in dealt]
    return button, small, big, sorted(dealt.values(), key=lambda x: x.seat), owes, waiting


# ----------------------------------------------------------------------------- tournament


def test_tournament_first_hand_blinds_follow_the_drawn_button() -> None:
    # docs/rules.md: "Small blind on its left, big blind on the small blind's left."
    table = TournamentTable(1, 2, 3, 4, 5, 6, drawn_button=4)
    assert roles(table.deal()) == (4, 5, 6)
    assert [roles(table.deal()) for _ in range(3)] == [(5, 6, 1), (6, 1, 2), (1, 2, 3)]


def test_tournament_big_blind_out_gives_a_dead_small_blind_then_a_dead_button() -> None:
    # TDA 32 (docs/rules.md): "dead button: each player posts the big and small blind once per round, so the button may stay on a seat."
    table = TournamentTable(1, 2, 3, 4, 5, 6, drawn_button=1)
    assert roles(table.deal()) == (1, 2, 3)
    table.bust(3)
    plan = table.deal()
    # The player after the busted big blind posts it; nobody posts the small blind.
    assert roles(plan) == (2, None, 4)
    assert plan.dead_small_blind and plan.positions.small_blind == 3
    hand = plan.start_hand(CONFIG, DECK)
    assert hand.to_act == 5  # left of the big blind acts first
    # The button goes to the empty seat 3: seat 2 has the last action again.
    assert roles(table.deal()) == (3, 4, 5)
    assert roles(table.deal()) == (4, 5, 6)


def test_tournament_small_blind_out_puts_the_button_on_the_empty_seat() -> None:
    # TDA 32 (docs/rules.md): "dead button: each player posts the big and small blind once per round"
    table = TournamentTable(1, 2, 3, 4, 5, drawn_button=1)
    table.deal()  # button 1, blinds 2 and 3
    table.bust(2)
    plan = table.deal()
    assert roles(plan) == (2, 3, 4)  # the last big blind posts the small
    hand = check_against_the_engine(plan)
    assert hand.button == 2 and 2 not in hand.seats  # a dead button: seat 1 acts last
    hand.act(5, Action.CALL)
    hand.act(1, Action.CALL)
    hand.act(3, Action.CALL)
    hand.act(4, Action.CHECK)
    assert hand.street is Street.FLOP and hand.to_act == 3
    assert roles(table.deal()) == (3, 4, 5)


def test_tournament_both_blinds_out() -> None:
    # TDA 32 (docs/rules.md): "dead button: each player posts the big and small blind once per round, so the button may stay on a seat."
    table = TournamentTable(1, 2, 3, 4, 5, 6, drawn_button=1)
    table.deal()  # button 1, blinds 2 and 3
    table.bust(2, 3)
    assert roles(table.deal()) == (2, None, 4)
    assert roles(table.deal()) == (3, 4, 5)
    assert roles(table.deal()) == (4, 5, 6)


def test_tournament_nobody_skips_a_blind_as_players_go_out() -> None:
    # TDA 32 (docs/rules.md): "each player posts the big and small blind once per round"
    rng = random.Random(32)
    for _ in range(200):
        table = TournamentTable(*range(1, 10), drawn_button=rng.randint(1, 9))
        last = table.deal()
        while len(table.seats) > 2:
            out = [n for n in table.seats if rng.random() < 0.15]
            if len(out) >= len(table.seats) - 1:
                out = out[:1]
            table.bust(*out)
            plan = table.deal()
            players = sorted(table.seats)
            # The big blind goes on to the next player after the last big blind...
            after = [n for n in players if n > last.big_blind] + players
            assert plan.big_blind == after[0]
            if len(players) > 2:
                # ...the small blind to the last big blind, dead if they have gone...
                assert plan.positions.small_blind == last.big_blind
                expected = last.big_blind if last.big_blind in table.seats else None
                assert plan.small_blind == expected
                # ...and the button to the last small blind's seat, empty or not.
                assert plan.button == last.positions.small_blind
            else:
                assert plan.small_blind == plan.button != plan.big_blind
            last = plan


@pytest.mark.parametrize(("out", "expected"), [(1, (3, 3, 2)), (2, (3, 3, 1)), (3, (2, 2, 1))])
def test_tournament_at_the_start_of_heads_up_nobody_has_the_big_blind_twice(
    out: int, expected: tuple[int, int, int]
) -> None:
    # TDA 34B (docs/rules.md): "at the start of heads-up adjust the button so nobody has the big blind twice in a row."
    table = TournamentTable(1, 2, 3, drawn_button=1)
    assert roles(table.deal()) == (1, 2, 3)
    table.bust(out)
    plan = table.deal()
    assert roles(plan) == expected
    assert plan.big_blind != 3  # seat 3 had it last hand


def test_tournament_heads_up_the_button_posts_the_small_blind_and_acts_first() -> None:
    # TDA 34B (docs/rules.md): "Heads-up, the small blind is the button and acts first before the flop"
    table = TournamentTable(2, 5, 7, drawn_button=2)
    table.deal()  # button 2, blinds 5 and 7
    table.bust(5)
    plans = [table.deal() for _ in range(3)]
    assert [roles(p) for p in plans] == [(7, 7, 2), (2, 2, 7), (7, 7, 2)]
    hand = plans[0].start_hand(CONFIG, DECK)
    assert hand.to_act == 7
    hand.act(7, Action.CALL)
    hand.act(2, Action.CHECK)
    assert hand.to_act == 2  # the button acts last after the flop


def test_tournament_a_newcomer_between_the_button_and_the_small_blind_waits() -> None:
    # TDA 8 and 10 (docs/rules.md): "dealt in anywhere except between the small blind and the button."
    # docs/rules/sources/omaha-hi-lo-cardroom-rules.txt: "he must wait until the Button passes."
    table = TournamentTable(1, 3, 5, 7, 9, drawn_button=1)
    table.deal()  # button 1, blinds 3 and 5
    table.seat_new(4)  # next hand: button 3, small blind 5
    plan = table.deal()
    assert roles(plan) == (3, 5, 7) and plan.waiting == (4,) and 4 not in plan.dealt
    plan = table.deal()  # the button has passed seat 4
    assert roles(plan) == (5, 7, 9) and 4 in plan.dealt and plan.waiting == ()


@pytest.mark.parametrize(
    ("seat", "expected", "dealt"),
    [
        (4, (1, 3, 4), True),  # the big blind
        (8, (1, 3, 5), True),  # no blind, between the big blind and the button
        (1, (1, 3, 5), True),  # the seat the button comes to: theirs
        (2, (1, 3, 5), False),  # between the button and the small blind: waits
    ],
)
def test_tournament_a_newcomer_may_get_the_big_blind_or_the_button(
    seat: int, expected: tuple[int, int, int], dealt: bool
) -> None:
    # TDA 8 and 10 (docs/rules.md): "dealt in anywhere except between the small blind and the button."
    # So a newcomer may come in on the big blind, with no blind, or on the button's seat.
    table = TournamentTable(1, 3, 5, 7, 9, drawn_button=9)
    table.deal()  # button 9, blinds 1 and 3
    table.bust(1)  # next hand: button on seat 1 (empty), small blind 3
    table.seat_new(seat)
    plan = table.deal()
    assert roles(plan) == expected
    assert (seat in plan.dealt) is dealt
    assert plan.waiting == (() if dealt else (seat,))


def test_tournament_a_newcomer_in_the_small_blind_seat_posts_it() -> None:
    # TDA 8 and 10 (docs/rules.md): "dealt in anywhere except between the small blind and the button."
    # The small blind's seat is not between them: a newcomer there posts it.
    table = TournamentTable(1, 2, 3, 4, 5, drawn_button=1)
    table.deal()  # button 1, blinds 2 and 3
    table.bust(3)
    table.seat_new(3)  # fills the last big blind's seat before the next hand
    assert roles(table.deal()) == (2, 3, 4)


def test_tournament_deals_in_everyone_with_chips_whatever_they_chose() -> None:
    # docs/rules.md (Cash tables): waiting for the big blind and missed blinds are cash rules;
    # in a tournament an absent player's chips are dealt in and post the blinds.
    seats = [
        SeatStatus(1, 100, SITTING_OUT, owes_small=True, owes_big=True),
        SeatStatus(2, 100, WAITING, wait_for_big_blind=True),
        SeatStatus(3, 100),
        SeatStatus(4, 0),
    ]
    plan = deal_in(
        seats,
        previous_button=3,
        last_small_blind=3,
        last_big_blind=1,
        mode=ButtonMode.TOURNAMENT,
        big_blind=10,
        small_blind=5,
    )
    assert plan is not None
    assert plan.dealt == (1, 2, 3) and plan.owe_missed_blinds == () and plan.waiting == ()
    assert all(not (s.live_post or s.dead_post) for s in plan.seats)
    assert roles(plan) == (3, 1, 2)


def test_tournament_deals_an_absent_player_in_still_sitting_out() -> None:
    # docs/rules.md, Tournaments: "dead button: each player posts the big and small blind once per round"
    seats = [
        SeatStatus(1, 100, SITTING_OUT),
        SeatStatus(2, 100),
        SeatStatus(3, 100, SITTING_OUT),
        SeatStatus(4, 100, WAITING),
    ]
    plan = deal_in(
        seats,
        previous_button=1,
        last_small_blind=1,
        last_big_blind=2,
        mode=ButtonMode.TOURNAMENT,
        big_blind=10,
        small_blind=5,
    )
    assert plan is not None
    assert plan.dealt == (1, 2, 3, 4)
    assert plan.absent == (1, 3)  # blinded away: the table leaves them sitting out
    assert roles(plan) == (1, 2, 3)  # seat 3, away, posts the big blind
    check_against_the_engine(plan)


def test_cash_deals_nobody_in_absent() -> None:
    # docs/rules.md: "a player who missed blinds posts them (small blind dead, big blind live) or waits."
    # A cash player away is not dealt in: they miss the blinds instead.
    seats = [SeatStatus(1, 100, SITTING_OUT), SeatStatus(2, 100), SeatStatus(3, 100)]
    plan = deal_in(seats, previous_button=3, last_big_blind=2, big_blind=10, small_blind=5)
    assert plan is not None
    assert plan.dealt == (2, 3) and plan.absent == ()


def test_a_rebuy_buys_only_what_fits_under_the_maximum_buy_in() -> None:
    # docs/rules.md, Money outside the pot: "buy-in for a cash table is usually five times the maximum bet (a house minimum)"
    # The house's maximum caps the stack after a rebuy as it caps a buy-in.
    assert rebuy_amount(300, stack=500, maximum=1000) == 300
    assert rebuy_amount(300, stack=700, maximum=1000) == 300  # exactly up to it
    assert rebuy_amount(300, stack=900, maximum=1000) == 100  # winnings during the hand
    assert rebuy_amount(300, stack=1000, maximum=1000) == 0
    assert rebuy_amount(300, stack=1500, maximum=1000) == 0  # never takes chips away
    assert rebuy_amount(0, stack=0, maximum=1000) == 0


def test_next_positions_names_the_player_due_for_the_big_blind() -> None:
    # TDA 11A (docs/rules.md): "the player due for the big blind next moves to the worst position at the short table"
    table = TournamentTable(1, 2, 4, 6, 8, drawn_button=2)
    table.deal()  # button 2, blinds 4 and 6
    table.bust(6)
    due = next_positions(
        list(table.seats.values()),
        previous_button=table.positions.button,
        last_small_blind=table.positions.small_blind,
        last_big_blind=table.positions.big_blind,
    )
    assert due == Positions(4, 6, 8)
    assert table.deal().big_blind == due.big_blind == 8


def test_tournament_plans_always_agree_with_the_engine_whatever_the_stored_positions() -> None:
    # Positions stored by an older layout, players who came back, newcomers anywhere: the
    # plan still starts a hand whose blinds are where it says, and only newcomers wait.
    rng = random.Random(34)
    for _ in range(3000):
        numbers = rng.sample(range(1, 10), rng.randint(2, 9))
        seats = [
            SeatStatus(n, rng.choice([0, 100, 100]), is_new=rng.random() < 0.3) for n in numbers
        ]
        last_small, last_big = rng.sample(range(1, 10), 2)
        plan = deal_in(
            seats,
            previous_button=rng.randint(0, 9),
            last_small_blind=last_small,
            last_big_blind=rng.choice([0, last_big]),
            mode=ButtonMode.TOURNAMENT,
            big_blind=10,
            small_blind=5,
        )
        players = [s for s in seats if s.stack > 0]
        if len(players) < 2:
            assert plan is None
            continue
        assert plan is not None
        assert set(plan.dealt) | set(plan.waiting) == {s.number for s in players}
        assert all(next(s for s in seats if s.number == n).is_new for n in plan.waiting)
        check_against_the_engine(plan)


def test_the_first_tournament_hand_heads_up_gives_the_button_the_small_blind() -> None:
    table = TournamentTable(4, 9, drawn_button=9)
    assert roles(table.deal()) == (9, 9, 4)


def test_deal_in_refuses_what_it_cannot_place() -> None:
    with pytest.raises(RuleError, match="seat 2 is described twice"):
        deal_in(
            [SeatStatus(2, 10), SeatStatus(2, 10)],
            previous_button=0,
            last_big_blind=0,
            big_blind=2,
            small_blind=1,
        )
    with pytest.raises(RuleError, match="positive whole number"):
        deal_in(
            [SeatStatus(0, 10), SeatStatus(2, 10)],
            previous_button=0,
            last_big_blind=0,
            big_blind=2,
            small_blind=1,
        )
    with pytest.raises(RuleError, match="last hand's small blind"):
        deal_in(
            [SeatStatus(1, 10), SeatStatus(2, 10), SeatStatus(3, 10)],
            previous_button=1,
            last_big_blind=3,
            mode=ButtonMode.TOURNAMENT,
            big_blind=2,
            small_blind=1,
        )
    one = [SeatStatus(1, 10), SeatStatus(2, 0)]
    for mode in ButtonMode:
        assert (
            deal_in(one, previous_button=0, last_big_blind=0, mode=mode, big_blind=2, small_blind=1)
            is None
        )
