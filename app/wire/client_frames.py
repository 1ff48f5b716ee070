"""WebSocket frames a client sends (client → server), validated in one step into one of
these models by their ``type`` (the ``ClientFrame`` union, published in the OpenAPI
document); the server's frames are in ``app/wire/frames.py``."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

from app.wire.requests import JsonInt


class ClientMessage(BaseModel):
    model_config = ConfigDict(extra="ignore")

    id: str | int | None = Field(
        default=None, description="given back in the answer (`result`, `error`) to this frame"
    )

    @field_validator("id", mode="before")
    @classmethod
    def no_id_but_a_name_or_number(cls, given: Any) -> Any:
        """An id that is neither (a list, an object) is none: the frame is still read."""
        return given if isinstance(given, str | int) and not isinstance(given, bool) else None


class MoveMessage(ClientMessage):
    """A move against the version the client holds (answered by ``result`` or ``error``)."""

    type: Literal["move"]
    version: JsonInt
    move: dict[str, Any]


class SyncMessage(ClientMessage):
    """Ask for a fresh state; with ``version``, also the moves played since it."""

    type: Literal["sync"]
    version: Any = None  # a version the client holds; anything but an integer: none

    def since(self) -> int | None:
        given = self.version
        return given if isinstance(given, int) and not isinstance(given, bool) else None


class PingMessage(ClientMessage):
    type: Literal["ping"]


AnyClientFrame = MoveMessage | SyncMessage | PingMessage
ClientFrame = Annotated[AnyClientFrame, Field(discriminator="type")]
CLIENT_FRAME: TypeAdapter[AnyClientFrame] = TypeAdapter(ClientFrame)
KNOWN_TYPES = "move, sync, ping"
