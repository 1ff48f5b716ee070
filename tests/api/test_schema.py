"""The schema is created only by Alembic: the migrations must match the models exactly."""

from __future__ import annotations

import asyncio

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy.ext.asyncio import create_async_engine

from app.config import Settings
from app.models import Base


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
