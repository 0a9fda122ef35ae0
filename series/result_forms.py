"""Forms of the director's corrections and guest merges (the services validate the rules)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from core import amounts
from core.names import NameOrder
from core.request_values import INTEGER_MAX, SMALLINT_MAX
from series.models import Player

# The browser's own check for the amounts; the service refuses a negative one with a
# message that names the player, whatever sent it.
NUMBER = forms.NumberInput(attrs={"min": 0, "inputmode": "numeric"})


class CorrectionRowForm(forms.Form):
    """One player's row of the corrected results."""

    player = forms.ModelChoiceField(
        label=_("player"), queryset=Player.objects.order_by(NameOrder("name"), "pk"), required=False
    )
    # Money bounded as ``Result``'s (``core.amounts``), places by their integer column,
    # counts by their small-integer one.
    place = forms.IntegerField(
        label=_("place"), required=False, max_value=INTEGER_MAX, widget=NUMBER
    )
    prize = amounts.field_bound(
        forms.IntegerField(label=_("prize"), initial=0, required=False, widget=NUMBER),
        amounts.prize_max(),
    )
    bounties = amounts.field_bound(
        forms.IntegerField(label=_("bounties"), initial=0, required=False, widget=NUMBER),
        amounts.prize_max(),
    )
    knockouts = forms.IntegerField(
        label=_("knockouts"), initial=0, required=False, max_value=SMALLINT_MAX, widget=NUMBER
    )
    rebuys = forms.IntegerField(
        label=_("rebuys"), initial=0, required=False, max_value=SMALLINT_MAX, widget=NUMBER
    )
    addons = forms.IntegerField(
        label=_("add-ons"), initial=0, required=False, max_value=SMALLINT_MAX, widget=NUMBER
    )
    paid_in = amounts.field_bound(
        forms.IntegerField(label=_("paid in"), initial=0, required=False, widget=NUMBER),
        amounts.prize_max(),
    )
    remove = forms.BooleanField(label=_("remove"), required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("player") and not data.get("remove") and data.get("place") is None:
            raise forms.ValidationError(
                _("%(player)s needs a place (or tick “remove”).") % {"player": data["player"]}
            )
        return data

    def row(self) -> dict[str, Any] | None:
        """The row for ``results_correct``, or None for a removed or empty row."""
        data = self.cleaned_data
        if not data.get("player") or data.get("remove"):
            return None
        row: dict[str, Any] = {"player_id": data["player"].pk, "place": data["place"]}
        for name in ("prize", "bounties", "knockouts", "rebuys", "addons", "paid_in"):
            row[name] = data.get(name) or 0
        return row


class BaseCorrectionFormSet(forms.BaseFormSet):
    """The event's rows, then empty ones to add a player; a post of more rows than that is
    refused, and no more forms than that are built.

    Django's own ceiling is 2,000 forms, each sent back with every player in its menu: a
    tampered ``form-TOTAL_FORMS=100000`` took 11-20 s to answer. An event's rows are not
    known when the class is made, so the ceiling is set for each table.
    """

    default_error_messages = {
        "too_many_forms": ngettext_lazy(
            "At most %(num)d row can be sent for this event; reload the page and try again.",
            "At most %(num)d rows can be sent for this event; reload the page and try again.",
            "num",
        )
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.max_num = self.absolute_max = len(self.initial or ()) + self.extra


CorrectionFormSet = forms.formset_factory(CorrectionRowForm, BaseCorrectionFormSet, extra=2)


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("reason"),
        max_length=300,
        help_text=_("Goes in the event's history with your name."),
    )


class MergeForm(forms.Form):
    """Merge one guest into an account."""

    guest = forms.ModelChoiceField(
        queryset=Player.objects.filter(user__isnull=True), widget=forms.HiddenInput
    )
    account = forms.ModelChoiceField(
        label=_("account"),
        queryset=User.objects.filter(is_active=True).order_by(NameOrder("username"), "pk"),
        empty_label=_("choose an account"),
    )
