"""Game routes: create, load, move, log, join, cancel, open games."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from sqlalchemy import select

from app.api.deps import PlayerId, Service
from app.api.schemas import CreateGame, MoveRequest, RematchRequest
from app.models import Game, Player

router = APIRouter(prefix="/api", tags=["games"])


@router.post("/games", status_code=201)
async def create_game(body: CreateGame, service: Service, player_id: PlayerId) -> dict[str, Any]:
    return await service.create(
        player_id, body.game, body.params, body.number, body.daily, body.public
    )


@router.get("/games/{game_id}")
async def get_game(game_id: str, service: Service, player_id: PlayerId) -> dict[str, Any]:
    return await service.load(game_id, player_id)


@router.post("/games/{game_id}/moves")
async def post_move(
    game_id: str, body: MoveRequest, service: Service, player_id: PlayerId
) -> dict[str, Any]:
    return await service.move(game_id, player_id, body.version, body.move)


@router.get("/games/{game_id}/log")
async def get_log(game_id: str, service: Service) -> dict[str, Any]:
    return await service.log(game_id)


@router.post("/games/{game_id}/join")
async def join_game(game_id: str, service: Service, player_id: PlayerId) -> dict[str, Any]:
    return await service.join(game_id, player_id)


@router.post("/games/{game_id}/rematch")
async def rematch(
    game_id: str, body: RematchRequest, service: Service, player_id: PlayerId
) -> dict[str, Any]:
    return {"rematch": await service.rematch(game_id, player_id, body.action)}


@router.post("/games/{game_id}/cancel", status_code=204)
async def cancel_game(game_id: str, service: Service, player_id: PlayerId) -> None:
    await service.cancel(game_id, player_id)


@router.get("/open")
async def open_games(service: Service, player_id: PlayerId) -> dict[str, Any]:
    async with service.sessions() as session:
        rows = await session.execute(
            select(
                Game.id,
                Game.engine,
                Game.number,
                Game.params,
                Game.owner_id,
                Game.updated_ms,
                Player.name,
            )
            .join(Player, Player.id == Game.owner_id)
            .where(Game.status == "waiting", Game.public.is_(True))
            .order_by(Game.updated_ms.desc())
            .limit(50)
        )
        games = [
            {
                "id": gid,
                "game": engine,
                "number": number,
                "params": params,
                "name": name,
                "mine": owner == player_id,
                "created_ms": created,
            }
            for gid, engine, number, params, owner, created, name in rows.all()
        ]
    return {"games": games}
