"""Ready for the open internet: the cookie secret, the ids a cookie may carry, Secure
cookies behind a trusted proxy, cross-site requests, and the security headers on every
response. (Starting the real server without SECRET: tests/api/test_startup.py.)"""

from __future__ import annotations

import base64
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import Request
from fastapi.responses import PlainTextResponse
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.assets import STATIC_DIR, Assets, AssetsMissing, site_assets
from app.config import MissingSecret, Settings, startup_secret
from app.errors import AppError
from app.i18n import catalog
from app.identity import COOKIE, CookieSigner, new_player_id
from app.main import create_app
from app.middleware import JSON_HEADERS, SECURITY_HEADERS, client_address
from engines.core.errors import AppCode
from engines.registry import ENGINES
from tests.conftest import FakeClock, Player, player_id_for


def error(response: Any) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


@pytest.fixture
def site(settings: Settings, clock: FakeClock) -> Iterator[Any]:
    """``site(client=..., base_url=..., **settings)`` → a started TestClient on the real
    registry with those settings changed; closed after the test."""
    clients: list[TestClient] = []

    def make(
        client: tuple[str, int] = ("testclient", 50000),
        base_url: str = "http://testserver",
        **changes: Any,
    ) -> TestClient:
        app = create_app(settings.model_copy(update=changes), clock=clock)

        @app.get("/test/client")
        async def whoami(request: Request) -> PlainTextResponse:
            return PlainTextResponse(client_address(request.scope))

        @app.get("/test/boom")
        async def boom() -> None:
            raise RuntimeError("an unhandled bug")

        @app.get("/test/status/{status}")
        async def status(status: int) -> None:
            code = {429: AppCode.RATE_LIMITED, 503: AppCode.DATABASE_UNAVAILABLE}[status]
            raise AppError(code, "a refusal with the status the table gives its code")

        test_client = TestClient(
            app, base_url=base_url, client=client, raise_server_exceptions=False
        )
        test_client.__enter__()
        clients.append(test_client)
        return test_client

    yield make
    for test_client in clients:
        test_client.__exit__(None, None, None)


# 1. No silent default secret --------------------------------------------------------


def test_there_is_no_built_in_secret(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("SECRET", raising=False)
    monkeypatch.chdir(tmp_path)  # no .env file
    assert Settings().secret is None
    with pytest.raises(MissingSecret, match="SECRET"):
        create_app(settings.model_copy(update={"secret": None}))


def test_loopback_makes_one_random_secret_and_keeps_it(tmp_path: Path) -> None:
    path = tmp_path / "var" / "secret"
    settings = Settings(secret=None, secret_file=path)
    first = startup_secret(settings, "127.0.0.1")
    assert len(first) >= 40
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_text().strip() == first
    for host in ("127.0.0.1", "localhost", "::1", "127.0.0.2"):
        assert startup_secret(settings, host) == first
    other = Settings(secret=None, secret_file=tmp_path / "other" / "secret")
    assert startup_secret(other, "127.0.0.1") != first  # random, not derived


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "", "192.0.2.7", "games.example"])
def test_any_other_bind_refuses_without_secret(tmp_path: Path, host: str) -> None:
    settings = Settings(secret=None, secret_file=tmp_path / "secret")
    with pytest.raises(MissingSecret, match="SECRET"):
        startup_secret(settings, host)
    assert not (tmp_path / "secret").exists()


def test_secret_wins_over_the_file(tmp_path: Path) -> None:
    settings = Settings(secret="given", secret_file=tmp_path / "secret")
    assert startup_secret(settings, "0.0.0.0") == "given"
    assert startup_secret(settings, "127.0.0.1") == "given"
    assert not (tmp_path / "secret").exists()


# 2. Only ids the server issues ---------------------------------------------------------


def test_a_cookie_for_the_computer_never_acts_for_it(site: Any, settings: Settings) -> None:
    client = site()
    signer = CookieSigner(settings.secret or "")
    alice = Player(client, player_id_for("alice"), signer)
    game = alice.new_game("triangles", params={"opponent": "easy"})
    computer = Player(client, "computer", signer)  # a valid signature, a reserved id
    resign = computer.move(game["id"], game["version"], {"type": "resign"})
    assert error(resign) == (403, "not_seated")
    assert resign.headers["set-cookie"].startswith(f"{COOKIE}=")  # treated as a new player
    assert alice.get(f"/api/games/{game['id']}").json()["status"] == "active"
    with computer.websocket(f"/ws/games/{game['id']}") as socket:
        assert socket.receive_json()["type"] == "state"
        socket.send_json({"type": "move", "version": game["version"], "move": {"type": "resign"}})
        reply = socket.receive_json()
        assert reply["type"] == "error" and reply["error"]["code"] == "not_seated"
    assert alice.get(f"/api/games/{game['id']}").json()["status"] == "active"


@pytest.mark.parametrize(
    "player_id",
    ["computer", "player-alice", "x" * 21, "x" * 23, "a" * 21 + "/", "a" * 21 + "=", ""],
)
def test_only_issued_id_formats_are_read_from_a_cookie(settings: Settings, player_id: str) -> None:
    signer = CookieSigner(settings.secret or "")
    assert signer.unsign(signer.sign(player_id)) is None


def test_issued_ids_are_read_back(settings: Settings) -> None:
    signer = CookieSigner(settings.secret or "")
    for _ in range(50):
        player_id = new_player_id()
        assert signer.unsign(signer.sign(player_id)) == player_id


# 3. Secure cookies over HTTPS, through trusted proxies only ---------------------------


def first_cookie(client: TestClient, **headers: str) -> str:
    client.cookies.clear()
    return str(client.get("/api/me", headers=headers).headers["set-cookie"])


def test_cookie_is_secure_over_https(site: Any) -> None:
    assert "Secure" in first_cookie(site(base_url="https://testserver"))
    assert "Secure" not in first_cookie(site())


def test_cookie_is_secure_through_a_trusted_proxy_only(site: Any) -> None:
    proxied = site(client=("127.0.0.1", 40000))
    assert "Secure" in first_cookie(proxied, **{"x-forwarded-proto": "https"})
    assert "Secure" not in first_cookie(proxied)
    stranger = site(client=("203.0.113.9", 40000))
    assert "Secure" not in first_cookie(stranger, **{"x-forwarded-proto": "https"})


def test_forwarded_allow_ips_names_the_trusted_proxies(
    site: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "10.0.0.0/8, 192.0.2.1")
    assert Settings().trusted_proxies == ["10.0.0.0/8", "192.0.2.1"]
    trusted = site(client=("10.1.2.3", 40000), forwarded_allow_ips="10.0.0.0/8")
    assert "Secure" in first_cookie(trusted, **{"x-forwarded-proto": "https"})
    loopback = site(client=("127.0.0.1", 40000), forwarded_allow_ips="10.0.0.0/8")
    assert "Secure" not in first_cookie(loopback, **{"x-forwarded-proto": "https"})


def test_client_address_comes_from_trusted_proxies_only(site: Any) -> None:
    forwarded = {"x-forwarded-for": "198.51.100.4"}
    assert site(client=("127.0.0.1", 1)).get("/test/client", headers=forwarded).text == (
        "198.51.100.4"
    )
    assert site(client=("203.0.113.9", 1)).get("/test/client", headers=forwarded).text == (
        "203.0.113.9"
    )


# 4. Cross-site requests ------------------------------------------------------------------


def test_cross_site_writes_are_refused(site: Any, settings: Settings) -> None:
    client = site()
    alice = Player(client, player_id_for("alice"), CookieSigner(settings.secret or ""))
    body = {"game": "triangles", "params": {"opponent": "easy"}}
    evil = {"origin": "https://evil.example"}
    refused = alice.post("/api/games", json=body, headers=evil)
    assert error(refused) == (403, "bad_origin")
    assert "set-cookie" not in refused.headers
    assert error(alice.put("/api/me", json={"name": "Mallory"}, headers=evil)) == (
        403,
        "bad_origin",
    )
    assert error(alice.post("/api/games", json=body, headers={"origin": "null"})) == (
        403,
        "bad_origin",
    )
    assert alice.get("/api/me").json()["name"] is None
    assert alice.get("/api/me", headers=evil).status_code == 200  # reads are not writes
    # Its own origin (any case, default port or not) and no Origin at all are fine.
    for headers in ({"origin": "http://testserver"}, {"origin": "HTTP://TestServer:80"}, {}):
        assert alice.post("/api/games", json=body, headers=headers).status_code == 201
    # The wrong scheme or port is another origin.
    for origin in ("https://testserver", "http://testserver:8080"):
        response = alice.post("/api/games", json=body, headers={"origin": origin})
        assert error(response) == (403, "bad_origin")


def test_allowed_origins_and_https_behind_a_proxy(site: Any, settings: Settings) -> None:
    client = site(
        client=("127.0.0.1", 40000), allowed_origins="https://games.example, http://x.test:81"
    )
    signer = CookieSigner(settings.secret or "")
    alice = Player(client, player_id_for("alice"), signer)
    body = {"game": "triangles", "params": {"opponent": "easy"}}
    for origin in ("https://games.example", "https://games.example:443", "http://x.test:81"):
        assert alice.post("/api/games", json=body, headers={"origin": origin}).status_code == 201
    behind = {"origin": "https://testserver", "x-forwarded-proto": "https"}
    assert alice.post("/api/games", json=body, headers=behind).status_code == 201
    untrusted = Player(site(client=("203.0.113.9", 40000)), player_id_for("alice"), signer)
    assert error(untrusted.post("/api/games", json=body, headers=behind)) == (403, "bad_origin")


def test_cross_site_sockets_are_refused_before_accept(site: Any, settings: Settings) -> None:
    client = site()
    alice = Player(client, player_id_for("alice"), CookieSigner(settings.secret or ""))
    game = alice.new_game("triangles", params={"opponent": "easy"})
    url = f"/ws/games/{game['id']}"
    with pytest.raises(WebSocketDisconnect) as refused:
        with client.websocket_connect(url, headers={"origin": "https://evil.example"}):
            pass
    assert refused.value.code == 1008
    for headers in ({"origin": "http://testserver"}, {}):
        with client.websocket_connect(url, headers=headers) as socket:
            assert socket.receive_json()["type"] == "state"


# 14. Security headers on every response --------------------------------------------------


def assert_security_headers(response: Any) -> None:
    """A document's: every policy; a JSON answer's: the data policy alone (no referrer or
    permissions policy, which only documents use)."""
    json = response.headers.get("content-type", "").startswith("application/json")
    expected = JSON_HEADERS if json else SECURITY_HEADERS
    for name, value in expected.items():
        assert response.headers.get(name) == value, (response.status_code, name)
    if json:
        assert not {"referrer-policy", "permissions-policy"} & set(response.headers)


def test_every_response_carries_the_security_headers(site: Any) -> None:
    client = site()
    responses = {
        "page": client.get("/"),
        "static": client.get("/static/css/me.css"),
        "not_found": client.get("/api/games/nope"),
        "too_large": client.post("/api/games", content=b"x" * (70 * 1024)),
        "too_large_chunked": client.post(
            "/api/games", content=iter([b"x" * 40_000, b"x" * 40_000])
        ),
        "bad_origin": client.post("/api/games", json={}, headers={"origin": "https://e.example"}),
        "unhandled": client.get("/test/boom"),
        "too_many": client.get("/test/status/429"),
        "unavailable": client.get("/test/status/503"),
    }
    assert {name: r.status_code for name, r in responses.items()} == {
        "page": 200,
        "static": 200,
        "not_found": 404,
        "too_large": 413,
        "too_large_chunked": 413,
        "bad_origin": 403,
        "unhandled": 500,
        "too_many": 429,
        "unavailable": 503,
    }
    static = responses.pop("static")
    for response in responses.values():
        assert_security_headers(response)
    assert responses["page"].headers["content-security-policy"] == SECURITY_HEADERS[
        "content-security-policy"
    ]  # a page is a document; every other answer here is JSON
    assert all(
        r.headers["content-security-policy"] == JSON_HEADERS["content-security-policy"]
        for name, r in responses.items()
        if name != "page"
    )
    assert error(responses["unhandled"]) == (500, "internal")
    # A stylesheet is never a document: nosniff alone, no document policies.
    assert static.headers["x-content-type-options"] == "nosniff"
    assert not {"content-security-policy", "x-frame-options"} & set(static.headers)
    assert_security_headers(client.get("/static/favicon.svg"))  # an SVG can be a document
    icon = client.get(site_assets().url("icons/favicon-32.png"))  # a PNG cannot
    assert icon.status_code == 200 and icon.headers["x-content-type-options"] == "nosniff"
    assert not {"content-security-policy", "x-frame-options"} & set(icon.headers)
    # a page carries that PNG inline: a request fewer on a first visit (img-src allows data:)
    page = responses["page"]
    inline = re.search(r'<link rel="icon" href="data:image/png;base64,([^"]+)"', page.text)
    assert inline and base64.b64decode(inline[1]) == icon.content
    assert "data:" in page.headers["content-security-policy"].split("img-src")[1].split(";")[0]


def test_a_page_answers_head_with_the_headers_of_its_get(site: Any) -> None:
    """Uptime monitors and link checkers ask pages with HEAD: the same status and
    headers as GET (the policy's nonce aside), no body; an API route still answers 405."""
    client = site()
    for path in ("/", "/play/triangles", "/leaderboard/triangles", "/arenas", "/g/nope"):
        got, head = client.get(path), client.head(path)
        assert (head.status_code, head.content) == (got.status_code, b""), path
        assert head.headers["content-type"] == got.headers["content-type"], path
        assert_security_headers(head)
    assert client.head("/api/games").status_code == 405


def script_of(client: Any, entry: str) -> str:
    """A page's script as served: its entry and every chunk it imports, at once or later."""
    files, seen, text = [entry], set(), []
    while files:
        url = files.pop()
        if url not in seen:
            seen.add(url)
            text.append(client.get(url).text)
            files += [f"/static/dist/js/{name}" for name in re.findall(r"chunk-\w+\.js", text[-1])]
    return "\n".join(text)


def named(key: str, script: str) -> bool:
    return any(f"{quote}{key}{quote}" in script for quote in "'\"`")


def test_static_urls_carry_a_content_hash_and_are_immutable(site: Any) -> None:
    """A page names the build's files (build.mjs, static/dist/manifest.json): each name
    carries its content's hash and is cached for good; the sources stay readable as
    written, revalidated."""
    client = site()
    assets = site_assets()
    page = client.get("/play/pairs").text
    pairs = assets.page("game-pairs")
    assert pairs.js and re.fullmatch(r"/static/dist/js/games-pairs-\w{8}\.js", pairs.js)
    assert f'<script type="module" src="{pairs.js}">' in page
    for chunk in pairs.preload:  # the chunks it imports, asked for at once
        assert f'<link rel="modulepreload" href="{chunk}">' in page
    catalog_url = assets.url("i18n/en/pairs.json")
    assert re.fullmatch(r"/static/dist/i18n/en/pairs-\w{10}\.json", catalog_url)
    assert f'href="{catalog_url}"' in page
    assert "i18n-catalog" not in page.replace("data-i18n-catalog", "")  # not inlined
    current = client.get(pairs.js)
    assert current.status_code == 200
    assert current.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert current.headers["content-type"] == "text/javascript; charset=utf-8"
    assert current.text.rstrip().endswith(f"//# sourceMappingURL={pairs.js.rsplit('/', 1)[1]}.map")
    # one bundle, minified: the page's modules (main.js's words among them), no comments
    assert "ending.loadRecords" not in current.text and "loadRecords()" in current.text
    assert "/**" not in current.text and current.text.count("\n") <= 3
    assert client.get(f"{pairs.js}.map").status_code == 200
    plain = client.get("/static/js/core/api.js")
    assert plain.text == (STATIC_DIR / "js" / "core" / "api.js").read_text("utf-8")
    assert plain.headers["cache-control"] == "no-cache"  # as written, for reading
    # A game page's words: its own and the shared ones, not the other games', nor the
    # lobby's, /me's or the offline page's, nor those only templates print (the
    # leaderboard's, the not-found page's, the app manifest's: in no catalog file); its
    # replay page's add the replay's (the site's replay.* and games.pairs.replay.*). Of
    # the refusals only one feature meets, each keeps those of the features its script
    # holds: the replay's and its review's on the replay page, none on the play page.
    words = client.get(assets.url("i18n/ru/pairs.json")).json()
    replay_words = client.get(assets.url("i18n/ru/pairs.replay.json")).json()
    whole = catalog("ru")
    others = (
        *(f"games.{name}." for name in ENGINES if name != "pairs"),
        *("lobby.", "me.", "push.", "offline.", "arena.", "arenas."),
        *("leaderboard.", "site.notfound.", "pwa."),
        *(f"error.{code}" for code in ("arena_", "bad_minutes", "bad_start", "no_arenas")),
        *(f"error.{code}" for code in ("not_in_arena", "name_required", "seek_")),
        *(f"error.{code}" for code in ("push_off", "bad_endpoint", "too_many_subscriptions")),
        *(f"error.{code}" for code in ("no_player", "bad_code", "nothing_to_transfer")),
    )
    # Of the words every page may show (common.*), those its script names.
    replay_names = script_of(client, assets.page("replay-pairs").js or "")
    assert replay_words == {
        k: text
        for k, text in whole.items()
        if not k.startswith(others) and (not k.startswith("common.") or named(k, replay_names))
    }
    replay_only = ("replay.", "games.pairs.replay.", "error.bad_ply", "error.illegal_log")
    replay_only += ("error.replay_forbidden",)
    replay_only += ("error.no_review", "error.too_many_reviews", "error.game_")
    kept = ("error.game_over", "error.game_not_found", "error.game_cancelled")  # not reviews'
    play_names = script_of(client, pairs.js)
    assert words == {
        k: text
        for k, text in whole.items()
        if not k.startswith((*others, *replay_only)) or k.startswith(kept)
        if not k.startswith("common.") or named(k, play_names)
    }
    assert "common.best_streak" in words and "common.score" not in words  # Blocks' word
    assert "games.pairs.title" in words and "common.new_game" in words and "error.busy" in words
    assert "games.pairs.replay.move.hint" in replay_words and "replay.moves" in replay_words
    assert f'href="{assets.url("i18n/en.json")}"' in client.get("/").text  # the lobby: all
    lobby_words = client.get(assets.url("i18n/en.json")).json()
    assert "lobby.title" in lobby_words and "leaderboard.title" not in lobby_words
    assert client.get("/static/dist/js/nope-AAAAAAAA.js").status_code == 404
    assert client.get("/static/dist/../../app/main.py").status_code == 404


def test_new_game_comes_with_the_page_that_opens_it_at_once(site: Any) -> None:
    """Triangles' New game dialog is a chunk its script imports when first asked for:
    /play/triangles, which opens it on arrival, names it for the browser to fetch with the
    script; a game opened by its link (/g/<id>) does not, and the script holds none of it."""
    client = site()
    triangles = site_assets().page("game-triangles")
    chunk = triangles.lazy["games/triangles/new-game.js"]
    preload = f'<link rel="modulepreload" href="{chunk}">'
    assert preload in client.get("/play/triangles").text
    assert preload in client.get("/play/triangles/12345678-a").text
    game = client.post("/api/games", json={"game": "triangles", "params": {"opponent": "easy"}})
    assert preload not in client.get(f"/g/{game.json()['id']}").text
    entry = client.get(triangles.js or "").text
    assert chunk.rsplit("/", 1)[1] in entry and "games.triangles.new.start_online" not in entry
    assert "games.triangles.new.start_online" in client.get(chunk).text


def test_a_page_reloaded_unchanged_is_answered_304(site: Any) -> None:
    """A page carries the ETag of its bytes: a reload of the same page costs no body."""
    client = site()
    first = client.get("/play/pairs")
    etag = first.headers["etag"]
    assert first.status_code == 200 and etag.startswith('W/"')
    again = client.get("/play/pairs", headers={"if-none-match": etag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
    assert client.get("/", headers={"if-none-match": etag}).status_code == 200  # another page


def test_the_server_does_not_start_without_the_build(tmp_path: Path) -> None:
    with pytest.raises(AssetsMissing, match="the front end is not built. Run `make build`"):
        Assets(tmp_path)


def test_settings_read_their_environment_names(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SECRET", "from-env")
    monkeypatch.setenv("ALLOWED_ORIGINS", "https://a.example,https://b.example/")
    monkeypatch.setenv("SECRET_FILE", os.devnull)
    settings = Settings()
    assert settings.secret == "from-env"
    assert settings.extra_origins == {"https://a.example", "https://b.example"}
    assert str(settings.secret_file) == os.devnull
