from django.contrib import admin

from durak_site.admin import ModelAdmin

from .models import Notification, Preferences


@admin.register(Notification)
class NotificationAdmin(ModelAdmin):
    list_display = ["user", "kind", "game", "text", "created_at", "read_at", "emailed_at"]
    list_filter = ["kind"]


admin.site.register(Preferences, ModelAdmin)
