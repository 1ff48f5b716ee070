"""The garbage-collection timer (app/collector.py) collects young objects that CPython's
own trigger would leave piling up."""

from __future__ import annotations

import asyncio
import contextlib
import gc

from app.collector import collect_young_forever


async def young_collected() -> None:
    while gc.get_count()[0] >= 1_000:  # waits on the collector's work, not on a clock
        await asyncio.sleep(0.005)


async def test_young_objects_are_collected_on_the_timer_though_no_threshold_is_reached() -> None:
    thresholds = gc.get_threshold()
    gc.set_threshold(1_000_000, 5, 40)  # allocation alone would not collect them
    timer = asyncio.create_task(collect_young_forever(every_s=0.005))
    try:
        gc.collect()
        kept = [[i] for i in range(20_000)]  # young, tracked and alive
        assert gc.get_count()[0] >= 20_000
        await asyncio.wait_for(young_collected(), timeout=10)
        assert len(kept) == 20_000
    finally:
        timer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await timer
        gc.set_threshold(*thresholds)
