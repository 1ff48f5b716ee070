"""axe-core (the copy bundled with axe-playwright-python) on every page and open dialog of the
layout test (tests/e2e/test_layout.py CASES), on a 390×844 phone and a 1280×800 desktop, in
en, ru and fr: no serious or critical violation. Waits are on page state, never on sleeps."""

from __future__ import annotations

from typing import Any

import pytest

# the layout test's pages, languages and contexts (page and lang are fixtures)
from tests.e2e.test_layout import CASES, lang, page  # noqa: F401

BLOCKING = {"serious", "critical"}
# axe's defaults, and a rule it marks experimental: a control's name must contain its words
OPTIONS = {"resultTypes": ["violations"],
           "rules": {"label-content-name-mismatch": {"enabled": True}}}


@pytest.fixture(params=["phone", "desktop"], scope="module")  # 390×844 and 1280×800
def viewport(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def violations(tab: Any) -> list[str]:
    """axe's serious and critical violations on the page as it is: "rule (impact): targets"."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(tab, options=OPTIONS).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): " + ", ".join(str(n["target"]) for n in v["nodes"][:4])
        for v in found if v["impact"] in BLOCKING
    ]


@pytest.mark.parametrize("name", list(CASES))
def test_no_serious_accessibility_violation(
    page: Any, name: str, viewport: str, lang: str  # noqa: F811 (the imported fixtures)
) -> None:
    CASES[name](page)
    page.evaluate("document.fonts.ready")
    found = violations(page)
    assert not found, f"{name} {viewport} {lang}:\n" + "\n".join(found)
