"""A crowd in an arena: 40 scripted players through a 3-minute bullet arena (1+1), in one
process on the test's fake clock, which advances by ``STEP_MS`` after each round of the
players' actions (the director pairs in the background every 100 ms of real time).

Each round every free player reads the arena (``me.game_id``) and every game under way
gets one action: a berserk before a seat's first line (planned for some seats), a
resignation (planned for some games after a few lines, some before any: aborted), or
the mover's line (``tests.qualify.next_line``); other games are played until the board
ends or a clock runs out. When the arena's time is up the games still running are
resigned: they count for nothing.

Then a fresh app (nothing in memory) reads the standings and the stored games, and
``violations`` checks them (it is shared by ``tests/multiprocess/test_arena_two_
processes.py`` and ``bench/arena.py``): no player in two games at once, no game started
at or after the end, every counted game on exactly its two players' sheets, the points
equal those recomputed from each stored game (``engines.core.arena.score_sheet``), and
nobody paired with their previous opponent while another player was free.

About 19 s on a quiet 2-core machine (SQLite or PostgreSQL + Redis alike; some 3,000
requests), so it runs in ``make check``; it took 55-75 s while other suites loaded the
machine.
"""

from __future__ import annotations

import random
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import pytest

from app.store.arenas import played_order
from engines.core.arena import ArenaGame, result_of, score_sheet
from engines.core.protocol import IllegalMove
from engines.triangles.rules import ARENA_BERSERK_LINES
from tests.api.test_arenas import arena_of, both_draw, make_arena, named, paired, resign
from tests.qualify import next_line

PLAYERS = 40
STEP_MS = 2_500  # fake time per round: a line of each game under way
MINUTES = 3


@dataclass(frozen=True)
class StoredGame:
    """An arena game as stored: its seats' players, when it started and ended (server
    time; None while it runs), the winner, and each seat's berserk and lines drawn."""

    id: str
    seats: tuple[str, str]
    started_ms: int
    ended_ms: int | None
    winner: int | None
    berserk: tuple[bool, bool]
    lines: tuple[int, int]


def stored_game(row: dict[str, Any], snapshot: dict[str, Any]) -> StoredGame:
    """``row``: the games row (id, seats, started_ms); ``snapshot``: GET /api/games/{id}."""
    outcome = snapshot.get("outcome")
    view = snapshot["view"]
    lines = [0, 0]
    for _, _, seat in view["lines"]:
        lines[seat] += 1
    return StoredGame(
        id=row["id"],
        seats=(str(row["seats"][0]), str(row["seats"][1])),
        started_ms=int(row["started_ms"]),
        ended_ms=None if outcome is None else int(row["started_ms"]) + int(outcome["time_ms"]),
        winner=None if outcome is None else outcome["winner"],
        berserk=(bool(view["berserk"][0]), bool(view["berserk"][1])),
        lines=(lines[0], lines[1]),
    )


def counted(game: StoredGame, ends_ms: int) -> bool:
    return game.ended_ms is not None and game.ended_ms <= ends_ms


def recomputed(games: Iterable[StoredGame], player: str, ends_ms: int) -> list[tuple[str, Any]]:
    """The player's counted games in the order they started, each scored from what is
    stored (``score_sheet``): [(game id, ScoredGame)]."""
    mine = sorted((g for g in games if player in g.seats and counted(g, ends_ms)), key=played_order)
    played = []
    for game in mine:
        seat = game.seats.index(player)
        movers = frozenset(s for s in (0, 1) if game.lines[s] > 0)
        result = result_of(game.winner, seat, movers)
        long_enough = game.lines[seat] >= ARENA_BERSERK_LINES
        played.append(ArenaGame(result, game.berserk[seat], long_enough))
    sheet = score_sheet(played)
    return list(zip([g.id for g in mine], sheet.games, strict=True))


def violations(
    games: list[StoredGame],
    standings: list[dict[str, Any]],
    name_of: dict[str, str],
    ends_ms: int,
) -> list[str]:
    """What the stored games and the standings (GET /api/arenas/{id}) break of the
    arena's rules; ``name_of``: every player's id → their (unique) name."""
    problems: list[str] = []
    by_player: dict[str, list[StoredGame]] = defaultdict(list)
    for game in sorted(games, key=played_order):
        if game.seats[0] == game.seats[1]:
            problems.append(f"{game.id}: a player against themselves")
        for player in game.seats:
            by_player[player].append(game)
        if game.started_ms >= ends_ms:
            problems.append(f"{game.id} started {game.started_ms - ends_ms} ms after the end")
    # Never two games at once: each game of a player started after the previous ended.
    for player, mine in by_player.items():
        for before, after in zip(mine, mine[1:], strict=False):
            if before.ended_ms is None or after.started_ms < before.ended_ms:
                problems.append(f"{player} in {before.id} and {after.id} at once")
    # The sheets: each counted game on exactly its two players' sheets, nothing else.
    rows = {row["name"]: row for row in standings}
    sheets: dict[str, int] = defaultdict(int)
    for row in standings:
        for line in row["games"]:
            sheets[line["game_id"]] += 1
    for game in games:
        want = 2 if counted(game, ends_ms) else 0
        on = sheets.pop(game.id, 0)
        if on != want:
            problems.append(f"{game.id} on {on} sheets, not {want}")
    problems += [f"{gid}: on a sheet, not a stored game of the arena" for gid in sheets]
    # The points: recomputed from each stored game.
    for player, name in name_of.items():
        standing = rows.get(name)
        if standing is None:
            problems.append(f"{name} not in the standings")
            continue
        scored = recomputed(games, player, ends_ms)
        shown = [(line["game_id"], line["points"]) for line in standing["games"]]
        if shown != [(gid, s.points) for gid, s in scored]:
            problems.append(f"{name}: sheet {shown} != recomputed {scored}")
        if standing["score"] != sum(s.points for _, s in scored):
            problems.append(f"{name}: score {standing['score']} != recomputed")
    # Previous opponents meet again only when nobody else is free (or playing).
    for game in games:
        start = game.started_ms
        a, b = game.seats
        if last_opponent(a, by_player[a], game) != b and last_opponent(b, by_player[b], game) != a:
            continue
        running_then = {
            p
            for g in games
            if g.started_ms < start and (g.ended_ms is None or g.ended_ms > start)
            for p in g.seats
        }
        others = [p for p in name_of if p not in running_then and p not in (a, b)]
        if running_then or others:
            problems.append(
                f"{game.id}: {a} and {b} met again while {len(others)} other players were free "
                f"and {len(running_then)} playing"
            )
    return problems


def last_opponent(player: str, mine: list[StoredGame], game: StoredGame) -> str | None:
    """The player's opponent in the game they played before ``game``; ``mine``: their
    games in played order."""
    at = mine.index(game)
    if at == 0:
        return None
    before = mine[at - 1].seats
    return before[1 - before.index(player)]


def rematches(games: list[StoredGame]) -> int:
    """How many games paired two players whose previous games were against each other."""
    by_player: dict[str, list[StoredGame]] = defaultdict(list)
    for game in sorted(games, key=played_order):
        for player in game.seats:
            by_player[player].append(game)
    return sum(
        1 for g in games if last_opponent(g.seats[0], by_player[g.seats[0]], g) == g.seats[1]
    )


# --- the crowd ----------------------------------------------------------------------------


@dataclass
class Match:
    """One arena game as the script drives it."""

    id: str
    seated: dict[int, Any] = field(default_factory=dict)  # seat → Player
    version: int = 0
    turn: int | None = 0
    lines: int = 0
    over: bool = False
    berserk: set[int] = field(default_factory=set)  # seats that berserk before a line
    resign: tuple[int, int] | None = None  # (seat, after this many lines in all)

    def take(self, answer: dict[str, Any]) -> None:
        self.version = answer["version"]
        self.turn = answer["view"]["turn"]
        self.lines = len(answer["view"]["lines"])
        self.over = answer["status"] != "active"


def plan(match: Match, rng: random.Random) -> None:
    match.berserk = {seat for seat in (0, 1) if rng.random() < 0.25}
    kind = rng.random()
    if kind < 0.1:
        match.resign = (rng.randrange(2), 0)  # before any line: aborted
    elif kind < 0.75:
        match.resign = (rng.randrange(2), rng.randrange(2, 16))
    # else played on: to the board's end or a flag


def act(match: Match) -> None:
    """One action in the game: a berserk, a resignation or the mover's line."""
    if match.turn is None or match.over:
        return
    mover = match.seated[match.turn]
    url = f"/api/games/{match.id}"
    if match.turn in match.berserk:
        match.berserk.discard(match.turn)
        answer = mover.post(f"{url}/berserk")
        if answer.status_code == 200:
            match.take(answer.json())
            return
    if match.resign is not None and match.lines >= match.resign[1]:
        resigner = match.seated[match.resign[0]]
        answer = resigner.move(match.id, match.version, {"type": "resign"})
    else:
        try:
            line = next_line(mover._ok_get, match.id)
        except IllegalMove:  # a clock ran out meanwhile (the flag is in the log)
            match.take(mover.get(url).json())
            return
        answer = mover.move(match.id, match.version, line)
    if answer.status_code == 200:
        match.take(answer.json())
    else:  # ended meanwhile (a flag), or a version behind: read it again
        match.take(mover.get(url).json())


@pytest.mark.slow  # a 19 s crowd: make test runs it, make check leaves it out
def test_forty_players_through_a_bullet_arena(make_client: Any, players: Any, clock: Any) -> None:
    began = time.monotonic()
    client = make_client()
    names = [f"crowd{i:02d}" for i in range(PLAYERS)]
    crowd = named(players, client, *names)
    arena = make_arena(crowd[0], minutes=MINUTES, clock="1+1")
    arena_id, ends_ms = arena["id"], arena["ends_at"]
    for player in crowd:
        assert player.post(f"/api/arenas/{arena_id}/join").status_code == 200
    rng = random.Random(20261118)
    matches: dict[str, Match] = {}
    playing: dict[str, Match] = {}  # player id → the match under way
    while clock.ms < ends_ms + 2 * STEP_MS:
        for player in crowd:
            if player.id in playing:
                continue
            game_id = arena_of(player, arena_id)["me"]["game_id"]
            if game_id is None or (game_id in matches and matches[game_id].over):
                continue
            match = matches.get(game_id)
            if match is None:
                match = matches[game_id] = Match(game_id)
                plan(match, rng)
            snapshot = player.get(f"/api/games/{game_id}").json()
            match.seated[snapshot["seat"]] = player
            match.take(snapshot)
            playing[player.id] = match
        for match in list(matches.values()):
            if len(match.seated) == 2 and not match.over:
                act(match)
            if match.over:
                for player in match.seated.values():
                    if playing.get(player.id) is match:
                        del playing[player.id]
        clock.advance(STEP_MS)
    # Time is up: the games still running end now, after the arena, and count for nothing.
    late = [m for m in matches.values() if not m.over]
    for match in late:
        resigner = match.seated.get(0) or match.seated[1]
        game = resigner.get(f"/api/games/{match.id}").json()
        if game["status"] == "active":
            assert resigner.move(match.id, game["version"], {"type": "resign"}).status_code == 200
    time.sleep(0.3)  # a director's turn or more: nobody is paired any more
    assert all(arena_of(p, arena_id)["me"]["game_id"] is None for p in crowd)
    played_s = time.monotonic() - began

    fresh = make_client()
    (reader,) = players(fresh, "reader")
    answer = arena_of(reader, arena_id)
    assert answer["status"] == "over"
    rows = fresh.portal.call(fresh.app.state.services.store.arena_games, arena_id)
    assert {row.id for row in rows} == set(matches)  # the script saw every game
    games = [
        stored_game(
            {"id": row.id, "seats": row.seats, "started_ms": row.started_ms},
            reader.get(f"/api/games/{row.id}").json(),
        )
        for row in rows
    ]
    name_of = {p.id: name.title() for p, name in zip(crowd, names, strict=True)}
    assert violations(games, answer["standings"], name_of, ends_ms) == []
    # The script did what it meant to: many games, each kind of end, berserk wins, fire,
    # games still running at the end (uncounted).
    assert len(games) >= 60, len(games)
    lines = [line for row in answer["standings"] for line in row["games"]]
    results = {line["result"] for line in lines}
    assert results == {"win", "loss", "draw", "aborted"} or results >= {"win", "loss", "aborted"}
    assert any(line["berserk"] and line["points"] in (3, 5) for line in lines)
    assert any(line["fire"] for line in lines)
    assert late and all(not counted(g, ends_ms) for g in games if g.id in {m.id for m in late})
    print(
        f"\n{len(games)} games ({len(late)} uncounted, {rematches(games)} rematches), "
        f"{sum(g.lines[0] + g.lines[1] for g in games)} lines, played in {played_s:.1f} s"
    )


def test_a_game_s_end_is_told_when_nobody_is_paired(make_client: Any, players: Any) -> None:
    """Alice beats Bob while Carol and Dave still play: Alice and Bob are each other's
    last opponents, so nobody is paired; the arena socket still gets the new standings
    (docs/wire.md: "again whenever the arena changes (… a game's end …)")."""
    client = make_client()
    alice, bob, carol, dave = named(players, client, "alice", "bob", "carol", "dave")
    arena_id = make_arena(alice)["id"]
    for player in (alice, bob):
        player.post(f"/api/arenas/{arena_id}/join")
    first = paired(alice, arena_id)
    for player in (carol, dave):
        player.post(f"/api/arenas/{arena_id}/join")
    paired(carol, arena_id)
    with dave.websocket(f"/ws/arenas/{arena_id}") as socket:
        assert socket.receive_json()["type"] == "standings"
        both_draw((alice, bob), first)
        resign(bob, first)
        time.sleep(1.0)  # the director's turns (every 100 ms) and the socket's 500 ms
        socket.send_text('{"type": "ping"}')  # the pong closes what came meanwhile
        frames = []
        while (frame := socket.receive_json())["type"] != "pong":
            frames.append(frame)
        assert frames, "the game's end was not told"
        rows = {row["name"]: row for row in frames[-1]["arena"]["standings"]}
        assert (rows["Alice"]["score"], rows["Alice"]["playing"]) == (2, False)
        assert arena_of(dave, arena_id)["me"]["game_id"] is not None
