"""Drill: a forged ``X-Forwarded-For`` sent to the production server (gunicorn with the uvicorn
worker, started in the project folder so it reads ``gunicorn.conf.py``) from the machine itself.

uvicorn rewrites the connection's address from that header when the connection comes from an
address it trusts, 127.0.0.1 by default, before Django sees it: then no check in the
application could tell a forged address from a real one. The server trusts what
``TRUSTED_PROXIES`` names (nobody by default), so the limits hold: the API's log-in rate, the
site's log-in form (allauth's failed log-ins per address) and django-axes' lockout; and the
access log names the real client. With 127.0.0.1 trusted, the clients behind it are counted apart.
(Every limit through Django's test client: tests/security/test_forged_addresses.py.)
"""

from collections.abc import Iterator
from itertools import count

import httpx

from accounts.models import User
from tests.factories import PASSWORD

from .conftest import Site

TOKEN_URL = "/api/auth/token/"
#: The worker's access log goes to the site's log (gunicorn reads GUNICORN_CMD_ARGS too).
ACCESS_LOG = "--access-logfile=-"
CLIENT_A, CLIENT_B = "203.0.113.1", "203.0.113.2"


def forged() -> Iterator[str]:
    """A new forged X-Forwarded-For for every request."""
    for n in count(1):
        yield f"198.51.100.{n}"


def api_log_in(site: Site, username: str, forwarded: str) -> httpx.Response:
    return httpx.post(
        f"{site.url}{TOKEN_URL}",
        json={"username": username, "password": "guess"},
        headers={"X-Forwarded-For": forwarded},
        timeout=30,
    )


def form_client(site: Site) -> httpx.Client:
    """A browser on the log-in page: it has the CSRF cookie the form needs."""
    client = httpx.Client(base_url=site.url, timeout=30, follow_redirects=False)
    assert client.get("/accounts/login/").status_code == 200
    return client


def site_log_in(client: httpx.Client, login: str, password: str, forwarded: str) -> httpx.Response:
    return client.post(
        "/accounts/login/",
        data={"login": login, "password": password, "csrfmiddlewaretoken": client.cookies["csrftoken"]},
        headers={"X-Forwarded-For": forwarded},
    )


def access_lines(site: Site) -> list[str]:
    return [line for line in site.log().splitlines() if '"POST /' in line]


def test_forged_forwarded_for_resets_neither_the_api_rate_nor_the_lockout(site: Site) -> None:
    User.objects.create_user("carol", "carol@example.com", PASSWORD)
    site.start(API_RATE_AUTH="3/min", AXES_FAILURE_LIMIT="3", GUNICORN_CMD_ARGS=ACCESS_LOG)
    headers = forged()

    # The API's log-in rate, guessing at a different account each time.
    answers = [api_log_in(site, f"target-{n}", next(headers)) for n in range(4)]
    assert [answer.status_code for answer in answers] == [400, 400, 400, 429], [a.text for a in answers]
    assert answers[-1].json()["code"] == "throttled"

    # django-axes: three failures at one account from one address lock it, the right password too.
    browser = form_client(site)
    failures = [site_log_in(browser, "carol", "wrong", next(headers)) for _ in range(3)]
    assert [answer.status_code for answer in failures] == [200, 200, 429]
    locked = site_log_in(browser, "carol", PASSWORD, next(headers))
    assert locked.status_code == 429
    assert "too many" in locked.text.lower()

    # The access log names the connection, not what it claimed.
    lines = access_lines(site)
    assert len(lines) == 8, site.log()[-3000:]
    assert all(line.lstrip().startswith("127.0.0.1:") for line in lines), lines
    assert "198.51.100." not in site.log()


def test_forged_forwarded_for_does_not_reset_the_site_log_in_limit(site: Site) -> None:
    site.start()
    headers = forged()
    browser = form_client(site)
    # allauth: ten failed log-ins a minute per address (at names of no account: axes stays out).
    answers = [site_log_in(browser, f"ghost-{n}", "guess", next(headers)) for n in range(11)]
    too_many = ["Too many failed login attempts" in answer.text for answer in answers]
    assert too_many == [False] * 10 + [True]


def test_behind_a_trusted_proxy_the_server_counts_its_clients_apart(site: Site) -> None:
    site.start(TRUSTED_PROXIES="127.0.0.1", API_RATE_AUTH="3/min", GUNICORN_CMD_ARGS=ACCESS_LOG)
    answers = [api_log_in(site, f"target-{n}", CLIENT_A).status_code for n in range(4)]
    assert answers == [400, 400, 400, 429]
    # What client A wrote itself, left of the proxy's entry, changes nothing.
    assert api_log_in(site, "target-5", f"198.51.100.7, {CLIENT_A}").status_code == 429
    # Client B, behind the same proxy, has its own count.
    assert api_log_in(site, "target-6", CLIENT_B).status_code == 400

    lines = access_lines(site)
    assert len(lines) == 6, site.log()[-3000:]
    assert [line.lstrip().split(":")[0] for line in lines] == [CLIENT_A] * 5 + [CLIENT_B], lines
