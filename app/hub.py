"""Pub/sub of game events to every process that has a watcher.

``LocalHub`` delivers within this process. ``RedisHub`` publishes through Redis so that
several app processes (on several hosts) serve one match: each process subscribes to a
game's channel while it has watchers of that game and fans messages out locally. A lost
Redis connection is logged and re-established with back-off; channels are re-subscribed.
Watchers that missed messages while it was down catch up on their own (clients resume
from their last version), so the hub never needs to replay.

A move of a game that no other process listens to is not sent through Redis at all
(app/audience.py: its publish and its own echo had been an eighth of a move's CPU at
human pace). A process that subscribes to a game announces it (``INTEREST``); the last
move another process kept back then tells the newcomer's sockets of any move they read
too early to see (a gap in versions makes a socket read the state again, app/ws.py).
Every ``RECOUNT_S`` the games kept here count their channels' listeners, and one that
another process listens to without having announced it (a process of an older version,
during a rolling deploy) is treated as announced. Other messages are rare and always
sent.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, Protocol

import redis.asyncio as aioredis
from pydantic import ValidationError
from redis.exceptions import RedisError

from app.audience import Audience
from app.batching import Batched
from app.fanout import RESYNC, Subscribers, Watch
from app.metrics import HUB_PUBLISH
from app.wire import HUB_MESSAGE, HubMessage, HubMove

log = logging.getLogger("app.hub")

REDIS_CONNECTIONS = 50
REDIS_WAIT_S = 5.0
STARTUP_WAIT_S = 3.0
STOP_SEND_S = 2.0  # at a stop, how long the messages still being published may take
INTEREST = b"interest"  # after the origin: a process has just subscribed to this channel
RECOUNT_S = 10.0  # how often the games whose moves stay here count their channels' listeners
RECOUNT_CHUNK = 1000  # channels counted per PUBSUB NUMSUB


class HubUnavailable(Exception):
    """The hub cannot deliver other processes' messages now (Redis is unreachable)."""


def redis_client(url: str, timeout_s: float) -> aioredis.Redis:
    """The process's one Redis client, shared by the hub, presence and limits: at most
    ``REDIS_CONNECTIONS`` connections, however many sockets the process serves. Under a
    burst, callers wait up to ``REDIS_WAIT_S`` for a free connection instead of opening
    more (idle connections would otherwise pile up after the burst). A connect or a
    command waits at most ``timeout_s``, so a silent Redis cannot hold a request; the
    hub's subscription reads wait for messages regardless (redis-py 8.1 and later)."""
    pool = aioredis.BlockingConnectionPool.from_url(
        url,
        max_connections=REDIS_CONNECTIONS,
        timeout=REDIS_WAIT_S,
        socket_connect_timeout=timeout_s,
        socket_timeout=timeout_s,
    )
    return aioredis.Redis(connection_pool=pool)


class Hub(Protocol):
    @property
    def connected(self) -> bool: ...
    async def start(self) -> None: ...
    async def stop(self) -> None: ...
    async def publish(self, game_id: str, message: HubMessage) -> None: ...
    def watch(self, game_id: str) -> AbstractAsyncContextManager[Watch]: ...
    def on_foreign_move(self, follow: Callable[[str, HubMove], None]) -> None: ...


class LocalHub:
    connected = True  # within the process: never lost

    def __init__(self) -> None:
        self.subscribers = Subscribers()

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        self.subscribers.close_all()

    async def publish(self, game_id: str, message: HubMessage) -> None:
        self.subscribers.deliver(game_id, message)

    def on_foreign_move(self, follow: Callable[[str, HubMove], None]) -> None:
        return None  # one process: every move is its own

    @asynccontextmanager
    async def watch(self, game_id: str) -> AsyncIterator[Watch]:
        queue, _ = self.subscribers.add(game_id)
        try:
            yield queue
        finally:
            self.subscribers.remove(game_id, queue)


class RedisHub:
    CHANNEL_PREFIX = "game:"

    def __init__(self, redis: aioredis.Redis) -> None:
        self.subscribers = Subscribers()
        self.redis = redis
        self._pubsub: Any = None
        self._listener: asyncio.Task[None] | None = None
        self._recounter: asyncio.Task[None] | None = None
        self._connected = asyncio.Event()
        self._started_ok = False  # connected at least once
        self.origin = secrets.token_hex(8).encode() + b"\n"  # tags this process's messages
        self._published = Batched(self._publish_all)
        self._sending: set[asyncio.Task[None]] = set()  # publishes under way
        self._publish_failing = False
        self._follow: Callable[[str, HubMove], None] | None = None
        self.audience = Audience()

    def on_foreign_move(self, follow: Callable[[str, HubMove], None]) -> None:
        """``follow(game_id, move)`` hears of each move another process committed, before
        this process's watchers do (app/live.py keeps its copy of the game current)."""
        self._follow = follow

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    async def start(self) -> None:
        self._listener = asyncio.create_task(self._listen(), name="redis-hub")
        self._recounter = asyncio.create_task(self._recount_forever(), name="redis-hub-recount")

    async def stop(self) -> None:
        if self._sending:  # the last moves' messages go out before the connection closes
            await asyncio.wait(set(self._sending), timeout=STOP_SEND_S)
            if self._sending:  # Redis is not answering: they are lost anyway
                stuck = set(self._sending)
                for sending in stuck:
                    sending.cancel()
                await self._published.cancel()
                await asyncio.gather(*stuck, return_exceptions=True)
        for task in (self._listener, self._recounter):
            if task is not None:
                task.cancel()
                try:
                    await task
                except asyncio.CancelledError:
                    pass
        self.subscribers.close_all()

    async def publish(self, game_id: str, message: HubMessage) -> None:
        """Deliver to this process's watchers at once, and through Redis to the other
        processes (this process skips its own messages when they come back). The Redis
        part goes on in the background: a mover's answer never waits on a slow Redis
        (tasks start in the order they are made, so messages keep their order)."""
        self.subscribers.deliver(game_id, message)
        payload = self.origin + message.model_dump_json().encode()
        move = isinstance(message, HubMove)
        if not (move and self.audience.keep_back(game_id, payload)):
            self._in_background(self._send(game_id, payload, move))

    def _in_background(self, sending: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(sending)
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _send(self, game_id: str, payload: bytes, move: bool = False) -> None:
        started = time.perf_counter()
        before = self.audience.before_sending(game_id)
        try:
            receivers = await self._published((self.CHANNEL_PREFIX + game_id, payload))
        except (RedisError, OSError) as exc:
            # The move is committed already; other processes' watchers catch up when they
            # resume. One line per outage, not one per move.
            if not self._publish_failing:
                log.error(
                    "redis publish failed (%s); moves reach other processes' "
                    "sockets when it is back",
                    exc,
                )
            self._publish_failing = True
            return
        HUB_PUBLISH.observe(time.perf_counter() - started)
        if move:
            self.audience.answered(game_id, before, receivers)
        if self._publish_failing:
            self._publish_failing = False
            log.warning("redis publish works again")

    async def _publish_all(self, batch: list[tuple[str, bytes]]) -> list[int]:
        """The messages of many moves in one pipeline (one round trip, one connection);
        for each, how many subscriptions received it (this process's own included)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for channel, payload in batch:
                pipe.publish(channel, payload)
            receivers: list[int] = await pipe.execute()
        return receivers

    @asynccontextmanager
    async def watch(self, game_id: str) -> AsyncIterator[Watch]:
        queue, first = self.subscribers.add(game_id)
        try:
            if not self._connected.is_set():
                await self._wait_for_redis()
            if first:
                await self._subscribe(game_id)
            yield queue
        finally:
            if self.subscribers.remove(game_id, queue):
                await self._unsubscribe(game_id)

    async def _wait_for_redis(self) -> None:
        """Just after start-up, wait briefly for the first connection; once Redis has
        been lost, refuse at once: other processes' moves would not reach this socket,
        so it is told to come back (sockets already open resync when Redis is back)."""
        if not self._started_ok:
            try:
                await asyncio.wait_for(self._connected.wait(), timeout=STARTUP_WAIT_S)
                return
            except TimeoutError:
                pass
        raise HubUnavailable("redis is unreachable")

    async def _subscribe(self, game_id: str) -> None:
        try:
            await self._pubsub.subscribe(self.CHANNEL_PREFIX + game_id)
        except (RedisError, OSError) as exc:
            raise HubUnavailable(f"redis subscribe failed: {exc}") from exc
        self._subscribed_to([game_id])

    def _subscribed_to(self, game_ids: list[str]) -> None:
        """Subscribed (the watchers' sockets read the game's state after this): the other
        processes are told, so that they send these games' moves again."""
        self.audience.subscribed.update(game_ids)
        for game_id in game_ids:
            self._in_background(self._announce(game_id))

    async def _announce(self, game_id: str) -> None:
        """INTEREST in a game, sent until it is (a process that never heard it would keep
        the game's moves back for good), or until this process leaves the game."""
        delay = 0.2
        while game_id in self.audience.subscribed:
            try:
                await self._published((self.CHANNEL_PREFIX + game_id, self.origin + INTEREST))
                return
            except (RedisError, OSError):
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)

    def _heard_interest(self, game_id: str) -> None:
        kept = self.audience.heard_interest(game_id)
        if kept is not None:
            self._in_background(self._send(game_id, kept, move=True))

    async def _recount_forever(self) -> None:
        while True:
            await asyncio.sleep(RECOUNT_S)
            try:
                await self.recount()
            except (RedisError, OSError) as exc:  # Redis is away: the listener says so
                log.debug("hub recount skipped: %s", exc)

    async def recount(self) -> None:
        """The games whose moves stay here, each channel's listeners counted (one command
        per ``RECOUNT_CHUNK`` games): a game with another listener than this process is
        treated as if that one had announced itself. A process that never announces (of
        a version before ``INTEREST``) would otherwise never hear these games' moves."""
        games = list(self.audience.alone)
        for start in range(0, len(games), RECOUNT_CHUNK):
            channels = [self.CHANNEL_PREFIX + g for g in games[start : start + RECOUNT_CHUNK]]
            for channel, listeners in await self.redis.pubsub_numsub(*channels):
                if listeners > 1:  # this process's own subscription and another's
                    name = channel.decode() if isinstance(channel, bytes) else channel
                    self._heard_interest(name.removeprefix(self.CHANNEL_PREFIX))

    async def _unsubscribe(self, game_id: str) -> None:
        self.audience.forget(game_id)
        if self._pubsub is None or not self._connected.is_set():
            return
        try:
            await self._pubsub.unsubscribe(self.CHANNEL_PREFIX + game_id)
        except (RedisError, OSError) as exc:
            log.warning("redis unsubscribe from game %s failed: %s", game_id, exc)

    async def _listen(self) -> None:
        delay = 0.2
        while True:
            try:
                self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                # A channel of its own keeps the connection subscribed while no game is watched.
                games = list(self.subscribers.queues)
                await self._pubsub.subscribe("hub:alive", *(self.CHANNEL_PREFIX + g for g in games))
                self._subscribed_to(games)
                if delay > 0.2:
                    log.warning("redis hub reconnected; %d channels restored", len(games))
                    self.subscribers.deliver_all(RESYNC)
                self._connected.set()
                self._started_ok = True
                delay = 0.2
                async for raw in self._pubsub.listen():
                    if raw.get("type") != "message":
                        continue
                    origin, _, body = raw["data"].partition(b"\n")
                    if origin + b"\n" == self.origin:
                        continue  # delivered here when it was published
                    channel = raw["channel"].decode()
                    if body == INTEREST:
                        self._heard_interest(channel.removeprefix(self.CHANNEL_PREFIX))
                        continue
                    try:
                        message = HUB_MESSAGE.validate_json(body)
                    except ValidationError as exc:
                        # Not ours to read (another version's process, or anyone with
                        # access to Redis): skipped, never the end of this listener.
                        log.error("unreadable hub message on %s skipped: %s", channel, exc)
                        continue
                    game_id = channel.removeprefix(self.CHANNEL_PREFIX)
                    if self._follow is not None and isinstance(message, HubMove):
                        self._follow(game_id, message)
                    self.subscribers.deliver(game_id, message)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                self._connected.clear()
                # Until subscribed again, every game's moves go through Redis (others may
                # subscribe meanwhile, and this process would not hear their INTEREST).
                self.audience.forget_all()
                if delay == 0.2:  # once per outage; retries go on quietly
                    log.error("redis hub connection lost (%s); retrying", exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
            finally:
                if self._pubsub is not None:
                    try:
                        await self._pubsub.aclose()
                    except Exception:  # the connection is gone already
                        pass


def make_hub(redis: aioredis.Redis | None) -> LocalHub | RedisHub:
    return RedisHub(redis) if redis is not None else LocalHub()
