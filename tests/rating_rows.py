"""Rating rows written and read straight in the database, beside the app: a test sets a
player's standing in a pool (placed, established) without playing dozens of games, and
reads back what a game's end stored, from the rows rather than from an answer."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import delete, insert, select
from sqlalchemy.ext.asyncio import create_async_engine

from app.config import Settings
from app.models import Game, Rating
from engines.core import glicko2


def _run(database_url: str, work: Any) -> Any:
    async def run() -> Any:
        engine = create_async_engine(Settings(database_url=database_url).async_database_url)
        try:
            async with engine.begin() as connection:
                return await work(connection)
        finally:
            await engine.dispose()

    return asyncio.run(run())


def set_rating(
    database_url: str, player_id: str, pool: str, engine: str = "triangles", **values: Any
) -> None:
    """The player's row in a pool of ``engine``, made anew with these values (the start
    rating's otherwise)."""
    row = {
        "player_id": player_id,
        "engine": engine,
        "pool": pool,
        "rating": glicko2.START_RATING,
        "rd": glicko2.START_RD,
        "volatility": glicko2.START_VOLATILITY,
        "games": 0,
        "opponents": 0,
        "updated_ms": 0,
        **values,
    }

    async def write(connection: Any) -> None:
        await connection.execute(
            delete(Rating).where(
                Rating.player_id == player_id, Rating.engine == engine, Rating.pool == pool
            )
        )
        await connection.execute(insert(Rating).values(**row))

    _run(database_url, write)


def stored_ratings(
    database_url: str, pool: str, engine: str = "triangles"
) -> dict[str, dict[str, Any]]:
    """Every player's stored row in a pool of ``engine``, by player id."""

    async def read(connection: Any) -> dict[str, dict[str, Any]]:
        rows = await connection.execute(
            select(Rating).where(Rating.engine == engine, Rating.pool == pool)
        )
        return {row.player_id: dict(row._mapping) for row in rows}

    return _run(database_url, read)  # type: ignore[no-any-return]


def stored_game(database_url: str, game_id: str) -> dict[str, Any]:
    async def read(connection: Any) -> dict[str, Any]:
        row = (await connection.execute(select(Game).where(Game.id == game_id))).one()
        return dict(row._mapping)

    return _run(database_url, read)  # type: ignore[no-any-return]
