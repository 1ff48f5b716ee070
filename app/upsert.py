"""INSERT ... ON CONFLICT DO NOTHING for SQLite and PostgreSQL alike."""

from __future__ import annotations

from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession


def insert_ignore(session: AsyncSession, model: Any, values: dict[str, Any]) -> Any:
    dialect = session.bind.dialect.name if session.bind is not None else "sqlite"
    module = postgresql if dialect == "postgresql" else sqlite
    return module.insert(model).values(**values).on_conflict_do_nothing()
