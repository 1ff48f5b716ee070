"""Arena tournaments (lichess's arenas): a game's result for one player, the scoring of
a player's games, the pairing of free players and the tiebreak. Pure functions of their
arguments, for every game with the ``ArenaPlay`` capability (``engines.core.protocol``);
the server keeps the arena (who plays, the clock, the ranking) and asks these.

**Result** (``result_of``): a game nobody moved in, or one without a winner in which not
every seat moved (aborted by the clock before both drew), is ``ABORTED``; otherwise a win,
a draw or a loss for the seat.

**Scoring** (``score_sheet``), one player's games in the order played: a win scores 2, a
draw 1, a loss 0. After two wins in a row the player is *on fire*: every further game
scores double (a win 4, a draw 2) until a game that is not a win (a draw on fire scores
2 and puts the fire out, a loss puts it out). An aborted game scores 0 and neither breaks
nor extends a streak: it is as if not played, listed with 0 points and not on fire. A
berserk win scores one extra point, never doubled, when the player played long enough
(``ArenaSeat.long_enough``; Triangles: 7 lines). So a game's points are ``base × (2 if on
fire) + (1 if a berserk win long enough)``: 0 to 5.

**Pairing** (``pair``): the free players in ranking order; each unpaired one, best first,
is paired with the nearest-ranked unpaired free player who is not their previous opponent
(either's ``previous`` names the other; at equal distance the better ranked). Two previous
opponents play each other again only when nobody else could be paired, nobody was, and no
other game of the arena is running (``others_playing`` False: nobody else can become
free); otherwise they wait. Deterministic: ranks, then names, order everything.

**Tiebreak** (``performance``): the performance rating in the arena, the mean over the
games that were not aborted of the opponent's rating +500 for a win, −500 for a loss, +0
for a draw, rounded half up; None without such games.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum


class ArenaResult(StrEnum):
    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    ABORTED = "aborted"


BASE_POINTS = {ArenaResult.WIN: 2, ArenaResult.DRAW: 1, ArenaResult.LOSS: 0}
FIRE_STREAK = 2  # wins in a row that set a player on fire
BERSERK_BONUS = 1  # a berserk win's extra point (long enough), not doubled
PERFORMANCE_MARGIN = {ArenaResult.WIN: 500, ArenaResult.DRAW: 0, ArenaResult.LOSS: -500}


def result_of(
    winner: int | None, seat: int, movers: frozenset[int], seats: int = 2
) -> ArenaResult:
    """The result of a finished game for ``seat``: ``winner`` from the game's outcome,
    ``movers`` the seats that played a move of their own (the engine's ``movers``)."""
    if not movers or (winner is None and not set(range(seats)) <= movers):
        return ArenaResult.ABORTED
    if winner is None:
        return ArenaResult.DRAW
    return ArenaResult.WIN if winner == seat else ArenaResult.LOSS


@dataclass(frozen=True)
class ArenaGame:
    """One finished game of one player, in the order played."""

    result: ArenaResult
    berserk: bool
    long_enough: bool


@dataclass(frozen=True)
class ScoredGame:
    result: ArenaResult
    points: int
    fire: bool
    """The game was played on fire (scored double)."""
    berserk: bool


@dataclass(frozen=True)
class Sheet:
    games: tuple[ScoredGame, ...]
    score: int
    fire: bool
    """On fire now: the next game would score double."""


def score_sheet(games: Sequence[ArenaGame]) -> Sheet:
    """A player's games scored (see the module's docstring)."""
    scored: list[ScoredGame] = []
    streak = 0  # wins in a row at the end, aborted games skipped
    for game in games:
        if game.result == ArenaResult.ABORTED:
            scored.append(ScoredGame(game.result, 0, False, game.berserk))
            continue
        fire = streak >= FIRE_STREAK
        points = BASE_POINTS[game.result] * (2 if fire else 1)
        if game.result == ArenaResult.WIN and game.berserk and game.long_enough:
            points += BERSERK_BONUS
        scored.append(ScoredGame(game.result, points, fire, game.berserk))
        streak = streak + 1 if game.result == ArenaResult.WIN else 0
    return Sheet(tuple(scored), sum(game.points for game in scored), streak >= FIRE_STREAK)


@dataclass(frozen=True)
class Entrant:
    player: str
    rank: int
    """0 = top of the arena's ranking."""
    previous: str | None
    """The opponent of their last game in this arena."""


def met_last(a: Entrant, b: Entrant) -> bool:
    """Either one's last game in the arena was against the other."""
    return a.previous == b.player or b.previous == a.player


def pair(free: Sequence[Entrant], others_playing: bool) -> list[tuple[str, str]]:
    """Pairs of the free players (the better ranked first), best pair first; the rest
    wait for the next round (see the module's docstring)."""
    order = sorted(free, key=lambda entrant: (entrant.rank, entrant.player))
    unpaired = list(order)
    pairs: list[tuple[str, str]] = []
    for entrant in order:
        if entrant not in unpaired:
            continue
        others = [other for other in unpaired if other is not entrant]
        fresh = [other for other in others if not met_last(entrant, other)]
        if not fresh:
            continue
        rival = min(
            fresh, key=lambda other: (abs(other.rank - entrant.rank), other.rank, other.player)
        )
        unpaired.remove(entrant)
        unpaired.remove(rival)
        pairs.append((entrant.player, rival.player))
    if not pairs and not others_playing:
        # Nobody else can become free: previous opponents play again rather than wait.
        ends = unpaired[: len(unpaired) // 2 * 2]
        pairs = [(a.player, b.player) for a, b in zip(ends[::2], ends[1::2], strict=True)]
    return pairs


def performance(results: Sequence[tuple[ArenaResult, int]]) -> int | None:
    """The performance rating in the arena of ``(result, opponent's rating)`` pairs,
    rounded half up; None without a game that was not aborted."""
    counted = [
        rating + PERFORMANCE_MARGIN[result]
        for result, rating in results
        if result != ArenaResult.ABORTED
    ]
    if not counted:
        return None
    return (2 * sum(counted) + len(counted)) // (2 * len(counted))
