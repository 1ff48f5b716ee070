"""Time controls: exact time left, increment, lag allowance, the flag, days per move,
codecs and replay."""

from __future__ import annotations

from dataclasses import replace

import pytest
from triangles_helpers import legal_lines

from engines.core.protocol import BadParams, IllegalMove
from engines.core.replay import replay
from engines.triangles import ENGINE
from engines.triangles.clock import DAY_MS, LAG_MS
from engines.triangles.moves import Line, Resign
from engines.triangles.params import Params
from engines.triangles.rules import new_state
from engines.triangles.state import State


def game(clock: str) -> State:
    return new_state(Params(opponent="online", clock=clock), 7)


def line(state: State, at_ms: int) -> State:
    """The seat to move draws its first legal line at ``at_ms``."""
    a, b = legal_lines(state.position())[0]
    state, _ = ENGINE.apply(state, Line(a, b), at_ms, state.turn)
    return state


def test_params_and_catalog() -> None:
    assert ENGINE.parse_params({"clock": "3+2"}).clock == "3+2"
    assert ENGINE.parse_params({}).clock == "none"
    for bad in ("2+1", 3, None, True):
        with pytest.raises(BadParams) as caught:
            ENGINE.parse_params({"clock": bad})
        assert caught.value.code == "bad_clock"
    described = ENGINE.describe()
    assert described["params"]["clock"]["choices"] == [
        "none", "1+1", "3+2", "5+3", "10+5", "1d", "3d",
    ]  # fmt: skip
    assert described["clocks"]["10+5"]["category"] == "rapid"
    assert described["clocks"]["none"] is None


def test_only_online_games_with_a_clock_are_rated() -> None:
    rated = ENGINE.parse_params({"opponent": "online", "clock": "1+1", "rated": True})
    assert ENGINE.rating_pool(rated) == "bullet"
    assert ENGINE.rating_pool(ENGINE.parse_params({"opponent": "online", "clock": "3d"})) is None
    for raw in (
        {"opponent": "online", "rated": True},
        {"opponent": "hard", "clock": "3+2", "rated": True},
        {"opponent": "online", "clock": "3+2", "rated": "yes"},
    ):
        with pytest.raises(BadParams) as caught:
            ENGINE.parse_params(raw)
        assert caught.value.code == "bad_rated"


def test_no_clock_means_no_deadline_and_no_flag() -> None:
    state = game("none")
    assert ENGINE.view(state, None)["clock"] is None
    assert ENGINE.deadline(state) is None
    assert ENGINE.tick(state, 10**12) == (state, [])


def test_time_left_is_exact_with_lag_allowance_and_increment() -> None:
    state = game("3+2")
    assert state.clocks == (180_000, 180_000)
    assert ENGINE.deadline(state) == 180_000 + LAG_MS
    state = line(state, 10_000)  # seat 0 spent 10 000 - 300, then +2 000
    assert state.clocks == (180_000 - 9_700 + 2_000, 180_000)
    assert ENGINE.deadline(state) == 10_000 + 180_000 + LAG_MS
    state = line(state, 10_250)  # seat 1 within the allowance: nothing spent, +2 000
    assert state.clocks == (172_300, 182_000)
    view = ENGINE.view(state, 0)["clock"]
    assert view == {
        "control": "3+2",
        "initial_ms": 180_000,
        "increment_ms": 2_000,
        "per_move": False,
        "left_ms": [172_300, 182_000],
        "since_ms": 10_250,
        "running": 0,
        "deadline_ms": 10_250 + 172_300 + LAG_MS,
        "lag_ms": LAG_MS,
    }


def test_flag_exactly_at_the_deadline() -> None:
    state = line(game("1+1"), 5_000)  # seat 0: 60 000 - 4 700 + 1 000 = 56 300
    assert state.clocks == (56_300, 60_000)
    deadline = 5_000 + 60_000 + LAG_MS
    assert ENGINE.deadline(state) == deadline
    assert ENGINE.tick(state, deadline - 1) == (state, [])
    late = line(state, deadline - 1)  # a line one ms before the flag still counts
    assert late.clocks == (56_300, 1_001)  # 1 ms left + 1 000 increment
    flagged, events = ENGINE.tick(state, deadline + 4_000)
    assert flagged.result == "time" and flagged.winner == 0
    assert flagged.last_ms == deadline  # stamped at the flag, not when it was noticed
    assert flagged.clocks == (56_300, 0)
    assert events == [{"type": "over", "reason": "time", "winner": 0, "scores": [0, 0]}]
    outcome = ENGINE.outcome(flagged)
    assert outcome is not None and outcome.reason == "time" and outcome.time_ms == deadline
    assert ENGINE.deadline(flagged) is None
    assert ENGINE.view(flagged, None)["clock"]["running"] is None
    assert ENGINE.tick(flagged, deadline + 9_000) == (flagged, [])


def test_a_move_after_the_flag_is_refused_even_without_a_tick() -> None:
    state = game("1+1")
    a, b = legal_lines(state.position())[0]
    for move in (Line(a, b), Resign()):
        with pytest.raises(IllegalMove) as caught:
            ENGINE.apply(state, move, 60_000 + LAG_MS, 0)
        assert caught.value.code == "time_up"


def test_the_loser_on_time_loses_even_when_ahead() -> None:
    state = game("1+1")
    flagged, _ = ENGINE.tick(replace(state, scores=(5, 0)), 10**6)
    assert flagged.winner == 1 and flagged.result == "time"


def test_days_per_move_restore_the_full_allowance() -> None:
    state = game("1d")
    assert state.clocks == (DAY_MS, DAY_MS)
    state = line(state, 20 * 3_600_000)  # 20 hours thinking
    assert state.clocks == (DAY_MS, DAY_MS)
    assert ENGINE.deadline(state) == 20 * 3_600_000 + DAY_MS + LAG_MS
    flagged, _ = ENGINE.tick(state, 20 * 3_600_000 + DAY_MS + LAG_MS)
    assert flagged.result == "time" and flagged.winner == 0
    three = game("3d")
    assert ENGINE.deadline(three) == 3 * DAY_MS + LAG_MS


def test_resign_stops_the_clocks() -> None:
    state = line(game("5+3"), 1_000)  # seat 0: 300 000 - 700 + 3 000
    resigned, _ = ENGINE.apply(state, Resign(), 11_000, 0)
    assert resigned.clocks == (302_300, 300_000 - 9_700)
    assert ENGINE.view(resigned, 0)["clock"]["since_ms"] == 11_000


def test_clocks_survive_the_codec_and_replay() -> None:
    state = line(line(game("10+5"), 3_000), 8_000)
    loaded = ENGINE.load_state(ENGINE.dump_state(state))
    assert loaded == state and loaded.clocks == state.clocks
    old = ENGINE.dump_state(game("none"))
    del old["clocks"]  # a snapshot from before time controls
    assert ENGINE.load_state(old).clocks is None
    params = Params(opponent="online", clock="1+1")
    a, b = legal_lines(game("1+1").position())[0]
    log = [
        {"seat": 0, "move": {"type": "line", "a": a, "b": b}, "at_ms": 2_000},
        {"seat": None, "move": None, "at_ms": 2_000 + 61_000 + LAG_MS},
    ]
    final = replay(ENGINE, params, 7, log)
    assert final.result == "time" and final.winner == 0
