"""The computer opponent: legal, deterministic, and doing what each level promises."""

from __future__ import annotations

from dataclasses import replace

import pytest
from triangles_helpers import draw, hand_made

from engines.core.rng import Rng
from engines.triangles import ENGINE, ai
from engines.triangles.moves import Line
from engines.triangles.params import Params
from engines.triangles.position import Position
from engines.triangles.state import State
from engines.triangles.tactics import Tactics

LEVELS = ("easy", "medium", "hard")
SQUARE = [(100, 100), (300, 100), (300, 300), (100, 300)]


def with_level(state: State, level: str) -> State:
    return replace(state, params=replace(state.params, opponent=level))


def play_out(number: str, levels: tuple[str, str], again: bool = False) -> State:
    params, seed = ENGINE.from_number(number)
    state = ENGINE.new_game(replace(params, again=again), seed)
    while not state.over:
        mover = with_level(state, levels[state.turn])
        state, _ = ENGINE.apply(state, ENGINE.computer_move(mover), 0, state.turn)
    return state


@pytest.mark.parametrize("level", LEVELS)
def test_the_computer_closes_an_open_triangle(level: str) -> None:
    state, _ = draw(hand_made(SQUARE, opponent=level), (0, 1), (1, 2))
    assert ENGINE.computer_move(state) == Line(0, 2)


@pytest.mark.parametrize("level", LEVELS)
def test_the_computer_prefers_two_triangles_to_one(level: str) -> None:
    # after the four sides of the square, either diagonal closes two triangles at once,
    # while C–E closes the single triangle B–C–E
    stars = [*SQUARE, (600, 200)]
    state, _ = draw(hand_made(stars, opponent=level), (0, 1), (1, 2), (2, 3), (3, 0), (1, 4))
    tactics = Tactics.of(state.position())
    assert tactics.takes[state.board.key(2, 4)] == 1
    move = ENGINE.computer_move(state)
    assert isinstance(move, Line) and {move.a, move.b} in ({0, 2}, {1, 3})


@pytest.mark.parametrize("level", LEVELS)
def test_computer_moves_are_deterministic_and_legal(level: str) -> None:
    params, seed = ENGINE.from_number("00000042-b")
    state = ENGINE.new_game(replace(params, opponent=level), seed)
    for _ in range(30):
        move = ENGINE.computer_move(state)
        assert move == ENGINE.computer_move(state)
        state, _ = ENGINE.apply(state, move, 0, state.turn)


def test_medium_never_opens_a_triangle_while_a_safe_line_exists() -> None:
    params, seed = ENGINE.from_number("00000077-b")
    state = ENGINE.new_game(params, seed)
    checked = 0
    while not state.over:
        tactics = Tactics.of(state.position())
        move = ENGINE.computer_move(with_level(state, "medium"))
        assert isinstance(move, Line)
        key = state.board.key(move.a, move.b)
        if tactics.takes:
            assert tactics.takes.get(key, 0) == max(tactics.takes.values())
        elif tactics.safe_lines():
            assert key not in tactics.opens
            checked += 1
        # the other seat plays at random, to reach all kinds of positions
        if state.turn == 1:
            position = state.position()
            rng = Rng.from_seed(len(state.lines), "test")
            move = Line(*position.nth_legal(rng.below(position.legal_count())))
        state, _ = ENGINE.apply(state, move, 0, state.turn)
    assert checked > 10


def test_tactics_kept_line_by_line_equal_tactics_from_scratch() -> None:
    params, seed = ENGINE.from_number("00000005-b")
    state = ENGINE.new_game(params, seed)
    tactics = Tactics.of(state.position())
    rng = Rng.from_seed(5, "tactics")
    while not tactics.over:
        line = tactics.position.nth_legal(rng.below(tactics.position.legal_count()))
        tactics.draw(*line)
        fresh = Tactics.of(tactics.position.copy())
        assert (tactics.takes, tactics.opens, tactics.unsafe) == (
            fresh.takes,
            fresh.opens,
            fresh.unsafe,
        )
        first = tactics.first_safe()
        assert first == (tactics.safe_lines()[0] if tactics.safe_lines() else None)


@pytest.mark.parametrize("again", [False, True])
def test_full_games_between_all_levels_finish(again: bool) -> None:
    for first in LEVELS:
        for second in LEVELS:
            state = play_out("00000003-a", (first, second), again)
            assert state.result == "no_triangles"
            assert sum(state.scores) == len(state.triangles)


def test_hard_beats_easy_on_small_boards() -> None:
    wins = 0
    for seed in range(6):
        number = f"{seed:08d}-a"
        as_first = play_out(number, ("hard", "easy"))
        as_second = play_out(number, ("easy", "hard"))
        wins += as_first.winner == 0
        wins += as_second.winner == 1
    assert wins >= 10


def test_playout_and_search_leave_the_position_untouched() -> None:
    params, seed = ENGINE.from_number("00000009-a")
    state = ENGINE.new_game(params, seed)
    for _ in range(20):
        state, _ = ENGINE.apply(state, ENGINE.computer_move(state), 0, state.turn)
    tactics = Tactics.of(state.position())
    before = (list(tactics.position.alive), dict(tactics.opens), tactics.position.live)
    ai.playout(tactics, False)
    ai.hard(tactics, Rng(1), False)
    assert before == (list(tactics.position.alive), dict(tactics.opens), tactics.position.live)


def test_the_computer_plays_for_the_seat_to_move_in_a_two_player_game() -> None:
    state = ENGINE.new_game(Params(opponent="human"), 11)
    move = ENGINE.computer_move(state)  # medium, for a hint or a test
    assert isinstance(move, Line)
    assert Position.start(state.board).is_legal(move.a, move.b)
