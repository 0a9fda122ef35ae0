from django.db import migrations


def groups_set(apps, schema_editor):
    """The live tables of tournaments opened before tables had a group get their
    tournament's, so a page left at one still follows its player within the tournament."""
    TournamentTable = apps.get_model("tournaments", "TournamentTable")
    Table = apps.get_model("tables", "Table")
    rows = TournamentTable.objects.filter(live_table__isnull=False).values_list(
        "tournament_id", "live_table_id"
    )
    for tournament_id, live_table_id in rows:
        Table.objects.filter(pk=live_table_id, group="").update(group=f"tournament-{tournament_id}")


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0020_rebuy_after_bust"),
        ("tables", "0018_table_group"),
    ]

    operations = [migrations.RunPython(groups_set, migrations.RunPython.noop)]
