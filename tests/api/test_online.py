"""Online Triangles through the real engine: two sockets play a match, a spectator
watches, seat thieves are refused, racing duplicates resolve to one move, and a
reconnecting client gets what it missed."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

from engines.core.replay import replay
from engines.triangles import ENGINE as TRIANGLES


@pytest.fixture
def client(make_client: Any) -> Any:
    return make_client()  # the real registry


def receive(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of ``kind``, skipping presence and other notices."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message
        assert message["type"] in ("presence", "joined", "move", "state", "result"), message


def next_line(player: Any, game_id: str) -> dict[str, Any]:
    """A legal line for the seat to move, chosen by the engine's own computer player."""
    log = player.get(f"/api/games/{game_id}/log").json()
    params = TRIANGLES.parse_params(log["params"])
    state = replay(TRIANGLES, params, log["seed"], log["moves"])
    return TRIANGLES.dump_move(TRIANGLES.computer_move(state))


def start_match(alice: Any, bob: Any) -> dict[str, Any]:
    game = alice.new_game("triangles", params={"opponent": "online", "stars": 24}, public=True)
    assert game["status"] == "waiting" and game["seats"] == [0]
    joined = bob.post(f"/api/games/{game['id']}/join").json()
    assert joined["seats"] == [1] and joined["status"] == "active"
    return game


def test_full_match_between_two_sockets_and_a_spectator(client: Any, players: Any) -> None:
    alice, bob, carol = players(client, "alice", "bob", "carol")
    game = start_match(alice, bob)
    gid = game["id"]
    with (
        alice.websocket(f"/ws/games/{gid}") as a,
        bob.websocket(f"/ws/games/{gid}") as b,
        carol.websocket(f"/ws/games/{gid}") as c,
    ):
        sockets = {0: a, 1: b}
        states = [receive(ws, "state") for ws in (a, b, c)]
        assert [s["seats"] for s in states] == [[0], [1], []]
        version, view = 0, states[0]["view"]
        seen_by_spectator = 0
        while not view["over"]:
            mover = view["turn"]
            line = next_line(alice, gid)
            sockets[mover].send_json(
                {"type": "move", "version": version, "move": line, "id": version}
            )
            answer = receive(sockets[mover], "result")
            assert answer["id"] == version and answer["from_version"] == version
            result = answer["result"]
            assert result["seat"] == mover and result["events"][0]["type"] == "line"
            other = receive(sockets[1 - mover], "move")
            assert other["from_version"] == version and other["version"] == result["version"]
            assert other["view"] == result["view"] and other["events"] == result["events"]
            view, version = other["view"], result["version"]
            spectated = receive(c, "move")
            assert spectated["view"] == view
            seen_by_spectator += 1
        assert sum(view["scores"]) == len(view["triangles"])
    final = alice.get(f"/api/games/{gid}").json()
    assert final["status"] == "over" and final["version"] == version == seen_by_spectator
    log = bob.get(f"/api/games/{gid}/log").json()
    assert [m["ply"] for m in log["moves"]] == list(range(1, version + 1))
    assert alice.get(f"/api/games/{gid}/log").json() == log
    rebuilt = replay(TRIANGLES, TRIANGLES.parse_params(log["params"]), log["seed"], log["moves"])
    assert json.loads(json.dumps(TRIANGLES.view(rebuilt, final["seat"]))) == final["view"]


def test_seat_theft_is_refused(client: Any, players: Any) -> None:
    alice, bob, carol = players(client, "alice", "bob", "carol")
    game = start_match(alice, bob)
    gid = game["id"]
    line = next_line(alice, gid)
    third = carol.move(gid, 0, line)
    assert third.status_code == 403 and third.json()["error"]["code"] == "not_seated"
    join = carol.post(f"/api/games/{gid}/join")
    assert join.status_code == 409 and join.json()["error"]["code"] == "no_free_seat"
    out_of_turn = bob.move(gid, 0, line)
    assert out_of_turn.status_code == 403 and out_of_turn.json()["error"]["code"] == "not_your_turn"
    client.cookies.clear()
    forged = client.post(
        f"/api/games/{gid}/moves",
        json={"version": 0, "move": line},
        headers={"cookie": f"player={alice.id}.AAAAAAAAAAAAAAAAAAAAAAAAAAA"},
    )
    assert forged.status_code == 403 and forged.json()["error"]["code"] == "not_seated"
    with carol.websocket(f"/ws/games/{gid}") as spectator:
        receive(spectator, "state")
        spectator.send_json({"type": "move", "version": 0, "move": line, "id": "steal"})
        refused = receive(spectator, "error")
        assert refused["status"] == 403 and refused["error"]["code"] == "not_seated"
    assert alice.get(f"/api/games/{gid}").json()["version"] == 0


def test_concurrent_duplicate_moves_one_wins_one_409(client: Any, players: Any) -> None:
    alice, bob = players(client, "alice", "bob")
    game = start_match(alice, bob)
    gid = game["id"]
    line = next_line(alice, gid)
    barrier = threading.Barrier(2)
    results: list[Any] = []

    def send() -> None:
        barrier.wait()
        results.append(alice.move(gid, 0, line))

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    statuses = sorted(r.status_code for r in results)
    assert statuses == [200, 409]
    loser = next(r for r in results if r.status_code == 409).json()
    assert loser["error"]["code"] == "stale_version" and loser["current"]["version"] == 1
    assert len(alice.get(f"/api/games/{gid}/log").json()["moves"]) == 1


def test_a_move_made_through_another_process_outdates_this_ones_memory(
    make_client: Any, players: Any
) -> None:
    """Each process keeps its live games' latest state; a move committed by another
    process (another app on the same database) must still win over that memory."""
    here, there = make_client(), make_client()
    alice, bob = players(here, "alice", "bob")
    _, bob_there = players(there, "alice", "bob")
    gid = start_match(alice, bob)["id"]
    assert alice.move(gid, 0, next_line(alice, gid)).status_code == 200  # here holds v1
    assert bob_there.move(gid, 1, next_line(alice, gid)).json()["version"] == 2

    stale = alice.move(gid, 1, next_line(alice, gid))
    assert stale.status_code == 409
    assert stale.json()["error"]["code"] == "stale_version"
    assert stale.json()["current"]["version"] == 2

    line = next_line(alice, gid)
    assert alice.move(gid, 2, line).json()["version"] == 3
    log = alice.get(f"/api/games/{gid}/log").json()
    assert [m["ply"] for m in log["moves"]] == [1, 2, 3] and log["moves"][2]["move"] == line


def test_reconnect_gets_the_missed_moves(client: Any, players: Any) -> None:
    alice, bob = players(client, "alice", "bob")
    game = start_match(alice, bob)
    gid = game["id"]
    with bob.websocket(f"/ws/games/{gid}") as b:
        receive(b, "state")
    # Bob is away while three lines are drawn.
    version = 0
    for _ in range(3):
        view = alice.get(f"/api/games/{gid}").json()["view"]
        mover = alice if view["turn"] == 0 else bob
        version = mover.move(gid, version, next_line(alice, gid)).json()["version"]
    with bob.websocket(f"/ws/games/{gid}?since=0") as b:
        state = receive(b, "state")
        assert state["version"] == version == 3
        assert [m["ply"] for m in state["missed"]] == [1, 2, 3]
        assert [m["move"]["type"] for m in state["missed"]] == ["line"] * 3
        assert len(state["view"]["lines"]) == 3


def test_resign_ends_the_match_for_both(client: Any, players: Any) -> None:
    alice, bob = players(client, "alice", "bob")
    game = start_match(alice, bob)
    gid = game["id"]
    view = game["view"]
    waiting = bob if view["turn"] == 0 else alice
    resigned = waiting.move(gid, 0, {"type": "resign"})
    assert resigned.status_code == 200, resigned.text
    body = resigned.json()
    assert body["status"] == "over"
    loser_seat = 1 if waiting is bob else 0
    assert body["outcome"]["reason"] == "resigned" and body["outcome"]["winner"] == 1 - loser_seat
