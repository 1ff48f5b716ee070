"""Sending notices, after the commit and off the move path.

The move path (and the join and rematch paths) only ``offer`` a notice: a put into a
bounded queue that never waits (a full queue drops the notice, counted and logged; a move
is never held back by a notice). One task per process takes notices from the queue,
decides whether to send (``your_turn`` only when the player has no socket open to the
game), reads the player's subscriptions and sends each in a thread of the sender's own
pool (``PUSH_WORKERS``: the encryption and the HTTP request block; the event loop's
default pool, which other requests use, is never touched), at most ``MAX_SENDS``
pending. Only the process that committed offers the notice, so each event is sent once
across processes.

No push host can hold up another's notices, nor the site: each send has a wall-clock
deadline (``PUSH_DEADLINE_S``, connect to last byte: ``transport.Deadline``), a host has
at most ``PUSH_PER_HOST`` sends in flight, and a host failing ``PUSH_HOST_FAILURES``
times in a row is paused (``hosts``). A 404 or 410 deletes the subscription; a 429, a 5xx
or a network error is retried after ``RETRY_DELAYS_S``, at most ``PUSH_RETRIES`` times
per notice whatever its number of subscriptions (one notice to N subscriptions of a
failing host is at most N + 2 requests); then the send is dropped with one log line.
Another refusal (400, 403, 413 ...) is not retried.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit

from pywebpush import WebPusher, WebPushException

from app.clock import Clock
from app.metrics import PUSH_DROPPED, PUSH_HOSTS_PAUSED, PUSH_SENDS
from app.models import COMPUTER, Game
from app.presence import Presence, arena_lease
from app.push.endpoints import BadEndpoint, Unreachable, host_port, pinned
from app.push.hosts import Hosts
from app.push.keys import VapidKeys
from app.push.notices import Notice, payload, push_headers
from app.push.transport import Connections, Deadline, post
from app.store import Store
from app.store.push import Subscription

log = logging.getLogger("app.push")

MAX_SENDS = 4096  # sends waiting (for a turn, or to retry) in one process, at most
GONE = (404, 410)
Outcome = Literal["sent", "gone", "bad_endpoint", "refused", "failed"]


@dataclass(frozen=True)
class PushLimits:
    """How much of the process push may take (README's PUSH_* settings)."""

    workers: int = 8
    per_host: int = 2
    deadline_s: float = 10.0
    retries: int = 2  # per notice
    host_failures: int = 10
    host_pause_s: float = 600.0


def post_notice(
    sub: Subscription,
    body: bytes,
    headers: dict[str, str],
    keys: VapidKeys,
    contact: str,
    allow: frozenset[str],
    connections: Connections,
    deadline: Deadline,
) -> int:
    """Encrypt ``body`` for the subscription (RFC 8291, by pywebpush), sign a VAPID token
    (RFC 8292, by py_vapid) and POST it to the endpoint's checked address within
    ``deadline`` (``transport.post``). Blocking: called in a sender thread."""
    scheme, _, _ = host_port(sub.endpoint)
    address = pinned(sub.endpoint, allow)  # before anything is signed for it
    info = {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}}
    encrypted = WebPusher(info).encode(body, "aes128gcm")["body"]
    netloc = urlsplit(sub.endpoint).netloc
    sent_headers = {
        **headers,
        **connections.vapid(keys, contact, f"{scheme}://{netloc}"),
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
    }
    return post(sub.endpoint, address, encrypted, sent_headers, connections, deadline)


def host_of(endpoint: str) -> str:
    """The push host a send counts against (``host:port``)."""
    try:
        _, host, port = host_port(endpoint)
    except BadEndpoint:
        return ""
    return f"{host}:{port}"


class RetryBudget:
    """The retries one notice may still make, over all its subscriptions."""

    def __init__(self, retries: int) -> None:
        self.left = retries

    def take(self) -> bool:
        if self.left <= 0:
            return False
        self.left -= 1
        return True


class PushNotices:
    RETRY_DELAYS_S: tuple[float, ...] = (2.0, 10.0)  # before a notice's first, second retry

    def __init__(
        self,
        store: Store,
        presence: Presence,
        clock: Clock,
        keys: VapidKeys | None,
        contact: str,
        allow: frozenset[str],
        queue_size: int,
        limits: PushLimits | None = None,
    ) -> None:
        self.store = store
        self.presence = presence
        self.clock = clock
        self.keys = keys
        self.contact = contact
        self.allow = allow
        self.limits = limits or PushLimits()
        self.queue: asyncio.Queue[Notice] = asyncio.Queue(maxsize=queue_size)
        # a send holds a thread from the start of its deadline to its end: never queued
        self.sending = asyncio.Semaphore(self.limits.workers)
        self.pool = ThreadPoolExecutor(self.limits.workers, thread_name_prefix="push")
        self.hosts = Hosts(
            self.limits.per_host,
            self.limits.host_failures,
            int(self.limits.host_pause_s * 1000),
            clock,
        )
        PUSH_HOSTS_PAUSED.set_function(lambda: float(self.hosts.paused_count()))
        self.deadlines: set[Deadline] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self.dropped = 0
        self.connections = Connections(self.limits.per_host)

    @property
    def enabled(self) -> bool:
        return self.keys is not None

    def drop(self, reason: str) -> None:
        self.dropped += 1
        PUSH_DROPPED.labels(reason).inc()

    # --- offered on the paths that commit ------------------------------------------------

    def offer(self, notice: Notice) -> None:
        """Queue a notice, never waiting: with the queue full it is dropped."""
        if self.keys is None:
            return
        try:
            self.queue.put_nowait(notice)
        except asyncio.QueueFull:
            self.drop("queue_full")
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
            if await self.connected(notice.game_id, notice.seat, notice.seat_count):
                return  # the game is open: the page shows the move itself
        if notice.kind == "arena_paired" and notice.arena_id is not None:
            # An arena page that is open takes its player to the game itself.
            if await self.connected(arena_lease(notice.arena_id, notice.player_id), 0, 1):
                return
        subscriptions = await self.store.subscriptions(notice.player_id, notice.wanted)
        if not subscriptions:
            return
        opponent = (await self.store.names([notice.by])).get(notice.by)
        budget = RetryBudget(self.limits.retries)
        for sub in subscriptions:
            if len(self.tasks) >= MAX_SENDS:
                self.drop("too_many_pending")
                log.warning("push: %d sends pending, %s notice dropped", MAX_SENDS, notice.kind)
                return
            task = asyncio.create_task(self._send(notice, sub, opponent, budget))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def connected(self, key: str, seat: int, seat_count: int) -> bool:
        """The seat's page is open: on this process (no round trip), or on any (presence)."""
        if self.presence.held_here(key, seat):
            return True
        seats = await self.presence.seats(key, seat_count, self.clock.now_ms())
        return seats[seat].connected

    async def _send(
        self, notice: Notice, sub: Subscription, opponent: str | None, budget: RetryBudget
    ) -> None:
        try:
            await self._send_until_done(notice, sub, opponent, budget)
        except Exception as error:  # a lost database (forgetting a subscription)
            log.warning("push %s for game %s not sent: %s", notice.kind, notice.game_id, error)

    async def _send_until_done(
        self, notice: Notice, sub: Subscription, opponent: str | None, budget: RetryBudget
    ) -> None:
        body = json.dumps(payload(notice, sub.lang, opponent), ensure_ascii=False).encode()
        headers = push_headers(notice)
        host = host_of(sub.endpoint)
        attempt = 0
        while True:
            attempt += 1
            if self.hosts.paused(host):
                self.drop("host_paused")
                return
            outcome, problem = await self._attempt(host, sub, body, headers)
            if outcome == "paused":  # it failed while this send waited its turn
                self.drop("host_paused")
                return
            PUSH_SENDS.labels(outcome).inc()
            if outcome == "sent":
                return
            if outcome in ("gone", "bad_endpoint"):  # never sendable: forget it
                if outcome == "bad_endpoint":
                    log.warning("push subscription dropped: %s", problem)
                await self.store.forget_endpoint(sub.endpoint)
                return
            last = attempt > len(self.RETRY_DELAYS_S) or outcome == "refused"
            if last or not budget.take():
                self.drop(outcome)
                log.warning(
                    "push %s for game %s dropped after %d attempts: %s",
                    notice.kind, notice.game_id, attempt, problem,
                )  # fmt: skip
                return
            await asyncio.sleep(self.RETRY_DELAYS_S[attempt - 1])

    async def _attempt(
        self, host: str, sub: Subscription, body: bytes, headers: dict[str, str]
    ) -> tuple[Outcome | Literal["paused"], str]:
        """One request, in a thread of the sender's pool, within the deadline."""
        assert self.keys is not None
        async with self.hosts.slot(host), self.sending:
            if self.hosts.paused(host):
                return "paused", "the host is paused"
            deadline = Deadline(self.limits.deadline_s)
            loop = asyncio.get_running_loop()
            self.deadlines.add(deadline)
            timer = loop.call_later(self.limits.deadline_s, deadline.expire)
            try:
                status = await loop.run_in_executor(
                    self.pool,
                    post_notice,
                    sub,
                    body,
                    headers,
                    self.keys,
                    self.contact,
                    self.allow,
                    self.connections,
                    deadline,
                )
            except (BadEndpoint, WebPushException) as error:
                return "bad_endpoint", str(error)
            except (Unreachable, OSError, http.client.HTTPException) as error:
                self.hosts.failed(host)  # TimeoutError (a cut) is an OSError
                return "failed", str(error) or type(error).__name__
            except Exception as error:  # anything else: a bug, or input nobody foresaw
                log.exception("push send to %s failed", host)
                self.hosts.failed(host)
                return "refused", f"{type(error).__name__}: {error}"
            except asyncio.CancelledError:
                deadline.expire()  # the thread ends now, not at the deadline
                raise
            finally:
                timer.cancel()
                self.deadlines.discard(deadline)
        if 200 <= status < 300:
            self.hosts.succeeded(host)
            return "sent", f"status {status}"
        if status in GONE:
            self.hosts.succeeded(host)  # the host works; this subscription is over
            return "gone", f"status {status}"
        self.hosts.failed(host)
        return ("failed" if status == 429 or status >= 500 else "refused"), f"status {status}"

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        for deadline in list(self.deadlines):
            deadline.expire()
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.connections.close()  # idle sockets only: closing them does not block
