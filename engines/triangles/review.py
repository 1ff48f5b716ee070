"""A finished game reviewed: every line marked against the best one at its moment.

For each line of the game (ply ``i`` is the game's ``i``-th line: every log entry of a
Triangles game before its last is a line), the lines its player could have drawn are
valued by the final triangle difference, from the mover's point of view, that the line
leads to over the rest of the game. ``loss`` is how many triangles the played line gives
away against the best one: half the difference it loses, since a triangle that goes to
the opponent instead of the mover moves the difference by two (a triangle that nobody can
close any more moves it by one: half a triangle). Never below 0; the verdict follows from
it (``VERDICTS``).

- Exact: with at most ``solver.EXACT_LINES`` legal lines left, every legal line is
  valued by the exact solver (best play by both sides to the end).
- Estimated, before that: the candidates are the played line, every taking line, the safe
  lines (only the first one while more than ``ai.SAFE_SEARCH_LIMIT`` remain: the hard
  computer holds them equal) and, with no safe line left, the ways of opening the
  fewest triangles. Each is valued by the hard computer's search (``ai.Search``) with a
  larger budget, its positions of few lines by the solver; when the budget of the ply
  runs out, every candidate is valued by the greedy play-out instead, so the values of
  one ply are always compared on one scale. A safe line drawn while many remain, with
  nothing to take, gives nothing away: loss 0, and it is ``quiet``: no choice there could
  lose anything, so it is left out of its player's accuracy.

The budgets count lines drawn, never time: the same game always gets the same review.
Accuracy (``accuracy``) is documented in docs/review.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engines.triangles import ai
from engines.triangles.board import Board
from engines.triangles.position import Position
from engines.triangles.solver import EXACT_LINES, Line, Solver
from engines.triangles.tactics import Tactics

# lines the search may draw per reviewed ply × stars: four times the hard computer's
REVIEW_WORK = 4 * ai.LOOKAHEAD_WORK
# (verdict, the largest loss it covers), best first; above the last: "blunder"
VERDICTS: tuple[tuple[str, float], ...] = (
    ("best", 0.0),
    ("good", 0.5),
    ("inaccuracy", 1.5),
    ("mistake", 2.5),
)
VERDICT_NAMES = ("best", "good", "inaccuracy", "mistake", "blunder")
ACCURACY_SCALE = 4.0  # a line that loses this many triangles or more scores 0 %


@dataclass(frozen=True)
class PlyReview:
    ply: int
    seat: int
    played: Line
    best: Line
    loss: float  # triangles given away: a multiple of 0.5
    verdict: str
    exact: bool
    quiet: bool = False  # a safe line among many, nothing to take: left out of accuracy


def verdict(loss: float) -> str:
    for name, most in VERDICTS:
        if loss <= most:
            return name
    return "blunder"


def move_accuracy(loss: float) -> float:
    """A line's accuracy in percent: 100 for the best line, falling linearly to 0 at a
    loss of ``ACCURACY_SCALE`` triangles."""
    return 100.0 * max(0.0, 1.0 - loss / ACCURACY_SCALE)


def accuracy(losses: Sequence[float]) -> float | None:
    """A player's accuracy: the mean of their lines' accuracies, to one decimal (None
    for a player who drew no line)."""
    if not losses:
        return None
    return round(sum(move_accuracy(loss) for loss in losses) / len(losses), 1)


def review_lines(
    board: Board, again: bool, lines: Sequence[tuple[int, int, int]]
) -> list[PlyReview]:
    """Every line ``(a, b, seat)`` of a game on ``board``, in order, reviewed."""
    tactics = Tactics.of(Position.start(board))
    solver = Solver(again)
    reviews: list[PlyReview] = []
    for ply, (a, b, seat) in enumerate(lines, start=1):
        played = (min(a, b), max(a, b))
        exact = tactics.position.legal_count() <= EXACT_LINES
        quiet = False
        if exact:
            best, best_value = solver.best_line(tactics.position)
            given = best_value - solver.line_value(tactics.position, played)
        else:
            values = _estimates(tactics, played, again, solver)
            quiet = values is None
            if values is None:
                best, given = played, 0
            else:
                best = max(values, key=lambda line: values[line])  # the first of the best
                given = values[best] - values[played]
        loss = given / 2  # the difference lost, in triangles given away
        if loss == 0:
            best = played
        reviews.append(PlyReview(ply, seat, played, best, loss, verdict(loss), exact, quiet))
        tactics.draw(*played)
    return reviews


def _candidates(tactics: Tactics, played: Line) -> list[Line] | None:
    """The lines worth comparing with ``played``; None when ``played`` is a safe line
    among many (nothing given away, nothing missed)."""
    n = tactics.position.board.count
    takes = [ai.split(key, n) for key in sorted(tactics.takes)]
    safe = tactics.safe_lines()
    if not takes and len(safe) > ai.SAFE_SEARCH_LIMIT and played in safe:
        return None
    found = {played, *takes}
    if len(safe) > ai.SAFE_SEARCH_LIMIT:
        found.add(safe[0])
    elif safe:
        found.update(safe)
    else:
        ranked = sorted(tactics.opens, key=lambda key: (tactics.opens[key], key))
        found.update(ai.split(key, n) for key in ranked[: ai.OPENING_CANDIDATES])
    return sorted(found)


def _estimates(
    tactics: Tactics, played: Line, again: bool, solver: Solver
) -> dict[Line, int] | None:
    """Each candidate's value for the mover; None for a quiet line (``_candidates``)."""
    candidates = _candidates(tactics, played)
    if candidates is None:
        return None
    search = ai.Search(again, REVIEW_WORK // tactics.position.board.count)
    try:
        return {line: _line_value(tactics, line, again, solver, search) for line in candidates}
    except ai.OutOfBudget:
        return {line: _line_value(tactics, line, again, solver, None) for line in candidates}


def _line_value(
    tactics: Tactics, line: Line, again: bool, solver: Solver, search: ai.Search | None
) -> int:
    """The mover's value of drawing ``line``: searched (``search``) or played out."""
    child = tactics.copy()
    gain = child.draw(*line)
    if child.over:
        return gain
    if child.position.legal_count() <= EXACT_LINES:
        rest = solver.value(child.position)
    elif search is None or (not child.takes and len(child.safe_lines()) > ai.SAFE_SEARCH_LIMIT):
        rest = ai.playout(child, again)
    else:
        rest = search.value(child, -ai.INFINITY, ai.INFINITY)
    return gain + rest if gain and again else gain - rest


def summary(reviews: Sequence[PlyReview], seats: int) -> list[dict[str, object]]:
    """Per seat: its accuracy over its judged lines (every line but the quiet ones: a safe
    line drawn among many, with nothing to take, could lose nothing), how many lines were
    judged, and how many of its lines got each verdict."""
    out: list[dict[str, object]] = []
    for seat in range(seats):
        mine = [review for review in reviews if review.seat == seat]
        judged = [review.loss for review in mine if not review.quiet]
        counts = dict.fromkeys(VERDICT_NAMES, 0)
        for review in mine:
            counts[review.verdict] += 1
        out.append(
            {"seat": seat, "accuracy": accuracy(judged), "judged": len(judged), "counts": counts}
        )
    return out


def dump_review(reviews: Sequence[PlyReview], seats: int) -> dict[str, object]:
    """The review as JSON: its plies and its summary per seat."""
    return {
        "plies": [
            {
                "ply": r.ply,
                "seat": r.seat,
                "played": {"a": r.played[0], "b": r.played[1]},
                "best": {"a": r.best[0], "b": r.best[1]},
                "loss": r.loss,
                "verdict": r.verdict,
                "exact": r.exact,
                "quiet": r.quiet,
            }
            for r in reviews
        ],
        "summary": summary(reviews, seats),
    }
