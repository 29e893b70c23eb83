"""Kyoku settings: one module, every deployment difference read from the environment.

DATABASE_URL   default: SQLite file db.sqlite3 in the project
REDIS_URL      absent: Celery runs tasks in-process and the cache is local memory
SECRET_KEY     required when DEBUG is off (./scripts/serve writes a development one into .env)
DEBUG          "1"/"true" for development; off by default (safe production default)
ALLOWED_HOSTS  comma-separated
DB_CONNECT_RETRY_SECONDS  how long opening a PostgreSQL connection is retried (a restart), 3
LEAGUE_START   who may start a league in the app (/leagues/new/): "approval" (the default in
               production: a site admin approves each at /leagues/requests/) or "open" (anyone
               signed in; the default when DEBUG is on, for the demo)
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_file_read(path: Path) -> None:
    """Development convenience: KEY=VALUE lines of a local ``.env`` (written by ./scripts/serve) fill
    variables the environment does not set; the real environment always wins. Production sets its
    variables and has no .env, so it still refuses to start without SECRET_KEY."""
    if not path.is_file():
        return
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _sep, value = line.partition("=")
        key, value = key.strip().removeprefix("export ").strip(), value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        os.environ.setdefault(key, value)


env_file_read(Path(os.environ.get("KYOKU_ENV_FILE", BASE_DIR / ".env")))

DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError(
            "SECRET_KEY must be set when DEBUG is off (for development: DEBUG=1, or use ./scripts/serve and ./scripts/test)"
        )
    SECRET_KEY = "dev-only-insecure-key-" + "x" * 40
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",  # allauth's sessions page
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served locally, no CDN
    "axes",
    # accounts: sign-up, email verification, password reset and change, email change, sessions,
    # two factors (django-allauth; accounts/ holds the adapter and the templates' glue)
    "allauth",
    "allauth.account",
    "allauth.mfa",
    "allauth.usersessions",
    "accounts",
    "kyoku",
    "league",
    "scoring",
    "referee",
    "ratings",
    "matchdays",
    "online",
    "events",
    "stats",
    "notifications",
    "people",
    "live",  # live push: Server-Sent Events for the board, tables, desk and inbox (issue 49)
    "demo",  # seed_demo: loads every app's demo data, so it sits above them all
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # a read whose database connection broke mid-request (a restart) is answered once more
    "kyoku.middleware.ReadRetryMiddleware",
    # under /api/ every answer is JSON (a 404, a 405, a 413 body, a 500): wraps all below
    "kyoku.middleware.ApiErrorsMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "notifications.shared_phone.SharedPhoneMiddleware",  # private pages never kept; logout clears (issue 47)
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "allauth.usersessions.middleware.UserSessionsMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "kyoku.middleware.RequestHardeningMiddleware",
    # kyoku.throttle.Throttled raised by a view (or a login backend) → 429 with Retry-After
    "kyoku.throttle.ThrottleMiddleware",
    # last, as django-axes asks: turns a locked-out login into its lockout response
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
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "league.context_processors.roles",
                "accounts.context_processors.second_factor",
            ],
        },
    },
]
# forms' errors summed up at their top and announced (kyoku/form_renderer.py)
FORM_RENDERER = "kyoku.form_renderer.KyokuFormRenderer"

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"
# Whether pages link their live streams (live.templatetags.live_tags): "auto" when the page itself
# is served over ASGI (./scripts/serve: one uvicorn process for everything); "on" always, for the
# production shape, whose pages come from WSGI workers while its proxy sends /live/ to the ASGI
# processes (docker-compose.yml, bench/prodshape.py); "off" never (every screen polls).
_live_streams = os.environ.get("LIVE_STREAMS", "auto").strip().lower()
LIVE_STREAMS = {"1": "on", "true": "on", "0": "off", "false": "off"}.get(_live_streams, _live_streams)
if LIVE_STREAMS not in ("auto", "on", "off"):
    raise ImproperlyConfigured(f"LIVE_STREAMS must be auto, on or off, not {_live_streams!r}")
# live push (live/): stream bounds, per process; the environment may raise them (a load test)
LIVE_STREAM_SECONDS = int(os.environ.get("LIVE_STREAM_SECONDS", "600"))  # then the browser resumes
LIVE_HEARTBEAT = int(os.environ.get("LIVE_HEARTBEAT", "15"))
LIVE_PACE = float(os.environ.get("LIVE_PACE", "1"))  # a topic goes out at most once per slot this long
LIVE_QUEUE_SIZE = 32  # messages waiting for one slow client before it is dropped
LIVE_RING_SIZE = 64  # recent messages per topic a reconnect resumes from
LIVE_MAX_STREAMS_PER_CLIENT = int(os.environ.get("LIVE_MAX_STREAMS_PER_CLIENT", "10"))  # a session
LIVE_MAX_STREAMS_PER_ADDRESS = int(os.environ.get("LIVE_MAX_STREAMS_PER_ADDRESS", "500"))  # no session
LIVE_MAX_STREAMS_PER_EVENT = int(os.environ.get("LIVE_MAX_STREAMS_PER_EVENT", "5000"))

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        # 0: a connection per request, closed at its end. Kyoku is served over ASGI (uvicorn), where
        # each request's sync code may run on a thread of its own: a kept connection would stay with
        # a thread no later request uses, and 1,000 live streams opening used up PostgreSQL's
        # connections (bench/live.py). Django's documentation says to turn persistence off under ASGI.
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "0")),
        # a kept connection is checked before a request uses it: after a database restart the
        # first request reconnects instead of failing on the dead connection
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # the same backend, waiting out a restart when it connects (kyoku/postgresql/base.py)
    DATABASES["default"]["ENGINE"] = "kyoku.postgresql"
    # DB_POOL_SIZE > 0: each web process keeps a pool of at most that many connections (Django's
    # "pool" option, psycopg_pool), and a request waits up to DB_POOL_TIMEOUT seconds for one
    # instead of opening its own. Under ASGI every request may run on a thread of its own: without
    # a bound, 3,000 live screens opening at once asked PostgreSQL for more connections than it
    # has (bench/live.py: 503s). The production shape sets it (docker-compose.yml); size
    # max_connections to DB_POOL_SIZE x web processes + the workers' own.
    _pool_size = int(os.environ.get("DB_POOL_SIZE", "0"))
    if _pool_size > 0:
        # Django's pool requires CONN_MAX_AGE 0; CONN_HEALTH_CHECKS (on) makes it check each connection it lends
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1,
            "max_size": _pool_size,
            "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "30")),
        }
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # The embedded default under concurrent use: WAL lets readers run beside the writer, a busy
    # timeout waits for the writer lock instead of failing at once, and IMMEDIATE transactions
    # take the write lock at BEGIN, so two writers queue instead of deadlocking on lock upgrade
    # ("database is locked" for a write that had already read).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000;",
        }
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# django-axes first: it refuses a locked-out login before the password is even checked.
# An address that failed THROTTLE "login_client" times (kyoku.throttle.LIMITS: 50 in 15 minutes),
# whatever the usernames, is refused 429 before that.
AUTHENTICATION_BACKENDS = [
    "kyoku.throttle.LoginAddressThrottleBackend",
    "axes.backends.AxesStandaloneBackend",
    # the sign-in form (username or email): django-allauth
    "allauth.account.auth_backends.AuthenticationBackend",
    # /admin/login/ and POST /api/auth/token/ (by username)
    "django.contrib.auth.backends.ModelBackend",
]
# Brute-force protection on every login path (/accounts/login/, /admin/login/, /api/auth/token/):
# after AXES_FAILURE_LIMIT failures for one username from one address, that pair is locked out
# for AXES_COOLOFF_MINUTES; a success resets the count.
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = int(os.environ.get("AXES_COOLOFF_MINUTES", "15")) / 60  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
AXES_HTTP_RESPONSE_CODE = 429
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# The client's address, for axes and for kyoku.throttle alike (kyoku.throttle.client_address):
# REMOTE_ADDR, or behind a TLS proxy (BEHIND_PROXY) the X-Forwarded-For entry that proxy added,
# PROXY_COUNT hops from the right (entries further left are whatever the client sent).
# (django-ipware is not installed, so axes' own AXES_IPWARE_* settings would be ignored.)
BEHIND_PROXY = env_bool("BEHIND_PROXY")
PROXY_COUNT = int(os.environ.get("PROXY_COUNT", "1"))
AXES_CLIENT_IP_CALLABLE = "kyoku.throttle.client_ip"
# One lock per account whatever the form: allauth's "login" (a username or an email), the admin's
# and the token API's "username" all resolve to the account's username (accounts.axes).
AXES_USERNAME_FORM_FIELD = "login"
AXES_USERNAME_CALLABLE = "accounts.axes.axes_username"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("zh-hant", _("Traditional Chinese")), ("ja", _("Japanese"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Asia/Hong_Kong")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
# Qualification evidence and other uploads are private: outside MEDIA_ROOT, never served as
# static files, only through views that authorize the reader (kyoku.uploads).
PRIVATE_MEDIA_ROOT = Path(os.environ.get("PRIVATE_MEDIA_ROOT", BASE_DIR / "private"))
EVIDENCE_MAX_BYTES = int(os.environ.get("EVIDENCE_MAX_BYTES", str(10 * 1024 * 1024)))
API_MAX_BODY_BYTES = int(os.environ.get("API_MAX_BODY_BYTES", str(5 * 1024 * 1024)))
DATA_UPLOAD_MAX_MEMORY_SIZE = API_MAX_BODY_BYTES

# Content-Security-Policy on every page (django-csp): scripts only from this site (inline
# scripts carry the per-request nonce), no plugins, no framing, forms post only here.
from csp.constants import NONCE, NONE, SELF  # noqa: E402

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, "'unsafe-inline'"],  # style attributes only; no script can run from them
        "img-src": [SELF, "data:"],
        "font-src": [SELF, "data:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    },
}

# Engine processes for re-settling a whole season (scoring.parallel); 0 = one per CPU core (up to 8).
RESETTLE_WORKERS = int(os.environ.get("RESETTLE_WORKERS", "0"))

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# ---------------------------------------------------------------- accounts (django-allauth)
# Sign in by username or email; sign up with an email that is verified before the first sign-in;
# each email belongs to one account. Existing accounts got a verified address from their email
# (accounts migration 0001); an account with no email at all signs in by username
# (accounts.adapter.EmailVerificationStage).
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
# No enumeration oracle: a sign-up with an email another account holds is answered as any sign-up
# is ("we sent you a link"), writes nothing, and the holder of that address gets the refusal in
# words by email ("an account with this address already exists: sign in or reset the password");
# a password reset for an unknown address is answered alike. Whoever owns the address learns it;
# a stranger typing addresses learns nothing.
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_EMAIL_NOTIFICATIONS = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = False
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_PASSWORD_RESET_BY_CODE_ENABLED = False  # a link in the email
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "http" if DEBUG else "https"
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Kyoku] "
ACCOUNT_REAUTHENTICATION_TIMEOUT = 600
# allauth's own limits, answered with the 429 page (config.urls handler429). Failed sign-ins are
# limited by django-axes (username and address) and kyoku.throttle (address), as on every login
# path, so allauth's per-account "login_failed" limit (which a stranger could use to lock an
# account out from anywhere) is off and its "login" rate sits above kyoku's address throttle.
ACCOUNT_RATE_LIMITS = {
    "login": "100/m/ip",
    "login_failed": None,
    "signup": "20/m/ip",
    "reset_password": "20/m/ip,5/m/key",
    "reset_password_from_key": "20/m/ip",
    "confirm_email": "1/3m/key",
    "change_password": "5/m/user",
    "manage_email": "10/m/user",
    "reauthenticate": "10/m/user",
}
# Two factors: an authenticator app (TOTP) with recovery codes. A league may require one of its
# admins, referees and directors (League.requires_second_factor, kyoku.second_factor).
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes"]
MFA_TOTP_ISSUER = "Kyoku"
MFA_PASSKEY_LOGIN_ENABLED = False
# a session is recorded when it signs in; not touched again on every request (a write each time)
USERSESSIONS_TRACK_ACTIVITY = False

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    # a Redis that is down is a cold cache, not an error (kyoku/cache.py); fail fast, not after 20 s
    CACHES = {
        "default": {
            "BACKEND": "kyoku.cache.DegradingRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True  # no broker: run tasks in-process
CELERY_TASK_EAGER_PROPAGATES = True
# A request that queues a task must not wait on a Redis that is down: the publish fails at once
# (one connection attempt of at most 1 s, no retry: kombu's default retries for 2 s) and the task
# runs in-process (ratings.receivers.task_enqueue). The worker reconnects by its own loop.
CELERY_BROKER_CONNECTION_TIMEOUT = 1.0
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 1.0, "max_retries": 0}
# No caller reads a task's return value (the database holds what a task did). A stored result
# would also make every queueing subscribe to its result in Redis first, which with Redis down
# retries for 20 s inside the request. A task whose value is read says ignore_result=False.
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TIMEZONE = TIME_ZONE
NOTIFY_SWEEP_EVERY = float(os.environ.get("NOTIFY_SWEEP_EVERY", "60"))  # seconds (bench/faults.py sets less)
CELERY_BEAT_SCHEDULE = {
    # A nightly full recompute guards against any missed on_commit hook.
    "standings-full-recompute": {"task": "league.tasks.standings_recompute_all", "schedule": 24 * 3600},
    # notifications: what is due and not sent (a broker that was down, a dead sender) goes now
    "notifications-sweep": {"task": "notifications.tasks.deliveries_sweep", "schedule": NOTIFY_SWEEP_EVERY},
    # "your round starts in N minutes": every seated player of a start due within the window, once
    "notifications-reminders": {"task": "notifications.tasks.reminders_scan", "schedule": 60},
}

# Starting a league in the app (league.services.leagues): "approval" keeps a new league pending
# until a superuser approves it at /leagues/requests/; "open" lets any signed-in person start one.
LEAGUE_START = os.environ.get("LEAGUE_START", "open" if DEBUG else "approval").strip().lower()
if LEAGUE_START not in ("open", "approval"):
    raise RuntimeError('LEAGUE_START is "open" or "approval"')

# Notifications (notifications/): email through Django's mail framework, Web Push with VAPID,
# a league's public channels through Apprise. Links in what is sent start with SITE_URL.
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if os.environ.get("EMAIL_HOST")
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "10"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Kyoku <kyoku@localhost>")
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "")
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:kyoku@localhost")
PUSH_HTTP_ENDPOINTS = DEBUG  # a push service on plain http (a local one in development) only in DEBUG
# networks the server may post to although not public (notifications.outbound): the operator's
# exception (a league's Mattermost on the LAN), never a league admin's; comma-separated CIDRs
OUTBOUND_ALLOWED_NETWORKS = env_list("OUTBOUND_ALLOWED_NETWORKS")
NOTIFY_RATE_EMAIL = int(os.environ.get("NOTIFY_RATE_EMAIL", "300"))  # per league, per minute
NOTIFY_RATE_PUSH = int(os.environ.get("NOTIFY_RATE_PUSH", "600"))  # per league, per minute
NOTIFY_RATE_LEAGUE_CHANNEL = int(os.environ.get("NOTIFY_RATE_LEAGUE_CHANNEL", "30"))  # per channel, per hour
# "your round starts in N minutes" (notifications.reminders): N
NOTIFY_START_REMINDER_MINUTES = int(os.environ.get("NOTIFY_START_REMINDER_MINUTES", "15"))
# seconds before a failed send is tried again, doubled each time up to an hour (bench/faults.py sets less)
NOTIFY_BACKOFF_FIRST = int(os.environ.get("NOTIFY_BACKOFF_FIRST", "30"))

# Backups keep datetimes to the microsecond (Django's json format rounds to milliseconds).
SERIALIZATION_MODULES = {"exact_json": "kyoku.exact_json"}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["kyoku.api_access.DeclaredAccess"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "kyoku.pagination.BoundedLimitOffsetPagination",
    "DEFAULT_PARSER_CLASSES": [
        "kyoku.parsers.SafeJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "PAGE_SIZE": 100,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "kyoku.errors.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Kyoku API",
    "DESCRIPTION": "Mahjong league: seasons, standings, results, settlements and rulings.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # several models have a "status" of their own: name each enum after its model
    "ENUM_NAME_OVERRIDES": {
        "SeasonStatusEnum": "league.models.Season.Status",
        "ApplicationStatusEnum": "league.models.QualificationApplication.Status",
        "GameStatusEnum": "league.models.Game.Status",
        "MatchDayStatusEnum": "matchdays.models.MatchDay.Status",
        "AttendanceStatusEnum": "matchdays.models.Attendance.Status",
        "IncidentStatusEnum": "referee.models.Incident.Status",
        "AppealStatusEnum": "referee.models.Appeal.Status",
    },
}

# Production hardening: on unless DEBUG.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"celery": {"level": os.environ.get("CELERY_LOG_LEVEL", "WARNING")}},
}
