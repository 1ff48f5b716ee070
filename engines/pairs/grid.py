"""The padded grid: the board plus its one ring of always-empty frame cells, as bitboards.

A path may leave the board by exactly one cell, so every path lives on a grid two cells
taller and wider than the board. A cell of that grid is a *position*
``pos = (row + 1) * width + (col + 1)`` and a set of cells is an ``int`` with bit ``pos``
set. Bit-parallel shifts move a whole set one step at a time; precomputed segment masks
give the cells of any straight run in a couple of look-ups.
"""

from __future__ import annotations

from functools import cache

from engines.core.bits import bits

EMPTY = -1
"""A tile list entry for an empty cell (tiles are row-major picture ids)."""

Point = tuple[int, int]
"""``(row, col)`` in board coordinates; the frame is row/col ``-1`` and ``rows``/``cols``."""


class Grid:
    """Geometry of one board shape. Build with :func:`grid_for` (one instance per shape)."""

    __slots__ = (
        "rows",
        "cols",
        "height",
        "width",
        "full",
        "board",
        "not_first_col",
        "not_last_col",
        "pos_of_index",
        "row_seg",
        "col_seg",
    )

    def __init__(self, rows: int, cols: int) -> None:
        self.rows = rows
        self.cols = cols
        self.height = height = rows + 2
        self.width = width = cols + 2
        self.full = (1 << (height * width)) - 1
        first_col = sum(1 << (y * width) for y in range(height))
        self.not_first_col = self.full & ~first_col
        self.not_last_col = self.full & ~(first_col << (width - 1))
        self.pos_of_index: tuple[int, ...] = tuple(
            (r + 1) * width + (c + 1) for r in range(rows) for c in range(cols)
        )
        self.board = sum(1 << pos for pos in self.pos_of_index)
        # row_seg[(y * width + x1) * width + x2]: cells (y, x1..x2) inclusive, either order.
        row_seg = [0] * (height * width * width)
        for y in range(height):
            for x1 in range(width):
                for x2 in range(width):
                    lo, hi = min(x1, x2), max(x1, x2)
                    row_seg[(y * width + x1) * width + x2] = sum(
                        1 << (y * width + x) for x in range(lo, hi + 1)
                    )
        # col_seg[(x * height + y1) * height + y2]: cells (y1..y2, x) inclusive.
        col_seg = [0] * (width * height * height)
        for x in range(width):
            for y1 in range(height):
                for y2 in range(height):
                    lo, hi = min(y1, y2), max(y1, y2)
                    col_seg[(x * height + y1) * height + y2] = sum(
                        1 << (y * width + x) for y in range(lo, hi + 1)
                    )
        self.row_seg: tuple[int, ...] = tuple(row_seg)
        self.col_seg: tuple[int, ...] = tuple(col_seg)

    def pos(self, row: int, col: int) -> int:
        """The position of a board (or frame) point."""
        return (row + 1) * self.width + (col + 1)

    def point(self, pos: int) -> Point:
        """The board coordinates of a position (frame cells give -1 or rows/cols)."""
        y, x = divmod(pos, self.width)
        return (y - 1, x - 1)

    def index(self, pos: int) -> int:
        """The row-major board index of a position on the board."""
        y, x = divmod(pos, self.width)
        return (y - 1) * self.cols + (x - 1)

    def occupancy(self, tiles: tuple[int, ...]) -> int:
        """The set of positions holding a tile (``tiles`` is row-major)."""
        occupied = 0
        for pos, tile in zip(self.pos_of_index, tiles, strict=True):
            if tile != EMPTY:
                occupied |= 1 << pos
        return occupied


@cache
def grid_for(rows: int, cols: int) -> Grid:
    return Grid(rows, cols)


positions = bits
"""The set bits of a mask, lowest first (the pairs name of :func:`engines.core.bits.bits`)."""


def nth_position(mask: int, n: int) -> int:
    """The ``n``-th lowest set bit of ``mask`` (0-based); ``mask`` has more than n bits."""
    for _ in range(n):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1
