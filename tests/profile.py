"""How hard the property tests try. ``HYPOTHESIS_PROFILE=quick`` (``make check``) runs a
tenth of each test's examples and random games, enough to catch a broken invariant in
seconds; the full counts run in ``make test`` and CI. Profiles are registered in
tests/conftest.py."""

from __future__ import annotations

import os

QUICK = os.environ.get("HYPOTHESIS_PROFILE") == "quick"


def examples(full: int) -> int:
    """The number of examples (or random games) to try: ``full``, or a tenth when quick."""
    return max(5, full // 10) if QUICK else full
