"""Online play is a capability any game declares: the fixture game ClockTally
(tests/fixtures/games/clocktally), served beside the built-in games with no shared file
naming it, is offered for quick pairing, paired by a seek, played on its clocks, rated in
its own pools and listed on its own leaderboard."""

from __future__ import annotations

from typing import Any

import pytest

from app.fair_play import (
    BOARD_MIN_GAMES,
    BOARD_MIN_OPPONENTS,
    MIN_FINISHED,
    MIN_OWN_MOVES,
    PLACEMENT_GAMES,
)
from engines.registry import served
from tests.fixtures.games.clocktally import CLOCKS
from tests.fixtures.games.clocktally import ENGINE as CLOCKTALLY
from tests.rating_rows import set_rating, stored_game, stored_ratings

GAME = CLOCKTALLY.name


@pytest.fixture
def client(make_client: Any) -> Any:
    return make_client(served(CLOCKTALLY))


def qualify(player: Any, name: str) -> None:
    """Named, with the games against the computer that rated play asks for first."""
    assert player.put("/api/me", json={"name": name}).status_code == 200
    for _ in range(MIN_FINISHED):
        game = player.new_game(GAME, params={"opponent": "computer"})
        version = game["version"]
        for _ in range(MIN_OWN_MOVES):
            version = player.move(game["id"], version, {"type": "add", "n": 1}).json()["version"]
        assert player.move(game["id"], version, {"type": "resign"}).status_code == 200


@pytest.fixture
def alice_bob(client: Any, players: Any, database_url: str) -> tuple[Any, Any]:
    alice, bob = players(client, "alice", "bob")
    qualify(alice, "Alice")
    qualify(bob, "Bob")
    for player in (alice, bob):  # placed: their game moves each other's ratings
        set_rating(database_url, player.id, "bullet", GAME, games=PLACEMENT_GAMES)
    return alice, bob


def paired(alice: Any, bob: Any, clock: str, rated: bool) -> dict[str, Any]:
    """Alice seeks, Bob's seek pairs them: the game, as Alice sees it."""
    body = {"game": GAME, "clock": clock, "rated": rated}
    waiting = alice.post("/api/seeks", json=body).json()
    assert waiting["status"] == "waiting" and waiting["game"] == GAME
    found = bob.post("/api/seeks", json=body).json()
    assert found["status"] == "paired", found
    game = alice.get(f"/api/games/{found['game_id']}").json()
    assert (game["game"], game["status"], game["params"]) == (
        GAME,
        "active",
        {"opponent": "online", "clock": clock, "rated": rated},
    )
    return game  # type: ignore[no-any-return]


def seated(alice: Any, bob: Any, game: dict[str, Any]) -> list[Any]:
    """The two players in seat order."""
    return [alice, bob] if game["seats"] == [0] else [bob, alice]


def test_the_catalog_and_the_schema_offer_it(client: Any) -> None:
    catalog = {entry["name"]: entry for entry in client.get("/api/catalog").json()["games"]}
    assert {name for name, entry in catalog.items() if entry["online_play"]} == {
        "triangles",
        GAME,
    }
    assert catalog[GAME]["clocks"] == CLOCKS
    schema = client.get("/openapi.json").json()["components"]["schemas"]["SeekRequest"]
    games = {alt["properties"]["game"]["const"]: alt for alt in schema["oneOf"]}
    assert games[GAME]["properties"]["clock"] == {"enum": ["1+0", "3+2"]}
    assert "if" not in games[GAME]  # every control of it has a clock: any may be rated


def test_a_seek_pairs_a_rated_game_that_is_rated_and_ranked(
    client: Any, alice_bob: Any, database_url: str, clock: Any
) -> None:
    alice, bob = alice_bob
    # A seek of another game or another control never pairs with it.
    assert bob.post("/api/seeks", json={"game": "triangles", "clock": "1+1"}).json()[
        "status"
    ] == "waiting"
    game = paired(alice, bob, "1+0", rated=True)
    first, second = seated(alice, bob, game)
    answer, players, last = game, [first, second], 0
    while answer["status"] == "active":  # each adds 3 in turn, until the tally reaches 30
        last = answer["view"]["turn"]
        moved = players[last].move(game["id"], answer["version"], {"type": "add", "n": 3})
        assert moved.status_code == 200, moved.text
        answer = moved.json()
    assert answer["outcome"]["reason"] == "reached" and answer["outcome"]["winner"] == last
    winner, loser = players[last], players[1 - last]
    change = answer["outcome"]["ratings"]
    assert change["pool"] == "bullet"
    # The ratings are read back from the database: the winner's went up, the loser's down.
    rows = stored_ratings(database_url, "bullet", GAME)
    assert rows[winner.id]["rating"] > 1500 > rows[loser.id]["rating"]
    assert rows[winner.id]["games"] == rows[loser.id]["games"] == PLACEMENT_GAMES + 1
    assert stored_game(database_url, game["id"])["outcome"]["ratings"] == change

    # Established players are listed on the game's own leaderboard, by pool.
    for player in (alice, bob):
        set_rating(
            database_url,
            player.id,
            "bullet",
            GAME,
            games=BOARD_MIN_GAMES,
            rd=60.0,
            opponents=BOARD_MIN_OPPONENTS,
            rating=1600.0 if player is alice else 1550.0,
            updated_ms=clock.ms,
        )
    board = client.get(f"/api/leaderboard/{GAME}?clock=1%2B0").json()
    assert board["pool"] == "bullet"
    assert [row["name"] for row in board["rows"]] == ["Alice", "Bob"]
    page = client.get(f"/leaderboard/{GAME}")
    assert page.status_code == 200 and page.text.index("Alice") < page.text.index("Bob")
    # In the game's own words (its package's catalogs): its title and its pools.
    assert "<h1 class=\"leaderboard__title\" id=\"leaderboard-title\">Clock Tally · " in page.text
    assert 'data-pool="blitz">Blitz</a>' in page.text


def test_its_clock_runs_out(client: Any, alice_bob: Any, clock: Any) -> None:
    alice, bob = alice_bob
    game = paired(alice, bob, "3+2", rated=False)
    first, second = seated(alice, bob, game)
    clock.advance(5_000)
    moved = first.move(game["id"], game["version"], {"type": "add", "n": 1}).json()
    assert moved["view"]["clock"]["left_ms"] == [180_000 - 5_000 + 2_000, 180_000]
    clock.advance(180_000)  # the second seat never moves: its flag falls
    ended = second.get(f"/api/games/{game['id']}").json()
    assert ended["status"] == "over"
    assert (ended["outcome"]["reason"], ended["outcome"]["winner"]) == ("time_up", 0)
    assert ended["view"]["clock"]["left_ms"][1] == 0
