"""The board cache is bounded by the boards' weight, not by their count."""

from __future__ import annotations

import gc
import pickle
import tracemalloc
from collections.abc import Iterator

import pytest

from engines.core.bits import bits
from engines.triangles import board as boards
from engines.triangles.board import Board, get_board
from engines.triangles.field import PHONE, TABLET


@pytest.fixture
def small_cache() -> Iterator[int]:
    """A budget of about three and a half 24-star boards (each weighs 90–100 KiB)."""
    budget = 350 * 1024
    boards.set_cache_budget(budget)
    yield budget
    boards.set_cache_budget(boards.CACHE_BYTES)


def test_building_boards_keeps_the_cache_within_its_budget(small_cache: int) -> None:
    built = [get_board("phone", 24, seed) for seed in range(1, 11)]
    assert boards.BOARDS.weight <= small_cache
    assert boards.BOARDS.weight == sum(b.nbytes for b in built if b.origin in boards.BOARDS)
    assert [b.origin in boards.BOARDS for b in built] == [False] * 7 + [True] * 3
    assert get_board("phone", 24, 10) is built[-1]  # still kept: the very same board
    again = get_board("phone", 24, 1)  # dropped: built anew, equal but not the same
    assert again is not built[0] and again.stars == built[0].stars
    assert boards.BOARDS.weight <= small_cache


def test_a_board_asked_for_is_kept_before_older_ones(small_cache: int) -> None:
    first, second, third = (get_board("phone", 24, seed) for seed in (1, 2, 3))
    assert get_board("phone", 24, 1) is first  # now the most recently used
    get_board("phone", 24, 4)
    assert first.origin in boards.BOARDS and second.origin not in boards.BOARDS
    assert third.origin in boards.BOARDS


def test_a_board_is_weighed_again_as_its_tables_grow(small_cache: int) -> None:
    boards.set_cache_budget(700 * 1024)
    board = get_board("phone", 24, 1)
    others = [get_board("phone", 24, seed) for seed in (2, 3)]
    built = board.nbytes
    for a in range(board.count):
        for b in bits(board.drawable[a] >> a << a):
            board.crossings(a, b)
            board.side_mask(board.key(a, b))
    assert board.nbytes > built + 400 * 1024  # every crossing table of a 24-star board
    assert get_board("phone", 24, 1) is board  # weighed anew: the oldest other makes room
    assert [other.origin in boards.BOARDS for other in others] == [False, True]
    assert boards.BOARDS.weight == board.nbytes + others[1].nbytes <= 700 * 1024


def test_a_board_heavier_than_the_budget_is_built_but_not_kept(small_cache: int) -> None:
    board = get_board("tablet", 180, 1)  # about 1.3 MiB
    assert board.count == 180 and board.origin not in boards.BOARDS
    assert get_board("tablet", 180, 1) is not board


@pytest.mark.parametrize(("shape", "count"), [(PHONE, 24), (PHONE, 120), (TABLET, 180)])
def test_a_built_boards_weight_is_what_it_allocates(shape: object, count: int) -> None:
    """The estimate the budget counts is within a fifth of what building allocates."""
    gc.collect()
    tracemalloc.start()
    try:
        board = Board.generate(shape, count, 5)  # type: ignore[arg-type]
        allocated, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert 0.8 * allocated <= board.nbytes <= 1.2 * allocated


def test_a_board_from_another_process_is_this_processs_cached_one(small_cache: int) -> None:
    board = get_board("phone", 24, 7)
    board.crossings(0, 1)
    assert pickle.loads(pickle.dumps(board)) is board  # not a second copy
    boards.BOARDS.clear()
    restored = pickle.loads(pickle.dumps(board))
    assert restored is not board and restored.stars == board.stars
    assert restored.triangles == board.triangles and restored.drawable == board.drawable
    assert restored.nbytes == restored.base_nbytes  # sent without its tables on demand
    assert get_board("phone", 24, 7) is restored  # and kept in this process's cache
