"""The words a server starts with (app/i18n.py): the shared catalog and each game's files,
merged; a key two files hold stops the start, before any page says the wrong one."""

from __future__ import annotations

from pathlib import Path

import pytest

from app import i18n
from app.config import Settings
from app.i18n import DuplicateKey
from app.main import create_app


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
