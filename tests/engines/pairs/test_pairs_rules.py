"""Rules of Pairs: refusals, points and streaks, hint and shuffles, clocks, the end."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from pairs_support import make_state, pair, play

from engines.core.protocol import ComputerPlayer, IllegalMove, Outcome, SeatKind
from engines.pairs import ENGINE
from engines.pairs.clock import Clock
from engines.pairs.grid import EMPTY
from engines.pairs.moves import Hint, Move, Pause, Resume, Shuffle
from engines.pairs.params import Params
from engines.pairs.search import find_pair
from engines.pairs.state import State

STRIPES = """
a a b b c c
d d e e f f
a a b b c c
d d e e f f
a a b b c c
d d e e f f
"""
# Reading-order adjacent pairs of STRIPES: always removable, one after the other.
STRIPE_PAIRS = [((r, c), (r, c + 1)) for r in range(6) for c in (0, 2, 4)]

LAST_PAIR = """
. . . . . .
. . a a . .
. . . . . .
. . . . . .
. . . . . .
. . . . . .
"""

STUCK_AFTER_C = """
c c . . . .
. . . . . .
. . a b . .
. . b a . .
. . . . . .
. . . . . .
"""


def refused(state: State, move: Move, at_ms: int = 0, seat: int = 0) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        ENGINE.apply(state, move, at_ms, seat)
    return caught.value


def remove_stripes(state: State, times: list[int]) -> tuple[State, list[int]]:
    points = []
    for (a, b), at_ms in zip(STRIPE_PAIRS, times, strict=False):
        state, events = play(state, pair(a, b), at_ms)
        points.append(events[0]["points"])
    return state, points


# --- refusals ----------------------------------------------------------------------


@pytest.mark.parametrize("cell", [(6, 0), (0, 6), (-1, 0), (0, -1), (99, 99)])
def test_out_of_board(cell: tuple[int, int]) -> None:
    error = refused(make_state(STRIPES), pair((0, 0), cell))
    assert error.code == "out_of_board"
    assert error.details == {"cell": list(cell)}


def test_empty_cell() -> None:
    error = refused(make_state(LAST_PAIR), pair((1, 2), (0, 0)))
    assert error.code == "empty_cell"
    assert error.details == {"cell": [0, 0]}


def test_same_tile_twice() -> None:
    assert refused(make_state(STRIPES), pair((0, 0), (0, 0))).code == "same_tile"


def test_different_pictures() -> None:
    assert refused(make_state(STRIPES), pair((0, 1), (0, 2))).code == "different_pictures"


def test_refusals_of_the_turn_and_seat() -> None:
    state = make_state(STRIPES)
    assert refused(state, Hint(), seat=1).code == "not_your_seat"
    assert refused(state, Resume()).code == "not_paused"
    paused, events = play(state, Pause(), 1_000)
    assert events == [{"type": "paused"}]
    assert refused(paused, Pause(), 2_000).code == "already_paused"
    for move in (pair((0, 0), (0, 1)), Hint(), Shuffle()):
        assert refused(paused, move, 2_000).code == "paused"
    assert not isinstance(ENGINE, ComputerPlayer)  # no computer seat: no computer player


def test_a_refused_move_changes_nothing() -> None:
    state = make_state(STRIPES)
    before = ENGINE.dump_state(state)
    refused(state, pair((0, 0), (2, 5)))
    assert ENGINE.dump_state(state) == before


# --- points and streaks --------------------------------------------------------------


def test_streak_steps_up_by_two_to_twenty() -> None:
    state, points = remove_stripes(make_state(STRIPES), [0, 1_000, 2_000, 3_000, 4_000, 5_000,
                                                         6_000, 7_000])
    assert points == [10, 12, 14, 16, 18, 20, 20, 20]
    assert (state.score, state.streak, state.best_streak) == (130, 8, 8)


def test_streak_window_is_five_seconds_inclusive() -> None:
    state, points = remove_stripes(make_state(STRIPES), [0, 5_000, 10_001, 12_000])
    assert points == [10, 12, 10, 12]
    assert (state.streak, state.best_streak) == (2, 2)


def test_streak_counts_at_ms_even_across_a_pause() -> None:
    state = make_state(STRIPES)
    state, _ = play(state, pair((0, 0), (0, 1)), 1_000)
    state, _ = play(state, Pause(), 2_000)
    state, _ = play(state, Resume(), 20_000)
    state, events = play(state, pair((0, 2), (0, 3)), 21_000)
    assert events[0]["streak"] == 1


def test_removed_event() -> None:
    _, events = play(make_state(STRIPES), pair((0, 1), (0, 0)), 0)
    assert events == [
        {
            "type": "removed",
            "a": [0, 1],
            "b": [0, 0],
            "picture": 0,
            "path": [[0, 1], [0, 0]],
            "points": 10,
            "streak": 1,
        }
    ]


def test_hint_names_the_first_removable_pair_and_costs_two() -> None:
    state = make_state(STRIPES, score=10)
    state, events = play(state, Hint(), 0)
    assert events == [
        {"type": "hint", "a": [0, 0], "b": [0, 1], "path": [[0, 0], [0, 1]], "points": -2}
    ]
    assert (state.score, state.hints) == (8, 1)
    assert ENGINE.view(state, 0)["hint"] == {"a": [0, 0], "b": [0, 1], "path": [[0, 0], [0, 1]]}
    state, _ = play(state, pair((0, 2), (0, 3)), 1_000)
    assert ENGINE.view(state, 0)["hint"] is None


@pytest.mark.parametrize(("score", "after"), [(0, 0), (1, 0), (2, 0), (3, 1)])
def test_hint_never_takes_the_score_below_zero(score: int, after: int) -> None:
    state, events = play(make_state(STRIPES, score=score), Hint(), 0)
    assert state.score == after
    assert events[0]["points"] == after - score


@pytest.mark.parametrize(("score", "after"), [(0, 0), (4, 0), (5, 0), (12, 7)])
def test_manual_shuffle_costs_five_and_keeps_every_tile(score: int, after: int) -> None:
    state = make_state(STRIPES, score=score)
    shuffled, events = play(state, Shuffle(), 0)
    assert events == [{"type": "shuffled", "auto": False, "points": after - score}]
    assert (shuffled.score, shuffled.shuffles, shuffled.auto_shuffles) == (after, 1, 0)
    assert Counter(shuffled.tiles) == Counter(state.tiles)
    assert shuffled.tiles != state.tiles
    assert shuffled.rng != state.rng


def test_no_pair_left_shuffles_free_and_keeps_the_cells() -> None:
    state = make_state(STUCK_AFTER_C)
    state, events = play(state, pair((0, 0), (0, 1)), 0)
    assert [e["type"] for e in events] == ["removed", "shuffled"]
    assert events[1] == {"type": "shuffled", "auto": True, "points": 0}
    assert (state.score, state.shuffles, state.auto_shuffles) == (10, 0, 1)
    occupied = [i for i, tile in enumerate(state.tiles) if tile != EMPTY]
    assert occupied == [14, 15, 20, 21]
    assert sorted(state.tiles[i] for i in occupied) == [0, 0, 1, 1]
    assert find_pair(state.grid, state.tiles) is not None


# --- the end ---------------------------------------------------------------------------


def test_calm_clear_ends_with_no_bonus() -> None:
    state = make_state(LAST_PAIR, clock=Clock(as_of_ms=5_000, elapsed_ms=4_000))
    state, events = play(state, pair((1, 2), (1, 3)), 9_000)
    assert events[1] == {"type": "over", "reason": "cleared", "score": 10, "time_ms": 8_000,
                         "bonus": 0}
    assert ENGINE.outcome(state) == Outcome("cleared", (10,), None, 8_000)
    assert ENGINE.to_move(state) is None
    record = ENGINE.record(state)
    assert record is not None
    assert (record.key, record.score, record.time_ms) == ("beginner/calm", 10, 8_000)
    assert refused(state, Hint(), 10_000).code == "game_over"
    assert refused(state, Pause(), 10_000).code == "game_over"


def test_timed_clear_adds_two_per_whole_second_after_the_pair_time() -> None:
    state = make_state(LAST_PAIR, mode="timed", clock=Clock(remaining_ms=34_400))
    state, events = play(state, pair((1, 2), (1, 3)), 0)
    assert (state.clock.remaining_ms, state.bonus, state.score) == (37_400, 74, 84)
    assert events[1]["bonus"] == 74


def test_calm_stopwatch_stops_while_paused_and_never_ends() -> None:
    state = make_state(LAST_PAIR)
    state, _ = play(state, Pause(), 5_000)
    assert ENGINE.tick(state, 10**9) == (state, [])
    state, _ = play(state, Resume(), 65_000)
    state, _ = play(state, pair((1, 2), (1, 3)), 70_000)
    assert state.clock.elapsed_ms == 10_000


# --- the timed clock -------------------------------------------------------------------


def test_timed_clock_adds_three_seconds_per_pair_up_to_the_cap() -> None:
    state = make_state(STRIPES, mode="timed")
    state, _ = play(state, pair((0, 0), (0, 1)), 10_000)
    assert state.clock == Clock(as_of_ms=10_000, elapsed_ms=10_000, remaining_ms=83_000)
    capped = make_state(STRIPES, mode="timed", clock=Clock(remaining_ms=149_000))
    capped, _ = play(capped, pair((0, 0), (0, 1)), 0)
    assert capped.clock.remaining_ms == 150_000


def test_time_up_ends_the_game_at_zero() -> None:
    state = make_state(STRIPES, mode="timed")
    assert ENGINE.tick(state, 89_999) == (state, [])
    assert refused(state, pair((0, 0), (0, 1)), 90_000).code == "time_up"
    ended, events = ENGINE.tick(state, 95_000)
    assert events == [{"type": "over", "reason": "time_up", "score": 0, "time_ms": 90_000,
                       "bonus": 0}]
    assert ended.clock == Clock(as_of_ms=90_000, elapsed_ms=90_000, remaining_ms=0)
    assert ENGINE.outcome(ended) == Outcome("time_up", (0,), None, 90_000)
    record = ENGINE.record(ended)
    assert record is not None and record.key == "beginner/timed"
    assert refused(ended, pair((0, 0), (0, 1)), 95_000).code == "game_over"
    assert ENGINE.tick(ended, 99_000) == (ended, [])


def test_pause_stops_the_countdown() -> None:
    state = make_state(STRIPES, mode="timed")
    state, _ = play(state, Pause(), 10_000)
    assert state.clock == Clock(as_of_ms=10_000, elapsed_ms=10_000, remaining_ms=80_000,
                                paused=True)
    assert ENGINE.tick(state, 1_000_000) == (state, [])
    state, events = play(state, Resume(), 1_000_000)
    assert events == [{"type": "resumed"}]
    assert ENGINE.tick(state, 1_079_999) == (state, [])
    ended, _ = ENGINE.tick(state, 1_080_000)
    assert ended.over and ended.clock.elapsed_ms == 90_000


def test_time_before_the_last_snapshot_does_not_run_backwards() -> None:
    state = make_state(STRIPES, mode="timed", clock=Clock(as_of_ms=5_000, remaining_ms=60_000))
    state, _ = play(state, pair((0, 0), (0, 1)), 1_000)
    assert state.clock == Clock(as_of_ms=5_000, elapsed_ms=0, remaining_ms=63_000)
    assert state.last_removal_ms == 5_000


# --- view, outcome and the rest of the protocol ----------------------------------------


def test_view_of_a_new_classic_game() -> None:
    state = ENGINE.new_game(Params(), 41739205)
    view = ENGINE.view(state, 0)
    json.dumps(view)
    assert len(view["tiles"]) == 8 and all(len(row) == 6 for row in view["tiles"])
    assert {k: view[k] for k in view if k != "tiles"} == {
        "record_key": "classic/calm",
        "turn": 0,
        "scores": [0],
        "counts_for_record": True,
        "rows": 8,
        "cols": 6,
        "size": "classic",
        "mode": "calm",
        "number": "41739205-b",
        "pictures": [1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 13, 14],
        "score": 0,
        "streak": 0,
        "best_streak": 0,
        "last_removal_ms": None,
        "streak_expires_ms": None,
        "pairs_removed": 0,
        "pairs_total": 24,
        "hints": 0,
        "shuffles": 0,
        "auto_shuffles": 0,
        "hint": None,
        "paused": False,
        "stopwatch": {"elapsed_ms": 0, "running": True, "as_of_ms": 0},
        "clock": None,
        "over": False,
        "reason": None,
        "time_ms": None,
        "bonus": None,
    }
    assert ENGINE.outcome(state) is None
    assert ENGINE.record(state) is None
    assert ENGINE.to_move(state) == 0


def test_view_of_a_timed_game_in_play() -> None:
    state = make_state(STRIPES, mode="timed")
    state, _ = play(state, pair((0, 0), (0, 1)), 2_000)
    view = ENGINE.view(state, None)
    assert view["tiles"][0] == [None, None, 1, 1, 2, 2]
    assert view["clock"] == {
        "remaining_ms": 91_000,
        "running": True,
        "as_of_ms": 2_000,
        "cap_ms": 150_000,
        "start_ms": 90_000,
    }
    assert (view["streak"], view["streak_expires_ms"], view["last_removal_ms"]) == (
        1,
        7_000,
        2_000,
    )
    paused, _ = play(state, Pause(), 3_000)
    assert ENGINE.view(paused, 0)["clock"]["running"] is False
    assert ENGINE.view(paused, 0)["paused"] is True


def test_engine_description_and_seats() -> None:
    assert ENGINE.name == "pairs"
    assert ENGINE.seats(Params()) == [SeatKind.OWNER]
    assert ENGINE.describe()["params"] == {
        "size": {"choices": ["beginner", "classic", "long"], "default": "classic"},
        "mode": {"choices": ["calm", "timed"], "default": "calm"},
    }
    assert ENGINE.daily_params({}) == Params("classic", "calm")
    assert ENGINE.daily_params({"mode": "timed", "size": "long"}) == Params("classic", "timed")
    assert ENGINE.daily_once(Params()) is True  # one daily board a day (issue 24.2)
