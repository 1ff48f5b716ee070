"""Exact predicates: orientation, proper crossing, passing near a star."""

from __future__ import annotations

from engines.triangles.geometry import orient, passes_near, segments_cross


def test_orientation_signs() -> None:
    assert orient((0, 0), (10, 0), (5, 5)) == 50
    assert orient((0, 0), (10, 0), (5, -5)) == -50
    assert orient((0, 0), (10, 0), (20, 0)) == 0  # collinear beyond the end
    assert orient((0, 0), (10, 0), (5, 0)) == 0  # collinear between


def test_proper_crossing() -> None:
    assert segments_cross((0, 0), (10, 10), (0, 10), (10, 0))
    assert segments_cross((0, 10), (10, 0), (0, 0), (10, 10))  # symmetric


def test_shared_end_star_is_not_a_crossing() -> None:
    assert not segments_cross((0, 0), (10, 0), (0, 0), (0, 10))
    assert not segments_cross((0, 0), (10, 0), (10, 0), (20, 5))


def test_disjoint_and_parallel_segments_do_not_cross() -> None:
    assert not segments_cross((0, 0), (10, 0), (0, 5), (10, 5))
    assert not segments_cross((0, 0), (10, 10), (20, 0), (11, 9))  # would meet beyond the end


def test_collinear_segments_are_not_proper_crossings() -> None:
    assert not segments_cross((0, 0), (10, 0), (5, 0), (20, 0))  # overlapping
    assert not segments_cross((0, 0), (10, 0), (11, 0), (20, 0))  # apart


def test_t_junction_is_not_a_proper_crossing() -> None:
    # (5, 0) lies on the first segment: the rules refuse such a line as through_star
    assert not segments_cross((0, 0), (10, 0), (5, 0), (5, 10))
    assert not segments_cross((0, 0), (10, 0), (5, -10), (5, 0))


def test_touching_at_a_point_of_the_other_is_not_a_crossing() -> None:
    assert not segments_cross((0, 0), (10, 10), (5, 5), (5, 20))


def test_passes_near_exactly_at_the_tolerance_border() -> None:
    # a horizontal segment, a star 3 above its middle: distance exactly 3
    assert passes_near((0, 0), (100, 0), (50, 3), 3)
    assert not passes_near((0, 0), (100, 0), (50, 4), 3)
    assert not passes_near((0, 0), (100, 0), (50, 3), 2)


def test_passes_near_on_a_slanted_segment() -> None:
    # segment (0,0)-(30,40) has length 50; the point (4,-3) is at distance 5 from its line
    # but beyond its start: the distance to the segment is to (0,0), also 5
    assert passes_near((0, 0), (30, 40), (4, -3), 5)
    assert not passes_near((0, 0), (30, 40), (4, -3), 4)
    # (19, 17): cross = 30*17 - 40*19 = -250, distance 250 / 50 = 5 alongside
    assert passes_near((0, 0), (30, 40), (19, 17), 5)
    assert not passes_near((0, 0), (30, 40), (19, 17), 4)


def test_passes_near_beyond_the_ends_uses_the_end_distance() -> None:
    assert not passes_near((0, 0), (100, 0), (104, 0), 3)  # on the line, 4 past the end
    assert passes_near((0, 0), (100, 0), (103, 0), 3)
    assert passes_near((0, 0), (100, 0), (-2, 2), 3)  # distance √8 < 3 from the start

