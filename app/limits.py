"""Limits per client: events per time window (games created) and slots held at once
(open sockets). In one process they live in memory; with Redis they hold across every
process of the site, and while Redis cannot be reached each process counts in its own
memory again: limits fail closed (per process is looser than per site, but never off).

Cookies cost nothing, so each limit applies per player and, more generously, per client
address (many real players share one address behind carrier-grade NAT).
"""

from __future__ import annotations

import asyncio
import logging
import time
from abc import ABC, abstractmethod
from collections import defaultdict

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from app.batching import Batched
from app.clock import Clock, SystemClock
from app.config import Settings
from app.errors import AppError
from app.metrics import RATE_LIMITED
from engines.core.errors import AppCode

log = logging.getLogger("app.limits")

SLOT_LEASE_MS = 60_000  # a slot of a process that died frees itself after this long
RENEW_S = 20.0
RENEW_SLICE = 100  # slots renewed per round trip

# Take a slot unless ``limit`` live ones are held: drop run-out leases, count, add.
TAKE_SLOT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
"""


class Limiter(ABC):
    def __init__(self) -> None:
        self.held: set[tuple[str, str]] = set()  # (key, holder) slots of this process

    @abstractmethod
    async def hit(self, key: str, limit: int, window_s: int) -> int | None:
        """Count one event under ``key``. When ``limit`` events already fell in the
        current window, the event is refused: returns the seconds until the window ends."""

    async def take(self, key: str, holder: str, limit: int) -> bool:
        """Hold one of ``limit`` slots under ``key``; False when all are held."""
        if not await self._take(key, holder, limit):
            return False
        self.held.add((key, holder))
        return True

    async def give_back(self, key: str, holder: str) -> None:
        self.held.discard((key, holder))
        await self._give_back(key, holder)

    @abstractmethod
    async def _take(self, key: str, holder: str, limit: int) -> bool: ...

    @abstractmethod
    async def _give_back(self, key: str, holder: str) -> None: ...

    async def renew_forever(self) -> None:
        """Keep this process's slots alive (only Redis leases run out)."""
        return None


class MemoryLimiter(Limiter):
    def __init__(self, clock: Clock | None = None) -> None:
        super().__init__()
        self.clock = clock or SystemClock()  # windows are the server's minutes (tests hold it)
        self.windows: dict[str, tuple[int, int]] = {}  # key -> (window number, count)
        self.slots: defaultdict[str, set[str]] = defaultdict(set)

    async def hit(self, key: str, limit: int, window_s: int) -> int | None:
        now = self.clock.now_ms() / 1000
        window = int(now // window_s)
        if len(self.windows) > 100_000:  # forget finished windows
            self.windows = {k: v for k, v in self.windows.items() if v[0] >= window}
        seen, count = self.windows.get(key, (window, 0))
        count = count if seen == window else 0
        if count >= limit:
            return max(1, int((window + 1) * window_s - now + 0.999))
        self.windows[key] = (window, count + 1)
        return None

    async def _take(self, key: str, holder: str, limit: int) -> bool:
        if len(self.slots[key]) >= limit:
            return False
        self.slots[key].add(holder)
        return True

    async def _give_back(self, key: str, holder: str) -> None:
        holders = self.slots.get(key)
        if holders is not None:
            holders.discard(holder)
            if not holders:
                del self.slots[key]


class RedisLimiter(Limiter):
    def __init__(self, redis: aioredis.Redis, clock: Clock | None = None) -> None:
        super().__init__()
        self.redis = redis
        self.clock = clock or SystemClock()  # for the windows (slot leases: real time)
        self.take_slot = redis.register_script(TAKE_SLOT)
        self._taken = Batched(self._take_all)
        self._given_back = Batched(self._give_back_all)

    async def hit(self, key: str, limit: int, window_s: int) -> int | None:
        now = self.clock.now_ms() / 1000
        window = int(now // window_s)
        name = f"limit:{key}:{window}"
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.incr(name)
            pipe.expire(name, window_s + 1)
            count, _ = await pipe.execute()
        if int(count) > limit:
            return max(1, int((window + 1) * window_s - now + 0.999))
        return None

    async def _take(self, key: str, holder: str, limit: int) -> bool:
        return await self._taken((key, holder, limit))

    async def _give_back(self, key: str, holder: str) -> None:
        await self._given_back((key, holder))

    async def _take_all(self, batch: list[tuple[str, str, int]]) -> list[bool]:
        """Many sockets' slot requests in one pipeline (each one atomic in Redis)."""
        now = int(time.time() * 1000)
        async with self.redis.pipeline(transaction=False) as pipe:
            for key, holder, limit in batch:
                args: list[str | int] = [now, limit, now + SLOT_LEASE_MS, holder, SLOT_LEASE_MS * 2]
                await self.take_slot(keys=[f"slots:{key}"], args=args, client=pipe)
            return [bool(taken) for taken in await pipe.execute()]

    async def _give_back_all(self, batch: list[tuple[str, str]]) -> list[None]:
        async with self.redis.pipeline(transaction=False) as pipe:
            for key, holder in batch:
                pipe.zrem(f"slots:{key}", holder)
            await pipe.execute()
        return [None] * len(batch)

    async def renew_forever(self) -> None:
        while True:
            await asyncio.sleep(RENEW_S)
            until = int(time.time() * 1000) + SLOT_LEASE_MS
            held = list(self.held)
            try:
                for start in range(0, len(held), RENEW_SLICE):  # slices: no long pause
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for key, holder in held[start : start + RENEW_SLICE]:
                            pipe.zadd(f"slots:{key}", {holder: until}, xx=True)
                        await pipe.execute()
            except (RedisError, OSError) as exc:  # the next round tries again
                log.warning("renewing socket slots failed: %s", exc)


class FallbackLimiter(Limiter):
    """Redis's counters while Redis answers; this process's own (a MemoryLimiter) while
    it does not. The outage is logged once when it starts and once when it ends; in
    between, Redis is tried again every ``RETRY_S``, not on every event (each would wait
    for its timeout while Redis is silent)."""

    RETRY_S = 5.0

    def __init__(self, redis: RedisLimiter) -> None:
        super().__init__()
        self.redis = redis
        self.memory = MemoryLimiter(redis.clock)
        self.local: set[tuple[str, str]] = set()  # slots taken in memory, given back there
        self.down_since: float | None = None  # monotonic time of the outage's start
        self.retry_at = 0.0

    async def hit(self, key: str, limit: int, window_s: int) -> int | None:
        if self._redis_worth_trying():
            try:
                wait = await self.redis.hit(key, limit, window_s)
            except (RedisError, OSError) as exc:
                self._lost(exc)
            else:
                self._answered()
                return wait
        return await self.memory.hit(key, limit, window_s)

    async def _take(self, key: str, holder: str, limit: int) -> bool:
        if self._redis_worth_trying():
            try:
                taken = await self.redis.take(key, holder, limit)
            except (RedisError, OSError) as exc:
                self._lost(exc)
            else:
                self._answered()
                return taken
        if not await self.memory.take(key, holder, limit):
            return False
        self.local.add((key, holder))
        return True

    async def _give_back(self, key: str, holder: str) -> None:
        """Where the slot was taken. A Redis slot that cannot be given back now frees
        itself when its lease runs out (the error is the caller's to log)."""
        if (key, holder) in self.local:
            self.local.discard((key, holder))
            await self.memory.give_back(key, holder)
        else:
            await self.redis.give_back(key, holder)

    async def renew_forever(self) -> None:
        await self.redis.renew_forever()

    def _redis_worth_trying(self) -> bool:
        """While Redis is away, one event every ``RETRY_S`` tries it again (the others,
        meanwhile, count here without waiting on it)."""
        if self.down_since is None:
            return True
        now = time.monotonic()
        if now < self.retry_at:
            return False
        self.retry_at = now + self.RETRY_S
        return True

    def _lost(self, exc: BaseException) -> None:
        now = time.monotonic()
        if self.down_since is None:
            self.down_since = now
            log.warning(
                "limits: redis unreachable (%s); counting in this process until it is back",
                type(exc).__name__,
            )
        self.retry_at = now + self.RETRY_S

    def _answered(self) -> None:
        if self.down_since is not None:
            log.warning(
                "limits: redis is back after %.0f s; counting across processes again",
                time.monotonic() - self.down_since,
            )
            self.down_since = None


def make_limiter(redis: aioredis.Redis | None, clock: Clock) -> Limiter:
    return MemoryLimiter(clock) if redis is None else FallbackLimiter(RedisLimiter(redis, clock))


class Admission:
    """The limits of ``Settings`` applied to players and client addresses."""

    def __init__(self, limiter: Limiter, settings: Settings) -> None:
        self.limiter = limiter
        self.settings = settings

    async def creating(self, player_id: str, address: str) -> None:
        """Count a game created; 429 ``rate_limited`` with Retry-After beyond the limits."""
        settings = self.settings
        await self._count_both(
            "create",
            "new games",
            player_id,
            address,
            (settings.limit_creates_per_player_min, settings.limit_creates_per_ip_min),
        )

    async def pacing(self, game_id: str) -> None:
        """Count a move that changes nothing on the board (an engine's ``paced_moves``,
        Pairs' pause and resume): a game's log must not grow by thousands of them."""
        limit = self.settings.limit_paced_moves_per_game_min
        await self._count("paced", "pauses and resumes", ((f"game:{game_id}", limit),))

    async def seeking(self, player_id: str, address: str) -> None:
        """Count a seek posted (quick pairing)."""
        settings = self.settings
        await self._count_both(
            "seek",
            "seeks",
            player_id,
            address,
            (settings.limit_seeks_per_player_min, settings.limit_seeks_per_ip_min),
        )

    async def arenas(self, player_id: str, address: str) -> None:
        """Count an arena made (each is listed to everyone for a day)."""
        limits = (self.settings.limit_arenas_per_player_min, self.settings.limit_arenas_per_ip_min)
        await self._count_both("arena", "arenas", player_id, address, limits)

    async def transferring(self, player_id: str, address: str) -> None:
        """Count a device-transfer code asked for (each is a row until it runs out): per
        browser, and per address, since a new cookie costs nothing."""
        settings = self.settings
        await self._count_both(
            "transfer",
            "transfer codes",
            player_id,
            address,
            (settings.limit_transfers_per_player_min, settings.limit_transfers_per_ip_min),
        )

    async def claiming(self, player_id: str, address: str) -> None:
        """Count a claim of a transfer code: each one is a guess, so both the browser
        and its address are held to a few a minute."""
        settings = self.settings
        await self._count_both(
            "claim",
            "code attempts",
            player_id,
            address,
            (settings.limit_claims_per_player_min, settings.limit_claims_per_ip_min),
        )

    async def subscribing(self, player_id: str, address: str) -> None:
        """Count a push subscription written or removed (each is a row write)."""
        settings = self.settings
        await self._count_both(
            "push",
            "notification changes",
            player_id,
            address,
            (settings.limit_push_writes_per_player_min, settings.limit_push_writes_per_ip_min),
        )

    async def replaying(self, player_id: str | None, address: str) -> None:
        """Count a replay that folds a log (a cached one costs nothing and is not counted)."""
        settings = self.settings
        await self._count_both(
            "replay",
            "replays",
            player_id,
            address,
            (settings.limit_replays_per_player_min, settings.limit_replays_per_ip_min),
        )

    async def verifying(self, player_id: str | None, address: str) -> None:
        """Count a submitted log replayed for verification."""
        settings = self.settings
        await self._count_both(
            "verify",
            "verifications",
            player_id,
            address,
            (settings.limit_verifies_per_player_min, settings.limit_verifies_per_ip_min),
        )

    @staticmethod
    def _player_and_address(
        player_id: str | None, address: str, per_player: int, per_ip: int
    ) -> tuple[tuple[str, int], ...]:
        """The keys to count: the player's (when known) and the address's."""
        by_ip = (f"ip:{address}", per_ip)
        return ((f"player:{player_id}", per_player), by_ip) if player_id else (by_ip,)

    async def _count_both(
        self, action: str, what: str, player_id: str | None, address: str, limits: tuple[int, int]
    ) -> None:
        """Count the player (when known) and the address, each against its own limit."""
        await self._count(action, what, self._player_and_address(player_id, address, *limits))

    async def _count(self, action: str, what: str, keys: tuple[tuple[str, int], ...]) -> None:
        for key, limit in keys:
            wait = await self.limiter.hit(f"{action}:{key}", limit, 60)
            if wait is not None:
                RATE_LIMITED.labels(action).inc()
                raise AppError(
                    AppCode.RATE_LIMITED,
                    f"at most {limit} {what} a minute; try again in {wait} s",
                    headers={"Retry-After": str(wait)},
                )

    def waiting_since(self, now_ms: int) -> int:
        """Games still waiting for an opponent that were created before this have
        expired: they leave the open list and cannot be joined."""
        return now_ms - self.settings.waiting_ttl_s * 1000

    async def open_socket(self, player_id: str | None, address: str, holder: str) -> bool:
        """Take a socket slot for the player (if any) and the address; False, holding
        nothing, when either has all of its slots taken."""
        slots = [(f"sockets:ip:{address}", self.settings.limit_sockets_per_ip)]
        if player_id:
            slots.append((f"sockets:player:{player_id}", self.settings.limit_sockets_per_player))
        taken: list[str] = []
        for key, limit in slots:
            if not await self.limiter.take(key, holder, limit):
                for key_taken in taken:
                    await self.limiter.give_back(key_taken, holder)
                return False
            taken.append(key)
        return True

    async def close_socket(self, player_id: str | None, address: str, holder: str) -> None:
        await self.limiter.give_back(f"sockets:ip:{address}", holder)
        if player_id:
            await self.limiter.give_back(f"sockets:player:{player_id}", holder)
