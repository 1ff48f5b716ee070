"""Group commit: concurrent moves of many games share transactions, and each keeps its
own version guard (a racing duplicate still loses)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import event, make_url, select, text
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlalchemy.ext.asyncio import create_async_engine

from app.clock import SystemClock
from app.config import Settings
from app.db import DirectStatement, make_engine
from app.errors import AppError
from app.hub import LocalHub
from app.limits import MemoryLimiter
from app.models import Game, Move
from app.outage import is_outage
from app.presence import LocalPresence
from app.services import Services
from app.statements import ADVANCE_MANY_PG
from engines.core.replay import replay
from engines.reference.tally import ENGINE as TALLY
from tests.conftest import player_id_for


async def test_concurrent_moves_are_written_together_and_guarded(settings: Settings) -> None:
    db = make_engine(settings)
    svc = Services.build(
        db, LocalHub(), LocalPresence(), MemoryLimiter(), SystemClock(), {"tally": TALLY}, settings
    )
    try:
        owner = player_id_for("owner")
        games = []
        for _ in range(30):
            _, snapshot = await svc.lifecycle.create(
                owner, "127.0.0.1", "tally", {"opponent": "human", "limit": 50}, None, None, False
            )
            games.append(snapshot.id)
        # The first write is held until every other move waits behind it, so the next
        # transaction carries them all, however the scheduler interleaves the requests.
        gate = asyncio.Event()
        batches: list[int] = []
        advance, advance_many = svc.store.advance, svc.store.advance_many

        async def held(*args: Any) -> bool:
            await gate.wait()
            batches.append(1)
            return await advance(*args)

        async def counted(batch: Any) -> set[str]:
            await gate.wait()
            batches.append(len(batch))
            return await advance_many(batch)

        svc.store.advance = held  # type: ignore[method-assign]
        svc.store.advance_many = counted  # type: ignore[method-assign]
        move = {"type": "add", "n": 1}
        plays = [svc.moves.play(game_id, owner, 0, move, from_memory=False) for game_id in games]
        plays.append(svc.moves.play(games[0], owner, 0, {"type": "add", "n": 2}))  # a racer
        running = asyncio.gather(*plays, return_exceptions=True)
        commits = svc.moves.commits
        async with asyncio.timeout(30):
            while len(commits.waiting) < len(games) - 1:
                await asyncio.sleep(0.01)
        gate.set()
        results = await running
        refused = [r for r in results if isinstance(r, AppError)]
        assert [r.code for r in refused] == ["stale_version"]
        assert max(batches) >= len(games) - 1  # one transaction for the moves that waited
        for game_id in games:
            log = await svc.reads.log(game_id, owner)
            assert [m.ply for m in log.moves] == [1] and log.version == 1
        await stored_as_played(settings, games)
    finally:
        await db.dispose()


async def stored_as_played(settings: Settings, games: list[str]) -> None:
    """The rows as another connection pool reads them (nothing from the app's memory):
    each game's row at version 1 with one log row, and its stored state the one its
    stored log replays to."""
    fresh = make_engine(settings)
    try:
        async with fresh.connect() as connection:
            rows = {
                row.id: row
                for row in await connection.execute(select(Game).where(Game.id.in_(games)))
            }
            logged = await connection.execute(
                select(Move.game_id, Move.ply, Move.seat, Move.move, Move.at_ms)
                .where(Move.game_id.in_(games))
                .order_by(Move.game_id, Move.ply)
            )
            logs: dict[str, list[dict[str, Any]]] = {}
            for entry in logged:
                logs.setdefault(entry.game_id, []).append(dict(entry._mapping))
    finally:
        await fresh.dispose()
    assert sorted(rows) == sorted(games)
    for game_id, row in rows.items():
        assert row.version == 1 and [e["ply"] for e in logs[game_id]] == [1], game_id
        state = replay(TALLY, TALLY.parse_params(row.params), row.seed, logs[game_id])
        assert TALLY.dump_state(state) == row.state, game_id


async def test_a_lone_move_is_one_statement_on_postgresql(settings: Settings) -> None:
    """On PostgreSQL a move alone in its batch (human pace) is written by one statement
    outside a transaction block: its guarded UPDATE and its log entry, one round trip."""
    if not settings.async_database_url.startswith("postgresql"):
        pytest.skip("SQLite writes a batch in a transaction of its own")
    db = make_engine(settings)
    svc = Services.build(
        db, LocalHub(), LocalPresence(), MemoryLimiter(), SystemClock(), {"tally": TALLY}, settings
    )
    sent: list[str] = []  # every statement asyncpg sent while the move was played

    def log(query: Any) -> None:
        sent.append(" ".join(query.query.split()))

    def checkout(dbapi_connection: Any, *_: Any) -> None:
        dbapi_connection.driver_connection.add_query_logger(log)

    def checkin(dbapi_connection: Any, *_: Any) -> None:
        dbapi_connection.driver_connection.remove_query_logger(log)

    try:
        owner = player_id_for("owner")
        _, game = await svc.lifecycle.create(
            owner, "127.0.0.1", "tally", {"opponent": "human", "limit": 50}, None, None, False
        )
        event.listen(db.sync_engine.pool, "checkout", checkout)
        event.listen(db.sync_engine.pool, "checkin", checkin)
        played = await svc.moves.play(game.id, owner, 0, {"type": "add", "n": 2})
        assert played.game.version == 1
        # one statement, no BEGIN, no COMMIT (besides it, asyncpg may have looked up the
        # array types on a connection's first use)
        assert [s[:40] for s in sent if "games" in s or "moves" in s] == [
            "WITH batch AS MATERIALIZED ( SELECT CAST"
        ]
        assert not [s for s in sent if s.upper().startswith(("BEGIN", "COMMIT", "START"))]
        log_entries = await svc.reads.log(game.id, owner)
        assert [(m.ply, m.move) for m in log_entries.moves] == [(1, {"type": "add", "n": 2})]
    finally:
        event.remove(db.sync_engine.pool, "checkout", checkout)
        event.remove(db.sync_engine.pool, "checkin", checkin)
        await db.dispose()


async def test_the_direct_write_fails_as_sqlalchemy_does(settings: Settings) -> None:
    """The move write on asyncpg itself (app.db.DirectStatement) fails as a SQLAlchemy
    statement would, so the socket answers 503 in an outage: a connection that cannot be
    opened, and one the server cut under it (the pool replaces it; the next write works)."""
    if not settings.async_database_url.startswith("postgresql"):
        pytest.skip("PostgreSQL's write only")
    nowhere = create_async_engine(make_url(settings.async_database_url).set(database="no_such_db"))
    statement = DirectStatement(nowhere, ADVANCE_MANY_PG)
    empty = {name: [] for name in statement.names}
    with pytest.raises(DBAPIError) as refused:
        await statement.fetch(empty)
    assert refused.value.orig.sqlstate == "3D000"  # type: ignore[union-attr]
    await nowhere.dispose()

    db = make_engine(settings)
    statement = DirectStatement(db, ADVANCE_MANY_PG)
    try:
        assert await statement.fetch(empty) == []
        pooled = await db.raw_connection()  # the pool's one connection, the write's
        pid = pooled.driver_connection.get_server_pid()  # type: ignore[union-attr]
        pooled.close()
        other = create_async_engine(settings.async_database_url)
        async with other.connect() as connection:  # the server ends that one's session
            ended = await connection.scalar(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        await other.dispose()
        assert ended
        with pytest.raises(SQLAlchemyError) as cut:
            await statement.fetch(empty)
        assert is_outage(cut.value)
        assert await statement.fetch(empty) == []  # a new connection
    finally:
        await db.dispose()
