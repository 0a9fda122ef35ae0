"""The admin is for a superuser's repairs, typed in by hand: no page a director, a host or a
player reads links to it, a superuser's own pages included (everything a host does has a
page of its own)."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

TEMPLATES = Path(settings.BASE_DIR) / "templates"
# Links to the admin: its URL names, its address, an object's admin page.
ADMIN_LINK = re.compile(r"""url ['"]admin:|/admin/|get_admin_url""")


def test_no_template_links_to_the_admin() -> None:
    found = []
    for path in TEMPLATES.rglob("*.html"):
        if path.relative_to(TEMPLATES).parts[0] == "admin":
            continue  # the admin's own pages
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if ADMIN_LINK.search(line):
                found.append(f"{path.relative_to(TEMPLATES)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)


def test_the_dashboard_links_to_the_admin_for_nobody(director_client: Client) -> None:
    assert "/admin/" not in director_client.get(reverse("director_dashboard")).content.decode()
    root = User.objects.create_superuser("root", password="x-y-z-1-2-3")
    client = Client()
    client.force_login(root)
    assert "/admin/" not in client.get(reverse("director_dashboard")).content.decode()
