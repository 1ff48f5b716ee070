"""Queries on device-transfer codes: issue one, and claim one exactly once."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.models import Player, Transfer
from app.store.games import rowcount


class TransferQueries:
    """The transfer codes' queries (``Store`` inherits them; ``transaction`` is
    ``GameQueries``')."""

    transaction: Callable[[], AbstractAsyncContextManager[AsyncSession]]
    sessions: async_sessionmaker[AsyncSession]

    async def add_transfer(
        self, code_hash: str, player_id: str, now_ms: int, expires_ms: int
    ) -> bool:
        """Keep a new code (its hash) for a player who has a row; False, keeping nothing,
        for one who has none (a code never makes a player). Codes that ran out are
        dropped on the way."""
        async with self.transaction() as session:
            if await session.scalar(select(Player.id).where(Player.id == player_id)) is None:
                return False
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
        return True

    async def transfer_owner(self, code_hash: str, now_ms: int) -> str | None:
        """The player a code names while it can still be claimed, without using it (the
        page a transfer link opens shows who the browser would become)."""
        async with self.sessions() as session:
            owner: str | None = await session.scalar(
                select(Transfer.player_id).where(
                    Transfer.code_hash == code_hash,
                    Transfer.used_ms.is_(None),
                    Transfer.expires_ms > now_ms,
                )
            )
        return owner

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
