"""Tournaments: blind structures, the tournament of an event, its entries, tables and clock.

The clock is data (``Tournament.level_index``, ``level_ends_at``, ``paused_remaining``):
every screen computes the time left from it, and a level changes by a conditional UPDATE
(``WHERE level_index = expected``), so a duplicate, late or lost task changes nothing.

Money is in whole units of the event's currency (``Tournament.money_unit`` is the smallest
amount a prize is rounded to); chips are integers.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from core import amounts
from core.choices import choices_of
from series.models import Event
from tables.engine.config import ANTE_KIND_NAMES, AnteKind
from tables.engine.timebank import TimeBank
from tournaments import summaries


def _token() -> str:
    return secrets.token_urlsafe(24)


class BlindStructure(models.Model):
    """An ordered list of levels and breaks, reusable from one event to the next."""

    name = models.CharField(_("name"), max_length=100)
    description = models.TextField(_("description"), blank=True)
    # Levels of a limit game carry the small and big bet; others use the blinds.
    for_limit = models.BooleanField(_("for limit games"), default=False)
    # The host's chip set, as denominations (e.g. [25, 100, 500, 1000]): what blinds it can
    # make, and what a colour-up removes.
    chip_set = models.JSONField(_("chip set"), default=list, blank=True)
    is_template = models.BooleanField(
        _("built-in template"), default=False, help_text=_("Offered to every director to copy.")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("blind structure")
        verbose_name_plural = _("blind structures")

    def __str__(self) -> str:
        return self.name

    @property
    def description_text(self) -> str:
        """The description in the reader's language: a built-in template's is stored as
        its English message id (``tournaments.blind_structures.BUILTIN_TEMPLATES``); one that a
        director wrote, or edited in the admin, shows as written."""
        if self.is_template and self.description:
            return gettext(self.description)
        return self.description


class LevelKind(models.TextChoices):
    LEVEL = "level", _("Level")
    BREAK = "break", _("Break")


class BlindLevel(models.Model):
    """One row of a blind structure: a level of blinds, or a break. Level numbers never count
    breaks (``BlindStructure``'s levels are numbered 1, 2, 3 ... skipping the breaks)."""

    blind_structure = models.ForeignKey(
        BlindStructure,
        verbose_name=_("blind structure"),
        on_delete=models.CASCADE,
        related_name="levels",
    )
    position = models.PositiveIntegerField(_("position"))
    kind = models.CharField(
        _("kind"), max_length=10, choices=LevelKind.choices, default=LevelKind.LEVEL
    )
    minutes = models.PositiveIntegerField(_("minutes"))
    small_blind = models.PositiveIntegerField(
        _("small blind"), default=0, validators=[amounts.chips_max()]
    )
    big_blind = models.PositiveIntegerField(
        _("big blind"), default=0, validators=[amounts.chips_max()]
    )
    ante = models.PositiveIntegerField(_("ante"), default=0, validators=[amounts.chips_max()])
    ante_kind = models.CharField(
        _("ante kind"),
        max_length=10,
        choices=choices_of(AnteKind, ANTE_KIND_NAMES),
        default=AnteKind.NONE.value,
    )
    # Limit games: the small bet (before the flop and on the flop) and the big bet.
    small_bet = models.PositiveIntegerField(
        _("small bet"), null=True, blank=True, validators=[amounts.chips_max()]
    )
    big_bet = models.PositiveIntegerField(
        _("big bet"), null=True, blank=True, validators=[amounts.chips_max()]
    )
    # A break's colour-up: the denominations that leave the table (raced off, TDA 24).
    colour_up = models.JSONField(_("colour-up"), default=list, blank=True)

    class Meta:
        ordering = ["blind_structure", "position"]
        verbose_name = _("blind level")
        verbose_name_plural = _("blind levels")
        constraints = [
            models.UniqueConstraint(
                fields=["blind_structure", "position"], name="blind_level_position_unique"
            ),
            models.CheckConstraint(condition=Q(minutes__gt=0), name="level_minutes_positive"),
            models.CheckConstraint(
                condition=Q(kind="break") | Q(big_blind__gte=models.F("small_blind")),
                name="level_big_blind_not_below_small",
            ),
        ]

    def __str__(self) -> str:
        if self.kind == LevelKind.BREAK:
            return str(_("Break (%(minutes)s min)") % {"minutes": self.minutes})
        return f"{self.small_blind}/{self.big_blind}"

    @property
    def is_break(self) -> bool:
        return self.kind == LevelKind.BREAK

    @property
    def duration(self) -> timedelta:
        return timedelta(minutes=self.minutes)


class TournamentState(models.TextChoices):
    REGISTERING = "registering", _("Registering")
    RUNNING = "running", _("Running")
    ON_BREAK = "on-break", _("On break")
    FINISHED = "finished", _("Finished")
    CANCELLED = "cancelled", _("Cancelled")


class TvTheme(models.TextChoices):
    """The TV clock's colours: dark for a dim room, light for a bright one, high contrast
    for a far or washed-out screen, green felt for the table's look."""

    DARK = "dark", _("Dark")
    LIGHT = "light", _("Light")
    CONTRAST = "contrast", _("High contrast")
    FELT = "felt", _("Green felt")


class Tournament(models.Model):
    """The tournament of one event on the calendar.

    The game, betting structure, buy-in, fee and starting stack are the event's
    (``series.Event``); the tournament adds how it is played and its money rules. Money
    rules cannot change once it has started (``tournaments.services`` refuses).
    """

    event = models.OneToOneField(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="tournament"
    )
    blind_structure = models.ForeignKey(
        BlindStructure,
        verbose_name=_("blind structure"),
        on_delete=models.PROTECT,
        related_name="tournaments",
    )
    state = models.CharField(
        _("state"),
        max_length=20,
        choices=TournamentState.choices,
        default=TournamentState.REGISTERING,
    )
    online = models.BooleanField(_("played online"), default=False)
    # House rules of the tables (limit raise cap; no cap heads-up).
    raise_cap = models.PositiveSmallIntegerField(_("raise cap (limit)"), null=True, default=4)
    uncapped_heads_up = models.BooleanField(_("no cap heads-up"), default=True)
    pot_assumes_small_blind_call = models.BooleanField(
        _("count the small blind's call in the first pot"),
        default=False,
        help_text=_(
            "Pot-limit: before the first raise, the pot counts as if the small blind had "
            "called (blinds 25/50: the button may raise to 200, not 175)."
        ),
    )
    seats_per_table = models.PositiveSmallIntegerField(_("seats per table"), default=9)
    capacity = models.PositiveIntegerField(
        _("capacity"), null=True, blank=True, help_text=_("Empty: no limit.")
    )
    money_unit = models.PositiveIntegerField(
        _("money unit"),
        default=1,
        help_text=_("Prizes are rounded to this amount."),
        validators=[amounts.money_max()],
    )
    bounty = models.PositiveIntegerField(
        _("bounty per knockout"),
        default=0,
        validators=[amounts.money_max()],
        help_text=_("Part of each buy-in paid to whoever knocks the player out."),
    )
    late_registration_until_level = models.PositiveIntegerField(
        _("late registration until level"), null=True, blank=True
    )
    # Rebuys: only while the player is at or below the starting stack (or this limit).
    rebuys_allowed = models.PositiveIntegerField(_("rebuys per player"), default=0)
    rebuy_until_level = models.PositiveIntegerField(_("rebuys until level"), null=True, blank=True)
    rebuy_chips = models.PositiveIntegerField(
        _("rebuy chips"), default=0, validators=[amounts.chips_max()]
    )
    rebuy_price = models.PositiveIntegerField(
        _("rebuy price"), default=0, validators=[amounts.money_max()]
    )
    rebuy_max_stack = models.PositiveIntegerField(
        _("rebuy only at or below"),
        null=True,
        blank=True,
        validators=[amounts.chips_max()],
        help_text=_("Empty: the starting stack."),
    )
    # Online: a player who busts while they may still rebuy keeps their seat this long,
    # offered the rebuy, before they are out (never past the rebuy period).
    rebuy_after_bust_seconds = models.PositiveSmallIntegerField(
        _("seconds to rebuy after a bust (online)"),
        default=60,
        validators=[MinValueValidator(10), MaxValueValidator(600)],
        help_text=_(
            "Online: a player who loses their last chip while they may still rebuy keeps "
            "their seat this long to rebuy (never past the rebuy period), then is out."
        ),
    )
    # The add-on is offered at one break (its position in the blind structure).
    addon_at_break = models.PositiveIntegerField(_("add-on at break"), null=True, blank=True)
    addon_chips = models.PositiveIntegerField(
        _("add-on chips"), default=0, validators=[amounts.chips_max()]
    )
    addon_price = models.PositiveIntegerField(
        _("add-on price"), default=0, validators=[amounts.money_max()]
    )
    reentries_allowed = models.PositiveIntegerField(_("re-entries per player"), default=0)
    reentry_until_level = models.PositiveIntegerField(
        _("re-entry until level"), null=True, blank=True
    )
    # The director's own payout percentages (basis points, first place first); empty: the
    # built-in table for the field size.
    payout_basis_points = models.JSONField(_("payout percentages"), default=list, blank=True)
    # Tables may differ by this many players before one is balanced (TDA 11).
    balance_threshold = models.PositiveSmallIntegerField(_("balance within"), default=2)
    # Online play (tournaments.services.online): the director's pause (tables finish their
    # hand, then wait), and hand-for-hand at the money bubble (TDA RP-8): ``hand_for_hand_hand``
    # counts the hands dealt hand-for-hand; the clock loses the chosen minutes per hand.
    online_paused = models.BooleanField(_("paused (online)"), default=False)
    hand_for_hand = models.BooleanField(_("hand-for-hand"), default=False)
    hand_for_hand_hand = models.PositiveIntegerField(default=0)
    # The ``Entry.out_hand`` of the players out on the hand-for-hand hand in play.
    hand_for_hand_out_hand = models.PositiveIntegerField(null=True, blank=True)
    hand_for_hand_minutes = models.PositiveSmallIntegerField(
        _("minutes per hand-for-hand hand"),
        default=2,
        help_text=_("The clock loses this much for each hand played hand-for-hand (TDA RP-8)."),
    )
    # Online: the time bank of the live tables (docs/rules.md, Home-game options), in seconds:
    # each player's starting bank, what each new level adds, the most it holds (0: none).
    time_bank_seconds = models.PositiveIntegerField(
        _("time bank (seconds)"),
        default=0,
        help_text=_("Online: the extra seconds each player starts with."),
    )
    time_bank_refill_seconds = models.PositiveIntegerField(
        _("time bank refill per level (seconds)"), default=0
    )
    time_bank_cap_seconds = models.PositiveIntegerField(
        _("time bank cap (seconds)"),
        default=0,
        help_text=_("The most a player's bank holds. 0: no time bank."),
    )
    # In the room (tournaments.services.clock.hand_for_hand): the numbers of the tables that
    # have said they are done with the hand-for-hand hand in play; the next hand starts when
    # all have.
    hand_for_hand_done = models.JSONField(default=list, blank=True, editable=False)
    # The blind structure is this tournament's own copy, made by the first change to its
    # levels from the console during play, so the blind structure other events share stays as it
    # was (tournaments.services.clock.levels).
    own_blind_structure = models.BooleanField(_("own copy of the levels"), default=False)

    # The clock: the current row of the blind structure (``BlindLevel.position`` order, breaks
    # included), when it ends while running, and the time left while paused.
    level_index = models.PositiveIntegerField(_("clock row"), default=0)
    level_ends_at = models.DateTimeField(_("level ends at"), null=True, blank=True, db_index=True)
    paused_remaining = models.DurationField(_("time left when paused"), null=True, blank=True)
    # A level interrupted by a "break now" that keeps its rest for after the break: its row
    # (the one right after that break) and the time it had left, which it lasts when the
    # clock comes to it instead of its full minutes (tournaments.clock.tonight).
    resume_index = models.PositiveIntegerField(
        _("row of the level resumed after a break"), null=True, blank=True, editable=False
    )
    resume_remaining = models.DurationField(
        _("time left in the level resumed after a break"), null=True, blank=True, editable=False
    )
    clock_version = models.PositiveBigIntegerField(_("clock version"), default=1)

    tv_token = models.CharField(
        _("TV clock link key"), max_length=64, unique=True, default=_token, editable=False
    )
    # What the TV clock shows besides the clock, as the director chose from the console.
    tv_theme = models.CharField(
        _("TV theme"), max_length=20, choices=TvTheme.choices, default=TvTheme.DARK
    )
    tv_show_payouts = models.BooleanField(_("TV shows the payouts"), default=True)
    tv_show_chips = models.BooleanField(_("TV shows the chip counts"), default=True)
    tv_show_next_levels = models.BooleanField(_("TV shows the levels coming up"), default=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["event__starts_at"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=Q(seats_per_table__gte=2, seats_per_table__lte=10),
                name="tournament_seats_per_table_2_to_10",
            ),
            models.CheckConstraint(
                condition=Q(money_unit__gte=1), name="tournament_money_unit_positive"
            ),
        ]

    def __str__(self) -> str:
        return self.event.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", args=[self.pk])

    @property
    def is_started(self) -> bool:
        return self.state not in (TournamentState.REGISTERING, TournamentState.CANCELLED)

    @property
    def is_over(self) -> bool:
        return self.state in (TournamentState.FINISHED, TournamentState.CANCELLED)

    @property
    def time_bank(self) -> TimeBank:
        """The live tables' time bank, as the engine checks it (none with a cap of 0)."""
        return TimeBank(
            start=self.time_bank_seconds,
            refill=self.time_bank_refill_seconds,
            cap=self.time_bank_cap_seconds,
        )

    @property
    def prize_per_entry(self) -> int:
        """What one buy-in adds to the prize pool: the buy-in less the bounty."""
        return max(0, self.event.buy_in - self.bounty)


class EntryState(models.TextChoices):
    # One entry's state, as its badge shows it: "Inscrit", "Éliminé" in French, where the
    # same English word over a count of players is plural ("Inscrits").
    REGISTERED = "registered", pgettext_lazy("entry state", "Registered")
    WAITING = "waiting", pgettext_lazy("entry state", "Waiting list")
    PLAYING = "playing", pgettext_lazy("entry state", "Playing")
    OUT = "out", pgettext_lazy("entry state", "Out")
    UNREGISTERED = "unregistered", pgettext_lazy("entry state", "Unregistered")


class Entry(models.Model):
    """One buy-in by one player: a re-entry is a new entry of the same player.

    ``player`` is the series' person (an account, or a guest a director added by name),
    so results follow a guest when the series merges them into an account.
    """

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="entries"
    )
    player = models.ForeignKey(
        "series.Player", verbose_name=_("player"), on_delete=models.PROTECT, related_name="entries"
    )
    number = models.PositiveSmallIntegerField(
        _("entry number"), default=1, help_text=_("1 for the first buy-in, 2 for a re-entry ...")
    )
    state = models.CharField(
        _("state"), max_length=20, choices=EntryState.choices, default=EntryState.REGISTERED
    )
    registered_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    # In person: the seat card drawn; online: the live table's number and seat.
    table_number = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    seat_number = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    rebuys = models.PositiveSmallIntegerField(_("rebuys"), default=0)
    addon = models.BooleanField(_("add-on"), default=False)
    # Online: busted while a rebuy was open, the player keeps their seat with no chips until
    # then (``services.online``); ``rebuy_offer`` keeps what the elimination needs if the
    # rebuy is not taken: the stack at the start of the hand and who won the last pot.
    rebuy_offer_until = models.DateTimeField(_("rebuy offered until"), null=True, blank=True)
    rebuy_offer = models.JSONField(_("rebuy offer"), default=dict, blank=True)
    # Set when the player goes out.
    out_at = models.DateTimeField(_("out at"), null=True, blank=True)
    out_hand = models.PositiveIntegerField(
        _("out on hand"),
        null=True,
        blank=True,
        help_text=_("Eliminations recorded together (one hand) share this number."),
    )
    stack_at_hand_start = models.PositiveIntegerField(
        _("stack at the start of the hand"),
        null=True,
        blank=True,
        validators=[amounts.chips_max()],
    )
    # Out on a hand played hand-for-hand: tied with players out at other tables on that hand
    # (TDA RP-8); at one table the bigger starting stack still finishes higher (TDA 20).
    out_hand_for_hand = models.BooleanField(_("out hand-for-hand"), default=False)
    eliminated_by = models.ForeignKey(
        "self",
        verbose_name=_("eliminated by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="knockouts",
    )
    place = models.PositiveIntegerField(_("place"), null=True, blank=True)
    prize = models.PositiveIntegerField(_("prize"), default=0, validators=[amounts.prize_max()])
    bounties = models.PositiveIntegerField(
        _("bounties won (money)"), default=0, validators=[amounts.prize_max()]
    )
    knockouts_count = models.PositiveSmallIntegerField(_("knockouts"), default=0)
    # Online: why the director sat the player out or removed them, shown on their panel.
    director_note = models.CharField(_("director's reason"), max_length=200, blank=True)

    class Meta:
        ordering = ["tournament", "registered_at", "pk"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player", "number"], name="entry_number_unique"
            ),
            # At most one entry of a player in play (registered, waiting or playing).
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=Q(state__in=["registered", "waiting", "playing"]),
                name="entry_one_live_per_player",
            ),
            models.UniqueConstraint(
                fields=["tournament", "table_number", "seat_number"],
                condition=Q(state="playing", table_number__isnull=False),
                name="entry_one_player_per_seat",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} #{self.number}"

    @property
    def label(self) -> str:
        """The player's name, with the entry's number from a re-entry on ("Eve #2"): the
        console names which of a player's entries knocked someone out."""
        if self.number > 1:
            return f"{self.player.name} #{self.number}"
        return self.player.name


class TournamentTable(models.Model):
    """A table of the tournament: its number, whether it is broken, where its button is.

    In person the director tells the console where the button is (``button`` None: not
    known yet); online tables link to their live table.
    """

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="tables"
    )
    number = models.PositiveSmallIntegerField(
        _("number"),
    )
    button = models.PositiveSmallIntegerField(_("button"), null=True, blank=True)
    # When the director last said where the button is: it moves every hand, so an answer is
    # only trusted for a few minutes (``tournaments.services.seating.BUTTON_FRESH``).
    button_set_at = models.DateTimeField(_("button set at"), null=True, blank=True)
    # The table's seats when they differ from the tournament's: an eight-handed event's final
    # table seats nine (TDA RP-9). Empty: ``Tournament.seats_per_table``.
    seats = models.PositiveSmallIntegerField(_("seats"), null=True, blank=True)
    broken_at = models.DateTimeField(_("broken at"), null=True, blank=True)
    # Online: the last live hand this table's tournament has dealt with (eliminations,
    # moves), so a repeated "hand ended" changes nothing.
    hand_seen = models.PositiveIntegerField(default=0)
    live_table = models.OneToOneField(
        "tables.Table",
        verbose_name=_("live table"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournament_table",
    )

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("tournament table")
        verbose_name_plural = _("tournament tables")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="tournament_table_number_unique"
            )
        ]

    def __str__(self) -> str:
        return str(_("Table %(number)s") % {"number": self.number})


class ActionKind(models.TextChoices):
    START = "start", _("Started the tournament")
    CLOCK = "clock", _("Clock")
    REGISTER = "register", _("Registered a player")
    UNREGISTER = "unregister", _("Unregistered a player")
    LATE_ENTRY = "late-entry", _("Late entry")
    REBUY = "rebuy", _("Rebuy")
    REENTRY = "reentry", _("Re-entry")
    ADDON = "addon", _("Add-on")
    SEAT = "seat", _("Seated players")
    MOVE = "move", _("Moved a player")
    BUTTON = "button", _("Set a button")
    ELIMINATE = "eliminate", _("Elimination")
    BREAK_TABLE = "break-table", _("Broke a table")
    DEAL = "deal", _("Recorded a deal")
    FINISH = "finish", _("Finished the tournament")
    CHIP_COUNT = "chip-count", _("Counted chips")
    TV = "tv", _("TV layout")
    SIT_OUT = "sit-out", _("Sat a player out")
    REMOVE = "remove", _("Removed a player")


class TournamentAction(models.Model):
    """What a director did, with who and when, and what it takes to undo it.

    ``undo`` holds the rows' values before the action; the last actions not yet undone can
    be undone in order (newest first).
    """

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="actions"
    )
    kind = models.CharField(_("action"), max_length=20, choices=ActionKind.choices)
    # The line as written when it was logged, in the actor's language (the admin shows it);
    # ``summary_message`` is the same line as data (tournaments.summaries), which the console
    # writes in each reader's language. Empty for a line logged before it existed.
    summary = models.CharField(_("summary"), max_length=300)
    summary_message = models.JSONField(
        _("summary as data"), default=dict, blank=True, editable=False
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    undo = models.JSONField(_("undo data"), default=dict, blank=True)
    undone_at = models.DateTimeField(_("undone at"), null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("undone by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # The one-time token of the console form that recorded this action (services.undo's
    # ``action_token``): unique per tournament, so a double tap or a form sent twice is
    # refused instead of recorded again. Empty for actions recorded without a form.
    once_token = models.CharField(
        _("form token"), max_length=64, default="", blank=True, editable=False
    )

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("director's action")
        verbose_name_plural = _("directors' actions")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "once_token"],
                condition=~models.Q(once_token=""),
                name="tournament_action_once_token",
            )
        ]

    def __str__(self) -> str:
        return self.summary_text

    @property
    def dealer_table(self) -> int | None:
        """The table whose dealer did this from their page (no login), if it was one."""
        dealer = self.undo.get("dealer") if isinstance(self.undo, dict) else None
        return dealer if self.by_id is None and isinstance(dealer, int) else None

    @property
    def summary_text(self) -> str:
        """The summary in the active language (the reader's), or as logged when it has no
        data."""
        if self.summary_message:
            return summaries.render(self.summary_message)
        return self.summary


class DealState(models.TextChoices):
    HELD = "held", _("Waiting for the hand in play to end")
    OPEN = "open", _("Waiting for the players' answers")
    ACCEPTED = "accepted", _("Accepted")
    DECLINED = "declined", _("Declined")
    CANCELLED = "cancelled", _("Cancelled")


class DealEnd(models.TextChoices):
    """How a deal offer ended; ``%(name)s`` is the player or director who ended it."""

    ACCEPTED = "accepted", _("every player accepted")
    DECLINED = "declined", _("%(name)s declined")
    WITHDRAWN = "withdrawn", _("withdrawn by %(name)s")
    ONE_LEFT = "one-left", _("only one player is left")
    NOT_RUNNING = "not-running", _("the tournament is not running")
    NO_DEAL = "no-deal", _("no deal can be worked out from the chips")
    LAPSED = "lapsed", _("no answer in time from %(name)s")


class DealOffer(models.Model):
    """A deal the director offers the players still in at an online final table.

    Offered ``held`` while a hand is in play (the tables deal no new hand meanwhile); its
    amounts are worked out from the players' chips once the hands in play have ended, and
    it is ``open`` for their answers. Every player accepting ends the tournament with
    ``amounts`` (``tournaments.services.deals``); one decline ends the offer.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="deals")
    method = models.CharField(_("method"), max_length=20)
    state = models.CharField(
        _("state"), max_length=20, choices=DealState.choices, default=DealState.HELD
    )
    # {entry id (str): chips} and {entry id (str): prize}, empty while held.
    stacks = models.JSONField(default=dict, blank=True)
    amounts = models.JSONField(default=dict, blank=True)
    offered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    offered_at = models.DateTimeField(auto_now_add=True)
    settled_at = models.DateTimeField(null=True, blank=True)
    # How it ended and who ended it, put into words by ``settled_text`` in the reader's
    # language (not the language of whoever happened to settle it).
    settled_reason = models.CharField(max_length=20, choices=DealEnd.choices, blank=True)
    settled_name = models.CharField(max_length=100, blank=True)
    # Whether the offer paused the tables (and so resumes them when it ends): tables the
    # director had already paused stay paused.
    paused_tables = models.BooleanField(default=False)
    # The players' time to answer once the offer is open (the director's choice): when it
    # runs out with answers missing, the offer lapses and the tables play on.
    answer_minutes = models.PositiveSmallIntegerField(_("minutes to answer"), default=2)
    answer_by = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-offered_at", "-pk"]
        verbose_name = _("deal offer")
        verbose_name_plural = _("deal offers")
        constraints = [
            # One offer at a time: a second one while one is pending is refused.
            models.UniqueConstraint(
                fields=["tournament"],
                condition=Q(state__in=["held", "open"]),
                name="deal_offer_one_pending",
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament} deal {self.pk} ({self.state})"

    @property
    def is_pending(self) -> bool:
        return self.state in (DealState.HELD, DealState.OPEN)

    @property
    def settled_text(self) -> str:
        """How the offer ended, in the reader's language ("Cal declined")."""
        if not self.settled_reason:
            return ""
        return str(DealEnd(self.settled_reason).label) % {"name": self.settled_name}


class DealAnswerChoice(models.TextChoices):
    ACCEPT = "accept", _("Accept")
    DECLINE = "decline", _("Decline")


class DealAnswer(models.Model):
    """One player's answer to a deal offer (blank: not answered yet)."""

    offer = models.ForeignKey(DealOffer, on_delete=models.CASCADE, related_name="answers")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="deal_answers")
    answer = models.CharField(max_length=10, choices=DealAnswerChoice.choices, blank=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["offer", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["offer", "entry"], name="deal_answer_one_per_entry")
        ]

    def __str__(self) -> str:
        return f"{self.entry} {self.answer or '?'}"


class ChipCount(models.Model):
    """One player's stack as the director counted it, at a break or any time.

    A count covers the players the director entered (a table, or the whole room) and is one
    action in the log (``tournaments.services.chips.chips_count``); the newest count of each
    player still in is their stack on the console, the TV and the deal form. A count that
    does not add up to the chips in play is kept: people miscount, and the screens say by
    how much.
    """

    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="chip_counts",
    )
    entry = models.ForeignKey(
        Entry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="chip_counts"
    )
    chips = models.PositiveIntegerField(_("chips"), validators=[amounts.chips_max()])
    counted_at = models.DateTimeField(_("counted at"), auto_now_add=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["-pk"]
        verbose_name = _("chip count")
        verbose_name_plural = _("chip counts")
        constraints = [
            # A player with no chips is out: that is an elimination, not a count.
            models.CheckConstraint(condition=Q(chips__gt=0), name="chip_count_positive")
        ]

    def __str__(self) -> str:
        return f"{self.entry} {self.chips}"


class PurchaseKind(models.TextChoices):
    REBUY = "rebuy", _("Rebuy")
    ADDON = "addon", _("Add-on")


class PurchaseRequestState(models.TextChoices):
    PENDING = "pending", _("Waiting for the director")
    APPROVED = "approved", _("Approved")
    REFUSED = "refused", _("Refused")
    WITHDRAWN = "withdrawn", _("Withdrawn")


class PurchaseRequest(models.Model):
    """A player's ask, from their night page, for a rebuy or the add-on at a tournament
    played in person; the director approves it with one tap in the console
    (``tournaments.services.purchase_requests``), which records the purchase itself.

    ``stack`` is the chips the player said they have when asking for a rebuy: the rebuy
    rule ("at or below the starting stack") is checked against it, then and on approval.
    """

    entry = models.ForeignKey(
        Entry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="purchase_requests"
    )
    kind = models.CharField(_("kind"), max_length=10, choices=PurchaseKind.choices)
    state = models.CharField(
        _("state"),
        max_length=10,
        choices=PurchaseRequestState.choices,
        default=PurchaseRequestState.PENDING,
    )
    stack = models.PositiveIntegerField(
        _("stack when asked"), null=True, blank=True, validators=[amounts.chips_max()]
    )
    created_at = models.DateTimeField(_("asked at"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("decided by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("purchase request")
        verbose_name_plural = _("purchase requests")
        constraints = [
            # One pending ask of a kind per entry: a double tap asks once.
            models.UniqueConstraint(
                fields=["entry", "kind"],
                condition=Q(state="pending"),
                name="purchase_request_one_pending",
            )
        ]

    def __str__(self) -> str:
        return f"{self.entry} {self.kind} ({self.state})"


class GuestPin(models.Model):
    """The PIN a guest (a player with no account) types to open their night page.

    The director prints it on the seat card (``tournaments.services.guest_pins``); the page
    that checks it is ``tournaments:night_pin``. The PIN is drawn from an HMAC of the row's
    random nonce keyed with the site's secret key, so the database and its backups never
    hold one a person could type; a new nonce replaces the old PIN
    (``tournaments.night_access`` says how long a proved PIN holds).
    """

    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="guest_pins",
    )
    player = models.ForeignKey(
        "series.Player",
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="guest_pins",
    )
    nonce = models.CharField(max_length=64, editable=False)
    expires_at = models.DateTimeField(_("expires at"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("guest PIN")
        verbose_name_plural = _("guest PINs")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="guest_pin_one_per_player"
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} {self.player_id}"
