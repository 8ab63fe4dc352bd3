"""Django settings for Skatschule: one module, driven by the environment.

Without any variable this is the zero-setup development site (SQLite, DEBUG on).
Production sets at least ``SECRET_KEY`` (which turns DEBUG off) and ``ALLOWED_HOSTS``:

- ``DATABASE_URL``: PostgreSQL in production (``postgres://user@host/db``); SQLite file by default.
- ``SECRET_KEY``: required when ``DEBUG`` is off.
- ``DEBUG``: ``1``/``true`` to enable (default on for local work, off when ``SECRET_KEY`` is set).
- ``ALLOWED_HOSTS``: comma-separated host names.
- ``CSRF_TRUSTED_ORIGINS``: comma-separated origins (``https://skat.example.org``), needed
  behind a TLS-terminating proxy on another host name.
- ``REDIS_URL``: optional; cache in Redis and sessions in ``cached_db`` (Redis plus the database).
  A Redis outage is not a site outage (skatschule.core.cache): sessions come from the
  database, the join-code and signup limits close (503) until Redis is back.
- HTTPS (only when DEBUG is off): ``SECURE_SSL_REDIRECT`` (default on), ``SECURE_HSTS_SECONDS``
  (default one year), ``SECURE_HSTS_INCLUDE_SUBDOMAINS`` and ``SECURE_HSTS_PRELOAD`` (default on;
  switch off where subdomains still serve plain HTTP), secure session and CSRF cookies;
  ``X-Forwarded-Proto: https`` from the proxy marks a request as secure.
- ``AXES_FAILURE_LIMIT`` (default 5) wrong passwords lock a username from one address for
  ``AXES_COOLOFF_MINUTES`` (default 15), and ``LOGIN_ACCOUNT_FAILURE_LIMIT`` (default 20) lock
  a username from all addresses together; ``PROXY_COUNT`` (default 0) is the number of
  reverse proxies in front of gunicorn whose ``X-Forwarded-For`` entries are trusted.
- ``CLASS_JOIN_FAILURE_LIMIT`` (default 10) wrong class join or teacher invitation codes per
  user within ``CLASS_JOIN_WINDOW_MINUTES`` (default 15) block further tries (429) until the
  window ends (skatschule.classrooms.join_limit).
- ``SIGNUP_LIMIT`` (default 5) new accounts per client address within ``SIGNUP_WINDOW_MINUTES``
  (default 60), counted the same way (429 after that).
- ``CSP_REPORT_ONLY``: ``1`` sends the Content-Security-Policy as report-only.
- ``STATIC_ROOT``: where ``collectstatic`` writes (default ``./staticfiles``).
- Mail (password reset): ``EMAIL_URL`` (``smtp://user:pass@host:587``) or ``EMAIL_HOST`` and the
  usual ``EMAIL_*`` variables, ``DEFAULT_FROM_EMAIL``; without them mail goes to the console
  (skatschule.accounts.email_config).
"""

from __future__ import annotations

import os
import tempfile
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF, UNSAFE_INLINE
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


SECRET_KEY = os.environ.get("SECRET_KEY", "")
DEBUG = env_bool("DEBUG", default=not SECRET_KEY)
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "skatschule-local-development-key-not-for-production"
WEEKLY_SECRET = os.environ.get("WEEKLY_SECRET", "")
"""The secret the deals of "Das Blatt der Woche" come from (empty: SECRET_KEY; skatschule/weekly)."""


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "skatschule.core",  # the shared kernel: errors, language, limits, security, site chrome
    "skatschule.home",
    "skatschule.cards",
    "skatschule.rules",
    "skatschule.training",
    "skatschule.table",
    "skatschule.graded_by_play",
    "skatschule.puzzles",
    "skatschule.accounts",
    "skatschule.casebook",
    "skatschule.referee",  # the referee's calculator: claims and open play (issue 37)
    "skatschule.classrooms",
    "skatschule.studies",  # studies for teachers: an annotated deal with stops (issue 37)
    "skatschule.quizzes",
    "skatschule.scoresheet",
    "skatschule.operations",
    "skatschule.jobs",
    "skatschule.learners",
    "lti_tool",  # django-lti: LMS platforms, deployments and the tool's keys (admin)
    "skatschule.lti",
    "skatschule.weekly",  # Das Blatt der Woche and class tournaments (issue 37 §5)
    "django_tasks",
    "django_tasks_db",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "skatschule.core.security.PermissionsPolicyMiddleware",  # no camera, microphone, location ...
    "whitenoise.middleware.WhiteNoiseMiddleware",  # static files: served pre-compressed by whitenoise itself
    # Compresses every other response (HTML, CSV, JSON) for clients that accept gzip. Above every
    # middleware that reads or changes the body, so it compresses the final body; below
    # whitenoise, whose files are compressed already. BREACH: Django's CSRF token is masked
    # anew for every response and GZipMiddleware pads with random bytes. Event streams pass
    # uncompressed (skatschule.push.middleware: gzip would hold each event back).
    "skatschule.push.middleware.GZipExceptStreams",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "skatschule.core.middleware.GermanFirstLocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",  # turns a lockout into the 429 page
    "skatschule.core.notfound.NotFoundMiddleware",  # a service's NotFound that leaves a view: the 404 page
    "skatschule.core.middleware.MethodNotAllowedPageMiddleware",  # a GET on a form's address: the site's 405 page
    "skatschule.push.middleware.CpuTiming",  # Server-Timing: cpu, with SERVER_TIMING=1 (the live benchmark)
]
SERVER_TIMING = env_bool("SERVER_TIMING", False)

AUTHENTICATION_BACKENDS = [
    "skatschule.core.security.AxesBackend",  # refuses logins while locked out
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
# Lock the pair (username, address): a club behind one NAT address is not locked out as a
# whole because one member forgot their password.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# ... and one name, from all addresses together, after this many failures within the cool-off
LOGIN_ACCOUNT_FAILURE_LIMIT = int(os.environ.get("LOGIN_ACCOUNT_FAILURE_LIMIT", "20"))
AXES_LOCKOUT_CALLABLE = "skatschule.core.security.lockout_response"
AXES_CLIENT_IP_CALLABLE = "skatschule.core.security.client_ip"
AXES_USERNAME_CALLABLE = "skatschule.core.security.client_username"  # cut to axes' column
AXES_VERBOSE = False
PROXY_COUNT = int(os.environ.get("PROXY_COUNT", "0"))
CLASS_JOIN_FAILURE_LIMIT = int(os.environ.get("CLASS_JOIN_FAILURE_LIMIT", "10"))
CLASS_JOIN_WINDOW_MINUTES = int(os.environ.get("CLASS_JOIN_WINDOW_MINUTES", "15"))
SIGNUP_LIMIT = int(os.environ.get("SIGNUP_LIMIT", "5"))
SIGNUP_WINDOW_MINUTES = int(os.environ.get("SIGNUP_WINDOW_MINUTES", "60"))
CSP_REPORT_ONLY = env_bool("CSP_REPORT_ONLY", False)
# The Content-Security-Policy, sent by django-csp (why each directive: skatschule/core/security.py).
CSP_POLICY: dict[str, list[str]] = {
    "default-src": [SELF],
    "script-src": [SELF],
    "style-src": [SELF],
    "style-src-elem": [SELF],
    "style-src-attr": [UNSAFE_INLINE],
    "img-src": [SELF, "data:"],
    "font-src": [SELF],
    "connect-src": [SELF],
    "object-src": [NONE],
    "base-uri": [SELF],
    "form-action": [SELF],
    "frame-ancestors": [NONE],
}
CONTENT_SECURITY_POLICY = None if CSP_REPORT_ONLY else {"DIRECTIVES": CSP_POLICY}
CONTENT_SECURITY_POLICY_REPORT_ONLY = {"DIRECTIVES": CSP_POLICY} if CSP_REPORT_ONLY else None

ROOT_URLCONF = "skatschule.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "skatschule.cards.context_processors.deck",
            ],
        },
    },
]

WSGI_APPLICATION = "skatschule.wsgi.application"
ASGI_APPLICATION = "skatschule.asgi.application"  # what serves the site: uvicorn (make run, gunicorn workers)

DATABASE_URL = os.environ.get("DATABASE_URL", "").strip() or f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
DATABASES = {
    "default": dj_database_url.parse(
        DATABASE_URL,
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Writers queue instead of failing: BEGIN IMMEDIATE takes the write lock at the start of a
    # transaction, and a busy database is waited for (up to 20 s) rather than reported as locked.
    # The test database is a file for the same reason (an in-memory shared-cache database
    # reports "table is locked" at once, without waiting).
    # Write-ahead log with synchronous=NORMAL: a commit appends to the log without an fsync of
    # its own (25 ms a write on a busy disk, 0.2 ms with it; issue 36), readers never wait for a
    # writer, and the database stays consistent through a crash; a power cut may lose the last
    # commits before the next checkpoint.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    DATABASES["default"]["TEST"] = {"NAME": str(Path(tempfile.gettempdir()) / f"skatschule-test-{os.getpid()}.sqlite3")}
if os.environ.get("TEST_DATABASE_NAME"):
    # the database the test runner creates and drops (``make test`` picks a unique one, so
    # two runs against the same PostgreSQL server do not drop each other's)
    DATABASES["default"]["TEST"] = {"NAME": os.environ["TEST_DATABASE_NAME"]}

REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL:
    CACHES = {
        "default": {
            # RedisCache whose errors count as misses: a Redis outage is no site outage
            "BACKEND": "skatschule.core.cache.ResilientRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "skatschule"),
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1.0},
        }
    }
    # Sessions are read from Redis and written through to the database: a Redis restart
    # logs nobody out, and while Redis is down they are read from the database.
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Push (skatschule.push): events reach the browsers through Redis pub/sub when set, so every web
# process delivers them; else within the one process of ``manage.py serve``.
PUSH_REDIS_URL = os.environ.get("PUSH_REDIS_URL", "").strip() or REDIS_URL
PUSH_STREAM_SECONDS = float(os.environ.get("PUSH_STREAM_SECONDS", "300"))  # then the browser reconnects

# Heavy work (analyses, checks, puzzles) runs in a worker through Django's tasks API
# (skatschule.jobs): the database backend by default (``manage.py run_jobs``), RQ on Redis with
# ``TASKS_BACKEND=rq`` (workers: ``manage.py rqworker --job-class django_tasks_rq.backend.Job
# default``, see skatschule/operations/README.md), or at once inside the request with
# ``TASKS_BACKEND=immediate`` (the tests' default; no worker needed).
TASKS_BACKEND = os.environ.get("TASKS_BACKEND", "db").strip()
if TASKS_BACKEND == "rq":
    INSTALLED_APPS += ["django_rq"]
    RQ_QUEUES = {"default": {"URL": REDIS_URL or "redis://127.0.0.1:6379/0", "DEFAULT_TIMEOUT": 600}}
    TASKS = {"default": {"BACKEND": "django_tasks_rq.RQBackend", "QUEUES": ["default"]}}
elif TASKS_BACKEND == "immediate":
    TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
else:
    TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
JOBS_PER_OWNER = int(os.environ.get("JOBS_PER_OWNER", "3"))  # pending jobs per user or session (429 beyond)
JOBS_PER_ADDRESS = int(os.environ.get("JOBS_PER_ADDRESS", "8"))  # pending jobs per client address (IPv6: /64)
JOBS_ANONYMOUS_TOTAL = int(os.environ.get("JOBS_ANONYMOUS_TOTAL", "16"))  # pending jobs of all visitors together
JOB_HEARTBEAT_SECONDS = float(os.environ.get("JOB_HEARTBEAT_SECONDS", "5"))
JOB_STALE_SECONDS = float(os.environ.get("JOB_STALE_SECONDS", "30"))  # no heartbeat this long: worker lost
JOB_MAX_ATTEMPTS = int(os.environ.get("JOB_MAX_ATTEMPTS", "3"))
JOB_QUEUE_TIMEOUT = float(os.environ.get("JOB_QUEUE_TIMEOUT", "600"))  # no worker took it: failed
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")  # links in mails sent without a request (reminders)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "de"
LANGUAGES = [("de", _("Deutsch")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "skatschule" / "locale"]
TIME_ZONE = "Europe/Berlin"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", "") or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "training:dashboard"
LOGOUT_REDIRECT_URL = "home:index"

DATA_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 200

RULES_CONTENT_DIR = BASE_DIR / "rules_content"

# Mail for password resets: console by default, SMTP when the environment names a server.
from skatschule.accounts.email_config import email_settings  # noqa: E402 - pure function, no Django

globals().update(email_settings(os.environ))
PASSWORD_RESET_TIMEOUT = int(os.environ.get("PASSWORD_RESET_TIMEOUT", str(60 * 60 * 24)))

if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool(
        "SECURE_HSTS_PRELOAD", True
    )  # hard to undo: switch off for domains with HTTP-only subdomains
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # The load balancer's health check may come in over plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^(healthz|readyz)$"]
    SESSION_COOKIE_HTTPONLY = True
    # the preference cookies too: language (Django's) and deck (skatschule.cards.views reads these)
    LANGUAGE_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SAMESITE = "Lax"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
