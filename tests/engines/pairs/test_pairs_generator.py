"""Deals: golden boards for fixed numbers; every deal and every shuffle is solvable."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.core.rng import Rng
from engines.pairs import ENGINE
from engines.pairs.generator import new_board, peel_order, reshuffle
from engines.pairs.grid import EMPTY, grid_for, positions
from engines.pairs.moves import Pair
from engines.pairs.params import SIZES
from engines.pairs.paths import find_path
from tests.profile import examples

GOLDEN: dict[str, tuple[list[int], list[list[int]]]] = {
    "00000000-a": (
        [0, 3, 4, 6, 8, 12],
        [
            [0, 0, 0, 0, 4, 6],
            [12, 0, 8, 12, 4, 12],
            [8, 12, 8, 3, 0, 8],
            [4, 6, 4, 3, 4, 12],
            [8, 8, 6, 6, 6, 12],
            [3, 6, 3, 4, 3, 3],
        ],
    ),
    "41739205-b": (
        [1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 13, 14],
        [
            [13, 14, 2, 12, 2, 8],
            [8, 1, 3, 1, 1, 8],
            [8, 4, 3, 11, 12, 14],
            [7, 3, 4, 12, 5, 5],
            [10, 14, 7, 3, 5, 11],
            [7, 10, 11, 12, 4, 4],
            [13, 2, 11, 13, 10, 14],
            [10, 2, 1, 13, 7, 5],
        ],
    ),
    "99999999-c": (
        [0, 2, 3, 6, 7, 8, 9, 11, 14],
        [
            [11, 9, 9, 6, 3, 3],
            [3, 14, 6, 0, 2, 2],
            [9, 14, 7, 0, 0, 11],
            [6, 6, 9, 6, 2, 11],
            [0, 9, 9, 11, 7, 8],
            [7, 6, 8, 11, 8, 2],
            [14, 14, 7, 8, 7, 8],
            [0, 3, 7, 2, 2, 0],
            [14, 3, 3, 14, 11, 8],
        ],
    ),
}


@pytest.mark.parametrize("number", sorted(GOLDEN))
@pytest.mark.parametrize("mode", ["calm", "timed"])
def test_golden_boards(number: str, mode: str) -> None:
    params, seed = ENGINE.from_number(number)
    params = ENGINE.parse_params({"size": params.size, "mode": mode})
    view = ENGINE.view(ENGINE.new_game(params, seed), 0)
    pictures, tiles = GOLDEN[number]
    assert view["pictures"] == pictures
    assert view["tiles"] == tiles


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_deal_uses_its_pictures_evenly(size: str) -> None:
    spec = SIZES[size]
    for seed in range(20):
        dealt, pictures = new_board(grid_for(spec.rows, 6), spec, Rng.from_seed(seed, "pairs"))
        assert len(pictures) == spec.pictures and set(pictures) <= set(range(16))
        assert Counter(dealt.tiles) == {p: 2 * spec.pairs_per_picture for p in pictures}


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 99_999_999), st.sampled_from(sorted(SIZES)))
def test_every_deal_clears_in_its_construction_order(seed: int, size: str) -> None:
    """The backward construction, read forwards, is a full solution with no shuffle."""
    spec = SIZES[size]
    dealt, _ = new_board(grid_for(spec.rows, 6), spec, Rng.from_seed(seed, "pairs"))
    state = ENGINE.new_game(ENGINE.parse_params({"size": size}), seed)
    assert state.tiles == dealt.tiles
    for at_ms, (ia, ib) in enumerate(dealt.solution):
        move = Pair(divmod(ia, 6), divmod(ib, 6))
        state, events = ENGINE.apply(state, move, at_ms * 10_000)
        assert [e["type"] for e in events if e["type"] == "shuffled"] == []
    assert state.over and state.reason == "cleared"
    assert state.tiles == (EMPTY,) * (spec.rows * 6)


@settings(max_examples=examples(200), deadline=None)
@given(
    st.sampled_from([6, 8, 9]),
    st.lists(st.booleans(), min_size=54, max_size=54),
    st.integers(0, 2**64 - 1),
)
def test_the_peel_never_gets_stuck_on_any_even_set(
    rows: int, chosen: list[bool], rng_state: int
) -> None:
    grid = grid_for(rows, 6)
    cells = [pos for pos, keep in zip(grid.pos_of_index, chosen, strict=False) if keep]
    cells = cells[: len(cells) // 2 * 2]
    occupied = sum(1 << pos for pos in cells)
    order = peel_order(grid, occupied, Rng(rng_state))
    assert sorted(pos for pair in order for pos in pair) == sorted(cells)
    for a, b in order:
        assert find_path(grid, a, b, occupied) is not None
        occupied &= ~((1 << a) | (1 << b))
    assert occupied == 0


def test_reshuffle_keeps_cells_and_pictures_and_is_solvable() -> None:
    grid = grid_for(8, 6)
    state = ENGINE.new_game(ENGINE.parse_params({}), 5)
    tiles = list(state.tiles)
    for index in (0, 7, 8, 13, 30, 31):  # six cells cleared, counts kept even below
        tiles[index] = EMPTY
    counts = Counter(t for t in tiles if t != EMPTY)
    for index, tile in enumerate(tiles):
        if tile != EMPTY and counts[tile] % 2:
            counts[tile] -= 1
            tiles[index] = EMPTY
    before = tuple(tiles)
    dealt = reshuffle(grid, before, Rng(99))
    assert [t == EMPTY for t in dealt.tiles] == [t == EMPTY for t in before]
    assert Counter(dealt.tiles) == Counter(before)
    occupied = grid.occupancy(dealt.tiles)
    for ia, ib in dealt.solution:
        assert dealt.tiles[ia] == dealt.tiles[ib]
        a, b = grid.pos_of_index[ia], grid.pos_of_index[ib]
        assert find_path(grid, a, b, occupied) is not None
        occupied &= ~((1 << a) | (1 << b))
    assert positions(occupied) == []


def test_deals_are_deterministic() -> None:
    spec = SIZES["long"]
    grid = grid_for(spec.rows, 6)
    first = new_board(grid, spec, Rng.from_seed(77, "pairs"))
    again = new_board(grid, spec, Rng.from_seed(77, "pairs"))
    assert first == again
