"""Queries on ratings: a rated game's end applied to both players, and the leaderboard.

A rated game's ratings change inside the transaction that writes its end, right after
the version-guarded UPDATE: only one write can end a game, so its ratings change exactly
once, whatever races it (a resignation against the last line, a flag against a move).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import CursorResult, and_, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from app.fair_play import ABORTED, PAIR_LIMIT, PAIR_LIMITED, PAIR_WINDOW_MS
from app.models import Game, GameStatus, Player, Rating
from app.statements import ADVANCE_GAME, APPEND_MOVES
from app.upsert import insert_ignore
from engines.core import glicko2

LEADERBOARD_SIZE = 50


class VersionMoved(Exception):
    """Another write ended or moved the game first: roll back."""


@dataclass(frozen=True)
class RatedEnd:
    """A rated two-player game that has just ended: its pool, its two players (seat
    order), the winning seat (None: a draw) and whether both seats played a move."""

    engine: str
    pool: str
    players: tuple[str, str]
    winner: int | None
    both_moved: bool = True


async def apply_ratings(
    session: AsyncSession, game: Game, end: RatedEnd, outcome: dict[str, Any], now_ms: int
) -> dict[str, Any]:
    """Update both players' ratings for the game's result; return ``outcome`` with the
    change (``ratings``: pool and, per seat, before and after), also written to the row.
    A game that must not count (``app.fair_play``) gets ``unrated`` instead: aborted, or
    its two players already changed each other's ratings ``PAIR_LIMIT`` times lately."""
    if not end.both_moved:
        return await _write_outcome(session, game, {**outcome, "unrated": ABORTED})
    for player_id in sorted(set(end.players)):  # one order, so two games never deadlock
        await session.execute(
            insert_ignore(
                session,
                Rating,
                {
                    "player_id": player_id,
                    "engine": end.engine,
                    "pool": end.pool,
                    "rating": glicko2.START_RATING,
                    "rd": glicko2.START_RD,
                    "volatility": glicko2.START_VOLATILITY,
                    "games": 0,
                    "updated_ms": now_ms,
                },
            )
        )
    rows = {
        row.player_id: row
        for row in await session.scalars(
            select(Rating)
            .where(
                Rating.engine == end.engine,
                Rating.pool == end.pool,
                Rating.player_id.in_(end.players),
            )
            .order_by(Rating.player_id)
            .with_for_update()
        )
    }
    # Counted once both rows are locked: two games of the same pair ending at once
    # take turns here, so neither can slip past the limit.
    if await _rated_together(session, end.players, now_ms) >= PAIR_LIMIT:
        return await _write_outcome(session, game, {**outcome, "unrated": PAIR_LIMITED})
    before = [glicko2.Rating(r.rating, r.rd, r.volatility) for r in (rows[p] for p in end.players)]
    lines = []
    for seat, player_id in enumerate(end.players):
        score = 0.5 if end.winner is None else 1.0 if end.winner == seat else 0.0
        after = glicko2.update(before[seat], [glicko2.Result(before[1 - seat], score)])
        row = rows[player_id]
        row.rating, row.rd, row.volatility = after.rating, after.rd, after.volatility
        row.games += 1
        row.updated_ms = now_ms
        lines.append({"before": before[seat].rating, "after": after.rating, "rd": after.rd})
    rated = {**outcome, "ratings": {"pool": end.pool, "seats": lines}}
    return await _write_outcome(session, game, rated, rated_ms=now_ms)


async def _write_outcome(
    session: AsyncSession, game: Game, outcome: dict[str, Any], rated_ms: int | None = None
) -> dict[str, Any]:
    await session.execute(
        update(Game)
        .where(Game.id == game.id)
        .values(outcome=outcome, rated_ms=rated_ms)
        .execution_options(synchronize_session=False)
    )
    await session.flush()
    return outcome


async def _rated_together(session: AsyncSession, players: tuple[str, str], now_ms: int) -> int:
    """How many games have changed both players' ratings within ``PAIR_WINDOW_MS``."""
    first, second = players
    count = await session.scalar(
        select(func.count())
        .select_from(Game)
        .where(
            or_(
                and_(Game.owner_id == first, Game.guest_id == second),
                and_(Game.owner_id == second, Game.guest_id == first),
            ),
            Game.rated_ms > now_ms - PAIR_WINDOW_MS,
        )
    )
    return int(count or 0)


class RatingQueries:
    """The ratings' queries (``Store`` inherits them)."""

    sessions: Any
    _writing: Callable[[], AbstractAsyncContextManager[AsyncConnection]]

    async def advance_rated(
        self,
        game: Game,
        values: dict[str, Any],
        entries: Sequence[dict[str, Any]],
        end: RatedEnd,
        now_ms: int,
    ) -> dict[str, Any] | None:
        """Write the move that ends a rated game (under its version guard) and both
        players' new ratings, in one transaction. Returns the outcome with the rating
        change, or None when the version moved (then nothing was written)."""
        try:
            async with self._writing() as connection:
                updated = await connection.execute(
                    ADVANCE_GAME, {"game_id": game.id, "seen": game.version, **values}
                )
                if not isinstance(updated, CursorResult) or updated.rowcount != 1:
                    raise VersionMoved
                await connection.execute(APPEND_MOVES, list(entries))
                async with AsyncSession(bind=connection) as session:
                    return await apply_ratings(session, game, end, values["outcome"], now_ms)
        except (VersionMoved, IntegrityError):
            return None

    async def rated_standing(
        self, player_id: str, engine: str, enough: int
    ) -> tuple[str | None, int]:
        """The player's name and how many games of ``engine`` they finished in a seat
        (counted up to ``enough``: no more is needed)."""
        async with self.sessions() as session:
            name = await session.scalar(select(Player.name).where(Player.id == player_id))
            finished = 0
            for seat in (Game.owner_id, Game.guest_id):  # each served by its own index
                mine = (
                    select(Game.id)
                    .where(seat == player_id, Game.engine == engine)
                    .where(Game.status == GameStatus.OVER)
                    .limit(enough)
                    .subquery()
                )
                finished += int(await session.scalar(select(func.count()).select_from(mine)) or 0)
        return name, min(finished, enough)

    async def ratings(self, engine: str, pool: str, player_ids: Sequence[str]) -> dict[str, float]:
        if not player_ids:
            return {}
        async with self.sessions() as session:
            rows = await session.execute(
                select(Rating.player_id, Rating.rating).where(
                    Rating.engine == engine,
                    Rating.pool == pool,
                    Rating.player_id.in_(player_ids),
                )
            )
        return {player_id: rating for player_id, rating in rows.all()}

    async def rated_pools(self, engine: str) -> set[str]:
        """The pools of a game in which at least one player has a rating."""
        async with self.sessions() as session:
            rows = await session.execute(
                select(Rating.pool).where(Rating.engine == engine).distinct()
            )
        return set(rows.scalars().all())

    async def leaderboard(
        self, engine: str, pool: str, limit: int = LEADERBOARD_SIZE
    ) -> list[dict[str, Any]]:
        """The best-rated players of a pool (the index ``ix_ratings_board`` serves it)."""
        async with self.sessions() as session:
            rows = await session.execute(
                select(Player.name, Rating.rating, Rating.rd, Rating.games)
                .join(Player, Player.id == Rating.player_id)
                .where(Rating.engine == engine, Rating.pool == pool)
                .order_by(Rating.rating.desc(), Rating.player_id)
                .limit(limit)
            )
        return [
            {"rank": rank, "name": name, "rating": rating, "rd": rd, "games": games}
            for rank, (name, rating, rd, games) in enumerate(rows.all(), start=1)
        ]
