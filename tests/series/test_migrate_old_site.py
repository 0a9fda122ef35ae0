"""A site made by an earlier version migrates forward with nothing lost.

``tests/data/site-at-091dc48.sqlite3.gz`` is the database ``make run``'s demo and a
simulated online tournament of eight bots left at commit 091dc48, before the site package
moved to ``config`` and the money, backup, level and heartbeat tables came. Migrated by
today's code, every row is still there and every finished hand still replays.
"""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

from tests.tables.servers import manage, server_env

OLD_SITE = Path(__file__).resolve().parent.parent / "data" / "site-at-091dc48.sqlite3.gz"

READ = """
import io
import json
from django.core.management import call_command
from series.models import Event, Result, Transfer
from series.services.settle import settle_up_lines
from tables.runtime.state import engine_of
from tables.models import Hand
from django.contrib.auth.models import Group, Permission
from tournaments.models import BlindLevel, Entry, Tournament
hands = Hand.objects.filter(ended_at__isnull=False)
replayed = sum(1 for hand in hands if engine_of(hand).is_complete)
finished = Event.objects.filter(results__isnull=False).distinct().get()
migrations = io.StringIO()
call_command("showmigrations", stdout=migrations)
print(json.dumps({
    "results": sorted(Result.objects.values_list("player__name", "place", "prize", "paid_in")),
    "transfers": Transfer.objects.count(),
    "hands": hands.count(),
    "replayed": replayed,
    "levels": Hand.objects.exclude(level=None).count(),
    "entries": Entry.objects.count(),
    "tournaments": Tournament.objects.count(),
    "balance": sum(line.to_settle for line in settle_up_lines(finished)),
    "blind_levels": BlindLevel.objects.count(),
    "stale_permissions": Permission.objects.filter(codename__endswith="structurelevel").count(),
    "directors_may": sorted(
        Group.objects.get(name="Directors").permissions.filter(
            content_type__model="blindlevel"
        ).values_list("codename", flat=True)
    ),
    "showmigrations": migrations.getvalue(),
}))
"""


def test_a_database_of_an_earlier_version_migrates_with_nothing_lost(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    with gzip.open(OLD_SITE) as packed, open(database, "wb") as unpacked:
        shutil.copyfileobj(packed, unpacked)
    env = server_env(DATABASE_URL=f"sqlite:///{database}")
    manage(env, "migrate", "--noinput", "-v", "0")
    seen = json.loads(manage(env, "shell", "-c", READ).strip().splitlines()[-1])

    assert seen["tournaments"] == 7 and seen["entries"] == 14
    assert len(seen["results"]) == 8
    assert seen["results"][0][0] == "Ace 8" and {r[1] for r in seen["results"]} == set(range(1, 9))
    assert sum(r[2] for r in seen["results"]) == 160  # the prize pool, paid in full
    assert seen["transfers"] == 6 and seen["balance"] == 0
    assert seen["hands"] == 234 and seen["replayed"] == 234
    assert seen["levels"] == 0  # dealt before hands stored their level: none is made up
    # The blind structures' rows kept their data and the directors their rights over them
    # under the rows' new name.
    assert seen["blind_levels"] > 0 and seen["stale_permissions"] == 0
    assert seen["directors_may"] == [
        "add_blindlevel",
        "change_blindlevel",
        "delete_blindlevel",
        "view_blindlevel",
    ]
    # And the migrated site answers: the migrations are all applied.
    assert "[X]" in seen["showmigrations"] and "[ ]" not in seen["showmigrations"]
