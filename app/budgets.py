"""Message budgets of sockets: a token bucket per player (shared by their sockets on a
process) or per spectator socket, and each socket's watch for floods (app/ws.py)."""

from __future__ import annotations

import time
from collections.abc import Callable

Now = Callable[[], float]  # seconds on a clock that only goes forward


class TokenBucket:
    """Allows ``rate`` messages a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int, now: Now = time.monotonic) -> None:
        self.rate, self.burst = rate, float(burst)
        self.now = now
        self.tokens, self.at = float(burst), now()

    def take(self) -> bool:
        now = self.now()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class FloodWatch:
    """One socket's refusals per window of ``window_s``: more than ``limit`` in one
    window is a flood (the socket is closed). The count starts again with each window,
    so a client that was told to slow down, and did, is never closed for it later."""

    def __init__(self, limit: int, window_s: float, now: Now = time.monotonic) -> None:
        self.limit, self.window_s = limit, window_s
        self.now = now
        self.started, self.count = now(), 0

    def refused(self) -> bool:
        """Count one refusal; True when this window has had more than ``limit``."""
        now = self.now()
        if now - self.started >= self.window_s:
            self.started, self.count = now, 0
        self.count += 1
        return self.count > self.limit


class MessageBudgets:
    """One message budget per player across all of their sockets on this process (a
    player with many sockets gets no more than one), one per socket for spectators; and
    each socket's own watch for floods: more than three bursts refused within the time a
    burst takes to refill."""

    def __init__(self, rate: float, burst: int, now: Now = time.monotonic) -> None:
        self.rate, self.burst = rate, burst
        self.now = now
        self.shared: dict[str, tuple[TokenBucket, int]] = {}  # player -> (bucket, sockets)

    def join(self, player_id: str | None) -> TokenBucket:
        if player_id is None:
            return TokenBucket(self.rate, self.burst, self.now)
        fresh = TokenBucket(self.rate, self.burst, self.now)
        bucket, users = self.shared.get(player_id, (fresh, 0))
        self.shared[player_id] = (bucket, users + 1)
        return bucket

    def leave(self, player_id: str | None) -> None:
        if player_id is None or player_id not in self.shared:
            return
        bucket, users = self.shared[player_id]
        if users <= 1:
            del self.shared[player_id]
        else:
            self.shared[player_id] = (bucket, users - 1)

    def flood_watch(self) -> FloodWatch:
        return FloodWatch(3 * self.burst, max(1.0, self.burst / self.rate), self.now)
