"""Stacked setups of Café International: a bag order, or a position written by hand.

A setup is JSON (the doc page's "Setting up a position" has every field and an example):
``{"bag": [...]}`` alone stacks the bag and deals the hands from it; any other field but ``rest``
sets up a position. Every one of the 100 cards (CI-0.1) is then somewhere exactly once: in the
bag, a hand, on a chair, at the bar or, with a thrown-out player's hand, out of play. With
``rest: {"seed": N}`` only part of it need be written: the cards not listed are shuffled with
that seed, dealt to any hand given as a number of cards, and put in the bag after its listed
top. A position is checked as far as a game could have reached it: seating (CI-T.2 to CI-T.4,
each table named), the birthday table (CI-V.1), dances (CI-V.2), thrown-out players (CI-M.3).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kafeneio.core.errors import KafeneioError
from kafeneio.core.events import seat
from kafeneio.core.randomness import shuffle
from kafeneio.core.setup import rest_shuffle
from kafeneio.games.cafe.board import JOKER_LADY, JOKER_MAN, Board, is_joker, nation_of
from kafeneio.games.cafe.options import CafeOptions

COPIES = {**{k: 4 for k in range(24)}, JOKER_LADY: 2, JOKER_MAN: 2}
"""CI-0.1: 4 ladies and 4 men of each nation, 2 joker ladies and 2 joker men."""
POSITION_FIELDS = (
    "hands",
    "chairs",
    "bar",
    "left_play",
    "scores",
    "hand_targets",
    "to_move",
    "opening",
    "out",
    "birthday_table",
    "dance_tables",
    "pending",
    "tables_completed",
)
SETUP_FIELDS = ("bag", "rest", *POSITION_FIELDS)
PENDING = ("birthday", "draw")
"""Choices a position may wait for: the birthday table (CI-V.1), the draw (CI-D.2 ``choose``)."""
DECLINED = "declined"
"""``birthday_table`` when the first player to reach the threshold chose no table (CI-V.1)."""


FULL_DECK = tuple(card for card, copies in COPIES.items() for _ in range(copies))
"""The 100 cards in a fixed order (CI-0.1), before any shuffle."""


def full_deck() -> list[int]:
    return list(FULL_DECK)  # a copy, made once per game


@dataclass
class Position:
    """A position as the state takes it: indices, checked against the rules."""

    hands: list[list[int]]
    chairs: dict[int, int]
    """Chair index to card."""
    bar: list[int]
    scores: list[int]
    targets: list[int]
    to_move: int
    opening: bool
    out: list[bool]
    birthday_table: int = -1
    birthday_claimed: bool = False
    birthday_chooser: int = -1
    dance_tables: list[int] = field(default_factory=list)
    choosing_draw: bool = False
    tables_completed: int = 0


@dataclass
class Stacked:
    bag: list[int]
    """The bag in draw order, first drawn first."""
    position: Position | None
    """None: the start, the hands dealt from the bag."""


def parse_setup(board: Board, options: CafeOptions, n: int, setup: Mapping[str, Any]) -> Stacked:
    """Check and read `setup` for `n` players; `KafeneioError` naming the field otherwise."""
    if not isinstance(setup, Mapping):
        raise KafeneioError("setup must be an object")
    unknown = sorted(set(setup) - set(SETUP_FIELDS))
    if unknown:
        raise KafeneioError(f"setup has unknown fields {unknown}; it takes {SETUP_FIELDS}")
    rest = rest_shuffle(setup)
    top = _cards(board, setup, "bag") if "bag" in setup or rest is None else []
    if not any(name in setup for name in POSITION_FIELDS):
        bag = top + (_unlisted(board, Counter(top), "setup.bag", rest) if rest else [])
        _check_every_card(board, Counter(bag), "setup.bag")
        return Stacked(bag, None)
    return _position(board, options, n, setup, top, rest)


def _position(
    board: Board,
    options: CafeOptions,
    n: int,
    setup: Mapping[str, Any],
    top: list[int],
    rest: random.Random | None,
) -> Stacked:
    out = _out(setup, n, options)
    targets = _ints(setup, "hand_targets", n, [options.hand_size] * n, 0, options.hand_size)
    raw_hands = setup.get("hands") if "hands" in setup or rest is None else [None] * n
    if not isinstance(raw_hands, list) or len(raw_hands) != n:
        raise KafeneioError(f"setup.hands must be a list of {n} hands")
    chairs = _chairs(board, setup)
    bar = _cards(board, setup, "bar") if "bar" in setup else []
    if len(bar) > len(options.bar_values) or any(map(is_joker, bar)):
        raise KafeneioError("setup.bar holds too many guests or a joker (CI-M.2)")
    left = _cards(board, setup, "left_play") if "left_play" in setup else []
    if left and not any(out):
        raise KafeneioError("setup.left_play: only a thrown-out player's hand leaves play (CI-M.3)")
    hands: list[list[int] | int] = []
    for player, hand in enumerate(raw_hands):
        default = 0 if out[player] else targets[player]
        hands.append(_hand(board, hand, player, default, rest))
    listed = Counter(top + bar + left + list(chairs.values()))
    for hand in hands:
        if isinstance(hand, list):
            listed.update(hand)
    if rest is not None:
        unlisted = _unlisted(board, listed, "setup", rest)
        for player, hand in enumerate(hands):
            if isinstance(hand, int):
                hands[player], unlisted = unlisted[:hand], unlisted[hand:]
        top = top + unlisted
    dealt = [hand for hand in hands if isinstance(hand, list)]
    everything = Counter(top + bar + left + list(chairs.values()))
    for hand in dealt:
        everything.update(hand)
    where = "setup (bag, hands, chairs, bar and left_play together)"
    _check_every_card(board, everything, where)
    for player, hand in enumerate(dealt):
        if out[player] and hand:
            raise KafeneioError(f"setup.hands[{player}]: a thrown-out player has no hand (CI-M.3)")
    position = Position(
        hands=[sorted(hand) for hand in dealt],
        chairs=chairs,
        bar=bar,
        scores=_ints(setup, "scores", n, [0] * n, 0, None),
        targets=targets,
        to_move=_to_move(setup, n, out),
        opening=_opening(setup, chairs, bar),
        out=out,
    )
    _dances(board, options, setup, position)
    _check_seating(board, options, position)
    _birthday(board, options, setup, position)
    _pending(options, setup, position)
    return Stacked(top, position)


def _unlisted(board: Board, listed: Counter[int], where: str, rng: random.Random) -> list[int]:
    """The cards that `listed` leaves out, shuffled; `KafeneioError` if it lists one too often."""
    left = Counter(COPIES)
    left.subtract(listed)
    for card, count in left.items():
        if count < 0:
            raise KafeneioError(
                f"{where} lists {board.card_text(card)} {COPIES[card] - count} times; "
                f"the game has it {COPIES[card]} times"
            )
    cards = sorted(left.elements())
    shuffle(rng, cards)
    return cards


def _cards(board: Board, data: Mapping[str, Any], name: str) -> list[int]:
    return _card_list(board, data.get(name), f"setup.{name}")


def _card_list(board: Board, texts: Any, where: str) -> list[int]:
    """The cards written `texts`; a refusal names the setup's field, `where`."""
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise KafeneioError(f"{where} must be a list of card notations like USm, Jf")
    try:
        return [board.parse_card(text) for text in texts]
    except KafeneioError as err:
        raise KafeneioError(f"{where}: {err}") from None


def _hand(
    board: Board, hand: Any, player: int, default: int, rest: random.Random | None
) -> list[int] | int:
    """A hand's cards, or how many cards to deal it from the rest."""
    if hand is None and rest is not None:
        return default
    if isinstance(hand, int) and not isinstance(hand, bool):
        if rest is None:
            raise KafeneioError(
                f"setup.hands[{player}]: a number of cards is dealt from the rest, so the setup "
                'needs rest: {"seed": N}'
            )
        if not 0 <= hand <= sum(COPIES.values()):
            raise KafeneioError(f"setup.hands[{player}] must be a number of cards ≥ 0")
        return hand
    return _card_list(board, hand, f"setup.hands[{player}]")


def _check_every_card(board: Board, counts: Counter[int], where: str) -> None:
    """Each of the 100 cards (CI-0.1) is there exactly once: no card lost, none made up."""
    for card, copies in COPIES.items():
        if counts[card] != copies:
            raise KafeneioError(
                f"{where} must hold each card as often as the game has it: "
                f"{board.card_text(card)} {copies} times, not {counts[card]}"
            )


def _ints(
    setup: Mapping[str, Any], name: str, n: int, default: list[int], least: int, most: int | None
) -> list[int]:
    values = setup.get(name, default)
    span = f"from {least} to {most}" if most is not None else f"≥ {least}"
    if (
        not isinstance(values, list)
        or len(values) != n
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in values)
        or not all(least <= v and (most is None or v <= most) for v in values)
    ):
        raise KafeneioError(f"setup.{name} must be a list of {n} whole numbers {span}")
    return list(values)


def _chairs(board: Board, setup: Mapping[str, Any]) -> dict[int, int]:
    chairs = setup.get("chairs", {})
    if not isinstance(chairs, dict):
        raise KafeneioError('setup.chairs must map chair numbers to cards, like {"18": "USm"}')
    seated = {}
    for key, text in chairs.items():
        chair = int(key) - 1 if isinstance(key, str) and key.isascii() and key.isdigit() else -1
        if not 0 <= chair < len(board.chairs) or not isinstance(text, str):
            raise KafeneioError(
                f"setup.chairs: {key!r} is not a chair from 1 to {len(board.chairs)}"
            )
        try:
            card = board.parse_card(text)
        except KafeneioError as err:
            raise KafeneioError(f"setup.chairs[{key!r}]: {err}") from None
        nations = {board.tables[t].nation for t in board.chairs[chair].tables}
        if not is_joker(card) and nation_of(card) not in nations:
            raise KafeneioError(f"setup.chairs: {text} cannot sit on chair {key} (CI-T.2)")
        seated[chair] = card
    return seated


def _out(setup: Mapping[str, Any], n: int, options: CafeOptions) -> list[bool]:
    """``out``: the players thrown out of the game (CI-M.3)."""
    players = setup.get("out", [])
    if (
        not isinstance(players, list)
        or not all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p < n for p in players)
        or len(set(players)) != len(players)
    ):
        raise KafeneioError(f"setup.out must list players from 0 to {n - 1}, each once")
    if players and options.bar_unpaid != "eliminate":
        raise KafeneioError("setup.out: with bar_unpaid = forbid nobody is thrown out (CI-M.3)")
    return [p in players for p in range(n)]


def _to_move(setup: Mapping[str, Any], n: int, out: list[bool]) -> int:
    to_move = setup.get("to_move", 0)
    if not isinstance(to_move, int) or isinstance(to_move, bool) or not 0 <= to_move < n:
        raise KafeneioError(f"setup.to_move must be a player from 0 to {n - 1}")
    if out[to_move]:
        raise KafeneioError(f"setup.to_move: {seat(to_move)} is out of the game (CI-M.3)")
    return to_move


def _opening(setup: Mapping[str, Any], chairs: dict[int, int], bar: list[int]) -> bool:
    """CI-T.8: the start player's first move is to come only while no guest is seated at a
    table or the bar; a position says ``opening: false`` when it is over all the same."""
    untouched = not chairs and not bar
    opening = setup.get("opening", untouched)
    if not isinstance(opening, bool):
        raise KafeneioError("setup.opening must be true or false")
    if opening and not untouched:
        raise KafeneioError(
            "setup.opening: the start player's first move comes while every chair and bar seat "
            "is empty (CI-T.8)"
        )
    return opening


def _tables(board: Board, data: Mapping[str, Any], name: str) -> list[int]:
    ids = data.get(name)
    if not isinstance(ids, list) or not all(isinstance(t, str) for t in ids):
        raise KafeneioError(f"setup.{name} must be a list of table ids like US1")
    try:
        return [board.table_by_id(t).index for t in ids]
    except KafeneioError as err:
        raise KafeneioError(f"setup.{name}: {err}") from None


def _dances(
    board: Board, options: CafeOptions, setup: Mapping[str, Any], position: Position
) -> None:
    """CI-V.2: a dance table holds 4 guests of one gender."""
    if "dance_tables" not in setup:
        return
    if not options.dance:
        raise KafeneioError("setup.dance_tables needs the dance option (CI-V.2)")
    tables = _tables(board, setup, "dance_tables")
    for table in tables:
        guests = [position.chairs.get(c) for c in board.tables[table].chairs]
        genders = {card & 1 for card in guests if card is not None}
        if None in guests or len(genders) != 1:
            raise KafeneioError(
                f"setup.dance_tables: {board.tables[table].id} does not hold 4 guests of one "
                "gender (CI-V.2)"
            )
    if len(set(tables)) != len(tables):
        raise KafeneioError("setup.dance_tables names a table twice")
    position.dance_tables = tables


def _check_seating(board: Board, options: CafeOptions, position: Position) -> None:
    """CI-T.3 and CI-T.4 at every table; a dance table is 4 of one gender (CI-V.2). The one
    exception is the opening's lone guest, who may stay alone (CI-T.8 reading A)."""
    seated, dances = position.chairs, position.dance_tables
    counts = []
    for table in board.tables:
        guests = [seated[c] for c in table.chairs if c in seated]
        men = sum(card & 1 for card in guests)
        counts.append((len(guests) - men, men))
        if table.index not in dances and max(counts[-1]) > 2:
            raise KafeneioError(
                f"setup.chairs: table {table.id} holds more than 2 ladies or 2 men (CI-T.3)"
            )
    lone: dict[int, list[str]] = {}
    for table in board.tables:
        ladies, men = counts[table.index]
        if (ladies and men) or not (ladies or men) or table.index in dances:
            continue
        chair = next(c for c in table.chairs if c in seated)
        beside = [t for t in board.chairs[chair].tables if t != table.index]
        if ladies + men == 1 and any(all(counts[t]) or t in dances for t in beside):
            continue
        opened = options.first_move == "lone-guest" and not position.opening
        if ladies + men != 1 or not opened:
            raise KafeneioError(
                f"setup.chairs: table {table.id} holds {ladies} ladies and {men} men, not an "
                "allowed group (CI-T.4)"
            )
        lone.setdefault(chair, []).append(table.id)
    if len(lone) > 1:
        tables = " and ".join(ids[0] for ids in lone.values())
        raise KafeneioError(
            f"setup.chairs: tables {tables} each hold a guest alone, and only the opening's "
            "first guest may stay alone (CI-T.4, CI-T.8)"
        )


def _birthday(
    board: Board, options: CafeOptions, setup: Mapping[str, Any], position: Position
) -> None:
    """CI-V.1: ``birthday_table`` is the table chosen, or ``declined``."""
    reached = [
        p
        for p, score in enumerate(position.scores)
        if score >= options.birthday_threshold and not position.out[p]
    ]
    if "birthday_table" not in setup:
        waiting = setup.get("pending") == "birthday"
        if options.birthday and reached and not waiting:
            raise KafeneioError(
                f"setup: {seat(reached[0])} has reached the birthday threshold, so "
                "setup.birthday_table must say which table they chose, or declined (CI-V.1)"
            )
        return
    if not options.birthday:
        raise KafeneioError("setup.birthday_table needs the birthday option (CI-V.1)")
    chosen = setup["birthday_table"]
    if not isinstance(chosen, str):
        raise KafeneioError(f'setup.birthday_table must be a table id like US1, or "{DECLINED}"')
    position.birthday_claimed = True
    if chosen != DECLINED:
        position.birthday_table = _tables(board, {"birthday_table": [chosen]}, "birthday_table")[0]


def _pending(options: CafeOptions, setup: Mapping[str, Any], position: Position) -> None:
    """``pending``: the choice the player to move makes before anything else."""
    pending = setup.get("pending")
    if "tables_completed" in setup and pending != "draw":
        raise KafeneioError('setup.tables_completed goes with pending: "draw"')
    if pending is None:
        return
    if pending not in PENDING:
        raise KafeneioError(f"setup.pending must be one of {', '.join(PENDING)}")
    player = position.to_move
    if pending == "birthday":
        if not options.birthday or position.birthday_claimed:
            raise KafeneioError(
                "setup.pending: a birthday choice needs the birthday option and no table "
                "chosen yet (CI-V.1)"
            )
        if position.scores[player] < options.birthday_threshold:
            raise KafeneioError(
                f"setup.pending: {seat(player)} has not reached the birthday threshold "
                f"{options.birthday_threshold} (CI-V.1)"
            )
        position.birthday_claimed = True
        position.birthday_chooser = player
        return
    if options.single_nation_draw != "choose":
        raise KafeneioError(
            "setup.pending: a draw choice needs single_nation_draw = choose (CI-D.2)"
        )
    completed = setup.get("tables_completed", 1)
    if not isinstance(completed, int) or isinstance(completed, bool) or not 1 <= completed <= 3:
        raise KafeneioError("setup.tables_completed must be 1, 2 or 3 (CI-D.2)")
    position.choosing_draw = True
    position.tables_completed = completed
