"""Fan-out within one process: per game, the queues of this process's watchers (a
socket's, a seek poll's, an arena's), each told of the game's messages in turn."""

from __future__ import annotations

import asyncio
from collections import defaultdict

from app.wire import HubMessage

QUEUE_LIMIT = 256  # a watcher this far behind is dropped; it reconnects and resumes


class Resync:
    """Told to every local watcher when the hub's Redis connection is back: messages
    published meanwhile by other processes were lost, so each watcher resends its state
    (with the moves it missed) instead of waiting for the next move."""


RESYNC = Resync()


class Watch(asyncio.Queue[HubMessage | Resync | None]):  # None: the hub dropped this watcher
    """A watcher's queue. A seated player's (``seated``, set by its socket once it knows)
    is delivered to before the spectators': a game watched by hundreds still reaches its
    players first."""

    seated = False


class Subscribers:
    """Local fan-out: per game, the queues of this process's watchers."""

    def __init__(self) -> None:
        self.queues: dict[str, set[Watch]] = defaultdict(set)

    def deliver_all(self, message: Resync) -> None:
        for game_id in list(self.queues):
            self.deliver(game_id, message)

    def deliver(self, game_id: str, message: HubMessage | Resync) -> None:
        watchers = self.queues.get(game_id, ())
        players = [queue for queue in watchers if queue.seated]
        spectators = [queue for queue in watchers if not queue.seated]
        for queue in players + spectators:  # each woken in this order
            try:
                queue.put_nowait(message)
            except asyncio.QueueFull:
                self._close(queue)

    @staticmethod
    def _close(queue: Watch) -> None:
        # Make room for the end marker so the watcher wakes up and reconnects.
        while not queue.empty():
            queue.get_nowait()
        queue.put_nowait(None)

    def add(self, game_id: str) -> tuple[Watch, bool]:
        queue = Watch(QUEUE_LIMIT)
        first = not self.queues[game_id]
        self.queues[game_id].add(queue)
        return queue, first

    def remove(self, game_id: str, queue: Watch) -> bool:
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
