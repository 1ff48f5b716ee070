"""Time controls through the app: the clock starts when the second player sits down, the
flag lands with both sockets silent (the sweeper), a move after the flag is refused, and
a move racing the flag for one version: exactly one of them is written."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.errors import AppError
from app.moves import LogEntry, Step
from engines.triangles import ENGINE as TRIANGLES
from engines.triangles.clock import LAG_MS
from engines.triangles.moves import Line
from tests.api.test_online import next_line, receive

MINUTE = 60_000


@pytest.fixture
def client(make_client: Any) -> Any:
    return make_client()  # the real registry


def start(alice: Any, bob: Any, clock_name: str = "1+1") -> dict[str, Any]:
    params = {"opponent": "online", "stars": 24, "clock": clock_name}
    game = alice.new_game("triangles", params=params)
    assert game["status"] == "waiting" and game["view"]["clock"]["control"] == clock_name
    joined = bob.post(f"/api/games/{game['id']}/join").json()
    assert joined["status"] == "active"
    return joined  # type: ignore[no-any-return]


def services(client: Any) -> Any:
    return client.app.state.services


def sweep(client: Any) -> int:
    return client.portal.call(services(client).flags.sweep)  # type: ignore[no-any-return]


def test_the_catalog_offers_the_time_controls(client: Any) -> None:
    entry = next(g for g in client.get("/api/catalog").json()["games"] if g["name"] == "triangles")
    assert entry["params"]["clock"]["choices"] == ["none", "1+1", "3+2", "5+3", "10+5", "1d", "3d"]
    assert entry["clocks"]["3+2"]["increment_ms"] == 2_000


def test_a_bad_clock_is_refused(client: Any, players: Any) -> None:
    (alice,) = players(client, "alice")
    response = alice.post(
        "/api/games", json={"game": "triangles", "params": {"opponent": "online", "clock": "2h"}}
    )
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_clock"


def test_flag_with_both_sockets_silent(client: Any, players: Any, clock: Any) -> None:
    alice, bob = players(client, "alice", "bob")
    clock.advance(10 * MINUTE)  # waiting for an opponent costs nobody any time
    game = start(alice, bob)
    gid = game["id"]
    assert game["view"]["clock"]["running"] == 0
    assert game["view"]["clock"]["deadline_ms"] == MINUTE + LAG_MS
    with alice.websocket(f"/ws/games/{gid}") as a, bob.websocket(f"/ws/games/{gid}") as b:
        receive(a, "state"), receive(b, "state")
        clock.advance(MINUTE + LAG_MS - 1)
        sweep(client)
        assert alice.get(f"/api/games/{gid}").json()["status"] == "active"
        clock.advance(1)  # the clock of seat 0 reaches zero; nobody sends anything
        sweep(client)
        for ws in (a, b):
            message = receive(ws, "move")
            assert message["outcome"]["reason"] == "time"
            assert message["outcome"]["winner"] == 1
            assert message["view"]["clock"]["left_ms"] == [0, MINUTE]
            assert message["view"]["clock"]["running"] is None
    loaded = alice.get(f"/api/games/{gid}").json()
    assert loaded["status"] == "over" and loaded["outcome"]["time_ms"] == MINUTE + LAG_MS
    log = alice.get(f"/api/games/{gid}/log").json()["moves"]
    assert [(entry["move"], entry["at_ms"]) for entry in log] == [(None, MINUTE + LAG_MS)]
    assert sweep(client) == 0  # an ended game leaves the sweeper's index range


def test_a_move_keeps_the_clock_and_moves_the_deadline(
    client: Any, players: Any, clock: Any
) -> None:
    alice, bob = players(client, "alice", "bob")
    gid = start(alice, bob, "3+2")["id"]
    clock.advance(10_000)
    moved = alice.move(gid, 0, next_line(alice, gid))
    assert moved.status_code == 200, moved.text
    view = moved.json()["view"]["clock"]
    assert view["left_ms"] == [180_000 - 10_000 + LAG_MS + 2_000, 180_000]
    assert view["running"] == 1 and view["deadline_ms"] == 10_000 + 180_000 + LAG_MS
    row = client.portal.call(services(client).store.game, gid)
    assert row.deadline_ms == row.started_ms + view["deadline_ms"]
    clock.advance(180_000 + LAG_MS - 1)
    assert sweep(client) == 0  # seat 0's old deadline has passed; nothing is due


def test_a_move_after_the_flag_is_refused_and_the_flag_written(
    client: Any, players: Any, clock: Any
) -> None:
    alice, bob = players(client, "alice", "bob")
    gid = start(alice, bob)["id"]
    line = next_line(alice, gid)
    clock.advance(MINUTE + LAG_MS + 5)
    refused = alice.move(gid, 0, line)
    assert refused.status_code == 409, refused.text
    assert refused.json()["error"]["code"] in ("game_over", "stale_version")
    log = alice.get(f"/api/games/{gid}/log").json()["moves"]
    assert [entry["move"] for entry in log] == [None]  # the flag, once; never the line
    assert alice.get(f"/api/games/{gid}").json()["outcome"]["reason"] == "time"


@pytest.mark.parametrize("move_first", [True, False])
def test_flag_and_move_racing_for_one_version_exactly_one_wins(
    client: Any, players: Any, clock: Any, move_first: bool
) -> None:
    """The line was played 1 ms before the flag and a sweeper judged the flag: both were
    computed from version 0 and race for the write. One wins; the other gets 409."""
    alice, bob = players(client, "alice", "bob")
    gid = start(alice, bob)["id"]
    line = next_line(alice, gid)
    deadline = MINUTE + LAG_MS
    clock.advance(deadline)
    moves = services(client).moves

    async def race() -> list[Any]:
        game = await services(client).store.game(gid)
        state = TRIANGLES.load_state(game.state)
        moved, move_events = TRIANGLES.apply(state, Line(line["a"], line["b"]), deadline - 1, 0)
        flagged, flag_events = TRIANGLES.tick(state, deadline)
        assert flagged.result == "time"
        steps = [
            Step(moved, [LogEntry(0, line, deadline - 1)], move_events),
            Step(flagged, [LogEntry(None, None, deadline)], flag_events),
        ]
        if not move_first:
            steps.reverse()
        return await asyncio.gather(
            *(moves.commit(game, TRIANGLES, step) for step in steps), return_exceptions=True
        )

    results = client.portal.call(race)
    lost = [r for r in results if isinstance(r, AppError)]
    assert len(lost) == 1 and lost[0].code == "stale_version"
    log = alice.get(f"/api/games/{gid}/log").json()["moves"]
    assert len(log) == 1
    loaded = alice.get(f"/api/games/{gid}").json()
    if log[0]["move"] is None:
        assert loaded["outcome"]["reason"] == "time"
    else:  # the line won: seat 1's clock runs now, and nothing is due
        assert loaded["status"] == "active" and loaded["view"]["clock"]["running"] == 1
        assert sweep(client) == 0


def test_days_per_move_flag(client: Any, players: Any, clock: Any) -> None:
    alice, bob = players(client, "alice", "bob")
    gid = start(alice, bob, "1d")["id"]
    clock.advance(23 * 3_600_000)
    assert alice.move(gid, 0, next_line(alice, gid)).status_code == 200
    clock.advance(24 * 3_600_000 + LAG_MS)
    sweep(client)
    outcome = alice.get(f"/api/games/{gid}/log").json()["moves"][-1]
    assert outcome["move"] is None
    assert bob.get(f"/api/games/{gid}").json()["outcome"]["winner"] == 0
