"""Issue 24 (3, 13): the words players read come from the catalogs, never raw values:
ordinal ranks in each language's own form, setting values translated wherever shown."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from app.i18n import catalog
from tests.qualify import qualify_page

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


@pytest.mark.parametrize("lang", ["en", "ru", "fr"])
def test_gravity_card_says_rotation_is_an_option(phone: Any, server_url: str, lang: str) -> None:
    """Rotation is off in a new Gravity game unless chosen: the card must not claim it."""
    words = catalog(lang)
    page = page_in(phone, server_url, lang)
    chips = page.locator('.game-card[data-variant="gravity8"] .chip')
    expect(chips.last).to_have_text(words["games.blocks.rotation.optional"])
    assert words["games.blocks.rotation"] not in chips.all_text_contents()


RAW = re.compile(r"(?<![\w+])(none|rated|again|5\+3|tablet|phone)(?![\w+])")


def rated_player_with_games(page: Any) -> dict[str, str]:
    """Named, five games against the computer finished (``tests.qualify``), then a rated
    5+3 challenge waiting and one casual game without a clock: made with the page's
    cookie."""
    assert page.request.put("/api/me", data={"name": "Zoé"}).ok
    finished = qualify_page(page.request)
    rated = page.request.post(
        "/api/games",
        data={
            "game": "triangles",
            "public": True,
            "params": {"opponent": "online", "stars": 24, "clock": "5+3", "rated": True},
        },
    )
    assert rated.ok, rated.text()
    return {"rated": rated.json()["id"], "finished": finished[-1]}


@pytest.mark.parametrize("lang", ["en", "ru", "fr"])
def test_setting_values_are_translated_everywhere(
    browser: Any, desktop: Any, server_url: str, lang: str
) -> None:
    """Issue 24.3: Continue, the open games, /me's history and statistics say a game's
    settings in words (never "none", "rated", "5+3"); a versus game's statistics are
    wins, losses, draws and the rating, and its history line has no points."""
    words = catalog(lang)
    page = page_in(desktop, server_url, lang)
    games = rated_player_with_games(page)
    casual = page.request.post(
        "/api/games",
        data={"game": "triangles", "params": {"opponent": "online", "stars": 24, "clock": "5+3"}},
    ).json()["id"]
    other = browser.new_context(base_url=server_url)
    try:
        joined = other.request.post(f"/api/games/{casual}/join")
        assert joined.ok, joined.text()
    finally:
        other.close()
    page.goto("/")
    clock = words["games.triangles.clock.choice.5+3"]
    rated = words["games.triangles.rated"]
    cont = page.locator(f'.continue-card[data-id="{casual}"] .continue-card__meta')
    expect(cont).to_contain_text(clock)
    mine = page.locator(f'.open-item[data-id="{games["rated"]}"] .open-item__meta')
    expect(mine).to_contain_text(clock)
    expect(mine).to_contain_text(rated)
    for text in (cont.inner_text(), mine.inner_text()):
        assert not RAW.search(text), text
    page.goto("/me")
    expect(page.locator("main")).to_have_attribute("data-stats", "ready")
    first = page.locator(f'.history-item[data-id="{games["rated"]}"]')
    expect(first).to_contain_text(clock)
    finished = page.locator(f'.history-item[data-id="{games["finished"]}"]')
    expect(finished).to_be_visible()
    points = words["me.history.score"].replace("{n}", "0")
    assert points not in finished.inner_text()
    for text in page.locator(".history-item, .stat-card").all_inner_texts():
        assert not RAW.search(text), text
    card = page.locator('.stat-card[data-game="triangles"]').first
    terms = card.locator("dt").all_inner_texts()
    assert [term.lower() for term in terms] == [
        words[key].lower()
        for key in ("me.stats.played", "me.stats.wins", "me.stats.losses", "me.stats.draws")
    ]
    assert card.locator("dd").all_inner_texts() == ["5", "0", "5", "0"]


def test_double_tap_on_gravity_without_rotation_says_why(phone: Any, server_url: str) -> None:
    """Issue 24.13: in a Gravity game started without rotation a double tap on a piece
    turns nothing, and the page says so (and where to turn rotation on)."""
    words = catalog("en")
    page = phone.new_page()
    page.add_init_script("localStorage.setItem('blocks.rotation', 'false')")
    page.goto("/play/blocks/gravity8")
    expect(page.locator("#blocks")).to_have_attribute("data-state", "playing")
    tray = page.locator("#blocks-tray").bounding_box()
    x, y = tray["x"] + tray["width"] / 6, tray["y"] + tray["height"] / 2
    page.touchscreen.tap(x, y)
    page.touchscreen.tap(x, y)
    expect(page.locator("#blocks-notice")).to_have_text(words["games.blocks.rotation.off"])


WORDS_OF_TURNS = """async ({ names, loss }) => {
    const m = await import('/static/js/core/i18n.js');
    return {
      turns: names.map((name) => m.t('games.triangles.status.their_turn', { name })),
      better: m.t('replay.review.better', { verdict: 'V', line: 'L',
                                            loss: m.plural('games.triangles.review.loss', loss) }),
      one: m.plural('games.triangles.review.loss', 1),
    };
  }"""


@pytest.mark.parametrize(
    ("lang", "turns", "better", "one"),
    [
        ("fr", ["Au tour d’Alexandra-Maximiliane…", "Au tour de François-Marie Dubois…",
                "Au tour d’Émile…"],
         "V : 2 triangles cédés. Mieux : L", "1 triangle cédé"),
        ("en", ["Waiting for Alexandra-Maximiliane…", "Waiting for François-Marie Dubois…",
                "Waiting for Émile…"],
         "V: 2 triangles given away. Better: L", "1 triangle"),
        ("ru", ["Ходит Alexandra-Maximiliane…", "Ходит François-Marie Dubois…",
                "Ходит Émile…"],
         "V: отдано 2 треугольника. Лучше: L", "1 треугольник"),
    ],
)
def test_names_and_counts_in_each_languages_grammar(
    phone: Any, server_url: str, lang: str, turns: list[str], better: str, one: str
) -> None:
    """Issue 36 (8): French "Au tour de Alexandra…" elides to "d’Alexandra", and "2
    triangles cédé(s)" agrees through the catalogs' plural forms."""
    page = page_in(phone, server_url, lang)
    said = page.evaluate(WORDS_OF_TURNS, {
        "names": ["Alexandra-Maximiliane", "François-Marie Dubois", "Émile"], "loss": 2})
    assert said == {"turns": turns, "better": better, "one": one}
