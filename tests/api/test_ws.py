"""WebSocket /ws/games/{id}: state on connect, a message per move, moves with results."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from app.budgets import MessageBudgets
from app.errors import AppError
from app.ws import parse


def receive(ws: Any) -> dict[str, Any]:
    """The next message that is not a presence notice."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] != "presence":
            return message


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
        state = receive(a)
        assert state["type"] == "state" and state["version"] == 0 and state["seats"] == [0]
        assert receive(s)["seats"] == []
        assert first.move(game["id"], 0, {"type": "add", "n": 2}).status_code == 200
        for socket in (a, s):
            message = receive(socket)
            assert message["type"] == "move" and message["version"] == 1
            assert message["events"][0]["type"] == "added"
            assert message["view"]["tally"] == game["view"]["tally"] + 2


def test_move_over_websocket_gets_the_rest_answer_and_no_echo(alice_bob: Any) -> None:
    alice, bob = alice_bob
    game = online_game(alice, bob)
    first, other = (alice, bob) if game["view"]["turn"] == 0 else (bob, alice)
    with (
        first.websocket(f"/ws/games/{game['id']}") as ws,
        other.websocket(f"/ws/games/{game['id']}") as watcher,
    ):
        receive(ws), receive(watcher)
        ws.send_json({"type": "move", "version": 0, "move": {"type": "add", "n": 1}, "id": "m1"})
        answer = receive(ws)
        assert (answer["type"], answer["id"], answer["from_version"]) == ("result", "m1", 0)
        result = answer["result"]
        assert (result["id"], result["version"]) == (game["id"], 1)
        assert result["seat"] == game["view"]["turn"]
        assert result["events"] == [{"type": "added", "n": 1, "seat": result["seat"]}]
        assert result["view"]["tally"] == game["view"]["tally"] + 1
        seen = receive(watcher)  # the other player's socket: the move frame, same events
        assert (seen["type"], seen["from_version"], seen["version"]) == ("move", 0, 1)
        assert seen["events"] == result["events"]
        ws.send_json({"type": "ping"})
        assert receive(ws) == {"type": "pong"}  # the mover's socket got no move frame of it
        state = first.get(f"/api/games/{game['id']}").json()
        assert {k: v for k, v in result.items() if k not in ("events", "server_ms")} == {
            k: v for k, v in state.items() if k not in ("players", "presence", "server_ms")
        }  # what the REST state says, read back


def test_errors_over_websocket(alice_bob: Any, players: Any, client: Any) -> None:
    alice, bob = alice_bob
    (stranger,) = players(client, "stranger")
    game = online_game(alice, bob)
    with stranger.websocket(f"/ws/games/{game['id']}") as ws:
        receive(ws)
        ws.send_json({"type": "move", "version": 0, "move": {"type": "add", "n": 1}, "id": 7})
        reply = receive(ws)
        assert reply["type"] == "error" and reply["id"] == 7 and reply["status"] == 403
        assert reply["error"]["code"] == "not_seated"
        ws.send_text("not json")
        assert receive(ws)["error"]["code"] == "bad_json"
        ws.send_json({"type": "teleport"})
        assert receive(ws)["error"]["code"] == "unknown_type"
        ws.send_json([1, 2])
        assert receive(ws)["error"]["code"] == "bad_message"
        ws.send_json({"type": "move", "version": "0", "move": {}})
        assert receive(ws)["error"]["code"] == "bad_message"
        ws.send_json({"type": "ping"})
        assert receive(ws) == {"type": "pong"}


def test_deeply_nested_json_is_just_bad_json(alice_bob: Any) -> None:
    # Within the frame size limit, but deeper than the JSON parser recurses.
    alice, _ = alice_bob
    game = alice.new_game("tally")
    with alice.websocket(f"/ws/games/{game['id']}") as ws:
        receive(ws)
        ws.send_text("[" * 5_000 + "]" * 5_000)
        reply = receive(ws)
        assert reply["type"] == "error" and reply["error"]["code"] == "bad_json"
        assert reply["status"] == 400
        ws.send_json({"type": "ping"})
        assert receive(ws) == {"type": "pong"}  # still open


def test_a_client_leaving_mid_game_logs_nothing(
    alice_bob: Any, caplog: pytest.LogCaptureFixture
) -> None:
    alice, bob = alice_bob
    game = online_game(alice, bob)
    with caplog.at_level(logging.INFO):
        for _ in range(3):
            with alice.websocket(f"/ws/games/{game['id']}") as ws:
                receive(ws)
                ws.send_json({"type": "sync"})
    logged = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.getMessage() for r in logged if r.name.startswith(("app", "uvicorn"))] == []


def test_stale_move_over_websocket_is_409(alice_bob: Any) -> None:
    alice, bob = alice_bob
    game = online_game(alice, bob)
    first = alice if game["view"]["turn"] == 0 else bob
    first.move(game["id"], 0, {"type": "add", "n": 1})
    with first.websocket(f"/ws/games/{game['id']}") as ws:
        receive(ws)
        ws.send_json({"type": "move", "version": 0, "move": {"type": "add", "n": 1}, "id": "x"})
        reply = receive(ws)
        assert reply["status"] == 409 and reply["error"]["code"] == "stale_version"
        assert reply["current"]["version"] == 1


def test_oversized_frame_closes_the_socket(alice_bob: Any) -> None:
    alice, _ = alice_bob
    game = alice.new_game("tally")
    with alice.websocket(f"/ws/games/{game['id']}") as ws:
        receive(ws)
        ws.send_text(json.dumps({"type": "ping", "pad": "x" * 17_000}))
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
        assert closed.value.code == 1009


def test_a_socket_is_kept_by_its_pings_and_closed_when_silent(
    alice_bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("app.sockets.SILENT_S", 0.4)
    alice, _ = alice_bob
    game = alice.new_game("tally")
    with alice.websocket(f"/ws/games/{game['id']}") as ws:
        receive(ws)
        for _ in range(4):  # 0.8 s in all, each ping within the 0.4 s
            time.sleep(0.2)
            ws.send_text('{"type":"ping"}')  # the browser's bytes
            assert receive(ws) == {"type": "pong"}
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)  # nothing sent: closed once 0.4 s pass
        assert closed.value.code == 4408


def test_flood_is_rate_limited_then_closed(alice_bob: Any) -> None:
    alice, _ = alice_bob
    game = alice.new_game("tally")
    with alice.websocket(f"/ws/games/{game['id']}") as ws:
        receive(ws)
        codes = []
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(1000):
                ws.send_json({"type": "ping"})
            while True:
                codes.append(receive(ws).get("error", {}).get("code"))
        assert closed.value.code == 1008
        assert "rate_limited" in codes


class Ticks:
    """A monotonic clock the test moves by hand (seconds)."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def tight_budgets(client: Any, ticks: Ticks) -> None:
    """2 messages at once, 1 a second; a socket refused more than 6 times in 2 s is
    flooding."""
    client.app.state.message_budgets = MessageBudgets(1.0, 2, ticks)


def test_a_rate_limit_refusal_carries_the_message_id(alice_bob: Any, client: Any) -> None:
    alice, _ = alice_bob
    tight_budgets(client, Ticks())
    game = alice.new_game("tally")
    with alice.websocket(f"/ws/games/{game['id']}") as ws:
        receive(ws)
        for _ in range(2):
            ws.send_json({"type": "ping"})
            assert receive(ws) == {"type": "pong"}
        move = {"type": "add", "n": 1}
        ws.send_json({"type": "move", "version": 0, "move": move, "id": "m-3"})
        refused = receive(ws)
        assert (refused["type"], refused["id"], refused["status"]) == ("error", "m-3", 429)
        assert refused["error"]["code"] == "rate_limited"
        ws.send_json({"type": "sync", "id": 4})
        refused = receive(ws)
        assert (refused["type"], refused["id"], refused["error"]["code"]) == (
            "error",
            4,
            "rate_limited",
        )
        ws.send_text("not json")  # no id to give back
        assert receive(ws)["id"] is None


def test_a_socket_that_slowed_down_is_not_closed_later(alice_bob: Any, client: Any) -> None:
    alice, _ = alice_bob
    ticks = Ticks()
    tight_budgets(client, ticks)
    game = alice.new_game("tally")

    def burst_then_refusals(ws: Any) -> list[str]:
        answers = []
        for n in range(8):  # 2 within the burst, then 6 refused: not yet a flood
            ws.send_json({"type": "ping", "id": n})
            answers.append(receive(ws)["type"])
        return answers

    with alice.websocket(f"/ws/games/{game['id']}") as ws:
        receive(ws)
        for _ in range(3):  # the count starts again each window: never closed for it
            assert burst_then_refusals(ws) == ["pong"] * 2 + ["error"] * 6
            ticks.now += 10  # a pause: the budget refills and a new window begins
        assert burst_then_refusals(ws) == ["pong"] * 2 + ["error"] * 6
        ws.send_json({"type": "ping"})  # the 7th refusal within one window: a flood
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
        assert closed.value.code == 1008


def test_resume_sends_missed_moves(alice_bob: Any) -> None:
    alice, _ = alice_bob
    game = alice.new_game("tally", params={"limit": 30})
    for version in range(3):
        alice.move(game["id"], version, {"type": "add", "n": 1})
    with alice.websocket(f"/ws/games/{game['id']}?since=1") as ws:
        state = receive(ws)
        assert state["version"] == 3
        assert [m["ply"] for m in state["missed"]] == [2, 3]
        ws.send_json({"type": "sync", "version": 2})
        again = receive(ws)
        assert again["type"] == "state" and [m["ply"] for m in again["missed"]] == [3]


def test_unknown_game_socket_is_closed(client: Any) -> None:
    with pytest.raises(WebSocketDisconnect) as closed:
        with client.websocket_connect("/ws/games/nope") as ws:
            receive(ws)
    assert closed.value.code == 4404


def test_a_watcher_who_takes_the_seat_is_present_after_syncing(alice_bob: Any) -> None:
    alice, bob = alice_bob
    game = alice.new_game("tally", params={"opponent": "online", "limit": 30})
    with bob.websocket(f"/ws/games/{game['id']}") as b:
        assert receive(b)["seats"] == []
        assert bob.post(f"/api/games/{game['id']}/join").status_code == 200
        assert receive(b)["type"] == "joined"
        b.send_json({"type": "sync"})  # what a page does on "joined"
        assert receive(b)["seats"] == [1]
        b.send_json({"type": "ping"})  # answered once the sync is fully handled
        assert receive(b) == {"type": "pong"}
        presence = alice.get(f"/api/games/{game['id']}").json()["presence"]
        assert presence[1] == {"connected": True, "away_ms": 0}


def test_presence_follows_seated_sockets_and_guards_claims(alice_bob: Any, clock: Any) -> None:
    alice, bob = alice_bob
    game = online_game(alice, bob)
    with alice.websocket(f"/ws/games/{game['id']}") as a:
        assert receive(a)["presence"] == [
            {"connected": False, "away_ms": None},
            {"connected": False, "away_ms": None},
        ]
        with bob.websocket(f"/ws/games/{game['id']}") as b:
            receive(b)
            notices = [a.receive_json() for _ in range(2)]  # alice's own, then bob's
            assert notices[-1] == {
                "type": "presence",
                "presence": [{"connected": True, "away_ms": 0}, {"connected": True, "away_ms": 0}],
            }
            claim = alice.move(game["id"], 0, {"type": "claim"})
            assert claim.status_code == 409 and claim.json()["error"]["code"] == "opponent_present"
        gone = a.receive_json()
        assert gone["presence"][1] == {"connected": False, "away_ms": 0}
        clock.advance(30_000)
        early = alice.move(game["id"], 0, {"type": "claim"})
        assert early.json()["error"]["code"] == "opponent_present"
        clock.advance(30_000)
        # Away long enough: the presence check passes and the engine judges the move,
        # which needs the absent player to be the one to move.
        claimed = alice.move(game["id"], 0, {"type": "claim"}).json()
        if game["view"]["turn"] == 1:
            assert claimed["status"] == "over" and claimed["outcome"]["reason"] == "claimed"
            assert claimed["outcome"]["winner"] == 0
        else:
            assert claimed["error"]["code"] == "your_turn"


@pytest.mark.parametrize(
    ("raw", "kind", "message_id"),
    [
        ('{"type": "move", "version": 3, "move": {"n": 1}, "id": "a"}', "MoveMessage", "a"),
        ('{"type": "move", "version": true, "move": {}, "id": 9}', "bad_message", 9),
        ('{"type": "move", "version": 3, "move": [1]}', "bad_message", None),
        ('{"type": "sync", "version": "7", "extra": 1}', "SyncMessage", None),
        ('{"type": "ping", "id": [1]}', "PingMessage", None),  # an id that is no id
        ('{"type": "teleport", "id": 2}', "unknown_type", 2),
        ('{"id": 2}', "unknown_type", 2),
        ("[1, 2]", "bad_message", None),
        ("{nope", "bad_json", None),
    ],
)
def test_client_frames_are_validated_in_one_step(raw: str, kind: str, message_id: Any) -> None:
    parsed, given = parse(raw)
    assert (parsed.code if isinstance(parsed, AppError) else type(parsed).__name__) == kind
    assert given == message_id
