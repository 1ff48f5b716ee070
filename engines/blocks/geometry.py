"""Boards as bitmasks, with every placement precomputed.

Cell ``(r, c)`` of a ``rows × cols`` grid is bit ``r * cols + c`` of an int; a board is the
int of its filled cells. For every shape and every anchor cell (where the shape's offset
``[0, 0]`` goes) the table holds the placement mask and the lines the placement touches,
so legality is one AND, a clear is a few ANDs, and "where does this shape fit" is one AND
per cell of the shape over the whole board at once (``fit_anchors``).
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.blocks.shapes import Shape


@dataclass(frozen=True)
class Line:
    """A full-able line: ``axis`` is "row" or "col", ``index`` its row or column."""

    axis: str
    index: int
    mask: int


@dataclass(frozen=True)
class Grid:
    rows: int
    cols: int

    @property
    def size(self) -> int:
        return self.rows * self.cols

    @property
    def full(self) -> int:
        return (1 << self.size) - 1

    def bit(self, row: int, col: int) -> int:
        return 1 << (row * self.cols + col)

    def row_mask(self, row: int) -> int:
        return ((1 << self.cols) - 1) << (row * self.cols)

    def col_mask(self, col: int) -> int:
        return sum(1 << (r * self.cols + col) for r in range(self.rows))

    def lines(self) -> tuple[Line, ...]:
        return tuple(Line("row", r, self.row_mask(r)) for r in range(self.rows)) + tuple(
            Line("col", c, self.col_mask(c)) for c in range(self.cols)
        )

    def cell_of(self, index: int) -> tuple[int, int]:
        return divmod(index, self.cols)

    def full_lines(self, board: int, lines: tuple[Line, ...]) -> tuple[list[int], list[int], int]:
        """Among ``lines``: full rows, full columns, and the mask of their cells."""
        rows: list[int] = []
        cols: list[int] = []
        cleared = 0
        for line in lines:
            if board & line.mask == line.mask:
                (rows if line.axis == "row" else cols).append(line.index)
                cleared |= line.mask
        return rows, cols, cleared


@dataclass(frozen=True)
class Placements:
    """One shape on one grid: every anchor precomputed."""

    shape: Shape
    offsets: tuple[int, ...]  # bit offset of each cell from the anchor
    anchors: int  # bitmask of the anchor cells where the whole shape lies inside the grid
    masks: tuple[int, ...]  # per anchor cell: the cells covered (0 where it does not fit)
    covered: tuple[tuple[int, ...], ...]  # per anchor cell: the indices of the cells covered
    touched: tuple[tuple[Line, ...], ...]  # per anchor cell: the rows and columns it meets

    @classmethod
    def build(cls, grid: Grid, shape: Shape) -> Placements:
        lines = grid.lines()
        offsets = tuple(dr * grid.cols + dc for dr, dc in shape.cells)
        anchors = 0
        masks: list[int] = []
        covered: list[tuple[int, ...]] = []
        touched: list[tuple[Line, ...]] = []
        for index in range(grid.size):
            row, col = grid.cell_of(index)
            if row + shape.height > grid.rows or col + shape.width > grid.cols:
                masks.append(0)
                covered.append(())
                touched.append(())
                continue
            anchors |= 1 << index
            masks.append(sum(1 << (index + off) for off in offsets))
            covered.append(tuple(index + off for off in offsets))
            touched.append(
                tuple(
                    line
                    for line in lines
                    if (line.axis == "row" and row <= line.index < row + shape.height)
                    or (line.axis == "col" and col <= line.index < col + shape.width)
                )
            )
        return cls(shape, offsets, anchors, tuple(masks), tuple(covered), tuple(touched))

    def fit_anchors(self, board: int, full: int) -> int:
        """The anchors where the shape fits on ``board``, as a bitmask."""
        free = full & ~board
        fits = self.anchors
        for off in self.offsets:
            fits &= free >> off
        return fits

    def fits(self, board: int, full: int) -> bool:
        return self.fit_anchors(board, full) != 0


def placement_tables(grid: Grid, shapes: tuple[Shape, ...]) -> tuple[Placements, ...]:
    return tuple(Placements.build(grid, shape) for shape in shapes)
