"""The piece tables of the three rulesets: pure data, one named shape per row.

A shape is a tuple of ``(row, col)`` cells, normalised so that the smallest row and the
smallest column are 0. Its ``kind`` is a colour id (1..N within its table) shared by a
family, so the browser can colour a family alike. Every table's order is fixed forever:
dealing draws by position, so reordering a table would change every game number's deal.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

Cells = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Shape:
    name: str
    cells: Cells
    kind: int  # colour / family id, 1..N
    size: int = field(init=False, compare=False)
    height: int = field(init=False, compare=False)
    width: int = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", len(self.cells))
        object.__setattr__(self, "height", 1 + max(r for r, _ in self.cells))
        object.__setattr__(self, "width", 1 + max(c for _, c in self.cells))


def normalise(cells: Iterable[tuple[int, int]]) -> Cells:
    cells = list(cells)
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return tuple(sorted((r - top, c - left) for r, c in cells))


def rotate_clockwise(cells: Cells) -> Cells:
    """A quarter turn clockwise: (r, c) -> (c, height - 1 - r), normalised."""
    height = 1 + max(r for r, _ in cells)
    return normalise((c, height - 1 - r) for r, c in cells)


def parse_picture(picture: str) -> Cells:
    """Cells from a picture such as ``"X.X/XXX"`` (rows separated by ``/``)."""
    return normalise(
        (r, c)
        for r, line in enumerate(picture.split("/"))
        for c, char in enumerate(line)
        if char == "X"
    )


def bar(length: int, vertical: bool) -> Cells:
    return tuple((i, 0) if vertical else (0, i) for i in range(length))


def square(side: int) -> Cells:
    return tuple((r, c) for r in range(side) for c in range(side))


def quarter_turns(name: str, picture: str, kind: int, suffixes: tuple[str, ...]) -> list[Shape]:
    """A shape and its clockwise quarter turns, named ``name_<suffix>`` in turn order."""
    cells = parse_picture(picture)
    shapes = []
    for suffix in suffixes:
        shapes.append(Shape(f"{name}_{suffix}", cells, kind))
        cells = rotate_clockwise(cells)
    return shapes


# Small corner (3 cells) and big corner (5 cells): the suffix names where the angle is.
CORNER_TURNS = ("tl", "tr", "br", "bl")
SMALL_CORNER = "XX/X."
BIG_CORNER = "XXX/X../X.."

# --- classic10 ---------------------------------------------------------------------------


def _classic10() -> tuple[Shape, ...]:
    """The 19 pieces. A piece's kind is its family's place in the seed's weight table,
    1..9: 1×1, bar2, bar3, bar4, bar5, 2×2, 3×3, small corner, big corner."""
    shapes = [Shape("single", ((0, 0),), 1)]
    for length in range(2, 6):
        shapes.append(Shape(f"bar{length}_h", bar(length, False), length))
        shapes.append(Shape(f"bar{length}_v", bar(length, True), length))
    shapes.append(Shape("square2", square(2), 6))
    shapes.append(Shape("square3", square(3), 7))
    shapes += quarter_turns("corner3", SMALL_CORNER, 8, CORNER_TURNS)
    shapes += quarter_turns("corner5", BIG_CORNER, 9, CORNER_TURNS)
    return tuple(shapes)


CLASSIC10_SHAPES = _classic10()

# --- shapes48 ----------------------------------------------------------------------------
# Kinds (colours) of the 48 shapes, one per family.
SHAPES48_FAMILIES = (
    "single",
    "domino",
    "line3",
    "line4",
    "line5",
    "diagonal",
    "square2",
    "square3",
    "rectangle",
    "corner",
    "l",
    "j",
    "t",
    "s",
    "z",
    "cross",
    "u",
    "big_corner",
    "awkward",
)


def _kind48(family: str) -> int:
    return SHAPES48_FAMILIES.index(family) + 1


def _shapes48() -> tuple[Shape, ...]:
    k = _kind48
    shapes = [
        Shape("single", ((0, 0),), k("single")),
        Shape("domino_h", bar(2, False), k("domino")),
        Shape("domino_v", bar(2, True), k("domino")),
        Shape("line3_h", bar(3, False), k("line3")),
        Shape("line3_v", bar(3, True), k("line3")),
        Shape("line4_h", bar(4, False), k("line4")),
        Shape("line4_v", bar(4, True), k("line4")),
        Shape("line5_h", bar(5, False), k("line5")),
        Shape("line5_v", bar(5, True), k("line5")),
        Shape("diag2_down", parse_picture("X./.X"), k("diagonal")),
        Shape("diag2_up", parse_picture(".X/X."), k("diagonal")),
        Shape("diag3_down", parse_picture("X../.X./..X"), k("diagonal")),
        Shape("diag3_up", parse_picture("..X/.X./X.."), k("diagonal")),
        Shape("square2", square(2), k("square2")),
        Shape("square3", square(3), k("square3")),
        Shape("rect2x3", parse_picture("XXX/XXX"), k("rectangle")),
        Shape("rect3x2", parse_picture("XX/XX/XX"), k("rectangle")),
    ]
    shapes += quarter_turns("corner", SMALL_CORNER, k("corner"), CORNER_TURNS)
    shapes += quarter_turns("l", "X./X./XX", k("l"), ("0", "90", "180", "270"))
    shapes += quarter_turns("j", ".X/.X/XX", k("j"), ("0", "90", "180", "270"))
    shapes += quarter_turns("t", ".X./XXX", k("t"), ("up", "right", "down", "left"))
    shapes += [
        Shape("s_h", parse_picture(".XX/XX."), k("s")),
        Shape("s_v", parse_picture("X./XX/.X"), k("s")),
        Shape("z_h", parse_picture("XX./.XX"), k("z")),
        Shape("z_v", parse_picture(".X/XX/X."), k("z")),
        Shape("cross", parse_picture(".X./XXX/.X."), k("cross")),
    ]
    shapes += quarter_turns("u", "X.X/XXX", k("u"), ("up", "right", "down", "left"))
    shapes += quarter_turns("big_corner", BIG_CORNER, k("big_corner"), CORNER_TURNS)
    shapes += [
        Shape("big_t", parse_picture("XXX/.X./.X."), k("awkward")),
        Shape("w", parse_picture("X../XX./.XX"), k("awkward")),
    ]
    return tuple(shapes)


SHAPES48 = _shapes48()

# --- gravity8 ----------------------------------------------------------------------------
# The seven tetrominoes in every distinct position (19); the kind is the letter's position.
TETROMINO_LETTERS = ("I", "O", "T", "S", "Z", "J", "L")


def _tetrominoes() -> tuple[Shape, ...]:
    turns = ("0", "90", "180", "270")
    return (
        Shape("i_h", bar(4, False), 1),
        Shape("i_v", bar(4, True), 1),
        Shape("o", square(2), 2),
        *quarter_turns("t", ".X./XXX", 3, ("up", "right", "down", "left")),
        Shape("s_h", parse_picture(".XX/XX."), 4),
        Shape("s_v", parse_picture("X./XX/.X"), 4),
        Shape("z_h", parse_picture("XX./.XX"), 5),
        Shape("z_v", parse_picture(".X/XX/X."), 5),
        *quarter_turns("j", ".X/.X/XX", 6, turns),
        *quarter_turns("l", "X./X./XX", 7, turns),
    )


TETROMINOES = _tetrominoes()


def rotation_table(shapes: tuple[Shape, ...]) -> tuple[int, ...]:
    """For each shape index, the index of the same shape turned 90° clockwise."""
    index = {shape.cells: i for i, shape in enumerate(shapes)}
    return tuple(index[rotate_clockwise(shape.cells)] for shape in shapes)
