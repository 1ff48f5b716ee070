"""The calling player: display name, records, statistics; daily boards; the catalog."""

from __future__ import annotations

from fastapi import APIRouter, Query

from app.api.deps import PlayerId, Svc
from app.errors import ANY_ROUTE, WRITE, documented
from app.wire import DailyBoard, GameCatalog, Me, NameRequest, Records, Stats
from engines.core.errors import AppCode, ErrorCode

router = APIRouter(prefix="/api", tags=["players"], responses=documented(*ANY_ROUTE))


@router.get("/me")
async def get_me(svc: Svc, player_id: PlayerId) -> Me:
    return await svc.reads.me(player_id)


@router.put(
    "/me",
    responses=documented(
        AppCode.BAD_JSON, AppCode.INVALID_REQUEST, AppCode.TOO_LARGE, AppCode.BAD_NAME, *WRITE
    ),
)
async def put_me(body: NameRequest, svc: Svc, player_id: PlayerId) -> Me:
    return await svc.reads.rename(player_id, body.name)


@router.get("/records", responses=documented(AppCode.INVALID_REQUEST, AppCode.UNKNOWN_GAME))
async def get_records(
    svc: Svc, player_id: PlayerId, game: str | None = Query(default=None, max_length=24)
) -> Records:
    return await svc.reads.records(player_id, game)


@router.get("/stats/{game}", responses=documented(AppCode.UNKNOWN_GAME))
async def get_stats(game: str, svc: Svc, player_id: PlayerId) -> Stats:
    return await svc.reads.computer_stats(player_id, game)


@router.get(
    "/daily/{game}",
    responses=documented(
        AppCode.INVALID_REQUEST, AppCode.UNKNOWN_GAME, AppCode.NO_DAILY, ErrorCode.BAD_DATE
    ),
)
async def get_daily(
    game: str, svc: Svc, date: str | None = Query(default=None, max_length=10)
) -> DailyBoard:
    return await svc.reads.daily(game, date)


@router.get("/catalog")
async def get_catalog(svc: Svc) -> GameCatalog:
    return GameCatalog.model_validate({"games": svc.catalog.describe()})
