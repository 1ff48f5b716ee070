"""deploy/ read without running it (Docker cannot run here; nginx runs in test_nginx.py):
the compose file wires every app process the same way, and nginx.conf agrees with the
app's settings and security headers: its directives are read block by block (a small
reader of nginx's syntax: words, quoted strings, ``;``, ``{ }`` and comments)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from app.config import Settings
from app.middleware import JSON_HEADERS
from app.verify import VERIFY_BODY_BYTES
from tests.servers import ROOT

DEPLOY = ROOT / "deploy"


TOKEN = re.compile(
    r"""\s+|\#[^\n]*"""  # spaces and comments
    r"""|"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'"""  # a quoted word
    r"""|([{};])|([^\s{};"'#]+)"""  # punctuation, a bare word
)
Directive = tuple[tuple[str, ...], str, tuple[str, ...]]  # (enclosing blocks, name, args)


def directives(conf: str) -> list[Directive]:
    """Every directive with the blocks around it, e.g. ``(("http", "server", "location =
    /api/verify"), "client_max_body_size", ("800000",))``."""
    found: list[Directive] = []
    blocks: list[str] = []
    words: list[str] = []
    at = 0
    while at < len(conf):
        match = TOKEN.match(conf, at)
        assert match is not None, f"nginx.conf: cannot read {conf[at:at + 40]!r}"
        at = match.end()
        double, single, punct, word = match.groups()
        if punct == "{":
            blocks.append(" ".join(words))
            words = []
        elif punct == "}":
            assert not words and blocks, "nginx.conf: unbalanced }"
            blocks.pop()
        elif punct == ";":
            found.append((tuple(blocks), words[0], tuple(words[1:])))
            words = []
        elif word is not None or double is not None or single is not None:
            words.append(next(w for w in (word, double, single) if w is not None))
    assert not blocks and not words, "nginx.conf: a block or directive is not closed"
    return found


def values(conf: list[Directive], name: str, blocks: tuple[str, ...]) -> list[tuple[str, ...]]:
    return [args for where, what, args in conf if what == name and where == blocks]


def size_bytes(text: str) -> int:
    units = {"k": 1024, "m": 1024 * 1024}
    return int(text[:-1]) * units[text[-1].lower()] if text[-1].isalpha() else int(text)


def seconds(text: str) -> int:
    assert text.endswith("s"), text
    return int(text[:-1])


def compose() -> dict[str, Any]:
    yaml = pytest.importorskip("yaml")  # PyYAML comes with the dev tools (schemathesis)
    return yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())  # type: ignore[no-any-return]


def test_compose_runs_postgres_redis_migration_two_apps_and_nginx() -> None:
    services = compose()["services"]
    assert set(services) == {"postgres", "redis", "migrate", "app1", "app2", "nginx"}
    for name in ("app1", "app2"):
        app = services[name]
        env = app["environment"]
        assert set(env) >= {"SECRET", "DATABASE_URL", "REDIS_URL", "FORWARDED_ALLOW_IPS"}
        assert env["SECRET"].startswith("${SECRET:?")  # compose refuses to start without it
        assert env["DATABASE_URL"].startswith("postgresql://")
        assert app["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        assert "ports" not in app  # reached through nginx only
    assert services["migrate"]["command"] == ["alembic", "upgrade", "head"]
    assert "./nginx.conf:/etc/nginx/nginx.conf:ro" in services["nginx"]["volumes"]
    # The container may open the files nginx.conf's workers ask for.
    files = directives((DEPLOY / "nginx.conf").read_text())
    assert [str(services["nginx"]["ulimits"]["nofile"])] == [
        args[0] for where, name, args in files if name == "worker_rlimit_nofile"
    ]
    upstreams = re.findall(r"^\s*server (\S+:\d+)", (DEPLOY / "nginx.conf").read_text(), re.M)
    assert upstreams == ["app1:8000", "app2:8000"] * 2  # every request; a game's sockets


def test_nginx_conf_matches_the_app() -> None:
    conf = (DEPLOY / "nginx.conf").read_text()
    parsed = directives(conf)
    http, server = ("http",), ("http", "server")
    settings = Settings()
    # Bodies: the app's limits, and /api/verify's own (a whole game's log) in its location.
    assert [size_bytes(v[0]) for v in values(parsed, "client_max_body_size", http)] == [
        settings.max_body_bytes
    ]
    verify = (*server, "location = /api/verify")
    assert values(parsed, "client_max_body_size", verify) == [(str(VERIFY_BODY_BYTES),)]
    assert values(parsed, "proxy_pass", verify) == [("http://app",)]
    assert values(parsed, "default", (*http, "map $uri $body_limit")) == [
        (str(settings.max_body_bytes),)
    ]
    assert values(parsed, "/api/verify", (*http, "map $uri $body_limit")) == [
        (str(VERIFY_BODY_BYTES),)
    ]
    too_large = values(parsed, "return", (*server, "location @too_large"))
    assert too_large[0][0] == "413" and "$body_limit bytes" in too_large[0][1]
    # Slow clients: a head, a body or a reader that stalls is closed within 30 s.
    assert values(parsed, "client_header_timeout", http) == [("10s",)]
    assert [seconds(v[0]) for v in values(parsed, "client_body_timeout", http)] == [10]
    assert 0 < seconds(values(parsed, "send_timeout", http)[0][0]) <= 30
    assert values(parsed, "reset_timedout_connection", http) == [("on",)]
    # Files: 4,096 WebSockets (two connections each) fit one worker, and the worker may
    # open the files they take (the usual soft limit is 1,024).
    connections = int(values(parsed, "worker_connections", ("events",))[0][0])
    files = int(values(parsed, "worker_rlimit_nofile", ())[0][0])
    assert connections >= 2 * 4096 and files >= 2 * connections
    # What one address holds open: more than the app's own socket limit (which answers
    # first, with its close code), and refused in the app's error shape.
    assert values(parsed, "limit_conn_zone", http) == [
        ("$binary_remote_addr", "zone=per_address:10m")
    ]
    per_address = int(values(parsed, "limit_conn", http)[0][1])
    assert per_address >= 2 * settings.limit_sockets_per_ip
    assert values(parsed, "limit_conn_status", http) == [("429",)]
    assert ("429", "@too_many") in values(parsed, "error_page", server)
    too_many = values(parsed, "return", (*server, "location @too_many"))
    assert too_many[0][0] == "429" and '"code": "rate_limited"' in too_many[0][1]
    # nginx's own error pages (JSON) carry the app's JSON answers' headers, word for word,
    # and no document policy.
    for name, value in JSON_HEADERS.items():
        found = re.findall(rf'add_header {re.escape(name)} "?(.*?)"? always;', conf, re.I)
        assert found and set(found) == {value}, name
    assert not re.search(r"add_header (Referrer|Permissions)-Policy", conf, re.I)
