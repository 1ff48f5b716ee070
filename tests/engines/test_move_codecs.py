"""Every engine's codecs come from its declarations (engines/core/codec.py): a move the
computer or random play makes, or any value the declaration allows, dumps to JSON that
loads back to an equal value; params too. Engines from the registry, the reference
engine and the fixture game."""

from __future__ import annotations

import dataclasses
import json
import typing
from typing import Annotated, Any, Literal

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engines.core.codec import members, move_codec, params_codec
from engines.core.protocol import BadMove, BadParams, ComputerPlayer, EngineError, IllegalMove
from tests.fixtures.games import EVERY_ENGINE
from tests.profile import examples

ALL: dict[str, Any] = EVERY_ENGINE
SMALL = st.integers(-1, 12)  # board-sized numbers, so that random moves are often legal


def value_of(hint: Any) -> st.SearchStrategy[Any]:
    """Values of a declared field's type: small integers, its choices, booleans."""
    if typing.get_origin(hint) is Annotated:
        return value_of(typing.get_args(hint)[0])
    if typing.get_origin(hint) is Literal:
        return st.sampled_from(typing.get_args(hint))
    if typing.get_origin(hint) is tuple:
        return st.tuples(*(value_of(arg) for arg in typing.get_args(hint)))
    if hint is bool:
        return st.booleans()
    if hint is int:
        return SMALL
    raise AssertionError(f"no strategy for {hint!r}")


def declared(declaration: Any) -> st.SearchStrategy[Any]:
    """The values a declaration (a dataclass, or a union of them) allows."""
    strategies = []
    for cls in members(declaration):
        hints = typing.get_type_hints(cls, include_extras=True)
        init = {f.name: value_of(hints[f.name]) for f in dataclasses.fields(cls) if f.init}
        strategies.append(st.builds(cls, **init))
    return st.one_of(strategies)


def assert_round_trip(engine: Any, move: Any) -> None:
    raw = engine.dump_move(move)
    assert json.loads(json.dumps(raw)) == raw  # plain JSON
    assert raw["type"] == move.type
    assert engine.parse_move(raw) == move
    assert engine.dump_move(engine.parse_move(raw)) == raw


@pytest.mark.parametrize("name", sorted(ALL))
@given(data=st.data())
@settings(max_examples=examples(50), deadline=None, suppress_health_check=list(HealthCheck))
def test_every_declared_move_round_trips(name: str, data: st.DataObject) -> None:
    engine = ALL[name]
    assert_round_trip(engine, data.draw(declared(engine.move_type)))


@pytest.mark.parametrize("name", sorted(ALL))
@given(data=st.data())
@settings(max_examples=examples(50), deadline=None, suppress_health_check=list(HealthCheck))
def test_params_round_trip(name: str, data: st.DataObject) -> None:
    engine = ALL[name]
    params = data.draw(declared(engine.params_type))
    raw = engine.dump_params(params)
    try:
        loaded = engine.parse_params(raw)
    except BadParams:  # a combination the game refuses (a mode of another ruleset)
        assume(False)
    assert loaded == params and engine.dump_params(loaded) == raw
    assert engine.parse_params({**raw, "ignored": 1}) == params  # other keys are ignored


def has_computer(engine: Any, state: Any) -> bool:
    """The game has a computer player that moves in this state."""
    if not isinstance(engine, ComputerPlayer):
        return False
    try:
        engine.computer_move(state)
    except IllegalMove:
        return False
    return True


@pytest.mark.parametrize("name", sorted(ALL))
@given(seed=st.integers(0, 99_999_999), data=st.data())
@settings(max_examples=examples(10), deadline=None, suppress_health_check=list(HealthCheck))
def test_moves_of_play_round_trip(name: str, seed: int, data: st.DataObject) -> None:
    """A game played by the computer where it has one, else by random moves: every move
    made (and every random one tried) survives its codec."""
    engine = ALL[name]
    params = engine.parse_params({"opponent": "human"} if name == "triangles" else {})
    state = engine.new_game(params, seed)
    played = 0
    for ply in range(40):
        if engine.outcome(state) is not None:
            break
        seat = engine.to_move(state) or 0
        if has_computer(engine, state):
            move = engine.computer_move(state)
        else:
            move = data.draw(declared(engine.move_type))
        assert_round_trip(engine, move)
        try:
            state, _ = engine.apply(state, engine.parse_move(engine.dump_move(move)), ply, seat)
            played += 1
        except (IllegalMove, BadMove):
            continue
    assert played or engine.outcome(state) is not None or name in ("pairs", "blocks")


@pytest.mark.parametrize("name", sorted(ALL))
def test_a_codec_refuses_what_its_declaration_does_not_say(name: str) -> None:
    engine = ALL[name]
    codec = move_codec(engine.move_type)
    assert engine.parse_params({}) == params_codec(engine.params_type).load({})
    wrong: list[tuple[Any, str]] = [([], "bad_move"), ({}, "unknown_move")]
    wrong.append(({"type": "no such"}, "unknown_move"))
    for raw, code in wrong:
        with pytest.raises(BadMove) as caught:
            codec.load(raw)
        assert caught.value.code == code
    with pytest.raises(BadParams) as refused:
        engine.parse_params("params")
    assert refused.value.code == "bad_params"
    for tag in codec.tags:  # every field a move needs, missing: its declared code
        cls = codec.tags[tag]
        if any(f.init for f in dataclasses.fields(cls)):
            with pytest.raises(EngineError) as missing:
                codec.load({"type": tag})
            assert missing.value.code.startswith("bad_")
