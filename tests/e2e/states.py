"""The page states the page matrix checks (tests/e2e/test_page_matrix.py): CASES, a name
for each and a function that brings a fresh page of a fresh player to that state (every
page and open dialog, and the states players reach with long names), and the API helpers
they use. Waits are on page state, never on sleeps."""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from engines.core.replay import replay as fold_log
from engines.triangles import ENGINE as TRIANGLES
from tests.e2e.test_pairs import next_pair


def api(page: Any, method: str, path: str, body: Any = None) -> Any:
    response = page.request.fetch(path, method=method, data=body)
    assert response.ok, response.text()
    return response.json()


def finished(page: Any, game: str) -> str:
    """A game of this player played to its end on the server; → its id."""
    if game == "blocks":
        data = api(page, "POST", "/api/games", {"game": "blocks", "number": "00000001-a"})
        api(page, "POST", f"/api/games/{data['id']}/moves",
            {"version": data["version"], "move": {"type": "finish"}})
    elif game == "pairs":
        data = api(page, "POST", "/api/games", {"game": "pairs", "params": {"size": "beginner"}})
        version, view = data["version"], data["view"]
        while not view["over"]:
            a, b = next_pair(view)
            answer = api(page, "POST", f"/api/games/{data['id']}/moves",
                         {"version": version, "move": {"type": "pair", "a": a, "b": b}})
            version, view = answer["version"], answer["view"]
    else:
        data = api(page, "POST", "/api/games",
                   {"game": "triangles", "params": {"opponent": "easy"}})
        api(page, "POST", f"/api/games/{data['id']}/moves",
            {"version": data["version"], "move": {"type": "resign"}})
    return str(data["id"])


def ready(page: Any, stage: str, states: str = "playing|over|active") -> None:
    expect(page.locator(stage)).to_have_attribute("data-state", re.compile(states))


def open_dialog(page: Any, selector: str) -> None:
    expect(page.locator(selector)).to_be_visible()
    page.wait_for_function(
        f"document.querySelector('{selector}').getBoundingClientRect().height > 0"
    )


def stranger(page: Any, name: str) -> Any:
    """Another player named ``name``: a browser context of its own, on the site of ``page``
    (its ``request`` carries its cookie). The caller closes it."""
    origin = page.request.get("/").url.rstrip("/")  # a page's base_url is not readable
    other = page.context.browser.new_context(base_url=origin)
    api(other, "PUT", "/api/me", {"name": name})
    return other


def computer_line(page: Any, game: dict[str, Any]) -> Any:
    """The line the computer would draw next in this Triangles game, as a move to send."""
    log = api(page, "GET", f"/api/games/{game['id']}/log")
    params = TRIANGLES.parse_params(log["params"])
    return TRIANGLES.dump_move(
        TRIANGLES.computer_move(fold_log(TRIANGLES, params, log["seed"], log["moves"]))
    )


# The players of the online cases: names of the longest kind players give (issue 36).
HOST, GUEST = "François-Marie Dubois", "Alexandra-Maximiliane"


def online_game(page: Any, lines: int, resign: bool = True) -> tuple[str, Any]:
    """An online Triangles game of this page's player (HOST, the first seat) and GUEST (a
    context of her own, returned open: the caller closes it), ``lines`` lines drawn by
    whoever's turn it is, then (if ``resign``) GUEST resigns. → (its id, GUEST's context)"""
    api(page, "PUT", "/api/me", {"name": HOST})
    guest = stranger(page, GUEST)
    try:
        game = api(page, "POST", "/api/games",
                   {"game": "triangles", "params": {"opponent": "online", "stars": 24}})
        snapshot = api(guest, "POST", f"/api/games/{game['id']}/join")
        moves = f"/api/games/{game['id']}/moves"
        for _ in range(lines):
            mover = (page, guest)[snapshot["view"]["turn"]]
            snapshot = api(mover, "POST", moves,
                           {"version": snapshot["version"], "move": computer_line(page, game)})
        if resign:
            api(guest, "POST", moves,
                {"version": snapshot["version"], "move": {"type": "resign"}})
    except BaseException:
        guest.close()
        raise
    return str(game["id"]), guest


CASES: dict[str, Callable[[Any], None]] = {}


# The pages a case routed: the matrix closes such a page after its state instead of removing
# its routes. Playwright's unroute_all (1.65) can wait for good on Chromium when a session of
# the page has just gone in the browser (microsoft/playwright#42278, fixed after 1.65): it
# hung the state after blocks-offline for pytest-timeout's 600 s, twice.
ROUTED: weakref.WeakSet[Any] = weakref.WeakSet()


def intercept(page: Any, pattern: str, handler: Callable[[Any], Any]) -> None:
    page.route(pattern, handler)
    ROUTED.add(page)


def case(name: str) -> Callable[[Callable[[Any], None]], Callable[[Any], None]]:
    def register(fn: Callable[[Any], None]) -> Callable[[Any], None]:
        CASES[name] = fn
        return fn
    return register


@case("lobby")
def lobby(page: Any) -> None:
    page.goto("/")
    expect(page.locator("#open-status")).not_to_have_text("")


@case("lobby-seek")
def lobby_seek(page: Any) -> None:
    """The "Play online now" waiting state (the pool is stubbed: nobody pairs with it)."""
    waiting = {"status": "waiting", "seek_id": "layout", "clock": "10+5", "rated": False,
               "expires_ms": 0}
    intercept(page, "**/api/seeks**", lambda route: route.fulfill(json=waiting))
    page.goto("/")
    expect(page.locator("#seek-section")).to_have_attribute("data-seek", "idle")
    page.locator('#seek-clocks input[value="10+5"]').check()
    page.locator('[data-action="seek"]').click()
    expect(page.locator("#seek-section")).to_have_attribute("data-seek", "waiting")
    expect(page.locator("[data-seek-elapsed]")).not_to_have_text("")


@case("lobby-rated-progress")
def lobby_rated_progress(page: Any) -> None:
    """The Rated switch of a named player 3 games short of rated play: off, with the
    progress and the reason (the player's answer is stubbed: a long name, 3 of 5 games)."""
    me = {"name": "François-Marie Dubois",
          "rated": {"triangles": {"finished": 3, "needed": 5, "moves": 5}}}
    intercept(page, "**/api/me", lambda route: route.fulfill(json=me))
    page.goto("/")
    expect(page.locator("#seek-section")).to_have_attribute("data-seek", "idle")
    page.locator('#seek-clocks input[value="10+5"]').check()
    expect(page.locator("[data-rated-progress]")).not_to_have_text("")
    page.locator("#seek-rated-row").scroll_into_view_if_needed()


def offline(page: Any) -> None:
    """Every API call fails as with no network (the page itself came, as from the cache)."""
    intercept(page, "**/api/**", lambda route: route.abort())


@case("lobby-offline")
def lobby_offline(page: Any) -> None:
    offline(page)
    page.goto("/")
    expect(page.locator("#connection-banner")).to_be_visible()


@case("me-offline")
def me_offline(page: Any) -> None:
    offline(page)
    page.goto("/me")
    expect(page.locator("#main")).to_have_attribute("data-stats", "error")
    expect(page.locator("#connection-banner")).to_be_visible()


@case("blocks-offline")
def blocks_offline(page: Any) -> None:
    offline(page)
    page.goto("/play/blocks/classic10")
    expect(page.locator("#blocks")).to_have_attribute("data-state", "error")
    expect(page.locator("#connection-banner")).to_be_visible()


@case("blocks")
def blocks(page: Any) -> None:
    page.goto("/play/blocks/classic10/00000001-a")
    ready(page, "#blocks")


@case("blocks-confirm")
def blocks_confirm(page: Any) -> None:
    """Finish pressed once: it asks to be pressed again (its longest label)."""
    blocks(page)
    page.locator("#blocks-finish").click()
    expect(page.locator("#blocks-finish")).to_have_class(re.compile("is-confirm"))


@case("blocks-menu")
def blocks_menu(page: Any) -> None:
    blocks(page)
    page.locator("#blocks-menu-btn").click()
    open_dialog(page, "#blocks-menu")


@case("blocks-final")
def blocks_final(page: Any) -> None:
    page.goto(f"/g/{finished(page, 'blocks')}")
    open_dialog(page, "#blocks-final")


@case("pairs")
def pairs(page: Any) -> None:
    page.goto("/play/pairs")
    ready(page, "#pairs")


@case("pairs-menu")
def pairs_menu(page: Any) -> None:
    pairs(page)
    page.locator(".pairs-controls [data-action=menu]").click()
    open_dialog(page, "#pairs-menu")


@case("pairs-final")
def pairs_final(page: Any) -> None:
    page.goto(f"/g/{finished(page, 'pairs')}")
    open_dialog(page, "#pairs-final")


@case("triangles-new")
def triangles_new(page: Any) -> None:
    page.goto("/play/triangles")
    open_dialog(page, "#tri-new")


@case("triangles")
def triangles(page: Any) -> None:
    triangles_new(page)
    page.locator("#tri-new-start").click()
    ready(page, "#tri", "active")


@case("triangles-final")
def triangles_final(page: Any) -> None:
    page.goto(f"/g/{finished(page, 'triangles')}")
    open_dialog(page, "#tri-final")


@case("me")
def me(page: Any) -> None:
    """/me with games of three kinds (one under way), statistics and a transfer code."""
    page.goto("/me")
    finished(page, "blocks")
    finished(page, "triangles")
    api(page, "POST", "/api/games", {"game": "pairs"})
    page.goto("/me")
    expect(page.locator("main")).to_have_attribute("data-count", "3")
    expect(page.locator("main")).to_have_attribute("data-stats", "ready")
    page.locator("[data-make-code]").click()
    expect(page.locator("[data-transfer]")).to_have_attribute("data-transfer", "shown")


@case("me-switch")
def me_switch(page: Any) -> None:
    """/me opened from another player's transfer link (with the longest name): the
    question, both players and the buttons."""
    friend = stranger(page, "Konstantinopolskaya_1234")
    try:
        code = api(friend, "POST", "/api/me/transfer")["code"]
    finally:
        friend.close()
    finished(page, "blocks")
    page.goto(f"/me?code={code}")
    expect(page.locator("#switch-panel")).to_have_attribute("data-switch", "confirm")
    expect(page.locator("main")).to_have_attribute("data-history", "ready")


@case("lobby-remembers")
def lobby_remembers(page: Any) -> None:
    page.goto("/")
    api(page, "POST", "/api/games", {"game": "pairs"})
    page.reload()
    expect(page.locator(".continue-card")).to_have_count(1)


def replay_page(page: Any, game: str) -> None:
    page.goto(f"/replay/{finished(page, game)}#ply=1")
    expect(page.locator("#replay")).to_have_attribute("data-state", "ready")
    expect(page.locator("#replay")).to_have_attribute("data-ply", "1")


@case("replay-blocks")
def replay_blocks(page: Any) -> None:
    replay_page(page, "blocks")


@case("replay-pairs")
def replay_pairs(page: Any) -> None:
    replay_page(page, "pairs")


@case("replay-triangles")
def replay_triangles(page: Any) -> None:
    replay_page(page, "triangles")


@case("replay-triangles-review")
def replay_triangles_review(page: Any) -> None:
    """A reviewed Triangles game (a few lines each, then a resignation) at a marked ply."""
    data = api(page, "POST", "/api/games",
               {"game": "triangles", "params": {"opponent": "easy", "stars": 24}})
    moves, version = f"/api/games/{data['id']}/moves", data["version"]
    for _ in range(6):
        answer = api(page, "POST", moves, {"version": version, "move": computer_line(page, data)})
        version = answer["version"]
    api(page, "POST", moves, {"version": version, "move": {"type": "resign"}})
    page.goto(f"/replay/{data['id']}?review=1#ply=3")
    expect(page.locator("#review")).to_have_attribute("data-review", "done", timeout=90_000)
    expect(page.locator("#replay")).to_have_attribute("data-ply", "3")


@case("triangles-online-rematch")
def triangles_online_rematch(page: Any) -> None:
    """The end card of an online game GUEST resigned, then offered a rematch: both long
    names, the offer and its two buttons (issue 36)."""
    game_id, guest = online_game(page, lines=2)
    try:
        api(guest, "POST", f"/api/games/{game_id}/rematch", {"action": "offer"})
    finally:
        guest.close()
    page.goto(f"/g/{game_id}")
    open_dialog(page, "#tri-final")
    expect(page.locator("#tri-rematch-text")).to_contain_text(GUEST)
    expect(page.locator('#tri-final [data-action="rematch-accept"]')).to_be_visible()


@case("triangles-online-final")
def triangles_online_final(page: Any) -> None:
    """The end card of an online game GUEST resigned, before anyone offers a rematch: both
    long names and "Offer a rematch" (issue 36: cut in half at the card's edge in fr)."""
    game_id, guest = online_game(page, lines=2)
    guest.close()
    page.goto(f"/g/{game_id}")
    open_dialog(page, "#tri-final")
    expect(page.locator('#tri-final [data-action="rematch-offer"]')).to_be_visible()


def online_under_way(page: Any) -> None:
    """An online game between the two long names under way on HOST's page, GUEST's page
    open on it too until HOST's page sees her there (a green dot)."""
    game_id, guest = online_game(page, lines=2, resign=False)
    try:
        guest_page = guest.new_page()
        guest_page.goto(f"/g/{game_id}")
        ready(guest_page, "#tri", "active")
        page.goto(f"/g/{game_id}")
        ready(page, "#tri", "active")
        expect(page.locator('.tri-player[data-seat="1"]')).to_have_attribute(
            "data-presence", "online")
    finally:
        guest.close()


@case("triangles-online")
def triangles_online(page: Any) -> None:
    """An online game under way: both long names in the players' boxes, Resign (issue 36:
    names cut to 8 letters on a phone, "Abandonn/er" broken)."""
    online_under_way(page)
    expect(page.locator('#tri-controls [data-action="resign"]')).to_be_visible()


@case("triangles-online-offline")
def triangles_online_offline(page: Any) -> None:
    """The same game once this page has lost the network: the status line says so (issue
    36: it ran off the screen in fr)."""
    online_under_way(page)
    page.context.set_offline(True)
    expect(page.locator("#tri-status")).to_have_class(re.compile("is-offline"))


@case("review-triangles-online")
def review_triangles_online(page: Any) -> None:
    """The review of an online game of two long names, reached by the end card's Review,
    at the first line it marks as not the best (its note names the better line), or else
    at its last line, picked in the list."""
    game_id, guest = online_game(page, lines=8)
    guest.close()
    page.goto(f"/g/{game_id}")
    open_dialog(page, "#tri-final")
    page.locator('#tri-final [data-action="review"]').click()
    # the page marks the ply it shows in the hash (#ply=0) as soon as it has the game: a
    # wait that began after that (a busy machine) would never see the URL without it
    page.wait_for_url(re.compile(rf"/replay/{game_id}\?review=1(#.*)?$"))
    expect(page.locator("#review")).to_have_attribute("data-review", "done", timeout=90_000)
    review = api(page, "GET", f"/api/games/{game_id}/review")
    ply = next((p["ply"] for p in review["plies"] if p["verdict"] != "best"),
               review["plies"][-1]["ply"])
    step = page.locator(f".replay-list__step[data-ply='{ply}']")
    step.scroll_into_view_if_needed()
    step.click()  # picked in the list: the board comes back into view (issue 36)
    expect(page.locator("#replay")).to_have_attribute("data-ply", str(ply))
    expect(page.locator("#replay")).to_have_attribute("data-state", "ready")
    expect(page.locator("#review-note")).to_be_in_viewport()
