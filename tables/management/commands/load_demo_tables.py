"""Open a demo table with house bots (for `make run` after `load_demo`); safe to rerun."""

from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandParser

from tables.models import Table
from tables.services import table_add_bots, table_create

DEMO_TABLE = "Demo PLO8 (bots)"


class Command(BaseCommand):
    help = "Create one pot-limit Omaha Hi/Lo table with bots in all but two seats."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--bots", type=int, default=4)

    def handle(self, *args: Any, bots: int, **options: Any) -> None:
        if Table.objects.filter(name=DEMO_TABLE).exists():
            self.stdout.write("The demo table already exists.")
            return
        director = (
            User.objects.filter(is_superuser=True).first()
            or User.objects.filter(groups__name="Directors").first()
        )
        table = table_create(
            created_by=director,
            name=DEMO_TABLE,
            big_blind=2,
            seat_count=6,
            check_permission=False,
        )
        table_add_bots(table.pk, None, count=bots)
        self.stdout.write(
            self.style.SUCCESS(f"Demo table {table.pk} open with {bots} bots: /tables/{table.pk}/")
        )
