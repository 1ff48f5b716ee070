"""Request bodies. Strict types: a string is not a number here."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateGame(Strict):
    game: StrictStr = Field(max_length=24)
    params: dict[str, Any] | None = None
    number: StrictStr | None = Field(default=None, max_length=40)
    daily: StrictStr | None = Field(
        default=None, max_length=10, description="local date YYYY-MM-DD"
    )
    public: StrictBool = False


class MoveRequest(Strict):
    version: StrictInt = Field(ge=0)
    move: dict[str, Any]


class NameRequest(Strict):
    name: StrictStr = Field(max_length=200)


class RematchRequest(Strict):
    action: Literal["offer", "accept", "decline"]
