"""Front-end budget (issue 23): no JavaScript module over 400 lines, and no game controller
(`static/js/games/<game>/main.js`) over 200: a game page's life is `core/`'s, so a
controller only wires its board, input, HUD and menu to the page."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
JS = ROOT / "static" / "js"
MODULE_LIMIT = 400
CONTROLLER_LIMIT = 200


def lines_of(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_js_module_over_the_limit() -> None:
    sizes = {str(path.relative_to(ROOT)): lines_of(path) for path in JS.rglob("*.js")}
    assert sizes, "no JavaScript found"
    assert {name: n for name, n in sizes.items() if n > MODULE_LIMIT} == {}


def test_every_game_controller_is_small() -> None:
    controllers = {path.parent.name: lines_of(path) for path in (JS / "games").glob("*/main.js")}
    assert set(controllers) >= {"blocks", "pairs", "triangles"}
    assert {game: n for game, n in controllers.items() if n > CONTROLLER_LIMIT} == {}


def test_no_game_extends_a_class_of_another_module() -> None:
    """Composition over inheritance: a game module may extend only core's GameMenu (whose
    content comes in as arguments), never a sibling split off to make a file smaller."""
    offenders = []
    for path in (JS / "games").rglob("*.js"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if " extends " in line and "class " in line and "extends GameMenu" not in line:
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []


def test_every_game_page_runs_on_the_shared_game_page() -> None:
    """Each game's controller builds core's GamePage, and no game module makes a Session of
    its own, keeps the stored game by hand or sets the address itself: the boot, the stored
    current game and the address are core/game-page.js's."""
    games = sorted(path.parent.name for path in (JS / "games").glob("*/main.js"))
    without_page = [
        game for game in games
        if "new GamePage(" not in (JS / "games" / game / "main.js").read_text(encoding="utf-8")
    ]
    assert without_page == []
    offenders = []
    for path in (JS / "games").rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        for needle in ("new Session(", "store.set('current'", "store.get('current'"):
            if needle in text:
                offenders.append(f"{path.relative_to(ROOT)}: {needle}")
    assert offenders == []
