"""Helpers for the Pairs tests: boards written as text, states built around them."""

from __future__ import annotations

from collections import deque
from dataclasses import replace
from typing import Any

from engines.core.rng import Rng
from engines.pairs import ENGINE
from engines.pairs.clock import Clock
from engines.pairs.grid import EMPTY, Grid
from engines.pairs.moves import Move, Pair
from engines.pairs.params import Params
from engines.pairs.state import State

LETTERS = "abcdefghijklmnop"  # picture ids 0..15


def tiles_of(text: str) -> tuple[int, ...]:
    """Rows of letters (a = picture 0 ... p = picture 15) and dots (empty), space-separated."""
    tiles: list[int] = []
    for line in text.strip().splitlines():
        for token in line.split():
            tiles.append(EMPTY if token == "." else LETTERS.index(token))
    return tuple(tiles)


def text_of(tiles: tuple[int, ...], cols: int = 6) -> str:
    rows = [tiles[i : i + cols] for i in range(0, len(tiles), cols)]
    return "\n".join(" ".join("." if t == EMPTY else LETTERS[t] for t in row) for row in rows)


def make_state(text: str, size: str = "beginner", mode: str = "calm", **changes: Any) -> State:
    params = Params(size=size, mode=mode)
    tiles = tiles_of(text)
    assert len(tiles) == params.spec.rows * 6
    state = State(
        params=params,
        seed=0,
        pictures=tuple(sorted({t for t in tiles if t != EMPTY})),
        tiles=tiles,
        rng=Rng.from_seed(0, "pairs").state,
        clock=Clock(remaining_ms=params.spec.timed_start_ms if params.timed else None),
    )
    return replace(state, **changes)


def pair(a: tuple[int, int], b: tuple[int, int]) -> Move:
    return Pair(a, b)


def play(state: State, move: Move, at_ms: int) -> tuple[State, list[dict[str, Any]]]:
    return ENGINE.apply(state, move, at_ms)


def bfs_min_turns(grid: Grid, a: int, b: int, occupied: int) -> int | None:
    """Reference: fewest turns of a path from a to b through empty cells (None if > 2)."""
    best: dict[tuple[int, int], int] = {}
    queue: deque[tuple[int, int, int]] = deque((a, d, 0) for d in range(4))
    found: int | None = None
    while queue:
        pos, d, turns = queue.popleft()
        y, x = divmod(pos, grid.width)
        ny, nx = y + (d == 2) - (d == 3), x + (d == 0) - (d == 1)
        if not (0 <= ny < grid.height and 0 <= nx < grid.width):
            continue
        nxt = ny * grid.width + nx
        if nxt == b:
            found = turns if found is None else min(found, turns)
            continue
        if occupied >> nxt & 1:
            continue
        for nd in range(4):
            nturns = turns + (nd != d)
            if nturns > 2 or best.get((nxt, nd), 3) <= nturns:
                continue
            best[(nxt, nd)] = nturns
            queue.append((nxt, nd, nturns))
    return found
