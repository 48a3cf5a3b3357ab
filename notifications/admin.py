from django.contrib import admin

from .models import Notification, Preferences


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["user", "kind", "game", "text", "created_at", "read_at", "emailed_at"]
    list_filter = ["kind"]


admin.site.register(Preferences)
