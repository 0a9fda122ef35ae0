"""The forms of the director's import of past results: the upload, then the confirmation
that carries the file back with the director's choice for each name the site knows."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from series.models import Season
from series.services.imports import (
    COLUMNS,
    DATE_ORDERS,
    DAY_FIRST,
    IGNORE,
    IMPORT_MAX_BYTES,
    MONTH_FIRST,
    NAME_MAX,
    Person,
)
from series.td_nights import td_levels_read

NEW_GUEST = "new"


class MultipleFileInput(forms.ClearableFileInput):
    """A file input that takes several files (TD's saves of several nights)."""

    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Django's documented way to take several files in one field: each is checked."""

    def clean(self, data: Any, initial: Any = None) -> list[Any]:
        single = super().clean
        if isinstance(data, list | tuple) and data:
            return [single(item, initial) for item in data]
        if isinstance(data, list | tuple):
            data = None  # none sent: required
        return [single(data, initial)]


class ImportUploadForm(forms.Form):
    season = forms.ModelChoiceField(
        Season.objects.order_by("-starts_on", "pk"),
        required=False,
        label=_("Season"),
        empty_label=_("A new season"),
    )
    season_name = forms.CharField(
        label=_("New season's name"),
        max_length=NAME_MAX,
        required=False,
        help_text=_(
            "For a new season: its dates are the first and last nights of the file. Empty "
            "for TD's saves: TD's league and season."
        ),
    )
    existing_events_only = forms.BooleanField(
        label=_("Only add results to events already on the site"),
        required=False,
        help_text=_("An event of the file that the season does not have is then an error."),
    )
    file = MultipleFileField(
        label=_("File"),
        help_text=_(
            "A CSV or .xlsx file, one row per result (see the columns below), or The "
            "Tournament Director's saves: one or several .tdt files, or a .zip of them."
        ),
        widget=MultipleFileInput(attrs={"accept": ".csv,text/csv,.tdt,.zip,.xlsx"}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        uploads = data.get("file") or []
        names = [(getattr(upload, "name", "") or "").lower() for upload in uploads]
        from_td = any(".tdt" in name or name.endswith(".zip") for name in names)
        # TD's saves name their league and season: the new season takes that name.
        if not from_td and not data.get("season") and not (data.get("season_name") or "").strip():
            self.add_error("season_name", _("Choose a season, or name a new one."))
        return data

    def season_arguments(self) -> dict[str, Any]:
        season = self.cleaned_data.get("season")
        return {
            "season_id": season.pk if season else None,
            "season_name": "" if season else self.cleaned_data["season_name"],
            "existing_events_only": self.cleaned_data["existing_events_only"],
        }


class ImportConfirmForm(forms.Form):
    """The file again (a hidden field: nothing is kept on the server between the preview
    and the confirmation, and the import checks everything again), the season, and for
    each name of the file the site knows, the player it is or a new guest."""

    content = forms.CharField(widget=forms.HiddenInput, strip=False, max_length=IMPORT_MAX_BYTES)
    season = forms.ModelChoiceField(Season.objects.all(), required=False, widget=forms.HiddenInput)
    season_name = forms.CharField(max_length=NAME_MAX, required=False, widget=forms.HiddenInput)
    existing_events_only = forms.BooleanField(required=False, widget=forms.HiddenInput)
    mapping = forms.CharField(required=False, widget=forms.HiddenInput, max_length=20_000)
    # TD's nights' levels, kept as blind structures (``series.td_nights.td_levels_of``).
    levels = forms.CharField(required=False, widget=forms.HiddenInput, max_length=2_000_000)
    date_order = forms.ChoiceField(
        choices=[("", "")] + [(order, order) for order in DATE_ORDERS],
        required=False,
        widget=forms.HiddenInput,
    )

    def __init__(self, *args: Any, people: list[Person] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.people = people or []
        for index, person in enumerate(self.people):
            if not person.candidates:
                continue
            options = [
                (str(player.pk), _("%(name)s, already on the site") % {"name": player.name})
                for player in person.candidates
            ]
            options.append((NEW_GUEST, _("A new guest named %(name)s") % {"name": person.name}))
            self.fields[f"player_{index}"] = forms.ChoiceField(
                label=person.name,
                choices=options,
                initial=str(person.choice.pk) if person.choice else NEW_GUEST,
            )

    def choice_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("player_")]

    def clean_levels(self) -> dict[str, list[dict[str, int | str]]]:
        try:
            return td_levels_read(self.cleaned_data.get("levels") or "")
        except ValueError:
            raise forms.ValidationError(
                _("The confirmation was not understood: upload the file again.")
            ) from None

    def season_arguments(self) -> dict[str, Any]:
        season = self.cleaned_data.get("season")
        return {
            "season_id": season.pk if season else None,
            "season_name": "" if season else self.cleaned_data.get("season_name", ""),
            "existing_events_only": self.cleaned_data.get("existing_events_only", False),
            "mapping": mapping_of(self.cleaned_data.get("mapping", "")),
            "date_order": self.cleaned_data.get("date_order", ""),
        }

    def choices(self) -> dict[str, int | None]:
        """The director's choices, by person key, as the import service takes them."""
        chosen: dict[str, int | None] = {}
        for index, person in enumerate(self.people):
            value = self.cleaned_data.get(f"player_{index}")
            if value is not None:
                chosen[person.key] = None if value == NEW_GUEST else int(value)
        return chosen


def mapping_of(text: str) -> dict[str, str]:
    """A mapping sent back in a hidden field (JSON), kept to what it may hold."""
    try:
        value = json.loads(text) if text else {}
    except ValueError:
        return {}
    if not isinstance(value, dict):
        return {}
    return {
        str(theirs)[:200]: ours
        for theirs, ours in value.items()
        if isinstance(ours, str) and ours in (*COLUMNS, IGNORE)
    }


class ImportMappingForm(forms.Form):
    """The mapping step: for each column of the file, which of ours it is, or ignored; and
    when the file's dates read two ways, which comes first."""

    content = forms.CharField(widget=forms.HiddenInput, strip=False, max_length=IMPORT_MAX_BYTES)
    season = forms.ModelChoiceField(Season.objects.all(), required=False, widget=forms.HiddenInput)
    season_name = forms.CharField(max_length=NAME_MAX, required=False, widget=forms.HiddenInput)
    existing_events_only = forms.BooleanField(required=False, widget=forms.HiddenInput)
    date_order = forms.ChoiceField(
        label=_("In the file's dates, what comes first?"),
        choices=[
            ("", _("The file says it (a day above 12)")),
            (DAY_FIRST, _("The day: 12/09/2025 is 12 September")),
            (MONTH_FIRST, _("The month: 09/12/2025 is 12 September")),
        ],
        required=False,
    )

    def __init__(
        self,
        *args: Any,
        header: list[str] | None = None,
        samples: list[list[str]] | None = None,
        remembered: dict[str, str] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.header = header or []
        self.samples = samples or []
        remembered = remembered or {}
        options = [(IGNORE, _("ignore"))] + [(column, column) for column in COLUMNS]
        for index, name in enumerate(self.header):
            own = " ".join(name.split()).lower()
            initial = remembered.get(name) or (own if own in COLUMNS else IGNORE)
            self.fields[f"column_{index}"] = forms.ChoiceField(
                label=name or "?", choices=options, initial=initial
            )

    def columns(self) -> list[tuple[forms.BoundField, list[str]]]:
        """Each column's choice, with the file's first values in it."""
        return [
            (self[f"column_{index}"], [row[index] for row in self.samples if index < len(row)])
            for index in range(len(self.header))
        ]

    def mapping(self) -> dict[str, str]:
        return {
            name: self.cleaned_data[f"column_{index}"]
            for index, name in enumerate(self.header)
            if self.cleaned_data.get(f"column_{index}")
        }

    def season_arguments(self) -> dict[str, Any]:
        season = self.cleaned_data.get("season")
        return {
            "season_id": season.pk if season else None,
            "season_name": "" if season else self.cleaned_data.get("season_name", ""),
            "existing_events_only": self.cleaned_data.get("existing_events_only", False),
        }
