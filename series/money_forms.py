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
from series.services.expenses import (
    DESCRIPTION_MAX,
    SHARES_MAX,
    parts_range_message,
    parts_total_message,
)
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


SPLIT_EQUAL, SPLIT_SHARES, SPLIT_AMOUNTS = "equal", "shares", "amounts"
# A sharer's part typed in the form: a handful of digits (a share, or an amount with cents).
PART_MAX_LENGTH = 12


class ExpenseForm(forms.Form):
    """A shared expense of the night: what, how much, who paid, who shares it (everyone who
    played, unless the director unticks some), and how: equally, by shares (``part_<id>``:
    the sharer's shares, empty for one) or by amounts (``part_<id>``: what the sharer pays,
    the amounts adding up to the expense).

    The amount and the parts by amounts take cents, typed the reader's way ("23.50", French
    "23,50": ``core.amounts.CentsField``); ``cleaned_data["amount_cents"]`` and
    ``split_parts()`` give the service its input, in cents."""

    description = forms.CharField(
        label=_("What for"), max_length=DESCRIPTION_MAX, help_text=_("Pizza, the room…")
    )
    amount = amounts.CentsField(label=_("Amount"))
    payer = PlayerChoice(label=_("Paid by"), queryset=Player.objects.none())
    sharers = PlayersChoice(
        label=_("Shared by"),
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Choose at least one player to share the expense.")},
    )
    split = forms.ChoiceField(
        label=_("Split"),
        choices=[
            (SPLIT_EQUAL, _("Equally")),
            (SPLIT_SHARES, _("By shares")),
            (SPLIT_AMOUNTS, _("By amounts")),
        ],
        initial=SPLIT_EQUAL,
        required=False,
        widget=forms.RadioSelect,
    )

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = night_players(event)
        self.players = list(players)
        self.fields["payer"].queryset = players  # type: ignore[attr-defined]
        self.fields["sharers"].queryset = players  # type: ignore[attr-defined]
        self.fields["amount"].widget.attrs["size"] = 8
        for player in self.players:
            # Text: a share ("2") or an amount with cents ("10.50"), read once the split is
            # known (``clean``).
            self.fields[f"part_{player.pk}"] = forms.CharField(
                label=player.name,
                required=False,
                max_length=PART_MAX_LENGTH,
                widget=forms.TextInput(
                    attrs={"inputmode": "decimal", "size": 5, "class": "expense-part"}
                ),
            )
        if not self.is_bound:
            self.initial["sharers"] = list(players)

    def sharer_rows(self) -> list[tuple[Any, forms.BoundField]]:
        """Each player's box of the sharers, with their part's field beside it."""
        parts = {str(player.pk): self[f"part_{player.pk}"] for player in self.players}
        return [(box, parts[str(box.data["value"])]) for box in self["sharers"]]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        # Left out, the split is equal (a form of before the splits); sent empty, it is no
        # split a browser sends (one of the choices is always checked).
        if "split" in self.data and self.data["split"] == "":
            self.add_error("split", self.fields["split"].error_messages["required"])
        split = cleaned.get("split") or SPLIT_EQUAL
        cleaned["split"] = split
        sharers = cleaned.get("sharers") or []
        typed = cleaned.get("amount")
        amount = None if typed is None else amounts.CentsField.cents(typed)
        if amount is not None:
            cleaned["amount_cents"] = amount
        # A part is empty or an amount whatever the split: what is typed and not used (an
        # untouched sharer, an equal split) is still never nonsense that gets through.
        checked_below = set() if split == SPLIT_EQUAL else {player.pk for player in sharers}
        for player in self.players:
            if player.pk in checked_below:
                continue
            raw = (self.data.get(f"part_{player.pk}") or "").strip()
            if raw:
                try:
                    amounts.CentsField(min_cents=0).clean(raw)
                except ValidationError as error:
                    self.add_error(f"part_{player.pk}", error)
        if split == SPLIT_EQUAL or not sharers or amount is None or self.errors:
            return cleaned
        parts: dict[int, int] = {}
        for player in sharers:
            raw = (self.data.get(f"part_{player.pk}") or "").strip()
            if split == SPLIT_SHARES:
                try:
                    parts[player.pk] = (
                        request_values.whole_number(raw, minimum=1, maximum=SHARES_MAX)
                        if raw
                        else 1
                    )
                except request_values.BadValue:
                    self.add_error(
                        f"part_{player.pk}",
                        _("Each share is a whole number from 1 to %(most)s.")
                        % {"most": SHARES_MAX},
                    )
                continue
            if not raw:
                self.add_error(
                    f"part_{player.pk}", _("Give the amount %(name)s pays.") % {"name": player.name}
                )
                continue
            try:
                part = amounts.CentsField(min_cents=0, max_cents=amount).clean(raw)
            except ValidationError:
                self.add_error(f"part_{player.pk}", parts_range_message(amount))
            else:
                parts[player.pk] = amounts.CentsField.cents(part)
        if self.errors:
            return cleaned
        if split == SPLIT_AMOUNTS and sum(parts.values()) != amount:
            raise ValidationError(parts_total_message(sum(parts.values()), amount))
        cleaned["parts"] = parts
        return cleaned

    def split_parts(self) -> dict[str, dict[int, int]]:
        """The service's ``by_shares`` or ``by_amounts`` (in cents) for a valid form ({} if
        equal)."""
        split = self.cleaned_data["split"]
        if split == SPLIT_SHARES:
            return {"by_shares": self.cleaned_data["parts"]}
        if split == SPLIT_AMOUNTS:
            return {"by_amounts": self.cleaned_data["parts"]}
        return {}


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
