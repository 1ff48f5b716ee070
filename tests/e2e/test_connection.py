"""The connection state (core/session.js): while the server cannot be reached the page says
so until it can again (not for a few seconds), client clocks stop, and play resumes by itself;
<body data-connection="online|offline"> shows the state. Waits are on page state, not sleeps."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from app.i18n import catalog
from tests.e2e.test_triangles_online import chip, line_by, page_of, seated_match


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
        # and its live socket is back: it hears Bob again (presence is shown only then)
        presence = catalog("en")["games.triangles.presence.online"]
        expect(chip(alice, 1).locator("[data-sub]")).to_contain_text(presence)
        line_by(alice, True, [bob])  # and the match goes on
    finally:
        alice_ctx.close()
        bob_ctx.close()


def words_of(lang: str) -> dict[str, str]:
    return catalog(lang)


def server_down(context: Any, lang: str, server_url: str) -> list[bool]:
    """Every API call of the context fails as offline (no answer) while ``down[0]``."""
    context.add_cookies([{"name": "lang", "value": lang, "url": server_url}])
    down = [True]
    context.route("**/api/**", lambda route: route.abort() if down[0] else route.continue_())
    return down


def back_online(page: Any, down: list[bool]) -> None:
    down[0] = False
    page.evaluate("window.dispatchEvent(new Event('online'))")  # as the browser does


@pytest.mark.parametrize("lang", ["en", "ru", "fr"])
def test_the_lobby_offline_says_so_once_and_reads_again_when_back(
    phone_without_worker: Any, server_url: str, lang: str
) -> None:
    """Issue 36 (7): offline, the lobby said "Couldn't load the list of games" above the
    list of games. It says it is offline (the site's banner), and reads again once back."""
    words = words_of(lang)
    down = server_down(phone_without_worker, lang, server_url)
    page = phone_without_worker.new_page()
    page.goto("/")
    expect(page.locator("body")).to_have_attribute("data-connection", "offline")
    expect(page.locator("#connection-banner")).to_have_text(words["common.conn.lost.page"])
    expect(page.locator("#open-status")).to_have_text(words["lobby.open.error"])
    expect(page.locator(".game-card[data-game]").first).to_be_visible()
    # the games' variants came with the page: the cards' chips are there offline too
    expect(page.locator(".game-card [data-chips] .chip").first).to_be_visible()
    back_online(page, down)
    expect(page.locator("body")).to_have_attribute("data-connection", "online")
    expect(page.locator("#connection-banner")).to_be_hidden()
    expect(page.locator("#seek-section")).to_be_visible()
    expect(page.locator("#open-status")).not_to_have_text(words["lobby.open.error"])


@pytest.mark.parametrize("lang", ["en", "ru", "fr"])
def test_me_offline_says_what_it_could_not_load(
    phone_without_worker: Any, server_url: str, lang: str
) -> None:
    """Issue 36 (7): /me said "Daily streak: Loading…" for ever when offline."""
    words = words_of(lang)
    down = server_down(phone_without_worker, lang, server_url)
    page = phone_without_worker.new_page()
    page.goto("/me")
    expect(page.locator("#main")).to_have_attribute("data-stats", "error")
    expect(page.locator("[data-streak]")).to_have_text(words["me.streak.error"])
    expect(page.locator("#stats-empty")).to_have_text(words["me.stats.error"])
    expect(page.locator("#connection-banner")).to_have_text(words["common.conn.lost.page"])
    back_online(page, down)
    expect(page.locator("#main")).to_have_attribute("data-stats", "ready")
    expect(page.locator("[data-streak]")).to_have_text(words["me.streak.none"])
    expect(page.locator("#stats-empty")).to_have_text(words["me.stats.empty"])
    expect(page.locator("#connection-banner")).to_be_hidden()


def test_blocks_opened_offline_offers_no_new_game(
    desktop_without_worker: Any, server_url: str
) -> None:
    """Issue 36 (7): Blocks opened offline offered "New game", which the server makes."""
    down = server_down(desktop_without_worker, "en", server_url)
    page = desktop_without_worker.new_page()
    page.goto("/play/blocks/classic10")
    expect(page.locator("#blocks")).to_have_attribute("data-state", "error")
    expect(page.locator("body")).to_have_attribute("data-connection", "offline")
    notice = page.locator("#blocks-notice")
    expect(notice).to_have_text(words_of("en")["error.network"])
    expect(notice.locator("a, button")).to_have_count(0)
    new_game = page.locator("#blocks-side .blocks-new-game")
    expect(new_game).to_be_visible()
    expect(new_game).to_be_disabled()
    back_online(page, down)  # the page opens its game by itself
    expect(page.locator("#blocks")).to_have_attribute("data-state", re.compile("playing"))
    expect(page.locator("#blocks-side .blocks-new-game")).to_be_enabled()
