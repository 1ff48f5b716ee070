"""Random legal play never breaks an invariant; replay and JSON reproduce every state."""

from __future__ import annotations

import json
from typing import Any

import pytest
from blocks_support import CLASSIC10
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.blocks import ENGINE
from engines.blocks import play as loop
from engines.blocks.params import Params
from engines.blocks.rulesets import Ruleset, ruleset_of
from engines.blocks.state import EMPTY, State
from engines.core.bits import bits
from engines.core.protocol import BadMove, BadParams, IllegalMove
from engines.core.replay import replay
from engines.core.rng import Rng
from tests.profile import examples

VARIANTS = {
    Params("classic10"): 1500,
    Params("shapes48"): 1500,
    Params("gravity8"): 1500,
    Params("gravity8", rotation=True): 600,
    Params("shapes48", "hardcore"): 500,
    Params("shapes48", "daily"): 200,
    Params("shapes48", "chrono"): 300,
    Params("shapes48", "zen"): 60,
}
ZEN_PLACEMENTS = 150  # Zen never ends by itself: the random player leaves after this


def legal_placements(rules: Ruleset, state: State) -> list[tuple[int, int, int]]:
    out = []
    for slot, piece in state.remaining():
        for anchor in bits(rules.table[piece].fit_anchors(state.board, rules.grid.full)):
            row, col = divmod(anchor, rules.grid.cols)
            out.append((slot, row, col))
    return out


def choose_move(rules: Ruleset, state: State, pick: Any, at_ms: int) -> dict[str, Any] | None:
    """A random legal move (``pick(n)`` chooses among n), or None when the game is over."""
    if state.over:
        in_time = rules.time_limit_ms is None or at_ms < rules.time_limit_ms
        if loop.can_continue(rules, state) and in_time and pick(2):
            return {"type": "continue"}
        return None
    if rules.zen and state.placements >= ZEN_PLACEMENTS:
        return {"type": "finish"}
    if rules.rotations is not None and pick(4) == 0:
        slot = state.remaining()[pick(len(state.remaining()))][0]
        return {"type": "rotate", "piece": slot}
    if rules.tokens is not None and state.tokens and pick(40) == 0:
        return {"type": "new_set"}
    if pick(400) == 0:
        return {"type": "finish"}
    options = legal_placements(rules, state)
    if not options:
        if rules.rotations is not None:  # some orientation fits: turn a piece
            return {"type": "rotate", "piece": state.remaining()[pick(len(state.remaining()))][0]}
        assert rules.tokens is not None and state.tokens > 0, "stuck but not over"
        return {"type": "new_set"}
    slot, row, col = options[pick(len(options))]
    return {"type": "place", "piece": slot, "row": row, "col": col}


def check_state(rules: Ruleset, state: State) -> None:
    # The bitboard and the colours agree, and no full line is left on the grid.
    assert state.board == sum(1 << i for i, kind in enumerate(state.colours) if kind)
    assert all(state.board & line.mask != line.mask for line in rules.grid.lines())
    assert 0 <= state.combo <= state.best_combo or state.combo == 0
    if rules.tokens is not None:
        assert 0 <= state.tokens <= rules.tokens.cap
    if state.end_reason == "stuck":
        assert not loop.any_placeable(rules, state.board, state.hand)
    if not state.over and not loop.any_placeable(rules, state.board, state.hand):
        assert rules.tokens is not None and state.tokens > 0  # classic10 waits for a New set
    if rules.zen:
        assert state.score == 0 and state.end_reason in (None, "finished")


def check_deal(rules: Ruleset, state: State, event: dict[str, Any]) -> None:
    hand = [rules.index_of(piece["name"]) for piece in event["hand"]]
    if event.get("refill"):
        return
    fits = [rules.table[p].fits(state.board, rules.grid.full) for p in hand]
    if rules.params.ruleset == "classic10":
        assert len(set(hand)) > 1, "three identical pieces"
        assert any(fits)
    elif rules.params.ruleset == "shapes48":
        assert any(fits)


def play_game(params: Params, seed: int, chooser: Rng) -> tuple[State, list[dict[str, Any]]]:
    rules = ruleset_of(params)
    state = ENGINE.new_game(params, seed)
    check_deal(rules, state, {"hand": loop.hand_json(rules, state.hand)})
    log: list[dict[str, Any]] = []
    points = 0
    lines = 0
    at_ms = 0
    while True:
        at_ms += 1 + chooser.below(12_000 if rules.time_limit_ms else 3000)
        ticked, events = ENGINE.tick(state, at_ms)
        if events:
            log.append({"move": None, "at_ms": at_ms, "seat": 0})
            state = ticked
        raw = choose_move(rules, state, chooser.below, at_ms)
        if raw is None:
            break
        before = state
        state, events = ENGINE.apply(state, ENGINE.parse_move(raw), at_ms)
        log.append({"move": raw, "at_ms": at_ms, "seat": 0})
        for event in events:
            if event["type"] == "placed":
                mask = sum(rules.grid.bit(r, c) for r, c in event["cells"])
                assert mask & before.board == 0, "overlap"
                points += event["points"]
            elif event["type"] == "cleared":
                lines += len(event["rows"]) + len(event["cols"])
            elif event["type"] == "dealt":
                check_deal(rules, state, event)
        check_state(rules, state)
        assert state.score == points
        assert state.lines == lines
    assert ENGINE.outcome(state) is not None
    return state, log


@pytest.mark.parametrize("params", list(VARIANTS), ids=[p.record_key for p in VARIANTS])
def test_thousands_of_random_games(params: Params) -> None:
    chooser = Rng.from_seed(7, params.record_key)
    reasons: set[str] = set()
    for game in range(examples(VARIANTS[params])):
        state, log = play_game(params, chooser.below(10**8), chooser)
        reasons.add(str(state.end_reason))
        if game % 25 == 0:
            assert replay(ENGINE, params, state.seed, log) == state
            data = json.loads(json.dumps(ENGINE.dump_state(state)))
            assert ENGINE.load_state(data) == state
    expected = {"zen": {"finished"}, "chrono": {"stuck", "time_up"}}.get(params.mode, {"stuck"})
    assert expected <= reasons


# --- Hypothesis --------------------------------------------------------------------------------

params_strategy = st.sampled_from(list(VARIANTS))


@settings(max_examples=examples(60), deadline=None)
@given(
    params=params_strategy, seed=st.integers(0, 10**8 - 1), chooser_seed=st.integers(0, 2**64 - 1)
)
def test_replay_and_json_reproduce_the_state(params: Params, seed: int, chooser_seed: int) -> None:
    state, log = play_game(params, seed, Rng(chooser_seed))
    assert replay(ENGINE, params, seed, log) == state
    data = json.loads(json.dumps(ENGINE.dump_state(state)))
    assert ENGINE.load_state(data) == state
    view = ENGINE.view(state, 0)
    assert json.loads(json.dumps(view)) == view
    assert view["over"] is True and view["final"]["score"] == state.score


@settings(max_examples=examples(60), deadline=None)
@given(params=params_strategy, seed=st.integers(0, 10**8 - 1))
def test_every_first_set_keeps_the_guarantee(params: Params, seed: int) -> None:
    rules = ruleset_of(params)
    state = ENGINE.new_game(params, seed)
    assert EMPTY not in state.hand
    check_deal(rules, state, {"hand": loop.hand_json(rules, state.hand)})
    assert ENGINE.from_number(ENGINE.number(params, seed)) == (params, seed)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=examples(150), deadline=None)
@given(
    raw=st.dictionaries(
        st.sampled_from(["ruleset", "mode", "rotation", "other"]),
        json_values | st.sampled_from(["classic10", "shapes48", "gravity8", "zen", "daily"]),
    )
)
def test_parse_params_accepts_or_refuses_cleanly(raw: dict[str, Any]) -> None:
    try:
        params = ENGINE.parse_params(raw)
    except BadParams as error:
        assert error.code in ("bad_ruleset", "bad_mode", "bad_rotation")
    else:
        assert ENGINE.parse_params(ENGINE.dump_params(params)) == params


@settings(max_examples=examples(150), deadline=None)
@given(
    raw=st.dictionaries(
        st.sampled_from(["type", "piece", "row", "col", "other"]),
        json_values | st.sampled_from(["place", "rotate", "new_set", "continue", "finish"]),
    )
)
def test_parse_move_accepts_or_refuses_cleanly(raw: dict[str, Any]) -> None:
    try:
        move = ENGINE.parse_move(raw)
    except BadMove as error:
        assert error.code in ("unknown_move", "bad_piece", "bad_cell")
    else:
        assert ENGINE.parse_move(ENGINE.dump_move(move)) == move


@settings(max_examples=examples(40), deadline=None)
@given(
    seed=st.integers(0, 10**8 - 1),
    moves=st.lists(st.tuples(st.integers(-1, 3), st.integers(-2, 11), st.integers(-2, 11)),
                   max_size=30),
)
def test_any_placement_is_applied_or_refused_without_change(
    seed: int, moves: list[tuple[int, int, int]]
) -> None:
    state = ENGINE.new_game(CLASSIC10, seed)
    for piece, row, col in moves:
        before = ENGINE.dump_state(state)
        move = ENGINE.parse_move({"type": "place", "piece": piece, "row": row, "col": col})
        try:
            state, _ = ENGINE.apply(state, move, 0)
        except IllegalMove as error:
            assert error.code in (
                "no_such_piece", "piece_used", "out_of_board", "occupied", "game_over"
            )
            assert ENGINE.dump_state(state) == before
