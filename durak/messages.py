"""The engine's words for people, ready to be translated by whoever shows them.

The engine has no languages and no framework: its errors carry an English ``template``, marked with
:func:`gettext_noop` so that translation tools (xgettext, Django's ``makemessages``) find it, and the
``params`` to fill in. ``str(error)`` is the English sentence; a site shows its own translation:
``translate(error.template).format(**error.params)``. A message with a count carries both English
forms (:func:`ngettext_noop`), so that a site picks its language's form for the number
(``ngettext(plural.singular, plural.plural, params[plural.count])``).

>>> error = DurakError(gettext_noop("you do not hold {card}"), card="10H")
>>> str(error), error.template, error.params
('you do not hold 10H', 'you do not hold {card}', {'card': '10H'})
>>> str(DurakError(ngettext_noop("at most {limit} card", "at most {limit} cards", count="limit"), limit=1))
'at most 1 card'
"""

from __future__ import annotations

from dataclasses import dataclass


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation and return it unchanged."""
    return message


@dataclass(frozen=True, slots=True)
class Plural:
    """A message whose words follow a number: its English ``singular`` and ``plural`` templates,
    and the name of the parameter that ``count`` s."""

    singular: str
    plural: str
    count: str

    def english(self, params: dict[str, object]) -> str:
        """The English template for ``params``' count."""
        return self.singular if params.get(self.count) == 1 else self.plural


def ngettext_noop(singular: str, plural: str, *, count: str) -> Plural:
    """Mark a message with a count for translation (xgettext's ``ngettext_noop:1,2`` keyword):
    ``count`` names the parameter whose number picks the form."""
    return Plural(singular, plural, count)


class DurakError(ValueError):
    """An error with a message for people: ``template`` filled in with ``params``; ``plural``:
    both forms of a message with a count (``template`` is then the English one for it)."""

    def __init__(self, template: str | Plural, /, **params: object) -> None:
        self.plural = template if isinstance(template, Plural) else None
        self.template = template.english(params) if isinstance(template, Plural) else template
        self.params = params
        super().__init__(self.template.format(**params) if params else self.template)
