"""Each signed-in player sees the site in the language chosen on the settings page.

Django's ``LocaleMiddleware`` picks the language from the language cookie without touching
the database; this middleware keeps that cookie equal to ``user.language`` whenever a page
has loaded the user anyway, so it never adds a query (polls stay at one).
"""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.functional import empty

ONE_YEAR = 365 * 24 * 3600


class UserLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is None or getattr(user, "_wrapped", None) is empty:
            return response  # the page never looked at the user: do not load it for this
        language = getattr(user, "language", "") if user.is_authenticated else ""
        if language and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != language:
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                language,
                max_age=ONE_YEAR,
                samesite="Lax",
                secure=settings.SESSION_COOKIE_SECURE,
            )
        return response
