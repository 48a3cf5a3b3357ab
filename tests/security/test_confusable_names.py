"""A user name that looks like an existing player's is refused (accounts.names): at sign-up
(allauth's form runs the user name field's validators) and in every form over the user name
(the site has no rename of its own; the admin's user form is one). The API has no sign-up.
A display name (the settings page's) that looks like another account's user name or display
name is refused with the same words, and so is a user name that looks like a display name; a
player's own user name is a fine display name.

Look-alike means the same UTS #39 skeleton of the NFKC form, case folded: a Cyrillic "a" (U+0430)
for a Latin one, a capital "I" for an "l", full-width letters, a Cyrillic capital at the start."""

import importlib
from types import SimpleNamespace
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import connection
from django.forms import modelform_factory
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.names import name_skeleton, validate_display_name, validate_not_lookalike
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

MESSAGE = "That name looks too much like an existing player's name."
MESSAGE_RU = "Это имя слишком похоже на имя другого игрока."
LOOKALIKES = [
    "\u0430lice",  # Cyrillic a
    "aIice",  # capital I for l
    "\uff41\uff4c\uff49\uff43\uff45",  # full-width alice
    "\u0410lice",  # Cyrillic capital A
    "al\u0456ce",  # Cyrillic (Ukrainian) i
]


@pytest.fixture
def alice() -> User:
    return User.objects.create_user("alice", "alice@example.com", PASSWORD)


def sign_up(username: str, *, language: str = "en") -> Any:
    return Client(headers={"accept-language": language}).post(
        reverse("account_signup"),
        {
            "username": username,
            "email": f"new-{len(username)}-{ord(username[0])}@example.com",
            "password1": "a-long-card-password",
            "password2": "a-long-card-password",
        },
    )


@pytest.mark.parametrize("name", LOOKALIKES)
def test_signing_up_with_a_lookalike_of_a_players_name_is_refused(name: str, alice: User) -> None:
    response = sign_up(name)
    assert response.status_code == 200
    assert MESSAGE in response.content.decode().replace("&#x27;", "'")
    assert list(User.objects.values_list("username", flat=True)) == ["alice"]


def test_the_refusal_is_in_the_visitors_language(alice: User) -> None:
    response = sign_up("\u0430lice", language="ru")
    assert response.status_code == 200
    assert MESSAGE_RU in response.content.decode()
    assert not User.objects.exclude(pk=alice.pk).exists()


@pytest.mark.parametrize("name", ["alice2", "alicia", "malice", "bob"])
def test_a_name_that_only_resembles_is_fine(name: str, alice: User) -> None:
    assert sign_up(name).status_code == 302
    created = User.objects.get(username=name)
    assert created.username_skeleton == name_skeleton(name) != alice.username_skeleton


def test_the_same_name_in_another_case_gets_allauths_own_refusal(alice: User) -> None:
    response = sign_up("ALICE")
    assert response.status_code == 200
    text = response.content.decode().replace("&#x27;", "'")
    assert "already exists" in text
    assert MESSAGE not in text


def test_the_look_alike_check_is_one_query(alice: User, django_assert_num_queries: Any) -> None:
    with django_assert_num_queries(1), pytest.raises(ValidationError, match="looks too much like"):
        validate_not_lookalike("\u0430lice")
    with django_assert_num_queries(1):
        validate_not_lookalike("alice2")
    assert any(index.fields == ["username_skeleton"] for index in User._meta.indexes)


def test_a_form_over_the_user_name_refuses_a_lookalike_but_keeps_an_unchanged_name(alice: User) -> None:
    """The site has no rename; the admin's user form is a form over the user name like this."""
    bob = User.objects.create_user("bob", "bob@example.com", PASSWORD)
    form_class = modelform_factory(User, fields=["username"])
    renamed = form_class({"username": "\u0430lice"}, instance=bob)
    assert not renamed.is_valid()
    assert renamed.errors["username"] == [MESSAGE]
    assert form_class({"username": "bob"}, instance=bob).is_valid()
    assert form_class({"username": "robert"}, instance=bob).is_valid()


def test_every_save_keeps_the_skeleton(alice: User) -> None:
    assert alice.username_skeleton == name_skeleton("alice") == "alice"
    alice.username = "\u0430lice2"
    alice.save(update_fields=["username"])
    assert User.objects.get(pk=alice.pk).username_skeleton == name_skeleton("alice2")


def test_the_migration_fills_in_the_skeletons_of_existing_accounts(alice: User) -> None:
    User.objects.create_user("b\u043eb", "bob@example.com", PASSWORD)  # a Cyrillic o, from before the rule
    User.objects.update(username_skeleton="")
    migration = importlib.import_module("accounts.migrations.0009_user_username_skeleton")
    migration.fill_skeletons(apps, SimpleNamespace(connection=connection))
    assert dict(User.objects.values_list("username", "username_skeleton")) == {
        "alice": "alice",
        "b\u043eb": "bob",
    }
    assert sign_up("bob").status_code == 200  # the old look-alike now blocks the original


# Display names: the settings page's, shown instead of the user name, are names others see too.


def save_display_name(user: User, display_name: str, *, language: str = "en") -> Any:
    client = Client()
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = user.language  # as every page of theirs sets it
    return client.post(
        reverse("notifications:settings"),
        {
            "display_name": display_name,
            "language": language,
            "time_zone": "UTC",
            "confirm_moves": "correspondence",
        },
    )


@pytest.fixture
def bob() -> User:
    return User.objects.create_user("bob", "bob@example.com", PASSWORD)


def refused(response: Any) -> bool:
    return response.status_code == 200 and MESSAGE in response.content.decode().replace("&#x27;", "'")


@pytest.mark.parametrize("name", [*LOOKALIKES, "alice", "Alice", "ALICE", " alice "])
def test_a_display_name_that_looks_like_another_players_user_name_is_refused(
    name: str, alice: User, bob: User
) -> None:
    assert refused(save_display_name(bob, name))
    assert User.objects.get(pk=bob.pk).display_name == ""


@pytest.mark.parametrize(
    "name", ["Queen of Sp\u0430des", "queen of spades", "Queen of Spades", "Queen 0f Spades"]
)
def test_a_display_name_that_looks_like_another_players_display_name_is_refused(name: str, bob: User) -> None:
    carol = User.objects.create_user("carol", "carol@example.com", PASSWORD)
    assert save_display_name(carol, "Queen of Spades").status_code == 302
    assert refused(save_display_name(bob, name))
    assert User.objects.get(pk=bob.pk).display_name == ""


def test_the_refusal_of_a_display_name_is_in_the_players_language(alice: User, bob: User) -> None:
    User.objects.filter(pk=bob.pk).update(language="ru")
    bob.refresh_from_db()
    response = save_display_name(bob, "\u0430lice", language="ru")
    assert response.status_code == 200
    assert MESSAGE_RU in response.content.decode()


@pytest.mark.parametrize("name", ["bob", "Bob", "BOB", "Alice's friend", "alice2", "Bobby"])
def test_ones_own_user_name_or_a_name_that_only_resembles_is_fine(name: str, alice: User, bob: User) -> None:
    assert save_display_name(bob, name).status_code == 302
    saved = User.objects.get(pk=bob.pk)
    assert saved.display_name == name
    assert saved.display_name_skeleton == name_skeleton(name)
    assert save_display_name(bob, name).status_code == 302  # unchanged: still fine
    assert save_display_name(bob, "").status_code == 302  # none at all
    assert User.objects.get(pk=bob.pk).display_name_skeleton == ""


def test_a_user_name_that_looks_like_another_players_display_name_is_refused(bob: User) -> None:
    assert save_display_name(bob, "Queen").status_code == 302
    response = sign_up("qu\u0435en")  # a Cyrillic e
    assert response.status_code == 200
    assert MESSAGE in response.content.decode().replace("&#x27;", "'")
    assert not User.objects.filter(username__iexact="qu\u0435en").exists()
    assert refused(sign_up("QUEEN"))  # the same letters in capitals
    assert sign_up("queenie").status_code == 302


def test_the_display_name_check_is_one_query(alice: User, bob: User, django_assert_num_queries: Any) -> None:
    with django_assert_num_queries(1), pytest.raises(ValidationError, match="looks too much like"):
        validate_display_name("\u0430lice", user=bob)
    with django_assert_num_queries(1):
        validate_display_name("Alice's friend", user=bob)
    with django_assert_num_queries(0):
        validate_display_name("Bob", user=bob)
        validate_display_name("", user=bob)
    assert any(index.fields == ["display_name_skeleton"] for index in User._meta.indexes)


def test_every_save_keeps_the_display_name_skeleton(bob: User) -> None:
    bob.display_name = "R\u043ebert"  # a Cyrillic o
    bob.save(update_fields=["display_name"])
    assert User.objects.get(pk=bob.pk).display_name_skeleton == name_skeleton("Robert") == "robert"


def test_the_migration_fills_in_the_display_name_skeletons(alice: User, bob: User) -> None:
    User.objects.filter(pk=bob.pk).update(display_name="Queen of Sp\u0430des")
    User.objects.update(display_name_skeleton="stale")
    migration = importlib.import_module("accounts.migrations.0011_user_display_name_skeleton")
    migration.fill_skeletons(apps, SimpleNamespace(connection=connection))
    assert dict(User.objects.values_list("username", "display_name_skeleton")) == {
        "alice": "stale",  # no display name: not touched (the field's default is "")
        "bob": "queen of spades",
    }
    assert refused(save_display_name(alice, "Queen of Spades"))
