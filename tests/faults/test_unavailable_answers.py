"""The 503 answers of ``durak_site.middleware`` without a subprocess: which errors become
them, what each kind of request gets, and that answering needs no database."""

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError, InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory

from durak_site.middleware import DatabaseUnavailableMiddleware

TRY_AGAIN = "please try again in a few seconds"


def middleware() -> DatabaseUnavailableMiddleware:
    return DatabaseUnavailableMiddleware(lambda request: HttpResponse())


@pytest.mark.parametrize(
    "error", [OperationalError("connection refused"), InterfaceError("connection already closed")]
)
def test_a_lost_database_is_a_503_for_pages_fragments_and_the_api(error: Exception) -> None:
    # No django_db mark: any query while answering would raise here.
    factory = RequestFactory()
    page = middleware().process_exception(factory.get("/games/1/"), error)
    fragment = middleware().process_exception(
        factory.get("/games/1/poll/", headers={"HX-Request": "true"}), error
    )
    api = middleware().process_exception(factory.post("/api/games/1/actions/"), error)
    assert page is not None and fragment is not None and api is not None
    for answer in (page, fragment, api):
        assert answer.status_code == 503
        assert answer["Retry-After"] == "5"
    assert "<html" in page.content.decode() and TRY_AGAIN in page.content.decode()
    assert "<html" not in fragment.content.decode() and TRY_AGAIN in fragment.content.decode()
    assert api["Content-Type"] == "application/json"
    body = json.loads(api.content)
    assert body["code"] == "service_unavailable" and TRY_AGAIN in body["detail"]


def test_other_database_errors_stay_server_errors() -> None:
    """An IntegrityError is a bug, not an outage: "try again" would not help."""
    request = RequestFactory().get("/games/1/")
    assert middleware().process_exception(request, IntegrityError("duplicate key")) is None
    assert middleware().process_exception(request, ValueError("bug")) is None


class DatabaseGoneMiddleware:
    """Stands for a middleware that queries (the session's save) while the database is down."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        raise OperationalError("server closed the connection unexpectedly")


def test_a_lost_database_outside_any_view_is_a_503_too(settings: Any) -> None:
    settings.MIDDLEWARE = [
        *settings.MIDDLEWARE,
        "tests.faults.test_unavailable_answers.DatabaseGoneMiddleware",
    ]
    client = Client(raise_request_exception=False)
    page = client.get("/healthz")
    assert page.status_code == 503 and TRY_AGAIN in page.content.decode()
    api = client.get("/api/me/")
    assert api.status_code == 503 and api.json()["code"] == "service_unavailable"
