"""Queries on a player's own games: the history pages, the rows statistics are made of,
and a daily game's rank.

A player's games are those they own (``owner_id``) or sit in as the second human
(``guest_id``); both columns are indexed with ``started_ms``, the history's order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import and_, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.models import Game, GameStatus
from app.store.records import scores_better_than
from engines.core.protocol import ScoreOrder

HISTORY_COLUMNS = (
    Game.id,
    Game.engine.label("game"),
    Game.params,
    Game.number,
    Game.status,
    Game.seats,
    Game.outcome,
    Game.daily,
    Game.started_ms,
    Game.updated_ms,
)


class HistoryQueries:
    sessions: async_sessionmaker[AsyncSession]

    async def history(
        self,
        player_id: str,
        engine: str | None,
        statuses: Sequence[str],
        before: tuple[int, str] | None,
        limit: int,
    ) -> list[dict[str, Any]]:
        """The player's games, newest first (start time, then id), strictly after the
        cursor ``before`` = (started_ms, id) of the last game already shown."""
        query = select(*HISTORY_COLUMNS).where(
            or_(Game.owner_id == player_id, Game.guest_id == player_id)
        )
        if engine is not None:
            query = query.where(Game.engine == engine)
        if statuses:
            query = query.where(Game.status.in_(list(statuses)))
        if before is not None:
            started, game_id = before
            query = query.where(
                or_(
                    Game.started_ms < started,
                    and_(Game.started_ms == started, Game.id < game_id),
                )
            )
        query = query.order_by(Game.started_ms.desc(), Game.id.desc()).limit(limit)
        async with self.sessions() as session:
            return [dict(row._mapping) for row in await session.execute(query)]

    async def game_count(self, player_id: str) -> int:
        """How many games the player's history holds (every status)."""
        query = select(func.count()).where(
            or_(Game.owner_id == player_id, Game.guest_id == player_id)
        )
        async with self.sessions() as session:
            return int(await session.scalar(query) or 0)

    async def finished_of(self, player_id: str) -> list[dict[str, Any]]:
        """Every finished game of the player (what the statistics count), oldest first."""
        query = (
            select(*HISTORY_COLUMNS)
            .where(
                or_(Game.owner_id == player_id, Game.guest_id == player_id),
                Game.status == GameStatus.OVER,
            )
            .order_by(Game.started_ms, Game.id)
        )
        async with self.sessions() as session:
            return [dict(row._mapping) for row in await session.execute(query)]

    async def dailies_of(self, player_id: str, dates: Sequence[str]) -> list[dict[str, Any]]:
        """The player's daily games of these dates (any status), by date."""
        query = (
            select(*HISTORY_COLUMNS, Game.score, Game.too_fast)
            .where(Game.owner_id == player_id, Game.daily.in_(list(dates)))
            .order_by(Game.daily, Game.started_ms, Game.id)
        )
        async with self.sessions() as session:
            return [dict(row._mapping) for row in await session.execute(query)]

    async def daily_rank(
        self, engine: str, date: str, game_id: str, order: ScoreOrder
    ) -> int | None:
        """A finished daily game's place on its day's board of honour (the order of
        ``board_of_honour``: score first, then who finished earlier, games played too fast
        left off); None if unfinished or itself played too fast."""
        async with self.sessions() as session:
            mine = (
                await session.execute(
                    select(Game.score, Game.updated_ms).where(
                        Game.id == game_id,
                        Game.status == GameStatus.OVER,
                        Game.too_fast.is_(False),
                    )
                )
            ).first()
            if mine is None or mine.score is None:
                return None
            ahead = await session.scalar(
                select(func.count())
                .select_from(Game)
                .where(
                    Game.engine == engine,
                    Game.daily == date,
                    Game.status == GameStatus.OVER,
                    Game.too_fast.is_(False),
                    or_(
                        scores_better_than(order, mine.score),
                        and_(Game.score == mine.score, Game.updated_ms < mine.updated_ms),
                    ),
                )
            )
        return int(ahead or 0) + 1
