"""Time zones by their names in the reader's language, from the Unicode CLDR (babel): "Moscow,
Russia", «Москва, Россия», never the IANA key ("Europe/Moscow") a page would otherwise show.

The settings page and the sign-up list the zones with these names, grouped by part of the world
(«Европа», «Америка»...) and sorted as the reader reads them; a moment shown with its zone
(``durak_site.dates.with_zone``) names the zone the same way.

>>> from django.utils import translation
>>> with translation.override("ru"):
...     zone_label("Europe/Moscow"), zone_label("UTC")
('Москва, Россия', 'UTC')
>>> with translation.override("en"):
...     zone_label("America/New_York"), zone_label("Europe/Kiev")
('New York, United States', 'Kyiv, Ukraine')
"""

from __future__ import annotations

import zoneinfo
from functools import cache

from babel import Locale
from babel.core import get_global
from babel.dates import get_timezone_location
from django.utils.translation import get_language, gettext_lazy

#: Parts of the world as the IANA keys start, each with its CLDR region (a territory code) or, for
#: the oceans CLDR does not name, a translated word.
REGIONS: dict[str, str] = {
    "Africa": "002",
    "America": "019",
    "Antarctica": "AQ",
    "Asia": "142",
    "Australia": "053",
    "Europe": "150",
    "Pacific": "009",
}
OCEANS = {
    "Atlantic": gettext_lazy("Atlantic Ocean"),
    "Indian": gettext_lazy("Indian Ocean"),
    "Arctic": gettext_lazy("Arctic"),
}


def _locale(language: str | None) -> Locale:
    return Locale.parse((language or get_language() or "en").split("-")[0])


def canonical(name: str) -> str:
    """An old IANA key's current one ("Europe/Kiev" -> "Europe/Kyiv"), as CLDR links them."""
    return str(get_global("zone_aliases").get(name, name))


def zone_label(name: str, language: str | None = None) -> str:
    """A zone's name in ``language`` (the active one by default): its city, then its country."""
    if name in ("UTC", "Etc/UTC"):
        return "UTC"
    key = canonical(name)
    locale = _locale(language)
    try:
        city = get_timezone_location(key, locale=locale, return_city=True)
    except LookupError:
        return name
    territory = get_global("zone_territories").get(key)
    country = locale.territories.get(territory) if territory else None
    if not country or country == city:
        return str(city)
    return f"{city}, {country}"


def region_label(region: str, language: str | None = None) -> str:
    """A part of the world in ``language``: «Европа», "Atlantic Ocean"."""
    if region in OCEANS:
        return str(OCEANS[region])
    code = REGIONS.get(region)
    return str(_locale(language).territories.get(code, region)) if code else region


@cache
def known_zones() -> frozenset[str]:
    """Every IANA key this machine knows (``zoneinfo.available_timezones``)."""
    return frozenset(zoneinfo.available_timezones())


@cache
def listed_zones() -> frozenset[str]:
    """The zones a list offers: the current IANA keys with a place (no legacy links such as
    "Europe/Kiev", nor ``Etc/`` offsets, which read backwards)."""
    territories = get_global("zone_territories")
    return frozenset(
        name
        for name in zoneinfo.available_timezones()
        if name.partition("/")[0] in {**REGIONS, **OCEANS} and name in territories
    )


@cache
def zone_choices(language: str) -> list[tuple[str, list[tuple[str, str]]] | tuple[str, str]]:
    """UTC, then one group per part of the world, each sorted by name, all in ``language``."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for name in listed_zones():
        groups.setdefault(name.partition("/")[0], []).append((name, zone_label(name, language)))
    ordered = sorted(groups.items(), key=lambda group: region_label(group[0], language).casefold())
    return [
        ("UTC", "UTC"),
        *(
            (region_label(region, language), sorted(zones, key=lambda zone: zone[1].casefold()))
            for region, zones in ordered
        ),
    ]
