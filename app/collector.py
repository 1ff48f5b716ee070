"""Garbage collection paced by the clock, so that no collection stalls the games for long.

CPython starts a young collection when tracked objects *allocated* outnumber those
*freed* by the first threshold. A server in its steady state frees as much as it makes:
each move replaces a game's stored state with a new one, so the old state's containers
(long since promoted) are freed as the new ones are made, the count hardly grows, and the
young generation swells unseen to every game's latest state. When a collection came at
last it had 50-70 thousand young objects to walk: 40-75 ms during which no game on the
process moved (bench/tools/probe.py, 500 matches at human pace: five such stalls in 25 s
made the whole 99th percentile).

So the young generation is also collected on a timer: every 50 ms it holds only what the
last 50 ms made (a millisecond or two to walk), and the middle generation in its turn, as
CPython would. The full collection stays CPython's own, on its thresholds and its rule
that the long-lived objects must have grown by a quarter first.
"""

from __future__ import annotations

import asyncio
import gc

YOUNG_EVERY_S = 0.05


def tune_for_serving() -> None:
    """Leave the objects made at start-up (modules, routes, table metadata) out of every
    collection, and let allocation alone trigger a collection rarely: the timer below
    does the steady work. (Each open socket keeps a few hundred live objects; with the
    default thresholds, per-move objects were promoted so fast that full collections
    over a thousand sockets ran every 2 s and stalled the process for 250-300 ms.)"""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 10)


async def collect_young_forever(every_s: float = YOUNG_EVERY_S) -> None:
    while True:
        await asyncio.sleep(every_s)
        middle_due = gc.get_count()[1] >= gc.get_threshold()[1]
        gc.collect(1 if middle_due else 0)
