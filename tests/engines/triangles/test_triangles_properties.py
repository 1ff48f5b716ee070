"""Property tests: random play never breaks an invariant, and the end is detected
exactly when a brute-force search finds no triangle left to close."""

from __future__ import annotations

import json
from dataclasses import replace
from itertools import combinations
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from triangles_helpers import (
    board_from_stars,
    brute_completable,
    brute_legal,
    brute_scoring_triangles,
    legal_lines,
)

from engines.core.replay import replay
from engines.triangles import ENGINE
from engines.triangles.board import get_board
from engines.triangles.geometry import passes_near, segments_cross
from engines.triangles.moves import Line, Move
from engines.triangles.params import Params
from engines.triangles.position import Position
from engines.triangles.rules import new_state
from engines.triangles.state import State
from tests.profile import examples

# small hand-made fields: stars on a coarse lattice (collinear triples, stars on sides)
# nudged by a few units (near misses around the tolerance)
small_fields = st.tuples(
    st.lists(
        st.tuples(st.integers(0, 8), st.integers(0, 8), st.integers(-3, 3), st.integers(-3, 3)),
        min_size=4,
        max_size=8,
        unique_by=lambda s: (s[0], s[1]),
    ),
    st.integers(0, 12),
)


def live_triangles(state: State) -> set[tuple[int, int, int]]:
    board = state.board
    return {board.triangles[t] for t in range(len(board.triangles)) if state.live >> t & 1}


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(field=small_fields, data=st.data())
def test_end_detection_matches_brute_force(
    field: tuple[list[tuple[int, int, int, int]], int], data: st.DataObject
) -> None:
    raw, tolerance = field
    stars = [(40 * gx + dx, 40 * gy + dy) for gx, gy, dx, dy in raw]
    closest2 = min((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 for p, q in combinations(stars, 2))
    assume(closest2 > 4 * tolerance * tolerance)
    board = board_from_stars(stars, 400, 400, tolerance)
    scoring = brute_scoring_triangles(board)
    assert set(board.triangles) == scoring
    state = new_state(Params(opponent="human"), 0, board)
    lines: list[tuple[int, int]] = []
    while True:
        legal = [
            (a, b)
            for a, b in combinations(range(board.count), 2)
            if brute_legal(board, lines, a, b)
        ]
        assert legal_lines(state.position()) == legal
        completable = brute_completable(board, scoring, lines)
        assert live_triangles(state) == completable
        assert state.over == (not completable)
        if state.over:
            break
        line = data.draw(st.sampled_from(legal))
        state, _ = ENGINE.apply(state, Line(*line), 0, state.turn)
        lines.append(line)


def random_game(
    data: st.DataObject, number: str, again: bool
) -> tuple[State, list[dict[str, Any]]]:
    params, seed = ENGINE.from_number(number)
    params = Params(params.field, params.stars, again, "human")
    state = ENGINE.new_game(params, seed)
    log = []
    at_ms = 0
    while not state.over:
        at_ms += data.draw(st.integers(0, 5000))
        position = state.position()
        move: Move = Line(
            *position.nth_legal(data.draw(st.integers(0, position.legal_count() - 1)))
        )
        seat = state.turn
        state, events = ENGINE.apply(state, move, at_ms, seat)
        log.append({"move": ENGINE.dump_move(move), "at_ms": at_ms, "seat": seat})
        assert events[0]["type"] == "line"
        assert events[-1]["type"] in ("turn", "over")
    return state, log


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 99_999_999), again=st.booleans(), data=st.data())
def test_random_games_keep_every_invariant(seed: int, again: bool, data: st.DataObject) -> None:
    number = f"{seed:08d}-a"
    state, log = random_game(data, number, again)
    board = state.board
    stars = board.stars
    drawn = {(a, b) for a, b, _ in state.lines}
    # no drawn line crosses another or passes through a star
    for (a, b), (c, d) in combinations(sorted(drawn), 2):
        assert not segments_cross(stars[a], stars[b], stars[c], stars[d])
    for a, b in drawn:
        assert not any(
            passes_near(stars[a], stars[b], stars[k], board.tolerance)
            for k in range(board.count)
            if k not in (a, b)
        )
    # the score is the number of filled triangles, each empty with three drawn sides
    assert sum(state.scores) == len(state.triangles)
    for seat in (0, 1):
        assert state.scores[seat] == sum(1 for *_, owner in state.triangles if owner == seat)
    for a, b, c, _ in state.triangles:
        assert {(a, b), (a, c), (b, c)} <= drawn
        assert (a, b, c) in board.triangles
    # the game ended because nothing can be closed any more
    assert not brute_completable(board, set(board.triangles), sorted(drawn))
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.reason == "no_triangles"
    assert outcome.winner == (
        None if state.scores[0] == state.scores[1] else int(state.scores[1] > state.scores[0])
    )
    # replaying the log reproduces the state, and the codec round-trips it
    replayed = replay(ENGINE, state.params, state.seed, log)
    assert replayed == state
    assert (replayed.alive, replayed.live, replayed.drawn) == (state.alive, state.live, state.drawn)
    loaded = ENGINE.load_state(json.loads(json.dumps(ENGINE.dump_state(state))))
    assert loaded == state and loaded.live == state.live
    json.dumps(ENGINE.view(state, 0))


@settings(max_examples=examples(15), deadline=None)
@given(seed=st.integers(0, 99_999_999), plies=st.integers(0, 40), data=st.data())
def test_dump_load_round_trip_mid_game(seed: int, plies: int, data: st.DataObject) -> None:
    params = Params("phone", 60, data.draw(st.booleans()), "hard")
    state = ENGINE.new_game(params, seed)
    for ply in range(plies):
        if state.over:
            break
        position = state.position()
        line = position.nth_legal(data.draw(st.integers(0, position.legal_count() - 1)))
        state, _ = ENGINE.apply(state, Line(*line), ply * 10, state.turn)
    loaded = ENGINE.load_state(json.loads(json.dumps(ENGINE.dump_state(state))))
    assert loaded == state
    assert (loaded.alive, loaded.drawn, loaded.live) == (state.alive, state.drawn, state.live)
    assert (loaded.one_drawn, loaded.two_drawn) == (state.one_drawn, state.two_drawn)
    assert loaded.board is get_board("phone", 60, seed)


def test_end_detection_on_a_generated_board_along_a_whole_game() -> None:
    params, seed = ENGINE.from_number("00000314-a")
    state = ENGINE.new_game(replace(params, opponent="easy"), seed)
    board = state.board
    scoring = set(board.triangles)
    lines: list[tuple[int, int]] = []
    while not state.over:
        if len(lines) % 4 == 0:
            assert live_triangles(state) == brute_completable(board, scoring, lines)
        move = ENGINE.computer_move(state)
        assert isinstance(move, Line)
        state, _ = ENGINE.apply(state, move, 0, state.turn)
        lines.append((move.a, move.b))
    assert not brute_completable(board, scoring, lines)


def position_fields_of(position: Position) -> tuple[Any, ...]:
    return (position.drawn, position.alive, position.live, position.one_drawn, position.two_drawn)


@settings(max_examples=examples(30), deadline=None)
@given(seed=st.integers(0, 99_999_999), data=st.data())
def test_a_line_drawn_once_leaves_the_same_position_as_through_the_crossing_cache(
    seed: int, data: st.DataObject
) -> None:
    """The rules find a line's crossings among the alive lines (``once``); the computer's
    search reads them from the board's cache of every drawable crossing. Same drawing."""
    params, _ = ENGINE.from_number(f"{seed:08d}-a")
    position = Position.start(get_board(params.field, params.stars, seed))
    while not position.over:
        a, b = position.nth_legal(data.draw(st.integers(0, position.legal_count() - 1)))
        cached = position.copy()
        completed = cached.draw(a, b)
        assert position.draw(a, b, once=True) == completed
        assert position_fields_of(position) == position_fields_of(cached)
