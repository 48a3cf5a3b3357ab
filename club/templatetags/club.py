"""``{% profile_actions person %}``: on a player's profile, their presence as the reader may see
it and the reader's buttons about them (``club/_profile_actions.html``): befriend, answer,
remove, block, unblock; one query."""

from __future__ import annotations

from typing import Any

from django import template

from accounts import relations
from accounts.models import User

from .. import selectors

register = template.Library()


@register.inclusion_tag("club/_profile_actions.html", takes_context=True)
def profile_actions(context: template.Context, person: User) -> dict[str, Any]:
    request = context.get("request")
    viewer = getattr(request, "user", None)
    mine = isinstance(viewer, User) and viewer.pk != person.pk and not person.is_bot and person.is_active
    standing = selectors.standing(viewer=viewer, person=person) if mine else None  # type: ignore[arg-type]
    if standing is not None:
        shown = standing.presence_shown
    else:  # a visitor (no query), the player themself, a computer player (never shown)
        shown = not person.is_bot and relations.presence_visible(viewer=viewer, subject=person)
    return {
        "person": person,
        "user": viewer,
        "standing": standing,
        "presence_shown": shown,
        "next": request.get_full_path() if request is not None else "",
        "csrf_token": context.get("csrf_token"),
    }
