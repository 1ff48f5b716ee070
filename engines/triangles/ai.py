"""The computer opponent, three levels.

- easy: completes a triangle when it can (the most at once), otherwise any legal line;
- medium: the same, but otherwise draws a *safe* line, one that leaves the opponent
  no triangle to complete; with no safe line left, it opens as few triangles as it can;
- hard: plays like medium while safe lines are plentiful, then fights for their
  parity, as in a Dots-and-Boxes endgame: whoever runs out of safe lines first must
  open triangles for the other. It searches the remaining safe lines (alpha-beta with
  a transposition table) and values the end of that fight with a greedy play-out of
  the giving phase; with no safe line left, it compares the ways of opening triangles
  with the same play-out.

Everything is deterministic: ties are broken by an ``Rng`` the caller seeds from the
game and the move count, and the search is bounded by a budget of lines drawn in the
look-ahead (smaller on bigger boards, where a line costs more), never by a clock.
"""

from __future__ import annotations

from collections.abc import Callable

from engines.core.rng import Rng
from engines.triangles.tactics import Line, Tactics

SAFE_SEARCH_LIMIT = 10  # hard searches the parity fight once this few safe lines remain
# hard's budget per move: lines drawn in its look-ahead × stars on the board (a line
# costs about in proportion to the stars): 22 500 lines at 24 stars, 3 000 at 180
LOOKAHEAD_WORK = 540_000
OPENING_CANDIDATES = 12  # ways of opening triangles that hard compares by play-out
INFINITY = 1 << 30


def split(key: int, n: int) -> Line:
    return key // n, key % n


def easy(tactics: Tactics, rng: Rng, again: bool) -> Line:
    n = tactics.position.board.count
    if tactics.takes:
        best = max(tactics.takes.values())
        keys = sorted(key for key, gain in tactics.takes.items() if gain == best)
        return split(rng.choice(keys), n)
    position = tactics.position
    return position.nth_legal(rng.below(position.legal_count()))


def medium(tactics: Tactics, rng: Rng, again: bool) -> Line:
    n = tactics.position.board.count
    takes, opens = tactics.takes, tactics.opens
    if takes:
        best = max(takes.values())
        keys = [key for key, gain in takes.items() if gain == best]
        fewest = min(opens.get(key, 0) for key in keys)
        keys = sorted(key for key in keys if opens.get(key, 0) == fewest)
        return split(rng.choice(keys), n)
    safe = tactics.safe_lines()
    if safe:
        return rng.choice(safe)
    fewest = min(opens.values())
    keys = sorted(key for key, count in opens.items() if count == fewest)
    return split(rng.choice(keys), n)


def hard(tactics: Tactics, rng: Rng, again: bool) -> Line:
    n = tactics.position.board.count
    if tactics.takes:
        return split(best_take(tactics, again), n)
    safe = tactics.safe_lines()
    if len(safe) > SAFE_SEARCH_LIMIT:
        return rng.choice(safe)
    if safe:
        candidates = safe
    else:
        ranked = sorted(tactics.opens, key=lambda key: (tactics.opens[key], key))
        candidates = [split(key, n) for key in ranked[:OPENING_CANDIDATES]]
    search = Search(again, LOOKAHEAD_WORK // n)
    best_line = candidates[0]
    best_value = -INFINITY
    for line in candidates:
        try:
            value = search.value_after(tactics, line, best_value)
        except OutOfBudget:
            break  # keep the best line valued in full
        if value > best_value:
            best_line, best_value = line, value
    return best_line


def best_take(tactics: Tactics, again: bool) -> int:
    """The line completing the most triangles; on a tie, the one opening the fewest for
    the opponent (or, when the taker moves again, the most for itself)."""
    sign = 1 if again else -1
    takes, opens = tactics.takes, tactics.opens
    return max(sorted(takes), key=lambda key: (takes[key], sign * opens.get(key, 0)))


class OutOfBudget(Exception):
    """The look-ahead has drawn as many lines as it may for this move."""


class Search:
    """Negamax with alpha-beta over the safe lines. Values are triangle differences
    for the player to move, counted from the position searched."""

    def __init__(self, again: bool, budget: int) -> None:
        self.again = again
        self.budget = budget
        self.table: dict[tuple[int, ...], int] = {}

    def spend(self) -> None:
        """Count one line drawn in the look-ahead; stop the search when none are left."""
        self.budget -= 1
        if self.budget < 0:
            raise OutOfBudget

    def value_after(self, tactics: Tactics, line: Line, alpha: int) -> int:
        """The mover's value of drawing ``line``, exact when it is above ``alpha``."""
        self.spend()
        child = tactics.copy()
        gain = child.draw(*line)
        if child.over:
            return gain
        if gain and self.again:
            return gain + self.value(child, alpha - gain, INFINITY)
        return gain - self.value(child, -INFINITY, gain - alpha)

    def value(self, tactics: Tactics, alpha: int, beta: int) -> int:
        key = tuple(tactics.position.drawn)
        known = self.table.get(key)
        if known is not None:
            return known
        safe = [] if tactics.takes else tactics.safe_lines()
        if not safe:
            result = playout(tactics, self.again, self)
        else:
            result = -INFINITY
            for line in safe:
                result = max(result, self.value_after(tactics, line, max(alpha, result)))
                if result >= beta:
                    return result  # a lower bound: not stored
            if result <= alpha:
                return result  # an upper bound: not stored
        self.table[key] = result
        return result


def playout(tactics: Tactics, again: bool, search: Search | None = None) -> int:
    """The triangle difference, for the player to move, of greedy play to the end.

    Both sides take the most triangles they can (preferring takes that open the fewest
    for the other), else draw the first safe line, else open the fewest triangles.
    """
    tactics = tactics.copy()
    n = tactics.position.board.count
    sign = 1
    total = 0
    while not tactics.over:
        if tactics.takes:
            line = split(best_take(tactics, again), n)
        else:
            safe = tactics.first_safe()
            if safe is None:
                opens = tactics.opens
                fewest = min(opens.values())
                line = split(min(key for key, count in opens.items() if count == fewest), n)
            else:
                line = safe
        if search is not None:
            search.spend()
        gain = tactics.draw(*line)
        total += sign * gain
        if not (gain and again):
            sign = -sign
    return total


LEVELS: dict[str, Callable[[Tactics, Rng, bool], Line]] = {
    "easy": easy,
    "medium": medium,
    "hard": hard,
}
