import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("series", "0002_player"),
        ("tournaments", "0018_purchase_requests"),
    ]

    operations: list[migrations.operations.base.Operation] = [
        migrations.CreateModel(
            name="GuestPin",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("nonce", models.CharField(editable=False, max_length=64)),
                ("expires_at", models.DateTimeField(verbose_name="expires at")),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="created at")),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="guest_pins",
                        to="series.player",
                        verbose_name="player",
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="guest_pins",
                        to="tournaments.tournament",
                        verbose_name="tournament",
                    ),
                ),
            ],
            options={
                "verbose_name": "guest PIN",
                "verbose_name_plural": "guest PINs",
                "constraints": [
                    models.UniqueConstraint(
                        fields=("tournament", "player"), name="guest_pin_one_per_player"
                    )
                ],
            },
        ),
    ]
