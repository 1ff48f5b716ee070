"""What the browser gets: everything it draws, and nothing that would solve the board.

No solution order, no future shuffles, no list of removable pairs: only the tiles, the
counters, the clock snapshots (the browser counts down between events from ``as_of_ms``)
and the pair a paid hint named. ``PairsView`` declares it (the engine's ``view_type``).
"""

from __future__ import annotations

from typing import Literal, cast

from typing_extensions import TypedDict

from engines.core.protocol import ViewBase, closed
from engines.pairs.events import PairsHint, PairsReason
from engines.pairs.grid import EMPTY
from engines.pairs.numbering import number
from engines.pairs.rules import hint_data
from engines.pairs.scoring import STREAK_WINDOW_MS
from engines.pairs.state import State

PairsSize = Literal["beginner", "classic", "long"]
PairsMode = Literal["calm", "timed"]


@closed
class PairsStopwatch(TypedDict):
    """The time played as of ``as_of_ms`` (the page counts on while ``running``)."""

    elapsed_ms: int
    running: bool
    as_of_ms: int


@closed
class PairsClock(TypedDict):
    """The timed mode's countdown as of ``as_of_ms``."""

    remaining_ms: int | None
    running: bool
    as_of_ms: int
    cap_ms: int
    start_ms: int


@closed
class PairsView(ViewBase):
    counts_for_record: bool
    tiles: list[list[int | None]]
    rows: int
    cols: int
    size: PairsSize
    mode: PairsMode
    number: str
    pictures: list[int]
    score: int
    streak: int
    best_streak: int
    last_removal_ms: int | None
    streak_expires_ms: int | None
    pairs_removed: int
    pairs_total: int
    hints: int
    shuffles: int
    auto_shuffles: int
    hint: PairsHint | None
    paused: bool
    stopwatch: PairsStopwatch
    clock: PairsClock | None
    reason: PairsReason | None
    time_ms: int | None
    bonus: int | None


def view(state: State, seat: int | None = None) -> PairsView:
    params = state.params
    spec = params.spec
    grid = state.grid
    cols = grid.cols
    clock = state.clock
    running = not clock.paused and not state.over
    tiles = state.tiles
    return PairsView(
        over=state.over,
        turn=None if state.over else 0,
        scores=[state.score],
        record_key=params.record_key,
        counts_for_record=True,
        tiles=[
            [None if tile == EMPTY else tile for tile in tiles[row * cols : (row + 1) * cols]]
            for row in range(grid.rows)
        ],
        rows=grid.rows,
        cols=cols,
        size=params.size,
        mode=params.mode,
        number=number(params, state.seed),
        pictures=list(state.pictures),
        score=state.score,
        streak=state.streak,
        best_streak=state.best_streak,
        last_removal_ms=state.last_removal_ms,
        streak_expires_ms=(
            None
            if state.last_removal_ms is None or state.over
            else state.last_removal_ms + STREAK_WINDOW_MS
        ),
        pairs_removed=state.pairs_removed,
        pairs_total=spec.pairs,
        hints=state.hints,
        shuffles=state.shuffles,
        auto_shuffles=state.auto_shuffles,
        hint=hint_data(state),
        paused=clock.paused,
        stopwatch=PairsStopwatch(
            elapsed_ms=clock.elapsed_ms, running=running, as_of_ms=clock.as_of_ms
        ),
        clock=(
            PairsClock(
                remaining_ms=clock.remaining_ms,
                running=running,
                as_of_ms=clock.as_of_ms,
                cap_ms=spec.timed_cap_ms,
                start_ms=spec.timed_start_ms,
            )
            if params.timed
            else None
        ),
        reason=cast(PairsReason | None, state.reason),
        time_ms=clock.elapsed_ms if state.over else None,
        bonus=state.bonus if state.over else None,
    )
