"""Each signed-in player sees the site in the language chosen on the settings page.

Django's ``LocaleMiddleware`` picks the language from the language cookie without touching
the database; this middleware keeps that cookie equal to ``user.language`` whenever a page
has loaded the user anyway, so it never adds a query (polls stay at one).

The header's language switcher posts to Django's ``set_language``, which only sets the
cookie: for a signed-in player this middleware saves the choice as ``user.language`` too, so
the next page does not put the cookie back to the old language.
"""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.functional import empty

ONE_YEAR = 365 * 24 * 3600


def _switched_language(request: HttpRequest, response: HttpResponse) -> str:
    """The language ``set_language`` has just set on this response, or ``""``."""
    match = request.resolver_match
    if request.method != "POST" or match is None or match.view_name != "set_language":
        return ""
    cookie = response.cookies.get(settings.LANGUAGE_COOKIE_NAME)
    return cookie.value if cookie is not None else ""


class UserLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is None:
            return response
        switched = _switched_language(request, response)
        if switched:
            if user.is_authenticated and getattr(user, "language", switched) != switched:
                user.language = switched
                user.save(update_fields=["language"])
            return response
        if getattr(user, "_wrapped", None) is empty:
            return response  # the page never looked at the user: do not load it for this
        language = getattr(user, "language", "") if user.is_authenticated else ""
        if language and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != language:
            set_language_cookie(response, language)
        return response


def set_language_cookie(response: HttpResponse, language: str) -> None:
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=ONE_YEAR,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )
