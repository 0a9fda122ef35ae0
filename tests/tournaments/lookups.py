"""Reading a tournament back in tests: a page's address, where an entry sits, the tables as
{table: {seat: name}}, the last action in its log."""

from __future__ import annotations

from django.urls import reverse

from tournaments.models import Entry, EntryState, Tournament, TournamentAction


def url(name: str, tournament: Tournament, *args: int) -> str:
    """The address of one of the tournament's pages: ``url("console", tournament)``."""
    return reverse(f"tournaments:{name}", args=[tournament.pk, *args])


def where(entry: Entry) -> tuple[int | None, int | None]:
    entry.refresh_from_db()
    return entry.table_number, entry.seat_number


def seats_of(tournament: Tournament) -> dict[int, dict[int, str]]:
    """The tournament's tables as {table: {seat: name}}, players in play only."""
    layout: dict[int, dict[int, str]] = {}
    for entry in Entry.objects.select_related("player").filter(
        tournament=tournament, state=EntryState.PLAYING
    ):
        assert entry.table_number is not None and entry.seat_number is not None
        layout.setdefault(entry.table_number, {})[entry.seat_number] = entry.player.name
    return layout


def last_action(tournament: Tournament) -> TournamentAction:
    action = TournamentAction.objects.filter(tournament=tournament).order_by("-pk").first()
    assert action is not None
    return action
