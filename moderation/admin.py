"""The moderators' admin: the report queue, chat messages, games, users, sanctions and the
audit log, with the moderation actions.

Moderators (the Moderators group, see migration 0002) can only *view* rows here; every change
goes through an action, which asks for a reason (or a note) on an intermediate page, calls
``moderation.services`` and so writes its audit entry. Nobody, not even a superuser, can add,
change or delete an audit entry.
"""

import contextlib
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.admin import UserAdmin as AccountsUserAdmin
from chat.models import ChatMessage
from durak_site.admin import ModelAdmin, TabularInline
from games.admin import GameAdmin as GamesGameAdmin
from games.models import Game, Move, Seat

from . import services
from .forms import NoteForm, ReasonForm, SanctionForm
from .models import AuditEntry, Report, Sanction

User = get_user_model()


# --- helpers -----------------------------------------------------------------------------------


def _user(request: HttpRequest) -> Any:
    """The moderator of an admin request (the admin site let only moderators in)."""
    assert request.user.is_authenticated
    return request.user


def _link(model: str, pk: Any, label: Any) -> str:
    if pk is None:
        return "—"
    return format_html('<a href="{}">{}</a>', reverse(f"admin:{model}_change", args=[pk]), label)


def game_links(game_id: int) -> str:
    """The game page, and its replay once the replays app provides one."""
    links = [(reverse("games:detail", args=[game_id]), gettext("game page"))]
    with contextlib.suppress(NoReverseMatch):
        links.append((reverse("replays:replay", args=[game_id]), gettext("replay")))
    return format_html_join(" · ", '<a href="{}">{}</a>', links)


def _form_action(
    modeladmin: "admin.ModelAdmin[Any]",
    request: HttpRequest,
    queryset: QuerySet[Any],
    *,
    form_class: type[forms.Form],
    title: str,
    done: str,
    perform: Callable[[Any, forms.Form], Any],
) -> HttpResponse | None:
    """An admin action that first asks for a reason (and a duration) on a page of its own,
    then runs ``perform(obj, form)`` for each selected row. A refusal of the service for one
    row (``ModerationError``) is reported and the others go on."""
    if "apply" in request.POST:
        form = form_class(request.POST)
        if form.is_valid():
            count = 0
            for obj in queryset:
                try:
                    perform(obj, form)
                except services.ModerationError as error:
                    modeladmin.message_user(request, error.message, messages.ERROR)
                else:
                    count += 1
            if count:
                modeladmin.message_user(request, f"{done}: {count}.", messages.SUCCESS)
            return None
    else:
        form = form_class()
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "form": form,
        "queryset": queryset,
        "action": request.POST.get("action", ""),
        "opts": modeladmin.model._meta,
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
    }
    return TemplateResponse(request, "admin/moderation/action_form.html", context)


class ModerationPermissions:
    """``has_<name>_permission`` for ``@admin.action(permissions=[...])``."""

    def has_hide_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("moderation.hide_message")

    def has_mute_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("moderation.mute_user")

    def has_suspend_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("moderation.suspend_user")

    def has_abort_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("moderation.abort_game")

    def has_settle_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("moderation.settle_game")

    def has_handle_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("moderation.handle_report")

    def has_appoint_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)


class ReadOnly:
    """Rows shown, never added, changed or deleted here (actions do the changing)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _sanction(
    modeladmin: Any,
    request: HttpRequest,
    users: Callable[[Any], Any],
    queryset: QuerySet[Any],
    *,
    sanction: Callable[..., Any],
    title: str,
    done: str,
) -> Any:
    """Ask for a duration and a reason, then apply ``sanction`` to the user of each row."""

    def perform(obj: Any, form: Any) -> None:
        sanction(
            moderator=_user(request),
            user=users(obj),
            duration=form.duration_value(),
            reason=form.cleaned_data["reason"],
        )

    return _form_action(
        modeladmin, request, queryset, form_class=SanctionForm, title=title, done=done, perform=perform
    )


def _mute(modeladmin: Any, request: HttpRequest, users: Callable[[Any], Any], queryset: QuerySet[Any]) -> Any:
    return _sanction(
        modeladmin,
        request,
        users,
        queryset,
        sanction=services.user_mute,
        title=gettext("Mute in chat"),
        done=gettext("Muted"),
    )


def _suspend(
    modeladmin: Any, request: HttpRequest, users: Callable[[Any], Any], queryset: QuerySet[Any]
) -> Any:
    return _sanction(
        modeladmin,
        request,
        users,
        queryset,
        sanction=services.user_suspend,
        title=gettext("Suspend (no log-in, no play, no API; running games resigned)"),
        done=gettext("Suspended"),
    )


def _hide(
    modeladmin: Any, request: HttpRequest, message: Callable[[Any], Any], queryset: QuerySet[Any]
) -> Any:
    def perform(obj: Any, form: Any) -> None:
        services.message_hide(
            moderator=_user(request), message=message(obj), reason=form.cleaned_data["reason"]
        )

    return _form_action(
        modeladmin,
        request,
        queryset,
        form_class=ReasonForm,
        title=gettext("Hide chat messages"),
        done=gettext("Hidden"),
        perform=perform,
    )


# --- the report queue --------------------------------------------------------------------------


@admin.register(Report)
class ReportAdmin(ModerationPermissions, ReadOnly, ModelAdmin):
    list_display = [
        "created_at",
        "status",
        "reason",
        "target",
        "excerpt",
        "reported",
        "game_link",
        "reporter",
    ]
    list_display_links = ["created_at"]
    list_filter = ["status", "reason", "created_at"]
    list_select_related = ["reporter", "reported_user", "message"]
    search_fields = ["details", "reported_user__username", "reporter__username", "message__text"]
    readonly_fields = (
        "reporter",
        "reported_user",
        "game_link",
        "message_text",
        "reason",
        "details",
        "status",
        "created_at",
        "handled_by",
        "handled_at",
        "note",
    )
    fields = readonly_fields
    actions = ["resolve", "dismiss", "hide_messages", "mute_users", "suspend_users"]

    @admin.display(description=_("what"))
    def target(self, report: Report) -> str:
        return report.target_kind

    @admin.display(description=_("reported player"))
    def reported(self, report: Report) -> str:
        return _link("accounts_user", report.reported_user_id, report.reported_user)

    @admin.display(description=_("game"))
    def game_link(self, report: Report) -> str:
        if report.game_id is None:
            return "—"
        return format_html(
            "{} ({})",
            _link("games_game", report.game_id, gettext("game %(game)s") % {"game": report.game_id}),
            game_links(report.game_id),
        )

    @admin.display(description=_("message / details"))
    def excerpt(self, report: Report) -> str:
        if report.message is not None:
            hidden = " [" + gettext("hidden") + "]" if report.message.is_hidden else ""
            return f"“{report.message.text[:80]}”{hidden}"
        return report.details[:80]

    @admin.display(description=_("reported message"))
    def message_text(self, report: Report) -> str:
        if report.message is None:
            return "—"
        return _link("chat_chatmessage", report.message_id, report.message.text)

    @admin.action(description=_("Resolve the selected reports (with a note)"), permissions=["handle"])
    def resolve(self, request: HttpRequest, queryset: QuerySet[Report]) -> Any:
        return _form_action(
            self,
            request,
            queryset,
            form_class=NoteForm,
            title=gettext("Resolve reports"),
            done=gettext("Resolved"),
            perform=lambda r, f: services.report_resolve(
                moderator=_user(request), report=r, note=f.cleaned_data["note"]
            ),
        )

    @admin.action(description=_("Dismiss the selected reports (with a note)"), permissions=["handle"])
    def dismiss(self, request: HttpRequest, queryset: QuerySet[Report]) -> Any:
        return _form_action(
            self,
            request,
            queryset,
            form_class=NoteForm,
            title=gettext("Dismiss reports"),
            done=gettext("Dismissed"),
            perform=lambda r, f: services.report_dismiss(
                moderator=_user(request), report=r, note=f.cleaned_data["note"]
            ),
        )

    @admin.action(description=_("Hide the reported chat messages"), permissions=["hide"])
    def hide_messages(self, request: HttpRequest, queryset: QuerySet[Report]) -> Any:
        return _hide(self, request, lambda r: r.message, queryset.filter(message__isnull=False))

    @admin.action(description=_("Mute the reported players"), permissions=["mute"])
    def mute_users(self, request: HttpRequest, queryset: QuerySet[Report]) -> Any:
        return _mute(self, request, lambda r: r.reported_user, queryset.filter(reported_user__isnull=False))

    @admin.action(description=_("Suspend the reported players"), permissions=["suspend"])
    def suspend_users(self, request: HttpRequest, queryset: QuerySet[Report]) -> Any:
        return _suspend(
            self, request, lambda r: r.reported_user, queryset.filter(reported_user__isnull=False)
        )


# --- chat --------------------------------------------------------------------------------------


class HiddenFilter(admin.SimpleListFilter):
    title = _("hidden")
    parameter_name = "hidden"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", gettext("hidden")), ("no", gettext("shown"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() in ("yes", "no"):
            return queryset.filter(hidden_at__isnull=self.value() == "no")
        return queryset


@admin.register(ChatMessage)
class ChatMessageAdmin(ModerationPermissions, ReadOnly, ModelAdmin):
    list_display = ["id", "created_at", "author", "channel", "game_link", "text", "hidden_at", "hidden_by"]
    list_filter = [HiddenFilter, "channel", "created_at"]
    list_select_related = ["author", "hidden_by"]
    search_fields = ["text", "author__username"]
    fields = (
        "author",
        "game_link",
        "channel",
        "text",
        "created_at",
        "hidden_at",
        "hidden_by",
    )
    readonly_fields = fields
    actions = ["hide_messages", "mute_authors", "suspend_authors"]

    @admin.display(description=_("game"))
    def game_link(self, message: ChatMessage) -> str:
        return format_html(
            "{} ({})",
            _link("games_game", message.game_id, gettext("game %(game)s") % {"game": message.game_id}),
            game_links(message.game_id),
        )

    @admin.action(description=_("Hide the selected messages"), permissions=["hide"])
    def hide_messages(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> Any:
        return _hide(self, request, lambda m: m, queryset)

    @admin.action(description=_("Mute the authors of the selected messages"), permissions=["mute"])
    def mute_authors(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> Any:
        return _mute(self, request, lambda m: m.author, queryset)

    @admin.action(description=_("Suspend the authors of the selected messages"), permissions=["suspend"])
    def suspend_authors(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> Any:
        return _suspend(self, request, lambda m: m.author, queryset)


# --- games -------------------------------------------------------------------------------------


class StalledFilter(admin.SimpleListFilter):
    title = _("stalled (no move for)")
    parameter_name = "stalled_days"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [
            ("1", gettext("more than a day")),
            ("3", gettext("more than 3 days")),
            ("7", gettext("more than 7 days")),
            ("30", gettext("more than 30 days")),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        try:
            days = int(self.value() or "")
        except ValueError:
            return queryset
        # updated_at: the game's last move (a preference is none: games.write), else its deal.
        stalled: QuerySet[Any] = queryset.filter(
            status=Game.Status.ACTIVE, updated_at__lt=timezone.now() - timedelta(days=days)
        )
        return stalled


class ReportedFilter(admin.SimpleListFilter):
    title = _("reported")
    parameter_name = "reported"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [
            ("open", gettext("with open reports")),
            ("any", gettext("ever reported")),
            ("no", gettext("never reported")),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        reports = Report.objects.filter(game=OuterRef("pk"))
        if self.value() == "open":
            return queryset.filter(Exists(reports.filter(status=Report.Status.OPEN)))
        if self.value() == "any":
            return queryset.filter(Exists(reports))
        if self.value() == "no":
            return queryset.exclude(Exists(reports))
        return queryset


class SeatInline(ReadOnly, TabularInline):
    model = Seat
    extra = 0
    fields = (
        "position",
        "user",
        "awaiting_move",
        "turn_started_at",
        "deadline",
        "result",
        "place",
    )
    readonly_fields = fields


class MoveInline(ReadOnly, TabularInline):
    """The move log: every logged action is public (played cards lie face up)."""

    model = Move
    extra = 0
    fields = (
        "seq",
        "position",
        "action",
        "created_at",
    )
    readonly_fields = fields
    ordering = ["seq"]


class GameReportInline(ReadOnly, TabularInline):
    model = Report
    fk_name = "game"
    extra = 0
    fields = (
        "created_at",
        "status",
        "reason",
        "reporter",
        "reported_user",
        "details",
    )
    readonly_fields = fields
    verbose_name_plural = "reports"


admin.site.unregister(Game)


@admin.register(Game)
class GameAdmin(ModerationPermissions, GamesGameAdmin):
    """The games admin of ``games.admin`` (no secret column), with the moderators' filters,
    inlines and actions."""

    list_display = ["id", "preset", "status", "num_players", "creator", "version", "updated_at", "links"]
    list_filter = ["status", "preset", StalledFilter, ReportedFilter]
    search_fields = ["seats__user__username"]
    inlines = [SeatInline, MoveInline, GameReportInline]
    actions = ["abort_games", "settle_games"]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return [*super().get_fields(request, obj), "links"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return [*super().get_readonly_fields(request, obj), "links"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description=_("pages"))
    def links(self, game: Game) -> str:
        return game_links(game.pk)

    @admin.action(
        description=_("Abort the selected games (no result, no stats, no rating)"), permissions=["abort"]
    )
    def abort_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> Any:
        return _form_action(
            self,
            request,
            queryset,
            form_class=ReasonForm,
            title=gettext("Abort games"),
            done=gettext("Aborted"),
            perform=lambda g, f: services.game_abort(
                moderator=_user(request), game=g, reason=f.cleaned_data["reason"]
            ),
        )

    @admin.action(
        description=_("Settle the selected stalled games (timeout for the player waited on)"),
        permissions=["settle"],
    )
    def settle_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> Any:
        return _form_action(
            self,
            request,
            queryset,
            form_class=ReasonForm,
            title=gettext("Settle stalled games: the engine's timeout for the player each game waits on"),
            done=gettext("Settled"),
            perform=lambda g, f: services.game_settle(
                moderator=_user(request), game=g, reason=f.cleaned_data["reason"]
            ),
        )


# --- users -------------------------------------------------------------------------------------


class SanctionInline(ReadOnly, TabularInline):
    model = Sanction
    fk_name = "user"
    extra = 0
    fields = (
        "kind",
        "starts_at",
        "ends_at",
        "reason",
        "created_by",
    )
    readonly_fields = fields


class ReportsReceivedInline(ReadOnly, TabularInline):
    model = Report
    fk_name = "reported_user"
    extra = 0
    fields = (
        "created_at",
        "status",
        "reason",
        "game",
        "message",
        "reporter",
        "details",
    )
    readonly_fields = fields
    verbose_name_plural = _("reports about this user")


class UserSeatInline(ReadOnly, TabularInline):
    model = Seat
    extra = 0
    fields = (
        "game",
        "game_status",
        "position",
        "result",
        "place",
        "joined_at",
    )
    readonly_fields = fields
    verbose_name_plural = _("games")
    ordering = ["-joined_at"]

    @admin.display(description=_("status"))
    def game_status(self, seat: Seat) -> str:
        return seat.game.status


class SanctionedFilter(admin.SimpleListFilter):
    title = _("sanctioned now")
    parameter_name = "sanctioned"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("mute", gettext("muted")), ("suspend", gettext("suspended"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() not in ("mute", "suspend"):
            return queryset
        now = timezone.now()
        active = Sanction.objects.filter(user=OuterRef("pk"), kind=self.value(), starts_at__lte=now).filter(
            Q(ends_at__isnull=True) | Q(ends_at__gt=now)
        )
        return queryset.filter(Exists(active))


admin.site.unregister(User)


@admin.register(User)
class UserAdmin(ModerationPermissions, AccountsUserAdmin):
    """Users with their sanctions, the reports about them and their games."""

    inlines = [SanctionInline, ReportsReceivedInline, UserSeatInline]
    list_filter = [*AccountsUserAdmin.list_filter, SanctionedFilter]
    actions = ["mute_users", "suspend_users", "make_moderators", "remove_moderators"]

    @admin.action(description=_("Mute the selected users"), permissions=["mute"])
    def mute_users(self, request: HttpRequest, queryset: QuerySet[Any]) -> Any:
        return _mute(self, request, lambda u: u, queryset)

    @admin.action(description=_("Suspend the selected users"), permissions=["suspend"])
    def suspend_users(self, request: HttpRequest, queryset: QuerySet[Any]) -> Any:
        return _suspend(self, request, lambda u: u, queryset)

    @admin.action(description=_("Make the selected users moderators"), permissions=["appoint"])
    def make_moderators(self, request: HttpRequest, queryset: QuerySet[Any]) -> Any:
        return _form_action(
            self,
            request,
            queryset,
            form_class=ReasonForm,
            title=gettext("Make moderators"),
            done=gettext("Made moderators"),
            perform=lambda u, f: services.moderator_grant(
                user=u, actor=_user(request), reason=f.cleaned_data["reason"]
            ),
        )

    @admin.action(description=_("Remove the selected users from the moderators"), permissions=["appoint"])
    def remove_moderators(self, request: HttpRequest, queryset: QuerySet[Any]) -> Any:
        return _form_action(
            self,
            request,
            queryset,
            form_class=ReasonForm,
            title=gettext("Remove moderators"),
            done=gettext("Removed from the moderators"),
            perform=lambda u, f: services.moderator_revoke(
                user=u, actor=_user(request), reason=f.cleaned_data["reason"]
            ),
        )


# --- the record --------------------------------------------------------------------------------


@admin.register(Sanction)
class SanctionAdmin(ReadOnly, ModelAdmin):
    list_display = ["id", "user", "kind", "starts_at", "ends_at", "reason", "created_by"]
    list_filter = ["kind", "starts_at"]
    list_select_related = ["user", "created_by"]
    search_fields = ["user__username", "reason"]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnly, ModelAdmin):
    """The audit log: readable by moderators, editable by nobody."""

    list_display = ["created_at", "actor", "action", "target", "game_id", "message_id", "report_id", "reason"]
    list_filter = ["action", "created_at"]
    list_select_related = ["actor", "target_user"]
    search_fields = ["reason", "actor__username", "target_user__username"]
    fields = (
        "created_at",
        "actor",
        "action",
        "target_user",
        "game",
        "message",
        "report",
        "reason",
        "details",
    )
    readonly_fields = fields
    actions = None

    @admin.display(description=_("to whom"))
    def target(self, entry: AuditEntry) -> str:
        return _link("accounts_user", entry.target_user_id, entry.target_user)
