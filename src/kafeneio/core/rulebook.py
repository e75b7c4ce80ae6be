"""The rules reference a game package ships: one short entry per rule id, as data.

Each game package holds a ``rules.toml`` (its header describes the fields). `rulebook_of(game)`
loads the reference of a game object's package; `Rulebook.rule(rule_id)` gives one entry, so a
player can read the rule a refusal cites (``IllegalActionError.rule``).
"""

from __future__ import annotations

import re
import sys
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from kafeneio.core.errors import KafeneioError

RULE_ID = re.compile(r"(?:CI|SW)-[A-Z0-9]+\.\d+")
"""How a rule id is written: a game prefix, a section and a number (``CI-T.2``, ``SW-2.10``)."""
FILE_NAME = "rules.toml"


class RulebookError(KafeneioError):
    """A rules reference file that cannot be used, or a rule id it does not hold."""


@dataclass(frozen=True)
class Rule:
    """One entry of the reference."""

    id: str
    section: str
    """The heading of the rule's group (``Seating guests`` for ``CI-T.2``)."""
    text: str

    def __str__(self) -> str:
        return f"{self.id} ({self.section}): {self.text}"


class Rulebook:
    """The entries of one game, in the order of its file."""

    def __init__(self, game: str, rules: tuple[Rule, ...]) -> None:
        self.game = game
        self.rules = rules
        self._by_id = {rule.id: rule for rule in rules}

    def __iter__(self) -> Iterator[Rule]:
        return iter(self.rules)

    def __len__(self) -> int:
        return len(self.rules)

    def __contains__(self, rule_id: object) -> bool:
        return isinstance(rule_id, str) and _canonical(rule_id) in self._by_id

    def ids(self) -> list[str]:
        return [rule.id for rule in self.rules]

    def rule(self, rule_id: str) -> Rule:
        """The entry of `rule_id` (case-insensitive); `RulebookError` naming close ids else."""
        found = self._by_id.get(_canonical(rule_id))
        if found is not None:
            return found
        section = _canonical(rule_id).partition(".")[0]
        near = [rule.id for rule in self.rules if rule.id.startswith(section + ".")]
        hint = f"; {section} has {', '.join(near)}" if near else ""
        raise RulebookError(f"{self.game} has no rule {rule_id!r}{hint}.")


def _canonical(rule_id: str) -> str:
    return rule_id.strip().upper()


def rulebook_of(game: object) -> Rulebook:
    """The reference shipped in the package of `game` (a game object or its class)."""
    cls = game if isinstance(game, type) else type(game)
    module = sys.modules[cls.__module__]
    package = module.__name__ if hasattr(module, "__path__") else module.__package__ or ""
    return package_rulebook(package)


@cache
def package_rulebook(package: str) -> Rulebook:
    """The reference in ``rules.toml`` of the package `package` (``kafeneio.games.cafe``)."""
    source = resources.files(package) / FILE_NAME
    if not source.is_file():
        raise RulebookError(f"the package {package} ships no {FILE_NAME}")
    return parse_rulebook(source.read_text(encoding="utf-8"), f"{package}/{FILE_NAME}")


def load_rulebook(path: Path | str) -> Rulebook:
    """The reference in the file at `path` (a designer's or a test's own)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise RulebookError(f"{path}: cannot be read ({err.strerror})") from None
    return parse_rulebook(text, str(path))


def parse_rulebook(text: str, where: str) -> Rulebook:
    """Check and read a reference file's text; `RulebookError` naming `where` and the entry."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise RulebookError(f"{where}: not valid TOML ({err})") from None
    game = data.get("game")
    sections = data.get("sections")
    entries = data.get("rule")
    if not isinstance(game, str) or not game:
        raise RulebookError(f"{where}: 'game' must name the game")
    if not isinstance(sections, dict) or not all(isinstance(v, str) for v in sections.values()):
        raise RulebookError(f"{where}: [sections] must map id prefixes to headings")
    if not isinstance(entries, list) or not entries:
        raise RulebookError(f"{where}: it has no [[rule]] entries")
    rules: list[Rule] = []
    seen: set[str] = set()
    for number, entry in enumerate(entries, 1):
        rule = _entry(entry, sections, f"{where}: [[rule]] entry {number}")
        if rule.id in seen:
            raise RulebookError(f"{where}: rule {rule.id} is given twice")
        seen.add(rule.id)
        rules.append(rule)
    return Rulebook(game, tuple(rules))


def _entry(entry: Any, sections: Mapping[str, str], where: str) -> Rule:
    if not isinstance(entry, dict):
        raise RulebookError(f"{where}: must be a table")
    unknown = sorted(set(entry) - {"id", "text"})
    if unknown:
        raise RulebookError(f"{where}: unknown fields {unknown}; an entry has id and text")
    rule_id, text = entry.get("id"), entry.get("text")
    if not isinstance(rule_id, str) or not RULE_ID.fullmatch(rule_id):
        raise RulebookError(f"{where}, field 'id': must be a rule id like CI-T.2, not {rule_id!r}")
    if not isinstance(text, str) or not text.strip():
        raise RulebookError(f"{where} ({rule_id}), field 'text': must be a sentence or two")
    section = sections.get(rule_id.partition(".")[0])
    if section is None:
        raise RulebookError(f"{where} ({rule_id}): [sections] has no heading for its prefix")
    return Rule(rule_id, section, text.strip())
