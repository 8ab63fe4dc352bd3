"""Mail settings from the environment (read by ``skatschule.settings``; no Django import).

- Nothing set: mail is printed to the console (the development default; a password-reset
  link then appears in the server's log).
- ``EMAIL_URL``: one URL names the server, e.g. ``smtp://user:pass@mail.example.org:587``
  (STARTTLS), ``smtps://user:pass@mail.example.org:465`` (implicit TLS),
  ``smtp://localhost:25`` (no encryption), ``console://`` or ``file:///var/tmp/mails``.
  User name and password may be percent-encoded.
- Or the usual single variables: ``EMAIL_HOST`` (switches to SMTP), ``EMAIL_PORT``
  (default 587), ``EMAIL_HOST_USER``, ``EMAIL_HOST_PASSWORD``, ``EMAIL_USE_TLS``
  (default on), ``EMAIL_USE_SSL``. ``EMAIL_URL`` wins when both are set.
- ``DEFAULT_FROM_EMAIL``: the sender (default ``Skatschule <noreply@localhost>``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote, urlsplit

SMTP = "django.core.mail.backends.smtp.EmailBackend"
CONSOLE = "django.core.mail.backends.console.EmailBackend"
FILE = "django.core.mail.backends.filebased.EmailBackend"
_TRUE = {"1", "true", "yes", "on"}


def _flag(value: str | None, default: bool) -> bool:
    if value is None or not value.strip():
        return default
    return value.strip().lower() in _TRUE


def email_settings(environ: Mapping[str, str]) -> dict[str, Any]:
    """The ``EMAIL_*`` Django settings for this environment; ValueError for an unknown scheme."""
    result: dict[str, Any] = {
        "DEFAULT_FROM_EMAIL": environ.get("DEFAULT_FROM_EMAIL", "").strip() or "Skatschule <noreply@localhost>",
    }
    result["SERVER_EMAIL"] = result["DEFAULT_FROM_EMAIL"]
    url = environ.get("EMAIL_URL", "").strip()
    if url:
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        if scheme == "console":
            result["EMAIL_BACKEND"] = CONSOLE
        elif scheme == "file":
            result["EMAIL_BACKEND"] = FILE
            result["EMAIL_FILE_PATH"] = unquote(parts.path) or "/tmp/skatschule-mail"
        elif scheme in {"smtp", "smtps", "submission"}:
            ssl = scheme == "smtps"
            result.update(
                EMAIL_BACKEND=SMTP,
                EMAIL_HOST=parts.hostname or "localhost",
                EMAIL_PORT=parts.port or (465 if ssl else 587),
                EMAIL_HOST_USER=unquote(parts.username or ""),
                EMAIL_HOST_PASSWORD=unquote(parts.password or ""),
                EMAIL_USE_SSL=ssl,
                # STARTTLS unless the URL says port 25 without credentials (a local relay)
                EMAIL_USE_TLS=not ssl and not (parts.port == 25 and not parts.username),
            )
        else:
            raise ValueError(f"EMAIL_URL: unknown scheme {scheme!r} (smtp, smtps, console, file)")
        return result
    host = environ.get("EMAIL_HOST", "").strip()
    if not host:
        result["EMAIL_BACKEND"] = CONSOLE
        return result
    ssl = _flag(environ.get("EMAIL_USE_SSL"), False)
    result.update(
        EMAIL_BACKEND=SMTP,
        EMAIL_HOST=host,
        EMAIL_PORT=int(environ.get("EMAIL_PORT", "").strip() or (465 if ssl else 587)),
        EMAIL_HOST_USER=environ.get("EMAIL_HOST_USER", ""),
        EMAIL_HOST_PASSWORD=environ.get("EMAIL_HOST_PASSWORD", ""),
        EMAIL_USE_SSL=ssl,
        EMAIL_USE_TLS=not ssl and _flag(environ.get("EMAIL_USE_TLS"), True),
    )
    return result
