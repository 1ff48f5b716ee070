"""The final card: the numbers of a finished game, the pieces that were stuck, and a tip.

The tip is a stable code with its numbers as data (the browser words it):
``keep_row`` {length}, ``keep_col`` {length}, ``keep_square`` {size}, ``keep_rect`` {rows,
cols}, ``keep_area`` {rows, cols} (the box of an irregular piece), ``keep_open`` (nothing
in particular: the grid was simply too full).
"""

from __future__ import annotations

from typing import Literal, NotRequired, cast

from typing_extensions import TypedDict

from engines.blocks.events import BlocksPiece, BlocksReason
from engines.blocks.play import piece_json, placeable
from engines.blocks.rulesets import Ruleset
from engines.blocks.shapes import Shape
from engines.blocks.state import State
from engines.core.protocol import closed


@closed
class BlocksTip(TypedDict):
    """Which room to keep free: ``code`` and the numbers it words."""

    code: Literal["keep_open", "keep_row", "keep_col", "keep_square", "keep_rect", "keep_area"]
    length: NotRequired[int]
    size: NotRequired[int]
    rows: NotRequired[int]
    cols: NotRequired[int]


@closed
class BlocksFinal(TypedDict):
    """The final card of a finished game (the view's ``final``)."""

    reason: BlocksReason
    score: int
    lines: int
    best_combo: int
    placements: int
    time_ms: int
    stuck: list[BlocksPiece]
    tip: BlocksTip


def stuck_pieces(rules: Ruleset, state: State) -> list[int]:
    """The pieces left in hand that fit nowhere (in no orientation, with rotation on)."""
    return [piece for _, piece in state.remaining() if not placeable(rules, state.board, piece)]


def tip(shapes: list[Shape]) -> BlocksTip:
    """Keep free the room the hardest stuck piece needs: the one with the largest box
    (ties: more cells, then the first in hand)."""
    keep: BlocksTip = {"code": "keep_open"}  # a dict literal: mypy checks its keys
    if not shapes:
        return keep
    hardest = max(shapes, key=lambda s: (s.height * s.width, s.size))
    height, width = hardest.height, hardest.width
    if height == 1 and width == 1:
        return keep
    if height == 1:
        keep = {"code": "keep_row", "length": width}
    elif width == 1:
        keep = {"code": "keep_col", "length": height}
    elif hardest.size == height * width and height == width:
        keep = {"code": "keep_square", "size": height}
    elif hardest.size == height * width:
        keep = {"code": "keep_rect", "rows": height, "cols": width}
    else:
        keep = {"code": "keep_area", "rows": height, "cols": width}
    return keep


def final_card(rules: Ruleset, state: State) -> BlocksFinal:
    stuck = stuck_pieces(rules, state)
    return BlocksFinal(
        reason=cast(BlocksReason, state.end_reason),
        score=state.score,
        lines=state.lines,
        best_combo=state.best_combo,
        placements=state.placements,
        time_ms=state.end_ms,
        stuck=[piece_json(rules, piece) for piece in stuck],
        tip=tip([rules.shapes[piece] for piece in stuck]),
    )
