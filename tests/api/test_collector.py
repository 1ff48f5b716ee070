"""The garbage-collection timer (app/collector.py) collects young objects that CPython's
own trigger would leave piling up."""

from __future__ import annotations

import asyncio
import contextlib
import gc

import pytest

from app.collector import MAX_PAUSE_S, collect_young_forever, pause_after


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


def test_a_slow_collection_stretches_the_pause_to_keep_collecting_within_its_share() -> None:
    assert pause_after(0.001, every_s=0.05, share=0.03) == 0.05  # quick: the base pace
    assert pause_after(0.003, every_s=0.05, share=0.03) == pytest.approx(0.1)  # 3 % of 0.1 s
    assert pause_after(0.09, every_s=0.05, share=0.03) == MAX_PAUSE_S  # capped
