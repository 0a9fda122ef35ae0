"""`make run` gives the demo season's events their tournaments."""

from io import StringIO

import pytest
from django.core.management import call_command

from tournaments.models import EntryState, Tournament

pytestmark = pytest.mark.django_db


def test_the_demo_season_gets_its_tournaments_once() -> None:
    call_command("load_demo", stdout=StringIO())
    out = StringIO()
    call_command("load_demo_tournaments", stdout=out)
    assert Tournament.objects.count() == 6
    first = Tournament.objects.order_by("event__starts_at").first()
    assert first.entries.filter(state=EntryState.REGISTERED).count() == 6
    call_command("load_demo_tournaments", stdout=out)
    assert Tournament.objects.count() == 6
    assert "already exist" in out.getvalue()
