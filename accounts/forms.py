"""The API tokens page's form for a new token."""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

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
