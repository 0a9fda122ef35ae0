"""Live tables: the table and its house rules, its seats, every hand as the engine's records,
and the ledger of chips that came to the table and left it.

The database is the truth. A hand is its list of engine records (``Hand.records``), appended
in one transaction per move with the table row locked; no process keeps game state in
memory, so any number of daphne processes can serve one table and a restart loses nothing.
"""

from collections.abc import Iterable

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core.choices import choices_of
from tables.botbrain import STYLES
from tables.engine.config import (
    ANTE_KIND_NAMES,
    GAME_NAMES,
    STRUCTURE_NAMES,
    AnteKind,
    Config,
    Game,
    Straddle,
    Structure,
)
from tables.engine.deal_in import Presence, SeatStatus, bomb_pot_due, next_straddle_seat
from tables.engine.preactions import PreAction, PreActionChoice
from tables.engine.state import Street
from tables.engine.timebank import TimeBank

# The house bots' playing styles (``tables.botbrain`` plays them; ``Seat.bot_style`` names one).
BOT_STYLES = STYLES


# The engine's games, betting structures and ante kinds are the only definitions, named by
# the engine: every model field (a table's, an event's, a tournament's) builds its choices
# from them, so a value stored anywhere is one the engine reads.
GAME_CHOICES = choices_of(Game, GAME_NAMES)
STRUCTURE_CHOICES = choices_of(Structure, STRUCTURE_NAMES)
ANTE_KIND_CHOICES = choices_of(AnteKind, ANTE_KIND_NAMES)
STRADDLE_CHOICES = [
    (Straddle.NONE.value, _("No straddle")),
    (Straddle.UNDER_THE_GUN.value, _("Left of the big blind")),
    (Straddle.BUTTON.value, _("On the button (Mississippi)")),
]
# The bomb pot's options a host may choose: its ante in big blinds, every how many hands.
BOMB_POT_ANTE_MAX = 20
BOMB_POT_EVERY_MAX = 100

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

# A player's pre-action (docs/rules.md, Home-game options): the engine's names.
PRE_ACTION_CHOICES = [
    (PreAction.CHECK_FOLD.value, _("Check/Fold")),
    (PreAction.CHECK.value, _("Check")),
    (PreAction.CALL.value, _("Call")),
    (PreAction.CALL_ANY.value, _("Call any")),
    (PreAction.FOLD.value, _("Fold")),
]
# The seat's fields a pre-action is stored in (``Seat.pre_action_set``, ``_clear``).
PRE_ACTION_FIELDS = ("pre_action", "pre_action_hand", "pre_action_street", "pre_action_to_call")


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
    # The tables opened together by whoever runs them (a tournament's): a page left at one
    # follows its player only to another of the same group (``seat_elsewhere``).
    group = models.CharField(max_length=40, blank=True, default="", db_index=True)
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
    run_it_twice = models.BooleanField(
        default=False,
        help_text=_(
            "House option (cash tables): when the players still in are all-in with cards to "
            "come, they may all agree to deal the rest of the board twice, each run for half "
            "of every pot."
        ),
    )
    # docs/rules.md, Home-game options, "Straddle" and "Bomb pot" (cash tables; the engine plays
    # them: ``Hand.start(straddle=..., bomb_pot=...)``). Who may straddle; the bomb pot's
    # ante in big blinds (0: no bomb pots), every how many hands one comes by itself (0:
    # never), and whether the players may vote for one. ``bomb_pot_next``: the host called
    # one, or the players' vote passed (``tables.engine.deal_in.bomb_pot_vote_passes``):
    # the next hand is a bomb pot.
    straddle = models.CharField(
        max_length=20, choices=STRADDLE_CHOICES, default=Straddle.NONE.value
    )
    bomb_pot_ante = models.PositiveSmallIntegerField(default=0)
    bomb_pot_every = models.PositiveSmallIntegerField(default=0)
    bomb_pot_by_vote = models.BooleanField(default=False)
    bomb_pot_next = models.BooleanField(default=False)
    # The players' vote for a bomb pot is open until then (null: no vote open); when the
    # time is up without every player's yes, it lapses, counted as no.
    bomb_pot_vote_until = models.DateTimeField(null=True, blank=True, db_index=True)
    # docs/rules.md, Home-game options, "Time bank" (``tables.engine.timebank``), in whole seconds:
    # what each player starts with, what a hand played (cash) or a tournament level adds, and
    # the most a bank holds; a cap of 0 (the default) is no time bank.
    time_bank_seconds = models.PositiveIntegerField(default=0)
    time_bank_refill_seconds = models.PositiveIntegerField(default=0)
    time_bank_cap_seconds = models.PositiveIntegerField(default=0)
    # A tournament table: the number of the tournament's level in force, set with the stakes
    # of the next hand; a seat's bank refills once for each level it has not been refilled for.
    time_bank_level = models.PositiveIntegerField(default=0)
    # The level number the stakes above came from, when a tournament set them (null at a
    # cash table): given with the stakes, copied to each hand dealt at them (``Hand.level``).
    stakes_level = models.PositiveIntegerField(null=True, blank=True)
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
    # A new random number with every conditional write (``tables.runtime.rows``), which also finds
    # the row at the number it was read with. A move written with PostgreSQL's
    # asynchronous commit (``tables.runtime.loop_db``) can be lost in a database crash, and its
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
    # The host's choice: the invite link seats a player at once, without their approval.
    invite_seats = models.BooleanField(default=False)

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
    def time_bank(self) -> TimeBank:
        """The table's time bank, as the engine checks it (``on`` only with a cap above 0)."""
        return TimeBank(
            start=self.time_bank_seconds,
            refill=self.time_bank_refill_seconds,
            cap=self.time_bank_cap_seconds,
        )

    def turn_bank_ms(self, seat: "Seat") -> int:
        """The bank ``seat``'s player may draw on at their turn: none for a house bot (it
        never waits for its clock), nor at a table without a time bank."""
        if seat.is_bot or not self.time_bank_cap_seconds:
            return 0
        return int(seat.time_bank_ms)

    @property
    def bomb_pot_coming(self) -> bool:
        """Whether the next hand dealt is a bomb pot: called by the host, voted by the
        players, or due by the count of hands (``bomb_pot_every``)."""
        if not self.bomb_pot_ante or self.is_tournament:
            return False
        return self.bomb_pot_next or bomb_pot_due(self.hand_count + 1, self.bomb_pot_every)

    def next_straddle_seat(self, seats: "Iterable[Seat]") -> int | None:
        """The seat that may straddle the next hand if ``seats`` (this table's) are all
        still there, or None (no straddle here, heads-up, ...: ``seating.next_straddle_seat``)."""
        if self.straddle == Straddle.NONE or self.is_tournament:
            return None
        return next_straddle_seat(
            self.config,
            [s.deal_status for s in seats if s.user_id is not None],
            previous_button=self.button,
            last_big_blind=self.last_big_blind,
        )

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
            # A cash table's option: a tournament's hands are run once.
            run_it_twice=self.run_it_twice and not self.is_tournament,
            straddle=Straddle(self.straddle),
            bomb_pot_ante=self.bomb_pot_ante * self.big_blind,
        )


# Why a seat sits out when a tournament's director sat it out (``seat_sit_out_for``).
SAT_OUT_BY_DIRECTOR = "director"


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
    # The player asked to straddle the next hand (allowed only in the straddle's position
    # for it), and voted for a bomb pot next hand; both cleared when a hand is dealt.
    straddle_next = models.BooleanField(default=False)
    # "Straddle every hand": the player's standing choice, kept across hands; they straddle
    # each hand they are in the straddle's seat for (the deal checks it as for one hand).
    straddle_always = models.BooleanField(default=False)
    votes_bomb_pot = models.BooleanField(default=False)
    # What is left of the player's time bank, in milliseconds so that it is spent exactly
    # (the time past the turn's own deadline); ``time_bank_level`` is the tournament level
    # it was last refilled for. Both follow a player moved to another table.
    time_bank_ms = models.PositiveIntegerField(default=0)
    time_bank_level = models.PositiveIntegerField(default=0)
    # The move the player chose before their turn (empty: none), for hand number
    # ``pre_action_hand`` only, with the betting round and the amount to call it was chosen
    # against: the engine says what it becomes when the turn comes
    # (``tables.engine.preactions``). Stored here, so it holds whichever page chose it and
    # while the player's phone sleeps.
    pre_action = models.CharField(max_length=20, blank=True, choices=PRE_ACTION_CHOICES)
    pre_action_hand = models.PositiveIntegerField(null=True, blank=True)
    pre_action_street = models.CharField(max_length=10, blank=True)
    pre_action_to_call = models.PositiveIntegerField(default=0)

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
    def deal_status(self) -> SeatStatus:
        """This occupied seat as the engine's next deal sees it (``seating.deal_in``)."""
        return SeatStatus(
            number=self.number,
            stack=self.stack,
            state=Presence(self.state),
            is_new=self.is_new,
            wait_for_big_blind=self.wait_for_big_blind,
            owes_small=self.owes_small,
            owes_big=self.owes_big,
            leaving=self.leaving,
        )

    @property
    def connected(self) -> bool:
        return self.is_bot or bool(self.sockets)

    def pre_action_in(self, hand_number: int) -> PreActionChoice | None:
        """The pre-action the player chose for hand ``hand_number``, if any: one chosen
        for an earlier hand counts for nothing (the hand's end clears it)."""
        if not self.pre_action or self.pre_action_hand != hand_number:
            return None
        return PreActionChoice(
            PreAction(self.pre_action), Street(self.pre_action_street), self.pre_action_to_call
        )

    def pre_action_set(self, hand_number: int, chosen: PreActionChoice) -> None:
        self.pre_action = chosen.kind.value
        self.pre_action_hand = hand_number
        self.pre_action_street = chosen.street.value
        self.pre_action_to_call = chosen.to_call

    def pre_action_clear(self) -> None:
        self.pre_action = ""
        self.pre_action_hand = None
        self.pre_action_street = ""
        self.pre_action_to_call = 0


def bomb_pot_voters(seats: Iterable[Seat]) -> list[Seat]:
    """Who the players' vote for a bomb pot counts (``seating.bomb_pot_vote_passes``): the
    players in the game, the house bots with them (they answer by ``botbrain``'s rule)."""
    return [s for s in seats if s.user_id and s.state == SeatState.PLAYING]


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
    # Run it twice (house option): the players still in answer until then; silence is no.
    vote_until = models.DateTimeField(null=True, blank=True, db_index=True)
    # Who won what, in English for the admin and older code; pages and snapshots word
    # ``awards`` (data: tables.i18n.hand_awards) in their reader's language instead.
    summary = models.CharField(max_length=300, blank=True)
    awards = models.JSONField(default=list, blank=True)
    # The level number the hand's blinds came from, when a tournament set them (null at a
    # cash table, and for hands dealt before it was kept): the table's ``stakes_level``.
    level = models.PositiveIntegerField(null=True, blank=True)
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
