"""Request bodies: strict, so a string is not a number here."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictBool, StrictStr
from pydantic import Strict as StrictMode
from pydantic.config import JsonDict


def _whole_number(value: Any) -> Any:
    """JSON has one kind of number: 3.0 is the integer 3 to JSON Schema, and so to the
    OpenAPI document's ``integer``; it is one here too. 3.5, "3" and true stay refused."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


JsonInt = Annotated[int, BeforeValidator(_whole_number), StrictMode()]

NAME_MAX = 24
# A display name: spaces around it are dropped; inside, any character but the invisible
# and unprintable ones (controls, format characters such as bidi overrides and
# zero-width joiners, other spaces, surrogates, private use, non-characters, tags) and
# at least one that is not a space. The OpenAPI document publishes it (NameRequest).
# Beyond the first plane every character passes: emoji, and the tags of flag emoji. (A
# lone surrogate, which JSON can spell and no database stores, never reaches the rule:
# the body's parser refuses it.)
_UNPRINTABLE = (
    r"\x00-\x1f\x7f-\xa0\xad\u0600-\u0605\u061c\u06dd\u070f\u1680\u180e"
    r"\u2000-\u200f\u2028-\u202f\u205f-\u2064\u2066-\u206f\u3000\ue000-\uf8ff"
    r"\ufdd0-\ufdef\ufeff\ufff9-\ufffb\ufffe\uffff"
)
NAME_PATTERN = f"^[^{_UNPRINTABLE}]*[^{_UNPRINTABLE} ][^{_UNPRINTABLE}]*$"


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# The forms the server reads (engines/core/numbers.py, app/clock.py), published in the
# schema; the server still answers a malformed one with its own code (bad_number, bad_date).
NUMBER_FORM: JsonDict = {"pattern": "^[0-9]{8}-[a-z]+$"}
DATE_FORM: JsonDict = {"pattern": "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$"}


class CreateGame(Strict):
    game: StrictStr = Field(max_length=24)
    params: dict[str, Any] | None = None
    number: StrictStr | None = Field(default=None, max_length=40, json_schema_extra=NUMBER_FORM)
    daily: StrictStr | None = Field(
        default=None,
        max_length=10,
        description="the player's local date, YYYY-MM-DD",
        json_schema_extra=DATE_FORM,
    )
    public: StrictBool = False


class MoveRequest(Strict):
    version: JsonInt = Field(ge=0)
    move: dict[str, Any]


class NameRequest(Strict):
    # The server checks the name itself (app/reads.py: 422 bad_name, not invalid_request).
    name: StrictStr = Field(
        max_length=200,
        json_schema_extra={"maxLength": NAME_MAX, "minLength": 1, "pattern": NAME_PATTERN},
    )


class RematchRequest(Strict):
    action: Literal["offer", "accept", "decline"]


VERIFY_PLIES = 5000  # log entries a verification replays at most


class VerifyEntry(Strict):
    """One entry of a submitted log, exactly as ``GET /api/games/{id}/log`` lists them
    (its ``ply`` is accepted and ignored: the position in the list is the ply)."""

    ply: JsonInt | None = None
    # (bounds before the whole-number step: after it, the schema would not show them)
    seat: Annotated[int, StrictMode(), Field(ge=0, le=7), BeforeValidator(_whole_number)] | None = 0
    move: dict[str, Any] | None = Field(description="null for a clock tick")
    at_ms: JsonInt = Field(default=0, ge=0, le=2**53)


class VerifyRequest(Strict):
    game: StrictStr = Field(max_length=24)
    number: StrictStr = Field(max_length=40, json_schema_extra=NUMBER_FORM)
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
    """Quick pairing: a seek for an online game of ``game`` with this time control. The
    OpenAPI document names each game that offers online play with its time controls
    (app/wire/seek_schema.py: the games the server serves)."""

    game: StrictStr = Field(max_length=24, description="a game of the catalog with `online_play`")
    clock: StrictStr = Field(max_length=12, description="one of that game's time controls")
    rated: StrictBool = False


class PushKeys(Strict):
    """The browser's keys of a push subscription (``PushSubscription.toJSON().keys``):
    its P-256 public key (65 bytes, uncompressed) and its 16-byte auth secret, base64url."""

    p256dh: StrictStr = Field(min_length=86, max_length=88, pattern=r"^[A-Za-z0-9_-]+=*$")
    auth: StrictStr = Field(min_length=22, max_length=24, pattern=r"^[A-Za-z0-9_-]+=*$")


# What a push service's endpoint looks like (the server checks more: app/push/endpoints.py).
ENDPOINT_PATTERN = (
    r"^https://([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.)+[a-z_]([a-z0-9_-]{0,61}[a-z0-9_])?"
    r"(:443)?(/[\x21-\x7e]*)?$"
)


class PushSubscribe(Strict):
    """``POST /api/me/push``: where this browser's push service takes notices, and which
    kinds the player wants on it."""

    endpoint: StrictStr = Field(
        max_length=1024,
        description="an https URL of a public push service, as the browser gave it",
        json_schema_extra={"pattern": ENDPOINT_PATTERN},
    )
    keys: PushKeys
    kinds: list[Literal["your_turn", "joined", "rematch", "arena"]] = Field(
        min_length=1, max_length=4
    )


class PushUnsubscribe(Strict):
    endpoint: StrictStr = Field(max_length=1024)
