"""A player's ask for a rebuy or the add-on from their night page, which the director
approves with one tap (``tournaments.services.purchase_requests``)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import core.amounts


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0017_blind_level_blind_structure"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="PurchaseRequest",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[("rebuy", "Rebuy"), ("addon", "Add-on")],
                        max_length=10,
                        verbose_name="kind",
                    ),
                ),
                (
                    "state",
                    models.CharField(
                        choices=[
                            ("pending", "Waiting for the director"),
                            ("approved", "Approved"),
                            ("refused", "Refused"),
                            ("withdrawn", "Withdrawn"),
                        ],
                        default="pending",
                        max_length=10,
                        verbose_name="state",
                    ),
                ),
                (
                    "stack",
                    models.PositiveIntegerField(
                        blank=True,
                        null=True,
                        validators=[core.amounts.chips_max()],
                        verbose_name="stack when asked",
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="asked at")),
                (
                    "decided_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="decided at"),
                ),
                (
                    "decided_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="decided by",
                    ),
                ),
                (
                    "entry",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="purchase_requests",
                        to="tournaments.entry",
                        verbose_name="entry",
                    ),
                ),
            ],
            options={
                "verbose_name": "purchase request",
                "verbose_name_plural": "purchase requests",
                "ordering": ["created_at", "pk"],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("state", "pending")),
                        fields=("entry", "kind"),
                        name="purchase_request_one_pending",
                    )
                ],
            },
        ),
    ]
