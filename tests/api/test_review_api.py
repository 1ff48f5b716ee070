"""Reviews of finished Triangles games through the API: asked (202 pending), worked out
in the engine worker pool, stored once (read back from the database) and answered from
the store ever after; every refusal with its status and code."""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import replace
from typing import Any

import pytest
from sqlalchemy import delete

from app.models import Review
from app.pages import REPLAY_LIST_SLOTS
from app.workers import EngineWorkers
from engines.triangles import ENGINE as TRIANGLES
from engines.triangles.clock import FIRST_LINE_MS, LAG_MS
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


@pytest.mark.slow
def test_a_review_is_pending_then_done_and_stored_once(
    client: Any, alice_bob: Any, clock: FakeClock
) -> None:
    alice, bob = alice_bob
    game_id = play(alice, clock, "triangles")["id"]
    url = f"/api/games/{game_id}/review"
    assert alice.get(url).json() == {"status": "none"}  # nobody asked yet: no error either
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
    assert alice.get(f"/api/games/{running['id']}/review").json()["status"] == "none"
    blocks = alice.new_game("blocks", params={"ruleset": "classic10"})
    assert error(alice.post(f"/api/games/{blocks['id']}/review")) == (404, "no_review")
    assert error(alice.get(f"/api/games/{blocks['id']}/review")) == (404, "no_review")
    assert error(alice.post("/api/games/nosuchgame0000/review")) == (404, "game_not_found")


def test_an_aborted_game_has_nothing_to_review(
    client: Any, alice_bob: Any, clock: FakeClock
) -> None:
    """A game aborted because its first mover drew no first line in time is over, but it
    has no line to review: 409 ``game_aborted``, nothing started, and its replay page
    offers no review."""
    alice, bob = alice_bob
    game = alice.new_game("triangles", params={"opponent": "online", "stars": 24, "clock": "1+1"})
    assert bob.post(f"/api/games/{game['id']}/join").json()["status"] == "active"
    clock.advance(FIRST_LINE_MS + LAG_MS)
    client.portal.call(client.app.state.services.flags.sweep)
    loaded = alice.get(f"/api/games/{game['id']}").json()
    assert loaded["status"] == "over" and loaded["outcome"]["reason"] == "aborted"
    url = f"/api/games/{game['id']}/review"
    for player in (alice, bob):
        assert error(player.post(url)) == (409, "game_aborted")
    assert client.app.state.services.reviews.running == {}
    assert alice.get(url).json() == {"status": "none"}  # nothing asked, nothing to ask
    page = alice.get(f"/replay/{game['id']}")
    assert page.status_code == 200 and 'id="review"' not in page.text


def test_a_full_worker_queue_answers_busy_and_starts_nothing(
    client: Any, alice_bob: Any, clock: FakeClock
) -> None:
    alice, _ = alice_bob
    game_id = play(alice, clock, "triangles")["id"]
    services = client.app.state.services
    workers = services.reviews.workers
    saved = workers.reviews_pending
    workers.reviews_pending = workers.queue_limit  # every place in the review queue is taken
    try:
        for _ in range(3):  # refused each time: the asker's review slots are given back
            assert error(alice.post(f"/api/games/{game_id}/review")) == (429, "busy")
    finally:
        workers.reviews_pending = saved
    assert services.reviews.running == {}
    assert alice.get(f"/api/games/{game_id}/review").json()["status"] == "none"
    assert stored_review(client, game_id) is None
    assert alice.post(f"/api/games/{game_id}/review").status_code == 202


@pytest.mark.slow
def test_a_pending_review_lost_with_its_server_is_asked_again(
    client: Any, alice_bob: Any, clock: FakeClock
) -> None:
    """What runs is remembered in memory only: a server that restarted knows no
    pending review (``none``), and the next ask computes it."""
    alice, _ = alice_bob
    game_id = play(alice, clock, "triangles")["id"]
    url = f"/api/games/{game_id}/review"
    assert alice.post(url).status_code == 202
    settle(client, game_id)
    services = client.app.state.services
    client.portal.call(_forget, services, game_id)  # as if the process had died before storing
    assert alice.get(url).json()["status"] == "none"
    assert alice.post(url).status_code == 202
    settle(client, game_id)
    assert alice.get(url).json()["status"] == "done"


async def _forget(services: Any, game_id: str) -> None:
    async with services.store.transaction() as session:
        await session.execute(delete(Review).where(Review.game_id == game_id))


@pytest.mark.slow
async def test_a_review_runs_in_the_worker_pool_while_the_loop_answers() -> None:
    params = TRIANGLES.parse_params({"field": "phone", "stars": 24, "opponent": "human"})
    state = TRIANGLES.new_game(params, 7)
    while not state.over:
        state, _ = TRIANGLES.apply(state, TRIANGLES.computer_move(state), 0, state.turn)
    workers = EngineWorkers(workers=1)
    try:
        job = asyncio.ensure_future(workers.start_review(TRIANGLES, TRIANGLES.dump_state(state)))
        assert workers.reviews_pending == 1  # its place in the queue is taken at once
        assert workers.pending == 0  # not in the computer's queue
        await asyncio.sleep(0)  # a ping: the loop answers while the review is worked out
        assert not job.done()
        assert await job == TRIANGLES.review(state)
        assert workers.reviews_pending == 0
    finally:
        workers.drop_reviews()


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


def url_of(game_id: str) -> str:
    return f"/api/games/{game_id}/review"


def finished_game(player: Any, stars: int) -> str:
    """A Triangles game played to its end on one device (both seats the player's), its
    lines chosen here by the easy computer: a finished game, made quickly."""
    params = {"field": "phone", "stars": stars, "opponent": "human"}
    created = player.new_game("triangles", params=params)
    _, state, _ = state_from_log(player, created["id"])
    version = created["version"]
    while not state.over:
        easy = replace(state, params=replace(state.params, opponent="easy"))
        move = TRIANGLES.computer_move(easy)
        answer = player.move(created["id"], version, TRIANGLES.dump_move(move))
        assert answer.status_code == 200, answer.text
        version = answer.json()["version"]
        state, _ = TRIANGLES.apply(state, move, 0, state.turn)
    assert answer.json()["view"]["over"]
    return str(created["id"])


def timed_move(player: Any, game_id: str, version: int) -> tuple[float, int]:
    """One line against the computer: the seconds until the answer (the computer's
    reply included) and the game's new version."""
    _, state, _ = state_from_log(player, game_id)
    move = TRIANGLES.dump_move(TRIANGLES.computer_move(state))
    started = time.monotonic()
    answer = player.move(game_id, version, move)
    seconds = time.monotonic() - started
    assert answer.status_code == 200, answer.text
    return seconds, int(answer.json()["version"])


def resigned_game(player: Any) -> str:
    game = player.new_game("triangles", params={"field": "phone", "opponent": "easy"})
    assert player.move(game["id"], game["version"], {"type": "resign"}).status_code == 200
    return str(game["id"])


def test_reviews_pending_at_once_are_limited_per_player_and_per_address(
    make_client: Any, players: Any, settings: Any, monkeypatch: Any
) -> None:
    settings.limit_reviews_per_ip = 3
    client = make_client()
    alice, bob, carol = players(client, "alice", "bob", "carol")
    games = [resigned_game(alice) for _ in range(4)]
    reviews = client.app.state.services.reviews
    held: list[asyncio.Future[dict[str, Any]]] = []  # the jobs started, in order

    def start(engine: Any, state: Any) -> asyncio.Future[dict[str, Any]]:
        """Stands for the review workers: a job that ends when the test says so."""
        held.append(asyncio.get_running_loop().create_future())
        return held[-1]

    monkeypatch.setattr(reviews.workers, "start_review", start)
    assert [bob.post(url_of(g)).status_code for g in games[:2]] == [202, 202]
    refused = bob.post(url_of(games[2]))
    assert error(refused) == (429, "too_many_reviews")
    assert refused.json()["error"]["details"] == {"limit": 2}
    assert refused.headers["retry-after"] == "5"
    assert bob.get(url_of(games[2])).json()["status"] == "none"  # nothing was started
    assert bob.post(url_of(games[0])).status_code == 202  # already pending: no slot taken
    assert alice.post(url_of(games[2])).status_code == 202  # another player's slots
    by_address = carol.post(url_of(games[3]))  # a 4th from one address: over its 3
    assert error(by_address) == (429, "too_many_reviews")
    assert by_address.json()["error"]["details"] == {"limit": 3}
    assert stored_review(client, games[3]) is None
    assert sorted(reviews.running) == sorted(games[:3])

    body = TRIANGLES.review(state_from_log(alice, games[0])[1])
    assert len(held) == 3
    client.portal.call(held[0].set_result, body)
    settle(client, games[0])
    assert stored_review(client, games[0]) == body  # read back from the database
    assert bob.post(url_of(games[3])).status_code == 202  # bob's and the address's slot back
    assert sorted(reviews.running) == sorted(games[1:])


@pytest.mark.slow
def test_a_review_dropped_by_a_drain_stores_nothing_and_is_asked_again(
    client: Any, alice_bob: Any, clock: FakeClock
) -> None:
    """A drain does not wait seconds for a review: ``stop`` kills the review workers, the
    review is forgotten (no row, no slot held) and the next ask starts it again."""
    alice, bob = alice_bob
    game_id = play(alice, clock, "triangles")["id"]
    other = play(alice, clock, "triangles")["id"]
    services = client.app.state.services
    for game in (game_id, other):
        assert bob.post(url_of(game)).status_code == 202
    client.portal.call(services.reviews.stop)
    assert services.reviews.running == {}
    assert services.reviews.workers.reviews_pending == 0
    for game in (game_id, other):
        assert stored_review(client, game) is None  # read back: nothing half-stored
        assert bob.get(url_of(game)).json()["status"] == "none"
    for game in (game_id, other):  # bob's two slots were given back
        assert bob.post(url_of(game)).status_code == 202
    settle(client, game_id)
    settle(client, other)
    expected = TRIANGLES.review(state_from_log(alice, game_id)[1])
    assert stored_review(client, game_id) == expected
    assert bob.get(url_of(game_id)).json() == {"status": "done", **expected}


@pytest.mark.slow
def test_a_review_flood_leaves_the_computer_answering_at_once(
    make_client: Any, players: Any, settings: Any
) -> None:
    """20 reviews asked by one cookie, then by ten: a player against the medium computer
    still gets each answer under 3 s (the one timed bound the suite allows), and only
    the reviews each asker may have pending are queued."""
    settings.engine_workers = 2  # two for the computer; reviews get one of their own
    settings.engine_queue = 32  # room for the whole flood: nothing is refused as busy
    settings.limit_reviews_per_ip = 100  # ten cookies behind one address
    client = make_client()
    owner, flooder, carol = players(client, "owner", "flooder", "carol")
    cookies = players(client, *(f"cookie{n}" for n in range(10)))
    heavy = [finished_game(owner, 60) for _ in range(2)]  # asked first: the flood's head
    light = [finished_game(owner, 24) for _ in range(20)]
    params = {"field": "phone", "stars": 24, "opponent": "medium"}
    against = carol.new_game("triangles", params=params)
    _, version = timed_move(carol, against["id"], against["version"])  # workers started
    workers = client.app.state.services.reviews.workers

    answers = [flooder.post(url_of(game)) for game in heavy + light[:18]]
    assert [answer.status_code for answer in answers] == [202] * 2 + [429] * 18
    assert {error(answer)[1] for answer in answers[2:]} == {"too_many_reviews"}
    one_cookie, version = timed_move(carol, against["id"], version)
    assert all(stored_review(client, game) is None for game in light)  # refused: not run

    for number, cookie in enumerate(cookies):
        for game in light[2 * number : 2 * number + 2]:
            assert cookie.post(url_of(game)).status_code == 202
    ten_cookies, version = timed_move(carol, against["id"], version)
    assert workers.reviews_pending > 10  # the flood still waits for its review worker
    print(f"computer's answer during a flood: one cookie {one_cookie:.2f} s, "
          f"ten cookies {ten_cookies:.2f} s")  # fmt: skip
    assert one_cookie < 3 and ten_cookies < 3

    for game in heavy:  # first in the review queue: stored first, read back
        settle(client, game)
        body = flooder.get(url_of(game)).json()
        _, _, entries = state_from_log(owner, game)
        lines = [entry for entry in entries if entry["move"]["type"] == "line"]
        assert body["status"] == "done" and len(body["plies"]) == len(lines)
        assert stored_review(client, game) == {k: v for k, v in body.items() if k != "status"}


def test_a_game_resigned_after_six_quiet_lines_shows_no_accuracy(
    client: Any, alice_bob: Any, clock: FakeClock
) -> None:
    """Six safe lines among many (three each, Alice against the easy computer), then Alice
    resigns: no line could lose anything, so neither seat gets an accuracy (issue 36: both
    showed 100 %). The null comes through the API as null, not left out."""
    alice, _ = alice_bob
    created = alice.new_game("triangles", number="00000007-a", params={"opponent": "easy"})
    game_id, version = created["id"], created["version"]
    for _ in range(3):  # Alice draws the line the computer would; the computer answers
        _, state, _ = state_from_log(alice, game_id)
        moved = alice.move(game_id, version, TRIANGLES.dump_move(TRIANGLES.computer_move(state)))
        assert moved.status_code == 200, moved.text
        version = moved.json()["version"]
    resigned = alice.move(game_id, version, {"type": "resign"})
    assert resigned.status_code == 200, resigned.text
    assert len(state_from_log(alice, game_id)[2]) == 7  # six lines and the resignation
    url = f"/api/games/{game_id}/review"
    alice.post(url)
    settle(client, game_id)
    body = alice.get(url).json()
    assert [(p["ply"], p["seat"], p["loss"], p["verdict"], p["quiet"]) for p in body["plies"]] == [
        (ply, (ply - 1) % 2, 0.0, "best", True) for ply in range(1, 7)
    ]
    counts = {"best": 3, "good": 0, "inaccuracy": 0, "mistake": 0, "blunder": 0}
    assert body["summary"] == [
        {"seat": 0, "accuracy": None, "judged": 0, "counts": counts},
        {"seat": 1, "accuracy": None, "judged": 0, "counts": counts},
    ]


def test_the_replay_page_is_drawn_as_the_review_stands(
    client: Any, alice_bob: Any, clock: FakeClock
) -> None:
    """The replay page of a finished game is drawn with its review's state (``none``;
    ``pending`` when ?review=1 asks for it; ``stored`` once the database holds one, asked
    or not), so the room the review takes is kept from the first frame; and with a row
    held in the move list for each ply, as many as show before it scrolls."""
    alice, _ = alice_bob
    game_id = play(alice, clock, "triangles")["id"]
    plies = alice.get(f"/api/games/{game_id}").json()["version"]
    assert plies > 0

    def drawn(query: str = "") -> tuple[str, bool, int]:
        page = alice.get(f"/replay/{game_id}{query}")
        assert page.status_code == 200
        panel = re.search(r'id="review" data-review="(\w+)"', page.text)
        note = re.search(r'id="review-note" data-review="(\w+)"', page.text)
        assert panel and note and panel[1] == note[1]
        button = re.search(r'id="review-ask"( hidden)?>', page.text)
        assert button
        return panel[1], button[1] is None, page.text.count('class="replay-list__slot"')

    slots = min(plies, REPLAY_LIST_SLOTS)
    assert drawn() == ("none", True, slots)  # the button asks for it
    assert drawn("?review=1") == ("pending", False, slots)
    store = client.app.state.services.store
    client.portal.call(store.add_review, game_id, {"plies": [], "summary": []}, clock.now_ms())
    assert drawn() == ("stored", False, slots)  # the page's first call brings it
    assert drawn("?review=1") == ("stored", False, slots)
