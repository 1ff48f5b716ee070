"""Moves, declared (their JSON codec comes from these, ``engines.core.codec``): draw a line
between two stars, resign, claim the win from an absent player, or berserk (halve one's
own clock before one's first line, in a game that allows it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Literal

from pydantic import StrictInt

from engines.core.codec import Code

Star = Annotated[StrictInt, Code("bad_star")]
"""A star's index in the field."""


@dataclass(frozen=True)
class Line:
    """Draw the line from star ``a`` to star ``b``."""

    type: Literal["line"] = field(default="line", init=False)
    a: Star
    b: Star


@dataclass(frozen=True)
class Resign:
    type: Literal["resign"] = field(default="resign", init=False)


@dataclass(frozen=True)
class Claim:
    """Claim the win: the opponent has been away long enough (``claim_after_ms``)."""

    type: Literal["claim"] = field(default="claim", init=False)


@dataclass(frozen=True)
class Berserk:
    """Halve one's own time and give up the increment for the game (``params.berserk``
    only, before the seat's first line; may be played out of turn)."""

    type: Literal["berserk"] = field(default="berserk", init=False)


Move = Line | Resign | Claim | Berserk
