"""Reviews of finished games: asked for, worked out by the review workers, stored once.

A review is a pure function of the game's log, and seconds of search: it is computed by
the engine workers' review processes (``EngineWorkers.start_review``, apart from the
computer's moves: 429 ``busy`` when their queue is full), then stored in ``reviews`` keyed
by the game id. The stored row is the truth: once it exists every ask is answered from it.

Anyone may ask for the review of any finished game, so each asker holds a slot while
their review is pending (queued or running): at most ``limit_reviews_per_player`` per
player and ``limit_reviews_per_ip`` per address, across processes when the limits live in
Redis (429 ``too_many_reviews`` beyond). Asking for a review that is already pending
costs no slot.

While a review runs, this process remembers it (``running``), so a second ask in the
same process waits for the same job instead of starting another; two processes asked at
once may both compute it, and the unique key keeps the first one written (both are
identical anyway). What is running is kept in memory only: after a restart, or a drain
(``stop``: the review processes are killed rather than waited for), a review that was
pending is simply not there (404 ``no_review``), nothing of it is stored, and the next
ask starts it again.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from redis.exceptions import RedisError

from app.catalog import AnyEngine, Catalog, reviewer
from app.clock import Clock
from app.errors import AppError
from app.limits import Admission
from app.metrics import RATE_LIMITED
from app.models import Game, GameStatus
from app.snapshots import may_replay, replay_forbidden
from app.store import Store
from app.wire import GameReview
from app.workers import EngineWorkers
from engines.core.errors import AppCode
from engines.core.protocol import ABORTED

log = logging.getLogger("app.reviews")

PENDING = GameReview(status="pending")
NONE = GameReview(status="none")
RETRY_AFTER_S = 5  # a review of a usual game takes a second or two, a big one ten
STOP_WAIT_S = 1.0  # what a drain gives dropped reviews' tasks to end (they end at once)


def aborted(game: Game) -> bool:
    """Whether the game ended before it began (outcome reason ``aborted``: a seat drew no
    first line in time). It has nothing to review: asking is 409 ``game_aborted``, and its
    replay page offers no review."""
    return (game.outcome or {}).get("reason") == ABORTED


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
        if aborted(game):
            raise AppError(AppCode.GAME_ABORTED, "an aborted game has no line to review")
        if game.id in self.running:
            return PENDING
        stored = await self.store.review(game.id)
        if stored is not None:
            return _done(stored)
        await self.admission.replaying(player_id, address)  # a review folds the whole log
        slots = await self._take_slots(player_id, address)  # 429 too_many_reviews
        if game.id in self.running:  # somebody started it while this ask waited
            await self._give_back(slots)
            return PENDING
        try:
            job = self.workers.start_review(engine, game.state)  # 429 busy: nothing started
        except AppError:
            await self._give_back(slots)
            raise
        self.running[game.id] = asyncio.create_task(self._finish(game.id, job, slots))
        return PENDING

    async def get(self, game_id: str, player_id: str) -> GameReview:
        """The stored review, ``pending`` while it runs here, else ``none``: a page that
        shows a game's review asks for it on every replay, and a game nobody had reviewed
        is no error (its 404 filled the console of every such replay)."""
        game, _ = await self._reviewable(game_id, player_id)
        stored = await self.store.review(game.id)
        if stored is not None:
            return _done(stored)
        if game.id in self.running:
            return PENDING
        return NONE

    async def stop(self) -> None:
        """Drop every review in progress (a drain): the review processes are killed, so
        the process exits within its shutdown time instead of seconds of search later.
        Their jobs end at once, with nothing to store; a task still busy after
        ``STOP_WAIT_S`` is cancelled."""
        tasks = list(self.running.values())
        self.workers.drop_reviews()
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=STOP_WAIT_S)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)

    async def _reviewable(self, game_id: str, player_id: str) -> tuple[Game, AnyEngine]:
        game = await self.store.game(game_id)
        engine = self.catalog.engine(game.engine)
        if reviewer(engine) is None:
            raise AppError(AppCode.NO_REVIEW, f"{game.engine} games have no review")
        if not may_replay(game, engine, player_id):
            raise replay_forbidden()
        return game, engine

    async def _take_slots(self, player_id: str, address: str) -> list[tuple[str, str]]:
        """One review slot of the player's and one of the address's, held by a new
        holder; 429 ``too_many_reviews`` (holding nothing) when either is full. The
        limiter never fails open: without Redis it counts in this process."""
        settings = self.admission.settings
        holder = secrets.token_hex(8)
        wanted = (
            (f"reviews:player:{player_id}", settings.limit_reviews_per_player),
            (f"reviews:ip:{address}", settings.limit_reviews_per_ip),
        )
        taken: list[tuple[str, str]] = []
        for key, limit in wanted:
            if not await self.admission.limiter.take(key, holder, limit):
                await self._give_back(taken)
                RATE_LIMITED.labels("reviews").inc()
                raise AppError(
                    AppCode.TOO_MANY_REVIEWS,
                    f"at most {limit} reviews pending at once; ask again when one is done",
                    details={"limit": limit},
                    headers={"Retry-After": str(RETRY_AFTER_S)},
                )
            taken.append((key, holder))
        return taken

    async def _give_back(self, slots: list[tuple[str, str]]) -> None:
        for key, holder in slots:
            try:
                await self.admission.limiter.give_back(key, holder)
            except (RedisError, OSError) as exc:  # its lease runs out by itself
                log.warning("review slot not given back: %s", exc)

    async def _finish(
        self, game_id: str, job: Awaitable[dict[str, Any]], slots: list[tuple[str, str]]
    ) -> None:
        """Await the job and store its review; a failed job is logged and forgotten, so
        the next ask starts again. The askers' slots are given back either way."""
        try:
            body = await job
            await self.store.add_review(game_id, body, self.clock.now_ms())
        except BrokenProcessPool:  # a drain (or a worker's death): asked again, it restarts
            log.warning("review of game %s dropped: its worker was stopped", game_id)
        except Exception:
            log.exception("review of game %s failed", game_id)
        finally:
            del self.running[game_id]
            await self._give_back(slots)
