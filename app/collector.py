"""Garbage collection paced by the clock, so that no collection stalls the games for long.

CPython starts a young collection when tracked objects *allocated* outnumber those
*freed* by the first threshold. A server in its steady state frees as much as it makes:
each move replaces a game's stored state with a new one, so the old state's containers
(long since promoted) are freed as the new ones are made, the count hardly grows, and the
young generation swells unseen to every game's latest state. When a collection came at
last it had 50-70 thousand young objects to walk: 40-75 ms during which no game on the
process moved (bench/tools/probe.py, 500 matches at human pace: five such stalls in 25 s
made the whole 99th percentile).

So the young generation is collected on a timer instead: every 50 ms it holds only what
the last 50 ms made (a millisecond or two to walk), and every fifth time the middle one
too (5 ms at human pace). The timer also keeps CPython's rule for full collections, which
its own trigger can no longer reach: every 2 s it counts the old generation (4 ms for 300
thousand objects) and collects it only once it has grown by a quarter since the last full
collection. So full collections come while the heap grows (a process filling up with
games), and stop once it is steady (a full one over 260 thousand objects takes 200 ms).
"""

from __future__ import annotations

import asyncio
import gc
import itertools

YOUNG_EVERY_S = 0.05


def tune_for_serving() -> None:
    """Leave the objects made at start-up (modules, routes, table metadata) out of every
    collection, and let allocation alone trigger a collection only in a burst: the timer
    below does the steady work. (Each open socket keeps a few hundred live objects; with
    the default thresholds, per-move objects were promoted so fast that full collections
    over a thousand sockets ran every 2 s and stalled the process for 250-300 ms.)"""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 5, 8)


async def collect_young_forever(every_s: float = YOUNG_EVERY_S) -> None:
    """Collect the young generation every ``every_s``, the middle one every fifth time,
    and look at the old one every fortieth (its count is ours to keep: only a full
    collection resets CPython's)."""
    old_after_full = len(gc.get_objects(generation=2))
    for tick in itertools.count(1):
        await asyncio.sleep(every_s)
        if tick % 40 == 0 and len(gc.get_objects(generation=2)) > old_after_full * 5 // 4:
            gc.collect(2)
            old_after_full = len(gc.get_objects(generation=2))
        else:
            gc.collect(1 if tick % 5 == 0 else 0)
