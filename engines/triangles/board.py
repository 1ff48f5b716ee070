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

Boards are derived data: a module-level cache keyed by (field, count, seed) keeps the
most recently used ones, so a server process or a search does not recompute them. It is
bounded by memory, not by count: a board weighs 90 KiB (24 stars) to 1.3 MiB (180) when
built, and its crossing tables grow as lines are asked about (a computer's search on a
180-star board can take it past 30 MiB), so each board carries an estimate of its own
size (``nbytes``) and the cache drops the least recently used boards beyond its budget.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from itertools import chain
from math import asin, atan2, tau
from sys import getsizeof
from typing import Any

from engines.core.bits import bits
from engines.core.weighed import WeighedLRU
from engines.triangles.field import FIELDS, FieldShape, place_stars
from engines.triangles.geometry import Point

BoardKey = tuple[str, int, int]  # field, count, seed

# A server keeps the boards of its live games warm: building one costs 3–200 ms. This
# default budget holds about a hundred 180-star boards, or over a thousand 24-star ones.
CACHE_BYTES = 128 * 1024 * 1024


def _weight(board: Board) -> int:
    return board.nbytes


BOARDS: WeighedLRU[BoardKey, Board] = WeighedLRU(CACHE_BYTES, _weight)


def set_cache_budget(budget: int) -> None:
    """Bound this process's board cache to ``budget`` bytes (the boards it kept go,
    unless the budget is the one it has)."""
    global BOARDS
    if budget != BOARDS.budget:
        BOARDS = WeighedLRU(budget, _weight)


def get_board(field: str, count: int, seed: int) -> Board:
    """The board of a game number's field, count and seed (cached)."""
    key = (field, count, seed)
    board = BOARDS.get(key)
    if board is None:  # built outside the cache's lock: this can take 200 ms
        board = BOARDS.setdefault(key, Board.generate(FIELDS[field], count, seed))
    return board


def _restored(key: BoardKey | None, fields: dict[str, Any]) -> Board:
    """A board sent from another process (a worker that built it): the one this
    process's cache holds for its key when there is one, else this one, kept."""
    if key is not None:
        board = BOARDS.get(key)
        if board is not None:
            return board
    board = Board.__new__(Board)
    board.__dict__.update(fields, _side_masks={}, _crossings={}, nbytes=fields["base_nbytes"])
    return board if key is None else BOARDS.setdefault(key, board)


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
        self.origin: BoardKey | None = None  # set by ``generate``: its field, count and seed
        self.base_nbytes = _base_nbytes(self)
        # An estimate of the bytes the board holds, its tables on demand included; threads
        # may race to add to it, and an update lost now and then leaves an estimate.
        self.nbytes = self.base_nbytes

    @classmethod
    def generate(cls, shape: FieldShape, count: int, seed: int) -> Board:
        stars, spacing = place_stars(shape, count, seed)
        board = cls(stars, shape.width, shape.height, shape.tolerance, spacing)
        board.origin = (shape.name, count, seed)
        return board

    def __reduce__(self) -> tuple[Any, tuple[BoardKey | None, dict[str, Any]]]:
        """Pickled (from a worker process) without its tables on demand, and restored as
        the receiving process's cached board for the same key (see ``_restored``)."""
        fields = {k: v for k, v in self.__dict__.items() if k not in _ON_DEMAND}
        return _restored, (self.origin, fields)

    def key(self, a: int, b: int) -> int:
        return pair_key(a, b, self.count)

    def side_mask(self, key: int) -> int:
        """The bitset of the scoring triangles that the pair ``key`` is a side of."""
        mask = self._side_masks.get(key)
        if mask is None:
            mask = sum(1 << t for t in self.side_of.get(key, ()))
            self._side_masks[key] = mask
            self.nbytes += _ENTRY + getsizeof(mask)
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
            self.nbytes += _ENTRY + getsizeof(found) + sum(_PAIR + getsizeof(m) for _, m in found)
        return found


_ON_DEMAND = ("_side_masks", "_crossings", "nbytes")
_ENTRY = 100  # a dict slot and its int key, as CPython 3.11 lays them out
_PAIR = getsizeof((0, 0))


def _base_nbytes(board: Board) -> int:
    """The estimated size of what a board computes when built (``sys.getsizeof`` of each
    object it holds; the star indexes below 256 are CPython's shared small ints)."""
    stars = getsizeof(board.stars) + sum(
        getsizeof(star) + getsizeof(star[0]) + getsizeof(star[1]) for star in board.stars
    )
    drawable = getsizeof(board.drawable) + sum(getsizeof(mask) for mask in board.drawable)
    triangles = getsizeof(board.triangles) + len(board.triangles) * getsizeof((0, 0, 0))
    side_of = getsizeof(board.side_of) + sum(
        getsizeof(key) + getsizeof(sides) for key, sides in board.side_of.items()
    )
    side_of += len(board.triangles) * getsizeof(1 << 10)  # each triangle's index, shared
    return 1024 + stars + drawable + triangles + side_of


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
