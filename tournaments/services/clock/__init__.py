"""The blind clock's workflows, one module per job:

- ``controls``: start, pause, resume, adjust, next and previous level;
- ``levels``: tonight's levels, changed from the console (break now, a level or a break
  added, a row removed, the length of the levels to come), with the rules counted in levels
  kept on their level;
- ``hand_for_hand``: hand-for-hand in the room (on, each table's hand done, off, the bubble);
- ``sweep``: the level changes made by time alone (the scheduled task, the periodic sweep);
- ``payload``: what the TV, the console and the lobby receive, and publishing it;
- ``store``: what every workflow does around its change (the lock, the save, the log line,
  the clock saved for Undo and put back);
- ``reads``: the rows and hand-for-hand as read, writing nothing;
- ``receivers``: Undo of every clock action, and the screens following the action log.

Each module imports only those below it in this order: the workflows (``controls``,
``levels``, ``hand_for_hand``, ``sweep``), then ``store``, ``payload``, ``reads``;
``receivers`` sits above them all. Callers import from the module that owns a function;
the names below are re-exported for the callers that still use the package itself.
Importing any of these modules imports ``receivers`` too, which registers the clock's Undo
and its listener on the action log.
"""

from tournaments.services.clock import receivers  # noqa: F401  (registers at import)
from tournaments.services.clock.controls import (
    ADJUST_MAX_SECONDS,
    clock_adjust,
    clock_next,
    clock_pause,
    clock_previous,
    clock_resume,
    clock_start,
)
from tournaments.services.clock.hand_for_hand import (
    clock_hand_done,
    clock_hand_for_hand_burst,
    clock_hand_for_hand_start,
    clock_hand_for_hand_stop,
)
from tournaments.services.clock.levels import (
    BREAK_MINUTES,
    LEVEL_LIMIT_MOVED,
    LEVEL_LIMITS,
    LEVELS_ROWS_MAX,
    NAME_MAX,
    LevelsChange,
    clock_break_add,
    clock_break_now,
    clock_level_add,
    clock_levels_minutes,
    clock_row_remove,
)
from tournaments.services.clock.payload import (
    clock_ahead,
    clock_payload,
    clock_payloads,
    clock_publish,
    clock_publish_now,
)
from tournaments.services.clock.reads import (
    CLOCK_STATES,
    HAND_FOR_HAND_FIELDS,
    ROW_FIELDS,
    HandForHand,
    clock_dealer_key,
    clock_hand_for_hand_many,
    clock_hand_for_hand_read,
    clock_read,
    clock_rows,
    clock_rows_many,
)
from tournaments.services.clock.store import clock_restore, clock_saved
from tournaments.services.clock.sweep import clock_advance_due, clock_sweep, clocks_due

__all__ = [
    "ADJUST_MAX_SECONDS",
    "BREAK_MINUTES",
    "CLOCK_STATES",
    "HAND_FOR_HAND_FIELDS",
    "LEVELS_ROWS_MAX",
    "LEVEL_LIMITS",
    "LEVEL_LIMIT_MOVED",
    "NAME_MAX",
    "ROW_FIELDS",
    "HandForHand",
    "LevelsChange",
    "clock_adjust",
    "clock_advance_due",
    "clock_ahead",
    "clock_break_add",
    "clock_break_now",
    "clock_dealer_key",
    "clock_hand_done",
    "clock_hand_for_hand_burst",
    "clock_hand_for_hand_many",
    "clock_hand_for_hand_read",
    "clock_hand_for_hand_start",
    "clock_hand_for_hand_stop",
    "clock_level_add",
    "clock_levels_minutes",
    "clock_next",
    "clock_pause",
    "clock_payload",
    "clock_payloads",
    "clock_previous",
    "clock_publish",
    "clock_publish_now",
    "clock_read",
    "clock_restore",
    "clock_resume",
    "clock_row_remove",
    "clock_rows",
    "clock_rows_many",
    "clock_saved",
    "clock_start",
    "clock_sweep",
    "clocks_due",
]
