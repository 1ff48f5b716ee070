"""Dependencies shared by the routes (FastAPI ``Annotated`` style)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.services import Services


async def get_services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


async def get_player_id(request: Request) -> str:
    player_id: str = request.state.player_id
    return player_id


Svc = Annotated[Services, Depends(get_services)]
PlayerId = Annotated[str, Depends(get_player_id)]
