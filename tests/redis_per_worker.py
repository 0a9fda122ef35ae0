"""Give each pytest-xdist worker a Redis database of its own.

With ``REDIS_URL`` set, the workers would otherwise share one database: one worker's
``cache.clear()`` (a FLUSHDB) would wipe the other's throttle counters, and their tables and
clocks, numbered alike in their own PostgreSQL databases, would share channel groups and
locks. Worker ``gwN`` uses the database after the one ``REDIS_URL`` names, plus N. It runs
before pytest-django loads the settings, so the servers the tests start inherit it too.
"""

import os
from urllib.parse import urlsplit, urlunsplit

import pytest


def worker_redis_url(url: str, worker: str) -> str:
    """``redis://host:port/db`` moved to database ``db + 1 + N`` for worker ``gwN``."""
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    index = int(worker.removeprefix("gw"))
    return urlunsplit((parts.scheme, parts.netloc, f"/{base + 1 + index}", parts.query, ""))


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests() -> None:
    url = os.environ.get("REDIS_URL", "").strip()
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if url and worker.startswith("gw"):
        os.environ["REDIS_URL"] = worker_redis_url(url, worker)
