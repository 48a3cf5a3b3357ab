"""Sign-up, log-in, log-out, password reset and email confirmation (django-allauth)."""

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def test_the_user_model_is_ours() -> None:
    assert get_user_model() is User


def test_sign_up_logs_in_and_sends_a_confirmation_email(client: Client) -> None:
    response = client.post(
        reverse("account_signup"),
        {
            "username": "anna",
            "email": "anna@example.com",
            "password1": "a-long-card-password",
            "password2": "a-long-card-password",
        },
    )
    assert response.status_code == 302
    user = User.objects.get(username="anna")
    assert client.get("/").context["user"] == user
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["anna@example.com"]
    link = re.search(r"https?://[^\s]+/accounts/confirm-email/[^\s]+", message.body)
    assert link, message.body
    path = link.group(0).split("://", 1)[1].split("/", 1)[1]
    client.post("/" + path)
    assert user.emailaddress_set.get().verified


def test_sign_up_with_a_taken_username_is_refused(client: Client) -> None:
    UserFactory(username="anna")
    response = client.post(
        reverse("account_signup"),
        {
            "username": "anna",
            "email": "x@example.com",
            "password1": "pw-123456789",
            "password2": "pw-123456789",
        },
    )
    assert response.status_code == 200
    assert User.objects.filter(username="anna").count() == 1


@pytest.mark.parametrize("login", ["username", "email"])
def test_log_in_with_username_or_email_and_log_out(client: Client, login: str) -> None:
    user = UserFactory()
    response = client.post(reverse("account_login"), {"login": getattr(user, login), "password": PASSWORD})
    assert response.status_code == 302
    assert client.get("/").context["user"] == user
    assert "log out" in client.get("/").content.decode()
    client.post(reverse("account_logout"))
    assert not client.get("/").context["user"].is_authenticated


def test_wrong_password_is_refused(client: Client) -> None:
    user = UserFactory()
    response = client.post(reverse("account_login"), {"login": user.username, "password": "nope"})
    assert response.status_code == 200
    assert not client.get("/").context["user"].is_authenticated


def test_password_reset_sends_a_link_that_sets_a_new_password(client: Client) -> None:
    user = UserFactory()
    client.post(reverse("account_reset_password"), {"email": user.email})
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^\s]+/accounts/password/reset/key/[^\s]+", mail.outbox[0].body)
    assert link
    path = "/" + link.group(0).split("://", 1)[1].split("/", 1)[1]
    response = client.get(path, follow=True)
    form_url = response.redirect_chain[-1][0] if response.redirect_chain else path
    client.post(form_url, {"password1": "brand-new-password-1", "password2": "brand-new-password-1"})
    user.refresh_from_db()
    assert user.check_password("brand-new-password-1")


def test_account_pages_use_the_site_layout(client: Client) -> None:
    page = client.get(reverse("account_login")).content.decode()
    assert "durak" in page and 'class="site-header"' in page


def test_create_demo_admin_is_idempotent(capsys: Any) -> None:
    call_command("create_demo_admin")
    call_command("create_demo_admin")
    admin = User.objects.get(username="admin")
    assert admin.is_superuser and admin.check_password("admin")
    assert "already exists" in capsys.readouterr().out


def _sign_up_mandatory(client: Client, name: str) -> str:
    """Sign up where the address must be confirmed first; the confirmation link's path."""
    response = client.post(
        reverse("account_signup"),
        {
            "username": name,
            "email": f"{name}@example.com",
            "password1": "a-long-card-password",
            "password2": "a-long-card-password",
            "time_zone": "Europe/Moscow",
        },
    )
    assert response.status_code == 302
    assert not client.get("/").context["user"].is_authenticated  # not before the address is confirmed
    link = re.search(r"https?://[^\s]+/accounts/confirm-email/[^\s]+", mail.outbox[-1].body)
    assert link, mail.outbox[-1].body
    return "/" + link.group(0).split("://", 1)[1].split("/", 1)[1]


def test_confirming_in_the_browser_that_signed_up_signs_the_newcomer_in(
    client: Client, settings: Any
) -> None:
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    path = _sign_up_mandatory(client, "vera")
    client.post(path)
    assert client.get("/").context["user"] == User.objects.get(username="vera")


def test_a_confirmation_link_opened_elsewhere_still_asks_for_the_password(settings: Any) -> None:
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    path = _sign_up_mandatory(Client(), "gleb")
    elsewhere = Client()
    response = elsewhere.post(path)
    assert response.status_code == 302
    assert User.objects.get(username="gleb").emailaddress_set.get().verified
    assert not elsewhere.get("/").context["user"].is_authenticated
