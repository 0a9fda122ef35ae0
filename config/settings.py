"""Settings, read from the environment.

A home game needs nothing set: in embedded mode (no ``REDIS_URL``) the secret key is made
once and kept in ``var/secret_key`` (mode 600), and the site answers to the machine's own
names. ``make run`` turns ``DEBUG`` on only when it serves the loopback address. In
distributed mode with ``DEBUG`` off (the default) the settings refuse to load without
``SECRET_KEY`` and ``ALLOWED_HOSTS``; the ``SECURE_*`` settings default to what
``manage.py check --deploy`` asks for whenever ``DEBUG`` is off.

Variables: DEBUG, SECRET_KEY, ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS, DATABASE_URL, REDIS_URL,
TIME_ZONE, SECURE_SSL_REDIRECT, SECURE_HSTS_SECONDS, SECURE_PROXY_SSL_HEADER, LOG_LEVEL,
SECRET_KEY_FILE, BACKUP_DIR, BACKUP_KEEP, BACKUP_DAILY, SITE_URL, EMAIL_HOST (and EMAIL_PORT,
EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS, EMAIL_USE_SSL, DEFAULT_FROM_EMAIL), MAIL_DIR.
"""

import os
import secrets
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean (use 1/0, true/false).")


def env_list(name: str, default: list[str] | None = None) -> list[str]:
    value = os.environ.get(name, "")
    items = [item.strip() for item in value.split(",") if item.strip()]
    return items or list(default or [])


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer.") from None


DEBUG = env_bool("DEBUG", False)

# Redis: unset means embedded mode (one process, in-memory channel layer and broker): a home
# game on one machine, where the settings below have safe defaults of their own.
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
EMBEDDED = not REDIS_URL


def _channels_prefix(url: str) -> str:
    """The channel layer's prefix for ``redis://host:port/db``: ``asgi``, then ``-db<n>``
    for a database other than 0."""
    db = urlsplit(url).path.strip("/") or "0"
    return "asgi" if db == "0" else f"asgi-db{db}"


# Where the site keeps the secret key it made (when SECRET_KEY is not set): var/secret_key.
# Backups carry it, and a restore puts it back here (series.services.backups).
SECRET_KEY_FILE = Path(os.environ.get("SECRET_KEY_FILE", "").strip() or VAR_DIR / "secret_key")


def _kept_secret_key() -> str:
    """The embedded site's own secret: made on first use, kept in var/, readable only by its
    owner, so a home game needs none set and keeps its sessions across restarts."""
    path = SECRET_KEY_FILE
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first: use theirs
        return path.read_text().strip()
    with os.fdopen(descriptor, "w") as out:
        out.write(key + "\n")
    return key


SECRET_KEY = os.environ.get("SECRET_KEY", "")
# Whether the key is the one kept in SECRET_KEY_FILE (a backup then carries it).
SECRET_KEY_KEPT = not SECRET_KEY
if not SECRET_KEY:
    if not DEBUG and not EMBEDDED:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when DEBUG is off. Generate one with: "
            'python -c "import secrets; print(secrets.token_urlsafe(50))"'
        )
    SECRET_KEY = _kept_secret_key()

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS")
if not ALLOWED_HOSTS:
    if not DEBUG and not EMBEDDED:
        raise ImproperlyConfigured(
            "ALLOWED_HOSTS must be set when DEBUG is off (comma-separated host names)."
        )
    # The machine itself only; `make run HOST=0.0.0.0` names the addresses friends type.
    ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]"]

CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
for _origin in CSRF_TRUSTED_ORIGINS:
    if "://" not in _origin:
        raise ImproperlyConfigured(
            f"CSRF_TRUSTED_ORIGINS entry {_origin!r} needs a scheme, e.g. https://{_origin}"
        )

INSTALLED_APPS = [
    # The site package itself first: its serve command, and its runserver (daphne's, which
    # serves WebSockets as well as HTTP) over the one staticfiles has. Daphne's own app is not
    # installed: it imports daphne's server at start-up (Twisted and autobahn, a quarter of
    # every process's imports, a migrate's or a worker's too); the commands import it when run.
    "config",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "django_htmx",
    "axes",
    "series",
    "tables",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The page's language: the language cookie (set by the switch in the header), else the
    # browser's Accept-Language; then, once the user is known, their saved choice.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "series.middleware.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

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
                "series.context_processors.roles",
            ],
            # Every page's ``date`` filter writes the first of the month as French does
            # ("1er janvier"); series.templatetags.series_dates.
            "builtins": ["series.templatetags.series_dates"],
        },
    },
]

# Forms are drawn from Django's form templates by Jinja2, several times faster than
# Django's engine draws them (core/form_renderer.py).
FORM_RENDERER = "core.form_renderer.FormRenderer"

ASGI_APPLICATION = "config.asgi.application"

# Database: a SQLite file under var/ unless DATABASE_URL says otherwise. Connections are not
# kept open between requests: under ASGI each request may run in a different thread.
VAR_DIR.mkdir(exist_ok=True)
DATABASES = {
    "default": dj_database_url.config(
        env="DATABASE_URL",
        default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=0,
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Live tables write from several threads (and processes): take the write lock when a
    # transaction begins, and wait for it, instead of failing with "database is locked".
    # WAL lets sockets read while a move is written; synchronous=NORMAL is still durable
    # across a process crash (SIGKILL), only an OS crash may lose the last commits.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 30,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


if EMBEDDED:
    # Channels' own in-memory layer, as it is: its expiry sweep walks every channel on each
    # message (O(sockets) per message), which only matters far beyond a home game's tables;
    # pacing it meant overriding a private method, which an upgrade may break silently.
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    # Every request reads its session: from the cache, the database only on a miss (one
    # query and a signed payload's check less per request). Embedded, one process serves
    # every request and the cache is its memory; the database stays the truth, so sessions
    # outlive a restart. Not when distributed: there the cache is Redis, and a page must
    # still open while Redis is down (the live updates say they are paused).
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    CELERY_BROKER_URL = "memory://localhost/"
    CELERY_RESULT_BACKEND = "cache+memory://"
    # The in-memory broker has no way to wake the worker: the worker looks at the queue
    # every polling interval, Kombu's default a second. A task due at once then waited up
    # to a second before it ran (0.8 s at the median, measured: the standings after a night,
    # a clock's tick re-sent near its level's end, a house bot or the next hand when their
    # pauses are set under a second); at 50 ms, 2 to 50 ms. A task with a longer countdown
    # was received in time and held to its time either way. The idle process's CPU is the
    # same (about 2% of a core, the periodic sweeps).
    CELERY_BROKER_TRANSPORT_OPTIONS = {"polling_interval": 0.05}
else:
    CHANNEL_LAYERS = {
        "default": {
            # Pub/sub: a group_send is one PUBLISH pushed to each process, where the list-based
            # layer took four round trips and a blocking pop (the load test's p99 halved).
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            # redis-py's pool refuses a 101st connection in use instead of waiting; a table's
            # sockets connecting at once (group_add each) need more at peak.
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "max_connections": 1000}],
                # Redis pub/sub ignores the database number: two sites (or two test workers)
                # on one Redis server with databases apart would still hear each other's
                # groups ("table-1" is table 1 of both). Named after the database, the groups
                # are as apart as the keys; database 0 keeps channels' own prefix.
                "prefix": _channels_prefix(REDIS_URL),
            },
        }
    }
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    # The worker keeps its database connections between tasks (config.celery); Celery's
    # Django fix-up then closes them only every this many tasks.
    CELERY_DB_REUSE_MAX = 10_000

CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 3600
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker that lost Redis retries until it is back, however long that takes (the default
# gives up after 100 tries, some 45 minutes, and the worker exits).
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# Periodic sweeps are added by the apps that need them (the blind clock, for one).
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    # Live tables: apply due time-outs and start due hands if a countdown task was lost.
    "tables-sweep": {"task": "tables.tasks.tables_sweep", "schedule": 1.0},
    # Blind clocks: store level changes whose task was lost or late.
    "tournaments-clock-sweep": {"task": "tournaments.tasks.clock_sweep_task", "schedule": 2.0},
    # Online tournaments: a hand whose "hand ended" was lost (a process died) is dealt with.
    "tournaments-online-sweep": {"task": "tournaments.tasks.online_sweep_task", "schedule": 5.0},
    # The worker says it is alive (series.services.health); a heartbeat older than
    # WORKER_SILENT_AFTER_SECONDS shows on the health page and the director's pages. One
    # that waited out an outage in the queue is worth nothing: it expires.
    "worker-heartbeat": {
        "task": "series.tasks.worker_heartbeat",
        "schedule": 5.0,
        "options": {"expires": 5.0},
    },
}
WORKER_SILENT_AFTER_SECONDS = env_int("WORKER_SILENT_AFTER_SECONDS", 30)
# E-mail notices (series.services.mailings): beat looks for due messages every minute and
# sends them, each once. Without EMAIL_HOST the site needs no mail server: every message is
# written to MAIL_DIR (var/mail/), one .eml file each, which any mail program opens. With
# EMAIL_HOST, Django's SMTP backend (port 587 with STARTTLS unless told otherwise).
CELERY_BEAT_SCHEDULE["series-mailings"] = {
    "task": "series.tasks.mailings_run",
    "schedule": 60.0,
    "options": {"expires": 60.0},
}
EMAIL_HOST = os.environ.get("EMAIL_HOST", "").strip()
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env_int("EMAIL_PORT", 587)
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", not EMAIL_USE_SSL)
    EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 30)
else:
    EMAIL_BACKEND = "series.mail.EmlFileBackend"
MAIL_DIR = Path(os.environ.get("MAIL_DIR", "").strip() or VAR_DIR / "mail")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "").strip() or (
    "Home Game Omaha <noreply@localhost>"
)
# The site's address as friends type it, for the links in e-mails (no request to ask).
SITE_URL = os.environ.get("SITE_URL", "").strip().rstrip("/")
if not SITE_URL:
    if EMAIL_HOST:
        raise ImproperlyConfigured(
            "SITE_URL must be set when EMAIL_HOST is: the links in the e-mails use it "
            "(e.g. SITE_URL=https://poker.example.org)."
        )
    SITE_URL = "http://localhost:8000"
# Backups (`manage.py backup`, series.services.backups): where they go and how many of the
# newest are kept. The daily one is taken by beat, on by default only in embedded mode (a
# distributed site's database is usually backed up by its server's own tools). A SQLite
# database's backups sit beside it (var/backups for the usual var/db.sqlite3), so a test or
# benchmark server on a database of its own never prunes the host's backups.
_SQLITE_NAME = (
    str(DATABASES["default"].get("NAME") or "")
    if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
    else ""
)
_BACKUP_DEFAULT = (
    Path(_SQLITE_NAME).parent / "backups"
    if _SQLITE_NAME and _SQLITE_NAME != ":memory:"
    else VAR_DIR / "backups"
)
BACKUP_DIR = Path(os.environ.get("BACKUP_DIR", "").strip() or _BACKUP_DEFAULT)
BACKUP_KEEP = env_int("BACKUP_KEEP", 14)
BACKUP_DAILY = env_bool("BACKUP_DAILY", EMBEDDED)
if BACKUP_DAILY:
    # Asked every ten minutes, taken when the newest backup is a day old: a laptop that
    # serves one evening gets its backup that evening, whatever beat remembers.
    CELERY_BEAT_SCHEDULE["database-backup"] = {
        "task": "series.tasks.database_backup",
        "schedule": 600.0,
        "options": {"expires": 600.0},
    }
# Live tables: may players (not only directors) open cash tables?
TABLES_PLAYERS_MAY_OPEN = env_bool("TABLES_PLAYERS_MAY_OPEN", False)
# Live tables: the pause between hands, between a run-out's streets, and the house bots'
# thinking time (tests and load runs shorten or lengthen them).
TABLES_NEXT_HAND_DELAY_MS = env_int("TABLES_NEXT_HAND_DELAY_MS", 3000)
TABLES_RUNOUT_STEP_MS = env_int("TABLES_RUNOUT_STEP_MS", 1500)
TABLES_BOT_THINK_MS = env_int("TABLES_BOT_THINK_MS", 1000)
# Live tables: the turn clock, docs/rules.md "Time and disconnection" (30 s; a soak of whole
# tournaments in the suite, whose people let it run out, shortens it).
TABLES_TURN_SECONDS = env_int("TABLES_TURN_SECONDS", 30)
# Live tables: a move made on a socket's event loop is told to the table once PostgreSQL
# has committed it, before its flush to disk (tables/runtime/loop_db.py; docs/moves.md); True
# waits for the flush too, as every other write does.
TABLES_MOVES_SYNCHRONOUS_COMMIT = env_bool("TABLES_MOVES_SYNCHRONOUS_COMMIT", False)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Failed logins are limited per account and per address (django-axes, its attempts in the
# database, so every process of either run mode counts the same): after 5 failures that
# account, and that address, wait 15 minutes, with a page that says so.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "series.views.login_locked_out"
AXES_VERBOSE = False

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français")]
# The project's catalogs (locale/<lang>/LC_MESSAGES/django.po and djangojs.po), their .mo
# files committed beside them: `make messages` rebuilds both, and a test fails when a .mo is
# older than its .po, a message of the code is missing or a translation is fuzzy.
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates, times and numbers as each language writes them ("vendredi 27 novembre 2026 ·
# 19 h 30", "10 000 jetons"): series/formats/<lang>/formats.py over Django's own.
FORMAT_MODULE_PATH = ["series.formats"]
# No global thousands separator: an id, a coordinate or a stack written into an attribute,
# JSON or CSV stays "10000" for the program that reads it. Amounts people read are grouped
# where they are written, by ``core.amounts`` ("10,000 chips", "10 000 jetons").
USE_THOUSAND_SEPARATOR = False
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# Daphne does not serve static files; WhiteNoise does, from the finders while developing.
WHITENOISE_USE_FINDERS = DEBUG

# Production security. Each is overridable, and each defaults to the safe value when DEBUG
# is off, so `check --deploy` is clean with only SECRET_KEY and ALLOWED_HOSTS set.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
# A process manager or a monitor on the machine asks a daphne for /health/ over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^health/$"]
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
_proxy_header = env_list("SECURE_PROXY_SSL_HEADER")
if _proxy_header:
    if len(_proxy_header) != 2:
        raise ImproperlyConfigured(
            "SECURE_PROXY_SSL_HEADER must be 'HEADER,value', e.g. HTTP_X_FORWARDED_PROTO,https"
        )
    SECURE_PROXY_SSL_HEADER = (_proxy_header[0], _proxy_header[1])

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # The embedded worker and beat run in the serving process, and their routine lines (a
    # task received and done, the sweep sent every second: some 330 a minute) buried the
    # demo's passwords and every message worth reading. Warnings and errors still show.
    "loggers": (
        {
            name: {"level": os.environ.get("WORKER_LOG_LEVEL", "WARNING")}
            for name in ("celery.app.trace", "celery.worker.strategy", "celery.beat")
        }
        if EMBEDDED
        else {}
    ),
}
