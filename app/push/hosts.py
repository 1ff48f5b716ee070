"""Each push host's share of the sender: at most ``per_host`` sends in flight to it, and
a pause for a host that keeps failing.

Anyone can subscribe endpoints on a host of their choosing (up to the subscription limit,
on as many accounts as they like), so no host may take more than its share: a slow one
holds ``per_host`` sender threads at most, never the pool; a failing one (``failures``
sends in a row that were not accepted: an error status, a refused or cut connection) is
not sent to for ``pause_ms``, its notices dropped. After the pause the next send tries
it again: a success sets its count back to zero, a failure pauses it once more.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from app.clock import Clock

log = logging.getLogger("app.push")

MAX_KEPT = 4096  # hosts remembered with failures (a pause outlives its last send)


@dataclass
class Host:
    slots: asyncio.Semaphore
    failures: int = 0  # in a row
    paused_until_ms: int = 0
    users: int = field(default=0)  # sends holding or waiting for a slot


class Hosts:
    def __init__(self, per_host: int, failures: int, pause_ms: int, clock: Clock) -> None:
        self.per_host = per_host
        self.failures = failures
        self.pause_ms = pause_ms
        self.clock = clock
        self.hosts: dict[str, Host] = {}

    def _host(self, name: str) -> Host:
        host = self.hosts.get(name)
        if host is None:
            host = self.hosts[name] = Host(asyncio.Semaphore(self.per_host))
        return host

    def paused(self, name: str) -> bool:
        host = self.hosts.get(name)
        return host is not None and host.paused_until_ms > self.clock.now_ms()

    def paused_count(self) -> int:
        now = self.clock.now_ms()
        return sum(1 for host in self.hosts.values() if host.paused_until_ms > now)

    @asynccontextmanager
    async def slot(self, name: str) -> AsyncIterator[None]:
        """One of the host's ``per_host`` places, waited for in turn."""
        host = self._host(name)
        host.users += 1
        try:
            async with host.slots:
                yield
        finally:
            host.users -= 1
            self._forget_idle(name, host)

    def succeeded(self, name: str) -> None:
        host = self.hosts.get(name)
        if host is not None:
            host.failures = 0
            host.paused_until_ms = 0

    def failed(self, name: str) -> None:
        host = self._host(name)
        host.failures += 1
        if host.failures >= self.failures and not self.paused(name):
            host.paused_until_ms = self.clock.now_ms() + self.pause_ms
            log.warning(
                "push host %s paused for %d s after %d failed sends in a row",
                name, self.pause_ms // 1000, host.failures,
            )  # fmt: skip

    def _forget_idle(self, name: str, host: Host) -> None:
        if host.users == 0 and host.failures == 0:
            self.hosts.pop(name, None)
        if len(self.hosts) > MAX_KEPT:  # the oldest idle ones whose pause is over
            now = self.clock.now_ms()
            for old in [n for n, h in self.hosts.items() if h.users == 0][: MAX_KEPT // 4]:
                if self.hosts[old].paused_until_ms <= now:
                    del self.hosts[old]
