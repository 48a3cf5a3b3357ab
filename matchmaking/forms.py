"""The "Play now" form: rules, players, time control, and whether computers may fill in."""

from datetime import timedelta
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

import durak
from accounts.models import BOT_LEVELS
from durak_site.engine_text import preset_name
from games.forms import TIME_CONTROLS, limit_number
from games.limits import JOIN_LANGUAGES

from .services import DEFAULT_BOT_LEVEL, PLAYER_COUNTS

#: The waits a player may choose before computer players take the empty seats: (value, label, wait).
FILL_AFTER_CHOICES: list[tuple[str, Any, timedelta | None]] = [
    ("30", gettext_lazy("after 30 seconds"), timedelta(seconds=30)),
    ("60", gettext_lazy("after 1 minute"), timedelta(minutes=1)),
    ("180", gettext_lazy("after 3 minutes"), timedelta(minutes=3)),
    ("never", gettext_lazy("never: people only"), None),
]


def time_control_label(key: str) -> str:
    return next((str(label) for value, label, _wait in TIME_CONTROLS if value == key), key)


def fill_after_label(wait: timedelta | None) -> str:
    return next((str(label) for _value, label, choice in FILL_AFTER_CHOICES if choice == wait), "")


class PlayNowForm(forms.Form):
    preset = forms.ChoiceField(label=gettext_lazy("Rules"), choices=(), initial="classic")
    num_players = forms.TypedChoiceField(
        label=gettext_lazy("Players"),
        choices=[(str(count), str(count)) for count in PLAYER_COUNTS],
        coerce=int,
        initial="2",
    )
    time_control = forms.ChoiceField(
        label=gettext_lazy("Time control"),
        choices=[(value, label) for value, label, _wait in TIME_CONTROLS],
        initial="2m",
    )
    fill_after = forms.ChoiceField(
        label=gettext_lazy("Computer players"),
        choices=[(value, label) for value, label, _wait in FILL_AFTER_CHOICES],
        initial="60",
        help_text=gettext_lazy("If not enough people come, computer players take the empty seats."),
    )
    bot_level = forms.ChoiceField(
        label=gettext_lazy("Their level"), choices=BOT_LEVELS, initial=DEFAULT_BOT_LEVEL, required=False
    )

    min_reliability = forms.IntegerField(
        label=gettext_lazy("Only players with reliability at least (%)"),
        required=False,
        min_value=0,
        max_value=100,
        help_text=gettext_lazy("0 to 100; empty: anyone. New players have no reliability yet."),
        error_messages={
            "min_value": gettext_lazy("The minimum reliability must be between 0 and 100."),
            "max_value": gettext_lazy("The minimum reliability must be between 0 and 100."),
            "invalid": gettext_lazy("Enter a whole number."),
        },
    )

    # The other join limits of a game (games.limits), on the seeker's side: the same words.
    friends_only = forms.BooleanField(label=gettext_lazy("Friends only"), required=False)
    rating_min = limit_number(gettext_lazy("Lowest rating"))
    rating_max = limit_number(gettext_lazy("Highest rating"))
    language = forms.ChoiceField(
        label=gettext_lazy("Site language"),
        required=False,
        choices=[("", gettext_lazy("any")), *JOIN_LANGUAGES],
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Ids of its own: the lobby's create form beside it has fields of the same names.
        kwargs.setdefault("auto_id", "play-now-%s")
        super().__init__(*args, **kwargs)
        preset_field = self.fields["preset"]
        assert isinstance(preset_field, forms.ChoiceField)
        preset_field.choices = [(name, preset_name(name)) for name in durak.PRESETS]

    def wait(self) -> timedelta | None:
        chosen = self.cleaned_data["fill_after"]
        return next(wait for value, _label, wait in FILL_AFTER_CHOICES if value == chosen)

    def first_error(self) -> str:
        for name, errors in self.errors.items():
            field = self.fields.get(name)
            label = f"{field.label}: " if field is not None and field.label else ""
            return label + str(errors[0])
        return ""
