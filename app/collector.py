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
the last 50 ms made (a millisecond or two to walk), and every second time the middle one
too. (Every fifth time, as before, each middle collection walked twice as much: with
1,000 matches at human pace on one process, 63 of them in a run took 15 ms on average,
against 176-184 taking 7 ms every second time; the 99th percentile of a move went from
46-54 ms to 39-41 ms and the slowest from 85-94 ms to 57-63 ms, for the same CPU per
move.) A busy process stretches the timer so that collecting takes at
most ``SHARE`` of its time: the pause after a collection is at least ``1 / SHARE`` times
as long as the collection took, up to ``MAX_PAUSE_S``. Under a closed loop (500 matches,
every move in flight for a quarter of a second) the middle generation is then walked
once or twice a second instead of four times, and collecting fell from 12 % of the
process's time to 7 % (bench/tools/probe.py); at human pace it collects about every
100 ms. The cap was half a second: with 2,000 matches over two processes every
collection then waited the whole half second and walked all it had made meanwhile,
20-70 ms each, two a second, collecting nothing. At 0.15 s they take 5-9 ms at their
median (15-32 ms at the 99th percentile) for the same CPU in all, and a closed loop
costs what it did (500 matches: 0.61-0.63 against 0.62-0.65 ms a move).

A full collection walks every old object (200 ms for the 290 thousand of 500 matches):
the timer keeps CPython's rule for it (only once the old generation has grown by a
quarter since the last one) but looks only every ten minutes,
about as often as CPython's own trigger used to consider one here. Checked every 2 s, it
ran once or twice a minute while a process filled up, and those stalls alone made the
99th percentile of two processes 50-280 ms instead of 21-26 ms.
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import time

from app.metrics import GC_PAUSE

YOUNG_EVERY_S = 0.05
MIDDLE_EVERY = 2  # young collections per middle one
SHARE = 0.03  # of the process's time, at most, spent collecting young and middle objects
MAX_PAUSE_S = 0.15
FULL_EVERY_S = 600.0


def time_pauses() -> None:
    """Time every collection, ours and CPython's own, into nook_gc_pause_seconds (a
    callback at each start and stop: well under a microsecond each)."""
    if _pause_timer in gc.callbacks:
        return
    gc.callbacks.append(_pause_timer)


_pause_started = 0.0


def _pause_timer(phase: str, info: dict[str, int]) -> None:
    global _pause_started
    if phase == "start":
        _pause_started = time.perf_counter()
    else:
        GC_PAUSE.labels(str(info["generation"])).observe(time.perf_counter() - _pause_started)


def tune_for_serving() -> None:
    """Leave the objects made at start-up (modules, routes, table metadata) out of every
    collection, and let allocation alone trigger a collection only in a burst: the timer
    below does the steady work. (Each open socket keeps a few hundred live objects; with
    the default thresholds, per-move objects were promoted so fast that full collections
    over a thousand sockets ran every 2 s and stalled the process for 250-300 ms.)"""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 5, 8)


async def collect_young_forever(every_s: float = YOUNG_EVERY_S, share: float = SHARE) -> None:
    """Collect the young generation every ``every_s`` or, when collecting took longer
    than ``share`` of that, after a pause that brings it back to ``share``; the middle
    generation every ``MIDDLE_EVERY``-th time; and consider the old one every
    ``FULL_EVERY_S`` (that clock is ours to keep: only a full collection resets CPython's)."""
    old_after_full = old_generation_size()
    full_due = time.monotonic() + FULL_EVERY_S
    pause = every_s
    for count in itertools.count(1):
        await asyncio.sleep(pause)
        started = time.monotonic()
        if started >= full_due:
            full_due = started + FULL_EVERY_S
            if old_generation_size() > old_after_full * 5 // 4:
                gc.collect(2)
                old_after_full = old_generation_size()
                continue  # a rare stall, not a pace to keep
        gc.collect(1 if count % MIDDLE_EVERY == 0 else 0)
        pause = pause_after(time.monotonic() - started, every_s, share)


def pause_after(took_s: float, every_s: float = YOUNG_EVERY_S, share: float = SHARE) -> float:
    """The pause after a collection that took ``took_s``: ``every_s``, or long enough
    that collecting takes ``share`` of the time, but never over ``MAX_PAUSE_S`` (one slow
    collection, say after a burst of new sockets, must not leave the young generation to
    CPython's own trigger for long)."""
    return min(max(every_s, took_s / share), MAX_PAUSE_S)


def old_generation_size() -> int:
    return len(gc.get_objects(generation=2))  # 4 ms for 300 thousand objects
