"""Exact plane geometry on integer points: every predicate is integer arithmetic only.

Points are ``(x, y)`` tuples of ints. No floats and no square roots anywhere, so a
predicate gives the same answer on every machine.
"""

from __future__ import annotations

Point = tuple[int, int]


def orient(a: Point, b: Point, c: Point) -> int:
    """Twice the signed area of triangle abc: > 0 if c is left of a→b, < 0 right, 0 collinear."""
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """True when segments ab and cd cross properly: their interiors meet in one point.

    Segments that only share an end point do not cross. Collinear overlaps and
    T-junctions (an end point on the other segment) are not proper crossings either;
    the rules refuse those earlier, because such a line passes through a star.
    """
    d1 = orient(a, b, c)
    d2 = orient(a, b, d)
    if (d1 > 0 and d2 > 0) or (d1 < 0 and d2 < 0) or d1 == 0 or d2 == 0:
        return False
    d3 = orient(c, d, a)
    d4 = orient(c, d, b)
    return (d3 > 0 > d4) or (d3 < 0 < d4)


def passes_near(a: Point, b: Point, p: Point, tolerance: int) -> bool:
    """True when point p lies within ``tolerance`` of segment ab (distance ≤ tolerance).

    Compares squared distances exactly: beyond an end of the segment the distance is
    to that end; alongside it, ``cross² ≤ tolerance² · |ab|²``.
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    ex, ey = p[0] - a[0], p[1] - a[1]
    limit2 = tolerance * tolerance
    along = ex * dx + ey * dy
    if along <= 0:
        return ex * ex + ey * ey <= limit2
    length2 = dx * dx + dy * dy
    if along >= length2:
        fx, fy = p[0] - b[0], p[1] - b[1]
        return fx * fx + fy * fy <= limit2
    cross = dx * ey - dy * ex
    return cross * cross <= limit2 * length2

