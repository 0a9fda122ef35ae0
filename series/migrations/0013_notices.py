"""E-mail notices: the outbox (``Notice``), each account's choices (``NoticeSettings``), and
when an event is published.

Existing events count as published when this runs, and as having had their invitations
queued: nobody is invited by e-mail to an event announced before the notices existed (a
player would otherwise get one for every upcoming event at once on the day of the upgrade).
Reminders, results and host alerts for them follow the usual rules from then on.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def existing_events_invited(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Event = apps.get_model("series", "Event")
    Event.objects.filter(invitations_queued_at__isnull=True).update(
        invitations_queued_at=models.F("published_at")
    )


class Migration(migrations.Migration):
    dependencies = [
        ("series", "0012_rsvp"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations: list[migrations.operations.base.Operation] = [
        # The callable default gives every existing event the time of the upgrade.
        migrations.AddField(
            model_name="event",
            name="published_at",
            field=models.DateTimeField(
                blank=True,
                default=django.utils.timezone.now,
                help_text="Invitations are e-mailed once this time has passed. Empty: a draft.",
                null=True,
                verbose_name="published at",
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="invitations_queued_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(existing_events_invited, migrations.RunPython.noop),
        migrations.CreateModel(
            name="NoticeSettings",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "invitations",
                    models.BooleanField(default=True, verbose_name="Invitations to new events"),
                ),
                (
                    "reminders",
                    models.BooleanField(
                        default=True, verbose_name="Reminders two days and three hours before"
                    ),
                ),
                (
                    "waiting_list",
                    models.BooleanField(default=True, verbose_name="A seat from the waiting list"),
                ),
                (
                    "results",
                    models.BooleanField(
                        default=True, verbose_name="Results and standings after each event"
                    ),
                ),
                (
                    "host",
                    models.BooleanField(
                        default=True, verbose_name="Host alerts: too few going, late drops"
                    ),
                ),
                (
                    "language",
                    models.CharField(
                        blank=True,
                        choices=[("en", "English"), ("fr", "Français")],
                        help_text="Empty: the language you chose for the site.",
                        max_length=10,
                        verbose_name="language of the e-mails",
                    ),
                ),
                ("updated_at", models.DateTimeField(auto_now=True)),
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="notice_settings",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={"verbose_name": "e-mail settings", "verbose_name_plural": "e-mail settings"},
        ),
        migrations.CreateModel(
            name="Notice",
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
                        choices=[
                            ("invitation", "Invitation to a new event"),
                            ("reminder_48h", "Reminder two days before"),
                            ("reminder_3h", "Reminder three hours before"),
                            ("promoted", "A seat from the waiting list"),
                            ("results", "Results and standings"),
                            ("host_minimum", "Too few going (to the hosts)"),
                            ("host_late_drop", "A late drop (to the hosts)"),
                        ],
                        max_length=20,
                        verbose_name="kind",
                    ),
                ),
                ("key", models.CharField(max_length=200, unique=True)),
                (
                    "state",
                    models.CharField(
                        choices=[
                            ("pending", "waiting to be sent"),
                            ("sending", "being sent"),
                            ("sent", "sent"),
                            ("failed", "not sent"),
                            ("skipped", "not needed any more"),
                        ],
                        default="pending",
                        max_length=10,
                        verbose_name="state",
                    ),
                ),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("claim", models.CharField(blank=True, max_length=32)),
                ("claimed_at", models.DateTimeField(blank=True, null=True)),
                ("sent_at", models.DateTimeField(blank=True, null=True)),
                ("attempts", models.PositiveSmallIntegerField(default=0)),
                ("last_error", models.CharField(blank=True, max_length=300)),
                (
                    "event",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="notices",
                        to="series.event",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="series.player",
                    ),
                ),
                (
                    "recipient",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "e-mail notice",
                "verbose_name_plural": "e-mail notices",
                "ordering": ["created_at", "pk"],
                "indexes": [
                    models.Index(fields=["state", "created_at"], name="notice_state_created")
                ],
            },
        ),
    ]
