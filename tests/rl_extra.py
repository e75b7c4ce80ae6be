"""Whether this checkout skips what needs the ``rl`` extra (which scripts/setup installs).
Outside CI, a checkout without it skips those tests; in CI a missing package fails them."""

from __future__ import annotations

import importlib.util
import os

MISSING = [
    name
    for name in ("numpy", "gymnasium", "pettingzoo", "pyspiel")
    if importlib.util.find_spec(name) is None
]
"""The rl extra's packages this checkout lacks."""
SKIPPED = bool(MISSING) and not os.environ.get("CI")
"""True when the tests that need the rl extra are skipped rather than failed."""
REASON = f"the rl extra is not installed (no {', '.join(MISSING)})"
