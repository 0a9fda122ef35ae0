"""Run inside a site's database, in a subprocess: fill it, then read it as people do.

python -m tests.series.backup_pages build  -> a season whose event was played online to
    the end (hands, results), a shared expense with cents (23.50 split three ways), its
    settle-up transfers (one marked paid), standings
python -m tests.series.backup_pages pages  -> {url: body} of every page and export that
    shows that season: standings and their CSV, the event and its results CSV, each
    player's profile, the settle-up, the event's PHH and each hand's replay and PHH
"""

from __future__ import annotations

import io
import json
import re
import sys

import django

# A form's CSRF token is masked afresh on each render: the one part of a page that is not
# read from the database.
CSRF = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+"')


def build() -> dict[str, object]:
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from series.models import Event, Transfer
    from series.services import director_grant
    from series.services.expenses import expense_add
    from series.services.settle import settle_up_compute, transfer_mark_paid
    from series.services.standings import standings_recompute
    from tables.models import Hand

    # The command plays with no Celery and no pause between hands.
    call_command(
        "simulate_tournament",
        players=3,
        seats_per_table=3,
        seed=3,
        level_seconds=1.0,
        stdout=io.StringIO(),
    )
    event = Event.objects.get()
    Event.objects.filter(pk=event.pk).update(counts=True)
    standings_recompute(event.season_id)
    host = director_grant(User.objects.get(username="simulator"))
    payer = event.results.order_by("place").last().player_id
    expense_add(event.pk, payer_id=payer, amount_cents=2350, description="Pizza", by=host)
    transfers = settle_up_compute(event.pk)
    transfer_mark_paid(transfers[0].pk, by=host)
    return {
        "event": event.pk,
        "hands": Hand.objects.count(),
        "transfers": Transfer.objects.filter(event=event).count(),
    }


def pages() -> dict[str, str]:
    from django.test import Client
    from django.urls import reverse

    from series.models import Event, Result
    from tables.models import Hand

    event = Event.objects.get()
    winner = Result.objects.select_related("player__user").get(event=event, place=1)
    client = Client(SERVER_NAME="localhost")
    client.force_login(winner.player.user)
    urls = [
        reverse("series:standings", args=[event.season_id]),
        reverse("series:standings_csv", args=[event.season_id]),
        reverse("series:event", args=[event.pk]),
        reverse("series:event_results_csv", args=[event.pk]),
        reverse("series:settle_up", args=[event.pk]),
        reverse("series:event_hands", args=[event.pk]),
    ]
    urls += [reverse("series:player", args=[r.player_id]) for r in event.results.all()]
    urls.append(reverse("series:player_ledger", args=[event.season_id, winner.player_id]))
    for hand_id in Hand.objects.order_by("pk").values_list("pk", flat=True):
        urls += [
            reverse("tables:hand_detail", args=[hand_id]),
            reverse("tables:hand_phh", args=[hand_id]),
        ]
    read = {}
    for url in urls:
        response = client.get(url)
        body = b"".join(response) if response.streaming else response.content
        read[url] = f"{response.status_code} " + CSRF.sub(r'\1"', body.decode())
    return read


if __name__ == "__main__":
    django.setup()
    command = sys.argv[1]
    if command == "build":
        print(json.dumps(build()))
    elif command == "pages":
        print(json.dumps(pages()))
    else:
        raise SystemExit(f"unknown command {command}")
