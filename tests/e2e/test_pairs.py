"""The Pairs page in a real browser.

The whole-board tests play by real taps (phone) and clicks (desktop) on the canvas: the
test reads the game's view from the API (the same cookie as the page), finds a removable
pair with the engine, and taps the two tiles where the page drew them (the board's
``data-geometry``: x0 y0 cell-width cell-height rows cols transposed). Screenshots go to
artifacts/screenshots/pairs-*.png.
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from app.i18n import catalog
from engines.core.daily import daily_seed
from engines.core.protocol import IllegalMove
from engines.pairs import ENGINE
from engines.pairs.grid import EMPTY
from engines.pairs.moves import Pair
from engines.pairs.params import Params
from engines.pairs.search import find_pair
from engines.pairs.state import grid_of

pytestmark = pytest.mark.e2e

CSP_PROBE = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
});
"""

Cell = tuple[int, int]


def words(lang: str) -> dict[str, str]:
    return catalog(lang)


# --------------------------------------------------------------------------- helpers


def drawn_geometry(board: Any) -> list[float]:
    """The board's data-geometry (board.js: "x0 y0 cellWidth cellHeight rows cols
    transposed") once the page has laid the board out, which can be a frame after its
    data-state says playing."""
    expect(board).to_have_attribute("data-geometry", re.compile(r"\S"))
    return [float(part) for part in (board.get_attribute("data-geometry") or "").split()]


class PairsPage:
    """The page, plus what the test needs to know about the game behind it."""

    def __init__(self, page: Any, touch: bool) -> None:
        self.page = page
        self.touch = touch
        self.problems: list[str] = []
        page.add_init_script(CSP_PROBE)
        page.on("pageerror", lambda e: self.problems.append(f"pageerror: {e}"))
        page.on("console", self._console)

    def _console(self, message: Any) -> None:
        # A refused pair is an HTTP 422, and a move against an older version (the page sends
        # it again: play.js) a 409, which Chromium logs as failed resources.
        if message.type == "error" and not re.search(r"status of (422|409)", message.text):
            self.problems.append(f"console: {message.text}")

    def open(self, path: str = "/play/pairs", prefs: dict[str, Any] | None = None) -> None:
        if prefs is not None:
            self.page.add_init_script(
                f"localStorage.setItem('pairs.prefs', JSON.stringify({json.dumps(prefs)}))"
            )
        self.page.goto(path)
        self.wait_ready()

    def wait_ready(self) -> None:
        expect(self.page.locator("#pairs")).to_have_attribute(
            "data-state", re.compile("playing|over")
        )
        expect(self.page).to_have_url(re.compile(r"/g/[\w-]+$"))

    @property
    def game_id(self) -> str:
        return str(self.page.locator("#pairs").get_attribute("data-game-id"))

    @property
    def version(self) -> int:
        # no move queued or in flight (a pause or resume changes the version too), and the
        # board takes taps (after an automatic shuffle it ignores them until the flip ends)
        expect(self.page.locator("body")).to_have_attribute("data-pending", "0")
        expect(self.page.locator("#pairs-board")).not_to_have_attribute("data-locked", "true")
        return int(self.page.locator("#pairs").get_attribute("data-version") or 0)

    def view(self) -> dict[str, Any]:
        response = self.page.request.get(f"/api/games/{self.game_id}")
        assert response.ok, response.text()
        return response.json()["view"]  # type: ignore[no-any-return]

    def point(self, cell: Cell) -> tuple[float, float]:
        """Where the page drew the cell: a board drawn transposed (a wide box) has the
        cell's row as its column on screen."""
        board = self.page.locator("#pairs-board")
        box = board.bounding_box()
        x0, y0, cw, ch, _, _, transposed = drawn_geometry(board)
        row, col = (cell[1], cell[0]) if transposed else cell
        return box["x"] + x0 + (col + 0.5) * cw, box["y"] + y0 + (row + 0.5) * ch

    def tap_at(self, x: float, y: float) -> None:
        if self.touch:
            self.page.touchscreen.tap(x, y)
        else:
            self.page.mouse.click(x, y)

    def tap(self, cell: Cell) -> None:
        self.tap_at(*self.point(cell))

    def skip_deal(self) -> None:
        """One tap beside the board: during the deal it shows the board at once."""
        board = self.page.locator("#pairs-board")
        box = board.bounding_box()
        self.tap_at(box["x"] + 4, box["y"] + 4)
        # A tap before the deal began skips nothing: then the deal runs its course.
        expect(board).to_have_attribute("data-dealing", "false")

    def remove(self, a: Cell, b: Cell) -> None:
        count = self.page.locator("#pairs-count")
        assert self.version >= 0  # settled: nothing queued, the board takes taps
        removed = count.text_content()
        self.tap(a)
        self.tap(b)
        # The pair is gone (the count moved on). A new version alone is not a removal: a
        # pause or resume, or a refusal that adopted the server's state, makes one too.
        expect(count).not_to_have_text(removed or "")

    def play_to_the_end(self, shots: dict[int, str] | None = None, shot: Any = None) -> int:
        removed = 0
        while True:
            view = self.view()
            if view["over"]:
                return removed
            self.remove(*next_pair(view))
            removed += 1
            if shots and removed in shots:
                shot(self.page, shots[removed])

    def assert_clean(self) -> None:
        csp = self.page.evaluate("window.__csp || []")
        assert self.problems + [f"csp: {v}" for v in csp] == []


def next_pair(view: dict[str, Any]) -> tuple[Cell, Cell]:
    grid = grid_of(Params(size=view["size"], mode=view["mode"]))
    tiles = tuple(EMPTY if t is None else t for row in view["tiles"] for t in row)
    pair = find_pair(grid, tiles)
    assert pair is not None
    a, b = pair
    return (a // grid.cols, a % grid.cols), (b // grid.cols, b % grid.cols)


def played_out(page: Any, size: str) -> str:
    """A calm Pairs game of ``size`` played to its end over REST by this page's player;
    → its id."""
    game = page.request.post(
        "/api/games", data={"game": "pairs", "params": {"size": size, "mode": "calm"}}
    ).json()
    version, view = game["version"], game["view"]
    while not view["over"]:
        a, b = next_pair(view)
        move = {"version": version, "move": {"type": "pair", "a": list(a), "b": list(b)}}
        answer = page.request.post(f"/api/games/{game['id']}/moves", data=move)
        assert answer.ok, answer.text()
        version, view = answer.json()["version"], answer.json()["view"]
    return str(game["id"])


def refusals(view: dict[str, Any]) -> dict[str, tuple[Cell, Cell]]:
    """A pair of tiles for each refusal the rules give on this board (found with the engine)."""
    params, seed = ENGINE.from_number(view["number"])
    state = ENGINE.new_game(Params(size=params.size, mode=view["mode"]), seed)
    tiles = tuple(EMPTY if t is None else t for row in view["tiles"] for t in row)
    state = replace(state, tiles=tiles)
    cells = [
        (r, c) for r, row in enumerate(view["tiles"]) for c, t in enumerate(row) if t is not None
    ]
    found: dict[str, tuple[Cell, Cell]] = {}
    for a, b in itertools.combinations(cells, 2):
        try:
            ENGINE.apply(state, Pair(a, b), 0)
        except IllegalMove as refusal:
            found.setdefault(refusal.code, (a, b))
    return found


def fits_without_scrolling(page: Any) -> None:
    sizes = page.evaluate(
        "({w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight,"
        " iw: innerWidth, ih: innerHeight})"
    )
    assert sizes["w"] <= sizes["iw"] and sizes["h"] <= sizes["ih"], sizes


def touch_targets(page: Any) -> None:
    for button in page.locator(".pairs-controls .btn:visible").all():
        box = button.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, box


# --------------------------------------------------------------------------- whole boards


@pytest.mark.smoke  # make test-services runs it on PostgreSQL + Redis
def test_phone_plays_a_whole_beginner_board_by_tapping(phone_in_motion: Any, shot: Any) -> None:
    en = words("en")
    pairs = PairsPage(phone_in_motion.new_page(), touch=True)
    pairs.open()
    page = pairs.page
    # Beginner from the menu: picked, then New game starts it (issue 24.13).
    first_id = pairs.game_id
    page.locator(".pairs-controls [data-action=menu]").tap()
    menu = page.locator("#pairs-menu")
    expect(menu).to_be_visible()
    expect(menu.locator("#pairs-menu-paused")).to_be_visible()
    shot(page, "pairs-phone-menu")
    menu.locator("label", has=page.locator("input[value=beginner]")).tap()
    expect(menu).to_be_visible()
    assert pairs.game_id == first_id
    menu.locator("[data-action=new]").tap()
    expect(menu).to_be_hidden()
    expect(page.locator("#pairs")).not_to_have_attribute("data-game-id", first_id)
    pairs.wait_ready()
    view = pairs.view()
    assert (view["size"], view["rows"], view["mode"]) == ("beginner", 6, "calm")
    fits_without_scrolling(page)
    touch_targets(page)

    # Selection: a tap lifts a tile, a second tap on it drops it (the server never hears).
    pairs.skip_deal()
    a, b = next_pair(view)
    pairs.tap(a)
    expect(page.locator("#pairs-live")).to_contain_text(en["games.pairs.selected"].split(":")[0])
    shot(page, "pairs-phone-selected")
    pairs.tap(a)
    expect(page.locator("#pairs-live")).to_have_text(en["games.pairs.deselected"])
    assert pairs.version == 0

    # A refused pair: the reason line, translated by its code; nothing changes.
    refused = refusals(view)
    code = "path_blocked" if "path_blocked" in refused else "no_path"
    x, y = refused[code]
    pairs.tap(x)
    pairs.tap(y)
    status = page.locator("#pairs-status")
    expect(status).to_have_text(en[f"games.pairs.error.{code}"])
    expect(status).to_have_attribute("data-kind", "error")
    shot(page, "pairs-phone-refused")
    pairs.tap(x)  # the selection stayed on the first tile: this drops it
    assert pairs.version == 0

    # Play half, reload: the same game comes back.
    for _ in range(9):
        pairs.remove(*next_pair(pairs.view()))
    expect(page.locator("#pairs-count")).to_have_text("9/18")
    game_id, tiles = pairs.game_id, pairs.view()["tiles"]
    page.reload()
    pairs.wait_ready()
    assert pairs.game_id == game_id and pairs.view()["tiles"] == tiles
    expect(page.locator("#pairs-count")).to_have_text("9/18")
    pairs.skip_deal()
    shot(page, "pairs-phone-mid-game")

    # The rest, with a screenshot of a path being drawn.
    pairs.play_to_the_end({3: "pairs-phone-path"}, shot)
    final = page.locator("#pairs-final")
    expect(final).to_be_visible(timeout=5000)
    expect(final.locator("#pairs-final-title")).to_have_text(en["games.pairs.final.cleared"])
    expect(final.locator(".stat").nth(2)).to_contain_text("18/18")
    expect(final.locator(".pairs-final__best")).to_be_visible()
    expect(final.locator("[data-action=calm]")).to_be_hidden()
    shot(page, "pairs-phone-final")
    done = pairs.view()
    assert done["over"] and done["reason"] == "cleared" and done["pairs_removed"] == 18
    records = page.request.get("/api/records?game=pairs").json()["records"]
    assert [(r["key"], r["game_id"]) for r in records] == [("beginner/calm", game_id)]
    pairs.assert_clean()


def test_desktop_plays_a_whole_board_with_the_mouse(desktop: Any, shot: Any) -> None:
    en = words("en")
    pairs = PairsPage(desktop.new_page(), touch=False)
    # Played pair by pair as the engine finds them, this board shuffles itself after its
    # 14th pair: the next taps must wait for the flip (the board's data-locked).
    pairs.open("/play/pairs/86106612-a?mode=timed", prefs={"highlight": None})
    page = pairs.page
    expect(page.locator("#pairs-clock-label")).to_have_text(en["games.pairs.hud.left"])
    expect(page.locator(".pairs-side")).to_be_visible()
    fits_without_scrolling(page)
    pairs.skip_deal()
    a, _ = next_pair(pairs.view())
    pairs.tap(a)
    shot(page, "pairs-desktop-selected")
    pairs.tap(a)
    for _ in range(6):
        pairs.remove(*next_pair(pairs.view()))
    shot(page, "pairs-desktop-mid-game")
    pairs.play_to_the_end({4: "pairs-desktop-path"}, shot)
    final = page.locator("#pairs-final")
    expect(final).to_be_visible(timeout=5000)
    view = pairs.view()
    assert view["reason"] == "cleared" and view["bonus"] > 0  # timed: the clock's bonus
    expect(final.locator(".pairs-final__note")).to_contain_text(str(view["bonus"]))
    shot(page, "pairs-desktop-final")
    # Closing the card leaves the finished board with Results and New game.
    page.keyboard.press("Escape")
    expect(page.locator(".pairs-controls [data-action=results]")).to_be_visible()
    page.locator(".pairs-controls [data-action=new]").click()
    expect(page.locator("#pairs")).to_have_attribute("data-version", "0")
    pairs.assert_clean()


# --------------------------------------------------------------------------- behaviour


def test_keyboard_hint_shuffle_and_menu_pause(desktop: Any, shot: Any) -> None:
    en = words("en")
    pairs = PairsPage(desktop.new_page(), touch=False)
    pairs.open(prefs={"size": "classic", "mode": "calm", "highlight": True})
    page = pairs.page
    page.keyboard.press("ArrowRight")  # shows the cursor on the first tile (and ends the deal)
    expect(page.locator("#pairs-live")).to_contain_text("Row 1, column 1")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    expect(page.locator("#pairs-board")).to_be_focused()
    expect(page.locator("#pairs-live")).to_contain_text("Row 2, column 2")
    page.keyboard.press("Enter")
    expect(page.locator("#pairs-live")).to_contain_text(en["games.pairs.selected"].split(":")[0])
    page.keyboard.press("h")
    expect(page.locator("#pairs-status")).to_have_text(en["games.pairs.status.hint"])
    view = pairs.view()
    assert view["hint"] is not None and view["hints"] == 1 and view["score"] == 0
    shot(page, "pairs-desktop-keyboard-hint")
    page.keyboard.press("s")
    expect(page.locator("#pairs")).to_have_attribute("data-version", "2")
    assert pairs.view()["shuffles"] == 1

    page.keyboard.press("Escape")
    expect(page.locator("#pairs-menu")).to_be_visible()
    expect(page.locator("#pairs")).to_have_attribute("data-state", "paused")
    assert pairs.view()["paused"] is True
    shot(page, "pairs-desktop-menu")
    page.keyboard.press("Escape")
    expect(page.locator("#pairs-menu")).to_be_hidden()
    expect(page.locator("#pairs")).to_have_attribute("data-state", "playing")
    assert pairs.view()["paused"] is False

    # Another mode picked in the menu, then New game: a new game in that mode.
    page.keyboard.press("Escape")
    page.locator("#pairs-menu label", has=page.locator("input[value=timed]")).click()
    page.locator("#pairs-menu [data-action=new]").click()
    expect(page.locator("#pairs-clock-label")).to_have_text(en["games.pairs.hud.left"])
    pairs.wait_ready()
    assert pairs.view()["mode"] == "timed"
    pairs.assert_clean()


def test_hidden_page_pauses_the_game(phone: Any) -> None:
    pairs = PairsPage(phone.new_page(), touch=True)
    pairs.open()
    page = pairs.page

    def set_hidden(hidden: bool) -> None:
        page.evaluate(
            """(hidden) => {
                const state = hidden ? 'hidden' : 'visible';
                Object.defineProperty(document, 'visibilityState',
                                      {configurable: true, get: () => state});
                document.dispatchEvent(new Event('visibilitychange'));
            }""",
            hidden,
        )

    set_hidden(True)
    expect(page.locator("#pairs")).to_have_attribute("data-state", "paused")
    assert pairs.view()["paused"] is True
    set_hidden(False)
    expect(page.locator("#pairs")).to_have_attribute("data-state", "playing")
    assert pairs.view()["paused"] is False
    pairs.assert_clean()


def test_a_pair_tapped_after_a_pause_the_page_missed_is_removed(phone: Any) -> None:
    """The pagehide beacon of a reloaded page (pause.js) can land after the new page loaded
    the game: the page shows it running, the server has it paused. The next pair was
    refused as stale, then as paused, and a tap was lost (a CI flake of the whole-board
    test); the page now resumes the game and sends the pair again."""
    pairs = PairsPage(phone.new_page(), touch=True)
    pairs.open()
    page = pairs.page
    pairs.skip_deal()
    pairs.remove(*next_pair(pairs.view()))
    # The late beacon: a pause at the page's version, behind its back (the same cookie).
    late = {"version": pairs.version, "move": {"type": "pause"}}
    assert page.request.post(f"/api/games/{pairs.game_id}/moves", data=late).ok
    expect(page.locator("#pairs")).to_have_attribute("data-state", "playing")  # not told
    pairs.remove(*next_pair(pairs.view()))
    expect(page.locator("#pairs-count")).to_contain_text("2/")
    view = pairs.view()
    assert view["pairs_removed"] == 2 and view["paused"] is False
    pairs.remove(*next_pair(view))
    pairs.assert_clean()


def test_timed_countdown_turns_red_under_ten_seconds_and_tips(phone: Any, shot: Any) -> None:
    """The browser's clock runs ahead (Playwright's fake clock): the page counts down from the
    server's snapshot, shows the two tips after 15 s without a pair, and turns the
    countdown red under 10 s."""
    en = words("en")
    page = phone.new_page()
    page.clock.install()
    pairs = PairsPage(page, touch=True)
    pairs.open(prefs={"size": "beginner", "mode": "timed", "highlight": None})
    clock = page.locator("#pairs-clock-box")
    expect(page.locator("#pairs-clock")).to_have_text(re.compile(r"^1:(30|29|28)$"))
    page.clock.run_for(15_500)
    expect(page.locator("#pairs-status")).to_have_text(en["games.pairs.tip.1"])
    shot(page, "pairs-phone-tip")
    page.clock.run_for(15_500)
    expect(page.locator("#pairs-status")).to_have_text(en["games.pairs.tip.2"])
    page.clock.run_for(50_000)  # 81 s in: under ten seconds left (the test's own time adds up)
    expect(page.locator("#pairs-clock")).to_have_text(re.compile(r"^0:0[1-9]$"))
    expect(clock).to_have_class(re.compile(r"\bis-low\b"))
    shot(page, "pairs-phone-timed-under-10s")
    page.clock.run_for(60_000)  # no third tip, ever
    expect(page.locator("#pairs-status")).not_to_have_text(re.compile("."))


def test_refusals_speak_the_players_language(browser: Any, server_url: str, shot: Any) -> None:
    for lang in ("ru", "fr"):
        context = browser.new_context(
            base_url=server_url,
            viewport={"width": 390, "height": 844},
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
        )
        context.add_cookies([{"name": "lang", "value": lang, "url": server_url}])
        try:
            pairs = PairsPage(context.new_page(), touch=True)
            pairs.open(prefs={"size": "classic", "mode": "calm", "highlight": None})
            page = pairs.page
            catalog = words(lang)
            expect(page.locator("#pairs-title")).to_have_text(catalog["games.pairs.title"])
            expect(page.locator("#pairs-sub")).to_have_text(
                f"{catalog['games.pairs.size.classic']} · {catalog['games.pairs.mode.calm']}"
            )
            pairs.skip_deal()
            found = refusals(pairs.view())
            a, b = found["no_path"]
            pairs.tap(a)
            pairs.tap(b)
            expect(page.locator("#pairs-status")).to_have_text(catalog["games.pairs.error.no_path"])
            # The selection stays on the first tile.
            pairs.tap(a)
            expect(page.locator("#pairs-live")).to_have_text(catalog["games.pairs.deselected"])
            # Another picture: the selection simply moves there, silently, with no request.
            version = pairs.version
            requests: list[str] = []
            page.on("request", lambda r, sink=requests: sink.append(r.url))
            a, b = found["different_pictures"]
            pairs.tap(a)
            pairs.tap(b)
            expect(page.locator("#pairs-live")).to_contain_text(
                catalog["games.pairs.selected"].split("{")[0].strip()
            )
            pairs.tap(b)  # b holds the selection now: a second tap lets it go
            expect(page.locator("#pairs-live")).to_have_text(catalog["games.pairs.deselected"])
            assert pairs.version == version and [u for u in requests if "/moves" in u] == []
            fits_without_scrolling(page)
            shot(page, f"pairs-phone-{lang}")
            pairs.assert_clean()
        finally:
            context.close()


STATUS_KEYS = ("games.pairs.tip.", "games.pairs.status.", "games.pairs.error.path_blocked",
               "games.pairs.error.no_path", "games.pairs.error.different_pictures")


@pytest.mark.parametrize("viewport", [(390, 844), (844, 390), (1280, 800)])
def test_no_status_line_moves_the_board(browser: Any, server_url: str, viewport: Any) -> None:
    """A tip or a refusal appearing under the board never moves a tile (it would move
    under the finger about to tap it) and is never cut off: the status line is a fixed
    box that holds the longest of them, in every language."""
    width, height = viewport
    context = browser.new_context(
        base_url=server_url, viewport={"width": width, "height": height}, has_touch=True
    )
    try:
        for lang in ("en", "ru", "fr"):
            pairs = PairsPage(context.new_page(), touch=True)
            page = pairs.page
            pairs.open(f"/play/pairs?lang={lang}")
            board = page.locator("#pairs-board")
            expect(board).to_have_attribute("data-dealing", "false", timeout=10_000)
            placed = (board.bounding_box(), board.get_attribute("data-geometry"))
            messages = [v for k, v in words(lang).items() if k.startswith(STATUS_KEYS)]
            for text in sorted(messages, key=len)[-4:]:
                # reading the sizes lays the page out: no need to wait for a painted frame
                box = page.evaluate(
                    """(text) => {
                      const status = document.getElementById('pairs-status');
                      status.dataset.kind = 'tip';
                      status.textContent = text;
                      return [status.scrollHeight, status.clientHeight];
                    }""",
                    text,
                )
                assert box[0] <= box[1], (lang, text)
                assert (board.bounding_box(), board.get_attribute("data-geometry")) == placed
            pairs.assert_clean()
            page.close()
    finally:
        context.close()


def test_reduced_motion_shows_the_board_at_once(browser: Any, server_url: str) -> None:
    context = browser.new_context(
        base_url=server_url,
        viewport={"width": 390, "height": 844},
        has_touch=True,
        reduced_motion="reduce",
    )
    try:
        pairs = PairsPage(context.new_page(), touch=True)
        pairs.open(prefs={"size": "beginner", "mode": "calm", "highlight": None})
        a, b = next_pair(pairs.view())
        pairs.tap(a)  # no deal to skip: this tap already selects
        expect(pairs.page.locator("#pairs-live")).to_contain_text(":")
        before = pairs.version
        pairs.tap(b)
        expect(pairs.page.locator("#pairs")).not_to_have_attribute("data-version", str(before))
    finally:
        context.close()


def test_shared_number_link_and_spectators(browser: Any, server_url: str, phone: Any) -> None:
    pairs = PairsPage(phone.new_page(), touch=True)
    pairs.open("/play/pairs/00004242-c?mode=timed")
    view = pairs.view()
    assert (view["number"], view["size"], view["mode"]) == ("00004242-c", "long", "timed")
    expect(pairs.page.locator("#pairs-side-number")).to_have_text("#00004242-c")
    # Someone else opening /g/<id> watches; their "new game" plays the same board.
    other = browser.new_context(base_url=server_url, viewport={"width": 390, "height": 844})
    try:
        page = other.new_page()
        page.goto(f"/g/{pairs.game_id}")
        expect(page.locator("#pairs-status")).to_have_text(words("en")["games.pairs.watching"])
        new = page.locator(".pairs-controls [data-action=new]")
        expect(new).to_have_text(words("en")["games.pairs.play_board"])
        new.click()
        expect(page.locator("#pairs")).not_to_have_attribute("data-game-id", pairs.game_id)
        expect(page.locator("#pairs")).to_have_attribute("data-number", "00004242-c")
    finally:
        other.close()
    bad = PairsPage(phone.new_page(), touch=True)
    bad.page.goto("/play/pairs/00004242-x")
    expect(bad.page.locator("#pairs-overlay-text")).to_have_text(
        words("en")["games.pairs.error.bad_number"]
    )


@pytest.mark.parametrize(
    ("viewport", "least"),
    [({"width": 844, "height": 390}, 45), ({"width": 390, "height": 844}, 54)],
)
def test_tiles_are_as_large_as_the_phone_allows_and_a_tap_takes_the_drawn_cell(
    browser: Any, server_url: str, viewport: dict[str, int], least: int, shot: Any
) -> None:
    """Issue 36: held sideways (844×390) the classic board's tiles were 35×37 px, upright
    54×57. Sideways the board is drawn across (its rows as columns) and its tiles are at
    least 45 px wide; a tap on a drawn tile picks the cell the server knows: the pair
    tapped is the pair removed."""
    context = browser.new_context(base_url=server_url, viewport=viewport, is_mobile=True,
                                  has_touch=True, device_scale_factor=2, locale="en-US")
    try:
        pairs = PairsPage(context.new_page(), touch=True)
        pairs.open("/play/pairs/00004242-b")  # a classic board: 8 rows of 6
        board = pairs.page.locator("#pairs-board")
        x0, y0, cw, ch, rows, cols, transposed = drawn_geometry(board)
        assert (rows, cols) == (8, 6)
        assert cw >= least and ch >= least, (cw, ch)
        assert transposed == (viewport["width"] > viewport["height"])
        box = board.bounding_box() or {}
        drawn_w, drawn_h = (rows * cw, cols * ch) if transposed else (cols * cw, rows * ch)
        assert box["x"] + x0 >= 0 and box["x"] + x0 + drawn_w <= viewport["width"]
        assert box["y"] + y0 >= 0 and box["y"] + y0 + drawn_h <= viewport["height"], (
            "the board runs off the screen")
        pairs.skip_deal()
        view = pairs.view()
        a, b = next_pair(view)
        pairs.remove(a, b)
        after = pairs.view()
        assert after["tiles"][a[0]][a[1]] is None and after["tiles"][b[0]][b[1]] is None
        gone = [(r, c) for r, row in enumerate(after["tiles"]) for c, tile in enumerate(row)
                if tile is None]
        assert sorted(gone) == sorted([a, b])
        shot(pairs.page, f"pairs-tiles-{viewport['width']}x{viewport['height']}")
        pairs.assert_clean()
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "ru", "fr"])
def test_the_phone_page_says_how_to_play(phone: Any, server_url: str, lang: str) -> None:
    """Issue 36 (8): no rules on the phone page, a tap on another picture moved the
    selection without a word, and the −2 / −5 badges were explained only in a title."""
    said = words(lang)
    phone.add_cookies([{"name": "lang", "value": lang, "url": server_url}])
    pairs = PairsPage(phone.new_page(), touch=True)
    pairs.open("/play/pairs/00004242-b")
    status = pairs.page.locator("#pairs-status")
    expect(status).to_have_text(said["games.pairs.help.short"])
    pairs.skip_deal()
    tiles = pairs.view()["tiles"]
    cells = [(r, c) for r, row in enumerate(tiles) for c, tile in enumerate(row)
             if tile is not None]
    first = cells[0]
    other = next(cell for cell in cells if tiles[cell[0]][cell[1]] != tiles[first[0]][first[1]])
    pairs.tap(first)
    pairs.tap(other)
    expect(status).to_have_text(said["games.pairs.status.other_picture"])
    pairs.page.locator('.pairs-controls [data-action="menu"]').tap()
    help_box = pairs.page.locator("#pairs-menu-help")
    expect(help_box.locator("summary")).to_have_text(said["games.pairs.help.title"])
    help_box.locator("summary").tap()
    for key in ("pair", "other", "costs", "score"):
        expect(help_box).to_contain_text(said[f"games.pairs.help.{key}"])
    assert "−2" in said["games.pairs.help.costs"] and "−5" in said["games.pairs.help.costs"]


@pytest.mark.parametrize("lang", ["en", "ru", "fr"])
def test_offline_every_new_game_button_is_off_and_says_why(
    phone: Any, server_url: str, lang: str, shot: Any
) -> None:
    """Issue 36: offline, a finished game offered "New game" (and "replay in calm mode"),
    which only the server can make. Each is off and says why while offline, on again once
    the connection is back: the end card's, the one under the board, the menu's."""
    said = words(lang)
    phone.add_cookies([{"name": "lang", "value": lang, "url": server_url}])
    pairs = PairsPage(phone.new_page(), touch=True)
    page = pairs.page
    page.goto("/")
    pairs.open(f"/g/{played_out(page, 'beginner')}")
    final = page.locator("#pairs-final")
    expect(final).to_be_visible()
    new_game = final.locator('[data-action="new"]')
    why = final.locator("[data-offline-note]")
    expect(new_game).to_be_enabled()
    expect(why).to_be_hidden()
    phone.set_offline(True)
    expect(page.locator("body")).to_have_attribute("data-connection", "offline")
    expect(new_game).to_be_disabled()
    expect(why).to_have_text(said["common.offline.new_game"])
    shot(page, f"pairs-offline-final-{lang}-phone")
    final.locator('[data-action="board"]').tap()
    expect(final).to_be_hidden()
    under = page.locator('.pairs-controls [data-action="new"]')
    expect(under).to_be_visible()
    expect(under).to_be_disabled()
    expect(under).to_have_attribute("title", said["common.offline.new_game"])
    page.locator('.pairs-controls [data-action="menu"]').tap()
    menu = page.locator("#pairs-menu")
    expect(menu.locator('[data-action="new"]')).to_be_disabled()
    expect(menu.locator("[data-offline-note]")).to_have_text(said["common.offline.new_game"])
    shot(page, f"pairs-offline-menu-{lang}-phone")
    page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    phone.set_offline(False)
    expect(page.locator("body")).to_have_attribute("data-connection", "online", timeout=15_000)
    expect(under).to_be_enabled()
    expect(under).not_to_have_attribute("title", said["common.offline.new_game"])
    expect(menu.locator('[data-action="new"]')).to_be_enabled()
    expect(menu.locator("[data-offline-note]")).to_be_hidden()
    expect(new_game).to_be_enabled()
    expect(why).to_be_hidden()


@pytest.mark.parametrize("lang", ["en", "ru", "fr"])
def test_a_wrong_number_says_so_and_opens_no_other_game(
    phone: Any, server_url: str, lang: str
) -> None:
    """Issue 36 (8): /play/pairs/abc silently opened the player's unfinished game (it read
    "abc" as a variant); it is a number, and a wrong one."""
    phone.add_cookies([{"name": "lang", "value": lang, "url": server_url}])
    page = phone.new_page()
    unfinished = page.request.post("/api/games", data={"game": "pairs"}).json()["id"]
    page.goto("/play/pairs/abc")
    expect(page.locator("#pairs")).to_have_attribute("data-state", "error")
    expect(page.locator("#pairs-overlay-text")).to_have_text(
        words(lang).get("games.pairs.error.bad_number", words(lang)["error.bad_number"])
    )
    expect(page.locator("#pairs")).not_to_have_attribute("data-game-id", unfinished)
    blocks = phone.new_page()
    blocks.goto("/play/blocks/abc")
    expect(blocks.locator("#blocks")).to_have_attribute("data-state", "error")
    expect(blocks.locator("#blocks-notice")).to_contain_text(words(lang)["error.bad_number"])
    blocks.goto("/play/blocks/gravity8")  # a variant is still a variant
    expect(blocks.locator("#blocks")).to_have_attribute("data-state", re.compile("playing"))


def test_daily_page_uses_the_browsers_local_date(browser: Any, server_url: str, shot: Any) -> None:
    zone = "Pacific/Kiritimati"  # UTC+14: often a day ahead of the server's UTC date
    context = browser.new_context(
        base_url=server_url,
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        timezone_id=zone,
    )
    try:
        before = dt.datetime.now(ZoneInfo(zone)).date().isoformat()
        pairs = PairsPage(context.new_page(), touch=True)
        pairs.open("/daily/pairs")
        after = dt.datetime.now(ZoneInfo(zone)).date().isoformat()
        number = pairs.page.locator("#pairs").get_attribute("data-number")
        expected = {
            ENGINE.number(Params("classic"), daily_seed("pairs", d)) for d in (before, after)
        }
        assert number in expected
        expect(pairs.page.locator("#pairs-sub")).to_contain_text(
            words("en")["games.pairs.daily.title"]
        )
        # Coming back to /daily/pairs the same day resumes the same game.
        game_id = pairs.game_id
        pairs.page.goto("/daily/pairs")
        pairs.wait_ready()
        assert pairs.game_id == game_id
        shot(pairs.page, "pairs-phone-daily")
        pairs.assert_clean()
    finally:
        context.close()


# --------------------------------------------------------------------------- catalogs

ROOT = Path(__file__).resolve().parents[2]
PAGE_FILES = [
    ROOT / "templates" / "games" / "pairs.html",
    *sorted((ROOT / "static" / "js" / "games" / "pairs").glob("*.js")),
]
MOVE_CODES = [
    "path_blocked",
    "no_path",
    "different_pictures",
    "same_tile",
    "empty_cell",
    "out_of_board",
    "paused",
    "already_paused",
    "not_paused",
    "game_over",
    "time_up",
    "unknown_move",
    "bad_cell",
    "stale_version",
    "not_seated",
    "game_not_found",
]
CREATE_CODES = ["bad_size", "bad_mode", "bad_number", "bad_seed", "bad_date"]


def test_every_word_of_the_page_is_in_every_catalog() -> None:
    literal = re.compile(r"""\bt\(\s*['"]((?:games\.pairs|common)\.[\w.]+)['"]""")
    keys: set[str] = set()
    for path in PAGE_FILES:
        keys |= {k for k in literal.findall(path.read_text("utf-8")) if not k.endswith(".")}
    source = (ROOT / "static" / "js" / "games" / "pairs" / "pictures.js").read_text("utf-8")
    pictures = re.findall(r"name: '(\w+)'", source)
    assert len(pictures) == 16
    keys |= {f"games.pairs.picture.{name}" for name in pictures}
    # A refusal reads the game's own wording, else the shared one (core/errors.js).
    own = words("en")
    keys |= {
        f"games.pairs.error.{code}" if f"games.pairs.error.{code}" in own else f"error.{code}"
        for code in MOVE_CODES + CREATE_CODES
    }
    keys |= {f"games.pairs.size.{s}" for s in ("beginner", "classic", "long")}
    keys |= {f"games.pairs.mode.{m}{d}" for m in ("calm", "timed") for d in ("", ".desc")}
    keys |= {
        "games.pairs.tip.1",
        "games.pairs.tip.2",
        "games.pairs.size.info.other",
        "games.pairs.final.left.other",
        "games.pairs.status.hint_paid",
        "games.pairs.status.shuffled_paid",
    }
    assert len(keys) > 100
    for lang in ("en", "ru", "fr"):
        catalog = words(lang)
        missing = sorted(k for k in keys if k not in catalog)
        assert missing == [], f"{lang}: {missing}"
    for lang in ("ru",):  # Russian plurals: one, few, many
        catalog = words(lang)
        for key in ("games.pairs.size.info", "games.pairs.final.left"):
            assert all(f"{key}.{form}" in catalog for form in ("one", "few", "many"))
