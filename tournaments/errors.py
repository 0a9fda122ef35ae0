"""The one error type of the tournament workflows, below every services module.

Services raise ``TournamentError`` with a message a director or player can read (already
translated); views show it and change nothing. It lives in its own module so every
``tournaments.services`` module and the views can import it without importing each other.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _


class TournamentError(Exception):
    """An action was refused; the message says why, and nothing was changed.

    ``field`` names the setting at fault when there is one, so a form can show the message
    beside it.
    """

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class NameInUse(TournamentError):
    """A new guest was asked for under a name the series already knows (an account's or a
    guest's, any case): the director registers one of ``players`` or confirms that this is
    someone else."""

    def __init__(self, message: str, *, players: list[Any]) -> None:
        super().__init__(message, field="name")
        self.players = players


def not_playing(name: str) -> TournamentError:
    """The refusal of a workflow that needs a player in play (seated, moved, knocked out, at
    an online table) for one who is only registered, or out, or gone."""
    return TournamentError(_("%(name)s is not playing.") % {"name": name})
