"""The Blocks pages in a real browser: real mouse drags of tray pieces onto the board
(ghost, highlighted lines, points), line clears, New set, rotation, keyboard play, the
Chrono clock, the final card, the daily board with its board of honour, and a clean
console. Screenshots go to artifacts/screenshots/blocks-*.png.

Where to drop a piece is chosen from the server's view (GET /api/games/{id}): every hand
piece lists its legal cells with the lines they clear; the test drags the piece there
with page.mouse (down, a path of moves, up), exactly as a player would.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from app.i18n import catalog
from engines.blocks.shapes import rotate_clockwise
from tests.e2e.conftest import FRAME, TWO_FRAMES

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ["classic10", "shapes48", "gravity8"]
NUMBERS = {"classic10": "00000001-a", "shapes48": "00000001-b", "gravity8": "00000001-c"}

CONSOLE_PROBE = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""


def words(lang: str = "en") -> dict[str, str]:
    return catalog(lang)


# --- driving the page ----------------------------------------------------------------------


def watch_console(page: Any) -> list[str]:
    problems: list[str] = []
    page.add_init_script(CONSOLE_PROBE)
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    return problems


def clean_console(page: Any, problems: list[str], allow: str | None = None) -> None:
    """No errors and no CSP violations (``allow``: a status the test expects, e.g. 409)."""
    if allow:
        problems = [p for p in problems if f"status of {allow}" not in p]
    assert problems == [], problems
    assert page.evaluate("window.__csp") == []


def open_game(context: Any, path: str) -> tuple[Any, str, list[str]]:
    """Open a blocks page and wait until its game is on screen; → (page, game id, console)."""
    page = context.new_page()
    problems = watch_console(page)
    page.goto(path)
    page.wait_for_url(re.compile(r"/g/[\w-]+$"))
    expect(page.locator("#blocks")).to_have_attribute("data-state", "playing")
    return page, page.url.rsplit("/", 1)[1], problems


def game_json(page: Any, game_id: str) -> dict[str, Any]:
    response = page.request.get(f"/api/games/{game_id}")
    assert response.ok, response.text()
    return response.json()  # type: ignore[no-any-return]


def version(page: Any) -> int:
    return int(page.locator("#blocks").get_attribute("data-version"))


def wait_version(page: Any, above: int) -> None:
    page.wait_for_function(
        "v => Number(document.getElementById('blocks').dataset.version) > v", arg=above
    )


def geometry(page: Any) -> dict[str, float]:
    board = page.locator("#blocks-board")
    box = board.bounding_box()
    data = board.evaluate("b => ({...b.dataset})")
    return {
        "left": box["x"] + float(data["gridLeft"]),
        "top": box["y"] + float(data["gridTop"]),
        "cell": float(data["cell"]),
    }


def slot_centre(page: Any, slot: int) -> tuple[float, float]:
    tray = page.locator("#blocks-tray").bounding_box()
    return tray["x"] + tray["width"] * (2 * slot + 1) / 6, tray["y"] + tray["height"] / 2


def drop_point(page: Any, cells: list[list[int]], row: int, col: int) -> tuple[float, float]:
    """Where the mouse must be for the piece's box (centred on the pointer) to sit at
    [row, col]."""
    geo = geometry(page)
    rows = 1 + max(r for r, _ in cells)
    cols = 1 + max(c for _, c in cells)
    return (
        geo["left"] + (col + cols / 2) * geo["cell"],
        geo["top"] + (row + rows / 2) * geo["cell"],
    )


def drag(page: Any, slot: int, cells: list[list[int]], row: int, col: int,
         before_drop: Any = None) -> None:
    """Press on a tray piece, move along a path onto the board, release."""
    sx, sy = slot_centre(page, slot)
    tx, ty = drop_point(page, cells, row, col)
    page.mouse.move(sx, sy)
    page.mouse.down()
    page.mouse.move(sx + 6, sy - 10, steps=3)
    page.mouse.move((sx + tx) / 2, (sy + ty) / 2 - 30, steps=8)
    page.mouse.move(tx, ty, steps=8)
    if before_drop is not None:
        before_drop()
    page.mouse.up()


def fill_metric(view: dict[str, Any], cells: list[list[int]], placement: dict[str, Any]) -> tuple:
    grid = [[1 if kind else 0 for kind in row] for row in view["grid"]]
    covered = [(placement["row"] + r, placement["col"] + c) for r, c in cells]
    for r, c in covered:
        grid[r][c] = 1
    clears = len(placement["clears"]["rows"]) + len(placement["clears"]["cols"])
    fullest = max(sum(row) for row in grid)
    return (clears, fullest, max(sum(grid[r]) for r, _ in covered), -placement["row"])


def choose(view: dict[str, Any]) -> tuple[int, dict[str, Any], dict[str, Any]]:
    """The greedy choice: most lines cleared, then the fullest row made fuller."""
    options = [
        (fill_metric(view, piece["cells"], p), slot, piece, p)
        for slot, piece in enumerate(view["hand"]) if piece
        for p in piece["placements"]
    ]
    assert options, "no piece fits"
    _, slot, piece, placement = max(options, key=lambda o: o[0])
    return slot, piece, placement


def play_until_clear(page: Any, game_id: str, name: str, shot: Any, limit: int = 14) -> None:
    """Drag pieces (greedy) until one placement clears a line; screenshot the drag whose
    ghost highlights the lines, and the clear itself."""
    for _ in range(limit):
        view = game_json(page, game_id)["view"]
        slot, piece, placement = choose(view)
        clears = placement["clears"]["rows"] + placement["clears"]["cols"]
        before = version(page)

        def look() -> None:  # the ghost, the highlighted lines and the points pill
            shot(page, f"{name}-drag")

        drag(page, slot, piece["cells"], placement["row"], placement["col"],
             look if clears else None)
        wait_version(page, before)
        after = game_json(page, game_id)
        assert after["view"]["placements"] == view["placements"] + 1
        if clears:
            assert after["view"]["lines_cleared"] > view["lines_cleared"]
            shot(page, f"{name}-clear")
            return
    raise AssertionError("no line cleared")


def finish(page: Any) -> None:
    button = page.locator("#blocks-finish")
    button.click()
    expect(button).to_have_class(re.compile("is-confirm"))
    button.click()
    expect(page.locator("#blocks-final")).to_be_visible()


# --- one game per ruleset: drag, clear, finish ---------------------------------------------


@pytest.mark.smoke  # make test-services runs it on PostgreSQL + Redis
@pytest.mark.parametrize("device", ["phone", "desktop"])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_drag_clear_and_finish(
    ruleset: str, device: str, request: pytest.FixtureRequest, shot: Any
) -> None:
    context = request.getfixturevalue(device)
    name = f"blocks-{ruleset}-{device}"
    page, game_id, problems = open_game(context, f"/play/blocks/{ruleset}/{NUMBERS[ruleset]}")
    expect(page.locator("#blocks-sub")).to_contain_text(NUMBERS[ruleset])
    no_scroll = page.evaluate(
        "[document.documentElement.scrollHeight - innerHeight,"
        " document.documentElement.scrollWidth - innerWidth]"
    )
    assert no_scroll[1] <= 0
    if device == "phone":
        assert no_scroll[0] <= 0, f"the phone page scrolls by {no_scroll[0]}px"
    shot(page, f"{name}-tray")

    play_until_clear(page, game_id, name, shot)
    score = game_json(page, game_id)["view"]["score"]
    expect(page.locator("#blocks-score")).to_have_text(f"{score:,}", timeout=3000)

    finish(page)
    final = page.locator("#blocks-final")
    expect(final.locator("[data-score]")).to_have_text(f"{score:,}")
    expect(final.locator("#blocks-final-title")).to_have_text(
        words()["games.blocks.final.title.finished"]
    )
    shot(page, f"{name}-final")
    assert game_json(page, game_id)["view"]["over"] is True
    clean_console(page, problems)


# --- combos, New set, rotation, keyboard, touch ----------------------------------------------


def greedy_drag(page: Any, game_id: str) -> dict[str, Any]:
    """One greedy placement by mouse; → the game after it."""
    view = game_json(page, game_id)["view"]
    slot, piece, placement = choose(view)
    before = version(page)
    drag(page, slot, piece["cells"], placement["row"], placement["col"])
    wait_version(page, before)
    return game_json(page, game_id)


def test_combo_shows(desktop_in_motion: Any, shot: Any) -> None:
    page, game_id, problems = open_game(desktop_in_motion, "/play/blocks/classic10/00000002-a")
    for _ in range(14):
        view = greedy_drag(page, game_id)["view"]
        if (view["combo_label"] or 0) >= 2:
            break
    else:
        raise AssertionError("no combo")
    text = words()["games.blocks.combo"].replace("{n}", str(view["combo_label"]))
    expect(page.locator("#blocks-combo")).to_have_text(text)
    expect(page.locator(".blocks-pop--combo")).to_have_text(text)
    shot(page, "blocks-combo-desktop")
    clean_console(page, problems)


def test_new_set_asks_twice(phone: Any, shot: Any) -> None:
    page, game_id, problems = open_game(phone, "/play/blocks/classic10/00000001-a")
    button = page.locator("#blocks-newset")
    expect(page.locator("#blocks-tokens")).to_have_text("1")
    hand = game_json(page, game_id)["view"]["hand"]
    button.click()
    expect(button).to_have_class(re.compile("is-confirm"))
    expect(button).to_contain_text(words()["games.blocks.new_set.confirm"])
    shot(page, "blocks-newset-confirm-phone")
    assert game_json(page, game_id)["view"]["tokens"] == 1
    before = version(page)
    button.click()
    wait_version(page, before)
    after = game_json(page, game_id)["view"]
    assert after["tokens"] == 0 and after["hand"] != hand
    expect(page.locator("#blocks-tokens")).to_have_text("0")
    expect(button).to_be_disabled()
    clean_console(page, problems)


def test_rotation_double_tap_and_r_key(desktop: Any) -> None:
    page, game_id, problems = open_game(desktop, "/play/blocks/gravity8?rotation=1&new=1")
    assert game_json(page, game_id)["number"].endswith("-cr")
    expect(page.locator("#blocks-rotate-hint")).to_be_visible()
    start = game_json(page, game_id)["view"]["hand"][1]["cells"]
    x, y = slot_centre(page, 1)
    before = version(page)
    page.mouse.dblclick(x, y)
    wait_version(page, before)
    page.mouse.move(x, y)
    page.keyboard.press("r")
    wait_version(page, before + 1)
    log = page.request.get(f"/api/games/{game_id}/log").json()["moves"]
    assert [m["move"] for m in log] == [{"type": "rotate", "piece": 1}] * 2
    turned = rotate_clockwise(rotate_clockwise(tuple(tuple(c) for c in start)))
    assert game_json(page, game_id)["view"]["hand"][1]["cells"] == [list(c) for c in turned]
    clean_console(page, problems)


def test_keyboard_play(desktop: Any) -> None:
    page, game_id, problems = open_game(desktop, "/play/blocks/classic10/00000001-a")
    view = game_json(page, game_id)["view"]
    page.keyboard.press("2")
    expect(page.locator("#blocks-board")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator("#blocks-tray")).to_be_focused()
    page.keyboard.press("ArrowRight")  # from piece 2 to piece 3
    page.keyboard.press("Enter")  # picked up, near the middle
    for key in ["ArrowUp"] * 12 + ["ArrowLeft"] * 12:  # into the top-left corner
        page.keyboard.press(key)
    before = version(page)
    page.keyboard.press("Enter")
    wait_version(page, before)
    placed = page.request.get(f"/api/games/{game_id}/log").json()["moves"][0]["move"]
    assert placed == {"type": "place", "piece": 2, "row": 0, "col": 0}
    after = game_json(page, game_id)["view"]
    assert after["hand"][2] is None and after["score"] == len(view["hand"][2]["cells"])
    clean_console(page, problems)


def test_another_piece_taken_with_the_keys_puts_the_held_one_back(desktop: Any) -> None:
    """1 then 2: piece 2 replaces piece 1 over the board, and piece 1 is back in the tray
    (the tray draws exactly as after holding piece 2 alone)."""
    page = desktop.new_page()
    page.emulate_media(reduced_motion="reduce")  # no deal animation in the pictures
    problems = watch_console(page)
    page.goto("/play/blocks/classic10/00000001-a")
    expect(page.locator("#blocks")).to_have_attribute("data-state", "playing")
    # the tray's pixels once the frames its last change asked for are drawn
    pixels = (
        "c => new Promise((r) => requestAnimationFrame(() =>"
        " requestAnimationFrame(() => r(c.toDataURL()))))"
    )
    tray = page.locator("#blocks-tray canvas")
    page.keyboard.press("2")
    expect(page.locator("#blocks-board")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator("#blocks-tray")).to_be_focused()
    alone = tray.evaluate(pixels)
    page.keyboard.press("1")
    expect(page.locator("#blocks-board")).to_be_focused()
    page.keyboard.press("2")
    page.keyboard.press("Escape")
    expect(page.locator("#blocks-tray")).to_be_focused()
    assert tray.evaluate(pixels) == alone
    clean_console(page, problems)


def touch(cdp: Any, kind: str, x: float = 0, y: float = 0) -> None:
    points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def resting_box(page: Any, selector: str) -> dict[str, float]:
    """The element's box once it has stopped moving: touch moves are delivered on
    animation frames and the lift grows the piece for a moment, so a box read at once
    can lag the finger by a step on a busy machine."""
    return page.evaluate(
        """async (selector) => {
            const element = document.querySelector(selector);
            const frame = """ + FRAME + """;
            let last = null;
            for (;;) {
                await frame();
                await frame();
                const r = element.getBoundingClientRect();
                const box = { x: r.x, y: r.y, width: r.width, height: r.height };
                const near = (k) => Math.abs(box[k] - last[k]) < 0.5;
                const still = last && Object.keys(box).every(near);
                if (still) return box;
                last = box;
            }
        }""",
        selector,
    )


def test_touch_drag_floats_above_the_finger(phone: Any, shot: Any) -> None:
    page, game_id, problems = open_game(phone, "/play/blocks/classic10/00000001-a")
    view = game_json(page, game_id)["view"]
    slot = next(i for i, p in enumerate(view["hand"]) if p)
    cells = view["hand"][slot]["cells"]
    geo = geometry(page)
    sx, sy = slot_centre(page, slot)
    fx, fy = drop_point(page, cells, 6, 3)  # the finger's cell: row 6 …
    cdp = phone.new_cdp_session(page)
    touch(cdp, "touchStart", sx, sy)
    for i in range(1, 13):
        touch(cdp, "touchMove", sx + (fx - sx) * i / 12, sy + (fy - sy) * i / 12)
    expect(page.locator(".blocks-float")).to_be_visible()
    float_box = resting_box(page, ".blocks-float")
    shot(page, "blocks-touch-drag-phone")
    before = version(page)
    touch(cdp, "touchEnd")
    wait_version(page, before)
    move = page.request.get(f"/api/games/{game_id}/log").json()["moves"][0]["move"]
    lift = (fy - (float_box["y"] + float_box["height"] / 2))
    assert 60 <= lift <= 160, lift
    # … and the piece lands where it floated, higher up than the finger
    assert move["piece"] == slot and move["col"] == 3
    assert move["row"] == round(6 - lift / geo["cell"])
    clean_console(page, problems)


def test_a_drop_off_the_board_puts_the_piece_back(desktop: Any) -> None:
    page, game_id, problems = open_game(desktop, "/play/blocks/classic10/00000001-a")
    sx, sy = slot_centre(page, 0)
    geo = geometry(page)
    page.mouse.move(sx, sy)
    page.mouse.down()
    page.mouse.move(geo["left"] - 120, geo["top"] + 40, steps=10)  # beside the board
    page.mouse.up()
    page.mouse.move(sx, sy)
    page.mouse.down()
    page.mouse.move(sx + 40, sy - 60, steps=5)
    page.mouse.move(sx, sy, steps=5)  # back on the tray
    page.mouse.up()
    expect(page.locator(".blocks-float")).to_be_hidden()
    expect(page.locator("body")).to_have_attribute("data-pending", "0")  # nothing in flight
    assert version(page) == 0
    assert game_json(page, game_id)["version"] == 0
    clean_console(page, problems)


# --- daily, chrono, continue, resume, watching, languages, themes ---------------------------


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_daily_once_with_board_of_honour(
    device: str, request: pytest.FixtureRequest, shot: Any
) -> None:
    context = request.getfixturevalue(device)
    page = context.new_page()
    problems = watch_console(page)
    page.goto("/daily/blocks")
    expect(page.locator("#blocks")).to_have_attribute("data-state", "playing")
    assert page.url.endswith("/daily/blocks")
    date = page.evaluate("import('/static/js/core/daily.js').then((m) => m.localDate())")
    daily = page.request.get(f"/api/daily/blocks?date={date}").json()
    day = dt.date.fromisoformat(date)
    expect(page.locator("#blocks-sub")).to_have_text(
        f"{day:%B} {day.day} · #{daily['number']}")  # the date once Intl's data is loaded
    expect(page.locator("#blocks-title")).to_have_text(words()["games.blocks.daily.title"])
    mine = page.request.post("/api/games", data={"game": "blocks", "daily": date})
    assert mine.status == 409 and mine.json()["error"]["code"] == "daily_played"
    game_id = mine.json()["id"]
    shot(page, f"blocks-daily-{device}-play")

    greedy_drag(page, game_id)
    finish(page)
    final = page.locator("#blocks-final")
    row = final.locator(".blocks-honour__row.is-mine")
    expect(row).to_be_visible()
    expect(final.locator("[data-action='new']")).to_be_hidden()
    expect(final.locator("[data-note]")).to_have_text(words()["common.daily.tomorrow"])
    shot(page, f"blocks-daily-{device}-final")

    for forget in (False, True):  # a second visit shows the result; so does a second attempt
        if forget:  # the page forgot its game: the server answers 409 with the game's id
            page.evaluate("localStorage.clear()")
        page.reload()
        expect(page.locator("#blocks")).to_have_attribute("data-state", "over")
        expect(final).to_be_visible()
        expect(final.locator("[data-note]")).to_have_text(words()["common.daily.played"])
    honour = page.request.get(f"/api/daily/blocks?date={date}").json()["honour"]
    assert game_id in [entry["game_id"] for entry in honour]
    if device == "phone":
        final.locator("[data-action='board']").click()
        page.locator("#blocks-menu-btn").click()
        expect(page.locator("#blocks-menu .blocks-honour__row.is-mine")).to_be_visible()
        shot(page, "blocks-daily-phone-menu")
    clean_console(page, problems, allow="409")


def test_chrono_counts_down_from_the_server_clock(phone: Any, shot: Any) -> None:
    page, game_id, problems = open_game(phone, "/play/blocks/shapes48?mode=chrono&new=1")
    timer = page.locator("#blocks-timer-value")
    expect(page.locator("#blocks-timer")).to_be_visible()
    first = timer.inner_text()
    assert re.fullmatch(r"[23]:\d\d", first)
    expect(timer).not_to_have_text(first, timeout=10_000)
    data = game_json(page, game_id)
    assert data["number"].endswith("-bc") and data["view"]["clock"]["running"]
    expect(page.locator("#blocks-best-box")).to_be_hidden()  # Chrono counts for no record
    shot(page, "blocks-chrono-phone")
    clean_console(page, problems)


def play_badly_by_api(page: Any, game_id: str) -> None:
    """Fill the board without clearing (moves through the API) until nothing fits."""
    for _ in range(200):
        data = game_json(page, game_id)
        view = data["view"]
        if view["over"]:
            return
        options = [(slot, p) for slot, piece in enumerate(view["hand"]) if piece
                   for p in piece["placements"]]
        quiet = [o for o in options if not (o[1]["clears"]["rows"] or o[1]["clears"]["cols"])]
        slot, p = max(quiet or options,
                      key=lambda o: ((o[1]["row"] * 3 + o[1]["col"] * 7) % 10, -o[0]))
        move = {"type": "place", "piece": slot, "row": p["row"], "col": p["col"]}
        response = page.request.post(f"/api/games/{game_id}/moves",
                                     data={"version": data["version"], "move": move})
        assert response.ok, response.text()
    raise AssertionError("the game did not end")


def test_stuck_final_card_then_continue(phone: Any, shot: Any) -> None:
    page, game_id, problems = open_game(phone, "/play/blocks/shapes48/00000001-b")
    play_badly_by_api(page, game_id)
    page.reload()
    final = page.locator("#blocks-final")
    expect(final).to_be_visible()
    expect(final.locator("#blocks-final-title")).to_have_text(
        words()["games.blocks.final.title.stuck"])
    expect(final.locator("[data-stuck] svg").first).to_be_visible()
    expect(final.locator("[data-tip]")).to_be_visible()
    expect(final.locator("[data-action='continue']")).to_be_visible()
    shot(page, "blocks-stuck-final-phone")
    before = version(page)
    final.locator("[data-action='continue']").click()
    wait_version(page, before)
    expect(page.locator("#blocks")).to_have_attribute("data-state", "playing")
    view = game_json(page, game_id)["view"]
    assert view["over"] is False and view["can_continue"] is False
    greedy_drag(page, game_id)
    clean_console(page, problems)


def test_reload_and_lobby_link_resume_the_game(desktop: Any) -> None:
    page, game_id, problems = open_game(desktop, "/play/blocks/classic10?new=1")
    greedy_drag(page, game_id)
    page.reload()
    expect(page.locator("#blocks")).to_have_attribute("data-version", "1")
    page.goto("/play/blocks/classic10")
    page.wait_for_url(f"**/g/{game_id}")
    expect(page.locator("#blocks")).to_have_attribute("data-version", "1")
    page.goto("/play/blocks")
    page.wait_for_url(f"**/g/{game_id}")
    page.goto("/play/blocks/classic10?new=1")
    page.wait_for_url(re.compile(r"/g/[\w-]+$"))
    expect(page.locator("#blocks")).to_have_attribute("data-version", "0")
    assert not page.url.endswith(game_id)
    clean_console(page, problems)


def test_someone_else_watches(desktop: Any, phone: Any, shot: Any) -> None:
    page, game_id, _ = open_game(desktop, "/play/blocks/gravity8/00000001-c")
    greedy_drag(page, game_id)
    other = phone.new_page()
    problems = watch_console(other)
    other.goto(f"/g/{game_id}")
    expect(other.locator("#blocks")).to_have_attribute("data-state", "watching")
    expect(other.locator("#blocks-finish")).to_be_hidden()
    expect(other.locator("#blocks-notice")).to_have_text(words()["games.blocks.watching"])
    expect(other.locator("#blocks-again")).to_have_text(words()["games.blocks.play_this"])
    shot(other, "blocks-watching-phone")
    sx, sy = slot_centre(other, 0)
    other.mouse.move(sx, sy)
    other.mouse.down()
    other.mouse.move(sx, sy - 200, steps=5)
    other.mouse.up()
    assert game_json(other, game_id)["version"] == 1
    clean_console(other, problems)


@pytest.mark.parametrize("lang", ["ru", "fr"])
def test_translated(browser: Any, server_url: str, lang: str, shot: Any) -> None:
    context = browser.new_context(base_url=server_url, locale=lang,
                                  viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True, device_scale_factor=2)
    try:
        page, _, problems = open_game(context, "/play/blocks/shapes48/00000001-bh")
        catalog = words(lang)
        expect(page.locator("#blocks-title")).to_have_text(catalog["games.blocks.shapes48.title"])
        expect(page.locator("#blocks-sub")).to_contain_text(catalog["games.blocks.mode.hardcore"])
        page.locator("#blocks-finish").click()
        expect(page.locator("#blocks-finish")).to_contain_text(catalog["games.blocks.finish.confirm"])
        page.locator("#blocks-menu-btn").click()
        expect(page.locator("#blocks-menu")).to_contain_text(catalog["games.blocks.new_game"])
        shot(page, f"blocks-menu-{lang}-phone")
        clean_console(page, problems)
    finally:
        context.close()


@pytest.mark.parametrize(("lang", "ruleset"), [("en", "classic10"), ("ru", "gravity8"),
                                               ("fr", "shapes48")])
def test_the_phone_page_says_how_to_play(
    browser: Any, server_url: str, lang: str, ruleset: str, shot: Any
) -> None:
    """Issue 36: Pairs says how to play on the phone page, Blocks only in its menu. A new
    board on a phone says it over the board in two short lines, the whole game still on a
    390×844 screen and the board as wide as before; once a piece is placed the words go and
    the board stays where it was. A desktop (its side panel has the rules) shows none."""
    said = words(lang)
    context = browser.new_context(base_url=server_url, locale=lang,
                                  viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True, device_scale_factor=2)
    try:
        context.add_cookies([{"name": "lang", "value": lang, "url": server_url}])
        page, game_id, problems = open_game(context, f"/play/blocks/{ruleset}?new=1")
        rules = page.locator("#blocks-rules")
        expect(rules).to_be_visible()
        expect(rules).to_have_text(said[f"games.blocks.help.short.{ruleset}"])
        assert (rules.bounding_box() or {})["height"] <= 60  # three lines at most
        board = page.locator("#blocks-board")
        placed = board.bounding_box() or {}
        assert placed["width"] >= 360, placed  # as wide as the screen allows (366 px)
        assert placed["y"] + placed["height"] <= 844, "the board runs below the fold"
        scroll = page.evaluate("document.documentElement.scrollHeight - innerHeight")
        assert scroll <= 0, f"the phone page scrolls by {scroll}px"
        shot(page, f"blocks-rules-{lang}-{ruleset}-phone")
        view = game_json(page, game_id)["view"]
        slot, piece, placement = choose(view)
        before = version(page)
        drag(page, slot, piece["cells"], placement["row"], placement["col"])
        wait_version(page, before)
        expect(rules).to_be_hidden()
        assert board.bounding_box() == placed  # the board did not move under the finger
        clean_console(page, problems)
    finally:
        context.close()
    desk = browser.new_context(base_url=server_url, viewport={"width": 1280, "height": 800})
    try:
        page, _, _ = open_game(desk, f"/play/blocks/{ruleset}?new=1")
        expect(page.locator("#blocks-rules")).to_be_hidden()
        expect(page.locator("#blocks-side [data-help-ruleset]")).to_have_text(
            words("en")[f"games.blocks.help.{ruleset}"])
    finally:
        desk.close()


@pytest.mark.parametrize("lang", ["en", "ru", "fr"])
def test_offline_every_new_game_button_is_off_and_says_why(
    browser: Any, server_url: str, lang: str, shot: Any
) -> None:
    """Issue 36: offline, the end card offered "New game", which only the server can make.
    Every new-game button of the page (the card's, the bar's under the board, the menu's) is
    off and says why while offline, and on again once the connection is back."""
    said = words(lang)
    context = browser.new_context(base_url=server_url, locale=lang,
                                  viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True, device_scale_factor=2)
    try:
        page, _, problems = open_game(context, "/play/blocks/classic10?new=1")
        finish(page)
        final = page.locator("#blocks-final")
        new_game = final.locator('[data-action="new"]')
        why = final.locator("[data-offline-note]")
        expect(new_game).to_be_enabled()
        expect(why).to_be_hidden()
        context.set_offline(True)
        expect(page.locator("body")).to_have_attribute("data-connection", "offline")
        expect(new_game).to_be_disabled()
        expect(why).to_be_visible()
        expect(why).to_have_text(said["common.offline.new_game"])
        shot(page, f"blocks-offline-final-{lang}-phone")
        final.locator('[data-action="board"]').click()
        again = page.locator("#blocks-again")
        expect(again).to_be_visible()
        expect(again).to_be_disabled()
        expect(page.locator("#blocks-overbar [data-offline-note]")).to_have_text(
            said["common.offline.new_game"])
        shot(page, f"blocks-offline-over-{lang}-phone")
        page.locator("#blocks-menu-btn").click()
        menu = page.locator("#blocks-menu")
        expect(menu.locator(".blocks-new-game")).to_be_disabled()
        expect(menu.locator("[data-offline-note]")).to_have_text(said["common.offline.new_game"])
        page.keyboard.press("Escape")
        expect(menu).to_be_hidden()
        context.set_offline(False)
        expect(page.locator("body")).to_have_attribute("data-connection", "online",
                                                        timeout=15_000)
        expect(again).to_be_enabled()
        expect(page.locator("#blocks-overbar [data-offline-note]")).to_be_hidden()
        expect(menu.locator(".blocks-new-game")).to_be_enabled()
        page.locator("#blocks-show-result").click()
        expect(new_game).to_be_enabled()
        expect(why).to_be_hidden()
        clean_console(page, [p for p in problems if "ERR_INTERNET_DISCONNECTED" not in p])
    finally:
        context.close()


def test_dark_theme_and_reduced_motion(desktop: Any, shot: Any) -> None:
    page = desktop.new_page()
    page.emulate_media(color_scheme="dark", reduced_motion="reduce")
    problems = watch_console(page)
    page.goto("/play/blocks/shapes48/00000001-b")
    page.wait_for_url(re.compile(r"/g/[\w-]+$"))
    game_id = page.url.rsplit("/", 1)[1]
    play_until_clear(page, game_id, "blocks-dark-desktop", shot)
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != "rgb(243, 244, 249)"
    clean_console(page, problems)


def test_every_word_is_in_every_catalog() -> None:
    en, ru, fr = words("en"), words("ru"), words("fr")
    keys = {k for k in en if k.startswith("games.blocks.")}
    assert len(keys) > 100
    plural = re.compile(r"\.(one|few|many|other)$")
    for words_of in (ru, fr):
        missing = {k for k in keys if not plural.search(k)} - set(words_of)
        assert not missing, missing
    sources = "".join(p.read_text("utf-8") for p in
                      (ROOT / "static/js/games/blocks").glob("*.js"))
    sources += (ROOT / "templates/games/blocks.html").read_text("utf-8")
    for key in set(re.findall(r"['\"](games\.blocks\.[\w.]+)['\"]", sources)):
        if key.endswith("."):
            continue
        assert key in en or any(k.startswith(key + ".") for k in en), key


def test_a_refused_move_is_explained_and_changes_nothing(desktop: Any, shot: Any) -> None:
    page, game_id, problems = open_game(desktop, "/play/blocks/classic10/00000001-a")
    data = game_json(page, game_id)
    spot = data["view"]["hand"][0]["placements"][-1]
    behind = page.request.post(  # another tab moves first: the page's version is stale
        f"/api/games/{game_id}/moves",
        data={"version": 0, "move": {"type": "place", "piece": 0,
                                     "row": spot["row"], "col": spot["col"]}},
    )
    assert behind.ok
    slot, piece, placement = choose(data["view"])
    drag(page, slot, piece["cells"], placement["row"], placement["col"])
    notice = page.locator("#blocks-notice")
    expect(notice).to_have_text(words()["error.stale_version"])  # the shared wording
    expect(notice).to_have_class(re.compile("blocks-notice--error"))
    expect(page.locator("#blocks")).to_have_attribute("data-version", "1")
    shot(page, "blocks-refused-desktop")
    assert game_json(page, game_id)["version"] == 1
    greedy_drag(page, game_id)  # the page carries on from the server's state
    assert game_json(page, game_id)["version"] == 2
    clean_console(page, problems, allow="409")


SHIFTS = """window.__shift = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__shift += entry.value;
}).observe({ type: 'layout-shift', buffered: true });"""


def test_the_desktop_side_panel_does_not_shift_after_load(desktop: Any) -> None:
    """Issue 36 (8): the side panel filled on screen (the options, the facts, the help)
    about a second after load, a layout shift of 0.05-0.09; it shows once filled."""
    desktop.add_init_script(SHIFTS)
    for path in ("/play/blocks", "/play/blocks/gravity8", "/daily/blocks"):
        page = desktop.new_page()
        page.goto(path)
        expect(page.locator("#blocks")).to_have_attribute("data-state", re.compile("playing"))
        expect(page.locator("#blocks-side")).to_have_attribute("data-ready", "true")
        expect(page.locator("#blocks-side .blocks-new-game")).to_be_visible()
        page.wait_for_load_state("networkidle")
        page.evaluate(TWO_FRAMES)
        assert page.evaluate("window.__shift") < 0.01, (path, page.evaluate("window.__shift"))
        page.close()


def test_a_drop_before_the_next_frame_meets_the_cells_that_frame_shows(
    desktop_in_motion: Any,
) -> None:
    """The board's box changes size (the phone turns, a bar above it wraps) and a drag or
    a key comes before the next frame has laid the grid out again (on a busy phone, long
    after): it must meet the cells that frame draws there, not those the last one drew."""
    page = desktop_in_motion.new_page()
    page.goto("/")
    found = page.evaluate(
        """async () => {
        const { Board } = await import('/static/js/games/blocks/board.js');
        const frame = () => new Promise((done) => requestAnimationFrame(done));
        const frames = async () => { await frame(); await frame(); };
        const box = document.createElement('div');
        // fixed: the lobby's lists fill in above the page's end meanwhile, and the rect
        // read once below must stay where the box is
        box.style.cssText = 'position: fixed; left: 0; top: 0; width: 600px; height: 600px';
        document.body.append(box);
        const board = new Board(box);
        board.setSize(8, 8);
        box.style.width = '300px';
        while (!box.dataset.cell) await frame();  // its first draw, a frame after its layout
        const rect = box.getBoundingClientRect();
        const data = box.dataset;
        const drawn = { left: +data.gridLeft, top: +data.gridTop, cell: +data.cell };
        box.style.width = '600px';
        await frames();
        box.style.width = '300px';  // no frame comes between this and the reads below
        return [[0, 0], [3, 2], [7, 7]].map(([r, c]) => {
            const x = rect.left + drawn.left + (c + 0.5) * drawn.cell;
            const y = rect.top + drawn.top + (r + 0.5) * drawn.cell;
            const at = board.toGrid(x, y);
            const shown = board.clientRect(r, c);
            return [[Math.floor(at.r), Math.floor(at.c)], Math.round(shown.x - x + drawn.cell / 2),
                    Math.round(board.cellSize - drawn.cell)];
        });
    }"""
    )
    assert found == [[[0, 0], 0, 0], [[3, 2], 0, 0], [[7, 7], 0, 0]]
