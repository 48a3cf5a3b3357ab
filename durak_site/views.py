"""Views of the site as a whole (not of one app)."""

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


@require_GET
@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """ "ok" if the web process answers: for load balancers and uptime checks, and the trivial
    view the load test (benchmarks/load.py) compares the game requests with. It touches neither
    the database nor the session, so it says nothing about PostgreSQL or Redis."""
    return HttpResponse("ok", content_type="text/plain")


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """The page the service worker shows offline for a page it has not kept
    (``durak_site.offline``). The same for everyone in a language: no user, no query, so the
    copy the worker keeps holds nothing of anyone's."""
    response = HttpResponse(render_to_string("offline.html"))
    response["Cache-Control"] = "no-cache"
    return response
