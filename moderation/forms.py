"""The site's log-in form, and the forms of the moderators' admin actions."""

from datetime import timedelta
from typing import Any

from allauth.account.forms import LoginForm as AllauthLoginForm
from django import forms
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .selectors import active_suspension


class LoginForm(AllauthLoginForm):  # type: ignore[misc]
    """allauth's log-in form; a suspended user with the right password is told why and until when
    (anyone else sees only allauth's "not correct" message). Its first field says what it takes
    ("User name or e-mail"; allauth's "Login" reads «Войти» in Russian, a verb)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        login = self.fields["login"]
        login.label = _("User name or e-mail")
        login.widget.attrs["placeholder"] = str(login.label)
        self.fields["remember"].label = _("Remember me")

    def clean(self) -> dict[str, Any]:
        try:
            cleaned: dict[str, Any] = super().clean()
            return cleaned
        except forms.ValidationError:
            login = (self.cleaned_data.get("login") or "").strip()
            password = self.cleaned_data.get("password") or ""
            user = get_user_model().objects.filter(Q(username__iexact=login) | Q(email__iexact=login)).first()
            if user is not None and user.is_active and user.check_password(password):
                suspension = active_suspension(user_id=user.pk)
                if suspension is not None:
                    raise forms.ValidationError(suspension.explain()) from None
            raise


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=_("Kept in the audit log."),
    )


class NoteForm(forms.Form):
    note = forms.CharField(
        label=_("Note"),
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text=_("Kept on the report and in the audit log."),
    )


DURATIONS = {
    "1h": timedelta(hours=1),
    "1d": timedelta(days=1),
    "3d": timedelta(days=3),
    "7d": timedelta(days=7),
    "30d": timedelta(days=30),
    "forever": None,
}


class SanctionForm(ReasonForm):
    duration = forms.ChoiceField(
        label=_("Duration"),
        choices=[
            ("1h", _("one hour")),
            ("1d", _("one day")),
            ("3d", _("three days")),
            ("7d", _("a week")),
            ("30d", _("thirty days")),
            ("forever", _("for good")),
        ],
        initial="1d",
    )

    def duration_value(self) -> timedelta | None:
        return DURATIONS[self.cleaned_data["duration"]]
