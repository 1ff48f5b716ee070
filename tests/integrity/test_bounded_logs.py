"""A game's log stays bounded, and so does what a sync sends: pause and resume (moves that
change nothing on the board) are held to a few a minute per game, and a socket that
syncs from far behind gets its state in one frame of at most 256 KB."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

import app.ws
from app.config import Settings
from app.main import create_app


@pytest.fixture
def client(make_client: Any) -> Any:
    return make_client()


def pace(alice: Any, gid: str, version: int, count: int) -> int:
    """``count`` pause/resume moves in turn; the version after them."""
    for _ in range(count):
        kind = "pause" if version % 2 == 0 else "resume"
        moved = alice.move(gid, version, {"type": kind})
        assert moved.status_code == 200, moved.text
        version = moved.json()["version"]
    return version


def test_pause_and_resume_are_held_to_ten_a_minute_per_game(client: Any, players: Any) -> None:
    alice, bob = players(client, "alice", "bob")
    gid = alice.new_game("pairs")["id"]
    version = pace(alice, gid, 0, 10)
    refused = alice.move(gid, version, {"type": "pause"})
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "rate_limited"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert alice.get(f"/api/games/{gid}").json()["version"] == 10  # nothing written
    # The board's own moves are not held back, nor are other games' pauses.
    other = bob.new_game("pairs")["id"]
    assert pace(bob, other, 0, 2) == 2


@pytest.fixture
def unpaced(settings: Settings, clock: Any) -> Any:
    generous = settings.model_copy(update={"limit_paced_moves_per_game_min": 10_000})
    with TestClient(create_app(generous, clock=clock)) as test_client:
        yield test_client


def test_a_sync_from_far_behind_sends_the_state_alone_within_256_kb(
    unpaced: Any, players: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert app.ws.SYNC_FRAME_BYTES == 256 * 1024
    (alice,) = players(unpaced, "alice")
    gid = alice.new_game("pairs")["id"]
    version = pace(alice, gid, 0, 120)

    def first_frame(since: int) -> tuple[int, dict[str, Any]]:
        with alice.websocket(f"/ws/games/{gid}?since={since}") as ws:
            text = ws.receive_text()
        frame: dict[str, Any] = json.loads(text)
        assert frame["type"] == "state" and frame["version"] == version
        return len(text.encode()), frame

    size, frame = first_frame(110)  # a little behind: the moves it missed
    assert [m["ply"] for m in frame["missed"]] == list(range(111, 121))
    monkeypatch.setattr(app.ws, "MISSED_MOST", 100)
    size, frame = first_frame(0)  # more moves than a sync sends: the state alone
    assert frame["missed"] == [] and frame["view"]["paused"] is False
    monkeypatch.setattr(app.ws, "MISSED_MOST", 1000)
    monkeypatch.setattr(app.ws, "SYNC_FRAME_BYTES", size + 500)  # room for a few moves only
    size_now, frame = first_frame(0)
    assert frame["missed"] == [] and size_now == size
