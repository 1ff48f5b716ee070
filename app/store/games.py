"""Queries on games, moves, daily boards, players and records.

Services decide; this module only reads and writes rows. Writes that race are guarded
in SQL (``WHERE version = :seen``, ``WHERE status = 'waiting'``) and report whether
they won, so no caller ever reads-then-writes without a guard.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from typing import Any

from sqlalchemy import CursorResult, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession

from app.db import DirectStatement, make_sessionmaker
from app.errors import AppError, not_found
from app.models import COMPUTER, Daily, Game, GameStatus, Move, Player, Record
from app.statements import (
    ADVANCE_GAME,
    ADVANCE_MANY_PG,
    APPEND_MOVES,
    Advance,
    advance_many_statement,
    columns_of,
)
from app.store.records import best_score_first, update_record
from app.upsert import insert_ignore
from engines.core.errors import AppCode
from engines.core.protocol import RecordEntry, ScoreOrder


def valid_id(game_id: str) -> bool:
    """Game ids are short url-safe tokens; anything else (a NUL byte…) names no game."""
    return len(game_id) <= 16 and game_id.replace("-", "").replace("_", "").isalnum()


def rowcount(result: Any) -> int:
    count: int = result.rowcount if isinstance(result, CursorResult) else 0
    return count


class GameQueries:
    def __init__(self, db: AsyncEngine, serialize_writes: bool = False) -> None:
        self.db = db
        self.sessions = make_sessionmaker(db)
        # With SQLite, writers in this process take turns on an asyncio lock: SQLite admits
        # one writer at a time anyway, and its busy handler would otherwise make waiting
        # writers sleep in steps of up to 100 ms.
        self._write_turn: AbstractAsyncContextManager[Any] = (
            asyncio.Lock() if serialize_writes else nullcontext()
        )
        self._advance_many_pg = (
            DirectStatement(db, ADVANCE_MANY_PG) if self.batch_in_one_statement else None
        )

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        """A session in a write transaction, committed at the end of the block."""
        async with self._write_turn:
            async with self.sessions() as session:
                async with session.begin():
                    yield session

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[AsyncConnection]:
        """A bare connection in a write transaction, for the move path's Core statements
        (no ORM session to build and tear down per move)."""
        async with self._write_turn:
            async with self.db.begin() as connection:
                yield connection

    # --- games ---------------------------------------------------------------------------

    async def game(self, game_id: str) -> Game:
        """The game row, or a 404."""
        if not valid_id(game_id):
            raise not_found()
        async with self.sessions() as session:
            game: Game | None = await session.scalar(select(Game).where(Game.id == game_id))
        if game is None:
            raise not_found()
        return game

    async def add_game(
        self, game: Game, player_id: str, now_ms: int, daily_seed: int | None = None
    ) -> None:
        """Insert a new game (and the day's board when it is a daily). A second attempt
        at a one-attempt daily is refused with 409, even under a race (unique index)."""
        async with self.transaction() as session:
            await self._ensure_player(session, player_id, now_ms)
            if game.daily is not None and daily_seed is not None:
                day = {"engine": game.engine, "date": game.daily, "seed": daily_seed}
                await session.execute(insert_ignore(session, Daily, {**day, "number": game.number}))
            if game.daily_key is not None:
                taken = await session.scalar(
                    select(Game.id).where(
                        Game.owner_id == player_id, Game.daily_key == game.daily_key
                    )
                )
                if taken:
                    raise daily_played(taken)
            session.add(game)
            try:
                await session.flush()
            except IntegrityError:
                raise daily_played(None) from None

    async def advance(
        self,
        game: Game,
        values: dict[str, Any],
        entries: Sequence[dict[str, Any]],
        record: RecordEntry | None,
        now_ms: int,
        order: ScoreOrder = ScoreOrder.HIGHER,
    ) -> bool:
        """Write a game's new snapshot and log entries under its version guard, and the
        record a finished game earns (better by the engine's ``order``), in one
        transaction. False when the version moved."""
        try:
            async with self._writing() as connection:
                updated = await connection.execute(
                    ADVANCE_GAME, {"game_id": game.id, "seen": game.version, **values}
                )
                if rowcount(updated) != 1:
                    raise IntegrityError("version moved", None, Exception())
                await connection.execute(APPEND_MOVES, list(entries))
                owner = game.seats[0] if game.seats else None
                if record is not None and owner not in (None, COMPUTER):
                    # A session on the move's own connection joins its transaction.
                    async with AsyncSession(bind=connection) as session:
                        await update_record(session, str(owner), game, record, now_ms, order)
                        await session.flush()
        except IntegrityError:
            return False
        return True

    @property
    def batch_in_one_statement(self) -> bool:
        """Whether ``advance_many`` writes a batch in one statement, one round trip
        (PostgreSQL): then even a lone move is best written as a batch of one."""
        return self.db.dialect.name == "postgresql"

    async def advance_many(self, batch: Sequence[Advance]) -> set[str]:
        """Write several games' moves atomically, each under its own version guard (one
        ``UPDATE … FROM``): the ids of the games written. Games whose version moved are
        left as they are, and so are their log entries. At most one advance per game."""
        if self._advance_many_pg is not None:
            # One statement is atomic by itself: no BEGIN, no COMMIT (ADVANCE_MANY_PG).
            return {row[0] for row in await self._advance_many_pg.fetch(columns_of(batch))}
        async with self._writing() as connection:
            result = await connection.execute(advance_many_statement(batch))
            written = set(result.scalars())
            entries = [e for a in batch if a.game.id in written for e in a.entries]
            if entries:
                await connection.execute(APPEND_MOVES, entries)
        return written

    async def take_seat(
        self,
        game_id: str,
        player_id: str,
        seats: list[str | None],
        now_ms: int,
        deadline_ms: int | None = None,
    ) -> bool:
        """Seat a second player in a waiting game, which starts now (its ``at_ms`` zero;
        ``deadline_ms`` when it has a clock); False when it is no longer waiting."""
        async with self.transaction() as session:
            await self._ensure_player(session, player_id, now_ms)
            taken = await session.execute(
                update(Game)
                .where(Game.id == game_id, Game.status == GameStatus.WAITING)
                .values(
                    seats=seats,
                    guest_id=player_id,
                    status=GameStatus.ACTIVE,
                    public=False,
                    started_ms=now_ms,
                    updated_ms=now_ms,
                    deadline_ms=deadline_ms,
                )
                .execution_options(synchronize_session=False)
            )
            return rowcount(taken) == 1

    async def cancel_waiting(self, game_id: str, now_ms: int) -> bool:
        """Cancel a game that is still waiting, in one guarded write."""
        async with self.transaction() as session:
            cancelled = await session.execute(
                update(Game)
                .where(Game.id == game_id, Game.status == GameStatus.WAITING)
                .values(status=GameStatus.CANCELLED, public=False, updated_ms=now_ms)
                .execution_options(synchronize_session=False)
            )
            return rowcount(cancelled) == 1

    @asynccontextmanager
    async def locked_game(self, game_id: str) -> AsyncIterator[tuple[AsyncSession, Game]]:
        """The game row locked for a write transaction (changes commit at the end)."""
        if not valid_id(game_id):
            raise not_found()
        async with self.transaction() as session:
            query = select(Game).where(Game.id == game_id).with_for_update()
            game: Game | None = await session.scalar(query)
            if game is None:
                raise not_found()
            yield session, game

    async def overdue(self, now_ms: int, limit: int) -> list[Game]:
        """Active games whose clock ran out by ``now_ms``, the longest overdue first
        (an index range scan on ``deadline_ms``)."""
        async with self.sessions() as session:
            rows = await session.scalars(
                select(Game)
                .where(Game.deadline_ms <= now_ms, Game.status == GameStatus.ACTIVE)
                .order_by(Game.deadline_ms)
                .limit(limit)
            )
            return list(rows)

    async def moves(
        self, game_id: str, after: int, limit: int | None = None
    ) -> list[dict[str, Any]]:
        """The log entries after ply ``after`` (plies count from 1: 0 gives the whole log),
        at most ``limit`` of them."""
        async with self.sessions() as session:
            rows = await session.execute(
                select(Move.ply, Move.seat, Move.move, Move.at_ms)
                .where(Move.game_id == game_id, Move.ply > after)
                .order_by(Move.ply)
                .limit(limit)
            )
        return [dict(row._mapping) for row in rows]

    async def count_waiting(self, player_id: str, since_ms: int) -> int:
        """The player's games waiting for an opponent, created since ``since_ms``."""
        async with self.sessions() as session:
            count = await session.scalar(
                select(func.count())
                .select_from(Game)
                .where(
                    Game.owner_id == player_id,
                    Game.status == GameStatus.WAITING,
                    Game.updated_ms >= since_ms,
                )
            )
        return int(count or 0)

    async def open_games(self, since_ms: int, limit: int = 50) -> list[dict[str, Any]]:
        """Public online games waiting for an opponent since ``since_ms``, newest first."""
        async with self.sessions() as session:
            rows = await session.execute(
                select(
                    Game.id,
                    Game.engine.label("game"),
                    Game.number,
                    Game.params,
                    Game.owner_id,
                    Game.updated_ms.label("created_ms"),
                    Player.name,
                )
                .join(Player, Player.id == Game.owner_id)
                .where(
                    Game.status == GameStatus.WAITING,
                    Game.public.is_(True),
                    Game.updated_ms >= since_ms,
                )
                .order_by(Game.updated_ms.desc())
                .limit(limit)
            )
        return [dict(row._mapping) for row in rows]

    # --- players -------------------------------------------------------------------------

    @staticmethod
    async def _ensure_player(session: AsyncSession, player_id: str, now_ms: int) -> None:
        await session.execute(
            insert_ignore(session, Player, {"id": player_id, "created_ms": now_ms})
        )

    async def names(self, player_ids: Sequence[str]) -> dict[str, str | None]:
        if not player_ids:
            return {}
        async with self.sessions() as session:
            rows = await session.execute(
                select(Player.id, Player.name).where(Player.id.in_(player_ids))
            )
        return {player_id: name for player_id, name in rows.all()}

    async def set_name(self, player_id: str, name: str, now_ms: int) -> None:
        async with self.transaction() as session:
            await self._ensure_player(session, player_id, now_ms)
            await session.execute(update(Player).where(Player.id == player_id).values(name=name))

    # --- records and results ---------------------------------------------------------------

    async def records(self, player_id: str, engine: str | None) -> list[dict[str, Any]]:
        query = (
            select(
                Record.engine.label("game"),
                Record.key,
                Record.score,
                Record.time_ms,
                Record.game_id,
                Record.played,
            )
            .where(Record.player_id == player_id)
            .order_by(Record.engine, Record.key)
        )
        if engine is not None:
            query = query.where(Record.engine == engine)
        async with self.sessions() as session:
            return [dict(row._mapping) for row in await session.execute(query)]

    async def board_of_honour(
        self, engine: str, date: str, order: ScoreOrder, limit: int = 20
    ) -> list[dict[str, Any]]:
        """A day's finished daily games, the best first (``order``: the engine's); games
        played faster than a person can (``too_fast``) are left off."""
        async with self.sessions() as session:
            rows = await session.execute(
                select(Game.id, Game.score, Game.outcome, Player.name)
                .join(Player, Player.id == Game.owner_id)
                .where(
                    Game.engine == engine,
                    Game.daily == date,
                    Game.status == GameStatus.OVER,
                    Game.too_fast.is_(False),
                )
                .order_by(best_score_first(order), Game.updated_ms)
                .limit(limit)
            )
        return [
            {
                "rank": rank,
                "name": name,
                "score": score,
                "time_ms": (outcome or {}).get("time_ms", 0),
                "game_id": game_id,
            }
            for rank, (game_id, score, outcome, name) in enumerate(rows.all(), start=1)
        ]

    async def finished_games(
        self, player_id: str, engine: str
    ) -> list[tuple[dict[str, Any], list[str | None], dict[str, Any] | None]]:
        """``(params, seats, outcome)`` of the player's finished games of one engine."""
        async with self.sessions() as session:
            rows = await session.execute(
                select(Game.params, Game.seats, Game.outcome).where(
                    Game.owner_id == player_id,
                    Game.engine == engine,
                    Game.status == GameStatus.OVER,
                )
            )
        return list(rows.all())


def daily_played(game_id: str | None) -> AppError:
    extra = {"id": game_id} if game_id else None
    return AppError(AppCode.DAILY_PLAYED, "you have played today's board already", extra=extra)
