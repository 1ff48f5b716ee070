"""Star fields: golden boards, spacing, and the precomputation against brute force."""

from __future__ import annotations

from itertools import combinations

import pytest
from triangles_helpers import board_from_stars, brute_drawable, brute_scoring_triangles

from engines.triangles import ENGINE
from engines.triangles.board import Board, get_board
from engines.triangles.field import FIELDS, PHONE, TABLET, FieldShape, place_stars


def board_of(number: str) -> Board:
    params, seed = ENGINE.from_number(number)
    return get_board(params.field, params.stars, seed)


# Golden boards: a game number must give these stars on every machine, forever.
GOLDEN = [
    ("00000001-a", 24, 179, [(172, 416), (308, 1412), (401, 543), (63, 1553)], (77, 796)),
    ("41739205-b", 60, 113, [(339, 1457), (406, 1068), (514, 1332), (670, 621)], (700, 337)),
    ("12345678-f", 180, 84, [(198, 553), (930, 760), (1363, 1138), (60, 1427)], (222, 1391)),
    ("99999999-d", 80, 126, [(895, 1917), (106, 433), (710, 373), (808, 705)], (1161, 1371)),
]


@pytest.mark.parametrize(("number", "count", "spacing", "first", "last"), GOLDEN)
def test_golden_boards(
    number: str, count: int, spacing: int, first: list[tuple[int, int]], last: tuple[int, int]
) -> None:
    board = board_of(number)
    assert board.count == count
    assert board.spacing == spacing
    assert list(board.stars[:4]) == first
    assert board.stars[-1] == last


def test_golden_board_geometry() -> None:
    board = board_of("00000001-a")
    assert sum(mask.bit_count() for mask in board.drawable) // 2 == 243
    assert len(board.triangles) == 561


@pytest.mark.parametrize("shape", [PHONE, TABLET])
def test_every_count_is_well_spread_inside_the_margins(shape: FieldShape) -> None:
    for count in shape.counts:
        for seed in (0, 99_999_999):
            stars, spacing = place_stars(shape, count, seed)
            assert len(stars) == count == len(set(stars))
            assert spacing > 2 * shape.tolerance
            closest2 = min(
                (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 for p, q in combinations(stars, 2)
            )
            assert closest2 >= spacing**2
            assert all(
                shape.margin <= x <= shape.width - shape.margin
                and shape.margin <= y <= shape.height - shape.margin
                for x, y in stars
            )


def test_field_shapes() -> None:
    assert (PHONE.width, PHONE.height, PHONE.tolerance) == (1000, 1800, 12)
    assert (TABLET.width, TABLET.height, TABLET.tolerance) == (1500, 2000, 18)
    assert set(FIELDS) == {"phone", "tablet"}


def test_same_seed_same_board_different_seed_different_board() -> None:
    one = Board.generate(PHONE, 60, 7)
    assert one.stars == Board.generate(PHONE, 60, 7).stars
    assert one.stars != Board.generate(PHONE, 60, 8).stars


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_drawable_pairs_match_brute_force(seed: int) -> None:
    board = Board.generate(PHONE, 60, seed)
    for a, b in combinations(range(board.count), 2):
        assert bool(board.drawable[a] >> b & 1) == brute_drawable(board, a, b), (a, b)
        assert bool(board.drawable[b] >> a & 1) == brute_drawable(board, a, b)


@pytest.mark.parametrize(
    ("shape", "count", "seed"), [(PHONE, 24, 1), (PHONE, 24, 2), (TABLET, 80, 3)]
)
def test_scoring_triangles_match_brute_force(shape: FieldShape, count: int, seed: int) -> None:
    board = Board.generate(shape, count, seed)
    among = range(count) if count <= 24 else range(0, count, 3)  # brute force is cubic
    mine = {t for t in board.triangles if set(among).issuperset(t)}
    assert mine == brute_scoring_triangles(board, among)


def test_triangles_on_a_hand_made_grid_with_collinear_stars() -> None:
    # a 3 × 3 grid: many collinear triples, stars on would-be sides
    stars = [(x, y) for y in (100, 200, 300) for x in (100, 200, 300)]
    board = board_from_stars(stars, 400, 400, 0)
    assert set(board.triangles) == brute_scoring_triangles(board)
    assert len(board.triangles) == 32  # the lattice triangles of area 1/2 with no star on them


def test_vertical_pairs_and_equal_x_are_handled() -> None:
    stars = [(100, 100), (100, 300), (100, 500), (300, 300), (300, 100), (500, 300)]
    board = board_from_stars(stars, 600, 600, 3)
    assert set(board.triangles) == brute_scoring_triangles(board)


def test_the_tolerance_must_stay_below_half_the_spacing() -> None:
    with pytest.raises(ValueError):
        board_from_stars([(0, 0), (10, 0)], 100, 100, 5)
    assert board_from_stars([(0, 0), (10, 0)], 100, 100, 4).drawable == (2, 1)


def test_crossings_list_each_crossed_drawable_line_from_both_ends() -> None:
    stars = [(100, 100), (300, 100), (300, 300), (100, 300)]
    board = board_from_stars(stars, 400, 400, 2)
    assert board.crossings(0, 2) == ((1, 1 << 3), (3, 1 << 1))
    assert board.crossings(0, 1) == ()
