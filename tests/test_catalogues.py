"""The translation catalogues: every Russian catalogue complete, and each compiles."""

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
