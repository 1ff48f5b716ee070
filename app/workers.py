"""CPU-heavy engine work, kept off the event loop.

The computer's moves (up to 0.5 s for a hard Triangles move) and new boards of engines
whose engine says they are costly (170 ms and more for a 180-star Triangles field) run in a
process pool sized to the cores, so one player's wait never stalls everyone else's
moves. The pool's queue is bounded: beyond ``queue_limit`` pending jobs the request is
refused with 429 ``busy`` before anything is written. Loading such an engine's stored
state (which may rebuild its board) runs on a thread.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

import anyio

from app.catalog import AnyEngine
from app.errors import AppError
from app.metrics import ENGINE_JOB
from app.models import Game
from engines.core.errors import AppCode

T = TypeVar("T")
PARENT_CHECK_S = 1.0  # how often a worker looks whether its server still lives


def _computer_move(engine: AnyEngine, state: Mapping[str, Any]) -> dict[str, Any]:
    """In a worker: the computer's move for a stored state (the worker keeps its own
    board cache, so a game's later moves find its board ready)."""
    return engine.dump_move(engine.computer_move(engine.load_state(state)))


def _review(engine: AnyEngine, state: Mapping[str, Any]) -> dict[str, Any]:
    """In a worker: the review of a finished game's stored state (seconds of search)."""
    return engine.review(engine.load_state(state))


def _new_game(engine: AnyEngine, params: Any, seed: int) -> Any:
    """In a worker: a new game's state, sent back whole (its board included: the
    receiving process keeps it in its own board cache, or uses the copy it has)."""
    return engine.new_game(params, seed)


def _start_worker(engines: tuple[AnyEngine, ...], budget: int | None, server_pid: int) -> None:
    """In a new worker: the same bound on the engines' caches as in the server, and an end
    with the server: a server killed outright (SIGKILL, a crash) cannot shut its pool down,
    and its workers would otherwise wait on their queue for ever, holding their memory."""
    if budget is not None:
        for engine in engines:
            engine.bound_caches(budget)
    threading.Thread(target=_exit_with, args=(server_pid,), daemon=True).start()


def _exit_with(server_pid: int) -> None:
    while os.getppid() == server_pid:
        time.sleep(PARENT_CHECK_S)
    os._exit(0)  # the server is gone: nobody is left to answer


_POOLS: dict[tuple[int, int | None], ProcessPoolExecutor] = {}


def shared_pool(
    workers: int, engines: tuple[AnyEngine, ...] = (), cache_budget: int | None = None
) -> ProcessPoolExecutor:
    """One pool per process and cache budget (apps made in the same process, as in
    tests, share it), started on first use: most requests never need it. Workers are
    spawned, not forked, so they inherit no event loop, sockets or threads."""
    key = (workers, cache_budget)
    if key not in _POOLS:
        context = multiprocessing.get_context("spawn")
        _POOLS[key] = ProcessPoolExecutor(
            workers, mp_context=context, initializer=_start_worker,
            initargs=(engines, cache_budget, os.getpid()),
        )
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
        self.queue_limit = queue_limit or 8 * self.workers
        self.engines = engines
        self.cache_budget = cache_budget
        self.pending = 0

    @property
    def pool(self) -> ProcessPoolExecutor:
        return shared_pool(self.workers, self.engines, self.cache_budget)

    def _admit(self) -> None:
        """Refuse with 429 ``busy`` when the queue is full."""
        if self.pending >= self.queue_limit:
            raise AppError(
                AppCode.BUSY,
                "the server is thinking for many games at once; try again in a moment",
                headers={"Retry-After": "1"},
            )

    async def _run(self, kind: str, job: Callable[..., T], *args: Any) -> T:
        self._admit()
        self.pending += 1
        return await self._run_admitted(kind, job, *args)

    async def computer_move(self, engine: AnyEngine, state: Any) -> Any:
        """The computer's move for ``state``, worked out in the pool."""
        move = await self._run("computer_move", _computer_move, engine, engine.dump_state(state))
        return engine.parse_move(move)

    def start_review(
        self, engine: AnyEngine, state: Mapping[str, Any]
    ) -> Awaitable[dict[str, Any]]:
        """A finished game's review (from its stored state), queued in the pool now:
        429 ``busy`` at once when the queue is full, else the job's awaitable, which
        holds its place in the queue until the job is done."""
        self._admit()
        self.pending += 1
        return self._run_admitted("review", _review, engine, state)

    async def _run_admitted(self, kind: str, job: Callable[..., T], *args: Any) -> T:
        started = time.perf_counter()
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, job, *args)
        finally:
            self.pending -= 1
            ENGINE_JOB.labels(kind).observe(time.perf_counter() - started)

    async def new_game(self, engine: AnyEngine, params: Any, seed: int) -> Any:
        if not engine.costly_setup(params):
            return engine.new_game(params, seed)
        return await self._run("new_game", _new_game, engine, params, seed)

    async def load(self, engine: AnyEngine, game: Game) -> Any:
        """A game's stored state, loaded on a thread when that may rebuild a costly
        board."""
        if not engine.costly_setup(engine.parse_params(game.params)):
            return engine.load_state(game.state)
        started = time.perf_counter()
        try:
            return await anyio.to_thread.run_sync(engine.load_state, game.state)
        finally:
            ENGINE_JOB.labels("load").observe(time.perf_counter() - started)
