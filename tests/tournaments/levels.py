"""The rows of the tournament night's blind structure (the ``blind_structure`` fixture of
``tests/conftest.py``) and their positions, for moving the clock in tests."""

from __future__ import annotations

from tournaments.models import LevelKind

# (kind, minutes, small blind, big blind): levels 1-3, a break, levels 4-5, a break, level 6.
ROWS = [
    (LevelKind.LEVEL, 20, 25, 50),
    (LevelKind.LEVEL, 20, 50, 100),
    (LevelKind.LEVEL, 20, 75, 150),
    (LevelKind.BREAK, 10, 0, 0),
    (LevelKind.LEVEL, 20, 100, 200),
    (LevelKind.LEVEL, 20, 150, 300),
    (LevelKind.BREAK, 10, 0, 0),
    (LevelKind.LEVEL, 20, 200, 400),
]
# Row positions (level_index) of the rows above.
LEVEL_1, LEVEL_2, LEVEL_3, BREAK_1, LEVEL_4, LEVEL_5, BREAK_2, LEVEL_6 = range(8)
