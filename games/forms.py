"""The create-game form, built from the engine's presets and option descriptions.

Every option defaults to "as the preset says"; only what the player changes
becomes an override. Whether a combination is allowed is the engine's call
(``services.build_rules``).
"""

import re
from datetime import date, timedelta
from typing import Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.utils.functional import lazy
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

import durak
from accounts.models import BOT_LEVELS
from durak import ENCHANTED_STAGES
from durak_site.engine_text import (
    choice_label,
    engine_message,
    option_help,
    option_name,
    preset_name,
    preset_summary,
)

from .limits import JOIN_LANGUAGES, limits_errors
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
#: The largest whole number the form's plain number fields take.
FORM_INT_MAX = 9999


#: The engine's refusals of an option value (``durak.Rules``' templates), as sentences that name
#: the option by its label: (the option, the sentence with ``%(label)s`` and the engine's params).
ENGINE_OPTION_ERRORS: dict[str, tuple[str, Any]] = {
    "hand_size must be between 1 and {most}": (
        "hand_size",
        gettext_lazy("%(label)s must be between 1 and %(most)s with this deck."),
    ),
    "max_attack must be at least 1": (
        "max_attack",
        gettext_lazy("%(label)s must be at least 1, or “%(none)s” for no limit."),
    ),
    "opening_limit must be at least 1": (
        "opening_limit",
        gettext_lazy("%(label)s must be at least 1, or “%(none)s” for no limit."),
    ),
    "the days before a game may be claimed must be from 1 to {most}": (
        "claim_after_days",
        gettext_lazy("%(label)s must be from 1 to %(most)s."),
    ),
    "enchanted cards are played with the 36-card deck": (
        "enchanted",
        gettext_lazy("%(label)s are played with the 36-card deck only."),
    ),
}
#: Any other value the engine refuses for an option it names.
OTHER_VALUE_ERROR = gettext_lazy("%(label)s cannot take this value.")


def no_limit_word() -> str:
    """What a player types in a number field for "no limit": "none", «нет»."""
    return pgettext("typed in a number field for no limit", "none")


def _no_limit_words() -> set[str]:
    """Every spelling of "no limit" the fields take: the reader's language's and English."""
    return {no_limit_word().casefold(), "none", "no limit", ""}


def _bound_errors(label: str, option: dict[str, Any], *, optional: bool) -> dict[str, str]:
    """The errors of a number field, naming the field and its bound ("Opening limit must be at
    least 1."), with Django's ``%(limit_value)s`` left for the bound."""
    none = {"none": no_limit_word()}
    if optional:
        at_least = _("%(label)s must be at least %(least)s, or “%(none)s” for no limit.")
        at_most = _("%(label)s must be at most %(most)s, or “%(none)s” for no limit.")
        invalid = _("%(label)s: enter a whole number, or “%(none)s” for no limit.")
    else:
        at_least = _("%(label)s must be at least %(least)s.")
        at_most = _("%(label)s must be at most %(most)s.")
        invalid = _("%(label)s: enter a whole number.")
    facts = {"label": label, "least": "%(limit_value)s", "most": "%(limit_value)s", **none}
    return {"min_value": at_least % facts, "max_value": at_most % facts, "invalid": invalid % facts}


#: A whole number as typed: ASCII digits, with a minus (or the typographic one) in front.
WHOLE_NUMBER = re.compile("[-\u2212]?[0-9]{1,6}")


class OptionalIntField(forms.CharField):
    """A number, or the word for "no limit" (``no_limit_word``, or English "none"): cleans to
    an ``int``, to ``None`` for no limit, or to ``PRESET_DEFAULT`` when left empty. Its errors
    say what is wrong with what was typed ("must be at least 1")."""

    def __init__(self, *, least: int | None, most: int, messages: dict[str, str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.least, self.most, self.messages = least, most, messages

    def clean(self, value: Any) -> Any:
        text = str(super().clean(value) or "").strip()
        if not text:
            return PRESET_DEFAULT
        if text.casefold() in _no_limit_words():
            return None
        if not WHOLE_NUMBER.fullmatch(text):  # ASCII digits only: int() would take "٣" for 3
            raise forms.ValidationError(self.messages["invalid"], code="invalid")
        number = int(text.replace("\u2212", "-"))  # a typographic minus too
        if self.least is not None and number < self.least:
            raise forms.ValidationError(
                self.messages["min_value"], code="min_value", params={"limit_value": self.least}
            )
        if number > self.most:
            raise forms.ValidationError(
                self.messages["max_value"], code="max_value", params={"limit_value": self.most}
            )
        return number


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
        # The engine's bounds of the number (``Rules.describe_options``); which values fit
        # together (a hand for the deck) the engine says too (``clean``).
        return forms.IntegerField(
            label=label,
            help_text=help_text,
            required=False,
            min_value=option.get("min"),
            max_value=option.get("max") or FORM_INT_MAX,
            error_messages=_bound_errors(label, option, optional=False),
        )
    if kind == "optional_int":
        return OptionalIntField(
            label=label,
            help_text=(help_text + " " if help_text else "")
            + _("A number, or “%(none)s” for no limit.") % {"none": no_limit_word()},
            required=False,
            max_length=8,
            least=option.get("min"),
            most=option.get("max") or OPTION_INT_MAX,
            messages=_bound_errors(label, option, optional=True),
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


def limit_number(label: Any, **options: Any) -> forms.IntegerField:
    """An optional whole number of a join limit (:mod:`games.limits`), a game's or a Play-now
    seeker's: the same words on both forms. Its range is checked by ``limits.limits_errors``."""
    options.setdefault("error_messages", {"invalid": gettext_lazy("Enter a whole number.")})
    return forms.IntegerField(label=label, required=False, **options)


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
        # Not "Enchanted cards": that is the ranks' own label, just below.
        label=gettext_lazy("Quick pick by Black Book stage"),
        required=False,
        choices=[("", gettext_lazy("none (or as ticked below)"))]
        + [(stage, lazy_stage_label(stage)) for stage in ENCHANTED_STAGES],
        help_text=gettext_lazy(
            "A quick pick of enchanted ranks, the Black Book's progression; ticking ranks below wins over it."
        ),
    )

    # Who may join (games.limits): checked by limits.limits_errors, as by the API and the service.
    join_friends_only = forms.BooleanField(label=gettext_lazy("Friends only"), required=False)
    join_min_reliability = limit_number(
        gettext_lazy("Minimum reliability (%)"),
        help_text=gettext_lazy("0 to 100; empty: anyone. New players have no reliability yet."),
    )
    join_rating_min = limit_number(gettext_lazy("Lowest rating"))
    join_rating_max = limit_number(
        gettext_lazy("Highest rating"),
        help_text=gettext_lazy("In the game's mode; empty: no limit. Unrated players cannot join a range."),
    )
    join_language = forms.ChoiceField(
        label=gettext_lazy("Site language"),
        required=False,
        choices=[("", gettext_lazy("any")), *JOIN_LANGUAGES],
    )
    invite = forms.CharField(
        label=gettext_lazy("Invite a player"),
        required=False,
        max_length=150,
        help_text=gettext_lazy("Their user name; they are invited once the game is open."),
    )

    #: The join limits' fields by the names ``limits.limits_errors`` gives their errors.
    LIMIT_FIELDS = {
        "min_reliability": "join_min_reliability",
        "rating_min": "join_rating_min",
        "rating_max": "join_rating_max",
        "language": "join_language",
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        preset_field = self.fields["preset"]
        assert isinstance(preset_field, forms.ChoiceField)
        # The name alone: the engine's summary (which names the rules again) is shown beside it.
        preset_field.choices = [(name, preset_name(name)) for name in durak.PRESETS]
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

    def preset_summaries(self) -> dict[str, str]:
        """Each preset's one-line summary (the engine's), for the words beside the choice."""
        return {name: preset_summary(name) for name in durak.PRESETS}

    def chosen_preset_summary(self) -> str:
        chosen = self["preset"].value() or next(iter(durak.PRESETS))
        return preset_summary(chosen) if chosen in durak.PRESETS else ""

    def options_have_errors(self) -> bool:
        """Whether the folded "Rule options" hold an error (then they are shown unfolded)."""
        return any(field.errors for field in self.option_fields())

    def error_summary(self) -> list[tuple[str, str]]:
        """Every error of the form as (the id of its field, or "", a sentence naming the field),
        for the list at the top of the page."""
        summary = [("", str(error)) for error in self.non_field_errors()]
        for name, errors in self.errors.items():
            if name == NON_FIELD_ERRORS or name not in self.fields:
                continue
            bound = self[name]
            label = str(bound.label)
            for error in errors:
                text = str(error)
                summary.append((bound.auto_id, text if label in text else f"{label}: {text}"))
        return summary

    def join_limits(self) -> dict[str, Any]:
        """The join limits chosen, as ``services.game_create`` takes them (after ``is_valid``)."""
        data = self.cleaned_data
        return {
            "join_friends_only": bool(data.get("join_friends_only")),
            "join_min_reliability": data.get("join_min_reliability"),
            "join_rating_min": data.get("join_rating_min"),
            "join_rating_max": data.get("join_rating_max"),
            "join_language": data.get("join_language") or "",
        }

    def limit_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in ("join_min_reliability", "join_rating_min", "join_rating_max")]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        wrong = limits_errors(
            min_reliability=cleaned.get("join_min_reliability"),
            rating_min=cleaned.get("join_rating_min"),
            rating_max=cleaned.get("join_rating_max"),
            language=cleaned.get("join_language") or "",
        )
        for name, message in wrong.items():
            self.add_error(self.LIMIT_FIELDS[name], message)
        self._overrides = self._typed_overrides()
        preset = cleaned.get("preset")
        if self.errors or preset not in durak.PRESETS:
            return cleaned
        try:
            rules = durak.Rules.preset(preset, **self._overrides)
        except durak.DurakError as error:
            if error.template != "unknown option {options}":  # not one of this form's fields
                self._add_engine_error(error)
            return cleaned
        except (ValueError, TypeError):
            return cleaned  # services.build_rules says it in the words it has
        players = cleaned.get("num_players")
        if players is not None:
            try:
                rules.validate_players(players)
            except durak.DurakError as error:
                self.add_error("num_players", capfirst(engine_message(error)).rstrip(".") + ".")
        return cleaned

    def _add_engine_error(self, error: durak.DurakError) -> None:
        """The engine's refusal of the options as a sentence that names the option's label, on
        that option's field (the engine names options by their code names: ``hand_size``)."""
        known, sentence = ENGINE_OPTION_ERRORS.get(error.template, (None, None))
        option = known or error.params.get("option")
        key = f"opt_{option}"
        if not isinstance(option, str) or key not in self.fields:
            self.add_error(None, capfirst(engine_message(error)).rstrip(".") + ".")
            return
        label = str(self.fields[key].label)
        params = {
            "label": label,
            "none": no_limit_word(),
            **{name: str(value) for name, value in error.params.items()},
        }
        self.add_error(key, str(sentence or OTHER_VALUE_ERROR) % params)

    def overrides(self) -> dict[str, Any]:
        """The options the player changed, typed as the engine expects (after ``is_valid``)."""
        overrides = getattr(self, "_overrides", None)
        return dict(overrides) if overrides is not None else self._typed_overrides()

    def _typed_overrides(self) -> dict[str, Any]:
        overrides: dict[str, Any] = {}
        for option in self.options:
            key = f"opt_{option['name']}"
            value = self.cleaned_data.get(key)
            if key not in self.cleaned_data or value == PRESET_DEFAULT or value == []:
                continue
            if value is None and option["type"] != "optional_int":
                continue
            if option["type"] == "choice":
                value = next(c for c in option["choices"] if str(c) == value)
            overrides[option["name"]] = value
        stage = self.cleaned_data.get("enchanted_stage")
        if stage and "enchanted" not in overrides:
            overrides["enchanted"] = list(ENCHANTED_STAGES[stage])
        return overrides


#: The lobby's time-control filter: ``Game.time_control``'s kinds.
CLOCK_FILTERS = [
    ("none", gettext_lazy("no clock")),
    ("live", gettext_lazy("live (seconds or minutes a move)")),
    ("correspondence", gettext_lazy("correspondence (an hour a move or more)")),
]


class LobbyFilterForm(forms.Form):
    """The open games' filters, from the lobby's query string (``?rules=classic&players=4``).
    Every field may be left out; a value it does not know is an error (the page says which)."""

    rules = forms.ChoiceField(label=gettext_lazy("Rules"), required=False, choices=())
    players = forms.TypedChoiceField(
        label=gettext_lazy("Players"),
        required=False,
        coerce=int,
        empty_value=None,
        choices=[("", gettext_lazy("any number"))] + [(str(n), str(n)) for n in range(2, 7)],
    )
    clock = forms.ChoiceField(
        label=gettext_lazy("Time control"),
        required=False,
        choices=[("", gettext_lazy("any")), *CLOCK_FILTERS],
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        rules_field = self.fields["rules"]
        assert isinstance(rules_field, forms.ChoiceField)
        rules_field.choices = [("", _("any rules"))] + [(name, preset_name(name)) for name in durak.PRESETS]

    def selection(self) -> dict[str, Any]:
        """The filters for ``selectors.lobby_open_games`` (none of them while the form is invalid)."""
        if not self.is_bound or not self.is_valid():
            return {}
        data = self.cleaned_data
        return {
            "preset": data.get("rules") or None,
            "num_players": data.get("players"),
            "time_control": data.get("clock") or None,
        }

    def active(self) -> bool:
        return any(value for value in self.selection().values())

    def error_lines(self) -> list[str]:
        """One sentence per refused filter, naming it."""
        return [
            f"{self.fields[name].label}: {error}"
            for name, errors in self.errors.items()
            if name in self.fields
            for error in errors
        ]


#: How far ahead a vacation may be booked (its first day, in years from today).
VACATION_BOOKING_YEARS = 5
#: The longest vacation asked for in one booking; the yearly allowance (``timeouts``) decides.
VACATION_MAX_DAYS = 366


class VacationForm(forms.Form):
    """The settings page's "take vacation" form: a first day and a number of days, both within
    range before ``services.vacation_take`` sees them (a date near year 9999 would overflow its
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
                ngettext(
                    "A vacation can be booked at most %(years)s year ahead.",
                    "A vacation can be booked at most %(years)s years ahead.",
                    VACATION_BOOKING_YEARS,
                )
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
