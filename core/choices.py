"""Model and form choices built from an enum and its names for people.

The engine's enums (game, betting structure, ante kind) are the only definitions of those
vocabularies, and the engine names each member in plain English for the translators; every
field or form that offers them builds its choices here, so a stored value is always one
the engine reads and a name is written once.

>>> from enum import StrEnum
>>> class Suit(StrEnum):
...     HEARTS = "h"
...     SPADES = "s"
>>> [(value, str(name)) for value, name in choices_of(Suit, {"h": "Hearts", "s": "Spades"})]
[('h', 'Hearts'), ('s', 'Spades')]
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy


def choices_of(enum: type[StrEnum], names: Mapping[str, str]) -> list[tuple[str, Promise]]:
    """``(value, name)`` for each member of ``enum`` in its order, the name in the reader's
    language (``names`` maps a member, or its value, to an English msgid)."""
    return [(member.value, gettext_lazy(names[member])) for member in enum]
