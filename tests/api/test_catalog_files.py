"""The words a server starts with (app/i18n.py): the shared catalog, each game's files and
those of the games packaged outside this repository that it serves, merged; a key two
files hold, or a package's key outside its game, stops the start."""

from __future__ import annotations

from pathlib import Path

import pytest

from app import i18n
from app.config import Settings
from app.i18n import DuplicateKey
from app.main import create_app
from engines.registry import served
from tests.fixtures.games.lampsout import ENGINE as LAMPSOUT


def test_a_key_two_catalog_files_hold_stops_the_start(
    settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared, game = tmp_path / "en.json", tmp_path / "game.json"
    shared.write_text('{"common.ok": "OK"}', "utf-8")
    game.write_text('{"games.x.title": "X", "common.ok": "Fine"}', "utf-8")
    i18n.catalog.cache_clear()
    try:
        with monkeypatch.context() as patch:
            patch.setattr(i18n, "catalog_files", lambda lang: [shared, game])
            with pytest.raises(DuplicateKey, match=r"'common\.ok' is in both .*en\.json and"):
                create_app(settings)
    finally:
        i18n.catalog.cache_clear()
    create_app(settings)  # the real files: each key once


def test_a_packaged_game_words_only_its_own_keys(
    settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game packaged outside this repository brings i18n/<lang>.json beside its
    templates: keys under games.<game>. only, none the site already has."""
    folder = tmp_path / "i18n"
    folder.mkdir()
    engines = served(LAMPSOUT)
    for lang in i18n.LANGUAGES:
        (folder / f"{lang}.json").write_text('{"games.lampsout.title": "L", "site.name": "L"}')
    with monkeypatch.context() as patch:
        mine = type(LAMPSOUT).__module__
        patch.setattr(i18n, "package_folder", lambda module: folder if module == mine else None)
        with pytest.raises(ValueError, match="'site.name' is not a word of games.lampsout"):
            create_app(settings, engines=engines)
        for lang in i18n.LANGUAGES:
            (folder / f"{lang}.json").write_text('{"games.lampsout.title": "L"}')
        i18n.with_packages.cache_clear()
        create_app(settings, engines=engines)
        assert i18n.words("fr", i18n.package_catalogs(engines))["games.lampsout.title"] == "L"
    i18n.with_packages.cache_clear()
