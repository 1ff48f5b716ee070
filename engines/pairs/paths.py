"""Paths with at most two turns on the padded grid (board plus one empty frame ring).

Two questions are asked of the same geometry:

* :func:`reach` — which tiles can one tile be joined to? A bit-parallel flood of at most
  three straight segments (Kogge-Stone occluded fills), used by the generator and by the
  "is any pair left?" and hint searches.
* :func:`find_path` / :func:`single_blockers` — for one given pair, the best path to draw,
  or the tiles that alone stand in every way. Every path with at most two turns is either
  horizontal-vertical-horizontal turning in some column ``x`` or vertical-horizontal-vertical
  turning in some row ``y`` (straight and one-turn paths are the cases where a turn column
  or row is an end's own), so there are at most ``width + height`` candidate routes, each
  three precomputed segment masks.
"""

from __future__ import annotations

from engines.pairs.grid import Grid, Point


def reach(grid: Grid, a: int, occupied: int) -> int:
    """The occupied positions that a path with at most two turns joins to position ``a``."""
    w = grid.width
    w2 = w << 1
    w4 = w << 2
    empty = grid.full & ~occupied
    # Propagators: a cell may be entered when empty; doubled, when the cells between are too.
    r1 = empty & grid.not_first_col
    r2 = r1 & (r1 << 1)
    r4 = r2 & (r2 << 2)
    l1 = empty & grid.not_last_col
    l2 = l1 & (l1 >> 1)
    l4 = l2 & (l2 >> 2)
    d2 = empty & (empty << w)
    d4 = d2 & (d2 << w2)
    d8 = d4 & (d4 << w4)
    u2 = empty & (empty >> w)
    u4 = u2 & (u2 >> w2)
    u8 = u4 & (u4 >> w4)

    def across(g: int) -> int:
        right = g | (r1 & (g << 1))
        right |= r2 & (right << 2)
        right |= r4 & (right << 4)
        left = g | (l1 & (g >> 1))
        left |= l2 & (left >> 2)
        left |= l4 & (left >> 4)
        return right | left

    def along(g: int) -> int:
        down = g | (empty & (g << w))
        down |= d2 & (down << w2)
        down |= d4 & (down << w4)
        down |= d8 & (down << (w << 3))
        up = g | (empty & (g >> w))
        up |= u2 & (up >> w2)
        up |= u4 & (up >> w4)
        up |= u8 & (up >> (w << 3))
        return down | up

    start = 1 << a
    # Cells reachable by segments H, HV, HVH and V, VH, VHV (each set includes the shorter).
    horizontal_last = across(along(across(start)))
    vertical_last = along(across(along(start)))
    hits = (
        ((horizontal_last << 1) & grid.not_first_col)
        | ((horizontal_last >> 1) & grid.not_last_col)
        | (vertical_last << w)
        | (vertical_last >> w)
    )
    return hits & occupied & ~start


def find_path(grid: Grid, a: int, b: int, occupied: int) -> tuple[Point, ...] | None:
    """The corner points of the best path joining ``a`` and ``b``, or None.

    Best = fewest turns, then shortest; ties go to the lowest turn column, then row. The
    points include both ends, in board coordinates (the frame is -1 and rows/cols).
    """
    w = grid.width
    h = grid.height
    row_seg = grid.row_seg
    col_seg = grid.col_seg
    inner = occupied & ~((1 << a) | (1 << b))
    ya, xa = divmod(a, w)
    yb, xb = divmod(b, w)
    best_key = (3, 0)
    best: tuple[tuple[int, int], tuple[int, int]] | None = None
    if ya != yb:
        from_a = (ya * w + xa) * w
        column_span = abs(yb - ya)
        for x in range(w):
            route = (
                row_seg[from_a + x]
                | col_seg[(x * h + ya) * h + yb]
                | row_seg[(yb * w + x) * w + xb]
            )
            if route & inner:
                continue
            key = ((x != xa) + (x != xb), abs(x - xa) + column_span + abs(xb - x))
            if key < best_key:
                best_key, best = key, ((ya, x), (yb, x))
    if xa != xb:
        row_span = abs(xb - xa)
        for y in range(h):
            route = (
                col_seg[(xa * h + ya) * h + y]
                | row_seg[(y * w + xa) * w + xb]
                | col_seg[(xb * h + y) * h + yb]
            )
            if route & inner:
                continue
            key = ((y != ya) + (y != yb), abs(y - ya) + row_span + abs(yb - y))
            if key < best_key:
                best_key, best = key, ((y, xa), (y, xb))
    if best is None:
        return None
    corners: list[Point] = []
    for y, x in ((ya, xa), best[0], best[1], (yb, xb)):
        point = (y - 1, x - 1)
        if not corners or corners[-1] != point:
            corners.append(point)
    return tuple(corners)


def single_blockers(grid: Grid, a: int, b: int, occupied: int) -> int:
    """The tiles whose removal alone would open a path between ``a`` and ``b``, as a mask.

    Meant for a pair with no path: a tile counts when some route's only obstacle is it.
    """
    w = grid.width
    h = grid.height
    row_seg = grid.row_seg
    col_seg = grid.col_seg
    inner = occupied & ~((1 << a) | (1 << b))
    ya, xa = divmod(a, w)
    yb, xb = divmod(b, w)
    found = 0
    if ya != yb:
        from_a = (ya * w + xa) * w
        for x in range(w):
            blocked = inner & (
                row_seg[from_a + x]
                | col_seg[(x * h + ya) * h + yb]
                | row_seg[(yb * w + x) * w + xb]
            )
            if blocked and not blocked & (blocked - 1):
                found |= blocked
    if xa != xb:
        for y in range(h):
            blocked = inner & (
                col_seg[(xa * h + ya) * h + y]
                | row_seg[(y * w + xa) * w + xb]
                | col_seg[(xb * h + y) * h + yb]
            )
            if blocked and not blocked & (blocked - 1):
                found |= blocked
    return found
