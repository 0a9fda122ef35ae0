"""The night's shared money counted in cents (3 of 3): every amount stays above zero, as
before the move."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("series", "0023_night_money_times_100"),
    ]

    operations = [
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
