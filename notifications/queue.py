"""Queueing the app's Celery tasks after the commit, by name.

The app's modules, each importing only those beneath it::

    kinds, links → messages → models → vapid → policy → queue → push → services
        → tournament_news → tasks                    (forms, views and admin on top)

``tasks`` is the top: thin callers of the services and the push, which they import. So the
services, which queue an email's or a push's task, never import the task objects; they queue
them here, by the names ``tasks`` registers them under: ``celery.signature`` finds the task in
the app's registry when it is sent (and runs it at once under ``CELERY_TASK_ALWAYS_EAGER``, as a
direct ``apply_async`` would).

Every task waits the coalescing window (``policy.send_delay``) and decides then whether its
email or push is still due. A broker that cannot be reached is logged, not raised
(``publish_on_commit``): the catch-up sweep sends the emails; a push is old news by then.
"""

from datetime import datetime

from celery import signature

from durak_site.celery import publish_on_commit

from . import policy

#: ``tasks.send_notification_email``: one notification's email, if it is still due.
SEND_EMAIL = "notifications.tasks.send_notification_email"
#: ``tasks.send_push``: one notification's push to each of its user's browsers, if still due.
SEND_PUSH = "notifications.tasks.send_push"


def email_after_commit(notification_id: int) -> None:
    """After the commit, queue the email's task, to run once the coalescing window has passed:
    it decides then, so a player who opened the game meanwhile gets nothing, and the other
    "your move"s written meanwhile go in the same email."""
    task = signature(SEND_EMAIL, args=(notification_id,), countdown=policy.send_delay())
    publish_on_commit(task.apply_async, f"send_notification_email({notification_id})")


def push_after_commit(notification_id: int, *, written_at: datetime) -> None:
    """After the commit, queue the push's task, to run once the coalescing window has passed.
    ``written_at``: the notification's ``created_at`` as written, so the task drops a push whose
    "your move" a later turn moved up (that turn queued its own)."""
    task = signature(
        SEND_PUSH,
        args=(notification_id,),
        kwargs={"written_at": written_at.isoformat()},
        countdown=policy.send_delay(),
    )
    publish_on_commit(task.apply_async, f"send_push({notification_id})")
