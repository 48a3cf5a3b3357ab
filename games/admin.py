"""Admin: games and seats for staff. The secret columns (seed, deal, state) are
left out so that no page shows hidden cards, not even to staff."""

from django.contrib import admin

from .models import Game, Move, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["position", "user", "awaiting_move", "result", "place"]
    readonly_fields = fields


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["id", "preset", "status", "num_players", "creator", "version", "updated_at"]
    list_filter = ["status", "preset"]
    fields = [
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
    ]
    readonly_fields = fields
    inlines = [SeatInline]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    """Moves hold the mover's own card only once played, so they are public information."""

    list_display = ["game", "seq", "position", "action", "created_at"]
    readonly_fields = ["game", "seq", "position", "action", "created_at"]
