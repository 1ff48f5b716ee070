"""The async database engine and sessions (SQLite in WAL mode, or PostgreSQL via asyncpg)."""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import asyncpg
from pydantic_core import to_json
from sqlalchemy import TextClause, event, make_url, text
from sqlalchemy.exc import DBAPIError, OperationalError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.pool import AsyncAdaptedQueuePool, PoolProxiedConnection

from app.config import Settings
from app.metrics import DB_POOL_WAIT


def json_text(value: Any) -> str:
    """JSON text for a JSON column: pydantic-core's encoder (a game's state is written
    with every move, and the standard library's encoder took 5 % of a busy process)."""
    return to_json(value).decode()


class TimedPool(AsyncAdaptedQueuePool):
    """The usual pool, timing each checkout: a connection free at once, a new one
    opened, or a wait for one another request gives back (nook_db_pool_wait_seconds)."""

    def connect(self) -> PoolProxiedConnection:
        started = time.perf_counter()
        try:
            return super().connect()
        finally:
            DB_POOL_WAIT.observe(time.perf_counter() - started)


# SQLAlchemy quiets its own pool loggers below WARNING; this one is named after its module.
logging.getLogger(f"{__name__}.{TimedPool.__name__}").setLevel(logging.WARNING)


def make_engine(settings: Settings) -> AsyncEngine:
    url = settings.async_database_url
    if settings.is_sqlite:
        # timeout: how long a writer waits for another to finish (SQLite's busy timeout).
        engine = create_async_engine(
            url,
            connect_args={"timeout": settings.db_statement_timeout_s},
            poolclass=TimedPool,
            pool_timeout=settings.db_pool_timeout_s,
            json_serializer=json_text,
        )

        # Only pragmas that neither read the file nor return a row: a request cancelled
        # while its connection opens must not leave a statement holding a lock. (WAL
        # mode, which does, is kept in the file and set by the migrations.)
        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    # No pre-ping: it would add a round trip to every checkout; stale connections are
    # recycled instead. Every wait is bounded (see Settings): a silent server costs a
    # request a few seconds and a 503, never a hang. A connection whose statement timed
    # out is cancelled by asyncpg, or closed when the cancel cannot get through.
    return create_async_engine(
        url,
        poolclass=TimedPool,
        pool_size=settings.db_pool_size,
        max_overflow=settings.db_max_overflow,
        pool_recycle=1800,
        pool_timeout=settings.db_pool_timeout_s,
        connect_args={
            "timeout": settings.db_connect_timeout_s,
            "command_timeout": settings.db_statement_timeout_s,
        },
        json_serializer=json_text,
    )


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[Any]:
    return async_sessionmaker(engine, expire_on_commit=False)


FIRST_TRY_S = 3.0  # at start-up, the database gets at least this long, however late


class DatabaseUnreachable(Exception):
    """The database did not answer at start-up (the message names its host, never the
    password)."""


def where(settings: Settings) -> str:
    url = make_url(settings.async_database_url)
    if url.get_backend_name() == "sqlite":
        return f"sqlite file {url.database}"
    return f"{url.get_backend_name()} at {url.host}:{url.port or 5432}/{url.database}"


def wait_for_database(
    settings: Settings, within_s: float = 15.0, since: float | None = None
) -> None:
    """Return once the database answers ``SELECT 1``, trying until ``within_s`` has
    passed since ``since`` (a ``time.monotonic()``; by default, now); then raise
    DatabaseUnreachable. The deadline bounds the whole wait, a try in flight included
    (a silent server would otherwise hold each try for its connect timeout). Runs its
    own event loop on a thread, so it may be called while another loop runs (uvicorn
    imports the app inside its loop)."""
    started = time.monotonic() if since is None else since
    budget_s = max(FIRST_TRY_S, started + within_s - time.monotonic())

    async def probe() -> None:
        engine = create_async_engine(
            settings.async_database_url,
            connect_args={} if settings.is_sqlite else {"timeout": settings.db_connect_timeout_s},
        )
        reason = "no answer"
        try:
            async with asyncio.timeout(budget_s):
                while True:
                    try:
                        async with engine.connect() as connection:
                            await connection.execute(text("SELECT 1"))
                        return
                    except (SQLAlchemyError, OSError) as exc:
                        reason = type(getattr(exc, "orig", None) or exc).__name__
                    await asyncio.sleep(1)
        except TimeoutError:
            raise DatabaseUnreachable(
                f"the database ({where(settings)}) did not answer within "
                f"{within_s:.0f} s ({reason})"
            ) from None
        finally:
            await engine.dispose()

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, probe()).result()


class DirectStatement:
    """One PostgreSQL statement sent on a pooled connection's asyncpg driver itself,
    outside SQLAlchemy's execution layer: for the move path's write, where that layer
    (checkout in autocommit, execution context, result) cost 0.43 ms of CPU a call,
    three times the driver's own. The pool, its timeouts and its recycling still apply;
    errors come out as SQLAlchemy's, as every caller and ``app.outage`` expect them."""

    def __init__(self, engine: AsyncEngine, statement: TextClause) -> None:
        self.engine = engine
        compiled = statement.compile(dialect=engine.dialect)
        self.sql = str(compiled)
        self.names = list(compiled.positiontup or ())

    async def fetch(self, params: dict[str, Any]) -> list[Any]:
        """The rows (asyncpg's records). Runs outside any transaction block: atomic
        only as one statement is."""
        args = [params[name] for name in self.names]
        pooled = await self._checkout()
        driver: Any = pooled.driver_connection  # asyncpg's Connection (it ships no types)
        try:
            rows: list[Any] = await driver.fetch(self.sql, *args)
            return rows
        except asyncpg.PostgresError as error:  # refused by the server
            lost = driver.is_closed()  # it may close the link as it refuses
            if lost:
                pooled.invalidate(error)
            raise DBAPIError(self.sql, None, error, connection_invalidated=lost) from error
        except Exception as error:  # the link broke, timed out or lost its footing
            # (asyncpg's InterfaceError, OSError, TimeoutError, or its InternalClientError
            # when the server's farewell came between two statements)
            pooled.invalidate(error)
            raise OperationalError(self.sql, None, error, connection_invalidated=True) from error
        except BaseException:  # cancelled mid-statement: the link's state is unknown
            pooled.invalidate()
            raise
        finally:
            pooled.close()

    async def _checkout(self) -> PoolProxiedConnection:
        """A connection of the pool. The pool raises the driver's own error when it cannot
        open one (too many connections, say): it comes out as SQLAlchemy's, as from
        ``Engine.connect``."""
        dialect = self.engine.dialect
        try:
            return await self.engine.raw_connection()
        except dialect.loaded_dbapi.Error as error:
            raise DBAPIError.instance(
                None, None, error, dialect.loaded_dbapi.Error, dialect=dialect
            ) from error
