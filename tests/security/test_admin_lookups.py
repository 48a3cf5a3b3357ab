"""The admin filters, orders and searches only on what each ModelAdmin declares, and shows no
secret (issue 16).

With a moderator's account an attacker read running games through Django's changelist query
string: ``/admin/games/game/?id__exact=G&state__hands__1__icontains="8H"`` listed the game only
if seat 1 held 8H, ``?state__stock__0=QS`` tested the next card, a binary search on
``?seed__lt=N`` found the seed in 62 requests, and ``/admin/accounts/user/?id=1&auth_token__key__gte=``
spelled out a user's API token. Django lets the query string filter on any lookup of a model's
own fields, and across a relation whose last step is a primary key.

These tests walk every ModelAdmin of ``admin.site._registry`` (third-party ones too) and try
undeclared lookups on every concrete field and relation, orderings by every column index and
searches: each is refused with a 400, and no answer depends on a hidden value. They also read
the admin pages of a running game and of a user for cards, seeds, tokens, password hashes and
session keys, and check that staff outside the Moderators group get no staff page.
"""

import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib import admin
from django.contrib.admin.filters import FieldListFilter, ListFilter, SimpleListFilter
from django.contrib.admin.utils import get_fields_from_path
from django.contrib.auth.models import Group
from django.core.cache import cache
from django.db import models
from django.test import Client, RequestFactory
from django.urls import reverse

from accounts.models import User
from games.models import Game, Move
from moderation import services as moderation_services
from moderation.models import MODERATORS_GROUP, Report
from tests.factories import PASSWORD, UserFactory

from .routes import ROUTES
from .test_access import ADMIN_URL_NAMES, PRESENT, admin_url
from .test_access import request as route_request
from .world import World, build_world

pytestmark = pytest.mark.django_db

#: The secret columns, the test's own list (so that dropping one from the admin's table still
#: fails here): the hidden state of a game, and credentials. API-token models are found below.
SECRET_COLUMNS: dict[str, set[str]] = {
    "games.Game": {"seed", "deal", "state", "invite_token"},
    "accounts.User": {"password"},
    "moderation.LoginSession": {"session_key"},
    "sessions.Session": {"session_key", "session_data"},
    "account.EmailConfirmation": {"key"},
}
LOOKUP_TYPES = ("exact", "lt", "gte", "icontains", "isnull")
JSON_PATHS = (
    "hands__0__icontains",
    "hands__1__icontains",
    "stock__0",
    "stock__0__icontains",
    "trump",
    "has_key",
    "contains",
)
#: Attack paths through relations, tried on every admin (refused, whether or not they exist).
RELATED_PATHS = (
    "auth_token__key__gte",
    "auth_token_set__digest__gte",
    "auth_token_set__token_key__gte",
    "user__auth_token__key__gte",
    "user__password__startswith",
    "creator__password__startswith",
    "seats__game__seed__lt",
    "seats__game__state__hands__0__icontains",
    "created_games__seed__lt",
    "game__seed__lt",
    "game__state__stock__0",
    "game__deal__hands__0__icontains",
    "game__invite_token__startswith",
    "message__game__seed__lt",
    "login_sessions__session_key__gte",
    "pk__gte",
    "no_such_field",
)


def token_models() -> list[type[models.Model]]:
    """The API-token models the site has, whichever library provides them."""
    knox_model = getattr(settings, "KNOX_TOKEN_MODEL", None)
    return [
        model
        for model in apps.get_models()
        if model._meta.app_label in {"authtoken", "knox"} or model._meta.label == knox_model
    ]


#: The stored secrets of an API-token model: DRF's key, knox's digest and the token's first characters.
TOKEN_COLUMNS = {"key", "digest", "token_key", "salt"}


def secret_columns(model: type[models.Model]) -> set[str]:
    concrete = model._meta.concrete_model or model
    names = set(SECRET_COLUMNS.get(concrete._meta.label, set()))
    if concrete in token_models():
        names |= {f.name for f in model._meta.concrete_fields if f.name in TOKEN_COLUMNS}
    return names


def reads_secret(model: type[models.Model], path: str) -> bool:
    """Whether a field path (a filter, column or search field) steps on a secret column."""
    for part in path.lstrip("^=@-").split("__"):
        if part in secret_columns(model):
            return True
        try:
            field = model._meta.get_field(part)
        except Exception:
            return False
        if not field.is_relation or field.related_model is None:
            return False
        model = field.related_model
    return model._meta.pk is not None and model._meta.pk.name in secret_columns(model)


# --- fixtures ----------------------------------------------------------------------------------


@pytest.fixture
def world() -> World:
    cache.clear()  # API throttles and axes counters from other tests
    return build_world()


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def root() -> Client:
    """A superuser: every changelist opens for them, so no 403 can hide a hole."""
    return logged_in(UserFactory(username="root", is_superuser=True, is_staff=True))


@pytest.fixture
def moderator() -> Client:
    user = UserFactory(username="mod")
    moderation_services.moderator_grant(user=user, actor=None, reason="test moderator")
    return logged_in(user)


@pytest.fixture
def api_token(world: World) -> str:
    """Olga's API token, made through the API as she would (whatever the token model)."""
    response = Client().post(
        reverse("api:token"),
        json.dumps({"username": "olga", "password": PASSWORD, "name": "my bot"}),
        content_type="application/json",
    )
    assert response.status_code in (200, 201), response.content
    token = response.json()["token"]
    assert isinstance(token, str) and len(token) >= 20
    return token


def credentials(world: World, token: str) -> dict[str, str]:
    """Every stored credential of the world's users: the secret strings no admin page may hold."""
    found = {"Olga's API token": token}
    for model in token_models():
        for row in model._default_manager.all():
            for name in secret_columns(model):
                value = getattr(row, name)
                if isinstance(value, str) and len(value) >= 6:
                    found[f"{model._meta.label}.{name} of {row.pk}"] = value
    for user in (world.olga, world.boris):
        user.refresh_from_db()
        found[f"{user.username}'s password hash"] = user.password
        _algorithm, *parts = user.password.split("$")
        # The admin's password widget shows the first characters of the salt and the hash.
        found[f"{user.username}'s password hash begins"] = parts[-1][:6]
        if len(parts) > 1:
            found[f"{user.username}'s salt begins"] = parts[-2][:6]
    if apps.is_installed("moderation"):
        from moderation.models import LoginSession

        for session in LoginSession.objects.all():
            found[f"session key of {session.user_id}"] = session.session_key
    return found


def game_secrets(world: World) -> dict[str, str]:
    secrets = {
        "the running game's seed": str(world.running.seed),
        "the private game's seed": str(world.private.seed),
        "the series game's seed": str(world.next_game.seed),
    }
    for game in (world.running, world.private, world.next_game):
        if game.invite_token:
            secrets[f"the share-link token of game {game.pk}"] = game.invite_token
    return secrets


def changelist(model: type[models.Model]) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")


def registry() -> list[tuple[type[models.Model], Any]]:
    return sorted(admin.site._registry.items(), key=lambda item: item[0]._meta.label)


def declared_parameters(model_admin: Any, request: Any) -> set[str]:
    """The query-string parameters the ModelAdmin's declared filters (and date hierarchy) read."""
    model = model_admin.model
    names: set[str] = set()
    for item in model_admin.get_list_filter(request):
        if isinstance(item, type) and issubclass(item, SimpleListFilter):
            names.add(str(item.parameter_name))
        elif isinstance(item, type) and issubclass(item, ListFilter):
            names |= {name for name in item(request, {}, model, model_admin).expected_parameters() if name}
        else:
            path, filter_class = item if isinstance(item, (list, tuple)) else (item, FieldListFilter.create)
            field = get_fields_from_path(model, path)[-1]
            spec = filter_class(field, request, {}, model, model_admin, field_path=path)
            names |= {name for name in spec.expected_parameters() if name}
    if model_admin.date_hierarchy:
        names |= {f"{model_admin.date_hierarchy}__{part}" for part in ("year", "month", "day")}
    return names


def tried_lookups(model: type[models.Model]) -> Iterator[str]:
    """Lookups on every concrete field and every relation of ``model``, and the attack paths."""
    for field in model._meta.concrete_fields:
        yield from dict.fromkeys((field.name, field.attname))
        for lookup in LOOKUP_TYPES:
            yield f"{field.name}__{lookup}"
        if isinstance(field, models.JSONField):
            for path in JSON_PATHS:
                yield f"{field.name}__{path}"
    for relation in model._meta.get_fields(include_hidden=True):
        if relation.is_relation and relation.related_model is not None and not relation.name.endswith("+"):
            for target in relation.related_model._meta.concrete_fields:
                yield f"{relation.name}__{target.name}__gte"
    yield from RELATED_PATHS


def plain_refusal(response: Any, where: str) -> str | None:
    """None if ``response`` is the admin's plain 400, else what is wrong with it."""
    if response.status_code != 400:
        return f"{where}: {response.status_code}, not 400"
    if not response["Content-Type"].startswith("text/plain"):
        return f"{where}: a 400 as {response['Content-Type']}, not a plain sentence"
    return None


def normalized(response: Any) -> bytes:
    """The body, less the per-request CSRF token."""
    return re.sub(rb'name="csrfmiddlewaretoken" value="[^"]*"', b"", response.content)


# --- every undeclared lookup, ordering and search is refused -----------------------------------


def test_every_undeclared_lookup_of_every_admin_is_refused(
    world: World, root: Client, api_token: str
) -> None:
    request = RequestFactory().get("/")
    request.user = User.objects.get(username="root")
    failures: list[str] = []
    walked = 0
    for model, model_admin in registry():
        url = changelist(model)
        assert root.get(url).status_code == 200, url
        declared = declared_parameters(model_admin, request)
        for lookup in dict.fromkeys(tried_lookups(model)):
            where = f"{url}?{lookup}="
            if lookup in declared:
                if reads_secret(model, lookup):
                    failures.append(f"{where}: a declared filter on a secret column")
                continue
            walked += 1
            value = "1" if lookup.endswith("isnull") else "0"
            if problem := plain_refusal(root.get(url, {lookup: value}), where):
                failures.append(problem)
    assert walked > 1000, walked
    assert not failures, f"{len(failures)} lookups not refused, e.g.:\n" + "\n".join(failures[:40])


def test_every_ordering_but_the_declared_sortable_columns_is_refused(world: World, root: Client) -> None:
    failures: list[str] = []
    for model, _model_admin in registry():
        url = changelist(model)
        baseline = root.get(url)
        assert baseline.status_code == 200, url
        cl = baseline.context["cl"]
        columns = list(cl.list_display)
        for index in [*range(len(columns) + 2), 99, 12345678901234567890]:
            name = columns[index] if index < len(columns) else None
            order_field = cl.get_ordering_field(name) if name is not None else None
            sortable = (
                name is not None
                and (cl.sortable_by is None or name in cl.sortable_by)
                and bool(order_field)
                and not (isinstance(order_field, str) and reads_secret(model, order_field))
            )
            for sign in ("", "-"):
                response = root.get(url, {"o": f"{sign}{index}"})
                where = f"{url}?o={sign}{index} ({name})"
                if sortable:
                    if response.status_code != 200:
                        failures.append(f"{where}: a sortable column answers {response.status_code}")
                elif problem := plain_refusal(response, where):
                    failures.append(problem)
        for garbage in ("x", "1.x", "--1", "1-", " 1", "1..2", "+1"):
            if problem := plain_refusal(root.get(url, {"o": garbage}), f"{url}?o={garbage!r}"):
                failures.append(problem)
    assert not failures, f"{len(failures)} orderings not refused, e.g.:\n" + "\n".join(failures[:40])


def test_search_reads_only_the_declared_search_fields(world: World, root: Client, api_token: str) -> None:
    request = RequestFactory().get("/")
    request.user = User.objects.get(username="root")
    assert world.running.state is not None
    engine = world.running.engine()
    guesses = [
        (str(world.running.seed), str(world.running.seed + 1)),
        (engine.hands[1][0], engine.hands[0][0]),
        (api_token, "x" * len(api_token)),
        (api_token[:8], "y" * 8),
    ]
    failures: list[str] = []
    for model, model_admin in registry():
        url = changelist(model)
        search_fields = list(model_admin.get_search_fields(request))
        if not search_fields:
            if problem := plain_refusal(root.get(url, {"q": "anything"}), f"{url}?q= (no search box)"):
                failures.append(problem)
            continue
        for field in search_fields:
            if reads_secret(model, field):
                failures.append(f"{url}: searches the secret {field}")
        for secret, other in guesses:
            found = root.get(url, {"q": secret})
            not_found = root.get(url, {"q": other})
            assert found.status_code == not_found.status_code == 200, url
            listed = [obj.pk for obj in found.context["cl"].result_list]
            if listed != [obj.pk for obj in not_found.context["cl"].result_list]:
                failures.append(f"{url}?q={secret[:12]}…: the list depends on a secret")
    assert not failures, "\n".join(failures)


def test_no_list_depends_on_a_running_games_cards_or_seed(
    world: World, root: Client, moderator: Client, api_token: str
) -> None:
    """The attacks of the issue, and their variants on every admin that links to a game or a
    user: two requests that differ only in the guessed card, seed or token get the same 400."""
    running = world.running
    assert running.state is not None
    engine = running.engine()
    held = engine.hands[1][0]
    not_held = engine.hands[0][0]
    top = engine.stock[0]
    seed = running.seed
    private = world.private
    olga = world.olga

    def quoted(card: str) -> str:
        return quote(f'"{card}"')

    game_list = changelist(Game)
    pairs = [
        (
            f"{game_list}?id__exact={running.pk}&state__hands__1__icontains={quoted(held)}",
            f"{game_list}?id__exact={running.pk}&state__hands__1__icontains={quoted(not_held)}",
        ),
        (f"{game_list}?state__stock__0={top}", f"{game_list}?state__stock__0={not_held}"),
        (
            f"{game_list}?id__exact={running.pk}&seed__lt={seed + 1}",
            f"{game_list}?id__exact={running.pk}&seed__lt={seed}",
        ),
        (f"{game_list}?seed={seed}", f"{game_list}?seed={seed + 1}"),
        (f"{game_list}?deal__isnull=True", f"{game_list}?deal__isnull=False"),
        (
            f"{game_list}?id__exact={private.pk}&invite_token__startswith={private.invite_token[:4]}",
            f"{game_list}?id__exact={private.pk}&invite_token__startswith=~~~~",
        ),
        (
            f"{game_list}?seats__game__seed__lt={seed + 1}",
            f"{game_list}?seats__game__seed__lt={seed}",
        ),
    ]
    for model in (Move, Report):
        pairs.append(
            (f"{changelist(model)}?game__seed__lt={seed + 1}", f"{changelist(model)}?game__seed__lt={seed}")
        )
    pairs.append(
        (
            f"{changelist(Move)}?game__state__stock__0={top}",
            f"{changelist(Move)}?game__state__stock__0={held}",
        )
    )
    user_list = changelist(User)
    olga.refresh_from_db()
    pairs += [
        (
            f"{user_list}?id={olga.pk}&password__startswith={quote(olga.password[:6])}",
            f"{user_list}?id={olga.pk}&password__startswith=~",
        ),
        (
            f"{user_list}?id={olga.pk}&seats__game__seed__lt={seed + 1}",
            f"{user_list}?id={olga.pk}&seats__game__seed__lt={seed}",
        ),
    ]
    for relation in User._meta.get_fields(include_hidden=True):
        if relation.is_relation and relation.related_model in token_models():
            for column in secret_columns(relation.related_model):
                for lookup in ("gte", "startswith", "exact"):
                    pairs.append(
                        (
                            f"{user_list}?id={olga.pk}&{relation.name}__{column}__{lookup}=",
                            f"{user_list}?id={olga.pk}&{relation.name}__{column}__{lookup}=~",
                        )
                    )
    assert len(pairs) > 15
    secrets = [str(seed), held, top, api_token]
    for who, client in (("root", root), ("moderator", moderator)):
        for guessed, other in pairs:
            first, second = client.get(guessed), client.get(other)
            for response, url in ((first, guessed), (second, other)):
                problem = plain_refusal(response, f"{who} {url}")
                assert problem is None, problem
                assert not any(secret in response.content.decode() for secret in secrets), url
            assert normalized(first) == normalized(second), f"{who}: {guessed} and {other} answer differently"


# --- what still works ---------------------------------------------------------------------------


def test_the_declared_filters_orderings_and_searches_still_work(
    world: World, root: Client, moderator: Client
) -> None:
    games = changelist(Game)
    users = changelist(User)
    moderators_group = Group.objects.get(name=MODERATORS_GROUP)
    report = Report.objects.create(
        reporter=world.boris, reported_user=world.olga, game=world.running, reason="spam"
    )

    def listed(client: Client, url: str, **query: Any) -> set[Any]:
        response = client.get(url, query)
        assert response.status_code == 200, (url, query, response.content[:300])
        return {obj.pk for obj in response.context["cl"].result_list}

    # The tournament's round game: Olga and Boris, under way.
    tournament_game = Game.objects.get(tournament_table__round__tournament=world.tournament).pk
    for client in (root, moderator):
        assert listed(client, games, status__exact="active") == {
            world.running.pk,
            world.next_game.pk,
            tournament_game,
        }
        assert listed(client, games, status__exact="finished") == {world.finished.pk}
        assert world.private.pk in listed(client, games, status__exact="open", preset="classic")
        assert listed(client, games, q="boris") == {
            world.running.pk,
            world.finished.pk,
            world.next_game.pk,
            tournament_game,
        }
        assert listed(client, games, reported="open") == {world.running.pk}
        assert listed(client, games, stalled_days="7") == set()
        assert len(listed(client, games, o="-2.1")) == 5
        running_moves = set(Move.objects.filter(game=world.running).values_list("pk", flat=True))
        assert listed(client, changelist(Move), game__id__exact=world.running.pk) == running_moves
        assert listed(client, users, q="olga") == {world.olga.pk}
        assert User.objects.get(username="mod").pk in listed(
            client, users, groups__id__exact=moderators_group.pk
        )
        assert world.olga.pk in listed(client, users, is_staff__exact="0")
        assert listed(
            client, changelist(Report), status__exact="open", created_at__gte="2000-01-01 00:00:00+00:00"
        ) == {report.pk}
        # A declared filter with a value it cannot read is refused too, not silently ignored.
        for url, query in (
            (games, {"stalled_days": "forever"}),
            (games, {"status__exact": "active", "preset__exact": "classic"}),  # the filter reads preset=
            (changelist(Report), {"created_at__gte": "not a date"}),
        ):
            problem = plain_refusal(client.get(url, query), f"{url} {query}")
            assert problem is None, problem


def test_a_refusal_says_what_was_refused_and_nothing_else(world: World, moderator: Client) -> None:
    response = moderator.get(changelist(Game), {"seed__lt": str(world.running.seed)})
    assert plain_refusal(response, "seed__lt") is None
    text = response.content.decode()
    assert "seed__lt" in text and str(world.running.seed) not in text
    assert len(text) < 300, text


# --- no page shows a secret --------------------------------------------------------------------


def test_no_admin_page_shows_a_hidden_card_a_seed_or_a_credential(
    world: World, root: Client, moderator: Client, api_token: str
) -> None:
    running, olga = world.running, world.olga
    pages = {
        "the games": changelist(Game),
        "the games, searched": changelist(Game) + "?q=olga",
        "the running game": reverse("admin:games_game_change", args=[running.pk]),
        "its history": reverse("admin:games_game_history", args=[running.pk]),
        "the private game": reverse("admin:games_game_change", args=[world.private.pk]),
        "the series game": reverse("admin:games_game_change", args=[world.next_game.pk]),
        "the moves": changelist(Move),
        "the users": changelist(User) + "?q=olga",
        "Olga": reverse("admin:accounts_user_change", args=[olga.pk]),
        "Olga's history": reverse("admin:accounts_user_history", args=[olga.pk]),
        "the admin's front page": reverse("admin:index"),
    }
    for model, _model_admin in registry():
        pages[f"the {model._meta.label} list"] = changelist(model)
        first = model._default_manager.order_by("pk").first()
        if first is not None:
            name = f"admin:{model._meta.app_label}_{model._meta.model_name}_change"
            pages[f"a {model._meta.label}"] = reverse(name, args=[first.pk])
    # The move list shows every game's moves: a card played in the finished game may still be
    # hidden in the running one, so only the running game's moves are left to list.
    Move.objects.exclude(game=running).delete()
    forbidden = {**game_secrets(world), **credentials(world, api_token)}
    hidden = world.hidden_traces()
    assert hidden and len(forbidden) > 6
    checked = 0
    for who, client in (("root", root), ("moderator", moderator)):
        for what, url in pages.items():
            response = client.get(url)
            if who == "moderator" and response.status_code == 403:
                continue  # not a moderator's model (root reads it)
            assert response.status_code == 200, (who, url, response.status_code)
            text = response.content.decode()
            for name, secret in forbidden.items():
                assert secret not in text, f"{who}, {what} ({url}): {name} shows"
            for card, trace in hidden:
                assert trace not in text, f"{who}, {what} ({url}): the hidden card {card} shows as {trace!r}"
            for key in ("hands", "stock"):
                for spelled in (f'"{key}"', f"&quot;{key}&quot;"):
                    assert spelled not in text, f"{who}, {what} ({url}): the game state shows"
            checked += 1
    assert checked > 30, checked


def test_every_admin_is_the_sites_and_no_credential_model_is_registered() -> None:
    from durak_site.admin import InlineModelAdmin, ModelAdmin, touches_secret

    request = RequestFactory().get("/")
    for model, model_admin in registry():
        assert isinstance(model_admin, ModelAdmin), f"{model._meta.label}: {type(model_admin).__mro__}"
        for inline in model_admin.get_inlines(request, None):
            assert issubclass(inline, InlineModelAdmin), (model._meta.label, inline)
        assert not reads_secret(model, "pk"), f"{model._meta.label}: its primary key is a credential"
    # The admin's table of secrets agrees with this test's, for every model the site has.
    for model in apps.get_models():
        for name in secret_columns(model):
            assert touches_secret(model, name), f"{model._meta.label}.{name} is not secret to the admin"


def test_an_admin_that_declares_a_secret_column_fails_the_checks() -> None:
    from durak_site.admin import ModelAdmin

    leaky = type(
        "LeakyGameAdmin",
        (ModelAdmin,),
        {"list_display": ["id", "seed"], "list_filter": ["state"], "search_fields": ["creator__password"]},
    )
    errors = leaky(Game, admin.site).check()
    secret_errors = [error for error in errors if error.id == "durak_site.E001"]
    assert {error.msg.split("'")[1] for error in secret_errors} >= {"seed", "state", "creator__password"}


# --- staff pages are moderators' only ----------------------------------------------------------


def test_staff_outside_the_moderators_get_403_on_every_staff_page(world: World, moderator: Client) -> None:
    """A staff page is one a moderator may open and a plain user may not; every admin URL is one.
    A staff account outside the Moderators group gets 403 on each, and nothing more than a plain
    user anywhere else."""
    staff = logged_in(UserFactory(username="staffer", is_staff=True))
    stranger = logged_in(world.stranger)
    staff_pages: list[tuple[str, str]] = [(name, admin_url(name, world)) for name in ADMIN_URL_NAMES]
    others: list[tuple[str, Any, Any]] = []
    for name in PRESENT:
        route = ROUTES[name]
        if route.method != "GET":
            continue
        for target in route.targets(world):
            as_moderator = route_request(moderator, route, name, world, target)
            as_stranger = route_request(stranger, route, name, world, target)
            if as_moderator.status_code == 200 and as_stranger.status_code != 200:
                kwargs, query = target
                staff_pages.append((name, reverse(name, kwargs=kwargs) + (f"?{query}" if query else "")))
            else:
                others.append((name, target, as_stranger.status_code))
    assert "stats:farming" in {name for name, _ in staff_pages}
    for name, url in staff_pages:
        response = staff.post(url) if name == "admin:logout" else staff.get(url)
        assert response.status_code == 403, (
            f"staff outside the Moderators: {name} ({url}) answers {response.status_code}"
        )
    for name, target, stranger_status in others:
        response = route_request(staff, ROUTES[name], name, world, target)
        assert response.status_code == stranger_status, f"{name} {target}: staff get {response.status_code}"
