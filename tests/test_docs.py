"""The doc pages: each states every rules option with its current default, and works in a plain
clone (no links outside the repository)."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest

from kafeneio.core.options import MAX_LIST, MAX_WHOLE, RulesOptions
from kafeneio.games import get_game
from rl_extra import REASON, SKIPPED

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = {"cafe": "cafe-international.md", "souvlaki": "souvlaki-wars.md"}
OPTION_ROW = re.compile(r"^\| (`[a-z_]+`(?:, `[a-z_]+`)*) \| (.+?) \| ", re.M)
"""A row of a page's options table: the option name(s), then the default(s)."""


def documented_defaults(page: str) -> dict[str, object]:
    text = (DOCS / page).read_text(encoding="utf-8")
    section = text.split("## Rules options", 1)[1].split("\n## ", 1)[0]
    found: dict[str, object] = {}
    for names_cell, default_cell in OPTION_ROW.findall(section):
        names = [name.strip("`") for name in names_cell.split(", ")]
        cells = [default_cell] if len(names) == 1 else default_cell.split(", ")
        for name, cell in zip(names, cells, strict=True):
            found[name] = json.loads(cell.strip().strip("`"))
    return found


@pytest.mark.parametrize("name", sorted(PAGES))
def test_the_options_table_gives_every_option_with_its_default(name: str) -> None:
    assert documented_defaults(PAGES[name]) == get_game(name).options.to_dict()


def documented_values(page: str) -> dict[str, str]:
    """Each option's cell of the page's "Values" column, as written."""
    text = (DOCS / page).read_text(encoding="utf-8")
    section = text.split("## Rules options", 1)[1].split("\n## ", 1)[0]
    found: dict[str, str] = {}
    for row in section.splitlines():
        cells = [cell.strip() for cell in row.strip("|").split(" | ")]
        if OPTION_ROW.match(row):
            for name in cells[0].split(", "):
                found[name.strip("`")] = cells[2]
    return found


def stated_range(options: type[RulesOptions], name: str) -> str | None:
    """What the page must say an option of numbers may take, from the code's bounds; None
    for an option of another kind."""
    default = getattr(options, name)
    if isinstance(default, int) and not isinstance(default, bool):
        least, most = options.BOUNDS.get(name, (0, MAX_WHOLE))
        return f"{least}–{most}"
    if isinstance(default, tuple) and name not in options.CHOICES:
        return f"a list of 1–{MAX_LIST} whole numbers, each from -{MAX_WHOLE:,} to {MAX_WHOLE:,}"
    return None


@pytest.mark.parametrize("name", sorted(PAGES))
def test_the_options_table_gives_the_range_the_code_accepts(name: str) -> None:
    options = type(get_game(name).options)
    values = documented_values(PAGES[name])
    expected = {
        option: stated_range(options, option)
        for option in values
        if stated_range(options, option) is not None
    }
    assert expected, "the page has options of numbers"
    assert {option: values[option] for option in expected} == expected


@pytest.mark.parametrize("page", sorted(PAGES.values()))
def test_a_page_links_nothing_outside_the_repository(page: str) -> None:
    text = (DOCS / page).read_text(encoding="utf-8")
    assert "../shared" not in text and "../seeds" not in text
    for target in re.findall(r"\]\(([^)#]+)\)", text):  # relative links must exist in the clone
        assert target.startswith("http") or (DOCS / target).exists(), target


@pytest.mark.parametrize("name", sorted(PAGES))
def test_the_page_gives_the_current_engine_version_and_action_count(name: str) -> None:
    text = (DOCS / PAGES[name]).read_text(encoding="utf-8")
    info = get_game(name).info
    assert f"a record's `engine`: {info.engine_version})" in text  # the Specs table
    assert f'"game": "{name}", "engine": {info.engine_version},' in text  # the record example
    assert f"| Number of actions | `{info.num_distinct_actions}` (see" in text
    assert f"num_distinct_actions = {info.num_distinct_actions}`" in text


@pytest.mark.parametrize("name", sorted(PAGES))
def test_the_page_gives_the_tensor_sizes_and_every_observation_key(name: str) -> None:
    text = (DOCS / PAGES[name]).read_text(encoding="utf-8")
    game = get_game(name)
    sizes = [len(game.new_state(n, seed=1).observation_tensor(0)) for n in (2, 3, 4)]
    assert f"{sizes[0]}, {sizes[1]} and {sizes[2]} entries" in text
    section = text.split("## Observation\n", 1)[1].split("\n## ", 1)[0]
    cells = re.findall(r"^\| (`[a-z_]+`(?:, `[a-z_]+`)*) \|", section, re.M)
    keys = {name.strip("`") for cell in cells for name in cell.split(", ")}
    assert set(game.new_state(2, seed=1).observation(0)) <= keys
    tensor = text.split("## Observation tensor\n", 1)[1].split("\n## ", 1)[0]
    pieces = re.findall(r"^\| `([a-z_]+)` \|", tensor, re.M)
    assert pieces == list(game.observation_spec(2))


def test_the_web_page_lists_every_api_route_and_the_server_limits() -> None:
    pytest.importorskip("fastapi")
    from starlette.routing import WebSocketRoute

    from kafeneio.server import app as server_app
    from kafeneio.server import models, sessions
    from kafeneio.sim.analysis import HINT_SECONDS

    text = (DOCS / "web.md").read_text(encoding="utf-8")
    table = text.split("## API\n", 1)[1].split("\n## ", 1)[0]
    documented = {
        (method, path.replace("/ID", "/{game_id}").replace("/GAME", "/{game}"))
        for method, path in re.findall(r"^\| `(GET|POST|WS) (/[^`?]*)", table, re.M)
    }
    served = set()
    for route in server_app.create_app("sqlite://").routes:
        path = getattr(route, "path", "")
        if isinstance(route, WebSocketRoute):
            served.add(("WS", path))
        elif path.startswith("/api/"):
            served |= {(method, path) for method in getattr(route, "methods", ())}
    assert documented == served
    assert f"at most {models.MAX_BUDGET} iterations a decision" in text
    assert f"(at most {server_app.MAX_IDS})" in text
    assert f"(more than {sessions.MAX_UNSENT} waiting to be sent)" in text
    assert f"({sessions.ANALYSIS_BUDGET.iterations} search iterations a decision" in text
    assert f"`mcts:iterations={sessions.ANALYSIS_BUDGET.iterations}`" in text
    words = {4: "four", 5: "five"}
    assert f"the {words[server_app.HINT_MOVES]} it rates best" in text
    assert f"when {words[sessions.ANALYSIS_QUEUE]} analyses are already under way" in text
    assert f"(`mcts`, {HINT_SECONDS:g} s)" in text


def test_the_game_pages_follow_one_template() -> None:
    """Both game pages have the same sections in the same order (a game's own, such as
    Souvlaki Wars' card data, may come between)."""
    headings = {
        page: re.findall(r"^##+ (.+)$", (DOCS / page).read_text(encoding="utf-8"), re.M)
        for page in PAGES.values()
    }
    cafe, souvlaki = (headings[PAGES[name]] for name in ("cafe", "souvlaki"))
    shared = [heading for heading in cafe if heading in souvlaki]
    assert shared == [heading for heading in souvlaki if heading in cafe]
    assert len(shared) >= 15, shared


PACKAGES = sorted(
    ".".join(init.parent.relative_to(ROOT / "src").parts)
    for init in (ROOT / "src" / "kafeneio").rglob("__init__.py")
)
"""Every package of kafeneio, by its dotted name."""
USED_NAME = re.compile(
    r"from (kafeneio(?:\.[a-z_]+)*) import ([A-Za-z_][A-Za-z_, ]*)"
    r"|`(kafeneio(?:\.[a-z_]+)+)\.([A-Za-z_]+)"
)
"""A name the docs take from a module: ``from kafeneio.x import a, b`` or `kafeneio.x.a`."""
RL_PACKAGE = "kafeneio.rl"
"""The package that needs the rl extra: skipped where the rl tests are (rl_extra.SKIPPED)."""
API_PACKAGES = [
    "kafeneio.bots",
    "kafeneio.core",
    "kafeneio.games",
    pytest.param(RL_PACKAGE, marks=pytest.mark.skipif(SKIPPED, reason=REASON)),
]
"""The packages whose names the Python API's users import (README, docs/)."""


def names_the_docs_use() -> set[tuple[str, str]]:
    """(package, name) for every name the README, docs and examples take from a package."""
    texts = [ROOT / "README.md", *DOCS.glob("*.md"), *(ROOT / "examples").glob("*.py")]
    used = set()
    for path in texts:
        for match in USED_NAME.finditer(path.read_text(encoding="utf-8")):
            module = match[1] or match[3]
            names = match[2].split(",") if match[1] else [match[4]]
            for name in names:
                used.add((module, name.split(" as ")[0].strip()))
    return {(module, name) for module, name in used if module in PACKAGES}


@pytest.mark.parametrize("package", API_PACKAGES)
def test_a_public_package_declares_its_names_and_has_each_of_them(package: str) -> None:
    module = importlib.import_module(package)
    assert all(hasattr(module, name) for name in module.__all__)


def test_every_name_the_docs_take_from_a_package_is_in_its_all() -> None:
    """A name of a package's own (not one of its modules) that the docs use is public: it is in
    the package's ``__all__``, so that a checker or ``import *`` sees what the docs promise."""
    missing = []
    for package, name in sorted(names_the_docs_use()):
        if package == RL_PACKAGE and SKIPPED:
            continue
        if (
            f"{package}.{name}" in PACKAGES
            or (ROOT / "src" / Path(*package.split("."), f"{name}.py")).exists()
        ):
            continue  # a module of the package
        if name not in getattr(importlib.import_module(package), "__all__", ()):
            missing.append(f"{package}.{name}")
    assert not missing
    assert ("kafeneio.games", "load_record") in names_the_docs_use()
