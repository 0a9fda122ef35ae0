"""Print a season's standings: ``python manage.py standings --season ID --csv``.

The CSV is the command-line contract other tools rely on: the header
``rank,player,points,events,wins,best_finish``, points with two decimals, one row per player
who played, in rank order; the same bytes as the leaderboard page's download.
"""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from series import selectors
from series.models import Season
from series.services.standings import standings_recompute
from series.standings_export import standings_csv


class Command(BaseCommand):
    help = "Print a season's standings (as CSV with --csv)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--season", type=int, required=True, help="The season's id.")
        parser.add_argument("--csv", action="store_true", help="Print CSV (the contract).")
        parser.add_argument(
            "--recompute",
            action="store_true",
            help="Recompute the standings from the results first (as the task does).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        season = Season.objects.filter(pk=options["season"]).first()
        if season is None:
            raise CommandError(_("No season with id %(id)s.") % {"id": options["season"]})
        if options["recompute"]:
            standings_recompute(season.pk)
        if options["csv"]:
            self.stdout.write(standings_csv(season), ending="")
            return
        self.stdout.write(season.name)
        for line in selectors.standings_of(season):
            best = "-" if line.best_finish is None else str(line.best_finish)
            self.stdout.write(
                f"{line.rank:>4}  {line.player.name:<24} {line.points:>9.2f}  "
                f"{line.events:>3} {line.wins:>3} {best:>4}"
            )
