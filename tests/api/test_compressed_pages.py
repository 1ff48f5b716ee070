"""A page asked for again in the same bytes goes out in brotli at quality 11, compressed once
in a thread (app/compressed_pages.py); until then, and to a client without brotli, the
middleware's quality 5 or gzip. The bytes a browser decodes never change."""

from __future__ import annotations

import time
from typing import Any

import pytest

from app.assets import accepted_encodings
from app.compressed_pages import CompressedPages

BROTLI = {"accept-encoding": "gzip, deflate, br"}


@pytest.mark.parametrize(
    ("header", "takes"),
    [
        ("gzip, deflate, br", True),
        ("br;q=0.5, gzip", True),
        ("BR", True),
        ("gzip", False),
        ("br;q=0, gzip", False),
        ("br;q=nonsense", False),
        ("", False),
        ("brotli", False),
    ],
)
def test_which_clients_take_brotli(header: str, takes: bool) -> None:
    assert ("br" in accepted_encodings(header)) is takes


def sent(client: Any, path: str, headers: dict[str, str]) -> tuple[str, int, str]:
    """What went over the wire for a page: its encoding, its length, its decoded text."""
    response = client.get(path, headers=headers)
    assert response.status_code == 200
    encoding = response.headers.get("content-encoding", "identity")
    return encoding, int(response.headers["content-length"]), response.text


def test_a_page_asked_for_again_goes_out_at_brotlis_best(client: Any) -> None:
    plain = client.get("/", headers={"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers
    first = sent(client, "/", BROTLI)
    assert first[0] == "br" and first[2] == plain.text
    # the second ask starts the compression in a thread: the page is smaller once it is done
    deadline = time.monotonic() + 30
    while (best := sent(client, "/", BROTLI))[1] >= first[1]:
        assert time.monotonic() < deadline, "the page was never sent at quality 11"
        time.sleep(0.05)
    assert best[0] == "br" and best[2] == plain.text
    assert best[1] < first[1] * 0.95  # quality 11 against 5: about a tenth less
    again = client.get("/", headers=BROTLI)
    assert again.headers["vary"] == "Accept-Encoding"
    assert again.headers["etag"] == plain.headers["etag"]
    assert "content-security-policy" in again.headers
    # a client without brotli still gets gzip, and a HEAD no body
    gzip = sent(client, "/", {"accept-encoding": "gzip"})
    assert gzip[0] == "gzip" and gzip[2] == plain.text
    head = client.head("/", headers=BROTLI)
    assert head.status_code == 200 and head.content == b""


async def test_one_compression_at_a_time_and_a_tenth_of_a_core_at_most() -> None:
    pages = CompressedPages()
    body = b"<p>same</p>" * 500
    assert pages.best("a", body) is None  # first seen
    assert pages.best("b", body) is None
    assert pages.best("a", body) is None  # second: its compression starts
    assert pages.best("b", body) is None  # another waits for none: quality 5 this time
    working = pages._working
    assert working is not None
    await working
    assert pages.best("a", body) is not None
    # after it, a rest nine times as long (SHARE: a tenth of a core at most)
    assert pages.best("b", body) is None and pages._working is None
    pages._rested_at = 0.0
    assert pages.best("b", body) is None and pages._working is not None
    await pages._working
    assert pages.best("b", body) is not None
