"""Rated play's entry ticket, earned as cheaply as the rules allow (``app.fair_play``):
``MIN_FINISHED`` games against the easy computer, each with ``MIN_OWN_MOVES`` lines of the
player's own (chosen by the engine's easy player on a replay of the log), then resigned."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.fair_play import MIN_FINISHED, MIN_OWN_MOVES
from engines.core.replay import replay
from engines.registry import ENGINES

TRIANGLES: Any = ENGINES["triangles"]

Post = Callable[[str, dict[str, Any]], dict[str, Any]]
Get = Callable[[str], dict[str, Any]]


def qualify(post: Post, get: Get, games: int = MIN_FINISHED) -> list[str]:
    """Finish ``games`` qualifying games through ``post``/``get`` (JSON in, JSON out; each
    asserts its own success); their ids, in order."""
    finished = []
    for _ in range(games):
        game = post("/api/games", {"game": "triangles", "params": {"opponent": "easy"}})
        version = game["version"]
        for _ in range(MIN_OWN_MOVES):
            version = post(
                f"/api/games/{game['id']}/moves",
                {"version": version, "move": next_line(get, game["id"])},
            )["version"]
        post(f"/api/games/{game['id']}/moves", {"version": version, "move": {"type": "resign"}})
        finished.append(game["id"])
    return finished


def next_line(get: Get, game_id: str) -> dict[str, Any]:
    """A legal line for the seat to move, as the game's own computer level would draw it."""
    log = get(f"/api/games/{game_id}/log")
    state = replay(TRIANGLES, TRIANGLES.parse_params(log["params"]), log["seed"], log["moves"])
    return TRIANGLES.dump_move(TRIANGLES.computer_move(state))  # type: ignore[no-any-return]


def qualify_page(request: Any, games: int = MIN_FINISHED) -> list[str]:
    """The same through a Playwright ``APIRequestContext`` (a page's or a context's
    ``request``), on that browser's cookie."""

    def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
        response = request.post(url, data=body)
        assert response.ok, response.text()
        return response.json()  # type: ignore[no-any-return]

    def get(url: str) -> dict[str, Any]:
        response = request.get(url)
        assert response.ok, response.text()
        return response.json()  # type: ignore[no-any-return]

    return qualify(post, get, games)
