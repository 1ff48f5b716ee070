"""Every game the site serves, by name."""

from __future__ import annotations

from typing import Any

from engines.blocks import ENGINE as BLOCKS
from engines.core.protocol import Engine
from engines.pairs import ENGINE as PAIRS
from engines.triangles import ENGINE as TRIANGLES

ENGINES: dict[str, Engine[Any, Any, Any]] = {
    engine.name: engine for engine in (BLOCKS, PAIRS, TRIANGLES)
}
