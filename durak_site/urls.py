from django.contrib import admin
from django.urls import include, path

from matchmaking import api as matchmaking_api
from notifications import views as notification_views

from . import live, views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    # At the root: a service worker controls only the paths under its own URL.
    path("sw.js", notification_views.service_worker, name="service_worker"),
    path("manifest.webmanifest", notification_views.manifest, name="manifest"),
    path("offline/", views.offline, name="offline"),  # what the service worker shows offline
    path("live/", live.events, name="live"),  # each page's server-sent events
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),  # API tokens; the rest of accounts/ is allauth
    path("accounts/", include("allauth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),  # set_language: the language switcher posts here
    # Play now's API (/api/queue/) is matchmaking's, built on api/'s helpers: mounted here, so that
    # api/ never imports an app above it.
    path("api/queue/", matchmaking_api.QueueView.as_view(), name="api_queue"),
    path("api/", include("api.urls")),
    path("notifications/", include("notifications.urls")),
    path("reports/", include("moderation.urls")),
    path("", include("club.urls")),  # /friends/
    path("", include("tournaments.urls")),  # /tournaments/
    path("", include("chat.urls")),
    path("", include("stats.urls")),
    path("", include("series.urls")),
    path("", include("replays.urls")),
    path("", include("guide.urls")),
    path("", include("matchmaking.urls")),  # play now: /play/
    path("", include("games.urls")),
]

# A lost database raised outside any view is still a 503 "try again" (durak_site.middleware).
handler500 = "durak_site.middleware.server_error"
# A request Django refuses (SuspiciousOperation) is a 400 in the API's JSON under /api/.
handler400 = "durak_site.middleware.bad_request"
