"""Push notices: run as ``.venv/bin/python bench/push.py [--scenario moves|stall|reflect]``.

``moves`` (the default, ``--matches 40``): do push notices delay a move's answer?

Does sending push notices delay a move's answer? Starts ``uvicorn app.asgi:app`` (a
temporary SQLite file) with a VAPID key and a fake push service on loopback admitted by
PUSH_ENDPOINT_ALLOW (tests/push_service.py), which answers each request after
``--push-delay-ms`` (a slow push service). N online Triangles matches (24 stars) play at
once over REST, nobody holding a socket, so every move makes a ``your_turn`` notice for
the opponent. Four rounds, alternating: no subscriber, then both players of every match
subscribed (two endpoints each), twice. For each run it prints the moves per second, the
REST answer time of a move (p50, p99, max), and for the subscribed run the notices the
push service received and how long after their move (p50, p99).

``stall``: can one player's slow push host stall the others? A player subscribes 10
endpoints on a host that sends a status line and then drips a byte every
``--drip-every-s`` (5 s) for ``--drip-for-s`` (60 s); a notice goes to them. Prints the
time of ``POST /api/verify`` and of another player's notice (on a quick host) before,
and while the 10 endpoints drip.

``reflect``: a player subscribes 10 endpoints on a host answering 500; one notice goes to
them. Prints the requests that host received within ``--reflect-wait-s`` (80 s; the
retries before this change came 2, 10 and 60 s apart) and when the last came.

Client, server and the fake push services (a process each) share this machine's cores.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import queue
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import online  # noqa: E402  (bench/online.py: its match set-up)

from app.identity import COOKIE, CookieSigner  # noqa: E402
from app.push.keys import new_private_key  # noqa: E402
from engines.triangles import ENGINE as TRIANGLES  # noqa: E402
from tests.push_service import Browser, start_push_service  # noqa: E402
from tests.servers import migrate, start_uvicorn, stop  # noqa: E402

SECRET = online.SECRET
MOVES_PER_MATCH = 16


def planned(raw_params: dict[str, Any], seed: int) -> list[tuple[int, dict[str, Any]]]:
    """(seat, move) of the first moves of an easy-vs-easy game on this board."""
    params = TRIANGLES.parse_params({**raw_params, "opponent": "easy"})
    state = TRIANGLES.new_game(params, seed)
    moves = []
    for _ in range(MOVES_PER_MATCH):
        seat = TRIANGLES.to_move(state)
        if TRIANGLES.outcome(state) is not None or seat is None:
            break
        move = TRIANGLES.computer_move(state)
        moves.append((seat, TRIANGLES.dump_move(move)))
        state, _ = TRIANGLES.apply(state, move, 0, seat)
    return moves


class Match(online.Match):
    """An online match (bench/online.py's), with the seat of each planned move."""

    def __init__(self, index: int) -> None:
        super().__init__(index)
        self.moves: list[tuple[int, dict[str, Any]]] = []

    async def start(self, http: httpx.AsyncClient) -> None:
        await self.create(http)
        game = (await http.get(f"/api/games/{self.id}", headers={"cookie": self.cookies[0]})).json()
        self.moves = planned(game["params"], int(game["number"][:8]))

    async def subscribe(self, http: httpx.AsyncClient, service: PushServiceProcess) -> None:
        for seat, cookie in enumerate(self.cookies):
            for device in ("phone", "tablet"):
                sub = Browser(service.endpoint(f"{self.id}-{seat}-{device}"))
                answer = await http.post(
                    "/api/me/push",
                    json=sub.subscription(["your_turn"]),
                    headers={"cookie": cookie},
                )
                assert answer.status_code == 201, answer.text

    async def play(self, http: httpx.AsyncClient, times: list[float], sent: list[float]) -> None:
        for version, (seat, move) in enumerate(self.moves):
            started = time.perf_counter()
            answer = await http.post(
                f"/api/games/{self.id}/moves",
                json={"version": version, "move": move},
                headers={"cookie": self.cookies[seat]},
            )
            assert answer.status_code == 200, answer.text
            times.append(time.perf_counter() - started)
            sent.append(time.time())


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class PushServiceProcess:
    """The fake push service in a process of its own (its HTTP parsing must not take the
    bench client's interpreter lock); it reports each arrival's wall-clock time.
    ``options`` are ``start_push_service``'s (``status``, ``drip_every_s``, ...)."""

    def __init__(self, delay_s: float, **options: Any) -> None:
        context = multiprocessing.get_context("spawn")
        self.arrivals: Any = context.Queue()
        ready: Any = context.Queue()
        self.process = context.Process(
            target=serve, args=(delay_s, ready, self.arrivals, options), daemon=True
        )
        self.process.start()
        self.host_port: str = ready.get(timeout=30)

    def arrived(self, count: int, timeout: float) -> list[float]:
        """The wall-clock times of the next ``count`` arrivals, or of those that came
        within ``timeout`` seconds."""
        found: list[float] = []
        deadline = time.monotonic() + timeout
        while len(found) < count and time.monotonic() < deadline:
            try:
                found.append(self.arrivals.get(timeout=max(0.01, deadline - time.monotonic())))
            except queue.Empty:
                break
        return found

    def endpoint(self, name: str) -> str:
        return f"http://{self.host_port}/push/{name}"

    def stop(self) -> None:
        self.process.terminate()
        self.process.join(5)


def serve(delay_s: float, ready: Any, arrivals: Any, options: dict[str, Any]) -> None:
    service = start_push_service(delay_s, **options)
    ready.put(service.host_port)
    while True:
        service.next(timeout=3600)
        arrivals.put(time.time())


async def run(base_url: str, label: str, matches: int, service: PushServiceProcess | None) -> None:
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as http:
        games = [Match(i) for i in range(matches)]
        await asyncio.gather(*(game.start(http) for game in games))
        if service is not None:
            await asyncio.gather(*(game.subscribe(http, service) for game in games))
        times: list[float] = []
        sent: list[float] = []
        started = time.perf_counter()
        await asyncio.gather(*(game.play(http, times, sent) for game in games))
        elapsed = time.perf_counter() - started
    ms = [t * 1000 for t in times]
    print(
        f"{label:>14}: {len(ms)} moves in {elapsed:.2f} s = {len(ms) / elapsed:.0f} moves/s; "
        f"answer p50 {quantile(ms, 0.5):.1f} ms, p99 {quantile(ms, 0.99):.1f} ms, "
        f"max {max(ms):.1f} ms, mean {statistics.fmean(ms):.1f} ms"
    )
    if service is None:
        return
    # Every move but a match's last makes it the opponent's turn; two devices each.
    expected = 2 * (len(ms) - 0)
    arrivals: list[float] = []
    deadline = time.monotonic() + 120
    while len(arrivals) < expected and time.monotonic() < deadline:
        try:
            arrivals.append(service.arrivals.get(timeout=1))
        except queue.Empty:
            continue
    after = max(arrivals) - max(sent) if arrivals else float("nan")
    print(
        f"{'':>14}  {len(arrivals)}/{expected} notices reached the push service; the last "
        f"{after:.2f} s after the last move's answer"
    )


# --- stall and reflect: one player's push host and everyone else ---------------------------


def cookie(name: str) -> str:
    player = f"push-{name}-{os.getpid()}-".ljust(22, "0")[:22]
    return f"{COOKIE}={CookieSigner(SECRET).sign(player)}"


async def subscribe(http: httpx.AsyncClient, who: str, endpoint: str) -> None:
    sub = Browser(endpoint).subscription(["joined"])
    answer = await http.post("/api/me/push", json=sub, headers={"cookie": who})
    assert answer.status_code == 201, answer.text


async def joined(http: httpx.AsyncClient, owner: str, guest: str) -> tuple[str, float]:
    """A game of ``owner`` that ``guest`` joins (a ``joined`` notice for the owner): its
    number, and the wall-clock time of the join's answer."""
    body = {"game": "triangles", "params": {"opponent": "online", "stars": 24}}
    created = await http.post("/api/games", json=body, headers={"cookie": owner})
    assert created.status_code == 201, created.text
    game = created.json()
    answer = await http.post(f"/api/games/{game['id']}/join", headers={"cookie": guest})
    assert answer.status_code == 200, answer.text
    return game["number"], time.time()


async def verify_s(http: httpx.AsyncClient, who: str, number: str) -> float:
    body = {"game": "triangles", "number": number, "log": []}
    started = time.perf_counter()
    answer = await http.post("/api/verify", json=body, headers={"cookie": who})
    assert answer.status_code == 200, answer.text
    return time.perf_counter() - started


async def notice_s(http: httpx.AsyncClient, quick: PushServiceProcess, name: str) -> float:
    """From the join's answer to the owner's notice reaching the quick push host."""
    _, answered = await joined(http, cookie(f"{name}-owner"), cookie(f"{name}-guest"))
    arrivals = await asyncio.to_thread(quick.arrived, 1, 120)
    return arrivals[0] - answered if arrivals else float("inf")


async def stall(base_url: str, drip: PushServiceProcess, quick: PushServiceProcess) -> None:
    async with httpx.AsyncClient(base_url=base_url, timeout=180) as http:
        slow, other = cookie("slow"), cookie("other")
        for n in range(10):
            await subscribe(http, slow, drip.endpoint(f"slow-{n}"))
        for name in ("before", "during"):
            await subscribe(http, cookie(f"{name}-owner"), quick.endpoint(name))
        number, _ = await joined(http, other, cookie("verifier"))
        await verify_s(http, other, number)  # the board is built once, before the clock
        before = (await verify_s(http, other, number), await notice_s(http, quick, "before"))
        await joined(http, slow, cookie("slow-guest"))  # 10 sends to the dripping host
        started = drip.arrived(1, timeout=30)
        await asyncio.sleep(1.0)  # the other sends reach it too
        hanging = len(started) + len(drip.arrived(100, timeout=0.2))
        # both at once: neither may wait for the other, nor for the dripping host
        during = await asyncio.gather(
            verify_s(http, other, number), notice_s(http, quick, "during")
        )
    print(f"  {hanging} of the 10 sends reached the dripping host within a second")
    for label, (verified, notice) in (("before", before), ("while dripping", during)):
        print(
            f"  {label:>14}: POST /api/verify {verified:.2f} s; "
            f"another player's notice {notice:.2f} s after the join"
        )


async def reflect(base_url: str, failing: PushServiceProcess, wait_s: float) -> None:
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as http:
        owner = cookie("reflected")
        for n in range(10):
            await subscribe(http, owner, failing.endpoint(f"r-{n}"))
        _, answered = await joined(http, owner, cookie("reflect-guest"))
    arrivals = failing.arrived(1000, timeout=wait_s)
    last = max(arrivals) - answered if arrivals else float("nan")
    print(
        f"  one notice to 10 subscriptions on a host answering 500: {len(arrivals)} requests "
        f"within {wait_s:.0f} s, the last {last:.1f} s after the join"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scenario", choices=("moves", "stall", "reflect"), default="moves")
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--push-delay-ms", type=int, default=100)
    parser.add_argument("--drip-every-s", type=float, default=5.0)
    parser.add_argument("--drip-for-s", type=float, default=60.0)
    parser.add_argument("--reflect-wait-s", type=float, default=80.0)
    args = parser.parse_args()
    if args.scenario == "stall":
        services = [
            PushServiceProcess(0, drip_every_s=args.drip_every_s, drip_for_s=args.drip_for_s),
            PushServiceProcess(0),
        ]
    elif args.scenario == "reflect":
        services = [PushServiceProcess(0, status=500)]
    else:
        services = [PushServiceProcess(args.push_delay_ms / 1000)]
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite+aiosqlite:///{folder}/bench.sqlite3",
            "SECRET": SECRET,
            "VAPID_PRIVATE_KEY": new_private_key(),
            "PUSH_ENDPOINT_ALLOW": ",".join(service.host_port for service in services),
            "LIMIT_CREATES_PER_IP_MIN": "100000",
            "LIMIT_CREATES_PER_PLAYER_MIN": "100000",
            "LIMIT_PUSH_WRITES_PER_IP_MIN": "100000",
            "LIMIT_WAITING_PER_PLAYER": "100000",
        }
        env.pop("REDIS_URL", None)
        migrate(env)
        process, base_url = start_uvicorn(env, Path(folder) / "server.log")
        try:
            if args.scenario == "stall":
                print(
                    f"10 endpoints on a host that drips a byte every {args.drip_every_s:g} s "
                    f"for {args.drip_for_s:g} s"
                )
                asyncio.run(stall(base_url, *services))
            elif args.scenario == "reflect":
                asyncio.run(reflect(base_url, services[0], args.reflect_wait_s))
            else:
                moves(base_url, args.matches, args.push_delay_ms, services[0])
        finally:
            stop(process)
            for service in services:
                service.stop()


def moves(base_url: str, matches: int, delay_ms: int, service: PushServiceProcess) -> None:
    print(
        f"{matches} online Triangles matches at once, {MOVES_PER_MATCH} moves each "
        f"over REST; the push service answers after {delay_ms} ms"
    )
    # Alternated, so a drift of the shared machine shows as a gap between the two runs
    # without subscribers.
    asyncio.run(run(base_url, "no subscriber", matches, None))
    asyncio.run(run(base_url, "subscribed", matches, service))
    asyncio.run(run(base_url, "again none", matches, None))
    asyncio.run(run(base_url, "Subscribed", matches, service))


if __name__ == "__main__":
    main()
