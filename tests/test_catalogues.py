"""The translation catalogues: every Russian catalogue complete, and each compiles."""

import re
from pathlib import Path

import polib
import pytest

from durak_site.catalogues import catalogues

ROOT = Path(__file__).resolve().parent.parent
RUSSIAN = [path for path in catalogues(ROOT) if path.parts[-3] == "ru"]


def test_there_is_a_russian_catalogue_for_the_project_and_each_app_with_pages() -> None:
    owners = {path.relative_to(ROOT).parts[0] for path in RUSSIAN}
    assert {"locale", "accounts", "games", "guide", "notifications", "stats", "chat", "moderation"} <= owners


@pytest.mark.parametrize("path", RUSSIAN, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_russian_message_is_translated_and_none_is_fuzzy(path: Path, tmp_path: Path) -> None:
    catalogue = polib.pofile(str(path))
    assert [entry.msgid for entry in catalogue.untranslated_entries()] == []
    assert [entry.msgid for entry in catalogue.fuzzy_entries()] == []
    assert "Plural-Forms" in catalogue.metadata and "n%10==1" in catalogue.metadata["Plural-Forms"]
    catalogue.save_as_mofile(str(tmp_path / "django.mo"))
    assert polib.mofile(str(tmp_path / "django.mo")).percent_translated() == 100


#: Russian past-tense verbs that agree with a man; a sentence naming a player in one reads wrong
#: for a woman («alice отбился»). Sentences are written with nouns or the present tense instead.
MASCULINE_PAST = re.compile(
    r"\b(?:отбился|сдался|остался|вышел|взял|сходил|пасовал|проиграл|выиграл|создал|предложил|"
    r"отказался|принял|победил|ушёл|пригласил|написал|перевёл|подкинул|ответил|пропустил)\b"
)
#: A placeholder that stands for a person (not a count or a card).
PERSON = re.compile(
    r"%\((?:name|player|fool|me|who|user|loser|winner|by|creator|offerer)\)s|\{(?:name|player)\}"
)


@pytest.mark.parametrize("path", [po for po in catalogues() if "/ru/" in str(po)], ids=str)
def test_no_russian_sentence_names_a_player_with_a_gendered_verb(path: Path) -> None:
    gendered = [
        entry.msgid
        for entry in polib.pofile(str(path))
        if not entry.obsolete
        for text in [entry.msgstr, *entry.msgstr_plural.values()]
        if PERSON.search(text) and MASCULINE_PAST.search(text)
    ]
    assert not gendered, f"{path}: {gendered}"
