"""The final card: the numbers of a finished game, the pieces that were stuck, and a tip.

The tip is a stable code with its numbers as data (the browser words it):
``keep_row`` {length}, ``keep_col`` {length}, ``keep_square`` {size}, ``keep_rect`` {rows,
cols}, ``keep_area`` {rows, cols} (the box of an irregular piece), ``keep_open`` (nothing
in particular: the grid was simply too full).
"""

from __future__ import annotations

from typing import Any

from engines.blocks.play import piece_json, placeable
from engines.blocks.rulesets import Ruleset
from engines.blocks.shapes import Shape
from engines.blocks.state import State


def stuck_pieces(rules: Ruleset, state: State) -> list[int]:
    """The pieces left in hand that fit nowhere (in no orientation, with rotation on)."""
    return [piece for _, piece in state.remaining() if not placeable(rules, state.board, piece)]


def tip(shapes: list[Shape]) -> dict[str, Any]:
    """Keep free the room the hardest stuck piece needs: the one with the largest box
    (ties: more cells, then the first in hand)."""
    if not shapes:
        return {"code": "keep_open"}
    hardest = max(shapes, key=lambda s: (s.height * s.width, s.size))
    height, width = hardest.height, hardest.width
    if height == 1 and width == 1:
        return {"code": "keep_open"}
    if height == 1:
        return {"code": "keep_row", "length": width}
    if width == 1:
        return {"code": "keep_col", "length": height}
    if hardest.size == height * width:
        if height == width:
            return {"code": "keep_square", "size": height}
        return {"code": "keep_rect", "rows": height, "cols": width}
    return {"code": "keep_area", "rows": height, "cols": width}


def final_card(rules: Ruleset, state: State) -> dict[str, Any]:
    stuck = stuck_pieces(rules, state)
    return {
        "reason": state.end_reason,
        "score": state.score,
        "lines": state.lines,
        "best_combo": state.best_combo,
        "placements": state.placements,
        "time_ms": state.end_ms,
        "stuck": [piece_json(rules, piece) for piece in stuck],
        "tip": tip([rules.shapes[piece] for piece in stuck]),
    }
