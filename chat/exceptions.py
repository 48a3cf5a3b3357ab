"""Errors of the chat services; ``message`` is for the person who tried to post."""


class ChatError(Exception):
    status_code = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ChatRefused(ChatError):
    """Muted, or posting too fast."""

    status_code = 403
