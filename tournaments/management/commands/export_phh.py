"""Write every hand of an online tournament to standard output as one ``.phhs`` file.

    python manage.py export_phh --tournament 7 > tournament-7.phhs
    python -m tables.engine replay tournament-7.phhs

Hands come in the order they were dealt, each named ``table-<n>-hand-<k>`` with its
players' names, the table, the level and every player's starting and finishing stacks.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Tournament
from tournaments.services.history import tournament_phhs


class Command(BaseCommand):
    help = "Write every hand of an online tournament as one .phhs file to standard output."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tournament", type=int, required=True)

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(pk=options["tournament"]).first()
        if tournament is None:
            raise CommandError(f"there is no tournament {options['tournament']}")
        self.stdout.write(tournament_phhs(tournament), ending="")
