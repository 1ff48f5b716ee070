"""The flag sweeper: a game whose clock runs out ends at once, even if nobody sends a thing.

Every commit stores ``games.deadline_ms`` (the engine's ``deadline``: when the clock of
the seat to move reaches zero; indexed). Each process runs one sweeper that, every
``SWEEP_S``, reads the active games past their deadline and ticks each one through the
move path (``MovePath.current``), so the flag is written like any move: under the version
guard, then published. Several processes may sweep the same game, and a player's move
may race the flag: the guarded write lets exactly one of them win; the others re-read the
game and find it over (or moved on). A killed process's games carry their deadline in the
database, so any surviving process flags them.

Load: one indexed range query a pass, whatever the number of games; at most ``BATCH``
games ticked a pass (a full batch is followed at once by another pass, without sleeping).
Faults: with the database lost the pass fails and is logged once an outage (the next one
retries); with Redis lost the flag is still committed and reaches this process's sockets,
the others resync when the hub reconnects.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from app.clock import Clock
from app.models import GameStatus
from app.moves import MovePath
from app.store import Store

log = logging.getLogger("app.flags")

SWEEP_S = 0.25  # the flag lands at most about this long after the clock reaches zero
BATCH = 100
QUIET_S = 30.0  # one log line per failing stretch


class FlagSweeper:
    def __init__(
        self, store: Store, moves: MovePath, clock: Clock, interval_s: float = SWEEP_S
    ) -> None:
        self.store = store
        self.moves = moves
        self.clock = clock
        self.interval_s = interval_s
        self._last_failure = -QUIET_S
        self._stopping = asyncio.Event()

    async def sweep(self, limit: int = BATCH) -> int:
        """One pass: tick every overdue game (at most ``limit``); how many it read."""
        games = await self.store.overdue(self.clock.now_ms(), limit)
        for game in games:
            try:
                after, _ = await self.moves.current(game)
            except Exception as error:  # one game's trouble never stops the others
                self._failed("flag of game %s failed: %r", game.id, error)
                continue
            if after.status == GameStatus.ACTIVE and after.version == game.version:
                # Past its deadline but the engine sees no flag: a stale deadline (it
                # is rewritten by the game's next commit); say so, never spin silently.
                self._failed("game %s is past its deadline but did not end", game.id)
        return len(games)

    async def run_forever(self) -> None:
        """Sweep until ``stop()``. A pass in progress runs to its end: an SQLite query
        cancelled midway can leave its connection holding a lock until the garbage
        collector finds it."""
        while not self._stopping.is_set():
            try:
                full = await self.sweep() >= BATCH
            except Exception as error:  # the database is away: the next pass retries
                self._failed("flag sweep failed: %r", error)
                full = False
            if not full:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stopping.wait(), self.interval_s)

    def stop(self) -> None:
        self._stopping.set()

    def _failed(self, message: str, *args: object) -> None:
        now = time.monotonic()
        if now - self._last_failure >= QUIET_S:
            log.warning(message, *args)
        self._last_failure = now
