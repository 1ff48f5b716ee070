"""Who is connected to a game, per seat, across every process.

Each open socket of a seated player keeps a lease "present until <ms>" for its seat,
renewed by the process's heartbeat and cut short when it closes. A seat is connected while any lease
runs; when none does, the latest lease end tells since when the player has been away.
A process killed outright simply stops renewing: its leases run out by themselves.
In one process the leases live in memory; with Redis, in a sorted set per seat.
"""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from app.hub import redis_client

log = logging.getLogger("app.presence")

LEASE_MS = 45_000
HEARTBEAT_S = 20.0


@dataclass(frozen=True)
class SeatPresence:
    connected: bool
    away_ms: int | None  # None: never seen

    def to_json(self) -> dict[str, Any]:
        return {"connected": self.connected, "away_ms": self.away_ms}


def summarise(last_until: float | None, now_ms: int) -> SeatPresence:
    if last_until is None:
        return SeatPresence(False, None)
    if last_until > now_ms:
        return SeatPresence(True, 0)
    return SeatPresence(False, int(now_ms - last_until))


Lease = tuple[str, int, str]  # (game id, seat, connection id)


class Presence(ABC):
    """Leases of this process's sockets, renewed together in one batch per heartbeat
    (a thousand sockets cost one round trip every ``HEARTBEAT_S``, not a thousand)."""

    def __init__(self) -> None:
        self.tracked: set[Lease] = set()

    async def join(self, leases: list[Lease], now_ms: int) -> None:
        self.tracked.update(leases)
        await self.hold(leases, now_ms + LEASE_MS)

    async def leave(self, leases: list[Lease], now_ms: int) -> None:
        self.tracked.difference_update(leases)
        await self.hold(leases, now_ms)

    async def renew_forever(self, now_ms: Callable[[], int]) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_S)
            try:
                await self.hold(list(self.tracked), now_ms() + LEASE_MS)
            except (RedisError, OSError) as exc:  # the next heartbeat tries again
                log.warning("presence renewal failed: %s", exc)

    @abstractmethod
    async def hold(self, leases: list[Lease], until_ms: int) -> None:
        """Set the given leases to run until ``until_ms`` (now, to end them)."""

    @abstractmethod
    async def seats(self, game_id: str, count: int, now_ms: int) -> list[SeatPresence]:
        """The presence of each of a game's seats."""

    async def close(self) -> None:
        return None


class LocalPresence(Presence):
    def __init__(self) -> None:
        super().__init__()
        self.leases: dict[tuple[str, int], dict[str, int]] = {}

    async def hold(self, leases: list[Lease], until_ms: int) -> None:
        for game_id, seat, conn_id in leases:
            self.leases.setdefault((game_id, seat), {})[conn_id] = until_ms

    async def seats(self, game_id: str, count: int, now_ms: int) -> list[SeatPresence]:
        result = []
        for seat in range(count):
            leases = self.leases.get((game_id, seat))
            result.append(summarise(max(leases.values()) if leases else None, now_ms))
        return result


class RedisPresence(Presence):
    KEEP_S = 24 * 3600  # forget a game's leases a day after the last one

    def __init__(self, url: str) -> None:
        super().__init__()
        self.redis: aioredis.Redis = redis_client(url)

    @staticmethod
    def key(game_id: str, seat: int) -> str:
        return f"presence:{game_id}:{seat}"

    async def hold(self, leases: list[Lease], until_ms: int) -> None:
        if not leases:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for game_id, seat, conn_id in leases:
                key = self.key(game_id, seat)
                pipe.zadd(key, {conn_id: until_ms})
                pipe.expire(key, self.KEEP_S)
            await pipe.execute()

    async def seats(self, game_id: str, count: int, now_ms: int) -> list[SeatPresence]:
        async with self.redis.pipeline(transaction=False) as pipe:
            for seat in range(count):
                pipe.zrevrange(self.key(game_id, seat), 0, 0, withscores=True)
            latest = await pipe.execute()
        return [summarise(top[0][1] if top else None, now_ms) for top in latest]

    async def close(self) -> None:
        await self.redis.aclose()


def make_presence(redis_url: str | None) -> LocalPresence | RedisPresence:
    return RedisPresence(redis_url) if redis_url else LocalPresence()
