"""Web push: a notification's short sentence, sent to each browser its user subscribed.

A browser subscribes on the settings page (``static/notifications/push.js``): its push
service gives it an endpoint (a URL at that service) and it makes an ECDH key pair and an
authentication secret; ``subscribe`` stores them as a ``PushSubscription``, its user's: an
endpoint another account subscribed stays theirs (``EndpointTaken``). When a
notification is written that its user wants pushed (``Preferences.push_<kind>``, ``wanted``),
the services queue, after the commit, one Celery task for it (``tasks.send_push``, by name
through ``notifications.queue``), only if the user has a browser subscribed (read with the
move's seats); the task reads the user's subscriptions when it runs (``deliver_to_browsers``)
and calls ``deliver`` for each: the payload is encrypted for that browser (aes128gcm, RFC 8291)
and signed for with the site's VAPID key (``notifications.vapid``, RFC 8292) by pywebpush, and
POSTed to the endpoint; the site's service worker (``/sw.js``) shows it.

What a push says: the notification's sentence in its reader's language, the game's number and
players, and the game's URL (a tournament's news: its name, a round's opponents, its page). Never a card, the stock or the seed: only what the bell shows.

**No lock is held and no transaction is open while a push service is talked to**
(docs/locking.md): ``deliver`` reads the rows without locks (autocommit), sends, then writes
one UPDATE (``last_success``) or one DELETE (the service answered 404 or 410: the browser
unsubscribed or the subscription expired) of the subscription, and nothing else.

A push is **at most once per task run**; a task retried after a network error or a 429/5xx
answer may repeat one the service took before the connection broke, which the browser shows
in place of the first (one ``tag`` per game). Nothing catches up on a push whose task was
never queued (broker down): by the time a sweep found it the move would be old news, and the
bell and the email still carry it.

Where it sits (``notifications.queue`` has the app's whole order): above the models, ``vapid``
and the policy, beneath the services (which ask ``wanted``) and the tasks (which call
``deliver_to_browsers`` and ``deliver``); it queues nothing itself.
"""

import binascii
import fnmatch
import json
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.urls import reverse
from django.utils import timezone, translation
from pywebpush import WebPushException, webpush

from accounts.models import User
from games.models import Seat

from . import messages, policy
from .models import Kind, Notification, Preferences, PushSubscription
from .vapid import b64url_decode, enabled, vapid

logger = logging.getLogger(__name__)

#: How long a push service keeps a push for a browser that is offline, at most.
TTL = timedelta(days=1)
#: A push service that neither answers nor refuses within this many seconds is tried again later.
SEND_TIMEOUT = 10.0
#: Browsers one user may have subscribed at once; a new one beyond it replaces their oldest.
MAX_SUBSCRIPTIONS_PER_USER = 20
#: What the player should act on now reaches a sleeping phone at once; the rest may wait.
URGENT_KINDS = {
    Kind.YOUR_MOVE,
    Kind.TIME_LOW,
    Kind.INVITED,
    Kind.REMATCH,
    Kind.CLAIM_POSSIBLE,
    Kind.TOURNAMENT_ROUND,
}
#: Kinds that are worth pushing only while the player is still waited for in an active game.
TURN_KINDS = {Kind.YOUR_MOVE, Kind.TIME_LOW}


class PushServiceUnavailable(Exception):
    """The push service did not take the push but may later (no answer, 429 or 5xx): retry."""


# Subscribing ------------------------------------------------------------------------------


def service_allowed(endpoint: str) -> bool:
    """Whether ``endpoint`` is at one of the push services the site posts to
    (``WEB_PUSH_SERVICES``: origins, ``*.`` for any subdomain).

    >>> from django.test import override_settings
    >>> with override_settings(WEB_PUSH_SERVICES=["https://fcm.googleapis.com", "https://*.notify.windows.com"]):
    ...     [service_allowed(url) for url in (
    ...         "https://fcm.googleapis.com/fcm/send/abc",
    ...         "https://db5p.notify.windows.com/w/?token=x",
    ...         "http://fcm.googleapis.com/fcm/send/abc",
    ...         "https://fcm.googleapis.com.evil.example/x",
    ...         "https://127.0.0.1:6379/",
    ...     )]
    [True, True, False, False, False]
    """
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        return False
    if parts.username or parts.password or not parts.hostname:
        return False
    default_port = {"https": 443, "http": 80}.get(parts.scheme)
    origin = f"{parts.scheme}://{parts.hostname}" + (f":{port}" if port not in (None, default_port) else "")
    return any(
        fnmatch.fnmatchcase(origin, allowed.lower().rstrip("/")) for allowed in settings.WEB_PUSH_SERVICES
    )


def valid_browser_key(p256dh: str) -> bool:
    """A browser's ECDH public key: base64url of an uncompressed point on P-256."""
    try:
        point = b64url_decode(p256dh)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except (ValueError, binascii.Error):
        return False
    return len(point) == 65


def valid_auth_secret(auth: str) -> bool:
    """A browser's authentication secret: base64url of 16 bytes."""
    try:
        return len(b64url_decode(auth)) == 16
    except (ValueError, binascii.Error):
        return False


class EndpointTaken(Exception):
    """The browser's endpoint is another account's subscription: it stays theirs."""


def subscribe(*, user: User, endpoint: str, p256dh: str, auth: str, user_agent: str = "") -> PushSubscription:
    """Store a browser's subscription for ``user`` (the caller has checked it: the form), or
    its new keys if the user had subscribed it already; beyond ``MAX_SUBSCRIPTIONS_PER_USER``
    the user's oldest is forgotten. Locks the endpoint's row (``FOR UPDATE``: nothing refers to
    it), inserted if it is new, then deletes the user's oldest rows.

    An endpoint another account holds raises ``EndpointTaken`` and changes nothing. An endpoint
    is a URL at the push service, not a secret, and keys are whatever the request says, so
    nothing here shows the request comes from that browser: taking the row over would let
    anyone who learnt the URL cut its owner off and have their own pushes sent there. The
    browser itself can start afresh: it unsubscribes at its push service, which gives it a new
    endpoint (the settings page's script does that on this answer, for a computer two accounts
    share), and the old row goes at its next push (404 or 410). Of two requests at once, the
    second's insert waits on the endpoint's unique index for the first and then fails: it reads
    the row the first committed."""
    keys = {"p256dh": p256dh, "auth": auth, "user_agent": user_agent[:300]}
    with transaction.atomic():
        subscription = _endpoint_row(endpoint, user=user, **keys)
        if subscription.user_id != user.pk:
            raise EndpointTaken(endpoint)
        changed = [name for name, value in keys.items() if getattr(subscription, name) != value]
        if changed:  # the browser made new keys (or is a newer version): same endpoint, same row
            for name in changed:
                setattr(subscription, name, keys[name])
            subscription.save(update_fields=changed)
        keep = PushSubscription.objects.filter(user=user).order_by("-created", "-pk")[
            :MAX_SUBSCRIPTIONS_PER_USER
        ]
        PushSubscription.objects.filter(user=user).exclude(
            pk__in=list(keep.values_list("pk", flat=True))
        ).delete()
    return subscription


def _endpoint_row(endpoint: str, **new: Any) -> PushSubscription:
    """The endpoint's row, locked; inserted with ``new`` if there is none. Call in a transaction."""
    rows = PushSubscription.objects.select_for_update().filter(endpoint=endpoint)
    subscription = rows.first()
    if subscription is None:
        try:
            with transaction.atomic():
                return PushSubscription.objects.create(endpoint=endpoint, **new)
        except IntegrityError:  # subscribed by a request that committed while this one inserted
            subscription = rows.first()
    # None: that one was forgotten in the instant since; this one's is the row then.
    return subscription or PushSubscription.objects.create(endpoint=endpoint, **new)


def unsubscribe(*, user: User, endpoint: str | None = None) -> int:
    """Forget one of the user's browsers (``endpoint``), or all of them (``None``); returns how
    many were forgotten."""
    subscriptions = PushSubscription.objects.filter(user=user)
    if endpoint is not None:
        subscriptions = subscriptions.filter(endpoint=endpoint)
    deleted, _ = subscriptions.delete()
    return deleted


# Queueing ---------------------------------------------------------------------------------


def wanted(kind: str, prefs: Preferences) -> bool:
    """Whether a notification of ``kind`` is to be pushed to the user's browsers, if they have
    any: the site pushes and the user wants this kind pushed. The services then queue one task
    (``queue.push_after_commit``), which reads the browsers when it runs
    (``deliver_to_browsers``)."""
    return enabled() and prefs.wants_push(kind)


# Sending ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Push:
    """What one push carries (the JSON the service worker reads) and for how long it is kept."""

    title: str
    body: str
    url: str
    tag: str
    ttl: int
    urgency: str

    def payload(self) -> str:
        return json.dumps({"title": self.title, "body": self.body, "url": self.url, "tag": self.tag})


def push_for(notification: Notification, *, now: datetime | None = None) -> Push:
    """The push of one notification, in its reader's language: "Your move in game 12 (alice,
    bob)" and the notification's sentence. Reads the game's seats for the players' names."""
    now = now or timezone.now()
    user, game = notification.user, notification.game
    ttl = TTL
    with translation.override(user.language or settings.LANGUAGE_CODE):
        body = notification.message
        if game is None:
            return Push(
                title=str(messages.subject(notification.kind, "", notification.params)).strip(),
                body=body,
                url=notification.link or reverse("notifications:list"),
                tag=f"tournament-{notification.tournament_id}"
                if notification.tournament_id is not None
                else f"notification-{notification.pk}",
                ttl=int(ttl.total_seconds()),
                urgency="normal",
            )
        seats = list(Seat.objects.filter(game=game).select_related("user").order_by("position"))
        names = ", ".join(seat.user.name for seat in seats)
        title = messages.subject(notification.kind, game.pk, notification.params) + (
            f" ({names})" if names else ""
        )
        deadline = next((seat.deadline for seat in seats if seat.user_id == user.pk), None)
    if notification.kind in TURN_KINDS and deadline is not None:
        ttl = min(ttl, max(deadline - now, timedelta(minutes=1)))  # no use after the deadline
    return Push(
        title=title,
        body=body,
        url=reverse("games:detail", args=[game.pk]),
        tag=f"game-{game.pk}",
        ttl=int(ttl.total_seconds()),
        urgency="high" if notification.kind in URGENT_KINDS else "normal",
    )


def push_for_turns(user: User, turns: list[Notification], *, now: datetime | None = None) -> Push:
    """One push for the "your move"s of several games (``policy.push_batch``): "It's your move
    in 3 games", each game's sentence, and the lobby, which lists the games waiting first."""
    now = now or timezone.now()
    with translation.override(user.language or settings.LANGUAGE_CODE):
        title = messages.your_move_in_games(len(turns))
        body = "\n".join(turn.message for turn in turns)
    deadlines = Seat.objects.filter(
        user=user, game_id__in=[turn.game_id for turn in turns], deadline__isnull=False
    )
    ttl = min([TTL, *(max(seat.deadline - now, timedelta(minutes=1)) for seat in deadlines if seat.deadline)])
    return Push(
        title=title,
        body=body,
        url=reverse("games:lobby"),
        tag="your-move",
        ttl=int(ttl.total_seconds()),
        urgency="high",
    )


def deliver_to_browsers(*, notification_id: int, written_at: str | None = None) -> list[int]:
    """Push one notification to each browser its user has subscribed now, if it is still due
    (``deliver``, one after the other); returns the subscriptions whose push service could not
    take it now (``PushServiceUnavailable``), for the caller to try again later. The
    subscriptions are read here, when the push is decided, not when the change was written.
    Call with no transaction open (the task does)."""
    user_id = Notification.objects.filter(pk=notification_id).values_list("user_id", flat=True).first()
    if user_id is None:
        return []
    later = []
    subscriptions = PushSubscription.objects.filter(user_id=user_id).order_by("pk")
    for subscription_id in subscriptions.values_list("pk", flat=True):
        try:
            deliver(notification_id=notification_id, subscription_id=subscription_id, written_at=written_at)
        except PushServiceUnavailable:
            later.append(subscription_id)
    return later


def deliver(*, notification_id: int, subscription_id: int, written_at: str | None = None) -> bool:
    """Send the push of one notification to one browser if it is still due; returns whether the
    push service took it. Call with no transaction open (the task does).

    ``written_at`` is the notification's ``created_at`` when the push was queued: a "your move"
    moved up since (a newer turn in the same game) has a newer push queued, so this one is
    dropped. On 201/202 the subscription's ``last_success`` is set; on 404/410 the subscription
    is deleted; on no answer, 429 or 5xx ``PushServiceUnavailable`` is raised for the task to
    retry; any other refusal is logged and dropped."""
    if connection.in_atomic_block:
        raise RuntimeError("deliver() talks to a push service: call it with no transaction open")
    if not enabled():
        return False
    subscription = PushSubscription.objects.filter(pk=subscription_id).first()
    notification = Notification.objects.select_related("user", "game").filter(pk=notification_id).first()
    if subscription is None or notification is None or subscription.user_id != notification.user_id:
        return False
    if written_at is not None and notification.created_at.isoformat() != written_at:
        return False
    # Quiet while the player watches the game, coalesced with their other "your move"s.
    batch = policy.push_batch(notification)
    if batch is None:
        return False
    if not service_allowed(subscription.endpoint):
        logger.warning(
            "push subscription %s: its endpoint is not at an allowed push service", subscription.pk
        )
        return False
    push = push_for(notification) if len(batch) == 1 else push_for_turns(notification.user, batch)
    try:
        webpush(
            subscription_info={
                "endpoint": subscription.endpoint,
                "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
            },
            data=push.payload(),
            vapid_private_key=vapid(),
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=push.ttl,
            headers={"Urgency": push.urgency, "Topic": push.tag[:32]},
            timeout=SEND_TIMEOUT,
            requests_session=_push_session(),
        )
    except WebPushException as error:
        return _refused(subscription, error)
    except requests.RequestException as error:
        raise PushServiceUnavailable(f"push service unreachable: {type(error).__name__}") from error
    PushSubscription.objects.filter(pk=subscription.pk).update(last_success=timezone.now())
    return True


class _NoRedirects(requests.Session):
    """The session every push is posted with: a push service's answer is its answer, and a
    redirect is never followed. Following one would have the worker post, with the site's VAPID
    signature, to whatever address a ``Location`` header names (``WEB_PUSH_SERVICES`` vets the
    endpoint, not where it points). pywebpush raises on any answer above 202, so a 3xx is a
    refusal like a 400: logged, and the push dropped."""

    max_redirects = 0

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        kwargs["allow_redirects"] = False
        return super().request(*args, **kwargs)


_session: _NoRedirects | None = None


def _push_session() -> _NoRedirects:
    """The process's session (its connections kept for the next push), made once."""
    global _session
    if _session is None:
        _session = _NoRedirects()
    return _session


def _refused(subscription: PushSubscription, error: WebPushException) -> bool:
    response: Any = error.response
    status = getattr(response, "status_code", None)
    if status in (404, 410):
        # The browser unsubscribed, or the subscription expired: it will never take a push again.
        PushSubscription.objects.filter(pk=subscription.pk, endpoint=subscription.endpoint).delete()
        logger.info("push subscription %s is gone (%s): deleted", subscription.pk, status)
        return False
    if status is not None and (status == 429 or status >= 500):
        raise PushServiceUnavailable(f"push service answered {status}") from error
    # A redirect, 400, 401, 403, 413, or no answer at all (the VAPID settings): trying again
    # changes nothing.
    logger.warning("push to subscription %s refused (%s): %s", subscription.pk, status, str(error)[:200])
    return False
