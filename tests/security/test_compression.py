"""Pages are compressed, with care for BREACH (``durak_site.compression``, docs/security.md).

- A page asked for with ``Accept-Encoding: gzip`` comes gzipped (and decompresses to the page),
  for a visitor and for a logged-in player whose own browsing asked (``Sec-Fetch-Site``
  ``same-origin`` or ``none``); each answer is padded by a random number of bytes, so the same
  page comes in several lengths.
- A logged-in player's page that another site made their browser load (``cross-site``,
  ``same-site``, or a browser that does not say) comes uncompressed: its length tells nothing
  of the cards beside the URL it echoes.
- The live stream is never compressed (gzip would hold its events back).
"""

import gzip
from typing import Any

import pytest
from django.http import HttpRequest, StreamingHttpResponse
from django.test import Client, RequestFactory

from durak_site.compression import CompressionMiddleware
from tests.factories import started_game

pytestmark = pytest.mark.django_db

GZIP = {"Accept-Encoding": "gzip, deflate, br, zstd"}


def player_client() -> tuple[Client, str]:
    game, (alice, _bob) = started_game()
    client = Client()
    client.force_login(alice)
    return client, f"/games/{game.pk}/"


def unzipped(response: Any) -> str:
    assert response["Content-Encoding"] == "gzip"
    return gzip.decompress(response.content).decode()


def test_a_visitors_page_is_compressed() -> None:
    response = Client().get("/", headers=GZIP)
    assert response.status_code == 200
    page = unzipped(response)
    assert "<html" in page and "</html>" in page
    assert "Accept-Encoding" in response["Vary"]
    assert int(response["Content-Length"]) < len(page.encode()) / 2


def test_without_accept_encoding_a_page_is_plain() -> None:
    response = Client().get("/")
    assert response.status_code == 200
    assert not response.has_header("Content-Encoding")
    assert b"</html>" in response.content


@pytest.mark.parametrize("site", ["same-origin", "none"])
def test_a_players_own_requests_are_compressed(site: str) -> None:
    client, game_page = player_client()
    response = client.get(game_page, headers={**GZIP, "Sec-Fetch-Site": site})
    assert response.status_code == 200
    assert 'id="hand-title"' in unzipped(response)  # the player's own cards are in it
    assert "Sec-Fetch-Site" in response["Vary"]
    table = client.get(game_page, headers={**GZIP, "Sec-Fetch-Site": site, "HX-Request": "true"})
    assert table.status_code == 200 and table["Content-Encoding"] == "gzip"


@pytest.mark.parametrize("site", ["cross-site", "same-site", None])
def test_a_players_page_that_another_site_asked_for_is_plain(site: str | None) -> None:
    client, game_page = player_client()
    headers = {**GZIP, **({"Sec-Fetch-Site": site} if site else {})}
    response = client.get(f"{game_page}?guess=7H7H7H", headers=headers)
    assert response.status_code == 200
    assert not response.has_header("Content-Encoding")
    assert b"</html>" in response.content
    assert {"Accept-Encoding", "Sec-Fetch-Site", "Cookie"} <= {
        part.strip() for part in response["Vary"].split(",")
    }


def test_the_same_page_comes_in_several_lengths() -> None:
    """Django's "Heal the Breach" padding: 0 to 99 random bytes in the gzip header."""
    client = Client()
    client.get("/", headers=GZIP)  # the first answer may set cookies the others do not
    lengths = {len(client.get("/", headers=GZIP).content) for _ in range(12)}
    assert len(lengths) > 1, lengths


def test_a_stream_is_never_compressed() -> None:
    request: HttpRequest = RequestFactory().get("/live/?channel=lobby", headers=GZIP)
    stream = StreamingHttpResponse(
        iter(["event: stream-open\ndata:\n\n" * 50]), content_type="text/event-stream"
    )
    answer = CompressionMiddleware(lambda _request: stream)(request)
    assert not answer.has_header("Content-Encoding")
    assert b"".join(answer.streaming_content).startswith(b"event: stream-open")  # type: ignore[attr-defined]
