"""Souvlaki Wars actions: their values, text notation and fixed integer encoding.

Notation (case-insensitive on input; foods are letters G pita gyros, S souvlaki, F fries,
D soft drink; players are ``p1``..``p4`` in seat order; ``p2.3`` is the third customer in
player 2's queue; every number is counted from 1):

==============================  ===============================================================
``keep``, ``redraw``            the mulligan (SW-S.6)
``buy``, ``advertise``          shop maintenance: supplies, advertising (SW-1.3)
``done``                        end one's shop maintenance
``discard GF``                  discard a food card down to the hand limit (SW-1.4)
``pick 3``                      draft the customer in slot 3 of the row (SW-2.2)
``use queue-jump p2.3``         play an unforeseen card on its targets (SW-3.1):
                                none, a player ``p2``, a customer ``p2.3`` or two customers
``pass``                        play no unforeseen card this round
``play GF``                     play a food card into the service pool (SW-4.2)
``serve``                       serve the first customer from the pool (SW-4.3)
``send 2``                      send the second customer of one's queue away (SW-4.6)
``finish``                      end one's service (SW-4.4, SW-4.5)
``random GF``                   chance: the random food card taken is a GF (SW-E.11, SW-E.15)
==============================  ===============================================================

Codes: the eight one-word actions; then ``discard``, ``play`` and ``random`` by the food card's
contents (2 bits a food, so 256 each); ``pick`` by slot; ``send`` by queue position; ``use`` by
the kind's index in the card set times the target code (none, a player, a customer, or an
unordered pair of customers). The space is the same for every card set of up to
`MAX_UNFORESEEN_KINDS` kinds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kafeneio.core.actions import Action
from kafeneio.core.errors import KafeneioError, NotationError
from kafeneio.core.notation import (
    MAX_NUMBER_DIGITS,
    check_code,
    notation_words,
    whole_number,
)
from kafeneio.games.souvlaki.cards import (
    MAX_UNFORESEEN_KINDS,
    CardSet,
    Target,
    foods_code,
    foods_of_code,
    foods_text,
    parse_foods,
)

KEEP, REDRAW, BUY, ADVERTISE, DONE, DISCARD, PICK, PASS, USE, PLAY, SERVE, SEND, FINISH, RANDOM = (
    range(14)
)
WORDS = {
    "keep": KEEP,
    "redraw": REDRAW,
    "buy": BUY,
    "advertise": ADVERTISE,
    "done": DONE,
    "pass": PASS,
    "serve": SERVE,
    "finish": FINISH,
}
"""The one-word actions; their codes are their order here."""
FOOD_VERBS = {"discard": DISCARD, "play": PLAY, "random": RANDOM}

MAX_PLAYERS = 4
MAX_ROW = 2 * MAX_PLAYERS + 1
"""SW-2.1: at most 9 customers are revealed for the draft."""
MAX_QUEUE = 16
"""Queue positions the encoding can name (send, targets). Queues never get this long in play;
a customer beyond it could be neither sent away nor targeted."""
FOOD_CODES = 256
CUSTOMER_SLOTS = MAX_PLAYERS * MAX_QUEUE

DISCARD_BASE = len(WORDS)
PLAY_BASE = DISCARD_BASE + FOOD_CODES
RANDOM_BASE = PLAY_BASE + FOOD_CODES
PICK_BASE = RANDOM_BASE + FOOD_CODES
SEND_BASE = PICK_BASE + MAX_ROW
USE_BASE = SEND_BASE + MAX_QUEUE
TARGET_SHAPE = re.compile(r"p\d+(\.\d+)?", re.IGNORECASE)
"""A card's target as written: a player ``p2`` or a customer ``p2.3``."""
PLAYER_TARGET_BASE = 1
CUSTOMER_TARGET_BASE = PLAYER_TARGET_BASE + MAX_PLAYERS
PAIR_TARGET_BASE = CUSTOMER_TARGET_BASE + CUSTOMER_SLOTS
TARGET_CODES = PAIR_TARGET_BASE + CUSTOMER_SLOTS * (CUSTOMER_SLOTS - 1) // 2
NUM_ACTIONS = USE_BASE + MAX_UNFORESEEN_KINDS * TARGET_CODES

Targets = tuple[int, ...]
"""Flat: ``()``, ``(player,)``, ``(player, position)`` or two (player, position) pairs."""


@dataclass(frozen=True, slots=True, eq=False)
class SouvlakiAction(Action):
    """A Souvlaki Wars action; the fields that do not apply to its kind are -1 or empty."""

    kind: int = KEEP
    food: int = -1
    """The food card's contents code (`foods_code`) for discard, play and random."""
    slot: int = -1
    """The draft row slot (pick) or queue position (send), from 0."""
    card: int = -1
    """The unforeseen kind's index in the card set (use)."""
    targets: Targets = ()


def target_code(targets: Targets) -> int:
    if not targets:
        return 0
    if len(targets) == 1:
        return PLAYER_TARGET_BASE + targets[0]
    first = targets[0] * MAX_QUEUE + targets[1]
    if len(targets) == 2:
        return CUSTOMER_TARGET_BASE + first
    second = targets[2] * MAX_QUEUE + targets[3]
    if first == second:
        raise NotationError("a pair of customers names two different customers")
    low, high = min(first, second), max(first, second)
    return PAIR_TARGET_BASE + high * (high - 1) // 2 + low


def _pair_of(offset: int) -> tuple[int, int]:
    """The (low, high) customer slots of a pair offset, inverting ``high*(high-1)//2 + low``."""
    high = 1
    while (high + 1) * high // 2 <= offset:
        high += 1
    return offset - high * (high - 1) // 2, high


def targets_of_code(code: int) -> Targets:
    if code == 0:
        return ()
    if code < CUSTOMER_TARGET_BASE:
        return (code - PLAYER_TARGET_BASE,)
    if code < PAIR_TARGET_BASE:
        return divmod(code - CUSTOMER_TARGET_BASE, MAX_QUEUE)
    low, high = _pair_of(code - PAIR_TARGET_BASE)
    return (*divmod(low, MAX_QUEUE), *divmod(high, MAX_QUEUE))


def targets_text(targets: Targets) -> str:
    if len(targets) == 1:
        return f"p{targets[0] + 1}"
    return " ".join(f"p{targets[i] + 1}.{targets[i + 1] + 1}" for i in range(0, len(targets), 2))


def canonical_targets(targets: Targets) -> Targets:
    """A pair of customers in (player, position) order, so each pair has one notation."""
    if len(targets) == 4 and targets[2:] < targets[:2]:
        return (*targets[2:], *targets[:2])
    return targets


def shape_fits(target: Target, targets: Targets) -> bool:
    """The targets have the shape a card's target kind asks for."""
    if target.chooses_player:
        return len(targets) == 1
    return len(targets) == 2 * target.customers


class ActionSpace:
    """Every action of one card set; the simple ones made once, `use` actions on demand."""

    def __init__(self, cards: CardSet) -> None:
        self.cards = cards
        self.words = {
            name: SouvlakiAction(code, name, kind)
            for code, (name, kind) in enumerate(WORDS.items())
        }
        self.keep, self.redraw = self.words["keep"], self.words["redraw"]
        self.buy, self.advertise = self.words["buy"], self.words["advertise"]
        self.done, self.pass_ = self.words["done"], self.words["pass"]
        self.serve, self.finish = self.words["serve"], self.words["finish"]
        self.discard = self._food_actions("discard", DISCARD, DISCARD_BASE)
        self.play = self._food_actions("play", PLAY, PLAY_BASE)
        self.random = self._food_actions("random", RANDOM, RANDOM_BASE)
        self.pick = tuple(
            SouvlakiAction(PICK_BASE + i, f"pick {i + 1}", PICK, slot=i) for i in range(MAX_ROW)
        )
        self.send = tuple(
            SouvlakiAction(SEND_BASE + i, f"send {i + 1}", SEND, slot=i) for i in range(MAX_QUEUE)
        )
        self._by_word_code = tuple(self.words.values())
        self._uses: dict[int, SouvlakiAction] = {}
        self._uses_by_targets: tuple[dict[Targets, SouvlakiAction], ...] = tuple(
            {} for _ in cards.unforeseen
        )
        """The same actions by kind and targets as move generation names them: found without
        working out the code each time."""

    @staticmethod
    def _food_actions(verb: str, kind: int, base: int) -> tuple[SouvlakiAction | None, ...]:
        """One action per contents code; code 0 (a card with no food) has none."""
        return (
            None,
            *(
                SouvlakiAction(base + code, f"{verb} {foods_text(foods_of_code(code))}", kind, code)
                for code in range(1, FOOD_CODES)
            ),
        )

    def food_action(self, kind: int, code: int) -> SouvlakiAction:
        table = {DISCARD: self.discard, PLAY: self.play, RANDOM: self.random}[kind]
        action = table[code]
        assert action is not None, "food code 0 names no card"
        return action

    def use(self, card: int, targets: Targets) -> SouvlakiAction:
        """The action playing unforeseen kind `card` on `targets` (interned)."""
        by_targets = self._uses_by_targets[card]
        action = by_targets.get(targets)
        if action is None:  # the first time: by its code, as the canonical targets name it
            canonical = canonical_targets(targets)
            code = USE_BASE + card * TARGET_CODES + target_code(canonical)
            action = self._uses.get(code)
            if action is None:
                kind = self.cards.unforeseen[card]
                text = f"use {kind.id} {targets_text(canonical)}" if canonical else f"use {kind.id}"
                action = SouvlakiAction(code, text, USE, card=card, targets=canonical)
                self._uses[code] = action
            by_targets[targets] = action
        return action

    def decode(self, code: int) -> SouvlakiAction:
        code = check_code(code, NUM_ACTIONS)
        if code < DISCARD_BASE:
            return self._by_word_code[code]
        if code < PICK_BASE:
            verb = (DISCARD, PLAY, RANDOM)[(code - DISCARD_BASE) // FOOD_CODES]
            food = (code - DISCARD_BASE) % FOOD_CODES
            if food == 0:
                raise NotationError(f"action code {code} names a food card with no food")
            return self.food_action(verb, food)
        if code < SEND_BASE:
            return self.pick[code - PICK_BASE]
        if code < USE_BASE:
            return self.send[code - SEND_BASE]
        card, target = divmod(code - USE_BASE, TARGET_CODES)
        if card >= len(self.cards.unforeseen):
            raise NotationError(f"action code {code} names unforeseen kind {card}, not in the set")
        targets = targets_of_code(target)
        kind = self.cards.unforeseen[card]
        if not shape_fits(kind.target, targets):
            raise NotationError(f"action code {code}: {kind.id} takes other targets")
        return self.use(card, targets)

    def pick_number(self, text: str) -> int | None:
        """The number of a ``pick N`` text, also one past any row (``pick 0``), which `parse`
        refuses: the position names the row's own slots (`SouvlakiState`); None for any other
        text."""
        try:
            words = notation_words(text)
        except NotationError:
            return None
        if len(words) != 2 or words[0].lower() != "pick":
            return None
        number = words[1]
        digits = number.isascii() and number.isdigit() and len(number) <= MAX_NUMBER_DIGITS
        return int(number) if digits else None

    def unknown_card(self, text: str) -> str | None:
        """The card word of a ``use CARD ...`` text that names no unforeseen card of this set,
        which `parse` refuses: the position names the cards the mover holds (`SouvlakiState`);
        None for any other text."""
        try:
            words = notation_words(text)
        except NotationError:
            return None
        if len(words) < 2 or words[0].lower() != "use":
            return None
        return None if self._card_index(words[1]) is not None else words[1]

    def _card_index(self, card_id: str) -> int | None:
        """The index in the card set of the unforeseen card `card_id` (any case,
        `CardSet.unforeseen_index`), or None."""
        try:
            return self.cards.unforeseen_index(card_id)
        except KafeneioError:
            return None

    def parse(self, text: str) -> SouvlakiAction:
        """The action written `text`; `NotationError` naming the problem otherwise."""
        words = notation_words(text)
        if not words:
            raise NotationError("empty move: type a move like 'pick 3', 'play GF' or 'help'")
        head = words[0].lower()
        if len(words) == 1 and head in self.words:
            return self.words[head]
        if head in FOOD_VERBS and len(words) == 2:
            try:
                foods = parse_foods(words[1])
            except ValueError as err:
                raise NotationError(str(err)) from None
            if max(foods) > 3:
                raise NotationError(f"{words[1]!r}: no food card shows more than 3 of one food")
            return self.food_action(FOOD_VERBS[head], foods_code(foods))
        if head == "send" and len(words) == 2 and TARGET_SHAPE.fullmatch(words[1]):
            raise NotationError(  # a card's target's form: a shop sends away its own alone
                f"send takes a place in your own queue, like send 2, not {words[1]!r} (a "
                "card's target): a shop sends away customers of its own queue only (SW-4.6)"
            )
        if head in ("pick", "send") and len(words) == 2:
            limit = MAX_ROW if head == "pick" else MAX_QUEUE
            number = whole_number(
                words[1], 1, limit, "slot" if head == "pick" else "queue position"
            )
            return (self.pick if head == "pick" else self.send)[number - 1]
        if head == "use" and len(words) >= 2:
            return self._parse_use(words[1], words[2:])
        raise NotationError(
            f"{' '.join(words)!r} is not a move; moves look like keep, redraw, buy, advertise, "
            "done, discard GF, pick 3, use CARD [p2 | p2.3], pass, play GF, serve, send 2, finish"
        )

    def _parse_use(self, card_id: str, words: list[str]) -> SouvlakiAction:
        card = self._card_index(card_id)
        if card is None:
            ids = ", ".join(kind.id for kind in self.cards.unforeseen)
            raise NotationError(f"no unforeseen card {card_id!r}; cards: {ids}")
        kind = self.cards.unforeseen[card]
        named = [_target_word(word) for word in words]
        if kind.target.chooses_player:
            fits = len(named) == 1 and len(named[0]) == 1
        else:
            fits = len(named) == kind.target.customers and all(len(t) == 2 for t in named)
        if not fits:
            raise NotationError(f"{kind.id} is played {_target_help(kind.target)}")
        if len(named) == 2 and named[0] == named[1]:
            raise NotationError(f"{kind.id} names two different customers, not one twice")
        return self.use(card, tuple(index for target in named for index in target))


def _target_word(word: str) -> tuple[int, ...]:
    """``p2`` → (1,); ``p2.3`` → (1, 2)."""
    text = word.lower()
    if not text.startswith("p"):
        raise NotationError(f"{word!r} is not a target: write a player p2 or a customer p2.3")
    player, _, position = text[1:].partition(".")
    index = whole_number(player, 1, MAX_PLAYERS, "player") - 1
    if not position:
        return (index,)
    return index, whole_number(position, 1, MAX_QUEUE, "queue position") - 1


def _target_help(target: Target) -> str:
    if target.chooses_player:
        return "on a player: use CARD p2"
    return {
        0: "without a target: use CARD",
        1: "on a customer: use CARD p2.3",
        2: "on two customers: use CARD p1.3 p2.1",
    }[target.customers]
