"""WebSocket frames a client sends (client → server), validated in one step into one of
these models by their ``type``; the server's answers are in ``app/wire/frames.py``."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from app.wire.requests import JsonInt


class ClientFrame(BaseModel):
    model_config = ConfigDict(extra="ignore")


class MoveMessage(ClientFrame):
    """A move against the version the client holds (answered by ``ack`` or ``error``)."""

    type: Literal["move"]
    version: JsonInt
    move: dict[str, Any]


class SyncMessage(ClientFrame):
    """Ask for a fresh state; with ``version``, also the moves played since it."""

    type: Literal["sync"]
    version: Any = None  # a version the client holds; anything but an integer: none

    def since(self) -> int | None:
        given = self.version
        return given if isinstance(given, int) and not isinstance(given, bool) else None


class PingMessage(ClientFrame):
    type: Literal["ping"]


CLIENT_FRAME: TypeAdapter[MoveMessage | SyncMessage | PingMessage] = TypeAdapter(
    Annotated[MoveMessage | SyncMessage | PingMessage, Field(discriminator="type")]
)
KNOWN_TYPES = "move, sync, ping"
