"""Time controls in real browsers: the New game dialog offers the catalog's time controls
for online games only; both players' pages show the clocks, the mover's clock ticks down
and stops when the line is drawn, and the other's starts."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.test_triangles import EN
from tests.e2e.test_triangles_online import chip, context, give_name, line_by, page_of
from tests.qualify import qualify_page

pytestmark = pytest.mark.e2e


def left_ms(page: Any, seat: int) -> int:
    return int(chip(page, seat).locator("[data-clock]").get_attribute("data-left-ms"))


def wait_below(page: Any, seat: int, ms: int) -> None:
    page.wait_for_function(
        "([seat, ms]) => Number(document.querySelector("
        "`.tri-player[data-seat=\"${seat}\"] [data-clock]`).dataset.leftMs) < ms",
        arg=[seat, ms],
        timeout=10_000,
    )


def test_clocks_offered_shown_and_ticking(browser: Any, server_url: str, shot: Any) -> None:
    alice_ctx = context(browser, server_url, "phone")
    bob_ctx = context(browser, server_url, "desktop")
    try:
        alice, alice_problems = page_of(alice_ctx, "/play/triangles")
        dialog = alice.locator("#tri-new")
        expect(dialog).to_be_visible()
        dialog.locator('input[name="tri-kind"][value="computer"]').check(force=True)
        expect(alice.locator("#tri-new-clock")).to_be_hidden()
        dialog.locator('input[name="tri-kind"][value="online"]').check(force=True)
        expect(alice.locator("#tri-new-clock")).to_be_visible()
        expect(dialog.locator('input[name="tri-clock"]')).to_have_count(7)
        expect(dialog.locator("#tri-new-clocks")).to_contain_text(
            EN["games.triangles.clock.choice.3d"]
        )
        dialog.locator('input[name="tri-clock"][value="none"]').check(force=True)
        expect(alice.locator("#tri-new-rated-row")).to_be_hidden()
        dialog.locator('input[name="tri-clock"][value="1+1"]').check(force=True)
        expect(alice.locator("#tri-new-rated-row")).to_be_visible()
        dialog.locator('input[name="tri-stars"][value="24"]').check(force=True)
        dialog.locator("#tri-new-start").click()
        give_name(alice, "Alice")
        expect(alice.locator("#tri-waiting")).to_be_visible()
        invite = alice.locator("#tri-invite-url").input_value()

        bob, bob_problems = page_of(bob_ctx, invite)
        give_name(bob, "Bob")
        for page in (alice, bob):
            for seat in (0, 1):
                expect(chip(page, seat).locator("[data-clock]")).to_be_visible()
            expect(chip(page, 0).locator("[data-clock]")).to_have_class(
                "tri-player__clock is-running"
            )
        assert left_ms(bob, 1) == 60_000
        start = left_ms(alice, 0)
        assert 55_000 < start <= 60_000
        wait_below(alice, 0, start - 1_000)  # it ticks down on the page
        shot(alice, "triangles-clock-phone")

        line_by(alice, True, [bob])
        for page in (alice, bob):
            expect(chip(page, 1).locator("[data-clock]")).to_have_class(
                "tri-player__clock is-running"
            )
            expect(chip(page, 0).locator("[data-clock]")).to_have_class("tri-player__clock")
        stopped = left_ms(bob, 0)
        assert start - 10_000 < stopped <= 61_000  # spent time, then +1 s increment
        assert left_ms(alice, 0) == stopped  # the same server figure on both pages
        wait_below(bob, 1, 60_000 - 500)
        assert alice_problems == [] and bob_problems == []
    finally:
        alice_ctx.close()
        bob_ctx.close()


def ready_for_rated(page: Any, name: str) -> None:
    """The page's player named and with the finished games rated play asks for
    (``app.fair_play``), through the API on the page's own cookie."""
    assert page.request.put("/api/me", data={"name": name}).ok
    qualify_page(page.request)


def test_a_silent_player_flags_and_both_end_cards_say_so(
    browser: Any, server_url: str, shot: Any
) -> None:
    """A rated 1+1 game where nobody draws a line: Alice's clock (seat 0) runs out after
    60.3 s, the server flags it on its own, and both pages show the end card with the
    reason; since neither player drew a line the game is aborted, and both cards say
    that no rating changed."""
    alice_ctx = context(browser, server_url, "phone")
    bob_ctx = context(browser, server_url, "desktop")
    try:
        alice, alice_problems = page_of(alice_ctx, "/play/triangles")
        ready_for_rated(alice, "Alice")
        dialog = alice.locator("#tri-new")
        expect(dialog).to_be_visible()
        dialog.locator('input[name="tri-kind"][value="online"]').check(force=True)
        dialog.locator('input[name="tri-clock"][value="1+1"]').check(force=True)
        dialog.locator("#tri-new-rated").check(force=True)
        dialog.locator('input[name="tri-stars"][value="24"]').check(force=True)
        dialog.locator("#tri-new-start").click()  # named already: no name to ask
        expect(alice.locator("#tri-waiting")).to_be_visible()
        bob, bob_problems = page_of(bob_ctx, "/")
        ready_for_rated(bob, "Bob")
        bob.goto(alice.locator("#tri-invite-url").input_value())
        expect(chip(bob, 0).locator("[data-clock]")).to_have_class(
            "tri-player__clock is-running"
        )
        # Nobody sends anything from here: the flag is the server's own doing.
        for page in (alice, bob):
            expect(page.locator("#tri-final-title")).to_be_visible(timeout=90_000)
        expect(alice.locator("#tri-final-title")).to_have_text(EN["common.you_lost"])
        expect(bob.locator("#tri-final-title")).to_have_text(EN["common.you_won"])
        expect(alice.locator("#tri-final-sub")).to_have_text(
            EN["games.triangles.final.reason.time_you"]
        )
        expect(bob.locator("#tri-final-sub")).to_have_text(
            EN["games.triangles.final.reason.time"].format(name="Alice")
        )
        game = alice.request.get(f"/api/games/{alice.url.rsplit('/', 1)[1]}").json()
        assert game["view"]["result"] == "time" and game["view"]["winner"] == 1
        assert game["outcome"]["unrated"] == "aborted" and game["outcome"]["ratings"] is None
        for page in (alice, bob):
            expect(page.locator("#tri-final-stats")).to_have_text(
                EN["games.triangles.clock.unrated.aborted"]
            )
            expect(chip(page, 0).locator("[data-clock]")).to_have_attribute("data-left-ms", "0")
        shot(alice, "triangles-flag-phone")
        shot(bob, "triangles-flag-desktop")
        assert alice_problems == [] and bob_problems == []
    finally:
        alice_ctx.close()
        bob_ctx.close()
