from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.forms import TimeZoneField
from accounts.models import User
from accounts.names import validate_display_name

from . import push
from .models import Kind, Preferences

#: The ways a notification reaches its user, the columns of the settings page.
CHANNELS = ("web", "email", "push")


class PreferencesForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = Preferences
        fields = [
            *(f"{channel}_{kind}" for kind in Kind.values for channel in CHANNELS),
            "daily_digest",
        ]

    def rows(self) -> list[tuple[str, list[forms.BoundField]]]:
        """One row per kind: its name and its checkboxes, one per channel (the settings table)."""
        return [
            (str(label), [self[f"{channel}_{kind}"] for channel in CHANNELS]) for kind, label in Kind.choices
        ]


class PushSubscriptionForm(forms.Form):
    """A browser's push subscription as its ``PushSubscription.toJSON()`` gives it (the settings
    page's script posts the endpoint and the two keys): at an allowed push service, with a
    P-256 public key and a 16-byte secret."""

    endpoint = forms.URLField(max_length=1000, assume_scheme="https")
    p256dh = forms.CharField(max_length=100)
    auth = forms.CharField(max_length=30)

    def clean_endpoint(self) -> str:
        endpoint: str = self.cleaned_data["endpoint"]
        if not push.service_allowed(endpoint):
            raise forms.ValidationError("not a push service this site sends to", code="push_service")
        return endpoint

    def clean_p256dh(self) -> str:
        key: str = self.cleaned_data["p256dh"]
        if not push.valid_browser_key(key):
            raise forms.ValidationError("not a P-256 public key (base64url, uncompressed)", code="p256dh")
        return key

    def clean_auth(self) -> str:
        secret: str = self.cleaned_data["auth"]
        if not push.valid_auth_secret(secret):
            raise forms.ValidationError("not a 16-byte secret (base64url)", code="auth")
        return secret


class TimeZoneForm(forms.ModelForm):  # type: ignore[type-arg]
    """The player's own settings; labels and help texts come from ``accounts.User``'s fields."""

    # A choice of the IANA zones, not free text (the model field stays a CharField).
    time_zone = TimeZoneField(
        help_text=_("Deadlines are shown, and vacation days and weekends counted, in this zone."),
    )

    class Meta:
        model = User
        fields = ["display_name", "language", "time_zone", "four_colour_deck", "confirm_moves", "hand_order"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A form posted without it (an older page, a script) keeps the player's order.
        self.fields["hand_order"].required = False
        field = self.fields["time_zone"]
        assert isinstance(field, TimeZoneField)
        field.keep(self.instance.time_zone)

    def clean_hand_order(self) -> str:
        return str(self.cleaned_data.get("hand_order") or self.instance.hand_order)

    def clean_display_name(self) -> str:
        """Not one that looks like another player's user name or display name (UTS #39, the
        user names' own check: ``accounts.names``); the player's own user name is fine."""
        display_name: str = self.cleaned_data["display_name"]
        validate_display_name(display_name, user=self.instance)
        return display_name
