"""Rows read back from the database on a connection of their own (not the app's): what a
test asserts of stored data comes from here, never from an answer held in memory."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.config import Settings


def stored(settings: Settings, query: str) -> list[tuple[Any, ...]]:
    async def read() -> list[tuple[Any, ...]]:
        engine = create_async_engine(settings.async_database_url)
        try:
            async with engine.connect() as connection:
                return [tuple(row) for row in await connection.execute(text(query))]
        finally:
            await engine.dispose()

    return asyncio.run(read())
