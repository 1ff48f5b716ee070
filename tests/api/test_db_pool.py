"""The PostgreSQL pool keeps what a burst opened: a second burst as large opens nothing.

(With 20 connections kept and 20 more opened for a burst and closed after it, a process
under load opened 30 connections a second, a fork and a login on the server each:
bench/online.py, 2,000 matches over two processes.)
"""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import event, text

from app.config import Settings
from app.db import make_engine

BURST = 30  # more than the 20 the pool used to keep


async def opened_by_two_bursts(settings: Settings) -> list[int]:
    engine = make_engine(settings)
    opened = 0

    @event.listens_for(engine.sync_engine, "connect")
    def _count(_dbapi: object, _record: object) -> None:
        nonlocal opened
        opened += 1

    async def hold_a_connection() -> None:
        async with engine.connect() as connection:
            await connection.execute(text("SELECT pg_sleep(0.05)"))

    try:
        counts = []
        for _ in range(2):
            await asyncio.gather(*(hold_a_connection() for _ in range(BURST)))
            counts.append(opened)
        return counts
    finally:
        await engine.dispose()


def test_a_burst_keeps_the_connections_it_opened(settings: Settings) -> None:
    if settings.is_sqlite:
        pytest.skip("PostgreSQL's pool: a SQLite connection is a file handle")
    assert asyncio.run(opened_by_two_bursts(settings)) == [BURST, BURST]
