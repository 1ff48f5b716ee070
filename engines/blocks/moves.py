"""The five moves of a blocks game, declared (their strict JSON codec comes from these,
``engines.core.codec``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Literal

from pydantic import StrictInt

from engines.core.codec import Code
from engines.core.errors import ErrorCode

Piece = Annotated[StrictInt, Code("bad_piece")]
"""A piece of the hand, by its index."""
At = Annotated[StrictInt, Code(ErrorCode.BAD_CELL)]
"""A row or a column of the grid."""


@dataclass(frozen=True)
class Place:
    """Put cell offset ``[0, 0]`` of hand piece ``piece`` at ``[row, col]``."""

    type: Literal["place"] = field(default="place", init=False)
    piece: Piece
    row: At
    col: At


@dataclass(frozen=True)
class Rotate:
    """Turn hand piece ``piece`` 90° clockwise (gravity8 with rotation)."""

    type: Literal["rotate"] = field(default="rotate", init=False)
    piece: Piece


@dataclass(frozen=True)
class NewSet:
    """Spend a "New set" token: discard the hand and deal three new pieces (classic10)."""

    type: Literal["new_set"] = field(default="new_set", init=False)


@dataclass(frozen=True)
class Continue:
    """Empty up to four fullest rows after the game ended (shapes48, once per game)."""

    type: Literal["continue"] = field(default="continue", init=False)


@dataclass(frozen=True)
class Finish:
    """End the game now."""

    type: Literal["finish"] = field(default="finish", init=False)


Move = Place | Rotate | NewSet | Continue | Finish
