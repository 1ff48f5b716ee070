"""Group commit: moves of many games written together.

Under load many moves wait for the database at once. Instead of one transaction each
(four round trips and the driver's work per move), the moves that arrive while a write
is under way are written together by the next one: one guarded ``UPDATE`` for all their
games and one ``INSERT`` for all their log entries (on PostgreSQL both in one statement,
one round trip: a lone move is written so too). Each move
keeps its own version check and is acknowledged only after the commit that holds it. A
lone move is written at once; a move that earns a record (the game ended),
or writes a column the batch does not (a daily's ``too_fast``), is written alone, in its
own transaction.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from app.metrics import COMMIT_BATCH
from app.models import Game
from app.statements import BATCH_COLUMNS, Advance
from app.store import Store
from engines.core.protocol import RecordEntry, ScoreOrder

MAX_BATCH = 100
BATCH_KEYS = frozenset(BATCH_COLUMNS)  # what a batch writes of a game's row


class GroupCommit:
    def __init__(self, store: Store, max_batch: int = MAX_BATCH) -> None:
        self.store = store
        self.max_batch = max_batch
        self.waiting: list[tuple[Advance, asyncio.Future[bool]]] = []
        self.writer: asyncio.Task[None] | None = None

    async def advance(
        self,
        game: Game,
        values: dict[str, Any],
        entries: Sequence[dict[str, Any]],
        record: RecordEntry | None,
        now_ms: int,
        order: ScoreOrder,
    ) -> bool:
        """Write one move under its version guard; False when the version moved.
        ``order`` is the engine's, by which ``record`` may better the player's best."""
        if record is not None or not BATCH_KEYS.issuperset(values):
            return await self.store.advance(game, values, entries, record, now_ms, order)
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.waiting.append((Advance(game, values, list(entries)), done))
        if self.writer is None or self.writer.done():
            self.writer = asyncio.create_task(self._write())
        return await done

    async def _write(self) -> None:
        while self.waiting:
            batch = self._next_batch()
            COMMIT_BATCH.observe(len(batch))
            try:
                if len(batch) == 1 and not self.store.batch_in_one_statement:
                    ((only, _),) = batch
                    written = (
                        {only.game.id}
                        if await self.store.advance(only.game, only.values, only.entries, None, 0)
                        else set()
                    )
                else:
                    written = await self.store.advance_many([a for a, _ in batch])
            except Exception as error:  # the database failed: every move of the batch
                for _, done in batch:
                    if not done.done():
                        done.set_exception(error)
                continue
            for advance, done in batch:
                if not done.done():
                    done.set_result(advance.game.id in written)

    def _next_batch(self) -> list[tuple[Advance, asyncio.Future[bool]]]:
        """Up to ``max_batch`` waiting moves, at most one per game (a second move of the
        same game waits for the next batch, where its version guard decides)."""
        batch: list[tuple[Advance, asyncio.Future[bool]]] = []
        later: list[tuple[Advance, asyncio.Future[bool]]] = []
        games: set[str] = set()
        for item in self.waiting:
            if len(batch) < self.max_batch and item[0].game.id not in games:
                games.add(item[0].game.id)
                batch.append(item)
            else:
                later.append(item)
        self.waiting = later
        return batch
