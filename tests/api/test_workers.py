"""The engine worker pool: the computer's moves and costly boards away from the loop."""

from __future__ import annotations

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
