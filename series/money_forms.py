"""Forms of money across nights: a night's shared expense, a season pot payout, a player's
payment handle. The players offered are the night's (or the season's), so an id from
elsewhere is refused by the form; the services check the rules again."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from core import amounts, request_values
from core.names import NameOrder
from series.models import Event, Player, Season
from series.selectors import night_players
from series.services.expenses import DESCRIPTION_MAX
from series.services.handles import HANDLE_MAX
from series.services.pot import REASON_MAX


class PlayerChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return obj.name


class PlayersChoice(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return obj.name

    def _check_values(self, value: Any) -> Any:
        # An id no row can have ("99999…" beyond the column) is refused as a wrong choice
        # before the query: SQLite cannot even compare it.
        for pk in value:
            if request_values.id_or_none(str(pk)) is None:
                raise ValidationError(
                    self.error_messages["invalid_pk_value"],
                    code="invalid_pk_value",
                    params={"pk": pk},
                )
        return super()._check_values(value)


class ExpenseForm(forms.Form):
    """A shared expense of the night: what, how much, who paid, who shares it (everyone who
    played, unless the director unticks some)."""

    description = forms.CharField(
        label=_("What for"), max_length=DESCRIPTION_MAX, help_text=_("Pizza, the room…")
    )
    amount = amounts.money_field(label=_("Amount"), min_value=1)
    payer = PlayerChoice(label=_("Paid by"), queryset=Player.objects.none())
    sharers = PlayersChoice(
        label=_("Shared by"),
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Choose at least one player to share the expense.")},
    )

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = night_players(event)
        self.fields["payer"].queryset = players  # type: ignore[attr-defined]
        self.fields["sharers"].queryset = players  # type: ignore[attr-defined]
        self.fields["amount"].widget.attrs["inputmode"] = "numeric"
        if not self.is_bound:
            self.initial["sharers"] = list(players)


class PayoutForm(forms.Form):
    """A payout from the season pot to a player of the season."""

    player = PlayerChoice(label=_("Paid to"), queryset=Player.objects.none())
    amount = amounts.field_bound(
        forms.IntegerField(label=_("Amount"), min_value=1), amounts.prize_max()
    )
    reason = forms.CharField(
        label=_("What for"), max_length=REASON_MAX, help_text=_("The final's prize, a trophy…")
    )
    event = forms.ModelChoiceField(label=_("Event"), queryset=Event.objects.none(), required=False)

    def __init__(self, *args: Any, season: Season, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = (  # type: ignore[attr-defined]
            Player.objects.filter(results__event__season=season)
            .distinct()
            .order_by(NameOrder("name"), "pk")
        )
        self.fields["event"].queryset = Event.objects.filter(  # type: ignore[attr-defined]
            season=season
        ).order_by("starts_at", "pk")
        self.fields["amount"].widget.attrs["inputmode"] = "numeric"


class PaymentHandleForm(forms.Form):
    text = forms.CharField(
        label=_("How to pay you"),
        max_length=HANDLE_MAX,
        required=False,
        help_text=_(
            "For example “IBAN FR76 …” or “PayPal: name@example.com”. Only players who owe "
            "you see it. Leave empty to remove it."
        ),
    )
