"""The night's shared money counted in cents: an expense of 23.50 is stored exactly.

Expenses, their shares, the settle-up's transfers and the debts carried to the next night
move from whole units to cents together (``amount`` becomes ``amount_cents``, the stored
values times 100), since they add up with each other in the night's balances. The
transfers and carried debts become big integers: the most a settle-up moves (``PRIZE_MAX``)
is beyond a 32-bit integer counted in cents.

Back, the values are divided by 100; refused while any of them has cents (a pizza of 23.50
has no whole-unit amount, and rounding it would break the balances' sum).
"""

from django.db import migrations, models
from django.db.models import F
from django.db.models.functions import Mod

import core.amounts

MODELS = ("Expense", "ExpenseShare", "Transfer", "CarriedDebt")
CENTS = 100


def to_cents(apps, schema_editor):
    for name in MODELS:
        apps.get_model("series", name).objects.update(amount_cents=F("amount_cents") * CENTS)


def to_whole_units(apps, schema_editor):
    for name in MODELS:
        rows = (
            apps.get_model("series", name)
            .objects.annotate(odd=Mod("amount_cents", CENTS))
            .exclude(odd=0)
        )
        if rows.exists():
            raise RuntimeError(
                f"{rows.count()} {name} amount(s) hold cents: they have no whole-unit amount "
                "to go back to. Remove or correct them first."
            )
    for name in MODELS:
        apps.get_model("series", name).objects.update(amount_cents=F("amount_cents") / CENTS)


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
        migrations.RunPython(to_cents, to_whole_units),
        migrations.AddConstraint(
            model_name="carrieddebt",
            constraint=models.CheckConstraint(
                condition=models.Q(("amount_cents__gt", 0)), name="carried_debt_positive"
            ),
        ),
        migrations.AddConstraint(
            model_name="expense",
            constraint=models.CheckConstraint(
                condition=models.Q(("amount_cents__gt", 0)), name="expense_positive"
            ),
        ),
        migrations.AddConstraint(
            model_name="transfer",
            constraint=models.CheckConstraint(
                condition=models.Q(("amount_cents__gt", 0)), name="transfer_positive"
            ),
        ),
    ]
