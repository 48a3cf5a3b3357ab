"""Who may not post in chat now, and why: asked by chat, answered by the apps above it.

Moderation sits above chat (its reports point at chat's messages, it hides them), yet chat must
refuse a muted player. So chat does not import moderation: moderation registers its check here
when the site starts (``moderation.apps``), and chat's services and pages ask this module.
"""

from collections.abc import Callable
from typing import Any

#: Each takes a user's id and gives what that user is told (in the active language) when they
#: may not post now, else None.
Restriction = Callable[[Any], str | None]

_restrictions: list[Restriction] = []


def register(restriction: Restriction) -> None:
    """Ask ``restriction`` before each post (once: registering it again changes nothing)."""
    if restriction not in _restrictions:
        _restrictions.append(restriction)


def why_not(*, user_id: Any) -> str | None:
    """Why the user may not post now (the first registered restriction that says so), or None."""
    for restriction in _restrictions:
        reason = restriction(user_id)
        if reason is not None:
            return reason
    return None
