"""What Blocks tells the browser to animate: one TypedDict per event, ``BlocksEvent``
their union (the engine's ``event_type``; the OpenAPI document's ``BlocksEvent``), and
``BlocksPiece``, a piece as events and the view show it."""

from __future__ import annotations

from typing import Literal, NotRequired

from typing_extensions import TypedDict

from engines.core.protocol import closed

BlocksReason = Literal["stuck", "finished", "time_up"]
"""Why a game of Blocks ended: nothing fits, the player finished, Chrono's time is up."""


@closed
class BlocksPiece(TypedDict):
    """A piece: its shape's name, its colour ``kind`` and its ``[row, col]`` cells."""

    name: str
    kind: int
    cells: list[list[int]]


@closed
class BlocksPlaced(TypedDict):
    type: Literal["placed"]
    piece: int
    row: int
    col: int
    kind: int
    cells: list[list[int]]
    points: int


@closed
class BlocksCleared(TypedDict):
    type: Literal["cleared"]
    rows: list[int]
    cols: list[int]
    cells: list[list[int]]
    points: int
    combo: int


@closed
class BlocksGridCleared(TypedDict):
    """The grid is empty: ``bonus`` points, and (classic10) the New sets now held."""

    type: Literal["grid_cleared"]
    bonus: int
    tokens: NotRequired[int]


@closed
class BlocksGravity(TypedDict):
    """gravity8: rows fell, each ``[from_row, to_row]``."""

    type: Literal["gravity"]
    moves: list[list[int]]


@closed
class BlocksDealt(TypedDict):
    """A new set of three (``refill``: Zen dealt it because nothing fitted)."""

    type: Literal["dealt"]
    hand: list[BlocksPiece | None]
    refill: NotRequired[bool]


@closed
class BlocksRotated(TypedDict):
    type: Literal["rotated"]
    piece: int
    name: str
    kind: int
    cells: list[list[int]]


@closed
class BlocksNewSet(TypedDict):
    type: Literal["new_set"]
    tokens: int


@closed
class BlocksStuck(TypedDict):
    """classic10: nothing fits, a New set is left."""

    type: Literal["stuck"]
    tokens: int


@closed
class BlocksContinued(TypedDict):
    type: Literal["continued"]
    rows: list[int]
    cells: list[list[int]]


@closed
class BlocksZenClearedRow(TypedDict):
    type: Literal["zen_cleared_row"]
    row: int
    cells: list[list[int]]


@closed
class BlocksOver(TypedDict):
    type: Literal["over"]
    reason: BlocksReason


BlocksEvent = (
    BlocksPlaced
    | BlocksCleared
    | BlocksGridCleared
    | BlocksGravity
    | BlocksDealt
    | BlocksRotated
    | BlocksNewSet
    | BlocksStuck
    | BlocksContinued
    | BlocksZenClearedRow
    | BlocksOver
)
