from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin

from durak_site.admin import ModelAdmin

from .models import User


@admin.register(User)
class UserAdmin(ModelAdmin, DjangoUserAdmin):  # type: ignore[type-arg]
    """Django's user admin without the password: not even the start of its hash is shown (a
    superuser sets a password with ``manage.py changepassword``)."""

    fieldsets = [
        (name, {**options, "fields": tuple(field for field in options["fields"] if field != "password")})
        for name, options in DjangoUserAdmin.fieldsets or ()
    ]
