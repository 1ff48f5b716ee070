"""Rated games: both players' Glicko-2 ratings change once, in the transaction that ends
the game (a resignation racing a flag changes them exactly once); the leaderboard."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from app.errors import AppError
from app.fair_play import (
    BOARD_MIN_GAMES,
    BOARD_MIN_OPPONENTS,
    MIN_FINISHED,
    MIN_OWN_MOVES,
    PLACEMENT_GAMES,
)
from app.moves import LogEntry, Step
from engines.core import glicko2
from engines.triangles import ENGINE as TRIANGLES
from engines.triangles.clock import LAG_MS
from engines.triangles.moves import Resign
from tests.api.test_triangles_api import legal
from tests.qualify import qualify
from tests.rating_rows import set_rating, stored_game, stored_ratings

RATED = {"opponent": "online", "stars": 24, "clock": "3+2", "rated": True}


@pytest.fixture
def client(make_client: Any) -> Any:
    return make_client()


@pytest.fixture
def alice_bob(client: Any, players: Any, database_url: str) -> tuple[Any, Any]:
    """Two players who may play rated games (named, five games finished), past their
    placement games in the bullet and blitz pools (``app.fair_play``), at the start
    rating: their games move each other's ratings."""
    alice, bob = players(client, "alice", "bob")
    alice.ready_for_rated("Alice")
    bob.ready_for_rated("Bob")
    for player in (alice, bob):
        for pool in ("bullet", "blitz"):
            set_rating(database_url, player.id, pool, games=PLACEMENT_GAMES)
    return alice, bob


ESTABLISHED = {"games": BOARD_MIN_GAMES, "rd": 60.0, "opponents": BOARD_MIN_OPPONENTS}


def start(alice: Any, bob: Any, params: dict[str, Any]) -> dict[str, Any]:
    game = alice.new_game("triangles", params=params)
    joined = bob.post(f"/api/games/{game['id']}/join").json()
    assert joined["status"] == "active"
    return game


def both_draw(alice: Any, bob: Any, gid: str) -> int:
    """Each player draws a line (a rated game where one never did is aborted, unrated);
    the game's version after them."""
    version = 0
    for player in (alice, bob):
        a, b = legal(player.get(f"/api/games/{gid}").json()["view"])[0]
        drawn = player.move(gid, version, {"type": "line", "a": a, "b": b})
        assert drawn.status_code == 200, drawn.text
        version = drawn.json()["version"]
    return version


def test_a_rated_game_changes_both_ratings_once(
    client: Any, alice_bob: Any, database_url: str
) -> None:
    alice, bob = alice_bob
    gid = start(alice, bob, RATED)["id"]
    loaded = alice.get(f"/api/games/{gid}").json()
    assert [p["rating"] for p in loaded["players"]] == [1500, 1500]
    resigned = alice.move(gid, both_draw(alice, bob, gid), {"type": "resign"})
    assert resigned.status_code == 200, resigned.text
    change = alice.get(f"/api/games/{gid}").json()["outcome"]["ratings"]
    won = glicko2.update(glicko2.Rating(), [glicko2.Result(glicko2.Rating(), 1)])
    lost = glicko2.update(glicko2.Rating(), [glicko2.Result(glicko2.Rating(), 0)])
    assert change["pool"] == "blitz"
    assert change["seats"] == [
        {"before": 1500, "after": lost.rating, "rd": lost.rd, "provisional": True},
        {"before": 1500, "after": won.rating, "rd": won.rd, "provisional": True},
    ]
    stored = stored_ratings(database_url, "blitz")
    assert [
        (stored[p.id]["rating"], stored[p.id]["rd"], stored[p.id]["games"]) for p in (alice, bob)
    ] == [(lost.rating, lost.rd, PLACEMENT_GAMES + 1), (won.rating, won.rd, PLACEMENT_GAMES + 1)]
    assert stored_game(database_url, gid)["rated_ms"] is not None
    # Neither is established yet (too few games, a provisional deviation): no board.
    assert client.get("/api/leaderboard/triangles?clock=blitz").json()["rows"] == []
    assert client.get("/api/leaderboard/triangles?clock=5%2B3").json()["pool"] == "blitz"
    assert client.get("/leaderboard/triangles?clock=nope").status_code == 404
    assert client.get("/leaderboard/pairs").status_code == 404
    # The next rated game starts from the new ratings, beside the names, marked provisional.
    again = start(alice, bob, RATED)
    shown = bob.get(f"/api/games/{again['id']}").json()["players"]
    assert [(p["rating"], p["provisional"]) for p in shown] == [
        (lost.rating, True),
        (won.rating, True),
    ]


def test_me_says_how_far_the_player_is_from_rated_play(client: Any, players: Any) -> None:
    """Issue 36 (3): the lobby's Rated switch shows the progress the seek would refuse."""
    (carol,) = players(client, "carol")
    progress = {"finished": 0, "needed": MIN_FINISHED, "moves": MIN_OWN_MOVES}
    assert carol.get("/api/me").json() == {"name": None, "rated": {"triangles": progress}}
    assert carol.put("/api/me", json={"name": "Carol"}).json()["rated"] == {"triangles": progress}
    qualify(carol._ok_post, carol._ok_get, games=3)
    me = carol.get("/api/me").json()
    assert me == {"name": "Carol", "rated": {"triangles": {**progress, "finished": 3}}}
    refused = carol.post("/api/seeks", json={"game": "triangles", "clock": "3+2", "rated": True})
    assert refused.status_code == 403
    assert refused.json()["error"]["details"] == me["rated"]["triangles"]
    qualify(carol._ok_post, carol._ok_get, games=MIN_FINISHED - 2)  # one more than needed
    assert carol.get("/api/me").json()["rated"]["triangles"]["finished"] == MIN_FINISHED


def test_casual_games_stay_unrated(client: Any, players: Any) -> None:
    alice, bob = players(client, "alice", "bob")  # casual games need no standing
    gid = start(alice, bob, {**RATED, "rated": False})["id"]
    assert [p["rating"] for p in alice.get(f"/api/games/{gid}").json()["players"]] == [None, None]
    alice.move(gid, 0, {"type": "resign"})
    assert alice.get(f"/api/games/{gid}").json()["outcome"].get("ratings") is None
    assert client.get("/api/leaderboard/triangles?clock=blitz").json()["rows"] == []


def test_bad_requests(client: Any, players: Any) -> None:
    (alice,) = players(client, "alice")
    refused = alice.post(
        "/api/games", json={"game": "triangles", "params": {"opponent": "online", "rated": True}}
    )
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "bad_rated"
    for url, status, code in (
        ("/api/leaderboard/triangles?clock=2h", 422, "bad_pool"),
        ("/api/leaderboard/pairs", 404, "no_ratings"),
        ("/api/leaderboard/chess", 404, "unknown_game"),
    ):
        response = client.get(url)
        assert response.status_code == status and response.json()["error"]["code"] == code


@pytest.mark.parametrize("resign_first", [True, False])
def test_resign_racing_the_flag_rates_the_game_once(
    client: Any, alice_bob: Any, clock: Any, resign_first: bool
) -> None:
    alice, bob = alice_bob
    gid = start(alice, bob, RATED)["id"]
    both_draw(alice, bob, gid)  # at once: first lines are free, Alice's 3 min run from now
    deadline = 180_000 + LAG_MS
    services = client.app.state.services
    services.flags.stop()  # the race is the test's own: the sweeper must not flag it first
    clock.advance(deadline)

    async def race() -> list[Any]:
        game = await services.store.game(gid)
        state = TRIANGLES.load_state(game.state)
        assert TRIANGLES.deadline(state) == deadline
        resigned, resign_events = TRIANGLES.apply(state, Resign(), deadline - 1, 0)
        flagged, flag_events = TRIANGLES.tick(state, deadline)
        steps = [
            Step(resigned, [LogEntry(0, {"type": "resign"}, deadline - 1)], resign_events),
            Step(flagged, [LogEntry(None, None, deadline)], flag_events),
        ]
        if not resign_first:
            steps.reverse()
        return await asyncio.gather(
            *(services.moves.commit(game, TRIANGLES, step) for step in steps),
            return_exceptions=True,
        )

    results = client.portal.call(race)
    lost = [r for r in results if isinstance(r, AppError)]
    assert len(lost) == 1 and lost[0].code == "stale_version", results
    stored = stored_ratings(client.app.state.settings.database_url, "blitz")
    once = PLACEMENT_GAMES + 1  # once each, whoever won the race
    assert [stored[p.id]["games"] for p in (alice, bob)] == [once, once]
    outcome = alice.get(f"/api/games/{gid}").json()["outcome"]
    assert outcome["reason"] in ("resigned", "time") and outcome["winner"] == 1
    assert outcome["ratings"]["seats"][1]["after"] == stored[bob.id]["rating"]


@pytest.mark.parametrize("resign_first", [True, False])
def test_resign_racing_the_last_line_rates_the_game_once(
    client: Any, alice_bob: Any, resign_first: bool
) -> None:
    alice, bob = alice_bob
    gid = start(alice, bob, RATED)["id"]
    services = client.app.state.services

    async def race() -> tuple[list[Any], Any, int]:
        game = await services.store.game(gid)
        state = TRIANGLES.load_state(game.state)
        entries, events, at_ms = [], [], 0
        # Lines 100 ms apart (the computer's choice for whoever is to move), committed up
        # to the one that ends the game, which then races the other player's resignation.
        while True:
            seat = TRIANGLES.to_move(state)
            line = TRIANGLES.computer_move(state)
            at_ms += 100
            ended, line_events = TRIANGLES.apply(state, line, at_ms, seat)
            if TRIANGLES.outcome(ended) is not None:
                break
            entries.append(LogEntry(seat, TRIANGLES.dump_move(line), at_ms))
            events += line_events
            state = ended
        game, state = await services.moves.commit(game, TRIANGLES, Step(state, entries, events))
        resigned, resign_events = TRIANGLES.apply(state, Resign(), at_ms, 1 - seat)
        steps = [
            Step(ended, [LogEntry(seat, TRIANGLES.dump_move(line), at_ms)], line_events),
            Step(resigned, [LogEntry(1 - seat, {"type": "resign"}, at_ms)], resign_events),
        ]
        if resign_first:
            steps.reverse()
        results = await asyncio.gather(
            *(services.moves.commit(game, TRIANGLES, step) for step in steps),
            return_exceptions=True,
        )
        return results, TRIANGLES.outcome(ended), seat

    results, by_line, drawer = client.portal.call(race)
    lost = [r for r in results if isinstance(r, AppError)]
    assert len(lost) == 1 and lost[0].code == "stale_version", results
    stored = stored_ratings(client.app.state.settings.database_url, "blitz")
    once = PLACEMENT_GAMES + 1  # once each, whoever won the race
    assert [stored[p.id]["games"] for p in (alice, bob)] == [once, once]
    outcome = alice.get(f"/api/games/{gid}").json()["outcome"]
    if outcome["reason"] == "resigned":
        assert outcome["winner"] == drawer
    else:
        assert (outcome["reason"], outcome["winner"]) == (by_line.reason, by_line.winner)
    ratings = outcome["ratings"]["seats"]
    assert [r["after"] for r in ratings] == [stored[p.id]["rating"] for p in (alice, bob)]


def test_leaderboard_page_opens_on_the_fastest_pool_with_players(
    client: Any, alice_bob: Any, database_url: str, clock: Any
) -> None:
    """Issue 24.1: linked from the lobby and the Triangles page; tabs by speed; no
    ``?clock=`` opens on the fastest pool that has players (bullet here, not an empty
    blitz); ``?clock=1+1`` (a time control, its "+" read as a space) is that pool."""
    alice, bob = alice_bob
    for player in alice_bob:
        set_rating(database_url, player.id, "bullet", **ESTABLISHED, updated_ms=clock.ms)
    gid = start(alice, bob, {**RATED, "clock": "1+1"})["id"]
    assert alice.move(gid, both_draw(alice, bob, gid), {"type": "resign"}).status_code == 200
    for url in ("/leaderboard/triangles", "/leaderboard/triangles?clock=1+1"):
        page = client.get(url)
        assert page.status_code == 200, url
        tabs = re.findall(r'href="\?clock=\w+" data-pool="(\w+)"( aria-current="page")?', page.text)
        assert [name for name, _ in tabs] == ["bullet", "blitz", "rapid", "correspondence"]
        assert [name for name, current in tabs if current] == ["bullet"], url
        assert '<table class="leaderboard__table" data-pool="bullet">' in page.text
        assert re.findall(r"<td class=\"leaderboard__name\">(\w+)</td>", page.text) == [
            "Bob",
            "Alice",
        ]
    assert client.get("/api/leaderboard/triangles?clock=1+1").json()["pool"] == "bullet"
    assert "leaderboard__pool" in client.get("/leaderboard/triangles?clock=3%2B2").text
    assert client.get("/leaderboard/triangles?clock=2+2").status_code == 404
    for page in ("/", "/play/triangles"):
        assert 'href="/leaderboard/triangles"' in client.get(page).text, page
    # the leaderboard's styles come with its page alone (each page has its own stylesheet)
    sheets = {
        page: re.search(r'<link rel="stylesheet" href="([^"]+\.css)"', client.get(page).text)
        for page in ("/leaderboard/triangles", "/")
    }
    assert all(sheets.values()), sheets
    styles = {page: client.get(found.group(1)).text for page, found in sheets.items() if found}
    assert ".leaderboard__table{" in styles["/leaderboard/triangles"]
    assert ".leaderboard__table" not in styles["/"]


def test_stats_of_a_rated_variant_hold_the_rating_not_points(client: Any, alice_bob: Any) -> None:
    """Issue 24.3: a rated variant's statistics hold the player's rating in its pool (the
    page shows it with wins, losses and draws instead of points)."""
    alice, bob = alice_bob
    gid = start(alice, bob, RATED)["id"]
    assert alice.move(gid, both_draw(alice, bob, gid), {"type": "resign"}).status_code == 200
    mine = {s["variant"]: s for s in bob.get("/api/me/stats").json()["stats"]}
    rated = [s for s in mine.values() if s["rating"] is not None]
    won = glicko2.update(glicko2.Rating(), [glicko2.Result(glicko2.Rating(), 1)])
    assert [(s["played"], s["rating"], s["levels"]) for s in rated] == [
        (1, won.rating, {"online": {"wins": 1, "losses": 0, "draws": 0}})
    ]
