"""Rated play cannot be farmed, and an absent correspondence player cannot be robbed:
each rule tried from outside, as the attack was, and the result read back from the
database by a second app (its memory holds nothing of these games)."""

from __future__ import annotations

from typing import Any

import pytest

from app.fair_play import PAIR_WINDOW_MS
from tests.api.test_ratings import both_draw, start
from tests.api.test_triangles_api import legal
from tests.rating_rows import stored_ratings

RATED = {"opponent": "online", "stars": 24, "clock": "3+2", "rated": True}


@pytest.fixture
def client(make_client: Any) -> Any:
    return make_client()


def code_of(response: Any) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def stored(make_client: Any, players: Any, gid: str) -> dict[str, Any]:
    """The game as a new app instance reads it from the database."""
    (reader,) = players(make_client(), "reader")
    body: dict[str, Any] = reader.get(f"/api/games/{gid}").json()
    return body


def counted(settings: Any, *players: Any) -> list[int]:
    """The players' counted blitz games, as their stored rating rows say."""
    rows = stored_ratings(settings.database_url, "blitz")
    return [rows[p.id]["games"] if p.id in rows else 0 for p in players]


def test_a_fresh_cookie_cannot_join_seek_or_create_rated_games(
    client: Any, players: Any
) -> None:
    """The farm: a rated game, a fresh cookie joins and resigns, again and again."""
    alice, fresh = players(client, "alice", "fresh")
    alice.ready_for_rated("Alice")
    gid = alice.new_game("triangles", params=RATED)["id"]
    assert code_of(fresh.post(f"/api/games/{gid}/join")) == (403, "rated_needs_name")
    assert code_of(fresh.post("/api/seeks", json={"clock": "3+2", "rated": True})) == (
        403,
        "rated_needs_name",
    )
    assert fresh.put("/api/me", json={"name": "Farm"}).status_code == 200
    refused = fresh.post("/api/games", json={"game": "triangles", "params": RATED})
    assert code_of(refused) == (403, "rated_needs_games")
    assert refused.json()["error"]["details"] == {"finished": 0, "needed": 5}
    # The game still waits for a real opponent; casual play is open to anyone.
    assert alice.get(f"/api/games/{gid}").json()["status"] == "waiting"
    casual = alice.new_game("triangles", params={**RATED, "rated": False})
    assert fresh.post(f"/api/games/{casual['id']}/join").status_code == 200


def test_a_rated_game_ended_before_both_drew_is_aborted_unrated(
    client: Any, players: Any, make_client: Any, settings: Any
) -> None:
    alice, bob = players(client, "alice", "bob")
    alice.ready_for_rated("Alice")
    bob.ready_for_rated("Bob")
    gid = start(alice, bob, RATED)["id"]
    a, b = legal(alice.get(f"/api/games/{gid}").json()["view"])[0]
    drawn = alice.move(gid, 0, {"type": "line", "a": a, "b": b})
    assert drawn.status_code == 200, drawn.text
    assert bob.move(gid, 1, {"type": "resign"}).status_code == 200  # Bob never drew
    outcome = stored(make_client, players, gid)["outcome"]
    assert outcome["reason"] == "resigned" and outcome["winner"] == 0
    assert outcome["unrated"] == "aborted" and outcome["ratings"] is None
    assert stored_ratings(settings.database_url, "blitz") == {}


def test_the_same_two_players_change_ratings_three_times_a_day(
    client: Any, players: Any, make_client: Any, clock: Any, settings: Any
) -> None:
    alice, bob = players(client, "alice", "bob")
    alice.ready_for_rated("Alice")
    bob.ready_for_rated("Bob")

    def rated_game() -> dict[str, Any]:
        gid = start(alice, bob, RATED)["id"]
        assert bob.move(gid, both_draw(alice, bob, gid), {"type": "resign"}).status_code == 200
        return stored(make_client, players, gid)["outcome"]

    for _ in range(3):
        assert rated_game()["ratings"] is not None
        clock.advance(60_000)
    fourth = rated_game()
    assert fourth["unrated"] == "pair_limit" and fourth["ratings"] is None
    assert counted(settings, alice, bob) == [3, 3]
    clock.advance(PAIR_WINDOW_MS - 3 * 60_000 + 1)  # the first of the three is a day old
    assert rated_game()["ratings"] is not None
    assert counted(settings, alice, bob) == [4, 4]


def test_nobody_claims_a_correspondence_game_only_the_clock_ends_it(
    client: Any, players: Any, make_client: Any, clock: Any
) -> None:
    """Bob closed his tab: a minute later (and an hour later) Alice's claim is refused;
    his day runs out and the flag ends it."""
    alice, bob = players(client, "alice", "bob")
    alice.ready_for_rated("Alice")
    bob.ready_for_rated("Bob")
    params = {**RATED, "clock": "1d"}
    gid = start(alice, bob, params)["id"]
    version = both_draw(alice, bob, gid)
    view = alice.get(f"/api/games/{gid}").json()["view"]
    assert view["claim_after_ms"] is None
    a, b = legal(view)[0]
    assert alice.move(gid, version, {"type": "line", "a": a, "b": b}).status_code == 200
    for wait_ms in (61_000, 3_600_000):
        clock.advance(wait_ms)
        assert code_of(alice.move(gid, version + 1, {"type": "claim"})) == (422, "no_claim")
    game = stored(make_client, players, gid)
    assert game["status"] == "active" and game["outcome"] is None
    clock.advance(86_400_000)
    swept = client.portal.call(client.app.state.services.flags.sweep)
    assert swept == 1
    outcome = stored(make_client, players, gid)["outcome"]
    assert outcome["reason"] == "time" and outcome["winner"] == 0
