"""Run inside the server's database, in a subprocess: set a table up, then check it.

python -m tests.tables.restart_helpers setup   -> {"table": id, "cookies": [...]}
python -m tests.tables.restart_helpers check ID -> chips, hands, and whether they replay
"""

from __future__ import annotations

import json
import sys

import django


def session_cookie(user) -> str:  # type: ignore[no-untyped-def]
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def setup(players: int = 3) -> dict[str, object]:
    from django.contrib.auth.models import User

    from tables import services

    director = User.objects.create_superuser("restart-director", password=None)
    table = services.table_create(created_by=director, name="Restart", big_blind=2)
    cookies = []
    for n in range(1, players + 1):
        user = User.objects.create_user(f"restart-{n}", password=None)
        services.seat_take(table.pk, user, n, 100)
        cookies.append(session_cookie(user))
    return {"table": table.pk, "cookies": cookies}


def check(table_id: int) -> dict[str, object]:
    from tables.models import Hand, Seat, Table
    from tables.runtime.state import engine_of
    from tables.selectors import table_chip_count

    table = Table.objects.get(pk=table_id)
    replayed = 0
    problems = []
    moves = 0
    for hand in Hand.objects.filter(table=table).order_by("number"):
        try:
            engine = engine_of(hand)  # replays every move; a move applied twice breaks it
        except Exception as exc:  # noqa: BLE001 - report, the test asserts
            problems.append(f"hand {hand.number}: {exc}")
            continue
        replayed += 1
        moves += sum(
            1 for r in hand.records if r["kind"] in {"Folded", "Checked", "Called", "Bet", "Raised"}
        )
        if hand.is_complete != engine.is_complete:
            problems.append(f"hand {hand.number}: stored end and records disagree")
    return {
        "chips": table_chip_count(table),
        "hands": Hand.objects.filter(table=table).count(),
        "finished": Hand.objects.filter(table=table, ended_at__isnull=False).count(),
        "replayed": replayed,
        "moves": moves,
        "problems": problems,
        "version": table.version,
        "sockets": [s.sockets for s in Seat.objects.filter(table=table).exclude(user=None)],
    }


if __name__ == "__main__":
    django.setup()
    command = sys.argv[1]
    if command == "setup":
        print(json.dumps(setup(int(sys.argv[2]) if len(sys.argv) > 2 else 3)))
    elif command == "check":
        print(json.dumps(check(int(sys.argv[2]))))
    else:
        raise SystemExit(f"unknown command {command}")
