"""The shared chrome: one sound toggle in the header, remembered across visits, and the same
end card actions in every game (new game, copy link, share where it exists, see the board)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.states import finished


def test_the_sound_toggle_is_remembered(desktop: Any) -> None:
    page = desktop.new_page()
    page.goto("/play/pairs")
    toggle = page.locator("header [data-action=sound]")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    page.goto("/")
    expect(page.locator("header [data-action=sound]")).to_have_attribute("aria-pressed", "false")
    page.locator("header [data-action=sound]").click()
    page.reload()
    expect(page.locator("header [data-action=sound]")).to_have_attribute("aria-pressed", "true")


@pytest.mark.parametrize(("game", "card"), [
    ("blocks", "#blocks-final"), ("pairs", "#pairs-final"), ("triangles", "#tri-final"),
])
def test_every_end_card_has_the_same_actions(desktop: Any, game: str, card: str) -> None:
    page = desktop.new_page()
    page.goto("/")
    game_id = finished(page, game)
    page.goto(f"/g/{game_id}")
    final = page.locator(card)
    expect(final).to_be_visible()
    for action in ("new", "copy", "watch", "board"):
        expect(final.locator(f"[data-end-actions] [data-action={action}]")).to_be_visible()
    expect(final.locator("[data-end-actions] [data-action=watch]")).to_have_attribute(
        "href", f"/replay/{game_id}"
    )
    expect(final.locator("[data-end-actions] [data-action=share]")).to_have_count(1)
    final.locator("[data-action=board]").click()  # see the board: the card goes away
    expect(final).to_be_hidden()


COUNT_NOTES = """
  window.notesPlayed = 0;
  const Real = window.AudioContext;
  window.AudioContext = class extends Real {
    createOscillator() { window.notesPlayed += 1; return super.createOscillator(); }
  };
"""


def test_the_sounds_come_at_the_first_touch_not_with_the_page(desktop_without_worker: Any) -> None:
    page = desktop_without_worker.new_page()
    page.add_init_script(COUNT_NOTES)
    scripts: list[str] = []
    page.on("request", lambda r: scripts.append(r.url) if r.resource_type == "script" else None)
    page.goto("/play/pairs")
    page.wait_for_load_state("networkidle")
    loaded = list(scripts)
    toggle = page.locator("header [data-action=sound]")
    toggle.click()  # off: the first click asks for the sounds, and plays none
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()  # on again: a "select" note
    page.wait_for_function("window.notesPlayed === 1")
    assert len(loaded) == 1 and len(scripts) == 2, scripts  # the page's script, then the sounds
