"""Sending notices, after the commit and off the move path.

The move path (and the join and rematch paths) only ``offer`` a notice: a put into a
bounded queue that never waits (a full queue drops the notice, counted and logged; a move
is never held back by a notice). One task per process takes notices from the queue,
decides whether to send (``your_turn`` only when the player has no socket open to the
game), reads the player's subscriptions and sends each in a thread (the encryption and
the HTTP request block), at most ``CONCURRENT`` at once and ``MAX_SENDS`` pending. Only
the process that committed offers the notice, so each event is sent once across processes.

A 404 or 410 from a push service deletes the subscription; any other failure is retried
after ``RETRY_DELAYS_S``, then dropped with one log line.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections import OrderedDict
from typing import Any
from urllib.parse import urlsplit

import urllib3
from pywebpush import WebPusher, WebPushException

from app.clock import Clock
from app.models import COMPUTER, Game
from app.presence import Presence
from app.push.endpoints import BadEndpoint, host_port, pinned
from app.push.keys import VapidKeys
from app.push.notices import Notice, payload, push_headers
from app.store import Store
from app.store.push import Subscription

log = logging.getLogger("app.push")

CONCURRENT = 8  # requests to push services in flight from one process
MAX_SENDS = 4096  # sends waiting (for a turn, or to retry) in one process, at most
TIMEOUT_S = 10.0
GONE = (404, 410)
JWT_LIFE_S = 12 * 3600


class PushFailed(Exception):
    """A send that may succeed later (a 5xx, a 429, a network error)."""


class Connections:
    """What sends reuse, shared by the sender's threads: a connection pool per push
    service address (a phone's notices go to one host; a new TCP and TLS handshake for
    each would cost more than the notice) and each audience's VAPID header, signed once
    and reused for most of its life."""

    POOLS = 64
    REUSE_S = JWT_LIFE_S - 3600  # a header is re-signed an hour before its token expires

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.pools: OrderedDict[tuple[str, str, int, str], urllib3.HTTPConnectionPool] = (
            OrderedDict()
        )
        self.headers: dict[tuple[str, str], tuple[float, dict[str, str]]] = {}

    def pool(self, scheme: str, address: str, port: int, host: str) -> urllib3.HTTPConnectionPool:
        key = (scheme, address, port, host)
        with self.lock:
            pool = self.pools.pop(key, None)
            if pool is None:
                sizes: dict[str, Any] = {"timeout": TIMEOUT_S, "maxsize": CONCURRENT}
                pool = (
                    urllib3.HTTPSConnectionPool(
                        address, port, server_hostname=host, assert_hostname=host, **sizes
                    )
                    if scheme == "https"
                    else urllib3.HTTPConnectionPool(address, port, **sizes)
                )
            self.pools[key] = pool  # the most recently used last
            while len(self.pools) > self.POOLS:
                self.pools.popitem(last=False)[1].close()
        return pool

    def vapid(self, keys: VapidKeys, contact: str, audience: str) -> dict[str, str]:
        now = time.time()
        with self.lock:
            kept = self.headers.get((contact, audience))
            if kept is not None and kept[0] > now:
                return kept[1]
        claims = {"sub": contact, "aud": audience, "exp": int(now) + JWT_LIFE_S}
        signed: dict[str, str] = keys.vapid.sign(claims)
        with self.lock:
            if len(self.headers) > 1024:
                self.headers.clear()
            self.headers[(contact, audience)] = (now + self.REUSE_S, signed)
        return signed


def post_notice(
    sub: Subscription,
    body: bytes,
    headers: dict[str, str],
    keys: VapidKeys,
    contact: str,
    allow: frozenset[str],
    connections: Connections,
) -> int:
    """Encrypt ``body`` for the subscription (RFC 8291, by pywebpush), sign a VAPID token
    (RFC 8292, by py_vapid) and POST it to the endpoint's checked address, following no
    redirect. Blocking: called in a thread."""
    scheme, host, port = host_port(sub.endpoint)
    address = pinned(sub.endpoint, allow)
    info = {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}}
    encrypted = WebPusher(info).encode(body, "aes128gcm")["body"]
    parts = urlsplit(sub.endpoint)
    sent_headers = {
        **headers,
        **connections.vapid(keys, contact, f"{scheme}://{parts.netloc}"),
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
        "Host": parts.netloc,
    }
    path = parts.path or "/"
    if parts.query:
        path += f"?{parts.query}"
    response = connections.pool(scheme, address, port, host).urlopen(
        "POST", path, body=encrypted, headers=sent_headers, redirect=False, retries=False
    )
    return int(response.status)


class PushNotices:
    RETRY_DELAYS_S: tuple[float, ...] = (2.0, 10.0, 60.0)

    def __init__(
        self,
        store: Store,
        presence: Presence,
        clock: Clock,
        keys: VapidKeys | None,
        contact: str,
        allow: frozenset[str],
        queue_size: int,
    ) -> None:
        self.store = store
        self.presence = presence
        self.clock = clock
        self.keys = keys
        self.contact = contact
        self.allow = allow
        self.queue: asyncio.Queue[Notice] = asyncio.Queue(maxsize=queue_size)
        self.sending = asyncio.Semaphore(CONCURRENT)
        self.tasks: set[asyncio.Task[None]] = set()
        self.dropped = 0
        self.connections = Connections()

    @property
    def enabled(self) -> bool:
        return self.keys is not None

    # --- offered on the paths that commit ------------------------------------------------

    def offer(self, notice: Notice) -> None:
        """Queue a notice, never waiting: with the queue full it is dropped."""
        if self.keys is None:
            return
        try:
            self.queue.put_nowait(notice)
        except asyncio.QueueFull:
            self.dropped += 1
            log.warning(
                "push queue full: %s notice for game %s dropped", notice.kind, notice.game_id
            )

    def moved(self, game: Game, engine: Any, state: Any, movers: set[int]) -> None:
        """After a committed move: ``your_turn`` for the player whose turn it now is,
        when an opponent (another player, not the computer) made it so."""
        if self.keys is None or engine.outcome(state) is not None:
            return
        turn = engine.to_move(state)
        if turn is None or turn in movers:
            return
        holder = game.seats[turn]
        by = next(
            (game.seats[s] for s in movers if game.seats[s] not in (None, COMPUTER, holder)), None
        )
        if holder in (None, COMPUTER) or by is None:
            return
        self.offer(Notice("your_turn", holder, game.id, game.engine, by, turn, len(game.seats)))

    def others(self, kind: Any, game: Game, by: str) -> None:
        """``joined`` or ``rematch`` for every other player seated in ``game``."""
        for seat, holder in enumerate(game.seats):
            if holder not in (None, COMPUTER, by):
                self.offer(Notice(kind, holder, game.id, game.engine, by, seat, len(game.seats)))

    # --- the sender task -----------------------------------------------------------------

    async def run_forever(self) -> None:
        while True:
            notice = await self.queue.get()
            try:
                await self.deliver(notice)
            except Exception as error:  # a lost database or Redis: this notice is lost
                log.warning("push %s for game %s not sent: %s", notice.kind, notice.game_id, error)

    async def deliver(self, notice: Notice) -> None:
        if notice.kind == "your_turn":
            seats = await self.presence.seats(
                notice.game_id, notice.seat_count, self.clock.now_ms()
            )
            if seats[notice.seat].connected:
                return  # the game is open: the page shows the move itself
        subscriptions = await self.store.subscriptions(notice.player_id, notice.kind)
        if not subscriptions:
            return
        opponent = (await self.store.names([notice.by])).get(notice.by)
        for sub in subscriptions:
            if len(self.tasks) >= MAX_SENDS:
                self.dropped += 1
                log.warning("push: %d sends pending, %s notice dropped", MAX_SENDS, notice.kind)
                return
            task = asyncio.create_task(self._send(notice, sub, opponent))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _send(self, notice: Notice, sub: Subscription, opponent: str | None) -> None:
        assert self.keys is not None
        body = json.dumps(payload(notice, sub.lang, opponent), ensure_ascii=False).encode()
        headers = push_headers(notice)
        delays = (*self.RETRY_DELAYS_S, None)
        for attempt, delay in enumerate(delays, start=1):
            try:
                async with self.sending:  # a slow push service holds up notices, never moves
                    status = await asyncio.to_thread(
                        post_notice,
                        sub,
                        body,
                        headers,
                        self.keys,
                        self.contact,
                        self.allow,
                        self.connections,
                    )
            except (BadEndpoint, WebPushException) as error:  # never sendable: forget it
                log.warning("push subscription dropped: %s", error)
                await self.store.forget_endpoint(sub.endpoint)
                return
            except (urllib3.exceptions.HTTPError, OSError) as error:
                status, problem = 0, str(error)
            else:
                problem = f"status {status}"
            if 200 <= status < 300:
                return
            if status in GONE:
                await self.store.forget_endpoint(sub.endpoint)
                return
            if delay is None:
                log.warning(
                    "push %s for game %s dropped after %d attempts: %s",
                    notice.kind, notice.game_id, attempt, problem,
                )  # fmt: skip
                return
            await asyncio.sleep(delay)

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
