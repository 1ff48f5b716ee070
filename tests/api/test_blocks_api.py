"""Blocks over HTTP: creating games (rulesets, modes, numbers, the daily board), every move
and every refusal with its status and code, records and the board of honour.

Boards come from fixed game numbers, so every game here is the same on every run; long
games are played through the API with a fixed strategy (fill the board without clearing)
until nothing fits.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import FakeClock

DAY = "2026-11-18"  # the FakeClock's date (tests/conftest.py START_MS)


@pytest.fixture
def client(make_client: Any) -> Any:
    return make_client()


@pytest.fixture
def alice(client: Any, players: Any) -> Any:
    return players(client, "alice")[0]


@pytest.fixture
def bob(client: Any, players: Any) -> Any:
    return players(client, "bob")[0]


def error(response: Any) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def blocks(player: Any, **params: Any) -> dict[str, Any]:
    return player.new_game("blocks", params=params)  # type: ignore[no-any-return]


def numbered(player: Any, number: str) -> dict[str, Any]:
    return player.new_game("blocks", number=number)  # type: ignore[no-any-return]


def place(piece: int, row: int, col: int) -> dict[str, Any]:
    return {"type": "place", "piece": piece, "row": row, "col": col}


class Game:
    """A game seen through the API: its id, version and latest view."""

    def __init__(self, player: Any, data: dict[str, Any]) -> None:
        self.player = player
        self.id = data["id"]
        self.version = data["version"]
        self.view = data["view"]
        self.number = data["number"]

    def move(self, move: dict[str, Any]) -> Any:
        response = self.player.move(self.id, self.version, move)
        if response.status_code == 200:
            body = response.json()
            self.version, self.view = body["version"], body["view"]
        return response

    def ok(self, move: dict[str, Any]) -> dict[str, Any]:
        response = self.move(move)
        assert response.status_code == 200, response.text
        return response.json()  # type: ignore[no-any-return]

    def refused(self, move: dict[str, Any]) -> tuple[int, str]:
        before = self.version
        response = self.move(move)
        assert self.version == before
        return error(response)

    def first(self, slot: int) -> dict[str, Any]:
        return self.view["hand"][slot]["placements"][0]  # type: ignore[no-any-return]

    def play_badly(self) -> list[dict[str, Any]]:
        """Place pieces that clear nothing, scattered, until no move is left; the events."""
        events: list[dict[str, Any]] = []
        for _ in range(200):
            if self.view["over"] or self.view["stuck"]:
                return events
            options = [
                (slot, p)
                for slot, piece in enumerate(self.view["hand"]) if piece
                for p in piece["placements"]
            ]
            quiet = [o for o in options if not (o[1]["clears"]["rows"] or o[1]["clears"]["cols"])]
            slot, p = max(quiet or options,
                          key=lambda o: ((o[1]["row"] * 3 + o[1]["col"] * 7) % 10, -o[0]))
            events += self.ok(place(slot, p["row"], p["col"]))["events"]
        raise AssertionError("the game did not end")


# --- creating games -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "letters", "size"),
    [
        ({"ruleset": "classic10"}, "a", 10),
        ({"ruleset": "shapes48"}, "b", 10),
        ({"ruleset": "shapes48", "mode": "zen"}, "bz", 10),
        ({"ruleset": "shapes48", "mode": "chrono"}, "bc", 10),
        ({"ruleset": "shapes48", "mode": "hardcore"}, "bh", 10),
        ({"ruleset": "gravity8"}, "c", 8),
        ({"ruleset": "gravity8", "rotation": True}, "cr", 8),
    ],
)
def test_create(alice: Any, params: dict[str, Any], letters: str, size: int) -> None:
    data = blocks(alice, **params)
    assert data["game"] == "blocks" and data["seat"] == 0 and data["version"] == 0
    assert data["number"].endswith(f"-{letters}")
    view = data["view"]
    assert len(view["grid"]) == size and all(len(row) == size for row in view["grid"])
    assert view["score"] == 0 and view["over"] is False
    assert len(view["hand"]) == 3
    for piece in view["hand"]:
        assert piece["cells"] and piece["placements"]
        assert {"row", "col", "clears", "points"} <= set(piece["placements"][0])
    assert (view["clock"] is not None) == (params.get("mode") == "chrono")
    assert (view["tokens"] is not None) == (params["ruleset"] == "classic10")


def test_a_number_gives_everyone_the_same_board(alice: Any, bob: Any) -> None:
    first = numbered(alice, "00000001-b")
    second = numbered(bob, "00000001-b")
    assert first["number"] == second["number"] == "00000001-b"
    assert first["params"] == {"ruleset": "shapes48", "mode": "classic", "rotation": False}
    assert first["view"]["hand"] == second["view"]["hand"]
    assert numbered(alice, "00000001-cr")["params"]["rotation"] is True


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"params": {"ruleset": "tetris"}}, (400, "bad_ruleset")),
        ({"params": {"ruleset": "classic10", "mode": "zen"}}, (400, "bad_mode")),
        ({"params": {"ruleset": "shapes48", "mode": "blitz"}}, (400, "bad_mode")),
        ({"params": {"ruleset": "classic10", "rotation": True}}, (400, "bad_rotation")),
        ({"params": {"ruleset": "gravity8", "rotation": "yes"}}, (400, "bad_rotation")),
        ({"number": "12345678-z"}, (400, "bad_number")),
        ({"number": "1234-a"}, (400, "bad_number")),
        ({"params": "classic10"}, (422, "invalid_request")),
        ({"daily": "2026-12-25"}, (422, "bad_date")),
        ({"daily": "18/11/2026"}, (422, "bad_date")),
    ],
)
def test_create_refusals(alice: Any, body: dict[str, Any], expected: tuple[int, str]) -> None:
    assert error(alice.post("/api/games", json={"game": "blocks", **body})) == expected


# --- placing --------------------------------------------------------------------------------


def test_place_scores_and_logs(alice: Any) -> None:
    game = Game(alice, numbered(alice, "00000001-a"))
    piece = game.view["hand"][0]
    spot = game.first(0)
    body = game.ok(place(0, spot["row"], spot["col"]))
    assert body["version"] == 1 and body["status"] == "active" and body["outcome"] is None
    placed = body["events"][0]
    assert placed["type"] == "placed" and placed["piece"] == 0
    assert placed["points"] == spot["points"] == len(piece["cells"])
    assert body["view"]["score"] == spot["points"]
    assert body["view"]["hand"][0] is None
    assert isinstance(body["server_ms"], int)
    log = alice.get(f"/api/games/{game.id}/log").json()
    assert log["moves"][0]["move"] == place(0, spot["row"], spot["col"])


def test_occupied(alice: Any) -> None:
    game = Game(alice, numbered(alice, "00000001-a"))
    first = game.view["hand"][0]
    game.ok(place(0, 0, 0))
    taken = {(r, c) for r, c in first["cells"]}
    other = game.view["hand"][1]
    # an anchor inside the grid where piece 1 covers one of piece 0's cells
    anchor = next(
        (r - dr, c - dc)
        for r, c in sorted(taken) for dr, dc in other["cells"]
        if r - dr >= 0 and c - dc >= 0
    )
    response = game.move(place(1, *anchor))
    assert error(response) == (422, "occupied")
    cells = {tuple(cell) for cell in response.json()["error"]["details"]["cells"]}
    assert cells and cells <= taken
    assert game.version == 1


def test_out_of_grid(alice: Any) -> None:
    game = Game(alice, numbered(alice, "00000001-a"))
    cells = game.view["hand"][0]["cells"]
    width = 1 + max(c for _, c in cells)
    height = 1 + max(r for r, _ in cells)
    for row, col in ((-1, 0), (0, -1), (10 - height + 1, 0), (0, 10 - width + 1), (99, 99)):
        assert game.refused(place(0, row, col)) == (422, "out_of_board")


def test_no_such_piece_and_piece_used(alice: Any) -> None:
    game = Game(alice, numbered(alice, "00000001-a"))
    for slot in (3, -1, 99):
        assert game.refused(place(slot, 0, 0)) == (422, "no_such_piece")
    spot = game.first(0)
    game.ok(place(0, spot["row"], spot["col"]))
    assert game.refused(place(0, 5, 5)) == (422, "piece_used")


@pytest.mark.parametrize(
    ("move", "code"),
    [
        ({"type": "place", "piece": "0", "row": 0, "col": 0}, "bad_piece"),
        ({"type": "place", "piece": True, "row": 0, "col": 0}, "bad_piece"),
        ({"type": "place", "piece": 0, "row": "1", "col": 0}, "bad_cell"),
        ({"type": "place", "piece": 0, "row": 0}, "bad_cell"),
        ({"type": "rotate"}, "bad_piece"),
        ({"type": "jump"}, "unknown_move"),
        ({}, "unknown_move"),
    ],
)
def test_malformed_moves(alice: Any, move: dict[str, Any], code: str) -> None:
    game = Game(alice, blocks(alice, ruleset="classic10"))
    assert game.refused(move) == (422, code)


def test_clearing_a_line_reports_lines_points_and_combo(alice: Any) -> None:
    game = Game(alice, numbered(alice, "00000001-c"))
    for _ in range(20):
        options = [
            (len(p["clears"]["rows"]) + len(p["clears"]["cols"]), slot, p)
            for slot, piece in enumerate(game.view["hand"]) if piece
            for p in piece["placements"]
        ]
        grid = game.view["grid"]
        lines, slot, spot = max(options, key=lambda o: (o[0], sum(map(bool, grid[o[2]["row"]]))))
        body = game.ok(place(slot, spot["row"], spot["col"]))
        if lines:
            cleared = next(e for e in body["events"] if e["type"] == "cleared")
            assert [cleared["rows"], cleared["cols"]] == [spot["clears"]["rows"],
                                                          spot["clears"]["cols"]]
            assert body["events"][0]["points"] == spot["points"]
            assert body["view"]["lines_cleared"] == lines
            return
    raise AssertionError("no line cleared")


# --- rotation, new set, continue, finish ----------------------------------------------------


def test_rotation(alice: Any) -> None:
    game = Game(alice, blocks(alice, ruleset="gravity8", rotation=True))
    assert game.view["can_rotate"] is True
    start = game.view["hand"][0]["cells"]
    body = game.ok({"type": "rotate", "piece": 0})
    rotated = body["events"][0]
    assert rotated["type"] == "rotated" and rotated["piece"] == 0
    assert body["view"]["hand"][0]["cells"] == rotated["cells"]
    for _ in range(3):
        game.ok({"type": "rotate", "piece": 0})
    assert game.view["hand"][0]["cells"] == start
    moves = alice.get(f"/api/games/{game.id}/log").json()["moves"]
    assert [m["move"] for m in moves] == [{"type": "rotate", "piece": 0}] * 4
    assert game.refused({"type": "rotate", "piece": 3}) == (422, "no_such_piece")


@pytest.mark.parametrize("params", [{"ruleset": "classic10"}, {"ruleset": "gravity8"},
                                    {"ruleset": "shapes48"}])
def test_rotation_off(alice: Any, params: dict[str, Any]) -> None:
    game = Game(alice, blocks(alice, **params))
    assert game.view["can_rotate"] is False
    assert game.refused({"type": "rotate", "piece": 0}) == (422, "rotation_off")


def test_new_set_spends_the_token_then_no_tokens(alice: Any) -> None:
    game = Game(alice, numbered(alice, "00000001-a"))
    assert game.view["tokens"] == 1 and game.view["can_new_set"] is True
    body = game.ok({"type": "new_set"})
    assert [e["type"] for e in body["events"]][:2] == ["new_set", "dealt"]
    assert body["view"]["tokens"] == 0 and body["view"]["can_new_set"] is False
    assert body["view"]["score"] == 0
    assert game.refused({"type": "new_set"}) == (422, "no_tokens")


@pytest.mark.parametrize("params", [{"ruleset": "shapes48"}, {"ruleset": "gravity8"}])
def test_new_set_not_in_this_game(alice: Any, params: dict[str, Any]) -> None:
    game = Game(alice, blocks(alice, **params))
    assert game.refused({"type": "new_set"}) == (422, "not_allowed")


def test_classic10_stuck_with_a_token_then_new_set(alice: Any) -> None:
    game = Game(alice, numbered(alice, "00000002-a"))
    events = game.play_badly()
    assert game.view["over"] is False and game.view["stuck"] is True
    assert {"type": "stuck", "tokens": 1} in events
    assert game.view["can_new_set"] is True
    game.ok({"type": "new_set"})
    assert game.view["tokens"] == 0
    game.play_badly()
    assert game.view["over"] is True and game.view["final"]["reason"] == "stuck"
    assert game.view["final"]["stuck"] and game.view["final"]["tip"]["code"]


def test_continue_once_then_continue_used(alice: Any) -> None:
    game = Game(alice, numbered(alice, "00000001-b"))
    assert game.refused({"type": "continue"}) == (409, "not_over")
    game.play_badly()
    assert game.view["over"] is True and game.view["can_continue"] is True
    final = game.view["final"]
    assert final["reason"] == "stuck" and final["stuck"]
    assert records(alice) == [(1, final["score"])]
    body = game.ok({"type": "continue"})
    assert body["events"][0]["type"] == "continued"
    assert body["status"] == "active" and game.view["over"] is False
    assert game.view["can_continue"] is False
    game.play_badly()
    assert game.view["over"] is True and game.view["can_continue"] is False
    assert game.refused({"type": "continue"}) == (422, "continue_used")
    # The continued game betters the record, but it is still one game played.
    assert game.view["final"]["score"] > final["score"]
    assert records(alice) == [(1, game.view["final"]["score"])]


def records(player: Any) -> list[tuple[int, int]]:
    """(played, best score) of each of the player's Blocks record tables."""
    tables = player.get("/api/records?game=blocks").json()["records"]
    return [(table["played"], table["score"]) for table in tables]


def test_continue_not_allowed(alice: Any) -> None:
    classic = Game(alice, blocks(alice, ruleset="classic10"))
    assert classic.refused({"type": "continue"}) == (422, "continue_not_allowed")
    finished = Game(alice, blocks(alice, ruleset="shapes48"))
    finished.ok({"type": "finish"})
    assert finished.refused({"type": "continue"}) == (422, "continue_not_allowed")
    zen = Game(alice, blocks(alice, ruleset="shapes48", mode="zen"))
    zen.ok({"type": "finish"})
    assert zen.refused({"type": "continue"}) == (422, "continue_not_allowed")


def test_finish_then_game_over(alice: Any) -> None:
    game = Game(alice, numbered(alice, "00000001-a"))
    spot = game.first(0)
    game.ok(place(0, spot["row"], spot["col"]))
    body = game.ok({"type": "finish"})
    assert body["status"] == "over"
    assert body["outcome"]["reason"] == "finished"
    final = body["view"]["final"]
    assert final["reason"] == "finished" and final["score"] == spot["points"]
    assert final["placements"] == 1
    assert game.refused(place(1, 0, 0)) == (409, "game_over")
    assert game.refused({"type": "finish"}) == (409, "game_over")
    assert game.refused({"type": "new_set"}) == (409, "game_over")


# --- time, versions, seats ------------------------------------------------------------------


def test_chrono_runs_out_on_the_server_clock(alice: Any, clock: Any) -> None:
    game = Game(alice, blocks(alice, ruleset="shapes48", mode="chrono"))
    assert game.view["clock"]["remaining_ms"] == 180_000
    clock.advance(10_000)
    spot = game.first(0)
    body = game.ok(place(0, spot["row"], spot["col"]))
    assert body["server_ms"] == 10_000
    assert body["view"]["clock"] == {
        "limit_ms": 180_000, "remaining_ms": 170_000, "as_of_ms": 10_000, "running": True
    }
    clock.advance(170_000)
    loaded = alice.get(f"/api/games/{game.id}").json()
    assert loaded["status"] == "over" and loaded["outcome"]["reason"] == "time_up"
    assert loaded["view"]["clock"]["remaining_ms"] == 0
    assert loaded["view"]["clock"]["running"] is False
    game.version = loaded["version"]
    assert game.refused(place(1, 0, 0)) == (409, "game_over")
    assert game.refused({"type": "continue"}) == (422, "time_up")


def test_chrono_a_late_move_is_refused(alice: Any, clock: Any) -> None:
    game = Game(alice, blocks(alice, ruleset="shapes48", mode="chrono"))
    clock.advance(180_000)
    spot = game.first(0)
    assert game.refused(place(0, spot["row"], spot["col"])) == (409, "game_over")
    assert alice.get(f"/api/games/{game.id}").json()["outcome"]["reason"] == "time_up"


def test_stale_version(alice: Any) -> None:
    game = Game(alice, numbered(alice, "00000001-a"))
    spot = game.first(0)
    game.ok(place(0, spot["row"], spot["col"]))
    response = alice.move(game.id, 0, {"type": "finish"})
    assert error(response) == (409, "stale_version")
    assert response.json()["current"]["version"] == 1
    assert response.json()["current"]["view"]["over"] is False


def test_someone_else_can_watch_but_not_play(alice: Any, bob: Any) -> None:
    game = Game(alice, numbered(alice, "00000001-a"))
    watched = bob.get(f"/api/games/{game.id}").json()
    assert watched["seat"] is None and watched["view"]["grid"] == game.view["grid"]
    assert error(bob.move(game.id, 0, {"type": "finish"})) == (403, "not_seated")
    assert error(alice.get("/api/games/nope")) == (404, "game_not_found")
    assert error(alice.move("nope", 0, {"type": "finish"})) == (404, "game_not_found")


# --- the daily board, records ---------------------------------------------------------------


def test_daily_once_per_player_and_board_of_honour(alice: Any, bob: Any, clock: FakeClock) -> None:
    first = alice.post("/api/games", json={"game": "blocks", "daily": DAY})
    assert first.status_code == 201
    data = first.json()
    assert data["number"].endswith("-bd")
    assert data["params"] == {"ruleset": "shapes48", "mode": "daily", "rotation": False}
    again = alice.post("/api/games", json={"game": "blocks", "daily": DAY})
    assert error(again) == (409, "daily_played")
    assert again.json()["id"] == data["id"]
    theirs = bob.new_game("blocks", daily=DAY)
    assert theirs["number"] == data["number"] and theirs["id"] != data["id"]
    assert theirs["view"]["hand"] == data["view"]["hand"]

    board = alice.get(f"/api/daily/blocks?date={DAY}").json()
    assert board["number"] == data["number"] and board["honour"] == []

    game = Game(alice, data)
    spot = game.first(0)
    clock.advance(1_500)  # a person's pace: the board of honour lists no faster play
    game.ok(place(0, spot["row"], spot["col"]))
    assert game.view["can_continue"] is False
    game.ok({"type": "finish"})
    assert game.refused({"type": "continue"}) == (422, "continue_not_allowed")
    honour = bob.get(f"/api/daily/blocks?date={DAY}").json()["honour"]
    assert honour == [
        {"rank": 1, "name": None, "score": spot["points"], "time_ms": 1_500, "game_id": game.id}
    ]
    loaded = alice.get(f"/api/games/{game.id}").json()
    assert loaded["daily"] == DAY and loaded["view"]["over"] is True
    assert error(alice.post("/api/games", json={"game": "blocks", "daily": DAY})) == (
        409, "daily_played")


def test_records_per_ruleset_and_mode(alice: Any, bob: Any) -> None:
    for params in (
        {"ruleset": "classic10"},
        {"ruleset": "gravity8", "rotation": True},
        {"ruleset": "shapes48", "mode": "hardcore"},
        {"ruleset": "shapes48", "mode": "chrono"},
        {"ruleset": "shapes48", "mode": "zen"},
    ):
        game = Game(alice, blocks(alice, **params))
        spot = game.first(0)
        game.ok(place(0, spot["row"], spot["col"]))
        game.ok({"type": "finish"})
    records = alice.get("/api/records?game=blocks").json()["records"]
    keys = {r["key"]: r for r in records}
    assert set(keys) == {"classic10/classic", "gravity8/classic/rot", "shapes48/hardcore"}
    assert all(r["played"] == 1 and r["score"] > 0 for r in records)
    assert bob.get("/api/records?game=blocks").json()["records"] == []


def test_continue_with_no_room(client: Any, alice: Any) -> None:
    """Stuck with three vertical 5-bars on a board where emptying the four fullest rows
    (0, 2, 4, 6: interleaved with rows that keep their holes) leaves no column of five."""
    from dataclasses import replace

    from sqlalchemy import update

    from app.models import Game as GameRow
    from engines.blocks import ENGINE
    from engines.blocks.rulesets import ruleset_of

    holes = {0: {0}, 1: {1, 2}, 2: {2}, 3: {3, 4}, 4: {4}, 5: {5, 6}, 6: {6}, 7: {7, 8},
             8: {9, 0}, 9: {1, 3}}
    colours = tuple(0 if c in holes[r] else 1 for r in range(10) for c in range(10))
    data = numbered(alice, "00000001-b")
    params, seed = ENGINE.from_number(data["number"])
    bar = ruleset_of(params).index_of("line5_v")
    stuck = replace(
        ENGINE.new_game(params, seed),
        board=sum(1 << i for i, kind in enumerate(colours) if kind),
        colours=colours,
        hand=(bar, bar, bar),
        end_reason="stuck",
    )
    assert ENGINE.view(stuck, 0)["can_continue"] is False

    async def write() -> None:
        async with client.app.state.services.store.transaction() as session:
            await session.execute(
                update(GameRow).where(GameRow.id == data["id"])
                .values(state=ENGINE.dump_state(stuck), status="over")
            )

    client.portal.call(write)
    game = Game(alice, alice.get(f"/api/games/{data['id']}").json())
    assert game.view["over"] is True and game.view["final"]["reason"] == "stuck"
    assert game.refused({"type": "continue"}) == (422, "no_room")
