"""Every URL of the site, with what an anonymous visitor and a stranger may get from it.

``tests/security/test_access.py`` walks the URLconf and fails for a URL that is not listed
here, so a new view cannot ship without saying who may use it. A stranger is a logged-in
user with no seat, invitation or notification of their own in the world of
``tests.security.world``; they are pointed at the owners' ids.

Page forms answer a refusal the way the rest of the site does (a redirect back with an error
message, or the page with its error and a 4xx); whatever the status, the test also checks
that none of the owners' rows changed and that no secret is in the answer.

A URL that takes a game id is also pointed at Olga's private game (``private``): to anyone
who is not its player, invitee or share-link holder it answers as for a game that does not
exist, 404 (``anonymous_private``, ``stranger_private``), or the log-in page first where the
URL needs one (``tests/security/test_private_games.py`` checks every such URL in each state).
"""

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from guide import tutorial

from .world import World

OK = frozenset({200})
REDIRECT = frozenset({302})
NOT_FOUND = frozenset({404})
#: A page POST refused: redirect back with a message, or a 4xx page.
PAGE_REFUSED = frozenset({302, 400, 403, 404, 409})
#: The API without credentials.
API_ANONYMOUS = frozenset({401})
#: Pages behind ``login_required`` for an anonymous visitor: to the log-in page.
LOGIN = frozenset({"login"})

Target = tuple[dict[str, Any], str]  # URL kwargs, query string


@dataclass(frozen=True)
class Route:
    method: str
    #: What to point the URL at: the owners' objects (kwargs, query string).
    targets: Callable[[World], list[Target]] = lambda world: [({}, "")]
    #: The POST body (a form, or JSON for the API).
    data: Callable[[World], dict[str, Any]] = lambda world: {}
    anonymous: frozenset[Any] = OK
    stranger: frozenset[Any] = OK
    api: bool = False
    why: str = ""
    #: The same URL pointed at the private game, and what each may get from it there.
    private: Callable[[World], list[Target]] = lambda world: []
    anonymous_private: frozenset[Any] = NOT_FOUND
    stranger_private: frozenset[Any] = NOT_FOUND
    extra: dict[str, Any] = field(default_factory=dict)
    #: Cards the page always shows, whatever the games: the tutorial's own fixed deal. The
    #: hidden-card checks leave these out (the world's running game may hold one hidden).
    demo_cards: frozenset[str] = frozenset()


def running(world: World) -> list[Target]:
    return [({"game_id": world.running.pk}, "")]


def private(world: World) -> list[Target]:
    return [({"game_id": world.private.pk}, "")]


def finished(world: World) -> list[Target]:
    return [({"game_id": world.finished.pk}, "")]


def olga_tournament(world: World) -> list[Target]:
    return [({"tournament_id": world.tournament.pk}, "")]


def open_tournament(world: World) -> list[Target]:
    return [({"tournament_id": world.open_tournament.pk}, "")]


def running_games(world: World) -> list[Target]:
    return [({"game_id": world.running.pk}, ""), ({"game_id": world.next_game.pk}, "")]


def a_legal_move(world: World) -> dict[str, Any]:
    """The move the running game waits for: what an owner's request would do."""
    world.running.refresh_from_db()
    assert world.running.state is not None
    engine = world.running.engine()
    player = engine.waiting_for()[0]
    return {"action": engine.legal_json(player)[0], "expected_version": world.running.version}


def api_move(world: World) -> dict[str, Any]:
    """The same move as the API takes it: without "player" (the caller's seat)."""
    move = a_legal_move(world)
    return {**move, "action": {key: value for key, value in move["action"].items() if key != "player"}}


def move_form(world: World) -> dict[str, Any]:
    move = a_legal_move(world)
    return {"action": json.dumps(move["action"]), "expected_version": move["expected_version"]}


def leave_form(world: World) -> dict[str, Any]:
    """A resignation or a claim against the running game's version (an owner's would apply)."""
    world.running.refresh_from_db()
    return {"expected_version": world.running.version}


ROUTES: dict[str, Route] = {
    # Site-wide
    "healthz": Route("GET"),
    "service_worker": Route("GET", why="the same script for everyone"),
    "manifest": Route("GET", why="the same web app manifest for everyone"),
    "offline": Route("GET", why="the same offline page for everyone: no user, no query"),
    "live": Route(
        "GET",
        lambda w: [({}, f"channel=game-{w.running.pk}&channel=lobby")],
        anonymous=frozenset({204}),  # no stream under WSGI (the test client): the page polls
        stranger=frozenset({204}),
        why="a public game's versions and the lobby's news; a private game's stream, another "
        "user's bell and a missing game are refused alike (tests/security/test_stream.py)",
        private=lambda w: [({}, f"channel=game-{w.private.pk}"), ({}, f"channel=user-{w.olga.pk}")],
    ),
    "set_language": Route(
        "POST",
        data=lambda w: {"language": "ru", "next": "/"},
        anonymous=REDIRECT,
        stranger=REDIRECT,
        why="only the caller's own session and language",
    ),
    # The lobby, game pages and their forms (games/)
    "games:lobby": Route("GET"),
    "games:lobby_open": Route(
        "GET",
        lambda w: [({}, ""), ({}, "rules=classic&players=2&clock=none")],
        why="the public open games, as the lobby lists them",
    ),
    "games:create": Route(
        "POST",
        data=lambda w: {"preset": "classic", "num_players": 2},
        anonymous=LOGIN,
        stranger=REDIRECT,
        why="opens the stranger's own game",
    ),
    "games:detail": Route(
        "GET", running, private=private, why="anyone may watch a public game; the view is a spectator's"
    ),
    "games:turns": Route(
        "GET",
        lambda w: [({}, ""), ({}, f"current={w.running.pk}")],
        anonymous=LOGIN,
        why="the caller's own count of games waiting for their move, and their next game",
    ),
    "games:poll": Route(
        "GET",
        lambda w: [({"game_id": w.running.pk}, "version=-1")],
        private=lambda w: [({"game_id": w.private.pk}, f"version={w.private.version}")],
    ),
    "games:history": Route(
        "GET",
        lambda w: [({"game_id": w.running.pk}, "before=2"), ({"game_id": w.running.pk}, "before=1&seen=0")],
        private=lambda w: [({"game_id": w.private.pk}, "before=2")],
        why="anyone may read a public game's earlier moves (the public log), as its page",
    ),
    "games:move": Route(
        "POST",
        running,
        move_form,
        anonymous=LOGIN,
        stranger=frozenset({403}),
        private=private,
        anonymous_private=LOGIN,
    ),
    "games:presence": Route(
        "POST",
        running,
        lambda w: {"visible": "1", "version": w.running.version},
        anonymous=LOGIN,
        stranger=NOT_FOUND,
        private=private,
        anonymous_private=LOGIN,
        why="only the caller's own seat's presence; anyone else's word changes nothing and is "
        "answered as for a missing game",
    ),
    "games:join": Route(
        "POST",
        running,
        anonymous=LOGIN,
        stranger=PAGE_REFUSED,
        private=private,
        anonymous_private=LOGIN,
        why="a running game is full; a private one needs an invitation or its share link",
    ),
    "games:join_link": Route(
        "GET",
        lambda w: [({"game_id": w.running.pk, "token": "guessed-token"}, "")],
        anonymous=REDIRECT,
        stranger=REDIRECT,
        private=lambda w: [({"game_id": w.private.pk, "token": "guessed-token"}, "")],
        why="carries the token to the page; a private game's link with a wrong token is no game",
    ),
    "games:leave": Route(
        "POST", running, anonymous=LOGIN, stranger=PAGE_REFUSED, private=private, anonymous_private=LOGIN
    ),
    "games:start": Route(
        "POST", running, anonymous=LOGIN, stranger=PAGE_REFUSED, private=private, anonymous_private=LOGIN
    ),
    "games:resign": Route(
        "POST",
        running,
        leave_form,
        anonymous=LOGIN,
        stranger=frozenset({403}),
        private=private,
        anonymous_private=LOGIN,
    ),
    "games:claim": Route(
        "POST",
        running,
        leave_form,
        anonymous=LOGIN,
        stranger=frozenset({403}),
        private=private,
        anonymous_private=LOGIN,
    ),
    "games:fill_with_bots": Route(
        "POST", running, anonymous=LOGIN, stranger=PAGE_REFUSED, private=private, anonymous_private=LOGIN
    ),
    "games:invite": Route(
        "POST",
        running,
        lambda w: {"username": w.stranger.username},
        anonymous=LOGIN,
        stranger=PAGE_REFUSED,
        private=private,
        anonymous_private=LOGIN,
    ),
    "games:vacation": Route(
        "POST",
        data=lambda w: {"starts_on": "2030-01-01", "days": 2},
        anonymous=LOGIN,
        stranger=REDIRECT,
        why="books the stranger's own vacation",
    ),
    # The guide (rules pages)
    "guide:index": Route("GET"),
    "guide:reliability": Route("GET", why="the same explanation for everyone"),
    "guide:tutorial": Route(
        "GET", demo_cards=frozenset(card for hand in tutorial.HANDS for card in hand) | set(tutorial.STOCK)
    ),
    "guide:preset": Route("GET", lambda w: [({"preset": "classic"}, "")]),
    # Chat (chat/)
    "chat:log": Route(
        "GET",
        lambda w: [
            ({"game_id": w.running.pk}, ""),
            ({"game_id": w.running.pk}, "channel=players&marker=0.0"),
        ],
        private=lambda w: [
            ({"game_id": w.private.pk}, ""),
            ({"game_id": w.private.pk}, "channel=players&marker=0.0"),
        ],
        why="the viewer's own channel: a stranger reads the spectators'",
    ),
    "chat:post": Route(
        "POST",
        running,
        lambda w: {"text": "hi from outside"},
        anonymous=LOGIN,
        stranger=REDIRECT,
        private=private,
        anonymous_private=LOGIN,
        why="a stranger writes in the spectators' channel only",
    ),
    # Play now (matchmaking/): the caller's own place in the queue; who waits for what is public
    "matchmaking:play": Route("GET", why="the form, or the caller's own place in the queue"),
    "matchmaking:status": Route("GET", why="the caller's own place; counts of who waits and who is online"),
    "matchmaking:leave": Route(
        "POST", anonymous=LOGIN, stranger=REDIRECT, why="leaves the caller's own place only"
    ),
    # Notifications (notifications/)
    "notifications:list": Route("GET", anonymous=LOGIN, why="the caller's own"),
    "notifications:read": Route(
        "POST", lambda w: [({"notification_id": w.notification.pk}, "")], anonymous=LOGIN, stranger=NOT_FOUND
    ),
    "notifications:read_all": Route("POST", anonymous=LOGIN, stranger=REDIRECT, why="the caller's own"),
    "notifications:push_subscribe": Route(
        "POST",
        data=lambda w: {"endpoint": "https://fcm.googleapis.com/fcm/send/x", "p256dh": "x", "auth": "x"},
        anonymous=LOGIN,
        stranger=frozenset({400, 409}),  # not a subscription; 409 while push is off (no VAPID keys)
        why="the caller's own browser",
    ),
    "notifications:push_unsubscribe": Route(
        "POST",
        data=lambda w: {"endpoint": "https://fcm.googleapis.com/fcm/send/olga"},
        anonymous=LOGIN,
        why="forgets only the caller's own browsers (tests/notifications/test_push.py)",
    ),
    "notifications:settings": Route(
        "POST",
        data=lambda w: {"time_zone": "Asia/Tokyo"},
        anonymous=LOGIN,
        stranger=frozenset({200, 302}),
        why="the caller's own",
    ),
    # API tokens (accounts/): only ever the caller's own
    "accounts:api_tokens": Route(
        "POST",
        data=lambda w: {"name": "stranger's bot", "days": 7},
        anonymous=LOGIN,
        why="makes a token of the caller's own (the GET lists the caller's own)",
    ),
    "accounts:api_token_revoke": Route(
        "POST", lambda w: [({"token_id": w.olga_token.pk}, "")], anonymous=LOGIN, stranger=NOT_FOUND
    ),
    "accounts:note": Route(
        "POST",
        lambda w: [({"username": w.olga.username}, "")],
        data=lambda w: {"text": "a stranger's own note"},
        anonymous=LOGIN,
        stranger=REDIRECT,
        why="writes the caller's own note only, seen by them alone",
    ),
    # Reports (moderation/)
    "moderation:report": Route(
        "GET",
        lambda w: [({}, f"message={w.players_message.pk}")],
        anonymous=LOGIN,
        stranger=NOT_FOUND,
        private=lambda w: [({}, f"game={w.private.pk}"), ({}, f"user={w.olga.pk}&game={w.private.pk}")],
        anonymous_private=LOGIN,
        why="reporting a message shows it: only to those who can read its channel",
    ),
    # Tournaments (tournaments/): everyone reads them; a button changes only the caller's own
    # registration, or is refused to anyone but the creator.
    "tournaments:list": Route("GET", why="every tournament's public settings and players"),
    "tournaments:create": Route(
        "POST",
        data=lambda w: {"name": "Stranger's cup"},
        anonymous=LOGIN,
        stranger=frozenset({400}),
        why="announces the caller's own tournament (this form is incomplete: refused, nothing made)",
    ),
    "tournaments:detail": Route(
        "GET", open_tournament, why="a tournament's page is everyone's: settings, players, standings, results"
    ),
    "tournaments:register": Route(
        "POST", open_tournament, anonymous=LOGIN, stranger=REDIRECT, why="registers the caller only"
    ),
    "tournaments:unregister": Route(
        "POST",
        open_tournament,
        anonymous=LOGIN,
        stranger=REDIRECT,
        why="takes back the caller's own registration only",
    ),
    "tournaments:withdraw": Route(
        "POST",
        open_tournament,
        anonymous=LOGIN,
        stranger=PAGE_REFUSED,
        why="the caller's own withdrawal only",
    ),
    "tournaments:add_computer": Route(
        "POST",
        open_tournament,
        lambda w: {"level": "rules"},
        anonymous=LOGIN,
        stranger=frozenset({403}),
        why="the creator's alone",
    ),
    "tournaments:cancel": Route(
        "POST", open_tournament, anonymous=LOGIN, stranger=frozenset({403}), why="the creator's alone"
    ),
    # Friends and blocks (club/): only ever the caller's own relations
    "club:friends": Route("GET", anonymous=LOGIN, why="the caller's own friends and requests"),
    "club:blocked": Route("GET", anonymous=LOGIN, why="the caller's own blocks"),
    "club:request_send": Route(
        "POST",
        data=lambda w: {"username": w.olga.username},
        anonymous=LOGIN,
        stranger=REDIRECT,
        why="a request of the caller's own (to Olga: her rows do not change)",
    ),
    **{
        f"club:request_{change}": Route(
            "POST",
            lambda w: [({"request_id": 2**31 - 1}, "")],
            anonymous=LOGIN,
            stranger=REDIRECT,
            why="only a request to (accept, decline) or from (cancel) the caller: any other is"
            " refused with a message (tests/club/test_pages.py)",
        )
        for change in ("accept", "decline", "cancel")
    },
    **{
        f"club:{change}": Route(
            "POST",
            data=lambda w: {"username": w.olga.username},
            anonymous=LOGIN,
            stranger=REDIRECT,
            why="changes the caller's own friendship or block only",
        )
        for change in ("remove", "block", "unblock")
    },
    # Stats, series and replays
    "stats:profile": Route("GET", lambda w: [({"username": w.olga.username}, "")]),
    "stats:leaderboard": Route("GET"),
    "stats:farming": Route(
        "GET",
        anonymous=REDIRECT,
        stranger=frozenset({403}),
        why="moderators only, as the admin: anonymous to the site's log-in, anyone else 403",
    ),
    "series:detail": Route("GET", lambda w: [({"series_id": w.series_id}, "")]),
    "series:rematch": Route("GET", finished, private=private),
    "series:rematch_offer": Route(
        "POST",
        finished,
        lambda w: {"games_agreed": "3"},
        anonymous=LOGIN,
        stranger=PAGE_REFUSED,
        private=private,
        anonymous_private=LOGIN,
    ),
    "series:rematch_accept": Route(
        "POST", finished, anonymous=LOGIN, stranger=PAGE_REFUSED, private=private, anonymous_private=LOGIN
    ),
    "series:rematch_decline": Route(
        "POST", finished, anonymous=LOGIN, stranger=PAGE_REFUSED, private=private, anonymous_private=LOGIN
    ),
    "replays:replay": Route(
        "GET",
        running_games,
        anonymous=NOT_FOUND,
        stranger=NOT_FOUND,
        private=private,
        why="only finished games are replayed",
    ),
    "replays:export": Route("GET", running_games, anonymous=NOT_FOUND, stranger=NOT_FOUND, private=private),
    # The REST API (api/): the stranger uses the session, like a browser would
    "api:token": Route(
        "POST",
        data=lambda w: {"username": w.olga.username, "password": "not-her-password"},
        anonymous=frozenset({400}),
        stranger=frozenset({400}),
        api=True,
    ),
    "api:tokens": Route("GET", anonymous=API_ANONYMOUS, api=True, why="the caller's own"),
    "api:token_detail": Route(
        "GET",
        lambda w: [({"token_id": w.olga_token.pk}, "")],
        anonymous=API_ANONYMOUS,
        stranger=NOT_FOUND,
        api=True,
        why="the caller's own (DELETE too, in tests/security/test_tokens.py)",
    ),
    "api:tokens_revoke_all": Route(
        "POST", anonymous=API_ANONYMOUS, api=True, why="revokes the caller's own tokens only"
    ),
    "api:me": Route("GET", anonymous=API_ANONYMOUS, api=True, why="the caller's own"),
    "api:privacy": Route(
        "GET", anonymous=API_ANONYMOUS, api=True, why="the caller's own privacy settings (PATCH: theirs only)"
    ),
    "api_queue": Route("GET", anonymous=API_ANONYMOUS, api=True, why="the caller's own place in the queue"),
    "api:games": Route(
        "GET",
        lambda w: [({}, ""), ({}, "open_to_join=true"), ({}, "mine=true")],
        anonymous=API_ANONYMOUS,
        api=True,
    ),
    "api:game": Route(
        "GET", running, anonymous=API_ANONYMOUS, api=True, private=private, anonymous_private=API_ANONYMOUS
    ),
    "api:join": Route(
        "POST",
        running,
        anonymous=API_ANONYMOUS,
        stranger=frozenset({403, 409}),
        api=True,
        private=private,
        anonymous_private=API_ANONYMOUS,
    ),
    "api:leave": Route(
        "POST",
        running,
        anonymous=API_ANONYMOUS,
        stranger=frozenset({403, 409}),
        api=True,
        private=private,
        anonymous_private=API_ANONYMOUS,
    ),
    "api:start": Route(
        "POST",
        running,
        anonymous=API_ANONYMOUS,
        stranger=frozenset({403, 409}),
        api=True,
        private=private,
        anonymous_private=API_ANONYMOUS,
    ),
    "api:resign": Route(
        "POST",
        running,
        leave_form,
        anonymous=API_ANONYMOUS,
        stranger=frozenset({403}),
        api=True,
        private=private,
        anonymous_private=API_ANONYMOUS,
    ),
    "api:claim": Route(
        "POST",
        running,
        leave_form,
        anonymous=API_ANONYMOUS,
        stranger=frozenset({403}),
        api=True,
        private=private,
        anonymous_private=API_ANONYMOUS,
    ),
    "api:actions": Route(
        "POST",
        running,
        api_move,
        anonymous=API_ANONYMOUS,
        stranger=frozenset({403}),
        api=True,
        private=private,
        anonymous_private=API_ANONYMOUS,
    ),
    "api:rematch_offer": Route(
        "POST",
        finished,
        lambda w: {"games_agreed": 3},
        anonymous=API_ANONYMOUS,
        stranger=frozenset({403}),
        api=True,
        private=private,
        anonymous_private=API_ANONYMOUS,
    ),
    "api:rematch_accept": Route(
        "POST",
        finished,
        anonymous=API_ANONYMOUS,
        stranger=frozenset({403}),
        api=True,
        private=private,
        anonymous_private=API_ANONYMOUS,
    ),
    "api:rematch_decline": Route(
        "POST",
        finished,
        anonymous=API_ANONYMOUS,
        stranger=frozenset({403}),
        api=True,
        private=private,
        anonymous_private=API_ANONYMOUS,
    ),
    "api:moves": Route(
        "GET", running, anonymous=API_ANONYMOUS, api=True, private=private, anonymous_private=API_ANONYMOUS
    ),
    "api:wait": Route(
        "GET",
        lambda w: [({"game_id": w.running.pk}, "version=0")],
        anonymous=API_ANONYMOUS,
        api=True,
        private=lambda w: [({"game_id": w.private.pk}, f"version={w.private.version}")],
        anonymous_private=API_ANONYMOUS,
    ),
    # The club (api/relations.py): only ever the caller's own friends, requests, blocks and notes
    "api:friends": Route("GET", anonymous=API_ANONYMOUS, api=True, why="the caller's own friends"),
    "api:friend": Route(
        "DELETE",
        lambda w: [({"username": w.olga.username}, "")],
        anonymous=API_ANONYMOUS,
        stranger=frozenset({405}),  # DELETE only (tests/api/test_relations.py); POST: not allowed
        api=True,
        why="ends the caller's own friendship only",
    ),
    "api:friend_requests": Route(
        "POST",
        data=lambda w: {"username": "nobody-of-that-name"},
        anonymous=API_ANONYMOUS,
        stranger=NOT_FOUND,
        api=True,
        why="the caller's own requests (GET), sent in their name (POST)",
    ),
    "api:friend_request": Route(
        "DELETE",
        lambda w: [({"request_id": 999_999}, "")],
        anonymous=API_ANONYMOUS,
        stranger=frozenset({405}),
        api=True,
        why="cancels one of the caller's own requests only",
    ),
    "api:friend_request_accept": Route(
        "POST",
        lambda w: [({"request_id": 999_999}, "")],
        anonymous=API_ANONYMOUS,
        stranger=frozenset({400}),
        api=True,
        why="only a request to the caller",
    ),
    "api:friend_request_decline": Route(
        "POST",
        lambda w: [({"request_id": 999_999}, "")],
        anonymous=API_ANONYMOUS,
        stranger=frozenset({400}),
        api=True,
        why="only a request to the caller",
    ),
    "api:blocks": Route("GET", anonymous=API_ANONYMOUS, api=True, why="the caller's own blocks"),
    "api:block": Route(
        "DELETE",
        lambda w: [({"username": w.olga.username}, "")],
        anonymous=API_ANONYMOUS,
        stranger=frozenset({405}),
        api=True,
        why="the caller's own block only",
    ),
    "api:note": Route(
        "GET",
        lambda w: [({"username": w.olga.username}, "")],
        anonymous=API_ANONYMOUS,
        api=True,
        why="the caller's own note about the player (none: empty), never anyone else's",
    ),
    # Tournaments (api/tournaments.py): public standings and pairings, a game only by its id;
    # each write is the caller's own registration
    "api:tournaments": Route(
        "GET",
        lambda w: [({}, ""), ({}, "status=running"), ({}, "mine=true")],
        anonymous=API_ANONYMOUS,
        api=True,
        why="every tournament, listed alike for everyone (POST: the caller's own, tests/api)",
    ),
    "api:tournament": Route("GET", olga_tournament, anonymous=API_ANONYMOUS, api=True),
    "api:tournament_standings": Route("GET", olga_tournament, anonymous=API_ANONYMOUS, api=True),
    "api:tournament_rounds": Route(
        "GET",
        olga_tournament,
        anonymous=API_ANONYMOUS,
        api=True,
        why="each game by its id, players and result: nothing of its cards or seed",
    ),
    "api:tournament_register": Route(
        "POST",
        olga_tournament,
        anonymous=API_ANONYMOUS,
        stranger=frozenset({403}),
        api=True,
        why="registers the caller only; this one has started",
    ),
    "api:tournament_unregister": Route(
        "POST",
        olga_tournament,
        anonymous=API_ANONYMOUS,
        stranger=frozenset({409}),
        api=True,
        why="the caller's own registration only",
    ),
    "api:tournament_withdraw": Route(
        "POST",
        olga_tournament,
        anonymous=API_ANONYMOUS,
        stranger=frozenset({403}),
        api=True,
        why="withdraws the caller only: a stranger plays in none",
    ),
    "api:schema": Route("GET", api=True),
    "api:docs": Route("GET", api=True),
    # Accounts (allauth): only ever the caller's own account
    "account_login": Route(
        "POST",
        data=lambda w: {"login": w.olga.username, "password": "not-her-password"},
        stranger=REDIRECT,
        why="a stranger is already logged in: sent on",
    ),
    "account_logout": Route("POST", anonymous=REDIRECT, stranger=REDIRECT),
    "account_inactive": Route("GET"),
    "account_signup": Route("GET", stranger=REDIRECT),
    "account_reauthenticate": Route("GET", anonymous=LOGIN),
    "account_request_reauthentication_code": Route("GET", anonymous=LOGIN, stranger=frozenset({302, 404})),
    "account_confirm_reauthentication_code": Route("GET", anonymous=LOGIN, stranger=frozenset({302, 404})),
    "account_email": Route("GET", anonymous=LOGIN),
    "account_email_verification_sent": Route("GET"),
    "account_confirm_email": Route(
        "GET", lambda w: [({"key": "guessed-key"}, "")], anonymous=OK, stranger=OK
    ),
    "account_change_password": Route("GET", anonymous=LOGIN),
    "account_set_password": Route("GET", anonymous=LOGIN, stranger=REDIRECT),
    "account_reset_password": Route("GET"),
    "account_reset_password_done": Route("GET"),
    "account_reset_password_from_key": Route("GET", lambda w: [({"uidb36": "1", "key": "guessed-key"}, "")]),
    "account_reset_password_from_key_done": Route("GET"),
    "account_confirm_login_code": Route("GET", anonymous=REDIRECT, stranger=REDIRECT),
}

#: URL patterns without a name (each must still be listed).
UNNAMED = {"api/": "the API's JSON 404 for any other address under /api/"}
