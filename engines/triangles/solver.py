"""Exact values of Triangles endgames.

Once few legal lines remain (``EXACT_LINES``), the whole game tree is small enough to
search to the end: the value of a position is the final triangle difference, for the
player to move, with best play by both sides (a line that completes a triangle lets its
player draw again when the game has "move again"). The search is a negamax with
alpha-beta over the legal lines, taking lines first, and a transposition table keyed on
the set of drawn lines (the rest of a position, its alive lines and live triangles,
follows from it) that keeps, per position, the bounds on its value found so far: a
position is searched again only for a window its bounds do not settle. One table serves
every later position of the same game.
"""

from __future__ import annotations

from engines.core.bits import bits
from engines.triangles.position import Position

EXACT_LINES = 14  # at most this many legal lines: at most 2**14 positions to value
Line = tuple[int, int]


def legal_lines(position: Position) -> list[Line]:
    """Every legal line (a < b), ordered by a then b."""
    return [(p, q) for p, mask in enumerate(position.alive) for q in bits(mask >> p << p)]


def ordered_lines(position: Position) -> list[Line]:
    """The legal lines, the most promising first: those completing the most triangles,
    then those leaving the fewest one line from completion (ties in index order)."""
    board = position.board
    live, one, two = position.live, position.one_drawn, position.two_drawn

    def rank(line: Line) -> tuple[int, int]:
        sides = live & board.side_mask(board.key(*line))
        return -(sides & two).bit_count(), (sides & one).bit_count()

    return sorted(legal_lines(position), key=rank)


class Solver:
    """Exact values for one board; the table grows over the endgame of one game."""

    def __init__(self, again: bool) -> None:
        self.again = again
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}  # drawn → (lower, upper)
        self.nodes = 0  # lines drawn by the search, for benches

    def value(self, position: Position) -> int:
        """The triangle difference the player to move ends ``position`` with, both
        sides playing their best."""
        return self._search(position, -_UNBOUNDED, _UNBOUNDED)

    def line_value(self, position: Position, line: Line) -> int:
        """The mover's final triangle difference after drawing ``line`` in
        ``position`` (left untouched), both sides playing their best afterwards."""
        return self._line(position, line, -_UNBOUNDED, _UNBOUNDED)

    def best_line(self, position: Position) -> tuple[Line, int]:
        """The first of the best lines (in ``ordered_lines``' order) and its value."""
        best: Line | None = None
        value = -_UNBOUNDED
        for line in ordered_lines(position):
            found = self._line(position, line, value, _UNBOUNDED)
            if found > value:
                best, value = line, found
        assert best is not None, "a position that is not over has a legal line"
        return best, value

    def _line(self, position: Position, line: Line, alpha: int, beta: int) -> int:
        self.nodes += 1
        child = position.copy()
        gain = len(child.draw(*line))
        if child.over:
            return gain
        if gain and self.again:
            return gain + self._search(child, alpha - gain, beta - gain)
        return gain - self._search(child, gain - beta, gain - alpha)

    def _search(self, position: Position, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta: exact inside (alpha, beta), else a bound beyond it."""
        if position.over:
            return 0
        key = tuple(position.drawn)
        left = position.live.bit_count()  # no side can gain more than the live triangles
        lower, upper = self.table.get(key, (-left, left))
        if lower >= beta or lower == upper:
            return lower
        if upper <= alpha:
            return upper
        alpha, beta = max(alpha, lower), min(beta, upper)
        best = -_UNBOUNDED
        for line in ordered_lines(position):
            best = max(best, self._line(position, line, max(alpha, best), beta))
            if best >= beta:
                break
        if best >= beta:
            lower = best
        elif best <= alpha:
            upper = best
        else:
            lower = upper = best
        self.table[key] = (lower, upper)
        return best


_UNBOUNDED = 1 << 20
