# ruff: noqa: RUF001, RUF003  (Russian text)
"""Russian numbers agree with their nouns («1 карта», «2 карты», «5 карт», «21 карта»).

Every Russian message in which a number may meet a noun (a plural entry, or any entry with a
placeholder: a count is always one) is rendered with 1, 2, 5, 11, 21 and 24 in each
placeholder, in the plural form the catalogue's formula picks (as ``ngettext`` does), and the
word after each number is checked with a Russian morphology (pymorphy3): some reading of the
word the message gives for 1 must inflect, for every other number, into exactly the word the
message gives for it. A message that says «24 карт» (one form for every number: a missing
``ngettext``) or «1 игроками» fails; one in colon form («карт в колоде: 24») has no noun after
its number and passes.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import polib
import pymorphy3
import pytest

from durak_site.catalogues import catalogues

ROOT = Path(__file__).resolve().parent.parent
NUMBERS = (1, 2, 5, 11, 21, 24)
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w+)\}")
#: Placeholders that hold a name, a card, an ordinal or an identifier ("game 12"), never a count.
NOT_COUNTS = frozenset(
    {
        "game", "number", "report", "message", "step", "move", "seq", "when", "deadline", "day",
        "name", "names", "card", "target", "cards", "reason", "label", "team", "result", "why",
        "fool", "status", "rules", "clock", "preset", "suit", "rank", "by", "other", "me", "place",
        "wait", "trump", "defender", "attacker", "player", "user", "players_text", "move_text",
    }
)  # fmt: skip
MARK = "\x00"
#: A count's place, then the word that follows it.
MARK_WORD = re.compile(MARK + r" ([а-яё]+)(?![\w-])", re.IGNORECASE)
#: Counting forms the morphology spells otherwise («5 лет», where it gives «годов»).
COUNTING_FORMS = {"годов": "лет"}
#: Units written short, which do not inflect: «30 с на ход», «5 мин».
ABBREVIATIONS = frozenset({"с", "мин", "ч", "сек", "дн"})


@cache
def morph() -> pymorphy3.MorphAnalyzer:
    return pymorphy3.MorphAnalyzer()


def _russian_messages() -> Iterator[tuple[str, polib.POEntry, str]]:
    for path in catalogues(ROOT):
        if path.parts[-3] != "ru":
            continue
        catalogue = polib.pofile(str(path))
        expression = catalogue.metadata["Plural-Forms"].split("plural=")[1].rstrip(";")
        for entry in catalogue:
            if entry.obsolete or not (entry.msgid_plural or PLACEHOLDER.search(entry.msgid)):
                continue
            yield str(path.relative_to(ROOT)), entry, expression


MESSAGES = list(_russian_messages())


def _counts_marked(text: str) -> str:
    """``text`` with each count's placeholder replaced by :data:`MARK` (the others by "X")."""

    def mark(found: re.Match[str]) -> str:
        return "X" if (found[1] or found[2]) in NOT_COUNTS else MARK

    return PLACEHOLDER.sub(mark, text)


def form_for(entry: polib.POEntry, expression: str, number: int) -> str:
    """The Russian form of the message for ``number``, as ``ngettext`` picks it."""
    if entry.msgid_plural:
        return entry.msgstr_plural[gettext.c2py(expression)(number)]
    return entry.msgstr


def words_after_counts(entry: polib.POEntry, expression: str, number: int) -> list[str]:
    return MARK_WORD.findall(_counts_marked(form_for(entry, expression, number)))


def agrees(words_by_number: dict[int, str]) -> bool:
    """Whether some reading of the word for 1 inflects into the word given for each number."""
    first = words_by_number[1].lower()
    for reading in morph().parse(first):
        if (
            not ({"NOUN", "ADJF"} & set(reading.tag.grammemes)) or "sing" not in reading.tag
        ):  # «ничья» is both
            continue
        if all(
            (agreed := reading.make_agree_with_number(number)) is not None
            and COUNTING_FORMS.get(agreed.word, agreed.word) == word.lower()
            for number, word in words_by_number.items()
        ):
            return True
    return False


def _is_noun(word: str) -> bool:
    """Whether the likeliest reading of ``word`` is a noun («уже», «из» are not)."""
    return "NOUN" in morph().parse(word.lower())[0].tag


def disagreements(entry: polib.POEntry, expression: str) -> list[str]:
    """Each noun after a count whose forms do not agree, with the message's forms."""
    columns = {number: words_after_counts(entry, expression, number) for number in NUMBERS}
    problems = []
    for index in range(min(len(found) for found in columns.values())):
        by_number = {number: columns[number][index] for number in NUMBERS}
        if by_number[1].lower() in ABBREVIATIONS or not any(_is_noun(w) for w in by_number.values()):
            continue
        if not agrees(by_number):
            problems.append(" / ".join(f"{number} {by_number[number]}" for number in NUMBERS))
    return problems


@pytest.mark.parametrize(
    ("path", "entry", "expression"),
    MESSAGES,
    ids=[f"{path}:{entry.msgctxt or ''}:{entry.msgid[:50]}" for path, entry, _ in MESSAGES],
)
def test_a_number_agrees_with_its_noun_in_russian(path: str, entry: polib.POEntry, expression: str) -> None:
    assert disagreements(entry, expression) == [], f"{path}: {entry.msgid!r}"


def test_the_check_finds_a_noun_that_does_not_agree() -> None:
    expression = "(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<12 || n%100>14) ? 1 : 2)"
    one_form = polib.POEntry(msgid="{deck} cards", msgstr="{deck} карт по 6")
    assert disagreements(one_form, expression) == ["1 карт / 2 карт / 5 карт / 11 карт / 21 карт / 24 карт"]
    wrong_case = polib.POEntry(
        msgid="with %(count)d players",
        msgid_plural="with %(count)d players",
        msgstr_plural={0: "с %(count)d игроками", 1: "с %(count)d игроками", 2: "с %(count)d игроками"},
    )
    assert disagreements(wrong_case, expression)
    right = polib.POEntry(
        msgid="%(count)d card",
        msgid_plural="%(count)d cards",
        msgstr_plural={0: "%(count)d карта", 1: "%(count)d карты", 2: "%(count)d карт"},
    )
    assert disagreements(right, expression) == []
    colon = polib.POEntry(msgid="{deck} cards", msgstr="карт в колоде: {deck}")
    assert disagreements(colon, expression) == []


def test_the_engines_messages_with_a_count_take_the_form_of_their_number() -> None:
    """«24 карт по 6» was one sentence for every count: the engine's message now carries both
    English forms (``durak.messages.ngettext_noop``) and the site picks its language's."""
    from django.utils import translation

    import durak
    from durak_site.engine_text import engine_message

    with pytest.raises(durak.RulesError) as too_many:
        durak.Rules(deck_size=24, hand_size=6).validate_players(5)
    with pytest.raises(durak.RulesError) as few_cards:
        durak.Rules(deck_size=24, hand_size=12).validate_players(3)
    with translation.override("ru"):
        assert (
            engine_message(too_many.value)
            == "карт в колоде — 24, на руки по 6: так играют от 2 до 4 игроков, а не 5"
        )
        assert "от 2 до 2 игроков" in engine_message(few_cards.value)
    with translation.override("en"):
        assert engine_message(too_many.value) == "24 cards with 6 each are for 2 to 4 players, not 5"
    one = durak.IllegalAction(
        durak.ngettext_noop(
            "at most {limit} card may attack", "at most {limit} cards may attack", count="limit"
        ),
        limit=1,
    )
    assert str(one) == "at most 1 card may attack"
