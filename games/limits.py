"""Who may take a seat in an open game: its creator's join limits and the players' blocks.

One rule in two forms that agree (``tests/games/test_join_limits.py`` checks them over a grid
of games and viewers): ``join_refusal`` for one game and one player (``game_join`` refuses with
it, the game page shows it), and ``joinable_by`` for the lobby's one query.

**The limits** (``Game.join_*``, set by the creator): friends of the creator only
(``accounts.relations.are_friends``); a minimum reliability (``User.reliability``: a new player
has none yet and is refused); a rating range in the game's mode (the rating the pages show,
from stats through ``games.hooks.ratings_of``: a player with no rating in that mode is refused
by any range, and told so); the site language (``User.language``).

**Blocks.** Nobody joins a game where a seated player and they are kept apart by a block
(``accounts.relations``), whichever of them blocked the other. The refusal is the sentence of
the friends-only limit, "You cannot join this game.", which names no block: a block is silent.

**Invitations.** A player the creator invited by name (``Invitation.invited_by`` the creator)
was chosen by them: the limits do not apply to them. A block always does. An invitation by
another seated player, or the share link of a private game (which anyone may pass on), lets no
one past a limit.

**Visitors** (not logged in) see the games that are not for friends only: they must log in to
join, and are then told what applies to them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import Friendship, User
from accounts.relations import are_friends, block_with

from . import hooks
from .models import Game, Invitation, Seat

#: The languages a game may ask its players to use the site in (``Game.join_language``), by
#: their own names, as the site's language switcher shows them.
JOIN_LANGUAGES = [(code, name) for code, name in settings.LANGUAGES]
#: The refusal of a language limit, and the limit in words, one sentence each language.
_LANGUAGE_REFUSALS = {
    "en": gettext_lazy("Only players who use the site in English can join this game."),
    "ru": gettext_lazy("Only players who use the site in Russian can join this game."),
}
_LANGUAGE_WORDS = {
    "en": gettext_lazy("players who use the site in English"),
    "ru": gettext_lazy("players who use the site in Russian"),
}

#: The refusal of the friends-only limit, and of a block (which must not read otherwise).
NOT_FOR_YOU = gettext_lazy("You cannot join this game.")


#: A minimum reliability is a percentage.
RELIABILITY_RANGE = (0, 100)
#: A rating range's ends (ratings shown are a few tens at most, either sign).
RATING_RANGE = (-1000, 1000)


def limits_errors(
    *,
    min_reliability: int | None = None,
    rating_min: int | None = None,
    rating_max: int | None = None,
    language: str = "",
) -> dict[str, str]:
    """What is wrong with these join limits, by the name of the limit (empty: nothing): the
    create form, the API and ``game_create`` give the same errors."""
    errors: dict[str, str] = {}
    low, high = RELIABILITY_RANGE
    if min_reliability is not None and not low <= min_reliability <= high:
        errors["min_reliability"] = _("The minimum reliability must be between %(low)s and %(high)s.") % {
            "low": low,
            "high": high,
        }
    low, high = RATING_RANGE
    for name, value in (("rating_min", rating_min), ("rating_max", rating_max)):
        if value is not None and not low <= value <= high:
            errors[name] = _("A rating limit must be between %(low)s and %(high)s.") % {
                "low": low,
                "high": high,
            }
    if rating_min is not None and rating_max is not None and rating_min > rating_max and not errors:
        errors["rating_max"] = _("The highest rating must not be below the lowest.")
    if language and language not in dict(JOIN_LANGUAGES):
        errors["language"] = _("Unknown language %(code)r.") % {"code": language}
    return errors


def has_limits(game: Game) -> bool:
    """Whether the creator set any join limit (none: only blocks can keep a player out)."""
    return bool(
        game.join_friends_only
        or game.join_min_reliability is not None
        or game.join_rating_min is not None
        or game.join_rating_max is not None
        or game.join_language
    )


def invited_by_creator(game: Game, user: User) -> bool:
    """Whether the game's creator invited ``user`` (one query): the limits do not apply then."""
    return Invitation.objects.filter(game=game, user=user, invited_by_id=game.creator_id).exists()


def blocked_at(game: Game, user: User) -> bool:
    """Whether a block keeps ``user`` and any player seated in ``game`` apart (one query)."""
    return Seat.objects.filter(game=game).filter(block_with(user.pk, "user_id")).exists()


def join_refusal(
    game: Game, user: User, *, blocked: bool | None = None, invited: bool | None = None
) -> str | None:
    """Why ``user`` may not take a seat in ``game`` (a sentence for them), or None if they may.

    ``blocked``: whether a block keeps them apart from a seated player, when the caller knows
    already (``game_join`` reads it with the seats); ``invited``: whether the creator invited
    them. Each is read when not given and needed: no query for a game without limits but the
    block's, none at all with both given.
    """
    if user.pk == game.creator_id:
        return None
    if blocked is None:
        blocked = blocked_at(game, user)
    if blocked:
        return str(NOT_FOR_YOU)
    if not has_limits(game):
        return None
    if invited is None:
        invited = invited_by_creator(game, user)
    if invited:
        return None
    if game.join_friends_only and not are_friends(user, game.creator_id):
        return str(NOT_FOR_YOU)
    if game.join_min_reliability is not None:
        refusal = _reliability_refusal(game.join_min_reliability, user.reliability)
        if refusal:
            return refusal
    if game.join_rating_min is not None or game.join_rating_max is not None:
        rating = _ratings_of(user.pk).in_rules(game.rules)
        refusal = _rating_refusal(game.join_rating_min, game.join_rating_max, rating)
        if refusal:
            return refusal
    if game.join_language and game.join_language != user.language:
        return str(_LANGUAGE_REFUSALS.get(game.join_language, NOT_FOR_YOU))
    return None


def joinable_by(games: QuerySet[Game], user: User | Any) -> QuerySet[Game]:
    """``games`` narrowed to those ``user`` may join (or is seated in already), as
    ``join_refusal`` decides, in the same one query: ``EXISTS`` subqueries for friends, blocks
    and invitations, the viewer's reliability, language and ratings read once (the ratings in
    one query, only when some game of ``games`` may have a range: always asked here). A visitor
    sees every game that is not for friends only."""
    if not getattr(user, "is_authenticated", False):
        return games.filter(join_friends_only=False)
    seated = Exists(Seat.objects.filter(game=OuterRef("pk"), user_id=user.pk))
    invited = Exists(
        Invitation.objects.filter(game=OuterRef("pk"), user_id=user.pk, invited_by_id=OuterRef("creator_id"))
    )
    blocked = Exists(Seat.objects.filter(game=OuterRef("pk")).filter(block_with(user.pk, "user_id")))
    friend = Exists(Friendship.objects.filter(user_id=user.pk, friend_id=OuterRef("creator_id")))

    reliability = user.reliability
    within = Q(join_friends_only=False) | Q(friend)
    if reliability is None:
        within &= Q(join_min_reliability__isnull=True)
    else:
        within &= Q(join_min_reliability__isnull=True) | Q(join_min_reliability__lte=reliability)
    within &= Q(join_language="") | Q(join_language=user.language)
    no_range = Q(join_rating_min__isnull=True, join_rating_max__isnull=True)
    in_range = (
        Q(viewer_rating__isnull=False)
        & (Q(join_rating_min__isnull=True) | Q(join_rating_min__lte=F("viewer_rating")))
        & (Q(join_rating_max__isnull=True) | Q(join_rating_max__gte=F("viewer_rating")))
    )
    within &= no_range | in_range
    return games.alias(viewer_rating=_ratings_of(user.pk).over_games()).filter(
        seated | Q(creator_id=user.pk) | (~blocked & (invited | within))
    )


def limits_words(game: Game) -> list[str]:
    """The game's join limits in words, for its page ("friends of the creator only", ...)."""
    return limit_words(
        friends_only=game.join_friends_only,
        min_reliability=game.join_min_reliability,
        rating_min=game.join_rating_min,
        rating_max=game.join_rating_max,
        language=game.join_language,
        friends=_("friends of the creator only"),
    )


def limit_words(
    *,
    friends_only: bool,
    min_reliability: int | None,
    rating_min: int | None,
    rating_max: int | None,
    language: str,
    friends: str,
) -> list[str]:
    """Join limits in words, one phrase each: a game's (:func:`limits_words`) or a Play-now
    seeker's, who says in ``friends`` whose friends."""
    words = []
    if friends_only:
        words.append(friends)
    if min_reliability is not None:
        words.append(_("reliability at least %(minimum)s%%") % {"minimum": min_reliability})
    if rating_min is not None or rating_max is not None:
        words.append(_("rated %(range)s") % {"range": rating_range_words(rating_min, rating_max)})
    if language:
        words.append(str(_LANGUAGE_WORDS.get(language, language)))
    return words


def _reliability_refusal(minimum: int, reliability: int | None) -> str | None:
    if reliability is None:
        return _(
            "Only players with a reliability of at least %(minimum)s%% can join this game; "
            "yours is not known yet (you are a new player)."
        ) % {"minimum": minimum}
    if reliability < minimum:
        return _(
            "Only players with a reliability of at least %(minimum)s%% can join this game; yours is %(yours)s%%."
        ) % {"minimum": minimum, "yours": reliability}
    return None


def rating_range_words(low: int | None, high: int | None) -> str:
    """ "between 10 and 20", "at least 10", "at most 20" (empty: no range)."""
    if low is not None and high is not None:
        return _("between %(low)s and %(high)s") % {"low": low, "high": high}
    if low is not None:
        return _("at least %(low)s") % {"low": low}
    if high is not None:
        return _("at most %(high)s") % {"high": high}
    return ""


def _rating_refusal(low: int | None, high: int | None, rating: float | None) -> str | None:
    words = rating_range_words(low, high)
    if rating is None:
        return _("Only players rated %(range)s can join this game; you have no rating in its mode yet.") % {
            "range": words
        }
    if (low is not None and rating < low) or (high is not None and rating > high):
        return _("Only players rated %(range)s can join this game; yours is %(rating)s.") % {
            "range": words,
            "rating": f"{rating:.1f}".replace("-", "\u2212"),
        }
    return None


def rating_in(user_id: int, rules: Mapping[str, Any]) -> float | None:
    """The player's rating as shown in the mode of a game of ``rules`` (None: not rated in it
    yet), as a rating range reads it: Play now's seekers' ranges (``matchmaking``) too."""
    return _ratings_of(user_id).in_rules(rules)


def _ratings_of(user_id: int) -> hooks.ShownRatings:
    reader = next(iter(hooks.ratings_of))
    return reader(user_id)
