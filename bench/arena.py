"""Arena benchmark: run as ``.venv/bin/python bench/arena.py [--players 200] [--minutes 3]
[--postgres URL --redis URL --processes 2]`` (without --postgres: one process on a
temporary SQLite file).

Starts the server process(es) (the players spread over them in turn), makes a bullet
arena (1+1) starting a few seconds later, and runs the scripted players (httpx and
``websockets``, one asyncio loop): each names itself, joins, and follows its arena socket
(``/ws/arenas/{id}``), which tells it of its pairings (``paired``; the standings frames'
``me.game_id`` as well). A game is played on its game socket at a bullet pace (0.2-1.2 s
a line; the line is the medium computer's on a replay of the log): some players berserk
before their first line, some resign after a few lines (some before any: aborted), the
others play on to the board's end or a flag. When the arena is over, games still running
are resigned (they count for nothing).

Prints the players, the games and lines, lines a second, the pairing delay after a game
ends (per player, from the end of a game to the start of their next one, both the
server's stored times: ``games.started_ms`` + the outcome's ``time_ms``), the server
processes' CPU time (``/proc/<pid>/stat``), and checks the invariants (``tests/api/
test_arena_crowd.py``'s ``violations``: never two games at once, none started after the
end, every counted game on exactly its two players' sheets, the standings equal to the
points recomputed from each stored game, no rematch while another player was free), and
that every process answers the same standings. Exit status 1 when one fails.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import online  # noqa: E402  (bench/online.py, this folder)

from app.identity import COOKIE, CookieSigner  # noqa: E402
from engines.core.replay import replay  # noqa: E402
from engines.registry import ENGINES  # noqa: E402
from tests.api.test_arena_crowd import StoredGame, stored_game, violations  # noqa: E402
from tests.servers import migrate, start_uvicorn, stop  # noqa: E402

CLOCK = "1+1"
TRIANGLES: Any = ENGINES["triangles"]
START_IN_MS = 8_000  # the arena starts this long after it is made: everyone has joined
THINK_S = (0.2, 1.2)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def cpu_s(pid: int) -> float:
    """A process's CPU time (user + system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Bot:
    """One scripted player on one process."""

    def __init__(self, index: int, base_url: str, secret: str, run: str, seed: int) -> None:
        self.id = f"ab{index}-{run}-".ljust(22, "0")[:22]  # the form the server issues
        self.name = f"Bench{index:03d}"
        self.cookie = f"{COOKIE}={CookieSigner(secret).sign(self.id)}"
        self.base_url = base_url
        self.http = httpx.AsyncClient(
            base_url=base_url, headers={"cookie": self.cookie}, timeout=30
        )
        self.rng = random.Random(seed)
        self.games: list[str] = []
        self.lines = 0
        self.errors: list[str] = []
        self.retried = 0  # requests answered 503 and sent again
        self.paired_frames = 0  # `paired` frames on the arena socket
        self.over = False
        self.next_game: asyncio.Queue[str] = asyncio.Queue()

    def ws_url(self, path: str) -> str:
        return self.base_url.replace("http", "ws", 1) + path

    async def request(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        """A 503 (a pool wait past its bound) is sent again, as a page does, and so is a
        request on a kept-alive connection the server closed meanwhile (a move sent twice
        is refused the second time: its version is past)."""
        for attempt in range(20):
            try:
                response = await self.http.request(method, url, **kwargs)
            except httpx.TransportError as error:
                self.errors.append(f"{method} {url.split('/')[-1]}: {error!r}")
                if attempt == 19:
                    raise
                await asyncio.sleep(0.2)
                continue
            if response.status_code != 503:
                return response
            self.retried += 1
            await asyncio.sleep(float(response.headers.get("retry-after", "1")))
        return response

    async def enter(self, arena_id: str) -> None:
        named = await self.request("PUT", "/api/me", json={"name": self.name})
        assert named.status_code == 200, named.text
        joined = await self.request("POST", f"/api/arenas/{arena_id}/join")
        assert joined.status_code == 200, joined.text

    async def follow(self, arena_id: str, ends_ms: int) -> None:
        """Read the arena socket: pairings into ``next_game``, until the arena is over."""
        while not self.over:
            try:
                async with websockets.connect(
                    self.ws_url(f"/ws/arenas/{arena_id}"),
                    additional_headers={"cookie": self.cookie},
                    max_size=None,
                ) as socket:
                    pinger = asyncio.create_task(online.pinging(socket, self.rng))
                    try:
                        await self.read_arena(socket)
                    finally:
                        pinger.cancel()
            except (OSError, websockets.WebSocketException) as error:
                self.errors.append(f"arena socket: {error!r}")
                await asyncio.sleep(0.5)
            if time.time() * 1000 > ends_ms + 10_000:
                self.over = True
                self.next_game.put_nowait("")

    async def read_arena(self, socket: Any) -> None:
        """An arena socket's frames until it closes or the arena is over."""
        async for text in socket:
            frame = json.loads(text)
            if frame["type"] == "paired":
                self.paired_frames += 1
                self.next_game.put_nowait(frame["game_id"])
            elif frame["type"] == "standings":
                arena = frame["arena"]
                if arena["me"]["game_id"]:
                    self.next_game.put_nowait(arena["me"]["game_id"])
                if arena["status"] == "over":
                    self.over = True
                    self.next_game.put_nowait("")
                    return

    async def play_arena(self, arena_id: str, ends_ms: int) -> None:
        follower = asyncio.create_task(self.follow(arena_id, ends_ms))
        try:
            while True:
                game_id = await self.next_game.get()
                if not game_id:
                    if self.over:
                        return
                    continue
                if game_id in self.games:
                    continue
                self.games.append(game_id)
                await self.play(game_id, ends_ms)
        finally:
            follower.cancel()

    async def play(self, game_id: str, ends_ms: int) -> None:
        """One game on its socket: berserk, resign, or lines at a bullet pace. A socket
        closed under it (1013: the database or the hub busy past its bound) is opened
        again, as a page does."""
        roll = self.rng.random()
        plan = {
            "resign_at": 0 if roll < 0.05 else self.rng.randrange(1, 12) if roll < 0.5 else None,
            "berserk": self.rng.random() < 0.2,
            "own": 0,
        }
        while True:
            try:
                async with websockets.connect(
                    self.ws_url(f"/ws/games/{game_id}"),
                    additional_headers={"cookie": self.cookie},
                    max_size=None,
                ) as socket:
                    await self._play_on(socket, game_id, ends_ms, plan)
                    return
            except (OSError, websockets.WebSocketException) as error:
                self.errors.append(f"game socket: {error!r}")
                await asyncio.sleep(0.5)
                game = (await self.request("GET", f"/api/games/{game_id}")).json()
                if game.get("status") != "active":
                    return

    async def _play_on(self, socket: Any, game_id: str, ends_ms: int, plan: dict[str, Any]) -> None:
        frame = await self._frame(socket, "state")
        seat, version, view, status = (
            frame["seat"], frame["version"], frame["view"], frame["status"]
        )  # fmt: skip
        while status == "active":
            if view["turn"] == seat:
                await asyncio.sleep(self.rng.uniform(*THINK_S))
                late = time.time() * 1000 >= ends_ms
                resign_at = plan["resign_at"]
                if plan["berserk"] and plan["own"] == 0 and not view["berserk"][seat]:
                    plan["berserk"] = False
                    await self.request("POST", f"/api/games/{game_id}/berserk")
                elif late or (resign_at is not None and plan["own"] >= resign_at):
                    await self._move(game_id, version, {"type": "resign"})
                else:
                    line = await self._line(game_id)
                    if line is not None and await self._move(game_id, version, line):
                        plan["own"] += 1
                        self.lines += 1
            try:
                frame = await asyncio.wait_for(self._frame(socket, "move"), timeout=5)
                version, view, status = frame["version"], frame["view"], frame["status"]
            except TimeoutError:  # a refused move, or a frame missed: read the game
                game = (await self.request("GET", f"/api/games/{game_id}")).json()
                version, view, status = game["version"], game["view"], game["status"]

    async def _frame(self, socket: Any, kind: str) -> dict[str, Any]:
        while True:
            frame: dict[str, Any] = json.loads(await socket.recv())
            if frame["type"] == kind:
                return frame

    async def _line(self, game_id: str) -> dict[str, Any] | None:
        log = (await self.request("GET", f"/api/games/{game_id}/log")).json()
        state = replay(TRIANGLES, TRIANGLES.parse_params(log["params"]), log["seed"], log["moves"])
        if TRIANGLES.to_move(state) is None:
            return None
        return TRIANGLES.dump_move(TRIANGLES.computer_move(state))  # type: ignore[no-any-return]

    async def _move(self, game_id: str, version: int, move: dict[str, Any]) -> bool:
        answer = await self.request(
            "POST", f"/api/games/{game_id}/moves", json={"version": version, "move": move}
        )
        return answer.status_code == 200


async def stored_rows(database_url: str, arena_id: str) -> list[dict[str, Any]]:
    """The arena's games as stored (the rows, read straight from the database)."""
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    from app.config import Settings

    engine = create_async_engine(Settings(database_url=database_url).async_database_url)
    try:
        async with engine.connect() as connection:
            rows = await connection.execute(
                text("SELECT id, seats, started_ms FROM games WHERE arena_id = :arena"),
                {"arena": arena_id},
            )
            found = []
            for game_id, seats, started_ms in rows.all():
                if isinstance(seats, str):
                    seats = json.loads(seats)
                found.append({"id": game_id, "seats": seats, "started_ms": started_ms})
            return found
    finally:
        await engine.dispose()


async def arena_run(
    urls: list[str], secret: str, database_url: str, players: int, minutes: int, pids: list[int]
) -> bool:
    run = secrets.token_hex(3)
    bots = [Bot(i, urls[i % len(urls)], secret, run, seed=i) for i in range(players)]
    try:
        maker = bots[0]
        await maker.request("PUT", "/api/me", json={"name": maker.name})
        made = await maker.request(
            "POST",
            "/api/arenas",
            json={
                "game": "triangles",
                "clock": CLOCK,
                "minutes": minutes,
                "starts_at": int(time.time() * 1000) + START_IN_MS,
            },
        )
        assert made.status_code == 201, made.text
        arena = made.json()
        arena_id, starts_ms, ends_ms = arena["id"], arena["starts_at"], arena["ends_at"]
        await asyncio.gather(*(bot.enter(arena_id) for bot in bots))
        print(
            f"{players} players joined; the arena starts in {starts_ms / 1000 - time.time():.1f} s"
        )
        await asyncio.sleep(max(0.0, starts_ms / 1000 - time.time()))
        cpu_before = [cpu_s(pid) for pid in pids]
        began = time.perf_counter()
        await asyncio.gather(*(bot.play_arena(arena_id, ends_ms) for bot in bots))
        wall = time.perf_counter() - began
        cpu = [cpu_s(pid) - before for pid, before in zip(pids, cpu_before, strict=True)]
        await asyncio.sleep(1.0)  # every process's cached standings are out of date

        answers = [
            (await Bot(players + i, url, secret, run, 0).http.get(f"/api/arenas/{arena_id}")).json()
            for i, url in enumerate(urls)
        ]
        rows = await stored_rows(database_url, arena_id)
        games: list[StoredGame] = []
        for row in rows:
            snapshot = (await maker.request("GET", f"/api/games/{row['id']}")).json()
            games.append(stored_game(row, snapshot))
    finally:
        for bot in bots:
            await bot.http.aclose()

    standings = answers[0]["standings"]
    same = all(a["standings"] == standings for a in answers[1:])
    name_of = {bot.id: bot.name for bot in bots}
    problems = violations(games, standings, name_of, ends_ms)
    lines = sum(g.lines[0] + g.lines[1] for g in games)
    counted = sum(1 for g in games if g.ended_ms is not None and g.ended_ms <= ends_ms)
    delays: list[float] = []
    by_player: dict[str, list[StoredGame]] = {}
    for game in sorted(games, key=lambda g: g.started_ms):
        for player in game.seats:
            by_player.setdefault(player, []).append(game)
    for mine in by_player.values():
        for before, after in zip(mine, mine[1:], strict=False):
            if before.ended_ms is not None:
                delays.append(after.started_ms - before.ended_ms)
    told = sum(bot.paired_frames for bot in bots)
    errors = [error for bot in bots for error in bot.errors]
    print(
        f"{players} players over {len(urls)} process(es), {minutes} min of {CLOCK}: "
        f"{len(games)} games ({counted} counted), {lines} lines in {wall:.0f} s "
        f"({lines / wall:.1f} lines/s); {told} 'paired' frames on arena sockets"
    )
    if delays:
        print(
            f"pairing delay after a game ends (ms, {len(delays)} of them): "
            f"p50 {statistics.median(delays):.0f}  p99 {percentile(delays, 0.99):.0f}  "
            f"max {max(delays):.0f}"
        )
    print(
        "server CPU: "
        + ", ".join(f"{c:.1f} s" for c in cpu)
        + f" ({sum(cpu) / wall * 100:.0f} % of a core over the arena; "
        f"{sum(cpu) / max(lines, 1) * 1000:.1f} ms per line, sockets and standings included)"
    )
    retried = sum(bot.retried for bot in bots)
    if errors or retried:
        print(
            f"{retried} requests answered 503 and sent again; {len(errors)} connections lost "
            f"and made again" + (f", e.g. {errors[0]}" if errors else "")
        )
    print(f"every process answers the same standings: {'yes' if same else 'NO'}")
    print(
        "never two games at once, every game counted once, standings == recomputed: "
        + ("yes" if not problems else f"NO ({len(problems)}: {problems[:5]})")
    )
    return same and not problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", help="a PostgreSQL URL (its tables are created if missing)")
    parser.add_argument("--redis", help="a Redis URL, used with --postgres")
    parser.add_argument("--processes", type=int, default=1, help="server processes to start")
    parser.add_argument("--players", type=int, default=200, help="scripted players")
    parser.add_argument("--minutes", type=int, default=3, help="the arena's length (3-120)")
    args = parser.parse_args()
    secret = "bench-" + secrets.token_hex(8)
    env = {
        **os.environ,
        "SECRET": secret,
        "LIMIT_SEEKS_PER_IP_MIN": "1000000",
        "LIMIT_SEEKS_PER_PLAYER_MIN": "1000000",
        "LIMIT_CREATES_PER_IP_MIN": "1000000",
        "LIMIT_REPLAYS_PER_IP_MIN": "1000000",
        "LIMIT_SOCKETS_PER_IP": "100000",
        "ARENA_HOURLY": "",
        "ARENA_EVENING": "",
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
        label = "PostgreSQL + Redis" if args.postgres and args.redis else "SQLite"
        print(f"{label}; {args.processes} process(es)")
        urls, pids = [], []
        for i in range(args.processes):
            process, url = start_uvicorn(env, Path(tmp) / f"server.{i}.log")
            stack.callback(stop, process)
            urls.append(url)
            pids.append(process.pid)
        ok = asyncio.run(
            arena_run(urls, secret, env["DATABASE_URL"], args.players, args.minutes, pids)
        )
        for i in range(args.processes):
            errors = [
                line
                for line in (Path(tmp) / f"server.{i}.log").read_text(errors="replace").splitlines()
                if "Traceback" in line or "ERROR" in line
            ]
            if errors:
                print(f"process {i} logged {len(errors)} errors, e.g. {errors[0]}")
    if not ok:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
