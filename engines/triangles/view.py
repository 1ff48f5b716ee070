"""What the browser gets of a game of Triangles, declared: ``TrianglesView`` (the
engine's ``view_type``, built by ``TrianglesEngine.view``) and its clocks. Nothing in
Triangles is hidden: every seat and every spectator gets the same view."""

from __future__ import annotations

from typing import Literal

from typing_extensions import TypedDict

from engines.core.protocol import ViewBase, closed
from engines.triangles.events import TrianglesResult

TrianglesField = Literal["phone", "tablet"]
TrianglesOpponent = Literal["human", "easy", "medium", "hard", "online"]
TrianglesKind = Literal["computer", "human", "online"]


@closed
class TrianglesClock(TypedDict):
    """The clocks as of ``since_ms`` (docs/wire.md: Triangles' ``view.clock``)."""

    control: str
    initial_ms: int
    increment_ms: int
    per_move: bool
    left_ms: list[int]
    since_ms: int
    running: int | None
    deadline_ms: int | None
    lag_ms: int
    first_line_ms: int | None
    first_line_deadline_ms: int | None


@closed
class TrianglesView(ViewBase):
    stars: tuple[tuple[int, int], ...]
    """Each star's ``[x, y]`` on the field."""
    lines: tuple[tuple[int, int, int], ...]
    """Each line drawn, in order: ``[a, b, seat]``."""
    triangles: tuple[tuple[int, int, int, int], ...]
    """Each scoring triangle closed: ``[a, b, c, seat]``."""
    width: int
    height: int
    field: TrianglesField
    again: bool
    opponent: TrianglesOpponent
    kind: TrianglesKind
    computer_seat: int | None
    tolerance: int
    last: list[int] | None
    winner: int | None
    result: TrianglesResult | None
    turn_started_ms: int
    claim_after_ms: int | None
    remaining: int
    clock: TrianglesClock | None
    berserk: list[bool]
    """Per seat: it went berserk (halved its clock, no increment)."""
    berserk_allowed: bool
    """Either seat may go berserk before its first line (an arena game: params.berserk)."""
    berserk_open: list[bool]
    """Per seat: it may go berserk now (allowed, the game on, the seat has neither gone
    berserk nor drawn a line); the page shows its Berserk button from this alone."""
