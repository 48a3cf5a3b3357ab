"""Who may join an open game (``games.limits``): the creator's limits and the players' blocks,
in ``game_join``, the lobby and the game page; the rule's two forms agree (issue 30)."""

import itertools
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import Block, Friendship, User
from games import limits, selectors, services
from games.exceptions import InvalidRules, NotAllowed
from games.models import Game, Invitation
from stats.models import Rating
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db

NEUTRAL = "You cannot join this game."


def befriend(a: User, b: User) -> None:
    Friendship.objects.bulk_create([Friendship(user=a, friend=b), Friendship(user=b, friend=a)])


def reliable(user: User, percent: int) -> User:
    """``user`` with 20 counted games, of which they left as many as make ``percent``."""
    user.reliability_games = 20
    user.reliability_left = 20 - percent * 20 // 100
    user.save(update_fields=["reliability_games", "reliability_left"])
    return user


def rated(user: User, ordinal: float, mode: str = "throw_in") -> User:
    Rating.objects.create(
        user=user, mode=mode, players=0, mu=ordinal + 15, sigma=5, ordinal=ordinal, games=12
    )
    return user


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


# The rule, one game and one player


def test_a_game_without_limits_takes_anyone() -> None:
    game = GameFactory()
    assert limits.join_refusal(game, UserFactory()) is None


def test_friends_only_takes_the_creators_friends_only() -> None:
    game = GameFactory(join_friends_only=True)
    friend, stranger = UserFactory(), UserFactory()
    befriend(game.creator, friend)
    assert limits.join_refusal(game, friend) is None
    assert limits.join_refusal(game, stranger) == NEUTRAL
    with pytest.raises(NotAllowed, match=NEUTRAL):
        services.game_join(user=stranger, game_id=game.pk)
    services.game_join(user=friend, game_id=game.pk)


def test_a_block_either_way_keeps_out_with_the_same_sentence_as_a_limit() -> None:
    game = GameFactory(num_players=4)
    seated, blocker, blocked = UserFactory(), UserFactory(), UserFactory()
    services.game_join(user=seated, game_id=game.pk)
    Block.objects.create(blocker=seated, blocked=blocked)  # a seated player blocked the joiner
    Block.objects.create(blocker=blocker, blocked=game.creator)  # the joiner blocked the creator
    for user in (blocked, blocker):
        refusal = limits.join_refusal(game, user)
        assert refusal == NEUTRAL
        assert "block" not in refusal.lower()
        with pytest.raises(NotAllowed, match=NEUTRAL):
            services.game_join(user=user, game_id=game.pk)
    assert game.seats.count() == 2


def test_reliability_new_players_are_refused_with_a_reason() -> None:
    game = GameFactory(join_min_reliability=90)
    new, shaky, steady = UserFactory(), reliable(UserFactory(), 80), reliable(UserFactory(), 95)
    assert "not known yet" in (limits.join_refusal(game, new) or "")
    assert limits.join_refusal(game, shaky) == (
        "Only players with a reliability of at least 90% can join this game; yours is 80%."
    )
    assert limits.join_refusal(game, steady) is None


def test_rating_range_in_the_games_mode_and_unrated_players_are_refused() -> None:
    game = GameFactory(join_rating_min=10, join_rating_max=20)  # classic: the throw-in mode
    inside, low, unrated = rated(UserFactory(), 15.0), rated(UserFactory(), 4.04), UserFactory()
    transfer_only = rated(UserFactory(), 15.0, mode="transfer")
    assert limits.join_refusal(game, inside) is None
    assert limits.join_refusal(game, low) == (
        "Only players rated between 10 and 20 can join this game; yours is 4.0."
    )
    for user in (unrated, transfer_only):
        assert limits.join_refusal(game, user) == (
            "Only players rated between 10 and 20 can join this game; you have no rating in its mode yet."
        )
    transfer_game = GameFactory(preset="perevodnoy", join_rating_min=10)
    assert limits.join_refusal(transfer_game, transfer_only) is None
    assert limits.join_refusal(transfer_game, inside) is not None


def test_language_limit() -> None:
    game = GameFactory(join_language="ru")
    russian, english = UserFactory(language="ru"), UserFactory(language="en")
    assert limits.join_refusal(game, russian) is None
    assert (
        limits.join_refusal(game, english) == "Only players who use the site in Russian can join this game."
    )


def test_the_creators_invitation_lets_past_a_limit_but_never_past_a_block() -> None:
    game = GameFactory(num_players=4, join_friends_only=True, join_min_reliability=99, join_language="ru")
    invited, blocked, by_other = UserFactory(), UserFactory(), UserFactory()
    friend = reliable(UserFactory(language="ru"), 100)
    befriend(game.creator, friend)
    services.game_join(user=friend, game_id=game.pk)
    for user in (invited, blocked):
        Invitation.objects.create(game=game, user=user, invited_by=game.creator)
    Invitation.objects.create(game=game, user=by_other, invited_by=friend)
    Block.objects.create(blocker=game.creator, blocked=blocked)
    assert limits.join_refusal(game, invited) is None
    assert limits.join_refusal(game, blocked) == NEUTRAL
    assert limits.join_refusal(game, by_other) == NEUTRAL  # another player's invitation: limits apply
    services.game_join(user=invited, game_id=game.pk)
    with pytest.raises(NotAllowed):
        services.game_join(user=blocked, game_id=game.pk)


def test_a_private_games_share_link_lets_past_no_limit() -> None:
    game = GameFactory(private=True, join_language="ru")
    with pytest.raises(NotAllowed, match="use the site in Russian"):
        services.game_join(user=UserFactory(language="en"), game_id=game.pk, token=game.invite_token)
    services.game_join(user=UserFactory(language="ru"), game_id=game.pk, token=game.invite_token)


def test_computer_players_seated_by_the_creator_pass_the_limits() -> None:
    opened = GameFactory(bot_level="random", num_players=3, join_min_reliability=90, join_friends_only=True)
    game = services.game_fill_with_bots(user=opened.creator, game_id=opened.pk)
    assert game.status == Game.Status.ACTIVE


def test_join_costs_no_query_more_without_limits_and_blocks() -> None:
    def joining_queries(**limits_set: Any) -> int:
        game = GameFactory(num_players=3, **limits_set)
        joiner = UserFactory()
        with CaptureQueriesContext(connection) as queries:
            services.game_join(user=joiner, game_id=game.pk)
        return len(queries)

    plain = joining_queries()
    Block.objects.create(blocker=UserFactory(), blocked=UserFactory())  # blocks elsewhere: no matter
    assert joining_queries() == plain
    assert joining_queries(join_language="en") == plain + 1  # the creator's invitation, read once


@pytest.mark.parametrize(
    "wrong, message",
    [
        ({"join_min_reliability": 101}, "The minimum reliability must be between 0 and 100."),
        ({"join_rating_min": 5, "join_rating_max": 4}, "The highest rating must not be below the lowest."),
        ({"join_language": "xx"}, "Unknown language 'xx'."),
    ],
)
def test_bad_limits_are_refused_at_creation(wrong: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidRules, match=message):
        services.game_create(creator=UserFactory(), preset="classic", num_players=2, **wrong)
    assert not Game.objects.exists()


# The two forms agree


def test_join_refusal_and_joinable_by_agree_over_a_grid_of_games_and_viewers() -> None:
    creator = UserFactory()
    seated_blocker = rated(rated(reliable(UserFactory(language="ru"), 100), 15.0), 15.0, mode="transfer")
    friend = rated(reliable(UserFactory(language="ru"), 95), 12.0)
    viewers: list[User] = [
        friend,
        reliable(UserFactory(), 80),
        rated(UserFactory(language="ru"), 25.0),
        rated(reliable(UserFactory(), 100), -3.0, mode="transfer"),
        UserFactory(),  # new and unrated
        rated(reliable(UserFactory(), 92), 15.0),  # blocked by a seated player
        UserFactory(),  # invited by the creator
    ]
    befriend(creator, friend)
    befriend(creator, seated_blocker)
    Block.objects.create(blocker=seated_blocker, blocked=viewers[5])
    options = itertools.product(
        [False, True],
        [None, 90],
        [(None, None), (10, None), (None, 20), (10, 20)],
        ["", "ru"],
        ["classic", "perevodnoy"],
    )
    games = []
    for friends_only, reliability, (low, high), language, preset in options:
        game = GameFactory(
            creator=creator,
            preset=preset,
            num_players=4,
            join_friends_only=friends_only,
            join_min_reliability=reliability,
            join_rating_min=low,
            join_rating_max=high,
            join_language=language,
        )
        services.game_join(user=seated_blocker, game_id=game.pk)
        Invitation.objects.create(game=game, user=viewers[6], invited_by=creator)
        games.append(game)
    for viewer in viewers:
        sql = set(
            limits.joinable_by(Game.objects.filter(pk__in=[g.pk for g in games]), viewer).values_list(
                "pk", flat=True
            )
        )
        python = {game.pk for game in games if limits.join_refusal(game, viewer) is None}
        assert sql == python, viewer.username
    assert {
        len(set(limits.joinable_by(Game.objects.all(), v).values_list("pk", flat=True))) for v in viewers
    } != {0}


# The lobby and the game page


def lobby_rows(client: Client) -> str:
    return client.get(reverse("games:lobby_open")).content.decode()


def test_the_lobby_hides_games_the_viewer_may_not_join_and_visitors_see_all_but_friends_only(
    client: Client,
) -> None:
    creator = UserFactory()
    friends_only = GameFactory(creator=creator, join_friends_only=True)
    russian = GameFactory(creator=creator, join_language="ru")
    plain = GameFactory(creator=creator)
    friend, stranger, blocked = UserFactory(), UserFactory(language="en"), UserFactory()
    befriend(creator, friend)
    Block.objects.create(blocker=creator, blocked=blocked)

    def shown(user: User | None) -> set[int]:
        page = lobby_rows(client_for(user) if user else client)
        return {game.pk for game in (friends_only, russian, plain) if f'data-game="{game.pk}"' in page}

    assert shown(friend) == {friends_only.pk, plain.pk}
    assert shown(stranger) == {plain.pk}
    assert shown(blocked) == set()
    assert shown(None) == {russian.pk, plain.pk}
    assert shown(creator) == {friends_only.pk, russian.pk, plain.pk}


def test_the_lobby_costs_the_same_queries_whatever_the_friends_blocks_and_open_games() -> None:
    viewer = reliable(UserFactory(), 95)
    client = client_for(viewer)
    GameFactory(join_friends_only=True)
    GameFactory()  # one game shown: its seats are read

    def count() -> int:
        client.get(reverse("games:lobby_open"))
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("games:lobby_open")).status_code == 200
        return len(queries)

    few = count()
    for n in range(12):
        other = UserFactory()
        if n % 3 == 0:
            befriend(viewer, other)
        elif n % 3 == 1:
            Block.objects.create(blocker=viewer, blocked=other)
        else:
            Block.objects.create(blocker=other, blocked=viewer)
        GameFactory(creator=other, join_friends_only=n % 2 == 0, join_rating_min=n if n % 4 == 0 else None)
        GameFactory(join_min_reliability=90)
    assert count() == few


def test_the_lobby_query_count_is_flat_with_django_assert_num_queries(django_assert_num_queries: Any) -> None:
    viewer = UserFactory()
    GameFactory()
    first = list(selectors.lobby_open_games(viewer=viewer))
    with django_assert_num_queries(3):  # the viewer's ratings, the games, their seats
        first = list(selectors.lobby_open_games(viewer=viewer))
    for _n in range(10):
        other = UserFactory()
        befriend(viewer, other)
        Block.objects.create(blocker=UserFactory(), blocked=viewer)
        GameFactory(creator=other, join_friends_only=True)
    with django_assert_num_queries(3):
        many = list(selectors.lobby_open_games(viewer=viewer))
    assert len(many) == len(first) + 10


def test_a_direct_link_says_why_in_one_line_and_offers_no_join_button() -> None:
    game = GameFactory(join_friends_only=True)
    page = client_for(UserFactory()).get(reverse("games:detail", args=[game.pk])).content.decode()
    assert f'<p class="join-refusal" role="status">{NEUTRAL}</p>' in page
    assert "Take a seat" not in page
    assert "friends of the creator only" in page
    friend = UserFactory()
    befriend(game.creator, friend)
    page = client_for(friend).get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "join-refusal" not in page
    assert "Take a seat" in page


def test_a_blocked_players_join_by_url_is_refused_and_changes_nothing() -> None:
    game = GameFactory()
    blocked = UserFactory()
    Block.objects.create(blocker=game.creator, blocked=blocked)
    client = client_for(blocked)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert NEUTRAL in page and "Take a seat" not in page and "block" not in page.lower().split("<main", 1)[-1]
    response = client.post(reverse("games:join", args=[game.pk]), follow=True)
    assert NEUTRAL in response.content.decode()
    assert game.seats.count() == 1


# The create form


def create(client: Client, **fields: Any) -> Any:
    return client.post(reverse("games:create"), {"preset": "classic", "num_players": 2, **fields})


def test_the_create_form_sets_the_limits_and_invites_once_the_game_is_open() -> None:
    creator, friend = UserFactory(), UserFactory(username="misha")
    befriend(creator, friend)
    client = client_for(creator)
    assert 'value="misha"' in client.get("/?invite=misha").content.decode()
    response = create(
        client,
        join_friends_only="on",
        join_min_reliability="90",
        join_rating_min="-5",
        join_rating_max="20",
        join_language="ru",
        invite="misha",
    )
    game = Game.objects.get()
    assert response.status_code == 302
    assert (
        game.join_friends_only,
        game.join_min_reliability,
        game.join_rating_min,
        game.join_rating_max,
    ) == (
        True,
        90,
        -5,
        20,
    )
    assert game.join_language == "ru"
    assert Invitation.objects.filter(game=game, user=friend, invited_by=creator).exists()
    assert limits.join_refusal(game, friend) is None  # the creator's invitation


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"join_min_reliability": "150"}, "The minimum reliability must be between 0 and 100."),
        ({"join_min_reliability": "lots"}, "Enter a whole number."),
        (
            {"join_rating_min": "30", "join_rating_max": "10"},
            "The highest rating must not be below the lowest.",
        ),
        ({"join_language": "de"}, "Select a valid choice."),
    ],
)
def test_the_create_form_says_what_is_wrong_with_a_limit_and_creates_nothing(
    fields: dict[str, str], message: str
) -> None:
    response = create(client_for(UserFactory()), **fields)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Game.objects.exists()


def test_an_invitation_the_service_refuses_is_said_on_the_new_games_page() -> None:
    client = client_for(UserFactory())
    response = create(client, invite="nobody-of-that-name")
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "There is no player called" in page
    assert Game.objects.count() == 1


# The API


def api_for(user: User) -> Any:
    from rest_framework.test import APIClient

    from tests.factories import api_token

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(user)}")
    return client


def test_the_api_creates_a_game_with_limits_and_shows_them() -> None:
    creator = UserFactory()
    body = {
        "preset": "classic",
        "players": 2,
        "join_limits": {"friends_only": True, "min_reliability": 80, "rating_max": 30, "language": "en"},
    }
    response = api_for(creator).post("/api/games/", body, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["join_limits"] == {
        "friends_only": True,
        "min_reliability": 80,
        "rating_min": None,
        "rating_max": 30,
        "language": "en",
    }
    game = Game.objects.get()
    assert (game.join_friends_only, game.join_min_reliability, game.join_rating_max) == (True, 80, 30)


@pytest.mark.parametrize(
    "join_limits, field, message",
    [
        ({"min_reliability": -1}, "min_reliability", "The minimum reliability must be between 0 and 100."),
        (
            {"rating_min": 9, "rating_max": 3},
            "rating_max",
            "The highest rating must not be below the lowest.",
        ),
    ],
)
def test_the_api_refuses_bad_limits_with_its_usual_400(
    join_limits: dict[str, Any], field: str, message: str
) -> None:
    body = {"preset": "classic", "players": 2, "join_limits": join_limits}
    response = api_for(UserFactory()).post("/api/games/", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert response.json()["errors"]["join_limits"][field] == [message]
    assert not Game.objects.exists()


def test_the_api_join_of_a_blocked_player_or_a_stranger_to_a_friends_only_game_is_a_403() -> None:
    game = GameFactory(num_players=3)
    friends_only = GameFactory(join_friends_only=True)
    blocked, stranger = UserFactory(), UserFactory()
    Block.objects.create(blocker=game.creator, blocked=blocked)
    for user, refused in ((blocked, game), (stranger, friends_only)):
        response = api_for(user).post(f"/api/games/{refused.pk}/join/")
        assert response.status_code == 403
        assert response.json()["detail"] == NEUTRAL
        assert refused.seats.count() == 1
    assert api_for(stranger).post(f"/api/games/{game.pk}/join/").status_code == 200


def test_the_schema_has_the_join_limits() -> None:
    from rest_framework.test import APIClient

    schema = APIClient().get("/api/schema/?format=json").json()["components"]["schemas"]
    assert (
        set(schema["JoinLimitsRequest"]["properties"])
        == set(schema["JoinLimits"]["properties"])
        == {
            "friends_only",
            "min_reliability",
            "rating_min",
            "rating_max",
            "language",
        }
    )
    assert "join_limits" in schema["GameCreateRequest"]["properties"]
    assert "join_limits" in schema["GameDetail"]["properties"]
