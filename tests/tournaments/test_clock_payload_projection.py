"""The clock's payload carries the projection itself: the row in play, its end, the next
row, the next break and the rows coming up, each with when it starts. The screens count down
to those instants and show the rows as sent (static/tournaments/clock.js), so what comes
next is worked out in one place, ``tournaments.clock``.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.tournaments.clock_helpers import (
    ROW_BREAK,
    ROW_LAST,
    ROW_LEVEL_1,
    ROW_LEVEL_3,
    ROW_LEVEL_4,
    at,
)
from tournaments.models import BlindLevel, LevelKind, Tournament
from tournaments.services.clock.controls import clock_pause
from tournaments.services.clock.payload import clock_payload
from tournaments.templatetags.tournament_clock import clock_texts

pytestmark = pytest.mark.usefixtures("clock_tasks_off")


def ms(moment: datetime) -> int:
    return round(moment.timestamp() * 1000)


def read(tournament: Tournament, now: datetime) -> dict[str, Any]:
    payload = clock_payload(tournament.pk, now)
    assert payload is not None
    return payload


def test_a_late_level_change_is_already_in_the_payload(running_clock: Tournament) -> None:
    # Level 1 was stored to end at 19:20 and no task has run since: at 19:45 the screens
    # are sent the break (19:40-19:50) that the server's projection puts in play.
    clock = read(running_clock, at(45))["clock"]
    assert (clock["stored_index"], clock["index"]) == (ROW_LEVEL_1, ROW_BREAK)
    assert clock["on_break"] and clock["current"]["is_break"]
    assert clock["ends_at_ms"] == ms(at(50))
    assert clock["remaining_ms"] == 5 * 60_000
    assert clock["next"]["number"] == 3 and clock["next"]["big_blind"] == 200
    assert clock["chip_race"] == [25]
    # No break after this one: nothing to count down to.
    assert clock["next_break"] is None and clock["next_break_at_ms"] is None


def test_the_rows_coming_up_carry_their_start(running_clock: Tournament) -> None:
    clock = read(running_clock, at(1))["clock"]
    assert [row["index"] for row in clock["coming"]] == [1, ROW_BREAK, ROW_LEVEL_3]
    assert [row["starts_at_ms"] for row in clock["coming"]] == [ms(at(20)), ms(at(40)), ms(at(50))]
    assert [row["starts_in_ms"] for row in clock["coming"]] == [
        19 * 60_000,
        39 * 60_000,
        49 * 60_000,
    ]
    assert clock["next_break"]["index"] == ROW_BREAK
    assert clock["next_break_at_ms"] == ms(at(40))
    assert clock["next_break_in_ms"] == 39 * 60_000


def test_past_the_last_row_the_payload_lists_the_doubled_levels(
    running_clock: Tournament,
) -> None:
    # The last row (200/400, big-blind ante 400) runs 20:30-20:50; then each level doubles.
    clock = read(running_clock, at(95))["clock"]
    assert clock["index"] == ROW_LAST and clock["ends_at_ms"] == ms(at(110))
    coming = clock["coming"]
    assert [
        (row["number"], row["small_blind"], row["big_blind"], row["ante"]) for row in coming
    ] == [
        (6, 400, 800, 800),
        (7, 800, 1600, 1600),
        (8, 1600, 3200, 3200),
    ]
    assert [row["starts_at_ms"] for row in coming] == [ms(at(110)), ms(at(130)), ms(at(150))]
    assert clock["next"] == {k: v for k, v in coming[0].items() if not k.startswith("starts_")}


def test_a_paused_clock_sends_times_left_and_no_instants(
    running_clock: Tournament, director: User
) -> None:
    clock_pause(running_clock.pk, by=director, now=at(5))
    clock = read(running_clock, at(30))["clock"]
    assert clock["paused"] and clock["ends_at_ms"] is None
    assert clock["remaining_ms"] == 15 * 60_000
    assert [row["starts_at_ms"] for row in clock["coming"]] == [None, None, None]
    assert [row["starts_in_ms"] for row in clock["coming"]] == [
        15 * 60_000,
        35 * 60_000,
        45 * 60_000,
    ]
    assert clock["next_break_at_ms"] is None and clock["next_break_in_ms"] == 35 * 60_000


def test_the_first_paint_words_the_payloads_rows(running_clock: Tournament) -> None:
    payload = read(running_clock, at(75))
    # Level 4 (150/300, ante 300) is in play until 20:30, stored as level 1 at 19:20.
    assert payload["clock"]["index"] == ROW_LEVEL_4
    texts = clock_texts(payload)
    assert texts["level"] == "Level 4" and texts["time"] == "15:00"
    assert [(row["name"], row["starts_in"]) for row in texts["coming"]] == [
        ("Level 5", "15:00"),
        ("Level 6", "35:00"),
        ("Level 7", "55:00"),
    ]
    assert texts["coming"][0]["detail"] == "200 / 400 · Big-blind ante 400"
    # The tag words what it is sent and plays nothing forward itself.
    payload["clock"]["coming"] = payload["clock"]["coming"][:1]
    assert [row["name"] for row in clock_texts(payload)["coming"]] == ["Level 5"]


def test_the_payload_carries_what_the_screens_show_not_the_blind_structure(
    running_clock: Tournament,
) -> None:
    before = read(running_clock, at(1))
    clock = before["clock"]
    assert set(clock) == {
        "now_ms",
        "started",
        "paused",
        "index",
        "stored_index",
        "level_number",
        "on_break",
        "remaining_ms",
        "ends_at_ms",
        "overtime",
        "is_last",
        "current",
        "next",
        "next_break",
        "next_break_in_ms",
        "next_break_at_ms",
        "coming",
        "time_to_end_ms",
        "finishes_at_ms",
        "chip_race",
    }
    assert "colour_up" not in clock["current"] and "colour_up" not in clock["coming"][0]
    assert set(before["tv"]) == {"layout", "addon_break", "colour_up", "results"}
    # Forty more levels at the end: the screens are sent the same rows, so the same payload
    # but for when the structure's time runs out.
    BlindLevel.objects.bulk_create(
        BlindLevel(
            blind_structure_id=running_clock.blind_structure_id,
            position=1000 + n,
            kind=LevelKind.LEVEL,
            minutes=20,
            small_blind=400 + 400 * n,
            big_blind=800 + 800 * n,
        )
        for n in range(40)
    )
    after = read(running_clock, at(1))
    timing = ("time_to_end_ms", "finishes_at_ms")
    assert {k: v for k, v in after["clock"].items() if k not in timing} == {
        k: v for k, v in clock.items() if k not in timing
    }
    assert after["tv"] == before["tv"]
    assert len(json.dumps(after)) - len(json.dumps(before)) <= 2
