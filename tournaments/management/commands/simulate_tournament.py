"""Play a whole online tournament of house bots to one winner and print its result as JSON.

    python manage.py simulate_tournament --players 30 --seats-per-table 6 --seed 1

Runs through the real services, live tables and clock in this process (see
``tournaments.services.simulate``), as fast as the machine allows; the tournament stays in
the database. Prints one JSON object: the tournament id, entrants, prize pool, hands dealt
and every place with its prize.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.test import override_settings

from tournaments.errors import TournamentError
from tournaments.services.simulate import tournament_simulate


class Command(BaseCommand):
    help = "Play an online tournament of house bots to one winner; print the result as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--seats-per-table", type=int, required=True)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--game", choices=["omaha", "omaha-hi-lo"], default="omaha-hi-lo")
        parser.add_argument(
            "--structure", choices=["limit", "pot-limit", "no-limit"], default="pot-limit"
        )
        parser.add_argument("--level-seconds", type=float, default=5.0)

    def handle(self, *args: Any, **options: Any) -> None:
        if not 2 <= options["seats_per_table"] <= 10:
            raise CommandError("--seats-per-table is 2 to 10")
        # No Celery: this process ticks the tables and moves the clock itself, with no
        # pause between hands.
        with override_settings(
            TABLES_SCHEDULE_TASKS=False,
            TOURNAMENTS_SCHEDULE_TASKS=False,
            TABLES_NEXT_HAND_DELAY_MS=0,
            TABLES_RUNOUT_STEP_MS=0,
        ):
            try:
                sim = tournament_simulate(
                    players=options["players"],
                    seats_per_table=options["seats_per_table"],
                    seed=options["seed"],
                    game=options["game"],
                    structure=options["structure"],
                    level_seconds=options["level_seconds"],
                )
            except TournamentError as error:
                raise CommandError(str(error)) from None
        self.stdout.write(json.dumps(sim.summary()))
