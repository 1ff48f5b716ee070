"""Queries on the quick-pairing pool (``seeks``): post a seek or pair it at once, pair a
waiting one, read, extend and cancel.

Every transaction that pairs a player holds the row lock of that player's ``players``
row (PostgreSQL): a seeker waits for their own (so one player's seeks take turns), and
the other player's row is locked with their seek by ``SELECT … FOR NO KEY UPDATE SKIP
LOCKED``: two seekers racing for one waiting seek never wait for each other, exactly one
of them takes it, and a seek whose player is posting again (another tab) is passed over
until that post has committed. So the check "already in a real-time game", made under
the seeker's own row lock, always sees a pairing of their other tab's seek. SQLite
ignores the clauses; its writers take turns anyway. A seek is marked paired
(``game_id``) in the transaction that creates its game, so nothing is acknowledged
before both are committed.
"""

from __future__ import annotations

import zlib
from collections.abc import Awaitable, Callable, Collection
from contextlib import AbstractAsyncContextManager
from typing import Any

from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.models import Game, GameStatus, Player, Seek
from app.store.games import rowcount, valid_id
from app.upsert import insert_ignore

KEEP_MS = 10 * 60_000  # seeks (paired or run out) are kept this long after their expiry
SWEEP = 200  # open seeks one matching transaction pairs at most

# Builds the game of two seeks: (the waiting seek, the seeker's player id) → the game row.
MakeGame = Callable[[Seek, str], Game]


def _open_like(seek: Seek, now_ms: int) -> Any:
    """Open seeks of ``seek``'s pool: same game, time control and kind, not paired, not
    run out, oldest first."""
    return (
        select(Seek)
        .where(
            Seek.engine == seek.engine,
            Seek.clock == seek.clock,
            Seek.rated == seek.rated,
            Seek.game_id.is_(None),
            Seek.expires_ms > now_ms,
        )
        .order_by(Seek.created_ms, Seek.id)
    )


def _pool(seek: Seek, now_ms: int) -> Any:
    """The oldest open seek another player could pair with ``seek``."""
    return _open_like(seek, now_ms).where(Seek.player_id != seek.player_id).limit(1)


def _claim(query: Any) -> Any:
    """``query`` on seeks, locking each seek found with its player's row, or passing it
    over when either is locked (SKIP LOCKED): a seek of a player whose other tab is
    posting is not paired while that post runs."""
    return query.join(Player, Player.id == Seek.player_id).with_for_update(
        of=(Seek, Player), key_share=True, skip_locked=True
    )


def _older(seek: Seek) -> Any:
    return or_(
        Seek.created_ms < seek.created_ms,
        and_(Seek.created_ms == seek.created_ms, Seek.id < seek.id),
    )


async def _playing(session: AsyncSession, seek: Seek, clocks: Collection[str]) -> Game | None:
    """An active game of ``seek``'s engine that its player holds a seat in, with one of
    ``clocks`` (the player's active games are few: both lookups are indexed)."""
    for seat in (Game.owner_id, Game.guest_id):
        games = await session.scalars(
            select(Game).where(
                seat == seek.player_id,
                Game.engine == seek.engine,
                Game.status == GameStatus.ACTIVE,
                Game.guest_id.is_not(None),
            )
        )
        for game in games:
            if game.params.get("clock") in clocks:
                return game
    return None


class SeekQueries:
    """The seek pool's queries (``Store`` inherits them; ``transaction`` and ``sessions``
    are ``GameQueries``')."""

    transaction: Callable[[], AbstractAsyncContextManager[AsyncSession]]
    sessions: async_sessionmaker[Any]

    async def post_seek(
        self, seek: Seek, make_game: MakeGame, busy_clocks: Collection[str] = ()
    ) -> tuple[Seek | None, Game | None]:
        """In one transaction: drop the player's earlier open seek, then pair with the
        oldest compatible open seek of another player (→ that seek, marked paired, and the
        new game), or else put ``seek`` in the pool (→ None, None).

        One player's seeks take turns (two tabs posting at once), and wait for any
        transaction pairing their waiting seek: the player's row is locked first
        (PostgreSQL; SQLite's writers take turns anyway). A seek for one of
        ``busy_clocks`` (real-time controls) by a player who is already playing a game
        with one of them (read under that lock: a pairing of their other tab's seek is
        committed by then) is not paired again: → (None, that game), and their other tab
        goes to it."""
        now = seek.created_ms
        async with self.transaction() as session:
            await session.execute(
                insert_ignore(session, Player, {"id": seek.player_id, "created_ms": now})
            )
            # NO KEY UPDATE: rows inserted elsewhere that refer to the player (their foreign
            # key checks take KEY SHARE) do not wait for it.
            await session.execute(
                select(Player.id).where(Player.id == seek.player_id).with_for_update(key_share=True)
            )
            if seek.clock in busy_clocks:
                playing = await _playing(session, seek, busy_clocks)
                if playing is not None:
                    return None, playing
            await session.execute(
                delete(Seek)
                .where(
                    or_(
                        and_(Seek.player_id == seek.player_id, Seek.game_id.is_(None)),
                        Seek.expires_ms < now - KEEP_MS,
                    )
                )
                .execution_options(synchronize_session=False)
            )
            other = await session.scalar(_claim(_pool(seek, now)))
            if other is None:
                session.add(seek)
                return None, None
            game = make_game(other, seek.player_id)
            session.add(game)
            await session.flush()
            other.game_id = game.id
            other.paired_ms = now
            return other, game

    async def match_pool(
        self, seek: Seek, now_ms: int, prepare: Callable[[], Awaitable[MakeGame]]
    ) -> list[tuple[Seek, Seek, Game]] | None:
        """Pair the open seeks of ``seek``'s pool, oldest first, two by two: seeks posted
        at the same moment all found the pool empty and wait in it together. Runs only
        when an older compatible seek is waiting (``seek``'s own poll asks), and on
        PostgreSQL one transaction per pool at a time (a transaction-scoped advisory
        lock, tried, not waited for); seeks whose player is posting (their row is
        locked) are skipped, as are rows another pairing holds.
        → the pairs and their games; [] when there is nothing to pair; None when another
        transaction is matching this pool right now (ask again shortly)."""
        async with self.sessions() as session:
            candidate = await session.scalar(_pool(seek, now_ms).where(_older(seek)))
        if candidate is None:
            return []  # the common case: nothing to pair, no write transaction
        make_game = await prepare()  # built before any row is locked
        async with self.transaction() as session:
            if session.bind is not None and session.bind.dialect.name == "postgresql":
                key = zlib.crc32(f"seeks:{seek.engine}:{seek.clock}:{seek.rated}".encode())
                if not await session.scalar(select(func.pg_try_advisory_xact_lock(key))):
                    return None
            waiting = (await session.scalars(_claim(_open_like(seek, now_ms).limit(SWEEP)))).all()
            pairs: list[tuple[Seek, Seek, Game]] = []
            first: Seek | None = None
            for other in waiting:
                if first is None:
                    first = other
                elif other.player_id != first.player_id:  # never a player with themselves
                    pairs.append((first, other, make_game(first, other.player_id)))
                    first = None
            session.add_all([game for _, _, game in pairs])
            await session.flush()
            for older, newer, game in pairs:
                for paired in (older, newer):
                    paired.game_id = game.id
                    paired.paired_ms = now_ms
            return pairs

    async def seek(self, seek_id: str) -> Seek | None:
        if not valid_id(seek_id):
            return None
        async with self.sessions() as session:
            found: Seek | None = await session.scalar(select(Seek).where(Seek.id == seek_id))
        return found

    async def extend_seek(self, seek_id: str, expires_ms: int) -> None:
        """The owner's page is still there: the open seek lives until ``expires_ms``."""
        async with self.transaction() as session:
            await session.execute(
                update(Seek)
                .where(Seek.id == seek_id, Seek.game_id.is_(None))
                .values(expires_ms=expires_ms)
                .execution_options(synchronize_session=False)
            )

    async def cancel_seek(self, seek_id: str, player_id: str) -> bool:
        """Withdraw an open seek; False when it is not open (paired, or gone)."""
        async with self.transaction() as session:
            removed = await session.execute(
                delete(Seek)
                .where(Seek.id == seek_id, Seek.player_id == player_id, Seek.game_id.is_(None))
                .execution_options(synchronize_session=False)
            )
            return rowcount(removed) == 1
