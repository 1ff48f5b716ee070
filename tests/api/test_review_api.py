"""Reviews of finished Triangles games through the API: asked (202 pending), worked out
in the engine worker pool, stored once (read back from the database) and answered from
the store ever after; every refusal with its status and code."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import delete

from app.models import Review
from app.workers import EngineWorkers
from engines.triangles import ENGINE as TRIANGLES
from tests.api.test_replay_api import error, play, state_from_log
from tests.conftest import FakeClock


@pytest.fixture
def client(make_client: Any) -> Any:
    return make_client()  # the real registry (alice_bob, from conftest, plays on it)


def settle(client: Any, game_id: str) -> None:
    """Wait until the review job of ``game_id`` (if one runs) has stored its review."""
    running = client.app.state.services.reviews.running

    async def finished() -> None:
        task = running.get(game_id)
        if task is not None:
            await asyncio.shield(task)

    client.portal.call(finished)


def stored_review(client: Any, game_id: str) -> Any:
    """The review as the database holds it (a fresh session)."""
    return client.portal.call(client.app.state.services.store.review, game_id)


def test_a_review_is_pending_then_done_and_stored_once(
    client: Any, alice_bob: Any, clock: FakeClock
) -> None:
    alice, bob = alice_bob
    game_id = play(alice, clock, "triangles")["id"]
    url = f"/api/games/{game_id}/review"
    assert error(alice.get(url)) == (404, "no_review")  # nobody asked yet
    asked = alice.post(url)
    assert (asked.status_code, asked.json()) == (202, {"status": "pending"})
    again = bob.post(url)  # asked twice at once: the same job
    assert (again.status_code, again.json()) == (202, {"status": "pending"})
    assert len(client.app.state.services.reviews.running) == 1
    settle(client, game_id)

    done = alice.get(url)
    assert done.status_code == 200
    body = done.json()
    _, state, entries = state_from_log(alice, game_id)
    expected = TRIANGLES.review(state)
    assert body == {"status": "done", **expected}
    lines = [entry for entry in entries if entry["move"]["type"] == "line"]
    assert [(p["ply"], p["seat"]) for p in body["plies"]] == [
        (ply, entry["seat"]) for ply, entry in enumerate(lines, start=1)
    ]
    assert stored_review(client, game_id) == expected  # read back from the database
    # asked again, by anyone: answered at once from the store, identical
    for player in (alice, bob):
        answer = player.post(url)
        assert (answer.status_code, answer.json()) == (200, body)
    assert client.app.state.services.reviews.running == {}


def test_refusals(client: Any, alice_bob: Any, clock: FakeClock) -> None:
    alice, _ = alice_bob
    running = alice.new_game(
        "triangles", params={"field": "phone", "stars": 24, "opponent": "easy"}
    )
    assert error(alice.post(f"/api/games/{running['id']}/review")) == (409, "game_not_over")
    assert error(alice.get(f"/api/games/{running['id']}/review")) == (404, "no_review")
    blocks = alice.new_game("blocks", params={"ruleset": "classic10"})
    assert error(alice.post(f"/api/games/{blocks['id']}/review")) == (404, "no_review")
    assert error(alice.get(f"/api/games/{blocks['id']}/review")) == (404, "no_review")
    assert error(alice.post("/api/games/nosuchgame0000/review")) == (404, "game_not_found")


def test_a_full_worker_queue_answers_busy_and_starts_nothing(
    client: Any, alice_bob: Any, clock: FakeClock
) -> None:
    alice, _ = alice_bob
    game_id = play(alice, clock, "triangles")["id"]
    services = client.app.state.services
    workers = services.reviews.workers
    saved = workers.pending
    workers.pending = workers.queue_limit  # every place in the queue is taken
    try:
        assert error(alice.post(f"/api/games/{game_id}/review")) == (429, "busy")
    finally:
        workers.pending = saved
    assert services.reviews.running == {}
    assert error(alice.get(f"/api/games/{game_id}/review")) == (404, "no_review")
    assert stored_review(client, game_id) is None


def test_a_pending_review_lost_with_its_server_is_asked_again(
    client: Any, alice_bob: Any, clock: FakeClock
) -> None:
    """What runs is remembered in memory only: a server that restarted knows no
    pending review (404 no_review), and the next ask computes it."""
    alice, _ = alice_bob
    game_id = play(alice, clock, "triangles")["id"]
    url = f"/api/games/{game_id}/review"
    assert alice.post(url).status_code == 202
    settle(client, game_id)
    services = client.app.state.services
    client.portal.call(_forget, services, game_id)  # as if the process had died before storing
    assert error(alice.get(url)) == (404, "no_review")
    assert alice.post(url).status_code == 202
    settle(client, game_id)
    assert alice.get(url).json()["status"] == "done"


async def _forget(services: Any, game_id: str) -> None:
    async with services.store.transaction() as session:
        await session.execute(delete(Review).where(Review.game_id == game_id))


async def test_a_review_runs_in_the_worker_pool_while_the_loop_answers() -> None:
    params = TRIANGLES.parse_params({"field": "phone", "stars": 24, "opponent": "human"})
    state = TRIANGLES.new_game(params, 7)
    while not state.over:
        state, _ = TRIANGLES.apply(state, TRIANGLES.computer_move(state), 0, state.turn)
    workers = EngineWorkers(workers=1)
    job = asyncio.ensure_future(workers.start_review(TRIANGLES, TRIANGLES.dump_state(state)))
    assert workers.pending == 1  # its place in the queue is taken at once
    await asyncio.sleep(0)  # a ping: the loop answers while the review is worked out
    assert not job.done()
    assert await job == TRIANGLES.review(state)
    assert workers.pending == 0


def test_a_review_is_written_once_whoever_stores_it_second(
    client: Any, alice_bob: Any, clock: FakeClock
) -> None:
    """Two processes that reviewed one game at once: the second write keeps the first."""
    alice, _ = alice_bob
    game_id = play(alice, clock, "triangles")["id"]
    store = client.app.state.services.store
    first = {"plies": [], "summary": [], "written": 1}
    assert client.portal.call(store.add_review, game_id, first, 1) == first
    assert client.portal.call(store.add_review, game_id, {**first, "written": 2}, 2) == first
    assert stored_review(client, game_id) == first
