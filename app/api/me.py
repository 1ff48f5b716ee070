"""The calling player's own pages of data: history, statistics, and moving to another
device (a transfer code, then its claim)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response

from app.api.deps import PlayerId, Svc
from app.errors import ANY_ROUTE, WRITE, documented
from app.history import CURSOR_PATTERN, HISTORY_MAX, HISTORY_PAGE
from app.identity import CookieSigner, player_cookie
from app.models import GameStatus
from app.wire import ClaimRequest, History, Me, MyStats, TransferCode
from engines.core.errors import AppCode

router = APIRouter(prefix="/api/me", tags=["players"], responses=documented(*ANY_ROUTE))


@router.get(
    "/games",
    response_model=History,
    responses=documented(AppCode.INVALID_REQUEST, AppCode.UNKNOWN_GAME),
)
async def my_games(
    svc: Svc,
    player_id: PlayerId,
    game: str | None = Query(default=None, max_length=24),
    status: Annotated[GameStatus | None, Query()] = None,
    before: str | None = Query(
        default=None,
        pattern=CURSOR_PATTERN,
        max_length=40,
        description="the `next` of the page before",
    ),
    limit: int = Query(default=HISTORY_PAGE, ge=1, le=HISTORY_MAX),
) -> History:
    """The player's games, newest first (by start), a page at a time: read pages until
    ``next`` is null. ``status=active`` gives the unfinished ones (the lobby's "continue")."""
    return await svc.history.games(player_id, game, status, before, limit)


@router.get("/stats", response_model=MyStats)
async def my_stats(svc: Svc, player_id: PlayerId) -> MyStats:
    """Statistics per game and variant, the daily streak, and the daily games of the
    server's yesterday, today and tomorrow (players' local dates straddle the server's)."""
    return await svc.history.stats(player_id)


@router.post(
    "/transfer",
    status_code=201,
    response_model=TransferCode,
    responses=documented(AppCode.NOTHING_TO_TRANSFER, AppCode.RATE_LIMITED, *WRITE),
)
async def transfer(request: Request, svc: Svc, player_id: PlayerId) -> TransferCode:
    """A single-use code, valid 10 minutes, that makes another browser this player; the
    QR code's modules hold the claim URL (``/me?code=…``). 409 ``nothing_to_transfer``
    when this browser's player has nothing yet (no game, no name)."""
    address = request.client.host if request.client else "unknown"
    return await svc.transfers.issue(player_id, address, str(request.base_url))


@router.post(
    "/claim",
    response_model=Me,
    responses=documented(
        AppCode.BAD_JSON,
        AppCode.INVALID_REQUEST,
        AppCode.TOO_LARGE,
        AppCode.BAD_CODE,
        AppCode.RATE_LIMITED,
        *WRITE,
    ),
)
async def claim(
    body: ClaimRequest, request: Request, response: Response, svc: Svc, player_id: PlayerId
) -> Me:
    """Become the player who issued the code: the answer sets this browser's cookie. The
    code is used up; the issuing browser stays signed in. With ``endpoint`` (this
    browser's push subscription), the notices of the player it was stop coming here."""
    address = request.client.host if request.client else "unknown"
    owner = await svc.transfers.claim(player_id, address, body.code, body.endpoint)
    settings = request.app.state.settings
    secure = settings.cookie_secure or request.url.scheme == "https"
    response.headers.append(
        "set-cookie", player_cookie(CookieSigner(settings.secret), owner, secure)
    )
    return await svc.reads.me(owner)
