from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0014_amount_bounds"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="time_bank_seconds",
            field=models.PositiveIntegerField(
                default=0,
                help_text="Online: the extra seconds each player starts with.",
                verbose_name="time bank (seconds)",
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="time_bank_refill_seconds",
            field=models.PositiveIntegerField(
                default=0, verbose_name="time bank refill per level (seconds)"
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="time_bank_cap_seconds",
            field=models.PositiveIntegerField(
                default=0,
                help_text="The most a player's bank holds. 0: no time bank.",
                verbose_name="time bank cap (seconds)",
            ),
        ),
    ]
