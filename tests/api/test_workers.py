"""The engine worker pool: the computer's moves and costly boards away from the loop."""

from __future__ import annotations

import asyncio
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from typing import Any

import pytest

from app.errors import AppError
from app.workers import EngineWorkers
from engines.blocks import ENGINE as BLOCKS
from engines.triangles import ENGINE as TRIANGLES


async def test_the_pool_thinks_exactly_as_the_engine_does() -> None:
    workers = EngineWorkers(workers=1)
    params = TRIANGLES.parse_params({"field": "tablet", "stars": 80, "opponent": "hard"})
    state = await workers.new_game(TRIANGLES, params, 41739205)
    assert TRIANGLES.dump_state(state) == TRIANGLES.dump_state(
        TRIANGLES.new_game(params, 41739205)
    )
    move = await workers.computer_move(TRIANGLES, state)
    assert TRIANGLES.dump_move(move) == TRIANGLES.dump_move(TRIANGLES.computer_move(state))
    assert workers.pending == 0


async def test_quick_setups_stay_in_place() -> None:
    workers = EngineWorkers(workers=1, queue_limit=1)
    workers.pending = 1  # a full queue does not matter: nothing is queued
    params = BLOCKS.parse_params({"ruleset": "classic10"})
    state = await workers.new_game(BLOCKS, params, 7)
    assert BLOCKS.dump_state(state) == BLOCKS.dump_state(BLOCKS.new_game(params, 7))
    small = TRIANGLES.parse_params({"field": "phone", "stars": 24, "opponent": "human"})
    assert not TRIANGLES.costly_setup(small)
    await workers.new_game(TRIANGLES, small, 7)


async def test_a_full_queue_answers_busy() -> None:
    workers = EngineWorkers(workers=1, queue_limit=2)
    workers.pending = 2  # two games already waiting for the computer
    params = TRIANGLES.parse_params({"field": "phone", "stars": 120, "opponent": "easy"})
    with pytest.raises(AppError) as refused:
        await workers.new_game(TRIANGLES, params, 1)
    assert (refused.value.status, refused.value.code) == (429, "busy")
    assert refused.value.headers == {"Retry-After": "1"}


def finished_state(field: str, stars: int, seed: int) -> Any:
    """A finished Triangles game, both seats played by the easy computer."""
    state = TRIANGLES.new_game(TRIANGLES.parse_params({"field": field, "stars": stars}), seed)
    while not state.over:
        easy = replace(state, params=replace(state.params, opponent="easy"))
        state, _ = TRIANGLES.apply(state, TRIANGLES.computer_move(easy), 0, state.turn)
    return state


async def test_with_one_worker_a_review_neither_delays_the_computer_nor_outlives_a_drain() -> None:
    """ENGINE_WORKERS=1: a review (seconds of search on 180 stars) asked first still
    leaves the computer's move to be answered while it runs (reviews have their own
    process), and ``drop_reviews`` ends it at once, leaving the computer's pool whole."""
    workers = EngineWorkers(workers=1)
    assert workers.review_workers == 1
    review = finished_state("tablet", 180, 3)
    job = asyncio.ensure_future(workers.start_review(TRIANGLES, TRIANGLES.dump_state(review)))
    try:
        await asyncio.sleep(0)  # the review is queued before the move is asked
        params = TRIANGLES.parse_params({"field": "phone", "stars": 24, "opponent": "medium"})
        state = TRIANGLES.new_game(params, 11)
        move = await workers.computer_move(TRIANGLES, state)
        assert TRIANGLES.dump_move(move) == TRIANGLES.dump_move(TRIANGLES.computer_move(state))
        assert not job.done()  # the review goes on meanwhile
    finally:
        workers.drop_reviews()
    with pytest.raises(BrokenProcessPool):
        await job
    assert workers.reviews_pending == 0
    again = await workers.computer_move(TRIANGLES, state)  # the computer's pool is untouched
    assert TRIANGLES.dump_move(again) == TRIANGLES.dump_move(move)


@pytest.mark.slow
async def test_each_queue_is_bounded_on_its_own() -> None:
    """A full review queue refuses reviews only; a full computer queue, computer jobs only."""
    workers = EngineWorkers(workers=1, queue_limit=2)
    state = finished_state("phone", 24, 5)
    params = TRIANGLES.parse_params({"field": "tablet", "stars": 180, "opponent": "easy"})
    workers.reviews_pending = 2
    with pytest.raises(AppError) as refused:
        workers.start_review(TRIANGLES, TRIANGLES.dump_state(state))
    assert (refused.value.status, refused.value.code) == (429, "busy")
    board = await workers.new_game(TRIANGLES, params, 1)  # the computer's queue is free
    assert TRIANGLES.dump_state(board) == TRIANGLES.dump_state(TRIANGLES.new_game(params, 1))
    workers.reviews_pending, workers.pending = 0, 2
    try:
        job = workers.start_review(TRIANGLES, TRIANGLES.dump_state(state))
        assert await job == TRIANGLES.review(state)
    finally:
        workers.drop_reviews()
