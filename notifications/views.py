"""The bell's list page, marking read, and the settings page (what to receive, time zone,
vacation); the web app's manifest and service worker, and a browser's push subscription.
Thin: services do the writes."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.forms import PrivacyForm, TurnSoundForm
from accounts.middleware import set_language_cookie
from accounts.models import User
from games import timeouts

from . import push, services, vapid
from .forms import PreferencesForm, PushSubscriptionForm, TimeZoneForm
from .kinds import FRIEND_KINDS
from .links import tournament_path
from .models import Notification


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


@login_required
def notification_list(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    notifications = list(Notification.objects.filter(user=user)[:100])
    for notification in notifications:
        notification.user = user  # each sentence is made for its reader: no query per row
    context = {"notifications": notifications, "friend_kinds": [str(kind) for kind in FRIEND_KINDS]}
    return render(request, "notifications/list.html", context)


@require_POST
@login_required
def notification_read(request: HttpRequest, notification_id: int) -> HttpResponse:
    notification = get_object_or_404(Notification, pk=notification_id, user=_user(request))
    services.mark_read(user=_user(request), notification_id=notification.pk)
    if request.POST.get("open") and notification.game_id:
        return redirect("games:detail", game_id=notification.game_id)
    if request.POST.get("open") and notification.tournament_id is not None:
        return redirect(tournament_path(notification.tournament_id))
    if request.POST.get("open") and notification.kind in FRIEND_KINDS:
        return redirect("club:friends")
    return redirect("notifications:list")


@require_POST
@login_required
def notification_read_all(request: HttpRequest) -> HttpResponse:
    services.mark_read(user=_user(request))
    return redirect("notifications:list")


@login_required
def notification_settings(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    prefs = services.preferences_for(user)
    if request.method == "POST":
        prefs_form = PreferencesForm(request.POST, instance=prefs)
        tz_form = TimeZoneForm(request.POST, instance=user)
        sound_form = TurnSoundForm(request.POST, instance=user)
        privacy_form = PrivacyForm(request.POST, instance=user)
        forms = (prefs_form, tz_form, sound_form, privacy_form)
        if all([form.is_valid() for form in forms]):
            for form in forms:
                form.save()
            # The next page already speaks the chosen language (LocaleMiddleware reads the cookie).
            translation.activate(user.language)
            messages.success(request, _("Settings saved."))
            response = redirect("notifications:settings")
            set_language_cookie(response, user.language)
            return response
    else:
        prefs_form = PreferencesForm(instance=prefs)
        tz_form = TimeZoneForm(instance=user)
        sound_form = TurnSoundForm(instance=user)
        privacy_form = PrivacyForm(instance=user)
    push_endpoints = list(user.push_subscriptions.values_list("endpoint", flat=True))
    context = {
        "prefs_form": prefs_form,
        "tz_form": tz_form,
        "sound_form": sound_form,
        "privacy_form": privacy_form,
        "vacations": user.vacations.filter(ends_on__gte=timeouts.local_today(user)),
        "vacation_days_left": timeouts.vacation_days_left(user),
        "today": timeouts.local_today(user),
        "push_enabled": vapid.enabled(),
        "vapid_public_key": vapid.vapid_public_key(),
        "push_endpoints": push_endpoints,
        "push_devices": len(push_endpoints),
    }
    return render(request, "notifications/settings.html", context)


@require_POST
@login_required
def push_subscribe(request: HttpRequest) -> HttpResponse:
    """Store this browser's push subscription (the settings page's script posts it)."""
    if not vapid.enabled():
        return JsonResponse({"detail": "push notifications are off on this site"}, status=409)
    form = PushSubscriptionForm(request.POST)
    if not form.is_valid():
        return JsonResponse(
            {"detail": "not a push subscription", "errors": form.errors.get_json_data()}, status=400
        )
    user = _user(request)
    try:
        push.subscribe(user=user, user_agent=request.headers.get("User-Agent", ""), **form.cleaned_data)
    except push.EndpointTaken:
        # The settings page's script then makes this browser a new subscription (push.js).
        return JsonResponse(
            {"detail": "this browser gets push notifications for another account", "code": "endpoint_taken"},
            status=409,
        )
    return JsonResponse({"devices": user.push_subscriptions.count()}, status=201)


@require_POST
@login_required
def push_unsubscribe(request: HttpRequest) -> HttpResponse:
    """Forget this browser's subscription (``endpoint``, from the script: JSON answer), or all of
    the user's browsers (the settings page's form, no script: back to the page)."""
    user = _user(request)
    if request.POST.get("all"):
        forgotten = push.unsubscribe(user=user)
        messages.success(
            request,
            _("No device of yours gets push notifications now.")
            if forgotten
            else _("No device of yours had push notifications."),
        )
        return redirect("notifications:settings")
    endpoint = request.POST.get("endpoint", "")
    if not endpoint or len(endpoint) > 1000:
        return JsonResponse({"detail": "endpoint: the subscription to forget"}, status=400)
    push.unsubscribe(user=user, endpoint=endpoint)
    return JsonResponse({"devices": user.push_subscriptions.count()})


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, at the root so that its scope is the whole site (a file under
    /static/ could only control /static/)."""
    path = finders.find("notifications/sw.js")
    if not isinstance(path, str):
        raise Http404("no service worker")
    with open(path, encoding="utf-8") as source:
        script = source.read()
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"  # a new version reaches browsers at their next visit
    return response


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest: installable, standalone, with the site's icons."""
    icons = [
        {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
        {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
        {
            "src": static("icons/icon-maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ]
    data = {
        "id": "/",
        "name": "durak online",
        "short_name": "durak",
        "description": _("Play durak, the Russian card game, with friends over hours or days."),
        "lang": translation.get_language(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#f3f1ea",
        "theme_color": "#17573a",
        "icons": icons,
    }
    response = JsonResponse(
        data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )
    response["Cache-Control"] = "no-cache"
    return response
