"""Every domain test starts with the domain's caches empty, so no test is answered by what an
earlier one computed (and a deliberate bug in a cached function is always run, never skipped)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tasksurface.domain import patterns, redaction


@pytest.fixture(autouse=True)
def cold_caches() -> Iterator[None]:
    patterns.compiled.cache_clear()
    redaction._redacted_json.cache_clear()
    yield
