"""Every game the site serves, by name.

A game in this repository adds its engine to ``BUILT_IN`` (one line). A game packaged
elsewhere (a plugin, a test's fixture game) is served with ``served(its_engine)``, the
engines ``create_app(engines=...)`` takes: the same checks, no edit here.
"""

from __future__ import annotations

import re
from typing import Any

from engines.blocks import ENGINE as BLOCKS
from engines.core.protocol import Engine
from engines.pairs import ENGINE as PAIRS
from engines.triangles import ENGINE as TRIANGLES

AnyEngine = Engine[Any, Any, Any]
BUILT_IN: tuple[AnyEngine, ...] = (BLOCKS, PAIRS, TRIANGLES)
# A game's name is a URL part, a file name (templates, scripts) and a catalog key.
NAME = re.compile(r"[a-z][a-z0-9_]{0,31}")


def served(*more: AnyEngine) -> dict[str, AnyEngine]:
    """The built-in games and ``more``, by name, in that order. A name that is not a
    lowercase word, or that two games share, is a ValueError: it would shadow a game."""
    engines: dict[str, AnyEngine] = {}
    for engine in (*BUILT_IN, *more):
        if not NAME.fullmatch(engine.name):
            raise ValueError(f"a game's name is a lowercase word, not {engine.name!r:.40}")
        if engine.name in engines:
            raise ValueError(f"two games are called {engine.name!r}")
        engines[engine.name] = engine
    return engines


ENGINES: dict[str, AnyEngine] = served()
