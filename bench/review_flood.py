"""What a flood of reviews does to play: ``.venv/bin/python bench/review.py --flood
[--flood-games 20] [--flood-stars 24]`` (see bench/review.py).

One ``python -m app`` on a temporary SQLite file (ENGINE_WORKERS at its default, one per
core). ``2 × games`` finished games are played on one device first. Then a player against
the medium computer times ``MOVES`` of its moves, from the POST to the accepted answer (the
computer's reply included; a 429 is sent again after its Retry-After, as a page would):
with no flood, right after one cookie asked for the review of ``games`` games, and right
after ten cookies asked for ``games`` more. Prints how the review asks were answered and
the answers' p50 and max.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx

from engines.core.replay import replay as fold_log
from engines.triangles import ENGINE
from tests.servers import migrate, start_app, stop

MOVES = 10
COOKIES = 10


def finished_game(http: httpx.Client, stars: int) -> str:
    """A game played to its end on one device, its lines chosen by the easy computer."""
    field = "phone" if stars in (24, 60, 120) else "tablet"
    params = {"field": field, "stars": stars, "opponent": "human"}
    created = http.post("/api/games", json={"game": "triangles", "params": params}).json()
    state = current_state(http, created["id"])
    version = created["version"]
    while not state.over:
        move = ENGINE.computer_move(replace(state, params=replace(state.params, opponent="easy")))
        body = {"version": version, "move": ENGINE.dump_move(move)}
        answer = http.post(f"/api/games/{created['id']}/moves", json=body)
        answer.raise_for_status()
        version = answer.json()["version"]
        state, _ = ENGINE.apply(state, move, 0, state.turn)
    return str(created["id"])


def current_state(http: httpx.Client, game_id: str) -> Any:
    log = http.get(f"/api/games/{game_id}/log").json()
    return fold_log(ENGINE, ENGINE.parse_params(log["params"]), log["seed"], log["moves"])


class AgainstComputer:
    """A player's games against the medium computer (a new one when one ends)."""

    def __init__(self, base_url: str) -> None:
        self.http = httpx.Client(base_url=base_url, timeout=300)
        self.refused = 0
        self._new()

    def _new(self) -> None:
        params = {"field": "phone", "stars": 24, "opponent": "medium"}
        game = self.http.post("/api/games", json={"game": "triangles", "params": params}).json()
        self.game_id, self.version = game["id"], game["version"]

    def answer_s(self) -> float:
        """One line: seconds from its POST to the accepted answer."""
        state = current_state(self.http, self.game_id)
        body = {"version": self.version, "move": ENGINE.dump_move(ENGINE.computer_move(state))}
        started = time.monotonic()
        while True:
            answer = self.http.post(f"/api/games/{self.game_id}/moves", json=body)
            if answer.status_code != 429:
                break
            self.refused += 1
            time.sleep(float(answer.headers.get("retry-after", "1")))
        seconds = time.monotonic() - started
        answer.raise_for_status()
        self.version = answer.json()["version"]
        if answer.json()["view"]["over"]:
            self._new()
        return seconds

    def line(self, when: str) -> str:
        self.refused = 0
        times = [self.answer_s() for _ in range(MOVES)]
        return (
            f"  computer's answer {when}: p50 {statistics.median(times) * 1000:7.0f} ms,"
            f" max {max(times) * 1000:7.0f} ms over {MOVES} moves ({self.refused} times 429 first)"
        )


def ask(http: httpx.Client, game_id: str) -> str:
    answer = http.post(f"/api/games/{game_id}/review")
    if answer.status_code >= 400:
        return f"{answer.status_code} {answer.json()['error']['code']}"
    return str(answer.status_code)


def answers(counts: Counter[str]) -> str:
    return ", ".join(f"{code} ×{count}" for code, count in sorted(counts.items()))


def flood(games: int, stars: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp}/flood.sqlite3"}
        env.pop("REDIS_URL", None)
        env["SECRET"] = "bench-review-flood-".ljust(40, "x")
        for limit in ("LIMIT_CREATES_PER_PLAYER_MIN", "LIMIT_CREATES_PER_IP_MIN"):
            env[limit] = "100000"
        env["LIMIT_REVIEWS_PER_IP"] = "1000"  # ten cookies behind one loopback address
        migrate(env)
        process, base_url = start_app(env, Path(tmp) / "server.log")
        try:
            owner = httpx.Client(base_url=base_url, timeout=300)
            print(f"review flood: playing {2 * games} {stars}-star games to their end…")
            first = [finished_game(owner, stars) for _ in range(games)]
            second = [finished_game(owner, stars) for _ in range(games)]
            player = AgainstComputer(base_url)
            player.answer_s()  # the computer's workers start on their first job
            print(player.line("with no flood"))
            one = httpx.Client(base_url=base_url, timeout=300)
            counts = Counter(ask(one, game_id) for game_id in first)
            print(f"  {games} reviews asked by one cookie: {answers(counts)}")
            print(player.line("after one cookie's flood"))
            cookies = [httpx.Client(base_url=base_url, timeout=300) for _ in range(COOKIES)]
            counts = Counter(
                ask(cookies[n * COOKIES // games], game_id) for n, game_id in enumerate(second)
            )
            print(f"  {games} reviews asked by {COOKIES} cookies: {answers(counts)}")
            print(player.line(f"after {COOKIES} cookies' flood"))
        finally:
            stop(process)
