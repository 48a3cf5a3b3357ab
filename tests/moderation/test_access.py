"""Staff pages are moderators' only: every moderation URL refused for anonymous visitors (sent
to the site's own log-in), plain users and staff outside the Moderators group (403); failed
log-ins are rate-limited."""

from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from chat.models import ChatMessage
from moderation.models import MODERATORS_GROUP, AuditEntry, Report, Sanction
from tests.factories import LONGER_DEAL, PASSWORD, UserFactory, started_game
from tests.moderation.conftest import client_for

pytestmark = pytest.mark.django_db

ACTIONS = {
    "chat_chatmessage": ["hide_messages", "mute_authors", "suspend_authors"],
    "moderation_report": ["resolve", "dismiss", "hide_messages", "mute_users", "suspend_users"],
    "games_game": ["abort_games", "settle_games"],
    "accounts_user": ["mute_users", "suspend_users", "make_moderators", "remove_moderators"],
}


@pytest.fixture
def world(moderator: Any) -> dict[str, Any]:
    from moderation import services

    game, users = started_game(deal=LONGER_DEAL)
    message = ChatMessage.objects.create(game=game, author=users[0], channel="players", text="hello")
    report = Report.objects.create(
        reporter=users[1], message=message, reported_user=users[0], game=game, reason="spam"
    )
    services.user_mute(moderator=moderator, user=users[0], duration=None, reason="x")
    return {
        "game": game,
        "users": users,
        "message": message,
        "report": report,
        "sanction": Sanction.objects.get(),
        "entry": AuditEntry.objects.filter(action="mute").get(),
    }


def moderation_urls(world: dict[str, Any]) -> list[str]:
    objects = {
        "chat_chatmessage": world["message"].pk,
        "moderation_report": world["report"].pk,
        "games_game": world["game"].pk,
        "accounts_user": world["users"][0].pk,
        "moderation_sanction": world["sanction"].pk,
        "moderation_auditentry": world["entry"].pk,
    }
    urls = [reverse("admin:index")]
    for name, pk in objects.items():
        urls += [reverse(f"admin:{name}_changelist"), reverse(f"admin:{name}_change", args=[pk])]
    urls.append(reverse("admin:app_list", args=["moderation"]))
    return urls


def action_posts(world: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    pks = {
        "chat_chatmessage": world["message"].pk,
        "moderation_report": world["report"].pk,
        "games_game": world["game"].pk,
        "accounts_user": world["users"][1].pk,
    }
    return [
        (
            reverse(f"admin:{name}_changelist"),
            {
                "action": action,
                "_selected_action": [pks[name]],
                "apply": "1",
                "reason": "r",
                "note": "n",
                "duration": "forever",
            },
        )
        for name, actions in ACTIONS.items()
        for action in actions
    ]


def assert_nothing_happened(world: dict[str, Any], entries_before: int) -> None:
    world["message"].refresh_from_db()
    world["report"].refresh_from_db()
    world["game"].refresh_from_db()
    assert not world["message"].is_hidden
    assert world["report"].status == "open"
    assert world["game"].status == "active"
    assert Sanction.objects.count() == 1
    assert AuditEntry.objects.count() == entries_before


def test_anonymous_visitors_are_sent_to_the_sites_log_in(world: dict[str, Any]) -> None:
    client = Client()
    for url in moderation_urls(world):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("account_login")), (url, response["Location"])
    entries = AuditEntry.objects.count()
    for url, data in action_posts(world):
        response = client.post(url, data)
        assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))
    assert_nothing_happened(world, entries)
    # The admin's own log-in page is the site's log-in page.
    login = client.get(reverse("admin:login"))
    assert login.status_code == 302 and login["Location"].startswith(reverse("account_login"))


@pytest.mark.parametrize("kind", ["plain", "staff"])
def test_plain_users_and_staff_who_are_not_moderators_are_refused(world: dict[str, Any], kind: str) -> None:
    user = UserFactory(is_staff=kind == "staff")
    client = client_for(user)
    for url in [*moderation_urls(world), reverse("admin:login")]:
        assert client.get(url).status_code == 403, url
    entries = AuditEntry.objects.count()
    for url, data in action_posts(world):
        assert client.post(url, data).status_code == 403, (url, data["action"])
    assert_nothing_happened(world, entries)


def test_moderators_see_every_page(world: dict[str, Any], mod_client: Client) -> None:
    for url in moderation_urls(world):
        assert mod_client.get(url).status_code == 200, url


def test_moderators_cannot_edit_rows_or_appoint_moderators(world: dict[str, Any], mod_client: Client) -> None:
    for name in [
        "games_game",
        "accounts_user",
        "chat_chatmessage",
        "moderation_report",
        "moderation_sanction",
    ]:
        assert mod_client.get(reverse(f"admin:{name}_add")).status_code == 403, name
    user = world["users"][1]
    response = mod_client.post(
        reverse("admin:accounts_user_change", args=[user.pk]), {"username": "renamed", "is_superuser": "on"}
    )
    assert response.status_code == 403
    user.refresh_from_db()
    assert user.username != "renamed" and not user.is_superuser
    # Making moderators is for superusers: the action is not offered.
    response = mod_client.post(
        reverse("admin:accounts_user_changelist"),
        {"action": "make_moderators", "_selected_action": [user.pk], "apply": "1", "reason": "r"},
    )
    assert not user.groups.filter(name=MODERATORS_GROUP).exists()


def test_moderators_group_has_explicit_permissions() -> None:
    group = Group.objects.get(name=MODERATORS_GROUP)
    codenames = set(group.permissions.values_list("codename", flat=True))
    assert {
        "hide_message",
        "mute_user",
        "suspend_user",
        "abort_game",
        "settle_game",
        "handle_report",
    } <= codenames
    assert "view_auditentry" in codenames
    assert not {c for c in codenames if c.startswith(("add_", "change_", "delete_"))}


def test_management_command_grants_and_revokes_the_role(user: Any) -> None:
    call_command("moderator", "grant", user.username, "--reason", "new volunteer")
    user.refresh_from_db()
    assert user.is_staff and user.groups.filter(name=MODERATORS_GROUP).exists()
    assert client_for(user).get(reverse("admin:moderation_report_changelist")).status_code == 200
    entry = AuditEntry.objects.get(action="grant_moderator")
    assert (entry.actor, entry.target_user, entry.reason) == (None, user, "new volunteer")

    call_command("moderator", "revoke", user.username)
    user.refresh_from_db()
    assert not user.is_staff and not user.groups.exists()
    assert client_for(user).get(reverse("admin:index")).status_code == 403
    assert AuditEntry.objects.filter(action="revoke_moderator", target_user=user).count() == 1


def test_superuser_admin_action_makes_a_moderator(user: Any) -> None:
    root = UserFactory(is_superuser=True, is_staff=True)
    client = client_for(root)
    url = reverse("admin:accounts_user_changelist")
    data = {"action": "make_moderators", "_selected_action": [user.pk]}
    assert client.post(url, data).status_code == 200
    assert client.post(url, {**data, "apply": "1", "reason": "trusted"}).status_code == 302
    assert user.groups.filter(name=MODERATORS_GROUP).exists()
    assert AuditEntry.objects.get(action="grant_moderator").actor == root


def test_failed_log_ins_are_rate_limited(user: Any, settings: Any) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    client = Client()
    url = reverse("account_login")
    for _ in range(3):
        client.post(url, {"login": user.username, "password": "wrong"})
    locked = client.post(url, {"login": user.username, "password": PASSWORD})
    assert locked.status_code == 429
    assert "_auth_user_id" not in client.session
    # Another account from the same address is not locked out.
    other = UserFactory()
    response = Client().post(url, {"login": other.username, "password": PASSWORD})
    assert response.status_code == 302
    # Nor is the API's token endpoint a way around the lock.
    api = Client().post(
        reverse("api:token"),
        {"username": user.username, "password": PASSWORD},
        content_type="application/json",
    )
    assert api.status_code in (400, 429)  # DRF answers for the view; either way no token
    assert "token" not in api.json()


def test_a_plain_user_logs_in_normally(user: Any) -> None:
    response = Client().post(reverse("account_login"), {"login": user.username, "password": PASSWORD})
    assert response.status_code == 302


def test_the_header_links_to_moderation_for_moderators_only(moderator: Any, user: Any) -> None:
    admin_url = f'href="{reverse("admin:index")}"'
    assert admin_url in client_for(moderator).get("/").content.decode()
    assert admin_url not in client_for(user).get("/").content.decode()
    assert admin_url not in Client().get("/").content.decode()
