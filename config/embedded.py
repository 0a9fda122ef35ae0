"""Embedded mode: the Celery worker and beat as threads inside the web process.

With no REDIS_URL the broker is Kombu's in-memory transport, which only exists inside one
process, so the worker and beat must live in the process that serves the site. They run as
daemon threads: the worker with the ``solo`` pool (tasks run one at a time, which is plenty
for one home game), beat with the non-persistent scheduler (periodic tasks are sweeps that
derive their work from the database, so nothing is lost by forgetting their last run).

Only ``manage.py serve`` starts them; tests and other management commands never do. As in
any worker process, ``AsyncResult.get()`` then refuses to block: views schedule tasks and
move on, they never wait for one.
"""

import logging
import socket
import threading
from dataclasses import dataclass

from celery.beat import EmbeddedService
from celery.worker import WorkController

from config.celery import app

logger = logging.getLogger(__name__)


@dataclass
class EmbeddedCelery:
    worker: WorkController
    worker_thread: threading.Thread
    beat: threading.Thread

    def stop(self) -> None:
        # Each notices the stop at its next wake-up (beat at its next sweep, the worker when
        # its poll of the queue returns, each within a second or two): stopped together,
        # the server ends in one wait instead of two.
        beat_stop = threading.Thread(target=self.beat.stop, name="celery-beat-stop")  # type: ignore[attr-defined]
        beat_stop.start()
        self.worker.stop(in_sighandler=False)
        self.worker_thread.join(timeout=5)
        beat_stop.join(timeout=5)


def embedded_celery_start() -> EmbeddedCelery:
    # Name the queues: a worker started with queues narrows the app's queue selection for
    # every later worker in the process, so relying on the default would be order-dependent.
    configured = app.conf.task_queues
    queues = [q.name for q in configured] if configured else [app.conf.task_default_queue]
    worker = WorkController(
        app=app,
        hostname=f"embedded@{socket.gethostname()}",
        pool="solo",
        concurrency=1,
        queues=queues,
        without_heartbeat=True,
        without_mingle=True,
        without_gossip=True,
    )
    worker_thread = threading.Thread(target=worker.start, name="celery-worker", daemon=True)
    worker_thread.start()
    beat = EmbeddedService(app, thread=True, scheduler_cls="celery.beat:Scheduler")
    beat.start()
    logger.info("Embedded mode: Celery worker and beat running in this process.")
    return EmbeddedCelery(worker=worker, worker_thread=worker_thread, beat=beat)
