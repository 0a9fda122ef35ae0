"""Workflows of the series app, one module per area; every public name is re-exported here
so callers keep importing from ``series.services``."""

from series.services.accounts import (
    DEMO_PLAYERS,
    DemoAccounts,
    demo_is_needed,
    demo_load,
    director_grant,
    director_models,
    director_models_register,
    directors_group_ensure,
    player_sign_up,
)

__all__ = [
    "DEMO_PLAYERS",
    "DemoAccounts",
    "demo_is_needed",
    "demo_load",
    "director_grant",
    "director_models",
    "director_models_register",
    "directors_group_ensure",
    "player_sign_up",
]
