"""The admin site: only moderators (and superusers) get in, through the site's own log-in.

``is_staff`` alone is not enough: a staff account outside the Moderators group is refused
(403). There is no separate admin log-in form: anonymous visitors are sent to the normal
(allauth) log-in page, which django-axes rate-limits.
"""

from functools import update_wrapper
from typing import Any

from django.contrib import admin
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .roles import is_moderator


class ModerationAdminSite(admin.AdminSite):
    site_header = gettext_lazy("durak online: moderation")
    site_title = gettext_lazy("durak moderation")
    index_title = gettext_lazy("Moderation")

    def has_permission(self, request: HttpRequest) -> bool:
        return is_moderator(request.user)

    def admin_view(self, view: Any, cacheable: bool = False) -> Any:
        """Straight to the site's log-in (not via the admin's), or 403 for a logged-in
        non-moderator, before any admin view runs."""
        inner = super().admin_view(view, cacheable)

        def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not self.has_permission(request):
                if request.user.is_authenticated:
                    raise PermissionDenied(_("Only moderators may use these pages."))
                return redirect_to_login(request.get_full_path(), reverse("account_login"))
            response: HttpResponse = inner(request, *args, **kwargs)
            return response

        return update_wrapper(guarded, view)

    def login(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        if request.user.is_authenticated:
            # Logged in but not a moderator: no loop back to a log-in page.
            raise PermissionDenied(_("Only moderators may use these pages."))
        next_url = request.GET.get("next") or reverse("admin:index")
        return redirect_to_login(next_url, reverse("account_login"))
