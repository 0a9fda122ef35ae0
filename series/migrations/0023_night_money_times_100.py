"""The night's shared money counted in cents (2 of 3: the values, times 100).

Back, the values are divided by 100; refused while any of them has cents (a pizza of 23.50
has no whole-unit amount, and rounding it would break the balances' sum).
"""

from django.db import migrations
from django.db.models import F
from django.db.models.functions import Mod

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
        ("series", "0022_night_money_in_cents"),
    ]

    operations = [
        migrations.RunPython(to_cents, to_whole_units),
    ]
