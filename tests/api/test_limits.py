"""Limits per client: games created, games waiting, sockets open. Each fails on a server
without them (one cookie once made 3,000 games in 33 s and held 1,041 sockets)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.config import Settings
from app.main import create_app
from engines.reference.tally import ENGINE as TALLY
from tests.conftest import FakeClock


@pytest.fixture
def limited(settings: Settings, clock: FakeClock) -> Iterator[TestClient]:
    tight = settings.model_copy(
        update={
            "limit_creates_per_player_min": 5,
            "limit_creates_per_ip_min": 8,
            "limit_sockets_per_player": 3,
            "limit_sockets_per_ip": 5,
        }
    )
    with TestClient(create_app(tight, engines={"tally": TALLY}, clock=clock)) as client:
        yield client


def error(response: Any) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def test_games_created_per_player_and_per_address(limited: TestClient, players: Any) -> None:
    alice, bob, carol = players(limited, "alice", "bob", "carol")
    for _ in range(5):
        alice.new_game("tally")
    refused = alice.post("/api/games", json={"game": "tally"})
    assert error(refused) == (429, "rate_limited")
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    assert "content-security-policy" in refused.headers
    for _ in range(3):  # the address allows 8 a minute in all: 5 + 3
        bob.new_game("tally")
    assert error(carol.post("/api/games", json={"game": "tally"})) == (429, "rate_limited")


def test_the_windows_are_the_servers_minutes(
    limited: TestClient, players: Any, clock: FakeClock
) -> None:
    """The server's clock, not the machine's, says when a minute ends: a burst in one of
    its minutes is counted whole however long it takes, and the next minute is new."""
    (alice,) = players(limited, "alice")
    for _ in range(5):
        alice.new_game("tally")
    refused = alice.post("/api/games", json={"game": "tally"})
    # the test clock stands 40 s into a minute (START_MS)
    assert (error(refused), refused.headers["retry-after"]) == ((429, "rate_limited"), "20")
    clock.advance(19_000)
    assert alice.post("/api/games", json={"game": "tally"}).headers["retry-after"] == "1"
    clock.advance(1_000)
    assert alice.post("/api/games", json={"game": "tally"}).status_code == 201


def test_behind_a_trusted_proxy_each_player_has_their_own_address(
    settings: Settings, clock: FakeClock, players: Any
) -> None:
    tight = settings.model_copy(update={"limit_creates_per_ip_min": 2})
    app = create_app(tight, engines={"tally": TALLY}, clock=clock)
    with TestClient(app, client=("127.0.0.1", 40000)) as proxied:  # nginx on loopback
        alice, bob = players(proxied, "alice", "bob")
        for player, address in ((alice, "203.0.113.7"), (bob, "198.51.100.9")):
            for _ in range(2):
                created = player.post(
                    "/api/games", json={"game": "tally"}, headers={"x-forwarded-for": address}
                )
                assert created.status_code == 201
        third = bob.post(
            "/api/games", json={"game": "tally"}, headers={"x-forwarded-for": "198.51.100.9"}
        )
        assert error(third) == (429, "rate_limited")


def test_at_most_three_waiting_games_and_they_expire(
    alice_bob: Any, clock: FakeClock
) -> None:
    alice, bob = alice_bob
    waiting = [
        alice.new_game("tally", params={"opponent": "online"}, public=True) for _ in range(3)
    ]
    fourth = alice.post("/api/games", json={"game": "tally", "params": {"opponent": "online"}})
    assert error(fourth) == (409, "too_many_waiting")
    assert alice.new_game("tally")["status"] == "active"  # other games are not limited
    assert len(bob.get("/api/open").json()["games"]) == 3
    clock.advance(30 * 60 * 1000 + 1)
    assert bob.get("/api/open").json()["games"] == []
    expired = bob.post(f"/api/games/{waiting[0]['id']}/join")
    assert error(expired) == (409, "no_free_seat")
    alice.new_game("tally", params={"opponent": "online"})  # expired ones no longer count


def test_sockets_per_player_and_per_address(limited: TestClient, players: Any) -> None:
    alice, bob = players(limited, "alice", "bob")
    game = alice.new_game("tally")
    url = f"/ws/games/{game['id']}"
    with alice.websocket(url) as a1, alice.websocket(url) as a2, alice.websocket(url) as a3:
        for socket in (a1, a2, a3):
            assert socket.receive_json()["type"] == "state"
        with alice.websocket(url) as a4, pytest.raises(WebSocketDisconnect) as closed:
            a4.receive_json()
        assert closed.value.code == 1008
        with bob.websocket(url) as b1, bob.websocket(url) as b2:  # the address: 5 in all
            assert b1.receive_json()["type"] == b2.receive_json()["type"] == "state"
            with bob.websocket(url) as b3, pytest.raises(WebSocketDisconnect) as closed:
                b3.receive_json()
            assert closed.value.code == 1008
    with alice.websocket(url) as again:  # closing a socket gives its slot back
        assert again.receive_json()["type"] == "state"


def test_one_message_budget_per_player_across_sockets(
    limited: TestClient, players: Any, settings: Settings
) -> None:
    (alice,) = players(limited, "alice")
    game = alice.new_game("tally")
    url = f"/ws/games/{game['id']}"
    with alice.websocket(url) as a1, alice.websocket(url) as a2:
        a1.receive_json()
        a2.receive_json()
        answers = []
        # Alternating, each socket alone stays within its own burst (35 of 40 each): only
        # a budget shared by the player runs out.
        for i in range(2 * settings.ws_burst - 10):
            socket = a1 if i % 2 else a2
            socket.send_json({"type": "ping"})
            answers.append(socket.receive_json())
        refused = [a for a in answers if a["type"] == "error"]
        assert len(refused) >= 10 and refused[0]["error"]["code"] == "rate_limited"
