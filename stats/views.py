"""Profile, leaderboard and the moderators' rating-farming list: thin views over selectors."""

from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from accounts import relations
from accounts.models import User
from games.selectors import share_link_game_ids
from moderation.roles import moderator_required

from . import selectors
from .models import Mode, Rating

PLAYER_COUNTS = [2, 3, 4, 5, 6]


def sparkline(values: list[float], *, width: int = 320, height: int = 64) -> str:
    """SVG polyline points for a rating history (oldest first)."""
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = width / (len(values) - 1)
    return " ".join(
        f"{index * step:.1f},{height - 4 - (value - low) / span * (height - 8):.1f}"
        for index, value in enumerate(values)
    )


@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    # Computer players are inactive accounts (nobody logs in as one) but have a profile.
    user = User.objects.filter(Q(is_active=True) | Q(is_bot=True), username=username).first()
    if user is None:
        raise Http404(_("No such player."))
    data = selectors.profile(
        user=user, viewer=request.user, shared_game_ids=share_link_game_ids(request.session)
    )
    versus = None
    other_name = request.GET.get("vs", "").strip()
    if other_name:
        other = User.objects.filter(username__iexact=other_name, is_active=True).exclude(pk=user.pk).first()
        versus = selectors.head_to_head(me=user, other=other) if other else None
    ratings = [(rating, selectors.rating_uncertainty(rating)) for rating in data.ratings]
    histories = {
        str(mode.label): sparkline([change.ordinal for change in data.history if change.mode == mode.value])
        for mode in Mode
    }
    context = {
        "profile_user": user,
        "profile": data,
        "ratings": ratings,
        "histories": {label: points for label, points in histories.items() if points},
        "versus": versus,
        "versus_name": other_name,
        # The viewer's own private note about this player (accounts.relations), for them alone.
        "may_note": request.user.is_authenticated and request.user.pk != user.pk and not user.is_bot,
        "my_note": relations.notes_by(request.user, [user.pk]).get(user.pk, "")
        if user.pk != request.user.pk
        else "",
        "note_max": relations.NOTE_MAX,
    }
    return render(request, "stats/profile.html", context)


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    mode = request.GET.get("mode", Mode.THROW_IN)
    if mode not in Mode.values:
        mode = Mode.THROW_IN
    try:
        players = int(request.GET.get("players", 0))
    except ValueError:
        players = 0
    if players not in PLAYER_COUNTS:
        players = 0
    rows = [
        (rating, selectors.rating_uncertainty(rating))
        for rating in selectors.leaderboard(mode=mode, players=players)
    ]
    # Provisional ratings (too few games to mean much) are listed apart, below the others.
    context = {
        "rows": [row for row in rows if not row[0].provisional],
        "provisional_rows": [row for row in rows if row[0].provisional],
        "provisional_games": Rating.PROVISIONAL_GAMES,
        "mode": mode,
        "players": players,
        "modes": Mode.choices,
        "counts": PLAYER_COUNTS,
    }
    return render(request, "stats/leaderboard.html", context)


@require_GET
@moderator_required
def farming(request: HttpRequest) -> HttpResponse:
    context = {
        "suspects": selectors.farming_suspects(),
        "min_games": selectors.FARMING_MIN_GAMES,
        "share": selectors.FARMING_FOOL_SHARE,
        "concentration": selectors.FARMING_CONCENTRATION,
    }
    return render(request, "stats/farming.html", context)
