"""Fill an empty database with demo data; leave any other database alone."""

from typing import Any

from django.core.management.base import BaseCommand

from series.services import DEMO_PLAYERS, demo_load


class Command(BaseCommand):
    help = "Create a director, six players and a season of events if the database is empty."

    def handle(self, *args: Any, **options: Any) -> None:
        accounts = demo_load()
        if accounts is None:
            self.stdout.write("The database already has users or seasons: demo data not loaded.")
            return
        players = ", ".join(DEMO_PLAYERS)
        self.stdout.write(
            self.style.SUCCESS("Demo data loaded. These passwords are shown only once:")
        )
        self.stdout.write(f"  director  password: {accounts.director_password}")
        self.stdout.write(f"  players ({players})  password: {accounts.player_password}")
        self.stdout.write(
            "Change them at /accounts/password/ or run: manage.py changepassword director"
        )
