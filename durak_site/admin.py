"""The base of every ModelAdmin of the site: the admin filters, orders and searches only on what
an admin declares, and no admin shows or reaches a secret column.

Django's ModelAdmin lets the query string filter on any lookup of the model's own columns
(``?seed__lt=N``, ``?state__hands__1__icontains="8H"``) and through any relation whose last step
is a primary key (``?auth_token__key__gte=...``): one yes-or-no answer per request, enough to
read a running game's cards, its seed or a user's API token. Here, on every changelist:

- a filter parameter must be one that a declared ``list_filter`` (or the ``date_hierarchy``)
  reads, with a value that filter can read (a ``SimpleListFilter``'s value one of its choices);
- ``o=`` must name sortable columns of the list by their index (``2.-4``);
- ``q=`` needs ``search_fields``, and searches only those;

anything else is answered 400 with a plain sentence, before a query runs on it.

Secret columns (``SECRET_FIELDS``: what a running game hides, and credentials) are left out of
every list, form, inline, search, filter and ordering, also of the third-party admins, and a
declaration that names one, directly or through a relation, fails ``manage.py check``. The
admin site (``moderation.admin_site``) puts every admin it registers on this base and never
registers a model whose primary key is a secret.

Neither running nor finished games show their seed, deal or state here: once a game is over its
replay page (linked from each game) shows the deal to everyone, moderators included.
"""

import logging
import re
from collections.abc import Iterator, Sequence
from typing import Any

from django.conf import settings
from django.contrib import admin
from django.contrib.admin.exceptions import DisallowedModelAdminLookup, DisallowedModelAdminToField
from django.contrib.admin.filters import FieldListFilter, ListFilter, SimpleListFilter
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.admin.utils import flatten, flatten_fieldsets, get_fields_from_path
from django.contrib.admin.views.main import ORDER_VAR, ChangeList
from django.contrib.admin.widgets import url_params_from_lookup_dict
from django.core import checks
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.db.models.constants import LOOKUP_SEP
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.utils.translation import gettext as _

logger = logging.getLogger(__name__)

#: The secret columns, by model: what a running game hides (the cards of every hand and of the
#: stock follow from its seed, its stacked deal or its state; the share-link token lets anyone
#: join a private game) and credentials.
SECRET_FIELDS: dict[str, frozenset[str]] = {
    "games.Game": frozenset({"seed", "deal", "state", "invite_token"}),
    "accounts.User": frozenset({"password"}),
    "moderation.LoginSession": frozenset({"session_key"}),
    "sessions.Session": frozenset({"session_key", "session_data"}),
    "authtoken.Token": frozenset({"key"}),
    "knox.AuthToken": frozenset({"digest", "token_key"}),
    "account.EmailConfirmation": frozenset({"key"}),
    "socialaccount.SocialToken": frozenset({"token", "token_secret"}),
    "socialaccount.SocialApp": frozenset({"secret", "key"}),
}
#: The columns of django-rest-knox's token models (``KNOX_TOKEN_MODEL``, e.g. accounts.ApiToken).
KNOX_TOKEN_FIELDS = frozenset({"digest", "token_key"})
SECRET_DECLARATION = "durak_site.E001"
_ORDER_ITEM = re.compile(r"-?[0-9]{1,4}")


def _is_knox_token(model: type[models.Model]) -> bool:
    return model._meta.label == getattr(settings, "KNOX_TOKEN_MODEL", None) or any(
        f"{base.__module__}.{base.__qualname__}" == "knox.models.AbstractAuthToken" for base in model.__mro__
    )


def secret_fields(model: type[models.Model]) -> frozenset[str]:
    """The names of ``model``'s secret columns (a proxy model has its concrete model's)."""
    concrete = model._meta.concrete_model or model
    names = SECRET_FIELDS.get(concrete._meta.label, frozenset())
    return names | KNOX_TOKEN_FIELDS if _is_knox_token(concrete) else names


def touches_secret(model: type[models.Model], path: str) -> bool:
    """Whether the field path ``path`` from ``model`` reads a secret column: a filter lookup, a
    column, a search or ordering field in Django's ``a__b__lookup`` spelling (with the search and
    ordering prefixes ``^ = @ -``). A path ending on a relation reads the related row's primary
    key and is ordered by the related model's default ordering, so those count too.

    >>> from games.models import Seat
    >>> touches_secret(Seat, "game__state__hands__0__icontains"), touches_secret(Seat, "game__status")
    (True, False)
    """
    return _touches(model, path.lstrip("^=@-"), depth=0)


def _touches(model: type[models.Model], path: str, *, depth: int) -> bool:
    for part in path.split(LOOKUP_SEP):
        name = model._meta.pk.name if part == "pk" else part
        if name in secret_fields(model):
            return True
        try:
            field = model._meta.get_field(name)
        except FieldDoesNotExist:
            return False  # a lookup or transform of the public column before it
        if not field.is_relation or field.related_model is None:
            return False  # the rest are lookups or transforms (JSON keys) of this public column
        model = field.related_model
    if model._meta.pk.name in secret_fields(model):
        return True
    return depth < 3 and any(
        _touches(model, order.lstrip("-"), depth=depth + 1)
        for order in model._meta.ordering or ()
        if isinstance(order, str)
    )


def has_secret_key(model: type[models.Model]) -> bool:
    """A model whose primary key is a secret (DRF's token): its admin URLs would show it."""
    return touches_secret(model, "pk")


def _public(model: type[models.Model], names: Sequence[Any] | None) -> list[Any]:
    """``names`` (field names, callables, or tuples of names shown on one line) less those that
    read a secret."""
    kept: list[Any] = []
    for name in names or ():
        if isinstance(name, (list, tuple)):
            line = _public(model, name)
            if line:
                kept.append(tuple(line))
        elif not (isinstance(name, str) and touches_secret(model, name)):
            kept.append(name)
    return kept


class Refused(Exception):
    """A changelist query the admin does not answer; ``str()`` says why, to the moderator."""


def _refusal(request: HttpRequest, model: type[models.Model], error: Exception) -> HttpResponse:
    if isinstance(error, Refused):
        message = str(error)
    elif isinstance(error, DisallowedModelAdminToField):
        message = _("This list cannot be referenced by that field.")
    else:
        message = _("The list filters only with the filters on its page.")
    logger.warning(
        "admin query refused on %s for user %s: %s",
        model._meta.label,
        getattr(request.user, "pk", None),
        type(error).__name__,
    )
    return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")


# --- what is shown -----------------------------------------------------------------------------


class HidesSecrets(admin.options.BaseModelAdmin):  # type: ignore[type-arg]
    """Forms, fieldsets, readonly fields and orderings of a model or inline admin, less the secret
    columns; and a check that fails for a declaration naming one."""

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return _public(self.model, super().get_fields(request, obj))

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        return [
            (name, {**options, "fields": _public(self.model, options.get("fields", ()))})
            for name, options in super().get_fieldsets(request, obj)
        ]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return _public(self.model, super().get_readonly_fields(request, obj))

    def get_ordering(self, request: HttpRequest) -> Any:
        return _public(self.model, super().get_ordering(request))

    def to_field_allowed(self, request: HttpRequest, to_field: str) -> bool:
        return not touches_secret(self.model, to_field) and super().to_field_allowed(request, to_field)

    def check(self, **kwargs: Any) -> list[checks.CheckMessage]:
        return [*super().check(**kwargs), *_secret_declarations(self)]


def _declared_paths(model_admin: Any) -> Iterator[tuple[str, str]]:
    """(option, field path) for every field path a (model or inline) admin declares."""
    for option in (
        "list_display",
        "list_display_links",
        "list_editable",
        "search_fields",
        "ordering",
        "sortable_by",
        "readonly_fields",
        "raw_id_fields",
        "autocomplete_fields",
        "filter_horizontal",
        "filter_vertical",
    ):
        for item in flatten(getattr(model_admin, option, None) or ()):
            if isinstance(item, str):
                yield option, item
    for item in getattr(model_admin, "list_filter", None) or ():
        path = item[0] if isinstance(item, (list, tuple)) else item
        if isinstance(path, str):
            yield "list_filter", path
    if getattr(model_admin, "date_hierarchy", None):
        yield "date_hierarchy", model_admin.date_hierarchy
    for item in flatten(model_admin.fields or ()):
        yield "fields", item
    for item in flatten_fieldsets(model_admin.fieldsets or ()):
        yield "fieldsets", item
    for option in ("radio_fields", "prepopulated_fields"):
        for key, value in (getattr(model_admin, option, None) or {}).items():
            yield option, key
            for item in value if isinstance(value, (list, tuple)) else ():
                yield option, item


def _secret_declarations(model_admin: Any) -> list[checks.CheckMessage]:
    return [
        checks.Error(
            f"'{path}' in {option} of {type(model_admin).__name__} reads a secret column of "
            f"{model_admin.model._meta.label} (durak_site.admin.SECRET_FIELDS).",
            hint="Leave it out: no admin page may show, filter, search or sort on it.",
            obj=type(model_admin),
            id=SECRET_DECLARATION,
        )
        for option, path in _declared_paths(model_admin)
        if touches_secret(model_admin.model, path)
    ]


class InlineModelAdmin(HidesSecrets, admin.options.InlineModelAdmin):  # type: ignore[type-arg]
    """The base of every inline of the site."""


class TabularInline(InlineModelAdmin, admin.TabularInline):  # type: ignore[type-arg]
    pass


class StackedInline(InlineModelAdmin, admin.StackedInline):  # type: ignore[type-arg]
    pass


def _inline(inline_class: type[Any]) -> type[Any]:
    if issubclass(inline_class, InlineModelAdmin):
        return inline_class
    attributes = {"__module__": inline_class.__module__, "__doc__": inline_class.__doc__}
    return type(inline_class.__name__, (InlineModelAdmin, inline_class), attributes)


# --- what the query string may ask -------------------------------------------------------------


class DeclaredChangeList(ChangeList):
    """Django's change list that refuses (``Refused``) an ordering other than by sortable columns,
    a search without search fields and a filter value its filter cannot read. (Filter parameters
    themselves are vetted by ``ModelAdmin.lookup_allowed``.)"""

    def get_filters(self, request: HttpRequest) -> Any:
        # Django asks lookup_allowed too, but its refusal would not say which parameter.
        for parameter, values in self.get_filters_params().items():
            if not all(self.model_admin.lookup_allowed(parameter, value, request) for value in values):
                raise Refused(
                    _(
                        "The list filters only with the filters on its page; “%(parameter)s” is not one of them."
                    )
                    % {"parameter": parameter[:100]}
                )
        filters = super().get_filters(request)
        for spec in filters[0]:
            if not isinstance(spec, SimpleListFilter) or spec.value() is None:
                continue
            if spec.value() not in {str(value) for value, _label in spec.lookup_choices}:
                raise Refused(_("“%(parameter)s” has no such choice.") % {"parameter": spec.parameter_name})
        return filters

    def get_queryset(self, request: HttpRequest, exclude_parameters: Any = None) -> Any:
        if self.query and not self.search_fields:
            raise Refused(_("This list has no search."))
        return super().get_queryset(request, exclude_parameters)

    def get_ordering(self, request: HttpRequest, queryset: Any) -> Any:
        order = self.params.get(ORDER_VAR)
        if order:
            for item in order.split("."):
                if not self._sortable(item):
                    raise Refused(_("The list sorts only by its sortable columns."))
        return super().get_ordering(request, queryset)

    def _sortable(self, item: str) -> bool:
        if not _ORDER_ITEM.fullmatch(item):
            return False
        index = int(item.lstrip("-"))
        if index >= len(self.list_display):
            return False
        name = self.list_display[index]
        if self.sortable_by is not None and name not in self.sortable_by:
            return False
        order_field = self.get_ordering_field(name)
        return bool(order_field) and not (
            isinstance(order_field, str) and touches_secret(self.model, order_field)
        )


class ModelAdmin(HidesSecrets, admin.ModelAdmin):  # type: ignore[type-arg]
    """The base of every ModelAdmin of the site (the admin site puts third-party ones on it)."""

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return DeclaredChangeList

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        """Only the parameters the declared filters read (Django's default: any lookup on the
        model's own columns, and through relations ending on a primary key)."""
        if touches_secret(self.model, lookup):
            return False
        # Kept from Django: the raw-id popups of relations limited by ``limit_choices_to``.
        for limit in self.model._meta.related_fkey_lookups:
            if (lookup, value) in url_params_from_lookup_dict(limit() if callable(limit) else limit).items():
                return True
        return lookup in self.declared_lookups(request)

    def declared_lookups(self, request: HttpRequest | None) -> frozenset[str]:
        """The query-string parameters of the declared filters and date hierarchy. They depend on
        the declarations only, so they are worked out once per declaration (a filter may read
        the database to list its choices)."""
        list_filter = tuple(self.get_list_filter(request) if request is not None else self.list_filter)
        key = (list_filter, self.date_hierarchy)
        cache: dict[Any, frozenset[str]] = self.__dict__.setdefault("_declared_lookups", {})
        if key not in cache:
            cache[key] = frozenset(self._filter_parameters(request, list_filter))
        return cache[key]

    def _filter_parameters(self, request: Any, list_filter: Sequence[Any]) -> Iterator[str]:
        for item in list_filter:
            if isinstance(item, type) and issubclass(item, SimpleListFilter):
                yield str(item.parameter_name)
            elif isinstance(item, type) and issubclass(item, ListFilter):
                yield from (
                    name for name in item(request, {}, self.model, self).expected_parameters() if name
                )
            else:
                path, filter_class = (
                    item if isinstance(item, (list, tuple)) else (item, FieldListFilter.create)
                )
                field = get_fields_from_path(self.model, path)[-1]
                spec = filter_class(field, request, {}, self.model, self, field_path=path)
                yield from (name for name in spec.expected_parameters() if name)
        if self.date_hierarchy:
            yield from (f"{self.date_hierarchy}__{part}" for part in ("year", "month", "day"))

    def get_changelist_instance(self, request: HttpRequest) -> Any:
        try:
            return super().get_changelist_instance(request)
        except IncorrectLookupParameters as error:  # Django would redirect to ?e=1
            raise Refused(_("The filter values in the address are not valid.")) from error

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        try:
            return super().changelist_view(request, extra_context)
        except (Refused, DisallowedModelAdminLookup, DisallowedModelAdminToField) as error:
            return _refusal(request, self.model, error)

    def get_list_display(self, request: HttpRequest) -> Any:
        return _public(self.model, super().get_list_display(request))

    def get_list_display_links(self, request: HttpRequest, list_display: Any) -> Any:
        links = super().get_list_display_links(request, list_display)
        return None if links is None else _public(self.model, links)

    def get_list_filter(self, request: HttpRequest) -> Any:
        return [item for item in super().get_list_filter(request) if not self._filters_secret(item)]

    def _filters_secret(self, item: Any) -> bool:
        path = item[0] if isinstance(item, (list, tuple)) else item
        return isinstance(path, str) and touches_secret(self.model, path)

    def get_search_fields(self, request: HttpRequest) -> Any:
        return _public(self.model, super().get_search_fields(request))

    def get_sortable_by(self, request: HttpRequest) -> Any:
        return _public(self.model, super().get_sortable_by(request))

    def get_inlines(self, request: HttpRequest, obj: Any) -> Any:
        return [
            _inline(inline)
            for inline in super().get_inlines(request, obj)
            if not has_secret_key(inline.model)
        ]


def declared_only(admin_class: type[admin.ModelAdmin]) -> type[ModelAdmin]:  # type: ignore[type-arg]
    """``admin_class`` on the site's base: itself if it is already, else a subclass of both (for
    third-party admins: auth's groups, allauth, django-celery-beat, axes ...)."""
    if issubclass(admin_class, ModelAdmin):
        return admin_class
    attributes = {"__module__": admin_class.__module__, "__doc__": admin_class.__doc__}
    return type(admin_class.__name__, (ModelAdmin, admin_class), attributes)
