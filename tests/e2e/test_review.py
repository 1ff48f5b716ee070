"""The review on the replay page: a finished Triangles game asked for with ?review=1 (as
the end card's "Review" does) is marked ply by ply, by colour class and symbol, exactly
as the API's review says; each seat shows its accuracy; a ply that was not the best
names the better line. Waits are on #review's data-review and the stage's data-ply."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from app.i18n import catalog
from tests.e2e.conftest import settle
from tests.e2e.states import GUEST, HOST, computer_line, online_game
from tests.e2e.test_replay import api, at, played

SYMBOLS = {"best": "!", "good": "✓", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
SHOTS = Path(os.environ.get("REVIEW_SHOTS", "/tmp/review-shots"))


def reviewed(page: Any) -> tuple[str, dict[str, Any]]:
    """A finished game, its replay page opened with ?review=1, and its review once done."""
    final = played(page, "triangles")
    page.goto(f"/replay/{final['id']}?review=1")
    expect(page.locator("#review")).to_have_attribute("data-review", "done", timeout=90_000)
    return final["id"], api(page, "GET", f"/api/games/{final['id']}/review")


def test_the_replay_page_marks_every_line_and_shows_the_accuracy(desktop: Any) -> None:
    page = desktop.new_page()
    game_id, review = reviewed(page)
    assert review["status"] == "done"
    steps = page.locator(".replay-list__step.review-step")
    expect(steps).to_have_count(len(review["plies"]))
    for step in review["plies"]:
        button = page.locator(f".replay-list__step[data-ply='{step['ply']}']")
        verdict = f"review-step--{step['verdict']}"
        expect(button).to_have_class(f"replay-list__step review-step {verdict}")
        expect(button.locator(".review-mark")).to_have_text(SYMBOLS[step["verdict"]])
    for seat in review["summary"]:
        accuracy = page.locator(f".review-seat[data-seat='{seat['seat']}'] .review-seat__accuracy")
        expect(accuracy).to_contain_text("% accuracy")
        assert float(accuracy.get_attribute("data-accuracy") or "nan") == seat["accuracy"]
    worst = max(review["plies"], key=lambda step: (step["loss"], -step["ply"]))
    page.locator(f".replay-list__step[data-ply='{worst['ply']}']").click()
    at(page, worst["ply"])
    if worst["verdict"] == "best":
        expect(page.locator("#review-note")).to_have_text("Best")
    else:
        better = f"Better: {worst['best']['a'] + 1}–{worst['best']['b'] + 1}"
        expect(page.locator("#review-note")).to_contain_text(better)
    settle(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "review-desktop.png"))
    assert game_id


def test_a_review_on_a_phone_is_asked_with_the_button(phone: Any) -> None:
    page = phone.new_page()
    final = played(page, "triangles")
    page.goto(f"/replay/{final['id']}")
    at(page, 0)
    ask = page.locator("#review-ask")
    expect(ask).to_be_visible()
    assert (ask.bounding_box() or {"height": 0})["height"] >= 44
    ask.tap()
    expect(page.locator("#review")).to_have_attribute("data-review", "done", timeout=90_000)
    expect(ask).to_be_hidden()
    review = api(page, "GET", f"/api/games/{final['id']}/review")
    blunders = [step for step in review["plies"] if step["verdict"] != "best"]
    ply = blunders[0]["ply"] if blunders else 1
    page.locator(f".replay-list__step[data-ply='{ply}']").tap()
    at(page, ply)
    settle(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    settle(page)
    page.screenshot(path=str(SHOTS / "review-phone.png"))
    page.screenshot(path=str(SHOTS / "review-phone-full.png"), full_page=True)
    page.locator("#review").scroll_into_view_if_needed()
    settle(page)
    page.screenshot(path=str(SHOTS / "review-phone-panel.png"))


# --- issue 36: the review read on a phone ------------------------------------------------

LOCALES = {"en": "en-US", "ru": "ru-RU", "fr": "fr-FR"}
SIZES = {"upright": (390, 844), "sideways": (844, 390)}
# True once the whole board box is on screen, under the sticky header
BOARD_IN_VIEW = """() => {
  const header = document.querySelector('.site-header').getBoundingClientRect().bottom;
  const box = document.getElementById('replay-board').getBoundingClientRect();
  return box.height > 0 && box.top >= header - 1 && box.bottom <= window.innerHeight + 1;
}"""


SIZES_SEEN = """() => {
    window.__boardSizes = [];
    new MutationObserver(() => {
        const canvas = document.querySelector('#replay-board canvas');
        if (canvas) window.__boardSizes.push(`${canvas.width}x${canvas.height}`);
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ['width', 'height'] });
}"""


def test_a_review_asked_for_keeps_the_boards_size_as_it_arrives(phone: Any) -> None:
    """?review=1 draws the page with the review pending and the note's room kept under the
    controls: the board is sized once (it was sized three times, shrinking as the note
    said "checking" and then gave its two lines)."""
    page = phone.new_page()
    final = played(page, "triangles")
    page.add_init_script(f"({SIZES_SEEN})()")
    page.goto(f"/replay/{final['id']}?review=1", wait_until="commit")
    note = page.locator("#review-note")
    expect(note).to_have_attribute("data-review", re.compile("pending|done"))
    expect(page.locator("#review")).to_have_attribute("data-review", "done", timeout=90_000)
    at(page, 0)
    settle(page)
    sizes = page.evaluate("window.__boardSizes")
    assert len(set(sizes)) == 1, sizes


def words(lang: str) -> dict[str, str]:
    return catalog(lang)


def phone_page(browser: Any, server_url: str, lang: str, size: str = "upright") -> Any:
    width, height = SIZES[size]
    context = browser.new_context(
        base_url=server_url, viewport={"width": width, "height": height},
        device_scale_factor=2, is_mobile=True, has_touch=True, locale=LOCALES[lang],
    )
    return context.new_page()


def review_done(page: Any, game_id: str) -> dict[str, Any]:
    page.goto(f"/replay/{game_id}?review=1")
    expect(page.locator("#review")).to_have_attribute("data-review", "done", timeout=90_000)
    return dict(api(page, "GET", f"/api/games/{game_id}/review"))


@pytest.mark.parametrize("size", list(SIZES))
def test_picking_a_line_in_the_list_keeps_the_board_in_view(
    browser: Any, server_url: str, size: str
) -> None:
    """On a phone (upright and sideways) the list sits under the board: a line picked
    there brings the board, its dashed better line and the note naming it back on screen
    (issue 36: the board stayed off screen)."""
    page = phone_page(browser, server_url, "en", size)
    try:
        game_id, guest = online_game(page, lines=30)
        guest.close()
        review = review_done(page, game_id)
        worst = max(review["plies"], key=lambda step: (step["loss"], -step["ply"]))
        board = page.locator("#replay-board")
        start_height = (board.bounding_box() or {})["height"]  # at ply 0: no note yet
        step = page.locator(f".replay-list__step[data-ply='{worst['ply']}']")
        step.scroll_into_view_if_needed()
        assert not page.evaluate(BOARD_IN_VIEW)  # the list is below the board
        step.tap()
        at(page, worst["ply"])
        page.wait_for_function(BOARD_IN_VIEW)
        # the note keeps its room at every ply: the board does not change size
        assert (board.bounding_box() or {})["height"] == start_height
        note = page.locator("#review-note")
        expect(note).to_be_in_viewport(ratio=1)
        if worst["verdict"] != "best":
            best = worst["best"]
            expect(note).to_contain_text(f"Better: {best['a'] + 1}–{best['b'] + 1}")
        settle(page)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"review-picked-{size}.png"))
    finally:
        page.context.close()


def reviewed_online(page: Any) -> tuple[str, dict[str, Any]]:
    """An online game of HOST (this page's player) and GUEST, 8 lines then GUEST resigns,
    its replay page opened with ?review=1 and the review once done."""
    game_id, guest = online_game(page, lines=8)
    guest.close()
    return game_id, review_done(page, game_id)


def test_the_board_numbers_its_stars_while_a_review_is_shown(browser: Any, server_url: str) -> None:
    """The note names lines by star numbers ("Better: 15–21"): the board draws them while
    a review is shown, one for each star of the server's view, and none before (issue 36:
    numbers never drawn)."""
    page = phone_page(browser, server_url, "en")
    try:
        game_id, guest = online_game(page, lines=8)
        guest.close()
        page.goto(f"/replay/{game_id}")
        board = page.locator("#replay-board")
        expect(page.locator("#replay")).to_have_attribute("data-state", "ready")
        expect(board).to_have_attribute("data-star-numbers", "0")  # no review yet
        review_done(page, game_id)
        stars = api(page, "GET", f"/api/games/{game_id}/replay?ply=0")["view"]["stars"]
        expect(board).to_have_attribute("data-star-numbers", str(len(stars)))
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_review_names_the_seats_as_the_game_did(
    browser: Any, server_url: str, lang: str
) -> None:
    """Two long names online; "You" and the computer against it (issue 36: "Player 1 /
    Player 2" whoever played)."""
    text = words(lang)
    page = phone_page(browser, server_url, lang)
    try:
        reviewed_online(page)
        for seat, name in enumerate((HOST, GUEST)):
            seat_name = page.locator(f".review-seat[data-seat='{seat}'] .review-seat__name")
            expect(seat_name).to_have_text(name)
            seat_name.scroll_into_view_if_needed()
            expect(seat_name).to_be_in_viewport(ratio=1)  # a long name wraps, never cut
        final = played(page, "triangles")
        review_done(page, final["id"])
        for visit in range(2):  # asked, then stored: the second visit shows it at once
            if visit:
                review_done(page, final["id"])
            for seat, name in enumerate((text["common.you"], text["common.computer"])):
                seat_name = page.locator(f".review-seat[data-seat='{seat}'] .review-seat__name")
                expect(seat_name).to_have_text(name)
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", list(LOCALES))
def test_a_legend_words_every_mark(browser: Any, server_url: str, lang: str) -> None:
    """The symbols of the list and the counters (!, ✓, ?!, ?, ??) are worded on screen, in
    the page's language (issue 36: no visible legend)."""
    text = words(lang)
    page = phone_page(browser, server_url, lang)
    try:
        reviewed_online(page)
        legend = page.locator("#review-legend")
        expect(legend).to_be_attached()
        legend.scroll_into_view_if_needed()
        expect(legend).to_be_visible()
        expect(legend.locator(".review-legend__title")).to_have_text(text["replay.review.legend"])
        for verdict, symbol in SYMBOLS.items():
            mark = legend.locator(f"[data-verdict='{verdict}']")
            expect(mark).to_be_in_viewport(ratio=1)
            expect(mark.locator(".review-mark")).to_have_text(symbol)
            expect(mark).to_contain_text(text[f"replay.review.verdict.{verdict}"])
        settle(page)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"review-legend-{lang}.png"))
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", list(LOCALES))
def test_a_game_resigned_after_six_safe_lines_shows_no_accuracy(
    browser: Any, server_url: str, lang: str
) -> None:
    """Against the computer on board 00000007-a, three safe lines each, then a
    resignation: no line could lose anything, so neither seat shows an accuracy, and the
    page says why (issue 36: both at 100 %)."""
    text = words(lang)
    page = phone_page(browser, server_url, lang)
    try:
        created = api(page, "POST", "/api/games", {
            "game": "triangles", "number": "00000007-a", "params": {"opponent": "easy"}})
        moves, version = f"/api/games/{created['id']}/moves", created["version"]
        for _ in range(3):  # the computer answers every line
            version = api(page, "POST", moves,
                          {"version": version, "move": computer_line(page, created)})["version"]
        api(page, "POST", moves, {"version": version, "move": {"type": "resign"}})
        review = review_done(page, created["id"])
        for seat in (0, 1):
            accuracy = page.locator(f".review-seat[data-seat='{seat}'] .review-seat__accuracy")
            expect(accuracy).to_have_text(text["replay.review.unjudged"])
            expect(accuracy).to_have_attribute("data-accuracy", "null")
        expect(page.locator("#review-summary")).not_to_contain_text("100")
        assert [(s["accuracy"], s.get("judged")) for s in review["summary"]] == [(None, 0)] * 2
    finally:
        page.context.close()
def test_the_replay_of_an_unreviewed_game_logs_no_error(desktop: Any) -> None:
    """Issue 36 (8): every replay of an unreviewed Triangles game logged a 404 (the page's
    GET of the review answered no_review); it answers {"status": "none"}."""
    page = desktop.new_page()
    final = played(page, "triangles")
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.goto(f"/replay/{final['id']}")
    expect(page.locator("#review")).to_have_attribute("data-review", "none")
    expect(page.locator("#review-ask")).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert errors == []
