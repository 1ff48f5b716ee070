"""Where a game's page templates are found, by the game's name alone.

A game's pages are ``games/<game>.html`` (its play page), ``games/<game>.card.html`` (its
lobby card) and ``games/<game>.replay.html`` (its look on the replay page), each optional
but the first. They live in the site's ``templates/games/``, or, for a game packaged
outside this repository (a plugin, a test's fixture game), in ``templates/games/``
inside the game's own package: the folder of the module that defines its engine's class.
Shared templates never name a game; they ask for these files by name.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from jinja2 import BaseLoader, Environment, FileSystemLoader, TemplateNotFound

from engines.core.protocol import Engine

PACKAGE_TEMPLATES = "templates"  # the folder, inside a game's package, of its templates


def package_templates(engine: Engine[Any, Any, Any]) -> Path | None:
    """The ``templates`` folder of the engine's package, or None when it has none."""
    try:
        folder = Path(inspect.getfile(type(engine))).parent / PACKAGE_TEMPLATES
    except TypeError:  # a class defined where no file is (an interactive session)
        return None
    return folder if folder.is_dir() else None


class GamePackages(BaseLoader):
    """Loads ``games/<game>.html`` and ``games/<game>.<part>.html`` from the templates
    folder of the game's package, for the games the serving catalogs know."""

    def __init__(self) -> None:
        self.folders: dict[str, FileSystemLoader] = {}

    def know(self, engines: Mapping[str, Engine[Any, Any, Any]]) -> None:
        """Learn the package folders of these games (a catalog's engines)."""
        for name, engine in engines.items():
            if name not in self.folders and (folder := package_templates(engine)) is not None:
                self.folders[name] = FileSystemLoader(folder)

    def get_source(
        self, environment: Environment, template: str
    ) -> tuple[str, str | None, Callable[[], bool] | None]:
        folder, _, file = template.partition("/")
        loader = self.folders.get(file.split(".", 1)[0]) if folder == "games" else None
        if loader is None:
            raise TemplateNotFound(template)
        return loader.get_source(environment, template)
