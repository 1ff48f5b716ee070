"""Queries on Web Push subscriptions: keep one per endpoint (at most a few per player),
read a player's for a notice, and forget one the push service says is gone."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.models import Player, PushSubscription
from app.upsert import insert_ignore, insert_or_update


@dataclass(frozen=True)
class Subscription:
    endpoint: str
    p256dh: str
    auth: str
    kinds: tuple[str, ...]
    lang: str


def endpoint_hash(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode()).hexdigest()


class PushQueries:
    """The push subscriptions' queries (``Store`` inherits them)."""

    transaction: Callable[[], AbstractAsyncContextManager[AsyncSession]]
    sessions: async_sessionmaker[AsyncSession]

    async def subscribe(self, player_id: str, sub: Subscription, limit: int, now_ms: int) -> bool:
        """Keep ``sub`` for the player, replacing the row of the same endpoint (whoever it
        belonged to: a browser is one player at a time). False, keeping nothing, when the
        player already has ``limit`` other subscriptions."""
        key = endpoint_hash(sub.endpoint)
        async with self.transaction() as session:
            await session.execute(
                insert_ignore(session, Player, {"id": player_id, "created_ms": now_ms})
            )
            # the player's row held to the end: two subscriptions racing are counted in turn
            await session.execute(
                select(Player.id).where(Player.id == player_id).with_for_update()
            )
            others = await session.scalar(
                select(func.count())
                .select_from(PushSubscription)
                .where(
                    PushSubscription.player_id == player_id, PushSubscription.endpoint_hash != key
                )
            )
            if (others or 0) >= limit:
                return False
            row = {
                "endpoint_hash": key,
                "player_id": player_id,
                "endpoint": sub.endpoint,
                "p256dh": sub.p256dh,
                "auth": sub.auth,
                "kinds": list(sub.kinds),
                "lang": sub.lang,
                "created_ms": now_ms,
            }
            # one row per endpoint even when the same browser subscribes twice at once
            await session.execute(insert_or_update(session, PushSubscription, row, "endpoint_hash"))
        return True

    async def unsubscribe(self, player_id: str, endpoint: str) -> None:
        """Forget the player's subscription at ``endpoint`` (nothing if there is none)."""
        async with self.transaction() as session:
            await session.execute(
                delete(PushSubscription).where(
                    PushSubscription.endpoint_hash == endpoint_hash(endpoint),
                    PushSubscription.player_id == player_id,
                )
            )

    async def forget_endpoint(self, endpoint: str) -> None:
        """The push service says this subscription is gone (404/410): drop it."""
        async with self.transaction() as session:
            await session.execute(
                delete(PushSubscription).where(
                    PushSubscription.endpoint_hash == endpoint_hash(endpoint)
                )
            )

    async def subscriptions(self, player_id: str, kind: str) -> Sequence[Subscription]:
        """The player's subscriptions that want notices of ``kind``."""
        async with self.sessions() as session:
            rows = await session.scalars(
                select(PushSubscription).where(PushSubscription.player_id == player_id)
            )
            return [
                Subscription(row.endpoint, row.p256dh, row.auth, tuple(row.kinds), row.lang)
                for row in rows
                if kind in row.kinds
            ]
