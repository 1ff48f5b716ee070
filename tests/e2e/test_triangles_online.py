"""Online Triangles in real browsers: each player is a browser context with its own
cookie. A match from the invitation link to the end (resign), a spectator who sees the
lines and cannot draw, reloading in the middle, the rematch with colours swapped, the
invitation cancelled, a lobby challenge, and claiming the win from an absent opponent.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.test_triangles import (
    EN,
    clean,
    fetch,
    game_id,
    legal_lines,
    start_game,
    tap_star,
    wait_idle,
    watch,
)

pytestmark = pytest.mark.e2e

ALICE = "Alice <i>&amp;"  # names are text everywhere, never HTML


def context(browser: Any, server_url: str, device: str) -> Any:
    if device == "phone":
        return browser.new_context(
            base_url=server_url,
            viewport={"width": 390, "height": 844},
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
            locale="en-US",
        )
    return browser.new_context(
        base_url=server_url, viewport={"width": 1280, "height": 800}, locale="en-US"
    )


def page_of(ctx: Any, path: str) -> tuple[Any, list[str]]:
    page = ctx.new_page()
    problems = watch(page)
    page.goto(path)
    return page, problems


def give_name(page: Any, name: str) -> None:
    dialog = page.locator("#tri-name")
    expect(dialog).to_be_visible()
    dialog.locator("#tri-name-input").fill(name)
    dialog.locator("#tri-name-ok").click()
    expect(dialog).to_be_hidden()


def version_of(page: Any) -> int:
    return int(page.locator("#tri").get_attribute("data-version"))


def line_by(page: Any, touch: bool, others: list[Any]) -> None:
    """The page's player draws a legal line; every other screen shows it within 5 s."""
    wait_idle(page)
    snap = fetch(page)
    a, b = legal_lines(snap["view"])[0]
    tap_star(page, snap["view"], a, touch)
    # the first pick shows before the second tap: a lost tap fails here, named as such
    expect(page.locator("#tri")).to_have_attribute("data-selected", str(a))
    tap_star(page, snap["view"], b, touch)
    for screen in (page, *others):
        expect(screen.locator("#tri")).to_have_attribute("data-version", str(snap["version"] + 1))
    lines = fetch(page)["view"]["lines"]
    assert lines[-1][:2] == [min(a, b), max(a, b)]


def seated_match(browser: Any, server_url: str) -> tuple[Any, Any, str]:
    """Alice (a phone) and Bob (a desktop), named, both seated in a new online game."""
    alice_ctx = context(browser, server_url, "phone")
    bob_ctx = context(browser, server_url, "desktop")
    assert alice_ctx.request.put("/api/me", data={"name": "Alice"}).ok
    assert bob_ctx.request.put("/api/me", data={"name": "Bob"}).ok
    created = alice_ctx.request.post(
        "/api/games", data={"game": "triangles", "params": {"opponent": "online"}}
    ).json()
    assert bob_ctx.request.post(f"/api/games/{created['id']}/join").ok
    return alice_ctx, bob_ctx, created["id"]


def chip(page: Any, seat: int) -> Any:
    return page.locator(f".tri-player--p{seat + 1}")


@pytest.mark.smoke  # make test-services runs it on PostgreSQL + Redis
def test_online_match_with_a_spectator_and_a_rematch(
    browser: Any, server_url: str, shot: Any
) -> None:
    alice_ctx = context(browser, server_url, "phone")
    bob_ctx = context(browser, server_url, "desktop")
    carol_ctx = context(browser, server_url, "phone")
    try:
        alice, alice_problems = page_of(alice_ctx, "/play/triangles")
        start_game(alice, kind="online", stars=24)
        give_name(alice, ALICE)
        waiting = alice.locator("#tri-waiting")
        expect(waiting).to_be_visible()
        invite = alice.locator("#tri-invite-url").input_value()
        assert invite.endswith(f"/g/{game_id(alice)}")
        expect(alice.locator("#tri-status")).to_have_text(
            EN["games.triangles.status.waiting_friend"]
        )
        expect(chip(alice, 1).locator("[data-name]")).to_have_text(EN["games.triangles.seat.open"])
        shot(alice, "triangles-online-phone-waiting")

        # Whoever opens the link first takes the second seat (after giving a name).
        bob, bob_problems = page_of(bob_ctx, invite)
        expect(bob.locator("#tri-name-title")).to_have_text(
            EN["games.triangles.join.title"].format(name=ALICE)
        )
        give_name(bob, "Bob")
        expect(waiting).to_be_hidden()
        expect(chip(alice, 1).locator("[data-name]")).to_have_text("Bob")
        expect(chip(bob, 0).locator("[data-name]")).to_have_text(ALICE)
        expect(chip(bob, 1).locator("[data-sub]")).to_have_text(EN["common.you"])
        expect(chip(alice, 1).locator("[data-sub]")).to_contain_text(
            EN["games.triangles.presence.online"]
        )
        expect(alice.locator("#tri-status")).to_have_text(EN["games.triangles.status.your_turn"])
        expect(bob.locator("#tri-status")).to_have_text(
            EN["games.triangles.status.their_turn"].format(name=ALICE)
        )

        # Everyone after that watches.
        carol, carol_problems = page_of(carol_ctx, invite)
        expect(carol.locator("#tri-status")).to_have_text(
            EN["games.triangles.status.watching"].format(name=ALICE)
        )
        expect(carol.locator("#tri-name")).to_be_hidden()
        assert fetch(carol)["seats"] == []

        for _ in range(3):
            line_by(alice, True, [bob, carol])
            line_by(bob, False, [alice, carol])
        assert [line[2] for line in fetch(carol)["view"]["lines"]] == [0, 1] * 3
        shot(alice, "triangles-online-phone-alice")
        shot(bob, "triangles-online-desktop-bob")
        shot(carol, "triangles-online-phone-spectator")

        # The spectator cannot draw: a tap says why and changes nothing.
        view = fetch(carol)["view"]
        a, b = legal_lines(view)[0]
        tap_star(carol, view, a, True)
        expect(carol.locator("#tri-bubble")).to_have_text(EN["games.triangles.spectator.cannot"])
        tap_star(carol, view, b, True)
        assert fetch(carol)["version"] == 6 and version_of(alice) == 6

        # A reload restores the match exactly, and the socket carries on.
        bob.reload()
        expect(bob.locator("#tri")).to_have_attribute("data-version", "6")
        expect(chip(bob, 0).locator("[data-name]")).to_have_text(ALICE)
        line_by(alice, True, [bob, carol])
        assert fetch(bob)["view"] == fetch(alice)["view"]

        # Resign (with confirmation) ends it for everyone.
        wait_idle(bob)
        bob.locator('#tri-controls [data-action="resign"]').click()
        bob.locator('#tri-confirm [data-action="yes"]').click()
        for page, title in (
            (alice, EN["common.you_won"]),
            (bob, EN["common.you_lost"]),
            (carol, EN["games.triangles.final.wins"].format(name=ALICE)),
        ):
            expect(page.locator("#tri-final-title")).to_have_text(title)
        expect(alice.locator("#tri-final-sub")).to_have_text(
            EN["games.triangles.final.reason.resigned"].format(name="Bob")
        )
        expect(carol.locator("#tri-rematch")).to_be_hidden()

        # The rematch: offered by one, accepted by the other, both move to the new game
        # with the colours swapped (Bob opens as player 1).
        old = game_id(alice)
        alice.locator('#tri-final [data-action="rematch-offer"]').click()
        expect(alice.locator("#tri-rematch-text")).to_have_text(
            EN["games.triangles.rematch.offered"].format(name="Bob")
        )
        expect(bob.locator("#tri-rematch-text")).to_have_text(
            EN["games.triangles.rematch.incoming"].format(name=ALICE)
        )
        shot(bob, "triangles-online-desktop-rematch-offer")
        shot(alice, "triangles-online-phone-final")
        bob.locator('#tri-final [data-action="rematch-accept"]').click()
        for page in (alice, bob):
            page.wait_for_url(re.compile(r"/g/(?!" + re.escape(old) + r")[\w-]+$"))
        assert game_id(alice) == game_id(bob) != old
        for page in (alice, bob):
            expect(chip(page, 0).locator("[data-name]")).to_have_text("Bob")
            expect(chip(page, 1).locator("[data-name]")).to_have_text(ALICE)
        expect(bob.locator("#tri-status")).to_have_text(EN["games.triangles.status.your_turn"])
        line_by(bob, False, [alice])
        for page, problems in (
            (alice, alice_problems),
            (bob, bob_problems),
            (carol, carol_problems),
        ):
            clean(page, problems)
    finally:
        for ctx in (alice_ctx, bob_ctx, carol_ctx):
            ctx.close()


def test_invitation_cancelled_and_listed_in_the_lobby(browser: Any, server_url: str) -> None:
    alice_ctx = context(browser, server_url, "desktop")
    bob_ctx = context(browser, server_url, "phone")
    try:
        alice, problems = page_of(alice_ctx, "/play/triangles")
        start_game(alice, kind="online", public=True)
        give_name(alice, "Alice")
        expect(alice.locator("#tri-invite-public")).to_be_visible()
        gid = game_id(alice)
        listed = alice.request.get("/api/open").json()["games"]
        assert gid in [g["id"] for g in listed]
        alice.locator('[data-action="cancel-game"]').click()
        expect(alice.locator("#tri-new")).to_be_visible()
        assert gid not in [g["id"] for g in alice.request.get("/api/open").json()["games"]]
        # The link now says so.
        bob, bob_problems = page_of(bob_ctx, f"/g/{gid}")
        expect(bob.locator("#tri-notice-title")).to_have_text(EN["games.triangles.cancelled.title"])
        expect(bob.locator("#tri-name")).to_be_hidden()
        clean(alice, problems)
        clean(bob, bob_problems)
    finally:
        alice_ctx.close()
        bob_ctx.close()


def test_a_lobby_challenge_plays_on_this_page(browser: Any, server_url: str) -> None:
    alice_ctx = context(browser, server_url, "desktop")
    bob_ctx = context(browser, server_url, "phone")
    try:
        alice, problems = page_of(alice_ctx, "/")
        alice.locator("[data-create-challenge]").click()
        alice.wait_for_url(re.compile(r"/g/[\w-]+$"))
        gid = game_id(alice)
        expect(alice.locator("#tri-waiting")).to_be_visible()
        bob, bob_problems = page_of(bob_ctx, "/")
        bob.locator(f'.open-item[data-id="{gid}"] [data-action="join"]').click()
        bob.wait_for_url(f"**/g/{gid}")
        expect(alice.locator("#tri-waiting")).to_be_hidden()
        expect(bob.locator("#tri-status")).to_have_text(
            EN["games.triangles.status.their_turn"].format(name=EN["common.player1"])
        )
        line_by(alice, False, [bob])
        line_by(bob, True, [alice])
        clean(alice, problems)
        clean(bob, bob_problems)
    finally:
        alice_ctx.close()
        bob_ctx.close()


@pytest.mark.slow  # a minute on the real clock: the pass starts it first
def test_claim_the_win_when_the_opponent_stays_away(
    browser: Any, server_url: str, shot: Any
) -> None:
    """Takes a little over a minute: the server counts the real time away."""
    alice_ctx, bob_ctx, gid = seated_match(browser, server_url)
    try:
        alice, problems = page_of(alice_ctx, f"/g/{gid}")
        bob, _ = page_of(bob_ctx, f"/g/{gid}")
        expect(chip(alice, 1).locator("[data-sub]")).to_contain_text(
            EN["games.triangles.presence.online"]
        )
        line_by(alice, True, [bob])
        bob.close()  # Bob switches off, on his turn
        expect(chip(alice, 1).locator("[data-sub]")).to_contain_text("away 0:0")
        claim = alice.locator("#tri-claim")
        expect(claim).to_be_hidden()
        expect(claim).to_be_visible(timeout=75_000)
        expect(claim.locator("#tri-claim-text")).to_contain_text("Bob has been away for 1:0")
        shot(alice, "triangles-online-phone-claim")
        claim.locator('[data-action="keep-waiting"]').click()
        expect(claim).to_be_hidden()
        alice.reload()
        expect(claim).to_be_visible(timeout=10_000)
        claim.locator('[data-action="claim"]').click()
        expect(alice.locator("#tri-final-title")).to_have_text(EN["common.you_won"])
        expect(alice.locator("#tri-final-sub")).to_have_text(
            EN["games.triangles.final.reason.claimed"].format(name="Bob")
        )
        assert fetch(alice)["view"]["result"] == "claimed"
        clean(alice, problems)
    finally:
        alice_ctx.close()
        bob_ctx.close()
