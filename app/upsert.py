"""INSERT ... ON CONFLICT DO NOTHING for SQLite and PostgreSQL alike."""

from __future__ import annotations

from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession


def insert_ignore(session: AsyncSession, model: Any, values: dict[str, Any]) -> Any:
    dialect = session.bind.dialect.name if session.bind is not None else "sqlite"
    module = postgresql if dialect == "postgresql" else sqlite
    return module.insert(model).values(**values).on_conflict_do_nothing()


def insert_or_update(
    session: AsyncSession,
    model: Any,
    values: dict[str, Any],
    key: str | tuple[str, ...],
    only: set[str] | None = None,
) -> Any:
    """INSERT ... ON CONFLICT (key) DO UPDATE: the row of that key (one column or several)
    takes every value (or only the columns named in ``only``)."""
    dialect = session.bind.dialect.name if session.bind is not None else "sqlite"
    module = postgresql if dialect == "postgresql" else sqlite
    keys = (key,) if isinstance(key, str) else key
    statement = module.insert(model).values(**values)
    changed = {
        name: getattr(statement.excluded, name)
        for name in values
        if name not in keys and (only is None or name in only)
    }
    return statement.on_conflict_do_update(index_elements=list(keys), set_=changed)
