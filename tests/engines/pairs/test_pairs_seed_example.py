"""Seed 004's worked example, exactly as written: 10, 12, 14 → 36; 46; 44; 39; +74."""

from __future__ import annotations

from engines.pairs import ENGINE
from engines.pairs.moves import Hint, Move, Pair, Shuffle
from engines.pairs.scoring import clear_bonus
from engines.pairs.search import find_pair
from engines.pairs.state import State


def next_pair(state: State) -> Move:
    found = find_pair(state.grid, state.tiles)
    assert found is not None
    return Pair(divmod(found[0], 6), divmod(found[1], 6))


def opening(mode: str) -> State:
    """Classic: pairs at 0 s, +1.2 s, +0.8 s, then one after a 6 s pause; a hint; a shuffle."""
    params, seed = ENGINE.from_number("41739205-b")
    state = ENGINE.new_game(ENGINE.parse_params({"size": params.size, "mode": mode}), seed)
    scores = []
    for at_ms in (0, 1_200, 2_000):
        state, events = ENGINE.apply(state, next_pair(state), at_ms)
        scores.append(events[0]["points"])
    assert scores == [10, 12, 14]
    assert state.score == 36
    assert state.streak == 3

    state, events = ENGINE.apply(state, next_pair(state), 8_000)
    assert events[0]["points"] == 10 and events[0]["streak"] == 1
    assert state.score == 46

    state, events = ENGINE.apply(state, Hint(), 9_000)
    assert events[0]["points"] == -2
    assert state.score == 44

    state, events = ENGINE.apply(state, Shuffle(), 10_000)
    assert events == [{"type": "shuffled", "auto": False, "points": -5}]
    assert state.score == 39
    assert (state.hints, state.shuffles, state.best_streak) == (1, 1, 3)
    return state


def test_calm_classic_example() -> None:
    state = opening("calm")
    assert ENGINE.view(state, 0)["score"] == 39


def test_timed_clear_with_37_4_seconds_left_adds_74() -> None:
    state = opening("timed")
    # 20 more pairs 8 s apart (no streak), the last at 184.6 s: 150 s + 24 × 3 s - 184.6 s
    # leaves 37.4 s on the clock when the board is cleared.
    for k in range(20):
        at_ms = 184_600 - (19 - k) * 8_000
        state, _ = ENGINE.tick(state, at_ms)
        state, events = ENGINE.apply(state, next_pair(state), at_ms)
        assert events[0]["points"] == 10
    assert events[-1] == {
        "type": "over",
        "reason": "cleared",
        "score": 39 + 20 * 10 + 74,
        "time_ms": 184_600,
        "bonus": 74,
    }
    view = ENGINE.view(state, 0)
    assert view["clock"]["remaining_ms"] == 37_400
    assert (view["bonus"], view["score"], view["over"]) == (74, 313, True)
    record = ENGINE.record(state)
    assert record is not None
    assert (record.key, record.score, record.time_ms) == ("classic/timed", 313, 184_600)


def test_bonus_counts_whole_seconds_only() -> None:
    assert clear_bonus(37_400) == 74
    assert clear_bonus(37_999) == 74
    assert clear_bonus(999) == 0
