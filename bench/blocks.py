"""Blocks engine benchmark: run as ``.venv/bin/python bench/blocks.py [games]``.

Per ruleset it prints the median (and 99th percentile) time of one placement (target
< 30 µs), of dealing a set with its guarantee (< 300 µs), of the view with every placement
preview (< 3 ms; mid-game states, and new games whose empty grid has the most), and the
average length in placements of ``games`` (default 1000) games of a greedy bot that plays
the placement worth the most points (ties: the first the view lists; classic10 spends a
New set when stuck).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from engines.blocks import ENGINE
from engines.blocks.moves import Move, NewSet, Place
from engines.blocks.params import Params
from engines.blocks.rulesets import ruleset_of
from engines.blocks.state import State
from engines.core.rng import Rng

RULESETS = {
    "classic10": Params("classic10"),
    "shapes48": Params("shapes48"),
    "shapes48 hardcore": Params("shapes48", "hardcore"),
    "gravity8": Params("gravity8"),
}
SAMPLE_STATES = 300
REPEATS = 5


def greedy_move(view: dict[str, Any]) -> Move | None:
    best: tuple[int, int, int, int] | None = None
    for slot, entry in enumerate(view["hand"]):
        if entry is None:
            continue
        for spot in entry["placements"]:
            if best is None or spot["points"] > best[0]:
                best = (spot["points"], slot, spot["row"], spot["col"])
    if best is not None:
        return Place(best[1], best[2], best[3])
    if view["can_new_set"]:
        return NewSet()
    return None


def greedy_game(params: Params, seed: int, keep: list[State] | None = None) -> int:
    state = ENGINE.new_game(params, seed)
    at_ms = 0
    while True:
        view = ENGINE.view(state, 0)
        if view["over"]:
            return state.placements
        move = greedy_move(view)
        if move is None:
            raise AssertionError("a game that is not over always has a move")
        if keep is not None and isinstance(move, Place):
            keep.append(state)
        at_ms += 1000
        state, _ = ENGINE.apply(state, move, at_ms)


def timings_us(samples: list[Callable[[], object]]) -> str:
    """Median, and the 99th percentile, of every sample run REPEATS times, in µs."""
    timings = []
    for _ in range(REPEATS):
        for sample in samples:
            start = time.perf_counter_ns()
            sample()
            timings.append(time.perf_counter_ns() - start)
    timings.sort()
    p99 = timings[len(timings) * 99 // 100]
    return f"median {statistics.median(timings) / 1000:8.1f} µs   (p99 {p99 / 1000:7.1f} µs)"


def sample_states(params: Params) -> list[State]:
    """Mid-game states from greedy games, spread over their whole length."""
    states: list[State] = []
    seed = 0
    while len(states) < 4 * SAMPLE_STATES:
        greedy_game(params, seed, states)
        seed += 1
    return states[:: max(1, len(states) // SAMPLE_STATES)][:SAMPLE_STATES]


def bench(name: str, params: Params, games: int) -> None:
    rules = ruleset_of(params)
    states = sample_states(params)

    placements = []
    for state in states:
        move = greedy_move(ENGINE.view(state, 0))
        assert isinstance(move, Place)
        placements.append(lambda s=state, m=move: ENGINE.apply(s, m, 1))
    deals = [
        lambda s=state, i=i: rules.dealer.deal(
            Rng(i), s.board, s.score, rules.table, rules.grid.full
        )
        for i, state in enumerate(states)
    ]
    views = [lambda s=state: ENGINE.view(s, 0) for state in states]
    # A new game's empty grid has the most placements to preview.
    new_games = [ENGINE.new_game(params, seed) for seed in range(50)]
    fresh = [lambda s=state: ENGINE.view(s, 0) for state in new_games]

    start = time.perf_counter()
    lengths = [greedy_game(params, seed) for seed in range(games)]
    elapsed = time.perf_counter() - start

    print(f"{name}")
    print(f"  one placement                 {timings_us(placements)}")
    print(f"  deal a set (guarantee)        {timings_us(deals)}")
    print(f"  view with all previews        {timings_us(views)}")
    print(f"  view of an empty grid         {timings_us(fresh)}")
    print(
        f"  greedy bot, {games} games      average {statistics.fmean(lengths):.1f} placements "
        f"(median {statistics.median(lengths):.0f}, max {max(lengths)}; {elapsed:.1f} s)"
    )


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    for name, params in RULESETS.items():
        bench(name, params, games)


if __name__ == "__main__":
    main()
