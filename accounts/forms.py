"""Forms of the accounts: a new API token (the tokens page), "sound on my turn" and privacy (the settings page),
the time zone (a choice of the IANA zones named in the reader's language, on the settings page
and at sign-up)."""

import zoneinfo
from typing import Any

from django import forms
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext_lazy as _

from durak_site import zones

from .models import User

#: What the page offers; the API takes any number of days up to ``accounts.tokens.MAX_DAYS``.
TOKEN_DAYS = [7, 30, 90, 365]


class ApiTokenForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=60,
        help_text=_("What the token is for, e.g. the name of your bot."),
    )
    days = forms.TypedChoiceField(label=_("Expires after"), coerce=int, initial=90)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Made per request: the labels are in the reader's language.
        days_field = self.fields["days"]
        assert isinstance(days_field, forms.TypedChoiceField)
        days_field.choices = [
            (days, ngettext("%(days)d day", "%(days)d days", days) % {"days": days}) for days in TOKEN_DAYS
        ]


class TurnSoundForm(forms.ModelForm):  # type: ignore[type-arg]
    """The settings page's "sound on my turn" (its own fieldset; label and help from the field)."""

    class Meta:
        model = User
        fields = ["turn_sound"]


class PrivacyForm(forms.ModelForm):  # type: ignore[type-arg]
    """The settings page's privacy: who sees when the player is online, who may invite them
    (``accounts.relations`` applies both). A form posted without them keeps the player's own."""

    class Meta:
        model = User
        fields = ["presence_to", "invites_from"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in self.Meta.fields:
            self.fields[name].required = False

    def clean_presence_to(self) -> str:
        return str(self.cleaned_data.get("presence_to") or self.instance.presence_to)

    def clean_invites_from(self) -> str:
        return str(self.cleaned_data.get("invites_from") or self.instance.invites_from)


def time_zone_choices() -> list[tuple[str, list[tuple[str, str]]] | tuple[str, str]]:
    """The zones for a select, in the reader's language (``durak_site.zones``): UTC first, then
    one group per part of the world, each zone named by its city and country ("Europe/Moscow"
    reads «Москва, Россия» to a Russian reader).

    >>> from django.utils import translation
    >>> with translation.override("en"):
    ...     choices = time_zone_choices()
    >>> choices[0]
    ('UTC', 'UTC')
    >>> dict(dict(choices[1:])["Europe"])["Europe/Moscow"]
    'Moscow, Russia'
    """
    return zones.zone_choices(get_language() or "en")


def listed_time_zones() -> set[str]:
    """The zones the select lists."""
    return {"UTC", *zones.listed_zones()}


class TimeZoneField(forms.ChoiceField):
    """A time zone picked from the IANA zones (the model keeps a plain ``CharField``; the check
    is here and in ``accounts.models.validate_time_zone``). A zone the list leaves out but the
    model takes (a player's older free-text "US/Eastern") stays valid and is offered."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("label", _("Time zone"))
        kwargs.setdefault("initial", "UTC")
        kwargs.setdefault("error_messages", {"invalid_choice": _("Choose a time zone from the list.")})
        super().__init__(choices=time_zone_choices, **kwargs)

    def valid_value(self, value: Any) -> bool:
        return str(value) in zoneinfo.available_timezones()

    def keep(self, current: str) -> None:
        """Offer ``current`` too when the list leaves it out (so the select shows it)."""
        if current and current not in listed_time_zones():
            self.choices = [(current, zones.zone_label(current)), *time_zone_choices()]


class SignupTimeZoneForm(forms.Form):
    """``ACCOUNT_SIGNUP_FORM_CLASS``: allauth's sign-up form gets the time zone, proposed from the
    browser (``accounts/time_zone.js`` selects ``Intl``'s zone when the list has it; UTC else)."""

    # Not required: a sign-up posted without it (a script, an old form) starts in UTC.
    time_zone = TimeZoneField(
        label=_("Time zone"),
        required=False,
        help_text=_("Deadlines are shown, and vacation days and weekends counted, in this zone."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:  # a form sent back with an error keeps what was chosen
            self.fields["time_zone"].widget.attrs["data-browser-zone"] = "propose"

    def signup(self, request: Any, user: User) -> None:
        user.time_zone = self.cleaned_data.get("time_zone") or "UTC"
        user.save(update_fields=["time_zone"])
