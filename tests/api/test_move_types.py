"""A move whose ``type`` is not a string is a malformed move in every game: 422
``unknown_move`` over REST, an ``error`` frame over the socket (which stays open), and
nothing written. A list or an object there once made a 500 (an unhashable membership
test before the engine had parsed the move) and reset the connection."""

from __future__ import annotations

from typing import Any

import pytest

from engines.registry import ENGINES
from tests.api.test_online import receive

NOT_STRINGS = [[], {}, [1], {"a": 1}, 7, None, True]


@pytest.fixture
def client(make_client: Any) -> Any:
    return make_client()  # the real registry


def started(player: Any, game: str) -> dict[str, Any]:
    params = {"opponent": "easy", "stars": 24} if game == "triangles" else {}
    return player.new_game(game, params=params)  # type: ignore[no-any-return]


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_rest_refuses_a_type_of_any_json_type(client: Any, players: Any, game: str) -> None:
    (alice,) = players(client, "alice")
    created = started(alice, game)
    logged = alice.get(f"/api/games/{created['id']}/log").json()["moves"]
    for kind in NOT_STRINGS:
        response = alice.move(created["id"], created["version"], {"type": kind})
        assert response.status_code == 422, (kind, response.text)
        assert response.json()["error"]["code"] == "unknown_move"
    # The connection was kept and nothing was written.
    assert alice.get(f"/api/games/{created['id']}/log").json()["moves"] == logged
    assert alice.get(f"/api/games/{created['id']}").json()["version"] == created["version"]


def test_socket_answers_an_error_frame_and_stays_open(client: Any, players: Any) -> None:
    (alice,) = players(client, "alice")
    created = started(alice, "pairs")
    with alice.websocket(f"/ws/games/{created['id']}") as socket:
        receive(socket, "state")
        for number, kind in enumerate(NOT_STRINGS):
            move = {"type": kind}
            socket.send_json(
                {"type": "move", "version": created["version"], "move": move, "id": number}
            )
            answer = receive(socket, "error")
            assert answer["id"] == number, answer
            assert answer["status"] == 422 and answer["error"]["code"] == "unknown_move"
        socket.send_json({"type": "ping"})
        receive(socket, "pong")
    assert alice.get(f"/api/games/{created['id']}").json()["version"] == created["version"]
