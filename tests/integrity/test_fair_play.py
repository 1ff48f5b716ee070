"""Rated play cannot be farmed, and an absent correspondence player cannot be robbed:
each rule tried from outside, as the attack was, and the result read back from the
database by a second app (its memory holds nothing of these games)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.fair_play import (
    BOARD_MAX_RD,
    BOARD_MIN_GAMES,
    BOARD_MIN_OPPONENTS,
    BOARD_RECENT_MS,
    MIN_FINISHED,
    MIN_OWN_MOVES,
    PAIR_WINDOW_MS,
    PLACEMENT_GAMES,
)
from app.main import create_app
from engines.core import glicko2
from tests.api.test_ratings import both_draw, start
from tests.api.test_triangles_api import legal
from tests.qualify import next_line, qualify
from tests.rating_rows import set_rating, stored_game, stored_ratings

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


def test_a_fresh_cookie_cannot_join_seek_or_create_rated_games(client: Any, players: Any) -> None:
    """The farm: a rated game, a fresh cookie joins and resigns, again and again."""
    alice, fresh = players(client, "alice", "fresh")
    alice.ready_for_rated("Alice")
    gid = alice.new_game("triangles", params=RATED)["id"]
    assert code_of(fresh.post(f"/api/games/{gid}/join")) == (403, "rated_needs_name")
    seek = {"game": "triangles", "clock": "3+2", "rated": True}
    assert code_of(fresh.post("/api/seeks", json=seek)) == (
        403,
        "rated_needs_name",
    )
    assert fresh.put("/api/me", json={"name": "Farm"}).status_code == 200
    refused = fresh.post("/api/games", json={"game": "triangles", "params": RATED})
    assert code_of(refused) == (403, "rated_needs_games")
    assert refused.json()["error"]["details"] == {"finished": 0, "needed": 5, "moves": 5}
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


def test_rated_play_is_earned_by_games_played_not_resigned(client: Any, players: Any) -> None:
    """The cheap ticket of old: hot-seat games and games resigned early no longer open
    rated play; five games of five own moves against the computer do."""
    (puppet,) = players(client, "puppet")
    assert puppet.put("/api/me", json={"name": "Puppet"}).status_code == 200
    post, get = puppet._ok_post, puppet._ok_get
    for _ in range(MIN_FINISHED):  # hot-seat: both seats on one device, however long
        game = puppet.new_game("triangles", params={"opponent": "human", "stars": 24})
        version = game["version"]
        for _ in range(2 * MIN_OWN_MOVES):
            move = {"version": version, "move": next_line(get, game["id"])}
            version = post(f"/api/games/{game['id']}/moves", move)["version"]
        post(f"/api/games/{game['id']}/moves", {"version": version, "move": {"type": "resign"}})
    for _ in range(MIN_FINISHED):  # against the computer, one own move short
        game = puppet.new_game("triangles", params={"opponent": "easy", "stars": 24})
        version = game["version"]
        for _ in range(MIN_OWN_MOVES - 1):
            move = {"version": version, "move": next_line(get, game["id"])}
            version = post(f"/api/games/{game['id']}/moves", move)["version"]
        post(f"/api/games/{game['id']}/moves", {"version": version, "move": {"type": "resign"}})
    refused = puppet.post("/api/games", json={"game": "triangles", "params": RATED})
    assert code_of(refused) == (403, "rated_needs_games")
    assert refused.json()["error"]["details"] == {
        "finished": 0,
        "needed": MIN_FINISHED,
        "moves": MIN_OWN_MOVES,
    }
    qualify(post, get, games=MIN_FINISHED - 1)
    refused = puppet.post("/api/games", json={"game": "triangles", "params": RATED})
    assert refused.json()["error"]["details"] == {
        "finished": 4,
        "needed": MIN_FINISHED,
        "moves": MIN_OWN_MOVES,
    }
    qualify(post, get, games=1)
    assert puppet.post("/api/games", json={"game": "triangles", "params": RATED}).status_code == 201


def rated_win(winner: Any, loser: Any) -> dict[str, Any]:
    """A rated blitz game the loser creates, both draw a line, the loser resigns: its
    stored outcome."""
    gid = start(loser, winner, RATED)["id"]
    assert loser.move(gid, both_draw(loser, winner, gid), {"type": "resign"}).status_code == 200
    return stored_game(loser.client.app.state.settings.database_url, gid)


def test_a_newcomers_games_move_only_their_own_rating(
    client: Any, players: Any, settings: Any
) -> None:
    alice, bob = players(client, "alice", "bob")
    alice.ready_for_rated("Alice")
    bob.ready_for_rated("Bob")
    first = rated_win(bob, alice)  # two newcomers: counted, nobody moves
    assert first["rated_ms"] is not None and "unrated" not in first["outcome"]
    assert [(s["before"], s["after"]) for s in first["outcome"]["ratings"]["seats"]] == [
        (1500, 1500),
        (1500, 1500),
    ]
    rows = stored_ratings(settings.database_url, "blitz")
    assert [(rows[p.id]["rating"], rows[p.id]["games"]) for p in (alice, bob)] == [
        (1500, 1),
        (1500, 1),
    ]
    set_rating(settings.database_url, alice.id, "blitz", games=PLACEMENT_GAMES, opponents=1)
    rated_win(bob, alice)  # Bob (a newcomer) beats placed Alice: only Bob moves
    rows = stored_ratings(settings.database_url, "blitz")
    won = glicko2.update(glicko2.Rating(), [glicko2.Result(glicko2.Rating(), 1)])
    assert (rows[alice.id]["rating"], rows[alice.id]["rd"]) == (1500, 350)
    assert (rows[bob.id]["rating"], rows[bob.id]["rd"]) == (won.rating, won.rd)
    assert [rows[p.id]["games"] for p in (alice, bob)] == [PLACEMENT_GAMES + 1, 2]
    assert [rows[p.id]["opponents"] for p in (alice, bob)] == [1, 1]  # met before: still one


def test_players_at_one_address_count_three_games_a_day_together(
    client: Any, make_client: Any, players: Any, settings: Any, clock: Any
) -> None:
    """Every TestClient request comes from one address ("testclient"): Alice counts three
    games against others seen there, then no more that day; a player from another
    address still counts against her."""
    alice, bob, carol, dave, erin = players(client, "alice", "bob", "carol", "dave", "erin")
    for player, name in ((alice, "Alice"), (bob, "Bob"), (carol, "Carol"), (dave, "Dave")):
        player.ready_for_rated(name)
    erin.ready_for_rated("Erin")
    for opponent in (bob, carol, dave):
        assert rated_win(opponent, alice)["shared_address"] is True
    fourth = rated_win(erin, alice)
    assert fourth["outcome"]["unrated"] == "shared_address" and fourth["rated_ms"] is None
    assert counted(settings, alice, erin) == [3, 0]
    elsewhere = TestClient(
        create_app(settings, clock=clock), client=("203.0.113.9", 40_000)
    ).__enter__()
    try:
        (frank,) = players(elsewhere, "frank")
        frank.ready_for_rated("Frank")
        game = rated_win(frank, alice)
        assert game["rated_ms"] is not None and game["shared_address"] is False
        assert counted(settings, alice, frank) == [4, 1]
    finally:
        elsewhere.__exit__(None, None, None)
    clock.advance(PAIR_WINDOW_MS + 1)  # a day later the address counts again
    assert rated_win(erin, alice)["shared_address"] is True


@pytest.mark.parametrize(
    "missing",
    ["games", "rd", "recent", "opponents"],
)
def test_the_leaderboard_lists_established_players_only(
    client: Any, players: Any, settings: Any, clock: Any, missing: str
) -> None:
    alice, bob = players(client, "alice", "bob")
    for player, name in ((alice, "Alice"), (bob, "Bob")):
        assert player.put("/api/me", json={"name": name}).status_code == 200
    established = {
        "games": BOARD_MIN_GAMES,
        "rd": BOARD_MAX_RD - 1,
        "opponents": BOARD_MIN_OPPONENTS,
        "updated_ms": clock.ms - BOARD_RECENT_MS + 1,
    }
    short = {
        "games": BOARD_MIN_GAMES - 1,
        "rd": BOARD_MAX_RD,
        "recent": clock.ms - BOARD_RECENT_MS,
        "opponents": BOARD_MIN_OPPONENTS - 1,
    }[missing]
    set_rating(settings.database_url, alice.id, "blitz", rating=1600, **established)
    bob_row = {**established, ("updated_ms" if missing == "recent" else missing): short}
    set_rating(settings.database_url, bob.id, "blitz", rating=2400, **bob_row)
    rows = client.get("/api/leaderboard/triangles?clock=blitz").json()["rows"]
    assert [(r["rank"], r["name"], r["rating"]) for r in rows] == [(1, "Alice", 1600)]
    page = client.get("/leaderboard/triangles?clock=blitz", headers={"accept-language": "fr"})
    assert "Alice" in page.text and "Bob" not in page.text
    assert "au moins 20 parties" in page.text  # the rules, in the page's language
