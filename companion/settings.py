"""Django settings for Companion, read from the environment (django-environ).

Embedded default: SQLite and the in-memory channel layer in one ASGI process.
Scale-out: set DATABASE_URL (PostgreSQL) and REDIS_URL (channels_redis).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import environ

from companion import lan, secret_key
from games.engines import folder, packages

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env(
    DEBUG=(bool, False),
    SECRET_KEY=(str, ""),
    COMPANION_ENV=(str, ""),
    ALLOWED_HOSTS=(list, ["127.0.0.1", "localhost", "[::1]", "testserver"]),
    DATABASE_URL=(str, f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
    REDIS_URL=(str, ""),
    CSRF_TRUSTED_ORIGINS=(list, []),
    SECURE_COOKIES=(bool, False),
    DB_POOL_MAX=(int, 20),
    STATIC_FROM_FINDERS=(bool, True),
    SERVE_HOST=(str, ""),
    PUBLIC_URL=(str, ""),
)
if (BASE_DIR / ".env").exists():
    environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env("DEBUG")
# This installation's key (companion/secret_key.py): SECRET_KEY from the environment, else one made on the first
# start and kept in DATA_DIR/secret_key (mode 0600, git-ignored). COMPANION_ENV=production refuses to start
# without a strong SECRET_KEY in the environment. Tests use their own key (also handed to the servers they start).
DATA_DIR = Path(env.str("DATA_DIR", default=str(BASE_DIR)))
PRODUCTION = env("COMPANION_ENV").strip().lower() == "production"
if "pytest" in sys.modules and not env("SECRET_KEY") and not PRODUCTION:
    os.environ["SECRET_KEY"] = "tests-only-" + "k" * 20 + "0123456789abcdefghijklmnopqrstuvwxyz"
SECRET_KEY = secret_key.installation_key(env("SECRET_KEY"), DATA_DIR, PRODUCTION)
# Earlier keys, comma-separated (docs/configuration.md "Moving a server"): cookies and export seals made under them still check.
SECRET_KEY_FALLBACKS = secret_key.fallback_keys(env.str("SECRET_KEY_FALLBACKS", default=""))
ALLOWED_HOSTS = env("ALLOWED_HOSTS")
# Phones at the table. SERVE_HOST: the address the server binds (`make run` passes its
# HOST); on every address (0.0.0.0, ::) the machine's LAN address is found (companion/lan.py, no traffic)
# and the host page's join links and QR codes use it. PUBLIC_URL (e.g. http://192.168.1.20:8000) overrides
# it. Every such address is an allowed host, so the links the app prints are ones it answers.
SERVE_HOST = env("SERVE_HOST").strip()
PUBLIC_URL = env("PUBLIC_URL").strip().rstrip("/")
if PUBLIC_URL and "://" not in PUBLIC_URL:
    PUBLIC_URL = "http://" + PUBLIC_URL  # PUBLIC_URL=192.168.1.20:8000 is read as http://192.168.1.20:8000
LAN_ADDRESS = lan.lan_address() if SERVE_HOST and lan.serves_all_addresses(SERVE_HOST) else ""
if LAN_ADDRESS and lan.is_loopback(LAN_ADDRESS):
    LAN_ADDRESS = ""  # no network: join links keep the address the host typed (and the host page warns)
ALLOWED_HOSTS += [h for h in lan.allowed_hosts(SERVE_HOST, PUBLIC_URL, LAN_ADDRESS) if h not in ALLOWED_HOSTS]
CSRF_TRUSTED_ORIGINS = env("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # ServeStatic's system checks (settings, middleware order); after daphne, whose runserver stays the one used.
    "servestatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "django_htmx",
    "games",
]
# The games: each game's folder (shelf/<slug>/) is a Django app, so its templates, stylesheet and words are found
# where Django finds an app's. The list is the registry's (games/engines/__init__.py), never written here. They come
# first: of two apps' catalogues, Django reads the one listed first, and a game's words must read as its own catalogue
# says (Django's and other apps' catalogues translate some of the same English words otherwise: "Key").
GAME_APPS = packages()
INSTALLED_APPS = [*GAME_APPS, *INSTALLED_APPS]

# Django's own middleware is listed as the subclasses of games/web/middleware.py. With INLINE_MIDDLEWARE_HOOKS on
# (the default) their hooks run in the event loop under ASGI; off, they behave as Django's own classes, and Django
# hops to a thread and back for each hook of each of them, on every request.
INLINE_MIDDLEWARE_HOOKS = env.bool("INLINE_MIDDLEWARE_HOOKS", default=True)
# GC_TUNING: the ASGI server process moves what start-up loaded out of the garbage collector's sight and
# collects its youngest generation less often (companion/asgi.py, tune_garbage_collector).
GC_TUNING = env.bool("GC_TUNING", default=True)
MIDDLEWARE = [
    "games.web.middleware.SecurityMiddleware",
    # Static files: ServeStatic answers them itself, precompressed once collected (make run collects them). Its
    # middleware is async only: under ASGI it streams a file through an async iterator (whitenoise's sync one made
    # Django warn on every file); the sync test client's chain reaches it through Django's async_to_sync adapter
    # (a thread and an event loop per request, about 1.5 ms: tests only, the app is served by ASGI alone).
    "servestatic.middleware.ServeStaticMiddleware",
    # Pages and API answers leave compressed (Django's GZip adds random padding against BREACH); inside
    # ServeStatic, so a static file is never recompressed as a stream.
    "games.web.middleware.GZipMiddleware",
    # Pages, fragments and API answers are one seat's own: never kept by a shared or disk cache.
    "games.web.middleware.PrivateAnswersMiddleware",
    "games.web.middleware.SessionMiddleware",
    "games.web.middleware.LocaleMiddleware",
    # Text-node digits in the phone's digit system (games/web/digits.py), with the request's language active.
    "games.web.digits.DigitsMiddleware",
    "games.web.middleware.CommonMiddleware",
    "games.web.middleware.CsrfViewMiddleware",
    "games.web.middleware.MessageMiddleware",
    "games.web.middleware.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "companion.urls"
ASGI_APPLICATION = "companion.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.messages.context_processors.messages",
                "games.web.digits.digit_system",
            ],
        },
    },
    # What phones are sent (the page's regions, each game's templates/<slug>/*.jinja): Jinja2 draws them several
    # times faster than Django's template nodes (games/web/jinja2env.py). Django pages include them with {% jinja %}.
    # Its folders: the platform's and each game's templates folder (Jinja2 has no app folders of that name).
    {
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates", *(folder(app) / "templates" for app in GAME_APPS)],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "games.web.jinja2env.environment"},
    },
]

DATABASES = {"default": env.db("DATABASE_URL")}
# Under ASGI each request's sync code runs in a thread of its own, so Django's persistent connections
# (CONN_MAX_AGE > 0) are never reused and pile up until PostgreSQL refuses clients.
# Connections close with each request instead, and on PostgreSQL they go back to psycopg's pool,
# which saves opening a fresh connection per request.
DATABASES["default"]["CONN_MAX_AGE"] = 0
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {"min_size": 1, "max_size": env("DB_POOL_MAX"),
                                                              "timeout": 10}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # Write-ahead log: phones read while a move is written.
    DATABASES["default"].setdefault("OPTIONS", {})["init_command"] = "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
    # Writers wait for the table lock instead of failing at once.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    DATABASES["default"]["OPTIONS"].setdefault("transaction_mode", "IMMEDIATE")
    # A file, not shared-cache memory: concurrent writers then wait on the lock (busy timeout)
    # instead of failing with "table is locked", as they do in production.
    # One file per test process, so two test runs on one machine never share (and delete) it.
    DATABASES["default"]["TEST"] = {"NAME": str(Path(tempfile.gettempdir()) / f"companion-test-{os.getpid()}.sqlite3")}

# Scale-out: channels_redis's pub/sub layer. A move is one PUBLISH to its table's group; each worker holds one
# subscription per group its sockets joined and hands the message to those sockets in memory, so Redis does
# one thing per move whatever the number of phones. A message published while a worker's subscription is
# down is not kept for it: its phones catch up on a heartbeat (games/socket/consumers.py HEARTBEAT_CHECK),
# as after any lost push (DESIGN.md "Pages and sync"). ``socket_timeout`` ends a read from a frozen Redis;
# a move's broadcast waits for it at most BROADCAST_TIMEOUT (games/write/write_path.py).
REDIS_LAYER_SOCKET_TIMEOUT = 5.0
if env("REDIS_URL"):
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": env("REDIS_URL"), "socket_timeout": REDIS_LAYER_SOCKET_TIMEOUT,
                                  "socket_connect_timeout": REDIS_LAYER_SOCKET_TIMEOUT}]},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "companion.channel_layer.SweepingInMemoryChannelLayer"}}

# Table snapshots, shared by every phone of a table (games/read/snapshots.py):
# this process's memory in the embedded default, Redis (shared by every worker) when REDIS_URL is set.
if env("REDIS_URL"):
    # A frozen Redis must not hold a move: each call gives up after 0.5 s and the worker then leaves the
    # cache alone for a few seconds (games/read/snapshots.py shared_get), building snapshots from the database.
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": env("REDIS_URL"),
                          "KEY_PREFIX": "companion", "TIMEOUT": 600,
                          "OPTIONS": {"socket_timeout": 0.5, "socket_connect_timeout": 0.5}}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "companion",
                          "OPTIONS": {"MAX_ENTRIES": 5000}}}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fa", "فارسی"), ("az", "Azərbaycanca"), ("ps", "پښتو")]
LANGUAGES_BIDI = ["fa", "ps", "ar", "he", "ur"]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["companion.formats"]  # Pashto date formats (Django ships none: English "a.m." otherwise)
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # collectstatic minifies the app's own scripts and style sheets, then writes a .gz and a .br beside each file.
    "staticfiles": {"BACKEND": "companion.static_files.MinifiedCompressedStaticFilesStorage"},
}
# Tests and development serve static files straight from the app folders; `make run` (and the bench)
# serve the collected copy, which ServeStatic has precompressed (finder files would shadow it).
SERVESTATIC_USE_FINDERS = env("STATIC_FROM_FINDERS")

SESSION_COOKIE_HTTPONLY = True
SECURE_COOKIES = env("SECURE_COOKIES")  # set true behind HTTPS
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = SECURE_COOKIES
SEAT_COOKIE_MAX_AGE = 60 * 60 * 24 * 30  # seconds: a seat cookie lasts a month

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": [],
    "UNAUTHENTICATED_USER": None,
    "EXCEPTION_HANDLER": "games.api.errors.exception_handler",
    "DEFAULT_PARSER_CLASSES": ["games.api.parsers.SafeJSONParser"],
    # A refusal's message in one digit system (the asker's): games/api/renderers.py.
    "DEFAULT_RENDERER_CLASSES": ["games.api.renderers.MessageDigitsJSONRenderer",
                                 "rest_framework.renderers.BrowsableAPIRenderer"],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Companion API",
    "DESCRIPTION": "Referee physical board games from phones: tables, seats, prompts, actions, log.",
    "VERSION": "1.0.0",
    # Swagger UI served from this server (drf-spectacular-sidecar), so the docs work without internet.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}

# -- Strict input and lesser doors ---------------------------------------
# NUL characters and bodies over the limit are refused with a 4xx {code, message} (games/web/middleware.py).
MIDDLEWARE.insert(MIDDLEWARE.index("games.web.middleware.LocaleMiddleware") + 1,
                  "games.web.middleware.InputGuardMiddleware")
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=1024 * 1024)  # bytes of a non-file body
DATA_UPLOAD_MAX_NUMBER_FIELDS = env.int("DATA_UPLOAD_MAX_NUMBER_FIELDS", default=4000)
# An exported game file: at most IMPORT_MAX_BYTES on the import page and as the API's import body alike
# (a long game is ~300 KB); the API path gets this limit instead of DATA_UPLOAD_MAX_MEMORY_SIZE.
IMPORT_MAX_BYTES = env.int("IMPORT_MAX_BYTES", default=2 * 1024 * 1024)
BODY_LIMITS = {"/api/imports/": IMPORT_MAX_BYTES}
# Throttles of the public API endpoints, per client address (games/api/throttles.py). Generous: a café of 50
# tables of 4 phones behind one address stays far below them. Set e.g. API_THROTTLE_TABLE=100/min. The address
# is the socket's unless TRUSTED_PROXIES says how many proxies stand in front (then the address the nearest of
# them saw, from X-Forwarded-For); a header sent by the client itself is never believed. The counters are shared
# by every worker in Redis when REDIS_URL is set (a worker counts in its own memory while Redis fails).
TRUSTED_PROXIES = env.int("TRUSTED_PROXIES", default=0)
CACHES["throttle-local"] = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                            "LOCATION": "companion-throttle"}
CACHES["throttle"] = ({**CACHES["default"], "KEY_PREFIX": "companion-throttle"} if env("REDIS_URL")
                      else CACHES["throttle-local"])
REST_FRAMEWORK["NUM_PROXIES"] = TRUSTED_PROXIES
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] = {
    "create_table": env.str("API_THROTTLE_CREATE", default="600/min"),
    "claim": env.str("API_THROTTLE_CLAIM", default="1200/min"),
    "table": env.str("API_THROTTLE_TABLE", default="20000/min"),
}
# The API's security schemes, as the OpenAPI schema states them (games/api/views.py names them per endpoint).
SPECTACULAR_SETTINGS["APPEND_COMPONENTS"] = {"securitySchemes": {
    "seatToken": {"type": "http", "scheme": "bearer", "description": "A seat's secret (from table creation or claim)."},
    "seatCookie": {"type": "apiKey", "in": "cookie", "name": "seat_<CODE>",
                   "description": "The phone's signed seat cookie; writes must come from this site (Origin)."},
    "hostToken": {"type": "apiKey", "in": "header", "name": "X-Host-Token", "description": "The host secret."},
    "hostCookie": {"type": "apiKey", "in": "cookie", "name": "host_<CODE>",
                   "description": "The host's signed cookie; writes must come from this site (Origin)."},
}}
SPECTACULAR_SETTINGS["SECURITY"] = []
