"""Dependencies shared by the routes (FastAPI ``Annotated`` style)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.games import GameService


def get_service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


def get_player_id(request: Request) -> str:
    player_id: str = request.state.player_id
    return player_id


async def get_session(request: Request) -> AsyncSession:
    return request.app.state.service.sessions()  # type: ignore[no-any-return]


Service = Annotated[GameService, Depends(get_service)]
PlayerId = Annotated[str, Depends(get_player_id)]
