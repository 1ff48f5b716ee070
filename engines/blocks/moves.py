"""The five moves of a blocks game and their strict JSON codec."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.core.errors import ErrorCode
from engines.core.protocol import BadMove


@dataclass(frozen=True)
class Place:
    """Put cell offset ``[0, 0]`` of hand piece ``piece`` at ``[row, col]``."""

    piece: int
    row: int
    col: int


@dataclass(frozen=True)
class Rotate:
    """Turn hand piece ``piece`` 90° clockwise (gravity8 with rotation)."""

    piece: int


@dataclass(frozen=True)
class NewSet:
    """Spend a "New set" token: discard the hand and deal three new pieces (classic10)."""


@dataclass(frozen=True)
class Continue:
    """Empty up to four fullest rows after the game ended (shapes48, once per game)."""


@dataclass(frozen=True)
class Finish:
    """End the game now."""


Move = Place | Rotate | NewSet | Continue | Finish

MOVE_TYPES = ("place", "rotate", "new_set", "continue", "finish")


def _int(raw: Mapping[str, Any], key: str, *, code: str) -> int:
    value = raw.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadMove(code, f"{key} must be an integer, not {value!r:.40}")
    return value


def parse_move(raw: Mapping[str, Any]) -> Move:
    if not isinstance(raw, Mapping):
        raise BadMove(ErrorCode.BAD_MOVE, "a move is a JSON object")
    kind = raw.get("type")
    if kind == "place":
        return Place(
            _int(raw, "piece", code="bad_piece"),
            _int(raw, "row", code=ErrorCode.BAD_CELL),
            _int(raw, "col", code=ErrorCode.BAD_CELL),
        )
    if kind == "rotate":
        return Rotate(_int(raw, "piece", code="bad_piece"))
    if kind == "new_set":
        return NewSet()
    if kind == "continue":
        return Continue()
    if kind == "finish":
        return Finish()
    raise BadMove(
        ErrorCode.UNKNOWN_MOVE, f"type is one of {', '.join(MOVE_TYPES)}, not {kind!r:.40}"
    )


def dump_move(move: Move) -> dict[str, Any]:
    if isinstance(move, Place):
        return {"type": "place", "piece": move.piece, "row": move.row, "col": move.col}
    if isinstance(move, Rotate):
        return {"type": "rotate", "piece": move.piece}
    if isinstance(move, NewSet):
        return {"type": "new_set"}
    if isinstance(move, Continue):
        return {"type": "continue"}
    return {"type": "finish"}
