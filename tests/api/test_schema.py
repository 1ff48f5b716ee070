"""The schema is created only by Alembic: the migrations must match the models exactly."""

from __future__ import annotations

import asyncio
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy.ext.asyncio import create_async_engine

from app.config import Settings
from app.db import make_engine
from app.models import Base
from tests.conftest import migrate


def test_models_and_migrations_agree(database_url: str) -> None:
    async def diff() -> list[object]:
        engine = create_async_engine(Settings(database_url=database_url).async_database_url)
        async with engine.connect() as conn:
            result = await conn.run_sync(
                lambda sync: compare_metadata(
                    MigrationContext.configure(sync, opts={"compare_type": True}), Base.metadata
                )
            )
        await engine.dispose()
        return list(result)

    assert asyncio.run(diff()) == []


def test_a_migrated_sqlite_file_is_in_wal_mode_and_connections_enforce_foreign_keys(
    tmp_path: Path,
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'wal.sqlite3'}"
    migrate(url)

    async def pragmas() -> tuple[str, int, int]:
        engine = make_engine(Settings(database_url=url, secret="x"))
        async with engine.connect() as conn:
            mode = (await conn.exec_driver_sql("PRAGMA journal_mode")).scalar_one()
            keys = (await conn.exec_driver_sql("PRAGMA foreign_keys")).scalar_one()
            synchronous = (await conn.exec_driver_sql("PRAGMA synchronous")).scalar_one()
        await engine.dispose()
        return mode, keys, synchronous

    assert asyncio.run(pragmas()) == ("wal", 1, 1)  # synchronous 1 is NORMAL
