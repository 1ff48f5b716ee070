"""The protocol around the rules: params, numbers, moves, codecs, seats, errors."""

from __future__ import annotations

import json
from typing import Any

import pytest
from blocks_support import CLASSIC10, SHAPES48, make_state, place

from engines.blocks import ENGINE
from engines.blocks.moves import Continue, Finish, NewSet, Place, Rotate
from engines.blocks.params import Params
from engines.core.protocol import BadMove, BadParams, ComputerPlayer, IllegalMove, SeatKind

ALL_PARAMS = [
    Params("classic10"),
    Params("shapes48"),
    Params("shapes48", "daily"),
    Params("shapes48", "zen"),
    Params("shapes48", "chrono"),
    Params("shapes48", "hardcore"),
    Params("gravity8"),
    Params("gravity8", rotation=True),
]


def test_default_params() -> None:
    assert ENGINE.parse_params({}) == Params("classic10", "classic", False)
    assert ENGINE.dump_params(Params("gravity8", rotation=True)) == {
        "ruleset": "gravity8", "mode": "classic", "rotation": True
    }


@pytest.mark.parametrize("params", ALL_PARAMS)
def test_params_round_trip(params: Params) -> None:
    assert ENGINE.parse_params(ENGINE.dump_params(params)) == params
    assert ENGINE.parse_params({**ENGINE.dump_params(params), "extra": 1}) == params


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ({"ruleset": "tetris"}, "bad_ruleset"),
        ({"ruleset": 3}, "bad_ruleset"),
        ({"ruleset": None}, "bad_ruleset"),
        ({"mode": "blitz"}, "bad_mode"),
        ({"mode": "zen"}, "bad_mode"),
        ({"ruleset": "gravity8", "mode": "hardcore"}, "bad_mode"),
        ({"ruleset": "shapes48", "mode": ["zen"]}, "bad_mode"),
        ({"ruleset": "gravity8", "rotation": 1}, "bad_rotation"),
        ({"ruleset": "gravity8", "rotation": "true"}, "bad_rotation"),
        ({"ruleset": "shapes48", "rotation": True}, "bad_rotation"),
        ({"rotation": True}, "bad_rotation"),
    ],
)
def test_bad_params(raw: dict[str, Any], code: str) -> None:
    with pytest.raises(BadParams) as error:
        ENGINE.parse_params(raw)
    assert error.value.code == code
    assert error.value.message


def test_params_must_be_a_mapping() -> None:
    with pytest.raises(BadParams) as error:
        ENGINE.parse_params(["classic10"])  # type: ignore[arg-type]
    assert error.value.code == "bad_params"


@pytest.mark.parametrize(
    ("params", "letters"),
    list(zip(ALL_PARAMS, ["a", "b", "bd", "bz", "bc", "bh", "c", "cr"], strict=True)),
)
def test_number_letters(params: Params, letters: str) -> None:
    assert ENGINE.number(params, 41739205) == f"41739205-{letters}"
    assert ENGINE.from_number(f"41739205-{letters}") == (params, 41739205)
    assert ENGINE.from_number(ENGINE.number(params, 7)) == (params, 7)


@pytest.mark.parametrize(
    ("number", "code"),
    [("12345678-z", "bad_number"), ("12345678-ab", "bad_number"),
     ("1234567-a", "bad_number"), ("12345678", "bad_number"), ("12345678-A", "bad_number")],
)
def test_bad_numbers(number: str, code: str) -> None:
    with pytest.raises(BadParams) as error:
        ENGINE.from_number(number)
    assert error.value.code == code


@pytest.mark.parametrize("seed", [-1, 100_000_000, True, "5"])
def test_bad_seeds(seed: Any) -> None:
    with pytest.raises(BadParams) as error:
        ENGINE.new_game(CLASSIC10, seed)
    assert error.value.code == "bad_seed"


@pytest.mark.parametrize(
    ("raw", "move"),
    [
        ({"type": "place", "piece": 2, "row": 9, "col": 0}, Place(2, 9, 0)),
        ({"type": "rotate", "piece": 1}, Rotate(1)),
        ({"type": "new_set"}, NewSet()),
        ({"type": "continue"}, Continue()),
        ({"type": "finish"}, Finish()),
    ],
)
def test_moves_round_trip(raw: dict[str, Any], move: Any) -> None:
    assert ENGINE.parse_move(raw) == move
    assert ENGINE.dump_move(move) == raw
    assert ENGINE.parse_move({**raw, "ignored": True}) == move


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ({}, "unknown_move"),
        ({"type": "drop"}, "unknown_move"),
        ({"type": 1}, "unknown_move"),
        ({"type": "place", "row": 0, "col": 0}, "bad_piece"),
        ({"type": "place", "piece": True, "row": 0, "col": 0}, "bad_piece"),
        ({"type": "place", "piece": 1.0, "row": 0, "col": 0}, "bad_piece"),
        ({"type": "place", "piece": 0, "row": "1", "col": 0}, "bad_cell"),
        ({"type": "place", "piece": 0, "row": 1, "col": False}, "bad_cell"),
        ({"type": "place", "piece": 0, "row": 1}, "bad_cell"),
        ({"type": "rotate"}, "bad_piece"),
    ],
)
def test_bad_moves(raw: dict[str, Any], code: str) -> None:
    with pytest.raises(BadMove) as error:
        ENGINE.parse_move(raw)
    assert error.value.code == code


def test_a_move_must_be_a_mapping() -> None:
    with pytest.raises(BadMove) as error:
        ENGINE.parse_move("place")  # type: ignore[arg-type]
    assert error.value.code == "bad_move"


def illegal(state: Any, raw: dict[str, Any], at_ms: int = 0, seat: int = 0) -> IllegalMove:
    with pytest.raises(IllegalMove) as error:
        ENGINE.apply(state, ENGINE.parse_move(raw), at_ms, seat)
    return error.value


def test_placement_errors() -> None:
    rows = ["#........."] + ["." * 10] * 9
    state = make_state(CLASSIC10, rows, "bar3_h", None, "square2")
    assert illegal(state, {"type": "place", "piece": 3, "row": 0, "col": 0}).code == "no_such_piece"
    assert illegal(state, {"type": "place", "piece": -1, "row": 0, "col": 0}).code == (
        "no_such_piece"
    )
    assert illegal(state, {"type": "place", "piece": 1, "row": 0, "col": 0}).code == "piece_used"
    for row, col in ((0, 8), (-1, 0), (10, 0), (0, -1), (9, 9)):
        error = illegal(state, {"type": "place", "piece": 0, "row": row, "col": col})
        assert error.code == "out_of_board"
        assert error.details == {"piece": 0, "row": row, "col": col}
    error = illegal(state, {"type": "place", "piece": 0, "row": 0, "col": 0})
    assert error.code == "occupied" and error.details == {"cells": [[0, 0]]}
    error = illegal(state, {"type": "place", "piece": 0, "row": 0, "col": 1}, seat=1)
    assert error.code == "not_your_seat"
    assert error.message


def test_the_anchor_is_offset_zero_zero_even_off_the_shape() -> None:
    state = make_state(CLASSIC10, None, "corner3_br", "single")
    after, events = place(state, 0, 4, 4)
    assert events[0]["cells"] == [[4, 5], [5, 4], [5, 5]]
    assert after.colours[4 * 10 + 4] == 0


def test_engine_shape() -> None:
    state = ENGINE.new_game(SHAPES48, 3)
    assert ENGINE.name == "blocks"
    assert ENGINE.seats(SHAPES48) == [SeatKind.OWNER]
    assert ENGINE.to_move(state) == 0
    assert ENGINE.params_of(state) == SHAPES48
    assert ENGINE.outcome(state) is None and ENGINE.record(state) is None
    assert not isinstance(ENGINE, ComputerPlayer)  # no computer seat: no computer player
    assert ENGINE.daily_params({}) == Params("shapes48", "daily")
    assert ENGINE.daily_once(Params("shapes48", "daily")) is True
    assert ENGINE.daily_once(SHAPES48) is False


def test_tick_does_nothing_without_a_clock() -> None:
    state = ENGINE.new_game(SHAPES48, 3)
    assert ENGINE.tick(state, 10**9) == (state, [])


@pytest.mark.parametrize("params", ALL_PARAMS)
def test_state_round_trips_through_json(params: Params) -> None:
    state = ENGINE.new_game(params, 31337)
    view = ENGINE.view(state, 0)
    slot = next(i for i, h in enumerate(view["hand"]) if h and h["placements"])
    spot = view["hand"][slot]["placements"][0]
    state, _ = place(state, slot, spot["row"], spot["col"], at_ms=1234)
    data = json.loads(json.dumps(ENGINE.dump_state(state)))
    assert ENGINE.load_state(data) == state
    assert ENGINE.dump_state(ENGINE.load_state(data)) == data


@pytest.mark.parametrize(
    "change",
    [
        {"grid": [[0] * 10] * 9},
        {"hand": ["nope", None, None]},
        {"hand": [None, None]},
        {"score": "1"},
        {"end_reason": "bored"},
        {"continue_used": 1},
        {"params": {"ruleset": "x"}},
    ],
)
def test_load_state_rejects_garbage(change: dict[str, Any]) -> None:
    data = {**ENGINE.dump_state(ENGINE.new_game(CLASSIC10, 1)), **change}
    with pytest.raises(BadParams):
        ENGINE.load_state(data)


def test_apply_never_mutates_its_input() -> None:
    state = make_state(CLASSIC10, None, "single", "single", "single")
    before = ENGINE.dump_state(state)
    place(state, 0, 0, 0)
    ENGINE.apply(state, NewSet(), 0)
    ENGINE.apply(state, Finish(), 0)
    assert ENGINE.dump_state(state) == before


def test_describe_lists_the_params_and_every_ruleset_and_mode() -> None:
    entry = ENGINE.describe()
    assert entry["name"] == "blocks"
    assert entry["params"] == {
        "ruleset": {"choices": ["classic10", "shapes48", "gravity8"], "default": "classic10"},
        "mode": {"choices": ["classic", "daily", "zen", "chrono", "hardcore"],
                 "default": "classic"},
        "rotation": {"choices": [False, True], "default": False},
    }
    rulesets = entry["rulesets"]
    assert {name: (r["rows"], r["pieces"], list(r["modes"])) for name, r in rulesets.items()} == {
        "classic10": (10, 19, ["classic"]),
        "shapes48": (10, 48, ["classic", "daily", "zen", "chrono", "hardcore"]),
        "gravity8": (8, 19, ["classic"]),
    }
    assert rulesets["shapes48"]["modes"]["chrono"] == {
        "records": False, "new_set": False, "continue": True, "time_limit_ms": 180_000,
        "daily_once": False,
    }
    assert rulesets["classic10"]["modes"]["classic"]["new_set"] is True
    for name, ruleset in rulesets.items():
        for mode in ruleset["modes"]:
            ENGINE.parse_params({"ruleset": name, "mode": mode})
    json.dumps(entry)
