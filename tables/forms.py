"""The create-table form: types, choices and ranges only.

Rules that need the engine (the small blind from the big blind, the big bet's default, the
default buy-ins) are left to `services.table_create` and `Config`: an empty optional field
means "the default", and whatever the service refuses comes back as a form error. The field
names are the service's keyword arguments.
"""

from django import forms
from django.utils.translation import gettext_lazy as _

from tables.engine.config import Game, Structure
from tables.models import BOT_STYLES

RAISE_CAPS = {"4": 4, "5": 5, "none": None}


class TableCreateForm(forms.Form):
    name = forms.CharField(max_length=100, initial="Friday Omaha")
    game = forms.ChoiceField(
        choices=[
            (Game.OMAHA_HI_LO.value, "Omaha Hi/Lo 8-or-better"),
            (Game.OMAHA.value, "Omaha High"),
        ]
    )
    structure = forms.ChoiceField(
        choices=[
            (Structure.POT_LIMIT.value, "Pot-Limit"),
            (Structure.LIMIT.value, "Limit"),
            (Structure.NO_LIMIT.value, "No-Limit"),
        ]
    )
    big_blind = forms.IntegerField(
        min_value=1, initial=2, help_text="The small blind is half of it, rounded down."
    )
    big_bet = forms.IntegerField(
        min_value=1, required=False, help_text="Limit only. Empty: twice the big blind."
    )
    seat_count = forms.TypedChoiceField(
        label="Seats", coerce=int, choices=[(n, str(n)) for n in range(2, 11)], initial=6
    )
    min_buy_in = forms.IntegerField(
        label="Minimum buy-in",
        min_value=1,
        required=False,
        help_text="Empty: five times the largest bet.",
    )
    max_buy_in = forms.IntegerField(
        label="Maximum buy-in", min_value=1, required=False, help_text="Empty: the table's default."
    )
    raise_cap = forms.ChoiceField(
        label="Raise cap (limit)",
        choices=[
            ("4", "A bet and three raises"),
            ("5", "A bet and four raises"),
            ("none", "No cap"),
        ],
    )
    uncapped_heads_up = forms.BooleanField(
        label=_("No cap heads-up"),
        required=False,
        help_text=_("Limit: no raise cap once only two players are left in the hand."),
    )
    all_in_on_disconnect = forms.BooleanField(
        label="All-in on disconnect",
        required=False,
        help_text="A player who times out while disconnected is treated as all-in.",
    )
    pot_assumes_small_blind_call = forms.BooleanField(
        label=_("Count the small blind's call in the first pot"),
        required=False,
        help_text=_(
            "Pot-limit: before the first raise, the pot counts as if the small blind had "
            "called (blinds 25/50: the button may raise to 200, not 175)."
        ),
    )

    private = forms.BooleanField(
        label=_("Private table"),
        required=False,
        help_text=_(
            "Not listed in the lobby: players come with your invite link and you approve each seat."
        ),
    )

    def clean_raise_cap(self) -> int | None:
        return RAISE_CAPS[self.cleaned_data["raise_cap"]]


class BotsForm(forms.Form):
    """A director fills empty seats with house bots."""

    count = forms.IntegerField(min_value=1, max_value=9, initial=1)
    style = forms.ChoiceField(choices=lambda: _bot_styles(), required=False)


def _bot_styles() -> list[tuple[str, str]]:
    return [("", "Mixed"), *((style, style.title()) for style in BOT_STYLES)]
