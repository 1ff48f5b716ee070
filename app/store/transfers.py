"""Queries on device-transfer codes: issue one, and claim one exactly once."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Player, Transfer
from app.store.games import rowcount
from app.upsert import insert_ignore


class TransferQueries:
    """The transfer codes' queries (``Store`` inherits them; ``transaction`` is
    ``GameQueries``')."""

    transaction: Callable[[], AbstractAsyncContextManager[AsyncSession]]

    async def add_transfer(
        self, code_hash: str, player_id: str, now_ms: int, expires_ms: int
    ) -> None:
        """Keep a new code (its hash); codes that ran out are dropped on the way."""
        async with self.transaction() as session:
            await session.execute(
                insert_ignore(session, Player, {"id": player_id, "created_ms": now_ms})
            )
            await session.execute(delete(Transfer).where(Transfer.expires_ms <= now_ms))
            session.add(
                Transfer(
                    code_hash=code_hash,
                    player_id=player_id,
                    created_ms=now_ms,
                    expires_ms=expires_ms,
                    used_ms=None,
                )
            )

    async def claim_transfer(self, code_hash: str, now_ms: int) -> str | None:
        """Use a code: the player it names, or None when it is unknown, used or expired.
        One guarded update decides, so of two racing claims exactly one wins."""
        async with self.transaction() as session:
            used = await session.execute(
                update(Transfer)
                .where(
                    Transfer.code_hash == code_hash,
                    Transfer.used_ms.is_(None),
                    Transfer.expires_ms > now_ms,
                )
                .values(used_ms=now_ms)
                .execution_options(synchronize_session=False)
            )
            if rowcount(used) != 1:
                return None
            player_id: str | None = await session.scalar(
                select(Transfer.player_id).where(Transfer.code_hash == code_hash)
            )
            return player_id
