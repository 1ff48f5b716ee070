"""The moves of Pairs, declared (their JSON codec comes from these, ``engines.core.codec``).

``{"type":"pair","a":[r,c],"b":[r,c]}``, ``{"type":"hint"}``, ``{"type":"shuffle"}``,
``{"type":"pause"}``, ``{"type":"resume"}``. Parsing checks the shape only; whether the
cells are on the board is for the rules (they know the board).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Literal

from pydantic import StrictInt

from engines.core.codec import Code
from engines.core.errors import ErrorCode

Cell = Annotated[tuple[StrictInt, StrictInt], Code(ErrorCode.BAD_CELL)]
"""A cell ``[row, col]`` (a point of ``engines.pairs.grid``)."""


@dataclass(frozen=True)
class Pair:
    """Remove the tiles at ``a`` and ``b``."""

    type: Literal["pair"] = field(default="pair", init=False)
    a: Cell
    b: Cell


@dataclass(frozen=True)
class Hint:
    """Show a removable pair (costs points)."""

    type: Literal["hint"] = field(default="hint", init=False)


@dataclass(frozen=True)
class Shuffle:
    """Shuffle the remaining tiles (costs points)."""

    type: Literal["shuffle"] = field(default="shuffle", init=False)


@dataclass(frozen=True)
class Pause:
    """Stop the clock."""

    type: Literal["pause"] = field(default="pause", init=False)


@dataclass(frozen=True)
class Resume:
    """Start the clock again."""

    type: Literal["resume"] = field(default="resume", init=False)


Move = Pair | Hint | Shuffle | Pause | Resume
