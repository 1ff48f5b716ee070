"""The two checks the page matrix (tests/e2e/test_page_matrix.py) runs on a page as it is:
the layout probe (layout_probe.js: overflowing or clipped text, controls out of the
viewport, touch targets under 44×44 px, words broken over two lines) and axe-core (the copy
bundled with axe-playwright-python: serious and critical violations). Each returns its
report, one line a problem; an empty list is a pass."""

from __future__ import annotations

from pathlib import Path
from typing import Any

PROBE = (Path(__file__).parent / "layout_probe.js").read_text(encoding="utf-8")

BLOCKING = {"serious", "critical"}
# axe's defaults, and a rule it marks experimental: a control's name must contain its words
OPTIONS = {"resultTypes": ["violations"],
           "rules": {"label-content-name-mismatch": {"enabled": True}}}


def layout_problems(page: Any, touch: bool) -> list[str]:
    """The probe's report; on ``touch`` a control under 44×44 px is a problem too."""
    return list(page.evaluate(PROBE, touch))


def violations(page: Any) -> list[str]:
    """axe's serious and critical violations: "rule (impact): targets"."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page, options=OPTIONS).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): " + ", ".join(str(n["target"]) for n in v["nodes"][:4])
        for v in found if v["impact"] in BLOCKING
    ]
