"""A player's profile: the record, the results chart and table, the link to their hands."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from series.models import Player, Result
from series.profile_chart import Finish, results_chart
from series.selectors import player_profile
from tests.series.night import account, finished_event, guest, season

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann() -> Player:
    """Ann: 1st of 4 (won 60 for 25), 3rd of 4 (nothing for 25), 2nd of 3 (20 for 25)."""
    s = season()
    ann, ben, cal, dee = account("Ann"), account("Ben"), guest("Cal"), account("Dee")
    finished_event(
        s, [(ann, 1, 60, 25), (ben, 2, 20, 25), (cal, 3, 0, 25), (dee, 4, 0, 25)], number=1
    )
    finished_event(
        s, [(ben, 1, 80, 25), (cal, 2, 0, 25), (ann, 3, 0, 25), (dee, 4, 0, 25)], number=2
    )
    three = finished_event(s, [(ben, 1, 55, 25), (ann, 2, 20, 25), (cal, 3, 0, 25)], number=3)
    Result.objects.filter(event=three, player=ann).update(bounties=10, knockouts=2)
    return ann


def test_the_record_adds_up(ann: Player) -> None:
    profile = player_profile(ann)
    assert profile.events == 3 and profile.wins == 1
    assert profile.cashes == 2 and profile.itm_percent == 67
    # Won 60 + 20 + 10 bounties, paid in 75.
    assert profile.net == 15 and profile.won == 90 and profile.paid_in == 75
    assert profile.knockouts == 2
    assert profile.best_finish is not None and profile.best_finish.place == 1
    assert [r.field for r in profile.results] == [4, 4, 3]


def test_a_member_may_read_a_profile(player_client: Client, ann: Player) -> None:
    response = player_client.get(reverse("series:player", args=[ann.pk]))
    assert response.status_code == 200
    body = response.content.decode()
    for text in ("Events played", "67% in the money", "+15", "won 90, paid in 75", "Knockouts"):
        assert text in body
    assert body.count("<circle") == 3 and "<svg" in body
    # Someone else's hands are theirs: no link on another's profile.
    assert reverse("tables:hands") not in body


def test_a_player_sees_the_link_to_their_own_hands(ann: Player) -> None:
    client = Client()
    client.force_login(ann.user)  # type: ignore[arg-type]
    body = client.get(reverse("series:player", args=[ann.pk])).content.decode()
    assert reverse("tables:hands") in body and "My hands at the online tables" in body


def test_the_header_links_to_my_results(ann: Player) -> None:
    client = Client()
    client.force_login(ann.user)  # type: ignore[arg-type]
    body = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("series:player_me")}"' in body
    response = client.get(reverse("series:player_me"))
    assert response.status_code == 302 and response["Location"] == reverse(
        "series:player", args=[ann.pk]
    )


def test_anonymous_visitors_have_no_my_results_link(client: Client) -> None:
    assert reverse("series:player_me") not in client.get(reverse("home")).content.decode()
    assert client.get(reverse("series:player_me")).status_code == 302


def test_an_account_that_never_played_sees_an_empty_record(
    player_client: Client, player: User
) -> None:
    response = player_client.get(reverse("series:player_me"))
    assert response.status_code == 200
    assert "You have not played an event of the series yet" in response.content.decode()
    assert not Player.objects.filter(user=player).exists()


def test_a_guest_profile_says_guest(player_client: Client, ann: Player) -> None:
    cal = Player.objects.get(name="Cal")
    body = player_client.get(reverse("series:player", args=[cal.pk])).content.decode()
    assert ">guest<" in body and "0% in the money" in body


def test_an_unknown_player_is_not_found(player_client: Client, db: None) -> None:
    assert player_client.get(reverse("series:player", args=[999])).status_code == 404


def test_the_chart_puts_first_at_the_top_and_scales_to_the_biggest_field() -> None:
    chart = results_chart(
        [
            Finish("1", "", place=1, field=10, cashed=True),
            Finish("2", "", place=10, field=10, cashed=False),
            Finish("3", "", place=3, field=5, cashed=False),
        ]
    )
    assert chart is not None
    first, last, small = chart.columns
    assert first.dot_y < small.dot_y < last.dot_y
    assert first.won and first.cashed and not last.cashed
    assert small.bar_height < first.bar_height
    assert [t.label for t in chart.ticks] == ["1", "5", "10"]
    assert results_chart([]) is None


def test_the_chart_labels_every_column_while_they_fit() -> None:
    few = results_chart([Finish(str(i), "", 1, 4, False) for i in range(5)])
    many = results_chart([Finish(str(i), "", 1, 4, False) for i in range(40)])
    assert few is not None and many is not None
    assert few.label_every == 1 and many.label_every > 1


def test_the_profile_queries_do_not_grow_with_the_events(player_client: Client, db: None) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    s = season()
    ann, ben = account("Ann"), account("Ben")

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert player_client.get(reverse("series:player", args=[ann.pk])).status_code == 200
        return len(captured.captured_queries)

    finished_event(s, [(ann, 1, 40, 25), (ben, 2, 0, 25)], number=1)
    few = queries()
    for number in range(2, 12):
        finished_event(s, [(ben, 1, 40, 25), (ann, 2, 0, 25)], number=number)
    assert queries() == few


def test_a_shared_place_reads_tied_on_the_profile(player_client: Client) -> None:
    # TDA: players out on one hand with equal stacks share the place.
    s = season()
    ann, ben, cal = account("Ann"), account("Ben"), account("Cal")
    finished_event(s, [(ben, 1, 60, 25), (ann, 2, 10, 25), (cal, 2, 10, 25)], number=1)
    profile = player_profile(Player.objects.get(name="Ann"))
    assert [(r.place, r.tied) for r in profile.results] == [(2, True)]
    body = player_client.get(reverse("series:player", args=[ann.pk])).content.decode()
    assert "2 (tied)" in body
    alone = player_client.get(reverse("series:player", args=[ben.pk])).content.decode()
    assert "(tied)" not in alone
