"""The tournament as a part of the new-night forms (``series.event_sections``): the blind
blind structure and the money rules chosen with the night, in the same step, made in the same
transaction. The settings a host rarely touches (the time bank, balancing, hand-for-hand)
keep their defaults here and are on the tournament's own settings page."""

from __future__ import annotations

from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy

from series.event_sections import PartError
from series.models import Event, Season
from tournaments.errors import TournamentError
from tournaments.forms import FORM_FIELD, TournamentForm, payouts_format
from tournaments.models import BlindStructure, Tournament
from tournaments.services import lifecycle

# The part's fields, grouped as on the page: the blind structure, then the money rules.
SECTIONS = (
    (gettext_lazy("The clock"), ("blind_structure", "online", "late_registration_until_level")),
    (gettext_lazy("Prizes"), ("payouts", "bounty")),
    (
        gettext_lazy("Rebuys, add-on, re-entry"),
        (
            "rebuys_allowed",
            "rebuy_until_level",
            "rebuy_chips",
            "rebuy_price",
            "addon_after_level",
            "addon_chips",
            "addon_price",
            "reentries_allowed",
            "reentry_until_level",
        ),
    ),
)
FIELDS = tuple(name for _legend, names in SECTIONS for name in names)


class NightTournamentForm(TournamentForm):
    """The tournament's settings a host sets with the night; the night's own fields (game,
    betting, buy-in, fee, stack) are the night form's."""

    run = forms.BooleanField(
        label=gettext_lazy("A tournament on the blind clock"),
        required=False,
        help_text=gettext_lazy("Registration, seating, the clock and the results on this site."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, instance=Tournament(), event=Event(), prefix="tournament", **kwargs)
        for name in list(self.fields):
            if name not in FIELDS and name != "run":
                del self.fields[name]

    def sections(self) -> list[tuple[str, list[forms.BoundField]]]:
        return [(str(legend), [self[name] for name in names]) for legend, names in SECTIONS]

    def settings(self) -> dict[str, Any]:
        data = {
            name: self.cleaned_data[name]
            for name in FIELDS
            if name not in FORM_FIELD.values() and name in self.cleaned_data
        }
        data["payout_basis_points"] = self.cleaned_data["payouts"]
        data["addon_at_break"] = self.cleaned_data["addon_at_break"]
        return data


class TournamentPart:
    """``series.event_sections.EventFormPart`` for the tournaments."""

    template = "tournaments/_night_part.html"

    def form(self, data: QueryDict | None, initial: dict[str, Any]) -> NightTournamentForm:
        return NightTournamentForm(data, initial=initial)

    def initial(self, season: Season, source: Event | None = None) -> dict[str, Any]:
        kept = (season.night_part_defaults or {}).get("tournament")
        if source is None and kept:
            return dict(kept)
        latest = Tournament.objects.order_by("-event__starts_at", "-pk")
        if source is not None:
            last = latest.filter(event=source).first()
        else:
            # The season's last tournament, else the last of any season.
            last = (
                latest.filter(event__season_id=season.pk).first() if season.pk else None
            ) or latest.first()
        if last is None:
            # No tournament yet: one on the first blind structure, or none while there is none
            # to choose (the host makes one, then ticks the box).
            blind_structure = BlindStructure.objects.order_by("-is_template", "name").first()
            if blind_structure is None:
                return {"run": False}
            return {"run": True, "blind_structure": blind_structure.pk}
        values: dict[str, Any] = {
            name: getattr(last, name)
            for name in FIELDS
            if name not in ("payouts", "addon_after_level", "blind_structure")
        }
        values.update(
            run=True,
            blind_structure=last.blind_structure_id,
            payouts=payouts_format(last.payout_basis_points),
            addon_after_level=NightTournamentForm._addon_level(last),
        )
        return values

    def wanted(self, form: forms.Form) -> bool:
        if form.is_bound:
            return bool(form["run"].value())
        return bool(form.initial.get("run"))

    def defaults(self, form: forms.Form) -> dict[str, Any]:
        if not self.wanted(form):
            return {"run": False}
        return {"run": True, **{name: form[name].value() for name in FIELDS}}

    def save(self, form: forms.Form, event: Event, by: Any) -> None:
        assert isinstance(form, NightTournamentForm)
        settings = form.settings()
        # The night's seats are the tournament's places.
        settings["capacity"] = event.capacity
        try:
            lifecycle.tournament_create(event, by=by, **settings)
        except TournamentError as error:
            field = FORM_FIELD.get(error.field, error.field) if error.field else None
            raise PartError(error.message, field if field in form.fields else None) from None


part = TournamentPart()
