"""The shared game page (static/js/core/game-page.js), run in Chromium against the real
server: a created game takes the address and the stored slot, a second page resumes it,
today's board is resumed and, once forgotten, found again through "daily_played", and a
refusal shows the catalog's words and reloads the game when it has moved on."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.i18n import catalog

pytestmark = pytest.mark.e2e

EN = catalog("en")

def words(code: str) -> str:
    """A refusal's words: the game's own wording, else the one shared by every game."""
    return str(EN.get(f"games.pairs.error.{code}") or EN[f"error.{code}"])


# Builds GamePage objects that record what they tell their game.
SETUP = """
  const m = await import('/static/js/core/game-page.js');
  const log = [];
  const make = (game) => {
    const hooks = {
      opened: (how) => log.push(['opened', how, pages.at(-1).session.id]),
      failed: (error, how) => log.push(['failed', error.code, how]),
      notice: (text, kind) => log.push(['notice', text, kind]),
    };
    const page = new m.GamePage(game, hooks);
    pages.push(page);
    return page;
  };
  const pages = [];
"""


@pytest.fixture
def page(phone: Any) -> Any:
    page = phone.new_page()
    page.goto("/")
    return page


def run(page: Any, body: str) -> Any:
    return page.evaluate(f"async () => {{ {SETUP} {body} }}")


def test_a_created_game_takes_the_address_and_a_second_page_resumes_it(page: Any) -> None:
    result = run(page, """
        const first = make('pairs');
        const error = await first.create({params: {size: 'classic', mode: 'calm'}});
        const id = first.session.id;
        const stored = localStorage.getItem('pairs.current');
        const path = location.pathname;
        const resumed = await make('pairs').resume();
        first.forget();
        const afterForget = localStorage.getItem('pairs.current');
        const again = await make('pairs').resume();
        return {error, id, stored, path, resumed, afterForget, again, log};
    """)
    game_id = result["id"]
    assert result["error"] is None
    assert result["stored"] == json.dumps(game_id)
    assert result["path"] == f"/g/{game_id}"
    assert result["resumed"] is True
    assert result["afterForget"] is None
    assert result["again"] is False
    assert result["log"] == [["opened", "new", game_id], ["opened", "resume", game_id]]


def test_todays_board_is_resumed_then_found_again_once_forgotten(page: Any) -> None:
    result = run(page, """
        const first = make('blocks');
        await first.openDaily({});
        const second = make('blocks');
        await second.openDaily({});
        localStorage.clear();
        const third = make('blocks');
        await third.openDaily({});
        const stored = JSON.parse(localStorage.getItem('blocks.daily'));
        return {ids: pages.map((p) => p.session.id), daily: third.session.daily, stored, log};
    """)
    first_id = result["ids"][0]
    assert result["ids"] == [first_id, first_id, first_id]
    assert [entry[:2] for entry in result["log"]] == [
        ["opened", "daily"], ["opened", "daily"], ["opened", "played"],
    ]
    assert result["stored"] == {"date": result["daily"], "id": first_id}


def test_a_refusal_says_the_catalogs_words_and_reloads_a_game_that_moved_on(page: Any) -> None:
    result = run(page, """
        const game = make('pairs');
        await game.create({params: {size: 'classic', mode: 'calm'}});
        let refreshed = 0;
        game.session.refresh = async () => { refreshed += 1; };
        const words = [
          game.refuse({code: 'no_path'}, {sound: false}),
          game.refuse({code: 'game_over'}, {sound: false}),
          game.refuse({code: 'empty_cell'}, {sound: false, refresh: ['empty_cell']}),
        ];
        return {words, refreshed, notices: log.filter((e) => e[0] === 'notice')};
    """)
    no_path, game_over, empty = (words(code) for code in ("no_path", "game_over", "empty_cell"))
    assert result["words"] == [no_path, game_over, empty]
    assert result["refreshed"] == 2
    assert result["notices"] == [
        ["notice", no_path, "error"], ["notice", game_over, "error"], ["notice", empty, "error"],
    ]
