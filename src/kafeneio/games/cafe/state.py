"""Café International: the state and its rules (../shared/rules/cafe-international.md, CI-*).

A turn is a sequence of decisions by one player: a first placement, then a second placement or
``end``; or one bar, swap, pass or (variant) dance action. A decision is offered only if it can be
completed to a legal move (no dead ends). The table counters (ladies, men, natives per table) are
kept incrementally, so checking a placement touches at most two tables.
"""

from __future__ import annotations

import random
from bisect import insort
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from kafeneio.core.errors import IllegalActionError, KafeneioError
from kafeneio.core.game import JSON, SPECTATOR, TERMINAL, State
from kafeneio.core.randomness import shuffle
from kafeneio.core.tensor import Entries
from kafeneio.games.cafe import events
from kafeneio.games.cafe.actions import (
    BAR,
    BIRTHDAY,
    DRAW,
    DRAW_FEWER,
    END,
    NUM_CHAIRS,
    NUM_TABLES,
    PASS,
    PLACE,
    SWAP,
    ActionSpace,
    CafeAction,
    action_space,
)
from kafeneio.games.cafe.board import (
    JOKER_LADY,
    JOKER_NATION,
    NUM_CARD_TYPES,
    is_joker,
    load_board,
    nation_of,
)
from kafeneio.games.cafe.legality import at_once_starts, masks, mended_starts
from kafeneio.games.cafe.options import CafeOptions
from kafeneio.games.cafe.setup import Position, full_deck, parse_setup
from kafeneio.games.cafe.tensor import PHASES, CafeObservationKey, observation_entries, rules_row

if TYPE_CHECKING:
    from kafeneio.games.cafe import CafeGame

Refusal = tuple[str, str]
"""The id of the rule an action breaks and the reason, in words."""
FULL_TABLE_NATIVE_VALUE = 8
DANCE_VALUE, DANCE_NATIVE_VALUE = 20, 40
CARD_PENALTY, JOKER_PENALTY = 5, 10


@dataclass(frozen=True)
class Geometry:
    """Board facts in the shapes the rules engine reads fastest."""

    chair_tables: tuple[tuple[int, ...], ...]
    table_chairs: tuple[tuple[int, ...], ...]
    chairs_for_card: tuple[tuple[int, ...], ...]
    """The chairs where a card type passes the nationality rule (CI-T.2)."""
    belongs: tuple[tuple[bool, ...], ...]
    """``belongs[card][table]``: the card's nation is the table's, or it is a joker (CI-T.2)."""
    native_tables: tuple[tuple[tuple[int, ...], ...], ...]
    """``native_tables[card][chair]``: the tables where the card on that chair counts as a
    native (CI-P.3: a joker everywhere, so on a shared chair at both tables) ..."""
    native_tables_joker_neither: tuple[tuple[tuple[int, ...], ...], ...]
    """... and the same where a joker on a shared chair is a native of neither table."""
    chair_nations: tuple[int, ...]
    """Bitmask of the nations whose guests may sit on each chair; bit 12 (jokers) always set."""


@cache
def geometry() -> Geometry:
    board = load_board()
    nation = tuple(t.nation for t in board.tables)
    tables = tuple(c.tables for c in board.chairs)
    belongs = tuple(
        tuple(is_joker(k) or nation_of(k) == nation[t] for t in range(NUM_TABLES))
        for k in range(NUM_CARD_TYPES)
    )
    chairs_for = tuple(
        tuple(c.index for c in board.chairs if any(belongs[k][t] for t in c.tables))
        for k in range(NUM_CARD_TYPES)
    )

    def native_tables(joker_on_shared: bool) -> tuple[tuple[tuple[int, ...], ...], ...]:
        def where(card: int, chair: int) -> tuple[int, ...]:
            if not is_joker(card):
                return tuple(t for t in tables[chair] if nation_of(card) == nation[t])
            two_nations = len({nation[t] for t in tables[chair]}) == 2
            return () if two_nations and not joker_on_shared else tables[chair]

        return tuple(tuple(where(k, c) for c in range(NUM_CHAIRS)) for k in range(NUM_CARD_TYPES))

    return Geometry(
        chair_tables=tables,
        table_chairs=tuple(t.chairs for t in board.tables),
        chairs_for_card=chairs_for,
        belongs=belongs,
        native_tables=native_tables(joker_on_shared=True),
        native_tables_joker_neither=native_tables(joker_on_shared=False),
        chair_nations=tuple(
            sum({1 << nation[t] for t in c.tables}) | 1 << JOKER_NATION for c in board.chairs
        ),
    )


GEO = geometry()
MASKS = masks()
SPACE = action_space()
"""The board facts and the actions, made once: the hot paths read them without a call."""
GENDER_TYPES = tuple(sum(1 << k for k in range(NUM_CARD_TYPES) if k & 1 == g) for g in (0, 1))
"""The card types of each gender, as a mask by type."""


class CafeState(State):
    """A position of Café International."""

    NOT_COMPARED = State.NOT_COMPARED | {"_at_once"}

    game: CafeGame
    options: CafeOptions

    _bag: list[int]
    """The bag, the next card drawn last (``pop()`` is cheap)."""
    _seat: list[int]
    """The card on each chair, -1 while free."""
    _ladies: list[int]
    _men: list[int]
    """Per table: ladies and men seated (CI-T.3, CI-P.2). Natives are counted only at a full
    table (`_all_natives`), the one place they count (CI-P.3, CI-D.2)."""
    _present: list[int]
    _pairs: list[int]
    """Per gender, as table masks: the tables seating at least one and at least two guests of
    that gender (what `legality` reads)."""
    _free: int
    """The free chairs, as a chair mask."""
    _at_once: tuple[int, int, int, int] | None
    """`legality.at_once_starts` of this board, once asked (None: not yet, or the board changed
    since): derived from the fields above, so not compared."""
    _native_tables: tuple[tuple[tuple[int, ...], ...], ...]
    _seated: int
    _jokers_seated: list[int]
    _dance_tables: list[int]
    _hands: list[list[int]]
    """Each player's hand, kept sorted (dealt and drawn by `insort`, set up sorted)."""
    _scores: list[int]
    _targets: list[int]
    _out: list[bool]
    _bar: list[int]
    _player: int
    _pending: list[tuple[int, int]]
    _completed: int
    _turns: int
    _passes: int
    _choosing_draw: bool
    _birthday_table: int
    _birthday_chooser: int
    _birthday_claimed: bool
    _over: bool
    _opening: bool

    def __init__(
        self,
        game: CafeGame,
        num_players: int,
        seed: int | None,
        setup: Mapping[str, Any] | None,
    ) -> None:
        self._init_base(game, num_players, seed, setup)
        options = self.options
        stacked = None if setup is None else parse_setup(game.board, options, num_players, setup)
        order = _shuffled_bag(seed) if stacked is None else stacked.bag
        self._bag = order[::-1]  # the next card drawn is the last: pop() is cheap
        self._seat = [-1] * NUM_CHAIRS
        self._ladies = [0] * NUM_TABLES
        self._men = [0] * NUM_TABLES
        self._present = [0, 0]
        self._pairs = [0, 0]
        self._free = MASKS.all_chairs
        self._at_once = None
        self._native_tables = _native_tables(options)
        self._seated = 0
        self._jokers_seated = []
        self._dance_tables = []
        self._hands = [[] for _ in range(num_players)]
        self._scores = [0] * num_players
        self._targets = [options.hand_size] * num_players
        self._out = [False] * num_players
        self._bar: list[int] = []
        self._player = 0
        self._pending = []
        self._completed = 0
        self._turns = 0
        self._passes = 0
        self._choosing_draw = False
        """CI-D.2 option ``choose``: the mover decides whether the hand target drops."""
        self._birthday_table = -1
        self._birthday_chooser = -1
        self._birthday_claimed = False
        self._over = False
        self._opening = True
        """The start player's first move is still to come (CI-T.8)."""
        if stacked is not None and stacked.position is not None:
            self._arrange(stacked.position)
            if self._game_over():
                raise KafeneioError("setup: this position has already ended (CI-E.1)")
        else:
            for player in range(num_players):  # CI-S.1: each player in seat order draws a hand
                self._draw(player, options.hand_size)

    def _arrange(self, position: Position) -> None:
        """Set up a checked position (`kafeneio.games.cafe.setup`)."""
        self._hands = position.hands
        self._bar = position.bar
        self._dance_tables = position.dance_tables
        for chair, card in sorted(position.chairs.items()):
            self._seat_guest(card, chair)
        self._scores = position.scores
        self._targets = position.targets
        self._player = position.to_move
        self._out = position.out
        self._opening = position.opening
        self._birthday_table = position.birthday_table
        self._birthday_claimed = position.birthday_claimed
        self._birthday_chooser = position.birthday_chooser
        self._choosing_draw = position.choosing_draw
        self._completed = position.tables_completed

    # --- the contract ---------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self._over else self._player

    def is_terminal(self) -> bool:
        return self._over

    def _perform(self, action: Any) -> None:
        kind = action.kind
        if kind == PLACE:  # the common decision first
            self._passes = 0
            self._place(action.card, action.chair)
            return
        if kind == PASS:  # CI-M.5: the game ends when every player in turn has passed
            self._passes += 1
        elif kind not in (BIRTHDAY, DRAW):
            self._passes = 0
        if kind == END:
            self._end_turn(table_move=True)
        elif kind == BAR:
            self._go_to_bar(action.card)
        elif kind == SWAP:
            self._swap(action.card, action.chair)
        elif kind == PASS:
            self.emit("pass", events.passed, self._player)
            self._end_turn(table_move=False)
        elif kind == BIRTHDAY:
            self.emit("birthday", events.birthday, self._birthday_chooser, action.table)
            self._birthday_table = action.table
            self._birthday_chooser = -1
            self._advance()
        elif kind == DRAW:
            self._choosing_draw = False
            self._refill(lower_target=action.code == DRAW_FEWER)
        else:
            self._dance(action)

    def scores(self) -> list[int]:
        return list(self._scores)

    def winners(self) -> list[int]:
        if not self._over:
            return []
        live = [p for p in range(self.num_players) if not self._out[p]]
        best = max(self._scores[p] for p in live)
        return [p for p in live if self._scores[p] == best]  # CI-E.3: a tie shares the win

    def turns_completed(self) -> int:
        return self._turns

    def _determinize(self, player: int, rng: random.Random) -> CafeState:
        """Only the bag's order is hidden (CI-S.1, CI-D.5): shuffle it."""
        other = self.clone()
        other._bag.sort()  # the sample then depends on the bag's contents only, not its order
        shuffle(rng, other._bag)
        return other

    def card_counts(self) -> dict[str, int]:
        """Conformance hook: the guests in the bag, the hands, on chairs and at the bar (a
        thrown-out player's hand has left play, CI-M.3)."""
        seated = sum(card >= 0 for card in self._seat)
        held = sum(map(len, self._hands))
        return {"guests": len(self._bag) + held + seated + len(self._bar)}

    def _observe(self, player: int) -> JSON:
        """Everything but the bag's order: hands are public in Café International (CI-S.1)."""
        board = self.game.board
        text = board.card_text
        bag = Counter(text(card) for card in self._bag)
        next_value = self.options.bar_values[len(self._bar)] if not self.bar_full else None
        return {
            "game": "cafe",
            "player": None if player == SPECTATOR else player,
            "to_move": self.current_player(),
            "phase": self.phase,
            "turn": self._turns,
            "chairs": [text(card) if card >= 0 else None for card in self._seat],
            "bar": [text(card) for card in self._bar],
            "bar_next_value": next_value,
            "bar_values": list(self.options.bar_values),
            "rules": self.options.to_dict(),  # agreed by all players: public
            "hands": [[text(card) for card in hand] for hand in self._hands],
            "scores": list(self._scores),
            "hand_targets": list(self._targets),
            "out": list(self._out),
            "placed_this_turn": [[text(k), c + 1] for k, c in self._pending],
            "bag_size": len(self._bag),
            "bag_contents": dict(sorted(bag.items())),
            "birthday_table": board.tables[self._birthday_table].id
            if self._birthday_table >= 0
            else None,
            "birthday_claimed": self._birthday_claimed,
            "passes": self._passes,
            "dance_tables": [board.tables[t].id for t in self._dance_tables],
            "winners": self.winners(),
        }

    def __getstate__(self) -> dict[str, Any]:
        """The native-table map is board data the options choose: rebuilt, not pickled."""
        fields = super().__getstate__()
        del fields["_native_tables"]
        return fields

    def __setstate__(self, fields: dict[str, Any]) -> None:
        super().__setstate__(fields)
        self._native_tables = _native_tables(self.options)

    def observation_key(self, player: int) -> CafeObservationKey:
        """Hashable; equal exactly when `observation(player)` is (see `tensor`). `player` may
        be `SPECTATOR`, as for `observation`."""
        player = self.check_viewer(player)
        return CafeObservationKey(
            player,
            self.current_player(),
            PHASES.index(self._phase_name()),
            self._turns,
            tuple(self._seat),
            tuple(self._bar),
            self.options.bar_values,
            tuple(map(tuple, self._hands)),
            tuple(self._scores),
            tuple(self._targets),
            tuple(self._out),
            tuple(self._pending),
            tuple(sorted(self._bag)),
            self._birthday_table,
            self._birthday_claimed,
            self._passes,
            tuple(self._dance_tables),
            rules_row(self.options),
        )

    def observation_tensor(self, player: int) -> list[float]:
        """`observation(player)` as flat floats, laid out by `game.observation_spec`."""
        return self.observation_entries(player).dense()

    def observation_entries(self, player: int) -> Entries:
        """The non-zero entries of `observation_tensor(player)`."""
        return observation_entries(self.game.board, self.observation_key(player))

    def explain_illegal(self, action: Any) -> None:
        raise _why_illegal(self, action)

    def _explain_unreadable(self, text: str) -> None:
        """``Jm@bar`` and ``swap Jm@16``: written right, yet no action (a joker never goes to
        the bar, nor is exchanged for a joker): refused by the rules as any bar seat or swap
        is here (the game over, a guest placed already, a card not held, ...), not as a typo."""
        misuse = SPACE.joker_misuse(text)
        if misuse is not None:
            raise _why_illegal(self, misuse)

    def _words(self, action: Any) -> str:
        from kafeneio.games.cafe.explain import action_words  # explain reads this module

        return action_words(self, action)

    # --- public views used by renderers and tests -----------------------------------------
    @property
    def bar_full(self) -> bool:
        return len(self._bar) >= len(self.options.bar_values)

    def hand(self, player: int) -> list[int]:
        return list(self._hands[player])

    def hand_targets(self) -> list[int]:
        """Each player's hand target (CI-D.1, CI-D.2)."""
        return list(self._targets)

    def seats(self) -> tuple[int, ...]:
        """The card on every chair (0-based), -1 for a free chair: `chair` for all at once."""
        return tuple(self._seat)

    def bag_counts(self) -> list[int]:
        """How many cards of each type the bag holds: its contents, which are public (CI-S.1),
        not its order."""
        counts = [0] * NUM_CARD_TYPES
        for card in self._bag:
            counts[card] += 1
        return counts

    def is_out(self, player: int) -> bool:
        """CI-M.3: thrown out at the bar."""
        return self._out[player]

    def filling(self) -> tuple[int, int, int]:
        """Bar seats taken, guests seated at tables and cards left in the bag (CI-E.1)."""
        return len(self._bar), self._seated, len(self._bag)

    def table_value(self, table: int) -> int:
        """What the table would score now (CI-P.2, CI-P.3), before the birthday doubling."""
        ladies, men = self._ladies[table], self._men[table]
        if not (ladies and men):
            return 0
        if self._single_nation(table):
            return FULL_TABLE_NATIVE_VALUE
        return ladies + men

    def _single_nation(self, table: int) -> bool:
        """CI-D.2: the table holds 4 guests, all of its nation (jokers count, CI-P.3)."""
        return self._ladies[table] + self._men[table] == 4 and self._all_natives(table)

    @property
    def lone_opening(self) -> bool:
        """Whether this is the start player's first move, whose guest may sit alone at an
        empty table and stay so (CI-T.8 reading A, option ``first_move = lone-guest``)."""
        return self._opening and self.options.first_move == "lone-guest"

    @property
    def birthday_table(self) -> int:
        """The table whose points are doubled (CI-V.1), or -1 while there is none."""
        return self._birthday_table

    def counts_as_native(self, card: int, chair: int, table: int) -> bool:
        """Whether `card` on `chair` counts as a native of `table` (CI-P.3, as the option
        ``joker_native_both`` says for a joker on a shared chair), whatever sits there now."""
        return table in self._native_tables[card][chair]

    def _all_natives(self, table: int) -> bool:
        """Every chair of `table` holds a guest who counts as its native (CI-P.3, as the option
        ``joker_native_both`` says for a joker on a shared chair)."""
        seat, native_tables = self._seat, self._native_tables
        for chair in GEO.table_chairs[table]:
            card = seat[chair]
            if card < 0 or table not in native_tables[card][chair]:
                return False
        return True

    @property
    def phase(self) -> str:
        """What the mover decides now: ``turn``, ``second`` (a second guest or ``end``),
        ``draw`` (CI-D.2 option), ``birthday`` (CI-V.1) or ``over``."""
        return self._phase_name()

    def chair(self, chair: int) -> int:
        """The card on `chair` (0-based), or -1 while it is free."""
        return self._seat[chair]

    def table_genders(self, table: int) -> tuple[int, int]:
        """The ladies and the men seated at `table`, jokers by their gender: the counts that
        CI-T.3 and CI-T.4 are checked on."""
        return self._ladies[table], self._men[table]

    def gender_fits(self, card: int, chair: int) -> bool:
        return self._gender_fits(card, chair)

    def fits(self, card: int, chair: int) -> bool:
        """Whether `card` may sit on `chair` now by CI-T.1-T.3 (a free chair, its nation and the
        gender rule), the placements' own check."""
        return self._fits(card, chair)

    def partly_seated_tables(self) -> int:
        """The tables with a guest and a free chair, as a mask (table t is bit t). A table
        seats at most 2 of each gender (CI-T.3), so it is full when it has 2 of both."""
        ladies, men = self._present
        return (ladies | men) ^ (self._pairs[0] & self._pairs[1])

    def fitting_chairs(self, card: int) -> int:
        """Every chair where `card` may sit now by CI-T.1-T.3, as a mask (chair c is bit c): the
        chairs where `fits` holds, found for all chairs at once on the masks move generation
        keeps, so that bots may ask it of every card of every hand."""
        if not (isinstance(card, int) and 0 <= card < NUM_CARD_TYPES):
            raise KafeneioError(f"fitting_chairs: {card!r} is not a guest card")
        fits_gender = (self._at_once or self._board_starts())[2 + (card & 1)]
        return fits_gender & MASKS.card_chairs[card]

    def _phase_name(self) -> str:
        if self._over:
            return "over"
        if self._birthday_chooser >= 0:
            return "birthday"
        if self._choosing_draw:
            return "draw"
        return "second" if self._pending else "turn"

    # --- legal actions --------------------------------------------------------------------
    def _generate(self) -> list[CafeAction]:
        if self._pending:  # a turn's second decision: nothing else is asked before it ends
            return self._second_decisions(SPACE)
        if self._over:
            return []
        if self._birthday_chooser >= 0:
            return [*SPACE.birthday, SPACE.birthday_none]
        if self._choosing_draw:
            return [SPACE.draw_fewer, SPACE.draw_full]
        return self._first_decisions(SPACE)

    def _first_decisions(self, space: ActionSpace) -> list[CafeAction]:
        hand = self._hands[self._player]
        kinds = _card_types(hand)
        held = 0  # the nations of the hand's ladies, of its men 16 bits up, its types 32 up
        card_bits = MASKS.card_bits
        for card in kinds:
            held |= card_bits[card]
        if self.lone_opening:
            actions = self._lone_openings(space, kinds)
        else:
            actions = self._place_starts(space, kinds, held & 0xFFFF, held >> 16 & 0xFFFF)
        if self.bar_refusal() is None:
            bar = space.bar
            for card in kinds:  # a loop, not a comprehension: it makes no function
                if card < JOKER_LADY:
                    actions.append(bar[card])
        if self._jokers_seated:
            self._swaps(space, held >> 32, actions)
        if self.options.dance:
            actions.extend(self._dances(space, hand))
        return actions or [space.pass_]

    def _lone_openings(self, space: ActionSpace, kinds: list[int]) -> list[CafeAction]:
        """CI-T.8 reading A: any guest may open alone, wherever it fits (CI-T.1-T.3, `_fits`)."""
        not_low, not_high = MASKS.apart
        fits = [self._free & not_low[full & 4095] & not_high[full >> 12] for full in self._pairs]
        actions: list[CafeAction] = []
        for card in kinds:
            _in_chair_order(space.place[card], fits[card & 1] & MASKS.card_chairs[card], actions)
        return actions

    def _swaps(self, space: ActionSpace, held: int, actions: list[CafeAction]) -> None:
        """Append the swaps of the card types `held` (a mask by type), joker by joker (in the
        order they sat down), card by card.

        `swap_refusal`'s answer, worked out on masks (a test checks they agree). A guest of the
        joker's own gender changes no count, so it may take the joker's place if its nation fits
        (CI-T.2). One of the other gender may not (the option ``joker_exchange = own-gender``
        aside) if a table of the chair has 2 of theirs (CI-T.3), if the joker is the only one of
        its gender at a table that seats the other gender (the table would be left without a
        group, CI-T.4), or at a dance table (CI-V.2); otherwise every table keeps a group, and a
        joker alone at a table stays a lone guest beside the same group."""
        chair_guests, chair_tables = MASKS.chair_guests, MASKS.chair_tables
        present, pairs = self._present, self._pairs
        any_gender = self.options.joker_exchange != "own-gender"
        row = space.swap
        for chair in self._jokers_seated:
            fitting = held & chair_guests[chair]
            if not fitting:
                continue
            joker_gender = self._seat[chair] & 1
            other = 1 - joker_gender
            lone_joker = (present[joker_gender] ^ pairs[joker_gender]) & present[other]
            if not (
                any_gender
                and not chair_tables[chair] & (pairs[other] | lone_joker)
                and not (self._dance_tables and self._at_dance_table(chair))
            ):
                fitting &= GENDER_TYPES[joker_gender]
            while fitting:
                bit = fitting & -fitting
                fitting ^= bit
                actions.append(row[bit.bit_length() - 1][chair])

    def _at_dance_table(self, chair: int) -> bool:
        return any(t in self._dance_tables for t in GEO.chair_tables[chair])

    def _place_starts(
        self, space: ActionSpace, kinds: list[int], of_ladies: int, of_men: int
    ) -> list[CafeAction]:
        """The placements of the card types `kinds` that start a legal table move, card by card,
        each card's lone chairs first, then its shared ones: legal at once, or with a second
        guest (`legality`). `of_ladies` and `of_men` are the nations of the hand's ladies and
        men (bit 12: a joker): each gender's mates are the other's."""
        masks = MASKS
        ladies, men, fits_lady, fits_man = self._at_once or self._board_starts()
        if of_ladies and of_men:
            present, pairs, free = self._present, self._pairs, self._free
            chairs, tables = masks.nation_chairs, masks.nation_tables
            rest = (fits_lady ^ ladies) & chairs[of_ladies]  # at-once chairs are fitting ones
            if rest:
                ladies |= mended_starts(
                    masks, present, pairs, free, 0, rest, of_men, tables[of_ladies]
                )
            rest = (fits_man ^ men) & chairs[of_men]
            if rest:
                men |= mended_starts(
                    masks, present, pairs, free, 1, rest, of_ladies, tables[of_men]
                )
        return _placements_on(space, kinds, ladies, men, [])

    def _board_starts(self) -> tuple[int, int, int, int]:
        """`legality.at_once_starts` of this board, kept until a guest sits down or stands up."""
        found = self._at_once = at_once_starts(MASKS, self._present, self._pairs, self._free)
        return found

    def _second_decisions(self, space: ActionSpace) -> list[CafeAction]:
        first_card, first_chair = self._pending[0]
        bad = self._left_without_group(first_card, first_chair)
        kinds = _card_types(self._hands[self._player])
        at_once = self._at_once or self._board_starts()
        if not bad:  # the move is complete: end, or add any guest who keeps every table valid
            return _placements_on(space, kinds, at_once[0], at_once[1], [space.end])
        lone_first = self.lone_opening
        actions = [space.end] if lone_first else []
        # Only a guest of the other gender at a table left without a group can mend it: one
        # that forms a group at once (at its other table too, `at_once_starts`) at each such
        # table, or, of two, at the one where the first guest sits with others (the first guest
        # is then alone at the other table, and joins a group at this one, CI-T.4).
        need = 1 - (first_card & 1)
        masks = MASKS
        if len(bad) == 2:
            one, two = bad
            seated = self._ladies[one] + self._men[one], self._ladies[two] + self._men[two]
            mending = (masks.table_chairs[one] if seated[1] == 1 else 0) | (
                masks.table_chairs[two] if seated[0] == 1 else 0
            )
        else:
            mending = masks.table_chairs[bad[0]]
        mending &= at_once[need]
        card_chairs = masks.card_chairs
        for card in kinds:
            if card & 1 == need:
                _in_chair_order(space.place[card], mending & card_chairs[card], actions)
        return actions

    def _left_without_group(self, card: int, chair: int) -> list[int]:
        """The tables of `chair`, where `card` sits, that fail `_table_ok` (CI-T.4). Its common
        answers first, on masks: none if each table has a group, or if the guest sits alone at
        one beside a group."""
        tables = MASKS.chair_tables[chair]
        lacking = tables ^ (tables & self._present[0] & self._present[1])
        if lacking and (lacking == tables or lacking & self._pairs[card & 1]):
            return [t for t in GEO.chair_tables[chair] if not self._table_ok(t)]
        return []

    def tables_left_without_group(self) -> list[int]:
        """CI-T.4, CI-T.5: the tables that would be left without an allowed group were the
        turn to end now, those of its first guest (none outside the second decision). Outside
        the start player's lone opening (CI-T.8), move generation offers ``end`` only when
        there are none, and its refusal names them."""
        if not self._pending:
            return []
        return self._left_without_group(*self._pending[0])

    def tables_left_without_group_by(self, card: int, chair: int) -> list[int]:
        """CI-T.4: the tables that would be left without an allowed group were `card` placed
        on the free `chair` and the turn ended then: of those of `chair` and of this turn's
        first guest, the ones that fail `_table_ok`, the predicate move generation keeps."""
        if not (isinstance(card, int) and 0 <= card < NUM_CARD_TYPES):
            raise KafeneioError(f"tables_left_without_group_by: {card!r} is not a guest card")
        if not (isinstance(chair, int) and 0 <= chair < NUM_CHAIRS and self._seat[chair] < 0):
            raise KafeneioError(f"tables_left_without_group_by: {chair!r} is not a free chair")
        kept = self._at_once  # the board comes back as it was: so does what was worked out
        self._put(card, chair)
        try:
            found: list[int] = []
            for seated, at in [*self._pending, (card, chair)]:
                for table in self._left_without_group(seated, at):
                    if table not in found:  # the two guests may share a table
                        found.append(table)
            return found
        finally:
            self._take(card, chair)
            self._at_once = kept

    def _gender_fits(self, card: int, chair: int) -> bool:
        """CI-T.3 for one more guest: no table of the chair gets a third of that gender."""
        counts = self._men if card & 1 else self._ladies
        return all(counts[t] < 2 for t in GEO.chair_tables[chair])

    def _fits(self, card: int, chair: int) -> bool:
        """CI-T.1-T.3 for one more guest: a free chair, the nation and the gender fit."""
        return (
            self._seat[chair] < 0
            and chair in GEO.chairs_for_card[card]
            and self._gender_fits(card, chair)
        )

    def _table_ok(self, table: int) -> bool:
        """CI-T.4 at one table: an allowed group, empty, or a lone guest on a shared chair who
        belongs to an allowed group at the other table."""
        ladies, men = self._ladies[table], self._men[table]
        if ladies and men:
            return True
        if ladies + men != 1:
            return ladies + men == 0 or table in self._dance_tables
        geo = geometry()
        for chair in geo.table_chairs[table]:
            if self._seat[chair] >= 0:
                for other in geo.chair_tables[chair]:
                    if other != table:  # a dance table's 4 guests are a group too (CI-V.2)
                        group = self._ladies[other] and self._men[other]
                        return bool(group) or other in self._dance_tables
        return False

    def bar_refusal(self, card: int | None = None) -> Refusal | None:
        """CI-M.2, CI-M.3: why the player to move may not seat a guest (`card`, if given) at
        the bar now; None when they may. Move generation and refusals both ask this (move
        generation offers the bar to no joker, and names no card)."""
        if card is not None and is_joker(card):
            return ("CI-M.2", "a joker never goes to the bar")
        seat, values = len(self._bar), self.options.bar_values
        # the common answer first, a black seat without a call: move generation asks every turn
        if seat < len(values) and (values[seat] >= 0 or self.pays_bar_seat()):
            return None
        if self.bar_full:  # then the game has ended (CI-E.1)
            return ("CI-E.1", f"all {seat} bar seats are taken")
        value, score = values[seat], self._scores[self._player]
        if self.options.bar_unpaid == "forbid":  # (a seat that is paid was taken above)
            return (
                "CI-M.3",
                f"bar seat {seat + 1} costs {-value} and P{self._player + 1} has {score} "
                "(option bar_unpaid = forbid)",
            )
        return None

    def pays_bar_seat(self) -> bool:
        """CI-M.3: whether the mover can pay the next bar seat (there is one): a black value
        always, a red one while it leaves their score at 0 or more."""
        value = self.options.bar_values[len(self._bar)]
        return value >= 0 or self._scores[self._player] + value >= 0

    def swap_refusal(self, card: int, chair: int) -> Refusal | None:
        """CI-M.4: why `card` may not take the place of the joker on `chair`; None when it may
        (after the swap CI-T.2-T.4 hold at the chair's tables; the option ``joker_exchange``
        may ask for the joker's own gender). Move generation and refusals both ask this."""
        board = self.game.board
        if is_joker(card):  # whatever the chair holds: no swap of a joker is ever allowed
            return ("CI-M.4", "a joker is exchanged for a guest, not for another joker")
        joker = self._seat[chair]
        if joker < 0 or not is_joker(joker):
            return ("CI-M.4", f"chair {chair + 1} holds no joker")
        if self.options.joker_exchange == "own-gender" and card & 1 != joker & 1:
            who = "man" if joker & 1 else "lady"
            return ("CI-M.4", f"the joker is a {who}, and only its own gender may replace it")
        geo = geometry()
        if not self._nation_fits(card, chair):
            return ("CI-M.4", f"{board.card_text(card)} is of another nation (CI-T.2)")
        tables = geo.chair_tables[chair]
        grouped = [self._table_ok(t) for t in tables]  # only an opening lone guest is not
        kept = self._at_once  # the board comes back as it was: so does what was worked out
        self._take(joker, chair)
        self._put(card, chair)
        try:
            why = self._swap_breaks(tables, grouped, card & 1 != joker & 1)
            return None if why is None else ("CI-M.4", f"after the swap {why}")
        finally:
            self._take(card, chair)
            self._put(joker, chair)
            self._at_once = kept

    @staticmethod
    def _nation_fits(card: int, chair: int) -> bool:
        """CI-T.2 for a guest on `chair`: its nation is one of the chair's tables'."""
        return bool(GEO.chair_nations[chair] >> nation_of(card) & 1)

    def _swap_breaks(
        self, tables: tuple[int, ...], grouped: list[bool], other_gender: bool
    ) -> str | None:
        """What a swap just made breaks at the chair's `tables` (None: nothing): the gender
        rule first, as it holds after every placement (CI-T.6), then the groups."""
        ids = self.game.board.tables
        for table in tables:
            if table in self._dance_tables:  # a dance table keeps its one gender (CI-V.2)
                if other_gender:
                    return f"{ids[table].id} would mix genders at a dance table (CI-V.2)"
            elif self._ladies[table] > 2 or self._men[table] > 2:
                return f"{ids[table].id} would seat 3 of one gender (CI-T.3)"
        for table, was_ok in zip(tables, grouped, strict=True):
            if table not in self._dance_tables and was_ok and not self._table_ok(table):
                return f"{ids[table].id} would be left without an allowed group (CI-T.4)"
        return None

    def _dances(self, space: ActionSpace, hand: list[int]) -> list[CafeAction]:
        """CI-V.2: every way to fill a table with 3 or 4 guests of one gender from the hand."""
        pools: list[Counter[int] | None] = [None, None]  # made once, for the first table tried
        found: list[CafeAction] = []
        for table, gender in self._dance_candidates(hand):
            pool = pools[gender]
            if pool is None:  # `_assignments` gives its counts back as it found them
                pool = pools[gender] = Counter(k for k in hand if k & 1 == gender)
            free = [c for c in GEO.table_chairs[table] if self._seat[c] < 0]
            for placements in _assignments(free, pool, GEO.chairs_for_card):
                if self._dance_valid(table, placements):
                    found.append(space.dance(table, placements))
        return found

    def _dance_candidates(self, hand: list[int]) -> list[tuple[int, int]]:
        """The tables, each with a gender, that `hand` might fill in a dance, in the order
        `_dances` tries them: 3 or 4 free chairs (with 3, the guest seated is of the gender), a
        guest of the gender in the hand for each, and each a chair where one of them may sit
        (CI-T.2). Else no way fills the table: worked out on masks, as most tables and hands
        have no dance and this is asked at every first decision of the variant."""
        held, nations, card_bits = [0, 0], 0, MASKS.card_bits
        for card in hand:
            held[card & 1] += 1
            nations |= card_bits[card]  # the ladies' nations, the men's 16 bits up
        if max(held) < 3:
            return []
        fitting = (  # per gender: the chairs where a guest of the hand of that gender may sit
            MASKS.nation_chairs[nations & 0xFFFF],
            MASKS.nation_chairs[nations >> 16 & 0xFFFF],
        )
        table_chairs, free_chairs = MASKS.table_chairs, self._free
        seated = (self._ladies, self._men)
        candidates = []
        for table in range(NUM_TABLES):
            free = table_chairs[table] & free_chairs
            count = free.bit_count()
            if count < 3:
                continue
            for gender in (0, 1):
                if (
                    held[gender] >= count
                    and free & fitting[gender] == free
                    and (count == 4 or seated[gender][table])
                ):
                    candidates.append((table, gender))
        return candidates

    def _dance_valid(self, table: int, placements: tuple[tuple[int, int], ...]) -> bool:
        """Tables beside the dance table keep CI-T.3 and CI-T.4."""
        geo = geometry()
        kept = self._at_once  # the board comes back as it was: so does what was worked out
        for card, chair in placements:
            self._put(card, chair)
        self._dance_tables.append(table)
        try:
            others = {t for _, c in placements for t in geo.chair_tables[c] if t != table}
            return all(
                self._ladies[t] <= 2 and self._men[t] <= 2 and self._table_ok(t) for t in others
            )
        finally:
            self._dance_tables.pop()
            for card, chair in placements:
                self._take(card, chair)
            self._at_once = kept

    # --- applying -------------------------------------------------------------------------
    def _put(self, card: int, chair: int) -> None:
        self._seat[chair] = card
        self._free ^= MASKS.chair_bit[chair]
        self._at_once = None
        gender = card & 1
        counts = self._men if gender else self._ladies
        for table in GEO.chair_tables[chair]:
            count = counts[table] = counts[table] + 1
            if count == 1:
                self._present[gender] |= 1 << table
            elif count == 2:
                self._pairs[gender] |= 1 << table

    def _take(self, card: int, chair: int) -> None:
        self._seat[chair] = -1
        self._free |= MASKS.chair_bit[chair]
        self._at_once = None
        gender = card & 1
        counts = self._men if gender else self._ladies
        for table in GEO.chair_tables[chair]:
            count = counts[table]
            counts[table] = count - 1
            if count == 1:  # then its bit is set: clear it
                self._present[gender] ^= 1 << table
            elif count == 2:
                self._pairs[gender] ^= 1 << table

    def _seat_guest(self, card: int, chair: int) -> None:
        """A guest sits down for good (CI-T.7): counted, and a joker remembered for exchanges."""
        self._put(card, chair)
        self._seated += 1
        if is_joker(card):
            self._jokers_seated.append(chair)

    def _points_at(self, table: int, value: int) -> int:
        return value * 2 if table == self._birthday_table else value

    def _place(self, card: int, chair: int) -> None:
        """CI-M.1 and CI-P.1: seat the guest and score every table of its chair at once."""
        player = self._player
        self._hands[player].remove(card)
        gain, single_nation = self._placement_gain(card, chair, self._first_tables())
        self._put(card, chair)  # `_seat_guest`, written out: this is the hot path
        self._seated += 1
        if card >= JOKER_LADY:
            self._jokers_seated.append(chair)
        if single_nation:
            self._completed += single_nation
        self._scores[player] += gain
        self.emit("place", events.placed, player, card, chair, gain, single_nation)
        pending = self._pending
        pending.append((card, chair))
        if len(pending) == 2:
            self._end_turn(table_move=True)

    def _first_tables(self) -> tuple[int, ...]:
        """The tables of the opening pair's first card while its second is placed under
        ``first_move = pair-scores-both`` (they score again for it), else none."""
        if self._opening and self._pending and self.options.first_move == "pair-scores-both":
            return GEO.chair_tables[self._pending[0][1]]
        return ()

    def _placement_gain(
        self, card: int, chair: int, first_tables: tuple[int, ...]
    ) -> tuple[int, int]:
        """What `card` scores when it sits down on the free `chair` (CI-P.1-P.3; the tables of
        `first_tables`, the opening pair's first card's under ``first_move =
        pair-scores-both``, twice), and the single-nation tables it completes (CI-D.2): worked
        out from the counts before it sits down, so that `placement_points` needs no trial
        placement."""
        gain = completed = 0
        mine, others = (self._men, self._ladies) if card & 1 else (self._ladies, self._men)
        birthday = self._birthday_table
        for table in GEO.chair_tables[chair]:  # `table_value` and `_points_at`, written out
            other = others[table]
            if not other:
                continue  # no group, no score; nor is it full: 4 guests seat 2 of each (CI-T.3)
            seated = mine[table] + other + 1
            if seated == 4 and self._natives_with(table, card, chair):  # CI-D.2
                completed += 1
                value = FULL_TABLE_NATIVE_VALUE
            else:
                value = seated
            if table == birthday:
                value *= 2
            gain += value * 2 if table in first_tables else value  # the first card's too
        return gain, completed

    def _natives_with(self, table: int, card: int, chair: int) -> bool:
        """`_all_natives` of `table` once `card` sits on its free `chair`."""
        seat, native_tables = self._seat, self._native_tables
        for other in GEO.table_chairs[table]:
            guest = card if other == chair else seat[other]
            if guest < 0 or table not in native_tables[guest][other]:
                return False
        return True

    def placement_points(self, card: int, chair: int) -> int:
        """What placing `card` on the free `chair` would score now, exactly as the placement
        would (the same `_placement_gain`); the state is not touched. A cheap look-ahead for
        bots: no copy of the state, nothing drawn. It does not check legality."""
        if not (isinstance(card, int) and 0 <= card < NUM_CARD_TYPES):
            raise KafeneioError(f"placement_points: {card!r} is not a guest card")
        if not (isinstance(chair, int) and 0 <= chair < NUM_CHAIRS) or self._seat[chair] >= 0:
            raise KafeneioError(f"placement_points: {chair!r} is not a free chair")
        return self._placement_gain(card, chair, self._first_tables())[0]

    def _dance(self, action: CafeAction) -> None:
        """CI-V.2: the dance table scores 20 (40 all natives); other tables score as usual."""
        geo = geometry()
        table = action.table
        self._dance_tables.append(table)
        gain = 0
        for card, chair in action.placements:
            self._hands[self._player].remove(card)
            self._seat_guest(card, chair)
            for other in geo.chair_tables[chair]:
                if other != table:
                    gain += self._points_at(other, self.table_value(other))
                    self._completed += self._single_nation(other)
        natives = self._all_natives(table)
        gain += self._points_at(table, DANCE_NATIVE_VALUE if natives else DANCE_VALUE)
        self._completed += natives
        self._scores[self._player] += gain
        self.emit("dance", events.danced, self._player, table, gain)
        self._end_turn(table_move=True)

    def placement_points_of(self, actions: Iterable[CafeAction]) -> list[int | None]:
        """`placement_points` of each of `actions` that is a placement, None for any other
        action: the rollout's pricing of every legal decision at once. It does not check
        legality."""
        seat, first_tables = self._seat, self._first_tables()
        unchecked = actions is not self._legal  # this state's legal placements are on free chairs
        found: list[int | None] = []
        for action in actions:
            if action.kind != PLACE:
                found.append(None)
                continue
            card, chair = action.card, action.chair
            if unchecked and not (
                0 <= card < NUM_CARD_TYPES and 0 <= chair < NUM_CHAIRS and seat[chair] < 0
            ):
                raise KafeneioError(f"placement_points_of: {action!r} is not on a free chair")
            found.append(self._placement_gain(card, chair, first_tables)[0])
        return found

    def bar_points(self, card: int) -> int | None:
        """What seating `card` (not a joker) at the bar would change the mover's score by now,
        exactly as the move would: the seat's value, and the hand penalties too if the move
        ends the game (CI-E.2); None if it would throw the mover out (CI-M.3; under
        ``bar_unpaid = forbid`` such a move is not legal). A cheap look-ahead for bots: a copy
        of the state only when the move might end the game. It does not check legality."""
        seat, values = len(self._bar), self.options.bar_values
        if not (isinstance(card, int) and 0 <= card < JOKER_LADY):
            raise KafeneioError(f"bar_points: {card!r} is not a guest card other than a joker")
        if seat >= len(values):
            raise KafeneioError("bar_points: every bar seat is taken")
        player, value = self._player, values[seat]
        if not self.pays_bar_seat():
            return None
        drawn = min(2 if self.options.bar_draw == "extra" else 1, len(self._bag))
        if not self._may_end(len(self._bag) - drawn, seat + 1):  # (the move resets passes)
            return value
        trial = self.clone().quiet()
        trial.apply(SPACE.bar[card])
        return trial.scores()[player] - self._scores[player]

    def _go_to_bar(self, card: int) -> None:
        """CI-M.2, CI-M.3, CI-D.3."""
        player = self._player
        hand = self._hands[player]
        hand.remove(card)
        bar = self._bar
        value = self.options.bar_values[len(bar)]
        unpaid = not self.pays_bar_seat()
        # one event: the seat's points, or that they cannot be paid (its points never count)
        told = events.thrown_out if unpaid else events.went_to_bar
        self.emit("out" if unpaid else "bar", told, player, card, len(bar), value)
        bar.append(card)
        if unpaid:
            self._out[player] = True  # CI-M.3: thrown out; the hand leaves play
            hand.clear()
        else:
            self._scores[player] += value
            # CI-D.3: "draws one more card"; option (b): one extra, so the hand grows by one.
            self._draw(player, 2 if self.options.bar_draw == "extra" else 1)
        self._close_turn()  # a first decision: nothing is pending

    def _swap(self, card: int, chair: int) -> None:
        """CI-M.4, CI-D.4: the joker goes to the hand; nothing scores, nothing is drawn."""
        joker = self._seat[chair]
        hand = self._hands[self._player]
        hand.remove(card)
        insort(hand, joker)
        self._take(joker, chair)
        self._put(card, chair)
        self._jokers_seated.remove(chair)
        self.emit("swap", events.swapped, self._player, card, chair, joker)
        self._end_turn(table_move=False)

    def _draw(self, player: int, count: int) -> None:
        if count <= 0:
            return  # a hand at (or above) its target draws nothing, and nothing is told
        hand = self._hands[player]
        bag = self._bag
        if count == 1 and bag:  # after a bar move, mostly
            drawn: tuple[int, ...] = (bag.pop(),)  # the next card drawn is the last
            insort(hand, drawn[0])
        elif count == 2 and len(bag) >= 2:  # after a move of two guests, mostly
            drawn = (bag.pop(), bag.pop())
            insort(hand, drawn[0])
            insort(hand, drawn[1])
        else:
            taken = min(count, len(bag))
            drawn = tuple(bag[len(bag) - taken :][::-1])
            del bag[len(bag) - taken :]
            for card in drawn:
                insort(hand, card)
        self.emit("draw", events.drew, player, drawn)

    def _end_turn(self, *, table_move: bool) -> None:
        self._pending = []
        if not table_move:
            self._close_turn()
        elif self._completed and self.options.single_nation_draw == "choose":
            self._choosing_draw = True
        else:
            self._refill(lower_target=True)

    def _refill(self, *, lower_target: bool) -> None:
        """CI-D.1, CI-D.2: draw up to the hand target, lowered by one for each single-nation
        table the move completed."""
        player = self._player
        if lower_target and self._completed:
            self._targets[player] = max(0, self._targets[player] - self._completed)
            self.emit(
                "target", events.target_lowered, player, self._completed, self._targets[player]
            )
        self._draw(player, self._targets[player] - len(self._hands[player]))
        self._close_turn()

    def _close_turn(self) -> None:
        player = self._player
        self._completed = 0
        self._turns += 1
        self._opening = False
        options = self.options
        someone_out = True in self._out
        # `_end_reason`'s common answer, None, first: it is asked after every turn
        if self._may_end(len(self._bag), len(self._bar)) or self._passes >= self.num_players:
            reason = self._end_reason()
            if reason is not None:
                self._finish(reason)
                return
        if (
            options.birthday
            and not self._birthday_claimed
            and not self._out[player]
            and self._scores[player] >= options.birthday_threshold
        ):
            self._birthday_claimed = True
            self._birthday_chooser = player  # CI-V.1: chosen at once, before the next turn
            return
        if someone_out:
            self._advance()
        else:
            self._player = (player + 1) % self.num_players  # `_advance` when no one is out

    def _may_end(self, bag: int, bar: int) -> bool:
        """Whether the game may be over (CI-E.1) with `bag` cards left in the bag and `bar`
        bar seats taken, passes aside: the cheap test before `_end_reason`."""
        return (
            bag <= self.options.end_bag
            or bar >= len(self.options.bar_values)
            or self._seated == NUM_CHAIRS
            or True in self._out
            or 0 in self._targets
        )

    def _advance(self) -> None:
        player = self._player
        for _ in range(self.num_players):
            player = (player + 1) % self.num_players
            if not self._out[player]:
                break
        self._player = player

    def _game_over(self) -> bool:
        return self._end_reason() is not None

    def _end_reason(self) -> str | None:
        """Why the game is over, if it is (CI-E.1, CI-M.3, CI-M.5): checked after every turn's
        drawing."""
        case = self._end_case()
        return None if case is None else case[1]

    def end_case(self) -> str | None:
        """Which of the rules' ends the game came to, in words that are the same for every
        game that ended so (`ENDS`), or None while it goes on: what a designer counts over
        many games (an option such as ``end_bag`` matters only if games end by it)."""
        case = self._end_case() if self.is_terminal() else None
        return None if case is None else case[0]

    def _end_case(self) -> tuple[str, str] | None:
        """The end the game came to (one of `ENDS`) and why, in words naming the rule."""
        if len(self._bar) >= len(self.options.bar_values):
            return ENDS[0], "the bar is full (CI-E.1)"
        if self._seated == NUM_CHAIRS:
            return ENDS[1], "every chair is taken (CI-E.1)"
        if len(self._bag) <= self.options.end_bag:
            return ENDS[2], f"the bag holds {len(self._bag)} cards (CI-E.1)"
        out = self._out
        live = [p for p in range(self.num_players) if not out[p]]
        for p in live:
            if not self._hands[p] and self._targets[p] == 0:
                return ENDS[3], f"P{p + 1} has no cards and a hand target of 0 (CI-E.1)"
        if len(live) <= 1:
            return ENDS[4], "only one player is left in the game (CI-M.3)"
        if self._passes >= len(live):
            return ENDS[5], "every player in the game passed in turn (CI-M.5)"
        return None

    def _finish(self, reason: str) -> None:
        """CI-E.2: each card left in hand costs 5, each joker 10."""
        self.emit("end", events.game_over, reason)
        for player in range(self.num_players):
            if not self._out[player]:
                hand = self._hands[player]
                jokers = sum(1 for card in hand if is_joker(card))
                loss = CARD_PENALTY * (len(hand) - jokers) + JOKER_PENALTY * jokers
                self._scores[player] -= loss
                if loss:
                    self.emit("penalty", events.penalty, player, len(hand) - jokers, jokers, loss)
        self._over = True
        self.emit("result", events.result, tuple(self.winners()), tuple(self._scores))


PLACEMENTS: list[dict[int, tuple[CafeAction, ...]]] = [{} for _ in range(NUM_CARD_TYPES)]
"""Per card type, by chair mask: its placements on those chairs (see `placements`)."""
PLACEMENTS_KEPT = 4096
"""How many chair masks a card type keeps (a nation's card has at most 2**8; a joker more)."""


def placements(space: ActionSpace, card: int, chairs: int) -> tuple[CafeAction, ...]:
    """The placements of `card` on the chair mask `chairs`, in the order move generation gives
    them: lone chairs first, then shared ones, each in chair order. Kept for the next time."""
    found = []
    for part in (chairs & MASKS.lone, chairs & MASKS.shared):
        while part:
            bit = part & -part
            found.append(space.place[card][bit.bit_length() - 1])
            part ^= bit
    kept = PLACEMENTS[card]
    if len(kept) < PLACEMENTS_KEPT:
        kept[chairs] = tuple(found)
    return tuple(found)


def _card_types(hand: list[int]) -> list[int]:
    """The card types of a hand, in order, each once: a hand is kept sorted, so one pass
    (cheaper than ``sorted(set(hand))``) finds them."""
    kinds: list[int] = []
    previous = -1
    for card in hand:
        if card != previous:
            kinds.append(card)
            previous = card
    return kinds


def _placements_on(
    space: ActionSpace, kinds: list[int], ladies: int, men: int, actions: list[CafeAction]
) -> list[CafeAction]:
    """`actions` and after them the placements of the card types `kinds` on the chair masks
    `ladies` and `men` (by the card's gender) where the card's nation may sit, card by card."""
    card_chairs = MASKS.card_chairs
    for card in kinds:
        chairs = (men if card & 1 else ladies) & card_chairs[card]
        if chairs:  # then its placements are not empty: a kept tuple or a new one
            actions += PLACEMENTS[card].get(chairs) or placements(space, card, chairs)
    return actions


def _in_chair_order(row: tuple[CafeAction, ...], chairs: int, actions: list[CafeAction]) -> None:
    """Append the actions of `row` (by chair) on the chair mask `chairs`, in chair order."""
    while chairs:
        bit = chairs & -chairs
        actions.append(row[bit.bit_length() - 1])
        chairs ^= bit


ENDS = (
    "the bar full",
    "every chair taken",
    "the bag at its end",
    "a hand emptied at target 0",
    "one player left",
    "every player passed",
)
"""The ends of a game (CI-E.1, CI-M.3, CI-M.5), as `end_case` names them."""


def _native_tables(options: CafeOptions) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Where each card on each chair counts as a native, as option CI-P.3 says."""
    geo = geometry()
    return geo.native_tables if options.joker_native_both else geo.native_tables_joker_neither


def _assignments(
    chairs: list[int], pool: Counter[int], chairs_for: tuple[tuple[int, ...], ...]
) -> list[tuple[tuple[int, int], ...]]:
    """Every way to put one card of `pool` on each chair, where the card's nation fits."""
    if not chairs:
        return [()]
    chair, rest = chairs[0], chairs[1:]
    found: list[tuple[tuple[int, int], ...]] = []
    for card in sorted(pool):
        if pool[card] and chair in chairs_for[card]:
            pool[card] -= 1
            found.extend(((card, chair), *tail) for tail in _assignments(rest, pool, chairs_for))
            pool[card] += 1
    return found


def _shuffled_bag(seed: int | None) -> list[int]:
    bag = full_deck()
    shuffle(random.Random(seed), bag)
    return bag


def _why_illegal(state: CafeState, action: Any) -> IllegalActionError:
    """The error that names the rule `action` breaks in `state`."""
    from kafeneio.games.cafe.explain import why_illegal

    return why_illegal(state, action)
