"""Replay benchmark: run as ``.venv/bin/python bench/replay.py [--runs N]``.

Prints medians (time.perf_counter_ns) of ``GET /api/games/{id}/replay``'s service
(``app.replays.Replays.at``: the log read, the fold on a thread, the view) for a 200-ply
Blocks game (shapes48, zen: it never runs out of room) and a 120-star Triangles game
played to its end (the computer on both seats):

- first view: nothing kept, so the whole log is folded (for Triangles with its board
  built from scratch, "cold", and with the board already in the engine's cache, "warm",
  as for a game this process has been serving);
- cached: a later ply of the same game (the kept states: a lookup and a view).

The store is an in-memory stand-in (the database read is not what is measured here).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

from app.config import Settings
from app.limits import Admission, MemoryLimiter
from app.models import Game, GameStatus
from app.replays import Replays
from engines.blocks import ENGINE as BLOCKS
from engines.core.protocol import EngineError
from engines.triangles import ENGINE as TRIANGLES
from engines.triangles import board

BLOCKS_PLIES = 200
STEP_MS = 1_000


class MemoryStore:
    """The two reads Replays makes, from memory."""

    def __init__(self, game: Game, entries: list[dict[str, Any]]) -> None:
        self.row = game
        self.entries = entries

    async def game(self, game_id: str) -> Game:
        return self.row

    async def moves(
        self, game_id: str, after: int, limit: int | None = None
    ) -> list[dict[str, Any]]:
        return [dict(entry) for entry in self.entries[after:]]


def blocks_log() -> tuple[Any, int, list[dict[str, Any]]]:
    params = BLOCKS.parse_params({"ruleset": "shapes48", "mode": "zen"})
    seed = 20_261_130
    state = BLOCKS.new_game(params, seed)
    entries: list[dict[str, Any]] = []
    while len(entries) < BLOCKS_PLIES:
        at_ms = (len(entries) + 1) * STEP_MS
        state, _ = BLOCKS.tick(state, at_ms)
        state, move = first_placement(state, at_ms)
        entries.append({"ply": len(entries) + 1, "seat": 0, "move": move, "at_ms": at_ms})
    return params, seed, entries


def first_placement(state: Any, at_ms: int) -> tuple[Any, dict[str, Any]]:
    for piece in range(3):
        for row in range(10):
            for col in range(10):
                raw = {"type": "place", "piece": piece, "row": row, "col": col}
                try:
                    after, _ = BLOCKS.apply(state, BLOCKS.parse_move(raw), at_ms)
                except EngineError:
                    continue
                return after, raw
    raise SystemExit("no room left: pick another seed")


def triangles_log() -> tuple[Any, int, list[dict[str, Any]]]:
    params = TRIANGLES.parse_params({"field": "phone", "stars": 120, "opponent": "human"})
    seed = 41_739_205
    state = TRIANGLES.new_game(params, seed)
    entries: list[dict[str, Any]] = []
    while TRIANGLES.outcome(state) is None:
        seat = TRIANGLES.to_move(state)
        assert seat is not None
        move = TRIANGLES.computer_move(state)
        at_ms = (len(entries) + 1) * STEP_MS
        state, _ = TRIANGLES.apply(state, move, at_ms, seat)
        entry = {"ply": len(entries) + 1, "seat": seat, "move": TRIANGLES.dump_move(move)}
        entries.append({**entry, "at_ms": at_ms})
    return params, seed, entries


def row(engine: Any, params: Any, seed: int, entries: list[dict[str, Any]]) -> Game:
    return Game(
        id="bench", engine=engine.name, params=engine.dump_params(params), seed=seed,
        number=engine.number(params, seed), owner_id="p", seats=["p", "p"],
        version=len(entries), state={}, status=GameStatus.OVER.value, outcome=None,
        public=False, daily=None, daily_key=None, score=None, rematch=None,
        started_ms=0, updated_ms=0,
    )  # fmt: skip


async def times(
    engine: Any, params: Any, seed: int, entries: list[dict[str, Any]], runs: int, cold: bool
) -> tuple[list[int], list[int]]:
    game = row(engine, params, seed, entries)
    admission = Admission(MemoryLimiter(), Settings(secret="bench"))
    first: list[int] = []
    cached: list[int] = []
    for run in range(runs):
        if cold:
            board.BOARDS.clear()
        replays = Replays(MemoryStore(game, entries), _catalog(engine), admission)
        admission.limiter = MemoryLimiter()
        start = time.perf_counter_ns()
        await replays.at(game.id, "p", f"bench-{run}", len(entries) // 2)
        first.append(time.perf_counter_ns() - start)
        for ply in (0, len(entries) // 3, len(entries)):
            start = time.perf_counter_ns()
            await replays.at(game.id, "p", f"bench-{run}", ply)
            cached.append(time.perf_counter_ns() - start)
    return first, cached


def _catalog(engine: Any) -> Any:
    from app.catalog import Catalog

    return Catalog({engine.name: engine})


def ms(samples: list[int]) -> str:
    return f"{statistics.median(samples) / 1e6:8.2f} ms"


async def main(runs: int) -> None:
    cases = [
        ("blocks shapes48 zen", BLOCKS, blocks_log(), False),
        ("triangles 120 stars, cold board", TRIANGLES, triangles_log(), True),
        ("triangles 120 stars, warm board", TRIANGLES, None, False),
    ]
    last: Any = None
    print(f"replay service, median of {runs} runs:        first view     cached view")
    for name, engine, log, cold in cases:
        log = log or last
        last = log
        params, seed, entries = log
        first, cached = await times(engine, params, seed, entries, runs, cold)
        print(f"  {name:<32} {len(entries):4d} plies {ms(first)}  {ms(cached)}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    asyncio.run(main(parser.parse_args().runs))
