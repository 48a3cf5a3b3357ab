"""``{% profile_actions person %}``: the reader's buttons about a player on their profile
(``club/_profile_actions.html``): befriend, answer, remove, block, unblock."""

from __future__ import annotations

from typing import Any

from django import template

from accounts.models import User

from .. import selectors

register = template.Library()


@register.inclusion_tag("club/_profile_actions.html", takes_context=True)
def profile_actions(context: template.Context, person: User) -> dict[str, Any]:
    request = context.get("request")
    viewer = getattr(request, "user", None)
    mine = isinstance(viewer, User) and viewer.pk != person.pk and not person.is_bot and person.is_active
    return {
        "person": person,
        "standing": selectors.standing(viewer=viewer, person=person) if mine else None,  # type: ignore[arg-type]
        "next": request.get_full_path() if request is not None else "",
        "csrf_token": context.get("csrf_token"),
    }
