"""Moves: draw a line between two stars, resign, or claim the win from an absent player."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.core.errors import ErrorCode
from engines.core.protocol import BadMove


@dataclass(frozen=True)
class Line:
    a: int
    b: int


@dataclass(frozen=True)
class Resign:
    pass


@dataclass(frozen=True)
class Claim:
    pass


Move = Line | Resign | Claim


def parse_move(raw: Mapping[str, Any]) -> Move:
    if not isinstance(raw, Mapping):
        raise BadMove(ErrorCode.BAD_MOVE, "a move must be a JSON object")
    kind = raw.get("type")
    if kind == "line":
        ends = []
        for key in ("a", "b"):
            value = raw.get(key)
            if isinstance(value, bool) or not isinstance(value, int):
                raise BadMove("bad_star", f"a line needs integer star indexes a and b ({key}?)")
            ends.append(value)
        return Line(ends[0], ends[1])
    if kind == "resign":
        return Resign()
    if kind == "claim":
        return Claim()
    raise BadMove(ErrorCode.UNKNOWN_MOVE, "a Triangles move has type line, resign or claim")


def dump_move(move: Move) -> dict[str, Any]:
    if isinstance(move, Line):
        return {"type": "line", "a": move.a, "b": move.b}
    if isinstance(move, Resign):
        return {"type": "resign"}
    return {"type": "claim"}
