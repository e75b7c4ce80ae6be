"""Every Python example of docs/rl.md runs as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

RL_DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
EXAMPLES = re.findall(r"```py\n(.*?)```", RL_DOC.read_text(encoding="utf-8"), re.DOTALL)


def test_the_page_has_its_examples() -> None:
    assert len(EXAMPLES) >= 4


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"example-{i}" for i in range(len(EXAMPLES))])
def test_an_example_of_docs_rl_runs(example: str) -> None:
    exec(compile(example, str(RL_DOC), "exec"), {"__name__": "rl_doc_example"})
