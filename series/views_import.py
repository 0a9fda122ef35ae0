"""The director's import of a series' past from a CSV file: upload, see what it does,
confirm. And a season's results as one CSV, the file another site imports."""

from __future__ import annotations

import io
import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.files.uploadedfile import InMemoryUploadedFile
from django.core.files.uploadhandler import FileUploadHandler, SkipFile
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_http_methods

from core.permissions import director_required
from series import exports, selectors
from series.forms_import import ImportConfirmForm, ImportMappingForm, ImportUploadForm
from series.models import Season
from series.services.import_sources import import_source_read, problem_too_large
from series.services.imports import (
    COLUMNS,
    DATES_AMBIGUOUS,
    IGNORE,
    IMPORT_MAX_BYTES,
    ImportPlan,
    Problem,
    ResultsImportError,
    csv_rows,
    results_import_apply,
    results_import_preview,
)
from series.td_formula import td_formula_translate
from series.td_nights import td_levels_of

# Room for the form's other fields and the multipart boundaries around the file.
BODY_SLACK = 64 * 1024


class CappedUploadHandler(FileUploadHandler):
    """Keeps an upload in memory up to ``IMPORT_MAX_BYTES`` and drops a larger one as it
    arrives: a 50 MB file is neither held nor written to a temporary file."""

    def __init__(self, request: HttpRequest | None = None) -> None:
        super().__init__(request)
        self.too_large = False
        self.buffer = io.BytesIO()

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self.buffer = io.BytesIO()

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        if start + len(raw_data) > IMPORT_MAX_BYTES:
            self.too_large = True
            raise SkipFile
        self.buffer.write(raw_data)
        return None

    def file_complete(self, file_size: int) -> InMemoryUploadedFile:
        self.buffer.seek(0)
        return InMemoryUploadedFile(
            self.buffer,
            self.field_name,
            self.file_name,
            self.content_type,
            file_size,
            self.charset,
            self.content_type_extra,
        )


def _page(
    request: HttpRequest,
    form: ImportUploadForm,
    *,
    plan: ImportPlan | None = None,
    confirm: ImportConfirmForm | None = None,
    problems: list[Problem] | None = None,
    status: int = 200,
) -> HttpResponse:
    return render(
        request,
        "series/import.html",
        {
            "form": form,
            "plan": plan,
            "confirm": confirm,
            "problems": problems if problems is not None else (plan.problems if plan else []),
        },
        status=status,
    )


# The upload handlers must be set before anything reads the body, and the CSRF check reads
# it: so the check is made inside, once the handler is in place (Django's documented way).
@csrf_exempt
@director_required
def results_import(request: HttpRequest) -> HttpResponse:
    """The upload form; a file posted is read and shown as a dry run, with a confirmation."""
    if request.method == "POST":
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > IMPORT_MAX_BYTES + BODY_SLACK:
            # Refused before the body is read: a huge upload costs neither memory nor disk.
            return _page(request, ImportUploadForm(), problems=[problem_too_large()], status=413)
        request.upload_handlers = [CappedUploadHandler(request)]
    return _results_import(request)


@csrf_protect
@require_http_methods(["GET", "POST"])
def _results_import(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _page(request, ImportUploadForm())
    if request.POST.get("step") == "map":
        return _map_step(request)
    capped = [h for h in request.upload_handlers if isinstance(h, CappedUploadHandler)]
    if capped and capped[0].too_large:
        # The file was dropped as it came: the form is shown again with the director's
        # other choices, not bound to a post whose file would then be "required" too.
        kept = {name: request.POST.get(name) for name in ImportUploadForm.base_fields}
        kept.pop("file")
        return _page(
            request, ImportUploadForm(initial=kept), problems=[problem_too_large()], status=413
        )
    form = ImportUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _page(request, form, status=400)
    source = import_source_read(
        [
            (upload.name or "", upload.read(IMPORT_MAX_BYTES + 1))
            for upload in form.cleaned_data["file"]
        ]
    )
    arguments = form.season_arguments()
    if not source.problems and arguments["season_id"] is None and not arguments["season_name"]:
        names = source.season_names
        if len(names) == 1:
            arguments["season_name"] = names[0]
        else:
            source.problems.append(Problem(0, "", _("Choose a season, or name a new one.")))
    if source.problems:
        return _page(request, form, problems=source.problems, status=400)
    mapping: dict[str, str] = {}
    if not source.is_td:
        rows = csv_rows(source.text, SAMPLE_ROWS + 1)
        header = rows[0] if rows else []
        mapping = _remembered(request).get(_header_key(header), {})
        if header and _needs_mapping(header, mapping):
            return _mapping_page(request, source.text, arguments, header, rows[1:], mapping)
    plan = results_import_preview(source.text, mapping=mapping, **arguments)
    plan.nights, plan.source_notes = source.nights, source.notes
    plan.skipped, plan.formulas = (
        source.skipped,
        [(formula, td_formula_translate(formula)) for formula in source.formulas],
    )
    if plan.ask_date_order:
        rows = csv_rows(source.text, SAMPLE_ROWS + 1)
        return _mapping_page(request, source.text, arguments, rows[0], rows[1:], mapping, plan)
    return _preview(request, form, plan, source.text, arguments, mapping, "")


# The rows of the file shown under each column in the mapping step.
SAMPLE_ROWS = 3
# Headers whose mapping a director's session remembers.
REMEMBERED_HEADERS = 20


def _header_key(header: list[str]) -> str:
    return "|".join(" ".join(cell.split()).lower() for cell in header)[:2000]


def _remembered(request: HttpRequest) -> dict[str, dict[str, str]]:
    kept = request.session.get("import_mappings", {})
    return kept if isinstance(kept, dict) else {}


def _remember(request: HttpRequest, header: list[str], mapping: dict[str, str]) -> None:
    kept = {k: v for k, v in _remembered(request).items() if k != _header_key(header)}
    kept[_header_key(header)] = mapping
    request.session["import_mappings"] = dict(list(kept.items())[-REMEMBERED_HEADERS:])


def _needs_mapping(header: list[str], mapping: dict[str, str]) -> bool:
    for cell in header:
        own = mapping.get(cell) or " ".join(cell.split()).lower()
        if own != IGNORE and own not in COLUMNS:
            return True
    return False


def _mapping_page(
    request: HttpRequest,
    text: str,
    arguments: dict[str, Any],
    header: list[str],
    samples: list[list[str]],
    remembered: dict[str, str],
    plan: ImportPlan | None = None,
    form: ImportMappingForm | None = None,
    status: int = 200,
) -> HttpResponse:
    if form is None:
        form = ImportMappingForm(
            initial={
                "content": text,
                "season": arguments["season_id"],
                "season_name": arguments["season_name"],
                "existing_events_only": arguments["existing_events_only"],
            },
            header=header,
            samples=samples,
            remembered=remembered,
        )
    problems = [p for p in plan.problems if p.column != DATES_AMBIGUOUS] if plan else []
    return render(
        request,
        "series/import.html",
        {
            "form": ImportUploadForm(),
            "mapping": form,
            "ask_date_order": bool(plan and plan.ask_date_order),
            "problems": problems,
        },
        status=status,
    )


def _map_step(request: HttpRequest) -> HttpResponse:
    """The mapping step posted: the file's columns named, the dates' order said."""
    text = request.POST.get("content", "")
    rows = csv_rows(text, SAMPLE_ROWS + 1)
    header, samples = (rows[0], rows[1:]) if rows else ([], [])
    form = ImportMappingForm(request.POST, header=header, samples=samples)
    if not header or not form.is_valid():
        problem = Problem(0, "", _("The mapping was not understood: upload the file again."))
        return _page(request, ImportUploadForm(), problems=[problem], status=400)
    mapping = form.mapping()
    arguments = form.season_arguments()
    date_order = form.cleaned_data.get("date_order", "")
    _remember(request, header, mapping)
    plan = results_import_preview(text, mapping=mapping, date_order=date_order, **arguments)
    if plan.problems:
        return _mapping_page(
            request, text, arguments, header, samples, mapping, plan, form, status=400
        )
    return _preview(request, ImportUploadForm(), plan, text, arguments, mapping, date_order)


def _preview(
    request: HttpRequest,
    form: ImportUploadForm,
    plan: ImportPlan,
    text: str,
    arguments: dict[str, Any],
    mapping: dict[str, str],
    date_order: str,
) -> HttpResponse:
    if plan.problems:
        return _page(request, form, plan=plan, status=400)
    confirm = ImportConfirmForm(
        initial={
            "content": text,
            "season": arguments["season_id"],
            "season_name": arguments["season_name"],
            "existing_events_only": arguments["existing_events_only"],
            "mapping": json.dumps(mapping, ensure_ascii=False),
            "date_order": date_order,
            "levels": json.dumps(td_levels_of(plan.nights), separators=(",", ":")),
        },
        people=plan.people,
    )
    return _page(request, ImportUploadForm(), plan=plan, confirm=confirm)


@director_required
@require_http_methods(["GET", "POST"])
def results_import_confirm(request: HttpRequest) -> HttpResponse:
    """Import the file the preview showed, with the director's choices of players (opened
    without a post, as from a bookmark: the upload form)."""
    if request.method != "POST":
        return _page(request, ImportUploadForm())
    base = ImportConfirmForm(request.POST)
    if not base.is_valid():
        problem = Problem(0, "", _("The confirmation was not understood: upload the file again."))
        return _page(request, ImportUploadForm(), problems=[problem], status=400)
    content = base.cleaned_data["content"].encode()
    arguments = base.season_arguments()
    plan = results_import_preview(content, **arguments)
    confirm = ImportConfirmForm(request.POST, people=plan.people)
    if not confirm.is_valid():
        return _page(request, ImportUploadForm(), plan=plan, confirm=confirm, status=400)
    choices = confirm.choices()
    try:
        outcome = results_import_apply(
            content,
            choices=choices,
            levels=base.cleaned_data["levels"],
            by=request.user,
            **arguments,
        )
    except ResultsImportError:
        plan = results_import_preview(content, choices=choices, **arguments)
        return _page(request, ImportUploadForm(), plan=plan, status=400)
    if outcome.results_created:
        messages.success(
            request,
            _(
                "Imported into %(season)s. Events created: %(events)s; new players: "
                "%(players)s; results: %(results)s. The standings follow in a moment."
            )
            % {
                "season": outcome.season.name,
                "events": outcome.events_created,
                "players": outcome.players_created,
                "results": outcome.results_created,
            },
        )
        for kept in outcome.kept:
            messages.info(request, kept)
    else:
        messages.info(
            request,
            _("Every result of the file is on the site already: nothing changed."),
        )
    return redirect("series:standings", season_id=outcome.season.pk)


@require_GET
def season_results_csv(request: HttpRequest, season_id: int) -> HttpResponse:
    """The season's finished events' results in one file (what ``import_results`` reads)."""
    season = get_object_or_404(Season, pk=season_id)
    if not selectors.names_shown_to(season, request.user):
        return redirect_to_login(request.get_full_path())
    response = HttpResponse(
        exports.season_results_csv(season), content_type="text/csv; charset=utf-8"
    )
    name = slugify(season.name) or f"season-{season.pk}"
    response["Content-Disposition"] = f'attachment; filename="{name}-results.csv"'
    return response
