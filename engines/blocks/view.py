"""The view: everything the browser draws, previews included, so it knows no rule.

For each piece in hand the view lists every anchor where it fits, the rows and columns
that placement would clear and the points it would give (ghost, highlight, points).
``BlocksView`` declares it (the engine's ``view_type``).
"""

from __future__ import annotations

from typing import Literal

from typing_extensions import TypedDict

from engines.blocks.final import BlocksFinal, final_card
from engines.blocks.play import can_continue, placeable
from engines.blocks.rulesets import Ruleset
from engines.blocks.scoring import ComboState
from engines.blocks.state import EMPTY, State, colour_rows
from engines.core.bits import bits
from engines.core.protocol import ViewBase, closed

BlocksRuleset = Literal["classic10", "shapes48", "gravity8"]
BlocksMode = Literal["classic", "daily", "zen", "chrono", "hardcore"]


@closed
class BlocksLines(TypedDict):
    """The rows and columns a placement would clear."""

    rows: list[int]
    cols: list[int]


@closed
class BlocksPlacement(TypedDict):
    """Where a piece in hand fits (its top-left cell), what it clears and is worth."""

    row: int
    col: int
    clears: BlocksLines
    points: int


@closed
class BlocksHandPiece(TypedDict):
    """A piece in hand: ``fits`` as it is turned, ``placeable`` in some orientation."""

    name: str
    kind: int
    cells: list[list[int]]
    fits: bool
    placeable: bool
    placements: list[BlocksPlacement]


@closed
class BlocksClock(TypedDict):
    """Chrono's three minutes as of ``as_of_ms``."""

    limit_ms: int
    remaining_ms: int
    as_of_ms: int
    running: bool


@closed
class BlocksView(ViewBase):
    ruleset: BlocksRuleset
    mode: BlocksMode
    rotation: bool
    counts_for_record: bool
    counts_lines: bool
    shows_combo: bool
    rows: int
    cols: int
    kinds: int
    grid: list[list[int]]
    hand: list[BlocksHandPiece | None]
    score: int
    combo: int
    combo_label: int | None
    best_combo: int
    lines_cleared: int
    placements: int
    tokens: int | None
    can_new_set: bool
    can_rotate: bool
    can_continue: bool
    stuck: bool
    clock: BlocksClock | None
    final: BlocksFinal | None


def previews(rules: Ruleset, state: State, piece: int, anchors: int) -> list[BlocksPlacement]:
    """Every placement of ``piece`` as it is now: anchor, lines cleared, points.

    ``anchors`` is where it fits: ``rules.table[piece].fit_anchors(state.board, grid.full)``.
    """
    grid = rules.grid
    placements = rules.table[piece]
    cells = placements.shape.size
    board = state.board
    before = ComboState(state.combo, state.misses)
    points_of: dict[tuple[int, bool], int] = {}
    out: list[BlocksPlacement] = []
    for anchor in bits(anchors):
        after = board | placements.masks[anchor]
        rows, cols, cleared = grid.full_lines(after, placements.touched[anchor])
        lines = len(rows) + len(cols)
        emptied = lines > 0 and after & ~cleared == 0
        key = (lines, emptied)
        points = points_of.get(key)
        if points is None:
            combo = rules.combo.after(before, lines > 0).combo
            points = rules.scorer.points(cells, lines, combo, emptied).total
            points_of[key] = points
        row, col = divmod(anchor, grid.cols)
        # Dict literals in the declared types' context (mypy checks their keys): a
        # view lists every anchor of every piece, and a literal is quicker than a call.
        out.append(
            {"row": row, "col": col, "clears": {"rows": rows, "cols": cols}, "points": points}
        )
    return out


def hand_entry(rules: Ruleset, state: State, piece: int) -> BlocksHandPiece:
    shape = rules.shapes[piece]
    anchors = rules.table[piece].fit_anchors(state.board, rules.grid.full)
    fits = anchors != 0
    moves = previews(rules, state, piece, anchors) if fits and not state.over else []
    return BlocksHandPiece(
        name=shape.name,
        kind=shape.kind,
        cells=[list(c) for c in shape.cells],
        fits=fits,  # in this orientation
        placeable=fits or placeable(rules, state.board, piece),  # in some orientation
        placements=moves,
    )


def build_view(rules: Ruleset, state: State) -> BlocksView:
    grid = rules.grid
    params = rules.params
    hand = [None if piece == EMPTY else hand_entry(rules, state, piece) for piece in state.hand]
    playing = not state.over
    stuck = playing and not any(entry and entry["placeable"] for entry in hand)
    continues = can_continue(rules, state)
    clock = None
    if rules.time_limit_ms is not None:
        as_of = state.end_ms if state.over else state.last_ms
        clock = BlocksClock(
            limit_ms=rules.time_limit_ms,
            remaining_ms=max(0, rules.time_limit_ms - as_of),
            as_of_ms=as_of,
            running=playing,
        )
    return BlocksView(
        over=state.over,
        # Seat 0 may still move in a game that is over when Continue is offered.
        turn=0 if playing or continues else None,
        scores=[state.score],
        record_key=params.record_key,
        ruleset=params.ruleset,
        mode=params.mode,
        rotation=params.rotation,
        counts_for_record=rules.counts_for_record,
        counts_lines=rules.zen,  # the page's big number: lines cleared instead of points
        shows_combo=rules.scorer.combo_label(2) is not None,
        rows=grid.rows,
        cols=grid.cols,
        kinds=max(shape.kind for shape in rules.shapes),
        grid=colour_rows(state.colours, grid),
        hand=hand,
        score=state.score,
        combo=state.combo,
        combo_label=rules.scorer.combo_label(state.combo),
        best_combo=state.best_combo,
        lines_cleared=state.lines,
        placements=state.placements,
        tokens=state.tokens if rules.tokens is not None else None,
        can_new_set=playing and rules.tokens is not None and state.tokens > 0,
        can_rotate=playing and rules.rotations is not None,
        can_continue=continues,
        stuck=stuck,
        clock=clock,
        final=final_card(rules, state) if state.over else None,
    )
