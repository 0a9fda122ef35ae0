"""The director's season and event forms, in a host's words, laid out for a phone."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, time
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core import request_values
from series import event_sections
from series.event_sections import EventFormPart, PartError
from series.models import Event, Season

DATE_INPUT = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
TIME_INPUT = forms.TimeInput(attrs={"type": "time"}, format="%H:%M")


# A season's defaults for its new nights: the second part of its form.
DEFAULT_FIELDS = (
    "default_venue",
    "default_game",
    "default_structure",
    "default_buy_in",
    "default_fee",
    "default_capacity",
)


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = [
            "name",
            "starts_on",
            "ends_on",
            "description",
            "visibility",
            "season_pot_per_entry",
            *DEFAULT_FIELDS,
        ]
        widgets = {
            "default_venue": forms.TextInput(attrs={"list": "venues-known", "autocomplete": "off"}),
            "default_buy_in": forms.NumberInput(attrs={"inputmode": "numeric"}),
            "default_fee": forms.NumberInput(attrs={"inputmode": "numeric"}),
            "default_capacity": forms.NumberInput(attrs={"inputmode": "numeric"}),
            "starts_on": DATE_INPUT,
            "ends_on": DATE_INPUT,
            "description": forms.Textarea(attrs={"rows": 3}),
            "visibility": forms.RadioSelect,
        }
        labels = {
            "starts_on": gettext_lazy("First day"),
            "ends_on": gettext_lazy("Last day"),
            "description": gettext_lazy("A word for the players"),
            "default_venue": gettext_lazy("Where"),
        }
        help_texts = {
            "default_venue": gettext_lazy("Empty: like the last night."),
            "default_capacity": gettext_lazy("How many people fit, guests included."),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        request_values.integer_fields_bounded(self)
        for name in ("default_game", "default_structure"):
            field = self.fields[name]
            field.choices = [("", _("Like the last night")), *list(field.choices)[1:]]  # type: ignore[attr-defined]

    def season_fields(self) -> list[forms.BoundField]:
        return [field for field in self if field.name not in DEFAULT_FIELDS]

    def default_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in DEFAULT_FIELDS]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        start, end = cleaned.get("starts_on"), cleaned.get("ends_on")
        if start and end and end < start:
            self.add_error("ends_on", _("The last day comes before the first."))
        return cleaned


class EventForm(forms.ModelForm):
    """An event: the day and time as two fields (a phone's own pickers), the venue with the
    ones used before offered as you type."""

    date = forms.DateField(label=gettext_lazy("Day"), widget=DATE_INPUT)
    time = forms.TimeField(label=gettext_lazy("Start time"), widget=TIME_INPUT)

    SECTIONS = (
        (gettext_lazy("When and where"), ("name", "date", "time", "venue", "number")),
        (
            gettext_lazy("The game"),
            ("game", "structure", "buy_in", "fee", "points_only", "starting_stack", "counts"),
        ),
        (
            gettext_lazy("Who is coming"),
            (
                "capacity",
                "waiting_list_size",
                "rsvp_minimum",
                "rsvp_minimum_hours",
                "late_drop_hours",
            ),
        ),
        (gettext_lazy("Notes for the players"), ("notes",)),
    )

    class Meta:
        model = Event
        fields = [
            "name",
            "venue",
            "number",
            "game",
            "structure",
            "buy_in",
            "fee",
            "points_only",
            "starting_stack",
            "counts",
            "capacity",
            "waiting_list_size",
            "rsvp_minimum",
            "rsvp_minimum_hours",
            "late_drop_hours",
            "notes",
        ]
        widgets = {
            "venue": forms.TextInput(attrs={"list": "venues-known", "autocomplete": "off"}),
            "notes": forms.Textarea(attrs={"rows": 3}),
            "number": forms.NumberInput(attrs={"inputmode": "numeric"}),
        }
        labels = {
            "name": gettext_lazy("Name of the night"),
            "venue": gettext_lazy("Where"),
            "rsvp_minimum": gettext_lazy("Fewest people to play"),
            "rsvp_minimum_hours": gettext_lazy("Alert me this many hours before if fewer"),
            "late_drop_hours": gettext_lazy("A drop counts as late this many hours before"),
        }
        help_texts = {"venue": gettext_lazy("Empty: played online.")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        request_values.integer_fields_bounded(self)
        for name in ("buy_in", "fee", "starting_stack", "capacity", "waiting_list_size"):
            self.fields[name].widget.attrs["inputmode"] = "numeric"
        if self.instance.pk and not self.is_bound:
            local = timezone.localtime(self.instance.starts_at)
            self.initial.setdefault("date", local.date())
            self.initial.setdefault("time", local.time().replace(second=0, microsecond=0))

    def sections(self) -> list[tuple[str, list[forms.BoundField]]]:
        return [(str(legend), [self[name] for name in names]) for legend, names in self.SECTIONS]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        day, at = cleaned.get("date"), cleaned.get("time")
        if day is not None and isinstance(at, time):
            cleaned["starts_at"] = timezone.make_aware(datetime.combine(day, at))
        return cleaned

    def values(self) -> dict[str, Any]:
        """What the services take: the model's fields, the start as one moment."""
        return {
            name: value for name, value in self.cleaned_data.items() if name not in ("date", "time")
        }


EVERY_WEEKS = (
    (1, gettext_lazy("Every week")),
    (2, gettext_lazy("Every other week")),
    (3, gettext_lazy("Every three weeks")),
    (4, gettext_lazy("Every four weeks")),
)


class RecurringForm(EventForm):
    """Recurring nights: "every other Friday at 20:00 from 9 January to 26 June, skipping
    3 April", with the settings every one of them gets."""

    every_weeks = forms.TypedChoiceField(
        label=gettext_lazy("How often"), choices=EVERY_WEEKS, coerce=int, initial=1
    )
    last_day = forms.DateField(label=gettext_lazy("Last night"), widget=DATE_INPUT)
    skip = forms.CharField(
        label=gettext_lazy("Skip these days"),
        required=False,
        max_length=2000,
        help_text=gettext_lazy("Dates separated by commas: 2027-04-03, 2027-04-17."),
    )

    SECTIONS = (
        (
            gettext_lazy("Which nights"),
            ("name", "date", "every_weeks", "last_day", "time", "skip", "venue"),
        ),
        *EventForm.SECTIONS[1:],
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["date"].label = gettext_lazy("First night")
        del self.fields["number"]

    def clean_skip(self) -> list[date]:
        days = []
        for part in (self.cleaned_data.get("skip") or "").split(","):
            text = part.strip()
            if not text:
                continue
            try:
                days.append(date.fromisoformat(text))
            except ValueError:
                raise forms.ValidationError(
                    _("“%(text)s” is not a date like 2027-04-03.") % {"text": text[:40]}
                ) from None
        return days

    def values(self) -> dict[str, Any]:
        return {
            name: value
            for name, value in self.cleaned_data.items()
            if name not in ("date", "time", "every_weeks", "last_day", "skip", "starts_at")
        }


class NightParts:
    """The other apps' parts of a new night's page (``series.event_sections``: the
    tournament), each with its form: shown below the night's fields, checked with them,
    and made with the night in one step (``make``)."""

    def __init__(self, data: Any, initial: Callable[[str, EventFormPart], dict[str, Any]]) -> None:
        self.shown = [
            (name, part, part.form(data, initial(name, part)))
            for name, part in event_sections.form_parts().items()
        ]

    @classmethod
    def for_night(cls, data: Any, season: Season, source: Event | None = None) -> NightParts:
        return cls(data, lambda _name, part: part.initial(season, source))

    @classmethod
    def for_season(cls, data: Any, season: Season) -> NightParts:
        """The season's defaults of its new nights, as kept, else like its last night."""
        kept = season.night_part_defaults or {}

        def initial(name: str, part: EventFormPart) -> dict[str, Any]:
            return dict(kept[name]) if name in kept else part.initial(season)

        return cls(data, initial)

    def is_valid(self) -> bool:
        # Every wanted form is checked, so each shows its errors at once.
        return all([form.is_valid() for _, part, form in self.shown if part.wanted(form)])

    def defaults(self) -> dict[str, Any]:
        return {name: part.defaults(form) for name, part, form in self.shown}

    def make(self, by: Any) -> Callable[[Event], None]:
        """What the services run for each new night, in its transaction."""

        def make(event: Event) -> None:
            for name, part, form in self.shown:
                if part.wanted(form):
                    try:
                        part.save(form, event, by)
                    except PartError as error:
                        raise PartRefused(name, error) from None

        return make

    def refused(self, refusal: PartRefused) -> None:
        """Show a part's refusal on its form."""
        for name, _part, form in self.shown:
            if name == refusal.name:
                form.add_error(refusal.error.field, refusal.error.message)


class PartRefused(Exception):
    """A part refused a new night (``NightParts.make``): which part, and its error."""

    def __init__(self, name: str, error: PartError) -> None:
        super().__init__(error.message)
        self.name = name
        self.error = error
