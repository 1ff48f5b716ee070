"""Every page and dialog, in en, ru and fr, on a phone (390×844, touch), the phone held
sideways (844×390, touch) and a desktop (1280×800): no text overflows or is clipped (an
element whose scrollWidth exceeds its clientWidth), no control is outside the viewport, and
on touch every control is at least 44×44 px. Waits are on page state, never on sleeps."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from engines.core.replay import replay as fold_log
from engines.triangles import ENGINE as TRIANGLES
from tests.e2e.conftest import NO_WORKER, shot
from tests.e2e.test_pairs import next_pair

LANGS = ("en", "ru", "fr")
VIEWPORTS = {
    "phone": (390, 844, True),
    "landscape": (844, 390, True),
    "desktop": (1280, 800, False),
}

# The probe: a report of everything wrong on the page as it is (see the file).
PROBLEMS = (Path(__file__).parent / "layout_probe.js").read_text(encoding="utf-8")


@pytest.fixture(params=list(VIEWPORTS), scope="module")
def viewport(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(params=LANGS, scope="module")
def lang(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def context_of(
    browser: Any, server_url: str, size: tuple[int, int, bool], lang: str
) -> Any:
    """A fresh context: (width, height, touch), the language's cookie, reduced motion."""
    width, height, touch = size
    context = browser.new_context(
        base_url=server_url, viewport={"width": width, "height": height},
        is_mobile=touch, has_touch=touch, device_scale_factor=1, reduced_motion="reduce",
        **NO_WORKER,  # a case routes the seek pool (conftest.NO_WORKER)
    )
    context.add_cookies([{"name": "lang", "value": lang, "url": server_url}])
    return context


@pytest.fixture
def page(browser: Any, server_url: str, viewport: str, lang: str) -> Iterator[Any]:
    context = context_of(browser, server_url, VIEWPORTS[viewport], lang)
    try:
        yield context.new_page()
    finally:
        context.close()


def api(page: Any, method: str, path: str, body: Any = None) -> Any:
    response = page.request.fetch(path, method=method, data=body)
    assert response.ok, response.text()
    return response.json()


def finished(page: Any, game: str) -> str:
    """A game of this player played to its end on the server; → its id."""
    if game == "blocks":
        data = api(page, "POST", "/api/games", {"game": "blocks", "number": "00000001-a"})
        api(page, "POST", f"/api/games/{data['id']}/moves",
            {"version": data["version"], "move": {"type": "finish"}})
    elif game == "pairs":
        data = api(page, "POST", "/api/games", {"game": "pairs", "params": {"size": "beginner"}})
        version, view = data["version"], data["view"]
        while not view["over"]:
            a, b = next_pair(view)
            answer = api(page, "POST", f"/api/games/{data['id']}/moves",
                         {"version": version, "move": {"type": "pair", "a": a, "b": b}})
            version, view = answer["version"], answer["view"]
    else:
        data = api(page, "POST", "/api/games",
                   {"game": "triangles", "params": {"opponent": "easy"}})
        api(page, "POST", f"/api/games/{data['id']}/moves",
            {"version": data["version"], "move": {"type": "resign"}})
    return str(data["id"])


def ready(page: Any, stage: str, states: str = "playing|over|active") -> None:
    expect(page.locator(stage)).to_have_attribute("data-state", re.compile(states))


def open_dialog(page: Any, selector: str) -> None:
    expect(page.locator(selector)).to_be_visible()
    page.wait_for_function(
        f"document.querySelector('{selector}').getBoundingClientRect().height > 0"
    )


CASES: dict[str, Callable[[Any], None]] = {}


def case(name: str) -> Callable[[Callable[[Any], None]], Callable[[Any], None]]:
    def register(fn: Callable[[Any], None]) -> Callable[[Any], None]:
        CASES[name] = fn
        return fn
    return register


@case("lobby")
def lobby(page: Any) -> None:
    page.goto("/")
    expect(page.locator("#open-status")).not_to_have_text("")


@case("lobby-seek")
def lobby_seek(page: Any) -> None:
    """The "Play online now" waiting state (the pool is stubbed: nobody pairs with it)."""
    waiting = {"status": "waiting", "seek_id": "layout", "clock": "10+5", "rated": False,
               "expires_ms": 0}
    page.route("**/api/seeks**", lambda route: route.fulfill(json=waiting))
    page.goto("/")
    expect(page.locator("#seek-section")).to_have_attribute("data-seek", "idle")
    page.locator('#seek-clocks input[value="10+5"]').check()
    page.locator('[data-action="seek"]').click()
    expect(page.locator("#seek-section")).to_have_attribute("data-seek", "waiting")
    expect(page.locator("[data-seek-elapsed]")).not_to_have_text("")


@case("blocks")
def blocks(page: Any) -> None:
    page.goto("/play/blocks/classic10/00000001-a")
    ready(page, "#blocks")


@case("blocks-confirm")
def blocks_confirm(page: Any) -> None:
    """Finish pressed once: it asks to be pressed again (its longest label)."""
    blocks(page)
    page.locator("#blocks-finish").click()
    expect(page.locator("#blocks-finish")).to_have_class(re.compile("is-confirm"))


@case("blocks-menu")
def blocks_menu(page: Any) -> None:
    blocks(page)
    page.locator("#blocks-menu-btn").click()
    open_dialog(page, "#blocks-menu")


@case("blocks-final")
def blocks_final(page: Any) -> None:
    page.goto(f"/g/{finished(page, 'blocks')}")
    open_dialog(page, "#blocks-final")


@case("pairs")
def pairs(page: Any) -> None:
    page.goto("/play/pairs")
    ready(page, "#pairs")


@case("pairs-menu")
def pairs_menu(page: Any) -> None:
    pairs(page)
    page.locator(".pairs-controls [data-action=menu]").click()
    open_dialog(page, "#pairs-menu")


@case("pairs-final")
def pairs_final(page: Any) -> None:
    page.goto(f"/g/{finished(page, 'pairs')}")
    open_dialog(page, "#pairs-final")


@case("triangles-new")
def triangles_new(page: Any) -> None:
    page.goto("/play/triangles")
    open_dialog(page, "#tri-new")


@case("triangles")
def triangles(page: Any) -> None:
    triangles_new(page)
    page.locator("#tri-new-start").click()
    ready(page, "#tri", "active")


@case("triangles-final")
def triangles_final(page: Any) -> None:
    page.goto(f"/g/{finished(page, 'triangles')}")
    open_dialog(page, "#tri-final")


@case("me")
def me(page: Any) -> None:
    """/me with games of three kinds (one under way), statistics and a transfer code."""
    page.goto("/me")
    finished(page, "blocks")
    finished(page, "triangles")
    api(page, "POST", "/api/games", {"game": "pairs"})
    page.goto("/me")
    expect(page.locator("main")).to_have_attribute("data-count", "3")
    expect(page.locator("main")).to_have_attribute("data-stats", "ready")
    page.locator("[data-make-code]").click()
    expect(page.locator("[data-transfer]")).to_have_attribute("data-transfer", "shown")


@case("me-switch")
def me_switch(page: Any) -> None:
    """/me opened from another player's transfer link (with the longest name): the
    question, both players and the buttons."""
    page.goto("/me")
    origin = page.url.removesuffix("/me")
    friend = page.context.browser.new_context(base_url=origin)
    try:
        other = friend.new_page()
        api(other, "PUT", "/api/me", {"name": "Konstantinopolskaya_1234"})
        code = api(other, "POST", "/api/me/transfer")["code"]
    finally:
        friend.close()
    finished(page, "blocks")
    page.goto(f"/me?code={code}")
    expect(page.locator("#switch-panel")).to_have_attribute("data-switch", "confirm")
    expect(page.locator("main")).to_have_attribute("data-history", "ready")


@case("lobby-remembers")
def lobby_remembers(page: Any) -> None:
    page.goto("/")
    api(page, "POST", "/api/games", {"game": "pairs"})
    page.reload()
    expect(page.locator(".continue-card")).to_have_count(1)


def replay_page(page: Any, game: str) -> None:
    page.goto(f"/replay/{finished(page, game)}#ply=1")
    expect(page.locator("#replay")).to_have_attribute("data-state", "ready")
    expect(page.locator("#replay")).to_have_attribute("data-ply", "1")


@case("replay-blocks")
def replay_blocks(page: Any) -> None:
    replay_page(page, "blocks")


@case("replay-pairs")
def replay_pairs(page: Any) -> None:
    replay_page(page, "pairs")


@case("replay-triangles")
def replay_triangles(page: Any) -> None:
    replay_page(page, "triangles")


@case("replay-triangles-review")
def replay_triangles_review(page: Any) -> None:
    """A reviewed Triangles game (a few lines each, then a resignation) at a marked ply."""
    data = api(page, "POST", "/api/games",
               {"game": "triangles", "params": {"opponent": "easy", "stars": 24}})
    moves, version = f"/api/games/{data['id']}/moves", data["version"]
    for _ in range(6):
        log = api(page, "GET", f"/api/games/{data['id']}/log")
        params = TRIANGLES.parse_params(log["params"])
        line = TRIANGLES.computer_move(fold_log(TRIANGLES, params, log["seed"], log["moves"]))
        answer = api(page, "POST", moves, {"version": version, "move": TRIANGLES.dump_move(line)})
        version = answer["version"]
    api(page, "POST", moves, {"version": version, "move": {"type": "resign"}})
    page.goto(f"/replay/{data['id']}?review=1#ply=3")
    expect(page.locator("#review")).to_have_attribute("data-review", "done", timeout=90_000)
    expect(page.locator("#replay")).to_have_attribute("data-ply", "3")


@pytest.mark.parametrize("name", list(CASES))
def test_nothing_overflows_and_every_control_is_reachable(
    page: Any, name: str, viewport: str, lang: str
) -> None:
    CASES[name](page)
    page.evaluate("document.fonts.ready")
    problems = page.evaluate(PROBLEMS, VIEWPORTS[viewport][2])
    shot(page, f"layout-{name}-{viewport}-{lang}")
    assert not problems, f"{name} {viewport} {lang}:\n" + "\n".join(problems)
