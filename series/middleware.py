"""A logged-in player's saved language, over the cookie and the browser's."""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from series.services.languages import SESSION_KEY, language_is_supported


class UserLanguageMiddleware:
    """After LocaleMiddleware and the session: the saved choice (put in the session at login)
    wins. The cookie is set to it as well, so the live tables' sockets, which see only the
    cookie and the headers, speak the same language as the pages."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        saved = request.session.get(SESSION_KEY, "")
        if saved and language_is_supported(saved) and saved != translation.get_language():
            translation.activate(saved)
            request.LANGUAGE_CODE = saved
        response = self.get_response(request)
        if (
            saved
            and language_is_supported(saved)
            and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != saved
        ):
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                saved,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH,
                domain=settings.LANGUAGE_COOKIE_DOMAIN,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            )
        return response
