"""The view: fixed keys, and previews that are exactly what a placement would do."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from blocks_support import CLASSIC10, SHAPES48, make_state

from engines.blocks import ENGINE
from engines.blocks.final import tip
from engines.blocks.params import Params
from engines.blocks.rulesets import ruleset_of
from engines.blocks.shapes import CLASSIC10_SHAPES
from engines.blocks.shapes import SHAPES48 as SHAPES
from engines.core.protocol import IllegalMove
from engines.core.rng import Rng

FIXED_KEYS = {"grid", "hand", "score", "combo"}
BASE_KEYS = {"over", "turn", "scores", "record_key"}  # ViewBase: what the platform reads
MORE_KEYS = {
    "ruleset", "mode", "rotation", "rows", "cols", "kinds", "tokens", "can_new_set",
    "can_rotate", "can_continue", "lines_cleared", "best_combo", "placements", "stuck",
    "combo_label", "clock", "final", "counts_for_record",
    "counts_lines", "shows_combo",
}


def test_view_of_a_new_game() -> None:
    view = ENGINE.view(ENGINE.new_game(CLASSIC10, 12345678), 0)
    assert set(view) == FIXED_KEYS | BASE_KEYS | MORE_KEYS
    assert (view["over"], view["turn"], view["scores"]) == (False, 0, [0])
    assert view["grid"] == [[0] * 10] * 10
    assert (view["rows"], view["cols"], view["kinds"]) == (10, 10, 9)
    assert [h["name"] for h in view["hand"]] == ["bar3_v", "corner5_tr", "square2"]
    first = view["hand"][0]
    assert first["cells"] == [[0, 0], [1, 0], [2, 0]] and first["kind"] == 3
    assert first["fits"] is True and first["placeable"] is True
    assert len(first["placements"]) == 8 * 10
    assert first["placements"][0] == {"row": 0, "col": 0,
                                      "clears": {"rows": [], "cols": []}, "points": 3}
    assert view["final"] is None and view["clock"] is None and view["tokens"] == 1
    json.dumps(view)  # plain JSON
    assert ENGINE.view(ENGINE.new_game(CLASSIC10, 12345678), None) == view


def test_placed_pieces_are_null_in_the_hand() -> None:
    state = make_state(SHAPES48, None, None, "single", None)
    hand = ENGINE.view(state, 0)["hand"]
    assert hand[0] is None and hand[2] is None and hand[1]["name"] == "single"


def check_previews(state: object) -> int:
    """Every anchor of every piece: legal iff previewed, with the previewed result."""
    view = ENGINE.view(state, 0)
    rules = ruleset_of(state.params)  # type: ignore[attr-defined]
    checked = 0
    for slot, entry in enumerate(view["hand"]):
        if entry is None:
            continue
        previews = {(p["row"], p["col"]): p for p in entry["placements"]}
        for row in range(rules.grid.rows):
            for col in range(rules.grid.cols):
                move = ENGINE.parse_move({"type": "place", "piece": slot, "row": row, "col": col})
                try:
                    _, events = ENGINE.apply(state, move, 0)  # type: ignore[arg-type]
                except IllegalMove:
                    assert (row, col) not in previews
                    continue
                preview = previews[(row, col)]
                cleared = [e for e in events if e["type"] == "cleared"]
                lines = cleared[0] if cleared else {"rows": [], "cols": []}
                assert preview["clears"] == {"rows": lines["rows"], "cols": lines["cols"]}
                assert preview["points"] == events[0]["points"]
                checked += 1
        assert len(previews) == len(entry["placements"])  # no anchor twice
        assert entry["fits"] == bool(previews)
    return checked


@pytest.mark.parametrize(
    "params",
    [Params("classic10"), Params("shapes48"), Params("shapes48", "zen"), Params("gravity8"),
     Params("gravity8", rotation=True)],
)
def test_previews_match_the_placements(params: Params) -> None:
    rules = ruleset_of(params)
    rng = Rng(2024)
    checked = 0
    for trial in range(12):
        # A random half-full board without full lines, and random combo state.
        board = 0
        for cell in range(rules.grid.size):
            if rng.below(100) < 20 + 3 * trial:
                board |= 1 << cell
        for line in rules.grid.lines():
            if board & line.mask == line.mask:
                board &= ~(line.mask & -line.mask)
        colours = tuple(1 if board >> i & 1 else 0 for i in range(rules.grid.size))
        hand = tuple(rng.below(len(rules.shapes)) for _ in range(3))
        state = replace(ENGINE.new_game(params, trial), board=board, colours=colours,
                        hand=hand, combo=rng.below(6), misses=rng.below(3))
        checked += check_previews(state)
    # And boards one move from clearing the grid, or several lines with a cleared grid.
    size = rules.grid.cols
    bar = "i_h" if size == 8 else "bar4_h" if params.ruleset == "classic10" else "line4_h"
    for rows in (
        ["...." + "#" * (size - 4)] + ["." * size] * (size - 1),
        ["...." + "#" * (size - 4)] * 2 + ["." * size] * (size - 2),
    ):
        state = make_state(params, rows, bar, bar, bar, combo=2)
        checked += check_previews(state)
    assert checked > 150


def test_view_over_has_no_placements() -> None:
    state = make_state(SHAPES48, None, "single", "square3", end_reason="finished")
    view = ENGINE.view(state, 0)
    assert view["over"] is True and view["stuck"] is False
    assert [h["placements"] for h in view["hand"][:2]] == [[], []]
    assert view["hand"][0]["fits"] is True


def shape(table: tuple, name: str) -> object:  # type: ignore[type-arg]
    return next(s for s in table if s.name == name)


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        ([], {"code": "keep_open"}),
        (["single"], {"code": "keep_open"}),
        (["square3"], {"code": "keep_square", "size": 3}),
        (["bar5_h"], {"code": "keep_row", "length": 5}),
        (["bar4_v"], {"code": "keep_col", "length": 4}),
        (["corner5_tl"], {"code": "keep_area", "rows": 3, "cols": 3}),
        (["corner3_tr", "bar5_h"], {"code": "keep_row", "length": 5}),
        (["corner5_tl", "square3"], {"code": "keep_square", "size": 3}),
        (["bar2_h", "square2"], {"code": "keep_square", "size": 2}),
    ],
)
def test_tip_from_the_stuck_pieces(names: list[str], expected: dict[str, object]) -> None:
    assert tip([shape(CLASSIC10_SHAPES, n) for n in names]) == expected  # type: ignore[misc]


def test_tip_for_rectangles_and_odd_shapes() -> None:
    assert tip([shape(SHAPES, "rect3x2")]) == {"code": "keep_rect", "rows": 3, "cols": 2}  # type: ignore[list-item]
    assert tip([shape(SHAPES, "w")]) == {"code": "keep_area", "rows": 3, "cols": 3}  # type: ignore[list-item]
