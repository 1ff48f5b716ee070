"""Integrity figures (issue "Nothing lost, nothing faked"): run as
``.venv/bin/python bench/integrity.py [--rounds 10] [--farm-s 1.5]``.

Starts one ``uvicorn app.asgi:app`` on a fresh SQLite file and prints one figure a line:

1. Games moved together: ``--rounds`` times, 8 human-vs-human Triangles games get one
   resign each, sent at once; then every row is read from the SQLite file itself
   (``typeof(state)``): how many were stored as something other than JSON text.
2. Rating farm: a named player creates a rated 3+2 game, a fresh cookie joins and
   resigns, again and again for ``--farm-s`` seconds: the farmer's blitz rating at the
   end, and how many joins the server refused.
3. Pause flood: 200 pause/resume moves on one Pairs game as fast as they go: how many
   were accepted.

Loopback only; every loop is bounded in count and in time.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.qualify import qualify  # noqa: E402
from tests.servers import migrate, start_uvicorn, stop  # noqa: E402


def player(base_url: str) -> httpx.Client:
    """A fresh browser: its first page sets the player cookie."""
    client = httpx.Client(base_url=base_url, timeout=30)
    client.get("/")
    return client


def moved_together(base_url: str, db_path: Path, rounds: int) -> tuple[int, int]:
    owner = player(base_url)
    ids = []
    with ThreadPoolExecutor(8) as pool:
        for _ in range(rounds):
            games = [
                owner.post(
                    "/api/games", json={"game": "triangles", "params": {"opponent": "human"}}
                ).json()
                for _ in range(8)
            ]
            ids += [g["id"] for g in games]
            list(
                pool.map(
                    lambda g: owner.post(
                        f"/api/games/{g['id']}/moves",
                        json={"version": 0, "move": {"type": "resign"}},
                    ),
                    games,
                )
            )
    with sqlite3.connect(db_path) as db:
        kinds = dict(db.execute("SELECT id, typeof(state) FROM games").fetchall())
    return sum(kinds[i] != "text" for i in ids), len(ids)


def farm(base_url: str, seconds: float) -> tuple[float | None, int, int]:
    farmer = player(base_url)
    farmer.put("/api/me", json={"name": "Farmer"})
    # Whatever standing rated play asks for, the farmer has it (``tests.qualify``).
    qualify(
        lambda url, body: farmer.post(url, json=body).raise_for_status().json(),
        lambda url: farmer.get(url).raise_for_status().json(),
    )
    rated = {"opponent": "online", "stars": 24, "clock": "3+2", "rated": True}
    refused = tries = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and tries < 500:
        tries += 1
        game = farmer.post("/api/games", json={"game": "triangles", "params": rated}).json()
        victim = player(base_url)
        joined = victim.post(f"/api/games/{game['id']}/join")
        if joined.status_code != 200:
            refused += 1
            farmer.post(f"/api/games/{game['id']}/cancel")
            continue
        version = joined.json()["version"]
        victim.post(
            f"/api/games/{game['id']}/moves", json={"version": version, "move": {"type": "resign"}}
        )
    rows = farmer.get("/api/leaderboard/triangles?clock=blitz").json()["rows"]
    rating = next((r["rating"] for r in rows if r["name"] == "Farmer"), None)
    return rating, refused, tries


def pause_flood(base_url: str, count: int = 200) -> int:
    client = player(base_url)
    game = client.post("/api/games", json={"game": "pairs"}).json()
    version, accepted = game["version"], 0
    for i in range(count):
        kind = "pause" if i % 2 == 0 else "resume"
        moved = client.post(
            f"/api/games/{game['id']}/moves", json={"version": version, "move": {"type": kind}}
        )
        if moved.status_code == 200:
            accepted += 1
            version = moved.json()["version"]
    return accepted


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--farm-s", type=float, default=1.5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db_path = Path(tmp) / "integrity.db"
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{db_path}",
            "SECRET": "bench-integrity-".ljust(32, "x"),
        }
        env.pop("REDIS_URL", None)
        env["LIMIT_CREATES_PER_PLAYER_MIN"] = env["LIMIT_CREATES_PER_IP_MIN"] = "100000"
        migrate(env)
        server, base_url = start_uvicorn(env, Path(tmp) / "uvicorn.log")
        try:
            lost, total = moved_together(base_url, db_path, args.rounds)
            print(f"1. games moved together: {lost} of {total} rows not stored as JSON text")
            rating, refused, tries = farm(base_url, args.farm_s)
            shown = "none (never rated)" if rating is None else f"{rating:.0f}"
            print(
                f"2. rating farm for {args.farm_s} s: farmer's blitz rating {shown}; "
                f"{refused} of {tries} joins refused"
            )
            print(f"3. pause flood: {pause_flood(base_url)} of 200 pause/resume moves accepted")
        finally:
            stop(server)


if __name__ == "__main__":
    main()
