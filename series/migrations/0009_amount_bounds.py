"""Amounts get a home game's bounds (``core.amounts``): a price at most 1,000,000, money
that adds up at most 100,000,000, chips at most 1,000,000,000. Validators only: the columns
do not change, and rows already stored are not touched."""

from django.db import migrations, models

import core.amounts


class Migration(migrations.Migration):
    dependencies = [("series", "0008_worker_heartbeat")]

    operations = [
        migrations.AlterField(
            model_name="event",
            name="buy_in",
            field=models.PositiveIntegerField(
                help_text="Goes to the prize pool.",
                validators=[core.amounts.AtMost(1000000)],
                verbose_name="buy-in",
            ),
        ),
        migrations.AlterField(
            model_name="event",
            name="fee",
            field=models.PositiveIntegerField(
                default=0,
                help_text="Kept outside the prize pool.",
                validators=[core.amounts.AtMost(1000000)],
                verbose_name="fee",
            ),
        ),
        migrations.AlterField(
            model_name="event",
            name="starting_stack",
            field=models.PositiveIntegerField(
                default=10000,
                validators=[core.amounts.AtMost(1000000000, of_chips=True)],
                verbose_name="starting stack",
            ),
        ),
        migrations.AlterField(
            model_name="result",
            name="bounties",
            field=models.PositiveIntegerField(
                default=0, validators=[core.amounts.AtMost(100000000)], verbose_name="bounties"
            ),
        ),
        migrations.AlterField(
            model_name="result",
            name="paid_in",
            field=models.PositiveIntegerField(
                default=0, validators=[core.amounts.AtMost(100000000)], verbose_name="paid in"
            ),
        ),
        migrations.AlterField(
            model_name="result",
            name="prize",
            field=models.PositiveIntegerField(
                default=0, validators=[core.amounts.AtMost(100000000)], verbose_name="prize"
            ),
        ),
        migrations.AlterField(
            model_name="season",
            name="season_pot_per_entry",
            field=models.PositiveIntegerField(
                default=0,
                help_text="Taken from each entry's fee for the final event or a trophy.",
                validators=[core.amounts.AtMost(1000000)],
                verbose_name="season pot per entry",
            ),
        ),
        migrations.AlterField(
            model_name="transfer",
            name="amount",
            field=models.PositiveIntegerField(validators=[core.amounts.AtMost(100000000)]),
        ),
    ]
