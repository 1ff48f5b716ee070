"""The browser's code checked against the server's contract, without a browser: TypeScript's
checker (``tsc``, tsconfig.json, as ``make lint`` runs it) over a copy of ``static/js`` whose
``types/api.d.ts`` is generated afresh from the app's OpenAPI document. With a key the
document does not have planted in it (a snapshot's field misspelt in core/session.js, a
socket frame's in core/socket.js, and a game's view or move key in its module, for each
game whose schemas the document publishes) the check fails, naming the file and the line
of each, and nothing else: the copy as it is passes (``make lint``, which ``make test`` and
``make check`` run first, checks it with both tsconfigs). Skipped without Node.js or the
front end's node_modules (``make test`` installs them: npm ci)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TSC = ROOT / "node_modules" / "typescript" / "bin" / "tsc"
OPENAPI_TS = ROOT / "node_modules" / "openapi-typescript" / "bin" / "cli.js"
NODE = shutil.which("node")


def openapi_ts_flags() -> list[str]:
    """The flags the Makefile's `types` target gives openapi-typescript after its output."""
    makefile = (ROOT / "Makefile").read_text("utf-8")
    rule = r"openapi-typescript/bin/cli\.js \$\(OPENAPI\) --output \$@(.*)$"
    line = re.search(rule, makefile, re.MULTILINE)
    assert line, "the Makefile's types target no longer runs openapi-typescript"
    return line.group(1).split()


pytestmark = pytest.mark.skipif(
    NODE is None or not TSC.is_file() or not OPENAPI_TS.is_file(),
    reason="the type check needs Node.js and the front end's node_modules (npm ci; make test does)",
)


@dataclass(frozen=True)
class Plant:
    """A wrong key planted in one module of the copy: ``line`` (unique there) becomes
    ``planted``."""

    module: str  # under static/js
    line: str
    planted: str


# Keys every copy of the site has: the wire's own, in the core modules.
CORE_PLANTS = (
    # a Snapshot's field (server_ms) misspelt where the session takes an answer
    Plant("core/session.js", "if (typeof data.server_ms === 'number') {",
          "if (typeof data.server_mz === 'number') {"),
    # a client frame's field (sync's version) misspelt where the socket sends it
    Plant("core/socket.js", "return this.send({ type: 'sync', version: this.version });",
          "return this.send({ type: 'sync', versoin: this.version });"),
)

# A game's own view or move key, planted once the OpenAPI document publishes its schema (until
# then types/wire.d.ts has the game's alias as `any`, and nothing could catch it).
GAME_PLANTS = {
    "PairsView": Plant("games/pairs/main.js", "board.setTiles(view.tiles);",
                       "board.setTiles(view.tilez);"),
    "BlocksView": Plant("games/blocks/replay.js", "board.setSize(view.rows, view.cols);",
                        "board.setSize(view.rowz, view.cols);"),
    "TrianglesMove": Plant("games/triangles/moves.js", "session.move({ type: 'line', a, b })",
                           "session.move({ type: 'line', a, bee: b })"),
}


def generate_types(folder: Path) -> Path:
    """``make types`` into ``folder``: the OpenAPI document, then its TypeScript."""
    document = folder / "openapi.json"
    subprocess.run([sys.executable, "-m", "app.openapi_dump", str(document)], cwd=ROOT, check=True)
    types = folder / "api.d.ts"
    subprocess.run(
        [NODE or "node", str(OPENAPI_TS), str(document), "--output", str(types),
         *openapi_ts_flags()],
        cwd=ROOT, check=True, capture_output=True,
    )
    return types


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_types(tmp_path_factory.mktemp("openapi"))


def published(types: Path) -> set[str]:
    """The schema names the generated types hold (``components['schemas']``)."""
    text = types.read_text("utf-8")
    schemas = text[text.index("\n    schemas: {"):text.index("\n    responses: ")]
    return set(re.findall(r"^ {8}(\w+): ", schemas, re.MULTILINE))


def site_copy(folder: Path, types: Path, plants: tuple[Plant, ...] = ()) -> dict[Plant, int]:
    """static/js and the tsconfigs copied into ``folder``, the fresh types in place and each
    plant made; → each plant's line number."""
    shutil.copytree(ROOT / "static" / "js", folder / "static" / "js",
                    ignore=shutil.ignore_patterns("api.d.ts"))
    for config in ("tsconfig.json", "tsconfig.workers.json"):
        shutil.copy(ROOT / config, folder / config)
    shutil.copy(types, folder / "static" / "js" / "types" / "api.d.ts")
    lines = {}
    for plant in plants:
        path = folder / "static" / "js" / plant.module
        text = path.read_text("utf-8")
        assert text.count(plant.line) == 1, f"{plant.module} no longer has {plant.line!r} once"
        before, _, _ = text.partition(plant.line)
        lines[plant] = before.count("\n") + 1
        path.write_text(text.replace(plant.line, plant.planted), "utf-8")
    return lines


def tsc(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [NODE or "node", str(TSC), "-p", "tsconfig.json", "--pretty", "false"],
        cwd=folder, capture_output=True, text=True, timeout=300,
    )


def test_a_key_the_schema_lacks_fails_at_its_line(tmp_path: Path, generated: Path) -> None:
    names = published(generated)
    assert {"Snapshot", "ServerFrame", "ClientFrame"} <= names
    plants = CORE_PLANTS + tuple(plant for name, plant in GAME_PLANTS.items() if name in names)
    lines = site_copy(tmp_path, generated, plants)
    checked = tsc(tmp_path)
    assert checked.returncode != 0
    errors = checked.stdout.splitlines()
    for plant, line in lines.items():
        where = f"static/js/{plant.module}({line},"
        assert any(error.startswith(where) for error in errors), (where, checked.stdout)
    # nothing but the plants
    assert all(any(error.startswith(f"static/js/{p.module}({n},") for p, n in lines.items())
               for error in errors if ": error TS" in error), checked.stdout


def test_each_game_module_is_checked_against_its_schemas(generated: Path) -> None:
    """The game plants above are armed once the document publishes the games' schemas."""
    missing = sorted(set(GAME_PLANTS) - published(generated))
    if missing:
        pytest.skip(f"the OpenAPI document publishes no {', '.join(missing)} yet: "
                    "types/wire.d.ts has them as any")
