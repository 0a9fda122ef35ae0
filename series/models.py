"""Seasons and their events on the calendar. Results and standings come later."""

from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class Game(models.TextChoices):
    OMAHA_HI = "omaha-hi", "Omaha High"
    OMAHA_HI_LO = "omaha-hi-lo", "Omaha Hi/Lo 8-or-better"


class Structure(models.TextChoices):
    LIMIT = "limit", "Limit"
    POT_LIMIT = "pot-limit", "Pot-Limit"
    NO_LIMIT = "no-limit", "No-Limit"


class Season(models.Model):
    name = models.CharField(max_length=100)
    starts_on = models.DateField()
    ends_on = models.DateField()
    description = models.TextField(blank=True)

    class Meta:
        ordering = ["-starts_on"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__gte=models.F("starts_on")),
                name="season_ends_after_it_starts",
            )
        ]

    def __str__(self) -> str:
        return self.name


class Event(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="events")
    name = models.CharField(max_length=100)
    starts_at = models.DateTimeField()
    venue = models.CharField(max_length=200, blank=True)
    game = models.CharField(max_length=20, choices=Game.choices, default=Game.OMAHA_HI_LO)
    structure = models.CharField(
        max_length=20, choices=Structure.choices, default=Structure.POT_LIMIT
    )
    buy_in = models.PositiveIntegerField(help_text="Goes to the prize pool.")
    fee = models.PositiveIntegerField(default=0, help_text="Kept outside the prize pool.")
    starting_stack = models.PositiveIntegerField(default=10000)
    notes = models.TextField(blank=True)

    class Meta:
        ordering = ["starts_at"]

    def __str__(self) -> str:
        return self.name

    @property
    def price(self) -> str:
        """The price as players say it: "20+5" is 20 to the prize pool and a 5 fee."""
        return f"{self.buy_in}+{self.fee}" if self.fee else str(self.buy_in)

    @property
    def game_label(self) -> str:
        """Short name for listings: "Pot-Limit Omaha Hi/Lo"."""
        game = "Omaha Hi/Lo" if self.game == Game.OMAHA_HI_LO else "Omaha High"
        return f"{self.get_structure_display()} {game}"

    def get_admin_url(self) -> str:
        return reverse("admin:series_event_change", args=[self.pk])


class Player(models.Model):
    """A person of the series: an account, or a guest a director added by name.

    Tournament entries and results point here, so a guest's results follow them when a
    director merges the guest into an account (the guest's rows move to the account's
    player).
    """

    user = models.OneToOneField(
        "auth.User",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="series_player",
    )
    name = models.CharField(_("name"), max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.name

    @property
    def is_guest(self) -> bool:
        return self.user_id is None
