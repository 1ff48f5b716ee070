"""Game time: a stopwatch (both modes) and the timed mode's countdown, paused together.

Engines never read a clock. A :class:`Clock` is a snapshot "at ``as_of_ms`` the game had
run ``elapsed_ms`` (pauses excluded) and the countdown showed ``remaining_ms``" (None in
calm mode, which has no countdown); reading
it at a later ``at_ms`` adds the time passed unless paused. ``at_ms`` values earlier than
the snapshot are read as the snapshot's moment, so time never runs backwards.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Clock:
    as_of_ms: int = 0
    elapsed_ms: int = 0
    remaining_ms: int | None = None  # the countdown; None in calm mode
    paused: bool = False

    def passed(self, at_ms: int) -> int:
        """Running time between the snapshot and ``at_ms``."""
        return 0 if self.paused else max(0, at_ms - self.as_of_ms)

    def remaining_at(self, at_ms: int) -> int | None:
        if self.remaining_ms is None:
            return None
        return self.remaining_ms - self.passed(at_ms)

    def at(self, at_ms: int) -> Clock:
        """The snapshot moved forward to ``at_ms``."""
        passed = self.passed(at_ms)
        return Clock(
            as_of_ms=max(at_ms, self.as_of_ms),
            elapsed_ms=self.elapsed_ms + passed,
            remaining_ms=None if self.remaining_ms is None else self.remaining_ms - passed,
            paused=self.paused,
        )

    def pause(self, at_ms: int) -> Clock:
        return replace(self.at(at_ms), paused=True)

    def resume(self, at_ms: int) -> Clock:
        return Clock(max(at_ms, self.as_of_ms), self.elapsed_ms, self.remaining_ms, False)

    def add_remaining(self, ms: int, cap_ms: int) -> Clock:
        assert self.remaining_ms is not None
        return replace(self, remaining_ms=min(cap_ms, self.remaining_ms + ms))

    def run_out(self) -> Clock:
        """The snapshot at the moment the countdown reached zero (the clock is running)."""
        assert self.remaining_ms is not None
        return Clock(
            as_of_ms=self.as_of_ms + self.remaining_ms,
            elapsed_ms=self.elapsed_ms + self.remaining_ms,
            remaining_ms=0,
            paused=False,
        )
