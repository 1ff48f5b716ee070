"""The lobby page keeps the room of its "continue" cards from the first paint (issue 24.14:
layout shift under 0.05): the server counts the player's games under way and the page
holds that many card-shaped places, which lobby.js fills in."""

from __future__ import annotations

import re
from typing import Any

import pytest

RESERVED = 'class="continue-card continue-card--reserved"'


@pytest.fixture
def client(make_client: Any) -> Any:
    return make_client()  # every served game


def continue_section(html: str) -> str:
    match = re.search(r'<section[^>]*id="continue-section"[^>]*>.*?</section>', html, re.S)
    assert match, "no continue section"
    return match.group(0)


def test_the_lobby_reserves_one_card_per_game_under_way(client: Any, players: Any) -> None:
    alice, bob = players(client, "alice", "bob")
    for _ in range(2):
        alice.new_game("pairs")
    over = alice.new_game("triangles", params={"opponent": "easy", "stars": 24})
    assert alice.move(over["id"], over["version"], {"type": "resign"}).status_code == 200

    section = continue_section(alice.get("/").text)
    assert section.count(RESERVED) == 2  # the finished game is not one to continue
    assert ' hidden' not in section.split(">", 1)[0]

    empty = continue_section(bob.get("/").text)
    assert empty.count(RESERVED) == 0
    assert empty.split(">", 1)[0].endswith(" hidden")


def test_the_lobby_reserves_at_most_the_cards_it_shows(client: Any, players: Any) -> None:
    (alice,) = players(client, "alice")
    for _ in range(8):
        alice.new_game("pairs")
    assert continue_section(alice.get("/").text).count(RESERVED) == 6


@pytest.mark.parametrize("path", ["/", "/me"])
def test_the_name_form_waits_for_its_script(client: Any, path: str) -> None:
    """Its button is off until name-form.js has wired the form: pressed before, the form
    would go as a plain GET, reload the page and lose the name typed."""
    form = re.search(r'<form[^>]*id="name-form".*?</form>', client.get(path).text, re.S)
    assert form, "no name form"
    (button,) = re.findall(r"<button[^>]*>", form.group(0))
    assert 'type="submit"' in button and " disabled" in button
