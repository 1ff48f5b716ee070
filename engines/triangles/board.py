"""Everything about one board that never changes during a game, computed once.

A board is a star field (shape, count, seed). From the stars alone follow:

- the *drawable* pairs: segments that pass no other star within the tolerance
  (``drawable[i]`` is a bitset of the stars that star i may be joined to);
- the *scoring triangles*: triangles whose three sides are drawable and that hold no
  star inside (a star on a side already makes that side undrawable);
- for each drawable pair, the scoring triangles it is a side of;
- on demand, for a segment, the drawable segments it crosses (cached: the same lines
  come up again and again, in a game and in the computer's search).

Boards are derived data: a small module-level cache keyed by (shape, count, seed)
keeps the last few, so a server process or a search does not recompute them.
"""

from __future__ import annotations

from collections.abc import Iterator

from engines.triangles.field import FIELDS, FieldShape, place_stars
from engines.triangles.geometry import Point, orient

CACHE_SIZE = 16
_CACHE: dict[tuple[str, int, int], Board] = {}


def get_board(field: str, count: int, seed: int) -> Board:
    key = (field, count, seed)
    board = _CACHE.get(key)
    if board is None:
        board = Board(FIELDS[field], count, seed)
        if len(_CACHE) >= CACHE_SIZE:
            del _CACHE[next(iter(_CACHE))]
        _CACHE[key] = board
    return board


def bits(mask: int) -> Iterator[int]:
    """The indexes of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def pair_key(a: int, b: int, n: int) -> int:
    """One int per unordered pair of star indexes (a ≠ b)."""
    return a * n + b if a < b else b * n + a


class Board:
    """A star field and its precomputed geometry (read-only after construction)."""

    def __init__(self, shape: FieldShape, count: int, seed: int) -> None:
        self.shape = shape
        self.count = count
        self.seed = seed
        self.width = shape.width
        self.height = shape.height
        self.tolerance = shape.tolerance
        self.stars, self.spacing = place_stars(shape, count, seed)
        self.drawable: tuple[int, ...] = _drawable_pairs(
            self.stars, self.tolerance, self.spacing
        )
        self.triangles: tuple[tuple[int, int, int], ...] = _scoring_triangles(
            self.stars, self.drawable
        )
        n = count
        sides: dict[int, list[int]] = {}
        for index, (a, b, c) in enumerate(self.triangles):
            for key in (a * n + b, a * n + c, b * n + c):
                sides.setdefault(key, []).append(index)
        self.side_of: dict[int, tuple[int, ...]] = {k: tuple(v) for k, v in sides.items()}
        self.side_mask: dict[int, int] = {
            k: sum(1 << t for t in v) for k, v in sides.items()
        }
        self._crossings: dict[int, tuple[tuple[int, int], ...]] = {}

    def key(self, a: int, b: int) -> int:
        return pair_key(a, b, self.count)

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


def _angle_key(dx: int, dy: int) -> int:
    """An exact integer key that sorts directions (dx, dy) ≠ (0, 0) by angle.

    Directions are split into two half-turns; inside one, the angle grows as
    -dx/dy grows. The slope is scaled by 2**30 and floored: two distinct directions on
    a field under 2**11 units differ in slope by at least 1/2**22, so their keys differ,
    and equal directions get equal keys.
    """
    half = 0
    if dy < 0 or (dy == 0 and dx < 0):
        dx, dy, half = -dx, -dy, 1 << 80
    if dy == 0:
        return half
    return half + (1 << 60) + ((-dx << 30) // dy)


def _drawable_pairs(stars: tuple[Point, ...], tolerance: int, spacing: int) -> tuple[int, ...]:
    """For each star, the bitset of stars it may be joined to (no star in the way).

    A star k blocks segment ij when it lies within the tolerance of the segment; such a
    k is closer to i than j is, and, being at least ``spacing`` from i, lies at most
    asin(tolerance / spacing) away from the direction of j. So around each star i the
    others are sorted by angle; a two-pointer sweep finds each direction's window of
    that half-width, and only window stars closer than j get the exact test.
    """
    n = len(stars)
    adjacent = [0] * n
    tol2 = tolerance * tolerance
    spacing2 = spacing * spacing
    for i in range(n):
        xi, yi = stars[i]
        around = sorted(
            (_angle_key(x - xi, y - yi), x - xi, y - yi, k)
            for k, (x, y) in enumerate(stars)
            if k != i
        )
        m = len(around)
        vx = [entry[1] for entry in around]
        vy = [entry[2] for entry in around]
        ids = [entry[3] for entry in around]
        v2 = [x * x + y * y for x, y in zip(vx, vy, strict=True)]
        # closer[s]: the angular positions of the stars strictly closer to i than star s
        closer = [0] * m
        mask = 0
        last2 = -1
        pending: list[int] = []
        for d2, t in sorted(zip(v2, range(m), strict=True)):
            if d2 != last2:
                for u in pending:
                    mask |= 1 << u
                pending = []
                last2 = d2
            closer[t] = mask
            pending.append(t)

        def within(s: int, t: int) -> bool:
            ux, uy, wx, wy = vx[s], vy[s], vx[t % m], vy[t % m]
            cross = ux * wy - uy * wx
            return ux * wx + uy * wy > 0 and cross * cross * spacing2 <= tol2 * v2[s] * v2[t % m]

        # window of position s: positions lo..hi (hi may pass m: read modulo m)
        lo = 0
        while lo > -(m - 1) and within(0, lo - 1):
            lo -= 1
        hi = 0
        full = (1 << m) - 1
        row = 0
        for s in range(m):
            if hi < s:
                hi = s
            while hi - s < m - 1 and within(s, hi + 1):
                hi += 1
            while lo < s and not within(s, lo):
                lo += 1
            j = ids[s]
            if j < i:
                continue
            window = ((1 << (hi + 1)) - (1 << lo)) if lo >= 0 else ((1 << (hi + 1)) - 1)
            if lo < 0:
                window |= full ^ ((1 << (m + lo)) - 1)
            if hi >= m:
                window |= window >> m
            suspects = window & full & closer[s]
            ux, uy = vx[s], vy[s]
            limit = tol2 * v2[s]
            for t in bits(suspects):
                cross = ux * vy[t] - uy * vx[t]
                if cross * cross <= limit:
                    break
            else:
                row |= 1 << j
                adjacent[j] |= 1 << i
        adjacent[i] |= row
    return tuple(adjacent)


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
    pa, pb = stars[a], stars[b]
    left = 0
    right = 0
    for k, star in enumerate(stars):
        side = orient(pa, pb, star)
        if side > 0:
            left |= 1 << k
        elif side < 0:
            right |= 1 << k
    masks: dict[int, int] = {}
    for p in bits(left):
        pp = stars[p]
        for q in bits(drawable[p] & right):
            pq = stars[q]
            o1 = orient(pp, pq, pa)
            if (o1 > 0 > orient(pp, pq, pb)) or (o1 < 0 < orient(pp, pq, pb)):
                masks[p] = masks.get(p, 0) | 1 << q
                masks[q] = masks.get(q, 0) | 1 << p
    return tuple(sorted(masks.items()))
