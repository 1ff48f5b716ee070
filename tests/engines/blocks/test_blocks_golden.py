"""Golden games: fixed numbers deal the same pieces on every machine, forever.

Each case pins the first set of a game number, four placements, the hand, score and grid
after them (kinds as digits, then letters from 10 on: a=10, b=11...).
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from engines.blocks import ENGINE
from engines.blocks.moves import Place


class Golden(NamedTuple):
    number: str
    first_hand: tuple[str, str, str]
    moves: tuple[tuple[int, int, int], ...]
    hand_after: tuple[str | None, ...]
    score_after: int
    grid_after: tuple[str, ...]


GOLDEN = [
    Golden(
        "00000000-a",
        ("single", "single", "bar5_v"),
        ((0, 9, 9), (1, 9, 8), (2, 5, 7), (0, 7, 6)),
        (None, "bar2_v", "bar5_v"),
        10,
        (
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            ".......5..",
            ".......5..",
            "......35..",
            "......35..",
            "......3511",
        ),
    ),
    Golden(
        "12345678-a",
        ("bar3_v", "corner5_tr", "square2"),
        ((0, 7, 9), (1, 7, 6), (2, 8, 6), (0, 9, 5)),
        (None, "square2", "corner3_tr"),
        13,
        (
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "......9993",
            "......6693",
            ".....16693",
        ),
    ),
    Golden(
        "99999999-a",
        ("single", "square2", "bar3_h"),
        ((0, 9, 9), (1, 8, 7), (2, 9, 4), (0, 9, 3)),
        (None, "corner3_br", "bar2_v"),
        9,
        (
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            ".......66.",
            "...1333661",
        ),
    ),
    Golden(
        "00000000-b",
        ("domino_v", "s_h", "u_left"),
        ((0, 8, 9), (1, 8, 6), (2, 7, 4), (0, 8, 0)),
        (None, "z_v", "corner_tl"),
        16,
        (
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "....hh....",
            "55555h.ee2",
            "....hhee.2",
        ),
    ),
    Golden(
        "12345678-b",
        ("u_down", "t_left", "single"),
        ((0, 8, 7), (1, 7, 5), (2, 9, 8), (0, 8, 2)),
        (None, "square3", "corner_tl"),
        16,
        (
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "......d...",
            "..999ddhhh",
            "..999.dh1h",
        ),
    ),
    Golden(
        "99999999-b",
        ("corner_tr", "corner_tl", "corner_tr"),
        ((0, 8, 8), (1, 8, 6), (2, 8, 4), (0, 8, 2)),
        (None, "big_corner_tr", "j_90"),
        13,
        (
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..ffaaaaaa",
            "...ffaa..a",
        ),
    ),
    Golden(
        "00000000-bh",
        ("line4_h", "big_corner_bl", "rect3x2"),
        ((0, 9, 6), (1, 7, 3), (2, 7, 1), (0, 7, 7)),
        (None, "u_down", "s_h"),
        19,
        (
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            ".99i...ddd",
            ".99i....d.",
            ".99iii4444",
        ),
    ),
    Golden(
        "12345678-bh",
        ("corner_bl", "u_down", "u_down"),
        ((0, 8, 8), (1, 8, 5), (2, 8, 2), (0, 8, 0)),
        (None, "big_corner_br", "line4_v"),
        16,
        (
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "a.hhhhhha.",
            "aah.hh.haa",
        ),
    ),
    Golden(
        "99999999-bh",
        ("s_h", "l_180", "square3"),
        ((0, 8, 7), (1, 7, 5), (2, 7, 2), (0, 6, 1)),
        (None, "t_right", "diag3_down"),
        21,
        (
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            ".4........",
            ".4888bb...",
            ".4888.b.ee",
            ".4888.bee.",
        ),
    ),
    Golden(
        "00000000-c",
        ("s_h", "o", "o"),
        ((0, 6, 5), (1, 6, 3), (2, 6, 1), (0, 4, 5)),
        (None, "t_up", "i_v"),
        16,
        (
            "........",
            "........",
            "........",
            "........",
            "......44",
            ".....44.",
            ".2222.44",
            ".222244.",
        ),
    ),
    Golden(
        "12345678-c",
        ("z_v", "j_270", "t_left"),
        ((0, 5, 6), (1, 6, 3), (2, 5, 1), (0, 4, 0)),
        (None, "i_v", "i_v"),
        26,
        (
            "........",
            "........",
            "........",
            "........",
            "........",
            ".5......",
            "553....5",
            "..3..65.",
        ),
    ),
    Golden(
        "99999999-c",
        ("i_v", "j_0", "o"),
        ((0, 4, 7), (1, 5, 5), (2, 6, 3), (0, 6, 0)),
        (None, "o", "s_v"),
        26,
        (
            "........",
            "........",
            "........",
            "........",
            "........",
            ".......1",
            "......61",
            ".3.22.61",
        ),
    ),
    Golden(
        "00000000-cr",
        ("s_h", "o", "o"),
        ((0, 6, 5), (1, 6, 3), (2, 6, 1), (0, 4, 5)),
        (None, "t_up", "i_v"),
        16,
        (
            "........",
            "........",
            "........",
            "........",
            "......44",
            ".....44.",
            ".2222.44",
            ".222244.",
        ),
    ),
    Golden(
        "12345678-cr",
        ("z_v", "j_270", "t_left"),
        ((0, 5, 6), (1, 6, 3), (2, 5, 1), (0, 4, 0)),
        (None, "i_v", "i_v"),
        26,
        (
            "........",
            "........",
            "........",
            "........",
            "........",
            ".5......",
            "553....5",
            "..3..65.",
        ),
    ),
    Golden(
        "99999999-cr",
        ("i_v", "j_0", "o"),
        ((0, 4, 7), (1, 5, 5), (2, 6, 3), (0, 6, 0)),
        (None, "o", "s_v"),
        26,
        (
            "........",
            "........",
            "........",
            "........",
            "........",
            ".......1",
            "......61",
            ".3.22.61",
        ),
    ),
]


def grid_text(view: dict[str, object]) -> tuple[str, ...]:
    rows = view["grid"]
    assert isinstance(rows, list)
    return tuple(
        "".join("." if k == 0 else str(k) if k < 10 else chr(ord("a") + k - 10) for k in row)
        for row in rows
    )


@pytest.mark.parametrize("golden", GOLDEN, ids=[g.number for g in GOLDEN])
def test_golden_game(golden: Golden) -> None:
    params, seed = ENGINE.from_number(golden.number)
    state = ENGINE.new_game(params, seed)
    view = ENGINE.view(state, 0)
    assert tuple(h["name"] for h in view["hand"]) == golden.first_hand
    for at_ms, (piece, row, col) in enumerate(golden.moves, start=1):
        state, _ = ENGINE.apply(state, Place(piece, row, col), 1000 * at_ms)
    view = ENGINE.view(state, 0)
    assert tuple(h and h["name"] for h in view["hand"]) == golden.hand_after
    assert view["score"] == golden.score_after
    assert grid_text(view) == golden.grid_after


@pytest.mark.parametrize("mode", ["daily", "zen", "chrono"])
def test_modes_sharing_the_classic_deal(mode: str) -> None:
    for golden in GOLDEN:
        if golden.number.endswith("-b"):
            seed = int(golden.number[:8])
            params = ENGINE.parse_params({"ruleset": "shapes48", "mode": mode})
            hand = ENGINE.view(ENGINE.new_game(params, seed), 0)["hand"]
            assert tuple(h["name"] for h in hand) == golden.first_hand
