"""Replay: fold a move log over a new game to rebuild its state (scalachess's Replay)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from engines.core.protocol import Engine

P = TypeVar("P")
S = TypeVar("S")
M = TypeVar("M")


def replay(
    engine: Engine[P, S, M],
    params: P,
    seed: int,
    log: Iterable[Mapping[str, Any]],
) -> S:
    """Rebuild a state from params, seed and log entries ``{"move", "at_ms", "seat"}``.

    Entries with ``"move": None`` are clock ticks (``engine.tick`` at that ``at_ms``).
    Raises the engine's error if the log contains a move the rules refuse.
    """
    state = engine.new_game(params, seed)
    for entry in log:
        at_ms = int(entry["at_ms"])
        move = entry.get("move")
        state, _ = engine.tick(state, at_ms)
        if move is not None:
            seat = int(entry.get("seat", 0))
            state, _ = engine.apply(state, engine.parse_move(move), at_ms, seat)
    return state
