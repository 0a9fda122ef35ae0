"""Forms of the blind-structure editor: they read and type the input; the rules of a
blind structure are checked by `tournaments.blind_structures` (through the services), so the editor,
the generator and the services refuse the same things with the same messages.

Kept apart from ``tournaments/forms.py`` (the tournament settings) so the two grow apart
without touching each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core import amounts
from core.choices import choices_of
from tables.engine.config import ANTE_KIND_NAMES, AnteKind, Structure
from tournaments import blind_structures as pure
from tournaments.models import BlindStructure

# A blind structure's levels carry the small and big bets of limit, or serve pot-limit and
# no-limit alike (``BlindStructure.for_limit``): two choices, named by the betting structure
# (the engine's ``Structure``) that ``pure.betting_of`` gives for each.
BETTING_CHOICES = [
    (pure.betting_of(for_limit=False).value, _("Pot-limit or no-limit")),
    (pure.betting_of(for_limit=True).value, _("Limit (small and big bet)")),
]

ANTE_CHOICES = choices_of(AnteKind, ANTE_KIND_NAMES)


def _betting_field(**kwargs: Any) -> forms.TypedChoiceField:
    return forms.TypedChoiceField(
        label=_("Betting"), choices=BETTING_CHOICES, coerce=Structure, **kwargs
    )


DATETIME_LOCAL = "%Y-%m-%dT%H:%M"


def add_problems(
    form: forms.Form, error: pure.BlindStructureError, index: int | None = None
) -> None:
    """Show a `BlindStructureError` on a form: beside the field it names when the problem is the
    form's own (``index``: the row the form edits), at the top otherwise."""
    for problem in error.problems:
        field = problem.field if problem.field in form.fields else None
        if problem.index is not None and problem.index != index:
            field = None
        form.add_error(field, problem.message)


class ChipSetField(forms.CharField):
    """ "25, 100, 500, 1000" into sorted denominations."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 200)
        kwargs.setdefault("help_text", _("The values of your chips, e.g. 25, 100, 500, 1000."))
        super().__init__(**kwargs)

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return ", ".join(str(chip) for chip in value)
        return value

    def clean(self, value: Any) -> tuple[int, ...]:  # type: ignore[override]
        text = super().clean(value)
        try:
            return pure.parse_chip_set(text or "")
        except pure.BlindStructureError as error:
            raise forms.ValidationError(error.messages) from None


def _number(label: Any, *, minimum: int = 0, maximum: int | None = None, **kwargs: Any) -> Any:
    """A whole-number field; with no ``maximum``, a number of chips (up to
    ``core.amounts.CHIPS_MAX``)."""
    widget = forms.NumberInput(attrs={"inputmode": "numeric"})
    if maximum is None:
        return amounts.chips_field(label=label, min_value=minimum, widget=widget, **kwargs)
    return forms.IntegerField(
        label=label, min_value=minimum, max_value=maximum, widget=widget, **kwargs
    )


class BlankBlindStructureForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100)
    betting = _betting_field(initial=pure.betting_of(for_limit=False).value)
    chip_set = ChipSetField(label=_("Chip set"), required=False)


class CopyBlindStructureForm(forms.Form):
    blind_structure = forms.ModelChoiceField(
        label=_("Blind structure"), queryset=BlindStructure.objects.all(), empty_label=None
    )
    name = forms.CharField(
        label=_("Name of the copy"),
        max_length=100,
        required=False,
        help_text=_("Empty: “Copy of …”."),
    )

    def __init__(self, *args: Any, templates_only: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if templates_only:
            field = self.fields["blind_structure"]
            assert isinstance(field, forms.ModelChoiceField)
            field.queryset = BlindStructure.objects.filter(is_template=True).order_by("name")
            field.label = _("Template")


class GeneratorForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100)
    betting = _betting_field()
    starting_stack = _number(_("Starting stack"), minimum=1)
    players = _number(_("Expected players"), minimum=2, maximum=1000)
    hours = forms.FloatField(
        label=_("Target length (hours)"),
        min_value=0.5,
        max_value=24,
        widget=forms.NumberInput(attrs={"step": "0.25", "inputmode": "decimal"}),
    )
    chip_set = ChipSetField(label=_("Chip set"))
    level_minutes = _number(_("Minutes per level"), minimum=1, maximum=pure.MAX_MINUTES)
    break_every = _number(
        _("Levels between breaks"),
        minimum=0,
        maximum=20,
        help_text=_("0: no breaks (and no colour-ups)."),
    )
    break_minutes = _number(_("Minutes per break"), minimum=1, maximum=pure.MAX_MINUTES)
    ante_kind = forms.ChoiceField(label=_("Antes"), choices=ANTE_CHOICES)


class BlindStructureSettingsForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100)
    description = forms.CharField(
        label=_("Description"), required=False, widget=forms.Textarea(attrs={"rows": 3})
    )
    betting = _betting_field()
    chip_set = ChipSetField(label=_("Chip set"), required=False)


class RowForm(forms.Form):
    """One row edited in place: a level's blinds, ante, bets and minutes, or a break's
    minutes and colour-up (the chips still in play at that break)."""

    def __init__(
        self,
        *args: Any,
        row: pure.Row,
        for_limit: bool,
        chips: Sequence[int] = (),
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault(
            "initial",
            {
                "minutes": row.minutes,
                "small_blind": row.small_blind,
                "big_blind": row.big_blind,
                "ante_kind": row.ante_kind.value,
                "ante": row.ante,
                "small_bet": row.small_bet,
                "big_bet": row.big_bet,
                "colour_up": [str(chip) for chip in row.colour_up],
            },
        )
        kwargs.setdefault("auto_id", f"id_row{row.id or 'new'}_%s")
        super().__init__(*args, **kwargs)
        self.row = row
        self.fields["minutes"] = _number(_("Minutes"), minimum=0, maximum=10_000)
        if row.is_break:
            choices = [(str(chip), str(chip)) for chip in chips]
            self.fields["colour_up"] = forms.TypedMultipleChoiceField(
                label=_("Colour up (chips that leave)"),
                choices=choices,
                coerce=int,
                required=False,
                widget=forms.CheckboxSelectMultiple,
            )
            return
        self.fields["small_blind"] = _number(_("Small blind"))
        self.fields["big_blind"] = _number(_("Big blind"))
        self.fields["ante_kind"] = forms.ChoiceField(label=_("Ante"), choices=ANTE_CHOICES)
        self.fields["ante"] = _number(_("Ante amount"), required=False)
        if for_limit:
            self.fields["small_bet"] = _number(_("Small bet"), required=False)
            self.fields["big_bet"] = _number(_("Big bet"), required=False)

    def changes(self) -> dict[str, Any]:
        """The row's new values, for `blind_structure_level_update`."""
        data = dict(self.cleaned_data)
        if "ante" in data and data["ante"] is None:
            data["ante"] = 0
        if "colour_up" in data:
            data["colour_up"] = tuple(data["colour_up"])
        return data


class PreviewForm(forms.Form):
    """Where the clock preview starts, and the field it expects (players x stack)."""

    preview_start = forms.DateTimeField(
        label=_("Start"),
        input_formats=[DATETIME_LOCAL, "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=DATETIME_LOCAL),
    )
    preview_players = _number(_("Players"), minimum=2, maximum=1000)
    preview_stack = _number(_("Starting stack"), minimum=1)

    @staticmethod
    def initial_for(start: datetime, players: int, stack: int) -> dict[str, Any]:
        return {
            "preview_start": timezone.localtime(start).strftime(DATETIME_LOCAL),
            "preview_players": players,
            "preview_stack": stack,
        }
