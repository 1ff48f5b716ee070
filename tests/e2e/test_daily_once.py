"""Issue 24.2: a once-a-day board opened again after it was played is that game, over, with
the words that say so; it never starts another run (the server refuses a second one)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from app.i18n import catalog
from tests.e2e.test_pairs import PairsPage, next_pair

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_daily_pairs_opened_again_shows_the_played_game(
    phone: Any, server_url: str, lang: str
) -> None:
    words = catalog(lang)
    phone.add_cookies([{"name": "lang", "value": lang, "url": server_url}])
    page = phone.new_page()
    pairs = PairsPage(page, touch=True)
    pairs.open("/daily/pairs")
    game_id = pairs.game_id
    version, view = int(page.locator("#pairs").get_attribute("data-version") or 0), pairs.view()
    while not view["over"]:  # cleared through the API (the page's cookie), at a script's pace
        a, b = next_pair(view)
        answer = page.request.post(
            f"/api/games/{game_id}/moves",
            data={"version": version, "move": {"type": "pair", "a": list(a), "b": list(b)}},
        )
        assert answer.ok, answer.text()
        version, view = answer.json()["version"], answer.json()["view"]
    page.goto("/daily/pairs")
    expect(page).to_have_url(re.compile(rf"/g/{game_id}$"))
    final = page.locator("#pairs-final")
    expect(final).to_be_visible()
    # kept, and marked: a script's pace leaves it off the board of honour (app/honour.py)
    expect(final.locator(".pairs-final__note")).to_have_text(
        [words["common.daily.played"], words["common.daily.too_fast"]]
    )
    assert page.locator("#pairs").get_attribute("data-game-id") == game_id
    mine = page.request.get("/api/me/games?game=pairs").json()["games"]
    assert [g["id"] for g in mine] == [game_id]
    # the board cleared behind the page's back may end it with a buzz no tap allowed
    assert [p for p in pairs.problems if "navigator.vibrate" not in p] == []


def test_todays_daily_number_is_no_practice_board(phone: Any) -> None:
    """A daily board opened by its number before its day is over: the page words the
    refusal (daily_not_over) and leads to the daily board itself."""
    words = catalog("en")
    page = phone.new_page()
    page.goto("/")
    date = page.evaluate("import('/static/js/core/daily.js').then((m) => m.localDate())")
    number = page.request.get(f"/api/daily/pairs?date={date}").json()["number"]
    page.goto(f"/play/pairs/{number}")
    expect(page.locator("#pairs-overlay-text")).to_have_text(words["error.daily_not_over"])
    page.locator("#pairs-overlay button", has_text=words["games.pairs.daily.link"]).click()
    expect(page).to_have_url(re.compile(r"/g/[A-Za-z0-9_-]+$"))
    expect(page.locator("#pairs")).to_have_attribute("data-number", number)
