"""Request bodies: strict, so a string is not a number here."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateGame(Strict):
    game: StrictStr = Field(max_length=24)
    params: dict[str, Any] | None = None
    number: StrictStr | None = Field(default=None, max_length=40)
    daily: StrictStr | None = Field(
        default=None, max_length=10, description="the player's local date, YYYY-MM-DD"
    )
    public: StrictBool = False


class MoveRequest(Strict):
    version: StrictInt = Field(ge=0)
    move: dict[str, Any]


class NameRequest(Strict):
    name: StrictStr = Field(max_length=200)


class RematchRequest(Strict):
    action: Literal["offer", "accept", "decline"]


VERIFY_PLIES = 5000  # log entries a verification replays at most


class VerifyEntry(Strict):
    """One entry of a submitted log, exactly as ``GET /api/games/{id}/log`` lists them
    (its ``ply`` is accepted and ignored: the position in the list is the ply)."""

    ply: StrictInt | None = None
    seat: StrictInt | None = Field(default=0, ge=0, le=7)
    move: dict[str, Any] | None = Field(description="null for a clock tick")
    at_ms: StrictInt = Field(default=0, ge=0, le=2**53)


class VerifyRequest(Strict):
    game: StrictStr = Field(max_length=24)
    number: StrictStr = Field(max_length=40)
    params: dict[str, Any] | None = Field(
        default=None,
        description="what the number leaves open (a mode, an opponent), as in a new game",
    )
    log: list[VerifyEntry] = Field(max_length=VERIFY_PLIES)


class ClaimRequest(Strict):
    code: StrictStr = Field(max_length=32)
    endpoint: StrictStr | None = Field(
        default=None,
        max_length=1024,
        description="this browser's push endpoint, if it has one: its subscription for "
        "the player it was is dropped (it may subscribe again as the player it becomes)",
    )


class SeekRequest(Strict):
    """Quick pairing: a seek for an online Triangles game with this time control."""

    clock: StrictStr = Field(max_length=12, description="a time control of the catalog")
    rated: StrictBool = False


class PushKeys(Strict):
    """The browser's keys of a push subscription (``PushSubscription.toJSON().keys``):
    its P-256 public key (65 bytes, uncompressed) and its 16-byte auth secret, base64url."""

    p256dh: StrictStr = Field(min_length=86, max_length=88, pattern=r"^[A-Za-z0-9_-]+=*$")
    auth: StrictStr = Field(min_length=22, max_length=24, pattern=r"^[A-Za-z0-9_-]+=*$")


class PushSubscribe(Strict):
    """``POST /api/me/push``: where this browser's push service takes notices, and which
    kinds the player wants on it."""

    endpoint: StrictStr = Field(max_length=1024)
    keys: PushKeys
    kinds: list[Literal["your_turn", "joined", "rematch"]] = Field(min_length=1, max_length=3)


class PushUnsubscribe(Strict):
    endpoint: StrictStr = Field(max_length=1024)
