"""A game page brings what its script would ask for first: the player's records and their
results against the computer, read from the database for the page (a request less)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.pages import page_json


@pytest.fixture
def client(make_client: Any) -> Any:
    return make_client()  # every served game


def test_a_game_page_brings_the_players_results_against_the_computer(
    client: Any, players: Any
) -> None:
    (alice,) = players(client, "alice")
    over = alice.new_game("triangles", params={"opponent": "easy", "stars": 24})
    assert alice.move(over["id"], over["version"], {"type": "resign"}).status_code == 200

    config = page_json(alice.get("/play/triangles").text)
    assert config["stats"] == {"easy": {"wins": 0, "losses": 1, "draws": 0}}
    assert config["stats"] == alice.get("/api/stats/triangles").json()["stats"]
    assert config["records"] == []
    # The finished game's own page counts it too (the end card shows these).
    assert page_json(alice.get(f"/g/{over['id']}").text)["stats"] == config["stats"]


def test_a_new_player_gets_empty_results_and_a_game_without_a_computer_no_stats(
    client: Any,
) -> None:
    client.cookies.clear()
    triangles = page_json(client.get("/play/triangles").text)
    assert (triangles["records"], triangles["stats"]) == ([], {})
    client.cookies.clear()
    blocks = page_json(client.get("/play/blocks/classic10").text)
    assert blocks["records"] == [] and "stats" not in blocks


def test_a_database_that_does_not_answer_leaves_the_results_to_the_page(
    client: Any, players: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    (alice,) = players(client, "alice")

    async def silent(*_: Any) -> None:
        raise TimeoutError("no connection in time")

    monkeypatch.setattr(client.app.state.services.reads, "records", silent)
    page = alice.get("/play/triangles")
    assert page.status_code == 200
    config = page_json(page.text)
    assert "records" not in config and "stats" not in config
