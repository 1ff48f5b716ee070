"""Front-end budget: no stylesheet over 600 lines (issue 23). A page's look is written as one
file per component or page; a big sheet is a folder of parts (static/css/<name>/), served as
one file by app/assets.py."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CSS = ROOT / "static" / "css"
LIMIT = 600


def test_no_stylesheet_over_the_limit() -> None:
    sizes = {
        str(path.relative_to(ROOT)): len(path.read_text(encoding="utf-8").splitlines())
        for path in CSS.rglob("*.css")
    }
    assert len(sizes) > 4, sizes  # the site's, the three games', /me's and the replay's
    assert {name: n for name, n in sizes.items() if n > LIMIT} == {}
