"""Settings, all read from the environment through one ``env`` object.

Production is the default: ``DEBUG`` is off, cookies are secure, HSTS is on and
``SECRET_KEY`` must be given. ``DEBUG=true`` (what ``./dev.py serve`` sets)
switches to a local setup. Without ``DATABASE_URL`` the site uses SQLite, and
without ``CELERY_BROKER_URL`` kombu's ``filesystem://`` transport, so it runs on
a machine that has nothing but Python.
"""

from datetime import timedelta
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

from durak_site.addresses import trusted_proxies

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
if (BASE_DIR / ".env").is_file():
    env.read_env(BASE_DIR / ".env")

DEBUG = env.bool("DEBUG", default=False)

if DEBUG:
    SECRET_KEY = env.str("SECRET_KEY", default="django-insecure-dev-only-key-never-use-in-production")
else:
    try:
        SECRET_KEY = env.str("SECRET_KEY")
    except ImproperlyConfigured as error:
        raise ImproperlyConfigured("Set SECRET_KEY (or DEBUG=true for local development).") from error

# The reverse proxies (addresses or CIDR networks) whose X-Forwarded-For says whom a request is from;
# none by default: the connection's address is the client's. Every per-address limit reads it
# through durak_site.addresses.client_address; gunicorn.conf.py and the Procfile give the web server
# the same list.
TRUSTED_PROXIES = trusted_proxies(env)

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "moderation.apps.ModerationAdminConfig",  # django.contrib.admin, moderators only
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "allauth",
    "allauth.account",
    "django_htmx",
    "template_partials",
    "django_celery_beat",
    "accounts",
    "games",
    "guide",
    "notifications",
    "stats",
    "series",
    "replays",
    "rest_framework",
    "knox",  # API tokens, stored as digests (accounts.ApiToken)
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "api",
    "axes",
    "chat",
    "moderation",
    "matchmaking",
    "club",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages compressed (gzip), not static files (whitenoise answers them above) nor streams, and
    # with care for BREACH: durak_site.compression, docs/security.md.
    "durak_site.compression.CompressionMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "durak_site.middleware.ControlCharacterMiddleware",  # control characters in a URL, NUL in a form: 400
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "durak_site.offline.ReaderMiddleware",  # whose pages the service worker may keep (X-Durak-Reader)
    "durak_site.dates.ReaderTimeZoneMiddleware",  # the reader's time zone for every moment shown
    "accounts.middleware.UserLanguageMiddleware",
    "accounts.presence.PresenceMiddleware",  # last_active_at, at most once a minute per player
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
    "durak_site.middleware.LostRaceMiddleware",  # a unique constraint's refusal (a lost race): 409
    "durak_site.middleware.DatabaseUnavailableMiddleware",  # last: a view's lost database is a 503
]

ROOT_URLCONF = "durak_site.urls"
WSGI_APPLICATION = "durak_site.wsgi.application"
ASGI_APPLICATION = "durak_site.asgi.application"

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
                "notifications.context_processors.bell",
                "games.context_processors.turns",  # games waiting for the user's move (header, title)
                "durak_site.live.page",  # the live stream's attributes on <body>
                "durak_site.descriptions.page",  # the page's <meta name="description">
            ],
        },
    },
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Web, worker and beat share the file: wait for locks instead of failing at once, and keep a
    # write-ahead log so that pages read while the worker writes (readers never wait for writers).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"}
    )
else:
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    if env.bool("DATABASE_POOL", default=False):
        # On by default under ASGI (durak_site.asgi), where each request's synchronous code runs
        # in a thread of its own that a kept connection would not outlive: the web process
        # borrows connections from a pool of at most DATABASE_POOL_SIZE, and a request that
        # finds none free within DATABASE_POOL_TIMEOUT seconds gets the 503 "try again".
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1,
            "max_size": env.int("DATABASE_POOL_SIZE", default=10),
            "timeout": env.float("DATABASE_POOL_TIMEOUT", default=3.0),
        }
    else:
        DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=60)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# axes first: it refuses log-ins while an address is locked out; the other two are Django's
# and allauth's, refusing suspended users (moderation.backends).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "moderation.backends.ModelBackend",
    "moderation.backends.AllauthBackend",
]

LANGUAGE_CODE = "en"
TIME_ZONE = env.str("TIME_ZONE", default="UTC")
USE_I18N = True
LANGUAGES = [("en", "English"), ("ru", "Русский")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Accounts (django-allauth): sign up with a username and an email address,
# log in with either; the address is confirmed by email.
LOGIN_REDIRECT_URL = "games:lobby"
ACCOUNT_LOGOUT_REDIRECT_URL = "games:lobby"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
# In production nobody logs in before confirming their address (an address is how a
# forgotten password comes back); DEBUG lets a developer skip the email.
ACCOUNT_EMAIL_VERIFICATION = env.str(
    "ACCOUNT_EMAIL_VERIFICATION", default="optional" if DEBUG else "mandatory"
)
ACCOUNT_UNIQUE_EMAIL = True
# Confirming the address in the browser that signed up signs the newcomer in (allauth does
# this only in that session: a confirmation link opened elsewhere still asks for the password).
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
# The client address for allauth's rate limits (log-in, sign-up, password reset) is ours.
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
# Tells a suspended user why and until when, once their password is right.
ACCOUNT_FORMS = {"login": "moderation.forms.LoginForm"}
# Sign-up asks for the time zone too, proposed from the browser (a choice of the IANA zones).
ACCOUNT_SIGNUP_FORM_CLASS = "accounts.forms.SignupTimeZoneForm"

# Failed log-ins (site, admin and API token) are rate-limited by django-axes: after
# AXES_FAILURE_LIMIT failures for one account (its user name or e-mail address, in any case:
# accounts.lockout) from one address, that pair is locked out for AXES_COOLOFF_MINUTES (HTTP 429).
# The admin has no log-in form of its own.
AXES_ENABLED = env.bool("AXES_ENABLED", default=True)
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = env.float("AXES_COOLOFF_MINUTES", default=15.0) / 60
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_USERNAME_CALLABLE = "accounts.lockout.axes_username"
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "durak_site.addresses.client_address"
# The lockout answer: a page in the site's layout saying when to retry (JSON for the API), still a 429.
AXES_LOCKOUT_CALLABLE = "accounts.lockout_page.lockout_response"

vars().update(env.email_url("EMAIL_URL", default="consolemail://"))
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="durak <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# What this site's keys and pub/sub channel in Redis start with (none by default): sites, or test
# runs, that share one Redis server each name their own and never read, clear or hear another's.
# The cache's keys, the API's wait slots, the live pages' channel; the Celery broker has its own
# CELERY_REDIS_KEY_PREFIX (default: this one).
REDIS_NAMESPACE = env.str("REDIS_NAMESPACE", default="")

# Celery. The filesystem transport needs no server; it loses ETA messages on a
# hard kill, which the periodic timeout sweep (issue 4) makes good.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="filesystem://")
if CELERY_BROKER_URL.startswith("filesystem://"):
    _broker_dir = Path(env.str("CELERY_FILESYSTEM_DIR", default=str(BASE_DIR / ".celery")))
    for _sub in ("queue", "processed", "control"):
        (_broker_dir / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "queue"),
        "data_folder_out": str(_broker_dir / "queue"),
        "processed_folder": str(_broker_dir / "processed"),
        "control_folder": str(_broker_dir / "control"),
        "store_processed": False,
        # kombu looks into the folder this often when it finds nothing to take. Its default, a
        # second, delays every message by up to that and held a busy worker to a message or two a
        # second (it waits a poll each time its prefetch slots are full): timeouts came seconds late.
        "polling_interval": 0.1,
    }
    # kombu's transport, except that a message file appears only once it is whole (a worker
    # polling this often would otherwise read half-written ones and stop).
    from durak_site.filesystem_broker import use_for_filesystem_urls

    use_for_filesystem_urls()
elif CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "socket_connect_timeout": env.float("CELERY_BROKER_CONNECTION_TIMEOUT", default=2.0),
        # Every broker key under this prefix (kombu's, none by default): processes sharing one
        # Redis database with another prefix never take each other's messages (the tests do).
        "global_keyprefix": env.str(
            "CELERY_REDIS_KEY_PREFIX", default=f"{REDIS_NAMESPACE}:" if REDIS_NAMESPACE else ""
        ),
    }
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
# A broker that is down must not hold up a move: a publish gives up after a short connect timeout
# and one quick retry, ``durak_site.celery.publish_on_commit`` logs the failure and the request
# carries on, and beat's sweeps catch up on what was not queued (timeouts, bot moves, emails).
CELERY_BROKER_CONNECTION_TIMEOUT = env.float("CELERY_BROKER_CONNECTION_TIMEOUT", default=2.0)
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# Beat wakes at least this often (DatabaseScheduler's default, 5 s, sent the sweep up to that late).
CELERY_BEAT_MAX_LOOP_INTERVAL = 1

# Time controls (issue 4). Every move schedules an ETA task for the next deadline when it is at
# most TIMEOUT_ETA_HORIZON_SECONDS away (longer ETAs would sit in a worker's memory for days);
# beat runs the sweep every TIMEOUT_SWEEP_SECONDS, which catches every deadline an ETA task
# missed (lost message, killed worker, far deadline), so a timeout is late by at most that.
TIMEOUT_SWEEP_SECONDS = env.int("TIMEOUT_SWEEP_SECONDS", default=5)
TIMEOUT_ETA_HORIZON_SECONDS = env.int("TIMEOUT_ETA_HORIZON_SECONDS", default=600)
# Each sweep also re-queues the ETA tasks of deadlines due before the next sweep, and when many
# games are overdue at once it queues up to this many helper tasks that time them out side by side.
TIMEOUT_SWEEP_HELPERS = env.int("TIMEOUT_SWEEP_HELPERS", default=3)
# Off only to measure the sweep's catch-up alone (benchmarks/timeouts.py).
TIMEOUT_SWEEP_REARM = env.bool("TIMEOUT_SWEEP_REARM", default=True)
# Computer players (issue 11, games.bots): a bot moves this long after the change that gave it
# the turn, the search bot thinks BOT_SEARCH_SECONDS of CPU a move, and the sweep re-queues a
# bot's move once a game has waited for it BOT_STALLED_SECONDS (its task was lost).
BOT_MOVE_DELAY_SECONDS = env.float("BOT_MOVE_DELAY_SECONDS", default=1.5)
BOT_SEARCH_SECONDS = env.float("BOT_SEARCH_SECONDS", default=1.0)
BOT_STALLED_SECONDS = env.int("BOT_STALLED_SECONDS", default=30)
# The most open and running games with computer players one player may have created at once
# (issue 28: every computer move costs the server's CPU; games.services.bot_games_left).
BOT_GAMES_PER_USER = env.int("BOT_GAMES_PER_USER", default=10)
VACATION_DAYS_PER_YEAR = env.int("VACATION_DAYS_PER_YEAR", default=14)
# The hour (in each user's time zone) after which their daily digest goes out.
DIGEST_HOUR = env.int("DIGEST_HOUR", default=8)
# Links in emails start with this.
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")
# Notification emails whose task was never queued (broker down) are sent by a beat sweep every
# NOTIFICATION_EMAIL_SWEEP_SECONDS, once they are NOTIFICATION_EMAIL_GRACE_SECONDS old.
NOTIFICATION_EMAIL_SWEEP_SECONDS = env.int("NOTIFICATION_EMAIL_SWEEP_SECONDS", default=60)
NOTIFICATION_EMAIL_GRACE_SECONDS = env.int("NOTIFICATION_EMAIL_GRACE_SECONDS", default=60)
# Quiet and coalesced notifications (notifications.policy): no email or push for a game the player
# has open or was active in during the last NOTIFY_QUIET_MINUTES (its page's polls and stream mark
# the seat seen), and each email or push waits NOTIFY_COALESCE_SECONDS before it is decided, so
# the "your move"s of several games go out as one message.
NOTIFY_QUIET_MINUTES = env.float("NOTIFY_QUIET_MINUTES", default=3)
NOTIFY_COALESCE_SECONDS = env.float("NOTIFY_COALESCE_SECONDS", default=60)
# Web push (notifications.push): the site's VAPID key pair (RFC 8292; `manage.py make_vapid_keys`
# makes one) and a contact for the push services. Without both keys push is off. Pushes go only
# to endpoints at WEB_PUSH_SERVICES (origins; "*." matches any subdomain), the browsers' own push
# services: a subscription is a URL the browser hands over, and the worker must not be made to
# post to any other server.
VAPID_PUBLIC_KEY = env.str("VAPID_PUBLIC_KEY", default="")
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", default="")
VAPID_SUBJECT = env.str("VAPID_SUBJECT", default="mailto:admin@localhost")
WEB_PUSH_SERVICES = env.list(
    "WEB_PUSH_SERVICES",
    default=[
        "https://fcm.googleapis.com",  # Chrome, Android, and the browsers built on Chromium
        "https://updates.push.services.mozilla.com",  # Firefox
        "https://web.push.apple.com",  # Safari, and iOS 16.4+ home-screen apps
        "https://*.notify.windows.com",  # Edge
    ],
)
# Play now (matchmaking): beat pairs the queue and lets computer players in where a wait is over
# every MATCHMAKING_SWEEP_SECONDS (each join pairs at once, and each wait queues its own sweep too).
MATCHMAKING_SWEEP_SECONDS = env.int("MATCHMAKING_SWEEP_SECONDS", default=5)
# django-celery-beat's DatabaseScheduler copies these entries into its tables when beat starts.
# Tournaments (issue 31): beat starts them, opens their rounds and finishes them this often; a
# tournament game's end also queues its step at once, so this is the net, not the pace.
TOURNAMENT_SWEEP_SECONDS = env.int("TOURNAMENT_SWEEP_SECONDS", default=5)
# The shortest scheduled round a live tournament may have (the create form offers 5 minutes and up).
TOURNAMENT_MIN_ROUND_SECONDS = env.int("TOURNAMENT_MIN_ROUND_SECONDS", default=60)

CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {
        "task": "games.tasks.sweep_deadlines",
        "schedule": float(max(TIMEOUT_SWEEP_SECONDS, 1)),
        "options": {"expires": float(max(TIMEOUT_SWEEP_SECONDS, 1))},
    },
    "send-digests": {
        "task": "notifications.tasks.send_digests",
        "schedule": 600.0,
        "options": {"expires": 600.0},
    },
    "send-pending-emails": {
        "task": "notifications.tasks.send_pending_emails",
        "schedule": float(NOTIFICATION_EMAIL_SWEEP_SECONDS),
        "options": {"expires": float(NOTIFICATION_EMAIL_SWEEP_SECONDS)},
    },
    "sweep-tournaments": {
        "task": "tournaments.tasks.sweep_tournaments",
        "schedule": float(max(TOURNAMENT_SWEEP_SECONDS, 1)),
        "options": {"expires": float(max(TOURNAMENT_SWEEP_SECONDS, 1))},
    },
    "sweep-play-now": {
        "task": "matchmaking.tasks.sweep_queue",
        "schedule": float(max(MATCHMAKING_SWEEP_SECONDS, 1)),
        "options": {"expires": float(max(MATCHMAKING_SWEEP_SECONDS, 1))},
    },
}

# How often an open game page asks whether anything changed.
GAME_POLL_SECONDS = env.int("GAME_POLL_SECONDS", default=2)

# A cache shared by every process (web workers, Celery): set CACHE_URL to a Redis database, e.g.
# redis://127.0.0.1:6379/1. It carries the API throttles' counters across workers and each game's
# version, so a table poll that finds nothing new answers from the cache without a query
# (games.versions; trusted GAME_VERSION_CACHE_SECONDS at most). Without it each process keeps its
# own memory cache and the polls ask the database.
CACHE_URL = env.str("CACHE_URL", default="")
if CACHE_URL:
    CACHES = {
        "default": {
            "BACKEND": "durak_site.cache.NamespacedRedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": REDIS_NAMESPACE,
            # Redis down: reads miss, writes are dropped, each logged (durak_site.cache).
            "OPTIONS": {"IGNORE_EXCEPTIONS": True, "SOCKET_CONNECT_TIMEOUT": 0.5, "SOCKET_TIMEOUT": 0.5},
        }
    }
DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True
DJANGO_REDIS_LOGGER = "durak_site.cache"
GAME_VERSION_CACHE_SECONDS = env.int("GAME_VERSION_CACHE_SECONDS", default=10 if CACHE_URL else 0)
# Who is calling, without a query on most requests (accounts.auth_cache): the session, the user's
# row and API tokens kept in that shared cache, dropped the moment they change. Only with a shared
# cache: a process's own memory would not hear of a change made in another.
AUTH_CACHE_SECONDS = env.int("AUTH_CACHE_SECONDS", default=30 if CACHE_URL else 0)
SESSION_ENGINE = (
    "django.contrib.sessions.backends.cached_db" if CACHE_URL else "django.contrib.sessions.backends.db"
)
# Live pages (durak_site.live): each tab holds one server-sent-events stream (django-eventstream),
# its events published on Redis pub/sub to every web process: LIVE_REDIS_URL, by default the
# shared cache's Redis; its pub/sub channel LIVE_REDIS_CHANNEL (default: one per Redis database).
# Without one, events reach only the streams of the process that sent them and pages also poll.
LIVE_REDIS_URL = env.str(
    "LIVE_REDIS_URL", default=CACHE_URL if CACHE_URL.startswith(("redis://", "rediss://", "unix://")) else ""
)
LIVE_REDIS_CHANNEL = env.str("LIVE_REDIS_CHANNEL", default="")
# Without LIVE_REDIS_URL, a folder of Unix datagram sockets carries the events between the
# processes of one machine instead (durak_site.live_sockets): by default the filesystem broker's
# live/ folder, so `dev.py serve`'s worker reaches the web process's streams; empty: off (each
# process's events reach its own streams only, and pages also poll).
LIVE_SOCKET_DIR = env.str(
    "LIVE_SOCKET_DIR",
    default=str(_broker_dir / "live") if CELERY_BROKER_URL.startswith("filesystem://") else "",
)
# How many streams one user, and one address, may hold at once (across the web processes with
# LIVE_REDIS_URL): one more ends the oldest (0: no cap). And how long one stream lasts before
# the page opens it again with its rights read anew (docs/live-streams.md).
LIVE_STREAMS_PER_USER = env.int("LIVE_STREAMS_PER_USER", default=8)
LIVE_STREAMS_PER_ADDRESS = env.int("LIVE_STREAMS_PER_ADDRESS", default=32)
LIVE_STREAM_MAX_SECONDS = env.float("LIVE_STREAM_MAX_SECONDS", default=3600.0)
# Who may read which channel (durak_site.channels). No EVENTSTREAM_STORAGE_CLASS: a page that reconnects
# asks once with the version it has, so no event is stored for replay; no EVENTSTREAM_REDIS:
# durak_site.live fans out itself (it survives a Redis restart).
EVENTSTREAM_CHANNELMANAGER_CLASS = "durak_site.channels.ChannelManager"
# Chat flood control: at most CHAT_FLOOD_MESSAGES messages per user in CHAT_FLOOD_SECONDS.
CHAT_FLOOD_MESSAGES = env.int("CHAT_FLOOD_MESSAGES", default=5)
CHAT_FLOOD_SECONDS = env.int("CHAT_FLOOD_SECONDS", default=10)

# REST API (api/): token or session auth, throttled per user and per IP, every list paginated.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.TokenAuthentication",  # knox tokens; refuses suspended users
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": ["api.parsers.LimitedJSONParser"],  # size and nesting limits
    "DEFAULT_PAGINATION_CLASS": "api.pagination.PageNumberPagination",
    "PAGE_SIZE": 20,
    "DEFAULT_THROTTLE_CLASSES": [
        "api.throttling.PerUserThrottle",
        "api.throttling.PerIPThrottle",
        "api.throttling.ScopedThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "user": env.str("API_RATE_USER", default="240/min"),
        "ip": env.str("API_RATE_IP", default="600/min"),
        "auth": env.str("API_RATE_AUTH", default="10/min"),
    },
    # The throttles key on durak_site.addresses.client_address (api.throttling); DRF's own reading
    # of X-Forwarded-For (any proxy's word, with NUM_PROXIES None) is off for anything else.
    "NUM_PROXIES": 0,
    "EXCEPTION_HANDLER": "api.exceptions.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "durak API",
    "DESCRIPTION": "Play durak through the same rules, seats and hidden information as the site's pages.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": "/api/",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "SuitEnum": "durak.SUITS",
        "FirstAttackerEnum": "api.schema.FIRST_ATTACKER_CHOICES",
        "BoutResultEnum": "api.schema.BOUT_RESULTS",
        "SeatResultEnum": "api.schema.SEAT_RESULTS",
        "GameStatusEnum": "api.schema.GAME_STATUSES",
        "TournamentStatusEnum": "tournaments.models.Tournament.Status",
    },
}
# API tokens (django-rest-knox, accounts.ApiToken): only a digest is stored; several per user,
# named, each expiring after the days asked for (API_TOKEN_DAYS when none, at most
# accounts.tokens.MAX_DAYS), at most API_TOKENS_PER_USER live at once. A password change or a
# suspension revokes them all.
KNOX_TOKEN_MODEL = "accounts.ApiToken"
# knox's own migrations would make its (swapped out) knox_authtoken table all the same: unused,
# unknown to Django, and in the way of a flush. accounts' migrations make the one in use.
MIGRATION_MODULES = {"knox": None}
REST_KNOX = {
    "TOKEN_TTL": timedelta(days=env.int("API_TOKEN_DAYS", default=90)),
    "TOKEN_LIMIT_PER_USER": env.int("API_TOKENS_PER_USER", default=20),
    "AUTH_HEADER_PREFIX": "Token",
    "AUTO_REFRESH": False,
}
# The longest a GET /api/games/{id}/wait/ holds the request open before answering "no change".
API_WAIT_SECONDS = env.float("API_WAIT_SECONDS", default=20.0)
# How many of those one user may hold at once (across the web processes with CACHE_URL): one
# more answers 429 (api.waits).
API_WAITS_PER_USER = env.int("API_WAITS_PER_USER", default=8)

# Security: strict unless DEBUG; each can be relaxed from the environment
# (for example SECURE_SSL_REDIRECT=false behind a proxy that already redirects).
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=not DEBUG)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
if env.bool("SECURE_PROXY_SSL_HEADER", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
# htmx sends the token from the page (hx-headers on <body>); no script reads the cookie.
CSRF_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"

# Content-Security-Policy (django-csp): only the site's own files run or style a page, so
# injected markup can neither run a script nor load one from elsewhere. Hence no inline
# <script>, no on*= handlers and no style= attributes in any template, and htmx's own
# indicator <style> is off (htmx-config in templates/base.html). Same for DEBUG and tests.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
