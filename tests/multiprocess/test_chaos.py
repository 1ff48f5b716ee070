"""A one-minute chaos soak (bench/chaos.py): two processes on PostgreSQL + Redis, a kill,
a Redis cut, a PostgreSQL cut and a flood, with matches and games at human pace; no
acknowledged move may be lost and every log must replay to its stored row."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.servers import ROOT

DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "")

pytestmark = [
    pytest.mark.multiprocess,
    pytest.mark.skipif(
        not (REDIS_URL and DATABASE_URL.startswith("postgres")),
        reason="needs REDIS_URL and a PostgreSQL DATABASE_URL",
    ),
]


def test_a_minute_of_chaos_loses_nothing() -> None:
    run = subprocess.run(
        [sys.executable, "bench/chaos.py", "--minutes", "1",
         "--postgres", DATABASE_URL, "--redis", REDIS_URL],
        cwd=ROOT, capture_output=True, text=True, timeout=400,
    )  # fmt: skip
    print(run.stdout)
    lines = run.stdout.strip().splitlines()
    assert lines, run.stderr
    result = json.loads(lines[-1])
    assert run.returncode == 0, run.stdout + run.stderr
    assert result["moves_lost"] == 0 and result["replays_bad"] == 0
    assert result["kills"] >= 1 and result["redis_cuts"] >= 1 and result["db_cuts"] >= 1
    assert result["moves_acked"] > 50 and result["games"] >= 8
    assert result["errors_5xx"] == 0
    assert result["replays_ok"] == result["games"]
