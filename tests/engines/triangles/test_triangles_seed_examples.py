"""Every worked example of seeds/001 (the Triangles rule page), on hand-made fields."""

from __future__ import annotations

import pytest
from triangles_helpers import draw, hand_made, legal_lines

from engines.core.protocol import IllegalMove
from engines.triangles import ENGINE
from engines.triangles.moves import Line
from engines.triangles.state import State

A, B, C, D, E = 0, 1, 2, 3, 4
SQUARE = [(100, 100), (300, 100), (300, 300), (100, 300)]  # A B C D, clockwise on screen


def refused(state: State, a: int, b: int) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        ENGINE.apply(state, Line(a, b), 0, state.turn)
    return caught.value


def test_line_b_d_is_refused_because_it_would_cross_a_c() -> None:
    state, _ = draw(hand_made(SQUARE), (A, C))
    error = refused(state, B, D)
    assert error.code == "crosses_line"
    assert error.details == {"line": [A, C]}


def test_line_a_c_is_refused_because_it_would_pass_through_b() -> None:
    state = hand_made([(100, 100), (200, 200), (300, 300), (100, 300)])
    error = refused(state, A, C)
    assert error.code == "through_star"
    assert error.details == {"star": B}


def test_a_hair_off_the_star_still_counts_as_through_it() -> None:
    # B is 1/√2 away from the line A–C: within the tolerance of 2
    state = hand_made([(100, 100), (200, 201), (300, 300), (100, 300)])
    assert refused(state, A, C).code == "through_star"


def test_the_big_triangle_with_a_star_inside_scores_nothing_the_small_ones_score() -> None:
    # D lies inside ABC
    state = hand_made([(100, 100), (500, 100), (300, 400), (300, 200)])
    state, events = draw(state, (A, B), (B, C), (C, A))
    assert state.scores == (0, 0)
    assert [event["type"] for event in events] == ["line", "turn"]
    assert state.triangles == ()
    state, events = draw(state, (A, D), (B, D))  # seat 0 closes ABD
    assert state.scores == (1, 0)
    assert {"type": "triangle", "a": A, "b": B, "c": D, "seat": 0, "scores": [1, 0]} in events
    state, events = draw(state, (C, D))  # seat 1 closes ACD and BCD at once
    assert state.scores == (1, 2)
    assert state.triangles == ((A, B, D, 0), (A, C, D, 1), (B, C, D, 1))
    assert events[-1] == {"type": "over", "reason": "no_triangles", "winner": 1, "scores": [1, 2]}


def test_the_square_diagonal_closes_two_triangles_at_once() -> None:
    state, _ = draw(hand_made(SQUARE), (A, B), (B, C), (C, D), (D, A))
    assert state.scores == (0, 0)
    state, events = draw(state, (A, C))  # seat 0
    assert state.scores == (2, 0)
    assert events[:3] == [
        {"type": "line", "a": A, "b": C, "seat": 0},
        {"type": "triangle", "a": A, "b": B, "c": C, "seat": 0, "scores": [1, 0]},
        {"type": "triangle", "a": A, "b": C, "c": D, "seat": 0, "scores": [2, 0]},
    ]
    # B–D crosses A–C: no scoring triangle is left, the game is over
    assert state.over and state.result == "no_triangles" and state.winner == 0


FOUR = [(100, 100), (300, 100), (200, 250), (200, 600)]  # ABE holds C: not a scoring one


@pytest.mark.parametrize(("again", "next_seat"), [(True, 0), (False, 1)])
def test_move_again_after_a_triangle(again: bool, next_seat: int) -> None:
    # seat 0 closes ABC on move 3; with the option it draws again
    state, events = draw(hand_made(FOUR, again=again), (A, B), (B, C), (C, A))
    assert state.scores == (1, 0)
    assert not state.over
    assert events[-1] == {"type": "turn", "seat": next_seat, "again": again}
    assert state.turn == next_seat


def test_without_a_triangle_the_turn_passes_even_with_the_option() -> None:
    state, events = draw(hand_made(FOUR, again=True), (A, B))
    assert events[-1] == {"type": "turn", "seat": 1, "again": False}


def test_equal_triangles_is_a_draw() -> None:
    state, _ = draw(hand_made(SQUARE), (A, B), (B, C), (C, D))
    state, _ = draw(state, (A, C))  # seat 1 closes ABC
    state, events = draw(state, (D, A))  # seat 0 closes ACD
    assert state.scores == (1, 1)
    assert state.over
    assert state.winner is None
    assert events[-1] == {
        "type": "over",
        "reason": "no_triangles",
        "winner": None,
        "scores": [1, 1],
    }
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winner is None and outcome.scores == (1, 1)


def test_the_game_ends_when_remaining_lines_would_score_nothing() -> None:
    # E can only be joined to C (B–E passes within the tolerance of C, and so on), and
    # no triangle with the line C–E is a scoring one: once ACD and BCD are closed the
    # game is over, although C–E could still be drawn
    stars = [(100, 800), (400, 700), (500, 500), (200, 800), (600, 400)]
    state, _ = draw(hand_made(stars, tolerance=40), (A, C), (B, D), (A, D), (C, D))
    assert state.scores == (0, 1) and not state.over
    state, events = draw(state, (B, C))
    assert state.scores == (1, 1)
    assert state.over
    assert events[-1]["type"] == "over"
    assert legal_lines(state.position()) == [(C, E)]
