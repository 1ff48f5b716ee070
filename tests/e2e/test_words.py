"""Issue 24 (3, 13): the words players read come from the catalogs, never raw values:
ordinal ranks in each language's own form, setting values translated wherever shown."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

CATALOGS = Path(__file__).resolve().parents[2] / "static" / "i18n"


def page_in(context: Any, server_url: str, lang: str, path: str = "/") -> Any:
    context.add_cookies([{"name": "lang", "value": lang, "url": server_url}])
    page = context.new_page()
    page.goto(path)
    return page


@pytest.mark.parametrize(
    ("lang", "ranks"),
    [
        ("fr", ["1er", "2e", "3e", "11e", "21e"]),
        ("en", ["1st", "2nd", "3rd", "11th", "21st"]),
        ("ru", ["1-е место", "2-е место", "3-е место", "11-е место", "21-е место"]),
    ],
)
def test_ranks_are_ordinals_of_the_language(
    phone: Any, server_url: str, lang: str, ranks: list[str]
) -> None:
    page = page_in(phone, server_url, lang)
    said = page.evaluate(
        """async () => { const m = await import('/static/js/core/i18n.js');
        return [1, 2, 3, 11, 21].map((n) => m.ordinal('lobby.daily.rank', n)); }"""
    )
    assert said == ranks


@pytest.mark.parametrize("lang", ["en", "ru", "fr"])
def test_gravity_card_says_rotation_is_an_option(phone: Any, server_url: str, lang: str) -> None:
    """Rotation is off in a new Gravity game unless chosen: the card must not claim it."""
    words = json.loads((CATALOGS / f"{lang}.json").read_text("utf-8"))
    page = page_in(phone, server_url, lang)
    chips = page.locator('.game-card[data-variant="gravity8"] .chip')
    expect(chips.last).to_have_text(words["games.blocks.rotation.optional"])
    assert words["games.blocks.rotation"] not in chips.all_text_contents()
