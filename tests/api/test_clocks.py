"""Time controls through the app: the game starts when the second player sits down, each
clock with its seat's first line; a seat that draws no first line in 20 s aborts the game
(the sweeper, with both sockets silent; unrated, counting for nothing) and a line after
that is refused; the flag lands with both sockets silent, a move after the flag is
refused, and a move racing the flag for one version: exactly one of them is written."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.errors import AppError
from app.moves import LogEntry, Step
from engines.triangles import ENGINE as TRIANGLES
from engines.triangles.clock import FIRST_LINE_MS, LAG_MS
from engines.triangles.moves import Line
from tests.api.test_online import next_line, receive
from tests.rating_rows import stored_ratings

MINUTE = 60_000
FIRST_LINE = FIRST_LINE_MS + LAG_MS  # from the start of a turn to the abort


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


def first_lines(alice: Any, bob: Any, gid: str) -> int:
    """Each seat draws its first line at once (the clocks start with them): the version."""
    version = 0
    for player in (alice, bob):
        drawn = player.move(gid, version, next_line(player, gid))
        assert drawn.status_code == 200, drawn.text
        version = drawn.json()["version"]
    return version


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


def test_no_clock_runs_before_its_seats_first_line(
    client: Any, players: Any, clock: Any
) -> None:
    alice, bob = players(client, "alice", "bob")
    gid = start(alice, bob)["id"]
    view = alice.get(f"/api/games/{gid}").json()["view"]["clock"]
    assert view["running"] is None and view["deadline_ms"] is None
    assert view["left_ms"] == [MINUTE, MINUTE]
    assert view["first_line_ms"] == 20_000 and view["first_line_deadline_ms"] == FIRST_LINE
    clock.advance(FIRST_LINE - 1)  # Alice thinks 20.299 s: her clock never moved
    sweep(client)
    loaded = alice.get(f"/api/games/{gid}").json()
    assert loaded["status"] == "active" and loaded["view"]["clock"]["left_ms"] == [MINUTE, MINUTE]
    moved = alice.move(gid, 0, next_line(alice, gid))
    assert moved.status_code == 200, moved.text
    view = moved.json()["view"]["clock"]  # the first line: nothing spent, no increment
    assert view["left_ms"] == [MINUTE, MINUTE] and view["running"] is None
    assert view["first_line_deadline_ms"] == 2 * FIRST_LINE - 1  # Bob's 20 s from now
    clock.advance(15_000)
    moved = bob.move(gid, 1, next_line(bob, gid))
    assert moved.status_code == 200, moved.text
    view = moved.json()["view"]["clock"]  # both have drawn: Alice's clock runs from now
    since = FIRST_LINE - 1 + 15_000
    assert view["left_ms"] == [MINUTE, MINUTE] and view["since_ms"] == since
    assert view["running"] == 0 and view["deadline_ms"] == since + MINUTE + LAG_MS
    assert view["first_line_deadline_ms"] is None
    row = client.portal.call(services(client).store.game, gid)
    assert row.deadline_ms == row.started_ms + view["deadline_ms"]


@pytest.mark.parametrize("first_mover", [True, False])
def test_no_first_line_in_time_aborts_the_game_unrated(
    client: Any, players: Any, clock: Any, first_mover: bool
) -> None:
    """A rated 1+1 game: the seat to move draws no first line for 20 s (Alice from the
    start, or Bob from Alice's first line). With both sockets silent the sweeper aborts
    it: no winner, no rating changed or even made, nothing counted in either player's
    statistics, "aborted" in their histories."""
    alice, bob = players(client, "alice", "bob")
    alice.ready_for_rated("Alice")
    bob.ready_for_rated("Bob")
    before = [player.get("/api/me/stats").json()["stats"] for player in (alice, bob)]
    clock.advance(10 * MINUTE)  # waiting for an opponent costs nobody any time
    params = {"opponent": "online", "stars": 24, "clock": "1+1", "rated": True}
    gid = alice.new_game("triangles", params=params)["id"]
    assert bob.post(f"/api/games/{gid}/join").json()["status"] == "active"
    since, moves = 0, []
    if not first_mover:
        since = 4_000
        clock.advance(since)
        line = next_line(alice, gid)
        assert alice.move(gid, 0, line).status_code == 200
        moves = [line]
    deadline = since + FIRST_LINE
    assert alice.get(f"/api/games/{gid}").json()["view"]["clock"]["first_line_deadline_ms"] == (
        deadline
    )
    with alice.websocket(f"/ws/games/{gid}") as a, bob.websocket(f"/ws/games/{gid}") as b:
        receive(a, "state"), receive(b, "state")
        clock.advance(FIRST_LINE - 1)
        sweep(client)
        assert alice.get(f"/api/games/{gid}").json()["status"] == "active"
        clock.advance(1)  # the deadline; nobody sends anything
        sweep(client)
        for ws in (a, b):
            message = receive(ws, "move")
            assert message["events"] == [
                {"type": "over", "reason": "aborted", "winner": None, "scores": [0, 0]}
            ]
            assert message["outcome"]["reason"] == "aborted"
            assert message["outcome"]["winner"] is None
            assert message["outcome"]["unrated"] == "aborted"
            assert message["outcome"]["ratings"] is None
            assert message["view"]["clock"]["left_ms"] == [MINUTE, MINUTE]
            assert message["view"]["clock"]["running"] is None
            assert message["view"]["clock"]["first_line_deadline_ms"] is None
    loaded = alice.get(f"/api/games/{gid}").json()
    assert loaded["status"] == "over" and loaded["outcome"]["time_ms"] == deadline
    log = alice.get(f"/api/games/{gid}/log").json()["moves"]
    assert [(entry["move"], entry["at_ms"]) for entry in log][len(moves) :] == [(None, deadline)]
    assert [entry["move"] for entry in log][: len(moves)] == moves
    assert stored_ratings(client.app.state.settings.database_url, "bullet") == {}
    for player, stats in zip((alice, bob), before, strict=True):
        assert player.get("/api/me/stats").json()["stats"] == stats  # counts for nothing
        (entry,) = player.get("/api/me/games?game=triangles&limit=1").json()["games"]
        assert entry["id"] == gid and entry["result"] == "aborted"
    assert sweep(client) == 0  # an ended game leaves the sweeper's index range


@pytest.mark.parametrize("first_mover", [True, False])
def test_a_line_after_the_first_line_deadline_is_refused(
    client: Any, players: Any, clock: Any, first_mover: bool
) -> None:
    """No sweeper has come by: the line itself finds the game aborted, writes the abort
    (a clock entry of its own) and is refused, 409 ``game_over``."""
    alice, bob = players(client, "alice", "bob")
    gid = start(alice, bob)["id"]
    services(client).flags.stop()  # the line must meet the deadline itself
    version, mover = 0, alice
    if not first_mover:
        assert alice.move(gid, 0, next_line(alice, gid)).status_code == 200
        version, mover = 1, bob
    line = next_line(mover, gid)
    clock.advance(FIRST_LINE)
    refused = mover.move(gid, version, line)
    assert refused.status_code == 409, refused.text
    assert refused.json()["error"]["code"] == "game_over"
    log = alice.get(f"/api/games/{gid}/log").json()["moves"]
    assert [(entry["seat"], entry["at_ms"]) for entry in log][version:] == [(None, FIRST_LINE)]
    loaded = alice.get(f"/api/games/{gid}").json()
    assert loaded["status"] == "over" and loaded["outcome"]["reason"] == "aborted"
    assert loaded["version"] == version + 1  # the abort; never the line


def test_flag_with_both_sockets_silent(client: Any, players: Any, clock: Any) -> None:
    alice, bob = players(client, "alice", "bob")
    clock.advance(10 * MINUTE)  # waiting for an opponent costs nobody any time
    game = start(alice, bob)
    gid = game["id"]
    assert game["view"]["clock"]["running"] is None  # until the first lines
    version = first_lines(alice, bob, gid)
    view = alice.get(f"/api/games/{gid}").json()["view"]["clock"]
    assert view["running"] == 0 and view["deadline_ms"] == MINUTE + LAG_MS
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
    assert [(entry["move"], entry["at_ms"]) for entry in log][version:] == [
        (None, MINUTE + LAG_MS)
    ]
    assert sweep(client) == 0  # an ended game leaves the sweeper's index range


def test_a_move_keeps_the_clock_and_moves_the_deadline(
    client: Any, players: Any, clock: Any
) -> None:
    alice, bob = players(client, "alice", "bob")
    gid = start(alice, bob, "3+2")["id"]
    version = first_lines(alice, bob, gid)
    clock.advance(10_000)
    moved = alice.move(gid, version, next_line(alice, gid))
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
    version = first_lines(alice, bob, gid)
    line = next_line(alice, gid)
    clock.advance(MINUTE + LAG_MS + 5)
    refused = alice.move(gid, version, line)
    assert refused.status_code == 409, refused.text
    assert refused.json()["error"]["code"] in ("game_over", "stale_version")
    log = alice.get(f"/api/games/{gid}/log").json()["moves"]
    assert [entry["move"] for entry in log][version:] == [None]  # the flag, once; never the line
    assert alice.get(f"/api/games/{gid}").json()["outcome"]["reason"] == "time"


@pytest.mark.parametrize("move_first", [True, False])
def test_flag_and_move_racing_for_one_version_exactly_one_wins(
    client: Any, players: Any, clock: Any, move_first: bool
) -> None:
    """The line was played 1 ms before the flag and a sweeper judged the flag: both were
    computed from version 0 and race for the write. One wins; the other gets 409."""
    alice, bob = players(client, "alice", "bob")
    gid = start(alice, bob)["id"]
    first = first_lines(alice, bob, gid)
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
    log = alice.get(f"/api/games/{gid}/log").json()["moves"][first:]
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
