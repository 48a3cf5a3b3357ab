#!/usr/bin/env python3
"""A small durak bot that plays one game through the REST API, standard library only.

It logs in for a token (a new one, named "api_bot", good for a day), creates a game (or joins
one), then loops: read the game, play one of its ``legal_actions`` when it has any, otherwise
long-poll ``wait/`` until the game moves. It prefers the cheapest card and takes only when it
must. When it stops, it revokes its token (``DELETE /api/tokens/{id}/``).

    python examples/api_bot.py --url http://127.0.0.1:8000 --username alice --password secret
    python examples/api_bot.py --username bob --password secret --join 12
"""

import argparse
import json
import sys
import urllib.error
import urllib.request
from typing import Any

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


class Api:
    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/")
        self.token = ""

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        request = urllib.request.Request(
            self.url + path,
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "Accept": "application/json"},
        )
        if self.token:
            request.add_header("Authorization", f"Token {self.token}")
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                text = response.read().decode()
                return response.status, json.loads(text) if text else None
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read().decode() or "null")

    def ok(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        status, data = self.call(method, path, body)
        if status >= 400:
            sys.exit(f"{method} {path}: {status} {data}")
        return data


def card_cost(card: str, trump: str | None) -> tuple[bool, int]:
    """Cheap cards first: non-trumps before trumps, low before high."""
    return card[-1] == trump, RANKS.index(card[:-1])


def choose(actions: list[dict[str, Any]], trump: str | None) -> dict[str, Any]:
    """Swap the trump when we can; play the cheapest card; pass before taking; take last."""
    for action in actions:
        if action["type"] == "swap_trump":
            return action
    plays = [action for action in actions if "card" in action or "cards" in action]
    if plays:
        return min(plays, key=lambda action: card_cost(action.get("card") or action["cards"][0], trump))
    for kind in ("pass", "reverse", "take"):
        for action in actions:
            if action["type"] == kind:
                return action
    return actions[0]


def play(api: Api, game_id: int) -> None:
    game = api.ok("GET", f"/api/games/{game_id}/")
    while game["status"] in ("open", "active"):
        if game["legal_actions"]:
            trump = game["view"]["trump"]
            action = choose(game["legal_actions"], trump)
            status, answer = api.call(
                "POST",
                f"/api/games/{game_id}/actions/",
                {"action": action, "expected_version": game["version"]},
            )
            if status == 200:
                print(f"v{game['version']}: {json.dumps(action)}")
                game = answer
                continue
            if status != 409:  # 409: someone moved first; read the game again
                sys.exit(f"move refused: {status} {answer}")
        status, answer = api.call("GET", f"/api/games/{game_id}/wait/?version={game['version']}")
        game = answer if status == 200 else api.ok("GET", f"/api/games/{game_id}/")
    result = game["result"]
    if game["status"] == "finished" and result:
        fool = result["loser_username"] or "nobody (a draw)"
        print(f"game {game_id} over ({result['reason']}): the fool is {fool}")
    else:
        print(f"game {game_id} is {game['status']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--username", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--join", type=int, help="join this game instead of creating one")
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()

    api = Api(args.url)
    login = {"username": args.username, "password": args.password, "name": "api_bot", "expires_in_days": 1}
    token = api.ok("POST", "/api/auth/token/", login)
    api.token = token["token"]
    try:
        if args.join:
            game_id = api.ok("POST", f"/api/games/{args.join}/join/")["id"]
        else:
            game_id = api.ok(
                "POST", "/api/games/", {"preset": args.preset, "players": args.players, "time_control": None}
            )["id"]
            print(f"created game {game_id}; waiting for {args.players - 1} more player(s) to join")
        play(api, game_id)
    finally:
        api.call("DELETE", f"/api/tokens/{token['id']}/")  # a token nobody uses any more


if __name__ == "__main__":
    main()
