"""The bell's list page, marking read, and the settings page (what to receive, time zone,
vacation). Thin: services do the writes."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.forms import TurnSoundForm
from accounts.middleware import set_language_cookie
from accounts.models import User
from games import timeouts

from . import services
from .forms import PreferencesForm, TimeZoneForm
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
    return render(request, "notifications/list.html", {"notifications": notifications})


@require_POST
@login_required
def notification_read(request: HttpRequest, notification_id: int) -> HttpResponse:
    notification = get_object_or_404(Notification, pk=notification_id, user=_user(request))
    services.mark_read(user=_user(request), notification_id=notification.pk)
    if request.POST.get("open") and notification.game_id:
        return redirect("games:detail", game_id=notification.game_id)
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
        if prefs_form.is_valid() and tz_form.is_valid() and sound_form.is_valid():
            prefs_form.save()
            tz_form.save()
            sound_form.save()
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
    context = {
        "prefs_form": prefs_form,
        "tz_form": tz_form,
        "sound_form": sound_form,
        "vacations": user.vacations.filter(ends_on__gte=timeouts.local_today(user)),
        "vacation_days_left": timeouts.vacation_days_left(user),
        "today": timeouts.local_today(user),
    }
    return render(request, "notifications/settings.html", context)
