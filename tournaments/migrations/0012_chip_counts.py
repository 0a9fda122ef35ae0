import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import core.amounts


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0011_clock_changes"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name="tournamentaction",
            name="kind",
            field=models.CharField(
                choices=[
                    ("start", "Started the tournament"),
                    ("clock", "Clock"),
                    ("register", "Registered a player"),
                    ("unregister", "Unregistered a player"),
                    ("late-entry", "Late entry"),
                    ("rebuy", "Rebuy"),
                    ("reentry", "Re-entry"),
                    ("addon", "Add-on"),
                    ("seat", "Seated players"),
                    ("move", "Moved a player"),
                    ("button", "Set a button"),
                    ("eliminate", "Elimination"),
                    ("break-table", "Broke a table"),
                    ("deal", "Recorded a deal"),
                    ("finish", "Finished the tournament"),
                    ("chip-count", "Counted chips"),
                ],
                max_length=20,
                verbose_name="action",
            ),
        ),
        migrations.CreateModel(
            name="ChipCount",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "chips",
                    models.PositiveIntegerField(
                        validators=[core.amounts.AtMost(1000000000, of_chips=True)],
                        verbose_name="chips",
                    ),
                ),
                ("counted_at", models.DateTimeField(auto_now_add=True, verbose_name="counted at")),
                (
                    "by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="by",
                    ),
                ),
                (
                    "entry",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="chip_counts",
                        to="tournaments.entry",
                        verbose_name="entry",
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="chip_counts",
                        to="tournaments.tournament",
                        verbose_name="tournament",
                    ),
                ),
            ],
            options={
                "verbose_name": "chip count",
                "verbose_name_plural": "chip counts",
                "ordering": ["-pk"],
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("chips__gt", 0)), name="chip_count_positive"
                    )
                ],
            },
        ),
    ]
