"""A new account starts in the language its owner's browser asked for; a new password revokes
the account's API tokens and ends its live streams, as does a log-out for that session's. (The
receivers that drop the rows the shared cache keeps are ``auth_cache``'s, registered with these.)"""

from typing import Any

from allauth.account.signals import user_signed_up
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.http import HttpRequest
from django.utils import translation

from durak_site import live

from . import auth_cache, tokens  # noqa: F401  # auth_cache: its receivers
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


@receiver(post_save, sender=User)
def lost_rights_end_live_streams(sender: Any, instance: User, created: bool, **kwargs: Any) -> None:
    """A new password (as above: the sessions made under the old one end at their next request)
    or an account made inactive (it cannot log in any more) ends the user's open live streams
    after the commit; the pages open them again and are answered by what is left."""
    if created:
        return
    update_fields = kwargs.get("update_fields")
    new_password = getattr(instance, "_password", None) is not None
    deactivated = not instance.is_active and (update_fields is None or "is_active" in update_fields)
    if new_password or (deactivated and not instance.is_bot):
        live.end_streams_on_commit(user_id=instance.pk)


@receiver(user_logged_out)
def log_out_ends_live_streams(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """The streams the session opened end (its other tabs too): opened again, they are the
    anonymous visitor's. Other sessions of the user keep theirs."""
    session = getattr(request, "session", None)
    if session is not None and session.session_key:
        live.end_streams_on_commit(session_key=session.session_key)
