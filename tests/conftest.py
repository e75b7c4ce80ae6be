"""Shared test fixtures: where the project's shared folder (rules, data, tools) is."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SHARED = Path(os.environ.get("KAFENEIO_SHARED") or Path(__file__).resolve().parents[2] / "shared")
"""../shared beside the checkout, or where KAFENEIO_SHARED says (a git worktree elsewhere)."""


@pytest.fixture
def shared() -> Path:
    """../shared beside the checkout: always there in CI; a user's clone may lack it."""
    if not SHARED.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"CI needs the shared folder at {SHARED}")
        pytest.skip(f"no shared folder at {SHARED}")
    return SHARED
