"""Queries on reviews: read a game's stored review, store one (once per game)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.models import Review
from app.upsert import insert_ignore


class ReviewQueries:
    """The reviews' queries (``Store`` inherits them; ``transaction`` and ``sessions``
    are ``GameQueries``')."""

    transaction: Callable[[], AbstractAsyncContextManager[AsyncSession]]
    sessions: async_sessionmaker[Any]

    async def review(self, game_id: str) -> dict[str, Any] | None:
        """The stored review of a game, or None."""
        async with self.sessions() as session:
            body: dict[str, Any] | None = await session.scalar(
                select(Review.body).where(Review.game_id == game_id)
            )
        return body

    async def reviewed(self, game_id: str) -> bool:
        """Whether a review of the game is stored (its key alone, not its body)."""
        async with self.sessions() as session:
            found = await session.scalar(select(Review.game_id).where(Review.game_id == game_id))
        return found is not None

    async def add_review(self, game_id: str, body: dict[str, Any], now_ms: int) -> dict[str, Any]:
        """Store a game's review unless one is stored already; the stored one (the first
        written, which every process's identical review agrees with) is returned."""
        async with self.transaction() as session:
            values = {"game_id": game_id, "body": body, "created_ms": now_ms}
            await session.execute(insert_ignore(session, Review, values))
            stored = await session.scalar(select(Review.body).where(Review.game_id == game_id))
        return body if stored is None else stored
