"""The health page, ``/health/``: does this process answer, does Redis, does a worker?

Always 200 while the process answers, so a load balancer keeps sending it pages when only
the worker or Redis is away (the pages carry on without them); ``status`` is "degraded"
then, and ``worker.text`` says since when no worker has run a task.
"""

from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from series.services.health import health_report


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    report = health_report()
    worker = report.worker
    if worker.seen_at is None:
        worker_status = "never-seen"
    else:
        worker_status = "silent" if worker.silent else "ok"
    redis = {None: "embedded", True: "ok", False: "down"}[report.redis_up]
    return JsonResponse(
        {
            "status": "degraded" if report.degraded else "ok",
            "worker": {
                "status": worker_status,
                "hostname": worker.hostname,
                "last_seen": worker.seen_at.isoformat() if worker.seen_at else None,
                "seconds_ago": worker.seconds_ago,
                "text": worker.text,
            },
            "redis": redis,
        }
    )
