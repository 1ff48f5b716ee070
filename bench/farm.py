"""The rating farm of issue 33, run against a real server from one address: run as
``.venv/bin/python bench/farm.py [--minutes 10] [--postgres URL --redis URL]``.

A farmer and a stream of puppets, every one qualified for rated play in the cheapest way
the rules allow (``tests.qualify``: five games against the easy computer, five lines of
their own each, then resigned). Each puppet creates three rated 1+1 games in turn; the
farmer joins, each side draws one line (so nothing is aborted), the puppet resigns. It
prints the farmer's bullet rating and leaderboard rank every minute, then one JSON line:
puppets made, rated games won, games that counted, the farmer's rating and rank.

Starts one ``python -m app`` (SQLite, or PostgreSQL + Redis when given); loopback only;
every loop is bounded in count and in time.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.qualify import next_line, qualify  # noqa: E402
from tests.servers import fresh_postgres_database, migrate, start_uvicorn, stop  # noqa: E402

RATED = {"opponent": "online", "stars": 24, "clock": "1+1", "rated": True}
GAMES_PER_PUPPET = 3
MAX_PUPPETS = 2_000


class Browser:
    """One cookie, as a browser holds it; each call asserts its answer."""

    def __init__(self, base_url: str, name: str) -> None:
        self.http = httpx.Client(base_url=base_url, timeout=60)
        self.http.get("/")
        assert self.http.put("/api/me", json={"name": name}).status_code == 200

    def post(self, url: str, body: dict[str, Any]) -> dict[str, Any]:
        response = self.http.post(url, json=body)
        assert response.status_code in (200, 201), response.text
        return response.json()  # type: ignore[no-any-return]

    def get(self, url: str) -> dict[str, Any]:
        response = self.http.get(url)
        assert response.status_code == 200, response.text
        return response.json()  # type: ignore[no-any-return]


def farmed_game(farmer: Browser, puppet: Browser) -> dict[str, Any]:
    """One rated game the puppet loses; its outcome."""
    game = puppet.post("/api/games", {"game": "triangles", "params": RATED})
    gid = game["id"]
    version = farmer.post(f"/api/games/{gid}/join", {})["version"]
    for _ in range(2):  # each side one line, in turn
        seen = farmer.get(f"/api/games/{gid}")
        mover = farmer if seen["view"]["turn"] in seen["seats"] else puppet
        version = mover.post(
            f"/api/games/{gid}/moves", {"version": version, "move": next_line(mover.get, gid)}
        )["version"]
    ended = puppet.post(f"/api/games/{gid}/moves", {"version": version, "move": {"type": "resign"}})
    return ended["outcome"]  # type: ignore[no-any-return]


def standing(farmer: Browser) -> tuple[float | None, int | None]:
    """The farmer's bullet rating (from a game view: the leaderboard lists established
    players only) and rank on the leaderboard (None: not on it)."""
    stats = farmer.get("/api/me/stats")["stats"]
    rating = next((s["rating"] for s in stats if s["rating"] is not None), None)
    rows = farmer.get("/api/leaderboard/triangles?clock=bullet")["rows"]
    rank = next((r["rank"] for r in rows if r["name"] == "Farmer"), None)
    return rating, rank


def farm(base_url: str, seconds: float) -> dict[str, Any]:
    started = time.monotonic()
    farmer = Browser(base_url, "Farmer")
    qualify(farmer.post, farmer.get)
    puppets = won = counted = 0
    next_report = started + 60
    while time.monotonic() - started < seconds and puppets < MAX_PUPPETS:
        puppets += 1
        puppet = Browser(base_url, f"Puppet {puppets}")
        qualify(puppet.post, puppet.get)
        for _ in range(GAMES_PER_PUPPET):
            outcome = farmed_game(farmer, puppet)
            won += 1
            counted += "unrated" not in outcome or outcome["unrated"] is None
        if time.monotonic() >= next_report:
            rating, rank = standing(farmer)
            print(
                f"{time.monotonic() - started:5.0f} s: {puppets} puppets, {won} rated wins, "
                f"{counted} counted; farmer {rating and round(rating)}, rank {rank}",
                flush=True,
            )
            next_report += 60
    rating, rank = standing(farmer)
    return {
        "seconds": round(time.monotonic() - started),
        "puppets": puppets,
        "rated_wins": won,
        "counted": counted,
        "farmer_rating": rating and round(rating, 1),
        "farmer_rank": rank,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--postgres")
    parser.add_argument("--redis")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "SECRET": "bench-farm-".ljust(32, "x")}
        env.pop("REDIS_URL", None)
        if args.postgres:
            env["DATABASE_URL"] = fresh_postgres_database(args.postgres, "farm")
        else:
            env["DATABASE_URL"] = f"sqlite:///{Path(tmp) / 'farm.db'}"
        if args.redis:
            env["REDIS_URL"] = args.redis
        for limit in ("LIMIT_CREATES_PER_PLAYER_MIN", "LIMIT_CREATES_PER_IP_MIN"):
            env[limit] = "100000"
        migrate(env)
        server, base_url = start_uvicorn(env, Path(tmp) / "uvicorn.log")
        try:
            print(json.dumps(farm(base_url, args.minutes * 60)))
        finally:
            stop(server)


if __name__ == "__main__":
    main()
