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
import math
import time
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Awaitable, Callable

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from app.batching import Batched
from app.wire import SeatPresence

log = logging.getLogger("app.presence")

LEASE_MS = 45_000
HEARTBEAT_S = 20.0
RENEW_SLICE = 100  # leases renewed per round trip
COALESCE_S = 0.25  # presence messages per game: at most one this often from a process


def summarise(last_until: float | None, now_ms: int) -> SeatPresence:
    if last_until is None:
        return SeatPresence(connected=False, away_ms=None)
    if last_until > now_ms:
        return SeatPresence(connected=True, away_ms=0)
    return SeatPresence(connected=False, away_ms=int(now_ms - last_until))


Lease = tuple[str, int, str]  # (game id, seat, connection id)


def arena_lease(arena_id: str, player_id: str) -> str:
    """What a player's open arena page holds a lease on (seat 0), in place of a game id."""
    return f"arena:{arena_id}:{player_id}"


class Presence(ABC):
    """Leases of this process's sockets, renewed together in one batch per heartbeat
    (a thousand sockets cost one round trip every ``HEARTBEAT_S``, not a thousand)."""

    def __init__(self) -> None:
        self.tracked: set[Lease] = set()
        self.held: Counter[tuple[str, int]] = Counter()  # (game id, seat) → its leases here

    async def join(self, leases: list[Lease], now_ms: int) -> None:
        for lease in set(leases) - self.tracked:
            self.held[lease[:2]] += 1
        self.tracked.update(leases)
        await self.hold(leases, now_ms + LEASE_MS)

    async def leave(self, leases: list[Lease], now_ms: int) -> None:
        for lease in set(leases) & self.tracked:
            self.held[lease[:2]] -= 1
            if not self.held[lease[:2]]:
                del self.held[lease[:2]]
        self.tracked.difference_update(leases)
        await self.hold(leases, now_ms)

    def held_here(self, game_id: str, seat: int) -> bool:
        """A socket of this process holds the seat: it is connected, known without a round
        trip (a move's push check asks this first; only a seat held elsewhere costs one)."""
        return (game_id, seat) in self.held

    async def renew_forever(self, now_ms: Callable[[], int]) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_S)
            leases = list(self.tracked)
            try:
                # In slices, so a thousand sockets' renewal never holds up moves at once.
                for start in range(0, len(leases), RENEW_SLICE):
                    await self.hold(leases[start : start + RENEW_SLICE], now_ms() + LEASE_MS)
            except (RedisError, OSError) as exc:  # the next heartbeat tries again
                log.warning("presence renewal failed: %s", exc)

    @abstractmethod
    async def hold(self, leases: list[Lease], until_ms: int) -> None:
        """Set the given leases to run until ``until_ms`` (now, to end them)."""

    @abstractmethod
    async def seats(self, game_id: str, count: int, now_ms: int) -> list[SeatPresence]:
        """The presence of each of a game's seats."""


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

    def __init__(self, redis: aioredis.Redis) -> None:
        super().__init__()
        self.redis = redis
        self._held = Batched(self._hold_all)

    @staticmethod
    def key(game_id: str, seat: int) -> str:
        return f"presence:{game_id}:{seat}"

    async def hold(self, leases: list[Lease], until_ms: int) -> None:
        if leases:
            await self._held((leases, until_ms))

    async def _hold_all(self, batch: list[tuple[list[Lease], int]]) -> list[None]:
        """Many sockets' lease changes in one pipeline."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for leases, until_ms in batch:
                for game_id, seat, conn_id in leases:
                    key = self.key(game_id, seat)
                    pipe.zadd(key, {conn_id: until_ms})
                    pipe.expire(key, self.KEEP_S)
            await pipe.execute()
        return [None] * len(batch)

    async def seats(self, game_id: str, count: int, now_ms: int) -> list[SeatPresence]:
        async with self.redis.pipeline(transaction=False) as pipe:
            for seat in range(count):
                pipe.zrevrange(self.key(game_id, seat), 0, 0, withscores=True)
            latest = await pipe.execute()
        return [summarise(top[0][1] if top else None, now_ms) for top in latest]


def make_presence(redis: aioredis.Redis | None) -> LocalPresence | RedisPresence:
    return RedisPresence(redis) if redis is not None else LocalPresence()


class Throttle:
    """At most one call of ``announce(game_id, seat_count)`` per game every
    ``interval_s`` from this process, never two at once for one game: the first change
    is announced right away, changes during an announcement or within the interval are
    folded into one more at its end (which reads the presence as it is then). Six hundred
    sockets arriving together cost a few messages, not one per socket."""

    def __init__(
        self, announce: Callable[[str, int], Awaitable[None]], interval_s: float = COALESCE_S
    ) -> None:
        self.announce = announce
        self.interval_s = interval_s
        self.last: dict[str, float] = {}
        self.pending: dict[str, asyncio.Task[None]] = {}  # one announcer per game
        self.changed_since: set[str] = set()
        self.seat_counts: dict[str, int] = {}

    async def changed(self, game_id: str, seat_count: int) -> None:
        self.seat_counts[game_id] = seat_count
        if game_id in self.pending:
            self.changed_since.add(game_id)  # its announcer will say it once more
            return
        self.pending[game_id] = asyncio.create_task(self._announcer(game_id))

    async def _announcer(self, game_id: str) -> None:
        try:
            while True:
                wait = self.last.get(game_id, -math.inf) + self.interval_s - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                self.changed_since.discard(game_id)
                self._mark(game_id)
                await self.announce(game_id, self.seat_counts[game_id])
                if game_id not in self.changed_since:
                    return
        finally:
            del self.pending[game_id]
            self.seat_counts.pop(game_id, None)

    def _mark(self, game_id: str) -> None:
        now = time.monotonic()
        self.last[game_id] = now
        if len(self.last) > 4096:  # forget games quiet for longer than the interval
            quiet = now - self.interval_s
            self.last = {g: at for g, at in self.last.items() if at > quiet}

    def cancel(self) -> None:
        for task in list(self.pending.values()):
            task.cancel()
