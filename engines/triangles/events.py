"""What Triangles tells the browser to animate: one TypedDict per event,
``TrianglesEvent`` their union (the engine's ``event_type``; the OpenAPI document's
``TrianglesEvent``)."""

from __future__ import annotations

from typing import Literal

from typing_extensions import TypedDict

from engines.core.protocol import closed

TrianglesResult = Literal["no_triangles", "resigned", "claimed", "time", "aborted"]
"""Why a game of Triangles ended (``time``: a clock ran out; ``aborted``: a seat drew no
first line in time)."""


@closed
class TrianglesLine(TypedDict):
    """``seat`` drew the line from star ``a`` to star ``b`` (``a < b``)."""

    type: Literal["line"]
    a: int
    b: int
    seat: int


@closed
class TrianglesTriangle(TypedDict):
    """The line closed the scoring triangle ``a, b, c``: ``scores`` after it."""

    type: Literal["triangle"]
    a: int
    b: int
    c: int
    seat: int
    scores: list[int]


@closed
class TrianglesTurn(TypedDict):
    """``seat`` is to move (``again``: the same seat, after closing a triangle)."""

    type: Literal["turn"]
    seat: int
    again: bool


@closed
class TrianglesOver(TypedDict):
    type: Literal["over"]
    reason: TrianglesResult
    winner: int | None
    scores: list[int]


@closed
class TrianglesBerserk(TypedDict):
    """``seat`` went berserk: its time left is halved, and it gets no increment."""

    type: Literal["berserk"]
    seat: int


TrianglesEvent = (
    TrianglesLine | TrianglesTriangle | TrianglesTurn | TrianglesOver | TrianglesBerserk
)
