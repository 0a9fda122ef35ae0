"""Give the demo season's events their tournaments (for `make run` after `load_demo`).

Every upcoming event without a tournament gets one on the built-in blind structure that fits its
betting structure; the first has the demo players registered, so the console, the seat
draw and the TV clock can be tried at once. Safe to rerun: events that have a tournament
are left alone, and nothing is done when there is no demo director.
"""

from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from django.utils import timezone

from series.models import Event
from tables.engine.config import Structure
from tournaments.models import BlindStructure, Tournament
from tournaments.services.entries import entry_register
from tournaments.services.lifecycle import tournament_create

DEMO_PLAYERS = ("ann", "ben", "cal", "dee", "eve", "fay")


class Command(BaseCommand):
    help = "Create the tournaments of the demo season's upcoming events."

    def handle(self, *args: Any, **options: Any) -> None:
        director = User.objects.filter(username="director").first()
        templates = BlindStructure.objects.filter(is_template=True)
        if director is None or not templates.exists():
            self.stdout.write("No demo director or no built-in structure: no tournaments made.")
            return
        limit = templates.filter(for_limit=True).first() or templates.first()
        big_bet = templates.filter(for_limit=False).first() or templates.first()
        events = Event.objects.filter(starts_at__gte=timezone.now(), tournament__isnull=True)
        made: list[Tournament] = []
        for event in events.order_by("starts_at"):
            blind_structure = limit if event.structure == Structure.LIMIT else big_bet
            made.append(
                tournament_create(
                    event,
                    by=director,
                    blind_structure=blind_structure,
                    seats_per_table=9,
                    late_registration_until_level=4,
                    rebuys_allowed=1,
                    rebuy_until_level=4,
                    rebuy_chips=event.starting_stack,
                    rebuy_price=event.buy_in,
                )
            )
        if not made:
            self.stdout.write("The demo tournaments already exist.")
            return
        first = made[0]
        for name in DEMO_PLAYERS:
            user = User.objects.filter(username=name).first()
            if user is not None:
                entry_register(first.pk, user)
        self.stdout.write(
            self.style.SUCCESS(
                f"{len(made)} demo tournaments; the next one ({first.event.name}) has "
                f"{len(DEMO_PLAYERS)} players registered: /tournaments/{first.pk}/"
            )
        )
