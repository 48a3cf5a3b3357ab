import zoneinfo
from typing import Any

from django.contrib.auth.models import AbstractUser
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _
from knox.models import AbstractAuthToken
from knox.settings import CONSTANTS

from .computers import bot_number, computer_name
from .names import display_name_skeleton, name_skeleton, validate_not_lookalike


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(
            _("“%(value)s” is not a time zone (e.g. Europe/Moscow)."),
            code="time_zone",
            params={"value": value},
        )


#: Languages a player may choose for the site's own texts (Django's and allauth's are translated).
LANGUAGES = [("en", "English"), ("ru", "Русский")]

#: Computer players' levels: durak.bots.RandomBot, RuleBot and SearchBot.
BOT_LEVELS = [
    ("random", _("beginner (random)")),
    ("rules", _("rule of thumb")),
    ("search", _("search (strongest)")),
]


#: The orders a player may choose for their hand on the table: grouped by suit or by rank, the
#: trumps at the end or at the start.
HAND_ORDERS = [
    ("suit_trumps_last", _("By suit, trumps last")),
    ("suit_trumps_first", _("By suit, trumps first")),
    ("rank_trumps_last", _("By rank, trumps last")),
    ("rank_trumps_first", _("By rank, trumps first")),
]


#: Who sees whether a player is online and when they were last seen (``accounts.relations``).
PRESENCE_TO = [
    ("everyone", _("Everyone")),
    ("friends", _("Friends only")),
    ("nobody", _("Nobody")),
]
#: Who may invite a player to a game.
INVITES_FROM = [
    ("everyone", _("Everyone")),
    ("friends", _("Friends only")),
]

#: Reliability is read from a player's last this many finished games (``games.reliability``).
RELIABILITY_WINDOW = 50
#: A player with fewer finished games than this is "new": no reliability is shown yet.
RELIABILITY_NEW_UNTIL = 10


# django-stubs cannot type the reverse relation of ApiToken.user: it comes from knox's untyped base.
class User(AbstractUser):  # type: ignore[django-manager-missing]
    """A player. Its own model from the first migration, so fields can be added later."""

    # AbstractUser's, with one more validator: no name that looks like another player's.
    username = models.CharField(
        _("username"),
        max_length=150,
        unique=True,
        help_text=_("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
        validators=[UnicodeUsernameValidator(), validate_not_lookalike],
        error_messages={"unique": _("A user with that username already exists.")},
    )
    #: ``accounts.names.name_skeleton(username)``, kept by ``save()``: what look-alikes share.
    username_skeleton = models.TextField(editable=False, default="")

    display_name = models.CharField(
        _("display name"),
        max_length=40,
        blank=True,
        default="",
        help_text=_("Shown on profiles and leaderboards instead of the user name."),
    )
    #: ``accounts.names.name_skeleton(display_name)`` ("" for none), kept by ``save()``: a name
    #: shown to others must not look like another player's, whether user name or display name.
    display_name_skeleton = models.TextField(editable=False, default="")
    #: Set from the browser's language at sign-up (``accounts.signals``), then by the settings
    #: page and the header's language switcher.
    language = models.CharField(_("language"), max_length=8, choices=LANGUAGES, default="en")

    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        default="UTC",
        validators=[validate_time_zone],
        help_text=_("Deadlines are shown, and vacation days and weekends counted, in this zone."),
    )

    four_colour_deck = models.BooleanField(
        _("four-colour deck"),
        default=False,
        help_text=_("Diamonds blue and clubs green, so every suit has its own colour."),
    )
    confirm_moves = models.CharField(
        _("confirm moves"),
        max_length=16,
        choices=[
            ("correspondence", _("In correspondence games")),
            ("always", _("Always")),
            ("never", _("Never")),
        ],
        default="correspondence",
        help_text=_("Ask before a move is sent, so a slip of the thumb costs nothing."),
    )
    #: How the table lays out the player's hand (``games.presentation.cards.order_hand``); the
    #: engine's own order is the first.
    hand_order = models.CharField(
        _("order of my hand"),
        max_length=24,
        choices=HAND_ORDERS,
        default="suit_trumps_last",
        help_text=_("How the cards in your hand are sorted on the table."),
    )
    turn_sound = models.BooleanField(
        _("sound on my turn"),
        default=False,
        help_text=_(
            "A short chime when a game starts waiting for your move, while a page of the site is open."
        ),
    )

    presence_to = models.CharField(
        _("who sees when I am online"),
        max_length=8,
        choices=PRESENCE_TO,
        default="everyone",
        help_text=_("Whether you are online now, and the day you were last seen."),
    )
    invites_from = models.CharField(
        _("who may invite me to a game"),
        max_length=8,
        choices=INVITES_FROM,
        default="everyone",
    )
    #: Of the player's last ``RELIABILITY_WINDOW`` finished games with another person, how many
    #: there were and in how many the player left: ran out of time, resigned, or had the game
    #: claimed against them. Kept by ``games.reliability`` after each finished game's commit;
    #: ``manage.py rebuild_reliability`` recomputes it from the stored games.
    reliability_games = models.PositiveSmallIntegerField(
        _("finished games counted"), default=0, editable=False
    )
    reliability_left = models.PositiveSmallIntegerField(_("games left"), default=0, editable=False)

    is_bot = models.BooleanField(
        default=False,
        help_text=_("A computer player (games.bots): no password, cannot log in, kept off the leaderboard."),
    )
    bot_level = models.CharField(
        max_length=16,
        blank=True,
        default="",
        choices=BOT_LEVELS,
        help_text=_("Which durak.bots player moves for this account; empty for people."),
    )
    #: When the player last loaded a page or called the API, written at most once a minute
    #: (``accounts.presence``): "online" is a recent one.
    last_active_at = models.DateTimeField(_("last active"), null=True, blank=True, editable=False)

    class Meta(AbstractUser.Meta):
        indexes = [
            models.Index(fields=["username_skeleton"], name="user_skeleton_idx"),
            models.Index(fields=["display_name_skeleton"], name="user_display_skeleton_idx"),
            models.Index(fields=["last_active_at"], name="user_last_active_idx"),
        ]

    def __str__(self) -> str:
        return self.username

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.username_skeleton = name_skeleton(self.username)
        self.display_name_skeleton = display_name_skeleton(self.display_name)
        if kwargs.get("update_fields") is not None:
            fields = set(kwargs["update_fields"])
            also = {"username": "username_skeleton", "display_name": "display_name_skeleton"}
            kwargs["update_fields"] = fields | {also[field] for field in fields if field in also}
        super().save(*args, **kwargs)

    @property
    def name(self) -> str:
        """What others see: the display name if one is set, else the user name; a computer
        player's name and level in the reader's language ("Masha (rule of thumb)":
        ``accounts.computers``), never its account's user name."""
        if self.is_bot:
            return computer_name(self.bot_level, bot_number(self.username))
        return self.display_name or self.username

    @property
    def reliability(self) -> int | None:
        """The share of the counted games the player saw to their end, in percent (rounded
        down, so 100 means never left); None while the player is new (fewer than
        ``RELIABILITY_NEW_UNTIL`` games) or a computer."""
        if self.is_bot or self.reliability_games < RELIABILITY_NEW_UNTIL:
            return None
        kept = self.reliability_games - self.reliability_left
        return kept * 100 // self.reliability_games

    @property
    def tz(self) -> zoneinfo.ZoneInfo:
        try:
            return zoneinfo.ZoneInfo(self.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return zoneinfo.ZoneInfo("UTC")


class ApiToken(AbstractAuthToken):  # type: ignore[misc]  # knox is untyped
    """A REST API token: django-rest-knox's token (``KNOX_TOKEN_MODEL``) with a name and the time
    it was last used, several per user.

    The database holds only a SHA-512 digest of the token and its first characters
    (``token_key``, to find the row); the token itself is shown once, when it is made
    (``accounts.tokens.token_create``), so nobody who reads the table or the admin can use it.
    """

    id = models.BigAutoField(primary_key=True)
    # knox makes the digest the primary key; an id of its own keeps it out of URLs and lists.
    digest = models.CharField(max_length=CONSTANTS.DIGEST_LENGTH, unique=True)
    name = models.CharField(_("name"), max_length=60)
    #: Updated at most once a minute (``accounts.tokens.token_used``), not on every request.
    last_used = models.DateTimeField(_("last used"), null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ["-created", "-id"]

    def __str__(self) -> str:  # knox's shows the digest
        return f"{self.name} ({self.user_id})"

    @property
    def prefix(self) -> str:
        """The token's first characters, enough for its owner to tell which one it is."""
        return str(self.token_key[:8])


class FriendRequest(models.Model):
    """``sender`` asks ``recipient`` to be friends; accepted, it becomes two ``Friendship`` rows
    (``accounts.relations``). A request from a player the recipient blocked stays, unseen."""

    sender = models.ForeignKey(User, on_delete=models.CASCADE, related_name="friend_requests_sent")
    recipient = models.ForeignKey(User, on_delete=models.CASCADE, related_name="friend_requests_received")
    created_at = models.DateTimeField(_("sent"), auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["sender", "recipient"], name="friend_request_unique"),
            models.CheckConstraint(
                condition=~models.Q(sender=models.F("recipient")), name="friend_request_not_self"
            ),
        ]
        indexes = [models.Index(fields=["recipient", "-created_at"], name="friend_request_inbox_idx")]
        verbose_name = _("friend request")
        verbose_name_plural = _("friend requests")

    def __str__(self) -> str:
        return f"{self.sender} asks {self.recipient}"


class Friendship(models.Model):
    """``user`` and ``friend`` are friends: one row each way, so "my friends" is one index scan."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="friendships")
    friend = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    since = models.DateTimeField(_("friends since"), auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "friend"], name="friendship_unique"),
            models.CheckConstraint(condition=~models.Q(user=models.F("friend")), name="friendship_not_self"),
        ]
        verbose_name = _("friendship")
        verbose_name_plural = _("friendships")

    def __str__(self) -> str:
        return f"{self.user} and {self.friend}"


class Block(models.Model):
    """``blocker`` blocked ``blocked``: private to the blocker (the admin shows only counts).
    What a block keeps apart is in ``accounts.relations``."""

    blocker = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocks_made")
    blocked = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocks_received")
    created_at = models.DateTimeField(_("blocked"), auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_unique"),
            models.CheckConstraint(condition=~models.Q(blocker=models.F("blocked")), name="block_not_self"),
        ]
        indexes = [models.Index(fields=["blocked", "blocker"], name="block_received_idx")]
        verbose_name = _("block")
        verbose_name_plural = _("blocks")

    def __str__(self) -> str:
        return f"block {self.pk}"  # who blocked whom is not for a log line


class PlayerNote(models.Model):
    """A player's private note about another: seen by its author alone, on the other's profile
    and beside their name at the table."""

    author = models.ForeignKey(User, on_delete=models.CASCADE, related_name="notes_written")
    about = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(_("note"), max_length=300)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["author", "about"], name="player_note_unique"),
            models.CheckConstraint(
                condition=~models.Q(author=models.F("about")), name="player_note_not_self"
            ),
        ]
        verbose_name = _("private note")
        verbose_name_plural = _("private notes")

    def __str__(self) -> str:
        return f"note {self.pk}"  # its text is its author's alone
