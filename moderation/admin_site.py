"""The admin site: only moderators (and superusers) get in, through the site's own log-in.

``is_staff`` alone is not enough: a staff account outside the Moderators group is refused
(403). There is no separate admin log-in form: anonymous visitors are sent to the normal
(allauth) log-in page, which django-axes rate-limits.

Every admin it registers is put on the site's base (``durak_site.admin.ModelAdmin``: it filters,
orders and searches only on what the admin declares and shows no secret column), third-party
ones included; a model whose primary key is a secret (DRF's token) is not registered at all.
"""

from collections.abc import Iterable
from functools import update_wrapper
from typing import Any

from django.contrib import admin
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models.base import ModelBase
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from durak_site.admin import declared_only, has_secret_key

from .roles import is_moderator, refuse_non_moderators


class ModerationAdminSite(admin.AdminSite):
    site_header = gettext_lazy("durak online: moderation")
    site_title = gettext_lazy("durak moderation")
    index_title = gettext_lazy("Moderation")

    def has_permission(self, request: HttpRequest) -> bool:
        return is_moderator(request.user)

    def register(
        self,
        model_or_iterable: Any,
        admin_class: type[admin.ModelAdmin] | None = None,  # type: ignore[type-arg]
        **options: Any,
    ) -> None:
        models: Iterable[Any] = (
            [model_or_iterable] if isinstance(model_or_iterable, ModelBase) else model_or_iterable
        )
        shown = [model for model in models if not has_secret_key(model)]
        if shown:
            super().register(shown, declared_only(admin_class or admin.ModelAdmin), **options)

    def admin_view(self, view: Any, cacheable: bool = False) -> Any:
        """Straight to the site's log-in (not via the admin's), or 403 for a logged-in
        non-moderator, before any admin view runs."""
        inner = super().admin_view(view, cacheable)

        def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            refusal = refuse_non_moderators(request)
            if refusal is not None:
                return refusal
            response: HttpResponse = inner(request, *args, **kwargs)
            return response

        return update_wrapper(guarded, view)

    def login(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        if request.user.is_authenticated:
            # Logged in but not a moderator: no loop back to a log-in page.
            raise PermissionDenied(_("Only moderators may use these pages."))
        next_url = request.GET.get("next") or reverse("admin:index")
        return redirect_to_login(next_url, reverse("account_login"))
