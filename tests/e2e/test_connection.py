"""The connection state (core/session.js): while the server cannot be reached the page says
so until it can again (not for a few seconds), client clocks stop, and play resumes by itself;
<body data-connection="online|offline"> shows the state. Waits are on page state, not sleeps."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.e2e.test_triangles_online import line_by, page_of, seated_match


def start(context: Any, path: str, stage: str) -> Any:
    page = context.new_page()
    page.goto(path)
    expect(page.locator(stage)).to_have_attribute("data-state", re.compile("playing"))
    expect(page.locator("body")).to_have_attribute("data-connection", "online")
    return page


def sit_out_failed_probes(page: Any, count: int = 2) -> None:
    """Waits until the page has tried the server ``count`` more times and failed (the
    session probes at 1 s, then 2 s): the page has lived through a span of being offline
    longer than any toast, measured by what it did rather than by a sleep."""
    for _ in range(count):
        page.wait_for_event(
            "requestfailed", predicate=lambda request: "/api/" in request.url, timeout=15_000
        )


def test_pairs_says_offline_until_the_server_is_back_and_its_clock_stops(phone: Any) -> None:
    page = start(phone, "/play/pairs", "#pairs")
    phone.set_offline(True)
    body = page.locator("body")
    expect(body).to_have_attribute("data-connection", "offline")
    banner = page.locator("#connection-banner")
    expect(banner).to_be_visible()
    clock = page.locator("#pairs-clock").text_content()
    sit_out_failed_probes(page)
    expect(body).to_have_attribute("data-connection", "offline")
    expect(banner).to_be_visible()
    assert page.locator("#pairs-clock").text_content() == clock  # the stopwatch stopped
    phone.set_offline(False)
    expect(body).to_have_attribute("data-connection", "online", timeout=15_000)
    expect(banner).to_be_hidden()
    expect(page.locator("#pairs")).to_have_attribute("data-state", "playing")


def test_blocks_goes_offline_on_a_failed_move_and_resumes_by_itself(
    desktop_without_worker: Any,  # the API calls are routed (conftest.NO_WORKER)
) -> None:
    # The route is in place before the page loads and fails the API only once the server
    # is "down": a route added to a live page could miss a request already on its way.
    down = [False]
    desktop_without_worker.route(
        "**/api/**", lambda route: route.abort() if down[0] else route.continue_()
    )
    page = start(desktop_without_worker, "/play/blocks/classic10/00000001-a", "#blocks")
    down[0] = True
    page.keyboard.press("1")  # pick a piece up…
    page.keyboard.press("Enter")  # …and try to place it
    body = page.locator("body")
    expect(body).to_have_attribute("data-connection", "offline", timeout=10_000)
    sit_out_failed_probes(page)
    expect(body).to_have_attribute("data-connection", "offline")
    expect(page.locator("#connection-banner")).to_be_visible()
    down[0] = False
    expect(body).to_have_attribute("data-connection", "online", timeout=15_000)
    expect(page.locator("#connection-banner")).to_be_hidden()


def test_online_triangles_says_offline_and_catches_up_on_the_missed_line(
    browser: Any, server_url: str
) -> None:
    alice_ctx, bob_ctx, gid = seated_match(browser, server_url)
    try:
        alice, _ = page_of(alice_ctx, f"/g/{gid}")
        bob, _ = page_of(bob_ctx, f"/g/{gid}")
        for page in (alice, bob):
            expect(page.locator("body")).to_have_attribute("data-connection", "online")
        line_by(alice, True, [bob])
        alice_ctx.set_offline(True)
        body = alice.locator("body")
        expect(body).to_have_attribute("data-connection", "offline")
        expect(alice.locator("#connection-banner")).to_be_visible()
        line_by(bob, False, [])  # Bob plays on while Alice is away
        missed = bob.locator("#tri").get_attribute("data-version")
        alice_ctx.set_offline(False)
        expect(body).to_have_attribute("data-connection", "online", timeout=15_000)
        expect(alice.locator("#connection-banner")).to_be_hidden()
        expect(alice.locator("#tri")).to_have_attribute("data-version", missed)
        line_by(alice, True, [bob])  # and the match goes on
    finally:
        alice_ctx.close()
        bob_ctx.close()
