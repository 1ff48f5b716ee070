"""WebSocket frames (server → client) and hub messages."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    Field,
    TypeAdapter,
)

from app.models import GameStatus
from app.wire.answers import (
    ErrorInfo,
    Event,
    LoadedGame,
    LogEntry,
    MoveResult,
    Outcome,
    Rematch,
    SeatHolder,
    SeatPresence,
    Snapshot,
    View,
)
from app.wire.arenas import ArenaChanged, ArenaPaired

# --- WebSocket frames (server → client) and hub messages ----------------------------------


class StateFrame(LoadedGame):
    type: Literal["state"] = "state"
    missed: list[LogEntry] = Field(
        default_factory=list,
        description="the moves after the client's `since` version; empty when they would "
        "not fit in one frame (at most 256 KB): the state alone is complete",
    )


class MoveFrame(BaseModel):
    type: Literal["move"] = "move"
    from_version: int
    version: int
    view: View
    events: list[Event]
    status: GameStatus
    outcome: Outcome | None
    server_ms: int


class CommittedStep(BaseModel):
    """What a commit wrote to a game that is still active after it: its log entries and
    the row's new times. A process that keeps the game in memory (app/live.py) replays
    the entries on its copy instead of reading the row back at its player's next move."""

    entries: list[LogEntry]
    updated_ms: int
    deadline_ms: int | None

    @classmethod
    def of(
        cls, entries: list[dict[str, Any]], updated_ms: int, deadline_ms: int | None
    ) -> CommittedStep:
        """From the log rows just written: no validation needed (model_construct)."""
        logged = [
            LogEntry.model_construct(ply=e["ply"], seat=e["seat"], move=e["move"], at_ms=e["at_ms"])
            for e in entries
        ]
        return cls.model_construct(entries=logged, updated_ms=updated_ms, deadline_ms=deadline_ms)


class HubMove(BaseModel):
    """A committed move as published to every process: its move frame, already encoded,
    for the public view and for each seat whose view differs (a process picks the one for
    each of its sockets). Each view is encoded once, where the move was played; the other
    processes forward the text as it came."""

    type: Literal["move"] = "move"
    from_version: int
    version: int
    frames: dict[str, str] = Field(description="view key (`public`, `0`, `1`…) -> move frame JSON")
    step: CommittedStep | None = Field(
        default=None, description="the commit, while the game goes on (None once it is over)"
    )

    @classmethod
    def of(
        cls,
        from_version: int,
        version: int,
        views: dict[str, View],
        events: list[Event],
        status: GameStatus,
        outcome: Outcome | None,
        server_ms: int,
        step: CommittedStep | None = None,
    ) -> HubMove:
        """Built from the server's own values: no validation needed (model_construct)."""
        frames = {
            key: MoveFrame.model_construct(
                from_version=from_version,
                version=version,
                view=view,
                events=events,
                status=status,
                outcome=outcome,
                server_ms=server_ms,
            ).model_dump_json()
            for key, view in views.items()
        }
        return cls.model_construct(
            from_version=from_version, version=version, frames=frames, step=step
        )

    def frame(self, view_key: str) -> str:
        """The move frame for a socket holding the view ``view_key``."""
        return self.frames.get(view_key) or self.frames["public"]


class PresenceFrame(BaseModel):
    type: Literal["presence"] = "presence"
    presence: list[SeatPresence]


class JoinedFrame(BaseModel):
    type: Literal["joined"] = "joined"
    version: int
    players: list[SeatHolder]


class RematchFrame(BaseModel):
    type: Literal["rematch"] = "rematch"
    rematch: Rematch


class CancelledFrame(BaseModel):
    type: Literal["cancelled"] = "cancelled"
    version: int


class SeekPairedFrame(BaseModel):
    """Hub message on a seek's channel: the seek became this game (committed)."""

    type: Literal["seek_paired"] = "seek_paired"
    seek_id: str
    game_id: str


class ResultFrame(BaseModel):
    """A move's answer to its mover's socket: ``result`` is what ``POST /moves`` answers
    (the mover's view, the events of the move and of the computer's replies), ``id`` the
    move message's, ``from_version`` the version it was played on. The move's own ``move``
    frame is not sent to that socket: the result stands for it."""

    type: Literal["result"] = "result"
    id: str | int | None
    from_version: int
    result: MoveResult


class PongFrame(BaseModel):
    type: Literal["pong"] = "pong"


class ErrorFrame(BaseModel):
    """A refusal of a client's message: the REST error body, with the message's ``id``
    and the status REST would have given."""

    type: Literal["error"] = "error"
    id: str | int | None = None
    status: int
    error: ErrorInfo
    current: Snapshot | None = None


HubMessage = (
    HubMove
    | PresenceFrame
    | JoinedFrame
    | RematchFrame
    | CancelledFrame
    | SeekPairedFrame
    | ArenaChanged
    | ArenaPaired
)
HUB_MESSAGE: TypeAdapter[HubMessage] = TypeAdapter(
    Annotated[HubMessage, Field(discriminator="type")]
)

# Every frame a game's socket sends (the OpenAPI document publishes it as ``ServerFrame``).
AnyServerFrame = (
    StateFrame
    | MoveFrame
    | ResultFrame
    | ErrorFrame
    | PresenceFrame
    | JoinedFrame
    | RematchFrame
    | CancelledFrame
    | PongFrame
)
ServerFrame = Annotated[AnyServerFrame, Field(discriminator="type")]
SERVER_FRAME: TypeAdapter[AnyServerFrame] = TypeAdapter(ServerFrame)
