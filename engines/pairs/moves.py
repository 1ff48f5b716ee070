"""Moves of Pairs and their JSON codec.

``{"type":"pair","a":[r,c],"b":[r,c]}``, ``{"type":"hint"}``, ``{"type":"shuffle"}``,
``{"type":"pause"}``, ``{"type":"resume"}``. Parsing checks the shape only; whether the
cells are on the board is for the rules (they know the board).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from engines.core.errors import ErrorCode
from engines.core.protocol import BadMove
from engines.pairs.grid import Point

MoveKind = Literal["pair", "hint", "shuffle", "pause", "resume"]
SIMPLE_KINDS: tuple[MoveKind, ...] = ("hint", "shuffle", "pause", "resume")


@dataclass(frozen=True)
class Move:
    kind: MoveKind
    a: Point | None = None  # set for "pair" only
    b: Point | None = None


def parse_move(raw: Mapping[str, Any]) -> Move:
    if not isinstance(raw, Mapping):
        raise BadMove(ErrorCode.BAD_MOVE, "a move must be a JSON object with a type")
    kind = raw.get("type")
    if kind == "pair":
        return Move("pair", _parse_cell(raw, "a"), _parse_cell(raw, "b"))
    for simple in SIMPLE_KINDS:
        if kind == simple:
            return Move(simple)
    raise BadMove(
        ErrorCode.UNKNOWN_MOVE,
        f"move type must be one of pair, {', '.join(SIMPLE_KINDS)}; got {repr(kind)[:40]}",
    )


def dump_move(move: Move) -> dict[str, Any]:
    if move.kind == "pair":
        assert move.a is not None and move.b is not None
        return {"type": "pair", "a": list(move.a), "b": list(move.b)}
    return {"type": move.kind}


def _parse_cell(raw: Mapping[str, Any], key: str) -> Point:
    value = raw.get(key)
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return (value[0], value[1])
    raise BadMove(ErrorCode.BAD_CELL, f"{key!r} must be a cell [row, col] of two integers")
