"""CPU-heavy engine work, kept off the event loop, in two pools of processes.

- **Play**: the computer's moves (up to 0.5 s for a hard Triangles move) and new boards
  of engines whose engine says they are costly (170 ms and more for a 180-star Triangles
  field), in ``workers`` processes (one per core by default), so one player's wait never
  stalls everyone else's moves. Beyond ``queue_limit`` pending jobs a request is refused
  with 429 ``busy`` before anything is written.
- **Reviews** (seconds of search each, asked by anyone of any finished game): their own
  ``workers - 1`` processes (at least one), started on the first review, with their own
  queue of ``queue_limit`` jobs (then 429 ``busy``), at a lower CPU priority
  (``REVIEW_NICENESS``). So a review never takes a worker from the computer, a computer
  move never waits behind queued reviews, and where reviews and play share a core (one
  engine worker, or every core busy) the kernel gives the computer's move the core. They
  are separate processes, not slots of the play pool, for two reasons: with one engine
  worker there would be no slot to give them, and a drain can kill them
  (``drop_reviews``) without breaking the play pool (a worker killed inside a
  ProcessPoolExecutor breaks the whole pool, failing every job in it).

Loading such an engine's stored state (which may rebuild its board) runs on a thread.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

import anyio

from app.catalog import AnyEngine, computer, costly, reviewer
from app.errors import AppError
from app.metrics import ENGINE_JOB
from app.models import Game
from engines.core.errors import AppCode, ErrorCode
from engines.core.protocol import IllegalMove

T = TypeVar("T")
PARENT_CHECK_S = 1.0  # how often a worker looks whether its server still lives
# Review workers run at this niceness: on a core shared with a play worker, the kernel
# gives the review about a tenth of it (CFS weights 110 against 1024).
REVIEW_NICENESS = 10


def _computer_move(engine: AnyEngine, state: Mapping[str, Any]) -> dict[str, Any]:
    """In a worker: the computer's move for a stored state (the worker keeps its own
    board cache, so a game's later moves find its board ready)."""
    player = computer(engine)
    if player is None:  # a COMPUTER seat of a game that has no computer player: a bug
        raise IllegalMove(ErrorCode.NO_COMPUTER, f"{engine.name} has no computer seat")
    return engine.dump_move(player.computer_move(engine.load_state(state)))


def _review(engine: AnyEngine, state: Mapping[str, Any]) -> dict[str, Any]:
    """In a review worker: the review of a finished game's stored state (seconds)."""
    reviews = reviewer(engine)
    assert reviews is not None, "only a reviewing game's review is asked (app/reviews.py)"
    return reviews.review(engine.load_state(state))


def _new_game(engine: AnyEngine, params: Any, seed: int) -> Any:
    """In a worker: a new game's state, sent back whole (its board included: the
    receiving process keeps it in its own board cache, or uses the copy it has)."""
    return engine.new_game(params, seed)


def _start_worker(
    engines: tuple[AnyEngine, ...], budget: int | None, server_pid: int, niceness: int = 0
) -> None:
    """In a new worker: the same bound on the engines' caches as in the server, its CPU
    priority, and an end with the server: a server killed outright (SIGKILL, a crash)
    cannot shut its pool down, and its workers would otherwise wait on their queue for
    ever, holding their memory."""
    if budget is not None:
        for engine in engines:
            engine.bound_caches(budget)
    if niceness and hasattr(os, "nice"):
        os.nice(niceness)  # lowering one's own priority needs no privilege
    threading.Thread(target=_exit_with, args=(server_pid,), daemon=True).start()


def _exit_with(server_pid: int) -> None:
    while os.getppid() == server_pid:
        time.sleep(PARENT_CHECK_S)
    os._exit(0)  # the server is gone: nobody is left to answer


def _spawned_pool(
    workers: int, engines: tuple[AnyEngine, ...], budget: int | None, niceness: int = 0
) -> ProcessPoolExecutor:
    """Workers are spawned, not forked, so they inherit no event loop, sockets or threads."""
    return ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker,
        initargs=(engines, budget, os.getpid(), niceness),
    )


def _kill(pool: ProcessPoolExecutor) -> None:
    """Drop a pool's queued jobs and kill its running ones (Python 3.14's
    ``kill_workers``): their futures fail, nothing waits for them."""
    kill_workers = getattr(pool, "kill_workers", None)
    if kill_workers is not None:  # Python 3.14 and later
        kill_workers()
        return
    processes = list((pool._processes or {}).values())  # shutdown() forgets them
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.kill()


_POOLS: dict[tuple[int, int | None], ProcessPoolExecutor] = {}


def shared_pool(
    workers: int, engines: tuple[AnyEngine, ...] = (), cache_budget: int | None = None
) -> ProcessPoolExecutor:
    """One play pool per process and cache budget (apps made in the same process, as in
    tests, share it), started on first use: most requests never need it."""
    key = (workers, cache_budget)
    if key not in _POOLS:
        _POOLS[key] = _spawned_pool(workers, engines, cache_budget)
    return _POOLS[key]


class EngineWorkers:
    def __init__(
        self,
        workers: int = 0,
        queue_limit: int = 0,
        engines: tuple[AnyEngine, ...] = (),
        cache_budget: int | None = None,
    ) -> None:
        """``cache_budget``: bytes each worker's engine caches may hold (``engines``'
        ``bound_caches``); None leaves the engines' defaults."""
        self.workers = workers or os.cpu_count() or 1
        self.review_workers = max(1, self.workers - 1)
        self.queue_limit = queue_limit or 8 * self.workers
        self.engines = engines
        self.cache_budget = cache_budget
        self.pending = 0  # play jobs queued or running
        self.reviews_pending = 0
        self._reviews: ProcessPoolExecutor | None = None

    @property
    def pool(self) -> ProcessPoolExecutor:
        return shared_pool(self.workers, self.engines, self.cache_budget)

    def _admit(self, pending: int) -> None:
        """Refuse with 429 ``busy`` when the queue is full."""
        if pending >= self.queue_limit:
            raise AppError(
                AppCode.BUSY,
                "the server is thinking for many games at once; try again in a moment",
                headers={"Retry-After": "1"},
            )

    async def _run(self, kind: str, job: Callable[..., T], *args: Any) -> T:
        self._admit(self.pending)
        self.pending += 1
        started = time.perf_counter()
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, job, *args)
        finally:
            self.pending -= 1
            ENGINE_JOB.labels(kind).observe(time.perf_counter() - started)

    async def computer_move(self, engine: AnyEngine, state: Any) -> Any:
        """The computer's move for ``state``, worked out in the pool."""
        move = await self._run("computer_move", _computer_move, engine, engine.dump_state(state))
        return engine.parse_move(move)

    def start_review(
        self, engine: AnyEngine, state: Mapping[str, Any]
    ) -> Awaitable[dict[str, Any]]:
        """A finished game's review (from its stored state), queued with the review
        workers now: 429 ``busy`` at once when their queue is full, else the job's
        awaitable, which holds its place in the queue until the job is done (cancelled
        while queued, it leaves the queue)."""
        self._admit(self.reviews_pending)
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(self._review_pool(), _review, engine, state)
        except BrokenProcessPool:  # a review worker died (out of memory, killed): start anew
            self.drop_reviews()
            future = loop.run_in_executor(self._review_pool(), _review, engine, state)
        self.reviews_pending += 1
        return self._review_done(future)

    def _review_pool(self) -> ProcessPoolExecutor:
        if self._reviews is None:
            self._reviews = _spawned_pool(
                self.review_workers, self.engines, self.cache_budget, REVIEW_NICENESS
            )
        return self._reviews

    async def _review_done(self, future: Awaitable[dict[str, Any]]) -> dict[str, Any]:
        started = time.perf_counter()
        try:
            return await future
        finally:
            self.reviews_pending -= 1
            ENGINE_JOB.labels("review").observe(time.perf_counter() - started)

    def drop_reviews(self) -> None:
        """Kill the review workers and drop their queue (a drain: a review takes seconds,
        longer than a process may take to stop). The jobs' awaitables end at once, the
        running ones with BrokenProcessPool, the queued ones cancelled (so they must not
        be cancelled from here beforehand: Python 3.11's pool then fails to break); the
        next review starts new workers."""
        pool, self._reviews = self._reviews, None
        if pool is not None:
            _kill(pool)

    async def new_game(self, engine: AnyEngine, params: Any, seed: int) -> Any:
        if not costly(engine, params):
            return engine.new_game(params, seed)
        return await self._run("new_game", _new_game, engine, params, seed)

    async def load(self, engine: AnyEngine, game: Game) -> Any:
        """A game's stored state, loaded on a thread when that may rebuild a costly
        board."""
        if not costly(engine, engine.parse_params(game.params)):
            return engine.load_state(game.state)
        started = time.perf_counter()
        try:
            return await anyio.to_thread.run_sync(engine.load_state, game.state)
        finally:
            ENGINE_JOB.labels("load").observe(time.perf_counter() - started)
