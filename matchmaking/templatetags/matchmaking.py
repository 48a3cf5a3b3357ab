"""The play-now block's state and presence words: ``{% play_now_state as play %}``,
``{{ user|is_online }}``, ``{{ person|presence_shown_to:viewer }}``, ``{{ person|last_seen_day:viewer }}``, ``{{ key|clock_label }}``."""

from datetime import timedelta
from typing import Any

from django import template
from django.utils import formats
from django.utils.translation import gettext

from accounts import presence, relations
from accounts.models import User
from durak_site.engine_text import preset_name
from games.limits import limit_words

from .. import selectors
from ..forms import PlayNowForm, fill_after_label, time_control_label

register = template.Library()


@register.simple_tag(takes_context=True)
def play_now_state(context: template.Context) -> dict[str, Any]:
    """The viewer's queue state (``selectors.queue_state``) and the form (the page's own, with
    its errors, when it has one)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    return {
        "state": selectors.queue_state(user=user),
        "form": context.get("play_now_form") or PlayNowForm(),
    }


@register.filter
def is_online(user: Any) -> bool:
    return isinstance(user, User) and presence.is_online(user)


@register.filter
def presence_shown_to(person: Any, viewer: Any) -> bool:
    """Whether ``viewer`` may see ``person``'s presence (``accounts.relations.presence_visible``:
    their privacy setting, and never to a player they blocked)."""
    return isinstance(person, User) and relations.presence_visible(viewer=viewer, subject=person)


@register.filter
def last_seen_day(person: Any, viewer: Any) -> str:
    """The day ``person`` was last active, in ``viewer``'s time zone and language ("" if never):
    the day only, never the minute."""
    seen = getattr(person, "last_active_at", None)
    if seen is None:
        return ""
    tz = viewer.tz if isinstance(viewer, User) else None
    return formats.date_format(seen.astimezone(tz) if tz is not None else seen, "DATE_FORMAT")


@register.filter
def preset_label(name: str) -> str:
    return preset_name(name)


@register.filter
def clock_label(key: str) -> str:
    return time_control_label(key)


@register.filter
def fill_label(wait: timedelta | None) -> str:
    return fill_after_label(wait)


@register.filter
def seeker_limits(entry: Any) -> list[str]:
    """Whom a waiting Play-now seeker asked to be paired with, in words, one phrase each (the
    phrases of a game's join limits): none when they left every filter open."""
    return limit_words(
        friends_only=entry.friends_only,
        min_reliability=entry.min_reliability,
        rating_min=entry.rating_min,
        rating_max=entry.rating_max,
        language=entry.language,
        friends=gettext("your friends"),
    )
