"""Who is coming to an event: the ``Rsvp`` answers and the host's numbers on ``Event``
(seats, waiting list, the minimum to play and when it is checked, the late-drop window).
Existing events get no limit, no minimum, and 24 hours for both windows."""

import django.core.validators
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("series", "0011_beat_tick")]

    operations: list[migrations.operations.base.Operation] = [
        migrations.AddField(
            model_name="event",
            name="capacity",
            field=models.PositiveSmallIntegerField(
                blank=True,
                help_text="How many people fit, guests included. Empty: no limit.",
                null=True,
                verbose_name="seats",
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="waiting_list_size",
            field=models.PositiveSmallIntegerField(
                blank=True,
                help_text=(
                    "How many people may wait once the seats are taken, guests included. "
                    "Empty: no limit; 0: no waiting list."
                ),
                null=True,
                verbose_name="waiting list",
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="rsvp_minimum",
            field=models.PositiveSmallIntegerField(
                blank=True,
                help_text="The host is told when fewer are going, guests included. Empty: no minimum.",
                null=True,
                verbose_name="fewest people to play",
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="rsvp_minimum_hours",
            field=models.PositiveSmallIntegerField(
                default=24,
                help_text="How many hours before the start the minimum is checked.",
                verbose_name="minimum checked (hours before)",
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="late_drop_hours",
            field=models.PositiveSmallIntegerField(
                default=24,
                help_text=(
                    "Someone going who drops this many hours before the start or later is flagged."
                ),
                verbose_name="late drop (hours before)",
            ),
        ),
        migrations.CreateModel(
            name="Rsvp",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "answer",
                    models.CharField(
                        choices=[("going", "Going"), ("maybe", "Maybe"), ("no", "Not going")],
                        max_length=10,
                        verbose_name="answer",
                    ),
                ),
                (
                    "guests",
                    models.PositiveSmallIntegerField(
                        default=0,
                        help_text="People the player brings, each taking a seat.",
                        validators=[django.core.validators.MaxValueValidator(3)],
                        verbose_name="guests",
                    ),
                ),
                (
                    "guest_names",
                    models.CharField(
                        blank=True,
                        help_text="Optional, separated by commas.",
                        max_length=200,
                        verbose_name="guests' names",
                    ),
                ),
                (
                    "waiting",
                    models.BooleanField(
                        default=False,
                        help_text="Going, but the seats were taken when they answered.",
                        verbose_name="on the waiting list",
                    ),
                ),
                ("answered_at", models.DateTimeField(verbose_name="answered at")),
                (
                    "promoted_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="moved up at"),
                ),
                (
                    "dropped_late_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="dropped late at"),
                ),
                ("updated_at", models.DateTimeField(auto_now=True, verbose_name="updated at")),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rsvps",
                        to="series.event",
                        verbose_name="event",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rsvps",
                        to="series.player",
                        verbose_name="player",
                    ),
                ),
            ],
            options={
                "verbose_name": "RSVP",
                "verbose_name_plural": "RSVPs",
                "ordering": ["event", "answered_at", "pk"],
                "constraints": [
                    models.UniqueConstraint(fields=("event", "player"), name="rsvp_one_per_player"),
                    models.CheckConstraint(
                        condition=models.Q(("guests__lte", 3)), name="rsvp_guests_at_most_max"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            ("waiting", False), ("answer", "going"), _connector="OR"
                        ),
                        name="rsvp_only_going_waits",
                    ),
                ],
            },
        ),
    ]
