"""Params, moves, game numbers and snapshots: strict parsing, exact round trips."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engines.core.protocol import BadMove, BadParams
from engines.pairs import ENGINE
from engines.pairs.moves import Pair
from engines.pairs.params import Params


def test_params_defaults_and_choices() -> None:
    assert ENGINE.parse_params({}) == Params("classic", "calm")
    assert ENGINE.parse_params({"size": "long", "mode": "timed", "extra": 1}) == Params(
        "long", "timed"
    )
    assert ENGINE.dump_params(Params("beginner", "timed")) == {"size": "beginner", "mode": "timed"}


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ({"size": "huge"}, "bad_size"),
        ({"size": 1}, "bad_size"),
        ({"size": None}, "bad_size"),
        ({"mode": "zen"}, "bad_mode"),
        ({"mode": True}, "bad_mode"),
        (["size"], "bad_params"),
    ],
)
def test_bad_params(raw: Any, code: str) -> None:
    with pytest.raises(BadParams) as caught:
        ENGINE.parse_params(raw)
    assert caught.value.code == code


@pytest.mark.parametrize(
    "raw",
    [
        {"type": "pair", "a": [0, 1], "b": [2, 3]},
        {"type": "hint"},
        {"type": "shuffle"},
        {"type": "pause"},
        {"type": "resume"},
    ],
)
def test_moves_round_trip(raw: dict[str, Any]) -> None:
    move = ENGINE.parse_move(raw)
    assert ENGINE.dump_move(move) == raw
    assert ENGINE.parse_move(ENGINE.dump_move(move)) == move


def test_pair_cells_may_be_tuples_and_extra_keys_are_ignored() -> None:
    move = ENGINE.parse_move({"type": "pair", "a": (0, 1), "b": [-1, 9], "why": "x"})
    assert move == Pair((0, 1), (-1, 9))


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("pair", "bad_move"),
        ({}, "unknown_move"),
        ({"type": "swap"}, "unknown_move"),
        ({"type": 1}, "unknown_move"),
        ({"type": "pair", "a": [0, 1]}, "bad_cell"),
        ({"type": "pair", "a": [0, 1], "b": [True, 0]}, "bad_cell"),
        ({"type": "pair", "a": [0, 1], "b": [0.0, 1]}, "bad_cell"),
        ({"type": "pair", "a": [0, 1], "b": [1]}, "bad_cell"),
        ({"type": "pair", "a": [0, 1], "b": [1, 2, 3]}, "bad_cell"),
        ({"type": "pair", "a": "0,1", "b": [1, 2]}, "bad_cell"),
        ({"type": "pair", "a": {"r": 0, "c": 1}, "b": [1, 2]}, "bad_cell"),
    ],
)
def test_bad_moves(raw: Any, code: str) -> None:
    with pytest.raises(BadMove) as caught:
        ENGINE.parse_move(raw)
    assert caught.value.code == code


def test_numbers_name_the_size_only() -> None:
    assert ENGINE.number(Params("beginner", "timed"), 41739205) == "41739205-a"
    assert ENGINE.number(Params("classic"), 7) == "00000007-b"
    assert ENGINE.number(Params("long"), 99_999_999) == "99999999-c"
    assert ENGINE.from_number("41739205-b") == (Params("classic", "calm"), 41739205)
    assert ENGINE.from_number("00000000-a") == (Params("beginner", "calm"), 0)
    assert ENGINE.from_number("12345678-c") == (Params("long", "calm"), 12345678)


@pytest.mark.parametrize("number", ["41739205-d", "41739205-ab", "4173920-b", "41739205", 7])
def test_bad_numbers(number: Any) -> None:
    with pytest.raises(BadParams) as caught:
        ENGINE.from_number(number)
    assert caught.value.code == "bad_number"


@pytest.mark.parametrize("seed", [-1, 100_000_000, True])
def test_bad_seeds(seed: Any) -> None:
    with pytest.raises(BadParams) as caught:
        ENGINE.new_game(Params(), seed)
    assert caught.value.code == "bad_seed"


def test_the_same_number_deals_the_same_board_in_either_mode() -> None:
    """Restarting a finished timed board in calm mode is a new game from its number."""
    timed = ENGINE.new_game(Params("long", "timed"), 20261129)
    params, seed = ENGINE.from_number(ENGINE.number(ENGINE.params_of(timed), timed.seed))
    calm = ENGINE.new_game(params, seed)
    assert params.mode == "calm"
    assert calm.tiles == timed.tiles
    assert calm.pictures == timed.pictures
    assert calm.rng == timed.rng


def test_snapshot_round_trips_through_json() -> None:
    state = ENGINE.new_game(Params("classic", "timed"), 123)
    state, _ = ENGINE.apply(state, ENGINE.parse_move({"type": "hint"}), 500)
    state, _ = ENGINE.apply(state, ENGINE.parse_move({"type": "pause"}), 900)
    data = json.loads(json.dumps(ENGINE.dump_state(state)))
    assert ENGINE.load_state(data) == state
    assert isinstance(data["rng"], str)


@pytest.mark.parametrize(
    "change",
    [
        {"size": "huge"},
        {"tiles": [0, 1]},
        {"rng": 5},
        {"score": "7"},
        {"clock": {"as_of_ms": 0}},
        {"over": 0},
        {"hint": [1]},
    ],
)
def test_bad_snapshots(change: dict[str, Any]) -> None:
    data = ENGINE.dump_state(ENGINE.new_game(Params(), 1)) | change
    with pytest.raises(BadParams) as caught:
        ENGINE.load_state(data)
    assert caught.value.code == "bad_state"
