"""gravity8 (seed 003, "ArcadeForge Verse"): tetrominoes, rotation, row gravity, scoring."""

from __future__ import annotations

import pytest
from blocks_support import (
    GRAVITY8,
    GRAVITY8_ROT,
    event,
    make_state,
    picture,
    place,
    types,
)

from engines.blocks import ENGINE
from engines.blocks.moves import Continue, NewSet, Rotate
from engines.blocks.rulesets import ruleset_of
from engines.blocks.shapes import TETROMINOES, rotation_table
from engines.core.protocol import IllegalMove, Outcome, RecordEntry
from engines.core.rng import Rng

RULES = ruleset_of(GRAVITY8)
TURN = rotation_table(TETROMINOES)
NAMES = [s.name for s in TETROMINOES]


def turned(name: str) -> str:
    return NAMES[TURN[NAMES.index(name)]]


def test_the_19_tetromino_positions() -> None:
    assert NAMES == [
        "i_h", "i_v", "o", "t_up", "t_right", "t_down", "t_left", "s_h", "s_v", "z_h", "z_v",
        "j_0", "j_90", "j_180", "j_270", "l_0", "l_90", "l_180", "l_270",
    ]
    assert all(s.size == 4 for s in TETROMINOES)
    assert len({s.cells for s in TETROMINOES}) == 19
    assert {s.kind for s in TETROMINOES} == set(range(1, 8))


def test_a_quarter_turn_clockwise() -> None:
    assert turned("i_h") == "i_v" and turned("i_v") == "i_h"
    assert turned("o") == "o"
    assert [turned(n) for n in ("t_up", "t_right", "t_down", "t_left")] == [
        "t_right", "t_down", "t_left", "t_up"
    ]
    assert turned("s_h") == "s_v" and turned("z_v") == "z_h"
    assert turned("l_0") == "l_90" and turned("j_270") == "j_0"
    by_name = {s.name: s.cells for s in TETROMINOES}
    assert by_name["l_0"] == ((0, 0), (1, 0), (2, 0), (2, 1))
    assert by_name["l_90"] == ((0, 0), (0, 1), (0, 2), (1, 0))
    for index in range(19):
        assert TURN[TURN[TURN[TURN[index]]]] == index


def test_gravity_moves_the_rows_above_a_cleared_row_down() -> None:
    board = ["........"] * 4 + ["...3....", "..44.5..", "2.11..6.", "7777..55"]
    state = make_state(GRAVITY8, board, "o", "t_up")
    after, events = place(state, 0, 6, 4)
    assert types(events) == ["placed", "cleared", "gravity"]
    assert event(events, "cleared")["rows"] == [7] and event(events, "cleared")["cols"] == []
    assert event(events, "gravity")["moves"] == [[4, 5], [5, 6], [6, 7]]
    assert event(events, "placed")["points"] == 4 + 10
    expected = ["........"] * 5 + ["...3....", "..44.5..", "2.11226."]
    assert (after.board, after.colours) == picture(expected)


def test_cleared_columns_simply_empty_then_rows_fall() -> None:
    board = ["1.......", "1.......", "1..2....", "1.......", "........", ".3......", "..4.....",
             ".5555555"]
    state = make_state(GRAVITY8, board, "i_v", "o")
    after, events = place(state, 0, 4, 0)
    cleared = event(events, "cleared")
    assert (cleared["rows"], cleared["cols"], cleared["points"]) == ([7], [0], 30)
    assert event(events, "placed")["points"] == 4 + 30
    assert event(events, "gravity")["moves"] == [[2, 3], [5, 6], [6, 7]]
    expected = ["........"] * 3 + ["...2....", "........", "........", ".3......", "..4....."]
    assert (after.board, after.colours) == picture(expected)
    assert after.combo == 0 and after.lines == 2


def test_a_cleared_grid_has_no_bonus() -> None:
    board = ["........"] * 7 + ["....1111"]
    after, events = place(make_state(GRAVITY8, board, "i_h", "o"), 0, 7, 0)
    assert types(events) == ["placed", "cleared"]
    assert after.score == 14 and after.board == 0


# No four empty cells in a row; four empty cells in column 7; a 2×2 hole at rows 4-5.
NO_BAR_ACROSS = [
    "##.####.",
    "####.##.",
    "#.#####.",
    "###.###.",
    "#..#.###",
    "#..##.##",
    "######.#",
    ".#######",
]


def test_without_rotation_a_piece_that_fits_nowhere_ends_the_game() -> None:
    state = make_state(GRAVITY8, NO_BAR_ACROSS, "o", "i_h")
    after, events = place(state, 0, 4, 1, at_ms=7_000)
    assert types(events) == ["placed", "over"]
    assert ENGINE.outcome(after) == Outcome("stuck", (4,), None, 7_000)
    assert ENGINE.record(after) == RecordEntry("gravity8/classic", 4, 7_000)
    assert ENGINE.view(after, 0)["final"]["tip"] == {"code": "keep_row", "length": 4}


def test_with_rotation_a_piece_counts_if_any_rotation_fits() -> None:
    state = make_state(GRAVITY8_ROT, NO_BAR_ACROSS, "o", "i_h")
    after, events = place(state, 0, 4, 1)
    assert types(events) == ["placed"]
    view = ENGINE.view(after, 0)
    assert view["stuck"] is False and view["can_rotate"] is True
    entry = view["hand"][1]
    assert (entry["fits"], entry["placeable"], entry["placements"]) == (False, True, [])
    turned_state, events = ENGINE.apply(after, Rotate(1), 100)
    assert events == [{"type": "rotated", "piece": 1, "name": "i_v", "kind": 1,
                       "cells": [[0, 0], [1, 0], [2, 0], [3, 0]]}]
    entry = ENGINE.view(turned_state, 0)["hand"][1]
    assert entry["name"] == "i_v" and entry["fits"] is True
    assert entry["placements"] == [
        {"row": 0, "col": 7, "clears": {"rows": [], "cols": [7]}, "points": 14}
    ]
    final, events = place(turned_state, 1, 0, 7)
    assert event(events, "cleared")["cols"] == [7] and final.score == 18


def test_rotation_is_an_option() -> None:
    state = ENGINE.new_game(GRAVITY8, 1)
    with pytest.raises(IllegalMove) as error:
        ENGINE.apply(state, Rotate(0), 0)
    assert error.value.code == "rotation_off"
    rotating = ENGINE.new_game(GRAVITY8_ROT, 1)
    for slot, code in ((3, "no_such_piece"), (-1, "no_such_piece")):
        with pytest.raises(IllegalMove) as error:
            ENGINE.apply(rotating, Rotate(slot), 0)
        assert error.value.code == code
    used = make_state(GRAVITY8_ROT, None, None, "o", "o")
    with pytest.raises(IllegalMove) as error:
        ENGINE.apply(used, Rotate(0), 0)
    assert error.value.code == "piece_used"


def test_four_turns_give_the_piece_back() -> None:
    state = make_state(GRAVITY8_ROT, None, "l_0", "o", "t_up")
    for _ in range(4):
        state, _ = ENGINE.apply(state, Rotate(0), 0)
    assert state.hand == make_state(GRAVITY8_ROT, None, "l_0", "o", "t_up").hand


def test_no_new_set_and_no_continue() -> None:
    state = ENGINE.new_game(GRAVITY8, 2)
    for move, code in ((NewSet(), "not_allowed"), (Continue(), "continue_not_allowed")):
        with pytest.raises(IllegalMove) as error:
            ENGINE.apply(state, move, 0)
        assert error.value.code == code


def test_no_dealing_guarantee() -> None:
    state = make_state(GRAVITY8, NO_BAR_ACROSS)
    for seed in range(20):
        dealt = RULES.dealer.deal(Rng(seed), state.board, 0, RULES.table, RULES.grid.full)
        assert dealt == RULES.dealer.draw_set(Rng(seed), 0)


def test_a_new_set_that_fits_nowhere_ends_the_game() -> None:
    # Only the 2×2 hole fits anything; the o fills it and the next set is dealt.
    for rng_state in range(200):
        state = make_state(GRAVITY8, NO_BAR_ACROSS, None, "o", rng=rng_state)
        after, events = place(state, 1, 4, 1)
        if after.over:
            assert types(events) == ["placed", "dealt", "over"]
            assert len(ENGINE.view(after, 0)["final"]["stuck"]) == 3
            return
    pytest.fail("every deal had a fitting piece")


def test_record_key_with_rotation() -> None:
    state = make_state(GRAVITY8_ROT, None, "o", end_reason="finished", score=50, end_ms=3)
    assert ENGINE.record(state) == RecordEntry("gravity8/classic/rot", 50, 3)
