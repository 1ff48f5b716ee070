"""One error vocabulary: every refusal has a stable code, and the code decides the HTTP
status, here and nowhere else. REST answers ``{"error": {"code", "message", "details"?}}``
(plus top-level extras such as ``current``); a socket sends the same body in an
``{"type": "error", "id", "status", ...}`` frame.

Engine errors keep their engine codes (``engines.core.errors``): the error's class gives
the status (BadParams 400, BadMove and IllegalMove 422) unless ``STATUS`` names the code.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from app.wire import ErrorResponse
from engines.core.protocol import BadParams, EngineError

STATUS: dict[str, int] = {
    # 400: the request cannot be read
    "bad_json": 400,
    "bad_params": 400,
    # 403: not this player's to do
    "not_seated": 403,
    "not_your_turn": 403,
    "not_owner": 403,
    "bad_origin": 403,
    "replay_forbidden": 403,
    "rated_needs_name": 403,  # rated play needs a named player (app.fair_play)
    "rated_needs_games": 403,  # ... who has finished a few games; details: finished, needed
    # 404: no such thing
    "not_found": 404,
    "unknown_game": 404,
    "game_not_found": 404,
    "no_daily": 404,
    "bad_code": 404,  # a device-transfer code that is wrong, used or expired
    "no_ratings": 404,
    "seek_not_found": 404,  # no such seek of this player (or it expired)
    "method_not_allowed": 405,
    # 409: the game is not in a state that allows it
    "stale_version": 409,
    "waiting_for_opponent": 409,
    "game_over": 409,
    "game_cancelled": 409,
    "no_free_seat": 409,
    "not_waiting": 409,
    "daily_played": 409,
    "opponent_present": 409,
    "no_rematch": 409,
    "not_over": 409,
    "no_offer": 409,
    "too_many_waiting": 409,
    "seek_paired": 409,  # details.game_id: the game the seek became
    "nothing_to_transfer": 409,  # a transfer code asked for by a browser with no player yet
    "too_large": 413,
    # 422: well-formed, but not acceptable
    "invalid_request": 422,
    "bad_message": 422,
    "unknown_type": 422,
    "bad_name": 422,
    "bad_date": 422,
    "bad_ply": 422,
    "illegal_log": 422,
    "bad_pool": 422,
    "rate_limited": 429,
    "busy": 429,
    "internal": 500,
    "database_unavailable": 503,
}
ANY_ROUTE = ("internal", "database_unavailable")  # any route may answer these
WRITE = ("bad_origin",)  # any POST, PUT or DELETE may answer this
ENGINE_PARAMS = "engine_params"  # stands for every BadParams code of an engine
ENGINE_MOVES = "engine_moves"  # stands for every BadMove / IllegalMove code


def status_of(error: EngineError) -> int:
    return STATUS.get(error.code, 400 if isinstance(error, BadParams) else 422)


class AppError(Exception):
    """A refusal with a stable ``code``; ``details`` is data for the client, ``extra``
    top-level keys beside ``error`` (e.g. ``current``: the state a stale move missed)."""

    def __init__(
        self,
        code: str,
        message: str,
        details: dict[str, Any] | None = None,
        extra: dict[str, Any] | None = None,
        status: int | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.status = status if status is not None else STATUS[code]
        self.code = code
        self.message = message
        self.details = details or {}
        self.extra = extra or {}
        self.headers = headers

    def body(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details:
            error["details"] = self.details
        return {"error": error, **self.extra}


def from_engine(error: EngineError) -> AppError:
    return AppError(error.code, error.message, error.details, status=status_of(error))


def not_found() -> AppError:
    return AppError("game_not_found", "no such game")


def documented(*codes: str) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` for a route that can refuse with these codes: one entry per
    status, its description naming every code it carries."""
    by_status: dict[int, list[str]] = defaultdict(list)
    for code in codes:
        if code == ENGINE_PARAMS:
            by_status[400].append("`bad_params` and the engine's parameter codes")
        elif code == ENGINE_MOVES:
            by_status[422].append("the engine's move codes (`unknown_move`, `occupied`, …)")
        else:
            by_status[STATUS[code]].append(f"`{code}`")
    return {
        status: {"model": ErrorResponse, "description": ", ".join(sorted(set(names)))}
        for status, names in sorted(by_status.items())
    }
