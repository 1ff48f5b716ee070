"""Front-end budget: no JavaScript module over 500 lines (issue 13); small files keep every
game's controller to what is its own."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 500


def test_no_js_module_over_the_limit() -> None:
    sizes = {
        str(path.relative_to(ROOT)): len(path.read_text(encoding="utf-8").splitlines())
        for path in (ROOT / "static" / "js").rglob("*.js")
    }
    assert sizes, "no JavaScript found"
    assert {name: n for name, n in sizes.items() if n > LIMIT} == {}
