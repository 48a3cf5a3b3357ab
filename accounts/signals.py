"""A new account starts in the language its owner's browser asked for; a new password revokes
the account's API tokens."""

from typing import Any

from allauth.account.signals import user_signed_up
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.http import HttpRequest
from django.utils import translation

from . import tokens
from .models import LANGUAGES, User


@receiver(user_signed_up)
def language_from_the_browser(sender: Any, request: HttpRequest, user: Any, **kwargs: Any) -> None:
    """``LocaleMiddleware`` has already chosen the request's language from the language cookie
    or the browser's Accept-Language; the new account keeps it."""
    language = translation.get_language_from_request(request)
    if language in dict(LANGUAGES) and user.language != language:
        user.language = language
        user.save(update_fields=["language"])


@receiver(post_save, sender=User)
def new_password_revokes_api_tokens(sender: Any, instance: User, created: bool, **kwargs: Any) -> None:
    """Whoever set the password (the settings form, a reset link, the admin, ``changepassword``),
    the tokens made under the old one stop working. ``set_password()`` keeps the new password
    in ``_password`` until the save; Django clears it before saving a mere re-hash of the same
    password at log-in (``check_password``), so only a real change gets here."""
    if not created and getattr(instance, "_password", None) is not None:
        tokens.tokens_revoke_all(user=instance)
