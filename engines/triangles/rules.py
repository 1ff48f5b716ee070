"""The rules: drawing a line, scoring, turns, the end, resigning, claiming, berserk (an
arena game's halved clock), the flag (a clock run out) and the abort (no first line in
time; the arithmetic is in ``clock.py``)."""

from __future__ import annotations

from dataclasses import replace
from typing import cast

from engines.core.errors import ErrorCode
from engines.core.protocol import IllegalMove, Outcome
from engines.triangles import clock
from engines.triangles.board import Board, get_board
from engines.triangles.events import (
    TrianglesBerserk,
    TrianglesEvent,
    TrianglesLine,
    TrianglesOver,
    TrianglesResult,
    TrianglesTriangle,
    TrianglesTurn,
)
from engines.triangles.geometry import passes_near, segments_cross
from engines.triangles.params import Params, berserk_clock
from engines.triangles.position import Position
from engines.triangles.state import SEATS, State, position_fields

CLAIM_AFTER_MS = 60_000  # an absent player's opponent may claim the win after a minute
# A berserk win scores an extra arena point when its seat drew at least this many lines.
ARENA_BERSERK_LINES = 7


def new_state(params: Params, seed: int, board: Board | None = None) -> State:
    """A new game; ``board`` replaces the generated one (hand-made fields in tests)."""
    if board is None:
        board = get_board(params.field, params.stars, seed)
    position = Position.start(board)
    return State(
        params=params,
        seed=seed,
        lines=(),
        triangles=(),
        turn=0,
        scores=(0, 0),
        turn_started_ms=0,
        last_ms=0,
        result="no_triangles" if position.over else None,
        winner=None,
        clocks=clock.start(clock.CONTROLS[params.clock]),
        berserk=(False, False),
        board=board,
        **position_fields(position),
    )


def leader(scores: tuple[int, int]) -> int | None:
    """The seat with more triangles, or None on equal scores."""
    if scores[0] == scores[1]:
        return None
    return 0 if scores[0] > scores[1] else 1


def over_event(state: State) -> TrianglesOver:
    return TrianglesOver(
        type="over",
        reason=cast(TrianglesResult, state.result),
        winner=state.winner,
        scores=list(state.scores),
    )


def draw_line(
    state: State, a: int, b: int, seat: int, at_ms: int
) -> tuple[State, list[TrianglesEvent]]:
    _check_playing(state, at_ms)
    if seat != state.turn:
        raise IllegalMove(ErrorCode.NOT_YOUR_TURN, "it is not your turn", {"turn": state.turn})
    board = state.board
    for star in (a, b):
        if not 0 <= star < board.count:
            raise IllegalMove("no_such_star", f"there is no star {star}", {"star": star})
    if a == b:
        raise IllegalMove("same_star", "a line joins two different stars", {"star": a})
    a, b = min(a, b), max(a, b)
    position = state.position()
    _check_line(board, position, state, a, b)
    completed = position.draw(a, b, once=True)
    events: list[TrianglesEvent] = [TrianglesLine(type="line", a=a, b=b, seat=seat)]
    triangles = list(state.triangles)
    scores = list(state.scores)
    for index in completed:
        p, q, r = board.triangles[index]
        triangles.append((p, q, r, seat))
        scores[seat] += 1  # the running score: the page shows it as each triangle fills
        events.append(
            TrianglesTriangle(type="triangle", a=p, b=q, c=r, seat=seat, scores=list(scores))
        )
    score_pair = (scores[0], scores[1])
    over = position.over
    turn = seat if (completed and state.params.again) else (seat + 1) % SEATS
    control = clock.CONTROLS[state.params.clock]
    clocks = state.clocks
    # A seat's clock starts with its first line: that line costs nothing and earns nothing.
    if control is not None and clocks is not None and first_line_limit(state) is None:
        clocks = clock.after_line(
            control, clocks, seat, state.turn_started_ms, at_ms, state.berserk[seat]
        )
    new = replace(
        state,
        lines=(*state.lines, (a, b, seat)),
        triangles=tuple(triangles),
        turn=turn,
        scores=score_pair,
        turn_started_ms=at_ms,
        last_ms=at_ms,
        result="no_triangles" if over else None,
        winner=leader(score_pair) if over else None,
        clocks=clocks,
        **position_fields(position),
    )
    again = bool(completed) and turn == seat  # closed a triangle and draws again
    events.append(
        over_event(new) if over else TrianglesTurn(type="turn", seat=turn, again=again)
    )
    return new, events


def resign(state: State, seat: int, at_ms: int) -> tuple[State, list[TrianglesEvent]]:
    _check_playing(state, at_ms)
    _check_seat(seat)
    new = replace(
        state,
        result="resigned",
        winner=(seat + 1) % SEATS,
        last_ms=at_ms,
        clocks=_settled(state, at_ms),
    )
    return new, [over_event(new)]


def claim_after_ms(params: Params) -> int | None:
    """How long the seat to move must be silent before the other may claim the win; None
    where no claim exists: with days per move a player is away most of the time by
    design, and only the clock decides."""
    control = clock.CONTROLS[params.clock]
    return None if control is not None and control.per_move else CLAIM_AFTER_MS


def claim(state: State, seat: int, at_ms: int) -> tuple[State, list[TrianglesEvent]]:
    """The seat not to move wins when the one to move has been silent for a minute."""
    _check_playing(state, at_ms)
    _check_seat(seat)
    if claim_after_ms(state.params) is None:
        raise IllegalMove("no_claim", "with days per move only the clock ends the game")
    if seat == state.turn:
        raise IllegalMove("your_turn", "it is your turn: there is nothing to claim")
    waited = at_ms - state.turn_started_ms
    if waited < CLAIM_AFTER_MS:
        raise IllegalMove(
            "too_early",
            "you can claim the win after your opponent has not moved for a minute",
            {"wait_ms": CLAIM_AFTER_MS - waited},
        )
    new = replace(
        state, result="claimed", winner=seat, last_ms=at_ms, clocks=_settled(state, at_ms)
    )
    return new, [over_event(new)]


def berserk_allowed(params: Params) -> bool:
    """Whether either seat may go berserk: the params say so, on a real-time clock."""
    return params.berserk and berserk_clock(params)


def berserk_open(state: State) -> tuple[bool, bool]:
    """Per seat, whether it may go berserk now (what ``berserk`` checks, but for a clock
    run out since the last move): the game allows it, is not over, and the seat has
    neither gone berserk nor drawn a line."""
    if state.over or state.clocks is None or not berserk_allowed(state.params):
        return (False, False)
    return (not state.berserk[0] and lines_of(state, 0) == 0,
            not state.berserk[1] and lines_of(state, 1) == 0)


def berserk(state: State, seat: int, at_ms: int) -> tuple[State, list[TrianglesEvent]]:
    """``seat`` halves its own time left and gets no increment for the rest of the game:
    once, before its first line, in a game that allows it, in turn or not. Its clock is
    not running then (a real-time clock starts with its seat's first line), so the half
    is exact; the turn, its start and the other seat's clock do not change."""
    _check_playing(state, at_ms)
    _check_seat(seat)
    if not berserk_allowed(state.params) or state.clocks is None:
        raise IllegalMove("no_berserk", "this game does not allow berserk")
    if state.berserk[seat]:
        raise IllegalMove("already_berserk", "you have gone berserk already")
    if lines_of(state, seat):
        raise IllegalMove("berserk_too_late", "berserk is only possible before your first line")
    flags = (True, state.berserk[1]) if seat == 0 else (state.berserk[0], True)
    new = replace(state, clocks=clock.berserk(state.clocks, seat), berserk=flags)
    return new, [TrianglesBerserk(type="berserk", seat=seat)]


def lines_of(state: State, seat: int) -> int:
    """How many lines ``seat`` has drawn."""
    return sum(1 for _, _, mover in state.lines if mover == seat)


def first_line_limit(state: State) -> clock.TimeControl | None:
    """The time control while the seat to move has yet to draw its first line under a
    first-line limit (real-time controls: its clock does not run, the abort waits), else
    None."""
    control = clock.CONTROLS[state.params.clock]
    if control is None or control.first_line_ms is None or state.clocks is None or state.over:
        return None
    # Turns alternate from seat 0 and no triangle closes before the third line, so a
    # seat's first line, once drawn, is one of the first two.
    if any(seat == state.turn for _, _, seat in state.lines[:SEATS]):
        return None
    return control


def first_line_deadline(state: State) -> int | None:
    """The ``at_ms`` at which ``tick`` will abort the game, while the seat to move has
    yet to draw its first line; else None."""
    control = first_line_limit(state)
    return None if control is None else clock.first_line_deadline(control, state.turn_started_ms)


def tick(state: State, at_ms: int) -> tuple[State, list[TrianglesEvent]]:
    """The end by the clock alone, at ``deadline``: a seat that has not drawn its first
    line in time aborts the game (no winner, it counts for nothing); a seat that has used
    up its time loses on time, whatever the scores. Nothing happens before, or without a
    clock."""
    due = deadline(state)
    if due is None or at_ms < due:
        return state, []
    assert state.clocks is not None
    if first_line_limit(state) is not None:
        new = replace(state, result="aborted", winner=None, last_ms=due)
    else:
        new = replace(
            state,
            result="time",
            winner=(state.turn + 1) % SEATS,
            last_ms=due,
            clocks=clock.run_out(state.clocks, state.turn),
        )
    return new, [over_event(new)]


def deadline(state: State) -> int | None:
    """The ``at_ms`` at which ``tick`` will end the game (abort or flag), if it can."""
    if state.over or state.clocks is None:
        return None
    first = first_line_deadline(state)
    if first is not None:
        return first
    return clock.deadline(state.clocks, state.turn, state.turn_started_ms)


def clocks_at(state: State, at_ms: int) -> tuple[int, int] | None:
    """Both seats' time left at ``at_ms`` (frozen once the game is over, and while the
    seat to move has yet to draw its first line)."""
    if state.clocks is None or state.over or first_line_limit(state) is not None:
        return state.clocks
    return clock.left_at(state.clocks, state.turn, state.turn_started_ms, at_ms)


def _settled(state: State, at_ms: int) -> tuple[int, int] | None:
    """The clocks stopped at ``at_ms`` (a resignation or a claim ends the game)."""
    return clocks_at(state, at_ms)


def outcome(state: State) -> Outcome | None:
    if state.result is None:
        return None
    return Outcome(state.result, state.scores, state.winner, state.last_ms)


def _check_playing(state: State, at_ms: int) -> None:
    if state.over:
        raise IllegalMove(ErrorCode.GAME_OVER, "the game is over")
    due = deadline(state)
    if due is not None and at_ms >= due:
        if first_line_limit(state) is not None:
            raise IllegalMove(
                ErrorCode.TIME_UP, "no first line in time: the game is aborted", {"aborted": True}
            )
        raise IllegalMove(ErrorCode.TIME_UP, "the clock has run out: the game is over")


def _check_seat(seat: int) -> None:
    if seat not in range(SEATS):
        raise IllegalMove(ErrorCode.NOT_YOUR_SEAT, f"seat {seat} does not play in Triangles")


def _check_line(board: Board, position: Position, state: State, a: int, b: int) -> None:
    if position.is_drawn(a, b):
        raise IllegalMove("exists", "this line is already drawn", {"line": [a, b]})
    if position.is_legal(a, b):
        return
    stars = board.stars
    if not board.drawable[a] >> b & 1:
        blocker = next(
            k
            for k in range(board.count)
            if k not in (a, b) and passes_near(stars[a], stars[b], stars[k], board.tolerance)
        )
        raise IllegalMove(
            "through_star", "the line would pass through another star", {"star": blocker}
        )
    crossed = next(
        (c, d) for c, d, _ in state.lines if segments_cross(stars[a], stars[b], stars[c], stars[d])
    )
    raise IllegalMove("crosses_line", "the line would cross a drawn line", {"line": list(crossed)})
