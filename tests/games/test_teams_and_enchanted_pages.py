"""Team games and enchanted cards on the site (issues 8 and 9), through the pages only.

Every page is read the way a browser without JavaScript reads it: the moves are the buttons'
posted values, the game is made by the lobby's form, seats are taken with the Join button.
"""

import functools
import html
import json
import random
import re
from typing import Any, cast

import pytest
from django.test import Client
from django.urls import reverse

import durak
from accounts.models import User
from durak import ENCHANTED_STAGES, effect
from games import services
from games.models import Game, Seat
from games.presentation import action_button, build_table, card_marks, group_suit_choices
from stats.models import PlayerStats, RatingChange
from tests.factories import UserFactory
from tests.games.helpers import action_buttons, assert_no_hidden_cards, version_on_page

pytestmark = pytest.mark.django_db


def make_user(name: str) -> User:
    return cast(User, UserFactory(username=name))


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def create_from_lobby(client: Client, **fields: Any) -> Any:
    data = {"preset": "classic", "num_players": "2", "time_control": "none", **fields}
    return client.post(reverse("games:create"), data)


def page(client: Client, game: Game) -> str:
    response = client.get(reverse("games:detail", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def post_move(client: Client, game: Game, action: dict[str, Any], version: int) -> None:
    response = client.post(
        reverse("games:move", args=[game.pk]),
        {"action": json.dumps(action), "expected_version": str(version)},
    )
    assert response.status_code == 302, response.content.decode()[:2000]


def text_of(page_html: str) -> str:
    """The page's visible text, roughly: tags out, entities decoded, spaces squeezed."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page_html)))


# --- team games ------------------------------------------------------------------------------


def test_the_lobby_form_makes_a_team_game_only_for_a_player_count_the_rules_allow() -> None:
    creator = logged_in(UserFactory())
    refused = create_from_lobby(creator, num_players="3", opt_teams="partners")
    assert refused.status_code == 400
    # The engine's refusal as a sentence, on the players field and in the summary at the top.
    assert "Team play with these rules is for 4/6 players, not 3." in html.unescape(refused.content.decode())
    assert not Game.objects.exists()

    made = create_from_lobby(creator, num_players="4", opt_teams="black_book")
    assert made.status_code == 302
    game = Game.objects.get()
    assert game.rules["teams"] == "black_book" and game.num_players == 4
    assert game.rule_overrides == {"teams": "black_book"}


def test_a_partners_game_played_to_the_end_through_the_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "game_create", functools.partial(services.game_create, seed=2718))
    users = [make_user(name) for name in ("anna", "boris", "clara", "dima")]
    clients = [logged_in(user) for user in users]
    assert create_from_lobby(clients[0], num_players="4", opt_teams="partners").status_code == 302
    game = Game.objects.get()
    for client in clients[1:]:
        response = client.post(reverse("games:join", args=[game.pk]))
        assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    # The site seats players alternately in the order they join: teams sit opposite.
    seats = {seat.user.username: seat.position for seat in game.seats.select_related("user")}
    assert seats == {"anna": 0, "boris": 1, "clara": 2, "dima": 3}

    first = text_of(page(clients[0], game))
    assert "You play in team A with clara." in first
    assert re.search(r"clara .{0,40}your partner · team A", first)
    assert re.search(r"boris .{0,40}team B", first) and "your partner · team B" not in first
    assert "You play in team B with dima." in text_of(page(clients[1], game))
    spectator = text_of(page(Client(), game))
    assert "Team A: anna and clara; Team B: boris and dima." in spectator

    rng = random.Random(5)
    for move in range(600):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        engine = game.engine()
        # Every page every tenth move (no hidden card on any); else only the pages of the
        # players the engine waits for (the others' offer no move: checked on the tenth moves).
        watched = range(4) if move % 10 == 0 else engine.waiting_for()
        pages = {position: page(clients[position], game) for position in watched}
        if move % 10 == 0:
            for position, seen in pages.items():
                assert_no_hidden_cards(seen, engine, position, game)
                assert bool(action_buttons(seen)) == (position in engine.waiting_for()), position
        movers = [(clients[position], seen) for position, seen in pages.items() if action_buttons(seen)]
        assert movers, "the game waits for nobody"
        client, seen = rng.choice(movers)
        post_move(client, game, rng.choice(action_buttons(seen)), version_on_page(seen))
    else:
        raise AssertionError("the game did not end")

    engine = game.engine()
    assert engine.over and engine.losing_team is not None
    losers: set[str] = {
        str(user.username) for position, user in enumerate(users) if position % 2 == engine.losing_team
    }
    team = "Team A (anna and clara)" if engine.losing_team == 0 else "Team B (boris and dima)"
    for position, client in enumerate(clients):
        final = text_of(page(client, game))
        assert f"{team} lost" in final
        mine = users[position].username in losers
        assert ("your team lost" in final) == mine
        for loser in losers:
            assert f"{loser}: team lost" in final
    # Both partners' stats count the loss; the two teams are rated against each other.
    for user in users:
        lost = user.username in losers
        # The winning side played all its cards: each of them went out.
        assert Seat.objects.get(game=game, user=user).result == (
            Seat.Result.FOOL if lost else Seat.Result.OUT
        )
        overall = PlayerStats.objects.get(user=user, scope=PlayerStats.Scope.ALL)
        assert (overall.games, overall.fools) == (1, int(lost))
        change = RatingChange.objects.get(user=user, game_id=game.pk)
        assert (change.delta < 0) == lost
    profile = text_of(clients[0].get(reverse("stats:profile", args=[users[0].username])).content.decode())
    assert ("team lost" if "anna" in losers else "team won") in profile


# --- enchanted cards -------------------------------------------------------------------------


def test_enchanted_ranks_come_from_the_quick_pick_or_the_ticked_ranks() -> None:
    creator = logged_in(UserFactory())
    lobby = creator.get(reverse("games:lobby")).content.decode()
    for stage in ENCHANTED_STAGES:
        assert f'<option value="{stage}">' in lobby
    page_text = text_of(lobby)
    assert "sixes and sevens (6, 7)" in page_text and "all nine ranks" in page_text

    assert create_from_lobby(creator, enchanted_stage="sixes_sevens").status_code == 302
    assert create_from_lobby(creator, enchanted_stage="all", opt_enchanted=["9", "Q"]).status_code == 302
    first, second = Game.objects.order_by("pk")
    assert first.rules["enchanted"] == ["6", "7"]
    assert second.rules["enchanted"] == ["9", "Q"]  # ticked ranks win over the quick pick

    refused = create_from_lobby(creator, preset="durak24", enchanted_stage="to_tens")
    assert refused.status_code == 400
    # Said on the ranks' field, naming it by its label (not the engine's bare words).
    assert "Enchanted cards are played with the 36-card deck only." in refused.content.decode()


# Three players, every rank enchanted, diamonds trump, no stock. Anna (0) leads the spade eight
# named as clubs; Boris (1) beats it with the club king; Anna and Clara pass (done); Boris, who
# beat off a bout with a king, reverses the direction and leads 7H at Anna, who beats it with 6S
# (the spade six beats any heart); Clara passes; Anna leads 9C at Clara (play now runs the other
# way), who beats it with JC. Boris and Anna are out; Clara is the fool.
ENCHANTED_DEAL: dict[str, Any] = {
    "hands": [["8S", "6S", "9C"], ["KC", "7H"], ["AH", "10S", "JC"]],
    "stock": [],
    "trump": "D",
    "first_attacker": 0,
}


def enchanted_game() -> tuple[Game, list[Any], list[Client]]:
    users = [make_user(name) for name in ("anna", "boris", "clara")]
    game = services.game_create(
        creator=users[0],
        preset="classic",
        num_players=3,
        overrides={"enchanted": list(ENCHANTED_STAGES["all"])},
        deal=ENCHANTED_DEAL,
    )
    for user in users[1:]:
        services.game_join(user=user, game_id=game.pk)
    game.refresh_from_db()
    return game, users, [logged_in(user) for user in users]


def test_an_enchanted_game_shows_its_cards_and_is_played_to_the_end_without_javascript() -> None:
    game, _users, (anna, boris, clara) = enchanted_game()
    engine = game.engine()
    for position, client in enumerate((anna, boris, clara, Client())):
        viewer = position if position < 3 else None
        assert_no_hidden_cards(
            page(client, game), engine, viewer, game
        )  # marks and effects name no hidden card
    seen = page(anna, game)
    # Enchanted cards look different and carry their effect in the title and the tap-to-read list.
    for card in ("8S", "6S", "9C"):
        tag = re.search(rf'<span class="card [^"]*" data-card="{card}"[^>]*>', seen)
        assert tag and "enchanted" in tag.group(0)
        assert html.escape(effect(card), quote=True) in tag.group(0)
    six = re.search(r'data-card="6S"[^>]*>(?:(?!data-card=).)*?class="card-note[^"]*">[^<]*<', seen, re.S)
    assert six and 'class="card-note red">beats ♥<' in six.group(0)
    spells = text_of(seen[seen.index('class="spells"') :])
    assert f"6♠ (beats ♥): {effect('6S')}" in spells
    assert "↻ Play runs clockwise." in text_of(seen)

    # The eight's suit picker: one button per suit the engine allows (not trumps), no JavaScript needed.
    picker = re.search(
        r'<span class="card-action suit-picker attack" data-cards="8S">(.*?)</span>', seen, re.S
    )
    assert picker and "Attack with 8♠, naming" in picker.group(1)
    suits = re.findall(r'data-suit="(\w)"', picker.group(1))
    assert suits == ["S", "H", "C"]
    assert sorted(a.get("as_suit", "") for a in action_buttons(seen) if a.get("cards") == ["8S"]) == [
        "C",
        "H",
        "S",
    ]
    post_move(anna, game, {"type": "attack", "cards": ["8S"], "as_suit": "C"}, version_on_page(seen))

    seen = page(boris, game)
    eight = re.search(r'data-card="8S"[^>]*>(?:(?!data-card=).)*?class="card-note[^"]*">[^<]*<', seen, re.S)
    assert eight and 'class="card-note black">as ♣<' in eight.group(0)
    assert {"type": "defend", "target": "8S", "card": "KC"} in action_buttons(seen)
    post_move(boris, game, {"type": "defend", "target": "8S", "card": "KC"}, version_on_page(seen))
    seen = page(anna, game)
    post_move(anna, game, {"type": "pass"}, version_on_page(seen))
    seen = page(clara, game)  # an enchanted nine could still come from anyone: Clara says done too
    post_move(clara, game, {"type": "pass"}, version_on_page(seen))

    # Boris beat off a bout with a king: he may reverse the direction of play.
    seen = page(boris, game)
    assert '<button name="action" value="{&quot;type&quot;: &quot;reverse&quot;}" class="reverse">' in seen
    assert "Reverse the direction of play" in seen
    post_move(boris, game, {"type": "reverse"}, version_on_page(seen))
    seen = page(clara, game)
    assert "↺ Play runs counter-clockwise: an enchanted king reversed it." in text_of(seen)
    seen = page(boris, game)
    assert "You lead the next attack on anna." in text_of(seen)
    post_move(boris, game, {"type": "attack", "cards": ["7H"]}, version_on_page(seen))
    seen = page(anna, game)
    post_move(anna, game, {"type": "defend", "target": "7H", "card": "6S"}, version_on_page(seen))
    seen = page(clara, game)
    post_move(clara, game, {"type": "pass"}, version_on_page(seen))
    seen = page(anna, game)
    assert "You lead the next attack on clara." in text_of(seen)
    post_move(anna, game, {"type": "attack", "cards": ["9C"]}, version_on_page(seen))
    seen = page(clara, game)
    post_move(clara, game, {"type": "defend", "target": "9C", "card": "JC"}, version_on_page(seen))

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    final = text_of(page(clara, game))
    assert "The game is over: you are the fool." in final
    assert {s.user.username: s.result for s in game.seats.select_related("user")} == {
        "anna": Seat.Result.OUT,
        "boris": Seat.Result.OUT,
        "clara": Seat.Result.FOOL,
    }


def test_the_rules_page_explains_every_enchanted_effect_in_the_engines_words() -> None:
    response = Client().get(reverse("guide:index"))
    assert response.status_code == 200
    text = text_of(response.content.decode())
    for rank in durak.ENCHANTABLE_RANKS:
        for suit in durak.SUITS:
            assert effect(rank + suit) in text
    assert "4 or 6 players" in text and "team A" in text


# --- presentation, unit by unit --------------------------------------------------------------


def test_eights_named_as_each_suit_become_one_picker() -> None:
    actions = [
        {"type": "attack", "player": 0, "cards": ["8S"], "as_suit": suit} for suit in ("S", "H", "C")
    ] + [{"type": "attack", "player": 0, "cards": ["6S"]}]
    grouped = group_suit_choices([action_button(action) for action in actions])
    assert [button.label for button in grouped] == ["Attack with 8♠, naming", "Attack with 6♠"]
    assert [choice.label for choice in grouped[0].choices] == [
        "Attack with 8♠ as ♠",
        "Attack with 8♠ as ♥",
        "Attack with 8♠ as ♣",
    ]
    assert grouped[0].choices[2].value == '{"as_suit": "C", "cards": ["8S"], "type": "attack"}'


def test_card_marks_follow_the_view() -> None:
    view = {"enchanted": ["6", "8", "A"], "named_suits": {"8H": "S"}}
    assert card_marks("6C", view).note == "beats ♦"
    assert card_marks("AS", view).note == "beats ♦A"
    assert card_marks("8H", view).note == "as ♠"
    assert card_marks("8D", view).note == "" and card_marks("8D", view).enchanted
    assert not card_marks("7S", view).enchanted
    assert not card_marks("6C", {**view, "enchanted": []}).enchanted


def test_team_sentences() -> None:
    # Clara (2) holds nothing from the deal; boris (1) and dima (3) go out; anna (0) takes and
    # holds the last cards: team A (anna and clara) lost, as the engine's outcome says.
    partners = durak.Rules(teams="partners")
    game = durak.Game.from_deal(partners, [["6S", "7S"], ["8S"], [], ["9D"]], [], trump="C", first_attacker=0)
    for action in (
        {"type": "attack", "player": 0, "cards": ["6S"]},
        {"type": "defend", "player": 1, "target": "6S", "card": "8S"},
        {"type": "attack", "player": 3, "cards": ["9D"]},
        {"type": "take", "player": 0},
    ):
        game.apply(action)
    names = {0: "anna", 1: "boris", 2: "clara", 3: "dima"}
    mine = build_table(game.view(0), names, me=0)
    assert mine.status_line == "The game is over: your team lost."
    assert [p.partner for p in mine.players] == [False, False, True, False]
    assert mine.team_results == [("team A", "anna and clara", True), ("team B", "boris and dima", False)]
    other = build_table(game.view(1), names, me=1)
    assert other.status_line == "The game is over: your team won."
    assert build_table(game.view(None), names, me=None).status_line == "The game is over: team A lost."
    assert other.team_line == "You play in team B with dima."
    # Everyone's last card goes at once: a draw.
    drawn = durak.Game.from_deal(partners, [["6S"], ["8S"], [], []], [], trump="C", first_attacker=0)
    drawn.apply({"type": "attack", "player": 0, "cards": ["6S"]})
    drawn.apply({"type": "defend", "player": 1, "target": "6S", "card": "8S"})
    draw = build_table(drawn.view(None), names, me=None)
    assert draw.status_line == "The game is over: a draw, no team lost."
