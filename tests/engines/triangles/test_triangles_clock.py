"""Time controls: exact time left, increment, lag allowance, the flag, the first line
(clocks start with it; none in time aborts the game), days per move, codecs and replay."""

from __future__ import annotations

from dataclasses import replace

import pytest
from triangles_helpers import legal_lines

from engines.core.protocol import BadParams, IllegalMove, Outcome
from engines.core.replay import replay
from engines.triangles import ENGINE
from engines.triangles.clock import DAY_MS, FIRST_LINE_MS, LAG_MS
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


def opened(clock: str, first_ms: int = 1_000, second_ms: int = 2_000) -> State:
    """A game whose seats have drawn their first lines (at ``first_ms``, ``second_ms``):
    seat 0's clock runs from ``second_ms``."""
    return line(line(game(clock), first_ms), second_ms)


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
    state = opened("3+2", 5_000, 9_000)  # first lines: free, no increment
    assert state.clocks == (180_000, 180_000)
    assert ENGINE.deadline(state) == 9_000 + 180_000 + LAG_MS
    state = line(state, 19_000)  # seat 0 spent 10 000 - 300, then +2 000
    assert state.clocks == (180_000 - 9_700 + 2_000, 180_000)
    assert ENGINE.deadline(state) == 19_000 + 180_000 + LAG_MS
    state = line(state, 19_250)  # seat 1 within the allowance: nothing spent, +2 000
    assert state.clocks == (172_300, 182_000)
    view = ENGINE.view(state, 0)["clock"]
    assert view == {
        "control": "3+2",
        "initial_ms": 180_000,
        "increment_ms": 2_000,
        "per_move": False,
        "left_ms": [172_300, 182_000],
        "since_ms": 19_250,
        "running": 0,
        "deadline_ms": 19_250 + 172_300 + LAG_MS,
        "lag_ms": LAG_MS,
        "first_line_ms": FIRST_LINE_MS,
        "first_line_deadline_ms": None,
    }


def test_clocks_start_with_each_seats_first_line() -> None:
    """No clock runs before its seat's first line: the seat to move has 20 s to draw it
    (the view says until when), and the line costs and earns no time."""
    assert FIRST_LINE_MS == 20_000
    state = game("1+1")
    view = ENGINE.view(state, 0)["clock"]
    assert view["running"] is None and view["deadline_ms"] is None
    assert view["left_ms"] == [60_000, 60_000] and view["since_ms"] == 0
    assert view["first_line_ms"] == 20_000
    assert view["first_line_deadline_ms"] == 20_000 + LAG_MS == ENGINE.deadline(state)
    state = line(state, 19_000)  # 19 s thinking: charged nothing, no increment
    assert state.clocks == (60_000, 60_000)
    view = ENGINE.view(state, 1)["clock"]
    assert view["running"] is None and view["deadline_ms"] is None
    assert view["first_line_deadline_ms"] == 19_000 + 20_000 + LAG_MS == ENGINE.deadline(state)
    state = line(state, 30_000)  # the second mover: the same
    assert state.clocks == (60_000, 60_000)
    view = ENGINE.view(state, 0)["clock"]
    assert view["running"] == 0 and view["first_line_deadline_ms"] is None
    assert view["deadline_ms"] == 30_000 + 60_000 + LAG_MS == ENGINE.deadline(state)
    assert ENGINE.tick(state, 30_000 + 60_000 + LAG_MS - 1) == (state, [])


@pytest.mark.parametrize("lines_before", [0, 1])
def test_no_first_line_in_time_aborts_the_game(lines_before: int) -> None:
    """The first mover (from the start) or the second (from the first line) who draws
    nothing for 20 s: the game is aborted, with no winner, stamped at the deadline."""
    state = game("10+5")
    since = 0
    if lines_before:
        since = 7_000
        state = line(state, since)
    deadline = since + FIRST_LINE_MS + LAG_MS
    assert ENGINE.tick(state, deadline - 1) == (state, [])
    late = line(state, deadline - 1)  # a line one ms before the deadline still counts
    assert late.result is None and late.clocks == (600_000, 600_000)
    aborted, events = ENGINE.tick(state, deadline + 4_000)
    assert aborted.result == "aborted" and aborted.winner is None
    assert aborted.last_ms == deadline and aborted.clocks == (600_000, 600_000)
    assert events == [{"type": "over", "reason": "aborted", "winner": None, "scores": [0, 0]}]
    assert ENGINE.outcome(aborted) == Outcome("aborted", (0, 0), None, deadline)
    assert ENGINE.movers(aborted) == frozenset(range(lines_before))
    assert ENGINE.deadline(aborted) is None
    view = ENGINE.view(aborted, None)["clock"]
    assert view["running"] is None and view["first_line_deadline_ms"] is None
    a, b = legal_lines(state.position())[0]
    with pytest.raises(IllegalMove) as caught:  # without a tick (a log judged again)
        ENGINE.apply(state, Line(a, b), deadline, state.turn)
    assert caught.value.code == "time_up" and caught.value.details == {"aborted": True}


def test_flag_exactly_at_the_deadline() -> None:
    state = line(opened("1+1", 1_000, 1_000), 6_000)  # seat 0: 60 000 - 4 700 + 1 000
    assert state.clocks == (56_300, 60_000)
    deadline = 6_000 + 60_000 + LAG_MS
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
    state = opened("1+1", 0, 0)
    a, b = legal_lines(state.position())[0]
    for move in (Line(a, b), Resign()):
        with pytest.raises(IllegalMove) as caught:
            ENGINE.apply(state, move, 60_000 + LAG_MS, 0)
        assert caught.value.code == "time_up" and caught.value.details == {}


def test_the_loser_on_time_loses_even_when_ahead() -> None:
    state = opened("1+1")
    flagged, _ = ENGINE.tick(replace(state, scores=(5, 0)), 10**6)
    assert flagged.winner == 1 and flagged.result == "time"


def test_days_per_move_restore_the_full_allowance() -> None:
    state = game("1d")
    assert state.clocks == (DAY_MS, DAY_MS)
    view = ENGINE.view(state, 0)["clock"]  # no first-line limit: the day runs at once
    assert view["first_line_ms"] is None and view["first_line_deadline_ms"] is None
    assert view["running"] == 0 and view["deadline_ms"] == DAY_MS + LAG_MS
    state = line(state, 20 * 3_600_000)  # 20 hours thinking
    assert state.clocks == (DAY_MS, DAY_MS)
    assert ENGINE.deadline(state) == 20 * 3_600_000 + DAY_MS + LAG_MS
    flagged, _ = ENGINE.tick(state, 20 * 3_600_000 + DAY_MS + LAG_MS)
    assert flagged.result == "time" and flagged.winner == 0
    three = game("3d")
    assert ENGINE.deadline(three) == 3 * DAY_MS + LAG_MS


def test_resign_stops_the_clocks() -> None:
    state = line(opened("5+3", 500, 1_000), 2_000)  # seat 0: 300 000 - 700 + 3 000
    resigned, _ = ENGINE.apply(state, Resign(), 12_000, 0)
    assert resigned.clocks == (302_300, 300_000 - 9_700)
    assert ENGINE.view(resigned, 0)["clock"]["since_ms"] == 12_000
    early = line(game("5+3"), 1_000)  # seat 1 has drawn nothing: its clock never ran
    resigned, _ = ENGINE.apply(early, Resign(), 15_000, 0)
    assert resigned.result == "resigned" and resigned.clocks == (300_000, 300_000)


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
        {"seat": None, "move": None, "at_ms": 2_000 + 20_000 + LAG_MS},
    ]
    final = replay(ENGINE, params, 7, log)
    assert final.result == "aborted" and final.winner is None
    second = line(game("1+1"), 2_000)
    c, d = legal_lines(second.position())[0]
    log[1:] = [
        {"seat": 1, "move": {"type": "line", "a": c, "b": d}, "at_ms": 3_000},
        {"seat": None, "move": None, "at_ms": 3_000 + 60_000 + LAG_MS},
    ]
    final = replay(ENGINE, params, 7, log)
    assert final.result == "time" and final.winner == 1
