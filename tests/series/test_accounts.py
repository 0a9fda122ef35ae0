"""Sign up, log in, log out and change the password, as a player does in the browser."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_sign_up_creates_a_player_and_logs_them_in(client: Client) -> None:
    response = client.post(
        reverse("signup"),
        {
            "username": "newbie",
            "email": "newbie@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        follow=True,
    )
    assert response.redirect_chain == [(reverse("home"), 302)]
    assert response.context["user"].get_username() == "newbie"
    assert "Welcome, newbie" in response.content.decode()
    user = User.objects.get(username="newbie")
    assert user.email == "newbie@example.com"
    assert not user.is_staff
    assert not user.groups.exists()


def test_sign_up_with_mismatched_passwords_shows_the_error(client: Client) -> None:
    response = client.post(
        reverse("signup"),
        {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD + "x"},
    )
    assert response.status_code == 200
    assert "didn’t match" in response.content.decode()
    assert not User.objects.filter(username="newbie").exists()


def test_sign_up_page_sends_a_logged_in_player_home(player_client: Client) -> None:
    response = player_client.get(reverse("signup"))
    assert response.status_code == 302
    assert response["Location"] == reverse("home")


def test_log_in_with_the_right_password(client: Client, player: User) -> None:
    response = client.post(reverse("login"), {"username": "pat", "password": PASSWORD}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("home")
    assert response.context["user"] == player


def test_log_in_with_a_wrong_password_is_refused(client: Client, player: User) -> None:
    response = client.post(reverse("login"), {"username": "pat", "password": "nope"})
    assert response.status_code == 200
    assert not response.context["user"].is_authenticated
    assert "enter a correct username and password" in response.content.decode()


def test_log_out_is_a_post_and_ends_the_session(player_client: Client) -> None:
    response = player_client.post(reverse("logout"), follow=True)
    assert response.redirect_chain[-1][0] == reverse("home")
    assert not response.context["user"].is_authenticated


def test_password_change_needs_the_old_password(player_client: Client, player: User) -> None:
    new_password = "a-brand-new-long-password"
    response = player_client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": new_password, "new_password2": new_password},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("password_change_done")
    player.refresh_from_db()
    assert player.check_password(new_password)


def test_password_change_is_for_logged_in_users(client: Client) -> None:
    response = client.get(reverse("password_change"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_the_directors_group_manages_the_series_and_the_tournaments_models() -> None:
    # The tournaments add their models at start-up (``director_models_register``): the
    # series names none of them, and the group still covers them.
    from series.services import director_models, directors_group_ensure

    assert director_models() == (
        "series.season",
        "series.event",
        "tournaments.blindstructure",
        "tournaments.blindlevel",
        "tournaments.tournament",
        "tournaments.entry",
        "tournaments.tournamenttable",
    )
    group = directors_group_ensure()
    held = set(group.permissions.values_list("content_type__app_label", "codename"))
    for app_label, model in (label.split(".") for label in director_models()):
        for action in ("add", "change", "delete", "view"):
            assert (app_label, f"{action}_{model}") in held
