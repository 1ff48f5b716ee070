"""The arena page (/arenas/{id}, static/js/arena.js) in a browser.

Two tiers. The page's own behaviour (words in en, ru and fr; Join; the standings a socket
frame brings; the move to the game a ``paired`` frame asks for; the layout probe and
axe-core at 390×844, 844×390 and 1280×800) runs against the arena API and socket as the
contract writes them, stubbed in the browser (Playwright's routes): it needs nothing of the
server's arenas. The whole path, on the real server's API and socket (create over the API,
join on the page, a second player joining over the API, paired, Berserk in the game), is
``test_an_arena_from_joining_to_berserk``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from app.i18n import catalog
from tests.e2e.checks import layout_problems, violations
from tests.e2e.conftest import NO_WORKER, shot

pytestmark = pytest.mark.e2e

LANGS = ("en", "ru", "fr")
VIEWPORTS = {
    "phone": (390, 844, True),
    "landscape": (844, 390, True),
    "desktop": (1280, 800, False),
}
ARENA_ID = "stubbed-arena"
GAME_ID = "stubbed-game"


def standing(
    rank: int, name: str | None, score: int, games: list[tuple[str, int, bool, bool]], **flags: Any
) -> dict[str, Any]:
    return {
        "rank": rank,
        "name": name,
        "score": score,
        "you": flags.get("you", False),
        "fire": flags.get("fire", False),
        "paused": flags.get("paused", False),
        "playing": flags.get("playing", False),
        "performance": flags.get("performance"),
        "games": [
            {"game_id": f"g{rank}-{i}", "result": r, "points": p, "fire": f, "berserk": b}
            for i, (r, p, f, b) in enumerate(games)
        ],
    }


def stub_arena(joined: bool, second: bool = False) -> dict[str, Any]:
    """A running rated 3+2 arena as GET /api/arenas/{id} answers: a long-named leader on
    fire with a berserk win, then the viewer (``joined``) and, with ``second``, a player
    without a name."""
    now = int(time.time() * 1000)
    rows = [
        standing(
            1,
            "Konstantinopolskaya_1234",
            9,
            [("win", 2, False, False), ("win", 3, False, True), ("win", 4, True, False)],
            fire=True,
            playing=True,
            performance=1912,
        )
    ]
    if joined:
        rows.append(
            standing(
                2, "Alexandra", 1, [("draw", 1, False, False), ("loss", 0, False, False)], you=True
            )
        )
    if second:
        rows.append(standing(len(rows) + 1, None, 0, [("aborted", 0, False, False)], paused=True))
    return {
        "id": ARENA_ID,
        "game": "triangles",
        "clock": "3+2",
        "minutes": 30,
        "rated": True,
        "private": True,
        "schedule": None,
        "starts_at": now - 60_000,
        "ends_at": now + 1_500_000,
        "status": "running",
        "players": len(rows),
        "server_ms": now,
        "standings": rows,
        "me": {"joined": joined, "paused": False, "game_id": None},
        "link": f"/arenas/{ARENA_ID}?key=secret",
    }


@pytest.fixture
def stubbed(browser: Any, server_url: str, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A page of a fresh context at the test's viewport and language whose arena API and
    socket are the stubs: ``page.arena_socket()`` is the socket the page opened."""
    lang, viewport = request.param
    width, height, touch = VIEWPORTS[viewport]
    context = browser.new_context(
        base_url=server_url,
        viewport={"width": width, "height": height},
        is_mobile=touch,
        has_touch=touch,
        device_scale_factor=1,
        reduced_motion="reduce",
        **NO_WORKER,
    )
    context.add_cookies([{"name": "lang", "value": lang, "url": server_url}])
    page = context.new_page()
    state = {"joined": False, "sockets": []}

    def arena_api(route: Any) -> None:
        if route.request.method == "POST" and "/join" in route.request.url:
            state["joined"] = True
        route.fulfill(json=stub_arena(state["joined"]))

    page.route(re.compile(rf"/api/arenas/{ARENA_ID}(/join)?(\?.*)?$"), arena_api)
    page.route(
        f"**/g/{GAME_ID}",
        lambda route: route.fulfill(
            body="<!doctype html><title>game</title>", content_type="text/html"
        ),
    )
    page.route_web_socket(
        re.compile(rf"/ws/arenas/{ARENA_ID}"), lambda ws: state["sockets"].append(ws)
    )
    page.arena_socket = lambda: state["sockets"][-1]
    page.lang, page.viewport = lang, viewport
    try:
        yield page
    finally:
        context.close()


CASES = [
    pytest.param((lang, viewport), id=f"{viewport}-{lang}")
    for viewport in VIEWPORTS
    for lang in LANGS
]


@pytest.mark.parametrize("stubbed", CASES, indirect=True)
def test_the_arena_page_joins_follows_the_standings_and_goes_to_the_game(stubbed: Any) -> None:
    page, words = stubbed, catalog(stubbed.lang)
    page.goto(f"/arenas/{ARENA_ID}?key=secret")
    arena = page.locator("#arena")
    expect(arena).to_have_attribute("data-status", "running")
    expect(page.locator("#arena-title")).to_have_text(
        words["arena.title.custom"].replace("{clock}", "3+2")
    )
    expect(page.locator("#arena-rows tr")).to_have_count(1)
    expect(page.locator("[data-action='share']")).to_be_visible()
    fire = page.locator(".standings__fire")
    expect(fire).to_have_attribute("aria-label", words["arenas.fire"])

    page.get_by_role("button", name=words["arenas.join"]).click()
    expect(arena).to_have_attribute("data-me", "in")
    expect(page.get_by_role("button", name=words["arenas.pause"])).to_be_visible()
    you = page.locator("#arena-rows tr.is-you")
    expect(you).to_have_count(1)
    expect(you.locator(".standings__name")).to_have_text("Alexandra")

    # a second player joins: the server's standings frame
    page.wait_for_function("document.body.dataset.arenaLive === 'open'")
    page.arena_socket().send(
        json.dumps({"type": "standings", "arena": stub_arena(True, second=True)})
    )
    expect(page.locator("#arena-rows tr")).to_have_count(3)
    expect(page.locator("#arena-rows tr").last.locator(".standings__name")).to_have_text(
        words["arenas.anonymous"]
    )

    name = f"arena-{page.viewport}-{page.lang}"
    shot(page, name, full_page=page.viewport != "desktop")
    problems = {"layout probe": layout_problems(page, VIEWPORTS[page.viewport][2])}
    if page.viewport != "landscape":
        problems["axe-core"] = violations(page)
    assert {check: found for check, found in problems.items() if found} == {}

    page.arena_socket().send(json.dumps({"type": "paired", "game_id": GAME_ID}))
    page.wait_for_url(f"**/g/{GAME_ID}")


@pytest.mark.parametrize("stubbed", [pytest.param(("en", "phone"), id="phone-en")], indirect=True)
def test_an_arena_page_that_cannot_be_opened_says_why(stubbed: Any) -> None:
    page, words = stubbed, catalog("en")
    page.route(
        "**/api/arenas/missing*",
        lambda route: route.fulfill(
            status=404, json={"error": {"code": "arena_not_found", "message": "no arena"}}
        ),
    )
    page.goto("/arenas/missing")
    expect(page.locator("#arena")).to_have_attribute("data-status", "error")
    expect(page.locator("#arena-error-text")).to_have_text(words["error.arena_not_found"])


# ------------------------------------------------------------------ the real server ----


def fetch(context: Any, method: str, path: str, body: Any = None) -> Any:
    response = context.request.fetch(path, method=method, data=body)
    assert response.ok, f"{method} {path}: {response.status} {response.text()}"
    return response.json()


def test_an_arena_from_joining_to_berserk(browser: Any, server_url: str) -> None:
    """Create an arena over the API, join it on the page (a phone), a second player joins
    over the API: the standings show both, the server pairs them and the page goes to the
    game, where the player goes berserk: their clock is marked for both players."""
    host = browser.new_context(
        base_url=server_url,
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        **NO_WORKER,
    )
    guest = browser.new_context(base_url=server_url)
    try:
        page = host.new_page()
        page.goto("/")
        fetch(host, "PUT", "/api/me", {"name": "Alexandra"})
        fetch(guest, "PUT", "/api/me", {"name": "Bob"})
        arena = fetch(
            host,
            "POST",
            "/api/arenas",
            {"game": "triangles", "clock": "3+2", "minutes": 10, "rated": False},
        )
        page.goto(f"/arenas/{arena['id']}")
        expect(page.locator("#arena")).to_have_attribute("data-status", "running")
        page.get_by_role("button", name=catalog("en")["arenas.join"]).click()
        fetch(guest, "POST", f"/api/arenas/{arena['id']}/join")
        page.wait_for_url(re.compile(r"/g/[\w-]+$"), timeout=15_000)
        stage = page.locator("#tri")
        expect(stage).to_have_attribute("data-state", "active")
        expect(page.locator("#tri-arena")).to_be_visible()
        assert violations(page) == []
        berserk = page.locator("#tri-controls [data-action='berserk']")
        expect(berserk).to_be_visible()
        berserk.click()
        mine = page.locator(".tri-player.is-me [data-clock]")
        expect(mine).to_have_class(re.compile(r"\bis-berserk\b"))
        expect(berserk).to_be_hidden()
        shot(page, "arena-game-berserk-phone")
    finally:
        host.close()
        guest.close()
