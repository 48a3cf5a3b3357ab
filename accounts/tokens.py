"""API tokens' lifecycle: made with a name and an expiry, listed, used, revoked.

The tokens are django-rest-knox's (``accounts.models.ApiToken``): the database keeps a digest,
the token is shown once. Views (the settings page, ``api.tokens``), the authentication class
(``api.authentication``), the password signal (``accounts.signals``) and the suspension
(``moderation.services.user_suspend``) all come here.
"""

from datetime import timedelta

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import ngettext
from knox.settings import knox_settings

from .models import ApiToken, User

#: The longest a token may live; a token asks for 1 to MAX_DAYS days.
MAX_DAYS = 365
#: ``last_used`` is written at most this often per token, not on every request.
LAST_USED_RESOLUTION = timedelta(minutes=1)


class TokenLimitReached(Exception):
    def __init__(self, limit: int) -> None:
        super().__init__(
            ngettext(
                "You already have %(limit)d API token: revoke it before making another.",
                "You already have %(limit)d API tokens: revoke one before making another.",
                limit,
            )
            % {"limit": limit}
        )


def default_days() -> int:
    """The lifetime of a token that asks for none (``REST_KNOX["TOKEN_TTL"]``, API_TOKEN_DAYS)."""
    ttl = knox_settings.TOKEN_TTL
    return min(MAX_DAYS, max(1, ttl.days)) if ttl is not None else MAX_DAYS


def token_list(*, user: User) -> QuerySet[ApiToken]:
    """The user's tokens that have not expired, newest first."""
    live: QuerySet[ApiToken] = ApiToken.objects.filter(user=user).filter(
        Q(expiry__isnull=True) | Q(expiry__gt=timezone.now())
    )
    return live


@transaction.atomic
def token_create(*, user: User, name: str, days: int | None = None) -> tuple[ApiToken, str]:
    """A new token for ``user`` that expires in ``days`` (1 to MAX_DAYS; None: ``default_days()``).

    Returns the row and the token; the token is in no row, so this is the only time anyone sees
    it. Refused (``TokenLimitReached``) while the user has ``TOKEN_LIMIT_PER_USER`` live tokens.
    The user's row is locked so that two requests at once cannot both pass the limit.
    """
    days = default_days() if days is None else days
    if not 1 <= days <= MAX_DAYS:
        raise ValueError(f"days must be 1 to {MAX_DAYS}, not {days}")
    User.objects.select_for_update(no_key=True).filter(pk=user.pk).first()
    ApiToken.objects.filter(user=user, expiry__lte=timezone.now()).delete()
    limit = knox_settings.TOKEN_LIMIT_PER_USER
    if limit is not None and token_list(user=user).count() >= limit:
        raise TokenLimitReached(limit)
    token: ApiToken
    token, secret = ApiToken.objects.create(user=user, expiry=timedelta(days=days), name=name.strip())
    return token, secret


def token_revoke(*, user: User, token_id: int) -> bool:
    """Revoke one of the user's tokens; False when they have none with that id."""
    deleted, _by_model = ApiToken.objects.filter(user=user, pk=token_id).delete()
    return int(deleted) > 0


def tokens_revoke_all(*, user: User) -> int:
    """Revoke every token of the user (a password change, a suspension, "revoke all"); how many."""
    deleted, _by_model = ApiToken.objects.filter(user=user).delete()
    return int(deleted)


def token_used(token: ApiToken) -> bool:
    """Note that ``token`` authenticated a request: one UPDATE when its ``last_used`` is older
    than LAST_USED_RESOLUTION, nothing otherwise. Returns whether it wrote."""
    now = timezone.now()
    if token.last_used is None or now - token.last_used >= LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used=now)
        token.last_used = now
        return True
    return False
