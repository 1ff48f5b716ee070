"""Queries on arenas (``arenas``, ``arena_players`` and the games an arena paired, which
carry its ``arena_id``): make an arena, list and read them, join and pause, and the
pairing transaction.

A pairing transaction begins by writing the arena's row (a no-op update): on PostgreSQL
that row lock makes pairings of one arena take turns across processes, and on SQLite the
write takes the database's write lock at once. So the free players it reads (joined, not
paused, in no running arena game) are still free when their games are inserted, and a
player is never in two arena games at once. Games and pairings are one commit: a process
killed mid-pairing leaves either both or neither.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.models import Arena, ArenaPlayer, Game, GameStatus, Player
from app.store.games import rowcount, valid_id
from app.upsert import insert_ignore, insert_or_update

RUNNING = (GameStatus.WAITING.value, GameStatus.ACTIVE.value)


@dataclass(frozen=True)
class Entry:
    """A player of an arena, as its standings and its pairing read them."""

    player_id: str
    name: str | None
    joined_ms: int
    paused: bool


@dataclass(frozen=True)
class ArenaGameRow:
    """What an arena reads of one of its games (the state only once the game is over)."""

    id: str
    seats: tuple[str, str]
    status: str
    started_ms: int
    outcome: dict[str, Any] | None

    @property
    def ended_ms(self) -> int | None:
        """Server ms at which it ended (its start plus the game time of its end)."""
        if self.outcome is None:
            return None
        return self.started_ms + int(self.outcome.get("time_ms") or 0)


class PlayedGame(Protocol):
    """What ``played_order`` reads of a game (an ``ArenaGameRow``, or a test's copy)."""

    @property
    def id(self) -> str: ...
    @property
    def started_ms(self) -> int: ...
    @property
    def ended_ms(self) -> int | None: ...


def played_order(game: PlayedGame) -> tuple[int, float, str]:
    """Games in the order they were played: by start; of a player's two games started in
    the same millisecond (one over at once, the next paired in that millisecond), the one
    that ended first. The id only breaks ties between games of different players."""
    ended = game.ended_ms
    return (game.started_ms, float("inf") if ended is None else ended, game.id)


# (the arena, its free players, their games so far) → the games to start
PlanGames = Callable[[Arena, list[Entry], list[ArenaGameRow], set[str]], list[Game]]


class ArenaQueries:
    """The arenas' queries (``Store`` inherits them; ``transaction`` and ``sessions``
    are ``GameQueries``')."""

    transaction: Callable[[], AbstractAsyncContextManager[AsyncSession]]
    sessions: async_sessionmaker[Any]

    async def add_arena(self, arena: Arena) -> bool:
        """Insert an arena; False when a site-run one of that ``schedule_key`` exists."""
        async with self.transaction() as session:
            if arena.created_by is not None:
                await session.execute(
                    insert_ignore(
                        session, Player, {"id": arena.created_by, "created_ms": arena.created_ms}
                    )
                )
            values = {c.key: getattr(arena, c.key) for c in Arena.__table__.columns}
            added = await session.execute(insert_ignore(session, Arena, values))
            return rowcount(added) == 1

    async def arena(self, arena_id: str) -> Arena | None:
        if not valid_id(arena_id):
            return None
        async with self.sessions() as session:
            found: Arena | None = await session.scalar(select(Arena).where(Arena.id == arena_id))
        return found

    async def listed_arenas(self, now_ms: int, since_ms: int, until_ms: int) -> list[Arena]:
        """Public arenas that end after ``since_ms`` and start before ``until_ms``,
        soonest first."""
        async with self.sessions() as session:
            rows = await session.scalars(
                select(Arena)
                .where(Arena.key.is_(None), Arena.ends_ms > since_ms, Arena.starts_ms < until_ms)
                .order_by(Arena.starts_ms, Arena.id)
                .limit(50)
            )
            return list(rows)

    async def live_arenas(self, now_ms: int) -> list[Arena]:
        """Arenas under way, or over for less than a minute (their last standings)."""
        async with self.sessions() as session:
            rows = await session.scalars(
                select(Arena).where(Arena.starts_ms <= now_ms, Arena.ends_ms > now_ms - 60_000)
            )
            return list(rows)

    async def player_counts(self, arena_ids: Sequence[str]) -> dict[str, int]:
        if not arena_ids:
            return {}
        async with self.sessions() as session:
            rows = await session.execute(
                select(ArenaPlayer.arena_id, func.count())
                .where(ArenaPlayer.arena_id.in_(arena_ids))
                .group_by(ArenaPlayer.arena_id)
            )
            return {arena_id: count for arena_id, count in rows.all()}

    async def entries(self, arena_id: str) -> list[Entry]:
        """The arena's players with their names, in the order they joined."""
        async with self.sessions() as session:
            return await _entries(session, arena_id)

    async def arena_games(self, arena_id: str) -> list[ArenaGameRow]:
        """The arena's games, in the order they were played (``played_order``)."""
        async with self.sessions() as session:
            return await _games(session, arena_id)

    async def in_arena(self, arena_id: str, player_id: str) -> bool:
        async with self.sessions() as session:
            found = await session.scalar(
                select(ArenaPlayer.player_id).where(
                    ArenaPlayer.arena_id == arena_id, ArenaPlayer.player_id == player_id
                )
            )
        return found is not None

    async def join_arena(self, arena_id: str, player_id: str, now_ms: int) -> None:
        """The player is in the arena and wants to be paired (a first join, or back from
        a pause)."""
        async with self.transaction() as session:
            await session.execute(
                insert_ignore(session, Player, {"id": player_id, "created_ms": now_ms})
            )
            values = {
                "arena_id": arena_id,
                "player_id": player_id,
                "joined_ms": now_ms,
                "paused": False,
            }
            await session.execute(_rejoin(session, values))

    async def pause_arena(self, arena_id: str, player_id: str) -> bool:
        """The player is paired no more until they join again; False: not in the arena."""
        async with self.transaction() as session:
            paused = await session.execute(
                update(ArenaPlayer)
                .where(ArenaPlayer.arena_id == arena_id, ArenaPlayer.player_id == player_id)
                .values(paused=True)
                .execution_options(synchronize_session=False)
            )
            return rowcount(paused) == 1

    async def mark_started_told(self, arena_id: str) -> bool:
        """True for the one caller (of any process) that is to tell the arena's start."""
        async with self.transaction() as session:
            told = await session.execute(
                update(Arena)
                .where(Arena.id == arena_id, Arena.started_told.is_(False))
                .values(started_told=True)
                .execution_options(synchronize_session=False)
            )
            return rowcount(told) == 1

    async def pair_arena(self, arena_id: str, plan: PlanGames) -> list[Game]:
        """One pairing of the arena's free players, committed with the games it starts
        (see the module's docstring for why it is exclusive)."""
        async with self.transaction() as session:
            locked = await session.execute(
                update(Arena)
                .where(Arena.id == arena_id)
                .values(started_told=Arena.started_told)
                .execution_options(synchronize_session=False)
            )
            if rowcount(locked) != 1:
                return []
            arena = await session.scalar(select(Arena).where(Arena.id == arena_id))
            assert arena is not None
            entries = [e for e in await _entries(session, arena_id) if not e.paused]
            games = await _games(session, arena_id)
            busy = {p for g in games if g.status in RUNNING for p in g.seats}
            # a player is in one arena game at a time, whichever arena paired it
            busy |= await _in_other_arena_games(session, arena_id, [e.player_id for e in entries])
            free = [e for e in entries if e.player_id not in busy]
            if len(free) < 2:
                return []
            made = plan(arena, free, games, busy)
            session.add_all(made)
            await session.flush()
            return made


def _rejoin(session: AsyncSession, values: dict[str, Any]) -> Any:
    """INSERT the player, or set them unpaused: a player coming back keeps the moment
    they first joined."""
    return insert_or_update(session, ArenaPlayer, values, ("arena_id", "player_id"), {"paused"})


async def _entries(session: AsyncSession, arena_id: str) -> list[Entry]:
    rows = await session.execute(
        select(ArenaPlayer.player_id, Player.name, ArenaPlayer.joined_ms, ArenaPlayer.paused)
        .join(Player, Player.id == ArenaPlayer.player_id)
        .where(ArenaPlayer.arena_id == arena_id)
        .order_by(ArenaPlayer.joined_ms, ArenaPlayer.player_id)
    )
    return [Entry(p, n, j, bool(paused)) for p, n, j, paused in rows.all()]


async def _games(session: AsyncSession, arena_id: str) -> list[ArenaGameRow]:
    rows = await session.execute(
        select(Game.id, Game.seats, Game.status, Game.started_ms, Game.outcome).where(
            Game.arena_id == arena_id
        )
    )
    games = [
        ArenaGameRow(game_id, (str(seats[0]), str(seats[1])), status, started, outcome)
        for game_id, seats, status, started, outcome in rows.all()
    ]
    return sorted(games, key=played_order)


async def _in_other_arena_games(
    session: AsyncSession, arena_id: str, players: Sequence[str]
) -> set[str]:
    """Which of ``players`` are in a running game of another arena."""
    if not players:
        return set()
    rows = await session.execute(
        select(Game.owner_id, Game.guest_id).where(
            Game.arena_id.is_not(None),
            Game.arena_id != arena_id,
            Game.status.in_(RUNNING),
            or_(Game.owner_id.in_(players), Game.guest_id.in_(players)),
        )
    )
    return {p for pair in rows.all() for p in pair if p is not None} & set(players)
