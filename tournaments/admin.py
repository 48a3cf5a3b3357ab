"""Admin: tournaments for moderators, read only but for "official", which they mark or unmark
(``services.tournament_set_official``); their rounds and players beside each, read only. The list
counts each tournament's players in its own query."""

from typing import Any

from django.contrib import admin, messages
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from durak_site.admin import ModelAdmin, TabularInline
from moderation.roles import is_moderator

from . import services
from .models import Player, Round, Tournament

TOURNAMENT_FIELDS = (
    "name",
    "description",
    "creator",
    "official",
    "format",
    "preset",
    "rule_overrides",
    "table_size",
    "scoring",
    "move_time",
    "round_time",
    "rounds",
    "max_players",
    "registration_opens_at",
    "starts_at",
    "rating_min",
    "rating_max",
    "min_reliability",
    "rated",
    "status",
    "round_number",
    "next_round_at",
    "created_at",
    "started_at",
    "finished_at",
)


class ModeratorsRead:
    """Moderators read these rows (the group has no permission of this app's); nobody adds,
    changes or deletes one here."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_moderator(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_moderator(request.user)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class RoundInline(ModeratorsRead, TabularInline):
    model = Round
    extra = 0
    fields = readonly_fields = ("number", "opened_at", "ends_at")


class PlayerInline(ModeratorsRead, TabularInline):
    model = Player
    extra = 0
    fields = readonly_fields = ("user", "registered_at", "seed_rating", "withdrawn", "final_rank")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Player]:
        return super().get_queryset(request).select_related("user")


@admin.register(Tournament)
class TournamentAdmin(ModeratorsRead, ModelAdmin):
    list_display = ["id", "name", "status", "format", "official", "players_count", "starts_at"]
    list_filter = ["status", "format", "official"]
    search_fields = ["name"]
    fields = readonly_fields = TOURNAMENT_FIELDS
    inlines = [RoundInline, PlayerInline]
    actions = ["mark_official", "unmark_official"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Tournament]:
        tournaments: QuerySet[Tournament] = super().get_queryset(request)
        return tournaments.select_related("creator").annotate(players_total=Count("players"))

    @admin.display(description=_("players"), ordering="players_total")
    def players_count(self, tournament: Tournament) -> int:
        return int(getattr(tournament, "players_total", 0))

    def has_official_permission(self, request: HttpRequest) -> bool:
        return is_moderator(request.user)

    def _set_official(self, request: HttpRequest, queryset: QuerySet[Tournament], official: bool) -> None:
        for pk in queryset.values_list("pk", flat=True):
            services.tournament_set_official(tournament_id=pk, official=official)
        self.message_user(request, _("Done."), messages.SUCCESS)

    @admin.action(description=_("Mark official"), permissions=["official"])
    def mark_official(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._set_official(request, queryset, True)

    @admin.action(description=_("Remove the official mark"), permissions=["official"])
    def unmark_official(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._set_official(request, queryset, False)
