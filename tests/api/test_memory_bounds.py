"""The caches of states that hold boards (live games, replays) are bounded by memory."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from prometheus_client import REGISTRY

from app.catalog import Catalog
from app.config import Settings
from app.limits import Admission, MemoryLimiter
from app.live import ROW_BYTES, LiveGames
from app.main import create_app
from app.models import Game, GameStatus
from app.replays import PLY_BYTES, Replays
from engines.core.weighed import WeighedLRU
from engines.triangles import ENGINE as TRIANGLES
from engines.triangles import board
from tests.conftest import FakeClock

CATALOG = Catalog({"triangles": TRIANGLES})
PARAMS = TRIANGLES.parse_params({"field": "phone", "stars": 24, "opponent": "human"})


def row(game_id: str, seed: int, version: int = 0, status: str = "active") -> Game:
    return Game(
        id=game_id, engine="triangles", params=TRIANGLES.dump_params(PARAMS), seed=seed,
        number=TRIANGLES.number(PARAMS, seed), owner_id="p", seats=["p", "p"],
        version=version, state={}, status=status, outcome=None, public=False, daily=None,
        daily_key=None, score=None, rematch=None, started_ms=0, updated_ms=0,
    )  # fmt: skip


def dropped_games() -> float:
    return REGISTRY.get_sample_value("nook_live_games_dropped_total") or 0.0


def test_live_games_keep_the_most_recent_within_their_budget() -> None:
    states = [TRIANGLES.new_game(PARAMS, seed) for seed in range(1, 7)]  # six boards
    weights = [ROW_BYTES + TRIANGLES.footprint([state]) for state in states]
    assert min(weights) > 90 * 1024  # each holds its board
    budget = sum(weights[-3:])
    live = LiveGames(CATALOG, budget)
    dropped_before = dropped_games()
    for index, state in enumerate(states):
        live.remember(row(f"g{index}", index + 1), state)
    assert live.weight == budget and len(live) == 3
    assert dropped_games() - dropped_before == 3  # nook_live_games_dropped_total
    assert [live.at_version(f"g{index}", 0) is not None for index in range(6)] == [
        False, False, False, True, True, True
    ]  # fmt: skip
    assert live.at_version("g5", 0).state is states[5]  # type: ignore[union-attr]


def test_by_default_a_process_keeps_the_2000_games_it_serves_at_full_speed() -> None:
    """bench/online.py's 2,000 matches over two processes put every match's game on both:
    a process that keeps fewer reads a row and builds a state for each move (its pool ran
    dry at 128 MiB, which kept about 1,400). Weighed as a game begins, on a board built
    anew (another test's lines fill the cached one's tables: up to about 145 KiB)."""
    board.BOARDS.clear()
    weight = ROW_BYTES + TRIANGLES.footprint([TRIANGLES.new_game(PARAMS, 1)])
    default_mib = Settings.model_fields["live_games_mib"].default
    assert default_mib * 1024 * 1024 // weight >= 2000


class LogStore:
    """The two reads Replays makes: each game's row and its log of moves."""

    def __init__(self, logs: dict[str, tuple[Game, list[dict[str, Any]]]]) -> None:
        self.logs = logs

    async def game(self, game_id: str) -> Game:
        return self.logs[game_id][0]

    async def moves(
        self, game_id: str, after: int, limit: int | None = None
    ) -> list[dict[str, Any]]:
        return [dict(entry) for entry in self.logs[game_id][1][after:]]


def played(game_id: str, seed: int, plies: int) -> tuple[Game, list[dict[str, Any]]]:
    state = TRIANGLES.new_game(PARAMS, seed)
    entries: list[dict[str, Any]] = []
    for ply in range(1, plies + 1):
        seat = TRIANGLES.to_move(state)
        move = TRIANGLES.dump_move(TRIANGLES.computer_move(state))
        state, _ = TRIANGLES.apply(state, TRIANGLES.parse_move(move), ply * 1000, seat or 0)
        entries.append({"ply": ply, "seat": seat, "move": move, "at_ms": ply * 1000})
    return row(game_id, seed, version=plies, status=GameStatus.OVER.value), entries


async def test_replays_keep_the_most_recent_within_their_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # An empty board cache of its own: a board grows as its crossings are worked out, so
    # one another test of this process played on further would weigh more here.
    monkeypatch.setattr(board, "BOARDS", WeighedLRU(board.CACHE_BYTES, lambda b: b.nbytes))
    logs = {f"g{seed}": played(f"g{seed}", seed, 6) for seed in range(1, 6)}
    admission = Admission(MemoryLimiter(), Settings(secret="memory-bounds-test-secret"))
    replays = Replays(LogStore(logs), CATALOG, admission, budget=1)
    first = await replays.replayed(logs["g1"][0], TRIANGLES, "p", "test")
    assert first.weight == TRIANGLES.footprint(first.states) + 6 * PLY_BYTES
    assert first.weight > 90 * 1024  # its board, counted once for its seven states
    replays = Replays(LogStore(logs), CATALOG, admission, budget=2 * first.weight + 1024)
    for seed in range(1, 6):
        await replays.replayed(logs[f"g{seed}"][0], TRIANGLES, "p", "test")
    assert replays.kept.weight <= 2 * first.weight + 1024
    assert ["g1" in replays.kept, "g4" in replays.kept, "g5" in replays.kept] == [
        False, True, True
    ]  # fmt: skip


def test_the_settings_bound_each_cache(settings: Settings) -> None:
    mib = 1024 * 1024
    bounded = settings.model_copy(
        update={"board_cache_mib": 3, "live_games_mib": 2, "replays_mib": 1}
    )
    try:
        with TestClient(create_app(bounded, clock=FakeClock())) as client:
            services = client.app.state.services  # type: ignore[attr-defined]
            assert board.BOARDS.budget == 3 * mib
            assert services.lifecycle.workers.cache_budget == 3 * mib  # each worker's
            assert services.moves.live._games.budget == 2 * mib
            assert services.replays.kept.budget == 1 * mib
    finally:
        board.set_cache_budget(board.CACHE_BYTES)
