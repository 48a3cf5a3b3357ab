"""The name django-axes counts failed log-ins under: one per account, however it is typed.

A player logs in with their user name or their e-mail address, in any case; allauth and the
API's token endpoint pass on what was typed. Counted as typed, ``carol``, ``Carol`` and
``carol@example.com`` would be three counters, and a guesser would get three times the
attempts at one account. ``AXES_USERNAME_CALLABLE`` points here instead: every spelling of an
account's name or address counts under the account's user name (lowercased, so that
``manage.py axes_reset_username carol`` lifts the lock); a name that matches no account counts
under itself, lowercased, so guesses at unknown names are limited too.
"""

from typing import Any

from django.db.models import Case, IntegerField, Q, Value, When

from .models import User


def login_typed(request: Any, credentials: dict[str, Any] | None) -> str:
    """What the visitor typed as their login: from the credentials ``authenticate()`` got
    (allauth passes ``username`` or ``email``, the API ``username``), else from the posted form
    (a post that never reached ``authenticate`` has allauth's ``login`` field)."""
    credentials = credentials or {}
    typed = credentials.get("username") or credentials.get("email") or credentials.get("login")
    if not typed and request is not None:
        posted = getattr(request, "POST", None) or {}
        typed = posted.get("login") or posted.get("username") or posted.get("email")
    return str(typed or "").strip()


def account_key(login: str) -> str:
    """The counter of the account ``login`` names, by user name or e-mail address in any case
    (a user name wins over another account's address); the login itself if none (one query)."""
    login = login.strip()
    if not login:
        return ""
    found = (
        User.objects.filter(Q(username__iexact=login) | Q(email__iexact=login))
        .annotate(
            by_name=Case(
                When(username__iexact=login, then=Value(0)), default=Value(1), output_field=IntegerField()
            )
        )
        .order_by("by_name", "pk")
        .values_list("username", flat=True)
        .first()
    )
    return (found or login).lower()


def axes_username(request: Any, credentials: dict[str, Any] | None) -> str | None:
    """``AXES_USERNAME_CALLABLE``: the account a log-in attempt counts toward (None: no name)."""
    return account_key(login_typed(request, credentials)) or None
