"""Issue 24.11: the replay of a game still being played, opened by someone else, explains
itself and offers nothing that would do nothing; on a phone the move list follows the move."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from app.i18n import catalog
from tests.e2e.test_pairs import played_out

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_running_game_replay_explains_itself(
    browser: Any, phone: Any, server_url: str, lang: str
) -> None:
    words = catalog(lang)
    owner = browser.new_context(base_url=server_url)
    try:
        made = owner.request.post(
            "/api/games", data={"game": "triangles", "params": {"opponent": "easy", "stars": 24}}
        )
        assert made.ok, made.text()
        gid = made.json()["id"]
    finally:
        owner.close()
    phone.add_cookies([{"name": "lang", "value": lang, "url": server_url}])
    page = phone.new_page()
    page.goto(f"/replay/{gid}")
    notice = page.locator("#replay-notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text(words["replay.running.text"])
    expect(page.locator("#replay")).to_have_attribute("data-reason", "running")
    expect(page.locator("#replay-position")).to_have_text("")
    for button in page.locator(".replay-controls button").all():
        expect(button).to_be_disabled()
    expect(page.locator("#replay-slider")).to_be_disabled()
    expect(page.locator("#replay-download")).to_be_hidden()
    expect(page.locator("#replay-list-title")).to_be_hidden()  # no empty "Lines" panel


def test_phone_move_list_follows_the_current_move(phone: Any) -> None:
    page = phone.new_page()
    page.goto("/")
    page.goto(f"/replay/{played_out(page, 'classic')}#ply=8")
    expect(page.locator("#replay")).to_have_attribute("data-ply", "8")
    current = page.locator('#replay-list [aria-current="step"]')
    expect(current).to_have_count(1)
    inside = page.evaluate(
        """() => { const list = document.getElementById('replay-list');
        const item = list.querySelector('[aria-current="step"]');
        const a = list.getBoundingClientRect(), b = item.getBoundingClientRect();
        return [list.scrollHeight > list.clientHeight, b.top >= a.top && b.bottom <= a.bottom]; }"""
    )
    assert inside == [True, True]
