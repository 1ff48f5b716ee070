"""Rated play that cannot be farmed (the README's "Rated play", after lichess).

- A rated game needs players the site knows: a name, and at least ``MIN_FINISHED``
  finished games of that game (checked when a rated game is created, joined or sought).
- A rated game that ends before every seat has played a move of its own is aborted: it
  changes no rating (a fresh account that joins and resigns gives nothing away).
- The same two players change each other's ratings at most ``PAIR_LIMIT`` times in
  ``PAIR_WINDOW_MS``; further games between them are played unrated. Players behind one
  address (a family, a school) may still play rated: addresses are never compared.

The last two are decided in the transaction that ends the game (``app.store.ratings``),
so they hold under any race; this module holds the numbers and the admission check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.errors import AppError
from engines.core.errors import AppCode

if TYPE_CHECKING:
    from app.store import Store

MIN_FINISHED = 5
PAIR_LIMIT = 3
PAIR_WINDOW_MS = 86_400_000

# Why a rated game's end changed no rating (``outcome.unrated``).
ABORTED = "aborted"
PAIR_LIMITED = "pair_limit"


class RatedAdmission:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def check(self, player_id: str, engine: str) -> None:
        """Refuse (403) a player who may not play rated yet, saying what is missing."""
        name, finished = await self.store.rated_standing(player_id, engine, MIN_FINISHED)
        if not name:
            raise AppError(AppCode.RATED_NEEDS_NAME, "choose a name before you play rated games")
        if finished < MIN_FINISHED:
            raise AppError(
                AppCode.RATED_NEEDS_GAMES,
                f"finish {MIN_FINISHED} games before you play rated ones ({finished} so far)",
                details={"finished": finished, "needed": MIN_FINISHED},
            )
