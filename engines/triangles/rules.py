"""The rules: drawing a line, scoring, turns, the end, resigning and claiming."""

from __future__ import annotations

from dataclasses import replace

from engines.core.protocol import Event, IllegalMove, Outcome
from engines.triangles.board import Board, get_board
from engines.triangles.geometry import passes_near, segments_cross
from engines.triangles.params import Params
from engines.triangles.position import Position
from engines.triangles.state import SEATS, State, position_fields

CLAIM_AFTER_MS = 60_000  # an absent player's opponent may claim the win after a minute


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
        board=board,
        **position_fields(position),
    )


def leader(scores: tuple[int, int]) -> int | None:
    """The seat with more triangles, or None on equal scores."""
    if scores[0] == scores[1]:
        return None
    return 0 if scores[0] > scores[1] else 1


def over_event(state: State) -> Event:
    return {
        "type": "over",
        "reason": state.result,
        "winner": state.winner,
        "scores": list(state.scores),
    }


def draw_line(state: State, a: int, b: int, seat: int, at_ms: int) -> tuple[State, list[Event]]:
    _check_playing(state)
    if seat != state.turn:
        raise IllegalMove("not_your_turn", "it is not your turn", {"turn": state.turn})
    board = state.board
    for star in (a, b):
        if not 0 <= star < board.count:
            raise IllegalMove("no_such_star", f"there is no star {star}", {"star": star})
    if a == b:
        raise IllegalMove("same_star", "a line joins two different stars", {"star": a})
    a, b = min(a, b), max(a, b)
    position = state.position()
    _check_line(board, position, state, a, b)
    completed = position.draw(a, b)
    events: list[Event] = [{"type": "line", "a": a, "b": b, "seat": seat}]
    triangles = list(state.triangles)
    for index in completed:
        p, q, r = board.triangles[index]
        triangles.append((p, q, r, seat))
        events.append({"type": "triangle", "a": p, "b": q, "c": r, "seat": seat})
    scores = list(state.scores)
    scores[seat] += len(completed)
    score_pair = (scores[0], scores[1])
    over = position.over
    turn = seat if (completed and state.params.again) else (seat + 1) % SEATS
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
        **position_fields(position),
    )
    events.append(over_event(new) if over else {"type": "turn", "seat": turn})
    return new, events


def resign(state: State, seat: int, at_ms: int) -> tuple[State, list[Event]]:
    _check_playing(state)
    _check_seat(seat)
    new = replace(state, result="resigned", winner=(seat + 1) % SEATS, last_ms=at_ms)
    return new, [over_event(new)]


def claim(state: State, seat: int, at_ms: int) -> tuple[State, list[Event]]:
    """The seat not to move wins when the one to move has been silent for a minute."""
    _check_playing(state)
    _check_seat(seat)
    if seat == state.turn:
        raise IllegalMove("your_turn", "it is your turn: there is nothing to claim")
    waited = at_ms - state.turn_started_ms
    if waited < CLAIM_AFTER_MS:
        raise IllegalMove(
            "too_early",
            "you can claim the win after your opponent has not moved for a minute",
            {"wait_ms": CLAIM_AFTER_MS - waited},
        )
    new = replace(state, result="claimed", winner=seat, last_ms=at_ms)
    return new, [over_event(new)]


def outcome(state: State) -> Outcome | None:
    if state.result is None:
        return None
    return Outcome(state.result, state.scores, state.winner, state.last_ms)


def _check_playing(state: State) -> None:
    if state.over:
        raise IllegalMove("game_over", "the game is over")


def _check_seat(seat: int) -> None:
    if seat not in range(SEATS):
        raise IllegalMove("bad_seat", f"seat {seat} does not play in Triangles")


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
