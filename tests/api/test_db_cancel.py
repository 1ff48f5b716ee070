"""A query cancelled midway (a socket closing while its state is read) must not leave
the SQLite connection's close waiting for good: the event loop, and the server with it,
must still shut down."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import aiosqlite
import pytest
from sqlalchemy import text

from app.config import Settings
from app.db import make_engine

SLOW_QUERY = text(
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000000) "
    "SELECT count(*) FROM n"
)


# A cancelled query runs to its end on its connection's thread, whose answer then finds
# the loop closed: expected here, and waited for below so that no later test hears of it.
@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_query_cancelled_midway_lets_the_loop_shut_down(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'cancel.sqlite3'}", secret="x")

    async def cancel_midway() -> None:
        engine = make_engine(settings)

        async def query() -> None:
            async with engine.connect() as connection:
                await connection.execute(SLOW_QUERY)

        for _ in range(5):
            task = asyncio.create_task(query())
            await asyncio.sleep(0.2)  # well inside the query (most of a second long)
            while not task.done():  # as a cancelled task group does: again at every wait
                task.cancel()
                await asyncio.sleep(0.01)
        await engine.dispose()

    done = threading.Event()

    def run() -> None:
        asyncio.run(cancel_midway())  # cancels and awaits every task left over
        done.set()

    threading.Thread(target=run, daemon=True).start()
    assert done.wait(30), "the event loop could not shut down"
    for thread in threading.enumerate():
        if isinstance(thread, aiosqlite.Connection):  # each connection is its own thread
            thread.join(30)
