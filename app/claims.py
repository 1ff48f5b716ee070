"""Claiming the win from an absent opponent (a Triangles rule, hosted generically).

The engine owns the grace period (``Engine.claim_after_ms``): its rules refuse a claim
before the player to move has been silent that long, its view tells the page when to
offer one, and this policy uses the same period for absence: the opponent must also
have had no socket open for all of it. One number, so the page never offers a claim the
server refuses.
"""

from __future__ import annotations

from redis.exceptions import RedisError

from app.catalog import AnyEngine
from app.clock import Clock
from app.errors import AppError
from app.models import COMPUTER, Game
from app.presence import Presence
from engines.core.errors import AppCode


class ClaimPolicy:
    def __init__(self, presence: Presence, clock: Clock) -> None:
        self.presence = presence
        self.clock = clock

    async def check(self, game: Game, engine: AnyEngine, mine: list[int]) -> None:
        """Refuse (409 ``opponent_present``) unless every opponent has been away for the
        engine's whole grace period; engines without claims refuse the move themselves."""
        grace_ms = engine.claim_after_ms
        if grace_ms is None:
            return
        try:
            seats = await self.presence.seats(game.id, len(game.seats), self.clock.now_ms())
        except (RedisError, OSError):
            raise AppError(
                AppCode.OPPONENT_PRESENT, "presence is unknown right now: a win by absence waits"
            ) from None
        for seat, presence in enumerate(seats):
            if seat in mine or game.seats[seat] == COMPUTER:
                continue
            recently = presence.away_ms is not None and presence.away_ms < grace_ms
            if presence.connected or recently:
                raise AppError(
                    AppCode.OPPONENT_PRESENT,
                    f"you can claim the win after your opponent has been away "
                    f"for {grace_ms // 1000} seconds",
                )
