"""A new account starts in the language its owner's browser asked for."""

from typing import Any

from allauth.account.signals import user_signed_up
from django.dispatch import receiver
from django.http import HttpRequest
from django.utils import translation

from .models import LANGUAGES


@receiver(user_signed_up)
def language_from_the_browser(sender: Any, request: HttpRequest, user: Any, **kwargs: Any) -> None:
    """``LocaleMiddleware`` has already chosen the request's language from the language cookie
    or the browser's Accept-Language; the new account keeps it."""
    language = translation.get_language_from_request(request)
    if language in dict(LANGUAGES) and user.language != language:
        user.language = language
        user.save(update_fields=["language"])
