"""How long things take at a live table: the turn clock, the pause between hands, the
run-out's pace, the house bots' thinking time, the server processes' heartbeat.

The lowest module of the table layer (no imports of its own), so the services, the live read
model, the tasks and the consumers all read the same numbers.
"""

from __future__ import annotations

from django.conf import settings

# docs/rules.md "Time and disconnection": 10 seconds, then a visible 20-second countdown.
TURN_SECONDS = 30
COUNTDOWN_AFTER_SECONDS = 10
RECONNECT_BONUS_SECONDS = 20
# Each process serving sockets says it is alive this often; one silent for longer than
# SERVER_GONE_SECONDS was killed without closing its sockets, which are then forgotten.
SERVER_HEARTBEAT_SECONDS = 10
SERVER_GONE_SECONDS = 45
NEXT_HAND_DELAY_SECONDS = 3
# An all-in run-out is dealt street by street, this long apart, with the equity shown.
RUNOUT_STEP_SECONDS = 1.5
# Run it twice (house option): how long the players still in have to answer; silence is no.
RUN_TWICE_VOTE_SECONDS = 10
# A bomb pot vote (house option): how long it stays open for every player's yes; silence is no.
BOMB_POT_VOTE_SECONDS = 60


def next_hand_delay_seconds() -> float:
    return (
        int(getattr(settings, "TABLES_NEXT_HAND_DELAY_MS", NEXT_HAND_DELAY_SECONDS * 1000)) / 1000
    )


def runout_step_seconds() -> float:
    """The pace of a run-out; a simulation of bots sets 0 (``TABLES_RUNOUT_STEP_MS``)."""
    return int(getattr(settings, "TABLES_RUNOUT_STEP_MS", RUNOUT_STEP_SECONDS * 1000)) / 1000


def turn_seconds() -> int:
    """A turn's own time, before the time bank (``TABLES_TURN_SECONDS``)."""
    return int(getattr(settings, "TABLES_TURN_SECONDS", TURN_SECONDS))


def bot_think_seconds() -> float:
    return int(getattr(settings, "TABLES_BOT_THINK_MS", 1000)) / 1000
