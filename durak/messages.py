"""The engine's words for people, ready to be translated by whoever shows them.

The engine has no languages and no framework: its errors carry an English ``template``, marked with
:func:`gettext_noop` so that translation tools (xgettext, Django's ``makemessages``) find it, and the
``params`` to fill in. ``str(error)`` is the English sentence; a site shows its own translation:
``translate(error.template).format(**error.params)``.

>>> error = DurakError(gettext_noop("you do not hold {card}"), card="10H")
>>> str(error), error.template, error.params
('you do not hold 10H', 'you do not hold {card}', {'card': '10H'})
"""

from __future__ import annotations


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation and return it unchanged."""
    return message


class DurakError(ValueError):
    """An error with a message for people: ``template`` filled in with ``params``."""

    def __init__(self, template: str, /, **params: object) -> None:
        super().__init__(template.format(**params) if params else template)
        self.template = template
        self.params = params
