"""Active games this process keeps in memory: each one's latest row and state.

A move whose version matches the kept one needs no SELECT, no JSON decoding and no
replay. This is safe because only active games are kept (their seats are settled and
every change bumps the version, so a version names exactly one row and state), rows
are never changed in place (a commit makes a new one), and the commit's version guard
still decides: a process behind another one loses the write, never corrupts it.

A process that serves one player of a match while another process serves the other
follows the other's moves: each published move carries its log entries (``HubMove.step``),
which this process replays on its copy (the engine's ``tick`` and ``apply``, as a stored
log is replayed), so its own player's next move still finds the game here. A copy that
cannot follow (a message missed, the game over) is dropped: the next move reads the row.
A game this process reads while it is active (a socket's first state, after a restart or
on the process that did not start the game) is kept too.

The cache is bounded by memory: a state may hold a board (1.3 MiB and more for a
180-star Triangles field), so each game weighs its engine's ``footprint`` of its state,
and the least recently used games go beyond the budget.

A kept row holds no dumped state (``STATE_NOT_KEPT`` stands in its ``state`` column): the
state object beside it is the game, and a move writes a fresh dump anyway. A dump is a
tree of small lists and dicts, one per line drawn, that would stay alive until the game's
next move; with thousands of games under way those were most of what every young and
middle garbage collection walked (bench/online.py, 2,000 matches over two processes).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

from app.catalog import Catalog
from app.config import Settings
from app.metrics import LIVE_GAMES_DROPPED
from app.models import Game, GameStatus, advanced
from app.wire import HubMove, LogEntry
from engines.core.weighed import WeighedLRU

log = logging.getLogger("app.live")

LIVE_GAMES_BYTES = Settings.model_fields["live_games_mib"].default * 1024 * 1024
ROW_BYTES = 4096  # a game's row: its object, ids, params and seats, with room to spare


class NotKept(Mapping[str, Any]):
    """A kept row's ``state``: reading it is a bug (the state is ``Live.state``), so it
    fails at once rather than answer with an old snapshot."""

    def _refuse(self) -> NoReturn:
        raise LookupError("a live game's row keeps no dumped state: read Live.state")

    def __getitem__(self, key: str) -> Any:
        self._refuse()

    def __iter__(self) -> Iterator[str]:
        self._refuse()

    def __len__(self) -> int:
        self._refuse()


STATE_NOT_KEPT = NotKept()


@dataclass(frozen=True, slots=True)
class Live:
    game: Game  # its ``state`` column is STATE_NOT_KEPT
    state: Any
    weight: int


class LiveGames:
    def __init__(self, catalog: Catalog, budget: int = LIVE_GAMES_BYTES) -> None:
        self.catalog = catalog
        self._games: WeighedLRU[str, Live] = WeighedLRU(budget, _weight, _count_dropped)

    def at_version(self, game_id: str, version: int) -> Live | None:
        """The kept game if it is at exactly ``version``."""
        live = self._games.get(game_id)
        if live is None or live.game.version != version:
            return None
        return live

    def remember(self, game: Game, state: Any) -> None:
        if game.status != GameStatus.ACTIVE:
            self._games.pop(game.id)
            return
        if game.state is not STATE_NOT_KEPT:
            game = advanced(game, {"state": STATE_NOT_KEPT})
        weight = ROW_BYTES + self.catalog.engine(game.engine).footprint([state])
        self._games.put(game.id, Live(game, state, weight))

    def offer(self, game: Game, state: Any) -> None:
        """A game just read from the database (a socket's state, a page): kept, as its
        player's next move here would read it again, unless this process keeps it at that
        version or a later one already (read before a move this process has since seen)."""
        kept = self._games.get(game.id)
        if kept is None or kept.game.version < game.version:
            self.remember(game, state)

    def follow(self, game_id: str, published: HubMove) -> None:
        """Another process's committed move: replayed on the kept copy when it is the one
        the move was made on; a copy that is behind it (a move missed) or that the move
        ends is dropped; one already past it is kept as it is."""
        live = self._games.get(game_id)
        if live is None:
            return
        step = published.step
        if step is not None and live.game.version > published.from_version:
            return  # a late message: this copy holds its move already
        plies = published.version - published.from_version
        state = None
        if step is not None and live.game.version == published.from_version:
            if len(step.entries) == plies:  # else not a commit's: never replayed
                state = self._replayed(game_id, live, step.entries)
        if state is None or step is None:
            self._games.pop(game_id)
            return
        row = {
            "version": published.version,
            "updated_ms": step.updated_ms,
            "deadline_ms": step.deadline_ms,
        }
        self.remember(advanced(live.game, row), state)

    def _replayed(self, game_id: str, live: Live, entries: list[LogEntry]) -> Any | None:
        """The kept state after ``entries`` (a stored log's replay: the clock, then the
        move), or None when they do not replay to a game that goes on."""
        engine = self.catalog.engine(live.game.engine)
        state = live.state
        try:
            for entry in entries:
                state, _ = engine.tick(state, entry.at_ms)
                if entry.move is not None:
                    move = engine.parse_move(entry.move)
                    state, _ = engine.apply(state, move, entry.at_ms, entry.seat or 0)
        except Exception:  # never expected (the mover's engine took these moves): reread
            log.exception("game %s: a move from another process did not replay", game_id)
            return None
        return None if engine.outcome(state) is not None else state

    def forget(self, game_id: str) -> None:
        self._games.pop(game_id)

    @property
    def weight(self) -> int:
        return self._games.weight

    def __len__(self) -> int:
        return len(self._games)


def _weight(live: Live) -> int:
    return live.weight


def _count_dropped(_live: Live) -> None:
    LIVE_GAMES_DROPPED.inc()
