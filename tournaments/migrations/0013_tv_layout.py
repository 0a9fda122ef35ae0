from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0012_chip_counts")]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="tv_show_chips",
            field=models.BooleanField(default=True, verbose_name="TV shows the chip counts"),
        ),
        migrations.AddField(
            model_name="tournament",
            name="tv_show_next_levels",
            field=models.BooleanField(default=True, verbose_name="TV shows the levels coming up"),
        ),
        migrations.AddField(
            model_name="tournament",
            name="tv_show_payouts",
            field=models.BooleanField(default=True, verbose_name="TV shows the payouts"),
        ),
        migrations.AddField(
            model_name="tournament",
            name="tv_theme",
            field=models.CharField(
                choices=[
                    ("dark", "Dark"),
                    ("light", "Light"),
                    ("contrast", "High contrast"),
                    ("felt", "Green felt"),
                ],
                default="dark",
                max_length=20,
                verbose_name="TV theme",
            ),
        ),
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
                    ("tv", "TV layout"),
                ],
                max_length=20,
                verbose_name="action",
            ),
        ),
    ]
