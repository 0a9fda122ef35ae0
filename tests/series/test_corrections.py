"""A director's corrections of a finished event's results: validated, logged, followed."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from series.models import Event, Player, Result, ResultChange, SeasonVisibility, Transfer
from series.services import corrections
from series.services.corrections import CorrectionError, result_change_lines, results_correct
from tests.series.night import account, finished_event, guest, season
from tests.work import python_calls

pytestmark = pytest.mark.django_db


@pytest.fixture
def scheduled(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The seasons whose standings recompute was scheduled."""
    calls: list[int] = []
    monkeypatch.setattr(corrections, "standings_schedule", calls.append)
    return calls


@pytest.fixture
def event() -> Event:
    s = season()
    players = [account("Ann"), account("Ben"), guest("Cal"), account("Dee")]
    return finished_event(
        s,
        [
            (players[0], 1, 60, 25),
            (players[1], 2, 20, 25),
            (players[2], 3, 0, 25),
            (players[3], 4, 0, 25),
        ],
    )


def rows_of(event: Event, **changes: dict[str, Any]) -> list[dict[str, Any]]:
    """The event's rows as the page sends them, with ``changes`` by player name."""
    rows = []
    for result in Result.objects.filter(event=event).select_related("player"):
        row = {
            "player_id": result.player_id,
            "place": result.place,
            "prize": result.prize,
            "bounties": result.bounties,
            "knockouts": result.knockouts,
            "rebuys": result.rebuys,
            "addons": result.addons,
            "paid_in": result.paid_in,
        }
        row.update(changes.get(result.player.name, {}))
        rows.append(row)
    return rows


def refused(event: Event, director: User, rows: list[dict[str, Any]]) -> str:
    before = list(Result.objects.filter(event=event).values_list("player__name", "place", "prize"))
    with pytest.raises(CorrectionError) as error:
        results_correct(event.pk, rows, by=director, reason="fix")
    after = list(Result.objects.filter(event=event).values_list("player__name", "place", "prize"))
    assert before == after and not ResultChange.objects.exists()
    return str(error.value)


def test_a_correction_changes_the_results_logs_them_and_schedules_the_standings(
    event: Event, director: User, scheduled: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    rows = rows_of(
        event, Ben={"place": 3, "prize": 0}, Cal={"place": 2, "prize": 20, "knockouts": 1}
    )
    with django_capture_on_commit_callbacks(execute=True):
        change = results_correct(event.pk, rows, by=director, reason="Cal finished second")
    assert dict(Result.objects.filter(event=event).values_list("player__name", "place")) == {
        "Ann": 1,
        "Cal": 2,
        "Ben": 3,
        "Dee": 4,
    }
    assert change.by == director and change.reason == "Cal finished second"
    assert {r["player"]: r["place"] for r in change.before}["Ben"] == 2
    assert {r["player"]: r["place"] for r in change.after}["Ben"] == 3
    assert scheduled == [event.season_id]
    lines = {line.player: line for line in result_change_lines(change)}
    assert lines["Ben"].details == ["place 2 → 3", "prize 20 → 0"]
    assert lines["Cal"].details == ["place 3 → 2", "prize 0 → 20", "knockouts 0 → 1"]


def test_a_correction_rescores_the_season(
    event: Event, director: User, django_capture_on_commit_callbacks: Any
) -> None:
    from django.test import override_settings

    from series.models import Standing
    from series.services.standings import standings_recompute

    standings_recompute(event.season_id)
    assert Standing.objects.get(player__name="Ann").rank == 1
    rows = rows_of(event, Ann={"place": 3, "prize": 0}, Cal={"place": 1, "prize": 60})
    with override_settings(SERIES_STANDINGS_INLINE=True):
        with django_capture_on_commit_callbacks(execute=True):
            results_correct(event.pk, rows, by=director, reason="Cal won")
    assert Standing.objects.get(player__name="Cal").rank == 1
    assert Standing.objects.get(player__name="Ann").rank == 3


def test_adding_and_removing_a_player(event: Event, director: User, scheduled: list[int]) -> None:
    eve = guest("Eve")
    rows = [r for r in rows_of(event) if r["place"] != 4]
    rows.append({"player_id": eve.pk, "place": 4, "paid_in": 25})
    change = results_correct(event.pk, rows, by=director, reason="Eve played, not Dee")
    names = set(Result.objects.filter(event=event).values_list("player__name", flat=True))
    assert names == {"Ann", "Ben", "Cal", "Eve"}
    assert Result.objects.get(event=event, player=eve).tournament_id == 99
    kinds = {line.player: line.kind for line in result_change_lines(change)}
    assert kinds == {"Eve": "added", "Dee": "removed"}


def test_a_shared_place_skips_the_next(event: Event, director: User, scheduled: list[int]) -> None:
    # Ben and Cal share 2nd: the next place is 4th.
    results_correct(
        event.pk,
        rows_of(event, Cal={"place": 2, "prize": 10}, Ben={"prize": 10}),
        by=director,
        reason="chop",
    )
    assert sorted(Result.objects.filter(event=event).values_list("place", flat=True)) == [
        1,
        2,
        2,
        4,
    ]


def test_two_players_on_one_place_without_the_skip_are_refused(
    event: Event, director: User
) -> None:
    message = refused(event, director, rows_of(event, Cal={"place": 2}, Dee={"place": 3}))
    assert message == "Ben and Cal share place 2, so the next place is 4; Dee has 3."


def test_a_place_outside_the_field_is_refused(event: Event, director: User) -> None:
    message = refused(event, director, rows_of(event, Dee={"place": 5}))
    assert message == (
        "Dee's place 5 is outside the field: with 4 results the places run from 1 to 4."
    )
    assert "place 0 is outside the field" in refused(
        event, director, rows_of(event, Ann={"place": 0})
    )


def test_a_missing_place_is_refused(event: Event, director: User) -> None:
    message = refused(event, director, rows_of(event, Cal={"place": 4}))
    assert message == "Nobody has place 3: the places go from 2 to 4."


def test_negative_amounts_are_refused(event: Event, director: User) -> None:
    assert refused(event, director, rows_of(event, Ben={"prize": -5})) == (
        "Ben's prize cannot be negative (-5)."
    )
    assert "Cal's add-ons cannot be negative" in refused(
        event, director, rows_of(event, Cal={"addons": -1})
    )


def test_other_bad_input_is_refused(event: Event, director: User) -> None:
    rows = rows_of(event)
    rows.append(dict(rows[0]))
    assert "Ann has two rows" in refused(event, director, rows)
    assert "nothing to correct" in refused(event, director, rows_of(event))
    assert "Prize must be a whole number, not “lots”." == refused(
        event, director, rows_of(event, Ann={"prize": "lots"})
    )
    assert "whole number" in refused(event, director, rows_of(event, Ann={"prize": 2.5}))
    assert "needs a player and a place" in refused(
        event, director, rows_of(event, Ann={"place": None})
    )
    with pytest.raises(CorrectionError, match="Say why"):
        results_correct(event.pk, rows_of(event, Ann={"prize": 70}), by=director, reason="  ")


def test_an_unfinished_event_cannot_be_corrected(director: User) -> None:
    ann = account("Ann")
    event = finished_event(season(), [(ann, 1, 0, 0)], finished=False)
    with pytest.raises(CorrectionError, match="has not finished"):
        results_correct(
            event.pk, [{"player_id": ann.pk, "place": 1, "prize": 5}], by=director, reason="x"
        )


def test_the_settle_up_follows_a_correction(
    event: Event, director: User, scheduled: list[int]
) -> None:
    from series.services.settle import settle_up_compute

    settle_up_compute(event.pk)
    assert sum(t.amount_cents for t in Transfer.objects.all()) == 4000
    rows = rows_of(event, Ann={"prize": 40}, Cal={"prize": 20})
    results_correct(event.pk, rows, by=director, reason="third paid")
    # To settle now: Ann +20, Ben 0, Cal 0, Dee -20: one payment.
    assert [(t.payer.name, t.payee.name, t.amount_cents) for t in Transfer.objects.all()] == [
        ("Dee", "Ann", 2000)
    ]
    # A correction that does not balance leaves no stale transfers behind.
    results_correct(event.pk, rows_of(event, Ann={"prize": 100}), by=director, reason="typo")
    assert not Transfer.objects.exists()


# The page ---------------------------------------------------------------------------------


def form_data(event: Event, reason: str = "fix", **changes: dict[str, Any]) -> dict[str, Any]:
    rows = rows_of(event, **changes)
    data: dict[str, Any] = {
        "form-TOTAL_FORMS": str(len(rows) + 1),
        "form-INITIAL_FORMS": str(len(rows)),
        "form-MIN_NUM_FORMS": "0",
        "form-MAX_NUM_FORMS": "1000",
        "reason": reason,
    }
    for index, row in enumerate(rows):
        data[f"form-{index}-player"] = row["player_id"]
        for name in ("place", "prize", "bounties", "knockouts", "rebuys", "addons", "paid_in"):
            data[f"form-{index}-{name}"] = row[name]
        if row.get("remove"):
            data[f"form-{index}-remove"] = "on"
    return data


def test_the_page_is_for_directors(client: Client, player_client: Client, event: Event) -> None:
    url = reverse("series:event_corrections", args=[event.pk])
    assert client.get(url).status_code == 302
    assert player_client.get(url).status_code == 403
    assert player_client.post(url, form_data(event, Ann={"prize": 1})).status_code == 403
    assert Result.objects.get(event=event, place=1).prize == 60


def test_the_director_corrects_from_the_page_and_sees_the_history(
    director_client: Client, event: Event, scheduled: list[int]
) -> None:
    url = reverse("series:event_corrections", args=[event.pk])
    page = director_client.get(url).content.decode()
    assert 'value="60"' in page and "Reason" in page
    response = director_client.post(
        url,
        form_data(event, reason="Ben's prize was 25", Ben={"prize": 25}, Ann={"prize": 55}),
        follow=True,
    )
    assert response.redirect_chain[-1][0] == reverse("series:event_history", args=[event.pk])
    body = response.content.decode()
    assert "Ben&#x27;s prize was 25" in body and "prize 20 → 25" in body and "dana" in body


def test_the_page_shows_a_refusal_and_keeps_what_was_typed(
    director_client: Client, event: Event
) -> None:
    url = reverse("series:event_corrections", args=[event.pk])
    response = director_client.post(url, form_data(event, Cal={"place": 2}, Dee={"place": 3}))
    assert response.status_code == 400
    assert (
        "Ben and Cal share place 2, so the next place is 4; Dee has 3." in response.content.decode()
    )
    assert Result.objects.get(event=event, player__name="Cal").place == 3


def test_removing_a_player_from_the_page(
    director_client: Client, event: Event, scheduled: list[int]
) -> None:
    data = form_data(event, Dee={"remove": True})
    response = director_client.post(reverse("series:event_corrections", args=[event.pk]), data)
    assert response.status_code == 302
    assert not Result.objects.filter(event=event, player__name="Dee").exists()


def test_the_history_is_the_members_and_public_with_a_public_season(
    client: Client, player_client: Client, event: Event, director: User, scheduled: list[int]
) -> None:
    results_correct(
        event.pk, rows_of(event, Dee={"knockouts": 3}), by=director, reason="three knockouts"
    )
    url = reverse("series:event_history", args=[event.pk])
    body = player_client.get(url).content.decode()
    assert "three knockouts" in body and "knockouts 0 → 3" in body
    assert "Correct the results" not in body
    # A visitor reads results only in a season its host made public.
    assert "three knockouts" not in client.get(url).content.decode()
    event.season.visibility = SeasonVisibility.PUBLIC
    event.season.save(update_fields=["visibility"])
    assert "three knockouts" in client.get(url).content.decode()


def test_players_never_lose_results_by_accident(event: Event) -> None:
    # Results are PROTECTed: a player with results cannot be deleted under them.
    from django.db.models import ProtectedError

    with pytest.raises(ProtectedError):
        Player.objects.get(name="Ann").delete()


def test_the_page_asks_for_a_reason(director_client: Client, event: Event) -> None:
    url = reverse("series:event_corrections", args=[event.pk])
    response = director_client.post(url, form_data(event, reason="", Ann={"prize": 55}))
    assert response.status_code == 400 and "This field is required." in response.content.decode()
    assert Result.objects.get(event=event, player__name="Ann").prize == 60


def test_a_tampered_row_count_is_refused_at_once_and_changes_nothing(
    director_client: Client, event: Event, scheduled: list[int]
) -> None:
    # The page shows the event's 4 rows and 2 empty ones; a post claiming 100000 rows is not
    # the page's, and no more forms than the page shows are built (or sent back).
    data = {**form_data(event, Ann={"prize": 55}), "form-TOTAL_FORMS": "100000"}
    # Counted, not timed: the whole request makes some 330,000 Python calls, the same for a
    # claim of 100 rows as of 100,000; building 2,000 forms took tens of millions.
    with python_calls(1_000_000, "the claimed row count was built"):
        response = director_client.post(reverse("series:event_corrections", args=[event.pk]), data)
    html = response.content.decode()
    assert response.status_code == 400
    assert "At most 6 rows can be sent for this event" in html
    assert len(re.findall(r'name="form-\d+-player"', html)) == 6
    assert Result.objects.get(event=event, player__name="Ann").prize == 60
    assert not ResultChange.objects.exists() and scheduled == []


def test_the_page_sends_every_row_it_shows(
    director_client: Client, event: Event, scheduled: list[int]
) -> None:
    url = reverse("series:event_corrections", args=[event.pk])
    page = director_client.get(url).content.decode()
    assert 'name="form-TOTAL_FORMS" value="6"' in page
    data = {**form_data(event, Ann={"prize": 55}), "form-TOTAL_FORMS": "6"}
    assert director_client.post(url, data).status_code == 302
    assert Result.objects.get(event=event, player__name="Ann").prize == 55
