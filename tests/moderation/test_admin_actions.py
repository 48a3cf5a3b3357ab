"""Every moderation action, done as a moderator through the admin, with its audit entry."""

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import ApiToken
from chat.models import ChatMessage
from durak_site import dates
from games import services as game_services
from games.models import Game, Move, Seat
from moderation.models import AuditEntry, Report, Sanction
from tests.factories import LONGER_DEAL, PASSWORD, GameFactory, UserFactory, api_token, started_game
from tests.moderation.conftest import client_for

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def run_action(client: Client, changelist: str, action: str, pks: list[Any], **fields: str) -> Any:
    """Pick the action in the changelist, see its form, then submit it with the fields."""
    url = reverse(f"admin:{changelist}_changelist")
    data = {"action": action, "_selected_action": [str(pk) for pk in pks]}
    form_page = client.post(url, data)
    assert form_page.status_code == 200, form_page.content[:500]
    assert 'name="apply"' in form_page.content.decode()
    done = client.post(url, {**data, "apply": "1", **fields})
    assert done.status_code == 302, done.content.decode()[:2000]
    return done


def only_audit(action: str) -> AuditEntry:
    entries = list(AuditEntry.objects.filter(action=action))
    assert len(entries) == 1, entries
    return entries[0]


def chat(game: Game, author: Any, text: str) -> ChatMessage:
    return ChatMessage.objects.create(game=game, author=author, channel="players", text=text)


def test_hide_a_chat_message(mod_client: Client, moderator: Any) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    message = chat(game, users[0], "you are all idiots")
    run_action(mod_client, "chat_chatmessage", "hide_messages", [message.pk], reason="insults")

    message.refresh_from_db()
    assert message.hidden_at is not None and message.hidden_by == moderator
    entry = only_audit("hide_message")
    assert (entry.actor, entry.target_user, entry.message, entry.game_id, entry.reason) == (
        moderator,
        users[0],
        message,
        game.pk,
        "insults",
    )
    assert entry.details["text"] == "you are all idiots"
    page = client_for(users[1]).get(reverse("chat:log", args=[game.pk]), headers=HTMX).content.decode()
    assert "you are all idiots" not in page
    assert "hidden by a moderator" in page


def test_hide_a_reported_message_from_the_queue_then_resolve(mod_client: Client, moderator: Any) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    message = chat(game, users[0], "spam spam spam")
    report = Report.objects.create(
        reporter=users[1], reported_user=users[0], game=game, message=message, reason="spam"
    )
    queue = mod_client.get(reverse("admin:moderation_report_changelist")).content.decode()
    assert "spam spam spam" in queue

    run_action(mod_client, "moderation_report", "hide_messages", [report.pk], reason="spam")
    message.refresh_from_db()
    assert message.is_hidden
    assert only_audit("hide_message").message == message

    run_action(mod_client, "moderation_report", "resolve", [report.pk], note="hidden, warned")
    report.refresh_from_db()
    assert (report.status, report.note, report.handled_by) == ("resolved", "hidden, warned", moderator)
    entry = only_audit("resolve_report")
    assert (entry.actor, entry.report, entry.reason, entry.target_user) == (
        moderator,
        report,
        "hidden, warned",
        users[0],
    )


def test_dismiss_a_report_with_a_note(mod_client: Client, moderator: Any) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    report = Report.objects.create(reporter=users[1], game=game, reason="other", details="he is slow")
    run_action(mod_client, "moderation_report", "dismiss", [report.pk], note="slow is allowed")
    report.refresh_from_db()
    assert report.status == "dismissed" and report.note == "slow is allowed"
    entry = only_audit("dismiss_report")
    assert (entry.actor, entry.report, entry.game_id) == (moderator, report, game.pk)
    # A closed report cannot be closed again (and writes no second entry).
    mod_client.post(
        reverse("admin:moderation_report_changelist"),
        {"action": "resolve", "_selected_action": [report.pk], "apply": "1", "note": "again"},
    )
    assert AuditEntry.objects.filter(report=report).count() == 1


def test_a_note_is_required(mod_client: Client) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    report = Report.objects.create(reporter=users[1], game=game, reason="other")
    url = reverse("admin:moderation_report_changelist")
    response = mod_client.post(
        url, {"action": "resolve", "_selected_action": [report.pk], "apply": "1", "note": ""}
    )
    assert response.status_code == 200  # the form again, with its error
    assert "This field is required" in response.content.decode()
    report.refresh_from_db()
    assert report.status == "open"
    assert not AuditEntry.objects.filter(action="resolve_report").exists()


def test_mute_a_user_for_a_day(mod_client: Client, moderator: Any) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    run_action(
        mod_client, "accounts_user", "mute_users", [users[0].pk], reason="flooding the chat", duration="1d"
    )

    sanction = Sanction.objects.get(user=users[0])
    assert sanction.kind == "mute"
    assert sanction.ends_at is not None
    assert timedelta(hours=23) < sanction.ends_at - timezone.now() <= timedelta(days=1)
    entry = only_audit("mute")
    assert (entry.actor, entry.target_user, entry.reason) == (moderator, users[0], "flooding the chat")
    assert entry.details["until"] == sanction.ends_at.isoformat()

    # A muted user cannot post, and is told why and until when.
    muted = client_for(users[0])
    response = muted.post(reverse("chat:post", args=[game.pk]), {"text": "let me talk"}, headers=HTMX)
    assert response.status_code == 403
    page = response.content.decode()
    assert "You are muted in chat until" in page and dates.with_zone(sanction.ends_at) in page
    assert "flooding the chat" in page
    assert not ChatMessage.objects.exists()
    # The log tells them before they try; they still play.
    assert "You are muted" in muted.get(reverse("chat:log", args=[game.pk]), headers=HTMX).content.decode()
    assert client_for(users[1]).post(reverse("chat:post", args=[game.pk]), {"text": "hi"}).status_code == 302


def test_a_mute_ends(moderator: Any) -> None:
    from chat.services import chat_post
    from moderation import services

    game, users = started_game(deal=LONGER_DEAL)
    sanction = services.user_mute(
        moderator=moderator, user=users[0], duration=timedelta(hours=1), reason="calm down"
    )
    Sanction.objects.filter(pk=sanction.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    assert chat_post(user=users[0], game=game, text="I am back").text == "I am back"


def test_suspend_a_user_ends_their_games_sessions_and_tokens(mod_client: Client, moderator: Any) -> None:
    game, (alice, bob) = started_game(deal=LONGER_DEAL)
    other, _ = started_game(deal=LONGER_DEAL)
    waiting = GameFactory(creator=bob, num_players=3)  # an open game alice sits in
    game_services.game_join(user=alice, game_id=waiting.pk)
    alice_browser = client_for(alice)
    token = api_token(alice)

    run_action(
        mod_client,
        "accounts_user",
        "suspend_users",
        [alice.pk],
        reason="cheating with a friend",
        duration="7d",
    )

    sanction = Sanction.objects.get(user=alice, kind="suspend")
    entry = only_audit("suspend")
    assert (entry.actor, entry.target_user, entry.reason) == (moderator, alice, "cheating with a friend")
    assert entry.details["resigned_games"] == [game.pk]

    # Her running game ended as the rules say for a player who walks away: the engine's resign.
    game.refresh_from_db()
    assert game.status == "finished"
    last = Move.objects.filter(game=game).order_by("-seq").first()
    assert last is not None and last.action == {"type": "resign", "player": 0} and last.position is None
    assert game.seats.get(user=alice).result == Seat.Result.FOOL
    assert game.engine().end == {"reason": "resign", "player": 0}
    # Carol's game is not touched; Alice left the open one.
    other.refresh_from_db()
    assert other.status == "active"
    assert not waiting.seats.filter(user=alice).exists()

    # Her session is over: the next page asks her to log in.
    response = alice_browser.get(reverse("notifications:settings"))
    assert response.status_code == 302 and reverse("account_login") in response["Location"]
    # She cannot log in again, and is told why and until when.
    login = Client().post(reverse("account_login"), {"login": alice.username, "password": PASSWORD})
    assert login.status_code == 200
    page = login.content.decode()
    assert "You are suspended until" in page and dates.with_zone(sanction.ends_at) in page
    assert "cheating with a friend" in page
    # A wrong password gets only the usual answer: nothing about the suspension.
    wrong = Client().post(reverse("account_login"), {"login": alice.username, "password": "nope"})
    assert "suspended" not in wrong.content.decode()
    # Her API tokens are revoked (the suspension deleted them); no new token either.
    assert not ApiToken.objects.filter(user=alice).exists()
    api = Client().get(reverse("api:me"), headers={"Authorization": f"Token {token}"})
    assert api.status_code == 401
    new_token = Client().post(
        reverse("api:token"),
        {"username": alice.username, "password": PASSWORD},
        content_type="application/json",
    )
    assert new_token.status_code == 400
    # Nor can she move through the API in a game she might still be in.
    move = Client().post(
        reverse("api:actions", args=[other.pk]),
        {"action": {"type": "take"}, "expected_version": other.version},
        content_type="application/json",
        headers={"Authorization": f"Token {token}"},
    )
    assert move.status_code == 401


def test_suspend_for_good_in_a_team_game_makes_the_team_lose(mod_client: Client, moderator: Any) -> None:
    game, users = started_game(players=4, preset="classic", overrides={"teams": "partners"}, seed=7)
    run_action(
        mod_client, "accounts_user", "suspend_users", [users[1].pk], reason="abuse", duration="forever"
    )
    assert Sanction.objects.get(user=users[1]).ends_at is None
    game.refresh_from_db()
    engine = game.engine()
    assert game.status == "finished"
    assert engine.end is not None and engine.end["reason"] == "resign" and engine.end["player"] == 1
    fools = set(game.seats.filter(result=Seat.Result.FOOL).values_list("position", flat=True))
    assert fools == {1, 3}  # partners sit opposite: the suspended player's team loses
    login = Client().post(reverse("account_login"), {"login": users[1].username, "password": PASSWORD})
    assert "You are suspended for good" in login.content.decode()


def test_abort_a_game(mod_client: Client, moderator: Any) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    moves_before = Move.objects.filter(game=game).count()
    run_action(mod_client, "games_game", "abort_games", [game.pk], reason="bug in the deal")
    game.refresh_from_db()
    assert game.status == "aborted"
    assert list(game.seats.values_list("result", "place", "awaiting_move", "deadline")) == [
        ("", None, False, None),
        ("", None, False, None),
    ]
    assert Move.objects.filter(game=game).count() == moves_before  # no result was played out
    entry = only_audit("abort_game")
    assert (entry.actor, entry.game, entry.reason) == (moderator, game, "bug in the deal")
    # The players cannot move any more.
    from games.exceptions import WrongStatus

    with pytest.raises(WrongStatus):
        game_services.make_move(
            user=users[0], game_id=game.pk, action={"type": "take"}, expected_version=game.version
        )


def test_settle_a_stalled_game(mod_client: Client, moderator: Any) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    engine = game.engine()
    waited_on = engine.waiting_for()[0]
    run_action(mod_client, "games_game", "settle_games", [game.pk], reason="nobody moved for a month")
    game.refresh_from_db()
    last = Move.objects.filter(game=game).order_by("-seq").first()
    assert (
        last is not None and last.action == {"type": "timeout", "player": waited_on} and last.position is None
    )
    assert game.status == "finished"  # classic: on_timeout "fool"
    assert game.seats.get(position=waited_on).result == Seat.Result.FOOL
    entry = only_audit("settle_game")
    assert (entry.actor, entry.game_id, entry.target_user, entry.reason) == (
        moderator,
        game.pk,
        users[waited_on],
        "nobody moved for a month",
    )
    # A finished game cannot be settled again: an error message, no second entry.
    mod_client.post(
        reverse("admin:games_game_changelist"),
        {"action": "settle_games", "_selected_action": [game.pk], "apply": "1", "reason": "again"},
    )
    assert AuditEntry.objects.filter(action="settle_game").count() == 1


def test_game_filters_stalled_and_reported(mod_client: Client) -> None:
    stalled, users = started_game(deal=LONGER_DEAL)
    fresh, _ = started_game(deal=LONGER_DEAL)
    ten_days_ago = timezone.now() - timedelta(days=10)
    Game.objects.filter(pk=stalled.pk).update(started_at=ten_days_ago, updated_at=ten_days_ago)
    # A preference is no move: it does not hide a stalled game from the filter.
    stalled.refresh_from_db()
    game_services.make_move(
        user=users[0],
        game_id=stalled.pk,
        action={"type": "auto_pass", "on": True},
        expected_version=stalled.version,
    )
    Report.objects.create(reporter=users[1], game=fresh, reason="cheating")
    url = reverse("admin:games_game_changelist")

    def listed(query: str) -> set[int]:
        response = mod_client.get(url + query)
        assert response.status_code == 200
        return {game.pk for game in response.context["cl"].result_list}

    assert listed("?stalled_days=7") == {stalled.pk}
    assert listed("?stalled_days=30") == set()
    assert listed("?reported=open") == {fresh.pk}
    assert listed("?reported=no") == {stalled.pk}
    # The filters as their links spell them (the preset filter reads preset=, not preset__exact=).
    assert listed("?status__exact=active&preset=classic") == {stalled.pk, fresh.pk}


def test_game_page_in_the_admin_has_seats_move_log_and_links_but_no_hidden_cards(mod_client: Client) -> None:
    from tests.factories import play_moves
    from tests.games.helpers import assert_no_hidden_cards

    game, users = started_game(deal=LONGER_DEAL)
    page = mod_client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert users[0].username in page and users[1].username in page
    assert reverse("games:detail", args=[game.pk]) in page
    assert_no_hidden_cards(page, game.engine(), None)
    game = play_moves(game, users, 1)
    page = mod_client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    first = Move.objects.get(game=game, seq=1)
    assert "attack" in page and str(first.action["cards"][0]) in page  # the move log inline


def test_user_page_shows_reports_games_and_sanctions(mod_client: Client, moderator: Any) -> None:
    from moderation import services

    game, users = started_game(deal=LONGER_DEAL)
    Report.objects.create(
        reporter=users[1], reported_user=users[0], reason="abuse", details="called me names"
    )
    services.user_mute(moderator=moderator, user=users[0], duration=timedelta(days=3), reason="name-calling")
    page = mod_client.get(reverse("admin:accounts_user_change", args=[users[0].pk])).content.decode()
    assert "called me names" in page
    assert "name-calling" in page
    assert f"Game {game.pk}" in page


def test_audit_log_is_readable_by_moderators_and_editable_by_nobody(
    mod_client: Client, moderator: Any
) -> None:
    from moderation import services

    user = UserFactory()
    services.user_mute(moderator=moderator, user=user, duration=None, reason="for the record")
    entry = AuditEntry.objects.get(action="mute")
    listing = mod_client.get(reverse("admin:moderation_auditentry_changelist"))
    assert listing.status_code == 200 and "for the record" in listing.content.decode()
    assert mod_client.get(reverse("admin:moderation_auditentry_change", args=[entry.pk])).status_code == 200

    root = UserFactory(is_superuser=True, is_staff=True)
    for client in (mod_client, client_for(root)):
        assert client.get(reverse("admin:moderation_auditentry_add")).status_code == 403
        assert client.get(reverse("admin:moderation_auditentry_delete", args=[entry.pk])).status_code == 403
        client.post(reverse("admin:moderation_auditentry_change", args=[entry.pk]), {"reason": "rewritten"})
    entry.refresh_from_db()
    assert entry.reason == "for the record"

    entry.reason = "rewritten"
    with pytest.raises(PermissionError):
        entry.save()
    with pytest.raises(PermissionError):
        entry.delete()
    with pytest.raises(PermissionError):
        AuditEntry.objects.filter(pk=entry.pk).update(reason="rewritten")
    with pytest.raises(PermissionError):
        AuditEntry.objects.all().delete()
    assert AuditEntry.objects.get(pk=entry.pk).reason == "for the record"


@pytest.mark.parametrize("count", [1, 20])
def test_report_queue_and_chat_list_queries_do_not_grow(
    count: int, mod_client: Client, django_assert_max_num_queries: Any
) -> None:
    game, users = started_game(deal=LONGER_DEAL)
    for n in range(count):
        message = chat(game, users[n % 2], f"message {n}")
        Report.objects.create(
            reporter=users[1 - n % 2], reported_user=users[n % 2], game=game, message=message, reason="spam"
        )
    with django_assert_max_num_queries(12):
        assert mod_client.get(reverse("admin:moderation_report_changelist")).status_code == 200
    with django_assert_max_num_queries(12):
        assert mod_client.get(reverse("admin:chat_chatmessage_changelist")).status_code == 200


def test_log_ins_are_remembered_until_log_out(user: Any) -> None:
    from moderation.models import LoginSession

    client = Client()
    assert (
        client.post(reverse("account_login"), {"login": user.username, "password": PASSWORD}).status_code
        == 302
    )
    assert LoginSession.objects.filter(user=user, session_key=client.session.session_key).count() == 1
    client.post(reverse("account_logout"))
    assert not LoginSession.objects.filter(user=user).exists()
