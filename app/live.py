"""Active games this process keeps in memory: each one's latest row and state.

A move whose version matches the kept one needs no SELECT, no JSON decoding and no
replay. This is safe because only active games are kept (their seats are settled and
every change bumps the version, so a version names exactly one row and state), rows
are never changed in place (a commit makes a new one), and the commit's version guard
still decides: a process behind another one loses the write, never corrupts it.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from app.models import Game, GameStatus

# A state holds its board (up to 1.1 MB for Triangles), so this is bounded like that
# engine's own board cache.
LIVE_GAMES = 1024


@dataclass(frozen=True)
class Live:
    game: Game
    state: Any


class LiveGames:
    def __init__(self, size: int = LIVE_GAMES) -> None:
        self.size = size
        self._games: OrderedDict[str, Live] = OrderedDict()

    def at_version(self, game_id: str, version: int) -> Live | None:
        """The kept game if it is at exactly ``version``."""
        live = self._games.get(game_id)
        if live is None or live.game.version != version:
            return None
        self._games.move_to_end(game_id)
        return live

    def remember(self, game: Game, state: Any) -> None:
        if game.status != GameStatus.ACTIVE:
            self._games.pop(game.id, None)
            return
        self._games[game.id] = Live(game, state)
        self._games.move_to_end(game.id)
        if len(self._games) > self.size:
            self._games.popitem(last=False)

    def forget(self, game_id: str) -> None:
        self._games.pop(game_id, None)
