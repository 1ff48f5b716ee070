"""Issue 24 (3, 13): the words players read come from the catalogs, never raw values:
ordinal ranks in each language's own form, setting values translated wherever shown."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.e2e


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
