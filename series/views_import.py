"""The director's import of a series' past from a CSV file: upload, see what it does,
confirm. And a season's results as one CSV, the file another site imports."""

from __future__ import annotations

import io
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
from series.forms_import import ImportConfirmForm, ImportUploadForm
from series.models import Season
from series.services.imports import (
    IMPORT_MAX_BYTES,
    ImportPlan,
    Problem,
    ResultsImportError,
    results_import_apply,
    results_import_preview,
)

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


def _too_large() -> Problem:
    return Problem(
        0,
        "",
        _("The file is larger than %(size)s MB: split it into seasons.")
        % {"size": IMPORT_MAX_BYTES // (1024 * 1024)},
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
            return _page(request, ImportUploadForm(), problems=[_too_large()], status=413)
        request.upload_handlers = [CappedUploadHandler(request)]
    return _results_import(request)


@csrf_protect
@require_http_methods(["GET", "POST"])
def _results_import(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _page(request, ImportUploadForm())
    form = ImportUploadForm(request.POST, request.FILES)
    capped = [h for h in request.upload_handlers if isinstance(h, CappedUploadHandler)]
    if capped and capped[0].too_large:
        return _page(request, form, problems=[_too_large()], status=413)
    if not form.is_valid():
        return _page(request, form, status=400)
    data = form.cleaned_data["file"].read(IMPORT_MAX_BYTES + 1)
    arguments = form.season_arguments()
    plan = results_import_preview(data, **arguments)
    if plan.problems:
        return _page(request, form, plan=plan, status=400)
    confirm = ImportConfirmForm(
        initial={
            "content": data.decode("utf-8-sig"),
            "season": arguments["season_id"],
            "season_name": arguments["season_name"],
            "existing_events_only": arguments["existing_events_only"],
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
        outcome = results_import_apply(content, choices=choices, **arguments)
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
