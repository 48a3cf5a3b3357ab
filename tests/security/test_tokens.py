"""API tokens have a lifecycle: stored only as a digest, several per user with names, listed
without their secret, revoked one by one or all at once (a password change, a reset, a
suspension), refused once expired, and their last use recorded."""

import importlib
import re
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.contrib.sessions.models import Session
from django.core import mail
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import tokens
from accounts.models import ApiToken, User
from moderation import services as moderation_services
from moderation.models import Sanction
from tests.factories import PASSWORD, UserFactory

from .test_csp import inline_code

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-brand-new-password-7"
TEXT_TYPES = ("char", "text", "json")


@pytest.fixture(autouse=True)
def _fresh_limits(settings: Any) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"user": "100000/min", "ip": "100000/min", "auth": "100000/min"},
    }
    cache.clear()


def log_in_for_a_token(user: User, **extra: Any) -> Any:
    return APIClient().post(
        reverse("api:token"), {"username": user.username, "password": PASSWORD, **extra}, format="json"
    )


def new_token(user: User, **extra: Any) -> str:
    response = log_in_for_a_token(user, **extra)
    assert response.status_code == 200, response.content
    return str(response.json()["token"])


def me(token: str) -> int:
    """The status of GET /api/me/ with ``token``."""
    return int(APIClient().get(reverse("api:me"), HTTP_AUTHORIZATION=f"Token {token}").status_code)


def api_as(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def browser(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text_columns() -> list[tuple[str, str]]:
    """(table, column) for every column of the database that can hold text."""
    found = []
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor):
            for column in connection.introspection.get_table_description(cursor, table):
                kind = connection.introspection.get_field_type(column.type_code, column)
                if any(word in kind.lower() for word in TEXT_TYPES):
                    found.append((table, column.name))
    return found


def rows_holding(text: str) -> list[str]:
    """Every table.column of the database where ``text`` appears, and the sessions that hold it."""
    quote = connection.ops.quote_name
    holding = []
    with connection.cursor() as cursor:
        for table, column in text_columns():
            cursor.execute(
                f"SELECT 1 FROM {quote(table)} WHERE {quote(column)}::text LIKE %s LIMIT 1", [f"%{text}%"]
            )
            if cursor.fetchone():
                holding.append(f"{table}.{column}")
    # Session data is stored encoded: look inside it too.
    holding += [f"session {s.pk}" for s in Session.objects.all() if text in str(s.get_decoded())]
    return holding


def test_a_token_is_stored_nowhere_in_clear() -> None:
    """The token endpoint's and the page's tokens: neither they nor their secret part (after the
    few characters kept to find the row) is in any text column of any table, or any session."""
    user = UserFactory()
    from_api = new_token(user, name="script")
    page = browser(user)
    made = page.post(reverse("accounts:api_tokens"), {"name": "from the page", "days": 30})
    assert made.status_code == 200
    from_page = re.search(r'id="new-token" readonly value="([0-9a-f]+)"', made.content.decode())
    assert from_page, made.content.decode()[:2000]
    assert not any(from_page.group(1) in morsel.value for morsel in made.cookies.values())
    assert ApiToken.objects.filter(user=user).count() == 2
    assert len(text_columns()) > 50  # the scan does reach the tables
    for token in (from_api, from_page.group(1)):
        assert me(token) == 200
        assert rows_holding(token) == []
        assert (
            rows_holding(token[len(ApiToken.objects.get(user=user, token_key=token[:15]).token_key) :]) == []
        )


def test_a_username_longer_than_any_is_refused_as_bad_input() -> None:
    """Not passed on to the log-in: django-axes would fail to record it (a 500)."""
    for body, content_type in (
        ({"username": "x" * 300, "password": "p"}, "application/json"),
        ({"username": "x" * 300, "password": "p"}, "multipart/form-data"),
    ):
        client = APIClient()
        answer = client.post(
            "/api/auth/token/", body, format="json" if content_type.endswith("json") else "multipart"
        )
        assert answer.status_code == 400, answer.content
        assert answer.json()["code"] == "invalid" and "username" in answer.json()["errors"]


def test_asking_twice_gives_two_different_tokens_that_both_work() -> None:
    user = UserFactory()
    first, second = new_token(user), new_token(user)
    assert first != second
    assert me(first) == 200 and me(second) == 200


def test_several_named_tokens_per_user_listed_without_their_secret() -> None:
    user = UserFactory()
    made = {name: new_token(user, name=name) for name in ("laptop bot", "server bot", "a script")}
    listing = api_as(made["laptop bot"]).get(reverse("api:tokens"))
    assert listing.status_code == 200
    rows = listing.json()["results"]
    assert [row["name"] for row in rows] == ["a script", "server bot", "laptop bot"]  # newest first
    assert set(rows[0]) == {"id", "name", "prefix", "created", "last_used", "expiry", "current"}
    assert [row["current"] for row in rows] == [False, False, True]
    page = browser(user).get(reverse("accounts:api_tokens"))
    assert page.status_code == 200
    html = page.content.decode()
    for text in (listing.content.decode(), html):
        for token in made.values():
            assert token not in text
            assert token[:8] in text  # the prefix tells them apart
        for digest in ApiToken.objects.filter(user=user).values_list("digest", flat=True):
            assert digest not in text
    for name in ("laptop bot", "server bot", "a script"):
        assert name in html
    assert inline_code(html) == []
    assert (
        reverse("accounts:api_tokens")
        in browser(user).get(reverse("notifications:settings")).content.decode()
    )
    # Another user's list does not show them.
    stranger = UserFactory()
    assert api_as(new_token(stranger)).get(reverse("api:tokens")).json()["count"] == 1
    assert "laptop bot" not in browser(stranger).get(reverse("accounts:api_tokens")).content.decode()


def test_revoking_one_token_stops_it_and_leaves_the_others() -> None:
    user = UserFactory()
    keep, by_api, by_page = (
        new_token(user, name="keep"),
        new_token(user, name="api"),
        new_token(user, name="page"),
    )
    ids = dict(ApiToken.objects.filter(user=user).values_list("name", "pk"))
    other = UserFactory()
    others = new_token(other)
    # Nobody revokes another's token: it is "not found", and it keeps working.
    assert api_as(others).delete(reverse("api:token_detail", args=[ids["api"]])).status_code == 404
    assert api_as(others).get(reverse("api:token_detail", args=[ids["api"]])).status_code == 404
    refused = browser(other).post(reverse("accounts:api_token_revoke", args=[ids["page"]]))
    assert refused.status_code == 404
    assert me(by_api) == 200 and me(by_page) == 200

    assert api_as(keep).delete(reverse("api:token_detail", args=[ids["api"]])).status_code == 204
    assert me(by_api) == 401
    page = browser(user)
    revoked = page.post(reverse("accounts:api_token_revoke", args=[ids["page"]]))
    assert revoked.status_code == 302 and revoked["Location"] == reverse("accounts:api_tokens")
    assert "The token was revoked" in page.get(revoked["Location"]).content.decode()
    assert me(by_page) == 401
    assert me(keep) == 200 and me(others) == 200
    assert list(ApiToken.objects.filter(user=user).values_list("name", flat=True)) == ["keep"]


def test_revoke_all_through_the_api() -> None:
    user = UserFactory()
    first, second = new_token(user), new_token(user)
    others = new_token(UserFactory())
    answer = api_as(first).post(reverse("api:tokens_revoke_all"))
    assert answer.status_code == 200 and answer.json() == {"revoked": 2}
    assert me(first) == 401 and me(second) == 401 and me(others) == 200


def test_the_page_shows_a_new_token_once() -> None:
    user = UserFactory()
    page = browser(user)
    made = page.post(reverse("accounts:api_tokens"), {"name": "my bot", "days": 7})
    html = made.content.decode()
    token = re.search(r'id="new-token" readonly value="([0-9a-f]+)"', html)
    assert token, html[:2000]
    assert made["Cache-Control"] == "no-store"
    assert inline_code(html) == []
    assert me(token.group(1)) == 200
    row = ApiToken.objects.get(user=user)
    assert row.name == "my bot"
    assert row.expiry is not None and timedelta(days=6) < row.expiry - timezone.now() <= timedelta(days=7)
    again = page.get(reverse("accounts:api_tokens")).content.decode()
    assert token.group(1) not in again and "my bot" in again and token.group(1)[:8] in again
    # A bad form makes nothing.
    bad = page.post(reverse("accounts:api_tokens"), {"name": "", "days": 9999})
    assert bad.status_code == 400 and ApiToken.objects.filter(user=user).count() == 1


def test_the_page_speaks_russian() -> None:
    user = UserFactory(language="ru")
    page = browser(user)
    page.get(reverse("accounts:api_tokens"))  # the first page sets the language cookie
    made = page.post(reverse("accounts:api_tokens"), {"name": "бот", "days": 30}).content.decode()
    assert "Скопируйте" in made and "Ваш новый токен" in made
    html = page.get(reverse("accounts:api_tokens")).content.decode()
    for words in ("API-токены", "Ваша программа (бот, скрипт)", "Назад к настройкам", "Создать токен"):
        assert words in html, words
    assert "Отозвать «бот»" in html and "30 дней" in html and "никогда" in html


def test_changing_the_password_on_the_site_revokes_every_token() -> None:
    user = UserFactory()
    first, second = new_token(user), new_token(user)
    others = new_token(UserFactory())
    page = browser(user)
    # Logging in again (the site's form re-saves the user) is not a password change.
    assert page.post(reverse("account_login"), {"login": user.username, "password": PASSWORD}).status_code
    assert me(first) == 200
    response = page.post(
        reverse("account_change_password"),
        {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert me(first) == 401 and me(second) == 401
    assert not ApiToken.objects.filter(user=user).exists()
    assert me(others) == 200
    # The new password makes new tokens.
    login = APIClient().post(
        reverse("api:token"), {"username": user.username, "password": NEW_PASSWORD}, format="json"
    )
    assert login.status_code == 200 and me(login.json()["token"]) == 200


def test_any_new_password_revokes_but_a_rehash_at_log_in_does_not(settings: Any) -> None:
    user = UserFactory()
    token = new_token(user)
    # A log-in re-hashes the password with the preferred hasher: the same password, kept tokens.
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
        "django.contrib.auth.hashers.MD5PasswordHasher",
    ]
    assert user.password.startswith("md5$")
    assert Client().post(reverse("account_login"), {"login": user.username, "password": PASSWORD}).status_code
    user.refresh_from_db()
    assert user.password.startswith("pbkdf2_sha256$")
    assert me(token) == 200
    # Any other way of setting a password (the admin, manage.py changepassword) saves set_password().
    user.set_password(NEW_PASSWORD)
    user.save()
    assert me(token) == 401


def test_a_password_reset_revokes_every_token() -> None:
    user = UserFactory()
    token = new_token(user)
    client = Client()
    client.post(reverse("account_reset_password"), {"email": user.email})
    link = re.search(r"https?://[^\s]+/accounts/password/reset/key/[^\s]+", str(mail.outbox[-1].body))
    assert link
    path = "/" + link.group(0).split("://", 1)[1].split("/", 1)[1]
    response = client.get(path, follow=True)
    form_url = response.redirect_chain[-1][0] if response.redirect_chain else path
    client.post(form_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert me(token) == 401


def test_a_suspension_revokes_every_token() -> None:
    moderator = UserFactory()
    moderation_services.moderator_grant(user=moderator, actor=None, reason="tokens test")
    moderator.refresh_from_db()
    user = UserFactory()
    first, second = new_token(user), new_token(user)
    moderation_services.user_suspend(
        moderator=moderator, user=user, duration=timedelta(days=1), reason="token test"
    )
    assert me(first) == 401 and me(second) == 401
    assert not ApiToken.objects.filter(user=user).exists()
    assert log_in_for_a_token(user).status_code == 400  # and no new one while suspended
    # Revoked, not just refused while the suspension lasts: when it is over they still fail.
    Sanction.objects.filter(user=user).update(ends_at=timezone.now() - timedelta(seconds=1))
    assert me(first) == 401 and me(second) == 401
    assert me(new_token(user)) == 200


def test_an_expired_token_is_refused_and_not_listed() -> None:
    user = UserFactory()
    token, live = new_token(user, name="old", expires_in_days=1), new_token(user, name="live")
    ApiToken.objects.filter(user=user, name="old").update(expiry=timezone.now() - timedelta(seconds=1))
    assert me(token) == 401
    assert [row["name"] for row in api_as(live).get(reverse("api:tokens")).json()["results"]] == ["live"]
    assert "old" not in browser(user).get(reverse("accounts:api_tokens")).content.decode()


def test_every_token_expires_within_the_bounds_asked_for() -> None:
    user = UserFactory()
    made = log_in_for_a_token(user, expires_in_days=3).json()
    assert made["expiry"] is not None
    row = ApiToken.objects.get(pk=made["id"])
    assert row.expiry is not None and timedelta(days=2) < row.expiry - timezone.now() <= timedelta(days=3)
    default = ApiToken.objects.get(pk=log_in_for_a_token(user).json()["id"])
    assert default.expiry is not None
    assert default.expiry - timezone.now() <= timedelta(days=tokens.default_days())
    for days in (0, -1, tokens.MAX_DAYS + 1, "soon"):
        refused = log_in_for_a_token(user, expires_in_days=days)
        assert refused.status_code == 400 and "token" not in refused.json(), days
    assert log_in_for_a_token(user, name="x" * 61).status_code == 400
    assert ApiToken.objects.filter(user=user).count() == 2


def test_the_last_use_is_recorded_at_most_once_a_minute() -> None:
    user = UserFactory()
    answer = log_in_for_a_token(user).json()
    assert answer["last_used"] is None
    token = answer["token"]
    assert me(token) == 200
    first = ApiToken.objects.get(pk=answer["id"]).last_used
    assert first is not None and timezone.now() - first < timedelta(minutes=1)
    # Right after, a request does not write the token's row again.
    with CaptureQueriesContext(connection) as queries:
        assert me(token) == 200
    assert not [q["sql"] for q in queries.captured_queries if q["sql"].startswith("UPDATE")]
    assert ApiToken.objects.get(pk=answer["id"]).last_used == first
    # A minute later, it does.
    ApiToken.objects.filter(pk=answer["id"]).update(last_used=first - timedelta(minutes=2))
    assert me(token) == 200
    later = ApiToken.objects.get(pk=answer["id"]).last_used
    assert later is not None and later > first
    listed = api_as(token).get(reverse("api:token_detail", args=[answer["id"]])).json()
    assert listed["last_used"] is not None


def test_a_user_has_at_most_the_limit_of_live_tokens(settings: Any) -> None:
    settings.REST_KNOX = {**settings.REST_KNOX, "TOKEN_LIMIT_PER_USER": 2}
    user = UserFactory()
    first = new_token(user)
    new_token(user)
    refused = log_in_for_a_token(user)
    assert refused.status_code == 400 and refused.json()["code"] == "token_limit"
    assert "revoke one" in refused.json()["detail"]
    russian = APIClient().post(
        reverse("api:token"),
        {"username": user.username, "password": PASSWORD},
        format="json",
        HTTP_ACCEPT_LANGUAGE="ru",
    )
    assert "вас уже 2 API-токена" in russian.json()["detail"]
    page = browser(user).post(reverse("accounts:api_tokens"), {"name": "third", "days": 7})
    assert page.status_code == 400 and "revoke one" in page.content.decode()
    assert ApiToken.objects.filter(user=user).count() == 2
    # An expired one does not count.
    ApiToken.objects.filter(user=user).exclude(pk=ApiToken.objects.get(token_key=first[:15]).pk).update(
        expiry=timezone.now() - timedelta(seconds=1)
    )
    assert log_in_for_a_token(user).status_code == 200


@pytest.mark.parametrize(
    "header", ["Token", "Token a b", "Token \xff\xfe", "Token " + "f" * 5000, "Token ' OR 1=1 --"]
)
def test_a_malformed_token_header_is_a_plain_401(header: str) -> None:
    """Not a 500: knox alone fails on a header that is not UTF-8."""
    new_token(UserFactory())
    response = APIClient().get(reverse("api:me"), HTTP_AUTHORIZATION=header)
    assert response.status_code == 401 and response.json()["code"] == "authentication_failed"


def test_the_migration_drops_drfs_clear_tokens() -> None:
    """Sites that had DRF's authtoken app: its table of clear tokens is dropped, with its records."""
    migration = importlib.import_module("accounts.migrations.0008_drop_drf_tokens")
    user = UserFactory()
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, created timestamptz,"
            " user_id bigint REFERENCES accounts_user (id))"
        )
        cursor.execute("INSERT INTO authtoken_token VALUES ('clear-token-of-old', now(), %s)", [user.pk])
        cursor.execute(
            "INSERT INTO django_migrations (app, name, applied) VALUES ('authtoken', '0001_initial', now())"
        )
    content_type = django_apps.get_model("contenttypes", "ContentType").objects.create(
        app_label="authtoken", model="token"
    )
    assert rows_holding("clear-token-of-old") == ["authtoken_token.key"]
    with connection.schema_editor() as editor:
        migration.drop_drf_tokens(django_apps, editor)
    assert "authtoken_token" not in connection.introspection.table_names()
    assert rows_holding("clear-token-of-old") == []
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM django_migrations WHERE app = 'authtoken'")
        assert cursor.fetchone() == (0,)
    assert not type(content_type).objects.filter(pk=content_type.pk).exists()
