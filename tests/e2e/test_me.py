"""The player's page (/me) and what the lobby remembers, in a real browser: a transfer
code moves a player to a second browser (context B becomes context A), the games list
holds games of three kinds with their statistics and pages with "more", and the lobby
shows unfinished games, today's daily done and the streak. Waits are on page state
(``main[data-history]``, ``data-count``, ``[data-transfer]``, ``[data-claim]``,
``#switch-panel[data-switch]``, ``main[data-remembered]``), never on sleeps. A transfer
link never switches a browser by being opened: only the page's button does."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from app.i18n import catalog
from tests.e2e.states import api, finished

CODE = re.compile(r"[A-HJKMNP-Z2-9]{8}")


def history_ready(page: Any, count: int) -> None:
    expect(page.locator("main")).to_have_attribute("data-history", "ready")
    expect(page.locator("main")).to_have_attribute("data-count", str(count))


def item_ids(page: Any) -> list[str]:
    return page.locator(".history-item").evaluate_all("(items) => items.map((i) => i.dataset.id)")


def test_a_code_makes_a_second_browser_the_same_player(desktop: Any, phone: Any, shot: Any) -> None:
    a = desktop.new_page()
    a.goto("/me")
    history_ready(a, 0)
    game_id = finished(a, "blocks")
    b = phone.new_page()
    b.goto("/me")
    history_ready(b, 0)
    own = api(b, "POST", "/api/games", {"game": "pairs"})["id"]
    a.reload()
    history_ready(a, 1)

    a.locator("[data-make-code]").click()
    expect(a.locator("[data-transfer]")).to_have_attribute("data-transfer", "shown")
    code = a.locator("#transfer-code").inner_text()
    assert CODE.fullmatch(code), code
    # The server's modules are on the canvas: a light quiet zone, a dark finder corner.
    light, dark = a.evaluate(
        """() => {
            const canvas = document.getElementById('transfer-qr');
            const step = canvas.width / Number(canvas.dataset.modules);
            const middle = (m) => Math.floor((m + 0.5) * step);
            const at = (m) => canvas.getContext('2d')
                .getImageData(middle(m), middle(m), 1, 1).data[0];
            return [at(1), at(4)];
        }"""
    )
    assert (light, dark) == (255, 16)
    shot(a, "me-transfer-desktop")

    # B has a game of its own: the link shows both players and waits for the button.
    b.goto(f"/me?code={code}")
    panel = b.locator("#switch-panel")
    expect(panel).to_have_attribute("data-switch", "confirm")
    expect(panel.locator(".switch-who--now .switch-who__games")).to_have_text("Games: 1")
    expect(panel.locator(".switch-who--then .switch-who__games")).to_have_text("Games: 1")
    expect(panel.locator(".switch-panel__note")).to_be_visible()  # B's game stays behind
    history_ready(b, 1)
    assert item_ids(b) == [own]
    assert "code=" not in b.url
    shot(b, "me-switch-phone")
    panel.locator("[data-switch-confirm]").click()
    expect(panel).to_have_attribute("data-switch", "done")
    expect(panel).to_be_hidden()
    history_ready(b, 1)
    expect(b.locator(".history-item")).to_have_attribute("data-id", game_id)
    assert [g["id"] for g in api(b, "GET", "/api/me/games")["games"]] == [game_id]
    shot(b, "me-claimed-phone")

    # The code is spent: typed again, it is refused in the catalog's words.
    b.locator("#claim-input").fill(code.lower())
    b.locator("#claim-form button[type=submit]").click()
    expect(b.locator("#claim-form")).to_have_attribute("data-claim", "error")
    expect(b.locator("#claim-error")).to_have_text("That code is wrong, used or expired.")
    # The first browser is still the same player; B's old game is no longer B's.
    a.reload()
    history_ready(a, 1)
    assert item_ids(a) == [game_id]
    assert own not in [g["id"] for g in api(b, "GET", "/api/me/games")["games"]]


def test_a_qr_link_switches_nobody_until_the_button(desktop: Any, phone: Any, shot: Any) -> None:
    a = desktop.new_page()
    a.goto("/me")
    api(a, "PUT", "/api/me", {"name": "Alice"})
    game_id = finished(a, "triangles")
    code = api(a, "POST", "/api/me/transfer")["code"]
    b = phone.new_page()
    b.goto(f"/me?code={code}")  # a browser with no games of its own
    panel = b.locator("#switch-panel")
    expect(panel).to_have_attribute("data-switch", "confirm")
    expect(panel.locator(".switch-who__name")).to_have_text(["A new player", "Alice"])
    history_ready(b, 0)  # still itself: the link alone changed nothing
    assert api(b, "GET", "/api/me/games")["games"] == []
    # "Stay as I am" puts the question away; the code is still good for the button.
    panel.locator("[data-switch-cancel]").click()
    expect(panel).to_have_count(0)
    assert api(b, "GET", "/api/me/games")["games"] == []
    b.goto(f"/me?code={code}")
    shot(b, "me-switch-new-phone")
    b.locator("#switch-panel [data-switch-confirm]").click()
    expect(b.locator("#switch-panel")).to_have_attribute("data-switch", "done")
    history_ready(b, 1)
    assert item_ids(b) == [game_id]
    # Used up: the same link now says so, with no button.
    b.goto(f"/me?code={code}")
    expect(b.locator("#switch-panel")).to_have_attribute("data-switch", "bad_code")
    expect(b.locator("#switch-panel [data-switch-confirm]")).to_have_count(0)
    shot(b, "me-switch-used-phone")


def test_me_lists_three_kinds_pages_and_filters(phone: Any, shot: Any) -> None:
    page = phone.new_page()
    page.goto("/me")
    history_ready(page, 0)
    expect(page.locator("#history-status")).to_have_text(
        "No games here yet. Pick one in the lobby."
    )
    done = {kind: finished(page, kind) for kind in ("blocks", "pairs", "triangles")}
    for _ in range(9):
        api(page, "POST", "/api/games", {"game": "blocks"})
    page.reload()
    history_ready(page, 10)
    more = page.locator("[data-more]")
    expect(more).to_be_visible()
    more.click()
    history_ready(page, 12)
    expect(more).to_be_hidden()
    ids = item_ids(page)
    assert len(set(ids)) == 12
    finished_order = [i for i in ids if i in done.values()]
    assert finished_order == [done["triangles"], done["pairs"], done["blocks"]]

    expect(page.locator("main")).to_have_attribute("data-stats", "ready")
    cards = page.locator(".stat-card")
    assert cards.evaluate_all("(c) => c.map((x) => x.dataset.game)") == [
        "blocks",
        "pairs",
        "triangles",
    ]
    triangles = page.locator('.stat-card[data-game="triangles"]')
    expect(triangles.locator('[data-level="easy"]')).to_have_text(
        re.compile("Easy.*0 W · 1 L · 0 D")
    )
    expect(triangles.locator("dd").first).to_have_text("1")
    expect(page.locator("[data-streak]").first).to_have_text(
        "Finish today’s daily board to start a streak."
    )
    shot(page, "me-three-kinds-phone", full_page=True)

    page.locator("#history-filter").select_option("pairs")
    history_ready(page, 1)
    assert item_ids(page) == [done["pairs"]]
    replay = page.locator(".history-item a", has_text="Replay")
    expect(replay).to_have_attribute("href", f"/replay/{done['pairs']}")


def test_the_lobby_remembers_games_dailies_and_the_streak(desktop: Any, shot: Any) -> None:
    page = desktop.new_page()
    page.goto("/")
    expect(page.locator("main")).to_have_attribute("data-remembered", "ready")
    expect(page.locator("#continue-section")).to_be_hidden()
    expect(page.locator(".lobby [data-streak]")).to_be_hidden()
    expect(page.locator("[data-me-link]")).to_have_attribute("href", "/me")
    today = page.evaluate(
        """() => { const d = new Date(), p = (n) => String(n).padStart(2, '0');
                   return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`; }"""
    )
    daily = api(page, "POST", "/api/games", {"game": "blocks", "daily": today})
    api(
        page,
        "POST",
        f"/api/games/{daily['id']}/moves",
        {"version": daily["version"], "move": {"type": "finish"}},
    )
    active = api(page, "POST", "/api/games", {"game": "pairs"})["id"]
    page.reload()
    expect(page.locator("main")).to_have_attribute("data-remembered", "ready")
    cards = page.locator(".continue-card")
    expect(cards).to_have_count(1)
    expect(cards.first).to_have_attribute("href", f"/g/{active}")
    blocks = page.locator('.daily-card[data-game="blocks"]')
    expect(blocks).to_have_attribute("data-done", "true")
    # the rank an ordinal from the catalog (issue 24.13): "1st", not "#1"
    expect(blocks.locator("[data-done]")).to_have_text(re.compile(r"^Done · 0 · \d+(st|nd|rd|th)$"))
    expect(page.locator('.daily-card[data-game="pairs"]')).to_have_attribute("data-done", "false")
    expect(page.locator(".lobby [data-streak]")).to_have_text("1-day streak")
    shot(page, "lobby-remembers-desktop", full_page=True)


def test_every_word_of_me_and_the_lobby_is_in_every_catalog() -> None:
    root = Path(__file__).resolve().parents[2]
    catalogs = {lang: catalog(lang) for lang in ("en", "ru", "fr")}
    sources = "".join(
        (root / path).read_text("utf-8")
        for path in (
            "templates/me.html",
            "templates/lobby.html",
            "static/js/me.js",
            "static/js/me/transfer.js",
            "static/js/lobby.js",
            "static/js/lobby/remember.js",
            "static/js/core/variant.js",
        )
    )
    used = set(re.findall(r"['\"]((?:me|lobby)\.[\w.]+)['\"]", sources)) | {"error.bad_code"}
    assert len(used) > 40
    for lang, words in catalogs.items():
        # A key that ends in "." or names a group (a prefix) is completed in the code.
        missing = {
            k
            for k in used
            if not k.endswith(".")
            and k not in words
            and not any(w.startswith(f"{k}.") for w in words)
        }
        assert not missing, (lang, missing)
