"""Dependencies shared by the routes (FastAPI ``Annotated`` style)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.games import GameService


def get_service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


def get_player_id(request: Request) -> str:
    player_id: str = request.state.player_id
    return player_id


Service = Annotated[GameService, Depends(get_service)]
PlayerId = Annotated[str, Depends(get_player_id)]
