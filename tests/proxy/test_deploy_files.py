"""deploy/ read without running it (Docker cannot run here; nginx runs in test_nginx.py):
the compose file wires every app process the same way, and nginx.conf agrees with the
app's settings and security headers."""

from __future__ import annotations

import re
from typing import Any

import pytest

from app.config import Settings
from app.middleware import SECURITY_HEADERS
from tests.servers import ROOT

DEPLOY = ROOT / "deploy"


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
    upstreams = re.findall(r"^\s*server (\S+:\d+)", (DEPLOY / "nginx.conf").read_text(), re.M)
    assert upstreams == ["app1:8000", "app2:8000"]


def test_nginx_conf_matches_the_app() -> None:
    conf = (DEPLOY / "nginx.conf").read_text()
    limit = re.search(r"client_max_body_size (\d+)k;", conf)
    assert limit is not None and int(limit.group(1)) * 1024 == Settings().max_body_bytes
    assert re.search(r"client_header_timeout 10s;", conf)
    # nginx's own error pages carry the app's security headers, word for word.
    for name, value in SECURITY_HEADERS.items():
        found = re.findall(rf'add_header {re.escape(name)} "?(.*?)"? always;', conf, re.I)
        assert found and set(found) == {value}, name
