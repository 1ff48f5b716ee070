"""Calls that arrive while a round trip is under way go out together in the next one.

Six hundred sockets closing at once would otherwise each take a Redis connection for
their presence and socket-slot writes, and wait for one from the bounded pool; batched,
they cost a few pipelines. Each caller still waits for the round trip that carries its
item, so nothing is reported done before it is.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class Batched(Generic[T, R]):
    def __init__(self, send: Callable[[list[T]], Awaitable[Sequence[R]]]) -> None:
        """``send(items)`` does one round trip for all items and returns one result each."""
        self.send = send
        self.waiting: list[tuple[T, asyncio.Future[R]]] = []
        self.sender: asyncio.Task[None] | None = None

    async def __call__(self, item: T) -> R:
        done: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        self.waiting.append((item, done))
        if self.sender is None or self.sender.done():
            self.sender = asyncio.create_task(self._send_all())
        return await done

    async def _send_all(self) -> None:
        while self.waiting:
            batch, self.waiting = self.waiting, []
            try:
                results = await self.send([item for item, _ in batch])
            except Exception as error:  # every caller of this round trip hears of it
                for _, done in batch:
                    if not done.done():
                        done.set_exception(error)
                continue
            for (_, done), result in zip(batch, results, strict=True):
                if not done.done():
                    done.set_result(result)

    async def cancel(self) -> None:
        """Give up the round trip under way (a stop while the far end does not answer):
        its callers, and those waiting for the next, are cancelled."""
        if self.sender is not None and not self.sender.done():
            self.sender.cancel()
            await asyncio.gather(self.sender, return_exceptions=True)
        for _, done in self.waiting:
            done.cancel()
        self.waiting = []
