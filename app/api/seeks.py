"""Quick pairing: post a seek, long-poll it until it is paired, cancel it."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request

from app.api.deps import PlayerId, Svc
from app.errors import ANY_ROUTE, ENGINE_PARAMS, WRITE, documented
from app.seeks import WAIT_MAX_S
from app.wire import SeekRequest, SeekState
from engines.core.errors import AppCode

router = APIRouter(prefix="/api", tags=["seeks"], responses=documented(*ANY_ROUTE))

BODY = (AppCode.BAD_JSON, AppCode.INVALID_REQUEST, AppCode.TOO_LARGE)


@router.post(
    "/seeks",
    responses=documented(
        *BODY,
        ENGINE_PARAMS,
        AppCode.UNKNOWN_GAME,
        AppCode.NO_ONLINE,
        AppCode.RATE_LIMITED,
        AppCode.BUSY,
        *WRITE,
    ),
)
async def post_seek(
    body: SeekRequest, request: Request, svc: Svc, player_id: PlayerId
) -> SeekState:
    """Play online now: paired at once with a waiting player of the same game and time
    control (``paired``, the new game), or ``waiting`` in the pool: poll the seek to stay
    in it. ``404 no_online`` for a game that is not played online."""
    address = request.client.host if request.client else "unknown"
    return await svc.seeks.post(player_id, address, body.game, body.clock, body.rated)


@router.get(
    "/seeks/{seek_id}",
    responses=documented(AppCode.SEEK_NOT_FOUND, AppCode.INVALID_REQUEST, AppCode.RATE_LIMITED),
)
async def poll_seek(
    seek_id: str,
    request: Request,
    svc: Svc,
    player_id: PlayerId,
    wait: float = Query(default=0, ge=0, le=WAIT_MAX_S, description="seconds to wait"),
) -> SeekState:
    """The owner's seek: ``paired`` as soon as it is, else ``waiting`` after ``wait``
    seconds. Each poll keeps the seek in the pool a while longer."""
    return await svc.seeks.poll(seek_id, player_id, wait, request.is_disconnected)


@router.delete(
    "/seeks/{seek_id}",
    status_code=204,
    responses=documented(AppCode.SEEK_NOT_FOUND, AppCode.SEEK_PAIRED, *WRITE),
)
async def cancel_seek(seek_id: str, svc: Svc, player_id: PlayerId) -> None:
    """Leave the pool; 409 ``seek_paired`` (``details.game_id``) when already paired."""
    await svc.seeks.cancel(seek_id, player_id)
