"""The embedded site's mail server: none. Every message is written to ``MAIL_DIR``
(``var/mail/`` by default) as one ``.eml`` file, which any mail program opens, so a host
sees what the site sent without setting up SMTP.

Django's own file backend appends every message of a connection to one log file; one file
per message is what a person (or a test) can open and count. A file is written under a
temporary name and renamed, so a reader never sees half a message.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.core.mail.backends.base import BaseEmailBackend
from django.utils import timezone


class EmlFileBackend(BaseEmailBackend):
    def __init__(self, *, file_path: str | Path | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.directory = Path(file_path or settings.MAIL_DIR)

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        sent = 0
        for message in email_messages:
            if not message.recipients():
                continue
            try:
                self._write(message)
            except OSError:
                if not self.fail_silently:
                    raise
            else:
                sent += 1
        return sent

    def _write(self, message: EmailMessage) -> Path:
        self.directory.mkdir(parents=True, exist_ok=True)
        # The time first, so a directory listing reads in the order they were sent; the
        # random part keeps two messages of the same second apart.
        name = f"{timezone.now():%Y%m%d-%H%M%S}-{uuid.uuid4().hex[:12]}.eml"
        path = self.directory / name
        partial = self.directory / f".{name}.part"
        partial.write_bytes(message.message().as_bytes())
        os.replace(partial, path)
        return path
