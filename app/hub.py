"""Pub/sub of game events to every process that has a watcher.

``LocalHub`` delivers within this process. ``RedisHub`` publishes through Redis so that
several app processes (on several hosts) serve one match: each process subscribes to a
game's channel while it has watchers of that game and fans messages out locally. A lost
Redis connection is logged and re-established with back-off; channels are re-subscribed.
Watchers that missed messages while it was down catch up on their own (clients resume
from their last version), so the hub never needs to replay.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import defaultdict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Protocol

import redis.asyncio as aioredis
from redis.exceptions import RedisError

log = logging.getLogger("app.hub")

QUEUE_LIMIT = 256  # a watcher this far behind is dropped; it reconnects and resumes
REDIS_CONNECTIONS = 1000


def encode(message: dict[str, Any]) -> str:
    """A message as compact JSON, for Redis and for sockets alike."""
    return json.dumps(message, separators=(",", ":"))


def redis_client(url: str) -> aioredis.Redis:
    """A client that may open up to ``REDIS_CONNECTIONS`` connections under bursts
    (redis-py's default of 100 fails with "Too many connections" when a thousand
    sockets renew their presence at once); idle ones are reused."""
    return aioredis.Redis.from_url(url, max_connections=REDIS_CONNECTIONS)


class Hub(Protocol):
    async def start(self) -> None: ...
    async def stop(self) -> None: ...
    async def publish(self, game_id: str, message: dict[str, Any]) -> None: ...
    def watch(self, game_id: str) -> Any:  # async context manager yielding a Queue
        ...


class Subscribers:
    """Local fan-out: per game, the queues of this process's watchers."""

    def __init__(self) -> None:
        self.queues: dict[str, set[asyncio.Queue[dict[str, Any] | None]]] = defaultdict(set)

    def deliver(self, game_id: str, message: dict[str, Any]) -> None:
        for queue in list(self.queues.get(game_id, ())):
            try:
                queue.put_nowait(message)
            except asyncio.QueueFull:
                self._close(queue)

    @staticmethod
    def _close(queue: asyncio.Queue[dict[str, Any] | None]) -> None:
        # Make room for the end marker so the watcher wakes up and reconnects.
        while not queue.empty():
            queue.get_nowait()
        queue.put_nowait(None)

    def add(self, game_id: str) -> tuple[asyncio.Queue[dict[str, Any] | None], bool]:
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(QUEUE_LIMIT)
        first = not self.queues[game_id]
        self.queues[game_id].add(queue)
        return queue, first

    def remove(self, game_id: str, queue: asyncio.Queue[dict[str, Any] | None]) -> bool:
        """Forget a queue; True when it was the game's last local watcher."""
        watchers = self.queues.get(game_id)
        if watchers is None:
            return False
        watchers.discard(queue)
        if watchers:
            return False
        del self.queues[game_id]
        return True

    def close_all(self) -> None:
        for watchers in self.queues.values():
            for queue in watchers:
                self._close(queue)


class LocalHub:
    def __init__(self) -> None:
        self.subscribers = Subscribers()

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        self.subscribers.close_all()

    async def publish(self, game_id: str, message: dict[str, Any]) -> None:
        self.subscribers.deliver(game_id, message)

    @asynccontextmanager
    async def watch(self, game_id: str) -> AsyncIterator[asyncio.Queue[dict[str, Any] | None]]:
        queue, _ = self.subscribers.add(game_id)
        try:
            yield queue
        finally:
            self.subscribers.remove(game_id, queue)


class RedisHub:
    CHANNEL_PREFIX = "game:"

    def __init__(self, url: str) -> None:
        self.url = url
        self.subscribers = Subscribers()
        self.redis: aioredis.Redis = redis_client(url)
        self._pubsub: Any = None
        self._listener: asyncio.Task[None] | None = None
        self._connected = asyncio.Event()

    async def start(self) -> None:
        self._listener = asyncio.create_task(self._listen(), name="redis-hub")

    async def stop(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            try:
                await self._listener
            except asyncio.CancelledError:
                pass
        self.subscribers.close_all()
        await self.redis.aclose()

    async def publish(self, game_id: str, message: dict[str, Any]) -> None:
        payload = encode(message)
        try:
            await self.redis.publish(self.CHANNEL_PREFIX + game_id, payload)
        except (RedisError, OSError) as exc:
            # The move is committed already; watchers catch up when they resume.
            log.error("redis publish for game %s failed: %s", game_id, exc)
            self.subscribers.deliver(game_id, message)

    @asynccontextmanager
    async def watch(self, game_id: str) -> AsyncIterator[asyncio.Queue[dict[str, Any] | None]]:
        queue, first = self.subscribers.add(game_id)
        try:
            if first:
                await self._subscribe(game_id)
            yield queue
        finally:
            if self.subscribers.remove(game_id, queue):
                await self._unsubscribe(game_id)

    async def _subscribe(self, game_id: str) -> None:
        await asyncio.wait_for(self._connected.wait(), timeout=10)
        try:
            await self._pubsub.subscribe(self.CHANNEL_PREFIX + game_id)
        except (RedisError, OSError) as exc:
            log.error("redis subscribe to game %s failed: %s", game_id, exc)

    async def _unsubscribe(self, game_id: str) -> None:
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
                channels = [self.CHANNEL_PREFIX + g for g in self.subscribers.queues]
                await self._pubsub.subscribe("hub:alive", *channels)
                if delay > 0.2:
                    log.warning("redis hub reconnected; %d channels restored", len(channels))
                self._connected.set()
                delay = 0.2
                async for raw in self._pubsub.listen():
                    if raw.get("type") != "message":
                        continue
                    channel = raw["channel"].decode()
                    game_id = channel.removeprefix(self.CHANNEL_PREFIX)
                    self.subscribers.deliver(game_id, json.loads(raw["data"]))
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                self._connected.clear()
                log.error("redis hub connection lost (%s); retrying in %.1fs", exc, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
            finally:
                if self._pubsub is not None:
                    try:
                        await self._pubsub.aclose()
                    except Exception:  # the connection is gone already
                        pass


def make_hub(redis_url: str | None) -> LocalHub | RedisHub:
    return RedisHub(redis_url) if redis_url else LocalHub()
