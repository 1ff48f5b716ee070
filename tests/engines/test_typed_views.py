"""Every engine's declared view and events (``view_type``, ``event_type``) are what it
sends: random games of every engine, each variant its catalog offers, with clock jumps
that end timed games, and every view (each seat's and a spectator's) and every event
validated in pydantic's strict mode against the declarations, which are closed
(``engines.core.protocol.closed``: a key an engine sends but does not declare fails)."""

from __future__ import annotations

import contextlib
import json
import random
from functools import cache
from typing import Any, Literal, get_origin, get_type_hints

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError
from typing_extensions import TypedDict

from engines.core.base import BaseEngine
from engines.core.protocol import ArenaPlay, ComputerPlayer, CostlySetup, EngineError, closed
from tests.fixtures.games import EVERY_ENGINE
from tests.profile import examples

# The registry's games, the reference engine and the fixture games.
ALL: dict[str, Any] = EVERY_ENGINE
PLIES = 80  # moves tried per game at most


@cache
def adapter(declaration: Any) -> TypeAdapter[Any]:
    return TypeAdapter(declaration)


def check(declaration: Any, value: Any) -> None:
    """``value`` is a ``declaration`` exactly (strict: no coercion, no undeclared key),
    as it is and as the JSON the wire carries."""
    adapter(declaration).validate_python(value, strict=True)
    adapter(declaration).validate_json(json.dumps(value), strict=True)


def random_params(engine: Any, rng: random.Random) -> Any:
    """Params of a variant the catalog offers (its quick-to-build boards); now and then,
    of a game that plays arenas, an arena game's (berserk allowed)."""
    specs = engine.describe()["params"]
    if isinstance(engine, ArenaPlay) and rng.random() < 0.3:
        timed = [name for name, spec in engine.describe()["clocks"].items() if spec]
        with contextlib.suppress(EngineError):
            return engine.arena_params(rng.choice(timed), rng.random() < 0.5)
    for _ in range(20):
        raw = {name: rng.choice(spec["choices"]) for name, spec in specs.items()}
        try:
            params = engine.parse_params(raw)
        except EngineError:
            continue
        if not (isinstance(engine, CostlySetup) and engine.costly_setup(params)):
            return params
    return engine.parse_params({})


def candidates(engine: Any, state: Any, view: Any, rng: random.Random) -> list[dict[str, Any]]:
    """Moves worth trying now, read off the view as a page would (some are refused)."""
    name = engine.name
    if name == "blocks":
        places = [
            {"type": "place", "piece": slot, "row": p["row"], "col": p["col"]}
            for slot, piece in enumerate(view["hand"])
            if piece
            for p in piece["placements"]
        ]
        rng.shuffle(places)
        extra = [{"type": t} for t in ("new_set", "continue")]
        extra += [{"type": "rotate", "piece": slot} for slot in range(3)]
        return [*places[:3], *rng.sample(extra, 2), {"type": "finish"}]
    if name == "pairs":
        moves: list[dict[str, Any]] = []
        if view["hint"]:
            moves.append({"type": "pair", "a": view["hint"]["a"], "b": view["hint"]["b"]})
        moves += [{"type": "hint"}] * 4 + [{"type": t} for t in ("shuffle", "pause", "resume")]
        if rng.random() < 0.2:  # now and then a shuffle, a pause or a resume first
            rng.shuffle(moves)
        return moves
    if name in ("tally", "clocktally"):
        return [{"type": "add", "n": rng.randint(1, 3)}, {"type": "claim"}, {"type": "resign"}]
    if name == "lampsout":
        return [{"type": "press", "lamp": rng.randrange(len(view["lamps"]))}]
    # Triangles, and a game not named above: the computer's move, if it has one (and,
    # now and then first, a berserk where the game plays arenas).
    moves = []
    if isinstance(engine, ArenaPlay) and rng.random() < 0.3:
        moves.append(engine.dump_move(engine.berserk_move()))
    if isinstance(engine, ComputerPlayer):
        with contextlib.suppress(EngineError):
            moves.append(engine.dump_move(engine.computer_move(state)))
    return [*moves, {"type": "claim"}, {"type": "resign"}]


def play_and_check(engine: Any, seed: int) -> int:
    """One random game, every view and event checked; the number of events seen."""
    rng = random.Random(seed)
    params = random_params(engine, rng)
    state = engine.new_game(params, seed % 100_000_000)
    seats = [None, *range(len(engine.seats(params)))]
    at_ms, seen = 0, 0
    for _ in range(PLIES):
        for seat in seats:
            check(engine.view_type, engine.view(state, seat))
        at_ms += rng.choice((0, 300, 1_500, 6_000, 61_000, 200_000))
        state, events = engine.tick(state, at_ms)
        view = engine.view(state, None)
        mover = engine.to_move(state)
        for raw in candidates(engine, state, view, rng) if mover is not None else []:
            seat = mover if rng.random() < 0.9 else rng.choice(seats[1:])
            try:
                state, more = engine.apply(state, engine.parse_move(raw), at_ms, seat)
            except EngineError:
                continue
            events = [*events, *more]
            break
        for event in events:
            check(engine.event_type, event)
        seen += len(events)
        if engine.to_move(state) is None:
            break
    for seat in seats:
        check(engine.view_type, engine.view(state, seat))
    return seen


@pytest.mark.parametrize("name", sorted(ALL))
def test_every_engine_declares_its_view_and_events(name: str) -> None:
    engine = ALL[name]
    assert engine.view_type is not BaseEngine.view_type
    assert engine.event_type is not BaseEngine.event_type
    # The names the OpenAPI document and the front end's types use.
    title = name.title()
    assert engine.view_type.__name__ == f"{title}View"
    for declaration in engine.event_type.__args__:
        assert declaration.__name__.startswith(title), declaration
        assert declaration.__pydantic_config__ == {"extra": "forbid"}, declaration
        assert get_origin(get_type_hints(declaration)["type"]) is Literal, declaration


@pytest.mark.parametrize("name", sorted(ALL))
@settings(max_examples=examples(30), deadline=None)
@given(seed=st.integers(0, 2**32))
def test_views_and_events_of_random_games_are_what_the_engine_declares(
    name: str, seed: int
) -> None:
    play_and_check(ALL[name], seed)


def test_random_play_reaches_the_events_of_every_game() -> None:
    """The random games above see the events that matter, not only the first view."""
    for name, engine in ALL.items():
        assert sum(play_and_check(engine, seed) for seed in range(4)) > 0, name


def test_an_undeclared_key_or_a_wrong_type_fails() -> None:
    @closed
    class Small(TypedDict):
        n: int

    check(Small, {"n": 1})
    with pytest.raises(ValidationError, match="extra_forbidden"):
        check(Small, {"n": 1, "more": 2})
    with pytest.raises(ValidationError):
        check(Small, {"n": "1"})
    view = ALL["pairs"].view(ALL["pairs"].new_game(ALL["pairs"].parse_params({}), 5), None)
    with pytest.raises(ValidationError, match="extra_forbidden"):
        check(ALL["pairs"].view_type, {**view, "solution": []})
    with pytest.raises(ValidationError):
        check(ALL["pairs"].view_type, {**view, "size": "huge"})
