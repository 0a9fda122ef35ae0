"""The blind-structure editor for directors: the list, the four ways to start one, and the
editor with its htmx rows and clock preview.

Every form posts and redirects without JavaScript; with htmx the same forms swap the rows
fragment (`_structure_rows.html`) or one row in place. Directors only
(`core.permissions.director_required`): players get 403.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from django.views.generic import RedirectView
from django_htmx.http import reswap, retarget

from core import request_values
from core.permissions import director_required
from tournaments import blind_structures as pure
from tournaments.blind_structure_forms import (
    BlankBlindStructureForm,
    BlindStructureSettingsForm,
    CopyBlindStructureForm,
    GeneratorForm,
    PreviewForm,
    RowForm,
    add_problems,
)
from tournaments.models import BlindStructure
from tournaments.services import blind_structures as services


@director_required
def blind_structure_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "tournaments/blind_structure_list.html",
        {
            "templates": services.blind_structures_templates(),
            "mine": services.blind_structures_of(request.user),
            "others": services.blind_structures_of_others(request.user),
            "last_used": services.blind_structure_last_used(request.user),
        },
    )


# ---------------------------------------------------------------------------------------------
# Starting a blind structure: blank, a copy (of a template or any other), the last used, or
# the generator's proposal.


def _new_forms(request: HttpRequest, source: str | None = None) -> dict[str, Any]:
    data = request.POST if request.method == "POST" else None
    defaults = services.blind_structure_generator_defaults()
    generator_initial = {
        **defaults,
        "name": _("My blind structure"),
        "betting": pure.betting_of(for_limit=defaults.pop("for_limit")).value,
    }
    return {
        "blank_form": BlankBlindStructureForm(
            data if source == "blank" else None,
            initial={"chip_set": generator_initial["chip_set"]},
            prefix="blank",
        ),
        "template_form": CopyBlindStructureForm(
            data if source == "template" else None, templates_only=True, prefix="template"
        ),
        "generator_form": GeneratorForm(
            data if source == "generate" else None, initial=generator_initial, prefix="gen"
        ),
        "last_used": services.blind_structure_last_used(request.user),
        "source": source,
    }


def _create(request: HttpRequest, source: str, forms: dict[str, Any]) -> BlindStructure | None:
    """Run the chosen way of starting a blind structure; None when its form has errors."""
    if source == "blank":
        form = forms["blank_form"]
        if form.is_valid():
            return services.blind_structure_create(
                by=request.user,
                name=form.cleaned_data["name"],
                for_limit=pure.is_for_limit(form.cleaned_data["betting"]),
                chip_set=form.cleaned_data["chip_set"],
            )
        return None
    if source == "template":
        form = forms["template_form"]
        if form.is_valid():
            return services.blind_structure_copy(
                form.cleaned_data["blind_structure"].pk,
                by=request.user,
                name=form.cleaned_data["name"] or None,
            )
        return None
    if source == "generate":
        form = forms["generator_form"]
        if not form.is_valid():
            return None
        data = form.cleaned_data
        try:
            return services.blind_structure_generate(
                by=request.user,
                name=data["name"],
                starting_stack=data["starting_stack"],
                players=data["players"],
                hours=data["hours"],
                chip_set=data["chip_set"],
                level_minutes=data["level_minutes"],
                break_every=data["break_every"],
                break_minutes=data["break_minutes"],
                ante_kind=data["ante_kind"],
                for_limit=pure.is_for_limit(data["betting"]),
            )
        except pure.BlindStructureError as error:
            add_problems(form, error)
            return None
    raise Http404(_("Unknown way to start a blind structure."))


@director_required
@require_http_methods(["GET", "POST"])
def blind_structure_new(request: HttpRequest) -> HttpResponse:
    """Start a blind structure: blank, from a template, a copy of one (``blind_structure`` posted),
    the one used last time, or the generator's proposal."""
    if request.method == "GET":
        return render(request, "tournaments/blind_structure_new.html", _new_forms(request))
    source = request.POST.get("source", "")
    try:
        if source in ("copy", "last"):
            if source == "last":
                last = services.blind_structure_last_used(request.user)
                if last is None:
                    raise pure.BlindStructureError(
                        _("No tournament has used a blind structure yet.")
                    )
                blind_structure_id = last.pk
            else:
                blind_structure_id = _posted_id(request, "blind_structure")
            try:
                name = request_values.text(request.POST.get("name"), max_length=services.NAME_MAX)
            except request_values.BadValue as error:
                raise pure.BlindStructureError(error.message) from None
            blind_structure = services.blind_structure_copy(
                blind_structure_id, by=request.user, name=name or None
            )
        else:
            forms = _new_forms(request, source)
            created = _create(request, source, forms)
            if created is None:
                return render(request, "tournaments/blind_structure_new.html", forms, status=400)
            blind_structure = created
            if source == "generate":
                _remember_field(request, blind_structure, forms["generator_form"].cleaned_data)
    except BlindStructure.DoesNotExist:
        raise Http404(_("No such blind structure.")) from None
    except pure.BlindStructureError as error:
        for message in error.messages:
            messages.error(request, message)
        return redirect("tournaments:blind_structure_list")
    messages.success(request, _("“%(name)s” is ready to edit.") % {"name": blind_structure.name})
    return redirect("tournaments:blind_structure_edit", blind_structure_id=blind_structure.pk)


# The field typed in the generator, by blind structure id: the proposal's clock preview is for
# the players and stack the director asked about, not the next event's, for as long as this
# session edits it (the editor's own posts come back to its plain address, so the query
# string could not carry it). The newest few blind structures only, so the session stays small.
GENERATED_FIELD = "structures_generated_field"
GENERATED_KEPT = 10


def _remember_field(
    request: HttpRequest, blind_structure: BlindStructure, data: dict[str, Any]
) -> None:
    fields = {
        key: value
        for key, value in request.session.get(GENERATED_FIELD, {}).items()
        if key != str(blind_structure.pk)
    }
    fields[str(blind_structure.pk)] = {"players": data["players"], "stack": data["starting_stack"]}
    request.session[GENERATED_FIELD] = dict(list(fields.items())[-GENERATED_KEPT:])


def _remembered_field(
    request: HttpRequest, blind_structure: BlindStructure
) -> tuple[int, int] | None:
    field = request.session.get(GENERATED_FIELD, {}).get(str(blind_structure.pk))
    if not isinstance(field, dict):
        return None
    players, stack = field.get("players"), field.get("stack")
    if not isinstance(players, int) or not isinstance(stack, int):
        return None
    return players, stack


def _posted_id(request: HttpRequest, name: str) -> int:
    blind_structure_id = request_values.id_or_none(request.POST.get(name))
    if blind_structure_id is None:
        raise Http404(_("No such blind structure."))
    return blind_structure_id


# ---------------------------------------------------------------------------------------------
# The editor


def _preview_form(
    request: HttpRequest, blind_structure: BlindStructure
) -> tuple[PreviewForm, services.PreviewSettings, bool]:
    """The preview's start and field: as asked (GET, or carried along with an htmx post),
    else the field typed in the generator that proposed this blind structure, else the next
    event's (`blind_structure_preview_settings`). The flag says whether the generator's field is
    the default."""
    settings = services.blind_structure_preview_settings(blind_structure)
    typed = _remembered_field(request, blind_structure)
    if typed is not None:
        settings = replace(settings, players=typed[0], starting_stack=typed[1])
    initial = PreviewForm.initial_for(settings.start, settings.players, settings.starting_stack)
    source = request.POST if request.method == "POST" else request.GET
    if any(name in source for name in initial):
        return PreviewForm(source, initial=initial), settings, typed is not None
    return PreviewForm(initial=initial), settings, typed is not None


def _editor_context(
    request: HttpRequest,
    blind_structure: BlindStructure,
    *,
    editing: int | None = None,
    row_form: RowForm | None = None,
    errors: list[str] | None = None,
) -> dict[str, Any]:
    rows = services.blind_structure_rows(blind_structure)
    preview_form, settings, from_generator = _preview_form(request, blind_structure)
    if preview_form.is_bound and preview_form.is_valid():
        start = preview_form.cleaned_data["preview_start"]
        players = preview_form.cleaned_data["preview_players"]
        stack = preview_form.cleaned_data["preview_stack"]
    else:
        start, players, stack = settings.start, settings.players, settings.starting_stack
    timed = pure.preview(rows, start, chips_total=players * stack)
    in_play = pure.chips_in_play(rows, blind_structure.chip_set)
    lock_reason = services.blind_structure_lock_reason(blind_structure)
    items = []
    for timed_row, chips in zip(timed.rows, in_play, strict=True):
        row = timed_row.row
        form = None
        if editing == row.id and lock_reason is None:
            form = row_form or RowForm(row=row, for_limit=blind_structure.for_limit, chips=chips)
        items.append(
            {
                "timed": timed_row,
                "row": row,
                "label": pure.row_label(rows, timed_row.index),
                "first": timed_row.index == 0,
                "last": timed_row.index == len(rows) - 1,
                "finish": timed_row.index == timed.finish_index,
                "form": form,
            }
        )
    levels = sum(1 for row in rows if not row.is_break)
    return {
        "blind_structure": blind_structure,
        "items": items,
        "preview": timed,
        "preview_form": preview_form,
        "preview_event": settings.event,
        "preview_from_generator": from_generator,
        "players": players,
        "stack": stack,
        "chips_total": players * stack,
        "levels_count": levels,
        "breaks_count": len(rows) - levels,
        "expected_length": (
            services.duration_text(
                int((timed.expected_finish - timed.starts_at).total_seconds() // 60)
            )
            if timed.expected_finish
            else None
        ),
        "total_length": services.duration_text(
            int((timed.ends_at - timed.starts_at).total_seconds() // 60)
        ),
        "lock_reason": lock_reason,
        "editable": lock_reason is None,
        "errors": errors or [],
        "settings_form": BlindStructureSettingsForm(
            initial={
                "name": blind_structure.name,
                "description": blind_structure.description,
                "betting": pure.betting_of(for_limit=blind_structure.for_limit).value,
                "chip_set": blind_structure.chip_set,
            }
        ),
    }


def _blind_structure_or_404(blind_structure_id: int) -> BlindStructure:
    return get_object_or_404(BlindStructure, pk=blind_structure_id)


def _rows_response(
    request: HttpRequest, blind_structure: BlindStructure, errors: list[str] | None = None
) -> HttpResponse:
    """After an edit: the rows fragment for htmx, a redirect back to the editor otherwise."""
    if request.htmx:
        return render(
            request,
            "tournaments/_blind_structure_rows.html",
            _editor_context(request, blind_structure, errors=errors),
        )
    for message in errors or []:
        messages.error(request, message)
    return redirect(reverse("tournaments:blind_structure_edit", args=[blind_structure.pk]))


@director_required
@require_http_methods(["GET", "POST"])
def blind_structure_edit(request: HttpRequest, blind_structure_id: int) -> HttpResponse:
    """The editor page; with htmx, GET returns the rows fragment (a new preview start).

    Posts: ``op`` = ``add-level`` or ``add-break`` (at the end), ``settings`` (name,
    description, betting, chip set) or ``delete``.
    """
    blind_structure = _blind_structure_or_404(blind_structure_id)
    if request.method == "GET":
        context = _editor_context(request, blind_structure)
        if request.htmx:
            return render(request, "tournaments/_blind_structure_rows.html", context)
        return render(request, "tournaments/blind_structure_edit.html", context)

    op = request.POST.get("op", "")
    if op in ("add-level", "add-break"):
        kind = pure.RowKind.BREAK if op == "add-break" else pure.RowKind.LEVEL
        try:
            services.blind_structure_level_add(blind_structure.pk, kind=kind)
        except pure.BlindStructureError as error:
            return _rows_response(request, blind_structure, error.messages)
        return _rows_response(request, blind_structure)
    if op == "settings":
        return _settings_post(request, blind_structure)
    if op == "delete":
        try:
            services.blind_structure_delete(blind_structure.pk)
        except pure.BlindStructureError as error:
            for message in error.messages:
                messages.error(request, message)
            return redirect(
                "tournaments:blind_structure_edit", blind_structure_id=blind_structure.pk
            )
        messages.success(request, _("“%(name)s” was deleted.") % {"name": blind_structure.name})
        return redirect("tournaments:blind_structure_list")
    return _rows_response(request, blind_structure, [_("Unknown change; reload the page.")])


def _settings_post(request: HttpRequest, blind_structure: BlindStructure) -> HttpResponse:
    form = BlindStructureSettingsForm(request.POST)
    if form.is_valid():
        try:
            services.blind_structure_update(
                blind_structure.pk,
                name=form.cleaned_data["name"],
                description=form.cleaned_data["description"],
                chip_set=form.cleaned_data["chip_set"],
                for_limit=pure.is_for_limit(form.cleaned_data["betting"]),
            )
        except pure.BlindStructureError as error:
            add_problems(form, error)
        else:
            messages.success(request, _("Settings saved."))
            return redirect(
                "tournaments:blind_structure_edit", blind_structure_id=blind_structure.pk
            )
    blind_structure.refresh_from_db()
    context = _editor_context(request, blind_structure)
    context["settings_form"] = form
    context["settings_open"] = True
    return render(request, "tournaments/blind_structure_edit.html", context, status=400)


ROW_MOVES = {"up": -1, "down": 1}


@director_required
@require_http_methods(["GET", "POST"])
def blind_structure_row(request: HttpRequest, blind_structure_id: int, row_id: int) -> HttpResponse:
    """One row. GET: the row (``?edit=1``: its form in place); without htmx, the editor
    page with that row open. Posts: ``op`` = ``save``, ``remove``, ``up``, ``down``,
    ``add-level`` or ``add-break`` (inserted below this row)."""
    blind_structure = _blind_structure_or_404(blind_structure_id)
    level = get_object_or_404(blind_structure.levels, pk=row_id)
    editing = request.GET.get("edit") == "1"
    if request.method == "GET":
        context = _editor_context(request, blind_structure, editing=level.pk if editing else None)
        if not request.htmx:
            return render(request, "tournaments/blind_structure_edit.html", context)
        item = next(item for item in context["items"] if item["row"].id == level.pk)
        return render(request, "tournaments/_blind_structure_row.html", {**context, "item": item})

    op = request.POST.get("op", "")
    try:
        if op == "save":
            return _row_save(request, blind_structure, level.pk)
        if op == "remove":
            services.blind_structure_level_remove(blind_structure.pk, level.pk)
        elif op in ROW_MOVES:
            services.blind_structure_level_move(blind_structure.pk, level.pk, offset=ROW_MOVES[op])
        elif op in ("add-level", "add-break"):
            kind = pure.RowKind.BREAK if op == "add-break" else pure.RowKind.LEVEL
            services.blind_structure_level_add(blind_structure.pk, kind=kind, after=level.pk)
        else:
            return _rows_response(request, blind_structure, [_("Unknown change; reload the page.")])
    except pure.BlindStructureError as error:
        return _rows_response(request, blind_structure, error.messages)
    return _rows_response(request, blind_structure)


def _row_save(request: HttpRequest, blind_structure: BlindStructure, row_id: int) -> HttpResponse:
    rows = services.blind_structure_rows(blind_structure)
    index = next((i for i, row in enumerate(rows) if row.id == row_id), None)
    if index is None:  # removed by another director since this page was drawn
        return _rows_response(
            request, blind_structure, [_("That row is no longer in the blind structure.")]
        )
    chips = pure.chips_in_play(rows, blind_structure.chip_set)[index]
    form = RowForm(request.POST, row=rows[index], for_limit=blind_structure.for_limit, chips=chips)
    if form.is_valid():
        try:
            services.blind_structure_level_update(blind_structure.pk, row_id, **form.changes())
        except pure.BlindStructureError as error:
            add_problems(form, error, index)
        else:
            return _rows_response(request, blind_structure)
    context = _editor_context(request, blind_structure, editing=row_id, row_form=form)
    if request.htmx:
        item = next(item for item in context["items"] if item["row"].id == row_id)
        response = render(
            request, "tournaments/_blind_structure_row.html", {**context, "item": item}
        )
        return reswap(retarget(response, f"#row-{row_id}"), "outerHTML")
    return render(request, "tournaments/blind_structure_edit.html", context, status=400)


urlpatterns = [
    path("blind-structures/", blind_structure_list, name="blind_structure_list"),
    path("blind-structures/new/", blind_structure_new, name="blind_structure_new"),
    path(
        "blind-structures/<int:blind_structure_id>/",
        blind_structure_edit,
        name="blind_structure_edit",
    ),
    path(
        "blind-structures/<int:blind_structure_id>/rows/<int:row_id>/",
        blind_structure_row,
        name="blind_structure_row",
    ),
    # The addresses before "blind structure" was spelt out: bookmarks and printed links keep
    # working (a GET is sent on; a form is always posted to the new address).
    *(
        path(
            old,
            RedirectView.as_view(
                pattern_name=f"tournaments:blind_structure_{name}",
                permanent=True,
                query_string=True,
            ),
            name=f"blind_structure_{name}_moved",
        )
        for old, name in (
            ("structures/", "list"),
            ("structures/new/", "new"),
            ("structures/<int:blind_structure_id>/", "edit"),
            ("structures/<int:blind_structure_id>/rows/<int:row_id>/", "row"),
        )
    ),
]
