"""A user name that looks like an existing player's is refused (accounts.names): at sign-up
(allauth's form runs the user name field's validators) and in every form over the user name
(the site has no rename of its own; the admin's user form is one). The API has no sign-up.

Look-alike means the same UTS #39 skeleton of the NFKC form, case folded: a Cyrillic "a" (U+0430)
for a Latin one, a capital "I" for an "l", full-width letters, a Cyrillic capital at the start."""

import importlib
from types import SimpleNamespace
from typing import Any

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import connection
from django.forms import modelform_factory
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.names import name_skeleton, validate_not_lookalike
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
