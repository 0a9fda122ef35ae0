"""What a socket reads when it opens, in one call (``services.socket_open``)."""

from __future__ import annotations

import json

from django.contrib.auth.models import AnonymousUser, User

from tables import services
from tables.alerts import REMOVED, alert_add
from tables.models import Seat, Table
from tables.services.servers import SERVER_NAME
from tests.tables.conftest import make_players


def test_a_seated_player_is_counted_before_the_snapshot_is_read(
    seated_table: Table, players: list[User]
) -> None:
    ann = players[0]
    opened = services.socket_open(seated_table.pk, ann, {})
    assert opened.watchable and opened.counted
    assert opened.created_at == seated_table.created_at
    assert Seat.objects.get(table=seated_table, user=ann).sockets == {SERVER_NAME: 1}
    snapshot = json.loads(opened.text)
    assert snapshot["version"] == opened.version
    ann_seat = next(s for s in snapshot["seats"] if (s["player"] or {}).get("name") == "ann")
    assert ann_seat["connected"] is True


def test_a_spectator_is_shown_the_table_and_counted_nowhere(seated_table: Table) -> None:
    opened = services.socket_open(seated_table.pk, AnonymousUser(), {})
    assert opened.watchable and not opened.counted
    assert opened.alerts == [] and opened.elsewhere is None
    assert not any(Seat.objects.filter(table=seated_table).values_list("sockets", flat=True))


def test_a_private_table_opens_nothing_without_its_invite(seated_table: Table) -> None:
    Table.objects.filter(pk=seated_table.pk).update(is_private=True)
    (stranger,) = make_players("zed")
    opened = services.socket_open(seated_table.pk, stranger, {})
    assert not opened.watchable and not opened.counted and opened.text == ""


def test_no_table_answers_no_creation_time(db: None) -> None:
    assert services.socket_open(999_999, AnonymousUser(), {}).created_at is None


def test_kept_alerts_are_handed_over_once(
    seated_table: Table, players: list[User], django_capture_on_commit_callbacks
) -> None:
    ann = players[0]
    with django_capture_on_commit_callbacks(execute=True):
        alert_add(seated_table.pk, ann.pk, REMOVED)
    first = services.socket_open(seated_table.pk, ann, {})
    second = services.socket_open(seated_table.pk, ann, {})
    assert [n["code"] for n in first.alerts] == [REMOVED]
    assert second.alerts == []
