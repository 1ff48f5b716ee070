"""The lines of a game in progress, with what they still allow, updated line by line.

A ``Position`` is the mutable working form of a game's drawing, shared by the rules
(which copy it, draw one line and freeze the result into a State) and the computer
(which copies it many times while it searches). It keeps, as bitsets:

- ``drawn[p]``: the stars joined to star p by a drawn line;
- ``alive[p]``: the stars p may still be joined to (drawable, not drawn, crossing no
  drawn line); a line is legal exactly when it is alive;
- ``live``: the scoring triangles that can still be completed: each side drawn or
  alive, not all three drawn. The game is over when ``live`` is empty;
- ``one_drawn`` / ``two_drawn``: the triangles with exactly one / two sides drawn.

Drawing a line kills the alive lines it crosses (from the board's crossing sets) and
with them the triangles they are sides of, so nothing ever rescans all triangles.
"""

from __future__ import annotations

from engines.core.bits import bits
from engines.triangles.board import Board, crossing_pairs


class Position:
    __slots__ = ("board", "drawn", "alive", "live", "one_drawn", "two_drawn")

    def __init__(
        self,
        board: Board,
        drawn: list[int],
        alive: list[int],
        live: int,
        one_drawn: int,
        two_drawn: int,
    ) -> None:
        self.board = board
        self.drawn = drawn
        self.alive = alive
        self.live = live
        self.one_drawn = one_drawn
        self.two_drawn = two_drawn

    @classmethod
    def start(cls, board: Board) -> Position:
        n = board.count
        return cls(board, [0] * n, list(board.drawable), (1 << len(board.triangles)) - 1, 0, 0)

    def copy(self) -> Position:
        return Position(
            self.board,
            self.drawn.copy(),
            self.alive.copy(),
            self.live,
            self.one_drawn,
            self.two_drawn,
        )

    def is_drawn(self, a: int, b: int) -> bool:
        return bool(self.drawn[a] >> b & 1)

    def is_legal(self, a: int, b: int) -> bool:
        return bool(self.alive[a] >> b & 1)

    @property
    def over(self) -> bool:
        return self.live == 0

    def draw(self, a: int, b: int, once: bool = False) -> list[int]:
        """Draw the legal line ab; return the scoring triangles it completes (0 to 2).

        ``once``: a game's own line, drawn once on its board (not a search's, which
        draws the same lines over and over): its crossings are found among the alive
        lines alone, which thin out as the game goes on, and not kept on the board."""
        board = self.board
        alive = self.alive
        bit_a, bit_b = 1 << a, 1 << b
        self.drawn[a] |= bit_b
        self.drawn[b] |= bit_a
        alive[a] &= ~bit_b
        alive[b] &= ~bit_a
        n = board.count
        killed = 0
        if once:
            for p, q in crossing_pairs(board.stars, alive, a, b):
                alive[p] &= ~(1 << q)
                alive[q] &= ~(1 << p)
                killed |= board.side_mask(p * n + q if p < q else q * n + p)
        else:
            for p, mask in board.crossings(a, b):
                hit = alive[p] & mask
                if hit:
                    alive[p] ^= hit
                    for q in bits(hit >> p << p):  # each crossed line once, from its lower end
                        killed |= board.side_mask(p * n + q)
        completed: list[int] = []
        one, two = self.one_drawn, self.two_drawn
        for t in board.side_of.get(board.key(a, b), ()):
            bit = 1 << t
            if two & bit:
                two ^= bit
                if self.live & bit:
                    completed.append(t)
            elif one & bit:
                one ^= bit
                two |= bit
            else:
                one |= bit
        self.one_drawn, self.two_drawn = one, two
        done = sum(1 << t for t in completed)
        self.live &= ~(killed | done)
        return completed

    def legal_count(self) -> int:
        return sum(mask.bit_count() for mask in self.alive) // 2

    def nth_legal(self, index: int) -> tuple[int, int]:
        """The ``index``-th legal line ``(a, b)``, a < b, ordered by a then b."""
        for p, mask in enumerate(self.alive):
            upper = mask >> p << p
            count = upper.bit_count()
            if index < count:
                for q in bits(upper):
                    if index == 0:
                        return p, q
                    index -= 1
            index -= count
        raise IndexError("no such legal line")
