"""Remember each log-in's session, so that a suspension can end it (``services.user_suspend``)."""

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.dispatch import receiver
from django.utils import timezone

from .models import LoginSession


@receiver(user_logged_in, dispatch_uid="moderation_record_login_session")
def record_login_session(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    session = getattr(request, "session", None)
    if session is None:
        return
    if session.session_key is None:
        session.save()
    # Sessions older than the cookie's age have expired: forget them while we are here.
    expired = timezone.now() - timedelta(seconds=settings.SESSION_COOKIE_AGE)
    LoginSession.objects.filter(user=user, created_at__lt=expired).delete()
    LoginSession.objects.create(user=user, session_key=session.session_key)


@receiver(user_logged_out, dispatch_uid="moderation_forget_login_session")
def forget_login_session(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    session = getattr(request, "session", None)
    if user is not None and session is not None and session.session_key:
        LoginSession.objects.filter(user=user, session_key=session.session_key).delete()
