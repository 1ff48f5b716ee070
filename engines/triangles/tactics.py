"""A Position that also knows, for every legal line, what it gives away or takes.

``takes[key]``: how many triangles the line ``key`` would complete now (the triangles
with two sides drawn); ``opens[key]``: how many it would leave one line from
completion (the triangles with one side drawn). A *safe* line is in neither. The
computer asks these questions after every line of its look-ahead, so they are kept up
to date line by line: only the triangles that contain the new line, or that it kills,
change their contribution.
"""

from __future__ import annotations

from engines.core.bits import bits
from engines.triangles.position import Position

Line = tuple[int, int]


class Tactics:
    __slots__ = ("position", "takes", "opens", "unsafe")

    def __init__(
        self,
        position: Position,
        takes: dict[int, int],
        opens: dict[int, int],
        unsafe: list[int],
    ) -> None:
        self.position = position
        self.takes = takes
        self.opens = opens
        self.unsafe = unsafe  # per star: the stars it has a taking or opening line to

    @classmethod
    def of(cls, position: Position) -> Tactics:
        tactics = cls(position, {}, {}, [0] * position.board.count)
        for t in bits(position.live & (position.one_drawn | position.two_drawn)):
            tactics._count(t, position.one_drawn, position.drawn, 1)
        return tactics

    def copy(self) -> Tactics:
        return Tactics(
            self.position.copy(), self.takes.copy(), self.opens.copy(), self.unsafe.copy()
        )

    @property
    def over(self) -> bool:
        return self.position.over

    def draw(self, a: int, b: int) -> int:
        """Draw the legal line ab; return how many triangles it completes."""
        position = self.position
        board = position.board
        live, one = position.live, position.one_drawn
        ab = board.key(a, b)
        containing = board.side_mask(ab)
        for t in bits(live & containing):
            self._count(t, one, position.drawn, -1)
        completed = position.draw(a, b)
        # the killed triangles that counted (one or two sides drawn); their sides are
        # not ab, so the drawing they were counted in is the present one
        drawn = position.drawn
        for t in bits(live & ~position.live & (one | position.two_drawn) & ~containing):
            self._count(t, one, drawn, -1)
        new_one = position.one_drawn
        for t in bits(position.live & containing):
            self._count(t, new_one, drawn, 1)
        return len(completed)

    def _count(self, t: int, one: int, drawn: list[int], step: int) -> None:
        """Add (step 1) or remove (step -1) live triangle t's contribution.

        ``one`` and ``drawn`` describe the drawing the contribution was made in; a
        triangle with no side drawn contributes nothing.
        """
        board = self.position.board
        a, b, c = board.triangles[t]
        row_a = drawn[a]
        missing = []
        if not row_a >> b & 1:
            missing.append((a, b))
        if not row_a >> c & 1:
            missing.append((a, c))
        if not drawn[b] >> c & 1:
            missing.append((b, c))
        if len(missing) == 3:
            return
        takes, opens, unsafe = self.takes, self.opens, self.unsafe
        table = opens if one >> t & 1 else takes
        n = board.count
        for p, q in missing:
            key = p * n + q
            count = table.get(key, 0) + step
            if count:
                table[key] = count
            else:
                del table[key]
            if key in takes or key in opens:
                unsafe[p] |= 1 << q
                unsafe[q] |= 1 << p
            else:
                unsafe[p] &= ~(1 << q)
                unsafe[q] &= ~(1 << p)

    def safe_lines(self) -> list[Line]:
        alive, unsafe = self.position.alive, self.unsafe
        return [(p, q) for p in range(len(alive)) for q in bits((alive[p] & ~unsafe[p]) >> p << p)]

    def first_safe(self) -> Line | None:
        alive, unsafe = self.position.alive, self.unsafe
        for p in range(len(alive)):
            upper = (alive[p] & ~unsafe[p]) >> p << p
            if upper:
                return p, (upper & -upper).bit_length() - 1
        return None
