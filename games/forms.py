"""The create-game form, built from the engine's presets and option descriptions.

Every option defaults to "as the preset says"; only what the player changes
becomes an override. Whether a combination is allowed is the engine's call
(``services.build_rules``).
"""

from datetime import date, timedelta
from typing import Any

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

import durak
from accounts.models import BOT_LEVELS
from durak.enchanted import ENCHANTED_STAGES
from durak_site.engine_text import choice_label, option_help, option_name, preset_name, preset_summary

from .presentation import stage_label

PRESET_DEFAULT = ""

#: Options shown above the others, outside the folded "Rule options": the game's kind.
FEATURED_OPTIONS = ("teams", "enchanted")

#: The time controls offered when a game is created: (form value, label, time per move).
TIME_CONTROLS: list[tuple[str, Any, timedelta | None]] = [
    ("none", gettext_lazy("no time limit"), None),
    ("30s", gettext_lazy("live: 30 seconds a move"), timedelta(seconds=30)),
    ("2m", gettext_lazy("live: 2 minutes a move"), timedelta(minutes=2)),
    ("1h", gettext_lazy("correspondence: 1 hour a move"), timedelta(hours=1)),
    ("12h", gettext_lazy("correspondence: 12 hours a move"), timedelta(hours=12)),
    ("1d", gettext_lazy("correspondence: 1 day a move"), timedelta(days=1)),
    ("3d", gettext_lazy("correspondence: 3 days a move"), timedelta(days=3)),
    ("7d", gettext_lazy("correspondence: 7 days a move"), timedelta(days=7)),
]

lazy_stage_label = lazy(stage_label, str)

#: The largest number any rule option takes (a hand, a limit of cards, a number of players):
#: no count in a game exceeds the largest deck. Which values fit together is the engine's call.
OPTION_INT_MAX = 52


def _option_field(option: dict[str, Any]) -> forms.Field | None:
    """A form field for one engine option; None for a kind of option this form does not know."""
    label = option_name(option["name"])
    help_text = option_help(option) if option.get("help") else ""
    kind = option["type"]
    if kind == "bool":
        return forms.TypedChoiceField(
            label=label,
            help_text=help_text,
            required=False,
            choices=[(PRESET_DEFAULT, _("as the preset says")), ("true", _("yes")), ("false", _("no"))],
            coerce=lambda value: value == "true",
            empty_value=None,
        )
    if kind == "choice":
        return forms.ChoiceField(
            label=label,
            help_text=help_text,
            required=False,
            choices=[(PRESET_DEFAULT, _("as the preset says"))]
            + [(str(choice), choice_label(option["name"], choice)) for choice in option["choices"] or []],
        )
    if kind == "int":
        return forms.IntegerField(
            label=label, help_text=help_text, required=False, min_value=0, max_value=OPTION_INT_MAX
        )
    if kind == "optional_int":
        return forms.CharField(
            label=label,
            help_text=(help_text + " " if help_text else "") + _("A number, or “none” for no limit."),
            required=False,
            max_length=8,
        )
    if kind == "ranks":
        return forms.MultipleChoiceField(
            label=label,
            help_text=(help_text.rstrip(".") + ". " if help_text else "")
            + _("None ticked: as the preset says."),
            required=False,
            choices=[(str(rank), str(rank)) for rank in option["choices"] or []],
            widget=forms.CheckboxSelectMultiple,
        )
    return None


class GameCreateForm(forms.Form):
    preset = forms.ChoiceField(label=gettext_lazy("Rules"), choices=())
    num_players = forms.IntegerField(label=gettext_lazy("Players"), min_value=2, max_value=6, initial=2)
    time_control = forms.ChoiceField(
        label=gettext_lazy("Time control"),
        choices=[(value, label) for value, label, _ in TIME_CONTROLS],
        initial="none",
        required=False,
    )
    pause_weekends = forms.BooleanField(
        label=gettext_lazy("Pause clocks at weekends"),
        required=False,
        help_text=gettext_lazy("Correspondence games only."),
    )
    private = forms.BooleanField(
        label=gettext_lazy("Private"),
        required=False,
        help_text=gettext_lazy("Not listed: players join by invitation or share link."),
    )
    bot_level = forms.ChoiceField(
        label=gettext_lazy("Computer players"),
        required=False,
        choices=[("", gettext_lazy("none: people only")), *BOT_LEVELS],
        help_text=gettext_lazy(
            "“Play against the computer” fills the other seats with this level at once; "
            "for an open game, you may later let it take the seats nobody took."
        ),
    )
    enchanted_stage = forms.ChoiceField(
        label=gettext_lazy("Enchanted cards"),
        required=False,
        choices=[("", gettext_lazy("none (or as ticked below)"))]
        + [(stage, lazy_stage_label(stage)) for stage in ENCHANTED_STAGES],
        help_text=gettext_lazy(
            "A quick pick of enchanted ranks, the Black Book's progression; ticking ranks below wins over it."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        preset_field = self.fields["preset"]
        assert isinstance(preset_field, forms.ChoiceField)
        preset_field.choices = [
            (name, f"{preset_name(name)}: {preset_summary(name)}") for name in durak.PRESETS
        ]
        self.options = []
        for option in durak.Rules.describe_options():
            field = _option_field(option)
            if field is not None:
                self.options.append(option)
                self.fields[f"opt_{option['name']}"] = field

    def move_time(self) -> timedelta | None:
        chosen = self.cleaned_data.get("time_control") or "none"
        return next(move_time for value, _, move_time in TIME_CONTROLS if value == chosen)

    def option_fields(self) -> list[forms.BoundField]:
        return [
            self[f"opt_{option['name']}"] for option in self.options if option["name"] not in FEATURED_OPTIONS
        ]

    def featured_fields(self) -> list[forms.BoundField]:
        return [
            self[f"opt_{option['name']}"] for option in self.options if option["name"] in FEATURED_OPTIONS
        ]

    def overrides(self) -> dict[str, Any]:
        """The options the player changed, typed as the engine expects."""
        overrides: dict[str, Any] = {}
        for option in self.options:
            key = f"opt_{option['name']}"
            value = self.cleaned_data.get(key)
            if value is None or value == PRESET_DEFAULT or value == []:
                continue
            if option["type"] == "optional_int":
                text = str(value).strip().lower()
                if text in ("none", "no limit"):
                    value = None
                elif text.isascii() and text.isdigit() and int(text) <= OPTION_INT_MAX:
                    value = int(text)
                else:
                    self.add_error(key, _("Enter a number or “none”."))
                    continue
            elif option["type"] == "choice":
                value = next(c for c in option["choices"] if str(c) == value)
            overrides[option["name"]] = value
        stage = self.cleaned_data.get("enchanted_stage")
        if stage and "enchanted" not in overrides:
            overrides["enchanted"] = list(ENCHANTED_STAGES[stage])
        return overrides


#: How far ahead a vacation may be booked (its first day, in years from today).
VACATION_BOOKING_YEARS = 5
#: The longest vacation asked for in one booking; the yearly allowance (``timeouts``) decides.
VACATION_MAX_DAYS = 366


class VacationForm(forms.Form):
    """The settings page's "take vacation" form: a first day and a number of days, both within
    range before ``timeouts.vacation_take`` sees them (a date near year 9999 would overflow its
    date arithmetic, a huge count its ``timedelta``)."""

    starts_on = forms.DateField(label=pgettext_lazy("first day of a vacation", "From"))
    days = forms.IntegerField(
        label=pgettext_lazy("length of a vacation", "Days"), min_value=1, max_value=VACATION_MAX_DAYS
    )

    def __init__(self, *args: Any, today: date, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.today = today

    def clean_starts_on(self) -> date:
        starts_on: date = self.cleaned_data["starts_on"]
        if starts_on > self.today + timedelta(days=365 * VACATION_BOOKING_YEARS):
            raise forms.ValidationError(
                _("A vacation can be booked at most %(years)s years ahead.")
                % {"years": VACATION_BOOKING_YEARS}
            )
        return starts_on

    def first_error(self) -> str:
        """One sentence for the message shown on the settings page."""
        for name, errors in self.errors.items():
            field = self.fields.get(name)
            label = f"{field.label}: " if field is not None and field.label else ""
            return label + str(errors[0])
        return ""
