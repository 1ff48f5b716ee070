"""REST answers of a finished or running game read again: its replay and its review."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from app.wire.answers import Event, SeatHolder, View


class ReplayStep(BaseModel):
    """One ply of a replay's timeline: who moved what when, what it produced, and the
    scores after it (the public view's ``scores``, or its ``score`` as a list of one)."""

    ply: int
    seat: int | None
    move: dict[str, Any] | None
    at_ms: int
    events: list[Event]
    scores: list[int]


class Replay(BaseModel):
    id: str
    game: str
    number: str
    params: dict[str, Any]
    ply: int = Field(description="the ply shown: 0 is the start")
    plies: int = Field(description="moves (log entries) so far")
    seat: int | None = Field(description="the seat this view is for; null for spectators")
    view: View
    players: list[SeatHolder] = Field(
        description="who holds each seat (their names, no ratings), to name the seats"
    )
    events: list[Event] = Field(description="what the move at `ply` produced; none at ply 0")
    timeline: list[ReplayStep] | None = Field(
        default=None, description="every ply's step, when asked for with `timeline=true`"
    )


class ReviewCounts(BaseModel):
    best: int
    good: int
    inaccuracy: int
    mistake: int
    blunder: int


class ReviewPly(BaseModel):
    ply: int = Field(description="the ply of the move (as in the replay's timeline)")
    seat: int
    played: dict[str, Any] = Field(description="the move played (Triangles: `{a, b}`)")
    best: dict[str, Any] = Field(description="the best move (the played one when it was)")
    loss: float = Field(description="what the move gave away against the best one, in points")
    verdict: Literal["best", "good", "inaccuracy", "mistake", "blunder"]
    exact: bool = Field(description="valued by the exact solver, not estimated")
    quiet: bool = Field(
        default=False,
        description="no choice could lose anything here (Triangles: a safe line among many, "
        "nothing to take): left out of the accuracy",
    )


class ReviewSeat(BaseModel):
    seat: int
    accuracy: float | None = Field(
        description="percent, over the judged lines; null for a seat with none judged"
    )
    judged: int | None = Field(
        default=None,
        description="the seat's lines the accuracy counts (every one but the quiet ones); "
        "absent from reviews stored before it was counted",
    )
    counts: ReviewCounts


class GameReview(BaseModel):
    status: Literal["none", "pending", "done"] = Field(
        description="none: nobody asked for it (or the ask was lost with a restart: POST)"
    )
    plies: list[ReviewPly] | None = Field(default=None, description="once done")
    summary: list[ReviewSeat] | None = Field(default=None, description="once done")
