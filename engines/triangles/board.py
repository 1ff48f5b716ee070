"""Everything about one board that never changes during a game, computed once.

A board is a star field (shape, count, seed). From the stars alone follow:

- the *drawable* pairs: segments that pass no other star within the tolerance
  (``drawable[i]`` is a bitset of the stars that star i may be joined to);
- the *scoring triangles*: triangles whose three sides are drawable and that hold no
  star inside (a star on a side already makes that side undrawable);
- for each drawable pair, the scoring triangles it is a side of (also as a bitset,
  on demand);
- on demand, for a segment, the drawable segments it crosses (cached: the same lines
  come up again and again, in a game and in the computer's search).

Boards are derived data: a small module-level cache keyed by (shape, count, seed)
keeps the last few, so a server process or a search does not recompute them.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from functools import lru_cache
from itertools import chain
from math import asin, atan2, tau

from engines.core.bits import bits
from engines.triangles.field import FIELDS, FieldShape, place_stars
from engines.triangles.geometry import Point

# A server keeps every live match's board warm: building one costs 3–200 ms, keeping
# one costs 80 KiB (24 stars) to 1.1 MB (120 on a phone): 80 MB to 1.1 GB for all 1,024.
# Least recently used boards go first.
CACHE_SIZE = 1024


@lru_cache(maxsize=CACHE_SIZE)
def get_board(field: str, count: int, seed: int) -> Board:
    """The board of a game number's field, count and seed (LRU-cached)."""
    return Board.generate(FIELDS[field], count, seed)


def pair_key(a: int, b: int, n: int) -> int:
    """One int per unordered pair of star indexes (a ≠ b)."""
    return a * n + b if a < b else b * n + a


class Board:
    """A star field and its precomputed geometry (read-only after construction).

    ``spacing`` must not exceed the smallest distance between two stars, and the
    tolerance must stay below half of it: then a star can only block a line alongside
    it, closer to each end than the other end is, which the search below relies on.
    """

    def __init__(
        self,
        stars: tuple[Point, ...],
        width: int,
        height: int,
        tolerance: int,
        spacing: int,
    ) -> None:
        if not 0 <= 2 * tolerance < spacing:
            raise ValueError("the tolerance must be below half the spacing of the stars")
        self.stars = stars
        self.count = len(stars)
        self.width = width
        self.height = height
        self.tolerance = tolerance
        self.spacing = spacing
        self.drawable: tuple[int, ...] = _drawable_pairs(stars, tolerance, spacing)
        self.triangles: tuple[tuple[int, int, int], ...] = _scoring_triangles(stars, self.drawable)
        n = self.count
        sides: dict[int, list[int]] = {}
        for index, (a, b, c) in enumerate(self.triangles):
            for key in (a * n + b, a * n + c, b * n + c):
                sides.setdefault(key, []).append(index)
        self.side_of: dict[int, tuple[int, ...]] = {k: tuple(v) for k, v in sides.items()}
        self._side_masks: dict[int, int] = {}
        self._crossings: dict[int, tuple[tuple[int, int], ...]] = {}

    @classmethod
    def generate(cls, shape: FieldShape, count: int, seed: int) -> Board:
        stars, spacing = place_stars(shape, count, seed)
        return cls(stars, shape.width, shape.height, shape.tolerance, spacing)

    def key(self, a: int, b: int) -> int:
        return pair_key(a, b, self.count)

    def side_mask(self, key: int) -> int:
        """The bitset of the scoring triangles that the pair ``key`` is a side of."""
        mask = self._side_masks.get(key)
        if mask is None:
            mask = sum(1 << t for t in self.side_of.get(key, ()))
            self._side_masks[key] = mask
        return mask

    def crossings(self, a: int, b: int) -> tuple[tuple[int, int], ...]:
        """The drawable segments that cross segment ab, as ``(p, mask of q)`` entries.

        Each crossing segment pq appears twice, once under p and once under q, so that
        ``alive[p] &= ~mask`` for every entry removes it from both ends.
        """
        key = self.key(a, b)
        found = self._crossings.get(key)
        if found is None:
            found = _crossing_segments(self.stars, self.drawable, a, b)
            self._crossings[key] = found
        return found


def _drawable_pairs(stars: tuple[Point, ...], tolerance: int, spacing: int) -> tuple[int, ...]:
    """For each star, the bitset of stars it may be joined to (no star in the way).

    A star k blocks segment ij when it lies within the tolerance of the segment; such a
    k is closer to i than j is and, being at least ``spacing`` from i, lies at most
    asin(tolerance / spacing) off the direction of j. So around each star the others
    are sorted by angle, and only the stars in that angular window that are closer
    than j get the exact integer test. Angles are floats used only to find the window,
    widened by a margin far above rounding error, so the answer is the exact one.
    """
    n = len(stars)
    tol2 = tolerance * tolerance
    half_width = asin(min(1.0, tolerance / spacing)) + _ANGLE_MARGIN
    adjacent = [0] * n
    for i in range(n):
        xi, yi = stars[i]
        around = sorted(
            (atan2(y - yi, x - xi), x - xi, y - yi, k) for k, (x, y) in enumerate(stars) if k != i
        )
        # three turns, so that a window never has to wrap around
        angles = [a - tau for a, *_ in around] + [a for a, *_ in around]
        angles += [a + tau for a, *_ in around]
        vx = [entry[1] for entry in around] * 3
        vy = [entry[2] for entry in around] * 3
        v2 = [x * x + y * y for x, y in zip(vx, vy, strict=True)]
        m = len(around)
        row = 0
        for s, (angle, ux, uy, j) in enumerate(around, start=m):
            if j < i:
                continue
            lo = bisect_left(angles, angle - half_width)
            hi = bisect_right(angles, angle + half_width)
            u2 = v2[s]
            limit = tol2 * u2
            for t in chain(range(s + 1, hi), range(s - 1, lo - 1, -1)):
                if v2[t] < u2 and (ux * vy[t] - uy * vx[t]) ** 2 <= limit:
                    break
            else:
                row |= 1 << j
                adjacent[j] |= 1 << i
        adjacent[i] |= row
    return tuple(adjacent)


_ANGLE_MARGIN = 1e-6  # radians; atan2/asin err by ~1e-15, distinct directions by > 1e-7


def _scoring_triangles(
    stars: tuple[Point, ...], drawable: tuple[int, ...]
) -> tuple[tuple[int, int, int], ...]:
    """All triangles (a < b < c) with three drawable sides and no star inside.

    Stars are ranked left to right (ties by y: a tiny shear, which keeps orientations).
    For a drawable pair of ranks p < q, ``below[p][q]`` counts the stars ranked between
    them that lie right of p→q; the stars inside a triangle then follow from the counts
    of its three sides in O(1).
    """
    n = len(stars)
    order = sorted(range(n), key=lambda k: stars[k])
    rank = [0] * n
    for position, k in enumerate(order):
        rank[k] = position
    xs = [stars[k][0] for k in order]
    ys = [stars[k][1] for k in order]
    ranked = [0] * n  # drawable, in rank space
    for k in range(n):
        ranked[rank[k]] = sum(1 << rank[other] for other in bits(drawable[k]))
    below: list[dict[int, int]] = [{} for _ in range(n)]
    for p in range(n):
        px, py = xs[p], ys[p]
        row = below[p]
        for q in bits(ranked[p] >> (p + 1) << (p + 1)):
            dx, dy = xs[q] - px, ys[q] - py
            c0 = dx * py - dy * px
            row[q] = sum(
                dx * y - dy * x < c0 for x, y in zip(xs[p + 1 : q], ys[p + 1 : q], strict=True)
            )
    found: list[tuple[int, int, int]] = []
    for p in range(n):
        row_p = ranked[p]
        below_p = below[p]
        px, py = xs[p], ys[p]
        for q in bits(row_p >> (p + 1) << (p + 1)):
            bpq = below_p[q]
            below_q = below[q]
            qx, qy = xs[q] - px, ys[q] - py
            for r in bits((row_p & ranked[q]) >> (q + 1) << (q + 1)):
                # is q left of p→r (above the long side)?
                if (xs[r] - px) * qy - (ys[r] - py) * qx > 0:
                    inside = bpq + below_q[r] - below_p[r]
                else:
                    inside = below_p[r] - bpq - below_q[r] - 1
                if inside == 0:
                    a, b, c = sorted((order[p], order[q], order[r]))
                    found.append((a, b, c))
    found.sort()
    return tuple(found)


def _crossing_segments(
    stars: tuple[Point, ...], drawable: tuple[int, ...], a: int, b: int
) -> tuple[tuple[int, int], ...]:
    """The drawable segments that cross ab, as ``Board.crossings`` lists them."""
    masks: dict[int, int] = {}
    for p, q in crossing_pairs(stars, drawable, a, b):
        masks[p] = masks.get(p, 0) | 1 << q
        masks[q] = masks.get(q, 0) | 1 << p
    return tuple(sorted(masks.items()))


def crossing_pairs(
    stars: tuple[Point, ...], among: Sequence[int], a: int, b: int
) -> list[tuple[int, int]]:
    """The segments pq among ``among`` (per star, the bitset of stars it may be joined
    to) that cross segment ab: p and q strictly on either side of line ab, and a and b
    strictly on either side of line pq (orientations inlined: this runs per new line).
    Each is listed once, with p on ab's left."""
    ax, ay = stars[a]
    bx, by = stars[b]
    dx, dy = bx - ax, by - ay
    offset = dx * ay - dy * ax
    left = 0
    right = 0
    for k, (x, y) in enumerate(stars):
        side = dx * y - dy * x - offset
        if side > 0:
            left |= 1 << k
        elif side < 0:
            right |= 1 << k
    found = []
    for p in bits(left):
        candidates = among[p] & right
        if not candidates:
            continue
        px, py = stars[p]
        pax, pay, pbx, pby = ax - px, ay - py, bx - px, by - py
        for q in bits(candidates):
            qx, qy = stars[q]
            qx -= px
            qy -= py
            side_a = qx * pay - qy * pax
            side_b = qx * pby - qy * pbx
            if (side_a > 0 > side_b) or (side_a < 0 < side_b):
                found.append((p, q))
    return found
