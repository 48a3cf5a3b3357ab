"""An API player: a token client that checks every response it receives for hidden cards."""

import json
from dataclasses import dataclass, field
from typing import Any

from games.models import Game, Move, Seat
from tests.leaks import shows_number

CARD_FIELDS = ("card", "target")


def public_cards(game: Game, seen_face_up: set[str]) -> set[str]:
    """Cards everyone has seen: every card played (the log) and every face-up trump card so far."""
    public = set(seen_face_up)
    for action in Move.objects.filter(game=game).values_list("action", flat=True):
        public.update(action.get("cards", []))
        public.update(action[name] for name in CARD_FIELDS if name in action)
    if game.state is not None and game.state["stock"]:
        public.add(game.state["stock"][-1])
    return public


def hidden_from(game: Game, viewer: int | None, seen_face_up: set[str]) -> set[str]:
    """Cards ``viewer`` must not get: other hands and the stock, less what has been face up."""
    if game.state is None:
        return set()
    engine = game.engine()
    hidden = {card for player, hand in enumerate(engine.hands) if player != viewer for card in hand}
    hidden |= set(engine.stock)
    return hidden - public_cards(game, seen_face_up)


def assert_nothing_hidden(text: str, game: Game, viewer: int | None, seen_face_up: set[str]) -> None:
    game.refresh_from_db()
    for card in hidden_from(game, viewer, seen_face_up):
        assert f'"{card}"' not in text, f"hidden card {card} leaks to {viewer}: {text[:300]}"
    assert not shows_number(text, game.seed), "the seed leaks"
    for secret_key in ('"stock"', '"hands"', '"seed"', '"deal"', '"state"', '"discard"'):
        assert secret_key not in text, f"{secret_key} leaks"


@dataclass
class Player:
    """One user's token client, looking at one game."""

    user: Any
    client: Any
    game: Game
    seen_face_up: set[str] = field(default_factory=set)
    responses: int = 0

    def call(self, method: str, url: str, body: dict[str, Any] | None = None, status: int = 200) -> Any:
        response = (
            getattr(self.client, method)(url, body, format="json")
            if body
            else getattr(self.client, method)(url)
        )
        assert response.status_code == status, (url, response.status_code, response.content[:500])
        text = response.content.decode()
        assert_nothing_hidden(text, self.game, self.position, self.seen_face_up)
        self.responses += 1
        return json.loads(text) if text else None

    @property
    def position(self) -> int | None:
        """The user's seat now (None for a spectator): seats are renumbered when the cards are dealt."""
        return Seat.objects.filter(game=self.game, user=self.user).values_list("position", flat=True).first()

    def detail(self) -> dict[str, Any]:
        return self.call("get", f"/api/games/{self.game.pk}/")

    def look_at_everything(self) -> None:
        """Every read endpoint once, each response checked."""
        game_id = self.game.pk
        self.call("get", f"/api/games/{game_id}/")
        self.call("get", f"/api/games/{game_id}/moves/?page_size=100")
        self.call("get", "/api/games/")
        self.call("get", "/api/games/?mine=true")
        self.call("get", "/api/games/?waiting_for_me=true")
        self.call("get", "/api/me/")
        version = Game.objects.values_list("version", flat=True).get(pk=game_id)
        self.call(
            "get", f"/api/games/{game_id}/wait/?version={max(version - 1, 0)}", status=200 if version else 204
        )
