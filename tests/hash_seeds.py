"""Run the same Python code under two hash seeds: what tables built by many workers need is one
output in every process (another hash seed, another memory layout)."""

from __future__ import annotations

import os
import subprocess
import sys


def outputs_under_hash_seeds(code: str, *args: str) -> set[str]:
    """The distinct standard outputs of ``python -c code args`` under hash seeds 1 and 2: one
    output when nothing it prints depends on the process."""
    return {
        subprocess.run(
            [sys.executable, "-c", code, *args],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
            timeout=300,
        ).stdout
        for seed in (1, 2)
    }
