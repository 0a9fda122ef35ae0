"""The settings load from the environment and refuse a misconfigured production.

Each case imports the settings in a fresh interpreter, since settings load once per process.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parents[2]

PRODUCTION = {
    "DEBUG": "0",
    # Distributed mode (loading the settings does not connect to Redis).
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    "SECRET_KEY": "kq2v8yZ1uT5bXr7nLm3pWc9sHd4fGj6aE0oRtYiUzQxNvBw_" * 2,
    "ALLOWED_HOSTS": "poker.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://poker.example.org",
}
CLEARED = {
    "DEBUG",
    "REDIS_URL",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_PROXY_SSL_HEADER",
}


def run_python(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k not in CLEARED}
    environment.update(DJANGO_SETTINGS_MODULE="config.settings", **env)
    return subprocess.run(
        [sys.executable, *args],
        cwd=BASE_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


def load_settings(**env: str) -> subprocess.CompletedProcess[str]:
    return run_python(["-c", "from django.conf import settings; print(settings.DEBUG)"], **env)


def test_debug_is_off_unless_asked_for() -> None:
    result = load_settings(**PRODUCTION | {"DEBUG": ""})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_missing_secret_key_fails_loudly_when_debug_is_off() -> None:
    result = load_settings(**PRODUCTION | {"SECRET_KEY": ""})
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_missing_allowed_hosts_fails_loudly_when_debug_is_off() -> None:
    result = load_settings(**PRODUCTION | {"ALLOWED_HOSTS": ""})
    assert result.returncode != 0
    assert "ALLOWED_HOSTS must be set when DEBUG is off" in result.stderr


@pytest.mark.parametrize(
    ("name", "value", "complaint"),
    [
        ("DEBUG", "maybe", "is not a boolean"),
        ("SECURE_HSTS_SECONDS", "a year", "is not an integer"),
        ("CSRF_TRUSTED_ORIGINS", "poker.example.org", "needs a scheme"),
        ("SECURE_PROXY_SSL_HEADER", "HTTP_X_FORWARDED_PROTO", "must be 'HEADER,value'"),
    ],
)
def test_malformed_values_fail_loudly(name: str, value: str, complaint: str) -> None:
    result = load_settings(**PRODUCTION | {name: value})
    assert result.returncode != 0
    assert complaint in result.stderr


def test_development_needs_nothing_but_debug() -> None:
    result = load_settings(DEBUG="1")
    assert result.returncode == 0, result.stderr


def test_check_deploy_is_clean_with_production_settings() -> None:
    result = run_python(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout
    assert "WARNING" not in result.stderr


def test_a_home_game_needs_nothing_set_and_keeps_its_secret_in_var(tmp_path: Path) -> None:
    # the README's manage.py commands failed with "SECRET_KEY must be
    # set"; the Wi-Fi recipe ran with DEBUG on and a public constant key.
    code = (
        "from django.conf import settings; import stat, os; "
        "path = settings.VAR_DIR / 'secret_key'; "
        "print(settings.DEBUG, settings.SECRET_KEY == path.read_text().strip(), "
        "oct(stat.S_IMODE(os.stat(path).st_mode)), settings.ALLOWED_HOSTS)"
    )
    first = run_python(["-c", code])
    assert first.returncode == 0, first.stderr
    debug, same, mode, hosts = first.stdout.split(" ", 3)
    assert (debug, same, mode) == ("False", "True", "0o600")
    assert "127.0.0.1" in hosts
    again = run_python(["-c", "from django.conf import settings; print(settings.SECRET_KEY)"])
    assert again.stdout.strip() == (BASE_DIR / "var" / "secret_key").read_text().strip()
    check = run_python(["manage.py", "check"])
    assert check.returncode == 0, check.stderr
