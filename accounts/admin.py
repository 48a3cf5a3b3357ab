from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from durak_site.admin import ModelAdmin

from .models import Block, User


def _count_of_blocks(**match: Any) -> Coalesce:
    rows = Block.objects.filter(**match).order_by().values(*match).annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(rows, output_field=IntegerField()), 0)


#: What the admin shows of a user's place in the club, read-only.
CLUB_FIELDS = (
    "blocked_by_count",
    "blocks_made_count",
    "reliability_games",
    "reliability_left",
    "reliability_percent",
)


@admin.register(User)
class UserAdmin(ModelAdmin, DjangoUserAdmin):  # type: ignore[type-arg]
    """Django's user admin without the password: not even the start of its hash is shown (a
    superuser sets a password with ``manage.py changepassword``).

    Blocks and private notes are their authors' own: no admin lists them, and a user's page
    shows only how many players blocked them ("blocked by", a signal for the moderators) and
    how many they blocked, counted in the list's one query. Reliability is read-only."""

    fieldsets = [
        (name, {**options, "fields": tuple(field for field in options["fields"] if field != "password")})
        for name, options in DjangoUserAdmin.fieldsets or ()
    ]
    fieldsets.append((_("Club"), {"fields": CLUB_FIELDS}))
    readonly_fields = CLUB_FIELDS
    list_display = (
        "username",
        "email",
        "first_name",
        "last_name",
        "is_staff",
        "blocked_by_count",
        "blocks_made_count",
        "reliability_percent",
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        users: QuerySet[Any] = super().get_queryset(request)
        counted: QuerySet[Any] = users.annotate(
            admin_blocked_by=_count_of_blocks(blocked_id=OuterRef("pk")),
            admin_blocks_made=_count_of_blocks(blocker_id=OuterRef("pk")),
        )
        return counted

    @admin.display(description=_("blocked by"), ordering="admin_blocked_by")
    def blocked_by_count(self, user: User) -> int:
        return int(getattr(user, "admin_blocked_by", 0))

    @admin.display(description=_("blocks made"), ordering="admin_blocks_made")
    def blocks_made_count(self, user: User) -> int:
        return int(getattr(user, "admin_blocks_made", 0))

    @admin.display(description=_("reliability"))
    def reliability_percent(self, user: User) -> str:
        percent = user.reliability
        return (
            str(pgettext_lazy("reliability of a player with few games", "new"))
            if percent is None
            else f"{percent}%"
        )
