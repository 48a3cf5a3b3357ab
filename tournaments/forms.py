"""The create-a-tournament form and the creator's "add a computer player".

The form only reads what was typed (a choice it knows, a whole number, a moment); whether the
whole makes a tournament is ``services.tournament_create``'s call, whose refusal the page shows
on the form.
"""

from datetime import timedelta
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

import durak
from accounts.models import BOT_LEVELS
from durak_site.engine_text import preset_name, preset_summary
from games.forms import TIME_CONTROLS

from . import pairing, services
from .models import Tournament

#: A tournament's clock: every time control of a game but "no time limit".
TOURNAMENT_TIME_CONTROLS = [
    (value, label, move_time) for value, label, move_time in TIME_CONTROLS if move_time
]

#: The lengths offered for a live tournament's rounds, in minutes.
ROUND_MINUTES = (5, 10, 15, 20, 30, 45, 60, 90, 120)

NUMBER_ERRORS = {"invalid": gettext_lazy("Enter a whole number.")}


class TournamentCreateForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=80)
    description = forms.CharField(
        label=gettext_lazy("Description"),
        required=False,
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    format = forms.ChoiceField(label=gettext_lazy("Format"), choices=Tournament.Format.choices)
    preset = forms.ChoiceField(label=gettext_lazy("Rules"), choices=())
    table_size = forms.TypedChoiceField(
        label=gettext_lazy("Players a table"),
        coerce=int,
        choices=[(str(size), str(size)) for size in range(pairing.MIN_TABLE, pairing.MAX_TABLE + 1)],
        initial="4",
        required=False,
        help_text=gettext_lazy("Table rounds only; Swiss and round robin are games of two."),
    )
    scoring = forms.ChoiceField(
        label=gettext_lazy("Scoring at a table"),
        choices=Tournament.Scoring.choices,
        required=False,
        help_text=gettext_lazy("Table rounds only."),
    )
    time_control = forms.ChoiceField(
        label=gettext_lazy("Time control"),
        choices=[(value, label) for value, label, _ in TOURNAMENT_TIME_CONTROLS],
        initial="1d",
    )
    round_minutes = forms.TypedChoiceField(
        label=gettext_lazy("Round length (live)"),
        coerce=int,
        required=False,
        empty_value=None,
        choices=[("", "—")] + [(str(minutes), str(minutes)) for minutes in ROUND_MINUTES],
        help_text=gettext_lazy(
            "Minutes. Live tournaments only: the next round opens when this time is up. "
            "A correspondence round ends with its last game."
        ),
    )
    rounds = forms.IntegerField(
        label=gettext_lazy("Rounds"),
        min_value=1,
        max_value=services.MAX_ROUNDS,
        initial=5,
        required=False,
        help_text=gettext_lazy("A round robin plays every pair once: its rounds follow from its players."),
        error_messages=NUMBER_ERRORS,
    )
    max_players = forms.IntegerField(
        label=gettext_lazy("Most players"),
        min_value=2,
        max_value=services.MAX_PLAYERS,
        required=False,
        help_text=gettext_lazy("Empty: as many as the format takes."),
        error_messages=NUMBER_ERRORS,
    )
    registration_opens_at = forms.DateTimeField(
        label=gettext_lazy("Registration opens"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=gettext_lazy("Empty: now."),
    )
    starts_at = forms.DateTimeField(
        label=gettext_lazy("Starts"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=gettext_lazy("Registration closes and the first round opens."),
    )
    rating_min = forms.IntegerField(
        label=gettext_lazy("Lowest rating"),
        required=False,
        min_value=-9999,
        max_value=9999,
        error_messages=NUMBER_ERRORS,
    )
    rating_max = forms.IntegerField(
        label=gettext_lazy("Highest rating"),
        required=False,
        min_value=-9999,
        max_value=9999,
        help_text=gettext_lazy("In the tournament's mode; empty: no limit."),
        error_messages=NUMBER_ERRORS,
    )
    min_reliability = forms.IntegerField(
        label=gettext_lazy("Minimum reliability (%)"),
        required=False,
        min_value=0,
        max_value=100,
        help_text=gettext_lazy("0 to 100; empty: anyone."),
        error_messages=NUMBER_ERRORS,
    )
    rated = forms.BooleanField(
        label=gettext_lazy("Rated"),
        required=False,
        initial=True,
        help_text=gettext_lazy("Computer players can be added only to a tournament that is not rated."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        preset_field = self.fields["preset"]
        assert isinstance(preset_field, forms.ChoiceField)
        preset_field.choices = [(name, preset_name(name)) for name in durak.PRESETS]

    def preset_summaries(self) -> dict[str, str]:
        return {name: preset_summary(name) for name in durak.PRESETS}

    def move_time(self) -> timedelta:
        chosen = self.cleaned_data["time_control"]
        return next(move_time for value, _, move_time in TOURNAMENT_TIME_CONTROLS if value == chosen)

    def create_options(self) -> dict[str, Any]:
        """What ``services.tournament_create`` takes, from a valid form."""
        data = self.cleaned_data
        minutes = data.get("round_minutes")
        return {
            "name": data["name"],
            "description": data.get("description") or "",
            "format": data["format"],
            "preset": data["preset"],
            "table_size": data.get("table_size") or 2,
            "scoring": data.get("scoring") or Tournament.Scoring.NOT_FOOL,
            "move_time": self.move_time(),
            "round_time": timedelta(minutes=minutes) if minutes else None,
            "rounds": data.get("rounds"),
            "max_players": data.get("max_players"),
            "registration_opens_at": data.get("registration_opens_at"),
            "starts_at": data["starts_at"],
            "rating_min": data.get("rating_min"),
            "rating_max": data.get("rating_max"),
            "min_reliability": data.get("min_reliability"),
            "rated": bool(data.get("rated")),
        }


class ComputerForm(forms.Form):
    level = forms.ChoiceField(label=gettext_lazy("Level"), choices=BOT_LEVELS)
