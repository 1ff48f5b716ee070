"""Quick-pairing benchmark: run as ``.venv/bin/python bench/seeks.py --postgres URL --redis
URL [--processes 2] [--seeks 200]`` (or ``--url http://… [--url …]`` against running
servers; without any of them, one process on a temporary SQLite file).

Starts the server process(es) (PostgreSQL + Redis, as in production; the players spread
over the processes in turn), then N players post a seek with the same time control at
once (or spread over ``--spread`` seconds), and each long-polls its seek until it is
paired; ``--tabs K``: K of them post from a second tab on the next process at the same
instant (a tab whose seek the other one dropped ends at its poll's 404). A request answered
503 is sent again after its Retry-After, as the page does (counted). For every game it
measures the pairing time: from the POST of the later of its two players to the moment
the second of them has the game id in a tab (for a seek that waited, the long-poll's
answer). Prints p50 / p99 / max, the wall time of the whole burst, and checks that every
player is in exactly one game, never against themselves, that both players got the
same id, and that no player's two tabs were given two games.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.servers import migrate, start_uvicorn, stop  # noqa: E402

CLOCK = "3+2"
GIVE_UP_S = 60  # a player still waiting this long after the click is reported unpaired


class Seeker:
    """One player: a page on one process, and with ``second_tab`` another page on the
    next process, both posting at the same instant."""

    def __init__(self, base_url: str, second_tab: str | None = None) -> None:
        # The server issues each player's cookie on the first answer; the client keeps it.
        self.http = httpx.AsyncClient(base_url=base_url, timeout=60)
        self.tabs = [self.http]
        if second_tab is not None:
            self.tabs.append(httpx.AsyncClient(base_url=second_tab, timeout=60))
        self.posted = 0.0
        self.told = 0.0
        self.answered = 0.0
        self.game_id = ""
        self.told_ids: set[str] = set()  # every game id the player's tabs were given
        self.polls = 0
        self.retries = 0  # requests answered 503 (a database pool wait past its bound)

    async def play_now(self, start: asyncio.Event, delay: float) -> None:
        await start.wait()
        await asyncio.sleep(delay)
        # The cookie, and fresh connections (an idle one may be closed under us), before
        # the clock starts; a second tab shares the first one's cookie.
        await self.http.get("/api/catalog")
        for tab in self.tabs[1:]:
            tab.cookies = self.http.cookies
            await tab.get("/api/catalog")
        self.posted = time.perf_counter()
        answers = await asyncio.gather(*(self._seek(tab) for tab in self.tabs))
        self.answered = answers[0][0]
        told = [(at, game_id) for _, at, game_id in answers if game_id is not None]
        self.told_ids = {game_id for _, game_id in told}
        if told:
            self.told, self.game_id = min(told)

    async def _seek(self, tab: httpx.AsyncClient) -> tuple[float, float, str | None]:
        """One page's seek → when its POST was answered, when it had the game id, the
        game id (None: the player's other tab dropped this seek, the poll says 404; or
        the seek was withdrawn unpaired after GIVE_UP_S)."""
        body = {"game": "triangles", "clock": CLOCK}
        posted = await self._send(tab, "POST", "/api/seeks", json=body)
        posted.raise_for_status()
        answer = posted.json()
        answered = time.perf_counter()
        while answer["status"] == "waiting":
            if time.perf_counter() - self.posted > GIVE_UP_S:
                await tab.delete(f"/api/seeks/{answer['seek_id']}")
                return answered, time.perf_counter(), None
            self.polls += 1
            polled = await self._send(
                tab, "GET", f"/api/seeks/{answer['seek_id']}", params={"wait": 20}
            )
            if polled.status_code == 404 and len(self.tabs) > 1:
                return answered, time.perf_counter(), None
            polled.raise_for_status()
            answer = {**answer, **polled.json()}
        return answered, time.perf_counter(), answer["game_id"]

    async def _send(
        self, tab: httpx.AsyncClient, method: str, url: str, **kwargs: Any
    ) -> httpx.Response:
        """The page sends again after the Retry-After of a 503 (a burst on a busy
        machine can outwait DB_POOL_TIMEOUT_S); the pairing time counts from the click."""
        while True:
            response = await tab.request(method, url, **kwargs)
            if response.status_code != 503:
                return response
            self.retries += 1
            await asyncio.sleep(float(response.headers.get("retry-after", "1")))

    async def seats(self) -> list[int]:
        game = (await self.http.get(f"/api/games/{self.game_id}")).json()
        return list(game["seats"])


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


async def burst(urls: list[str], count: int, spread: float, tabs: int = 0) -> None:
    seekers = [
        Seeker(urls[i % len(urls)], urls[(i + 1) % len(urls)] if i < tabs else None)
        for i in range(count)
    ]
    start = asyncio.Event()
    try:
        tasks = [asyncio.create_task(s.play_now(start, random.uniform(0, spread))) for s in seekers]
        began = time.perf_counter()
        start.set()
        await asyncio.gather(*tasks)
        wall = time.perf_counter() - began
        games: dict[str, list[Seeker]] = defaultdict(list)
        for seeker in seekers:
            if seeker.game_id:
                games[seeker.game_id].append(seeker)
        unpaired = sum(1 for s in seekers if not s.game_id)
        twice = [g for g, players in games.items() if len(players) != 2]
        split = sum(1 for s in seekers if len(s.told_ids) != 1)  # tabs sent to two games
        selves = 0
        for players in games.values():
            seats = [await p.seats() for p in players]
            selves += sum(len(s) != 1 for s in seats)
        times = [
            (max(p.told for p in players) - max(p.posted for p in players)) * 1000
            for players in games.values()
            if len(players) == 2
        ]
    finally:
        for seeker in seekers:
            for tab in seeker.tabs:
                await tab.aclose()
    waited = sum(1 for s in seekers if s.polls)
    retried = sum(s.retries for s in seekers)
    print(
        f"{count} players ({tabs} of them from two tabs) over {len(urls)} process(es), "
        f"posted within {spread:g} s: "
        f"{len(games)} games in {wall * 1000:.0f} ms; "
        f"{waited} seekers waited in the pool; {retried} requests retried after a 503"
    )
    print(
        f"pairing time (ms): p50 {statistics.median(times):.1f}  "
        f"p99 {percentile(times, 0.99):.1f}  max {max(times):.1f}"
    )
    posts = [(s.answered - s.posted) * 1000 for s in seekers]
    print(
        f"POST /api/seeks answered in (ms): p50 {statistics.median(posts):.1f}  "
        f"p99 {percentile(posts, 0.99):.1f}  max {max(posts):.1f}"
    )
    ok = not (twice or split or unpaired or selves) and len(games) * 2 == count
    print(
        "every player in exactly one game, none against themselves: "
        + (
            "yes"
            if ok
            else f"NO ({len(twice)} games not of two, {split} players' tabs in two games, "
            f"{unpaired} players unpaired after {GIVE_UP_S} s, {selves} self-pairings)"
        )
    )
    if not ok:
        raise SystemExit(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", action="append", help="a running server (repeat for more)")
    parser.add_argument("--postgres", help="a PostgreSQL URL (its tables are created if missing)")
    parser.add_argument("--redis", help="a Redis URL, used with --postgres")
    parser.add_argument("--processes", type=int, default=1, help="server processes to start")
    parser.add_argument("--seeks", type=int, default=200, help="players seeking at once (even)")
    parser.add_argument("--rounds", type=int, default=1, help="bursts, one after the other")
    parser.add_argument(
        "--tabs", type=int, default=0, help="players who post from a second tab as well"
    )
    parser.add_argument(
        "--spread", type=float, default=0.0, help="seconds the POSTs spread over (0: all at once)"
    )
    args = parser.parse_args()
    if args.url:
        for _ in range(args.rounds):
            asyncio.run(burst(args.url, args.seeks, args.spread, args.tabs))
        return
    env = {
        **os.environ,
        "SECRET": "bench-" + secrets.token_hex(8),
        "LIMIT_SEEKS_PER_IP_MIN": "1000000",
        "LIMIT_CREATES_PER_IP_MIN": "1000000",
    }
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        if args.postgres:
            env["DATABASE_URL"] = args.postgres
            if args.redis:
                env["REDIS_URL"] = args.redis
        else:
            env["DATABASE_URL"] = f"sqlite+aiosqlite:///{tmp}/bench.sqlite3"
            env.pop("REDIS_URL", None)
            args.processes = 1
        migrate(env)
        database = env["DATABASE_URL"].split(":")[0]
        label = "PostgreSQL + Redis" if args.postgres and args.redis else database
        print(f"{label}; time control {CLOCK}")
        urls = []
        for i in range(args.processes):
            process, url = start_uvicorn(env, Path(tmp) / f"server.{i}.log")
            stack.callback(stop, process)
            urls.append(url)
        for _ in range(args.rounds):
            asyncio.run(burst(urls, args.seeks, args.spread, args.tabs))


if __name__ == "__main__":
    main()
