"""Triangles review benchmark: run as ``.venv/bin/python bench/review.py [--quick]``.

Prints:

- the review time of whole games (``engines.triangles.review``, on one core: what one
  engine worker spends) at 24 and 60 stars, median and max over a few boards, with the
  share of plies solved exactly (the rest estimated by the hard computer's search).
  Targets: 24 stars <= 2 s, 60 stars <= 10 s;
- how the verdicts sort real play: computer-vs-computer games (hard against easy by
  default, each board played twice with the seats swapped), reviewed, with each level's
  mean accuracy and its verdicts per game. A stronger level must come out more accurate
  and with fewer mistakes and blunders.

Everything is deterministic (node budgets, seeded computer moves): the same run prints
the same verdicts. ``--quick`` reviews fewer boards and games.

``--flood`` measures instead what a flood of reviews does to play (``bench/review_flood.py``):
one ``python -m app`` on a temporary SQLite file, ``--flood-games`` finished games reviewed
by one cookie, then as many by ten cookies, while a player against the medium computer
times its moves' answers (until accepted: a 429 is asked again after its Retry-After).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

from engines.triangles import ENGINE
from engines.triangles.review import VERDICT_NAMES
from engines.triangles.state import State

TIME_SIZES = (24, 60)


def play(stars: int, seed: int, levels: tuple[str, str], again: bool = False) -> State:
    """A whole game between two computer levels (seat 0 plays ``levels[0]``)."""
    params = ENGINE.parse_params({"field": "phone", "stars": stars, "again": again})
    state = ENGINE.new_game(params, seed)
    while not state.over:
        mover = replace(state, params=replace(state.params, opponent=levels[state.turn]))
        state, _ = ENGINE.apply(state, ENGINE.computer_move(mover), 0, state.turn)
    return state


def review_times(stars: int, boards: int) -> None:
    seconds: list[float] = []
    exact = plies = 0
    for seed in range(boards):
        state = play(stars, 5_000 + seed, ("hard", "medium"))
        start = time.perf_counter()
        review = ENGINE.review(state)
        seconds.append(time.perf_counter() - start)
        exact += sum(ply["exact"] for ply in review["plies"])
        plies += len(review["plies"])
    print(
        f"  {stars:3d} stars: median {statistics.median(seconds):6.2f} s, max {max(seconds):6.2f} s"
        f" over {boards} games ({plies / boards:.0f} lines a game);"
        f" solved exactly {100 * exact / plies:5.1f} % of the plies"
    )


def accuracy_table(stars: int, games: int, levels: tuple[str, str]) -> None:
    accuracy: dict[str, list[float]] = {level: [] for level in levels}
    verdicts: dict[str, Counter[str]] = {level: Counter() for level in levels}
    played: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    for game in range(games):
        seats = levels if game % 2 == 0 else (levels[1], levels[0])
        state = play(stars, 7_000 + game // 2, seats)
        review = ENGINE.review(state)
        for seat in review["summary"]:
            level = seats[seat["seat"]]
            played[level] += 1
            if seat["accuracy"] is not None:
                accuracy[level].append(seat["accuracy"])
            verdicts[level].update(seat["counts"])
        if state.winner is not None:
            wins[seats[state.winner]] += 1
    print(f"  {stars} stars, {games} games, {levels[0]} against {levels[1]} (seats alternating):")
    for level in levels:
        per_game = "  ".join(
            f"{name} {verdicts[level][name] / played[level]:5.2f}" for name in VERDICT_NAMES
        )
        mean = statistics.mean(accuracy[level])
        spread = statistics.pstdev(accuracy[level])
        lowest = min(accuracy[level])
        print(
            f"    {level:6s} accuracy {mean:5.1f} % (sd {spread:4.1f}, min {lowest:5.1f})"
            f"  wins {wins[level]:3d}  per game: {per_game}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer boards and games")
    parser.add_argument("--boards", type=int, default=None, help="games timed per size")
    parser.add_argument("--games", type=int, default=None, help="games in the accuracy table")
    parser.add_argument("--stars", type=int, default=24, help="stars in the accuracy table")
    parser.add_argument("--levels", default="hard,easy", help="the two levels compared")
    parser.add_argument("--flood", action="store_true", help="the computer during a review flood")
    parser.add_argument("--flood-games", type=int, default=20, help="reviews asked per flood")
    parser.add_argument("--flood-stars", type=int, default=24, help="stars of the reviewed games")
    args = parser.parse_args()
    if args.flood:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's app
        from bench.review_flood import flood

        flood(args.flood_games, args.flood_stars)
        return
    boards = args.boards or (2 if args.quick else 5)
    games = args.games if args.games is not None else (10 if args.quick else 50)
    first, second = args.levels.split(",")
    print("review time on one core (hard against medium):")
    for stars in TIME_SIZES:
        review_times(stars, boards)
    if games:
        print("verdicts against real play:")
        accuracy_table(args.stars, games, (first, second))


if __name__ == "__main__":
    main()
