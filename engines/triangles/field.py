"""The two field shapes, their star counts, and where the stars go.

Coordinates are field units, x to the right and y down from the top-left corner.
A phone field is 1000 × 1800 (portrait, about 9:16), a tablet field 1500 × 2000 (3:4).
The tolerance of "a line passes through a star" is a fixed fraction of the width
(width / 80: about 4–5 screen points on a phone), and stars are kept at least
``spacing`` apart, so that every star can be tapped and no two look alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import isqrt

from engines.core.rng import Rng
from engines.triangles.geometry import Point

RNG_STREAM = "triangles"
ATTEMPTS_PER_STAR = 30  # dart throws per missing star before the spacing shrinks
SHRINK_NUM, SHRINK_DEN = 9, 10  # the deterministic fallback: spacing × 9/10, keep going


@dataclass(frozen=True)
class FieldShape:
    name: str
    width: int
    height: int
    margin: int
    counts: tuple[int, ...]
    letters: tuple[str, ...]  # the game-number letter of each count, same order

    @property
    def tolerance(self) -> int:
        return self.width // 80

    def spacing(self, count: int) -> int:
        """Minimum distance between stars: 0.7 × the side of the area each star gets."""
        inner = (self.width - 2 * self.margin) * (self.height - 2 * self.margin)
        return isqrt(inner * 49 // (100 * count))


PHONE = FieldShape("phone", 1000, 1800, 40, (24, 60, 120), ("a", "b", "c"))
TABLET = FieldShape("tablet", 1500, 2000, 60, (80, 120, 180), ("d", "e", "f"))
FIELDS: dict[str, FieldShape] = {PHONE.name: PHONE, TABLET.name: TABLET}


def place_stars(shape: FieldShape, count: int, seed: int) -> tuple[tuple[Point, ...], int]:
    """``count`` stars for ``seed``, at least the returned spacing apart (dart throwing).

    Each round throws up to ``ATTEMPTS_PER_STAR`` darts per missing star; a dart lands if
    no star is closer than the spacing. If a round ends short, the spacing shrinks by a
    tenth and throwing goes on, so exactly ``count`` stars always come out. (The
    spacing never goes below twice the tolerance; the counts offered fill a field at
    under a tenth of that density.)
    """
    rng = Rng.from_seed(seed, RNG_STREAM)
    spacing = shape.spacing(count)
    lo_x, hi_x = shape.margin, shape.width - shape.margin
    lo_y, hi_y = shape.margin, shape.height - shape.margin
    stars: list[Point] = []
    while True:
        grid = _Grid(spacing, stars)
        attempts = ATTEMPTS_PER_STAR * (count - len(stars))
        while attempts and len(stars) < count:
            attempts -= 1
            star = (rng.between(lo_x, hi_x), rng.between(lo_y, hi_y))
            if grid.free(star):
                grid.add(star)
                stars.append(star)
        if len(stars) == count:
            return tuple(stars), spacing
        spacing = max(spacing * SHRINK_NUM // SHRINK_DEN, 2 * shape.tolerance + 1)


class _Grid:
    """Buckets of side ``spacing``: a star's conflicts are in the 3 × 3 cells around it."""

    def __init__(self, spacing: int, stars: list[Point]) -> None:
        self.spacing = spacing
        self.cells: dict[tuple[int, int], list[Point]] = {}
        for star in stars:
            self.add(star)

    def add(self, star: Point) -> None:
        key = (star[0] // self.spacing, star[1] // self.spacing)
        self.cells.setdefault(key, []).append(star)

    def free(self, star: Point) -> bool:
        x, y = star
        cx, cy = x // self.spacing, y // self.spacing
        limit2 = self.spacing * self.spacing
        for gx in (cx - 1, cx, cx + 1):
            for gy in (cy - 1, cy, cy + 1):
                for ox, oy in self.cells.get((gx, gy), ()):
                    if (ox - x) ** 2 + (oy - y) ** 2 < limit2:
                        return False
        return True
