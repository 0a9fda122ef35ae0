"""Choosing the language: the browser's on a first visit, the header's switch after that, and a
logged-in player's choice kept on their account, on every device they log in from."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.contrib.humanize.templatetags.humanize import intcomma
from django.urls import reverse
from django.utils import formats, translation
from django.utils.translation import gettext

from series.models import Player

pytestmark = pytest.mark.django_db


def french(message: str) -> str:
    with translation.override("fr"):
        text = gettext(message)
    assert text != message, f"{message!r} has no French yet"
    return text


def test_a_first_visit_follows_the_browsers_language(client):
    page = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9,en;q=0.5")
    text = page.content.decode()
    assert '<html lang="fr">' in text
    assert french("Log in") in text
    assert page["Content-Language"] == "fr"

    english = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9")
    assert '<html lang="en">' in english.content.decode()


def test_an_unknown_browser_language_reads_english(client):
    page = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")
    assert '<html lang="en">' in page.content.decode()


def test_the_switch_works_without_javascript_and_sticks_across_pages(client):
    home = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en")
    assert 'name="language" value="fr"' in home.content.decode()

    answer = client.post(
        reverse("set_language"), {"language": "fr", "next": reverse("series:seasons")}
    )
    assert answer.status_code == 302
    assert answer["Location"] == reverse("series:seasons")
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"

    # The browser still asks for English: the choice wins, on every page.
    for url in (reverse("home"), reverse("series:seasons"), reverse("tables:lobby")):
        assert '<html lang="fr">' in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_a_refused_language_changes_nothing(client):
    answer = client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    assert answer.status_code == 302
    assert settings.LANGUAGE_COOKIE_NAME not in answer.cookies
    assert client.get(reverse("set_language")).status_code == 405


def test_a_players_choice_is_kept_on_their_account_across_logins(client, django_user_model):
    user = django_user_model.objects.create_user("zoe", password="pw-zoe-1234")
    client.force_login(user)
    client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    assert Player.objects.get(user=user).language == "fr"

    # Another device, a browser in English, no cookie: the login brings the choice back, and
    # sets the cookie the live tables' sockets read.
    other = client_class_new(client)
    other.force_login(user)
    page = other.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en")
    assert '<html lang="fr">' in page.content.decode()
    assert page.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"

    # Switching back to English on that device is kept too.
    other.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert Player.objects.get(user=user).language == "en"
    assert '<html lang="en">' in other.get(reverse("home")).content.decode()

    # Logged out, the device keeps its cookie's language; the account is not consulted.
    other.post(reverse("logout"))
    assert '<html lang="en">' in other.get(reverse("home")).content.decode()


def test_a_player_who_never_chose_follows_the_browser(client, django_user_model):
    user = django_user_model.objects.create_user("yan", password="pw-yan-1234")
    client.force_login(user)
    page = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="fr")
    assert '<html lang="fr">' in page.content.decode()


def client_class_new(client):
    return type(client)()


def test_dates_times_and_numbers_follow_the_language():
    starts = datetime(2026, 11, 27, 19, 30, tzinfo=ZoneInfo("UTC"))
    with translation.override("fr"):
        assert (
            formats.date_format(starts, "DATETIME_FORMAT") == "vendredi 27 novembre 2026 · 19 h 30"
        )
        assert formats.date_format(starts, "TIME_FORMAT") == "19 h 30"
        assert intcomma(10000) == "10\u00a0000"
    with translation.override("en"):
        assert formats.date_format(starts, "DATETIME_FORMAT") == "Friday 27 November 2026 · 19:30"
        assert intcomma(10000) == "10,000"
