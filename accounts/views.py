"""The API tokens page, linked from the settings page: your tokens, a form for a new one (shown
on the answer to that form, once), a revoke button for each. Thin: ``accounts.tokens`` does
the writes. And the private note about a player, posted from their profile
(``accounts.relations.note_set``)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import relations, tokens
from .forms import ApiTokenForm
from .models import User


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


@login_required
def api_tokens(request: HttpRequest) -> HttpResponse:
    user = _user(request)
    form = ApiTokenForm(request.POST or None)
    new_token = new_token_id = None
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                made, new_token = tokens.token_create(
                    user=user, name=form.cleaned_data["name"], days=form.cleaned_data["days"]
                )
            except tokens.TokenLimitReached as error:
                form.add_error(None, str(error))
                status = 400
            else:
                new_token_id = made.pk
                form = ApiTokenForm()
        else:
            status = 400
    context = {
        "tokens": tokens.token_list(user=user),
        "form": form,
        # Only in this answer: the page is not cached and the token is stored nowhere.
        "new_token": new_token,
        "new_token_id": new_token_id,
    }
    response = render(request, "accounts/api_tokens.html", context, status=status)
    response["Cache-Control"] = "no-store"
    return response


@require_POST
@login_required
def api_token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    if not tokens.token_revoke(user=_user(request), token_id=token_id):
        raise Http404(_("You have no API token with this id."))
    messages.success(request, _("The token was revoked: it no longer works."))
    return redirect("accounts:api_tokens")


@require_POST
@login_required
def note_save(request: HttpRequest, username: str) -> HttpResponse:
    """Write, change or remove (an empty text, or the remove button) your private note about a
    player, then back to their profile with what happened."""
    about = User.objects.filter(username=username, is_active=True).first()
    if about is None:
        raise Http404(_("No such player."))
    text = "" if request.POST.get("remove") else request.POST.get("text", "")
    try:
        note = relations.note_set(author=_user(request), about=about, text=text)
    except relations.RelationError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Your note was saved.") if note else _("Your note was removed."))
    return redirect("stats:profile", username=about.username)
