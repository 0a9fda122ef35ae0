"""The season's scoring settings, as a director edits them."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core import request_values
from series.formula import VARIABLES
from series.models import PointsFormula, Season

MAX_PLACES = 100


class ScoringForm(forms.ModelForm):
    place_points = forms.CharField(
        label=gettext_lazy("Points by place"),
        required=False,
        help_text=gettext_lazy("1st, 2nd, 3rd ... separated by commas: 25, 18, 15, 12, 10."),
    )

    class Meta:
        model = Season
        fields = ["points_formula", "place_points", "custom_formula", "best_of", "min_events"]
        fields += ["min_field"]
        widgets = {
            "points_formula": forms.RadioSelect,
            "custom_formula": forms.TextInput(
                attrs={"spellcheck": "false", "autocomplete": "off", "class": "formula-input"}
            ),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        request_values.integer_fields_bounded(self)
        # The stored list is shown as the text a director types: "25, 18, 15".
        self.initial["place_points"] = ", ".join(
            f"{Decimal(str(p)).normalize():f}" for p in self.instance.place_points or []
        )
        self.fields["custom_formula"].help_text = _(
            "Arithmetic (+ - * / ^), sqrt, log, ln, min, max, round, abs, comparisons and "
            "if(condition, then, else) on: %(names)s."
        ) % {"names": ", ".join(VARIABLES)}

    def clean_place_points(self) -> list[float]:
        text = self.cleaned_data.get("place_points") or ""
        points: list[float] = []
        for position, part in enumerate(text.replace(";", ",").split(","), start=1):
            part = part.strip()
            if not part:
                continue
            try:
                value = Decimal(part)
            except InvalidOperation:
                raise forms.ValidationError(
                    _("'%(text)s' (place %(place)s) is not a number.")
                    % {"text": part, "place": position}
                ) from None
            if not value.is_finite() or value < 0 or value > 100000:
                raise forms.ValidationError(
                    _("Place %(place)s: points go from 0 to 100000.") % {"place": position}
                )
            points.append(float(value.quantize(Decimal("0.01"))))
        if len(points) > MAX_PLACES:
            raise forms.ValidationError(
                _("At most %(count)s places have points.") % {"count": MAX_PLACES}
            )
        return points

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        formula = data.get("points_formula")
        if formula == PointsFormula.PLACES and not data.get("place_points"):
            self.add_error("place_points", _("Give the points of at least the first place."))
        # The formula is read by ``Season.clean``, for this form and the admin alike. Reading
        # it here too showed two errors: a refused text is left out of the instance, so the
        # model then read the stored formula ("the formula is empty").
        return data


class StandingsShareForm(forms.ModelForm):
    """Whether the season's leaderboard may be shown on another site (its embed page)."""

    class Meta:
        model = Season
        fields = ["standings_public"]
