"""Pages, scripts, styles and JSON go out compressed to clients that accept gzip."""

from __future__ import annotations

from typing import Any


def test_text_answers_are_gzipped(make_client: Any) -> None:
    client = make_client()  # the real engines: a catalog over a kilobyte
    pages = ("/", "/play/blocks", "/play/pairs", "/play/triangles", "/daily/pairs")
    for path in (*pages, "/static/css/site.css", "/static/i18n/en.json", "/api/catalog"):
        answer = client.get(path, headers={"accept-encoding": "gzip"})
        assert answer.status_code == 200, path
        assert answer.headers["content-encoding"] == "gzip", path
        assert answer.headers["x-content-type-options"] == "nosniff"  # headers survive gzip
    plain = client.get("/static/css/site.css", headers={"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers
