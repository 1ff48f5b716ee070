"""Rated play that a script cannot buy (the README's "Rated play", after lichess).

Who may play rated:
- A player with a name and ``MIN_FINISHED`` finished games of that game, each with at
  least ``MIN_OWN_MOVES`` moves of their own against another player or the computer
  (hot-seat games, both seats on one device, never count), checked when a rated game is
  created, joined or sought. Each such request also notes the player's address.

Which rated games count (decided in the transaction that ends the game,
``app.store.ratings``, after both rating rows are locked, so no race slips past):
- A game that ends before every seat has played a move of its own is aborted.
- The same two players count at most ``PAIR_LIMIT`` games together a day.
- Two players seen at one address in the last day (a family, a school, or one person's
  puppets) count at most ``SHARED_ADDRESS_LIMIT`` such games a day each.

What a counted game moves:
- A player's first ``PLACEMENT_GAMES`` counted games in a pool are placement games: they
  move only that player's own rating, and only against an opponent already placed. So a
  newcomer's result never moves anyone else, and two newcomers move nobody.

Who is shown where:
- A rating whose deviation is ``PROVISIONAL_RD`` or more is provisional, shown with "?".
- The leaderboard lists established players only: ``BOARD_MIN_GAMES`` counted games in
  the pool, a deviation under ``BOARD_MAX_RD``, a counted game in the last
  ``BOARD_RECENT_MS`` and ``BOARD_MIN_OPPONENTS`` different opponents.

Farming needs fresh puppets that lose; from one address, a puppet can be placed only by
more shared-address games in a day than are counted, so none of its losses moves the
farmer (``bench/farm.py``).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
from typing import TYPE_CHECKING

from app.errors import AppError
from engines.core.errors import AppCode

if TYPE_CHECKING:
    from app.clock import Clock
    from app.store import Store

DAY_MS = 86_400_000

MIN_FINISHED = 5
MIN_OWN_MOVES = 5
NOT_PLAYED = ("resign", "claim")  # log entries that are not moves of the game itself

PAIR_LIMIT = 3
PAIR_WINDOW_MS = DAY_MS
SHARED_ADDRESS_LIMIT = 3
ADDRESS_WINDOW_MS = DAY_MS
PLACEMENT_GAMES = 5

PROVISIONAL_RD = 110.0
BOARD_MIN_GAMES = 20
BOARD_MAX_RD = 80.0
BOARD_RECENT_MS = 7 * DAY_MS
BOARD_MIN_OPPONENTS = 5

# What the leaderboard page says of its rules.
BOARD_RULES = {
    "games": BOARD_MIN_GAMES,
    "days": BOARD_RECENT_MS // DAY_MS,
    "opponents": BOARD_MIN_OPPONENTS,
    "placement": PLACEMENT_GAMES,
}

# Why a rated game's end changed no rating (``outcome.unrated``).
ABORTED = "aborted"
PAIR_LIMITED = "pair_limit"
SHARED_ADDRESS = "shared_address"


def provisional(rd: float) -> bool:
    return rd >= PROVISIONAL_RD


def placed(counted_games: int) -> bool:
    """Whether a player with this many counted games in a pool moves others' ratings."""
    return counted_games >= PLACEMENT_GAMES


def address_key(secret: str, address: str) -> str:
    """A keyed hash of a client address, so no address is ever stored. IPv6 clients are
    taken by their /64 (one household's or one host's share of addresses)."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        canonical = address
    else:
        if isinstance(parsed, ipaddress.IPv6Address):
            mapped = parsed.ipv4_mapped
            canonical = str(mapped or ipaddress.IPv6Network(f"{parsed}/64", strict=False))
        else:
            canonical = str(parsed)
    digest = hmac.new(secret.encode(), f"address:{canonical}".encode(), hashlib.sha256)
    return digest.hexdigest()[:32]


class RatedAdmission:
    def __init__(self, store: Store, clock: Clock, secret: str) -> None:
        self.store = store
        self.clock = clock
        self.secret = secret

    async def check(self, player_id: str, engine: str, address: str) -> None:
        """Refuse (403) a player who may not play rated yet, saying what is missing;
        note the address of one who may."""
        name, finished = await self.store.rated_standing(
            player_id, engine, MIN_FINISHED, MIN_OWN_MOVES
        )
        if not name:
            raise AppError(AppCode.RATED_NEEDS_NAME, "choose a name before you play rated games")
        if finished < MIN_FINISHED:
            raise AppError(
                AppCode.RATED_NEEDS_GAMES,
                f"finish {MIN_FINISHED} games of at least {MIN_OWN_MOVES} moves of your own "
                f"against another player or the computer before you play rated ones "
                f"({finished} so far)",
                details={"finished": finished, "needed": MIN_FINISHED, "moves": MIN_OWN_MOVES},
            )
        await self.store.note_rated_address(
            player_id, address_key(self.secret, address), self.clock.now_ms()
        )
