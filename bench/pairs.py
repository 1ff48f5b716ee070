"""Pairs engine benchmark: run as ``.venv/bin/python bench/pairs.py [--boards N]``.

Prints medians (time.perf_counter_ns) of: dealing a board per size (target < 2 ms for
9×6), the path check of one pair (< 20 µs), the blocker search of a refused pair
(< 300 µs), one whole ``apply`` of a pair; and the share of generated boards a greedy
solver clears without any shuffle (first removable pair in reading order, every time).
"""

from __future__ import annotations

import argparse
import statistics
import time

from engines.core.protocol import IllegalMove
from engines.core.rng import Rng
from engines.pairs import ENGINE
from engines.pairs.generator import new_board
from engines.pairs.grid import EMPTY, Grid, grid_for
from engines.pairs.moves import Pair
from engines.pairs.params import COLUMNS, SIZES, Params, SizeSpec
from engines.pairs.paths import find_path, single_blockers
from engines.pairs.search import find_pair
from engines.pairs.state import State


def median_us(samples_ns: list[int]) -> float:
    return statistics.median(samples_ns) / 1000


def deal_times(spec: SizeSpec, boards: int) -> list[int]:
    grid = grid_for(spec.rows, COLUMNS)
    samples = []
    for seed in range(boards):
        rng = Rng.from_seed(seed, "pairs")
        start = time.perf_counter_ns()
        new_board(grid, spec, rng)
        samples.append(time.perf_counter_ns() - start)
    return samples


def half_played(spec: SizeSpec, seed: int) -> State:
    """A game with about half of its pairs removed (the usual middle of a game)."""
    state = ENGINE.new_game(Params(size=spec.name), seed)
    for _ in range(spec.pairs // 2):
        pair = find_pair(state.grid, state.tiles)
        assert pair is not None
        a, b = divmod(pair[0], COLUMNS), divmod(pair[1], COLUMNS)
        state, _ = ENGINE.apply(state, Pair(a, b), 0)
    return state


def pair_checks(boards: int) -> tuple[list[int], list[int], list[int], list[int]]:
    """Times of find_path on twin pairs, of single_blockers and of a refused apply."""
    spec = SIZES["long"]
    paths: list[int] = []
    blockers: list[int] = []
    refusals: list[int] = []
    removals: list[int] = []
    for seed in range(boards):
        state = half_played(spec, seed)
        grid, tiles = state.grid, state.tiles
        occupied = grid.occupancy(tiles)
        cells = [i for i, tile in enumerate(tiles) if tile != EMPTY]
        for i in cells:
            for j in cells:
                if j <= i or tiles[i] != tiles[j]:
                    continue
                a, b = grid.pos_of_index[i], grid.pos_of_index[j]
                start = time.perf_counter_ns()
                path = find_path(grid, a, b, occupied)
                paths.append(time.perf_counter_ns() - start)
                move = Pair(divmod(i, COLUMNS), divmod(j, COLUMNS))
                if path is None:
                    start = time.perf_counter_ns()
                    single_blockers(grid, a, b, occupied)
                    blockers.append(time.perf_counter_ns() - start)
                    start = time.perf_counter_ns()
                    try:
                        ENGINE.apply(state, move, 1)
                    except IllegalMove:
                        pass
                    refusals.append(time.perf_counter_ns() - start)
                else:
                    start = time.perf_counter_ns()
                    ENGINE.apply(state, move, 1)
                    removals.append(time.perf_counter_ns() - start)
    return paths, blockers, refusals, removals


def greedy_clears(grid: Grid, tiles: tuple[int, ...]) -> bool:
    """Remove the first removable pair in reading order until cleared or stuck."""
    board = list(tiles)
    while True:
        pair = find_pair(grid, tuple(board))
        if pair is None:
            return all(tile == EMPTY for tile in board)
        board[pair[0]] = board[pair[1]] = EMPTY


def greedy_share(spec: SizeSpec, boards: int) -> float:
    grid = grid_for(spec.rows, COLUMNS)
    solved = 0
    for seed in range(boards):
        dealt, _ = new_board(grid, spec, Rng.from_seed(seed, "pairs"))
        solved += greedy_clears(grid, dealt.tiles)
    return solved / boards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--boards", type=int, default=10_000, help="boards for the greedy share")
    args = parser.parse_args()

    print("deal one board (median over 1000 seeds):")
    for spec in SIZES.values():
        samples = deal_times(spec, 1000)
        print(
            f"  {spec.name:8s} {spec.rows}x{COLUMNS}: {median_us(samples) / 1000:.3f} ms"
            f"  (p95 {sorted(samples)[len(samples) * 95 // 100] / 1e6:.3f} ms)"
        )

    paths, blockers, refusals, removals = pair_checks(200)
    print("long 9x6 boards half played, every twin pair (200 boards):")
    print(f"  path check (find_path):        {median_us(paths):7.1f} µs  ({len(paths)} pairs)")
    print(f"  blocker search:                {median_us(blockers):7.1f} µs  ({len(blockers)})")
    print(f"  apply, refused pair (total):   {median_us(refusals):7.1f} µs")
    print(f"  apply, removed pair (total):   {median_us(removals):7.1f} µs")

    print(f"greedy solver, no shuffles ({args.boards} boards per size):")
    for spec in SIZES.values():
        start = time.perf_counter()
        share = greedy_share(spec, args.boards)
        took = time.perf_counter() - start
        print(f"  {spec.name:8s} {share:7.2%} cleared  ({took:.1f} s)")


if __name__ == "__main__":
    main()
