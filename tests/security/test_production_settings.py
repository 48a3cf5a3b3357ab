"""Production settings (what ``durak_site.settings`` gives without DEBUG): secure cookies, HSTS,
the CSP, password rules and email confirmation; and the sign-up flow those settings make."""

import json
import subprocess
import sys
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.test_deploy_check import ROOT, production_env

PRINT_SETTINGS = """
import json, django
django.setup()
from django.conf import settings
names = [
    "DEBUG", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SESSION_COOKIE_HTTPONLY", "CSRF_COOKIE_HTTPONLY",
    "SESSION_COOKIE_SAMESITE", "CSRF_COOKIE_SAMESITE", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_CONTENT_TYPE_NOSNIFF", "X_FRAME_OPTIONS",
    "SECURE_REFERRER_POLICY", "ACCOUNT_EMAIL_VERIFICATION", "AXES_ENABLED", "MIDDLEWARE",
    "CONTENT_SECURITY_POLICY", "AUTH_PASSWORD_VALIDATORS", "REST_FRAMEWORK", "PASSWORD_HASHERS",
    "TRUSTED_PROXIES", "AXES_CLIENT_IP_CALLABLE", "ACCOUNT_ADAPTER",
]
print(json.dumps({name: getattr(settings, name, None) for name in names}, default=str))
"""


def settings_with(env: dict[str, str]) -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, "-c", PRINT_SETTINGS], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))


@pytest.fixture(scope="module")
def production() -> dict[str, Any]:
    env = production_env()
    env.pop("ACCOUNT_EMAIL_VERIFICATION", None)  # the test run's own setting
    return settings_with(env)


def test_cookies_are_secure_and_https_is_enforced(production: dict[str, Any]) -> None:
    assert production["DEBUG"] is False
    assert production["SESSION_COOKIE_SECURE"] is True
    assert production["CSRF_COOKIE_SECURE"] is True
    assert production["SESSION_COOKIE_HTTPONLY"] is True
    assert production["CSRF_COOKIE_HTTPONLY"] is True
    assert production["SESSION_COOKIE_SAMESITE"] == production["CSRF_COOKIE_SAMESITE"] == "Lax"
    assert production["SECURE_SSL_REDIRECT"] is True
    assert production["SECURE_HSTS_SECONDS"] >= 31_536_000
    assert production["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    assert production["SECURE_CONTENT_TYPE_NOSNIFF"] is True
    assert production["X_FRAME_OPTIONS"] == "DENY"
    assert production["SECURE_REFERRER_POLICY"] == "same-origin"


def test_the_csp_and_the_log_in_limits_are_on(production: dict[str, Any]) -> None:
    assert "csp.middleware.CSPMiddleware" in production["MIDDLEWARE"]
    directives = production["CONTENT_SECURITY_POLICY"]["DIRECTIVES"]
    assert directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'"]
    assert directives["object-src"] == ["'none'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert production["AXES_ENABLED"] is True
    assert "axes.middleware.AxesMiddleware" in production["MIDDLEWARE"]
    rates = production["REST_FRAMEWORK"]["DEFAULT_THROTTLE_RATES"]
    assert set(rates) >= {"user", "ip", "auth"} and all(rates.values())
    # No proxy is believed unless named, and every limit asks the one function for the address.
    assert production["TRUSTED_PROXIES"] == []
    assert production["REST_FRAMEWORK"]["NUM_PROXIES"] == 0
    assert production["AXES_CLIENT_IP_CALLABLE"] == "durak_site.addresses.client_address"
    assert production["ACCOUNT_ADAPTER"] == "accounts.adapter.AccountAdapter"


def test_passwords_have_rules_and_a_slow_hash(production: dict[str, Any]) -> None:
    validators = {entry["NAME"].rsplit(".", 1)[-1] for entry in production["AUTH_PASSWORD_VALIDATORS"]}
    assert validators >= {
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    }
    assert "PBKDF2PasswordHasher" in production["PASSWORD_HASHERS"][0]  # Django's default; tests use MD5


def test_email_confirmation_is_mandatory_in_production_only(production: dict[str, Any]) -> None:
    assert production["ACCOUNT_EMAIL_VERIFICATION"] == "mandatory"
    development = {key: value for key, value in production_env(DEBUG="true").items()}
    development.pop("ACCOUNT_EMAIL_VERIFICATION", None)
    assert settings_with(development)["ACCOUNT_EMAIL_VERIFICATION"] == "optional"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("password", "why"),
    [
        ("short1!", "too short"),
        ("password123", "too common"),
        ("8264019375", "entirely numeric"),
        ("newcomer-durak", "too similar to the username"),
    ],
)
def test_sign_up_refuses_a_weak_password(client: Client, password: str, why: str) -> None:
    response = client.post(
        reverse("account_signup"),
        {
            "username": "newcomer",
            "email": "newcomer@example.com",
            "password1": password,
            "password2": password,
        },
    )
    assert response.status_code == 200, why
    assert not User.objects.filter(username="newcomer").exists(), why
    assert "password" in response.content.decode().lower()


@pytest.mark.django_db
def test_with_mandatory_confirmation_nobody_logs_in_before_confirming(client: Client, settings: Any) -> None:
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    password = "a-long-and-unusual-passphrase"
    signup = client.post(
        reverse("account_signup"),
        {
            "username": "newcomer",
            "email": "newcomer@example.com",
            "password1": password,
            "password2": password,
        },
    )
    assert signup.status_code == 302
    assert signup["Location"] == reverse("account_email_verification_sent")
    assert "_auth_user_id" not in client.session
    assert client.get(reverse("notifications:list")).status_code == 302  # not logged in
    login = client.post(reverse("account_login"), {"login": "newcomer", "password": password})
    assert "_auth_user_id" not in client.session, login.status_code
    (message,) = [message for message in mail.outbox if "newcomer@example.com" in message.to][-1:]
    link = next(word for word in message.body.split() if "/accounts/confirm-email/" in word)
    path = link[link.index("/accounts/confirm-email/") :]
    confirmed = client.post(path)
    assert confirmed.status_code == 302
    client.post(reverse("account_login"), {"login": "newcomer", "password": password})
    assert client.session.get("_auth_user_id") == str(User.objects.get(username="newcomer").pk)
