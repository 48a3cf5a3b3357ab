"""Each page's ``<meta name="description">``, in the reader's language: one table, by URL name.

What a search engine or a shared link shows under a page's title. ``templates/base.html`` writes
``page_description`` (this module's context processor) unless the page's template fills the
``description`` block itself. The words are here rather than in each template so that the
pages of django-allauth (log-in, sign-up, passwords: its own templates) have theirs too, and
so that one test can hold every page to a description of its own
(``tests/test_descriptions.py``).

A page about one thing (a game, a player, a rule set, a series) names it from its URL alone:
the number or the name in the address, nothing read from the database, so the description
says no more than the link it describes, and costs no query.

>>> from django.utils import translation
>>> with translation.override("en"):
...     describe("games:detail", {"game_id": 7})
"Game 7 of durak online: its table, the moves so far and the players' chat."
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.http import HttpRequest
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy

from durak_site.engine_text import preset_name

Description = Promise | Callable[[Mapping[str, Any]], str]

#: What a page is, for a page not in :data:`DESCRIPTIONS` (an error page, say).
SITE = gettext_lazy(
    "Play durak, the Russian card game, online: with friends over hours or days, with strangers "
    "or with the computer, in English or Russian."
)


def _game(kwargs: Mapping[str, Any]) -> str:
    return gettext("Game %(number)s of durak online: its table, the moves so far and the players' chat.") % {
        "number": kwargs["game_id"]
    }


def _chat(kwargs: Mapping[str, Any]) -> str:
    return gettext("The players' chat of game %(number)s of durak online.") % {"number": kwargs["game_id"]}


def _replay(kwargs: Mapping[str, Any]) -> str:
    return gettext("The replay of game %(number)s: every move of a finished game of durak, step by step.") % {
        "number": kwargs["game_id"]
    }


def _series(kwargs: Mapping[str, Any]) -> str:
    return gettext(
        "Series %(number)s: its games of durak, one after another, and who was the fool in each."
    ) % {"number": kwargs["series_id"]}


def _profile(kwargs: Mapping[str, Any]) -> str:
    return gettext("%(name)s on durak online: games played, results, rating and recent games.") % {
        "name": kwargs["username"]
    }


def _preset(kwargs: Mapping[str, Any]) -> str:
    return gettext("The rules of %(rules)s as this site plays them, with every option explained.") % {
        "rules": preset_name(str(kwargs["preset"]))
    }


#: Page (URL name) → its description: words, or a function of the URL's arguments.
DESCRIPTIONS: dict[str, Description] = {
    "games:lobby": gettext_lazy(
        "Play durak online: open a game with the rules and clock you like, join one, press "
        "“Play now” or play the computer."
    ),
    "games:create": gettext_lazy(
        "Open a game of durak: podkidnoy, perevodnoy and other rules, with a clock or without, "
        "for friends, strangers or computer players."
    ),
    "games:detail": _game,
    "games:vacation": gettext_lazy(
        "Take days off: the clocks of your correspondence games of durak wait while you are away."
    ),
    "chat:log": _chat,
    "replays:replay": _replay,
    "series:detail": _series,
    "matchmaking:play": gettext_lazy(
        "Play now: a quick game of durak with whoever wants the same rules, or with computer players "
        "if nobody comes."
    ),
    "guide:index": gettext_lazy(
        "The rules of durak, the Russian card game, as this site plays them: podkidnoy, "
        "perevodnoy, the Black Book and more."
    ),
    "guide:tutorial": gettext_lazy(
        "Your first game of durak: a guided game that teaches the rules one move at a time."
    ),
    "guide:preset": _preset,
    "stats:profile": _profile,
    "stats:leaderboard": gettext_lazy("The best durak players of the site, by their rating."),
    "stats:farming": gettext_lazy(
        "For moderators: pairs of players whose games together may be farming rating."
    ),
    "moderation:report": gettext_lazy("Report a player or a chat message to the moderators."),
    "notifications:list": gettext_lazy(
        "Your notifications: your moves, invitations, rematch offers and results."
    ),
    "notifications:settings": gettext_lazy(
        "Your settings: e-mail and push notifications, language, time zone and how moves are confirmed."
    ),
    "accounts:api_tokens": gettext_lazy(
        "Your API tokens: the programs that may play for you through the site's REST API."
    ),
    "account_login": gettext_lazy("Log in to durak online to play your games."),
    "account_logout": gettext_lazy("Log out of durak online: your games wait for you until you come back."),
    "account_signup": gettext_lazy(
        "Sign up to play durak online with friends, strangers or the computer: free, in English or Russian."
    ),
    "account_inactive": gettext_lazy("This account of durak online is inactive."),
    "account_email": gettext_lazy("Your e-mail addresses on durak online."),
    "account_email_verification_sent": gettext_lazy(
        "Confirm your e-mail address with the link durak online sent you."
    ),
    "account_confirm_email": gettext_lazy("Confirm your e-mail address for durak online."),
    "account_change_password": gettext_lazy("Change your password on durak online."),
    "account_set_password": gettext_lazy("Set a password for your account on durak online."),
    "account_reset_password": gettext_lazy(
        "Forgot your password? durak online sends you a link to set a new one."
    ),
    "account_reset_password_done": gettext_lazy(
        "The link to set a new password for durak online is on its way to you."
    ),
    "account_reset_password_from_key": gettext_lazy("Set a new password for durak online."),
    "account_reset_password_from_key_done": gettext_lazy("Your new password for durak online is set."),
    "account_reauthenticate": gettext_lazy(
        "Confirm it is you before you change your account on durak online."
    ),
    "account_request_reauthentication_code": gettext_lazy(
        "Ask for a code that confirms it is you on durak online."
    ),
    "account_confirm_reauthentication_code": gettext_lazy(
        "Enter the code that confirms it is you on durak online."
    ),
    "account_confirm_login_code": gettext_lazy("Enter the code that logs you in to durak online."),
}


def describe(view_name: str, kwargs: Mapping[str, Any]) -> str:
    """The description of the page ``view_name`` with its URL's ``kwargs``, in the active language."""
    description = DESCRIPTIONS.get(view_name, SITE)
    if callable(description):
        return description(kwargs)
    return str(description)


def page(request: HttpRequest) -> dict[str, str]:
    """``page_description`` for ``templates/base.html``."""
    match = getattr(request, "resolver_match", None)
    if match is None:
        return {"page_description": str(SITE)}
    return {"page_description": describe(match.view_name, match.kwargs)}
