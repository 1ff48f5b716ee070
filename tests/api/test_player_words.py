"""Issue 24.13: what the pages say about where a player's games are kept is true (on the
server, tied to the player; devices can be linked), in every language."""

from __future__ import annotations

import re
from typing import Any

import pytest

FOOTERS = {
    "en": "kept on the server",
    "ru": "хранятся на сервере",
    "fr": "gardés sur le serveur",
}
WRONG = {"en": "stay with this browser", "ru": "в этом браузере", "fr": "dans ce navigateur"}


@pytest.mark.parametrize("lang", ["en", "ru", "fr"])
def test_footer_says_records_are_kept_on_the_server(make_client: Any, lang: str) -> None:
    client = make_client()
    client.cookies.set("lang", lang)
    for path in ("/", "/me", "/leaderboard/triangles"):
        text = client.get(path).text
        footer = re.search(r'<footer class="site-footer">(.*?)</footer>', text, re.S)
        assert footer, path
        assert FOOTERS[lang] in footer.group(1) and WRONG[lang] not in footer.group(1)
