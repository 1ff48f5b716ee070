"""The calling player: display name, records, statistics; daily boards; the catalog."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query
from sqlalchemy import update

from app.api.deps import PlayerId, Service
from app.api.schemas import NameRequest
from app.errors import AppError
from app.models import Player
from app.records import board_of_honour, computer_stats, list_records
from engines.core.daily import daily_seed, parse_date
from engines.core.protocol import EngineError

router = APIRouter(prefix="/api", tags=["players"])

NAME_MAX = 24


def clean_name(raw: str) -> str:
    name = raw.strip()
    if not 1 <= len(name) <= NAME_MAX or not name.isprintable():
        raise AppError(422, "bad_name", f"a name has 1 to {NAME_MAX} printable characters")
    return name


@router.get("/me")
async def get_me(service: Service, player_id: PlayerId) -> dict[str, Any]:
    async with service.sessions() as session:
        player = await session.get(Player, player_id)
    return {"name": player.name if player else None}


@router.put("/me")
async def put_me(body: NameRequest, service: Service, player_id: PlayerId) -> dict[str, Any]:
    name = clean_name(body.name)
    async with service.transaction() as session:
        await service.ensure_player(session, player_id)
        await session.execute(update(Player).where(Player.id == player_id).values(name=name))
    return {"name": name}


@router.get("/records")
async def get_records(
    service: Service, player_id: PlayerId, game: str | None = Query(default=None, max_length=24)
) -> dict[str, Any]:
    if game is not None:
        service.engine(game)  # 404 for a game that does not exist
    async with service.sessions() as session:
        return {"records": await list_records(session, player_id, game)}


@router.get("/stats/{game}")
async def get_stats(game: str, service: Service, player_id: PlayerId) -> dict[str, Any]:
    service.engine(game)
    async with service.sessions() as session:
        return {"game": game, "stats": await computer_stats(session, player_id, game)}


@router.get("/daily/{game}")
async def get_daily(
    game: str, service: Service, date: str | None = Query(default=None, max_length=10)
) -> dict[str, Any]:
    engine = service.engine(game)
    try:
        day = parse_date(date).isoformat() if date else service.today().isoformat()
        params = engine.daily_params({})
        if params is None:
            raise AppError(404, "no_daily", f"{game} has no daily board")
        seed = daily_seed(game, day)
        number = engine.number(params, seed)
    except EngineError as error:
        raise AppError(400, error.code, error.message) from None
    async with service.sessions() as session:
        honour = await board_of_honour(session, game, day)
    return {"game": game, "date": day, "number": number, "seed": seed, "honour": honour}


@router.get("/catalog")
async def get_catalog(service: Service) -> dict[str, Any]:
    return {"games": [engine.describe() for engine in service.engines.values()]}
