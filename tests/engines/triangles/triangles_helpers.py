"""Shared helpers for the Triangles tests: hand-made fields and brute-force references."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from math import isqrt

from engines.core.protocol import Event
from engines.triangles import ENGINE
from engines.triangles.board import Board
from engines.triangles.geometry import Point, orient, passes_near, segments_cross
from engines.triangles.moves import Line
from engines.triangles.params import Params
from engines.triangles.position import Position
from engines.triangles.rules import new_state
from engines.triangles.state import State


def board_from_stars(
    stars: Sequence[Point], width: int, height: int, tolerance: int
) -> Board:
    """A hand-made field of distinct stars, spaced by their closest pair."""
    points = tuple((int(x), int(y)) for x, y in stars)
    closest2 = min(
        (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2
        for i, p in enumerate(points)
        for q in points[i + 1 :]
    )
    return Board(points, width, height, tolerance, isqrt(closest2))


def legal_lines(position: Position) -> list[tuple[int, int]]:
    """Every legal line (a < b), in index order, as the engine counts and picks them."""
    return [position.nth_legal(i) for i in range(position.legal_count())]


def inside_or_on(a: Point, b: Point, c: Point, p: Point) -> bool:
    """True when p lies inside the triangle abc or on one of its sides."""
    o1, o2, o3 = orient(a, b, p), orient(b, c, p), orient(c, a, p)
    return (o1 >= 0 and o2 >= 0 and o3 >= 0) or (o1 <= 0 and o2 <= 0 and o3 <= 0)


def hand_made(
    stars: Sequence[Point],
    again: bool = False,
    tolerance: int = 2,
    opponent: str = "human",
    clock: str = "none",
) -> State:
    """A new game on a hand-made field (by default both seats on one device, no clock)."""
    board = board_from_stars(stars, 1000, 1000, tolerance)
    return new_state(Params(again=again, opponent=opponent, clock=clock), 0, board)


def draw(state: State, *lines: tuple[int, int], at_ms: int = 0) -> tuple[State, list[Event]]:
    """Draw lines in turn, each by the seat to move; return the last move's events."""
    events: list[Event] = []
    for a, b in lines:
        state, events = ENGINE.apply(state, Line(a, b), at_ms, state.turn)
    return state, events


def brute_drawable(board: Board, a: int, b: int) -> bool:
    stars = board.stars
    return not any(
        passes_near(stars[a], stars[b], stars[k], board.tolerance)
        for k in range(board.count)
        if k not in (a, b)
    )


def brute_scoring_triangles(
    board: Board, among: Sequence[int] | None = None
) -> set[tuple[int, int, int]]:
    """Triangles with drawable sides and no star inside or on a side, from scratch
    (only those with corners in ``among``, when given)."""
    stars = board.stars
    found = set()
    for a, b, c in combinations(range(board.count) if among is None else among, 3):
        if not all(brute_drawable(board, p, q) for p, q in ((a, b), (a, c), (b, c))):
            continue
        if any(
            inside_or_on(stars[a], stars[b], stars[c], stars[k])
            for k in range(board.count)
            if k not in (a, b, c)
        ):
            continue
        found.add((a, b, c))
    return found


def brute_legal(board: Board, lines: Sequence[tuple[int, int]], a: int, b: int) -> bool:
    stars = board.stars
    drawn = {(min(p, q), max(p, q)) for p, q in lines}
    if (min(a, b), max(a, b)) in drawn or not brute_drawable(board, a, b):
        return False
    return not any(segments_cross(stars[a], stars[b], stars[p], stars[q]) for p, q in drawn)


def brute_completable(
    board: Board, triangles: set[tuple[int, int, int]], lines: Sequence[tuple[int, int]]
) -> set[tuple[int, int, int]]:
    """The scoring triangles that some future lines could still complete."""
    drawn = {(min(p, q), max(p, q)) for p, q in lines}
    found = set()
    for a, b, c in triangles:
        sides = ((a, b), (a, c), (b, c))
        if all(side in drawn for side in sides):
            continue
        if all(side in drawn or brute_legal(board, lines, *side) for side in sides):
            found.add((a, b, c))
    return found
