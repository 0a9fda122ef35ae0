"""Serve the site with daphne: HTTP and WebSockets, plus Celery when embedded.

``make run`` uses this. In embedded mode (no REDIS_URL) it also runs the Celery worker and
beat in this process. In distributed mode it serves only; start the worker and beat apart
(see the Procfile).
"""

import logging
import os
import sys
from typing import Any

from daphne.cli import CommandLineInterface
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from config.embedded import embedded_celery_start
from core.site_address import site_url_for
from series.services.backups import BackupError, serve_lock
from tables.services import SERVER_NAME, servers_forget_gone


class Command(BaseCommand):
    help = "Serve HTTP and WebSockets with daphne (and Celery in embedded mode)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)

    def handle(self, *args: Any, host: str, port: int, **options: Any) -> None:
        # Held for the server's life (the kernel drops it however the process ends): a
        # restore takes the same lock exclusively, so it cannot replace the database under
        # a serving site, and the site cannot start in the middle of a restore.
        try:
            with serve_lock():
                self._serve(host, port)
        except BackupError as error:
            raise CommandError(str(error)) from None
        process_end()

    def _serve(self, host: str, port: int) -> None:
        # The links in e-mails and the TV's QR code: the address served on, unless SITE_URL
        # says otherwise (the embedded worker runs in this process and reads the same).
        if not os.environ.get("SITE_URL", "").strip():
            settings.SITE_URL = site_url_for(host, port)
            os.environ["SITE_URL"] = settings.SITE_URL
        embedded = None
        if settings.EMBEDDED:
            # The only process: sockets counted by an earlier run that was killed are gone.
            servers_forget_gone(all_but=SERVER_NAME)
            embedded = embedded_celery_start()
            mode = "embedded mode: in-memory channel layer and broker, Celery in this process"
        else:
            mode = "distributed mode: channels-redis and the Redis broker"
        self.stdout.write(self.style.SUCCESS(f"Serving the site at {settings.SITE_URL}/ ({mode})"))
        self.stdout.flush()
        try:
            CommandLineInterface().run(["-b", host, "-p", str(port), "config.asgi:application"])
        finally:
            if embedded is not None:
                embedded.stop()


def process_end() -> None:
    """End the process once the server and the embedded Celery have stopped.

    A request still in flight when the server stops can leave a thread waiting for ever on
    the event loop that has stopped: under ASGI, Django runs a sync middleware in a thread
    that calls back into the loop for the rest of the request. The interpreter waits for
    such a thread at exit, so the server never ended (a Ctrl-C that hung, a SIGTERM waited
    out until a SIGKILL). Nothing is left to do: every change was committed or rolled back
    in its own transaction, as after a SIGKILL, which the tables survive.
    """
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
