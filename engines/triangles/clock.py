"""Time controls: a clock per player (initial time + increment) or days per move.

Engines never read a clock; every figure here is a function of the ``at_ms`` stamps the
server passes in, so a stored log replays to the same clocks, flag included.

The state keeps, per seat, the time left as of the moment the current turn began
(``State.turn_started_ms``); only the clock of the seat to move runs. Rules:

- Time spent on a move is ``max(0, elapsed - LAG_MS)``: the first ``LAG_MS`` of every
  turn are free. This is the network-lag compensation (up to 300 ms a move), fixed rather
  than measured so it cannot be gamed by a client claiming a slow link and so the page
  can show exactly what the server will charge.
- After a line, the mover gets the increment (``per_move`` controls reset the mover's
  time to the full allowance instead). "Move again" keeps the turn and the same rule
  applies line by line.
- The seat to move flags when its spent time reaches its time left: at
  ``deadline_ms = turn_started_ms + left + LAG_MS``. From then on a tick ends the game
  (``result == "time"``), the other seat wins, and the game's end is stamped with the
  deadline itself, not with when the server noticed.
- Real-time controls start a seat's clock with its first line (as lichess does): until
  it has drawn one, the seat to move is charged nothing and gets no increment, but has
  ``first_line_ms`` (``FIRST_LINE_MS``, 20 s) from the start of its turn (the game's
  start for the first mover, the opponent's first line for the second) to draw it, at
  ``turn_started_ms + first_line_ms + LAG_MS``. From then on a tick aborts the game
  (``result == "aborted"``, no winner; it counts for nothing). Days per move keep their
  own rule: the clock runs from the start, there is no first-line limit.
- Berserk (arena games, real-time controls only): a seat that has not drawn its first
  line may halve its time left (``berserk``: ``left // 2``, exact, as its clock is not
  running yet) and gets no increment for the rest of the game (``after_line(...,
  berserk=True)``).
"""

from __future__ import annotations

from dataclasses import dataclass

LAG_MS = 300
DAY_MS = 86_400_000
FIRST_LINE_MS = 20_000  # real-time controls: the time to draw a first line, or abort


@dataclass(frozen=True)
class TimeControl:
    name: str
    initial_ms: int
    increment_ms: int = 0
    per_move: bool = False  # days per move: each move restores the full allowance
    category: str = "none"  # bullet | blitz | rapid | correspondence (rating pools)
    # The time a seat has for its first line before the game is aborted (its clock
    # does not run until then); None: no such limit, the clock runs from the start.
    first_line_ms: int | None = FIRST_LINE_MS


CONTROLS: dict[str, TimeControl | None] = {
    "none": None,
    "1+1": TimeControl("1+1", 60_000, 1_000, category="bullet"),
    "3+2": TimeControl("3+2", 180_000, 2_000, category="blitz"),
    "5+3": TimeControl("5+3", 300_000, 3_000, category="blitz"),
    "10+5": TimeControl("10+5", 600_000, 5_000, category="rapid"),
    "1d": TimeControl(
        "1d", DAY_MS, per_move=True, category="correspondence", first_line_ms=None
    ),
    "3d": TimeControl(
        "3d", 3 * DAY_MS, per_move=True, category="correspondence", first_line_ms=None
    ),
}


def start(control: TimeControl | None) -> tuple[int, int] | None:
    """Both seats' time at the start of the game."""
    return None if control is None else (control.initial_ms, control.initial_ms)


def spent(since_ms: int, at_ms: int) -> int:
    """Time charged to the seat to move for a turn begun at ``since_ms``."""
    return max(0, at_ms - since_ms - LAG_MS)


def left_at(clocks: tuple[int, int], turn: int, since_ms: int, at_ms: int) -> tuple[int, int]:
    """Both seats' time left at ``at_ms`` (never below zero)."""
    running = max(0, clocks[turn] - spent(since_ms, at_ms))
    return (running, clocks[1]) if turn == 0 else (clocks[0], running)


def deadline(clocks: tuple[int, int], turn: int, since_ms: int) -> int:
    """The ``at_ms`` at which the seat to move runs out of time."""
    return since_ms + clocks[turn] + LAG_MS


def after_line(
    control: TimeControl,
    clocks: tuple[int, int],
    seat: int,
    since_ms: int,
    at_ms: int,
    berserk: bool = False,
) -> tuple[int, int]:
    """Both seats' time once ``seat`` has drawn a line at ``at_ms`` (not flagged); a
    ``berserk`` seat gets no increment."""
    if control.per_move:
        left = control.initial_ms
    else:
        increment = 0 if berserk else control.increment_ms
        left = clocks[seat] - spent(since_ms, at_ms) + increment
    return (left, clocks[1]) if seat == 0 else (clocks[0], left)


def berserk(clocks: tuple[int, int], seat: int) -> tuple[int, int]:
    """Both seats' time once ``seat`` (whose clock is not running) has gone berserk:
    its time left halved, rounded down."""
    left = clocks[seat] // 2
    return (left, clocks[1]) if seat == 0 else (clocks[0], left)


def first_line_deadline(control: TimeControl, since_ms: int) -> int:
    """The ``at_ms`` at which a seat that has drawn no line yet, to move since
    ``since_ms``, has missed its first line (``first_line_ms`` is set)."""
    assert control.first_line_ms is not None
    return since_ms + control.first_line_ms + LAG_MS


def run_out(clocks: tuple[int, int], turn: int) -> tuple[int, int]:
    """The clocks at the flag: the seat to move has nothing left."""
    return (0, clocks[1]) if turn == 0 else (clocks[0], 0)
