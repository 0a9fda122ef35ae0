"""Compile locale/*/LC_MESSAGES/*.po into the .mo files Django reads, with polib.

Django's own ``compilemessages`` needs GNU gettext's ``msgfmt``, which a fresh machine with
only Python does not have; the .mo files are committed, so ``make run`` needs neither, and
``tests/series/test_i18n_catalogs.py`` fails when a .mo no longer matches its .po.
"""

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


def catalog_paths() -> list[Path]:
    return sorted(
        po for locale in settings.LOCALE_PATHS for po in Path(locale).glob("*/LC_MESSAGES/*.po")
    )


class Command(BaseCommand):
    help = "Compile the project's .po catalogs into .mo files (no system gettext needed)."

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            import polib  # noqa: PLC0415 - a development tool, imported when used
        except ImportError as exc:  # a development tool: requirements-dev.txt has it
            raise CommandError("polib is needed: pip install -r requirements-dev.txt") from exc
        for po_path in catalog_paths():
            catalog = polib.pofile(str(po_path))
            catalog.save_as_mofile(str(po_path.with_suffix(".mo")))
            self.stdout.write(
                f"{po_path}: {len(catalog.translated_entries())} translated, "
                f"{len(catalog.untranslated_entries())} untranslated, "
                f"{len(catalog.fuzzy_entries())} fuzzy"
            )
