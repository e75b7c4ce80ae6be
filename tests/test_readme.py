"""The README's Python example runs, for both games."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


@pytest.mark.parametrize("game", ["cafe", "souvlaki"])
def test_the_readme_api_example_plays_a_whole_game(game: str) -> None:
    match = re.search(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert match, "the README has a Python example"
    code = match.group(1)
    if game != "cafe":
        code = code.replace('get_game("cafe", {"dance": True})', f'get_game("{game}")')
    scope: dict[str, object] = {}
    exec(compile(code, str(README), "exec"), scope)
    state = scope["state"]
    assert state.is_terminal() and state.winners()  # type: ignore[attr-defined]
    assert scope["record"]["game"] == game  # type: ignore[index]


def test_the_readme_gives_the_serve_defaults() -> None:
    import inspect

    from kafeneio import cli

    defaults = {
        name: parameter.default
        for name, parameter in inspect.signature(cli.serve_command).parameters.items()
    }
    line = f"[--host {defaults['host']}] [--port {defaults['port']}]"
    text = README.read_text(encoding="utf-8")
    assert line in text and f"[--bot-pause {defaults['bot_pause']}]" in text
    assert f"(http://localhost:{defaults['port']}/)" in text  # the quick start
