"""Garbage gets a 400 and changes nothing, never a 500: deeply nested or huge JSON (the move
form and the API), control characters in addresses and forms, far dates and huge numbers."""

import json
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone

from chat.models import ChatMessage
from durak_site.jsonlimits import MAX_BYTES, MAX_DEPTH, JSONLimitError, loads_limited
from durak_site.middleware import server_error
from games.models import Game, Vacation
from tests.factories import LONGER_DEAL, UserFactory, started_game
from tests.faults.snapshots import game_snapshot

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
DEEP = "[" * 200_000
#: A legal first move of LONGER_DEAL (player 0 attacks).
FIRST_MOVE = {"type": "attack", "cards": ["6S"]}


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def post_json(client: Client, url: str, body: str) -> Any:
    return client.post(url, body, content_type="application/json")


def assert_api_error(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = json.loads(response.content)
    assert set(body) >= {"detail", "code"} and body["detail"], body
    if code is not None:
        assert body["code"] == code, body
    return dict(body)


# --- the JSON limits themselves ------------------------------------------------------------------


def test_the_limits_see_brackets_in_strings_as_text_and_never_overflow_the_stack() -> None:
    assert loads_limited(json.dumps({"text": "[" * 1000 + "{" * 1000})) == {"text": "[" * 1000 + "{" * 1000}
    assert loads_limited('["a \\" [[[[[[[[[[[[[[[[[[[[[[[[[ b"]') == ['a " [[[[[[[[[[[[[[[[[[[[[[[[[ b']
    nested = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert loads_limited(nested) is not None
    for too_deep in (
        "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
        DEEP,
        '{"a":' * 100_000,
        '[{"a":' * 50_000,
    ):
        with pytest.raises(JSONLimitError) as refused:
            loads_limited(too_deep[:MAX_BYTES])
        assert refused.value.code == "too_deep"
    with pytest.raises(JSONLimitError) as refused:
        loads_limited(DEEP)
    assert refused.value.code == "too_large"
    for not_json in (
        "NaN",
        "[Infinity]",
        "1" * 5000,
        "",
        "{",
        "[{" * 50_000,
        '"\\u0000"',
        '{"a\\u0000": 1}',
        b"\xff",
    ):
        with pytest.raises(JSONLimitError):
            loads_limited(not_json)
    assert loads_limited('"\\\\u0000"') == "\\u0000"  # an escaped backslash, then plain text
    for control in ('"\\u001b"', '["\\b"]', '{"\\u0007": 1}', '"\\ud800"', '[["\\udfff"]]'):
        with pytest.raises(JSONLimitError) as refused:
            loads_limited(control)
        assert refused.value.code == "control_character"
    assert loads_limited('"tab\\tnew\\nline\\r"') == "tab\tnew\nline\r"
    assert loads_limited('"\\ud83c\\udca1"') == "\U0001f0a1"  # a surrogate pair is one character


# --- the move form of the game page ---------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize(
    "action",
    [
        DEEP,
        '{"type": "attack", "cards": ' + "[" * 50 + "]" * 50 + "}",
        '{"type": "attack\\u0000"}',
        "x" * 100_000,
    ],
    ids=["200000 brackets", "50 deep", "NUL escape", "100 KB"],
)
def test_a_malformed_move_on_the_page_is_a_400_and_changes_nothing(htmx: bool, action: str) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    before = game_snapshot(game.pk)
    response = client_for(users[0]).post(
        reverse("games:move", args=[game.pk]),
        {"action": action, "expected_version": game.version},
        headers=HTMX if htmx else {},
    )
    assert response.status_code == 400
    assert "That move was not understood." in response.content.decode()
    assert game_snapshot(game.pk) == before
    # The game goes on: the same player's real move still works.
    ok = client_for(users[0]).post(
        reverse("games:move", args=[game.pk]),
        {"action": json.dumps(FIRST_MOVE), "expected_version": game.version},
    )
    assert ok.status_code == 302
    assert Game.objects.get(pk=game.pk).version == game.version + 1


# --- API bodies ------------------------------------------------------------------------------------


def test_deeply_nested_or_huge_api_bodies_are_the_apis_400_on_every_endpoint() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    api = client_for(users[0])
    before = game_snapshot(game.pk)
    games_before = Game.objects.count()
    urls = [
        reverse("api:actions", args=[game.pk]),
        reverse("api:games"),
        reverse("api:token"),
    ]
    for url in urls:
        assert_api_error(post_json(api, url, DEEP[:MAX_BYTES]), 400, "too_deep")
        assert_api_error(post_json(api, url, DEEP), 400, "too_large")
        too_big = json.dumps({"action": FIRST_MOVE, "expected_version": game.version, "pad": "x" * MAX_BYTES})
        assert_api_error(post_json(api, url, too_big), 400, "too_large")
        deep_inside = json.dumps({"action": FIRST_MOVE, "expected_version": game.version})[:-1]
        deep_inside += ', "x": ' + "[" * 1000 + "]" * 1000 + "}"
        assert_api_error(post_json(api, url, deep_inside), 400, "too_deep")
    assert_api_error(post_json(Client(), reverse("api:token"), DEEP[:MAX_BYTES]), 400, "too_deep")
    assert game_snapshot(game.pk) == before
    assert Game.objects.count() == games_before
    # Within the limits the same endpoint takes the move.
    body = json.dumps({"action": FIRST_MOVE, "expected_version": game.version})
    assert post_json(api, reverse("api:actions", args=[game.pk]), body).status_code == 200


def test_a_nul_or_a_huge_number_in_an_api_body_is_a_400() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    api = client_for(users[0])
    before = game_snapshot(game.pk)
    games_before = Game.objects.count()
    actions = reverse("api:actions", args=[game.pk])
    bodies = [
        (actions, {"action": {"type": "attack\u0000", "cards": ["6S"]}, "expected_version": game.version}),
        (actions, {"action": {"type": "attack", "cards": ["6S\u0000"]}, "expected_version": game.version}),
        (actions, {"action": FIRST_MOVE, "expected_version": 10**30}),
        (reverse("api:games"), {"preset": "classic", "players": 10**30}),
        (reverse("api:games"), {"preset": "classic", "players": 2, "options": {"hand_size": 10**30}}),
        (reverse("api:games"), {"preset": "classic", "players": 2, "options": {"max_attack": 10**30}}),
        (reverse("api:games"), {"preset": "classic\u0000", "players": 2}),
        (reverse("api:token"), {"username": "a\u0000b", "password": "x"}),
        (reverse("api:token"), {"username": "x", "password": "y", "name": "\ud800"}),
        (reverse("api:token"), {"username": "x\u001b", "password": "y"}),
    ]
    for url, body in bodies:
        assert_api_error(post_json(api, url, json.dumps(body)), 400)
    assert game_snapshot(game.pk) == before
    assert Game.objects.count() == games_before


def test_a_400_from_any_middleware_under_api_is_the_apis_json(settings: Any) -> None:
    """Django's own refusals (a body over DATA_UPLOAD_MAX_MEMORY_SIZE, too many fields) go
    through handler400; under /api/ that is the API's error body, not an HTML page."""
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 10
    fields = "&".join(f"f{n}=1" for n in range(50))
    response = Client().post(reverse("api:token"), fields, content_type="application/x-www-form-urlencoded")
    assert_api_error(response, 400, "bad_request")
    page = Client().post(reverse("games:create"), fields, content_type="application/x-www-form-urlencoded")
    assert page.status_code == 400 and page["Content-Type"].startswith("text/html")


def test_an_unexpected_error_under_api_is_still_the_apis_json() -> None:
    request = RequestFactory().get("/api/games/1/")
    try:
        raise RuntimeError("a bug")
    except RuntimeError:
        response = server_error(request)
    assert_api_error(response, 500, "server_error")


# --- control characters in addresses and forms ----------------------------------------------------


def test_a_nul_in_a_chat_message_is_a_400_and_posts_nothing() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    alice = client_for(users[0])
    url = reverse("chat:post", args=[game.pk])
    for text in ("hi\x00there", "\x00", "bell\x07", "esc\x1b[31m"):
        refused = alice.post(url, {"text": text}, headers=HTMX)
        assert refused.status_code == 400
        assert 'class="error"' in refused.content.decode()
        assert alice.post(url, {"text": text}).status_code == 400
    for text in ("two\nlines", "a\ttab", "del\x7f"):
        refused = alice.post(url, {"text": text}, headers=HTMX)
        assert refused.status_code == 400
        assert "without control characters" in refused.content.decode()
        page = alice.post(url, {"text": text})  # without JavaScript: the chat page, with why
        assert page.status_code == 400 and "without control characters" in page.content.decode()
    assert not ChatMessage.objects.exists()
    assert alice.post(url, {"text": "plain words"}, headers=HTMX).status_code == 200


def test_a_table_poll_with_a_version_int_refuses_is_still_answered(user: Any) -> None:
    game, _ = started_game(deal=LONGER_DEAL)
    for version in ("²", "٣", "9" * 5000, "-1", "99999999999999999999"):
        response = client_for(user).get(reverse("games:poll", args=[game.pk]), {"version": version})
        assert response.status_code == 200, version  # not the version shown: the table
    assert (
        client_for(user).get(reverse("games:poll", args=[game.pk]), {"version": game.version}).status_code
        == 204
    )


def test_a_nul_or_control_character_in_a_profile_address_is_a_400(user: Any) -> None:
    other = UserFactory()
    for client in (Client(), client_for(user)):
        assert client.get(f"/players/{other.username}/").status_code == 200
        assert client.get(f"/players/{other.username}/?vs={user.username}").status_code == 200
        for address in (
            "/players/a%00b/",
            "/players/%00/",
            f"/players/{other.username}%01/",
            f"/players/{other.username}/?vs=a%00b",
            f"/players/{other.username}/?vs=%00",
            f"/players/{other.username}/?vs=x%1by",
            f"/players/{other.username}/?v%00s=x",
        ):
            response = client.get(address)
            assert response.status_code == 400, address
            assert "control character" in response.content.decode()
        fragment = client.get("/players/a%00b/", headers=HTMX)
        assert fragment.status_code == 400 and "<html" not in fragment.content.decode()


def test_a_control_character_in_an_api_address_is_the_apis_400(user: Any) -> None:
    api = client_for(user)
    assert_api_error(api.get("/api/games/?status=open%00"), 400, "control_character")
    assert_api_error(api.get("/api/games/%00/"), 400, "control_character")


def test_a_nul_or_control_character_in_any_form_field_is_a_400_and_changes_nothing() -> None:
    game, users = started_game(deal=LONGER_DEAL)
    before = game_snapshot(game.pk)
    alice = client_for(users[0])
    posts = [
        (reverse("games:invite", args=[game.pk]), {"username": "bo\x00b"}),
        (reverse("games:join", args=[game.pk]), {"token": "t\x00"}),
        (reverse("games:create"), {"preset": "classic\x00", "num_players": "2"}),
        (
            reverse("games:move", args=[game.pk]),
            {"action": json.dumps(FIRST_MOVE), "expected_version": "0\x00"},
        ),
        (reverse("notifications:settings"), {"time_zone": "Europe/\x00"}),
        (reverse("notifications:settings"), {"time_zone": "UTC", "display_name": "Olga\x1b[5m"}),
        (reverse("api:token"), {"username": "a\x00", "password": "b"}),
    ]
    for url, data in posts:
        response = alice.post(url, data)
        assert response.status_code == 400, (url, response.status_code)
    assert game_snapshot(game.pk) == before


# --- far dates and huge counts ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        {"starts_on": "9999-12-31", "days": "2"},
        {"starts_on": "9999-12-31", "days": "1"},
        {"starts_on": "today", "days": "99999999999999999999"},
        {"starts_on": "today", "days": "9" * 5000},
        {"starts_on": "today", "days": "-99999999999999999999"},
        {"starts_on": "0001-01-01", "days": "1"},
        {"starts_on": "today", "days": "1e9"},
        {"starts_on": "10000-01-01", "days": "1"},
    ],
)
def test_a_vacation_with_a_far_date_or_a_huge_count_is_refused_and_books_nothing(
    data: dict[str, str],
) -> None:
    game, users = started_game(deal=LONGER_DEAL, move_time=timedelta(days=1))
    player = users[0]
    if data["starts_on"] == "today":
        data = {**data, "starts_on": timezone.now().date().isoformat()}
    before = game_snapshot(game.pk)
    response = client_for(player).post(reverse("games:vacation"), data, follow=True)
    assert response.status_code == 200
    assert response.redirect_chain == [(reverse("notifications:settings"), 302)]
    page = response.content.decode()
    assert '<li class="error">' in page
    assert "Vacation booked" not in page
    assert not Vacation.objects.exists()
    assert game_snapshot(game.pk) == before


def test_a_vacation_within_range_is_still_booked() -> None:
    player = UserFactory()
    starts_on = timezone.now().date() + timedelta(days=30)
    response = client_for(player).post(
        reverse("games:vacation"), {"starts_on": starts_on.isoformat(), "days": "2"}, follow=True
    )
    assert "Vacation booked: 2 days" in response.content.decode()
    assert Vacation.objects.filter(user=player, starts_on=starts_on).exists()


@pytest.mark.parametrize(
    "field, value",
    [
        ("num_players", "99999999999999999999"),
        ("opt_hand_size", "99999999999999999999"),
        ("opt_hand_size", "9" * 5000),
        ("opt_opening_limit_min_players", "-99999999999999999999"),
        ("opt_max_attack", "99999999"),
        ("opt_max_attack", "²"),
        ("opt_max_attack", "٣"),
    ],
)
def test_the_create_form_refuses_numbers_out_of_range_with_its_message(field: str, value: str) -> None:
    user = UserFactory()
    response = client_for(user).post(
        reverse("games:create"), {"preset": "classic", "num_players": "2", field: value}
    )
    assert response.status_code == 400
    assert 'class="errorlist' in response.content.decode() or 'class="error' in response.content.decode()
    assert not Game.objects.exists()


def test_the_refusals_speak_the_readers_language(user: Any) -> None:
    page = Client().get("/players/a%00b/", headers={"Accept-Language": "ru"})
    assert page.status_code == 400 and "управляющий символ" in page.content.decode()
    api = client_for(user)
    response = api.post(
        reverse("api:games"),
        "[" * 100 + "]" * 100,
        content_type="application/json",
        headers={"Accept-Language": "ru"},
    )
    assert "слишком глубоко" in assert_api_error(response, 400, "too_deep")["detail"]
