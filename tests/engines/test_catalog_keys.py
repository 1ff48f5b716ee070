"""No dead words: every key of the catalogs (app/i18n.py: static/i18n/<lang>.json and
each game's static/i18n/games/<game>/<lang>.json, merged) is read by a page, a script or
the app; the merge holds each key once and the same keys in every language.

A key counts as used when (rules applied to the sources in templates/, static/js/, app/
and engines/):

1. it is written whole as a quoted string (``t("lobby.heading")``, ``'games.pairs.title'``);
2. it is a plural form (``.one``, ``.few``, ``.many``, ``.other``) of a used key;
3. it fits a key the sources build: a JS template literal (`` `games.${game}.title` ``), a
   Jinja or JS concatenation (``"games.pairs.mode." ~ mode ~ ".desc"``, ``'site.' + x``),
   or a Jinja choice by dict (``"replay." ~ {"pairs": "pairs", ...}.get(game, "moves")``).
   Each built part stands for exactly one dot-free segment, and the segment after
   ``games.`` only for a registered game;
4. an error key, ``error.<code>`` or ``<prefix>.error.<code>``, is used only through rule 1
   or when a script builds its prefix (``error.${code}``) or hands it on written whole
   (``'lobby.open.error'``), and ``<code>`` is a code the server or the client answers
   with: an ``AppCode`` or ``ErrorCode`` member, a code the game's engine raises (for
   ``games.<game>.error.<code>``), or a code ``static/js/core/api.js`` or ``socket.js``
   makes itself (``network``, ``timeout`` ...). Rule 3 never makes an error key used.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

from app.i18n import (
    CATALOG_DIR,
    GAME_CATALOGS,
    LANGUAGES,
    DuplicateKey,
    catalog,
    catalog_files,
    merge,
)
from engines.core import AppCode, ErrorCode
from engines.registry import BUILT_IN, ENGINES
from tests.engines.test_protocol import engine_codes

ROOT = Path(__file__).resolve().parents[2]
LANGS = LANGUAGES
SOURCES = [
    path
    for folder in ("templates", "static/js", "app", "engines")
    for path in sorted((ROOT / folder).rglob("*"))
    if path.suffix in {".html", ".js", ".py"}
]
PLURAL = re.compile(r"\.(?:zero|one|two|few|many|other)$")
QUOTED = re.compile(r"""['"`]([a-z][\w.+\-]*)['"`]""")
TEMPLATE = re.compile(r"`([a-z][\w.]*\$\{[^`]*)`")
CONCAT = re.compile(
    r"""(?:['"][\w.]*['"]|[\w.()\[\]]+)(?:\s*[~+]\s*(?:['"][\w.]*['"]|[\w.()\[\]]+))+"""
)
DICT_CHOICE = re.compile(r'"([a-z][\w.]*\.)" ~ \{([^}]*)\}\.get\([^,]+, "(\w+)"\)')
ERROR_KEY = re.compile(r"^(?:(.+)\.)?error\.(\w+)$")
GAME = "\x01"  # a built segment right after ``games.``
ANY = "\x00"  # any other built segment


@cache
def sources() -> dict[Path, str]:
    return {path: path.read_text("utf-8") for path in SOURCES}


def built_keys(text: str) -> set[str]:
    """The keys the text builds, as patterns with ANY / GAME for the built segments."""
    patterns: set[str] = set()
    for body in TEMPLATE.findall(text):
        patterns.add(re.sub(r"\$\{[^}]*\}", ANY, body))
    for chain in CONCAT.findall(text):
        parts = [part.strip() for part in re.split(r"[~+]", chain)]
        if parts[0][:1] not in "'\"" or "." not in parts[0]:
            continue  # a key starts with a written prefix
        patterns.add("".join(p[1:-1] if p[:1] in "'\"" else ANY for p in parts))
    for prefix, choices, default in DICT_CHOICE.findall(text):
        patterns |= {prefix + value for value in re.findall(r':\s*"(\w+)"', choices)}
        patterns.add(prefix + default)
    return {re.sub(rf"^games\.{ANY}", "games." + GAME, p) for p in patterns if "." in p}


def matcher(pattern: str) -> re.Pattern[str]:
    games = "|".join(map(re.escape, sorted(ENGINES)))
    body = re.escape(pattern).replace(GAME, f"(?:{games})").replace(ANY, r"[^.]+")
    return re.compile(f"^{body}$")


CLIENT_CODES = {
    code
    for module in ("api.js", "socket.js")
    for code in re.findall(
        r"""(?:new (?:this\.)?ApiError\([^,]+,\s*|failPending\()'(\w+)'""",
        (ROOT / "static" / "js" / "core" / module).read_text("utf-8"),
    )
}
SERVER_CODES = {str(code) for code in AppCode} | {str(code) for code in ErrorCode}


@cache
def known_codes(prefix: str | None) -> set[str]:
    codes = SERVER_CODES | CLIENT_CODES
    game = (prefix or "").removeprefix("games.")
    return codes | engine_codes(game) if prefix == f"games.{game}" and game in ENGINES else codes


def dead_keys(keys: list[str], texts: dict[Path, str]) -> list[str]:
    quoted: set[str] = set()
    patterns: set[str] = set()
    for text in texts.values():
        quoted |= set(QUOTED.findall(text))
        patterns |= built_keys(text)
    built = [matcher(p) for p in patterns]
    dead = []
    for key in keys:
        base = PLURAL.sub("", key)
        if key in quoted or base in quoted:
            continue
        error = ERROR_KEY.match(key)
        if error:
            prefix, code = error.groups()
            lookup = f"{prefix}.error" if prefix else "error"
            looked_up = lookup in quoted or any(m.match(f"{lookup}.x") for m in built)
            if looked_up and code in known_codes(prefix):
                continue
        elif any(m.match(key) or m.match(base) for m in built):
            continue
        dead.append(key)
    return dead


def keys_of(lang: str) -> list[str]:
    return list(catalog(lang))


@pytest.mark.parametrize("lang", LANGS)
def test_no_catalog_key_is_dead(lang: str) -> None:
    assert dead_keys(keys_of(lang), sources()) == []


@pytest.mark.parametrize("lang", LANGS)
def test_no_catalog_key_is_written_twice(lang: str) -> None:
    # JSON keeps the last of a repeated key: the first would be a dead copy. The merge
    # refuses a key written twice in a file or held by two files (read afresh, uncached).
    assert merge(catalog_files(lang)) == catalog(lang)


def test_the_merge_refuses_a_key_written_twice(tmp_path: Path) -> None:
    shared, game, twice = tmp_path / "en.json", tmp_path / "game.json", tmp_path / "twice.json"
    shared.write_text('{"site.name": "Nook", "common.ok": "OK"}', "utf-8")
    game.write_text('{"games.x.title": "X", "common.ok": "Fine"}', "utf-8")
    twice.write_text('{"games.x.title": "X", "games.x.title": "Y"}', "utf-8")
    assert merge([shared]) == {"site.name": "Nook", "common.ok": "OK"}
    with pytest.raises(DuplicateKey, match="common.ok"):
        merge([shared, game])
    with pytest.raises(DuplicateKey, match="games.x.title"):
        merge([twice])


def test_each_game_words_are_in_its_own_files() -> None:
    """static/i18n/games/<game>/ for every built-in game and no other; a game's files hold
    only its own words (``games.<game>.*``), the shared files none of a game's."""
    assert sorted(p.name for p in GAME_CATALOGS.iterdir()) == sorted(e.name for e in BUILT_IN)
    for lang in LANGS:
        files = catalog_files(lang)
        assert files[0] == CATALOG_DIR / f"{lang}.json"
        shared = json.loads(files[0].read_text("utf-8"))
        assert [key for key in shared if key.startswith("games.")] == []
        for path in files[1:]:
            game = path.parent.name
            words = json.loads(path.read_text("utf-8"))
            assert [key for key in words if not key.startswith(f"games.{game}.")] == []


def test_the_catalogs_hold_the_same_keys() -> None:
    # Plural forms differ by language (Russian has one, few, many, other).
    def words(lang: str) -> set[str]:
        return {PLURAL.sub("", key) for key in keys_of(lang)}

    en = words("en")
    assert {lang: sorted(words(lang) ^ en) for lang in LANGS} == dict.fromkeys(LANGS, [])


def test_the_rules_find_dead_keys_and_spare_used_ones() -> None:
    texts = {
        Path("a.js"): "t('lobby.heading'); t(`games.${game}.title`); t(`error.${code}`);"
        " t(`games.${g}.error.${code}`); t('site.' + name)",
        Path("b.html"): '{{ t("games.pairs.mode." ~ mode ~ ".desc") }}'
        ' {{ t("replay." ~ {"pairs": "pairs"}.get(game, "moves")) }}',
    }
    keys = [
        "lobby.heading",  # 1
        "lobby.heading.other",  # 2
        "games.pairs.title",  # 3
        "games.nosuchgame.title",  # dead: no such game
        "games.pairs.mode.calm.desc",  # 3
        "games.pairs.mode.calm",  # dead: the page builds only the .desc
        "site.theme",  # 3
        "site.theme.dark",  # dead: a built part is one segment
        "replay.pairs",  # 3 (dict)
        "replay.moves",  # 3 (default)
        "replay.lines",  # dead: not a choice
        "error.game_over",  # 4: ErrorCode
        "error.stale_version",  # 4: AppCode
        "error.timeout",  # 4: socket.js
        "error.unknown_variant",  # dead: no such code
        "games.pairs.error.no_path",  # 4: the pairs engine raises it
        "games.pairs.error.occupied",  # dead: a blocks code
        "lobby.open.error.not_waiting",  # dead: nothing builds lobby.open.error.
    ]
    assert dead_keys(keys, texts) == [
        "games.nosuchgame.title",
        "games.pairs.mode.calm",
        "site.theme.dark",
        "replay.lines",
        "error.unknown_variant",
        "games.pairs.error.occupied",
        "lobby.open.error.not_waiting",
    ]


# A key written whole in a call that reads the catalog: t('…'), plural('…', n), ordinal(…),
# has(…) in a script, t("…") in a template: a namespaced key (a dot in it), not a prefix a
# concatenation completes.
WORDS_CALL = re.compile(
    r"""\b(?:t|plural|ordinal|has)\(\s*['"]([a-z][\w+\-]*\.[\w.+\-]*[\w+\-])['"]\s*[,)]"""
)


@pytest.mark.parametrize("lang", LANGS)
def test_every_key_a_page_reads_is_in_the_catalogs(lang: str) -> None:
    """The other way round from dead keys: every key the templates, scripts and the app
    read written whole (the arena pages' words, the game page's arena words …) is in each
    language's catalog, itself or as plural forms; a missing one would show as its key."""
    words = keys_of(lang)
    known = set(words) | {PLURAL.sub("", key) for key in words}
    missing = sorted(
        f"{path.relative_to(ROOT)}: {key}"
        for path, text in sources().items()
        for key in WORDS_CALL.findall(text)
        if key not in known
    )
    assert missing == []
