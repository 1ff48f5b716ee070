"""Finding a removable pair: the hint, and the "no pair left, shuffle" test."""

from __future__ import annotations

from engines.pairs.grid import EMPTY, Grid
from engines.pairs.paths import reach


def find_pair(grid: Grid, tiles: tuple[int, ...]) -> tuple[int, int] | None:
    """The first removable pair in reading order, as board indices, or None.

    The first tile in reading order that has a joinable twin, and its first such twin.
    """
    occupied = 0
    twins: dict[int, int] = {}
    for pos, tile in zip(grid.pos_of_index, tiles, strict=True):
        if tile != EMPTY:
            bit = 1 << pos
            occupied |= bit
            twins[tile] = twins.get(tile, 0) | bit
    for index, tile in enumerate(tiles):
        if tile == EMPTY:
            continue
        pos = grid.pos_of_index[index]
        partners = reach(grid, pos, occupied) & twins[tile]
        if partners:
            return index, grid.index((partners & -partners).bit_length() - 1)
    return None
