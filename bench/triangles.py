"""Triangles engine benchmark: run as ``.venv/bin/python bench/triangles.py [--quick]``.

Prints medians (time.perf_counter_ns) of:

- a new board with its precomputation (drawable pairs, scoring triangles) per size;
  target < 200 ms at 180 stars;
- one ``apply`` of a line with end detection at 180 stars, along whole games (target
  < 5 ms): on fresh boards (each line's crossing set is computed when first drawn)
  and replayed on the same boards (crossing sets cached);
- the computer's move time per level at 24, 60 and 180 stars (median and max;
  target for hard: < 1.5 s at 180);
- a strength table of computer-vs-computer games, 200 per pairing by default (each
  board played twice, the first player alternating), at 24 and 60 stars, without and
  with the "move again" option. Targets: medium beats easy in ≥ 80 % of the decisive
  games, hard beats medium in ≥ 75 %. Games run on two processes.

``--quick`` plays fewer games and boards; the full default takes several minutes
(``--games 0`` prints the timings only).
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import replace
from multiprocessing import Pool

from engines.triangles import ENGINE
from engines.triangles.board import Board
from engines.triangles.field import FIELDS
from engines.triangles.params import Params
from engines.triangles.state import State

SIZES = [("phone", 24), ("phone", 60), ("phone", 120), ("tablet", 80), ("tablet", 180)]
MOVE_TIME_SIZES = [("phone", 24), ("phone", 60), ("tablet", 180)]
PAIRINGS = [("medium", "easy"), ("hard", "medium"), ("hard", "easy")]
TABLE_SIZES = [("phone", 24), ("phone", 60)]


def ms(samples_ns: list[int]) -> str:
    return f"{statistics.median(samples_ns) / 1e6:8.2f} ms"


def board_times(field: str, stars: int, boards: int) -> list[int]:
    samples = []
    for seed in range(boards):
        start = time.perf_counter_ns()
        Board.generate(FIELDS[field], stars, 10_000 + seed)  # not the cache: cold every time
        samples.append(time.perf_counter_ns() - start)
    return samples


def as_level(state: State, level: str) -> State:
    return replace(state, params=replace(state.params, opponent=level))


def apply_times(games: int) -> tuple[list[int], list[int], int]:
    """Times of apply at 180 stars over whole medium-vs-medium games on fresh boards
    (each line's crossing set is computed on its first drawing), then over the same
    games replayed on the same boards (crossing sets cached); and the game length."""
    cold: list[int] = []
    warm: list[int] = []
    lines = 0
    for seed in range(games):
        params = Params("tablet", 180, False, "medium")
        state = ENGINE.new_game(params, 20_000 + seed)
        moves = []
        while not state.over:
            move = ENGINE.computer_move(state)
            moves.append(move)
            start = time.perf_counter_ns()
            state, _ = ENGINE.apply(state, move, len(moves) * 1000, state.turn)
            cold.append(time.perf_counter_ns() - start)
        state = ENGINE.new_game(params, 20_000 + seed)
        for ply, move in enumerate(moves):
            start = time.perf_counter_ns()
            state, _ = ENGINE.apply(state, move, ply * 1000, state.turn)
            warm.append(time.perf_counter_ns() - start)
        lines += len(moves)
    return cold, warm, lines // games


def move_times(field: str, stars: int, games: int) -> dict[str, list[int]]:
    """The computer's move times per level, each level playing medium (first in even
    games, second in odd ones); only the level's own moves are timed."""
    times: dict[str, list[int]] = {}
    for level in ("easy", "medium", "hard"):
        samples = times.setdefault(level, [])
        for seed in range(games):
            state = ENGINE.new_game(Params(field, stars, False, "human"), 30_000 + seed)
            levels = (level, "medium") if seed % 2 == 0 else ("medium", level)
            while not state.over:
                mover = as_level(state, levels[state.turn])
                start = time.perf_counter_ns()
                move = ENGINE.computer_move(mover)
                elapsed = time.perf_counter_ns() - start
                if levels[state.turn] == level:
                    samples.append(elapsed)
                state, _ = ENGINE.apply(state, move, 0, state.turn)
    return times


def play(job: tuple[str, str, str, int, int, bool]) -> tuple[int, int]:
    """One game, seat 0 at level ``first``; returns the scores."""
    first, second, field, stars, seed, again = job
    state = ENGINE.new_game(Params(field, stars, again, "human"), seed)
    levels = (first, second)
    while not state.over:
        move = ENGINE.computer_move(as_level(state, levels[state.turn]))
        state, _ = ENGINE.apply(state, move, 0, state.turn)
    return state.scores


def strength(
    pool: Pool, strong: str, weak: str, field: str, stars: int, games: int, again: bool
) -> tuple[int, int, int]:
    """Wins, losses and draws of ``strong`` against ``weak``; board i // 2, the strong
    level moving first in even games and second in odd ones."""
    jobs = [
        (strong, weak, field, stars, 40_000 + i // 2, again)
        if i % 2 == 0
        else (weak, strong, field, stars, 40_000 + i // 2, again)
        for i in range(games)
    ]
    wins = losses = draws = 0
    for i, scores in enumerate(pool.map(play, jobs, chunksize=1)):
        mine, theirs = (scores[0], scores[1]) if i % 2 == 0 else (scores[1], scores[0])
        if mine > theirs:
            wins += 1
        elif mine < theirs:
            losses += 1
        else:
            draws += 1
    return wins, losses, draws


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer boards and games")
    parser.add_argument(
        "--games", type=int, help="games per pairing (default 200, quick 40; 0: no table)"
    )
    options = parser.parse_args()
    quick = options.quick
    games = options.games if options.games is not None else (40 if quick else 200)
    boards = 3 if quick else 9

    print("New board with precomputation (median of", boards, "seeds)")
    for field, stars in SIZES:
        board = Board.generate(FIELDS[field], stars, 10_000)
        pairs = sum(mask.bit_count() for mask in board.drawable) // 2
        print(
            f"  {field:6} {stars:3} stars: {ms(board_times(field, stars, boards))}"
            f"   ({pairs} drawable pairs, {len(board.triangles)} scoring triangles)"
        )

    cold, warm, length = apply_times(1 if quick else 3)
    print(f"Apply one line with end detection, 180 stars (games of ~{length} lines)")
    print(f"  fresh board (crossings computed): {ms(cold)}  (max {max(cold) / 1e6:.2f} ms)")
    print(f"  same board again (cached):        {ms(warm)}  (max {max(warm) / 1e6:.2f} ms)")

    print("Computer move time per level (median / max over whole games against medium)")
    for field, stars in MOVE_TIME_SIZES:
        rounds = 2 if quick or stars > 60 else 4
        for level, samples in move_times(field, stars, rounds).items():
            print(
                f"  {stars:3} stars {level:6}: {ms(samples)} / {max(samples) / 1e6:8.2f} ms"
                f"  ({len(samples)} moves)"
            )

    if games <= 0:
        return
    print(f"Strength: {games} games per pairing, first player alternating")
    print("  again  stars  pairing          wins  losses  draws  wins/decisive")
    with Pool(2) as pool:
        for again in (False,) if quick else (False, True):
            for field, stars in TABLE_SIZES:
                for strong, weak in PAIRINGS:
                    won, lost, drawn = strength(pool, strong, weak, field, stars, games, again)
                    rate = won / (won + lost) if won + lost else 0.0
                    print(
                        f"  {'on ' if again else 'off'}    {stars:3}    "
                        f"{strong:6} v {weak:6}  {won:5} {lost:7} {drawn:6}  {rate:10.1%}"
                    )


if __name__ == "__main__":
    main()
