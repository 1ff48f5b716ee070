"""session.move in Chromium: the one move call answers the same shape over REST and over
the game's socket, refuses a stale move the same way on both, and plays its own moves out
(hooks.play) without the socket handing them on a second time."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from engines.core.replay import replay as fold_log
from engines.triangles import ENGINE as TRIANGLES

pytestmark = pytest.mark.e2e

ANSWER_KEYS = ["events", "outcome", "server_ms", "status", "version", "view"]


@pytest.fixture
def page(phone: Any) -> Any:
    page = phone.new_page()
    page.goto("/")
    return page


def next_line(page: Any, game_id: str) -> dict[str, Any]:
    """A legal line for the seat to move, from the game's log folded by the engine."""
    log = page.request.get(f"/api/games/{game_id}/log").json()
    state = fold_log(TRIANGLES, TRIANGLES.parse_params(log["params"]), log["seed"], log["moves"])
    return TRIANGLES.dump_move(TRIANGLES.computer_move(state))


def run(page: Any, body: str, arg: Any = None) -> Any:
    return page.evaluate(
        "async (arg) => { const m = await import('/static/js/core/session.js'); "
        f"const w = window; {body} }}",
        arg,
    )


def outcome_shape(outcome: dict[str, Any]) -> list[Any]:
    return [outcome["ok"], sorted(outcome["result"]), outcome["result"]["version"],
            [event["type"] for event in outcome["result"]["events"]][:1]]


def test_move_answers_alike_over_rest_and_socket(page: Any) -> None:
    game = page.request.post("/api/games", data={"game": "triangles",
                                                 "params": {"opponent": "human"}}).json()
    run(page, """
        w.played = [];
        w.adopted = [];
        w.s = new m.Session('triangles', {
          play: (result) => { w.played.push(result.version); },
          adopt: (data, why) => { w.adopted.push([why, data.version]); },
        });
        w.s.start(arg);
    """, game)
    by_rest = run(page, "return w.s.move(arg);", next_line(page, game["id"]))
    assert outcome_shape(by_rest) == [True, ANSWER_KEYS, 1, ["line"]]

    run(page, """
        let opened;
        const open = new Promise((resolve) => { opened = resolve; });
        w.s.connect({ onStatus: (s) => s === 'open' && opened() });
        await open;
        // the socket's snapshot follows its opening: wait until it has been taken
        while (!w.adopted.some(([why]) => why === 'sync')) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
    """)
    by_socket = run(page, "return w.s.move(arg);", next_line(page, game["id"]))
    assert outcome_shape(by_socket) == [True, ANSWER_KEYS, 2, ["line"]]
    assert run(page, "return w.s.socket.seq;") == 1  # it went through the socket
    stored = page.request.get(f"/api/games/{game['id']}").json()
    assert by_socket["result"]["view"] == stored["view"]

    # A stale move (made against version 0) is refused alike on both transports, and the
    # server's state is adopted each time.
    refusal = """
        w.s.version = 0;
        const outcome = await w.s.move(arg);
        return [outcome.ok, outcome.error.status, outcome.error.code,
                outcome.error.body.current.version, w.s.version];
    """
    line = next_line(page, game["id"])
    stale_by_socket = run(page, refusal, line)
    assert run(page, "return w.s.socket.seq;") == 2
    run(page, "w.s.disconnect();")
    stale_by_rest = run(page, refusal, line)
    assert stale_by_socket == stale_by_rest == [False, 409, "stale_version", 2, 2]

    state = run(page, """
        await w.s.enqueue(() => {});  // the socket's frames are taken in the queue
        return {played: w.played, adopted: w.adopted, version: w.s.version};
    """)
    # each own move played out once, in order; the socket's snapshot came as a sync
    assert state["played"] == [1, 2]
    assert state["adopted"][:2] == [["move", 1], ["sync", 1]]
    assert ["move", 2] in state["adopted"]
    assert state["adopted"].count(["stale", 2]) == 2
    assert state["version"] == 2
    expect(page.locator("body")).to_have_attribute("data-pending", "0")
