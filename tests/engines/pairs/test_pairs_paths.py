"""Paths: at most two turns, through empty cells, one frame ring; the pink blocker."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pairs_support import bfs_min_turns, make_state, pair, play

from engines.core.protocol import IllegalMove
from engines.pairs.grid import Grid, grid_for
from engines.pairs.paths import find_path, reach, single_blockers
from tests.profile import examples

STRIPES = """
a a b b c c
d d e e f f
a a b b c c
d d e e f f
a a b b c c
d d e e f f
"""


def removed_path(text: str, a: tuple[int, int], b: tuple[int, int]) -> list[list[int]]:
    state = make_state(text)
    _, events = play(state, pair(a, b), 0)
    assert events[0]["type"] == "removed"
    path: list[list[int]] = events[0]["path"]
    return path


def refusal(text: str, a: tuple[int, int], b: tuple[int, int]) -> IllegalMove:
    state = make_state(text)
    with pytest.raises(IllegalMove) as caught:
        play(state, pair(a, b), 0)
    return caught.value


def test_neighbours_join_straight() -> None:
    assert removed_path(STRIPES, (2, 0), (2, 1)) == [[2, 0], [2, 1]]


def test_straight_line_over_empty_cells() -> None:
    board = """
    b b c c d d
    e e f f b b
    a . . . . a
    c c d d e e
    f f b b c c
    d d e e f f
    """
    assert removed_path(board, (2, 0), (2, 5)) == [[2, 0], [2, 5]]


def test_top_row_tiles_join_over_the_frame_however_far_apart() -> None:
    board = """
    a b b c c a
    d d e e f f
    a a b b c c
    d d e e f f
    a a b b c c
    d d e e f f
    """
    assert removed_path(board, (0, 0), (0, 5)) == [[0, 0], [-1, 0], [-1, 5], [0, 5]]


def test_bottom_row_uses_frame_row_numbered_rows() -> None:
    board = """
    a a b b c c
    d d e e f f
    a a b b c c
    d d e e f f
    a a b b c c
    d e e f f d
    """
    assert removed_path(board, (5, 0), (5, 5)) == [[5, 0], [6, 0], [6, 5], [5, 5]]


def test_left_column_uses_frame_column_minus_one() -> None:
    board = """
    b a a b c c
    a d d e e f
    c a b b c f
    d d e e f f
    a a b b c c
    a d e e f f
    """
    assert removed_path(board, (1, 0), (5, 0)) == [[1, 0], [1, -1], [5, -1], [5, 0]]


def test_one_turn_takes_the_open_corner() -> None:
    board = """
    a b . . . .
    . . . . . .
    . . . . . a
    . . . . . .
    . . . . . .
    . . . . . b
    """
    assert removed_path(board, (0, 0), (2, 5)) == [[0, 0], [2, 0], [2, 5]]


def test_two_turns_z_shape_inside_the_board() -> None:
    board = """
    a . . b b b
    c c . c c c
    b b . . . a
    b c d d e e
    f f d d e e
    . . . . . .
    """
    assert removed_path(board, (0, 0), (2, 5)) == [[0, 0], [0, 2], [2, 2], [2, 5]]


def test_straight_line_wins_over_an_open_u_turn() -> None:
    # The straight line in row 2 is open, and so is a U through row 1: fewest turns win.
    board = """
    b b c c d d
    . . . . . .
    a . . . . a
    c c d d e e
    f f b b c c
    d d e e f f
    """
    assert removed_path(board, (2, 0), (2, 5)) == [[2, 0], [2, 5]]


def test_opposite_corners_never_join_around_the_outside() -> None:
    # Up, across the top frame, down the right frame and back in is three turns.
    board = """
    a b b c c d
    d e e f f b
    b c c d d e
    e f f b b c
    c d d e e f
    f f b b c a
    """
    error = refusal(board, (0, 0), (5, 5))
    assert error.code == "no_path"
    assert error.details == {}


def test_one_tile_in_every_way_is_the_blocker() -> None:
    board = """
    b b c c d d
    e e f f b b
    a . h . . a
    c c d d e e
    f f b b c c
    d d e h f f
    """
    error = refusal(board, (2, 0), (2, 5))
    assert error.code == "path_blocked"
    assert error.details == {"blocker": [2, 2]}


def test_three_turn_frame_way_is_not_a_path_but_one_tile_is_a_blocker() -> None:
    board = """
    a b b c c d
    d e e f f a
    b c c d d e
    e f f b b c
    c d d e e f
    f f b b c c
    """
    error = refusal(board, (0, 0), (1, 5))
    assert error.code == "path_blocked"
    assert error.details == {"blocker": [0, 5]}


def test_two_tiles_on_one_way_is_no_path() -> None:
    board = """
    b b c c d d
    e e f f b b
    a . h . i a
    c c d d e e
    f f b b c c
    d d e h f i
    """
    assert refusal(board, (2, 0), (2, 5)).code == "no_path"


def test_two_different_lone_blockers_is_no_path() -> None:
    # Row 2 is blocked by h alone and the U through row 3 by i alone: not exactly one tile.
    board = """
    b b c c d d
    e e f f b b
    a . h . . a
    . . i . . .
    c c d d e e
    f f h i f f
    """
    state = make_state(board)
    grid = state.grid
    blockers = single_blockers(
        grid, grid.pos(2, 0), grid.pos(2, 5), grid.occupancy(state.tiles)
    )
    assert blockers == (1 << grid.pos(2, 2)) | (1 << grid.pos(3, 2))
    assert refusal(board, (2, 0), (2, 5)).code == "no_path"


# --- against a breadth-first reference on random boards ------------------------------


@st.composite
def boards(draw: st.DrawFn) -> tuple[Grid, int, int, int]:
    grid = grid_for(draw(st.sampled_from([6, 8, 9])), 6)
    size = len(grid.pos_of_index)
    cells = draw(st.lists(st.booleans(), min_size=size, max_size=size))
    occupied = sum(1 << p for p, full in zip(grid.pos_of_index, cells, strict=True) if full)
    a, b = draw(
        st.lists(st.sampled_from(grid.pos_of_index), min_size=2, max_size=2, unique=True)
    )
    return grid, occupied | (1 << a) | (1 << b), a, b


def segment_cells(p: tuple[int, int], q: tuple[int, int]) -> list[tuple[int, int]]:
    (r1, c1), (r2, c2) = p, q
    assert r1 == r2 or c1 == c2, "segments are straight"
    if r1 == r2:
        step = 1 if c2 > c1 else -1
        return [(r1, c) for c in range(c1, c2 + step, step)]
    step = 1 if r2 > r1 else -1
    return [(r, c1) for r in range(r1, r2 + step, step)]


@settings(max_examples=examples(400), deadline=None)
@given(boards())
def test_paths_agree_with_breadth_first_search(board: tuple[Grid, int, int, int]) -> None:
    grid, occupied, a, b = board
    expected_turns = bfs_min_turns(grid, a, b, occupied)
    path = find_path(grid, a, b, occupied)
    assert bool(reach(grid, a, occupied) >> b & 1) == (expected_turns is not None)
    assert bool(reach(grid, b, occupied) >> a & 1) == (expected_turns is not None)
    if expected_turns is None:
        assert path is None
        blockers = single_blockers(grid, a, b, occupied)
        for pos in grid.pos_of_index:
            if pos in (a, b) or not occupied >> pos & 1:
                continue
            opens = bfs_min_turns(grid, a, b, occupied & ~(1 << pos)) is not None
            assert bool(blockers >> pos & 1) == opens
        return
    assert path is not None
    assert path[0] == grid.point(a) and path[-1] == grid.point(b)
    assert len(path) - 2 == expected_turns  # corners are exactly the turns
    walked: list[tuple[int, int]] = []
    for p, q in zip(path, path[1:], strict=False):
        assert p != q
        walked.extend(segment_cells(p, q)[1:])
    for row, col in walked[:-1]:
        assert -1 <= row <= grid.rows and -1 <= col <= grid.cols  # one frame ring, never two
        assert not occupied >> grid.pos(row, col) & 1
    for before, corner, after in zip(path, path[1:], path[2:], strict=False):
        assert (before[0] == corner[0]) != (corner[0] == after[0]), "a corner is a real turn"
