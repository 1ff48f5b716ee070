"""Pages, scripts, styles and JSON go out compressed: brotli to clients that take it, else gzip."""

from __future__ import annotations

from typing import Any

from engines.registry import ENGINES


def test_text_answers_are_gzipped(make_client: Any) -> None:
    client = make_client()  # the real engines: a catalog over a kilobyte
    pages = ("/", *(f"/play/{game}" for game in ENGINES), "/daily/pairs")
    for path in (*pages, "/static/css/me.css", "/static/i18n/en.json", "/api/catalog"):
        answer = client.get(path, headers={"accept-encoding": "gzip"})
        assert answer.status_code == 200, path
        assert answer.headers["content-encoding"] == "gzip", path
        assert answer.headers["x-content-type-options"] == "nosniff"  # headers survive gzip
    plain = client.get("/static/css/me.css", headers={"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers


def test_pages_and_json_go_out_in_brotli_where_browsers_take_it(make_client: Any) -> None:
    client = make_client()
    browser = "gzip, deflate, br, zstd"  # what Chromium sends: zstd is not used (app/main.py)
    for path in ("/play/triangles", "/api/catalog"):
        brotli = client.get(path, headers={"accept-encoding": browser})
        gzipped = client.get(path, headers={"accept-encoding": "gzip"})
        plain = client.get(path, headers={"accept-encoding": "identity"})
        assert brotli.headers["content-encoding"] == "br", path
        assert brotli.headers["vary"] == "Accept-Encoding", path
        assert brotli.content == plain.content, path  # the same page, decoded
        assert int(brotli.headers["content-length"]) < int(gzipped.headers["content-length"])


def test_the_builds_files_go_out_as_compressed_once_by_the_build(make_client: Any) -> None:
    """A script, stylesheet or catalog of the build is sent in the form build.mjs made of it
    (brotli, else gzip, at the best level), never compressed again per request."""
    from app.assets import site_assets

    client = make_client()
    assets = site_assets()
    pairs = assets.page("game-pairs")
    for url in (pairs.js, pairs.css, assets.url("i18n/en/pairs.json")):
        assert url is not None
        plain = client.get(url, headers={"accept-encoding": "identity"})
        assert "content-encoding" not in plain.headers
        assert plain.headers["vary"] == "Accept-Encoding"  # once
        choices = (("gzip, deflate, br, zstd", "br"), ("gzip", "gzip"), ("br;q=0, gzip", "gzip"))
        for taken, sent in choices:
            answer = client.get(url, headers={"accept-encoding": taken})
            assert answer.headers["content-encoding"] == sent, (url, taken)
            assert answer.headers["cache-control"] == "public, max-age=31536000, immutable"
            assert answer.headers["content-type"] == plain.headers["content-type"]
            assert int(answer.headers["content-length"]) < len(plain.content) / 2
