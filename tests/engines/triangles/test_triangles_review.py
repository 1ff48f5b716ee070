"""The review of a Triangles game: the exact solver against brute force, the verdicts of
a known blunder, and the same review for the same game, always."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from triangles_helpers import board_from_stars

from engines.triangles import ENGINE
from engines.triangles.board import Board
from engines.triangles.position import Position
from engines.triangles.review import (
    ACCURACY_SCALE,
    accuracy,
    review_lines,
    verdict,
)
from engines.triangles.solver import Solver, legal_lines
from engines.triangles.state import State
from tests.profile import examples

# A strip of triangles: four stars above, three below, every star seeing its neighbours.
STRIP = [(0, 0), (200, 0), (400, 0), (600, 0), (100, 170), (300, 170), (500, 170)]


def brute(position: Position, again: bool) -> int:
    """The exact value for the player to move, by plain recursion (no table, no pruning)."""
    if position.over:
        return 0
    best = None
    for line in legal_lines(position):
        value = brute_line(position, line, again)
        best = value if best is None else max(best, value)
    assert best is not None
    return best


def brute_line(position: Position, line: tuple[int, int], again: bool) -> int:
    child = position.copy()
    gain = len(child.draw(*line))
    if child.over:
        return gain
    rest = brute(child, again)
    return gain + rest if gain and again else gain - rest


@st.composite
def small_positions(draw: st.DrawFn) -> tuple[Board, Position]:
    """A field of 5 to 7 stars on a coarse grid, with random legal lines drawn until at
    most 7 legal lines remain (a tree brute force walks in well under a second)."""
    cells = draw(
        st.lists(
            st.tuples(st.integers(0, 12), st.integers(0, 12)), min_size=5, max_size=7, unique=True
        )
    )
    board = board_from_stars([(40 * x, 40 * y) for x, y in cells], 1000, 1000, 2)
    position = Position.start(board)
    while not position.over and position.legal_count() > 7:
        lines = legal_lines(position)
        position.draw(*lines[draw(st.integers(0, len(lines) - 1))])
    return board, position


@settings(max_examples=examples(40), deadline=None)
@given(small_positions(), st.booleans())
def test_the_solver_agrees_with_brute_force(found: tuple[Board, Position], again: bool) -> None:
    _, position = found
    solver = Solver(again)
    assert solver.value(position) == brute(position, again)
    for line in legal_lines(position):
        assert solver.line_value(position, line) == brute_line(position, line, again)
    if not position.over:
        best, value = solver.best_line(position)
        assert value == brute(position, again) == brute_line(position, best, again)


def strip_game() -> tuple[Board, list[tuple[int, int, int]]]:
    """Three quiet lines, then seat 1 draws 0–1, which opens a chain of triangles."""
    board = board_from_stars(STRIP, 1000, 1000, 2)
    return board, [(1, 6, 0), (4, 5, 1), (0, 5, 0), (0, 1, 1)]


def test_a_line_giving_away_a_chain_is_a_blunder_with_the_right_best_line() -> None:
    board, lines = strip_game()
    position = Position.start(board)
    for a, b, _ in lines[:-1]:
        assert position.draw(a, b) == []
    values = {line: brute_line(position, line, True) for line in legal_lines(position)}
    best_value = max(values.values())
    assert [line for line, value in values.items() if value == best_value] == [(0, 4)]
    # after 0–1, the opponent completes triangle after triangle in one turn
    after = position.copy()
    after.draw(0, 1)
    taken = 0
    while not after.over:
        line = max(legal_lines(after), key=lambda line: brute_line(after, line, True))
        completed = after.draw(*line)
        if not completed:
            break
        taken += len(completed)
    assert taken >= 2

    last = review_lines(board, True, lines)[-1]
    assert (last.ply, last.seat, last.played) == (4, 1, (0, 1))
    assert last.best == (0, 4)
    # three triangles go to the opponent: the difference moves by six
    assert best_value - values[(0, 1)] == 6 and last.loss == 3
    assert (last.verdict, last.exact) == ("blunder", True)


def test_verdicts_and_accuracy() -> None:
    assert [verdict(loss) for loss in (0, 0.5, 1, 1.5, 2, 2.5, 3, 9)] == [
        "best",
        "good",
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]
    assert accuracy([0, 0, 0]) == 100.0
    assert accuracy([0, 1, 2, ACCURACY_SCALE, 10]) == 45.0  # 100, 75, 50, 0, 0
    assert accuracy([]) is None


def hard_against_easy(seed: int, again: bool) -> State:
    params = ENGINE.parse_params({"field": "phone", "stars": 24, "again": again})
    state = ENGINE.new_game(params, seed)
    while not state.over:
        level = ("hard", "easy")[state.turn]
        mover = replace(state, params=replace(state.params, opponent=level))
        state, _ = ENGINE.apply(state, ENGINE.computer_move(mover), 0, state.turn)
    return state


@pytest.mark.parametrize(("seed", "again"), [(42, False), (41739205, True)])
def test_the_same_game_always_gets_the_same_review(seed: int, again: bool) -> None:
    state = hard_against_easy(seed, again)
    first = ENGINE.review(state)
    assert ENGINE.review(ENGINE.load_state(ENGINE.dump_state(state))) == first
    plies = first["plies"]
    assert [p["ply"] for p in plies] == list(range(1, len(state.lines) + 1))
    assert all(p["loss"] >= 0 for p in plies)
    assert all((p["loss"] == 0) == (p["best"] == p["played"]) for p in plies)
    assert plies[-1]["exact"]  # the end is always solved
    counts = [sum(seat["counts"].values()) for seat in first["summary"]]
    assert counts == [sum(p["seat"] == s for p in plies) for s in (0, 1)]
    judged = [sum(p["seat"] == s and not p["quiet"] for p in plies) for s in (0, 1)]
    assert [seat["judged"] for seat in first["summary"]] == judged


def test_accuracy_counts_only_the_lines_that_could_lose_something() -> None:
    """Hard against easy, seed 42: the first 11 lines are safe lines among many (quiet,
    loss 0) and left out; each seat's accuracy is the mean over its 25 other lines (seat
    0: 16 best, 5 losing one triangle, 4 losing two: (1600 + 375 + 200) / 25 = 87.0)."""
    review = ENGINE.review(hard_against_easy(42, False))
    assert [p["ply"] for p in review["plies"] if p["quiet"]] == list(range(1, 12))
    assert [(s["seat"], s["accuracy"], s["judged"]) for s in review["summary"]] == [
        (0, 87.0, 25),
        (1, 88.0, 25),
    ]


def test_a_game_resigned_after_a_few_quiet_lines_gives_no_accuracy() -> None:
    """Six lines on 24 stars, then a resignation: every line was a safe one among many,
    so neither player is judged (issue 36: both showed 100 %)."""
    params = ENGINE.parse_params({"field": "phone", "stars": 24, "opponent": "easy"})
    state = ENGINE.new_game(params, 7)
    for _ in range(6):
        state, _ = ENGINE.apply(state, ENGINE.computer_move(state), 0, state.turn)
    review = ENGINE.review(state)
    assert all(p["quiet"] and p["verdict"] == "best" for p in review["plies"])
    assert [(s["accuracy"], s["judged"], s["counts"]["best"]) for s in review["summary"]] == [
        (None, 0, 3),
        (None, 0, 3),
    ]
