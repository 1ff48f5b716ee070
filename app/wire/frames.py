"""WebSocket frames (server → client) and hub messages."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    Field,
    PrivateAttr,
    TypeAdapter,
)

from app.models import GameStatus
from app.wire.answers import (
    ErrorInfo,
    Event,
    LoadedGame,
    LogEntry,
    Outcome,
    Rematch,
    SeatHolder,
    SeatPresence,
    Snapshot,
    View,
)

# --- WebSocket frames (server → client) and hub messages ----------------------------------


class StateFrame(LoadedGame):
    type: Literal["state"] = "state"
    missed: list[LogEntry] = Field(
        default_factory=list, description="the moves after the client's `since` version"
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


class HubMove(BaseModel):
    """A committed move as published to every process: the public view and each seat's
    own view where it differs (a process picks the one for each of its sockets)."""

    type: Literal["move"] = "move"
    from_version: int
    version: int
    views: dict[str, View]
    events: list[Event]
    status: GameStatus
    outcome: Outcome | None
    server_ms: int

    _encoded: dict[str, str] = PrivateAttr(default_factory=dict)

    def encoded_frame(self, view_key: str) -> str:
        """The move frame of one view as JSON text. Every local socket is handed the same
        message object, so each view is encoded once per process, not once per socket."""
        key = view_key if view_key in self.views else "public"
        if key not in self._encoded:
            self._encoded[key] = MoveFrame.model_construct(
                from_version=self.from_version,
                version=self.version,
                view=self.views[key],
                events=self.events,
                status=self.status,
                outcome=self.outcome,
                server_ms=self.server_ms,
            ).model_dump_json()
        return self._encoded[key]


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


class AckFrame(BaseModel):
    type: Literal["ack"] = "ack"
    id: str | int | None
    version: int


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


HubMessage = HubMove | PresenceFrame | JoinedFrame | RematchFrame | CancelledFrame | SeekPairedFrame
HUB_MESSAGE: TypeAdapter[HubMessage] = TypeAdapter(
    Annotated[HubMessage, Field(discriminator="type")]
)
