"""Admin: games and seats for staff. The secret columns (seed, deal, state, invite token) are
left out so that no page shows hidden cards, not even to staff; the site's base
(``durak_site.admin``) also refuses every filter, ordering and search that is not declared."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from durak_site.admin import ModelAdmin, TabularInline

from .models import Game, Move, Seat

SEAT_FIELDS = ("position", "user", "awaiting_move", "result", "place")
GAME_FIELDS = (
    "preset",
    "rule_overrides",
    "num_players",
    "status",
    "creator",
    "version",
    "dealer",
    "created_at",
    "started_at",
    "finished_at",
)


class OneGameFilter(admin.RelatedFieldListFilter):
    """The moves of one game (``?game__id__exact=ID``), without a list of every game to choose from."""

    def field_choices(self, field: Any, request: HttpRequest, model_admin: Any) -> Any:
        ids = [int(value) for value in self.lookup_val or () if value.isdigit()]
        return [(game.pk, str(game)) for game in Game.objects.filter(pk__in=ids)]

    def expected_parameters(self) -> list[str | None]:
        return [self.lookup_kwarg]

    def has_output(self) -> bool:
        return self.lookup_val is not None


class SeatInline(TabularInline):
    model = Seat
    extra = 0
    fields = SEAT_FIELDS
    readonly_fields = SEAT_FIELDS


@admin.register(Game)
class GameAdmin(ModelAdmin):
    list_display = ["id", "preset", "status", "num_players", "creator", "version", "updated_at"]
    list_filter = ["status", "preset"]
    fields = GAME_FIELDS
    readonly_fields = GAME_FIELDS
    inlines = [SeatInline]


@admin.register(Move)
class MoveAdmin(ModelAdmin):
    """Moves hold the mover's own card only once played, so they are public information."""

    list_display = ["game", "seq", "position", "action", "created_at"]
    list_filter = [("game", OneGameFilter)]
    readonly_fields = ["game", "seq", "position", "action", "created_at"]
