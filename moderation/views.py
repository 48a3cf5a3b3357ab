"""The one moderation page for everyone: reporting a player, a chat message or a game.
Everything else moderators do happens in the admin (``moderation.admin``)."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from chat.models import ChatMessage
from chat.services import channel_for
from games import selectors as game_selectors
from games.exceptions import GameNotFound

from . import services
from .models import Report


class ReportForm(forms.Form):
    reason = forms.ChoiceField(
        label=gettext_lazy("Why?"), choices=Report.Reason.choices, widget=forms.RadioSelect
    )
    details = forms.CharField(
        required=False,
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3}),
        label=gettext_lazy("Details (optional)"),
    )


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value else None
    except ValueError:
        raise Http404(_("No such thing to report.")) from None


@login_required
def report_create(request: HttpRequest) -> HttpResponse:
    """``?message=ID``, ``?user=ID[&game=ID]`` or ``?game=ID``: what is reported."""
    source = request.POST if request.method == "POST" else request.GET
    message_id, user_id, game_id = (_int(source.get(key)) for key in ("message", "user", "game"))
    message = reported_user = game = None
    shared = game_selectors.share_link_game_ids(request.session)
    if message_id is not None:
        message = get_object_or_404(ChatMessage.objects.select_related("author", "game"), pk=message_id)
        # The page quotes the message: only to someone who reads its channel (not the
        # players' chat to a spectator who guesses an id), in a game they may see.
        if (
            not game_selectors.game_visible_to(game=message.game, user=request.user, shared_game_ids=shared)
            or channel_for(game=message.game, user=request.user) != message.channel  # type: ignore[arg-type]
        ):
            raise Http404("No such thing to report.")
        game = message.game
    else:
        if user_id is not None:
            reported_user = get_object_or_404(User, pk=user_id)
        if game_id is not None:
            try:
                game = game_selectors.game_get_for_viewer(
                    game_id=game_id, user=request.user, shared_game_ids=shared
                )
            except GameNotFound:
                raise Http404(_("No such thing to report.")) from None
    if message is None and reported_user is None and game is None:
        raise Http404(_("Nothing to report."))
    form = ReportForm(request.POST or None)
    error = ""
    if request.method == "POST" and form.is_valid():
        try:
            services.report_create(
                reporter=request.user,  # type: ignore[arg-type]
                reason=form.cleaned_data["reason"],
                details=form.cleaned_data["details"],
                reported_user=reported_user,
                game=game,
                message=message,
            )
        except services.ModerationError as failure:
            error = failure.message
        else:
            messages.success(request, _("Thank you: your report is in the moderators' queue."))
            return redirect("games:detail", game_id=game.pk) if game is not None else redirect("games:lobby")
    context = {
        "form": form,
        "error": error,
        "message": message,
        "reported_user": reported_user,
        "game": game,
        "target": {"message": message_id, "user": user_id, "game": game_id},
    }
    return render(request, "moderation/report.html", context, status=400 if error or form.errors else 200)
