"""The series: seasons and their events on the calendar, every event's results, the standings
computed from them, corrections with their history, and who owes whom after a night.

Standings are never incremented: a Celery task recomputes a season's ``Standing`` and
``StandingPoint`` rows from the stored ``Result`` rows (``series.services.standings``), so
running it twice, or twice at once, gives the same table.
"""

from datetime import datetime

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core import amounts
from core.choices import choices_of
from series.formula import Formula, FormulaError
from tables.engine.config import GAME_NAMES, STRUCTURE_NAMES, Game, Structure

# The longest game name kept from another tool ("Texas Hold 'Em / Omaha" for a mixed night).
GAME_NAME_MAX = 200


class PointsFormula(models.TextChoices):
    SQUARE_ROOT = "sqrt", _("Square root: 10·√n/√k·(1 + log10(b + 0.25))")
    PLACES = "places", _("Points by place")
    CUSTOM = "custom", _("The director's own formula")


class SeasonVisibility(models.TextChoices):
    """Who sees a season that is not a draft. Directors see everything; drafts (events not
    published yet) are theirs alone whatever the season says."""

    PUBLIC = "public", _("Everyone: names and results too")
    MEMBERS_NAMES = "members_names", _("Everyone sees the calendar; names and results for members")
    MEMBERS = "members", _("Members only: nothing for visitors")


class Season(models.Model):
    name = models.CharField(_("name"), max_length=100)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))
    description = models.TextField(_("description"), blank=True)
    points_formula = models.CharField(
        _("points formula"),
        max_length=10,
        choices=PointsFormula.choices,
        default=PointsFormula.SQUARE_ROOT,
    )
    # PointsFormula.PLACES: points for 1st, 2nd, ... (places beyond the list score 0).
    place_points = models.JSONField(_("points by place"), default=list, blank=True)
    # PointsFormula.CUSTOM: an expression on n, k, b, rebuys, addons, knockouts, prize ...
    custom_formula = models.TextField(_("formula"), blank=True)
    best_of = models.PositiveSmallIntegerField(
        _("best results that count"), null=True, blank=True, help_text=_("Empty: every event.")
    )
    min_events = models.PositiveSmallIntegerField(_("events to qualify"), default=0)
    min_field = models.PositiveSmallIntegerField(
        _("smallest field that counts"),
        default=4,
        help_text=_("An event with fewer entrants scores no points."),
    )
    season_pot_per_entry = models.PositiveIntegerField(
        _("season pot per entry"),
        default=0,
        validators=[amounts.money_max()],
        help_text=_("Taken from each entry's fee for the final event or a trophy."),
    )
    standings_public = models.BooleanField(
        _("public standings"),
        default=False,
        help_text=_("Anyone with the link may show the leaderboard on another site, in a frame."),
    )
    # Who sees the season (``series.selectors``: ``season_shown_to``, ``names_shown_to``).
    visibility = models.CharField(
        _("who sees the season"),
        max_length=20,
        choices=SeasonVisibility.choices,
        default=SeasonVisibility.MEMBERS_NAMES,
        help_text=_(
            "Members are the people with an account on this site, logged in. Visitors who "
            "are not see at most how many are coming, never who."
        ),
    )
    # What a new night of the season is filled in with (``series.services.events``:
    # ``event_defaults``); each left empty is taken from the last night instead.
    default_venue = models.CharField(_("venue"), max_length=200, blank=True)
    default_game = models.CharField(
        _("game"), max_length=20, blank=True, choices=choices_of(Game, GAME_NAMES)
    )
    default_structure = models.CharField(
        _("betting structure"),
        max_length=20,
        blank=True,
        choices=choices_of(Structure, STRUCTURE_NAMES),
    )
    default_buy_in = models.PositiveIntegerField(
        _("buy-in"), null=True, blank=True, validators=[amounts.money_max()]
    )
    default_fee = models.PositiveIntegerField(
        _("fee"), null=True, blank=True, validators=[amounts.money_max()]
    )
    default_capacity = models.PositiveSmallIntegerField(_("seats"), null=True, blank=True)
    # The defaults of the other apps' parts of a new night (``series.event_sections``), by
    # part: {"tournament": {"run": true, "blind_structure": 3, ...}}.
    night_part_defaults = models.JSONField(default=dict, blank=True)
    # Closed by the director (``series.services.events.season_close``): no new night, no
    # answers for the nights still ahead, the standings final. Empty again when reopened.
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)

    class Meta:
        ordering = ["-starts_on"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__gte=models.F("starts_on")),
                name="season_ends_after_it_starts",
                violation_error_message=_("A season cannot end before it starts."),
            )
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        # The admin saves seasons too: a formula is refused there as on the scoring page.
        if self.points_formula == PointsFormula.CUSTOM:
            try:
                Formula.parse(self.custom_formula)
            except FormulaError as error:
                raise ValidationError({"custom_formula": error.message}) from None


class Event(models.Model):
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="events", verbose_name=_("season")
    )
    name = models.CharField(_("name"), max_length=100)
    starts_at = models.DateTimeField(_("starts at"))
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    game = models.CharField(
        _("game"),
        max_length=20,
        choices=choices_of(Game, GAME_NAMES),
        default=Game.OMAHA_HI_LO.value,
    )
    structure = models.CharField(
        _("betting structure"),
        max_length=20,
        choices=choices_of(Structure, STRUCTURE_NAMES),
        default=Structure.POT_LIMIT.value,
    )
    # A night of another game, brought from another tool (The Tournament Director's
    # Hold'em nights): its game as that tool named it, shown instead of ``game`` and
    # ``structure``, which then say nothing of the night.
    game_name = models.CharField(
        _("game's own name"),
        max_length=GAME_NAME_MAX,
        blank=True,
        help_text=_("A night of another game, imported: shown instead of the game."),
    )
    buy_in = models.PositiveIntegerField(
        _("buy-in"), help_text=_("Goes to the prize pool."), validators=[amounts.money_max()]
    )
    fee = models.PositiveIntegerField(
        _("fee"),
        default=0,
        help_text=_("Kept outside the prize pool."),
        validators=[amounts.money_max()],
    )
    starting_stack = models.PositiveIntegerField(
        _("starting stack"), default=10000, validators=[amounts.chips_max()]
    )
    notes = models.TextField(_("notes"), blank=True)
    number = models.PositiveSmallIntegerField(
        _("event number"), null=True, blank=True, help_text=_("Event 2 of the season.")
    )
    counts = models.BooleanField(
        _("counts for the standings"),
        default=True,
        help_text=_("A director may leave an event out of the standings."),
    )
    points_only = models.BooleanField(
        _("points only (freeroll)"), default=False, help_text=_("No buy-in: points, no prizes.")
    )
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # Who is coming (``Rsvp``, ``series.services.rsvp``): the host's numbers.
    capacity = models.PositiveSmallIntegerField(
        _("seats"),
        null=True,
        blank=True,
        help_text=_("How many people fit, guests included. Empty: no limit."),
    )
    waiting_list_size = models.PositiveSmallIntegerField(
        _("waiting list"),
        null=True,
        blank=True,
        help_text=_(
            "How many people may wait once the seats are taken, guests included. "
            "Empty: no limit; 0: no waiting list."
        ),
    )
    rsvp_minimum = models.PositiveSmallIntegerField(
        _("fewest people to play"),
        null=True,
        blank=True,
        help_text=_("The host is told when fewer are going, guests included. Empty: no minimum."),
    )
    rsvp_minimum_hours = models.PositiveSmallIntegerField(
        _("minimum checked (hours before)"),
        default=24,
        help_text=_("How many hours before the start the minimum is checked."),
    )
    late_drop_hours = models.PositiveSmallIntegerField(
        _("late drop (hours before)"),
        default=24,
        help_text=_(
            "Someone going who drops this many hours before the start or later is flagged."
        ),
    )
    # Announcing the event (``series.services.mailings``): invitations are e-mailed once
    # ``published_at`` has passed, and ``invitations_queued_at`` records that they were
    # queued, so they go out once. Events older than the notices were marked queued by the
    # migration: nobody is invited to them after the fact.
    published_at = models.DateTimeField(
        _("published at"),
        null=True,
        blank=True,
        default=timezone.now,
        help_text=_("Invitations are e-mailed once this time has passed. Empty: a draft."),
    )
    invitations_queued_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Cancelled by the director (``series.services.events``): answers are closed, and
    # everyone who answered is told. Empty again when the cancellation is undone.
    cancelled_at = models.DateTimeField(_("cancelled at"), null=True, blank=True)

    class Meta:
        ordering = ["starts_at"]
        verbose_name = _("event")
        verbose_name_plural = _("events")

    def __str__(self) -> str:
        return self.name

    @property
    def price(self) -> str:
        """The price as players say it: "20+5" is 20 to the prize pool and a 5 fee."""
        return f"{self.buy_in}+{self.fee}" if self.fee else str(self.buy_in)

    @property
    def game_label(self) -> str:
        """Short name for listings: "Pot-Limit Omaha Hi/Lo", in French as French players
        write it, "Omaha Hi/Lo pot-limit" (each a whole phrase, as the live tables' names);
        a night of another game, imported, by its own name ("Texas Hold 'Em")."""
        if self.game_name:
            return self.game_name
        label = GAME_LABELS.get((self.structure, self.game))
        return str(label) if label is not None else str(self.get_game_display())

    @property
    def is_limit(self) -> bool:
        """Whether the betting structure is limit: the levels are then read as small/big bets."""
        return self.structure == Structure.LIMIT

    def is_draft_at(self, now: datetime) -> bool:
        """A draft (no publication time) or published later: directors alone see it."""
        return self.published_at is None or self.published_at > now

    @property
    def is_draft(self) -> bool:
        return self.is_draft_at(timezone.now())


# An event's game and structure as one name, each a whole phrase for the translators (the
# word order differs between languages); the same phrases as the live tables' names.
GAME_LABELS = {
    (Structure.LIMIT.value, Game.OMAHA.value): _("Limit Omaha High"),
    (Structure.POT_LIMIT.value, Game.OMAHA.value): _("Pot-Limit Omaha High"),
    (Structure.NO_LIMIT.value, Game.OMAHA.value): _("No-Limit Omaha High"),
    (Structure.LIMIT.value, Game.OMAHA_HI_LO.value): _("Limit Omaha Hi/Lo"),
    (Structure.POT_LIMIT.value, Game.OMAHA_HI_LO.value): _("Pot-Limit Omaha Hi/Lo"),
    (Structure.NO_LIMIT.value, Game.OMAHA_HI_LO.value): _("No-Limit Omaha Hi/Lo"),
}


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
    # The secret in the address of the player's own calendar feed: calendar apps subscribe
    # without a session. Made on first use (``series.services.calendar``); a new one
    # replaces a leaked address.
    calendar_token = models.CharField(
        max_length=64, unique=True, null=True, blank=True, editable=False
    )
    # The language the player last chose with the switch in the header; blank until then
    # (the browser's Accept-Language decides). Applied on every page once they log in, on
    # any device (series.middleware.UserLanguageMiddleware).
    language = models.CharField(
        _("language"), max_length=10, blank=True, choices=settings.LANGUAGES
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.name

    @property
    def is_guest(self) -> bool:
        return self.user_id is None


class Result(models.Model):
    """One player's result in one event, as the tournament finished it (or a director
    corrected it). ``points`` is written by the standings task only."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="results")
    place = models.PositiveIntegerField(_("place"))
    prize = models.PositiveIntegerField(_("prize"), default=0, validators=[amounts.prize_max()])
    bounties = models.PositiveIntegerField(
        _("bounties"), default=0, validators=[amounts.prize_max()]
    )
    knockouts = models.PositiveSmallIntegerField(_("knockouts"), default=0)
    rebuys = models.PositiveSmallIntegerField(_("rebuys"), default=0)
    addons = models.PositiveSmallIntegerField(_("add-ons"), default=0)
    reentries = models.PositiveSmallIntegerField(_("re-entries"), default=0)
    # What the player paid in: buy-ins, rebuys, add-ons and fees (for the settle-up).
    paid_in = models.PositiveIntegerField(_("paid in"), default=0, validators=[amounts.prize_max()])
    points = models.DecimalField(max_digits=10, decimal_places=2, default=0)
    tournament_id = models.PositiveBigIntegerField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["event", "place", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="result_one_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.player} #{self.place}"


class ResultChange(models.Model):
    """A director's correction of a finished event's results: who, when, what it was."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="result_changes")
    by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    before = models.JSONField(default=list)
    after = models.JSONField(default=list)
    reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.event}: {self.at:%Y-%m-%d %H:%M}"


class EventActionKind(models.TextChoices):
    CREATED = "created", _("made")
    PUBLISHED = "published", _("published")
    MOVED = "moved", _("moved")
    CANCELLED = "cancelled", _("cancelled")
    UNCANCELLED = "uncancelled", _("cancellation undone")


class EventAction(models.Model):
    """A host's change to a night that the players notice (made, published, moved,
    cancelled, the cancellation undone): who, when, and for a move the times before and
    after. The night's page lists them for the directors; a move can be taken back."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="actions")
    kind = models.CharField(max_length=12, choices=EventActionKind.choices)
    by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField()
    starts_before = models.DateTimeField(null=True, blank=True)
    starts_after = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.event}: {self.kind} {self.at:%Y-%m-%d %H:%M}"


class Standing(models.Model):
    """A player's line of a season's leaderboard, recomputed from the results."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="standings")
    rank = models.PositiveIntegerField()
    points = models.DecimalField(max_digits=12, decimal_places=2)
    events = models.PositiveSmallIntegerField(default=0)
    wins = models.PositiveSmallIntegerField(default=0)
    best_finish = models.PositiveIntegerField(null=True, blank=True)
    cashes = models.PositiveSmallIntegerField(default=0)
    knockouts = models.PositiveSmallIntegerField(default=0)
    net = models.IntegerField(default=0)
    qualified = models.BooleanField(default=True)
    # Rank change since the standings before the season's last counted event (+ = up).
    movement = models.IntegerField(null=True, blank=True)

    class Meta:
        ordering = ["season", "rank", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="standing_one_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.season}: {self.rank}. {self.player}"


class StandingPoint(models.Model):
    """A player's points and rank after each event of the season: the leaderboard's chart."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standing_points")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    points = models.DecimalField(max_digits=12, decimal_places=2)
    rank = models.PositiveIntegerField()

    class Meta:
        ordering = ["season", "event__starts_at", "rank"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "event", "player"], name="standing_point_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.player} {self.points}"


class Transfer(models.Model):
    """One payment of a night's settle-up: ``payer`` owes ``payee`` ``amount_cents`` (the
    night's money is counted in cents, ``core.amounts``)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="transfers")
    payer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    payee = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    # Cents: beyond a 32-bit integer at the bound, hence the big integer.
    amount_cents = models.PositiveBigIntegerField(validators=[amounts.prize_max_cents()])
    paid_at = models.DateTimeField(null=True, blank=True)
    marked_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["event", "payer__name", "payee__name"]
        constraints = [
            models.CheckConstraint(condition=models.Q(amount_cents__gt=0), name="transfer_positive")
        ]

    def __str__(self) -> str:
        return f"{self.payer} → {self.payee}: {amounts.money_cents(self.amount_cents)}"


class Expense(models.Model):
    """A cost of the night that players share (the pizza, the room): ``payer`` paid it, and
    its shares (``ExpenseShare``) say what each sharer owes of it. It enters the night's
    balances: the payer is owed the amount, each sharer owes their share. Counted in cents
    (a pizza of 23.50 is 2350)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="expenses")
    payer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    description = models.CharField(_("what for"), max_length=100)
    amount_cents = models.PositiveIntegerField(_("amount"), validators=[amounts.money_max_cents()])
    created_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "created_at", "pk"]
        verbose_name = _("expense")
        verbose_name_plural = _("expenses")
        constraints = [
            models.CheckConstraint(condition=models.Q(amount_cents__gt=0), name="expense_positive")
        ]

    def __str__(self) -> str:
        return f"{self.description}: {amounts.money_cents(self.amount_cents)} ({self.payer})"


class ExpenseShare(models.Model):
    """One sharer's part of an expense, in cents (split when the expense is added, so the
    split never changes afterwards)."""

    expense = models.ForeignKey(Expense, on_delete=models.CASCADE, related_name="shares")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    amount_cents = models.PositiveIntegerField(validators=[amounts.money_max_cents()])

    class Meta:
        ordering = ["expense", "pk"]
        verbose_name = _("expense share")
        verbose_name_plural = _("expense shares")
        constraints = [
            models.UniqueConstraint(fields=["expense", "player"], name="expense_share_one_each")
        ]

    def __str__(self) -> str:
        return f"{self.player}: {amounts.money_cents(self.amount_cents)}"


class NightClose(models.Model):
    """A night's settle-up closed by the director: its money is final (read-only) and its
    unpaid transfers were carried to the season's next night (``CarriedDebt``)."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="night_close")
    closed_at = models.DateTimeField()
    closed_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    def __str__(self) -> str:
        return f"{self.event} closed {self.closed_at:%Y-%m-%d %H:%M}"


class CarriedDebt(models.Model):
    """A transfer not paid when its night (``origin``) was closed: ``payer`` still owes
    ``payee``. It is settled with the balances of ``settled_in``, the next night of the
    season whose settle-up is computed; empty until then. Counted in cents, as the transfer
    it was."""

    origin = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="debts_carried_out")
    settled_in = models.ForeignKey(
        Event,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="debts_carried_in",
    )
    payer = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    payee = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    amount_cents = models.PositiveBigIntegerField(validators=[amounts.prize_max_cents()])

    class Meta:
        ordering = ["origin", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount_cents__gt=0), name="carried_debt_positive"
            )
        ]

    def __str__(self) -> str:
        money = amounts.money_cents(self.amount_cents)
        return f"{self.payer} → {self.payee}: {money} ({self.origin})"


class SeasonPotPayout(models.Model):
    """Money paid out of the season pot to a player, entered by the director: the final
    event's added prize, a trophy."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="pot_payouts")
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    amount = models.PositiveIntegerField(_("amount"), validators=[amounts.prize_max()])
    reason = models.CharField(_("what for"), max_length=100)
    created_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["season", "created_at", "pk"]
        constraints = [
            models.CheckConstraint(condition=models.Q(amount__gt=0), name="pot_payout_positive")
        ]

    def __str__(self) -> str:
        return f"{self.season}: {self.amount} to {self.player}"


class PaymentHandle(models.Model):
    """How to pay a player ("IBAN …, PayPal …"), set by the player; shown only to a player
    who owes them."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="payment_handle")
    text = models.CharField(_("how to pay you"), max_length=200)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.player}: {self.text}"


class WorkerHeartbeat(models.Model):
    """The periodic heartbeat task: when beat last sent it and when a worker last ran it.
    One row, rewritten.

    Beat sends the task every few seconds (and stores ``beat_sent_at`` as it does) and any
    worker runs it (storing ``hostname`` and ``seen_at``), so a stale ``seen_at`` with a fresh
    ``beat_sent_at`` means no worker is running tasks, and a stale ``beat_sent_at`` means no
    beat is sending them: either way the blind clock, bot moves and time-outs wait until it
    is back. It lives in the database, not in Redis, so it can still be read while Redis is
    down. Either time is empty until its side has written it once.
    """

    hostname = models.CharField(max_length=255, blank=True)
    seen_at = models.DateTimeField(null=True, blank=True)
    beat_sent_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        seen = f"{self.seen_at:%Y-%m-%d %H:%M:%S}" if self.seen_at else "never"
        return f"{self.hostname or 'no worker'} at {seen}"


# Who is coming to an event (``series.services.rsvp``) ------------------------------------

# A player may bring up to this many guests (+1 ... +3).
GUESTS_MAX = 3
# The guests' names, comma-separated, for the director.
GUEST_NAMES_MAX = 200


class RsvpAnswer(models.TextChoices):
    GOING = "going", _("Going")
    MAYBE = "maybe", _("Maybe")
    NO = "no", _("Not going")


class Rsvp(models.Model):
    """A player's answer to "are you coming?" for one event, with the guests they bring.

    A Going answer takes ``seats`` (the player and their guests) in the order of
    ``answered_at``; one that does not fit the event's ``capacity`` waits (``waiting``)
    and is moved up by ``series.services.rsvp`` when seats free up (``promoted_at``).
    """

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="rsvps", verbose_name=_("event")
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="rsvps", verbose_name=_("player")
    )
    answer = models.CharField(_("answer"), max_length=10, choices=RsvpAnswer.choices)
    guests = models.PositiveSmallIntegerField(
        _("guests"),
        default=0,
        validators=[MaxValueValidator(GUESTS_MAX)],
        help_text=_("People the player brings, each taking a seat."),
    )
    guest_names = models.CharField(
        _("guests' names"),
        max_length=GUEST_NAMES_MAX,
        blank=True,
        help_text=_("Optional, separated by commas."),
    )
    waiting = models.BooleanField(
        _("on the waiting list"),
        default=False,
        help_text=_("Going, but the seats were taken when they answered."),
    )
    # The order seats are given in: when the answer became Going, kept while it stays
    # Going (changing the guests keeps one's place); for Maybe and Not going, when that
    # answer was given.
    answered_at = models.DateTimeField(_("answered at"))
    # When the waiting list moved this party up (the player is told from this).
    promoted_at = models.DateTimeField(_("moved up at"), null=True, blank=True)
    # When a confirmed Going dropped inside the event's late-drop window (the host is told
    # from this); kept as a record after that.
    dropped_late_at = models.DateTimeField(_("dropped late at"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["event", "answered_at", "pk"]
        verbose_name = _("RSVP")
        verbose_name_plural = _("RSVPs")
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="rsvp_one_per_player"),
            models.CheckConstraint(
                condition=models.Q(guests__lte=GUESTS_MAX), name="rsvp_guests_at_most_max"
            ),
            models.CheckConstraint(
                condition=models.Q(waiting=False) | models.Q(answer="going"),
                name="rsvp_only_going_waits",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.player} {self.answer}"

    @property
    def seats(self) -> int:
        """The seats this answer takes when Going: the player and their guests."""
        return 1 + self.guests

    @property
    def is_confirmed(self) -> bool:
        """Going and holding seats (not waiting)."""
        return self.answer == RsvpAnswer.GOING and not self.waiting


# E-mail notices (``series.services.mailings``) --------------------------------------------


class NoticeKind(models.TextChoices):
    INVITATION = "invitation", _("Invitation to a new event")
    REMINDER_48H = "reminder_48h", _("Reminder two days before")
    REMINDER_3H = "reminder_3h", _("Reminder three hours before")
    PROMOTED = "promoted", _("A seat from the waiting list")
    RESULTS = "results", _("Results and standings")
    HOST_MINIMUM = "host_minimum", _("Too few going (to the hosts)")
    HOST_LATE_DROP = "host_late_drop", _("A late drop (to the hosts)")
    CANCELLED = "cancelled", _("The night is cancelled")
    MOVED = "moved", _("The night moved to another time")


class NoticeTopic(models.TextChoices):
    """What a person may turn off: one checkbox of the preferences page, one unsubscribe
    link. Each value is the name of its ``NoticeSettings`` field."""

    INVITATIONS = "invitations", _("Invitations to new events")
    REMINDERS = "reminders", _("Reminders two days and three hours before")
    WAITING_LIST = "waiting_list", _("A seat from the waiting list")
    RESULTS = "results", _("Results and standings after each event")
    HOST = "host", _("Host alerts: too few going, late drops")


NOTICE_TOPIC = {
    NoticeKind.INVITATION: NoticeTopic.INVITATIONS,
    NoticeKind.REMINDER_48H: NoticeTopic.REMINDERS,
    NoticeKind.REMINDER_3H: NoticeTopic.REMINDERS,
    NoticeKind.PROMOTED: NoticeTopic.WAITING_LIST,
    NoticeKind.RESULTS: NoticeTopic.RESULTS,
    NoticeKind.HOST_MINIMUM: NoticeTopic.HOST,
    NoticeKind.HOST_LATE_DROP: NoticeTopic.HOST,
    # Changes to a night one answered for: with the reminders, which they replace.
    NoticeKind.CANCELLED: NoticeTopic.REMINDERS,
    NoticeKind.MOVED: NoticeTopic.REMINDERS,
}


class NoticeState(models.TextChoices):
    PENDING = "pending", _("waiting to be sent")
    SENDING = "sending", _("being sent")
    SENT = "sent", _("sent")
    FAILED = "failed", _("not sent")
    SKIPPED = "skipped", _("not needed any more")


class Notice(models.Model):
    """One e-mail to one person, recorded before it is sent: the outbox.

    ``key`` says what the message is about (``reminder_3h:event:12:user:7``) and is unique,
    so finding the same due message twice (a duplicated beat, two workers) makes one row.
    A sender claims a batch of pending rows (``claim``, ``claimed_at``: a lease), and each
    row moves pending → sending (committed just before its message goes to the mail
    server) → sent, so a process that dies in between leaves that one row ``sending``, which
    is never sent again by itself: the director's page shows it. Rows of the batch never
    tried stay pending (``series.services.mailings``).
    """

    kind = models.CharField(_("kind"), max_length=20, choices=NoticeKind.choices)
    key = models.CharField(max_length=200, unique=True)
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.CASCADE, related_name="notices"
    )
    recipient = models.ForeignKey("auth.User", on_delete=models.CASCADE, related_name="+")
    # Whom the message is about: the recipient's own player, or for a late drop the player
    # who dropped.
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    state = models.CharField(
        _("state"), max_length=10, choices=NoticeState.choices, default=NoticeState.PENDING
    )
    created_at = models.DateTimeField(default=timezone.now)
    # The sender that claimed the row (a random token) and when (when it began sending it,
    # once ``sending``): the rows a sender sends.
    claim = models.CharField(max_length=32, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("e-mail notice")
        verbose_name_plural = _("e-mail notices")
        indexes = [models.Index(fields=["state", "created_at"], name="notice_state_created")]

    def __str__(self) -> str:
        return f"{self.key} ({self.state})"


class NoticeSettings(models.Model):
    """What e-mail an account receives, and in which language. No row: everything, in the
    player's language. Kept per account, not per player: the hosts who get the host alerts
    are directors, who may never have played."""

    user = models.OneToOneField(
        "auth.User", on_delete=models.CASCADE, related_name="notice_settings"
    )
    invitations = models.BooleanField(NoticeTopic.INVITATIONS.label, default=True)
    reminders = models.BooleanField(NoticeTopic.REMINDERS.label, default=True)
    waiting_list = models.BooleanField(NoticeTopic.WAITING_LIST.label, default=True)
    results = models.BooleanField(NoticeTopic.RESULTS.label, default=True)
    host = models.BooleanField(NoticeTopic.HOST.label, default=True)
    language = models.CharField(
        _("language of the e-mails"),
        max_length=10,
        blank=True,
        choices=settings.LANGUAGES,
        help_text=_("Empty: the language you chose for the site."),
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("e-mail settings")
        verbose_name_plural = _("e-mail settings")

    def __str__(self) -> str:
        return f"{self.user}: e-mail settings"

    def receives(self, topic: str) -> bool:
        return bool(getattr(self, NoticeTopic(topic).value))
