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
