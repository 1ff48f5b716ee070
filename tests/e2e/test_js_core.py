"""The shared browser modules (static/js/core), run in Chromium: the local date and the
name hash, i18n, formatting and the DOM builder."""

from __future__ import annotations

from typing import Any

import pytest

from engines.core.daily import fnv1a32

pytestmark = pytest.mark.e2e

DATES = ["2026-11-29", "2027-01-01", "2024-02-29", "2031-12-31"]
GAMES = ["blocks", "pairs", "triangles", "été-漢字"]


@pytest.fixture
def page(phone: Any) -> Any:
    page = phone.new_page()
    page.goto("/")
    return page


def run(page: Any, module: str, body: str, arg: Any = None) -> Any:
    return page.evaluate(
        f"async (arg) => {{ const m = await import('/static/js/core/{module}.js'); {body} }}", arg
    )


# What core/socket.js is handed by the session that loads it (it imports nothing itself).
SOCKET_NEEDS = """
    const needs = {ApiError: (await import('/static/js/core/api.js')).ApiError,
                   t: (await import('/static/js/core/i18n.js')).t};
"""


def test_local_date_and_name_hash(page: Any) -> None:
    # fnv1a32 stays in the browser for the lobby's avatar colours (not a rule: no seed).
    names = [f"{game}:{date}" for game in GAMES for date in DATES]
    hashes = run(page, "daily", "return arg.map((s) => m.fnv1a32(s));", names)
    assert hashes == [fnv1a32(name) for name in names]
    today = run(page, "daily", "return m.localDate(new Date(2026, 0, 5, 23, 59));")
    assert today == "2026-01-05"


def test_the_offline_banner_takes_its_room_before_the_next_frame(page: Any) -> None:
    """Going offline puts a banner under the header, and the game stages give up its
    height (--offline-h) at once: the next frame is already laid out with it (a busy page
    shows that frame for long; the layout probe measured a Blocks board spilling below a
    phone held sideways), then again whenever the banner's height changes."""
    room = run(page, "connection", """
        m.setConnection('offline', 'Offline');
        const now = document.body.style.getPropertyValue('--offline-h');
        const banner = document.getElementById('connection-banner');
        return [now, `${banner.offsetHeight}px`];
    """)
    assert room[0] == room[1] != "0px"
    run(page, "connection", "m.setConnection('online');")
    assert page.evaluate("document.body.style.getPropertyValue('--offline-h')") == ""


def test_i18n_and_formatting(page: Any) -> None:
    assert run(page, "i18n", "return m.t('games.triangles.stars', {n: 60});") == "60 stars"
    assert run(page, "i18n", "return m.t('no.such.key');") == "no.such.key"
    assert run(page, "i18n", "return m.lang();") == "en"
    times = run(page, "ui", "return [0, 61000, 599999, 3723000].map(m.formatTime);")
    assert times == ["0:00", "1:01", "9:59", "1:02:03"]


def test_el_never_parses_markup(page: Any) -> None:
    html = run(page, "ui", "return m.el('p', {class: 'x', 'aria-label': '<i>'}, '<b>hi</b>', 1)"
                           ".outerHTML;")
    assert html == '<p class="x" aria-label="&lt;i&gt;">&lt;b&gt;hi&lt;/b&gt;1</p>'


def test_api_error_shape(page: Any) -> None:
    error = run(page, "api", """
        try { await m.api('POST', '/api/games', {game: 'nope'}); }
        catch (e) { return [e instanceof m.ApiError, e.status, e.code, typeof e.message]; }
    """)
    assert error == [True, 404, "unknown_game", "string"]


def test_game_socket_state_move_result_and_error(page: Any) -> None:
    game = page.request.post("/api/games", data={"game": "triangles",
                                                 "params": {"opponent": "human"}}).json()
    result = run(page, "socket", SOCKET_NEEDS + """
        const seen = [];
        const states = [];
        let opened;
        const ready = new Promise((resolve) => { opened = resolve; });
        const socket = new m.GameSocket(arg, {
          onState: (msg) => { states.push(msg.version); opened(); },
          onMove: (msg) => seen.push(['move', msg.version]),
          onStatus: (s) => seen.push(['status', s]),
        }, needs);
        await ready;
        const answer = await socket.move(0, {type: 'resign'});
        let refused;
        try { await socket.move(0, {type: 'resign'}); } catch (e) { refused = [e.status, e.code]; }
        socket.close();
        return {answer: [answer.id, answer.version, answer.from_version, answer.status,
                         answer.outcome.reason, typeof answer.receivedAt],
                refused, seen, states, version: socket.version};
    """, game["id"])
    assert result["answer"] == [game["id"], 1, 0, "over", "resigned", "number"]
    assert result["refused"] == [409, "stale_version"]
    # the mover's own move comes as its result only, never as a move frame too
    assert result["seen"] == [["status", "connecting"], ["status", "open"], ["status", "closed"]]
    assert result["states"] == [0] and result["version"] == 1


def test_a_state_frame_before_the_result_keeps_the_movers_events(page: Any) -> None:
    """A sync sent right behind a move: its state frame may pass the move's answer on the
    way (it did when the answer was an ack and the hub's move frame); the move's promise is
    answered by its result, events and all, never by the state."""
    game = page.request.post("/api/games", data={"game": "triangles",
                                                 "params": {"opponent": "human"}}).json()
    result = run(page, "socket", SOCKET_NEEDS + """
        let opened;
        const ready = new Promise((resolve) => { opened = resolve; });
        const states = [];
        const socket = new m.GameSocket(arg, {
          onState: (msg) => { states.push(msg.version); opened(); },
        }, needs);
        await ready;
        const moving = socket.move(0, {type: 'resign'});
        socket.sync();
        const answer = await moving;
        await new Promise((resolve) => setTimeout(resolve, 100));
        socket.close();
        return {events: answer.events.map((event) => event.type), states};
    """, game["id"])
    assert result["events"] == ["over"]
    assert result["states"][0] == 0


def test_an_answer_heard_while_the_browser_has_no_network_keeps_the_page_offline(
    page: Any,
) -> None:
    """An answer to a call sent before the network dropped (or a socket that outlived the
    drop) is no sign the network is back while the browser says it has none; the browser's
    own 'online' event is. Before the fix the first answer turned the page online."""
    states = run(page, "session", """
        const online = { value: true };
        Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online.value });
        const session = new m.Session('pairs');
        const state = () => document.body.dataset.connection;
        const seen = [state()];
        online.value = false;
        window.dispatchEvent(new Event('offline'));
        seen.push(state());
        await session.get('/api/catalog');  // answered: the request never left this machine
        seen.push(state());
        online.value = true;
        window.dispatchEvent(new Event('online'));
        const deadline = performance.now() + 10000;
        while (state() !== 'online' && performance.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        seen.push(state());
        return seen;
    """)
    assert states == ["online", "offline", "offline", "online"]


def test_a_board_canvas_is_sized_by_its_observer_at_most_at_twice_the_css_pixels(
    page: Any,
) -> None:
    """On a 3× phone a board's canvas holds 2× pixels (bench/pages.py: the deal's frames on a
    throttled phone); it is first sized and drawn by its ResizeObserver, not while the page's
    script builds it, so building a board forces no layout."""
    sizes = run(page, "canvas", """
        const box = document.createElement('div');
        box.style.cssText = 'width: 100px; height: 50px';
        document.body.append(box);
        const draws = [];
        const board = m.createBoardCanvas(box, (ctx, w, h) => draws.push([w, h]));
        const built = [board.canvas.width, draws.length];
        while (!draws.length) await new Promise((resolve) => requestAnimationFrame(resolve));
        const sized = [board.canvas.width, board.canvas.height];
        return [window.devicePixelRatio, built, sized, draws[0]];
    """)
    assert sizes == [3, [300, 0], [200, 100], [100, 50]]


def test_a_tap_the_page_handled_late_is_still_a_tap(page: Any) -> None:
    """A press is timed by its events' stamps, not by when the page got to them: a long task
    between a quick press's down and up (a slow phone, a busy page) does not turn it into a
    long press, and a press really held 600 ms is still not a tap."""
    taps = run(page, "pointer", """
        const box = document.createElement('div');
        box.style.cssText = 'width: 100px; height: 100px';
        document.body.append(box);
        const taps = [];
        m.onPointer(box, {tap: () => taps.push('tap')});
        const press = (type) => new PointerEvent(type, {
            pointerId: 1, pointerType: 'mouse', button: 0, clientX: 10, clientY: 10,
            bubbles: true, cancelable: true});
        const busy = (ms) => {
            const end = performance.now() + ms;
            while (performance.now() < end);
        };
        // quick: both made at once, the up handled after a 600 ms long task
        const down = press('pointerdown');
        const up = press('pointerup');
        box.dispatchEvent(down);
        busy(600);
        box.dispatchEvent(up);
        taps.push('|');
        // held: the up made 600 ms after the down
        box.dispatchEvent(press('pointerdown'));
        busy(600);
        box.dispatchEvent(press('pointerup'));
        return taps;
    """)
    assert taps == ["tap", "|"]
