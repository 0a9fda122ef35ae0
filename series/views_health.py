"""The health page, ``/health/``: can this process serve the site, and is its background
work running?

JSON with one check per part (``series.services.health``): 200 when every part answers,
503 when one does not, with ``failing`` naming them, so a process manager, a monitor or a
proxy can act on the status alone and a person can read why. ``?check=database&check=
channel_layer`` asks about some parts only: a proxy that takes a web process out of its pool
asks about what that process needs, and keeps sending it pages while only the worker or beat
is away (the pages carry on without them).

``worker`` at the top level repeats the worker's check in the shape the page had before the
checks, for monitors that read it.
"""

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from series.services.health import CHECKS, Check, health_report


def _check_json(check: Check) -> dict[str, object]:
    return {"ok": check.ok, "ms": check.milliseconds, "error": check.error, **check.facts}


@never_cache
@require_GET
async def health(request: HttpRequest) -> JsonResponse:
    asked = request.GET.getlist("check")
    unknown = sorted(set(asked) - set(CHECKS))
    if unknown:
        message = _("Unknown check %(names)s; the checks are %(checks)s.") % {
            "names": ", ".join(unknown),
            "checks": ", ".join(CHECKS),
        }
        return JsonResponse({"error": message}, status=400)
    report = await health_report(asked or CHECKS)
    body: dict[str, object] = {
        "status": "ok" if report.ok else "failing",
        "failing": report.failing,
        "checks": {name: _check_json(check) for name, check in report.checks.items()},
    }
    worker = report.checks.get("worker")
    if worker is not None:
        body["worker"] = {
            key: worker.facts.get(key)
            for key in ("status", "hostname", "last_seen", "seconds_ago", "text")
        }
    return JsonResponse(body, status=200 if report.ok else 503)
