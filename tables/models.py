"""Live tables: the table and its house rules, its seats, every hand as the engine's records,
and the ledger of chips that came to the table and left it.

The database is the truth. A hand is its list of engine records (``Hand.records``), appended
in one transaction per move with the table row locked; no process keeps game state in
memory, so any number of daphne processes can serve one table and a restart loses nothing.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tables.botbrain import STYLES
from tables.engine.config import AnteKind, Config, Game, Structure

# The house bots' playing styles (``tables.botbrain`` plays them; ``Seat.bot_style`` names one).
BOT_STYLES = STYLES


# The engine's games, betting structures and ante kinds are the only definitions: every
# model field (a table's, an event's, a blind level's) takes its choices from these names for
# people, so a value stored anywhere is one the engine reads.
GAME_CHOICES = [
    (Game.OMAHA.value, _("Omaha High")),
    (Game.OMAHA_HI_LO.value, _("Omaha Hi/Lo 8-or-better")),
]
STRUCTURE_CHOICES = [
    (Structure.LIMIT.value, _("Limit")),
    (Structure.POT_LIMIT.value, _("Pot-Limit")),
    (Structure.NO_LIMIT.value, _("No-Limit")),
]
ANTE_KIND_CHOICES = [
    (AnteKind.NONE.value, _("No ante")),
    (AnteKind.EACH.value, _("Ante from each player")),
    (AnteKind.BIG_BLIND.value, _("Big-blind ante")),
]

# A table's game and structure as one name, each a whole phrase for the translators (the
# word order differs between languages).
GAME_LABELS = {
    (Structure.LIMIT.value, Game.OMAHA.value): _("Limit Omaha High"),
    (Structure.POT_LIMIT.value, Game.OMAHA.value): _("Pot-Limit Omaha High"),
    (Structure.NO_LIMIT.value, Game.OMAHA.value): _("No-Limit Omaha High"),
    (Structure.LIMIT.value, Game.OMAHA_HI_LO.value): _("Limit Omaha Hi/Lo"),
    (Structure.POT_LIMIT.value, Game.OMAHA_HI_LO.value): _("Pot-Limit Omaha Hi/Lo"),
    (Structure.NO_LIMIT.value, Game.OMAHA_HI_LO.value): _("No-Limit Omaha Hi/Lo"),
}


class TableKind(models.TextChoices):
    CASH = "cash", _("Cash table")
    TOURNAMENT = "tournament", _("Tournament table")


class Table(models.Model):
    """A live table. ``version`` is bumped by every change a viewer could see.

    A cash table takes buy-ins and pays cash-outs, and deals the next hand by itself. A
    tournament table (``kind``) is opened with its players and stacks by whoever runs the
    tournament: the dead button (TDA 32), no buy-in or cash-out, an absent player is dealt
    in and blinded away, and after each hand it is ``held`` until the tournament releases
    it (with the stakes of the level in force), so moves happen between hands only.
    """

    name = models.CharField(max_length=100)
    kind = models.CharField(max_length=20, choices=TableKind.choices, default=TableKind.CASH)
    game = models.CharField(
        max_length=20,
        choices=GAME_CHOICES,
        default=Game.OMAHA_HI_LO.value,
    )
    structure = models.CharField(
        max_length=20,
        choices=STRUCTURE_CHOICES,
        default=Structure.POT_LIMIT.value,
    )
    small_blind = models.PositiveIntegerField(
        null=True, blank=True, help_text=_("Empty: half the big blind, rounded down.")
    )
    big_blind = models.PositiveIntegerField(default=2, help_text=_("The lower limit in limit."))
    big_bet = models.PositiveIntegerField(
        null=True, blank=True, help_text=_("Limit's upper bet; empty: twice the big blind.")
    )
    ante = models.PositiveIntegerField(default=0)
    ante_kind = models.CharField(
        max_length=20,
        choices=ANTE_KIND_CHOICES,
        default=AnteKind.NONE.value,
        help_text=_("Who pays the ante: each player, or the big blind for the table."),
    )
    raise_cap = models.PositiveIntegerField(
        null=True, blank=True, default=4, help_text=_("Limit: bets per round (4 = bet + 3 raises).")
    )
    seat_count = models.PositiveSmallIntegerField(default=6)
    min_buy_in = models.PositiveIntegerField()
    max_buy_in = models.PositiveIntegerField()
    all_in_on_disconnect = models.BooleanField(
        default=False,
        help_text=_(
            "House option: a player who times out while disconnected, with chips in "
            "the pot, is treated as all-in instead of folding."
        ),
    )
    uncapped_heads_up = models.BooleanField(
        default=False, help_text=_("Limit: no raise cap once only two players are left.")
    )
    pot_assumes_small_blind_call = models.BooleanField(
        default=False,
        help_text=_(
            "House option (pot-limit): before the first raise, count the pot as if the "
            "small blind had called (blinds 25/50: the button may raise to 200)."
        ),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tables_created",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    version = models.PositiveBigIntegerField(default=1)
    # A new random number with every conditional write (``tables.rows``), which also finds
    # the row at the number it was read with. A move written with PostgreSQL's
    # asynchronous commit (``tables.loop_db``) can be lost in a database crash, and its
    # version number then comes round again for another change: the number tells the two
    # apart, so rows kept from the lost one are never written over the new one.
    nonce = models.BigIntegerField(default=0, editable=False)
    hand_count = models.PositiveIntegerField(default=0)
    button = models.PositiveSmallIntegerField(default=0, help_text=_("Seat of the last button."))
    last_big_blind = models.PositiveSmallIntegerField(default=0)
    # The dead button (tournaments) places the next hand from the last small blind's seat.
    last_small_blind = models.PositiveSmallIntegerField(default=0)
    next_hand_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # The host's controls (tables.services.hosting): no new hand is dealt while paused; a
    # close asked for during a hand happens when it ends (everyone cashed out).
    paused = models.BooleanField(default=False)
    closing = models.BooleanField(default=False, help_text=_("Close when the hand in play ends."))
    # A tournament table waits between hands until its tournament releases it (eliminations
    # and moves done, not paused, hand-for-hand's other tables done).
    held = models.BooleanField(default=False)
    # A private table is not listed in the lobby; with its invite link a player may ask the
    # host for a seat. The token is unguessable (secrets.token_urlsafe).
    is_private = models.BooleanField(default=False)
    invite_token = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(seat_count__gte=2) & Q(seat_count__lte=10), name="table_seats_2_to_10"
            ),
            models.CheckConstraint(
                condition=Q(max_buy_in__gte=models.F("min_buy_in")),
                name="table_max_buy_in_at_least_min",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_open(self) -> bool:
        return self.closed_at is None

    @property
    def is_tournament(self) -> bool:
        return self.kind == TableKind.TOURNAMENT

    @property
    def label(self) -> str:
        """The game as every page names it: "Pot-Limit Omaha Hi/Lo" (as events do), in the
        active language (static/tables/felt.js words the live table's the same way)."""
        return str(GAME_LABELS.get((self.structure, self.game), self.get_game_display()))

    @property
    def config(self) -> Config:
        """The engine's configuration for this table's stakes and house rules.

        Derived from the row each time it is asked (a frozen object, cheap to build); the
        engine validates it, so a table with stakes the engine refuses raises ``RuleError``.
        """
        return Config(
            Game(self.game),
            Structure(self.structure),
            big_blind=self.big_blind,
            small_blind=self.small_blind,
            ante=self.ante,
            ante_kind=AnteKind(self.ante_kind) if self.ante else AnteKind.NONE,
            big_bet=self.big_bet,
            raise_cap=self.raise_cap if self.structure == Structure.LIMIT else None,
            uncapped_heads_up=self.uncapped_heads_up,
            all_in_on_timeout=self.all_in_on_disconnect,
            pot_assumes_small_blind_call=(
                self.pot_assumes_small_blind_call and self.structure == Structure.POT_LIMIT
            ),
        )


class SeatState(models.TextChoices):
    EMPTY = "empty", _("Empty")
    PLAYING = "playing", _("Playing")
    SITTING_OUT = "sitting_out", _("Sitting out")
    WAITING = "waiting", _("Waiting for the big blind")


class Seat(models.Model):
    """One chair. Empty seats are rows too, so a seat can be locked and taken atomically."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="table_seats",
    )
    bot_style = models.CharField(max_length=20, blank=True)
    stack = models.PositiveIntegerField(default=0)
    state = models.CharField(max_length=20, choices=SeatState.choices, default=SeatState.EMPTY)
    sat_out_reason = models.CharField(max_length=40, blank=True)
    # A player who has not yet been dealt a hand here posts a big blind or waits for it.
    is_new = models.BooleanField(default=False)
    wait_for_big_blind = models.BooleanField(default=True)
    owes_small = models.BooleanField(default=False)
    owes_big = models.BooleanField(default=False)
    leaving = models.BooleanField(default=False, help_text=_("Cash out when the hand ends."))
    # The player's open sockets, counted per server process ({process name: count}), so the
    # sockets of a process that died without closing them can be forgotten (ServerProcess).
    sockets = models.JSONField(default=dict, blank=True)
    # At the showdown a hand that cannot win is mucked unless its player chose to show it.
    muck_losing = models.BooleanField(default=True)
    # Chips bought while the player's hand was in play: added (and written in the ledger)
    # when that hand ends.
    adding = models.PositiveIntegerField(default=0)
    # The host removed this player: cashed out when the hand in play ends.
    removing = models.BooleanField(default=False)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_number_unique"),
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=Q(user__isnull=False),
                name="one_seat_per_player_per_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.number}"

    @property
    def is_empty(self) -> bool:
        return self.user_id is None

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_style)

    @property
    def connected(self) -> bool:
        return self.is_bot or bool(self.sockets)


class Hand(models.Model):
    """One hand: the engine's records, the committed deck, and the stored turn clock."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    records = models.JSONField(default=list)
    button = models.PositiveSmallIntegerField()
    deck = models.CharField(max_length=104)
    secret = models.CharField(max_length=64)
    commitment = models.CharField(max_length=64)
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    # The turn clock lives here, so a restart keeps it: who is to act, since when, until when.
    to_act = models.PositiveSmallIntegerField(null=True, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    turn_extended = models.BooleanField(default=False)
    # An all-in run-out is dealt to the table street by street: how many board cards are
    # out so far, and when the next street comes (null when there is no run-out under way).
    board_shown = models.PositiveSmallIntegerField(null=True, blank=True)
    reveal_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # Who won what, in English for the admin and older code; pages and snapshots word
    # ``awards`` (data: tables.i18n.hand_awards) in their reader's language instead.
    summary = models.CharField(max_length=300, blank=True)
    awards = models.JSONField(default=list, blank=True)
    players = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="HandPlayer", related_name="hands_played"
    )

    class Meta:
        ordering = ["-table", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.table} hand #{self.number}"

    @property
    def is_complete(self) -> bool:
        return self.ended_at is not None


class HandPlayer(models.Model):
    """Who was dealt into a hand at which seat: for "the hands I played" and their replays."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    seat = models.PositiveSmallIntegerField()
    stack_before = models.PositiveIntegerField()
    stack_after = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["hand", "user"], name="hand_player_unique")]

    def __str__(self) -> str:
        return f"{self.hand} seat {self.seat}"


class LedgerKind(models.TextChoices):
    BUY_IN = "buy_in", _("Buy-in")
    CASH_OUT = "cash_out", _("Cash-out")
    REBUY = "rebuy", _("Rebuy or add-on")


class TableLedger(models.Model):
    """Chips that came to the table and left it: buy-ins minus cash-outs is what is seated."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="ledger")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=20, choices=LedgerKind.choices)
    amount = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.kind} {self.amount} at {self.table} seat {self.seat}"


class SeatRequestStatus(models.TextChoices):
    PENDING = "pending", _("Pending")
    APPROVED = "approved", _("Approved")
    REFUSED = "refused", _("Refused")


class SeatRequest(models.Model):
    """A player with a private table's invite link asks its host for a seat."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seat_requests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    seat = models.PositiveSmallIntegerField()
    buy_in = models.PositiveIntegerField()
    wait_for_big_blind = models.BooleanField(default=True)
    status = models.CharField(
        max_length=10, choices=SeatRequestStatus.choices, default=SeatRequestStatus.PENDING
    )
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=Q(status="pending"),
                name="one_pending_seat_request_per_player",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} asks for seat {self.seat} at {self.table}"


class ChatMessage(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.text


class ServerProcess(models.Model):
    """A process serving table sockets, alive while it keeps ``seen_at`` fresh.

    A process killed outright never closes its sockets; when its heartbeat stops, the
    sweep forgets the sockets it counted on seats (``services.servers_forget_gone``).
    """

    name = models.CharField(max_length=32, primary_key=True)
    started_at = models.DateTimeField(auto_now_add=True)
    seen_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return self.name
