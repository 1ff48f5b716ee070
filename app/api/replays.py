"""Replay and verification routes: a game at any ply, and a submitted log judged again."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request

from app.api.deps import PlayerId, Svc
from app.errors import ANY_ROUTE, ENGINE_PARAMS, WRITE, documented
from app.wire import Replay, Verified, VerifyRequest
from engines.core.errors import AppCode

router = APIRouter(prefix="/api", tags=["replays"], responses=documented(*ANY_ROUTE))


def address_of(request: Request) -> str:
    return request.client.host if request.client else "unknown"


@router.get(
    "/games/{game_id}/replay",
    response_model=Replay,
    responses=documented(
        AppCode.GAME_NOT_FOUND,
        AppCode.REPLAY_FORBIDDEN,
        AppCode.BAD_PLY,
        AppCode.INVALID_REQUEST,
        AppCode.RATE_LIMITED,
    ),
)
async def replay(
    game_id: str,
    request: Request,
    svc: Svc,
    player_id: PlayerId,
    ply: int | None = Query(
        default=None, ge=0, le=2**31, description="0 is the start; the last ply by default"
    ),
    timeline: bool = Query(default=False, description="add every ply's step"),
) -> Replay:
    """The game at ``ply`` as the caller sees it (hidden information stays hidden),
    rebuilt from its log: the view, and the events the move at that ply produced."""
    return await svc.replays.at(game_id, player_id, address_of(request), ply, timeline)


@router.post(
    "/verify",
    response_model=Verified,
    responses=documented(
        AppCode.BAD_JSON,
        AppCode.INVALID_REQUEST,
        AppCode.TOO_LARGE,
        AppCode.UNKNOWN_GAME,
        ENGINE_PARAMS,
        AppCode.ILLEGAL_LOG,
        AppCode.RATE_LIMITED,
        *WRITE,
    ),
)
async def verify(body: VerifyRequest, request: Request, svc: Svc, player_id: PlayerId) -> Verified:
    """Replays a log (the ``moves`` of ``GET /api/games/{id}/log``) on the board
    ``number`` fixes (``params`` may set what it leaves open, as in ``POST /api/games``):
    the final public view and outcome, or 422 ``illegal_log`` with ``details.ply``
    (1-based) and ``details.reason`` (the engine's code) of the first refused entry."""
    return await svc.verifier.verify(
        body.game, body.number, body.params, body.log, player_id, address_of(request)
    )
