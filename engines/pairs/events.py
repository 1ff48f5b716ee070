"""What Pairs tells the browser to animate: one TypedDict per event, ``PairsEvent`` their
union (the engine's ``event_type``; the OpenAPI document's ``PairsEvent``)."""

from __future__ import annotations

from typing import Literal

from typing_extensions import TypedDict

from engines.core.protocol import closed

PairsReason = Literal["cleared", "time_up"]
"""Why a game of Pairs ended: the board is empty, or the timed mode's clock ran out."""


@closed
class PairsHint(TypedDict):
    """The pair a hint named (the view's ``hint``, while the board is unchanged)."""

    a: list[int]
    b: list[int]
    path: list[list[int]]


@closed
class PairsRemoved(TypedDict):
    """A pair left the board along ``path`` (cells, the ring around the board included)."""

    type: Literal["removed"]
    a: list[int]
    b: list[int]
    picture: int
    path: list[list[int]]
    points: int
    streak: int


@closed
class PairsShuffled(TypedDict):
    """The tiles were dealt again: by the player (``points`` < 0) or because no pair was
    left (``auto``, free)."""

    type: Literal["shuffled"]
    auto: bool
    points: int


@closed
class PairsHintEvent(TypedDict):
    """A paid hint named the pair ``a``, ``b`` and its path."""

    type: Literal["hint"]
    a: list[int]
    b: list[int]
    path: list[list[int]]
    points: int


@closed
class PairsPaused(TypedDict):
    type: Literal["paused"]


@closed
class PairsResumed(TypedDict):
    type: Literal["resumed"]


@closed
class PairsOver(TypedDict):
    """The game ended (``bonus``: the timed mode's clear bonus, in ``score``)."""

    type: Literal["over"]
    reason: PairsReason | None
    score: int
    time_ms: int
    bonus: int


PairsEvent = PairsRemoved | PairsShuffled | PairsHintEvent | PairsPaused | PairsResumed | PairsOver
