"""The time bank (docs/rules.md, Home-game options): "extra seconds a player draws on
automatically when their turn's time runs out; it refills by a set amount per hand played
(cash) or per level (tournaments), up to a cap."

A bank is a number of milliseconds, so that it is spent exactly: the time used is the time
past the turn's own deadline, to the millisecond. The turn's deadline as the table keeps it
includes the bank of the player to act, so a time-out comes once, when the bank too is
spent, and whatever is left when the player acts is what the deadline was still away:

>>> bank = TimeBank(start=30, refill=5, cap=60)
>>> bank.starting_ms
30000
>>> bank_left(30_000, until_deadline_ms=41_500)  # acted in the turn's own time
30000
>>> bank_left(30_000, until_deadline_ms=12_250)  # acted 17.75 s into the bank
12250
>>> bank_left(30_000, until_deadline_ms=-40)  # the time-out: the bank is spent
0
>>> bank.refilled(58_000)  # a hand played, up to the cap
60000
>>> bank.refilled(10_000, times=3)  # three levels since the last refill
25000
>>> TimeBank().on  # a cap of 0: no time bank, the default
False
"""

from __future__ import annotations

from dataclasses import dataclass

from tables.engine.errors import RuleError

# The most a bank may hold: ten minutes on one decision is already more than a home game
# waits for anybody (and keeps the milliseconds well inside a 32-bit column).
MAX_SECONDS = 600


@dataclass(frozen=True, slots=True)
class TimeBank:
    """A table's time bank, in whole seconds: what each player starts with (``start``), what
    a hand played or a tournament level adds (``refill``), and the most a bank holds
    (``cap``; 0 is no time bank, and then the other two must be 0 as well). A refusal's
    ``setting`` parameter names the one at fault ("start", "refill" or "cap").

    >>> TimeBank(start=-5, cap=30)
    Traceback (most recent call last):
    ...
    tables.engine.errors.RuleError: time bank setting -5 cannot be negative
    >>> TimeBank(start=90, refill=10, cap=60)
    Traceback (most recent call last):
    ...
    tables.engine.errors.RuleError: a time bank of 90 s is above its cap of 60 s
    """

    start: int = 0
    refill: int = 0
    cap: int = 0

    def __post_init__(self) -> None:
        settings = {"start": self.start, "refill": self.refill, "cap": self.cap}
        for setting, value in settings.items():
            if isinstance(value, bool) or not isinstance(value, int):
                raise RuleError(
                    f"time bank setting {value!r} is not a whole number of seconds",
                    code="time_bank_not_seconds",
                    params={"value": value, "setting": setting},
                )
            if value < 0:
                raise RuleError(
                    f"time bank setting {value} cannot be negative",
                    code="time_bank_negative",
                    params={"value": value, "setting": setting},
                )
        if self.cap > MAX_SECONDS:
            raise RuleError(
                f"a time bank holds at most {MAX_SECONDS} s, not {self.cap} s",
                code="time_bank_too_big",
                params={"cap": self.cap, "maximum": MAX_SECONDS, "setting": "cap"},
            )
        if self.cap == 0 and (self.start or self.refill):
            raise RuleError(
                "a time bank needs a cap above 0 (a cap of 0 is no time bank)",
                code="time_bank_needs_cap",
                params={"setting": "cap"},
            )
        for setting in ("start", "refill"):
            if settings[setting] > self.cap:
                raise RuleError(
                    f"a time bank of {settings[setting]} s is above its cap of {self.cap} s",
                    code="time_bank_above_cap",
                    params={"value": settings[setting], "cap": self.cap, "setting": setting},
                )

    @property
    def on(self) -> bool:
        return self.cap > 0

    @property
    def starting_ms(self) -> int:
        """A player's bank when they sit down (or enter a tournament)."""
        return self.start * 1000

    def refilled(self, bank_ms: int, times: int = 1) -> int:
        """``bank_ms`` after ``times`` refills (hands played, or levels), never above the cap
        and never below what it was."""
        if times <= 0:
            return bank_ms
        return max(bank_ms, min(self.cap * 1000, bank_ms + times * self.refill * 1000))


def bank_left(bank_ms: int, until_deadline_ms: int) -> int:
    """What is left of a bank of ``bank_ms`` after a move made ``until_deadline_ms`` before
    the turn's deadline, a deadline that includes the bank: the bank pays for the time past
    the turn's own deadline, exactly, and is never negative."""
    return max(0, min(bank_ms, until_deadline_ms))
