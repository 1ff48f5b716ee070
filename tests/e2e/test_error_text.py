"""static/js/core/errors.js in Chromium: a refusal's words are the game's own, else the
shared ``error.<code>``, else the network or generic message, in the page's language."""

from __future__ import annotations

from typing import Any

import pytest

from app.i18n import catalog

pytestmark = pytest.mark.e2e

CASES = [
    ("blocks", {"code": "out_of_board"}),  # blocks words it its own way
    ("pairs", {"code": "out_of_board"}),  # pairs does not: the shared words
    ("pairs", {"code": "no_path"}),  # a code only pairs has
    (None, {"code": "stale_version"}),  # a page with no game
    (
        "triangles",
        {"code": "rated_needs_games", "details": {"needed": 5, "finished": 2, "moves": 5}},
    ),
    ("pairs", {"code": "no_such_code_anywhere"}),
    ("pairs", {"code": "network", "status": 0}),  # a code without words, no connection
    ("pairs", {"status": 0}),
]


def texts(lang: str) -> list[str]:
    words = catalog(lang)
    needs = words["error.rated_needs_games"].format(needed=5, finished=2, moves=5)
    return [
        words["games.blocks.error.out_of_board"],
        words["error.out_of_board"],
        words["games.pairs.error.no_path"],
        words["error.stale_version"],
        needs,
        words["error.generic"],
        words["error.network"],
        words["error.network"],
    ]


@pytest.mark.parametrize("lang", ["en", "ru", "fr"])
def test_error_text_falls_back_from_the_game_to_the_shared_words(
    phone: Any, server_url: str, lang: str
) -> None:
    phone.add_cookies([{"name": "lang", "value": lang, "url": server_url}])
    page = phone.new_page()
    page.goto("/")
    assert page.locator("html").get_attribute("lang") == lang
    shown = page.evaluate(
        "async (cases) => { const m = await import('/static/js/core/errors.js');"
        " return cases.map(([game, error]) => m.errorText(game, error)); }",
        CASES,
    )
    assert shown == texts(lang)
    assert texts(lang)[0] != texts(lang)[1]  # the override is not a copy
