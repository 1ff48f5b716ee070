"""Berserk (arena games): a seat halves its own clock before its first line, in turn or
not, and gets no increment for the rest of the game; the params, the errors, the view,
the codec, replay and the arena capability (``ArenaPlay``)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from triangles_helpers import legal_lines

from engines.core.protocol import ArenaPlay, ArenaSeat, BadParams, IllegalMove
from engines.core.replay import replay
from engines.triangles import ENGINE
from engines.triangles.clock import FIRST_LINE_MS, LAG_MS
from engines.triangles.moves import Berserk, Line, Resign
from engines.triangles.params import Params
from engines.triangles.rules import ARENA_BERSERK_LINES, clocks_at
from engines.triangles.state import State
from tests.profile import examples

SEED = 7


def arena(clock: str = "1+1") -> State:
    return ENGINE.new_game(ENGINE.arena_params(clock, False), SEED)


def line(state: State, at_ms: int) -> State:
    """The seat to move draws its first legal line at ``at_ms``."""
    a, b = legal_lines(state.position())[0]
    state, _ = ENGINE.apply(state, Line(a, b), at_ms, state.turn)
    return state


def berserk(state: State, seat: int, at_ms: int) -> State:
    state, events = ENGINE.apply(state, Berserk(), at_ms, seat)
    assert events == [{"type": "berserk", "seat": seat}]
    return state


def refused(state: State, seat: int, at_ms: int = 0) -> str:
    with pytest.raises(IllegalMove) as caught:
        ENGINE.apply(state, Berserk(), at_ms, seat)
    return caught.value.code


# --- params -------------------------------------------------------------------------


def test_arena_params_allow_berserk_on_real_time_clocks_only() -> None:
    params = ENGINE.arena_params("3+2", True)
    assert params == Params(opponent="online", clock="3+2", rated=True, berserk=True)
    assert ENGINE.rating_pool(params) == "blitz"
    for clock in ("none", "1d", "3d"):
        with pytest.raises(BadParams) as caught:
            ENGINE.arena_params(clock, False)
        assert caught.value.code == "bad_berserk"
    with pytest.raises(BadParams) as caught:
        ENGINE.arena_params("2+1", False)
    assert caught.value.code == "bad_clock"


@pytest.mark.parametrize(
    "raw",
    [
        {"berserk": True},
        {"opponent": "hard", "clock": "1+1", "berserk": True},
        {"opponent": "human", "clock": "1+1", "berserk": True},
        {"opponent": "online", "clock": "none", "berserk": True},
        {"opponent": "online", "clock": "1d", "berserk": True},
        {"opponent": "online", "clock": "1+1", "berserk": "yes"},
        {"opponent": "online", "clock": "1+1", "berserk": 1},
    ],
)
def test_bad_berserk(raw: dict[str, object]) -> None:
    with pytest.raises(BadParams) as caught:
        ENGINE.parse_params(raw)
    assert caught.value.code == "bad_berserk"


def test_berserk_params_dump_only_when_set_and_leave_the_number_alone() -> None:
    plain = ENGINE.parse_params({"opponent": "online", "clock": "1+1"})
    assert "berserk" not in ENGINE.dump_params(plain)  # key for key as before
    params = ENGINE.arena_params("1+1", False)
    raw = ENGINE.dump_params(params)
    assert raw["berserk"] is True and ENGINE.parse_params(raw) == params
    assert ENGINE.number(params, SEED) == ENGINE.number(plain, SEED)
    assert ENGINE.from_number(ENGINE.number(params, SEED)) == (Params(), SEED)


# --- the clocks ----------------------------------------------------------------------


def test_an_out_of_turn_berserk_halves_the_clock_and_stops_the_increment() -> None:
    """1+1: seat 1 berserks while seat 0 thinks over its first line: 30 s, and no +1 s
    after its lines, while seat 0 still gets it."""
    start = arena("1+1")
    state = berserk(start, 1, 500)
    assert state.clocks == (60_000, 30_000) and state.berserk == (False, True)
    assert (state.turn, state.turn_started_ms, state.last_ms) == (0, 0, 0)
    assert ENGINE.deadline(state) == ENGINE.deadline(start) == FIRST_LINE_MS + LAG_MS
    assert ENGINE.view(start, None)["berserk_open"] == [True, True]
    view = ENGINE.view(state, 0)
    assert view["berserk"] == [False, True] and view["berserk_allowed"] is True
    assert view["berserk_open"] == [True, False]  # the same for every seat and spectators
    assert view["turn"] == 0 and view["turn_started_ms"] == 0
    clock = view["clock"]
    assert clock is not None
    assert clock["left_ms"] == [60_000, 30_000] and clock["running"] is None
    assert clock["first_line_deadline_ms"] == FIRST_LINE_MS + LAG_MS
    state = line(state, 1_000)  # first lines: free, no increment
    state = line(state, 2_000)
    assert state.clocks == (60_000, 30_000)
    assert ENGINE.deadline(state) == 2_000 + 60_000 + LAG_MS
    state = line(state, 5_000)  # seat 0: 60 000 - 2 700 + 1 000
    assert state.clocks == (58_300, 30_000)
    assert ENGINE.deadline(state) == 5_000 + 30_000 + LAG_MS  # seat 1's halved clock
    assert clocks_at(state, 15_300) == (58_300, 20_000)
    state = line(state, 9_000)  # seat 1: 30 000 - 3 700, no increment
    assert state.clocks == (58_300, 26_300)
    state = line(state, 9_100)  # seat 0 within the lag: nothing spent, +1 000
    assert state.clocks == (59_300, 26_300)
    state = line(state, 9_200)  # seat 1 within the lag: nothing spent, nothing earned
    assert state.clocks == (59_300, 26_300)
    state = line(state, 10_000)  # seat 0: 59 300 - 500 + 1 000
    deadline = 10_000 + 26_300 + LAG_MS
    assert ENGINE.deadline(state) == deadline
    clock = ENGINE.view(state, None)["clock"]
    assert clock is not None
    assert clock["running"] == 1 and clock["deadline_ms"] == deadline
    assert ENGINE.tick(state, deadline - 1) == (state, [])
    flagged, _ = ENGINE.tick(state, deadline)
    assert flagged.result == "time" and flagged.winner == 0
    assert flagged.clocks == (59_800, 0) and flagged.berserk == (False, True)


def test_a_berserk_in_turn_before_the_first_line() -> None:
    """The seat to move berserks before its first line: its clock is not running, the
    20 s for the first line are unchanged, and its clock then runs from half."""
    state = berserk(arena("3+2"), 0, 4_000)
    assert state.clocks == (90_000, 180_000)
    assert ENGINE.deadline(state) == FIRST_LINE_MS + LAG_MS
    state = line(state, 19_000)
    state = berserk(state, 1, 19_500)  # the second mover, before its first line
    assert state.clocks == (90_000, 90_000) and state.berserk == (True, True)
    assert state.turn == 1 and state.turn_started_ms == 19_000
    state = line(state, 20_000)
    assert ENGINE.deadline(state) == 20_000 + 90_000 + LAG_MS
    state = line(state, 30_000)  # seat 0: 90 000 - 9 700, no increment
    assert state.clocks == (80_300, 90_000)


def test_an_odd_time_is_halved_down() -> None:
    state = berserk(ENGINE.new_game(ENGINE.arena_params("10+5", False), SEED), 1, 0)
    assert state.clocks == (600_000, 300_000)


def test_a_berserk_seat_that_draws_no_first_line_still_aborts_the_game() -> None:
    state = berserk(arena(), 0, 1_000)
    aborted, _ = ENGINE.tick(state, FIRST_LINE_MS + LAG_MS)
    assert aborted.result == "aborted" and aborted.winner is None
    assert ENGINE.movers(aborted) == frozenset()  # a berserk is not a line
    assert ENGINE.movers(line(berserk(arena(), 1, 0), 100)) == frozenset({0})


# --- refusals ------------------------------------------------------------------------


def test_no_berserk_where_the_game_does_not_allow_it() -> None:
    for params in (
        Params(opponent="online", clock="1+1"),
        Params(opponent="online", clock="1d"),
        Params(opponent="human"),
        Params(opponent="online", clock="none", berserk=True),  # made, not parsed
    ):
        state = ENGINE.new_game(params, SEED)
        assert refused(state, 0) == "no_berserk"
        assert ENGINE.view(state, None)["berserk_allowed"] is False
        assert ENGINE.view(state, None)["berserk"] == [False, False]
        assert ENGINE.view(state, None)["berserk_open"] == [False, False]


def test_berserk_too_late_after_the_seats_first_line() -> None:
    state = line(arena(), 1_000)
    assert ENGINE.view(state, 1)["berserk_open"] == [False, True]
    assert refused(state, 0, 1_500) == "berserk_too_late"
    state = berserk(state, 1, 1_500)  # the other seat has not drawn yet
    assert state.clocks == (60_000, 30_000)
    assert refused(line(state, 2_000), 1, 2_500) == "already_berserk"
    assert ENGINE.view(line(state, 2_000), None)["berserk_open"] == [False, False]
    assert refused(line(arena(), 1_000), 0, 1_000) == "berserk_too_late"


def test_berserk_only_once() -> None:
    state = berserk(arena(), 0, 0)
    assert refused(state, 0, 10) == "already_berserk"
    assert state.clocks == (30_000, 60_000)


def test_no_berserk_once_over_or_past_the_deadline_or_for_a_seat_not_in_the_game() -> None:
    over, _ = ENGINE.apply(arena(), Resign(), 1_000, 1)
    assert refused(over, 0, 1_000) == "game_over"
    assert refused(arena(), 1, FIRST_LINE_MS + LAG_MS) == "time_up"
    assert refused(arena(), 2) == "not_your_seat"


# --- codec, replay, capability -------------------------------------------------------


def test_the_snapshot_keeps_berserk_and_old_snapshots_load() -> None:
    plain = line(arena(), 1_000)
    data = ENGINE.dump_state(plain)
    assert "berserk" not in data  # no seat berserk: key for key as before
    assert ENGINE.load_state(data) == plain
    state = berserk(plain, 1, 1_500)
    data = json.loads(json.dumps(ENGINE.dump_state(state)))
    assert data["berserk"] == [False, True]
    assert ENGINE.load_state(data) == state
    old = ENGINE.dump_state(ENGINE.new_game(Params(opponent="online", clock="1+1"), SEED))
    assert "berserk" not in old and "berserk" not in old["params"]
    assert ENGINE.load_state(old).berserk == (False, False)
    for bad in ([True], [1, 0], "yes", None):
        with pytest.raises(BadParams) as caught:
            ENGINE.load_state({**data, "berserk": bad})
        assert caught.value.code == "bad_state"


def test_a_log_with_berserks_replays_to_the_same_state() -> None:
    state = arena()
    log: list[dict[str, Any]] = []

    def play(move: Any, seat: int, at_ms: int) -> None:
        nonlocal state
        state, _ = ENGINE.apply(state, move, at_ms, seat)
        log.append({"move": ENGINE.dump_move(move), "at_ms": at_ms, "seat": seat})

    play(Berserk(), 1, 300)
    for at_ms in (1_000, 2_500, 4_000, 9_000):
        play(Line(*legal_lines(state.position())[0]), state.turn, at_ms)
    assert log[0]["move"] == {"type": "berserk"}
    replayed = replay(ENGINE, state.params, SEED, log)
    assert replayed == state and replayed.clocks == (59_800, 25_300)
    assert replayed.berserk == (False, True)
    assert ENGINE.view(replayed, 0) == ENGINE.view(state, 0)
    flag = [*log, {"move": None, "at_ms": 9_000 + 59_800 + LAG_MS, "seat": None}]
    final = replay(ENGINE, state.params, SEED, flag)
    assert final.result == "time" and final.winner == 1


def test_triangles_plays_arenas() -> None:
    assert isinstance(ENGINE, ArenaPlay)
    assert ENGINE.berserk_move() == Berserk()
    assert ENGINE.dump_move(ENGINE.berserk_move()) == {"type": "berserk"}
    assert ARENA_BERSERK_LINES == 7
    state = berserk(arena("5+3"), 1, 0)
    assert ENGINE.arena_seat(state, 0) == ArenaSeat(berserk=False, long_enough=False)
    assert ENGINE.arena_seat(state, 1) == ArenaSeat(berserk=True, long_enough=False)
    at_ms = 0
    while not state.over and len(state.lines) < 2 * ARENA_BERSERK_LINES + 2:
        drawn = sum(1 for *_, seat in state.lines if seat == 1)
        assert ENGINE.arena_seat(state, 1).long_enough is (drawn >= ARENA_BERSERK_LINES)
        at_ms += 500
        state = line(state, at_ms)
    assert sum(1 for *_, seat in state.lines if seat == 1) >= ARENA_BERSERK_LINES
    assert ENGINE.arena_seat(state, 1) == ArenaSeat(berserk=True, long_enough=True)


# --- property ------------------------------------------------------------------------


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 99_999_999),
    clock=st.sampled_from(["1+1", "3+2", "5+3", "10+5"]),
    data=st.data(),
)
def test_berserk_clocks_never_grow_and_the_log_replays(
    seed: int, clock: str, data: st.DataObject
) -> None:
    """Random arena games with berserks tried at random moments by either seat: a
    berserk seat's time left never grows (no increment), it is at most half the initial
    time, a berserk changes nothing but its seat's clock and flag, and the log replays
    to the same state."""
    params = ENGINE.arena_params(clock, False)
    state = ENGINE.new_game(params, seed)
    initial = state.clocks
    assert initial is not None
    log: list[dict[str, Any]] = []
    at_ms = 0
    for _ in range(30):
        if state.over:
            break
        at_ms += data.draw(st.sampled_from([0, 100, 300, 2_000, 9_000]))
        state, _ = ENGINE.tick(state, at_ms)
        if state.over:
            log.append({"move": None, "at_ms": at_ms, "seat": None})
            break
        seat = data.draw(st.integers(0, 1))
        before = state
        if data.draw(st.booleans()):
            open_ = ENGINE.view(state, seat)["berserk_open"][seat]  # what the page is told
            try:
                state, events = ENGINE.apply(state, Berserk(), at_ms, seat)
            except IllegalMove as error:
                assert error.code in ("already_berserk", "berserk_too_late")
                assert open_ is False
                continue
            assert open_ is True
            assert events == [{"type": "berserk", "seat": seat}]
            assert before.clocks is not None and state.clocks is not None
            assert state.clocks[seat] == before.clocks[seat] // 2
            assert state.clocks[1 - seat] == before.clocks[1 - seat]
            assert (state.turn, state.turn_started_ms, state.lines) == (
                before.turn,
                before.turn_started_ms,
                before.lines,
            )
            assert ENGINE.deadline(state) == ENGINE.deadline(before)
            log.append({"move": {"type": "berserk"}, "at_ms": at_ms, "seat": seat})
        else:
            a, b = legal_lines(state.position())[0]
            seat = state.turn
            state, _ = ENGINE.apply(state, Line(a, b), at_ms, seat)
            log.append({"move": {"type": "line", "a": a, "b": b}, "at_ms": at_ms, "seat": seat})
        assert state.clocks is not None and before.clocks is not None
        for s in (0, 1):
            if state.berserk[s]:
                assert state.clocks[s] <= initial[s] // 2
                if before.berserk[s]:
                    assert state.clocks[s] <= before.clocks[s]
    replayed = replay(ENGINE, params, seed, log)
    assert replayed == state
    assert ENGINE.load_state(json.loads(json.dumps(ENGINE.dump_state(state)))) == state
