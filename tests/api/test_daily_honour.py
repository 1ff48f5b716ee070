"""Boards of honour list plausible play (issue 33): a daily result played faster than a
person can is kept (game, score, statistics, streak, record) and shown to its player,
marked, but left off the day's board of honour and every rank; and a daily board does not
open by its number until its day is over. Paces come from the test clock; the flag is read
back from the database."""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config

from app.config import Settings
from app.honour import plausible, running_times
from engines.blocks import ENGINE as BLOCKS
from engines.core.daily import daily_seed
from engines.pairs import ENGINE as PAIRS
from tests.api.test_pairs_api import next_pair, pair_move
from tests.conftest import ROOT, FakeClock
from tests.stored import stored

DAY = "2026-11-18"  # the FakeClock's date (tests/conftest.py START_MS)
PAIRS_PACE = PAIRS.honour_pace
BLOCKS_PACE = BLOCKS.honour_pace
assert PAIRS_PACE is not None and BLOCKS_PACE is not None


@pytest.fixture
def client(make_client: Any) -> Any:
    return make_client()  # the real registry: blocks, pairs, triangles


def error(response: Any) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def clear_pairs(player: Any, game: dict[str, Any], clock: FakeClock, gaps: list[int]) -> Any:
    """Removes pairs until the board is clear, the i-th ``gaps[i]`` ms after the one
    before (the last gap repeats); → the last answer."""
    version, view, body, i = game["version"], game["view"], None, 0
    while not view["over"]:
        clock.advance(gaps[min(i, len(gaps) - 1)])
        response = player.move(game["id"], version, pair_move(*next_pair(view)))
        assert response.status_code == 200, response.text
        body = response.json()
        version, view, i = body["version"], body["view"], i + 1
    return body


def place_pieces(
    player: Any, game: dict[str, Any], clock: FakeClock, gap_ms: int, count: int
) -> Any:
    """Places ``count`` pieces ``gap_ms`` apart, then finishes the game; → the last answer."""
    version, view = game["version"], game["view"]
    for _ in range(count):
        clock.advance(gap_ms)
        slot = next(i for i, piece in enumerate(view["hand"]) if piece and piece["placements"])
        spot = view["hand"][slot]["placements"][0]
        move = {"type": "place", "piece": slot, "row": spot["row"], "col": spot["col"]}
        response = player.move(game["id"], version, move)
        assert response.status_code == 200, response.text
        version, view = response.json()["version"], response.json()["view"]
    finished = player.move(game["id"], version, {"type": "finish"})
    assert finished.status_code == 200 and finished.json()["status"] == "over"
    return finished.json()


# --------------------------------------------------------------------------- the rule


def test_the_pairs_rule_at_its_edges() -> None:
    assert PAIRS_PACE is not None
    even = [750 * (i + 1) for i in range(24)]  # a pair every 750 ms: just a person's pace
    assert plausible(even, PAIRS_PACE)
    assert not plausible([t - 1 for t in even], PAIRS_PACE)

    # A quarter of the pairs (6 of 24) less than 250 ms after the one before: still a
    # person on a network that held pairs back; a seventh is not.
    def bunched(quick: int) -> list[int]:
        times, at = [], 0
        for i in range(24):
            at += 249 if i % 3 == 1 and i // 3 < quick else 2_000
            times.append(at)
        return times

    assert plausible(bunched(6), PAIRS_PACE) and not plausible(bunched(7), PAIRS_PACE)
    assert plausible([], PAIRS_PACE)  # nothing removed (a timed board run out): no pace


def test_the_blocks_rule_at_its_edges() -> None:
    assert BLOCKS_PACE is not None
    assert plausible([400 * (i + 1) for i in range(50)], BLOCKS_PACE)
    assert not plausible([399 * (i + 1) for i in range(50)], BLOCKS_PACE)
    # Three pieces of a hand sent together after a slow one: half the pieces quick at most.
    times, at = [], 0
    for i in range(50):
        at += 1_000 if i % 2 == 0 else 99
        times.append(at)
    assert plausible(times, BLOCKS_PACE)
    assert not plausible([*times, times[-1] + 1], BLOCKS_PACE)


def test_paused_time_does_not_count() -> None:
    assert PAIRS_PACE is not None
    log = [
        {"move": {"type": "pair"}, "at_ms": 1_500},
        {"move": {"type": "pause"}, "at_ms": 2_000},
        {"move": None, "at_ms": 5_000},  # a clock tick counts for nothing
        {"move": {"type": "resume"}, "at_ms": 62_000},
        {"move": {"type": "hint"}, "at_ms": 62_100},
        {"move": {"type": "pair"}, "at_ms": 63_000},
    ]
    assert running_times(log, PAIRS_PACE) == [1_500, 3_000]


# --------------------------------------------------------------------------- Pairs


def test_a_pairs_daily_cleared_by_a_script_is_kept_but_left_off_the_board(
    client: Any, players: Any, clock: FakeClock, settings: Settings
) -> None:
    """The finding: a script clears today's Pairs in a blink and took rank 1."""
    bot, person = players(client, "bot", "person")
    bot.put("/api/me", json={"name": "Bot"})
    person.put("/api/me", json={"name": "Person"})
    fast = bot.new_game("pairs", daily=DAY)
    fast_end = clear_pairs(bot, fast, clock, [20])
    slow = person.new_game("pairs", daily=DAY)
    slow_end = clear_pairs(person, slow, clock, [2_100, 1_300, 900])
    assert fast_end["view"]["score"] == slow_end["view"]["score"] == 450  # the same score

    # The script's result is kept, marked, and the player is told.
    assert fast_end["outcome"]["too_fast"] is True and slow_end["outcome"]["too_fast"] is None
    assert bot.get(f"/api/games/{fast['id']}").json()["outcome"]["too_fast"] is True
    rows = stored(
        settings,
        f"SELECT id, status, score, too_fast FROM games WHERE daily = '{DAY}' ORDER BY score, id",
    )
    assert sorted(rows) == sorted(
        [(fast["id"], "over", 450, True), (slow["id"], "over", 450, False)]
    )
    assert stored(settings, f"SELECT game_id FROM records WHERE player_id = '{bot.id}'") == [
        (fast["id"],)
    ]

    # Off the board of honour, though it finished first with the same score.
    honour = person.get(f"/api/daily/pairs?date={DAY}").json()["honour"]
    assert [(h["rank"], h["name"], h["game_id"]) for h in honour] == [(1, "Person", slow["id"])]

    # Its player keeps the game, the statistics and the streak; no rank.
    mine = bot.get("/api/me/stats").json()
    assert mine["streak"] == 1 and [s["played"] for s in mine["stats"]] == [1]
    assert mine["daily"] == [
        {"game": "pairs", "date": DAY, "id": fast["id"], "status": "over", "score": 450,
         "rank": None, "too_fast": True}
    ]  # fmt: skip
    theirs = person.get("/api/me/stats").json()["daily"]
    assert [(d["rank"], d["too_fast"]) for d in theirs] == [(1, False)]


def test_a_pause_does_not_buy_a_pace(
    client: Any, players: Any, clock: FakeClock, settings: Settings
) -> None:
    """A minute paused, then 300 ms a pair: the board shows the game's own clock, so
    the pause is no time spent playing."""
    bot, person = players(client, "bot", "person")
    game = bot.new_game("pairs", daily=DAY)
    paused = bot.move(game["id"], 0, {"type": "pause"})
    clock.advance(60_000)
    resumed = bot.move(game["id"], paused.json()["version"], {"type": "resume"})
    assert resumed.status_code == 200
    clear_pairs(bot, resumed.json() | {"id": game["id"]}, clock, [300])

    # A person who pauses halfway through keeps a person's pace on either side of it.
    theirs = person.new_game("pairs", daily=DAY)
    body: dict[str, Any] = theirs
    for _ in range(12):
        clock.advance(1_200)
        body = person.move(
            theirs["id"], body["version"], pair_move(*next_pair(body["view"]))
        ).json()
    body = person.move(theirs["id"], body["version"], {"type": "pause"}).json()
    clock.advance(300_000)
    body = person.move(theirs["id"], body["version"], {"type": "resume"}).json()
    clear_pairs(person, body | {"id": theirs["id"]}, clock, [1_200])

    assert sorted(stored(settings, f"SELECT id, too_fast FROM games WHERE daily = '{DAY}'")) == (
        sorted([(game["id"], True), (theirs["id"], False)])
    )
    honour = person.get(f"/api/daily/pairs?date={DAY}").json()["honour"]
    assert [h["game_id"] for h in honour] == [theirs["id"]]


def test_a_fast_person_with_a_few_pairs_held_back_by_the_network_stays_on_the_board(
    client: Any, players: Any, clock: FakeClock, settings: Settings
) -> None:
    (person,) = players(client, "person")
    game = person.new_game("pairs", daily=DAY)
    # About a second a pair, and six pairs that reached the server 80 ms after the one
    # before (held back on the way).
    end = clear_pairs(person, game, clock, [1_400, 80] * 6 + [1_000])
    assert end["outcome"]["too_fast"] is None
    assert stored(settings, f"SELECT too_fast FROM games WHERE id = '{game['id']}'") == [(False,)]
    assert person.get("/api/me/stats").json()["daily"][0]["rank"] == 1


# --------------------------------------------------------------------------- Blocks


def test_a_blocks_daily_placed_faster_than_a_person_is_left_off_the_board(
    client: Any, players: Any, clock: FakeClock, settings: Settings
) -> None:
    bot, person = players(client, "bot", "person")
    fast = bot.new_game("blocks", daily=DAY)
    fast_end = place_pieces(bot, fast, clock, gap_ms=40, count=12)
    slow = person.new_game("blocks", daily=DAY)
    slow_end = place_pieces(person, slow, clock, gap_ms=900, count=12)
    assert fast_end["outcome"]["too_fast"] is True and slow_end["outcome"]["too_fast"] is None
    assert sorted(stored(settings, f"SELECT id, too_fast FROM games WHERE daily = '{DAY}'")) == (
        sorted([(fast["id"], True), (slow["id"], False)])
    )
    honour = person.get(f"/api/daily/blocks?date={DAY}").json()["honour"]
    assert [(h["rank"], h["game_id"]) for h in honour] == [(1, slow["id"])]
    assert [
        (d["id"], d["rank"], d["too_fast"]) for d in bot.get("/api/me/stats").json()["daily"]
    ] == [(fast["id"], None, True)]


# --------------------------------------------------------------------------- practice


def day(offset: int) -> str:
    return (dt.date.fromisoformat(DAY) + dt.timedelta(days=offset)).isoformat()


@pytest.mark.parametrize("offset", [-1, 0, 1])
def test_a_daily_board_does_not_open_by_its_number_until_its_day_is_over(
    client: Any, players: Any, clock: FakeClock, settings: Settings, offset: int
) -> None:
    (player,) = players(client, "player")
    date = day(offset)
    pairs_seed, blocks_seed = daily_seed("pairs", date), daily_seed("blocks", date)
    pairs = player.get(f"/api/daily/pairs?date={date}").json()["number"]
    blocks = player.get(f"/api/daily/blocks?date={date}").json()["number"]
    assert (pairs, blocks) == (f"{pairs_seed:08d}-b", f"{blocks_seed:08d}-bd")
    # The board's number, in any mode, and the other numbers of that seed (Blocks deals
    # it alike in Classic) are refused while the day can still be played.
    for game, number, params in (
        ("pairs", pairs, {}),
        ("pairs", pairs, {"mode": "timed"}),
        ("pairs", f"{pairs_seed:08d}-a", {}),
        ("blocks", blocks, {}),
        ("blocks", f"{blocks_seed:08d}-b", {}),
    ):
        refused = player.post("/api/games", json={"game": game, "number": number, "params": params})
        assert error(refused) == (409, "daily_not_over"), (game, number)
    seeds = f"({pairs_seed}, {blocks_seed})"
    assert stored(settings, f"SELECT count(*) FROM games WHERE seed IN {seeds}") == [(0,)]

    # The daily itself still opens through the daily route.
    daily = player.new_game("pairs", daily=date)
    assert daily["number"] == pairs

    # Once the day is over (the daily route no longer admits it), it is any numbered board.
    clock.advance((offset + 2) * 86_400_000)
    practice = player.new_game("pairs", number=pairs)
    again = player.new_game("blocks", number=blocks)
    assert (practice["number"], again["number"]) == (pairs, blocks)
    rows = stored(settings, f"SELECT number, daily FROM games WHERE seed IN {seeds}")
    assert sorted(rows, key=repr) == sorted(
        [(pairs, date), (pairs, None), (blocks, None)], key=repr
    )


# --------------------------------------------------------------------------- migration


def test_migration_0011_leaves_earlier_results_on_the_board_and_goes_back_down(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.sqlite3"
    config = Config(str(ROOT / "alembic.ini"))
    config.attributes["database_url"] = f"sqlite+aiosqlite:///{path}"
    command.upgrade(config, "0010_earned_ratings")
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO players VALUES ('alice', NULL, 0)")
        db.execute(
            "INSERT INTO games (id, engine, params, seed, number, owner_id, seats, version,"
            " state, status, public, daily, score, started_ms, updated_ms)"
            " VALUES ('old', 'pairs', '{}', 1, '00000001-b', 'alice', '[\"alice\"]', 24, '{}',"
            " 'over', 0, '2026-11-18', 450, 0, 0)"
        )
    command.upgrade(config, "head")
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT id, too_fast FROM games").fetchall() == [("old", 0)]
    command.downgrade(config, "0010_earned_ratings")
    with sqlite3.connect(path) as db:
        columns = {row[1] for row in db.execute("PRAGMA table_info('games')")}
        assert "too_fast" not in columns
        assert db.execute("SELECT id, score FROM games").fetchall() == [("old", 450)]
