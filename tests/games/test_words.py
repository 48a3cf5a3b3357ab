"""The one words layer (games.words): every system ending has its sentence, in English and in a
Russian that reads right whoever the player is (no gendered past tense about a player)."""

import re

import pytest
from django.utils import translation

from accounts.models import User
from games import words

NAMES = {0: "alice", 1: "bob"}
#: Russian past-tense verb endings that would give a player a gender («отбился», «взяла»).
GENDERED = re.compile(r"\b(alice|bob)\s+\w+(л|ла|лся|лась)\b")


@pytest.mark.parametrize(
    ("action", "events", "english"),
    [
        (
            {"type": "resign", "player": 1},
            [{"type": "game_over", "reason": "resign", "player": 1}],
            ["bob resigns.", "The game is over: bob resigned and is the fool."],
        ),
        (
            {"type": "timeout", "player": 1},
            [{"type": "game_over", "reason": "timeout", "player": 1}],
            ["bob ran out of time.", "The game is over: bob ran out of time and is the fool."],
        ),
        (
            {"type": "claim", "player": 0, "waited": 1209600},
            [{"type": "game_over", "reason": "claim", "player": 1}],
            ["alice claims the game.", "The game is over: bob let the game wait too long and is the fool."],
        ),
        (
            {"type": "timeout", "player": 1},
            [{"type": "automatic", "action": {"type": "take", "player": 1}}],
            ["bob ran out of time.", "Out of time, the game moves instead: bob takes the cards."],
        ),
        (
            {"type": "pass", "player": 0},
            [
                {"type": "bout_end", "attacker": 0, "defender": 1, "result": "taken", "cards": ["6S", "7S"]},
                {"type": "drew", "player": 0, "count": 2},
                {"type": "out", "player": 1},
                {"type": "game_over", "reason": "cards", "player": 0},
            ],
            [
                "alice: done.",
                "6♠ 7♠ go to the hand of bob.",
                "alice draws 2 cards.",
                "bob has no cards left: out of the game.",
                "The game is over: alice is the fool.",
            ],
        ),
    ],
)
def test_every_ending_is_told_in_english_and_neutral_russian(
    action: dict, events: list[dict], english: list[str]
) -> None:
    with translation.override("en"):
        told = [
            words.move_sentence(action, me=None, names=NAMES),
            *words.event_sentences(events, me=None, names=NAMES),
        ]
    assert told == english
    with translation.override("ru"):
        russian = [
            words.move_sentence(action, me=None, names=NAMES),
            *words.event_sentences(events, me=None, names=NAMES),
        ]
    assert all(russian) and russian != english
    for line in russian:
        assert not GENDERED.search(line), line


def test_a_computer_player_is_named_by_its_seat_and_level_never_its_account() -> None:
    first = User(
        username="computer-random", is_bot=True, bot_level="random", display_name="Computer: beginner"
    )
    second = User(username="computer-random-2", is_bot=True, bot_level="random")
    third = User(username="computer-rules-3~17", is_bot=True, bot_level="rules")
    person = User(username="anna")
    with translation.override("en"):
        assert words.seat_name(first) == first.name == "Vanya (beginner)"
        assert words.seat_name(second) == "Katya (beginner)"
        assert words.seat_name(third) == "Dasha (rule of thumb)"
        assert words.seat_name(person) == "anna"
    with translation.override("ru"):
        assert words.seat_name(first) == first.name == "Ваня (новичок)"
        assert words.seat_name(third) == "Даша (по правилам)"


def test_the_table_and_the_history_say_a_move_in_the_same_words() -> None:
    from games.presentation import last_move_line

    action = {"type": "defend", "player": 1, "target": "7H", "card": "9H"}
    with translation.override("en"):
        table = last_move_line(action, 1, 0, NAMES, frozenset({"7H", "9H"}))
        assert table == words.move_sentence(action, me=0, names=NAMES, position=1) == "bob beats 7♥ with 9♥."
        # Once the cards went on into a hand, the last-move line no longer names them.
        assert last_move_line(action, 1, 0, NAMES, frozenset()) == "bob played a card."


@pytest.mark.parametrize(
    ("language", "mine", "theirs"), [("en", "You: done.", "bob: done."), ("ru", "Вы: пас.", "bob: пас.")]
)
def test_a_pass_is_told_in_the_buttons_word(language: str, mine: str, theirs: str) -> None:
    """The button reads "Done" («Пас»): the history and the last-move line say the same word."""
    action = {"type": "pass", "player": 1}
    with translation.override(language):
        button = words.plain_action_label(action).lower()
        assert words.move_sentence(action, me=1, names=NAMES) == mine
        assert words.move_sentence(action, me=0, names=NAMES) == theirs
    assert button in mine.lower() and button in theirs.lower()
