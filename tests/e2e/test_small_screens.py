"""What players tripped over on small screens (issue 24, points 4, 6, 7, 8 and 12): the
time-control picker of Triangles' new-game dialog, names and ratings in a game, the offline
banner, words broken in two, the Pairs end card held sideways. Waits are on page state,
never on sleeps."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import settle
from tests.e2e.states import finished, open_dialog
from tests.e2e.test_pairs import drawn_geometry
from tests.qualify import qualify_page

PHONE = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}

# The lines (distinct tops of its letters' boxes) the text of an element sits on.
LINES = """(el) => {
  const range = document.createRange();
  range.selectNodeContents(el);
  const tops = [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top));
  return new Set(tops).size;
}"""

# The boxes of every visible control inside `scope` (a selector).
CONTROLS = """(scope) => [...document.querySelector(scope)
    .querySelectorAll('button, a[href], select, input, summary')]
  .filter((el) => el.checkVisibility() && !el.closest('#connection-banner'))
  .map((el) => { const r = el.getBoundingClientRect();
    return {name: el.id || el.className || el.textContent.trim().slice(0, 20),
            left: r.left, top: r.top, right: r.right, bottom: r.bottom}; })
  .filter((r) => r.right > r.left && r.bottom > r.top)"""


def context_for(browser: Any, server_url: str, viewport: dict[str, int], lang: str) -> Any:
    context = browser.new_context(
        base_url=server_url, viewport=viewport, is_mobile=True, has_touch=True,
        reduced_motion="reduce",
    )
    context.add_cookies([{"name": "lang", "value": lang, "url": server_url}])
    return context


@pytest.fixture(params=["en", "ru", "fr"])
def phone_page(request: pytest.FixtureRequest, browser: Any, server_url: str) -> Iterator[Any]:
    context = context_for(browser, server_url, PHONE, str(request.param))
    try:
        yield context.new_page()
    finally:
        context.close()


def box(page: Any, selector: str) -> dict[str, float]:
    return page.eval_on_selector(selector, "(el) => el.getBoundingClientRect().toJSON()")  # type: ignore[no-any-return]


# ------------------------------------------------------------------ point 4 -------------


def test_the_new_game_clock_picker_lays_out_in_columns_on_a_phone(phone_page: Any) -> None:
    """Seven time controls in Triangles' new-game dialog: pills at least 120 px wide (two
    columns on a phone, like the lobby's), each label on at most two lines, none cut."""
    page = phone_page
    page.goto("/play/triangles")
    open_dialog(page, "#tri-new")
    page.locator('#tri-new label:has(input[name="tri-kind"][value="online"])').click()
    pills = page.locator("#tri-new-clocks label")
    expect(pills).to_have_count(7)
    expect(pills.first).to_be_visible()
    for i in range(7):
        pill = pills.nth(i)
        width = pill.evaluate("(el) => el.getBoundingClientRect().width")
        label = pill.locator("span")
        text = label.text_content()
        assert width >= 120, f"{text!r} is {width:.0f}px wide"
        assert label.evaluate(LINES) <= 2, f"{text!r} wraps over more than two lines"
        fits = label.evaluate("(el) => el.scrollWidth <= el.clientWidth + 1")
        assert fits, f"{text!r} overflows"
    top = "(el) => Math.round(el.getBoundingClientRect().top)"
    rows = {pills.nth(i).evaluate(top) for i in range(7)}
    assert len(rows) >= 3  # seven pills in two (or three) columns: several rows


# ------------------------------------------------------------------ point 6 -------------

# Where the rating's digits are drawn, and the box of the nearest ancestor that clips them.
RATING_SHOWN = """(chip) => {
  const walker = document.createTreeWalker(chip, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.search(/\\d{3,4}\\??$/);  // "1500", or "1500?" (provisional)
    if (at < 0 || node.parentElement.closest('[data-score], [data-clock]')) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, node.data.length);
    const digits = range.getBoundingClientRect();
    let clip = node.parentElement;
    while (clip && getComputedStyle(clip).overflowX === 'visible') clip = clip.parentElement;
    const box = (clip || document.documentElement).getBoundingClientRect();
    return {text: node.data, left: digits.left, right: digits.right,
            clipLeft: box.left, clipRight: box.right};
  }
  return null;
}"""


@pytest.mark.parametrize("lang", ["ru", "fr"])
def test_the_opponents_rating_shows_in_a_game_on_a_phone(
    browser: Any, server_url: str, lang: str
) -> None:
    """A rated online game between two long names on a 390 px phone: both names may be cut
    short, both ratings are whole on screen."""
    me = context_for(browser, server_url, PHONE, lang)
    other = context_for(browser, server_url, PHONE, lang)
    try:
        assert me.request.put("/api/me", data={"name": "Борис Великолепный"}).ok
        assert other.request.put("/api/me", data={"name": "Chloé-Marguerite Dupont"}).ok
        for player in (me, other):  # rated games come after five finished ones
            qualify_page(player.request)
        params = {"opponent": "online", "clock": "3+2", "rated": True}
        created = me.request.post("/api/games", data={"game": "triangles", "params": params})
        assert created.ok, created.text()
        game = created.json()["id"]
        assert other.request.post(f"/api/games/{game}/join").ok
        page = me.new_page()
        page.goto(f"/g/{game}")
        expect(page.locator("#tri")).to_have_attribute("data-state", "active")
        for seat in (0, 1):
            chip = page.locator(f".tri-player--p{seat + 1}")
            expect(chip).to_contain_text("1500?")  # new players: provisional, marked
            shown = chip.evaluate(RATING_SHOWN)
            assert shown is not None, f"seat {seat}: no rating"
            assert shown["left"] >= shown["clipLeft"] - 0.5, shown
            assert shown["right"] <= shown["clipRight"] + 0.5, shown
            assert shown["right"] <= PHONE["width"], shown
    finally:
        me.close()
        other.close()


# ------------------------------------------------------------------ point 7 -------------


@pytest.mark.parametrize(
    ("path", "stage"), [("/play/pairs", "#pairs"), ("/play/blocks", "#blocks")]
)
def test_the_offline_banner_is_a_full_width_bar_over_no_control(
    phone_page: Any, path: str, stage: str
) -> None:
    page = phone_page
    page.goto(path)
    expect(page.locator(stage)).to_have_attribute("data-state", re.compile("playing"))
    page.context.set_offline(True)
    expect(page.locator("body")).to_have_attribute("data-connection", "offline")
    banner = page.locator("#connection-banner")
    expect(banner).to_be_visible()
    # the stages give up the banner's height once --offline-h holds it (a ResizeObserver
    # keeps it: a banner that wraps to two lines is caught up a frame later)
    page.wait_for_function(
        """() => getComputedStyle(document.body).getPropertyValue('--offline-h')
                 === `${document.getElementById('connection-banner').offsetHeight}px`"""
    )
    bar = box(page, "#connection-banner")
    assert bar["width"] >= PHONE["width"] - 1, bar  # across the page
    assert bar["height"] <= 48, bar  # one or two short lines, not a box of five
    for control in page.evaluate(CONTROLS, "body"):
        overlap = (control["left"] < bar["right"] and control["right"] > bar["left"]
                   and control["top"] < bar["bottom"] and control["bottom"] > bar["top"])
        assert not overlap, f"the banner covers {control}"
    for control in page.evaluate(CONTROLS, stage):  # the game's own: still on screen
        assert control["bottom"] <= PHONE["height"] + 1, control
    page.context.set_offline(False)
    expect(page.locator("body")).to_have_attribute("data-connection", "online", timeout=15_000)
    expect(banner).to_have_count(0)


# ------------------------------------------------------------------ point 8 -------------
# (words broken inside: the word check of tests/e2e/test_page_matrix.py, every page and dialog)


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["left"] < b["right"] - 0.5 and a["right"] > b["left"] + 0.5
            and a["top"] < b["bottom"] - 0.5 and a["bottom"] > b["top"] + 0.5)


def test_the_token_badge_stays_clear_of_new_set_while_finish_asks(phone_page: Any) -> None:
    page = phone_page
    page.goto("/play/blocks/classic10/00000001-a")
    expect(page.locator("#blocks")).to_have_attribute("data-state", re.compile("playing"))
    page.locator("#blocks-finish").click()
    expect(page.locator("#blocks-finish")).to_have_class(re.compile("is-confirm"))
    label = box(page, "#blocks-newset [data-label]")
    badge = box(page, "#blocks-tokens")
    button = box(page, "#blocks-newset")
    assert not overlaps(label, badge), (label, badge)
    assert badge["right"] <= button["right"] + 0.5, (badge, button)
    assert page.locator("#blocks-newset [data-label]").evaluate(LINES) == 1
    assert not overlaps(button, box(page, "#blocks-finish"))


# ------------------------------------------------------------------ point 12 ------------


@pytest.mark.parametrize("lang", ["en", "ru", "fr"])
def test_the_pairs_end_card_fits_a_phone_held_sideways(
    browser: Any, server_url: str, lang: str
) -> None:
    """The tallest card (a new record: its badge shown) at 844×390: the title whole inside
    the card, nothing scrolled out of sight, so no scroller to take the focus either."""
    context = context_for(browser, server_url, LANDSCAPE, lang)
    try:
        page = context.new_page()
        page.goto("/play/pairs")
        game = finished(page, "pairs")
        page.goto(f"/g/{game}")
        open_dialog(page, "#pairs-final")
        expect(page.locator("#pairs-final-record")).not_to_be_empty()
        page.evaluate("document.getElementById('pairs-final-badge').hidden = false")
        settle(page)
        # both boxes from one layout: the card is centred, so it moves as it grows
        card, title = page.evaluate(
            "['#pairs-final', '#pairs-final-title'].map("
            "(s) => document.querySelector(s).getBoundingClientRect().toJSON())"
        )
        assert card["top"] >= 0 and card["bottom"] <= LANDSCAPE["height"], card
        assert title["top"] >= card["top"] + 8, (title, card)
        body = page.locator("#pairs-final .dialog-body")
        sizes = body.evaluate("(el) => [el.scrollHeight, el.clientHeight]")
        assert sizes[0] <= sizes[1] + 1, f"the card's body scrolls: {sizes}"
        dialog = page.locator("#pairs-final")
        assert dialog.evaluate("(el) => el.scrollHeight <= el.clientHeight + 1")
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.tagName")
        assert focused in {"BUTTON", "A"}, focused
    finally:
        context.close()


def test_pairs_tiles_are_bigger_on_a_phone_held_sideways(browser: Any, server_url: str) -> None:
    """Issue 36 (8): sideways, the tiles were sized for a 9-row board whatever the board
    (31×33 px for the classic 8 rows): a short box sizes them by the board's own rows, and
    draws the board across (rows as columns: 47×50 px), and the whole board still fits the
    screen (test_pairs.py taps a drawn tile)."""
    context = context_for(browser, server_url, LANDSCAPE, "en")
    try:
        page = context.new_page()
        page.goto("/play/pairs")
        board = page.locator("#pairs-board")
        expect(page.locator("#pairs")).to_have_attribute("data-state", re.compile("playing"))
        x0, y0, cw, ch, rows, cols, across = drawn_geometry(board)
        assert rows == 8 and across == 1 and cw >= 45 and ch >= 47, (cw, ch)
        box = board.bounding_box() or {}
        assert box["y"] + y0 + cols * ch <= LANDSCAPE["height"], "the board runs off the screen"
        assert box["x"] + x0 + rows * cw <= LANDSCAPE["width"], "the board runs off the screen"
    finally:
        context.close()
