"""Forms of the tournaments: types, choices and ranges only.

The rules that tie settings together (a bounty within the buy-in, levels the blind structure
has, money rules locked once the tournament has started) live in
``tournaments.services.entries``; whatever the service refuses comes back as an error on
the field it names (``FORM_FIELD`` maps a setting to the form field that edits it).
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core import amounts, request_values
from core.choices import choices_of
from series.models import Event
from tables.engine.config import GAME_NAMES, STRUCTURE_NAMES, Game, Structure
from tournaments import selectors
from tournaments.models import BlindStructure, LevelKind, Tournament
from tournaments.services.deals import ANSWER_MINUTES_DEFAULT, ANSWER_MINUTES_MAX
from tournaments.services.lifecycle import LOCKED_AFTER_START, TOURNAMENT_SETTINGS

# The online time bank (docs/rules.md, Home-game options), in seconds.
TIME_BANK_FIELDS = ("time_bank_seconds", "time_bank_refill_seconds", "time_bank_cap_seconds")

# Settings the form edits under another name.
FORM_FIELD = {"addon_at_break": "addon_after_level", "payout_basis_points": "payouts"}

# The tournament's own settings the form edits as model fields; the others (the add-on's
# break, the payouts) have form fields of their own (``FORM_FIELD``).
MODEL_FIELDS = [name for name in TOURNAMENT_SETTINGS if name not in FORM_FIELD]

# How the page groups the fields, as (legend, field names).
SECTIONS = [
    (
        gettext_lazy("Game"),
        [
            "game",
            "structure",
            "raise_cap",
            "uncapped_heads_up",
            "pot_assumes_small_blind_call",
            "online",
            "blind_structure",
        ],
    ),
    (
        gettext_lazy("Money"),
        ["buy_in", "fee", "starting_stack", "bounty", "money_unit", "payouts"],
    ),
    (
        gettext_lazy("Rebuys"),
        [
            "rebuys_allowed",
            "rebuy_until_level",
            "rebuy_chips",
            "rebuy_price",
            "rebuy_max_stack",
            "rebuy_after_bust_seconds",
        ],
    ),
    (gettext_lazy("Add-on"), ["addon_after_level", "addon_chips", "addon_price"]),
    (gettext_lazy("Re-entry"), ["reentries_allowed", "reentry_until_level"]),
    (
        gettext_lazy("Registration and tables"),
        [
            "late_registration_until_level",
            "capacity",
            "seats_per_table",
            "balance_threshold",
            "hand_for_hand_minutes",
        ],
    ),
    (
        gettext_lazy("Time bank (online)"),
        ["time_bank_seconds", "time_bank_refill_seconds", "time_bank_cap_seconds"],
    ),
]


def payouts_parse(text: str) -> list[int]:
    """ "50, 30, 20" (percentages, first place first) to basis points [5000, 3000, 2000].

    >>> payouts_parse("50%, 30, 12.5 7.5")
    [5000, 3000, 1250, 750]
    """
    parts = text.replace("%", " ").replace(";", " ").replace(",", " ").split()
    points: list[int] = []
    for part in parts:
        try:
            percent = Decimal(part)
        except InvalidOperation:
            raise forms.ValidationError(
                _("“%(part)s” is not a percentage.") % {"part": part}
            ) from None
        # Checked before any arithmetic: "1e400" or "inf" is a Decimal too.
        if not percent.is_finite() or not 0 <= percent <= 100:
            raise forms.ValidationError(
                _("“%(part)s” is not a percentage from 0 to 100.") % {"part": part}
            )
        value = percent * 100
        if value != value.to_integral_value():
            raise forms.ValidationError(_("Use at most two decimals in a percentage."))
        points.append(int(value))
    return points


def payouts_format(points: list[int]) -> str:
    """Basis points back to the percentages a director typed.

    >>> payouts_format([7000, 3000, 1250, 750, 5])
    '70, 30, 12.5, 7.5, 0.05'
    """
    return ", ".join(f"{Decimal(p) / 100:g}" for p in points)


class BlindStructureChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: BlindStructure) -> str:
        if obj.is_template:
            return _("%(name)s (built-in)") % {"name": obj.name}
        return obj.name


class TournamentForm(forms.ModelForm):
    """The director's settings of a tournament, with the event's game and money beside them.

    The event's fields are shown and edited here because a director sets a night up in one
    place; they are saved on the event. Once the tournament has started the money rules
    are shown disabled (the service refuses them anyway).
    """

    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=choices_of(Game, GAME_NAMES))
    structure = forms.ChoiceField(
        label=gettext_lazy("Betting"), choices=choices_of(Structure, STRUCTURE_NAMES)
    )
    buy_in = amounts.money_field(
        label=gettext_lazy("Buy-in"),
        help_text=gettext_lazy("Goes to the prize pool (the bounty is part of it)."),
    )
    fee = amounts.money_field(
        label=gettext_lazy("Fee"), help_text=gettext_lazy("Kept outside the pool.")
    )
    starting_stack = amounts.chips_field(label=gettext_lazy("Starting stack"), min_value=1)
    payouts = forms.CharField(
        label=gettext_lazy("Payout percentages"),
        required=False,
        max_length=1000,
        help_text=gettext_lazy(
            "First place first, e.g. “50, 30, 20”. Empty: the built-in table for the field size."
        ),
    )
    addon_after_level = forms.IntegerField(
        label=gettext_lazy("Add-on at the break after level"),
        min_value=1,
        required=False,
        help_text=gettext_lazy("Empty: no add-on."),
    )

    hand_for_hand_minutes = forms.IntegerField(
        label=gettext_lazy("Minutes per hand-for-hand hand"),
        min_value=0,
        max_value=3,
        required=False,
        help_text=gettext_lazy(
            "Online: the clock loses this much for each hand played hand-for-hand at the "
            "money bubble (at most 3). Empty: 2."
        ),
    )

    class Meta:
        model = Tournament
        fields = MODEL_FIELDS
        field_classes = {"blind_structure": BlindStructureChoice}

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        request_values.integer_fields_bounded(self)
        self.event = event
        self.fields["blind_structure"].queryset = BlindStructure.objects.order_by(
            "-is_template", "name"
        )
        self.fields["blind_structure"].help_text = _(
            "Built-in blind structures and the ones directors have made or copied."
        )
        for name in ("game", "structure", "buy_in", "fee", "starting_stack"):
            self.fields[name].initial = getattr(event, name)
        if self.instance.pk:
            self.fields["payouts"].initial = payouts_format(self.instance.payout_basis_points)
            self.fields["addon_after_level"].initial = self._addon_level(self.instance)
        for name in ("rebuy_until_level", "reentry_until_level", "late_registration_until_level"):
            self.fields[name].widget.attrs["min"] = 1
        for name in TIME_BANK_FIELDS:
            # Left empty, the tournament keeps what it has (no time bank for a new one).
            self.fields[name].required = False
        # Left empty, the tournament keeps what it has (the model's 60 s for a new one).
        self.fields["rebuy_after_bust_seconds"].required = False
        for field in self.fields.values():
            if isinstance(field.widget, forms.NumberInput):
                field.widget.attrs.setdefault("inputmode", "numeric")
        self.locked = bool(self.instance.pk and self.instance.is_started)
        if self.locked:
            for name in LOCKED_AFTER_START:
                form_name = FORM_FIELD.get(name, name)
                if form_name in self.fields:
                    self.fields[form_name].disabled = True

    @staticmethod
    def _addon_level(tournament: Tournament) -> int | None:
        if tournament.addon_at_break is None:
            return None
        rows = selectors.blind_structure_rows(tournament)
        numbers = dict(
            zip((row.position for row in rows), selectors.level_numbers(rows), strict=True)
        )
        return numbers.get(tournament.addon_at_break)

    def sections(self) -> list[tuple[str, list[forms.BoundField]]]:
        return [(str(legend), [self[name] for name in names]) for legend, names in SECTIONS]

    def clean_payouts(self) -> list[int]:
        return payouts_parse(self.cleaned_data.get("payouts") or "")

    def clean_rebuy_after_bust_seconds(self) -> int:
        value = self.cleaned_data.get("rebuy_after_bust_seconds")
        return self.instance.rebuy_after_bust_seconds if value is None else int(value)

    def clean_hand_for_hand_minutes(self) -> int:
        # Left empty, the tournament keeps what it has (the model's 2 minutes for a new one).
        value = self.cleaned_data.get("hand_for_hand_minutes")
        return self.instance.hand_for_hand_minutes if value is None else int(value)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for name in TIME_BANK_FIELDS:
            if name in cleaned and cleaned[name] is None:
                cleaned[name] = getattr(self.instance, name)
        level = cleaned.get("addon_after_level")
        blind_structure = cleaned.get("blind_structure")
        cleaned["addon_at_break"] = None
        if level is not None and blind_structure is not None:
            rows = list(blind_structure.levels.order_by("position"))
            numbers = selectors.level_numbers(rows)
            breaks = [
                row.position
                for row, number in zip(rows, numbers, strict=True)
                if row.kind == LevelKind.BREAK and number == level
            ]
            if not breaks:
                self.add_error(
                    "addon_after_level",
                    _("The blind structure “%(name)s” has no break after level %(level)s.")
                    % {"name": blind_structure.name, "level": level},
                )
            else:
                cleaned["addon_at_break"] = breaks[0]
        return cleaned

    def settings(self) -> dict[str, Any]:
        """The cleaned values as the service's keyword arguments."""
        data = {name: self.cleaned_data[name] for name in MODEL_FIELDS}
        for name in ("game", "structure", "buy_in", "fee", "starting_stack"):
            data[name] = self.cleaned_data[name]
        data["payout_basis_points"] = self.cleaned_data["payouts"]
        data["addon_at_break"] = self.cleaned_data["addon_at_break"]
        return data

    def add_service_error(self, field: str | None, message: str) -> None:
        name = FORM_FIELD.get(field, field) if field else None
        self.add_error(name if name in self.fields else None, message)


class WalkInForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Walk-in"),
        max_length=100,
        widget=forms.TextInput(attrs={"placeholder": gettext_lazy("Name"), "autocomplete": "off"}),
    )
    # Ticked by the "new guest" button shown when the name is already a player's.
    new_guest = forms.BooleanField(required=False)


class RebuyForm(forms.Form):
    """The player's chips before the rebuy; left empty, the player has busted (0)."""

    stack = amounts.chips_field(
        required=False,
        label=gettext_lazy("Stack"),
        widget=forms.NumberInput(
            attrs={"inputmode": "numeric", "placeholder": gettext_lazy("chips")}
        ),
    )


class DealOfferForm(forms.Form):
    """The console's offer of a deal on the players' screens: the method, and the minutes
    the players have to answer once it is open (two when not given)."""

    method = forms.ChoiceField(
        choices=[("icm", gettext_lazy("ICM")), ("chip-chop", gettext_lazy("Chip-chop"))],
        error_messages={"invalid_choice": gettext_lazy("Choose ICM or chip-chop.")},
    )
    answer_minutes = forms.IntegerField(
        label=gettext_lazy("Minutes to answer"),
        required=False,
        initial=ANSWER_MINUTES_DEFAULT,
        min_value=1,
        max_value=ANSWER_MINUTES_MAX,
        error_messages={
            "invalid": gettext_lazy("Give the players a whole number of minutes to answer."),
            "min_value": gettext_lazy("Give the players at least a minute to answer."),
            "max_value": gettext_lazy("Give the players at most %(limit_value)s minutes."),
        },
    )

    def clean_answer_minutes(self) -> int:
        minutes = self.cleaned_data.get("answer_minutes")
        return ANSWER_MINUTES_DEFAULT if minutes is None else int(minutes)

    def first_error(self) -> str:
        return next(str(e) for errors in self.errors.values() for e in errors)
