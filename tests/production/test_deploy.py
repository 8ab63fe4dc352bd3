"""Production settings: ``check --deploy`` is clean, and the settings follow the environment."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLEARED = {"DEBUG", "DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE", "STATIC_ROOT"}
PRODUCTION_ENV = {
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "skat.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://skat.example.org",
    "DATABASE_URL": "postgres://skat@db.example.org:5432/skatschule",
    "REDIS_URL": "redis://127.0.0.1:6379/3",
}


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in CLEARED}
    env.update(PRODUCTION_ENV)
    env.update(extra)
    return env


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_check_deploy_is_clean_with_production_env() -> None:
    # --fail-level WARNING: any warning (W001 ... W022, axes' checks) fails the command
    result = _run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], _env())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues (0 silenced)" in result.stdout


def test_check_deploy_warns_on_a_development_setup() -> None:
    """The test above can fail: the development defaults give warnings."""
    env = _env(DEBUG="1")
    result = _run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], env)
    assert result.returncode != 0
    assert "security.W018" in result.stderr + result.stdout  # DEBUG on


PRINT_SETTINGS = """
import json, django
from django.conf import settings
django.setup()
db = settings.DATABASES["default"]
print(json.dumps({
    "debug": settings.DEBUG, "engine": db["ENGINE"], "name": db["NAME"], "host": db.get("HOST"),
    "cache": settings.CACHES["default"]["BACKEND"], "session": settings.SESSION_ENGINE,
    "ssl_redirect": settings.SECURE_SSL_REDIRECT, "hsts": settings.SECURE_HSTS_SECONDS,
    "cookie_secure": settings.SESSION_COOKIE_SECURE and settings.CSRF_COOKIE_SECURE,
    "hosts": settings.ALLOWED_HOSTS, "origins": settings.CSRF_TRUSTED_ORIGINS,
    "static": settings.STORAGES["staticfiles"]["BACKEND"],
    "language_cookie": [settings.LANGUAGE_COOKIE_SECURE, settings.LANGUAGE_COOKIE_SAMESITE],
}))
"""


def _settings(env: dict[str, str]) -> dict[str, Any]:
    env = dict(env, DJANGO_SETTINGS_MODULE="skatschule.settings")
    result = _run(["-c", PRINT_SETTINGS], env)
    assert result.returncode == 0, result.stderr
    found: dict[str, Any] = json.loads(result.stdout)
    return found


def test_production_settings_come_from_the_environment() -> None:
    s = _settings(_env())
    assert s["debug"] is False
    assert s["engine"] == "django.db.backends.postgresql"
    assert (s["name"], s["host"]) == ("skatschule", "db.example.org")
    assert s["cache"].endswith("RedisCache") and s["session"].endswith("cached_db")
    assert s["ssl_redirect"] and s["hsts"] >= 31536000 and s["cookie_secure"]
    assert s["hosts"] == ["skat.example.org"] and s["origins"] == ["https://skat.example.org"]
    assert s["static"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"
    # the preference cookies (language; the deck cookie takes the same flags) are Secure and SameSite
    assert s["language_cookie"] == [True, "Lax"]


def test_zero_setup_defaults() -> None:
    env = {k: v for k, v in os.environ.items() if k not in CLEARED}
    s = _settings(env)
    assert s["debug"] is True and s["engine"] == "django.db.backends.sqlite3"
    assert s["cache"].endswith("LocMemCache") and s["session"].endswith("sessions.backends.db")
    assert s["static"].endswith("StaticFilesStorage") and "whitenoise" not in s["static"]


def test_production_refuses_to_start_without_a_secret_key() -> None:
    env = _env(DEBUG="0")
    del env["SECRET_KEY"]
    result = _run(["manage.py", "check"], env)
    assert result.returncode != 0 and "SECRET_KEY must be set" in result.stderr


@pytest.mark.slow
def test_collectstatic_and_whitenoise_serve_hashed_files(tmp_path: Path) -> None:
    """Production static files: collectstatic writes hashed, compressed files; pages link them."""
    env = _env(STATIC_ROOT=str(tmp_path / "static"), DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    env.pop("REDIS_URL")
    result = _run(["manage.py", "collectstatic", "--noinput", "-v0"], env)
    assert result.returncode == 0, result.stderr
    manifest = json.loads((tmp_path / "static" / "staticfiles.json").read_text())
    hashed = manifest["paths"]["css/site.css"]
    assert hashed != "css/site.css" and (tmp_path / "static" / (hashed + ".gz")).exists()
    script = (
        "import django; django.setup()\n"
        "from django.test import Client\n"
        "c = Client(HTTP_HOST='skat.example.org', **{'wsgi.url_scheme': 'https'})\n"
        "html = c.get('/healthz', secure=True)\n"
        "from django.templatetags.static import static\n"
        "url = static('css/site.css')\n"
        "r = c.get(url, secure=True)\n"
        "print(url, r.status_code, r.get('Cache-Control', ''))\n"
    )
    result = _run(["-c", script], dict(env, DJANGO_SETTINGS_MODULE="skatschule.settings"))
    assert result.returncode == 0, result.stderr
    url, status, cache = result.stdout.split(maxsplit=2)
    assert url == "/static/" + hashed and status == "200" and "immutable" in cache
