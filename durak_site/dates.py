"""Moments as their reader reads them: Django's localised formats, in the active language, in the
reader's time zone (``ReaderTimeZoneMiddleware`` activates the signed-in user's for a request;
an e-mail passes its recipient's).

>>> from datetime import UTC, datetime
>>> from zoneinfo import ZoneInfo
>>> from django.utils import translation
>>> moment = datetime(2026, 12, 1, 22, 0, tzinfo=UTC)
>>> with translation.override("ru"):
...     with_zone(moment, ZoneInfo("Europe/Moscow")).replace(" 2026 \u0433.", "")
'2 декабря 1:00 (Москва, Россия)'
>>> with translation.override("en"):
...     with_zone(moment, ZoneInfo("UTC"))
'Dec. 1, 2026, 10 p.m. (UTC)'
"""

from collections.abc import Callable
from datetime import datetime, timedelta, tzinfo
from urllib.parse import unquote
from zoneinfo import ZoneInfo

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import formats, timezone

from . import zones


def local(moment: datetime, zone: tzinfo | None = None) -> str:
    """Date and time (``DATETIME_FORMAT``) in ``zone``, by default the active one."""
    return str(formats.date_format(timezone.localtime(moment, zone), "DATETIME_FORMAT"))


def in_a_list(moment: datetime, zone: tzinfo | None = None, *, now: datetime | None = None) -> str:
    """A moment among others on a page that shows the zone elsewhere (the history's moves): the
    time alone (``TIME_FORMAT``) when it falls on the reader's today, else ``local``.

    >>> from datetime import UTC, datetime
    >>> from django.utils import translation
    >>> moment, zone = datetime(2026, 12, 1, 10, 56, tzinfo=UTC), ZoneInfo("UTC")
    >>> with translation.override("en"):
    ...     in_a_list(moment, zone, now=moment), in_a_list(moment, zone, now=datetime(2026, 12, 2, tzinfo=UTC))
    ('10:56 a.m.', 'Dec. 1, 2026, 10:56 a.m.')
    """
    zone = zone or timezone.get_current_timezone()
    here = timezone.localtime(moment, zone)
    if here.date() == timezone.localtime(now or timezone.now(), zone).date():
        return str(formats.time_format(here, "TIME_FORMAT"))
    return local(moment, zone)


def with_zone(moment: datetime, zone: tzinfo | None = None) -> str:
    """``local`` followed by the zone's name: "Dec. 2, 2026, 1 a.m. (Moscow, Russia)"."""
    zone = zone or timezone.get_current_timezone()
    return f"{local(moment, zone)} ({zone_name(zone)})"


def zone_name(zone: tzinfo) -> str:
    """The zone in the active language ("Moscow, Russia": ``durak_site.zones``)."""
    if isinstance(zone, ReaderTimeZone):
        zone = zone.zone
    key = getattr(zone, "key", None)
    return zones.zone_label(key) if key else str(zone.tzname(None) or zone)


#: The cookie in which a visitor's browser says its time zone (``accounts/time_zone.js``).
ZONE_COOKIE = "tz"


def browser_zone(request: HttpRequest) -> ZoneInfo:
    """A visitor's zone: the one their browser gave (the ``tz`` cookie), if it is one; else the
    site's ``TIME_ZONE``."""
    given = unquote(request.COOKIES.get(ZONE_COOKIE, ""))
    if given in zones.known_zones():
        return ZoneInfo(given)
    return ZoneInfo(settings.TIME_ZONE)


class ReaderTimeZone(tzinfo):
    """The time zone of a request's reader, looked up only when a moment is shown: a page that
    shows none (a poll's 204) loads no session and no user for it. A signed-in player's is their
    settings'; a visitor's, their browser's (:func:`browser_zone`)."""

    def __init__(self, request: HttpRequest) -> None:
        self._request = request
        self._zone: ZoneInfo | None = None

    @property
    def zone(self) -> ZoneInfo:
        if self._zone is None:
            user = getattr(self._request, "user", None)
            authenticated = user is not None and user.is_authenticated
            self._zone = user.tz if authenticated else browser_zone(self._request)  # type: ignore[union-attr]
        return self._zone

    def utcoffset(self, dt: datetime | None) -> timedelta | None:
        return self.zone.utcoffset(None if dt is None else dt.replace(tzinfo=None))

    def dst(self, dt: datetime | None) -> timedelta | None:
        return self.zone.dst(None if dt is None else dt.replace(tzinfo=None))

    def tzname(self, dt: datetime | None) -> str | None:
        return self.zone.tzname(None if dt is None else dt.replace(tzinfo=None))

    def fromutc(self, dt: datetime) -> datetime:
        return self.zone.fromutc(dt.replace(tzinfo=self.zone))

    def __str__(self) -> str:
        return self.zone.key

    def __repr__(self) -> str:
        return f"ReaderTimeZone({'unresolved' if self._zone is None else self._zone.key})"


class ReaderTimeZoneMiddleware:
    """Every moment a page shows (``|date``, ``local``) in the signed-in reader's time zone (their
    settings' ``time_zone``), a visitor's browser's (or the site's ``TIME_ZONE``). After
    ``AuthenticationMiddleware``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        timezone.activate(ReaderTimeZone(request))
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


__all__ = ["ReaderTimeZone", "ReaderTimeZoneMiddleware", "in_a_list", "local", "with_zone", "zone_name"]
