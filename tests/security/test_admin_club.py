"""The admin and the club (issue 30): blocks and private notes are their authors' own. The user
admin shows how many players blocked a user and how many they blocked (counted in the list's
query, not one per row) and their reliability, read-only; no admin lists Block or PlayerNote
rows, and no admin page shows a note's text or who blocked whom."""

import re
from typing import Any

import pytest
from django.contrib import admin
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts import relations
from accounts.models import Block, PlayerNote, User
from moderation import services as moderation_services
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

NOTE = "cheats-with-a-smile-7f3a"


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def moderator() -> Client:
    user = UserFactory(username="mod")
    moderation_services.moderator_grant(user=user, actor=None, reason="test moderator")
    return logged_in(user)


@pytest.fixture
def root() -> Client:
    return logged_in(UserFactory(username="root", is_superuser=True, is_staff=True))


def _row_of(page: str, username: str) -> str:
    match = re.search(rf"<tr[^>]*>(?:(?!</tr>).)*>{username}</a>(?:(?!</tr>).)*</tr>", page, re.S)
    assert match, username
    return match.group(0)


def _cells(row: str) -> list[str]:
    return [
        re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)
    ]


def test_no_admin_for_blocks_or_notes() -> None:
    assert Block not in admin.site._registry
    assert PlayerNote not in admin.site._registry


def test_the_changelist_shows_the_counts_in_one_query_whatever_the_users(moderator: Client) -> None:
    target, others = UserFactory(username="target"), UserFactory.create_batch(3)
    for other in others:
        relations.block(blocker=other, blocked=target)
    relations.block(blocker=target, blocked=others[0])
    User.objects.filter(pk=target.pk).update(reliability_games=20, reliability_left=3)
    url = reverse("admin:accounts_user_changelist")
    page = moderator.get(url).content.decode()
    cells = _cells(_row_of(page, "target"))
    assert cells[-3:] == ["3", "1", "85%"]
    assert "blocked by" in page.lower() and "blocks made" in page.lower()

    with CaptureQueriesContext(connection) as few:
        assert moderator.get(url).status_code == 200
    UserFactory.create_batch(15)
    for extra in User.objects.filter(username__startswith="player")[:10]:
        relations.block(blocker=extra, blocked=target)
    with CaptureQueriesContext(connection) as many:
        assert moderator.get(url).status_code == 200
    assert len(many) == len(few)


def test_a_users_page_shows_counts_and_reliability_read_only(root: Client) -> None:
    target, other = UserFactory(username="target"), UserFactory(username="blocker")
    relations.block(blocker=other, blocked=target)
    page = root.get(reverse("admin:accounts_user_change", args=[target.pk])).content.decode()
    assert "blocked by" in page.lower() and "reliability" in page.lower()
    assert 'name="reliability_games"' not in page and 'name="reliability_left"' not in page


def test_no_admin_page_shows_a_note_or_who_blocked_whom(root: Client) -> None:
    author, about = UserFactory(username="noteauthor"), UserFactory(username="noteabout")
    relations.note_set(author=author, about=about, text=NOTE)
    relations.block(blocker=author, blocked=about)
    pages = [reverse("admin:index")]
    for model in admin.site._registry:
        info = (model._meta.app_label, model._meta.model_name)
        pages.append(reverse("admin:{}_{}_changelist".format(*info)))
    for user in (author, about):
        pages.append(reverse("admin:accounts_user_change", args=[user.pk]))
    for url in pages:
        response = root.get(url)
        assert response.status_code in (200, 302, 403), url
        body = response.content.decode()
        assert NOTE not in body, url
    about_page = root.get(reverse("admin:accounts_user_change", args=[about.pk])).content.decode()
    assert "noteauthor" not in about_page  # who blocked them is not shown, only how many
    author_page = root.get(reverse("admin:accounts_user_change", args=[author.pk])).content.decode()
    assert "noteabout" not in author_page
