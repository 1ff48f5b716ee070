"""Alembic environment: the database URL comes from the app's Settings (DATABASE_URL)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from alembic import context
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from app.config import Settings
from app.models import Base

target_metadata = Base.metadata


def _url() -> str:
    override = context.config.attributes.get("database_url")
    settings = Settings(database_url=override) if override else Settings()
    url = settings.async_database_url
    if settings.is_sqlite:
        Path(url.split(":///", 1)[1]).parent.mkdir(parents=True, exist_ok=True)
    return url


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_async() -> None:
    engine = create_async_engine(_url())
    async with engine.connect() as connection:
        await connection.run_sync(_run)
        await connection.commit()
        if connection.dialect.name == "sqlite":
            # Kept in the file: readers and the writer never wait for each other. Set
            # here once, not as each connection opens (see app.db.make_engine).
            await connection.exec_driver_sql("PRAGMA journal_mode=WAL")
    await engine.dispose()


def run_migrations_online() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:  # called from code that already holds a connection
        _run(connection)
    else:
        asyncio.run(_run_async())


if context.is_offline_mode():
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    run_migrations_online()
