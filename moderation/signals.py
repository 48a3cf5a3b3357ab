"""Remember each log-in's session, so that a suspension can end it (``services.user_suspend``)."""

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from .models import LoginSession


@receiver(user_logged_in, dispatch_uid="moderation_record_login_session")
def record_login_session(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    session = getattr(request, "session", None)
    if session is None:
        return
    if session.session_key is None:
        session.save()
    LoginSession.objects.create(user=user, session_key=session.session_key)
