"""Each page links one stylesheet, its bundle's (build.mjs): the site's shared parts
(static/css/site/NN-<part>.css, in name order: the cascade's) and its own parts, never
another page's; served minified under a content-hashed name, cached for good, while the
sources stay readable as written and are revalidated (app/assets.py)."""

from __future__ import annotations

import re
from typing import Any

from app.assets import STATIC_DIR, Assets, site_assets

IMMUTABLE = "public, max-age=31536000, immutable"
# A rule that only one kind of page shows, by the part it is written in.
MARKS = {
    "lobby": ".lobby-hero",
    "game": ".game-stage",
    "blocks": ".blocks-stage",
    "pairs": ".pairs-stage",
    "triangles": ".tri-stage",
    "leaderboard": ".leaderboard",
    "not_found": ".nf-star",
    "me": ".me-hero",
    "replay": ".replay-stage",
}
SHARED = (".site-header", ".btn-primary", ".toast-stack", ".connection-banner")


def marks_in(css: str) -> set[str]:
    return {name for name, mark in MARKS.items() if re.search(re.escape(mark) + r"\b", css)}


def test_each_page_links_its_own_bundle_and_no_other_pages_styles(make_client: Any) -> None:
    client = make_client()  # the real engines, so every game page exists
    assets = site_assets()
    expected = {
        "/": ("lobby", {"lobby"}),
        "/me": ("me", {"me", "lobby"}),  # /me shows the lobby's panels and name form
        "/play/blocks": ("game-blocks", {"game", "blocks"}),
        "/play/pairs": ("game-pairs", {"game", "pairs"}),
        "/play/triangles": ("game-triangles", {"game", "triangles"}),
        "/no-such-page": ("not_found", {"not_found"}),
    }
    for page, (bundle, shown) in expected.items():
        html = client.get(page).text
        sheets = re.findall(r'<link rel="stylesheet" href="([^"]+)"', html)
        assert sheets == [assets.page(bundle).css], page
        assert re.fullmatch(r"/static/dist/css/[\w-]+-\w{8}\.css", sheets[0])
        answer = client.get(sheets[0])
        assert answer.status_code == 200
        assert answer.headers["cache-control"] == IMMUTABLE
        assert answer.headers["content-type"] == "text/css; charset=utf-8"
        css = answer.text
        assert marks_in(css) == shown, page
        for rule in SHARED:
            assert rule in css, (page, rule)
        assert "/*" not in css.split("/*# sourceMappingURL")[0]  # minified: no comments
    plain = client.get("/static/css/site/03-header.css")  # the sources, as written
    assert plain.headers["cache-control"] == "no-cache"
    assert plain.text == (STATIC_DIR / "css" / "site" / "03-header.css").read_text("utf-8")
    etag = {"if-none-match": plain.headers["etag"]}
    again = client.get("/static/css/site/03-header.css", headers=etag)
    assert again.status_code == 304 and again.content == b""
    assert client.post("/static/css/site/03-header.css").status_code == 405


def test_parts_keep_their_order_the_cascade() -> None:
    """The parts of a sheet follow one another in name order, the site's before the page's."""
    assets = Assets()
    sheet = assets.page("game-pairs").css.removeprefix("/static/dist/")
    css = (assets.directory / sheet).read_text("utf-8")
    order = [".skip-link", ".site-header", ".btn-primary", ".game-stage", ".end-actions"]
    places = [css.index(rule) for rule in order]
    assert places == sorted(places)
    assert css.index(".end-actions") < css.index(".pairs-stage")  # the site's, then the game's
