"""Reviews of finished games: asked for, worked out in the engine worker pool, stored once.

A review is a pure function of the game's log, and seconds of search: it is computed in
the worker pool (``EngineWorkers.start_review``: 429 ``busy`` when its queue is full),
then stored in ``reviews`` keyed by the game id. The stored row is the truth: once it
exists every ask is answered from it. While a review runs, this process remembers it
(``running``), so a second ask in the same process waits for the same job instead of
starting another; two processes asked at once may both compute it, and the unique key
keeps the first one written (both are identical anyway). What is running is kept in
memory only: after a restart, a review that was pending is simply not there (404
``no_review``), and the page asks again.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from app.catalog import AnyEngine, Catalog
from app.clock import Clock
from app.errors import AppError
from app.limits import Admission
from app.models import Game, GameStatus
from app.snapshots import may_replay, replay_forbidden
from app.store import Store
from app.wire import GameReview
from app.workers import EngineWorkers
from engines.core.errors import AppCode

log = logging.getLogger("app.reviews")

PENDING = GameReview(status="pending")


def _done(body: dict[str, Any]) -> GameReview:
    return GameReview.model_validate({"status": "done", **body})


class Reviews:
    def __init__(
        self,
        store: Store,
        catalog: Catalog,
        workers: EngineWorkers,
        clock: Clock,
        admission: Admission,
    ) -> None:
        self.store = store
        self.catalog = catalog
        self.workers = workers
        self.clock = clock
        self.admission = admission
        self.running: dict[str, asyncio.Task[None]] = {}

    async def ask(self, game_id: str, player_id: str, address: str) -> GameReview:
        """The game's review if stored, else ``pending`` with its job started (or
        already running)."""
        game, engine = await self._reviewable(game_id, player_id)
        if game.status != GameStatus.OVER:
            raise AppError(AppCode.GAME_NOT_OVER, "a game is reviewed once it is over")
        if game.id in self.running:
            return PENDING
        stored = await self.store.review(game.id)
        if stored is not None:
            return _done(stored)
        await self.admission.replaying(player_id, address)  # a review folds the whole log
        if game.id not in self.running:  # nobody started it while this ask waited
            job = self.workers.start_review(engine, game.state)  # 429 busy: nothing started
            self.running[game.id] = asyncio.create_task(self._finish(game.id, job))
        return PENDING

    async def get(self, game_id: str, player_id: str) -> GameReview:
        """The stored review, ``pending`` while it runs here, else 404 ``no_review``."""
        game, _ = await self._reviewable(game_id, player_id)
        stored = await self.store.review(game.id)
        if stored is not None:
            return _done(stored)
        if game.id in self.running:
            return PENDING
        raise AppError(AppCode.NO_REVIEW, "no review was asked for this game: POST to ask")

    async def _reviewable(self, game_id: str, player_id: str) -> tuple[Game, AnyEngine]:
        game = await self.store.game(game_id)
        engine = self.catalog.engine(game.engine)
        if not engine.reviewable:
            raise AppError(AppCode.NO_REVIEW, f"{game.engine} games have no review")
        if not may_replay(game, engine, player_id):
            raise replay_forbidden()
        return game, engine

    async def _finish(self, game_id: str, job: Any) -> None:
        """Await the job and store its review; a failed job is logged and forgotten, so
        the next ask starts again."""
        try:
            body = await job
            await self.store.add_review(game_id, body, self.clock.now_ms())
        except Exception:
            log.exception("review of game %s failed", game_id)
        finally:
            del self.running[game_id]
