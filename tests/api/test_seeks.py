"""Quick pairing (the seek pool): waiting then paired, never with oneself, only with the
same time control and kind, cancel, expiry of an unpolled seek, the long-poll woken by
the pairing, owner-only seeks and the request's validation."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import pytest

from app.seeks import channel

SECOND = 1000


@pytest.fixture
def client(make_client: Any) -> Any:
    return make_client()  # the real registry


def seek(player: Any, clock: str = "3+2", rated: bool = False) -> dict[str, Any]:
    response = player.post("/api/seeks", json={"game": "triangles", "clock": clock, "rated": rated})
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def poll(player: Any, seek_id: str, wait: float = 0) -> Any:
    return player.get(f"/api/seeks/{seek_id}", params={"wait": wait})


def error_code(response: Any) -> str:
    return response.json()["error"]["code"]  # type: ignore[no-any-return]


def test_a_seek_waits_then_pairs_with_the_next(client: Any, players: Any) -> None:
    alice, bob = players(client, "alice", "bob")
    waiting = seek(alice)
    assert waiting["status"] == "waiting" and waiting["seek_id"] and waiting["expires_ms"]
    assert poll(alice, waiting["seek_id"]).json()["status"] == "waiting"

    paired = seek(bob)
    assert paired["status"] == "paired"
    game_id = paired["game_id"]
    assert poll(alice, waiting["seek_id"]).json() == {
        "status": "paired",
        "game_id": game_id,
        "seek_id": None,
        "game": "triangles",
        "clock": "3+2",
        "rated": False,
        "expires_ms": None,
    }

    game = alice.get(f"/api/games/{game_id}").json()
    assert game["status"] == "active"
    assert game["view"]["clock"]["control"] == "3+2"
    seats = {alice.id: alice.get(f"/api/games/{game_id}").json()["seats"]}
    seats[bob.id] = bob.get(f"/api/games/{game_id}").json()["seats"]
    assert sorted(seats[alice.id] + seats[bob.id]) == [0, 1]


def test_nobody_pairs_with_themselves(client: Any, players: Any) -> None:
    (alice,) = players(client, "alice")
    first = seek(alice)
    second = seek(alice)  # the same player again: one seek, the earlier one dropped
    assert second["status"] == "waiting"
    assert second["seek_id"] != first["seek_id"]
    assert poll(alice, first["seek_id"]).status_code == 404
    assert poll(alice, second["seek_id"]).json()["status"] == "waiting"


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (("3+2", False), ("5+3", False)),
        (("3+2", True), ("3+2", False)),
        (("1d", False), ("none", False)),
    ],
)
def test_incompatible_seeks_do_not_pair(
    client: Any, players: Any, first: tuple[str, bool], second: tuple[str, bool]
) -> None:
    alice, bob = players(client, "alice", "bob")
    if first[1] or second[1]:
        alice.ready_for_rated("Alice")
    assert seek(alice, *first)["status"] == "waiting"
    assert seek(bob, *second)["status"] == "waiting"


def test_rated_seeks_pair_into_a_rated_game(client: Any, players: Any) -> None:
    alice, bob = players(client, "alice", "bob")
    alice.ready_for_rated("Alice")
    bob.ready_for_rated("Bob")
    seek(alice, "1+1", rated=True)
    game_id = seek(bob, "1+1", rated=True)["game_id"]
    game = bob.get(f"/api/games/{game_id}").json()
    assert all(p["rating"] == 1500 for p in game["players"])


def test_cancel_leaves_the_pool(client: Any, players: Any) -> None:
    alice, bob = players(client, "alice", "bob")
    waiting = seek(alice)
    assert alice.request("DELETE", f"/api/seeks/{waiting['seek_id']}").status_code == 204
    assert poll(alice, waiting["seek_id"]).status_code == 404
    assert seek(bob)["status"] == "waiting"  # nobody left to pair with
    again = alice.request("DELETE", f"/api/seeks/{waiting['seek_id']}")
    assert again.status_code == 404 and error_code(again) == "seek_not_found"


def test_cancel_after_pairing_names_the_game(client: Any, players: Any) -> None:
    alice, bob = players(client, "alice", "bob")
    waiting = seek(alice)
    game_id = seek(bob)["game_id"]
    refused = alice.request("DELETE", f"/api/seeks/{waiting['seek_id']}")
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "seek_paired"
    assert refused.json()["error"]["details"] == {"game_id": game_id}


def test_an_unpolled_seek_expires(client: Any, players: Any, clock: Any) -> None:
    alice, bob, carol = players(client, "alice", "bob", "carol")
    gone = seek(alice)
    kept = seek(bob, "5+3")
    clock.advance(10 * SECOND)
    assert poll(bob, kept["seek_id"]).json()["status"] == "waiting"  # a heartbeat
    clock.advance(10 * SECOND)  # alice's page is closed: 20 s without a poll
    assert seek(carol)["status"] == "waiting"  # alice's seek left the pool
    assert poll(alice, gone["seek_id"]).status_code == 404
    assert seek(carol, "5+3")["status"] == "paired"  # bob's stayed


def test_the_owner_alone_sees_a_seek(client: Any, players: Any) -> None:
    alice, bob = players(client, "alice", "bob")
    waiting = seek(alice)
    for response in (
        poll(bob, waiting["seek_id"]),
        bob.request("DELETE", f"/api/seeks/{waiting['seek_id']}"),
        poll(alice, "nosuchseek"),
        poll(alice, "bad%00id"),
    ):
        assert response.status_code == 404 and error_code(response) == "seek_not_found"
    assert poll(alice, waiting["seek_id"]).json()["status"] == "waiting"


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({}, 422, "invalid_request"),
        ({"clock": "3+2"}, 422, "invalid_request"),  # which game?
        ({"game": "triangles", "clock": 3}, 422, "invalid_request"),
        ({"game": "triangles", "clock": "3+2", "rated": "yes"}, 422, "invalid_request"),
        ({"game": "triangles", "clock": "3+2", "extra": 1}, 422, "invalid_request"),
        ({"game": "triangles", "clock": "7+7"}, 400, "bad_clock"),
        ({"game": "triangles", "clock": "none", "rated": True}, 400, "bad_rated"),
        ({"game": "chess", "clock": "3+2"}, 404, "unknown_game"),
        ({"game": "pairs", "clock": "3+2"}, 404, "no_online"),
    ],
)
def test_bad_seeks_are_refused(
    client: Any, players: Any, body: dict[str, Any], status: int, code: str
) -> None:
    (alice,) = players(client, "alice")
    response = alice.post("/api/seeks", json=body)
    assert response.status_code == status and error_code(response) == code


def test_bad_waits_are_refused(client: Any, players: Any) -> None:
    (alice,) = players(client, "alice")
    waiting = seek(alice)
    for wait in (-1, 26, "soon"):
        response = poll(alice, waiting["seek_id"], wait)  # type: ignore[arg-type]
        assert response.status_code == 422 and error_code(response) == "invalid_request"


def wait_until(condition: Any, timeout: float = 10.0) -> None:
    until = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < until, "timed out"
        time.sleep(0.005)


def hub_up(client: Any) -> None:
    """Wait for the app's hub (Redis, when set): a poll that finds it not yet connected
    after its start-up wait goes on without it, and with the re-read pushed out of the
    way (as these tests do) would not hear of its pairing in time."""
    wait_until(lambda: client.app.state.services.hub.connected)


def parked(client: Any, seek_id: str) -> bool:
    """The seek's poll has written the seek's new expiry and watches its channel. Until
    then its row may be locked by that write, and a pairing passes a locked seek over
    (SKIP LOCKED): the other player's seek would wait, and the poll's first re-read would
    pair them instead of the post."""
    return channel(seek_id) in client.app.state.services.seeks.hub.subscribers.queues


def test_the_long_poll_wakes_on_pairing(make_client: Any, settings: Any, players: Any) -> None:
    # The periodic re-read is pushed out of the way: only the hub can wake the poll.
    settings.seek_recheck_ms = 60_000
    client = make_client()
    hub_up(client)
    alice, bob = players(client, "alice", "bob")
    waiting = seek(alice)
    answers: list[Any] = []
    thread = threading.Thread(
        target=lambda: answers.append(poll(alice, waiting["seek_id"], wait=20))
    )
    thread.start()
    wait_until(lambda: parked(client, waiting["seek_id"]))
    started = time.monotonic()
    game_id = seek(bob)["game_id"]
    thread.join(timeout=15)
    assert answers and answers[0].json()["game_id"] == game_id
    assert time.monotonic() - started < 5  # woken, not timed out (20 s)


def test_a_second_poll_replaces_the_first(make_client: Any, settings: Any, players: Any) -> None:
    settings.seek_recheck_ms = 60_000
    client = make_client()
    hub_up(client)
    (alice,) = players(client, "alice")
    waiting = seek(alice)
    answers: list[Any] = []
    first = threading.Thread(target=lambda: answers.append(poll(alice, waiting["seek_id"], 20)))
    second = threading.Thread(target=lambda: answers.append(poll(alice, waiting["seek_id"], 25)))
    first.start()
    try:
        seeks = client.app.state.services.seeks
        # Parked: its own expiry written, so that it cannot land after the newer poll's
        # (CI saw the first poll's write, on its way when the second took over, win).
        wait_until(lambda: parked(client, waiting["seek_id"]))
        held = seeks.polls[waiting["seek_id"]]
        second.start()
        first.join(timeout=10)
        assert not first.is_alive() and held.replaced
        assert [a.json()["status"] for a in answers] == ["waiting"]
        # The replaced poll did not cut short the expiry the newer one set for its own
        # wait (the newer one writes it right after taking over: it may be on its way).
        expected = seeks.clock.now_ms() + 25 * SECOND + 15 * SECOND
        wait_until(
            lambda: client.portal.call(seeks.store.seek, waiting["seek_id"]).expires_ms
            == expected
        )
        # Cancelling the seek ends the open poll at once.
        assert alice.request("DELETE", f"/api/seeks/{waiting['seek_id']}").status_code == 204
        second.join(timeout=10)
        assert not second.is_alive() and len(answers) == 2
    finally:  # no poll may outlive the test: the client's teardown would wait for it
        alice.request("DELETE", f"/api/seeks/{waiting['seek_id']}")
        for thread in (first, second):
            if thread.is_alive():
                thread.join(timeout=30)


def test_polls_per_player_are_capped(make_client: Any, settings: Any, players: Any) -> None:
    settings.seek_recheck_ms = 60_000
    settings.limit_seek_polls_per_player = 1
    client = make_client()
    hub_up(client)
    alice, bob = players(client, "alice", "bob")
    first = seek(alice)
    answers: list[Any] = []
    thread = threading.Thread(target=lambda: answers.append(poll(alice, first["seek_id"], 20)))
    thread.start()
    seeks = client.app.state.services.seeks
    wait_until(lambda: parked(client, first["seek_id"]))
    # Another of alice's polls while the first one is held: refused at once.
    capped = poll(alice, first["seek_id"], 5)
    assert capped.status_code == 429 and error_code(capped) == "rate_limited"
    assert not seeks.polls[first["seek_id"]].replaced
    game_id = seek(bob)["game_id"]
    thread.join(timeout=15)
    assert answers[0].json()["game_id"] == game_id


class NoHub:
    """A hub whose Redis is lost: nothing can be watched (publishing goes nowhere)."""

    def __init__(self) -> None:
        self.asked: list[str] = []  # the channels polls tried to watch

    async def publish(self, channel: str, message: Any) -> None:
        return None

    def watch(self, channel: str) -> Any:
        from app.hub import HubUnavailable

        self.asked.append(channel)
        raise HubUnavailable("redis is unreachable")


def test_without_the_hub_the_poll_finds_the_pairing_by_re_reading(
    make_client: Any, settings: Any, players: Any
) -> None:
    settings.seek_recheck_ms = 50
    client = make_client()
    alice, bob = players(client, "alice", "bob")
    seeks = client.app.state.services.seeks
    seeks.hub = NoHub()
    waiting = seek(alice)
    answers: list[Any] = []
    thread = threading.Thread(target=lambda: answers.append(poll(alice, waiting["seek_id"], 20)))
    thread.start()
    wait_until(lambda: channel(waiting["seek_id"]) in seeks.hub.asked)  # past its expiry write
    started = time.monotonic()
    game_id = seek(bob)["game_id"]
    thread.join(timeout=15)
    assert answers and answers[0].json()["game_id"] == game_id
    assert time.monotonic() - started < 5


def test_a_lost_database_is_an_outage_not_a_failure(client: Any, players: Any) -> None:
    from sqlalchemy.exc import OperationalError

    (alice,) = players(client, "alice")
    waiting = seek(alice)
    store = client.app.state.services.store

    async def lost(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("SELECT", {}, ConnectionRefusedError("database is gone"))

    calls = {
        "seek": lambda: poll(alice, waiting["seek_id"]),
        "post_seek": lambda: alice.post("/api/seeks", json={"game": "triangles", "clock": "3+2"}),
    }
    for name, call in calls.items():
        original = getattr(store, name)
        setattr(store, name, lost)
        try:
            response = call()
        finally:
            setattr(store, name, original)
        assert response.status_code == 503 and error_code(response) == "database_unavailable"
    assert poll(alice, waiting["seek_id"]).json()["status"] == "waiting"


def test_each_process_logs_its_own_outage(
    make_client: Any, players: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """An outage is logged once per process, however many requests meet it: a second
    process (here a second app) logs its own, not silenced by the first one's."""
    from sqlalchemy.exc import OperationalError

    async def lost(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("INSERT", {}, ConnectionRefusedError("database is gone"))

    with caplog.at_level(logging.ERROR, logger="app.db"):
        for _ in range(2):
            client = make_client()
            (alice,) = players(client, "alice")
            client.app.state.services.store.post_seek = lost
            for _ in range(2):
                response = alice.post("/api/seeks", json={"game": "triangles", "clock": "3+2"})
                assert (response.status_code, error_code(response)) == (503, "database_unavailable")
    logged = [r for r in caplog.records if r.getMessage().startswith("database unavailable")]
    assert len(logged) == 2
