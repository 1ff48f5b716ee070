"""The replay page (/replay/{id}): every game kind replayed forward and back to its end
with the buttons, the keys and the slider, the #ply= link, autoplay, the list of plies and
the downloaded log (which verifies). Waits are on the stage's data-ply / data-state."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from app.i18n import catalog
from engines.core.replay import replay as fold_log
from engines.registry import ENGINES
from tests.api.test_replay_api import blocks_move, pairs_move, triangles_move
from tests.e2e.conftest import shot

BODIES = {
    "blocks": {"game": "blocks", "params": {"ruleset": "classic10"}},
    "pairs": {"game": "pairs", "params": {"size": "beginner", "mode": "calm"}},
    "triangles": {
        "game": "triangles",
        "params": {"field": "phone", "stars": 24, "opponent": "easy"},
    },
}
NEXT = {"blocks": blocks_move, "pairs": pairs_move, "triangles": triangles_move}


def api(page: Any, method: str, path: str, body: Any = None) -> Any:
    response = page.request.fetch(path, method=method, data=body)
    assert response.ok, response.text()
    return response.json()


def played(page: Any, game: str, most: int = 8) -> dict[str, Any]:
    """A game played by this page's player through the API: ``most`` moves (Blocks then
    finishes), or to its end; → its final state as GET /api/games/{id} answers it."""
    created = api(page, "POST", "/api/games", BODIES[game])
    game_id, version, view = created["id"], created["version"], created["view"]
    engine = ENGINES[game]
    for _ in range(most if game == "blocks" else 500):
        if view["over"]:
            break
        log = api(page, "GET", f"/api/games/{game_id}/log")
        state = fold_log(engine, engine.parse_params(log["params"]), log["seed"], log["moves"])
        answer = api(page, "POST", f"/api/games/{game_id}/moves",
                     {"version": version, "move": NEXT[game](state)})
        version, view = answer["version"], answer["view"]
    if not view["over"]:
        api(page, "POST", f"/api/games/{game_id}/moves",
            {"version": version, "move": {"type": "finish"}})
    return api(page, "GET", f"/api/games/{game_id}")  # type: ignore[no-any-return]


def at(page: Any, ply: int) -> None:
    stage = page.locator("#replay")
    expect(stage).to_have_attribute("data-ply", str(ply))
    expect(stage).to_have_attribute("data-state", "ready")
    assert page.evaluate("location.hash") == f"#ply={ply}"


def score_text(game: str, view: dict[str, Any]) -> str:
    if game == "triangles":
        return f"{view['scores'][0]} : {view['scores'][1]}"
    return f"{view['score']:,}"


@pytest.mark.parametrize("game", list(BODIES))
def test_replay_forward_and_back_with_buttons_keys_and_slider(
    desktop: Any, game: str
) -> None:
    page = desktop.new_page()
    final = played(page, game)
    page.goto(f"/replay/{final['id']}")
    at(page, 0)
    plies = int(page.locator("#replay").get_attribute("data-plies") or 0)
    assert plies == final["version"] >= 3
    controls = page.locator(".replay-controls")
    expect(controls.locator("[data-action=prev]")).to_be_disabled()

    controls.locator("[data-action=next]").click()
    at(page, 1)
    page.keyboard.press("ArrowRight")
    at(page, 2)
    page.keyboard.press("ArrowLeft")
    at(page, 1)
    page.keyboard.press("End")
    at(page, plies)
    expect(controls.locator("[data-action=next]")).to_be_disabled()
    # The last ply is the game as it ended.
    expect(page.locator("#replay-score")).to_have_text(score_text(game, final["view"]))
    page.keyboard.press("Home")
    at(page, 0)
    controls.locator("[data-action=last]").click()
    at(page, plies)
    controls.locator("[data-action=prev]").click()
    at(page, plies - 1)
    controls.locator("[data-action=first]").click()
    at(page, 0)
    page.locator("#replay-slider").fill(str(plies // 2))
    at(page, plies // 2)
    page.locator("#replay-slider").fill(str(plies))
    at(page, plies)

    # The list has one entry per ply; choosing one shows it.
    expect(page.locator("#replay-list button[data-ply]")).to_have_count(plies)
    # Its title and entries are the game's words (games.<game>.replay.*), never a key.
    title = catalog("en")[f"games.{game}.replay.moves"]
    expect(page.locator("#replay-list-title")).to_have_text(title)
    entries = page.locator("#replay-list button[data-ply]").all_text_contents()
    assert [text for text in entries if "replay." in text] == []
    page.locator("#replay-list button[data-ply='2']").click()
    at(page, 2)
    expect(page.locator("#replay-list button[data-ply='2']")).to_have_attribute(
        "aria-current", "step"
    )


@pytest.mark.parametrize("game", list(BODIES))
def test_the_ply_link_autoplay_and_the_downloaded_log(desktop: Any, game: str) -> None:
    page = desktop.new_page()
    final = played(page, game, most=5)
    plies = final["version"]
    page.goto(f"/replay/{final['id']}#ply={plies - 2}")
    at(page, plies - 2)
    expect(page.locator("#replay-link")).to_have_attribute(
        "href", f"/replay/{final['id']}#ply={plies - 2}"
    )
    page.evaluate("location.hash = '#ply=1'")
    at(page, 1)
    page.goto(f"/replay/{final['id']}#ply={plies - 2}")
    at(page, plies - 2)
    play = page.locator(".replay-controls [data-action=play]")
    play.click()
    expect(play).to_have_attribute("aria-pressed", "true")
    at(page, plies)  # autoplay walked on to the end, and stops there
    expect(play).to_have_attribute("aria-pressed", "false")

    with page.expect_download() as download:
        page.locator("#replay-download").click()
    body = json.loads(open(download.value.path(), encoding="utf-8").read())
    log = api(page, "GET", f"/api/games/{final['id']}/log")
    assert body == {
        "game": game,
        "number": final["number"],
        "params": final["params"],
        "log": log["moves"],
    }
    verified = api(page, "POST", "/api/verify", body)
    assert verified["view"] == final["view"]
    assert verified["outcome"] == final["outcome"]


def test_the_end_card_links_to_the_replay(desktop: Any) -> None:
    page = desktop.new_page()
    final = played(page, "blocks", most=2)
    page.goto(f"/g/{final['id']}")
    watch = page.locator("#blocks-final a[data-action=watch]")
    expect(watch).to_be_visible()
    expect(watch).to_have_attribute("href", f"/replay/{final['id']}")
    watch.click()
    at(page, 0)


def test_the_replay_of_a_running_game_opens_at_its_latest_move(desktop: Any) -> None:
    """Issue 36 (8): the replay of a game under way opened at move 0; it opens where the
    game is (a finished one still opens at the start, a #ply= link where it says)."""
    page = desktop.new_page()
    finished = played(page, "pairs")
    created = api(page, "POST", "/api/games", BODIES["blocks"])
    game_id, version = created["id"], created["version"]
    for _ in range(3):
        log = api(page, "GET", f"/api/games/{game_id}/log")
        engine = ENGINES["blocks"]
        state = fold_log(engine, engine.parse_params(log["params"]), log["seed"], log["moves"])
        version = api(page, "POST", f"/api/games/{game_id}/moves",
                      {"version": version, "move": NEXT["blocks"](state)})["version"]
    page.goto(f"/replay/{game_id}")
    at(page, 3)
    expect(page.locator("#replay")).to_have_attribute("data-plies", "3")
    page.goto(f"/replay/{game_id}#ply=1")
    at(page, 1)
    page.goto(f"/replay/{finished['id']}")  # finished: from the start
    at(page, 0)


def test_a_running_game_of_someone_else_says_why(
    browser: Any, desktop: Any, server_url: str
) -> None:
    owner = desktop.new_page()
    created = api(owner, "POST", "/api/games", BODIES["blocks"])
    other = browser.new_context(base_url=server_url, locale="en-US")
    try:
        page = other.new_page()
        page.goto(f"/replay/{created['id']}")
        expect(page.locator("#replay")).to_have_attribute("data-state", "error")
        # issue 24.11: the board itself says why, in words of its own, and offers nothing
        expect(page.locator("#replay-notice")).to_contain_text(
            "This game is still being played; its replay opens when it ends."
        )
        expect(page.locator("#replay-download")).to_be_hidden()
    finally:
        other.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_replay_on_touch_screens(browser: Any, server_url: str, lang: str) -> None:
    """Taps on a phone, upright and sideways; screenshots for a look."""
    for name, size in (("phone", (390, 844)), ("landscape", (844, 390))):
        context = browser.new_context(
            base_url=server_url, viewport={"width": size[0], "height": size[1]},
            is_mobile=True, has_touch=True, device_scale_factor=2,
        )
        context.add_cookies([{"name": "lang", "value": lang, "url": server_url}])
        try:
            page = context.new_page()
            final = played(page, "triangles")
            page.goto(f"/replay/{final['id']}#ply=3")
            at(page, 3)
            page.locator(".replay-controls [data-action=next]").tap()
            at(page, 4)
            page.locator(".replay-controls [data-action=prev]").tap()
            at(page, 3)
            shot(page, f"replay-triangles-{name}-{lang}")
        finally:
            context.close()
