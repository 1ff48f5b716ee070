"""Time controls in real browsers: the New game dialog offers the catalog's time controls
for online games only; both players' pages show the clocks, full until each seat's first
line while the status line counts down the 20 s to draw it (long names, every language,
a phone upright and sideways); then the mover's clock ticks down and stops when the line
is drawn, and the other's starts. A first mover who draws nothing aborts the game; a
player silent once both have drawn loses on time."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.checks import layout_problems
from tests.e2e.states import GUEST, HOST, api, computer_line, stranger
from tests.e2e.test_triangles import EN, words
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


def countdown(catalog: dict[str, str], key: str, **names: str) -> re.Pattern[str]:
    """The first-line countdown's words with any number of seconds."""
    text = re.escape(catalog[key].format(s="SECONDS", **names))
    return re.compile("^" + text.replace("SECONDS", r"(\d+)") + "$")


def seconds_shown(page: Any) -> int:
    return int(re.findall(r"\d+", page.locator("#tri-status").inner_text())[-1])


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
            # no clock runs before its seat's first line: both full, the countdown instead
            expect(page.locator(".tri-player__clock.is-running")).to_have_count(0)
        you = countdown(EN, "games.triangles.first_line.you")
        them = countdown(EN, "games.triangles.first_line.them", name="Alice")
        expect(alice.locator("#tri-status")).to_have_text(you)
        expect(bob.locator("#tri-status")).to_have_text(them)
        start = seconds_shown(alice)
        assert 10 <= start <= 20
        alice.wait_for_function(  # it counts down on the page, second by second
            "(s) => Number(document.querySelector('#tri-status').textContent.match(/\\d+/)) < s",
            arg=start,
        )
        for page in (alice, bob):
            assert left_ms(page, 0) == 60_000 and left_ms(page, 1) == 60_000
        shot(alice, "triangles-first-line-phone")
        shot(bob, "triangles-first-line-desktop")

        line_by(alice, True, [bob])  # Alice's first line: it cost and earned no time
        for page in (alice, bob):
            expect(page.locator(".tri-player__clock.is-running")).to_have_count(0)
            assert left_ms(page, 0) == 60_000 and left_ms(page, 1) == 60_000
        expect(bob.locator("#tri-status")).to_have_text(you)
        expect(alice.locator("#tri-status")).to_have_text(
            countdown(EN, "games.triangles.first_line.them", name="Bob")
        )
        assert seconds_shown(bob) >= 15

        line_by(bob, False, [alice])  # both have drawn: Alice's clock runs from now
        for page in (alice, bob):
            expect(chip(page, 0).locator("[data-clock]")).to_have_class(
                "tri-player__clock is-running"
            )
            expect(page.locator("#tri-status")).not_to_have_class(re.compile("is-first-line"))
        assert left_ms(bob, 1) == 60_000
        wait_below(alice, 0, 59_000)  # it ticks down on the page
        shot(alice, "triangles-clock-phone")

        line_by(alice, True, [bob])
        for page in (alice, bob):
            expect(chip(page, 1).locator("[data-clock]")).to_have_class(
                "tri-player__clock is-running"
            )
            expect(chip(page, 0).locator("[data-clock]")).to_have_class("tri-player__clock")
        stopped = left_ms(bob, 0)
        assert 50_000 < stopped <= 61_000  # spent time, then +1 s increment
        assert left_ms(alice, 0) == stopped  # the same server figure on both pages
        wait_below(bob, 1, 60_000 - 500)
        assert alice_problems == [] and bob_problems == []
    finally:
        alice_ctx.close()
        bob_ctx.close()


@pytest.mark.parametrize("lang", ["en", "ru", "fr"])
@pytest.mark.parametrize("viewport", [(390, 844), (844, 390)], ids=["phone", "sideways"])
def test_the_first_line_countdown_fits_with_long_names(
    browser: Any, server_url: str, shot: Any, lang: str, viewport: tuple[int, int]
) -> None:
    """The longest countdown line, the host's page waiting for GUEST's first line, is
    whole on a phone upright and sideways: its seconds on screen, nothing cut."""
    width, height = viewport
    ctx = browser.new_context(
        base_url=server_url, viewport={"width": width, "height": height},
        is_mobile=True, has_touch=True, reduced_motion="reduce",
    )
    try:
        ctx.add_cookies([{"name": "lang", "value": lang, "url": server_url}])
        page = ctx.new_page()
        api(page, "PUT", "/api/me", {"name": HOST})
        guest = stranger(page, GUEST)
        try:
            params = {"opponent": "online", "stars": 24, "clock": "1+1"}
            game = api(page, "POST", "/api/games", {"game": "triangles", "params": params})
            api(guest, "POST", f"/api/games/{game['id']}/join")
        finally:
            guest.close()
        api(page, "POST", f"/api/games/{game['id']}/moves",
            {"version": 0, "move": computer_line(page, game)})
        page.goto(f"/g/{game['id']}")
        status = page.locator("#tri-status")
        expect(status).to_have_text(
            countdown(words(lang), "games.triangles.first_line.them", name=GUEST)
        )
        page.evaluate("document.fonts.ready")
        shot(page, f"triangles-first-line-{lang}-{width}x{height}")
        box = status.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
        assert status.evaluate("(el) => el.scrollWidth <= el.clientWidth + 1")
        assert status.evaluate("(el) => el.scrollHeight <= el.clientHeight + 1")
        problems = [p for p in layout_problems(page, True) if "tri-status" in p]
        assert problems == []
        for seat in (0, 1):  # still full: a clock starts with its seat's first line
            assert left_ms(page, seat) == 60_000
    finally:
        ctx.close()


def ready_for_rated(page: Any, name: str) -> None:
    """The page's player named and with the finished games rated play asks for
    (``app.fair_play``), through the API on the page's own cookie."""
    assert page.request.put("/api/me", data={"name": name}).ok
    qualify_page(page.request)


@pytest.mark.slow  # half a minute on the real clock: the pass starts it first
def test_a_silent_first_mover_aborts_and_both_end_cards_say_so(
    browser: Any, server_url: str, shot: Any
) -> None:
    """A rated 1+1 game where nobody draws a line: Alice (seat 0) has 20 s for her first
    line and her clock never starts; 20.3 s after Bob sits down the server aborts the game
    on its own, and both pages show the end card: aborted, nobody won, no rating changed."""
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
        expect(bob.locator("#tri-status")).to_have_text(
            countdown(EN, "games.triangles.first_line.them", name="Alice")
        )
        # Nobody sends anything from here: the abort is the server's own doing.
        for page in (alice, bob):
            expect(page.locator("#tri-final-title")).to_be_visible(timeout=60_000)
            expect(page.locator("#tri-final-title")).to_have_text(
                EN["games.triangles.final.aborted"]
            )
        expect(alice.locator("#tri-final-sub")).to_have_text(
            EN["games.triangles.final.reason.aborted_you"]
        )
        expect(bob.locator("#tri-final-sub")).to_have_text(
            EN["games.triangles.final.reason.aborted"].format(name="Alice")
        )
        game = alice.request.get(f"/api/games/{alice.url.rsplit('/', 1)[1]}").json()
        assert game["view"]["result"] == "aborted" and game["view"]["winner"] is None
        assert game["outcome"]["unrated"] == "aborted" and game["outcome"]["ratings"] is None
        for page in (alice, bob):
            expect(page.locator("#tri-final-stats")).to_have_text(
                EN["games.triangles.clock.unrated.aborted"]
            )
            for seat in (0, 1):  # neither clock ever ran
                expect(chip(page, seat).locator("[data-clock]")).to_have_attribute(
                    "data-left-ms", "60000"
                )
            # nothing to review: no "Review" (the server refuses one: tests/api)
            actions = page.locator("#tri-final-actions")
            expect(actions.locator('[data-action="review"]')).to_have_count(0)
            expect(actions).not_to_contain_text(EN["games.triangles.review.open"])
        expect(bob.locator('#tri-final [data-action="new"]')).to_be_visible()  # the way on
        shot(alice, "triangles-aborted-phone")
        shot(bob, "triangles-aborted-desktop")
        assert alice_problems == [] and bob_problems == []
    finally:
        alice_ctx.close()
        bob_ctx.close()


@pytest.mark.slow  # a minute on the real clock: the pass starts it first
def test_a_silent_player_flags_and_both_end_cards_say_so(
    browser: Any, server_url: str, shot: Any
) -> None:
    """A 1+1 game where both have drawn their first line, then nobody draws: Alice's clock
    (seat 0) runs out 60.3 s after Bob's line, the server flags it on its own, and both
    pages show the end card with the reason."""
    alice_ctx = context(browser, server_url, "phone")
    bob_ctx = context(browser, server_url, "desktop")
    try:
        assert alice_ctx.request.put("/api/me", data={"name": "Alice"}).ok
        assert bob_ctx.request.put("/api/me", data={"name": "Bob"}).ok
        params = {"opponent": "online", "stars": 24, "clock": "1+1"}
        game = api(alice_ctx, "POST", "/api/games", {"game": "triangles", "params": params})
        api(bob_ctx, "POST", f"/api/games/{game['id']}/join")
        alice, alice_problems = page_of(alice_ctx, f"/g/{game['id']}")
        bob, bob_problems = page_of(bob_ctx, f"/g/{game['id']}")
        line_by(alice, True, [bob])
        line_by(bob, False, [alice])
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
        loaded = alice.request.get(f"/api/games/{game['id']}").json()
        assert loaded["view"]["result"] == "time" and loaded["view"]["winner"] == 1
        for page in (alice, bob):
            expect(chip(page, 0).locator("[data-clock]")).to_have_attribute("data-left-ms", "0")
        shot(alice, "triangles-flag-phone")
        shot(bob, "triangles-flag-desktop")
        assert alice_problems == [] and bob_problems == []
    finally:
        alice_ctx.close()
        bob_ctx.close()
