"""Bring a series' past into the site from a CSV file of results, or from The Tournament
Director's saves (``docs/import.md``).

    python manage.py import_results past.csv --season-name "Omaha 2024" --dry-run
    python manage.py import_results past.csv --season 3
    python manage.py import_results league/2025/ --dry-run     (TD's .tdt files, or a .zip)

Says what the import does (events, players, results) and every problem of the file with its
line and column; writes nothing unless the whole file is right, and nothing with
``--dry-run``. Importing the same file again changes nothing.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from core.names import name_key
from series import tdt
from series.services.import_sources import ImportSource, import_source_read
from series.services.imports import (
    COLUMNS,
    DATE_ORDERS,
    IGNORE,
    IMPORT_MAX_BYTES,
    ImportPlan,
    Problem,
    ResultsImportError,
    results_import_apply,
    results_import_preview,
)
from series.services.standings import standings_recompute
from series.td_formula import td_formula_translate
from series.td_nights import td_levels_of


class Command(BaseCommand):
    help = "Import past results from a CSV file (see docs/import.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "file",
            nargs="+",
            help="The CSV file (- to read it from the input) or .xlsx spreadsheet, or TD saves: .tdt files, "
            "folders of them, .zip files.",
        )
        season = parser.add_mutually_exclusive_group()
        season.add_argument("--season", type=int, help="The id of the season to import into.")
        season.add_argument(
            "--season-name", help="The season's name; made from the file's dates if new."
        )
        parser.add_argument(
            "--existing-events-only",
            action="store_true",
            help="Only add results to events already on the site; an unknown event is an error.",
        )
        parser.add_argument(
            "--new-guest",
            action="append",
            default=[],
            metavar="NAME",
            help="Make NAME a new guest even if a player of that name is on the site.",
        )
        parser.add_argument(
            "--column",
            action="append",
            default=[],
            metavar="THEIRS=OURS",
            help="The file's column THEIRS is our column OURS (or 'ignore'), e.g. "
            "--column 'Joueur=player' --column 'Commentaire=ignore'. Repeatable.",
        )
        parser.add_argument(
            "--dates",
            choices=DATE_ORDERS,
            default="",
            help="Typed dates such as 03/04/2025 put the day first (dmy) or the month (mdy).",
        )
        parser.add_argument("--dry-run", action="store_true", help="Say what, write nothing.")

    def handle(self, *args: Any, **options: Any) -> None:
        arguments = {
            "season_id": options["season"],
            "season_name": options["season_name"] or "",
            "existing_events_only": options["existing_events_only"],
            "choices": {name_key(name)[0]: None for name in options["new_guest"]},
            "mapping": self._mapping(options["column"]),
            "date_order": options["dates"],
        }
        source = import_source_read(self._read_all(options["file"]))
        if not source.problems and arguments["season_id"] is None and not arguments["season_name"]:
            names = source.season_names
            if len(names) == 1:
                arguments["season_name"] = names[0]
            elif len(names) > 1:
                source.problems.append(
                    Problem(
                        0,
                        "",
                        _(
                            "The saves are of several seasons (%(names)s): import one at a "
                            "time, or name the season with --season-name."
                        )
                        % {"names": ", ".join(names)},
                    )
                )
        if source.problems:
            self._describe_source(source)
            for problem in source.problems:
                self.stderr.write(str(problem))
            raise CommandError(
                _("Nothing imported: the file has %(count)s problem(s).")
                % {"count": len(source.problems)}
            )
        if arguments["season_id"] is None and not arguments["season_name"]:
            raise CommandError(_("Name the season: --season ID or --season-name NAME."))
        data = source.text
        self._describe_source(source)
        plan = results_import_preview(data, **arguments)
        self._describe(plan)
        if plan.problems:
            raise CommandError(
                _("Nothing imported: the file has %(count)s problem(s).")
                % {"count": len(plan.problems)}
            )
        if options["dry_run"]:
            self.stdout.write(_("Dry run: nothing written."))
            return
        try:
            outcome = results_import_apply(data, levels=td_levels_of(source.nights), **arguments)
        except ResultsImportError as refused:
            for problem in refused.problems:
                self.stderr.write(str(problem))
            raise CommandError(_("Nothing imported.")) from None
        # The task recomputes them after the commit too; here they are right when the
        # command returns, with or without a worker running.
        standings_recompute(outcome.season.pk)
        self.stdout.write(
            _(
                "Imported into %(season)s (id %(id)s): %(events)s new event(s), %(players)s new "
                "player(s), %(results)s new result(s), %(unchanged)s already there."
            )
            % {
                "season": outcome.season.name,
                "id": outcome.season.pk,
                "events": outcome.events_created,
                "players": outcome.players_created,
                "results": outcome.results_created,
                "unchanged": outcome.unchanged,
            }
        )
        for kept in outcome.kept:
            self.stdout.write(kept)

    def _mapping(self, given: list[str]) -> dict[str, str]:
        mapping = {}
        for pair in given:
            theirs, equals, ours = pair.rpartition("=")
            ours = ours.strip().lower()
            if not equals or not theirs.strip() or ours not in (*COLUMNS, IGNORE):
                raise CommandError(
                    _("--column %(pair)s: write THEIRS=OURS, OURS one of %(columns)s or ignore.")
                    % {"pair": pair, "columns": ", ".join(COLUMNS)}
                )
            mapping[theirs.strip()] = ours
        return mapping

    def _read_all(self, paths: list[str]) -> list[tuple[str, bytes]]:
        files: list[tuple[str, bytes]] = []
        for path in paths:
            if path != "-" and Path(path).is_dir():
                found = sorted(
                    p
                    for p in Path(path).rglob("*")
                    if p.is_file() and (".tdt" in p.name.lower() or p.suffix.lower() == ".zip")
                )
                if not found:
                    raise CommandError(
                        _("%(path)s holds no TD save (.tdt) and no .zip.") % {"path": path}
                    )
                files.extend((str(p), self._read(str(p))) for p in found)
            else:
                files.append((path, self._read(path)))
        return files

    def _read(self, path: str) -> bytes:
        # Enough to see that a file is over its limit, never more.
        limit = max(IMPORT_MAX_BYTES, tdt.MAX_BYTES, 64 * 1024 * 1024)
        if path == "-":
            return sys.stdin.buffer.read(limit + 1)
        try:
            with open(path, "rb") as file:
                return file.read(limit + 1)
        except OSError as error:
            raise CommandError(
                _("Cannot read %(path)s: %(error)s") % {"path": path, "error": error.strerror}
            ) from None

    def _describe_source(self, source: ImportSource) -> None:
        for note in source.notes:
            self.stdout.write(note)
        for night in source.skipped:
            self.stdout.write(
                _("%(file)s, %(title)s: %(reason)s")
                % {"file": night.source, "title": night.title, "reason": night.skipped}
            )
        for night in source.nights:
            self.stdout.write(
                _(
                    "Night %(date)s %(title)s (%(file)s): %(players)s player(s), buy-in %(buy_in)s, fee %(fee)s%(game)s"
                )
                % {
                    "date": night.day.isoformat() if night.day else "?",
                    "title": night.title,
                    "file": night.source,
                    "players": len(night.results),
                    "buy_in": night.buy_in,
                    "fee": night.fee,
                    "game": f", {night.game_name}" if night.game_name else "",
                }
            )
            for note in night.notes:
                self.stdout.write(f"  {note}")
        for formula in source.formulas:
            self.stdout.write(_("TD's points formula:"))
            self.stdout.write("  " + "\n  ".join(formula.splitlines()))
            translated = td_formula_translate(formula)
            if translated.formula:
                self.stdout.write(
                    _("As the season's formula: %(formula)s") % {"formula": translated.formula}
                )
            else:
                self.stdout.write(
                    _("The season's formula cannot say it: %(reason)s")
                    % {"reason": translated.reason}
                )

    def _describe(self, plan: ImportPlan) -> None:
        new = _("new") if plan.season is None else _("existing")
        self.stdout.write(
            _("Season: %(name)s (%(state)s)") % {"name": plan.season_name, "state": new}
        )
        for event in plan.events:
            state = _("new") if event.existing is None else _("existing")
            self.stdout.write(
                _(
                    "Event %(date)s %(name)s (%(state)s): %(new)s new result(s), %(same)s already there"
                )
                % {
                    "date": event.day.isoformat(),
                    "name": event.name,
                    "state": state,
                    "new": event.new_results,
                    "same": event.unchanged,
                }
            )
        for person in plan.people:
            if person.choice is None:
                self.stdout.write(_("Player %(name)s: new guest") % {"name": person.name})
            elif person.choice.name != person.name or len(person.candidates) > 1:
                self.stdout.write(
                    _("Player %(name)s: the site's %(player)s (id %(id)s)")
                    % {"name": person.name, "player": person.choice.name, "id": person.choice.pk}
                )
        for problem in plan.problems:
            self.stderr.write(str(problem))
