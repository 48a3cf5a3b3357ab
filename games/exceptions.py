"""Errors of the game services. ``str(error)`` is a message for the player.

Each carries the HTTP status a page or API answers with.
"""


class GameError(Exception):
    status_code = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class GameNotFound(GameError):
    status_code = 404


class NotAllowed(GameError):
    """The user may not do this here (not seated, not the creator, ...)."""

    status_code = 403


class InvalidRules(GameError):
    pass


class WrongStatus(GameError):
    """The game is not open / not running for this operation."""

    status_code = 409


class StaleVersion(GameError):
    """The move was made against a position that has changed since."""

    status_code = 409


class IllegalMove(GameError):
    """The engine refused the action; the message is the engine's."""


class TimeExpired(GameError):
    """The player's deadline passed before the move arrived; the timeout was applied instead."""

    status_code = 409


class Conflict(GameError):
    """A request at the same moment wrote the same row first, and the database's unique
    constraint refused this one (``durak_site.middleware.lost_race``): nothing of it was saved."""

    status_code = 409


class TooManyBotGames(GameError):
    """The creator has ``BOT_GAMES_PER_USER`` open and running games with computer players
    already (``games.services.bot_games_left``)."""

    status_code = 409
