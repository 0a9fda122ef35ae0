"""The tournament settings form as a director fills it in."""

from __future__ import annotations

from typing import Any

from tournaments.models import BlindStructure


def form_data(blind_structure: BlindStructure, /, **changes: Any) -> dict[str, Any]:
    """The tournament settings form as a director fills it in, with ``changes``."""
    data: dict[str, Any] = {
        "game": "omaha-hi-lo",
        "structure": "pot-limit",
        "buy_in": "20",
        "fee": "5",
        "starting_stack": "10000",
        "blind_structure": str(blind_structure.pk),
        "raise_cap": "4",
        "uncapped_heads_up": "on",
        "seats_per_table": "9",
        "capacity": "30",
        "money_unit": "5",
        "bounty": "5",
        "payouts": "50, 30, 20",
        "late_registration_until_level": "4",
        "rebuys_allowed": "1",
        "rebuy_until_level": "3",
        "rebuy_chips": "10000",
        "rebuy_price": "20",
        "rebuy_max_stack": "",
        "addon_after_level": "3",
        "addon_chips": "15000",
        "addon_price": "20",
        "reentries_allowed": "0",
        "reentry_until_level": "",
        "balance_threshold": "2",
        "hand_for_hand_minutes": "2",
    }
    data.update(changes)
    return data
