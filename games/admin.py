"""Admin: games and seats for staff. The secret columns (seed, deal, state) are
left out so that no page shows hidden cards, not even to staff."""

from django.contrib import admin

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


class SeatInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Seat
    extra = 0
    fields = SEAT_FIELDS
    readonly_fields = SEAT_FIELDS


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["id", "preset", "status", "num_players", "creator", "version", "updated_at"]
    list_filter = ["status", "preset"]
    fields = GAME_FIELDS
    readonly_fields = GAME_FIELDS
    inlines = [SeatInline]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Moves hold the mover's own card only once played, so they are public information."""

    list_display = ["game", "seq", "position", "action", "created_at"]
    readonly_fields = ["game", "seq", "position", "action", "created_at"]
