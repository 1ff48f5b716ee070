"""The lobby in a real browser: cards, languages, theme, display name, open games,
the 404 page, and a clean console (no errors, no CSP violations)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from app.i18n import catalog

pytestmark = pytest.mark.e2e

CARDS = {
    "/play/blocks/classic10": "games.blocks.classic10.title",
    "/play/blocks/shapes48": "games.blocks.shapes48.title",
    "/play/blocks/gravity8": "games.blocks.gravity8.title",
    "/play/pairs": "games.pairs.title",
    "/play/triangles": "games.triangles.title",
}

CSP_PROBE = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


def words(lang: str) -> dict[str, str]:
    return catalog(lang)


def open_lobby(context: Any) -> Any:
    page = context.new_page()
    page.goto("/")
    expect(page.locator("h1")).to_have_text(words("en")["lobby.heading"])
    return page


def no_horizontal_scroll(page: Any) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px"


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_lobby_shows_the_games(device: str, request: pytest.FixtureRequest, shot: Any) -> None:
    page = open_lobby(request.getfixturevalue(device))
    en = words("en")
    for href, key in CARDS.items():
        card = page.locator(f'.game-card[href="{href}"]')
        expect(card).to_be_visible()
        expect(card.locator(".game-card__title")).to_have_text(en[key])
    for game in ("blocks", "pairs"):
        expect(page.locator(f'.daily-card[href="/daily/{game}"]')).to_be_visible()
    expect(page.locator("#open-status")).not_to_have_text(en["common.loading"])
    no_horizontal_scroll(page)
    page.wait_for_load_state("networkidle")
    shot(page, f"lobby-{device}")
    shot(page, f"lobby-{device}-full", full_page=True)


def test_desktop_grid_puts_the_block_games_side_by_side(desktop: Any) -> None:
    page = open_lobby(desktop)
    tops = {round(page.locator(f'.game-card[href="{href}"]').bounding_box()["y"])
            for href in list(CARDS)[:3]}
    assert len(tops) == 1
    main = page.locator("main").bounding_box()
    assert main["width"] <= 960 and abs(main["x"] - (1280 - main["x"] - main["width"])) <= 2


def test_language_switch(phone: Any, shot: Any) -> None:
    page = open_lobby(phone)
    # The service worker installs once the lobby has loaded, fetching the whole shell: on
    # a busy machine a reload racing that install was seen to take over 30 s.
    page.wait_for_load_state("networkidle")
    for lang in ("ru", "fr", "en"):
        with page.expect_navigation():
            page.select_option("#lang-select", lang)
        catalog = words(lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator("h1")).to_have_text(catalog["lobby.heading"])
        expect(page.locator("#h-open")).to_have_text(catalog["lobby.open.heading"])
        cookies = {c["name"]: c for c in phone.cookies()}
        assert cookies["lang"]["value"] == lang and cookies["lang"]["sameSite"] == "Lax"
        no_horizontal_scroll(page)
        if lang != "en":
            page.wait_for_load_state("networkidle")
            shot(page, f"lobby-phone-{lang}")


def test_theme_toggle_cycles_and_persists(desktop: Any, shot: Any) -> None:
    page = open_lobby(desktop)
    html = page.locator("html")
    toggle = page.locator("[data-theme-toggle]")
    background = "getComputedStyle(document.body).backgroundColor"
    expect(html).not_to_have_class(re.compile(r"theme-(light|dark)"))
    toggle.click()
    expect(html).to_have_class(re.compile(r"\btheme-light\b"))
    light = page.evaluate(background)
    toggle.click()
    expect(html).to_have_class(re.compile(r"\btheme-dark\b"))
    # the colour changes on the next frame (its transition, however short, starts there)
    page.wait_for_function(f"(light) => {background} !== light", arg=light, timeout=5_000)
    assert page.evaluate("localStorage.getItem('theme')") == "dark"
    expect(toggle).to_have_attribute("aria-label", re.compile("Dark"))
    page.reload()
    expect(html).to_have_class(re.compile(r"\btheme-dark\b"))
    assert 'class="theme-dark' in page.request.get("/").text()  # rendered by the server too
    page.wait_for_load_state("networkidle")
    page.locator(".toast").first.wait_for(state="detached")
    shot(page, "lobby-desktop-dark")
    toggle.click()
    expect(html).not_to_have_class(re.compile(r"theme-(light|dark)"))
    assert page.evaluate("localStorage.getItem('theme')") is None


def test_dark_system_preference_on_phone(browser: Any, server_url: str, shot: Any) -> None:
    context = browser.new_context(base_url=server_url, viewport={"width": 390, "height": 844},
                                  device_scale_factor=3, is_mobile=True, has_touch=True,
                                  color_scheme="dark")
    try:
        page = open_lobby(context)
        # --bg is light-dark(light, dark): resolved, it is the dark one (#0e1120)
        bg = page.evaluate("import('/static/js/core/theme.js').then((m) => m.cssVar('--bg'))")
        assert bg.strip() == "rgb(14, 17, 32)"
        page.wait_for_load_state("networkidle")
        shot(page, "lobby-phone-dark")
    finally:
        context.close()


def test_display_name(phone: Any, shot: Any) -> None:
    en = words("en")
    page = open_lobby(phone)
    # the form's script is on (under load the page's module may still be on its way)
    expect(page.locator("#name-form")).to_have_attribute("data-state", "ready")
    name, error = page.locator("#name-input"), page.locator("#name-error")
    submit = page.locator("#name-form button[type=submit]")
    expect(submit).to_be_enabled()  # off in the page until the script wired the form

    for bad in ("   ", "x" * 25, "tab\tinside"):  # what a name may be is the server's rule
        name.fill(bad)
        # the form's PUT (under load the page's own GET /api/me may still be on its way)
        with page.expect_response(
            lambda r: r.url.endswith("/api/me") and r.request.method == "PUT"
        ) as answer:
            submit.click()
        assert answer.value.status == 422
        expect(error).to_have_text(en["error.bad_name"])
    expect(name).to_have_attribute("aria-invalid", "true")
    page.evaluate("document.getElementById('name-form').scrollIntoView({block: 'center'})")
    shot(page, "lobby-phone-name-error")

    name.fill("  Ada Lovelace ")
    submit.click()
    expect(page.locator(".toast")).to_have_text(en["lobby.name.saved"])
    expect(error).to_be_hidden()
    expect(name).to_have_value("Ada Lovelace")
    page.reload()
    expect(name).to_have_value("Ada Lovelace")


def test_open_games_join_and_cancel(browser: Any, server_url: str, desktop: Any) -> None:
    host = open_lobby(desktop)
    host.request.put("/api/me", data={"name": "<b>Bold</b> & co"})
    created = host.request.post("/api/games", data={
        "game": "triangles", "params": {"opponent": "online"}, "public": True})
    assert created.status == 201, created.text()
    game_id = created.json()["id"]
    mine = host.locator(f'.open-item[data-id="{game_id}"]')
    expect(mine).to_be_visible(timeout=8000)  # the 5 s refresh picks it up
    expect(mine.locator("[data-action=cancel]")).to_be_visible()
    expect(mine.locator(".open-item__name")).to_contain_text("<b>Bold</b> & co")
    assert mine.locator("b").count() == 0  # names are text, never markup

    guest_context = browser.new_context(base_url=server_url, viewport={"width": 390, "height": 844})
    try:
        guest = open_lobby(guest_context)
        theirs = guest.locator(f'.open-item[data-id="{game_id}"]')
        expect(theirs.locator("[data-action=join]")).to_be_visible()
        with guest.expect_navigation(url=f"**/g/{game_id}"):
            theirs.locator("[data-action=join]").click()
    finally:
        guest_context.close()
    expect(mine).to_have_count(0, timeout=8000)

    second = host.request.post("/api/games", data={
        "game": "triangles", "params": {"opponent": "online"}, "public": True}).json()["id"]
    host.reload()
    row = host.locator(f'.open-item[data-id="{second}"]')
    row.locator("[data-action=cancel]").click()
    expect(row).to_have_count(0)
    expect(host.locator(".toast").last).to_have_text(words("en")["lobby.open.cancelled"])


@pytest.mark.parametrize("lang", ["en", "ru", "fr"])
def test_offline_the_open_list_stays_under_the_banner_and_reads_again_when_back(
    browser: Any, server_url: str, lang: str, shot: Any
) -> None:
    """Issue 36: a lobby that had loaded, gone offline, said "Couldn't load open games"
    above the list it still showed. Offline it says so once (the site's banner), keeps the
    last list, and reads it again once the connection is back."""
    said = words(lang)
    options = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
    context = browser.new_context(base_url=server_url, locale=lang, **options)
    other = browser.new_context(base_url=server_url)
    try:
        context.add_cookies([{"name": "lang", "value": lang, "url": server_url}])
        page = context.new_page()
        page.goto("/")
        mine = page.request.post("/api/games", data={
            "game": "triangles", "params": {"opponent": "online"}, "public": True})
        assert mine.status == 201, mine.text()
        row = page.locator(f'.open-item[data-id="{mine.json()["id"]}"]')
        expect(row).to_be_visible(timeout=8000)  # the 5 s refresh picks it up
        status = page.locator("#open-status")
        context.set_offline(True)
        body = page.locator("body")
        expect(body).to_have_attribute("data-connection", "offline", timeout=15_000)
        expect(page.locator("#connection-banner")).to_have_text(said["common.conn.lost.page"])
        expect(row).to_be_visible()  # the last list stays
        expect(status).not_to_have_text(said["lobby.open.error"])
        expect(page.locator(".open-status--error")).to_have_count(0)
        # What needs the server is off, and says why: a seek, a challenge.
        starts = page.locator('#seek-form [data-action="seek"], [data-create-challenge]')
        notes = page.locator("[data-offline-note]")
        expect(starts).to_have_count(2)
        for button in starts.all():
            expect(button).to_be_disabled()
            expect(button).to_have_attribute("title", said["common.offline.new_game"])
        expect(notes).to_have_text([said["common.offline.new_game"]] * 2)
        for note in notes.all():
            expect(note).to_be_visible()
        row.scroll_into_view_if_needed()
        shot(page, f"lobby-offline-{lang}-phone")
        # While it is offline, someone posts a challenge: the page reads it once back.
        other.new_page().goto("/")
        theirs = other.request.post("/api/games", data={
            "game": "triangles", "params": {"opponent": "online"}, "public": True})
        assert theirs.status == 201, theirs.text()
        context.set_offline(False)
        expect(body).to_have_attribute("data-connection", "online", timeout=15_000)
        expect(page.locator("#connection-banner")).to_be_hidden()
        for button in starts.all():
            expect(button).to_be_enabled()
        for note in notes.all():
            expect(note).to_be_hidden()
        join = page.locator(f'.open-item[data-id="{theirs.json()["id"]}"] [data-action="join"]')
        expect(join).to_be_enabled()
        expect(row).to_be_visible()
        expect(status).not_to_have_text(said["lobby.open.error"])
    finally:
        other.close()
        context.close()


def test_not_found_page(phone: Any, shot: Any) -> None:
    page = phone.new_page()
    response = page.goto("/play/no-such-game")
    assert response.status == 404
    expect(page.locator("h1")).to_have_text(words("en")["site.notfound.heading"])
    expect(page.locator('a.btn[href="/"]')).to_be_visible()
    shot(page, "not-found-phone")


def test_page_json_cannot_break_out_of_its_script(phone: Any) -> None:
    page = phone.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    evil = "<script>alert(1)<!--&"
    response = page.goto("/play/" + evil)
    assert response.status == 404
    assert "<script>alert" not in response.text()
    config = page.evaluate("JSON.parse(document.getElementById('page-config').textContent)")
    assert config["game"] == evil
    assert not dialogs


@pytest.mark.parametrize("path", ["/", "/play/no-such-game"])
def test_no_console_errors_or_csp_violations(phone: Any, path: str) -> None:
    page = phone.new_page()
    page.add_init_script(CSP_PROBE)
    problems: list[str] = []

    def on_console(message: Any) -> None:
        # The 404 page's own status is logged as a failed load; anything else is a problem.
        own_status = message.text.startswith("Failed to load resource") and (
            message.location.get("url") == page.url
        )
        if message.type == "error" and not own_status:
            problems.append(f"console: {message.text} ({message.location.get('url')})")

    page.on("console", on_console)
    page.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
    page.goto(path)
    page.wait_for_load_state("networkidle")
    page.locator("[data-theme-toggle]").click()
    page.wait_for_load_state("networkidle")  # every script and request done
    problems += [f"csp: {v}" for v in page.evaluate("window.__csp")]
    assert problems == []
