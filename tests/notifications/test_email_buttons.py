"""Every notification e-mail's main button says what its text part says, in the reader's language.

The HTML part's button and the text part's "Open the game:" line are one phrase. In Russian the
button read «Создать игру» (the lobby's create button, same msgid "Open the game" in the games
catalogue, which comes first) while the text part read «Открыть игру».
"""

import re
from datetime import timedelta
from email.message import EmailMessage

import pytest
from django.db import transaction
from django.utils import timezone

from games import services as games
from games.models import Seat
from notifications import services as notification_services
from notifications.kinds import TOURNAMENT_KINDS
from notifications.models import Kind, Notification, Preferences
from tests.factories import LONGER_DEAL, GameFactory, UserFactory
from tests.tournaments.helpers import tournament

from .conftest import Mailbox

pytestmark = pytest.mark.django_db(transaction=True)

BUTTON = re.compile(
    r'<a href="https://durak\.example/(?:games/\d+|friends|tournaments/\d+)/" style="font-weight: bold">([^<]*)</a>'
)


SUBJECT = {"ru": "Ваш ход", "en": "Your move"}


def params_of(kind: str, game_id: int) -> dict[str, object]:
    deadline = (timezone.now() + timedelta(hours=5)).isoformat()
    return {
        Kind.GAME_STARTED: {"game": game_id},
        Kind.INVITED: {"game": game_id, "by": "boris", "preset": "classic"},
        Kind.GAME_FINISHED: {"game": game_id, "result": "not_fool", "how": "", "fool": "boris"},
        Kind.TIME_LOW: {"game": game_id, "deadline": deadline, "share": 90},
        Kind.REMATCH: {"game": game_id, "by": "boris", "preset": "classic", "rematch": 3},
        Kind.CLAIM_POSSIBLE: {"game": game_id, "by": ["boris"], "since": timezone.now().isoformat()},
        Kind.FRIEND_REQUEST: {"by": "boris"},
        Kind.FRIEND_ACCEPTED: {"by": "boris"},
        Kind.TOURNAMENT_OPEN: {"name": "Autumn cup", "starts": deadline},
        Kind.TOURNAMENT_SOON: {"name": "Autumn cup", "starts": deadline},
        Kind.TOURNAMENT_ROUND: {
            "name": "Autumn cup",
            "round": 2,
            "game": game_id,
            "against": [{"name": "boris"}],
        },
        Kind.TOURNAMENT_ENDED: {"name": "Autumn cup", "rank": 3, "count": 12},
    }[kind]


#: The kinds about a player, not a game: their button opens the friends page.
FRIEND_KINDS = {Kind.FRIEND_REQUEST, Kind.FRIEND_ACCEPTED}
FRIENDS_WORDS = {"ru": "Открыть страницу друзей", "en": "Open your friends page"}
#: The kinds about a tournament, not a game (a round's is about its game): their button opens
#: the tournament's page.
TOURNAMENT_PAGE_KINDS = {Kind.TOURNAMENT_OPEN, Kind.TOURNAMENT_SOON, Kind.TOURNAMENT_ENDED}
TOURNAMENT_WORDS = {"ru": "Открыть турнир", "en": "Open the tournament"}


def button_and_line(message: EmailMessage) -> tuple[str, str]:
    text = message.get_body(preferencelist=("plain",))
    html = message.get_body(preferencelist=("html",))
    assert text is not None and html is not None
    [button] = BUTTON.findall(html.get_content())
    [line] = [
        line
        for line in text.get_content().splitlines()
        if any(f"https://durak.example/{page}/" in line for page in ("games", "friends", "tournaments"))
    ]
    return button, line.split(" https://")[0]


@pytest.mark.parametrize(("language", "words"), [("ru", "Открыть игру"), ("en", "Open the game")])
@pytest.mark.parametrize("kind", list(Kind))
def test_the_main_button_reads_as_the_text_part(smtp: Mailbox, kind: str, language: str, words: str) -> None:
    # Two readers of the language start a game with a clock: the one to move gets "your move"
    # from the game itself; every other kind is then written for that reader, still due.
    game = GameFactory(creator=UserFactory(language=language), deal=LONGER_DEAL, move_time=timedelta(hours=5))
    games.game_join(user=UserFactory(language=language), game_id=game.pk)
    reader = Seat.objects.select_related("user").get(game=game, awaiting_move=True).user
    if kind != Kind.YOUR_MOVE:
        Notification.objects.filter(user=reader).update(read_at=timezone.now())
        smtp.messages.clear()
        with transaction.atomic():
            about = None if kind in FRIEND_KINDS | TOURNAMENT_PAGE_KINDS else game
            cup = tournament(creator=reader).pk if kind in TOURNAMENT_KINDS else None
            # Every kind's e-mail wanted (an accepted request is not e-mailed by default).
            Preferences.objects.update_or_create(user=reader, defaults={f"email_{kind}": True})
            notification_services.notify(
                user=reader, kind=kind, params=params_of(kind, game.pk), game=about, tournament_id=cup
            )
    [message] = smtp.to(reader.email, subject_part="" if kind != Kind.YOUR_MOVE else SUBJECT[language])
    button, line = button_and_line(message)
    if kind in FRIEND_KINDS:
        words = FRIENDS_WORDS[language]
    if kind in TOURNAMENT_PAGE_KINDS:
        words = TOURNAMENT_WORDS[language]
    assert (button, line) == (words, f"{words}:")
