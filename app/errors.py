"""One error vocabulary: every refusal has a stable code, and the code decides the HTTP
status, here and nowhere else. REST answers ``{"error": {"code", "message", "details"?}}``
(plus top-level extras such as ``current``); a socket sends the same body in an
``{"type": "error", "id", "status", ...}`` frame.

The codes are ``AppCode`` and ``ErrorCode`` members (``engines.core.errors``), and
``STATUS`` below is the one table of their statuses (the middleware answers from it too).
Engine errors keep their engine codes: the error's class gives the status (BadParams 400,
BadMove and IllegalMove 422) unless ``STATUS`` names the code. docs/errors.md lists them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any, Final, Literal

from fastapi.responses import JSONResponse

from app.wire import ErrorResponse
from engines.core.errors import AppCode, ErrorCode
from engines.core.protocol import BadParams, EngineError

STATUS: dict[str, int] = {
    # 400: the request cannot be read
    AppCode.BAD_JSON: 400,
    ErrorCode.BAD_PARAMS: 400,
    # 403: not this player's to do
    AppCode.NOT_SEATED: 403,
    ErrorCode.NOT_YOUR_TURN: 403,
    AppCode.NOT_OWNER: 403,
    AppCode.BAD_ORIGIN: 403,
    AppCode.REPLAY_FORBIDDEN: 403,
    AppCode.RATED_NEEDS_NAME: 403,  # rated play needs a named player (app.fair_play)
    AppCode.RATED_NEEDS_GAMES: 403,  # ... who has finished a few games; details: finished, needed
    AppCode.NAME_REQUIRED: 403,  # making an arena needs a named player
    AppCode.ARENA_PRIVATE: 403,  # a private arena asked for without its link's key
    # 404: no such thing
    AppCode.NOT_FOUND: 404,
    AppCode.UNKNOWN_GAME: 404,
    AppCode.GAME_NOT_FOUND: 404,
    AppCode.NO_DAILY: 404,
    AppCode.BAD_CODE: 404,  # a device-transfer code that is wrong, used or expired
    AppCode.NO_RATINGS: 404,
    AppCode.SEEK_NOT_FOUND: 404,  # no such seek of this player (or it expired)
    AppCode.NO_REVIEW: 404,  # the game has no review (its engine reviews no game)
    AppCode.NO_ONLINE: 404,  # a seek for a game that offers no online play
    AppCode.PUSH_OFF: 404,  # no VAPID key: this server sends no push notifications
    AppCode.ARENA_NOT_FOUND: 404,
    AppCode.NO_ARENAS: 404,  # an arena of a game without arenas (no ArenaPlay)
    AppCode.METHOD_NOT_ALLOWED: 405,
    # 409: the game is not in a state that allows it
    AppCode.STALE_VERSION: 409,
    AppCode.WAITING_FOR_OPPONENT: 409,
    ErrorCode.GAME_OVER: 409,
    AppCode.GAME_CANCELLED: 409,
    AppCode.NO_FREE_SEAT: 409,
    AppCode.NOT_WAITING: 409,
    AppCode.DAILY_PLAYED: 409,
    AppCode.DAILY_NOT_OVER: 409,  # a daily board opened by its number before its day ends
    AppCode.OPPONENT_PRESENT: 409,
    AppCode.NO_REMATCH: 409,
    AppCode.NOT_OVER: 409,
    AppCode.GAME_NOT_OVER: 409,  # a review of a game still running
    AppCode.GAME_ABORTED: 409,  # a review of a game aborted before it began: nothing to review
    AppCode.NO_OFFER: 409,
    AppCode.TOO_MANY_WAITING: 409,
    AppCode.SEEK_PAIRED: 409,  # details.game_id: the game the seek became
    AppCode.NOTHING_TO_TRANSFER: 409,  # a transfer code asked for by a browser with no player yet
    AppCode.TOO_MANY_SUBSCRIPTIONS: 409,  # a player's 11th push subscription; details: limit
    AppCode.NO_PLAYER: 409,  # a push subscription sent without the player cookie
    AppCode.ARENA_OVER: 409,  # joining an arena that has ended
    AppCode.NOT_IN_ARENA: 409,  # pausing an arena the player has not joined
    AppCode.TOO_LARGE: 413,
    # 422: well-formed, but not acceptable
    AppCode.INVALID_REQUEST: 422,
    AppCode.BAD_MESSAGE: 422,
    AppCode.UNKNOWN_TYPE: 422,
    AppCode.BAD_NAME: 422,
    ErrorCode.BAD_DATE: 422,
    AppCode.BAD_PLY: 422,
    AppCode.ILLEGAL_LOG: 422,
    AppCode.BAD_POOL: 422,
    AppCode.BAD_ENDPOINT: 422,  # a push endpoint the server will not send to; details: reason
    AppCode.BAD_MINUTES: 422,  # an arena's length outside 3..120 minutes
    AppCode.BAD_START: 422,  # an arena's start in the past or more than 7 days ahead
    AppCode.RATE_LIMITED: 429,
    AppCode.BUSY: 429,
    AppCode.TOO_MANY_REVIEWS: 429,  # reviews pending at once; details: limit
    AppCode.INTERNAL: 500,
    AppCode.DATABASE_UNAVAILABLE: 503,
    AppCode.SERVER_RESTARTING: 503,  # a socket's handshake while the process drains
}
ANY_ROUTE = (AppCode.INTERNAL, AppCode.DATABASE_UNAVAILABLE)  # any route may answer these
WRITE = (AppCode.BAD_ORIGIN,)  # any POST, PUT or DELETE may answer this
ENGINE_PARAMS: Final = "engine_params"  # stands for every BadParams code of an engine
ENGINE_MOVES: Final = "engine_moves"  # stands for every BadMove / IllegalMove code
EngineCodes = Literal["engine_params", "engine_moves"]


def status_of(error: EngineError) -> int:
    return STATUS.get(error.code, 400 if isinstance(error, BadParams) else 422)


class AppError(Exception):
    """A refusal with a stable ``code``; ``details`` is data for the client, ``extra``
    top-level keys beside ``error`` (e.g. ``current``: the state a stale move missed).
    The status is the code's in ``STATUS``; only ``HTTP_ERROR`` (an HTTP error the
    framework raised, of any status) carries its own ``status``."""

    def __init__(
        self,
        code: AppCode | ErrorCode,
        message: str,
        details: dict[str, Any] | None = None,
        extra: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        status: int | None = None,
    ) -> None:
        if (status is None) != (code != AppCode.HTTP_ERROR):
            raise ValueError(f"{code}: only http_error carries its own status")
        self._hold(code, message, details, extra, STATUS[code] if status is None else status)
        self.headers = headers

    def _hold(
        self,
        code: str,
        message: str,
        details: Mapping[str, Any] | None,
        extra: dict[str, Any] | None,
        status: int,
    ) -> None:
        Exception.__init__(self, f"{code}: {message}")
        self.status = status
        self.code = str(code)  # the plain string, as the wire has it
        self.message = message
        self.details = dict(details or {})
        self.extra = extra or {}

    def body(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details:
            error["details"] = self.details
        return {"error": error, **self.extra}


def error_response(error: AppError) -> JSONResponse:
    """The HTTP answer to ``error``: its body, its code's status and its headers."""
    return JSONResponse(error.body(), status_code=error.status, headers=error.headers)


class EngineRefusal(AppError):
    """An engine's error as the app answers it: the engine's code (a game's own codes are
    in no enum) with the status ``status_of`` gives it."""

    def __init__(self, error: EngineError) -> None:
        self._hold(error.code, error.message, error.details, None, status_of(error))
        self.headers = None


def from_engine(error: EngineError) -> AppError:
    return EngineRefusal(error)


def not_found() -> AppError:
    return AppError(AppCode.GAME_NOT_FOUND, "no such game")


def documented(*codes: AppCode | ErrorCode | EngineCodes) -> dict[int | str, dict[str, Any]]:
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
