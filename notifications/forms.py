from django import forms

from accounts.models import User

from .models import Kind, Preferences


class PreferencesForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = Preferences
        fields = [
            *(f"{channel}_{kind}" for kind in Kind.values for channel in ("web", "email")),
            "daily_digest",
        ]


class TimeZoneForm(forms.ModelForm):  # type: ignore[type-arg]
    """The player's own settings; labels and help texts come from ``accounts.User``'s fields."""

    class Meta:
        model = User
        fields = ["display_name", "language", "time_zone", "four_colour_deck", "confirm_moves"]
