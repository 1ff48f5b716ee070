"""A stylesheet written as a folder of parts (static/css/<name>/NN-<part>.css) is served as
one file, css/<name>.css: the parts in name order (the cascade's), minified under the tree
hash, as written on the plain path (app/assets.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import rcssmin

from app.assets import STATIC_DIR, Assets, site_assets


def parts_of(name: str) -> str:
    parts = sorted((STATIC_DIR / "css" / name).glob("*.css"))
    return "\n".join(part.read_text("utf-8") for part in parts)


def test_each_page_links_one_bundle_served_minified_and_as_written(make_client: Any) -> None:
    client = make_client()  # the real engines, so every game page exists
    version = site_assets().version
    for page, sheet in (("/", "site"), ("/play/blocks", "blocks"), ("/play/pairs", "pairs"),
                        ("/play/triangles", "triangles")):  # fmt: skip
        html = client.get(page).text
        assert f'href="/static/v/{version}/css/{sheet}.css"' in html, page
        source = parts_of(sheet)
        current = client.get(f"/static/v/{version}/css/{sheet}.css")
        assert current.status_code == 200
        assert current.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert current.headers["content-type"] == "text/css; charset=utf-8"
        assert current.text == rcssmin.cssmin(source)
        plain = client.get(f"/static/css/{sheet}.css")
        assert plain.headers["cache-control"] == "no-cache"
        assert plain.text == source  # as written, for reading
        etag = {"if-none-match": plain.headers["etag"]}
        again = client.get(f"/static/css/{sheet}.css", headers=etag)
        assert again.status_code == 304 and again.content == b""
    older = client.get("/static/v/000000000000/css/site.css")  # a page from before a deploy
    assert older.status_code == 200 and older.headers["cache-control"] == "no-cache"
    assert older.text == parts_of("site")
    assert client.post("/static/css/site.css").status_code == 405


def test_parts_join_in_name_order(tmp_path: Path) -> None:
    (tmp_path / "css" / "look").mkdir(parents=True)
    (tmp_path / "css" / "look" / "02-board.css").write_text(".board { color: red; }\n")
    (tmp_path / "css" / "look" / "01-tokens.css").write_text(":root { --x: 1px; }\n")
    (tmp_path / "css" / "me.css").write_text(".me { margin: 0; }\n")
    assets = Assets(tmp_path)
    assert assets.bundles == {"css/look.css": ":root { --x: 1px; }\n\n.board { color: red; }\n"}
    assert assets.built["css/look.css"] == b":root{--x:1px}.board{color:red}"
    assert assets.built["css/me.css"] == b".me{margin:0}"  # a single-file sheet as before


def test_a_sheet_cannot_be_both_a_file_and_a_folder(tmp_path: Path) -> None:
    (tmp_path / "css" / "look").mkdir(parents=True)
    (tmp_path / "css" / "look" / "01-tokens.css").write_text(":root { --x: 1px; }\n")
    (tmp_path / "css" / "look.css").write_text(".stale { color: red; }\n")
    with pytest.raises(ValueError, match="css/look.css is both a file and a folder of parts"):
        Assets(tmp_path)
