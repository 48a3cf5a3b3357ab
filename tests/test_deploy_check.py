"""``manage.py check --deploy`` is clean with production settings from the environment."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


# Test-run settings that a production environment never has. DJANGO_ALLOW_ASYNC_UNSAFE is set
# for the whole run by tests/browser/conftest.py (Playwright keeps an event loop in the thread).
NOT_IN_PRODUCTION = {
    "DEBUG",
    "DJANGO_SETTINGS_MODULE",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
}


def production_env(**extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in NOT_IN_PRODUCTION}
    env.update(
        DJANGO_SETTINGS_MODULE="durak_site.settings",
        SECRET_KEY="a8Zq-production-like-secret-key-k3Lw9xP0vT7mN2bR5cY8dF1gH4jS6",
        ALLOWED_HOSTS="durak.example.com",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/durak",
        **extra,
    )
    return env


def run_manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_production_settings() -> None:
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", env=production_env())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key() -> None:
    env = production_env()
    del env["SECRET_KEY"]
    result = run_manage("check", env=env)
    assert result.returncode != 0
    assert "Set SECRET_KEY" in result.stderr


def test_check_deploy_warns_behind_a_proxy_that_no_setting_trusts() -> None:
    """Behind a proxy (it tells us HTTPS) with TRUSTED_PROXIES empty, every visitor counts as the
    proxy's address: one visitor's failed log-ins would lock everyone out."""
    behind = run_manage(
        "check", "--deploy", "--fail-level", "WARNING", env=production_env(SECURE_PROXY_SSL_HEADER="true")
    )
    assert behind.returncode != 0
    assert "durak_site.W001" in behind.stdout + behind.stderr
    trusted = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        env=production_env(SECURE_PROXY_SSL_HEADER="true", TRUSTED_PROXIES="10.0.0.0/8,127.0.0.1"),
    )
    assert trusted.returncode == 0, trusted.stdout + trusted.stderr


def test_a_malformed_trusted_proxy_stops_the_site() -> None:
    result = run_manage("check", env=production_env(TRUSTED_PROXIES="127.0.0.1,proxy.internal"))
    assert result.returncode != 0
    assert "TRUSTED_PROXIES: 'proxy.internal' is not an IP address or network" in result.stderr
