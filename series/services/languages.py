"""The language a person reads the site in: their own choice, kept on their account.

The order, as the visitor sees it: a first visit follows the browser's ``Accept-Language``
(Django's LocaleMiddleware); the switch in the header sets the language cookie
(``django.views.i18n.set_language``) and, for a logged-in player, saves the choice on their
``Player`` row; at login the saved choice is put in the session, and
``series.middleware.UserLanguageMiddleware`` applies it on every page and resets the cookie
(which the live tables' sockets read) on any device the player logs in from.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser

from series.models import Player

# The session key holding the logged-in player's saved language.
SESSION_KEY = "series_language"


def language_is_supported(language: str) -> bool:
    return language in dict(settings.LANGUAGES)


def player_language_save(user: AbstractBaseUser, language: str) -> Player:
    """Keep ``language`` as the account's choice (the account's player made on first use)."""
    if not language_is_supported(language):
        raise ValueError(f"unsupported language {language!r}")
    player, _created = Player.objects.get_or_create(
        user=user, defaults={"name": user.get_username(), "language": language}
    )
    if player.language != language:
        player.language = language
        player.save(update_fields=["language"])
    return player


def player_language_of(user: AbstractBaseUser) -> str:
    """The account's saved language, or "" if the player never chose one."""
    saved = Player.objects.filter(user=user).values_list("language", flat=True).first()
    return saved if saved and language_is_supported(saved) else ""


def session_language_remember(session: Any, user: AbstractBaseUser) -> None:
    """At login: the account's saved language (if any) for every page of the session."""
    saved = player_language_of(user)
    if saved:
        session[SESSION_KEY] = saved
    else:
        session.pop(SESSION_KEY, None)
