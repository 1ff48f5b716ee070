"""Who is connected to a game, per seat, across every process.

Each open socket of a seated player keeps a lease "present until <ms>" for its seat,
renewed by a heartbeat and cut short when it closes. A seat is connected while any lease
runs; when none does, the latest lease end tells since when the player has been away.
A process killed outright simply stops renewing: its leases run out by themselves.
In one process the leases live in memory; with Redis, in a sorted set per seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import redis.asyncio as aioredis

LEASE_MS = 30_000
HEARTBEAT_S = 10.0


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


class Presence(Protocol):
    async def hold(self, game_id: str, seat: int, conn_id: str, until_ms: int) -> None: ...
    async def seats(self, game_id: str, count: int, now_ms: int) -> list[SeatPresence]: ...
    async def close(self) -> None: ...


class LocalPresence:
    def __init__(self) -> None:
        self.leases: dict[tuple[str, int], dict[str, int]] = {}

    async def hold(self, game_id: str, seat: int, conn_id: str, until_ms: int) -> None:
        self.leases.setdefault((game_id, seat), {})[conn_id] = until_ms

    async def seats(self, game_id: str, count: int, now_ms: int) -> list[SeatPresence]:
        result = []
        for seat in range(count):
            leases = self.leases.get((game_id, seat))
            result.append(summarise(max(leases.values()) if leases else None, now_ms))
        return result

    async def close(self) -> None:
        return None


class RedisPresence:
    KEEP_S = 24 * 3600  # forget a game's leases a day after the last one

    def __init__(self, url: str) -> None:
        self.redis: aioredis.Redis = aioredis.Redis.from_url(url)

    @staticmethod
    def key(game_id: str, seat: int) -> str:
        return f"presence:{game_id}:{seat}"

    async def hold(self, game_id: str, seat: int, conn_id: str, until_ms: int) -> None:
        key = self.key(game_id, seat)
        async with self.redis.pipeline(transaction=True) as pipe:
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
