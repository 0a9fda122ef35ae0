"""The create-table form: types, choices and ranges only.

Rules that need the engine (the small blind from the big blind, the big bet's default, the
default buy-ins) are left to `services.table_create` and `Config`: an empty optional field
means "the default", and whatever the service refuses comes back as a form error. The field
names are the service's keyword arguments.
"""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from core.request_values import AMOUNT_MAX
from tables.engine.config import Game, Structure
from tables.engine.errors import RuleError
from tables.engine.timebank import MAX_SECONDS, TimeBank
from tables.i18n import render, rule_message
from tables.models import BOMB_POT_ANTE_MAX, BOMB_POT_EVERY_MAX, BOT_STYLES, STRADDLE_CHOICES

RAISE_CAPS = {"4": 4, "5": 5, "none": None}
# Chips are stored in integer columns; the default buy-ins are up to 100 big blinds (and 5
# big bets), so a bet is at most a hundredth of the largest amount.
STAKE_MAX = AMOUNT_MAX // 100
# The time bank's fields by the engine's name of each setting (``TimeBank``'s refusals name
# the one at fault).
TIME_BANK_FIELDS = {
    "start": "time_bank_seconds",
    "refill": "time_bank_refill_seconds",
    "cap": "time_bank_cap_seconds",
}


class ForcedBetsForm(forms.Form):
    """The straddle and the bomb pot (docs/rules.md, Home-game options), off by default: on the
    new-table form and on the host's page (``services.table_forced_bets_set``)."""

    straddle = forms.ChoiceField(
        label=_("Straddle"),
        choices=STRADDLE_CHOICES,
        required=False,
        initial="none",
        help_text=_(
            "Pot-limit and no-limit: the player in that seat may post a live straddle of "
            "twice the big blind before the cards, and acts last before the flop."
        ),
    )
    bomb_pot_ante = forms.IntegerField(
        label=_("Bomb pot ante (big blinds)"),
        min_value=0,
        max_value=BOMB_POT_ANTE_MAX,
        required=False,
        initial=0,
        help_text=_("0: no bomb pots."),
    )
    bomb_pot_every = forms.IntegerField(
        label=_("A bomb pot every (hands)"),
        min_value=0,
        max_value=BOMB_POT_EVERY_MAX,
        required=False,
        initial=0,
        help_text=_("0: only by the players' vote or the host's call."),
    )
    bomb_pot_by_vote = forms.BooleanField(
        label=_("Players vote for bomb pots"),
        required=False,
        help_text=_("A bomb pot comes next hand when every player in the game votes for it."),
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        # Left out, each option is off: no straddle, no bomb pots, none by the count of hands.
        if "straddle" in cleaned and not cleaned["straddle"]:
            cleaned["straddle"] = "none"
        for name in ("bomb_pot_ante", "bomb_pot_every"):
            if name in cleaned and cleaned[name] is None:
                cleaned[name] = 0
        return cleaned


class TableCreateForm(ForcedBetsForm):
    name = forms.CharField(label=_("Name"), max_length=100, initial=_("Friday Omaha"))
    game = forms.ChoiceField(
        label=_("Game"),
        choices=[
            (Game.OMAHA_HI_LO.value, _("Omaha Hi/Lo 8-or-better")),
            (Game.OMAHA.value, _("Omaha High")),
        ],
    )
    structure = forms.ChoiceField(
        label=_("Structure"),
        choices=[
            (Structure.POT_LIMIT.value, _("Pot-Limit")),
            (Structure.LIMIT.value, _("Limit")),
            (Structure.NO_LIMIT.value, _("No-Limit")),
        ],
    )
    big_blind = forms.IntegerField(
        label=_("Big blind"),
        min_value=1,
        max_value=STAKE_MAX,
        initial=2,
        help_text=_("The small blind is half of it, rounded down."),
    )
    big_bet = forms.IntegerField(
        label=_("Big bet"),
        min_value=1,
        max_value=STAKE_MAX,
        required=False,
        help_text=_("Limit only. Empty: twice the big blind."),
    )
    seat_count = forms.TypedChoiceField(
        label=_("Seats"), coerce=int, choices=[(n, str(n)) for n in range(2, 11)], initial=6
    )
    min_buy_in = forms.IntegerField(
        label=_("Minimum buy-in"),
        min_value=1,
        max_value=AMOUNT_MAX,
        required=False,
        help_text=_("Empty: five times the largest bet."),
    )
    max_buy_in = forms.IntegerField(
        label=_("Maximum buy-in"),
        min_value=1,
        max_value=AMOUNT_MAX,
        required=False,
        help_text=_("Empty: the table's default."),
    )
    raise_cap = forms.ChoiceField(
        label=_("Raise cap (limit)"),
        choices=[
            ("4", _("A bet and three raises")),
            ("5", _("A bet and four raises")),
            ("none", _("No cap")),
        ],
    )
    uncapped_heads_up = forms.BooleanField(
        label=_("No cap heads-up"),
        required=False,
        help_text=_("Limit: no raise cap once only two players are left in the hand."),
    )
    all_in_on_disconnect = forms.BooleanField(
        label=_("All-in on disconnect"),
        required=False,
        help_text=_("A player who times out while disconnected is treated as all-in."),
    )
    pot_assumes_small_blind_call = forms.BooleanField(
        label=_("Count the small blind's call in the first pot"),
        required=False,
        help_text=_(
            "Pot-limit: before the first raise, the pot counts as if the small blind had "
            "called (blinds 25/50: the button may raise to 200, not 175)."
        ),
    )
    run_it_twice = forms.BooleanField(
        label=_("Run it twice"),
        required=False,
        help_text=_(
            "When the players still in are all-in with cards to come, they may all agree to "
            "deal the rest of the board twice, each run for half of every pot."
        ),
    )
    # docs/rules.md, Home-game options, "Time bank": off unless the host gives it a cap.
    time_bank_seconds = forms.IntegerField(
        label=_("Seconds at the start"),
        min_value=0,
        max_value=MAX_SECONDS,
        required=False,
        initial=0,
    )
    time_bank_refill_seconds = forms.IntegerField(
        label=_("Refill per hand (seconds)"),
        min_value=0,
        max_value=MAX_SECONDS,
        required=False,
        initial=0,
    )
    time_bank_cap_seconds = forms.IntegerField(
        label=_("Cap (seconds)"),
        min_value=0,
        max_value=MAX_SECONDS,
        required=False,
        initial=0,
    )

    private = forms.BooleanField(
        label=_("Private table"),
        required=False,
        help_text=_(
            "Not listed in the lobby: players come with your invite link and you approve each seat."
        ),
    )

    invite_seats = forms.BooleanField(
        label=_("The invite link seats players at once"),
        required=False,
        help_text=_(
            "Private tables: whoever has your link sits without waiting for your approval."
        ),
    )

    def clean_raise_cap(self) -> int | None:
        return RAISE_CAPS[self.cleaned_data["raise_cap"]]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        # An empty time bank field is 0 (no time bank); the engine checks them together, and
        # its refusal goes on the field at fault.
        for name in TIME_BANK_FIELDS.values():
            if name in cleaned and cleaned[name] is None:
                cleaned[name] = 0
        values = {key: cleaned.get(name) for key, name in TIME_BANK_FIELDS.items()}
        if all(isinstance(value, int) for value in values.values()):
            try:
                TimeBank(**values)
            except RuleError as exc:
                message, params = rule_message(exc)
                setting = str(exc.params.get("setting", "cap"))
                self.add_error(TIME_BANK_FIELDS[setting], render(message, params))
        return cleaned


class BotsForm(forms.Form):
    """A director fills empty seats with house bots."""

    count = forms.IntegerField(label=_("Count"), min_value=1, max_value=9, initial=1)
    style = forms.ChoiceField(label=_("Style"), choices=lambda: _bot_styles(), required=False)


# The house bots' styles as a director reads them (tables.botbrain.STYLES names them).
STYLE_NAMES = {
    "tight": pgettext_lazy("bot style", "Tight"),
    "loose": pgettext_lazy("bot style", "Loose"),
    "station": pgettext_lazy("bot style", "Station"),
    "maniac": pgettext_lazy("bot style", "Maniac"),
}


def _bot_styles() -> list[tuple[str, Any]]:
    return [
        ("", pgettext_lazy("bot style", "Mixed")),
        *((style, STYLE_NAMES.get(style, style.title())) for style in BOT_STYLES),
    ]
