"""An event's game takes the engine's names: Omaha High is "omaha" everywhere (it was
"omaha-hi" on events and "omaha" at the tables, and an online tournament of it could not open
its tables)."""

from django.db import migrations, models


def to_engine_names(apps, schema_editor):
    Event = apps.get_model("series", "Event")
    Event.objects.filter(game="omaha-hi").update(game="omaha")


def to_old_names(apps, schema_editor):
    Event = apps.get_model("series", "Event")
    Event.objects.filter(game="omaha").update(game="omaha-hi")


class Migration(migrations.Migration):
    dependencies = [
        ("series", "0006_labels_translated"),
    ]

    operations = [
        migrations.RunPython(to_engine_names, to_old_names),
        migrations.AlterField(
            model_name="event",
            name="game",
            field=models.CharField(
                choices=[("omaha", "Omaha High"), ("omaha-hi-lo", "Omaha Hi/Lo 8-or-better")],
                default="omaha-hi-lo",
                max_length=20,
                verbose_name="game",
            ),
        ),
    ]
