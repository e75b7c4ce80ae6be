"""Souvlaki Wars card data: shops, customers, food and unforeseen cards, read from TOML files.

The package ships the four files in ``cards/`` (../shared/rules/souvlaki-wars-cards.md). A user
may point the game at a directory of their own files with the same names: each file found there
replaces the built-in one. The loader checks every entry and names the file, the entry and the
field of the first problem it finds, so a user typing in the printed cards can fix their file.

Every number in a card file has a bound, checked when the file is loaded, so that no file can
make a game exhaust memory or loop for ever: the `MAX_...` constants below (the shipped cards
stay far inside them). A file is at most `MAX_FILE_BYTES` long, UTF-8 TOML.
"""

from __future__ import annotations

import difflib
import hashlib
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from kafeneio.core.errors import KafeneioError, shown

FOOD_LETTERS = "GSFD"
"""G pita gyros, S souvlaki (kalamaki), F fries, D soft drink (SW-0.2), in notation order."""
FOOD_NAMES = ("pita gyros", "souvlaki", "fries", "soft drink")
MAX_FOOD_PER_CARD = 3
"""At most 3 of one food on a food card: the action encoding gives each food 2 bits."""
MAX_UNFORESEEN_KINDS = 32
"""Unforeseen kinds a card set may hold: the action encoding reserves this many."""
MAX_COUNT = 100
"""The most copies of one card an entry's ``count`` may give."""
MAX_DECK = 500
"""The most cards a deck (customers, food or unforeseen cards, all entries together) may hold."""
MAX_SHOPS = 32
MAX_VALUE = 100
"""The largest money, reputation or influence figure (costs, starting values, rewards) and the
largest size of an effect's money or reputation ``amount`` (which may be negative)."""
MAX_CARDS = 10
"""The most cards one action or effect deals (supplies, draw-food, phone-order, ...) and the
most times supplies may be bought in a round."""
MAX_ORDER = 9
"""The most foods one customer orders."""
MAX_ID_LENGTH = 40
"""Ids are short: they are typed in the notation (``use queue-jump p2.3``)."""
MAX_FILE_BYTES = 1_000_000
FILES = ("shops.toml", "customers.toml", "foods.toml", "unforeseen.toml")
SOURCES = ("rulebook", "reconstruction")

Foods = tuple[int, int, int, int]
"""How many of each food, in `FOOD_LETTERS` order."""
NO_FOOD: Foods = (0, 0, 0, 0)

TARGET_KINDS = ("none", "yourself", "everyone", "player", "opponent", "customer", "customer-pair")
CUSTOMER_FILTERS: dict[str, tuple[str, ...]] = {
    "phone": ("any", "normal", "phone"),
    "annoyed": ("any", "yes", "no"),
    "position": ("any", "not-first"),
    "owner": ("any", "opponent", "yours"),
}
CUSTOMER_EFFECTS = ("annoy", "calm", "move-to-your-queue", "swap-ahead", "copy-order-ahead", "tip")
PAIR_EFFECTS = ("swap-pair",)
PLAYER_EFFECTS = (
    "money",
    "reputation",
    "draw-food",
    "phone-order",
    "take-random-food",
    "discard-random-food",
    "served-reputation",
    "served-money",
)
ROUND_EFFECTS = ("cancel-next",)
EFFECTS = CUSTOMER_EFFECTS + PAIR_EFFECTS + PLAYER_EFFECTS + ROUND_EFFECTS
LASTS_THE_ROUND = ("tip", "served-reputation", "served-money", "cancel-next")
LASTS_WHILE_QUEUED = ("copy-order-ahead",)
COUNTED_EFFECTS = ("draw-food", "phone-order", "take-random-food", "discard-random-food")
"""Effects whose amount is a number of cards: never below 1."""
NEEDS_NOT_FIRST = ("swap-ahead", "copy-order-ahead")


class CardDataError(KafeneioError):
    """A card file that cannot be used; the message names the file, the entry and the field."""


def foods_text(foods: Foods) -> str:
    """``GGF`` for two pita gyros and fries; letters in `FOOD_LETTERS` order."""
    return "".join(letter * count for letter, count in zip(FOOD_LETTERS, foods, strict=True))


def parse_foods(text: str) -> Foods:
    """The foods written `text` (letters G, S, F, D in any order and case); `ValueError` else."""
    counts = [0, 0, 0, 0]
    for letter in text:
        index = FOOD_LETTERS.find(letter.upper()) if letter.isascii() else -1
        if index < 0:
            raise ValueError(f"{shown(text)} is not food letters: use G, S, F, D (like GGF)")
        counts[index] += 1
    if not any(counts):
        raise ValueError("no food named: use the letters G, S, F, D (like GGF)")
    return counts[0], counts[1], counts[2], counts[3]


def foods_code(foods: Foods) -> int:
    """A food card's code 0..255 (2 bits a food); each count must be at most 3."""
    return foods[0] << 6 | foods[1] << 4 | foods[2] << 2 | foods[3]


def foods_of_code(code: int) -> Foods:
    return code >> 6 & 3, code >> 4 & 3, code >> 2 & 3, code & 3


@dataclass(frozen=True)
class Shop:
    """A shop identity (SW-0.4)."""

    id: str
    name: str
    greek: str
    nickname: str
    start_money: int
    start_reputation: int
    operating_cost: int
    supplies_cost: int
    supplies_cards: int
    supplies_per_round: int
    advertising_cost: int
    advertising_reputation: int
    source: str
    confirmed: tuple[str, ...]


@dataclass(frozen=True)
class CustomerCard:
    """One kind of customer card (SW-0.3). A Big Phone Order has `big` set and no order."""

    order: Foods
    money: int
    influence: int
    big: bool
    count: int
    source: str
    confirmed: tuple[str, ...]

    @cached_property  # read for every card in every observation: worked out once
    def text(self) -> str:
        """The card's notation: ``SF 1/2`` (order money/influence), or ``BIG``."""
        return "BIG" if self.big else f"{foods_text(self.order)} {self.money}/{self.influence}"


@dataclass(frozen=True)
class FoodCard:
    """One kind of food card (SW-0.2)."""

    foods: Foods
    count: int
    source: str
    confirmed: tuple[str, ...]

    @cached_property
    def text(self) -> str:
        return foods_text(self.foods)


@dataclass(frozen=True)
class Target:
    """What an unforeseen card is played on; the filters narrow customer targets."""

    kind: str
    phone: str = "any"
    annoyed: str = "any"
    position: str = "any"
    owner: str = "any"

    @property
    def customers(self) -> int:
        """How many customers are chosen: 0, 1 or 2."""
        return {"customer": 1, "customer-pair": 2}.get(self.kind, 0)

    @property
    def chooses_player(self) -> bool:
        return self.kind in ("player", "opponent")


@dataclass(frozen=True)
class Effect:
    """One primitive of an unforeseen card: `do` with `amount`, on the target or on `you`."""

    do: str
    amount: int = 1
    to: str = "target"


@dataclass(frozen=True)
class UnforeseenKind:
    """One kind of Unforeseen Factor card."""

    id: str
    name: str
    greek: str
    rule: str
    count: int
    text: str
    target: Target
    effects: tuple[Effect, ...]
    source: str
    confirmed: tuple[str, ...]

    @property
    def duration(self) -> str:
        """``instant``, ``round`` or ``customer``: when the played card is discarded (SW-3.4)."""
        dos = {effect.do for effect in self.effects}
        if dos & set(LASTS_WHILE_QUEUED):
            return "customer"
        if dos & set(LASTS_THE_ROUND):
            return "round"
        return "instant"


@dataclass(frozen=True)
class CardSet:
    """Every card of a game, and the directory of user files it came from (None: built in)."""

    shops: tuple[Shop, ...]
    customers: tuple[CustomerCard, ...]
    foods: tuple[FoodCard, ...]
    unforeseen: tuple[UnforeseenKind, ...]
    directory: str | None
    user_texts: tuple[tuple[str, str], ...] = ()
    """The user's files that replaced built-in ones: (file name, text), so that a record can
    carry them and replay on any machine."""
    digest: str = ""
    """SHA-256 of the four files' texts: a changed card file is detected, not replayed."""

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its user files (the built-in set by name), so that a pickled state or
        game stays small; loading rebuilds it and checks it the same way."""
        if not self.user_texts:
            return (builtin_cards, ())
        return (_cards_again, (dict(self.user_texts), self.directory))

    def shop_index(self, shop_id: str) -> int:
        for index, shop in enumerate(self.shops):
            if shop.id == shop_id:
                return index
        known = ", ".join(shop.id for shop in self.shops)
        raise KafeneioError(f"no shop {shop_id!r}; shops: {known}")

    def food_index(self, text: str) -> int:
        """The food card kind written `text` (``GF``); `KafeneioError` if the set has none."""
        try:
            foods = parse_foods(text)
        except ValueError as err:
            raise KafeneioError(str(err)) from None
        for index, card in enumerate(self.foods):
            if card.foods == foods:
                return index
        raise KafeneioError(f"there is no food card {foods_text(foods)}")

    def customer_index(self, text: str) -> int:
        """The customer card kind written `text` (``SF 1/2`` or ``BIG``)."""
        for index, card in enumerate(self.customers):
            if card.text == " ".join(text.upper().split()):
                return index
        raise KafeneioError(f"there is no customer card {text!r} (write them like SF 1/2, BIG)")

    def unforeseen_index(self, card_id: str) -> int:
        for index, kind in enumerate(self.unforeseen):
            if kind.id == card_id.lower():
                return index
        raise KafeneioError(f"there is no unforeseen card {card_id!r}")


def export_builtin(directory: Path, overwrite: bool = False) -> list[Path]:
    """Write the shipped card files into `directory` (made if missing), as a starting point for
    a set of one's own; `CardDataError` rather than overwrite a file unless `overwrite`."""
    targets = [directory / name for name in FILES]
    existing = [str(path) for path in targets if path.exists()]
    if directory.exists() and not directory.is_dir():
        raise CardDataError(f"{directory} is a file: name a directory (made if missing)")
    if existing and not overwrite:
        raise CardDataError(f"{', '.join(existing)}: already there; add --force to overwrite")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for path in targets:
            text = resources.files(__package__).joinpath("cards", path.name).read_text("utf-8")
            path.write_text(text, encoding="utf-8")
    except OSError as err:
        raise CardDataError(f"cannot write the card files to {directory}: {err.strerror}") from None
    return targets


@cache
def builtin_cards() -> CardSet:
    """The card set shipped with the package."""
    return _load(None, {})


def load_cards(directory: Path | str | None) -> CardSet:
    """The built-in cards, with each file found in `directory` replacing the built-in one."""
    if directory is None:
        return builtin_cards()
    if not isinstance(directory, str | Path):  # e.g. a malformed record's options
        raise CardDataError(f"a card directory is a path, not {shown(directory)}")
    path = Path(directory)
    if path.exists() and not path.is_dir():
        raise CardDataError(f"{path} is a file, not a card directory: name the one holding it")
    if not path.is_dir():
        raise CardDataError(f"card directory {path} does not exist")
    found = {name: path / name for name in FILES if (path / name).is_file()}
    # a misnamed file (shop.toml) was left out without a word, its edits playing no part
    strays = sorted(p.name for p in path.glob("*.toml") if p.name not in FILES)
    if strays:
        raise CardDataError(
            f"card directory {path} holds {', '.join(strays)}, not a card file: the card files "
            f"are {', '.join(FILES)} (rename it, or move it out)"
        )
    if not found:
        raise CardDataError(f"card directory {path} holds none of {', '.join(FILES)}")
    return _load(str(path), found)


def _load(directory: str | None, user_files: Mapping[str, Path]) -> CardSet:
    texts = {name: _read_user_file(file) for name, file in user_files.items()}
    labels = {name: str(file) for name, file in user_files.items()}
    return cards_from_texts(texts, directory, labels)


def cards_from_texts(
    user_texts: Mapping[str, str],
    directory: str | None = None,
    labels: Mapping[str, str] | None = None,
) -> CardSet:
    """The built-in cards with the files in `user_texts` (file name: TOML text) replacing the
    built-in ones; `labels` name the files in errors."""
    unknown = set(user_texts) - set(FILES)
    if unknown:
        names = ", ".join(shown(name) for name in sorted(map(str, unknown)))
        raise CardDataError(f"card files are {', '.join(FILES)}, not {names}")
    for name, text in user_texts.items():
        label = (labels or {}).get(name, name)
        if not isinstance(text, str):
            raise CardDataError(f"{label}: a card file is TOML text, not {shown(text)}")
        if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
            raise CardDataError(f"{label}: a card file is at most {MAX_FILE_BYTES:,} bytes")
    texts = {
        name: user_texts[name] if name in user_texts else _builtin_text(name) for name in FILES
    }

    def read(name: str) -> tuple[str, dict[str, Any]]:
        label = (labels or {}).get(name, name) if name in user_texts else f"built-in {name}"
        try:
            return label, tomllib.loads(texts[name])
        except tomllib.TOMLDecodeError as err:
            raise CardDataError(f"{label}: not valid TOML: {err}") from None
        except RecursionError:
            raise CardDataError(f"{label}: its tables and lists are nested too deep") from None

    shops = _entries(*read("shops.toml"), "shop", _shop, lambda shop: shop.id, lambda _: 1)
    customers = _entries(
        *read("customers.toml"), "customer", _customer, lambda card: card.text, _count
    )
    foods = _entries(*read("foods.toml"), "food", _food, lambda card: card.foods, _count)
    unforeseen = _entries(
        *read("unforeseen.toml"), "unforeseen", _unforeseen, lambda u: u.id, _count
    )
    _check_set(shops, customers, unforeseen)
    digest = hashlib.sha256()
    for name in FILES:
        digest.update(f"{name}\0{texts[name]}\0".encode())
    user = tuple(sorted(user_texts.items()))
    return CardSet(shops, customers, foods, unforeseen, directory, user, digest.hexdigest())


def _cards_again(user_texts: Mapping[str, str], directory: str | None) -> CardSet:
    return cards_from_texts(user_texts, directory)


def _builtin_text(name: str) -> str:
    return resources.files(__package__).joinpath("cards", name).read_text("utf-8")


def _read_user_file(file: Path) -> str:
    """The text of a user's card file: at most `MAX_FILE_BYTES`, UTF-8."""
    try:
        with file.open("rb") as stream:
            data = stream.read(MAX_FILE_BYTES + 1)
    except OSError as err:
        raise CardDataError(f"{file}: cannot read it: {err.strerror}") from None
    if len(data) > MAX_FILE_BYTES:
        raise CardDataError(f"{file}: a card file is at most {MAX_FILE_BYTES:,} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise CardDataError(f"{file}: not UTF-8 text (byte {err.start})") from None


T = TypeVar("T")


def _count(card: CustomerCard | FoodCard | UnforeseenKind) -> int:
    return card.count


class _Entry:
    """One table of a card file, read field by field; errors name file, entry and field.

    A nested table (an unforeseen card's target or one of its effects) is read by an `_Entry`
    whose `prefix` names it, so its errors say ``field 'target.kind'``.
    """

    def __init__(self, file: str, section: str, index: int, data: Any, prefix: str = "") -> None:
        self.file, self.section, self.index, self.prefix = file, section, index, prefix
        if not isinstance(data, dict):
            raise self.error(None, "is not a table of fields")
        self.data: dict[str, Any] = data
        self.used: set[str] = set()

    def nested(self, field: str, data: Any) -> _Entry:
        return _Entry(self.file, self.section, self.index, data, f"{self.prefix}{field}.")

    def error(self, field: str | None, problem: str) -> CardDataError:
        where = f"{self.file}: [[{self.section}]] entry {self.index + 1}"
        if field is not None:
            where += f", field {self.prefix + field!r}"
        elif self.prefix:
            where += f", field {self.prefix[:-1]!r}"
        return CardDataError(f"{where}: {problem}")

    def identifier(self, field: str) -> str:
        value = self.text(field)
        allowed = "abcdefghijklmnopqrstuvwxyz0123456789-"
        if not 0 < len(value) <= MAX_ID_LENGTH or not all(c in allowed for c in value):
            raise self.error(
                field,
                f"must be 1 to {MAX_ID_LENGTH} lower-case ASCII letters, digits and hyphens, "
                f"not {shown(value)}",
            )
        return value

    def get(self, field: str, default: Any = None) -> Any:
        self.used.add(field)
        if field not in self.data:
            if default is None:
                raise self.error(field, f"is missing{self._misspelt(field)}")
            return default
        return self.data[field]

    def _misspelt(self, field: str) -> str:
        """Where an entry misses `field` and has a field of a name close to it (a typo,
        ``start_mony``), what to say of it; else nothing."""
        close = difflib.get_close_matches(field, [str(key) for key in self.data], n=1)
        return f" (is {close[0]!r} a misspelling of it?)" if close else ""

    def text(self, field: str, default: str | None = None) -> str:
        value = self.get(field, default)
        if not isinstance(value, str):
            raise self.error(field, f"must be a string, not {shown(value)}")
        return value

    def number(self, field: str, low: int, high: int, default: int | None = None) -> int:
        value = self.get(field, default)
        return self.bounded(field, value, low, high)

    def bounded(self, field: str, value: Any, low: int, high: int) -> int:
        """`value` if it is a whole number from `low` to `high`; the error names `field`."""
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise self.error(
                field, f"must be a whole number from {low} to {high}, not {shown(value)}"
            )
        return value

    def choice(self, field: str, choices: tuple[str, ...], default: str | None = None) -> str:
        value = self.text(field, default)
        if value not in choices:
            raise self.error(field, f"must be one of {', '.join(choices)}, not {shown(value)}")
        return value

    def foods(self, field: str, most: int | None) -> Foods:
        try:
            foods = parse_foods(self.text(field))
        except ValueError as err:
            raise self.error(field, str(err)) from None
        if most is not None and max(foods) > most:
            raise self.error(field, f"a card shows at most {most} of one food")
        return foods

    def source(self) -> tuple[str, tuple[str, ...]]:
        source = self.choice("source", SOURCES)
        confirmed = self.get("confirmed", [])
        if not isinstance(confirmed, list) or not all(isinstance(f, str) for f in confirmed):
            raise self.error("confirmed", "must be a list of field names")
        unknown = [name for name in confirmed if name not in self.data]
        if unknown:
            raise self.error("confirmed", f"names fields the entry does not have: {unknown}")
        return source, tuple(confirmed)

    def done(self) -> None:
        unknown = sorted(set(self.data) - self.used)
        if unknown:
            raise self.error(unknown[0], "is not a field of this kind of entry")


def _entries(
    file: str,
    data: dict[str, Any],
    section: str,
    build: Callable[[_Entry], T],
    key: Callable[[T], object],
    size: Callable[[T], int],
) -> tuple[T, ...]:
    """Build every entry of `section`; two entries with the same `key` are an error, and so are
    more than `MAX_DECK` cards (by `size`) or `MAX_SHOPS` shops in all."""
    most = MAX_SHOPS if section == "shop" else MAX_DECK
    total = 0
    unknown = sorted(set(data) - {section})
    if unknown:
        raise CardDataError(f"{file}: unknown table {unknown[0]!r}; it holds [[{section}]] entries")
    raw = data.get(section)
    if not isinstance(raw, list) or not raw:
        raise CardDataError(f"{file}: holds no [[{section}]] entries")
    built: list[T] = []
    seen: dict[object, int] = {}  # each key's entry, counted from 1 as errors count them
    for index, item in enumerate(raw):
        entry = _Entry(file, section, index, item)
        card = build(entry)
        entry.done()
        if key(card) in seen:
            raise _repeated(entry, key(card), seen[key(card)])
        seen[key(card)] = index + 1
        built.append(card)
        total += size(card)
        if total > most:
            field = None if section == "shop" else "count"
            raise entry.error(field, f"makes more than {most} {section} cards in all")
    return tuple(built)


def _repeated(entry: _Entry, key: object, earlier: int) -> CardDataError:
    """The error of an entry whose key the `earlier` entry has: a shop is one of a kind, named
    by its id, and so is an unforeseen card (the same id for another card's effects is a
    clash, not a second copy); a customer or food card comes in a count, which the earlier
    entry sets."""
    if entry.section == "shop":
        return entry.error("id", f"{key!r} is an earlier shop's id: give each shop its own")
    if entry.section == "unforeseen":
        return entry.error(
            "id",
            f"{key!r} is the id of entry {earlier}: give each kind of card its own id (for "
            "more copies of one card, raise that entry's count)",
        )
    return entry.error(None, f"repeats entry {earlier}'s card; raise that entry's count")


def _shop(entry: _Entry) -> Shop:
    source, confirmed = entry.source()
    shop_id = entry.identifier("id")
    name = entry.text("name")
    return Shop(
        id=shop_id,
        name=name,
        greek=entry.text("greek", name),
        nickname=entry.text("nickname", ""),
        start_money=entry.number("start_money", 0, MAX_VALUE),
        start_reputation=entry.number("start_reputation", 0, MAX_VALUE),
        operating_cost=entry.number("operating_cost", 0, MAX_VALUE),
        supplies_cost=entry.number("supplies_cost", 0, MAX_VALUE),
        supplies_cards=entry.number("supplies_cards", 1, MAX_CARDS),
        supplies_per_round=entry.number("supplies_per_round", 0, MAX_CARDS, 1),
        advertising_cost=entry.number("advertising_cost", 0, MAX_VALUE),
        advertising_reputation=entry.number("advertising_reputation", 1, MAX_VALUE),
        source=source,
        confirmed=confirmed,
    )


def _customer(entry: _Entry) -> CustomerCard:
    source, confirmed = entry.source()
    big = entry.get("big_phone_order", False)
    if not isinstance(big, bool):
        raise entry.error("big_phone_order", f"must be true or false, not {big!r}")
    count = entry.number("count", 1, MAX_COUNT)
    if big:
        return CustomerCard(NO_FOOD, 0, 0, True, count, source, confirmed)
    order = entry.foods("order", None)
    if sum(order) > MAX_ORDER:
        raise entry.error("order", f"a customer orders at most {MAX_ORDER} foods")
    money, influence = entry.number("money", 0, MAX_VALUE), entry.number("influence", 0, MAX_VALUE)
    return CustomerCard(order, money, influence, False, count, source, confirmed)


def _food(entry: _Entry) -> FoodCard:
    source, confirmed = entry.source()
    foods = entry.foods("foods", MAX_FOOD_PER_CARD)
    return FoodCard(foods, entry.number("count", 1, MAX_COUNT), source, confirmed)


def _unforeseen(entry: _Entry) -> UnforeseenKind:
    source, confirmed = entry.source()
    card_id = entry.identifier("id")
    name = entry.text("name")
    target = _target(entry)
    effects = _effects(entry, target)
    return UnforeseenKind(
        id=card_id,
        name=name,
        greek=entry.text("greek", name),
        rule=entry.text("rule", ""),
        count=entry.number("count", 1, MAX_COUNT),
        text=entry.text("text", name),
        target=target,
        effects=effects,
        source=source,
        confirmed=confirmed,
    )


def _target(entry: _Entry) -> Target:
    raw = entry.get("target")
    if not isinstance(raw, dict):
        raise entry.error("target", 'must be a table like { kind = "customer" }')
    inner = entry.nested("target", raw)
    kind = inner.choice("kind", TARGET_KINDS)
    filters = {}
    for name, choices in CUSTOMER_FILTERS.items():
        if name in raw and kind not in ("customer", "customer-pair"):
            raise inner.error(name, "narrows customer targets only")
        filters[name] = inner.choice(name, choices, "any")
    inner.done()
    return Target(kind, **filters)


def _effects(entry: _Entry, target: Target) -> tuple[Effect, ...]:
    raw = entry.get("effects")
    if not isinstance(raw, list) or not raw:
        raise entry.error("effects", "must be a non-empty list of { do = ... } tables")
    effects = []
    for number, item in enumerate(raw):
        field = f"effects[{number}]"
        if not isinstance(item, dict):
            raise entry.error(field, 'must be a table like { do = "annoy" }')
        inner = entry.nested(field, item)
        do = inner.choice("do", EFFECTS)
        amount = inner.get("amount", 1)
        if do in COUNTED_EFFECTS:  # a number of cards
            inner.bounded("amount", amount, 1, MAX_CARDS)
        else:
            inner.bounded("amount", amount, -MAX_VALUE, MAX_VALUE)
        to = inner.choice("to", ("target", "you"), "target")
        inner.done()
        _check_effect_fits(inner, do, to, target)
        effects.append(Effect(do, amount, to))
    return tuple(effects)


def _check_effect_fits(entry: _Entry, do: str, to: str, target: Target) -> None:
    """An effect must act on what the card targets: a customer effect needs a customer, etc."""
    if do in CUSTOMER_EFFECTS and target.kind != "customer":
        raise entry.error("do", f"{do} acts on one customer: the target kind must be customer")
    if do in PAIR_EFFECTS and target.kind != "customer-pair":
        raise entry.error(
            "do", f"{do} acts on two customers: the target kind must be customer-pair"
        )
    if do in NEEDS_NOT_FIRST and target.position != "not-first":
        raise entry.error("do", f'{do} needs the customer ahead: set position = "not-first"')
    if do in PLAYER_EFFECTS and to == "target" and target.kind == "none":
        raise entry.error("to", f'{do} acts on a player but the card targets nobody: to = "you"')
    if do == "take-random-food" and to == "you":
        raise entry.error("to", "take-random-food takes from the target and gives to you")


def _check_set(
    shops: tuple[Shop, ...],
    customers: tuple[CustomerCard, ...],
    unforeseen: tuple[UnforeseenKind, ...],
) -> None:
    """Rules that span entries: enough shops, a customer to order, not too many kinds."""
    if len(shops) < 2:
        raise CardDataError("the shops file needs at least 2 shops")
    if all(card.big for card in customers):
        raise CardDataError("the customers file needs at least one customer who is not big")
    if len(unforeseen) > MAX_UNFORESEEN_KINDS:
        raise CardDataError(f"at most {MAX_UNFORESEEN_KINDS} kinds of unforeseen card")
