"""The lobby: what an open game says to whoever may join it (its clock, its rules, its seats), the
filters, the live list, and the create form's errors (issue 19)."""

import html
import re
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

import durak
from durak_site import engine_text, live
from games import services
from games.models import Game
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def client_for(user: Any, language: str = "en") -> Client:
    user.language = language
    user.save(update_fields=["language"])
    client = Client(headers={"Accept-Language": language})
    client.force_login(user)
    return client


def open_games_part(page: str) -> str:
    return page.split('id="open-games"', 1)[1].split("</table>", 1)[0]


def row_of(page: str, game: Game) -> str:
    return page.split(f'data-game="{game.pk}"', 1)[1].split("</tr>", 1)[0]


def text(fragment: str) -> str:
    """What a reader sees of some HTML (no tags, no scripts' data)."""
    fragment = re.sub(r"<script[^>]*>.*?</script>", " ", fragment, flags=re.S)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", fragment)))


# What an open game says to a joiner


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["30 s a move", "1 day a move", "no clock", "2 hours a move"]),
        ("ru", ["30 с на ход", "1 день на ход", "без часов", "2 часа на ход"]),  # noqa: RUF001
    ],
)
def test_open_games_show_the_time_control_in_words(language: str, words: list[str]) -> None:
    games = [
        GameFactory(move_time=timedelta(seconds=30)),
        GameFactory(move_time=timedelta(days=1)),
        GameFactory(move_time=None),
        GameFactory(move_time=timedelta(hours=2)),
    ]
    page = client_for(UserFactory(), language).get("/").content.decode()
    for game, expected in zip(games, words, strict=True):
        assert expected in text(row_of(page, game))
    assert "0:00:30" not in page and "1 day, 0:00:00" not in page and "2:00:00" not in page


def test_a_paused_weekend_clock_is_said() -> None:
    game = GameFactory(move_time=timedelta(days=3), pause_weekends=True)
    page = client_for(UserFactory()).get("/").content.decode()
    assert "3 days a move, clocks paused at weekends" in text(row_of(page, game))


@pytest.mark.parametrize("language", ["en", "ru"])
def test_open_games_show_the_rules_in_one_line_and_the_seats_taken(language: str) -> None:
    game = GameFactory(preset="classic", overrides={"deck_size": 52}, num_players=4)
    services.game_join(user=UserFactory(), game_id=game.pk)
    page = client_for(UserFactory(), language).get("/").content.decode()
    row = text(row_of(page, game))
    with translation.override(language):
        summary = engine_text.preset_summary("classic")
        deck = f"{engine_text.option_name('deck_size')}: 52"
    assert summary in row and deck in row
    assert ("2 of 4" if language == "en" else "2 из 4") in row


@pytest.mark.parametrize(("language", "clock"), [("en", "12 hours a move"), ("ru", "12 часов на ход")])
def test_the_open_game_page_shows_the_time_control_and_the_rules(language: str, clock: str) -> None:
    game = GameFactory(preset="perevodnoy", move_time=timedelta(hours=12), num_players=3)
    page = client_for(UserFactory(), language).get(reverse("games:detail", args=[game.pk])).content.decode()
    terms = text(page.split('class="game-terms"', 1)[1].split("</p>", 1)[0])
    with translation.override(language):
        assert clock in terms
        assert engine_text.preset_summary("perevodnoy") in terms


def test_my_games_say_the_time_control_in_words() -> None:
    user = UserFactory()
    GameFactory(creator=user, move_time=timedelta(hours=1))
    page = client_for(user).get("/").content.decode()
    mine = page.split("My games")[1].split("Open games")[0]
    assert "1 hour a move" in mine and "1:00:00" not in mine


# Filters


def test_filters_by_rules_players_and_time_control() -> None:
    classic_two = GameFactory(preset="classic", num_players=2)
    classic_four_live = GameFactory(preset="classic", num_players=4, move_time=timedelta(seconds=30))
    transfer_corres = GameFactory(preset="perevodnoy", num_players=3, move_time=timedelta(days=1))
    client = client_for(UserFactory())

    def listed(query: str) -> set[int]:
        response = client.get("/" + query)
        assert response.status_code == 200
        part = response.content.decode().split('id="open-games"', 1)[1].split("</section>", 1)[0]
        return {int(pk) for pk in re.findall(r'data-game="(\d+)"', part)}

    assert listed("") == {classic_two.pk, classic_four_live.pk, transfer_corres.pk}
    assert listed("?rules=classic") == {classic_two.pk, classic_four_live.pk}
    assert listed("?players=4") == {classic_four_live.pk}
    assert listed("?clock=none") == {classic_two.pk}
    assert listed("?clock=live") == {classic_four_live.pk}
    assert listed("?clock=correspondence") == {transfer_corres.pk}
    assert listed("?rules=classic&players=3") == set()
    assert listed("?rules=&players=&clock=") == {classic_two.pk, classic_four_live.pk, transfer_corres.pk}
    # The form keeps what was chosen; the list's live updates ask with the same filters.
    page = client.get("/?rules=perevodnoy&clock=correspondence").content.decode()
    assert '<option value="perevodnoy" selected>' in page
    assert reverse("games:lobby_open") + "?rules=perevodnoy&amp;clock=correspondence" in page


@pytest.mark.parametrize(
    "query",
    ["?players=abc", "?players=99", "?players=²", "?rules=poker", "?clock=forever", "?players=" + "9" * 5000],
)
def test_a_bad_filter_is_a_400_that_says_which_and_lists_every_game(query: str) -> None:
    game = GameFactory()
    for url in ("/", reverse("games:lobby_open")):
        response = client_for(UserFactory()).get(url + query)
        assert response.status_code == 400
        page = response.content.decode()
        assert 'class="error" role="alert"' in page and "Showing every open game." in page
        assert f'data-game="{game.pk}"' in page


def test_the_filtered_list_alone_for_htmx_with_the_lobby_address() -> None:
    classic, transfer = GameFactory(preset="classic"), GameFactory(preset="perevodnoy")
    response = Client().get(reverse("games:lobby_open") + "?rules=perevodnoy", headers=HTMX)
    assert response.status_code == 200
    fragment = response.content.decode()
    assert fragment.lstrip().startswith('<div id="open-games"')
    assert "<html" not in fragment and 'name="preset"' not in fragment
    assert f'data-game="{transfer.pk}"' in fragment and f'data-game="{classic.pk}"' not in fragment
    assert response["HX-Replace-Url"] == "/?rules=perevodnoy"


def test_the_lobby_costs_the_same_queries_with_one_open_game_and_with_thirty(
    client: Client,
) -> None:
    viewer = UserFactory()
    client.force_login(viewer)
    GameFactory(num_players=3)

    def count(url: str) -> int:
        client.get(url)  # the first request of a minute also records the viewer's presence
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        return len(queries)

    urls = ["/", "/?rules=classic&players=3&clock=none", reverse("games:lobby_open")]
    few = [count(url) for url in urls]
    for n in range(29):
        game = GameFactory(num_players=3, overrides={"deck_size": 52} if n % 2 else {})
        services.game_join(user=UserFactory(), game_id=game.pk)
    assert Game.objects.filter(status=Game.Status.OPEN).count() == 30
    assert [count(url) for url in urls] == few


# The live list


def test_opening_joining_starting_and_cancelling_a_game_tell_the_lobby(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    sent: list[tuple[str, str, dict[str, Any]]] = []
    monkeypatch.setattr(live, "send", lambda channel, kind, data: sent.append((channel, kind, data)))

    def lobby_news(action: Any) -> list[dict[str, Any]]:
        sent.clear()
        with django_capture_on_commit_callbacks(execute=True):
            action()
        return [data for channel, kind, data in sent if channel == live.LOBBY]

    creator, other = UserFactory(), UserFactory()
    holder: dict[str, Game] = {}

    def create() -> None:
        holder["game"] = services.game_create(creator=creator, preset="classic", num_players=3)

    assert lobby_news(create) == [{"game": holder["game"].pk}]
    game_id = holder["game"].pk
    assert lobby_news(lambda: services.game_join(user=other, game_id=game_id)) == [{"game": game_id}]
    assert lobby_news(lambda: services.game_start(user=creator, game_id=game_id)) == [{"game": game_id}]
    cancelled = services.game_create(creator=creator, preset="classic", num_players=2)
    assert lobby_news(lambda: services.game_leave(user=creator, game_id=cancelled.pk)) == [
        {"game": cancelled.pk}
    ]
    # Only which game changed: no card, no seat, no rules.
    assert all(set(data) == {"game"} for channel, _kind, data in sent if channel == live.LOBBY)


def test_a_private_game_is_no_news_for_the_lobby(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    sent: list[str] = []
    monkeypatch.setattr(live, "send", lambda channel, kind, data: sent.append(channel))
    with django_capture_on_commit_callbacks(execute=True):
        services.game_create(creator=UserFactory(), preset="classic", num_players=2, private=True)
    assert live.LOBBY not in sent


def test_the_open_games_list_listens_to_the_lobby_and_polls_while_the_stream_is_down() -> None:
    page = Client().get("/").content.decode()
    part = page.split('<div id="open-games"', 1)[1].split(">", 1)[0]
    assert 'data-live-channel="lobby"' in part
    assert 'hx-trigger="durak:changed, durak:poll"' in part
    assert f'hx-get="{reverse("games:lobby_open")}"' in part


def shown_mark(page: str) -> str:
    """What the list of open games sends back with its refreshes (its hx-vals)."""
    part = page.split('<div id="open-games"', 1)[1].split(">", 1)[0]
    found = re.search(r"hx-vals='\{\"shown\": \"([0-9a-f]+)\"\}'", part)
    assert found, part
    return found[1]


@pytest.mark.parametrize("filters", ["", "?players=3"])
def test_a_refresh_of_an_unchanged_list_of_open_games_is_answered_204(filters: str) -> None:
    """A poll or a stream event must not replace the list with its twin: each swap replaced the
    Join button under the reader's pointer (and a click that was on its way)."""
    creator, reader, joiner = UserFactory(), UserFactory(), UserFactory()
    game = services.game_create(creator=creator, preset="classic", num_players=3)
    client = client_for(reader)
    mark = shown_mark(client.get("/" + filters).content.decode())
    url = reverse("games:lobby_open") + filters
    # htmx adds the hx-vals to the address's own query string.
    asks = url + ("&" if filters else "?") + f"shown={mark}"
    assert client.get(asks, headers=HTMX).status_code == 204
    # The same list, as a refresh draws it, says the same mark.
    again = client.get(url, headers=HTMX)
    assert again.status_code == 200
    assert shown_mark(again.content.decode()) == mark

    # Someone joins: the list changed, so the refresh draws it.
    services.game_join(user=joiner, game_id=game.pk)
    changed = client.get(asks, headers=HTMX)
    assert changed.status_code == 200
    assert f"{joiner.username}" in row_of(changed.content.decode(), game)
    assert shown_mark(changed.content.decode()) != mark
    # And another reader (whose Join buttons differ), or the other language, has its own mark.
    assert shown_mark(client_for(creator).get("/" + filters).content.decode()) != mark
    assert shown_mark(client_for(reader, "ru").get("/" + filters).content.decode()) != mark


# The create form


@pytest.mark.parametrize("value", ["abc", "-3"])
def test_an_error_in_the_folded_options_unfolds_them_and_is_summed_up_at_the_top(value: str) -> None:
    response = client_for(UserFactory()).post(
        reverse("games:create"), {"preset": "classic", "num_players": "2", "opt_max_attack": value}
    )
    assert response.status_code == 400
    assert not Game.objects.exists()
    page = response.content.decode()
    assert "<details open>" in page
    summary = page.split('class="error-summary"', 1)[1].split("</div>", 1)[0]
    assert page.index('class="error-summary"') < page.index('id="open-games"')
    assert 'href="#id_opt_max_attack"' in summary
    assert "Most attack cards in a bout" in text(summary)


def test_a_form_without_errors_keeps_the_options_folded() -> None:
    page = client_for(UserFactory()).get("/").content.decode()
    assert "<details>" in page and "<details open>" not in page
    assert 'class="error-summary"' not in page


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("en", "Hand size must be between 1 and 18 with this deck."),
        ("ru", "Карт на руках: от 1 до 18 с этой колодой."),  # noqa: RUF001
    ],
)
def test_an_option_the_engine_refuses_is_a_sentence_naming_its_label(language: str, sentence: str) -> None:
    response = client_for(UserFactory(), language).post(
        reverse("games:create"), {"preset": "classic", "num_players": "2", "opt_hand_size": "0"}
    )
    assert response.status_code == 400
    page = text(response.content.decode())
    assert "hand_size" not in page
    assert sentence in page
    assert "<details open>" in response.content.decode()


def test_a_refused_number_of_players_is_said_at_the_top_and_by_the_field() -> None:
    response = client_for(UserFactory()).post(
        reverse("games:create"), {"preset": "durak24", "num_players": "6"}
    )
    assert response.status_code == 400
    page = response.content.decode()
    summary = text(page.split('class="error-summary"', 1)[1].split("</div>", 1)[0])
    assert "24 cards with 6 each are for 2 to 4 players, not 6." in summary


def test_the_form_names_the_rule_set_once_and_enchanted_cards_once() -> None:
    page = client_for(UserFactory()).get("/").content.decode()
    preset_select = page.split('name="preset"', 1)[1].split("</select>", 1)[0]
    for name in durak.PRESETS:
        option = re.search(rf'<option value="{name}"[^>]*>([^<]*)</option>', preset_select)
        assert option is not None
        assert html.unescape(option[1]) == engine_text.preset_name(name)
    # The chosen set's summary is said once, beside the choice.
    assert text(page).count(engine_text.preset_summary("classic")) == 1
    assert text(page).count("Enchanted cards:") == 1


def test_every_rule_option_has_a_label_on_the_form() -> None:
    """A new engine option (e.g. ``claim_after_days``) is shown with a label, not its code name."""
    page = text(client_for(UserFactory()).get("/").content.decode())
    for option in durak.Rules.describe_options():
        assert option["name"] in engine_text.OPTION_NAMES, option["name"]
        assert f"{engine_text.option_name(option['name'])}:" in page
