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
too (5 ms at human pace). A full collection walks every old object (200 ms for the 290
thousand of 500 matches): the timer keeps CPython's rule for it (only once the old
generation has grown by a quarter since the last one) but looks only every ten minutes,
about as often as CPython's own trigger used to consider one here. Checked every 2 s, it
ran once or twice a minute while a process filled up, and those stalls alone made the
99th percentile of two processes 50-280 ms instead of 21-26 ms.
"""

from __future__ import annotations

import asyncio
import gc
import itertools

YOUNG_EVERY_S = 0.05
FULL_EVERY_TICKS = 12_000  # ten minutes


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
    and consider the old one every ``FULL_EVERY_TICKS``-th (that count is ours to keep:
    only a full collection resets CPython's)."""
    old_after_full = old_generation_size()
    for tick in itertools.count(1):
        await asyncio.sleep(every_s)
        if tick % FULL_EVERY_TICKS == 0 and old_generation_size() > old_after_full * 5 // 4:
            gc.collect(2)
            old_after_full = old_generation_size()
        else:
            gc.collect(1 if tick % 5 == 0 else 0)


def old_generation_size() -> int:
    return len(gc.get_objects(generation=2))  # 4 ms for 300 thousand objects
