from io import StringIO

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_every_model_change_has_a_migration() -> None:
    call_command("makemigrations", "--check", "--dry-run", stdout=StringIO())


@pytest.mark.django_db(transaction=True)
def test_an_omaha_high_event_takes_the_engines_name_when_migrated() -> None:
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before = [("series", "0006_labels_translated")]
    after = [("series", "0007_event_game_engine_names")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    season = old.get_model("series", "Season").objects.create(
        name="Old", starts_on="2026-01-01", ends_on="2026-12-31"
    )
    Event = old.get_model("series", "Event")
    high = Event.objects.create(
        season=season, name="PLO", starts_at="2026-02-01T20:00Z", game="omaha-hi", buy_in=20
    )
    hi_lo = Event.objects.create(
        season=season, name="PLO8", starts_at="2026-03-01T20:00Z", game="omaha-hi-lo", buy_in=20
    )

    executor = MigrationExecutor(connection)
    executor.migrate(after)
    new = executor.loader.project_state(after).apps.get_model("series", "Event")
    assert new.objects.get(pk=high.pk).game == "omaha"
    assert new.objects.get(pk=hi_lo.pk).game == "omaha-hi-lo"

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
