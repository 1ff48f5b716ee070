"""Random legal play from any board: invariants hold, the board always empties (automatic
shuffles included), the log replays to the same state, snapshots round-trip."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.core.protocol import IllegalMove
from engines.core.replay import replay
from engines.pairs import ENGINE
from engines.pairs.grid import EMPTY
from engines.pairs.params import SIZES
from engines.pairs.paths import reach
from engines.pairs.search import find_pair
from engines.pairs.state import State
from tests.profile import examples

VIEW_KEYS = {"tiles", "score", "streak", "over", "rows", "cols", "size", "mode", "pictures",
             "best_streak", "pairs_removed", "pairs_total", "hints", "shuffles", "paused",
             "clock", "time_ms", "bonus"}


def removable_pairs(state: State) -> list[dict[str, Any]]:
    grid = state.grid
    occupied = grid.occupancy(state.tiles)
    found = []
    for ia, tile in enumerate(state.tiles):
        if tile == EMPTY:
            continue
        partners = reach(grid, grid.pos_of_index[ia], occupied)
        for ib in range(ia + 1, len(state.tiles)):
            if state.tiles[ib] == tile and partners >> grid.pos_of_index[ib] & 1:
                found.append({"type": "pair", "a": list(divmod(ia, 6)), "b": list(divmod(ib, 6))})
    return found


def check_invariants(state: State) -> None:
    counts = Counter(t for t in state.tiles if t != EMPTY)
    assert all(n % 2 == 0 for n in counts.values())
    assert set(counts) <= set(state.pictures)
    assert sum(counts.values()) == 2 * (state.params.spec.pairs - state.pairs_removed)
    assert state.score >= 0
    assert state.over or find_pair(state.grid, state.tiles) is not None  # never stuck
    assert ENGINE.load_state(json.loads(json.dumps(ENGINE.dump_state(state)))) == state
    view = ENGINE.view(state, 0)
    assert VIEW_KEYS <= set(view)
    json.dumps(view)


@settings(max_examples=examples(60), deadline=None)
@given(
    seed=st.integers(0, 99_999_999),
    size=st.sampled_from(sorted(SIZES)),
    mode=st.sampled_from(["calm", "timed"]),
    data=st.data(),
)
def test_random_play_clears_the_board_and_replays(
    seed: int, size: str, mode: str, data: st.DataObject
) -> None:
    params = ENGINE.parse_params({"size": size, "mode": mode})
    state = ENGINE.new_game(params, seed)
    log: list[dict[str, Any]] = []
    at_ms = 0
    extras = 0  # hints, shuffles, pauses and bad tries, at most a few per game
    while not state.over:
        # Steps of at most 3 s: pairs add 3 s each, so a timed game never runs out here.
        at_ms += data.draw(st.integers(0, 3_000))
        pairs = removable_pairs(state)
        assert pairs
        action = data.draw(st.sampled_from(["pair"] * 6 + ["hint", "shuffle", "pause", "bad"]))
        if action == "pair" or extras >= 6:
            raw = data.draw(st.sampled_from(pairs))
        elif action == "pause":
            extras += 1
            raw = {"type": "pause"}
        elif action == "bad":
            extras += 1
            a, b = data.draw(st.lists(st.tuples(st.integers(-1, 9), st.integers(-1, 6)),
                                      min_size=2, max_size=2))
            raw = {"type": "pair", "a": list(a), "b": list(b)}
            if raw not in pairs and dict(raw, a=raw["b"], b=raw["a"]) not in pairs:
                before = state
                try:
                    ENGINE.apply(state, ENGINE.parse_move(raw), at_ms)
                except IllegalMove:
                    pass
                else:
                    raise AssertionError(f"{raw} was accepted")
                assert state == before
                continue
        else:
            extras += 1
            raw = {"type": action}
        state, _ = ENGINE.tick(state, at_ms)
        state, events = ENGINE.apply(state, ENGINE.parse_move(raw), at_ms)
        log.append({"move": raw, "at_ms": at_ms, "seat": 0})
        if raw["type"] == "pause":
            at_ms += data.draw(st.integers(0, 100_000))
            state, events = ENGINE.apply(state, ENGINE.parse_move({"type": "resume"}), at_ms)
            log.append({"move": {"type": "resume"}, "at_ms": at_ms, "seat": 0})
        if raw["type"] == "hint":
            named = {"type": "pair", "a": events[0]["a"], "b": events[0]["b"]}
            assert named in pairs
        assert all(isinstance(e["type"], str) for e in events)
        json.dumps(events)
        check_invariants(state)

    assert state.reason == "cleared"
    assert state.tiles == (EMPTY,) * (params.spec.rows * 6)
    assert state.pairs_removed == params.spec.pairs
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.scores == (state.score,)
    assert replay(ENGINE, params, seed, log) == state


@settings(max_examples=examples(20), deadline=None)
@given(seed=st.integers(0, 99_999_999), gaps=st.lists(st.integers(0, 20_000), max_size=30))
def test_a_timed_game_that_runs_out_replays_with_its_tick(seed: int, gaps: list[int]) -> None:
    params = ENGINE.parse_params({"size": "beginner", "mode": "timed"})
    state = ENGINE.new_game(params, seed)
    log: list[dict[str, Any]] = []
    at_ms = 0
    for gap in gaps:
        at_ms += gap
        state, _ = ENGINE.tick(state, at_ms)
        if state.over:
            break
        raw = removable_pairs(state)[0]
        state, _ = ENGINE.apply(state, ENGINE.parse_move(raw), at_ms)
        log.append({"move": raw, "at_ms": at_ms, "seat": 0})
    if not state.over:
        at_ms += 10**6
        state, events = ENGINE.tick(state, at_ms)
        assert events[0]["type"] == "over"
    log.append({"move": None, "at_ms": at_ms})
    assert state.over
    assert replay(ENGINE, params, seed, log) == state
    if state.reason == "time_up":
        assert state.clock.remaining_ms == 0
        assert state.clock.elapsed_ms == state.clock.as_of_ms
