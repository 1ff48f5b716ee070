"""Solvable deals: the backward construction, drawn in play order.

RULES.md builds a board backwards from the empty grid, each step putting a pair on two
cells connectable at that moment, so the reversed order is a solution. Drawing that same
sequence from the other end — peeling pairs off the full set of cells, each pair
connectable through the cells already peeled — gives exactly the same family of boards,
and this direction can never get stuck: in any even set of tiles with nothing else on the
grid, the first two tiles in reading order are always joined — in one row with nothing
between them, or along the first one's otherwise empty row and straight down to the
second (the rows between are empty too). So every step finds a pair after at most one try
per tile: a deal is bounded (no retry loop) and deterministic for the Rng state.

The automatic and the manual shuffle re-run the peel over the occupied cells with the
remaining pictures, so the shuffled board is again solvable to the end.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.core.rng import Rng
from engines.pairs.grid import EMPTY, Grid, nth_position, positions
from engines.pairs.params import PICTURE_SET, SizeSpec
from engines.pairs.paths import reach


def peel_order(grid: Grid, cells: int, rng: Rng) -> list[tuple[int, int]]:
    """Pairs of positions covering ``cells`` (even count), in an order that removes them.

    Each pair is joined by a path through the grid cells outside ``cells`` and the pairs
    before it.
    """
    remaining = positions(cells)
    occupied = cells
    order: list[tuple[int, int]] = []
    while remaining:
        tries = remaining[:]
        while True:
            # Never empty: the first remaining tile in reading order always has a partner.
            i = rng.below(len(tries))
            a = tries[i]
            partners = reach(grid, a, occupied)
            if partners:
                break
            tries[i] = tries[-1]
            tries.pop()
        b = nth_position(partners, rng.below(partners.bit_count()))
        occupied &= ~((1 << a) | (1 << b))
        remaining.remove(a)
        remaining.remove(b)
        order.append((a, b))
    return order


@dataclass(frozen=True)
class Deal:
    """Dealt tiles (row-major) and the order that clears them (pairs of board indices)."""

    tiles: tuple[int, ...]
    solution: tuple[tuple[int, int], ...]


def deal(grid: Grid, cells: int, pair_pictures: list[int], rng: Rng) -> Deal:
    """``pair_pictures`` (one picture per pair) dealt on ``cells``, solvable in order."""
    pictures = pair_pictures[:]
    rng.shuffle(pictures)
    tiles = [EMPTY] * (grid.rows * grid.cols)
    solution = []
    for picture, (a, b) in zip(pictures, peel_order(grid, cells, rng), strict=True):
        ia, ib = grid.index(a), grid.index(b)
        tiles[ia] = tiles[ib] = picture
        solution.append((ia, ib))
    return Deal(tuple(tiles), tuple(solution))


def new_board(grid: Grid, spec: SizeSpec, rng: Rng) -> tuple[Deal, tuple[int, ...]]:
    """A fresh full board and the sorted picture ids it uses."""
    pictures = sorted(rng.sample(range(PICTURE_SET), spec.pictures))
    pair_pictures = [p for p in pictures for _ in range(spec.pairs_per_picture)]
    return deal(grid, grid.board, pair_pictures, rng), tuple(pictures)


def reshuffle(grid: Grid, tiles: tuple[int, ...], rng: Rng) -> Deal:
    """The same pictures on the same occupied cells, dealt again so that all are solvable."""
    counts: dict[int, int] = {}
    for tile in tiles:
        if tile != EMPTY:
            counts[tile] = counts.get(tile, 0) + 1
    pair_pictures = [p for p in sorted(counts) for _ in range(counts[p] // 2)]
    return deal(grid, grid.occupancy(tiles), pair_pictures, rng)
