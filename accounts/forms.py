"""Forms of the accounts: a new API token (the tokens page), "sound on my turn" (the settings page)."""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

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
