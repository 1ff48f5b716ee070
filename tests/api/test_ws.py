"""WebSocket /ws/games/{id}: state on connect, a message per move, moves with acks."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect


def online_game(alice: Any, bob: Any) -> dict[str, Any]:
    game = alice.new_game("tally", params={"opponent": "online", "limit": 30})
    bob.post(f"/api/games/{game['id']}/join")
    return game


def test_state_on_connect_and_moves_to_every_watcher(
    alice_bob: Any, players: Any, client: Any
) -> None:
    alice, bob = alice_bob
    (spectator,) = players(client, "spectator")
    game = online_game(alice, bob)
    first = alice if game["view"]["turn"] == 0 else bob
    with (
        alice.websocket(f"/ws/games/{game['id']}") as a,
        spectator.websocket(f"/ws/games/{game['id']}") as s,
    ):
        state = a.receive_json()
        assert state["type"] == "state" and state["version"] == 0 and state["seats"] == [0]
        assert s.receive_json()["seats"] == []
        assert first.move(game["id"], 0, {"type": "add", "n": 2}).status_code == 200
        for socket in (a, s):
            message = socket.receive_json()
            assert message["type"] == "move" and message["version"] == 1
            assert message["events"][0]["type"] == "added"
            assert message["view"]["tally"] == game["view"]["tally"] + 2


def test_move_over_websocket_gets_ack_then_broadcast(alice_bob: Any) -> None:
    alice, bob = alice_bob
    game = online_game(alice, bob)
    first = alice if game["view"]["turn"] == 0 else bob
    with first.websocket(f"/ws/games/{game['id']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "move", "version": 0, "move": {"type": "add", "n": 1}, "id": "m1"})
        replies = [ws.receive_json(), ws.receive_json()]
        kinds = sorted(r["type"] for r in replies)
        assert kinds == ["ack", "move"]
        ack = next(r for r in replies if r["type"] == "ack")
        assert ack == {"type": "ack", "id": "m1", "version": 1}


def test_errors_over_websocket(alice_bob: Any, players: Any, client: Any) -> None:
    alice, bob = alice_bob
    (stranger,) = players(client, "stranger")
    game = online_game(alice, bob)
    with stranger.websocket(f"/ws/games/{game['id']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "move", "version": 0, "move": {"type": "add", "n": 1}, "id": 7})
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["id"] == 7 and reply["status"] == 403
        assert reply["error"]["code"] == "not_seated"
        ws.send_text("not json")
        assert ws.receive_json()["error"]["code"] == "bad_json"
        ws.send_json({"type": "teleport"})
        assert ws.receive_json()["error"]["code"] == "unknown_type"
        ws.send_json([1, 2])
        assert ws.receive_json()["error"]["code"] == "bad_message"
        ws.send_json({"type": "move", "version": "0", "move": {}})
        assert ws.receive_json()["error"]["code"] == "bad_message"
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


def test_stale_move_over_websocket_is_409(alice_bob: Any) -> None:
    alice, bob = alice_bob
    game = online_game(alice, bob)
    first = alice if game["view"]["turn"] == 0 else bob
    first.move(game["id"], 0, {"type": "add", "n": 1})
    with first.websocket(f"/ws/games/{game['id']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "move", "version": 0, "move": {"type": "add", "n": 1}, "id": "x"})
        reply = ws.receive_json()
        assert reply["status"] == 409 and reply["error"]["code"] == "stale_version"
        assert reply["current"]["version"] == 1


def test_oversized_frame_closes_the_socket(alice_bob: Any) -> None:
    alice, _ = alice_bob
    game = alice.new_game("tally")
    with alice.websocket(f"/ws/games/{game['id']}") as ws:
        ws.receive_json()
        ws.send_text(json.dumps({"type": "ping", "pad": "x" * 17_000}))
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1009


def test_flood_is_rate_limited_then_closed(alice_bob: Any) -> None:
    alice, _ = alice_bob
    game = alice.new_game("tally")
    with alice.websocket(f"/ws/games/{game['id']}") as ws:
        ws.receive_json()
        codes = []
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(1000):
                ws.send_json({"type": "ping"})
            while True:
                codes.append(ws.receive_json().get("error", {}).get("code"))
        assert closed.value.code == 1008
        assert "rate_limited" in codes


def test_resume_sends_missed_moves(alice_bob: Any) -> None:
    alice, _ = alice_bob
    game = alice.new_game("tally", params={"limit": 30})
    for version in range(3):
        alice.move(game["id"], version, {"type": "add", "n": 1})
    with alice.websocket(f"/ws/games/{game['id']}?since=1") as ws:
        state = ws.receive_json()
        assert state["version"] == 3
        assert [m["ply"] for m in state["missed"]] == [2, 3]
        ws.send_json({"type": "sync", "version": 2})
        again = ws.receive_json()
        assert again["type"] == "state" and [m["ply"] for m in again["missed"]] == [3]


def test_unknown_game_socket_is_closed(client: Any) -> None:
    with pytest.raises(WebSocketDisconnect) as closed:
        with client.websocket_connect("/ws/games/nope") as ws:
            ws.receive_json()
    assert closed.value.code == 4404
