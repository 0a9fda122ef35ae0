"""The night's shared money counted in cents (1 of 3: the columns): an expense of 23.50 is
stored exactly.

Expenses, their shares, the settle-up's transfers and the debts carried to the next night
move from whole units to cents together (``amount`` becomes ``amount_cents``, the stored
values times 100), since they add up with each other in the night's balances. The
transfers and carried debts become big integers: the most a settle-up moves (``PRIZE_MAX``)
is beyond a 32-bit integer counted in cents.

PostgreSQL cannot alter a table that has pending trigger events in the same transaction:
the columns (here), the values (0023) and the checks put back (0024) are three migrations,
each its own transaction.
"""

from django.db import migrations, models

import core.amounts


class Migration(migrations.Migration):
    dependencies = [
        ("series", "0021_event_game_name"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="carrieddebt", name="carried_debt_positive"),
        migrations.RemoveConstraint(model_name="expense", name="expense_positive"),
        migrations.RemoveConstraint(model_name="transfer", name="transfer_positive"),
        migrations.RenameField("carrieddebt", "amount", "amount_cents"),
        migrations.RenameField("expense", "amount", "amount_cents"),
        migrations.RenameField("expenseshare", "amount", "amount_cents"),
        migrations.RenameField("transfer", "amount", "amount_cents"),
        migrations.AlterField(
            model_name="carrieddebt",
            name="amount_cents",
            field=models.PositiveBigIntegerField(
                validators=[core.amounts.AtMost(10000000000, of_cents=True)]
            ),
        ),
        migrations.AlterField(
            model_name="expense",
            name="amount_cents",
            field=models.PositiveIntegerField(
                validators=[core.amounts.AtMost(100000000, of_cents=True)],
                verbose_name="amount",
            ),
        ),
        migrations.AlterField(
            model_name="expenseshare",
            name="amount_cents",
            field=models.PositiveIntegerField(
                validators=[core.amounts.AtMost(100000000, of_cents=True)]
            ),
        ),
        migrations.AlterField(
            model_name="transfer",
            name="amount_cents",
            field=models.PositiveBigIntegerField(
                validators=[core.amounts.AtMost(10000000000, of_cents=True)]
            ),
        ),
    ]
