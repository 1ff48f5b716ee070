"""A player's history (``GET /api/me/games``) and statistics (``GET /api/me/stats``):
paging by cursor, filters, exact tallies per level, best and average, the daily streak
on the test clock, and the daily results with their rank."""

from __future__ import annotations

from typing import Any

import pytest

from engines.reference.tally import ENGINE as TALLY
from tests.conftest import FakeClock

DAY_MS = 24 * 3600 * 1000
D0 = "2026-11-18"  # the test clock's day (tests/conftest.py START_MS)


def start_of(seed: int, limit: int = 10) -> int:
    """The tally a numbered board starts at (the engine says; the test does not guess)."""
    return TALLY.new_game(TALLY.parse_params({"limit": limit}), seed).tally


def error(response: Any) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def play_out(player: Any, game: dict[str, Any]) -> dict[str, Any]:
    """Add 3 until the tally reaches its limit (a solo game: the score is the limit)."""
    version = game["version"]
    while True:
        answer = player.move(game["id"], version, {"type": "add", "n": 3})
        assert answer.status_code == 200, answer.text
        version = answer.json()["version"]
        if answer.json()["status"] == "over":
            return answer.json()  # type: ignore[no-any-return]


def resign(player: Any, game: dict[str, Any]) -> None:
    answer = player.move(game["id"], game["version"], {"type": "resign"})
    assert answer.status_code == 200, answer.text


def ids(page: dict[str, Any]) -> list[str]:
    return [g["id"] for g in page["games"]]


def test_history_pages_newest_first_with_a_cursor(alice_bob: Any, clock: FakeClock) -> None:
    alice, bob = alice_bob
    made = []
    for _ in range(5):
        made.append(alice.new_game("tally")["id"])
        clock.advance(1000)
    bob.new_game("tally")
    first = alice.get("/api/me/games?limit=2").json()
    assert ids(first) == [made[4], made[3]]
    assert first["next"] == f"{1_795_000_000_000 + 3000}.{made[3]}"
    second = alice.get(f"/api/me/games?limit=2&before={first['next']}").json()
    assert ids(second) == [made[2], made[1]]
    third = alice.get(f"/api/me/games?limit=2&before={second['next']}").json()
    assert ids(third) == [made[0]] and third["next"] is None
    assert ids(alice.get("/api/me/games").json()) == made[::-1]
    assert error(alice.get("/api/me/games?before=nope")) == (422, "invalid_request")
    assert error(alice.get("/api/me/games?limit=0")) == (422, "invalid_request")
    assert error(alice.get("/api/me/games?game=chess")) == (404, "unknown_game")
    assert error(alice.get("/api/me/games?status=paused")) == (422, "invalid_request")


def test_same_start_time_pages_by_id(alice_bob: Any) -> None:
    alice, _ = alice_bob
    made = sorted(alice.new_game("tally")["id"] for _ in range(3))  # one instant
    first = alice.get("/api/me/games?limit=1").json()
    second = alice.get(f"/api/me/games?limit=1&before={first['next']}").json()
    third = alice.get(f"/api/me/games?limit=1&before={second['next']}").json()
    assert ids(first) + ids(second) + ids(third) == made[::-1]
    assert third["next"] is None


def test_history_entries_and_filters_across_games(make_client: Any, players: Any) -> None:
    client = make_client()
    (alice,) = players(client, "alice")
    blocks = alice.new_game("blocks", params={"ruleset": "classic10"})
    pairs = alice.new_game("pairs")
    gravity = alice.new_game("blocks", params={"ruleset": "gravity8", "rotation": True})
    over = alice.move(gravity["id"], gravity["version"], {"type": "finish"})
    assert over.json()["status"] == "over"
    everything = alice.get("/api/me/games").json()
    assert ids(everything) == sorted([blocks["id"], pairs["id"], gravity["id"]], reverse=True)
    by_id = {g["id"]: g for g in everything["games"]}
    assert by_id[gravity["id"]] == {
        "id": gravity["id"],
        "game": "blocks",
        "variant": "gravity8/classic/rotation",
        "number": gravity["number"],
        "status": "over",
        "result": None,
        "score": 0,
        "daily": None,
        "started_ms": 1_795_000_000_000,
        "links": {
            "replay": f"/replay/{gravity['id']}",
            "play": f"/play/blocks/{gravity['number']}",
        },
    }
    assert by_id[pairs["id"]]["variant"] == "classic/calm"
    assert by_id[pairs["id"]]["status"] == "active" and by_id[pairs["id"]]["score"] is None
    assert by_id[blocks["id"]]["variant"] == "classic10/classic"
    only_blocks = alice.get("/api/me/games?game=blocks").json()
    assert sorted(ids(only_blocks)) == sorted([blocks["id"], gravity["id"]])
    active = alice.get("/api/me/games?status=active").json()
    assert sorted(ids(active)) == sorted([blocks["id"], pairs["id"]])
    assert ids(alice.get("/api/me/games?status=over&game=pairs").json()) == []


def test_stats_per_variant_and_level(alice_bob: Any, clock: FakeClock) -> None:
    alice, bob = alice_bob
    play_out(alice, alice.new_game("tally", params={"limit": 5}))  # solo, score 5
    resign(alice, alice.new_game("tally", number="00000042-t", params={"limit": 5}))
    lost = alice.new_game("tally", number="00000007-t", params={"opponent": "computer"})
    resign(alice, lost)
    online = alice.new_game("tally", number="00000007-t", params={"opponent": "online"})
    joined = bob.post(f"/api/games/{online['id']}/join").json()
    resign(bob, {"id": online["id"], "version": joined["version"]})
    timed = alice.new_game(
        "tally", number="00000042-t", params={"opponent": "computer", "timed": True}
    )
    alice.new_game("tally")  # unfinished: not counted
    clock.advance(60_000)
    assert alice.get(f"/api/games/{timed['id']}").json()["status"] == "over"  # a draw

    # The computer may open (the first seat is the seed's): scores are the tallies seen.
    ten = sorted([lost["view"]["tally"], online["view"]["tally"]])
    stats = alice.get("/api/me/stats").json()
    assert stats["stats"] == [
        {
            "game": "tally",
            "variant": "10",
            "played": 2,
            "best": ten[1],
            "average": sum(ten) / 2,
            "levels": {
                "computer": {"wins": 0, "losses": 1, "draws": 0},
                "online": {"wins": 1, "losses": 0, "draws": 0},
            },
            "rating": None,
            "provisional": None,
        },
        {
            "game": "tally",
            "variant": "10/timed",
            "played": 1,
            "best": timed["view"]["tally"],
            "average": float(timed["view"]["tally"]),
            "levels": {"computer": {"wins": 0, "losses": 0, "draws": 1}},
            "rating": None,
            "provisional": None,
        },
        {
            "game": "tally",
            "variant": "5",
            "played": 2,
            "best": 5,
            "average": round((5 + start_of(42, 5)) / 2, 1),
            "levels": {},
            "rating": None,
            "provisional": None,
        },
    ]
    assert stats["streak"] == 0 and stats["streak_until"] is None and stats["daily"] == []
    # Bob joined Alice's game: it is in his history, as a loss (seat 1 has no score here).
    theirs = bob.get("/api/me/games").json()["games"]
    assert [(g["id"], g["result"], g["score"]) for g in theirs] == [(online["id"], "loss", None)]
    assert bob.get("/api/me/stats").json()["stats"][0]["levels"] == {
        "online": {"wins": 0, "losses": 1, "draws": 0}
    }
    mine = {g["id"]: g for g in alice.get("/api/me/games").json()["games"]}
    assert (mine[online["id"]]["result"], mine[lost["id"]]["result"]) == ("win", "loss")
    assert mine[timed["id"]]["result"] == "draw"


def day(offset: int) -> str:
    import datetime as dt

    return (dt.date.fromisoformat(D0) + dt.timedelta(days=offset)).isoformat()


def test_daily_streak_and_todays_results(alice_bob: Any, clock: FakeClock) -> None:
    alice, bob = alice_bob
    for offset in range(3):  # days 0, 1, 2 finished
        play_out(alice, alice.new_game("tally", daily=day(offset)))
        if offset < 2:
            clock.advance(DAY_MS)
    stats = alice.get("/api/me/stats").json()
    assert (stats["streak"], stats["streak_until"]) == (3, day(2))
    assert [(d["date"], d["status"], d["score"], d["rank"]) for d in stats["daily"]] == [
        (day(1), "over", 12, 1),
        (day(2), "over", 12, 1),
    ]
    clock.advance(DAY_MS)  # day 3, not played yet: the streak still ends yesterday
    assert alice.get("/api/me/stats").json()["streak"] == 3
    clock.advance(DAY_MS)  # day 4: day 3 was missed
    assert alice.get("/api/me/stats").json()["streak"] == 0
    play_out(bob, bob.new_game("tally", daily=day(4)))  # Bob finishes first
    clock.advance(1000)
    play_out(alice, alice.new_game("tally", daily=day(4)))
    tomorrow = alice.new_game("tally", daily=day(5))  # a local date ahead: unfinished
    stats = alice.get("/api/me/stats").json()
    assert (stats["streak"], stats["streak_until"]) == (1, day(4))
    assert [(d["date"], d["status"], d["score"], d["rank"]) for d in stats["daily"]] == [
        (day(4), "over", 12, 2),
        (day(5), "active", None, None),
    ]
    play_out(alice, tomorrow)
    stats = alice.get("/api/me/stats").json()
    assert (stats["streak"], stats["streak_until"]) == (2, day(5))


@pytest.mark.parametrize("offsets, expected", [((), 0), ((-1,), 1), ((-3, -2, -1, 0), 4)])
def test_streak_definition(offsets: tuple[int, ...], expected: int) -> None:
    import datetime as dt

    from app.history import daily_streak

    on = dt.date.fromisoformat(D0)
    days = {day(k) for k in offsets}
    assert daily_streak(days, on)[0] == expected
    assert daily_streak({day(-2)}, on) == (0, None)


def test_a_rematch_is_in_both_players_histories(alice_bob: Any, clock: FakeClock) -> None:
    alice, bob = alice_bob
    first = alice.new_game("tally", params={"opponent": "online"})
    joined = bob.post(f"/api/games/{first['id']}/join").json()
    resign(bob, {"id": first["id"], "version": joined["version"]})
    assert (
        alice.post(f"/api/games/{first['id']}/rematch", json={"action": "offer"}).status_code == 200
    )
    clock.advance(1000)
    accepted = bob.post(f"/api/games/{first['id']}/rematch", json={"action": "accept"})
    second = accepted.json()["rematch"]["game_id"]
    for player in (alice, bob):
        assert ids(player.get("/api/me/games").json()) == [second, first["id"]]
