"""The rules of Pairs: a new game, moves, and the timed mode's end.

Every function returns a new State and the events for the client; refused moves raise
IllegalMove with a stable code and leave the state as it was.
"""

from __future__ import annotations

from dataclasses import replace
from typing import cast

from engines.core.errors import ErrorCode
from engines.core.numbers import check_seed
from engines.core.protocol import BadMove, IllegalMove
from engines.core.rng import Rng
from engines.pairs.clock import Clock
from engines.pairs.events import (
    PairsEvent,
    PairsHint,
    PairsHintEvent,
    PairsOver,
    PairsPaused,
    PairsReason,
    PairsRemoved,
    PairsResumed,
    PairsShuffled,
)
from engines.pairs.generator import new_board, reshuffle
from engines.pairs.grid import EMPTY, Grid, Point
from engines.pairs.moves import Hint, Move, Pair, Pause, Resume, Shuffle
from engines.pairs.params import Params
from engines.pairs.paths import find_path, single_blockers
from engines.pairs.scoring import (
    HINT_COST,
    SHUFFLE_COST,
    TIMED_PAIR_MS,
    charged,
    clear_bonus,
    next_streak,
    pair_points,
)
from engines.pairs.search import find_pair
from engines.pairs.state import State, grid_of

RNG_STREAM = "pairs"  # the deal depends on the seed and the size only, never on the mode


def new_game(params: Params, seed: int) -> State:
    rng = Rng.from_seed(check_seed(seed), RNG_STREAM)
    spec = params.spec
    dealt, pictures = new_board(grid_of(params), spec, rng)
    start_ms = spec.timed_start_ms if params.timed else None
    return State(
        params=params,
        seed=seed,
        pictures=pictures,
        tiles=dealt.tiles,
        rng=rng.state,
        clock=Clock(remaining_ms=start_ms),
    )


def apply(state: State, move: Move, at_ms: int, seat: int = 0) -> tuple[State, list[PairsEvent]]:
    if seat != 0:
        raise IllegalMove(ErrorCode.NOT_YOUR_SEAT, "Pairs has one seat, seat 0")
    if state.over:
        raise IllegalMove(ErrorCode.GAME_OVER, "the game is over")
    clock = state.clock
    remaining = clock.remaining_at(at_ms)
    if remaining is not None and remaining <= 0:
        raise IllegalMove(ErrorCode.TIME_UP, "the time has run out; the game ends on the next tick")
    if isinstance(move, Pause):
        if clock.paused:
            raise IllegalMove("already_paused", "the game is already paused")
        return replace(state, clock=clock.pause(at_ms)), [PairsPaused(type="paused")]
    if isinstance(move, Resume):
        if not clock.paused:
            raise IllegalMove("not_paused", "the game is not paused")
        return replace(state, clock=clock.resume(at_ms)), [PairsResumed(type="resumed")]
    if clock.paused:
        raise IllegalMove("paused", "the game is paused; resume it first")
    if isinstance(move, Pair):
        return _remove_pair(state, move.a, move.b, at_ms)
    if isinstance(move, Hint):
        return _hint(state)
    if isinstance(move, Shuffle):
        return _manual_shuffle(state)
    raise BadMove(ErrorCode.UNKNOWN_MOVE, f"not a Pairs move: {move!r:.60}")


def tick(state: State, at_ms: int) -> tuple[State, list[PairsEvent]]:
    """End a timed game whose countdown has reached zero by ``at_ms``; otherwise no change."""
    clock = state.clock
    remaining = clock.remaining_at(at_ms)
    if state.over or clock.paused or remaining is None or remaining > 0:
        return state, []
    ended = replace(state, clock=clock.run_out(), over=True, reason="time_up")
    return ended, [_over_event(ended)]


def _remove_pair(state: State, a: Point, b: Point, at_ms: int) -> tuple[State, list[PairsEvent]]:
    grid = state.grid
    tiles = state.tiles
    ia, ib = _index(grid, a), _index(grid, b)
    for index, cell in ((ia, a), (ib, b)):
        if tiles[index] == EMPTY:
            raise IllegalMove("empty_cell", "there is no tile there", {"cell": list(cell)})
    if ia == ib:
        raise IllegalMove("same_tile", "choose two different tiles")
    if tiles[ia] != tiles[ib]:
        raise IllegalMove("different_pictures", "the two tiles show different pictures")
    pa, pb = grid.pos_of_index[ia], grid.pos_of_index[ib]
    occupied = grid.occupancy(tiles)
    path = find_path(grid, pa, pb, occupied)
    if path is None:
        blockers = single_blockers(grid, pa, pb, occupied)
        if blockers and not blockers & (blockers - 1):
            blocker = grid.point(blockers.bit_length() - 1)
            raise IllegalMove(
                "path_blocked",
                "one tile blocks the path",
                {"blocker": list(blocker)},
            )
        raise IllegalMove("no_path", "no path with at most two turns joins these tiles")

    board = list(tiles)
    board[ia] = board[ib] = EMPTY
    new_tiles = tuple(board)
    spec = state.params.spec
    clock = state.clock.at(at_ms)
    now = clock.as_of_ms
    if state.params.timed:
        clock = clock.add_remaining(TIMED_PAIR_MS, spec.timed_cap_ms)
    streak = next_streak(state.streak, state.last_removal_ms, now)
    points = pair_points(streak)
    after = replace(
        state,
        tiles=new_tiles,
        clock=clock,
        score=state.score + points,
        streak=streak,
        best_streak=max(state.best_streak, streak),
        last_removal_ms=now,
        pairs_removed=state.pairs_removed + 1,
        hint=None,
    )
    events: list[PairsEvent] = [
        PairsRemoved(
            type="removed",
            a=list(a),
            b=list(b),
            picture=tiles[ia],
            path=[list(point) for point in path],
            points=points,
            streak=streak,
        )
    ]
    if all(tile == EMPTY for tile in new_tiles):
        bonus = 0 if clock.remaining_ms is None else clear_bonus(clock.remaining_ms)
        after = replace(after, over=True, reason="cleared", bonus=bonus, score=after.score + bonus)
        events.append(_over_event(after))
    elif find_pair(grid, new_tiles) is None:
        rng = Rng(state.rng)
        after = replace(
            after,
            tiles=reshuffle(grid, new_tiles, rng).tiles,
            rng=rng.state,
            auto_shuffles=state.auto_shuffles + 1,
        )
        events.append(PairsShuffled(type="shuffled", auto=True, points=0))
    return after, events


def _hint(state: State) -> tuple[State, list[PairsEvent]]:
    grid = state.grid
    pair = find_pair(grid, state.tiles)
    # A board in play always has a pair: the deal and every shuffle are solvable.
    assert pair is not None
    score = charged(state.score, HINT_COST)
    after = replace(state, score=score, hints=state.hints + 1, hint=pair)
    named = hint_data(after)
    assert named is not None
    return after, [
        PairsHintEvent(
            type="hint", a=named["a"], b=named["b"], path=named["path"], points=score - state.score
        )
    ]


def _manual_shuffle(state: State) -> tuple[State, list[PairsEvent]]:
    rng = Rng(state.rng)
    tiles = reshuffle(state.grid, state.tiles, rng).tiles
    score = charged(state.score, SHUFFLE_COST)
    after = replace(
        state, tiles=tiles, rng=rng.state, score=score, shuffles=state.shuffles + 1, hint=None
    )
    return after, [PairsShuffled(type="shuffled", auto=False, points=score - state.score)]


def hint_data(state: State) -> PairsHint | None:
    """The pair the last hint named, with its path, while the board is unchanged."""
    if state.hint is None:
        return None
    grid = state.grid
    ia, ib = state.hint
    pa, pb = grid.pos_of_index[ia], grid.pos_of_index[ib]
    path = find_path(grid, pa, pb, grid.occupancy(state.tiles))
    assert path is not None
    return PairsHint(
        a=list(grid.point(pa)), b=list(grid.point(pb)), path=[list(point) for point in path]
    )


def _over_event(state: State) -> PairsOver:
    return PairsOver(
        type="over",
        reason=cast(PairsReason | None, state.reason),
        score=state.score,
        time_ms=state.clock.elapsed_ms,
        bonus=state.bonus,
    )


def _index(grid: Grid, cell: Point) -> int:
    row, col = cell
    if not (0 <= row < grid.rows and 0 <= col < grid.cols):
        raise IllegalMove(
            ErrorCode.OUT_OF_BOARD, "that cell is not on the board", {"cell": list(cell)}
        )
    return row * grid.cols + col
