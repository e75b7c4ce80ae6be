"""Souvlaki Wars: the state and its rules (../shared/rules/souvlaki-wars.md, SW-*).

The game is a sequence of decisions, each by one player or by chance. After every action the
state runs everything automatic (paying the operating cost, revealing and discarding customers,
phone orders, annoyance, the end of a round) up to the next decision, so `current_player` is
always the one to decide. Hands and piles are counts per card kind and queue entries are
immutable, so a clone copies a few short lists.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kafeneio.core.actions import Action
from kafeneio.core.errors import IllegalActionError, KafeneioError, NotationError, shown
from kafeneio.core.events import plural
from kafeneio.core.game import CHANCE, JSON, SPECTATOR, TERMINAL, State
from kafeneio.core.notation import notation_words
from kafeneio.core.randomness import shuffle
from kafeneio.core.tensor import Entries
from kafeneio.games.souvlaki import events as ev
from kafeneio.games.souvlaki.actions import (
    ADVERTISE,
    BUY,
    DISCARD,
    DONE,
    FINISH,
    KEEP,
    MAX_QUEUE,
    PASS,
    PICK,
    PLAY,
    RANDOM,
    REDRAW,
    SEND,
    SERVE,
    USE,
    SouvlakiAction,
)
from kafeneio.games.souvlaki.cards import CardSet
from kafeneio.games.souvlaki.customer import (
    SEND_AWAY_COST,
    Customer,
    make_customer,
    waiting_big_order,
)
from kafeneio.games.souvlaki.effects import UnforeseenEffects
from kafeneio.games.souvlaki.explain import (
    action_words,
    pick_error,
    queue_numbers_words,
    why_illegal,
)
from kafeneio.games.souvlaki.legality import (
    Refusal,
    advertise_refusal,
    buy_refusal,
    pick_refusal,
    play_refusal,
    sendable,
    serve_ready,
    wanted_foods,
    wanted_mask,
)
from kafeneio.games.souvlaki.observe import SouvlakiObservation
from kafeneio.games.souvlaki.options import SouvlakiOptions
from kafeneio.games.souvlaki.setup import (
    CUSTOMERS,
    FOOD,
    UNFORESEEN,
    InPlay,
    Position,
    parse_setup,
    tip_amount,
)
from kafeneio.games.souvlaki.tensor import SouvlakiObservationKey, observation_entries, rules_row

if TYPE_CHECKING:
    from kafeneio.games.souvlaki import SouvlakiGame

MULLIGAN, MAINTENANCE, NEW_CUSTOMERS, UNFORESEEN_FACTORS, SERVICE, OVER = range(6)
PHASE_NAMES = ("mulligan", "maintenance", "customers", "unforeseen", "service", "over")
"""Phase names in observations and setups; ``customers`` is phase 2, New Customers."""
START_FOOD, START_UNFORESEEN = 5, 3
"""SW-S.4: the starting hands."""
TURN_ENDING = frozenset({KEEP, REDRAW, DONE, PICK, USE, PASS, FINISH})


class SouvlakiState(UnforeseenEffects, SouvlakiObservation, State):
    """A position of Souvlaki Wars."""

    game: SouvlakiGame
    options: SouvlakiOptions
    cards: CardSet
    _shops: tuple[int, ...]
    _start_reputation: tuple[int, ...]
    _shuffle_seed: int
    _money: list[int]
    _reputation: list[int]
    _loans: list[int]
    _food: list[list[int]]
    """Food cards per player, counted by card kind."""
    _food_size: list[int]
    _unforeseen: list[list[int]]
    _queues: list[list[Customer]]
    _discards: list[list[int]]
    _decks: list[list[int]]
    _reshuffles: list[int]
    _deck_origin: tuple[tuple[int, ...], ...]
    _food_drawn: list[int]
    _unforeseen_drawn: list[int]
    _round: int
    _phase: int
    _order: list[int]
    _turn: int
    _needs_upkeep: bool
    _buys_left: int
    _advertised: bool
    _row: list[int]
    _pool: list[int]
    _played: list[int]
    _served: int
    _served_reputation: list[int]
    _served_money: list[int]
    _cancels: int
    _in_play: list[int]
    _revealed: list[tuple[int, int, int]]
    _random_tasks: list[tuple[int, int]]
    _effect: tuple[int, int, tuple[int, ...], int] | None
    _to_move: int
    _winners: list[int]
    _turns_ended: int

    NOT_COMPARED = State.NOT_COMPARED | {"cards"}
    HIDDEN_HISTORY = True  # which card a Ninja or Rats took is not for everyone

    def __init__(
        self,
        game: SouvlakiGame,
        num_players: int,
        seed: int | None,
        setup: Mapping[str, Any] | None,
    ) -> None:
        self._init_base(game, num_players, seed, setup)
        options = self.options
        cards = game.cards
        self.cards = cards
        shop_ids = options.shops or tuple(shop.id for shop in cards.shops[:num_players])
        shops_named = tuple(cards.shop_index(shop_id) for shop_id in shop_ids)  # each one known
        if len(shop_ids) != num_players:
            named = plural(len(shop_ids), "shop")
            raise KafeneioError(f"option shops names {named} for {num_players} seats: one a seat")
        self._shops = shops_named
        shops = [cards.shops[index] for index in self._shops]
        self._start_reputation = tuple(shop.start_reputation for shop in shops)
        self._shuffle_seed = seed or 0
        """Fixes the order of every reshuffle (SW-S.3); a setup may give its own."""
        n = num_players
        self._money = [shop.start_money for shop in shops]
        self._reputation = [shop.start_reputation for shop in shops]
        self._loans = [0] * n
        self._food = [[0] * len(cards.foods) for _ in range(n)]
        self._food_size = [0] * n
        self._unforeseen = [[0] * len(cards.unforeseen) for _ in range(n)]
        self._queues = [[] for _ in range(n)]
        self._discards = [
            [0] * len(cards.foods),
            [0] * len(cards.customers),
            [0] * len(cards.unforeseen),
        ]
        self._reshuffles = [0, 0, 0]
        self._deck_origin = (
            tuple(card.count for card in cards.foods),
            tuple(card.count for card in cards.customers),
            tuple(kind.count for kind in cards.unforeseen),
        )
        """Per deck, the cards it was made of at the start or at its last reshuffle (public:
        a reshuffled deck is the discard pile everyone saw, SW-S.3); a tuple, shared by clones."""
        self._food_drawn = [0] * (n * len(cards.foods))
        self._unforeseen_drawn = [0] * (n * len(cards.unforeseen))
        """Per player and kind (at ``player * kinds + kind``), the cards drawn from that deck
        since `_deck_origin` was set: each player knows their own, so a sample's deck holds only
        cards that may still be in it. Flat, so that a clone copies one list."""
        self._round = 0
        self._phase = MULLIGAN
        self._order = []
        """Who acts in this phase, in turn; in the draft, the snake of picks (SW-2.2)."""
        self._turn = 0
        self._needs_upkeep = False
        self._buys_left = 0
        self._advertised = False
        self._row = []
        """The draft row: a customer card kind per slot, -1 once taken."""
        self._pool = [0, 0, 0, 0]
        self._played = [0] * len(cards.foods)
        self._served = 0
        self._served_reputation = [0] * n
        self._served_money = [0] * n
        self._cancels = 0
        self._in_play = [0] * len(cards.unforeseen)
        """Unforeseen kinds whose effect lasts until the end of the round (SW-3.3)."""
        self._revealed = []
        """(holder, food kind, knower): the knower has seen that card go into the holder's
        hand (a Ninja's victim, SW-E.11). Kept while certain: a public play or discard of that
        kind spends one, and a card taken unseen from the holder forgets them all."""
        self._random_tasks = []
        """Food cards still to take at random: (from player, to player, or the discard pile:
        `ev.DISCARDED` for an effect's, `ev.OVER_THE_LIMIT` for the hand limit's)."""
        self._effect = None
        """An unforeseen card waiting for chance: (kind, owner, targets, next effect)."""
        self._to_move = 0
        self._winners = []
        self._turns_ended = 0
        if setup is None:
            self._decks = self._shuffled_decks(random.Random(seed))
            self._deal()
        else:
            start = [(shop.start_money, shop.start_reputation) for shop in shops]
            stacked = parse_setup(cards, n, start, setup)
            self._shuffle_seed = stacked.shuffle_seed
            self._decks = [deck[::-1] for deck in stacked.decks]  # draw with pop()
            if stacked.position is None:
                self._deal()
            else:
                self._arrange(stacked.position)
        self._advance()

    def _shuffled_decks(self, rng: random.Random) -> list[list[int]]:
        kinds = (
            [card.count for card in self.cards.foods],
            [card.count for card in self.cards.customers],
            [kind.count for kind in self.cards.unforeseen],
        )
        decks = []
        for counts in kinds:
            deck = [kind for kind, count in enumerate(counts) for _ in range(count)]
            shuffle(rng, deck)
            decks.append(deck)
        return decks

    def _deal(self) -> None:
        """SW-S.4: in seat order, 5 food cards each, then 3 unforeseen cards each (SW-S.5)."""
        for player in range(self.num_players):
            self._draw_food(player, START_FOOD)
        if not self.options.first_game:
            for player in range(self.num_players):
                self._draw_unforeseen(player, START_UNFORESEEN)
        self._phase = MULLIGAN
        self._order = self._reputation_order()

    def _arrange(self, position: Position) -> None:
        if position.phase == "unforeseen" and self.options.first_game:
            raise KafeneioError("setup: first-game mode has no unforeseen phase (SW-S.5)")
        self._money, self._reputation = position.money, position.reputation
        self._loans = position.loans
        self._food = position.food_hands
        self._food_size = [sum(hand) for hand in self._food]
        self._unforeseen = position.unforeseen_hands
        # Nothing is known of the set-up hands' past: as if each was drawn from a deck made of
        # the deck and the hands.
        self._food_drawn = [count for hand in self._food for count in hand]
        self._unforeseen_drawn = [count for hand in self._unforeseen for count in hand]
        origins = list(self._deck_origin)
        for deck, hands in ((FOOD, self._food), (UNFORESEEN, self._unforeseen)):
            origin = [0] * len(hands[0])
            for kind in self._decks[deck]:
                origin[kind] += 1
            for hand in hands:
                for kind, count in enumerate(hand):
                    origin[kind] += count
            origins[deck] = tuple(origin)
        self._deck_origin = tuple(origins)
        self._queues = position.queues
        self._discards = position.discards
        self._round = position.round
        if position.phase == "mulligan":  # before round 1 (SW-S.6)
            self._round = 0
            self._order = self._reputation_order()
        elif position.phase == "customers":
            self._start_customers(position.row)
        else:
            start = {
                "maintenance": self._start_maintenance,
                "unforeseen": self._start_unforeseen,
                "service": self._start_service,
            }
            start[position.phase]()
        self._put_in_play(position.in_play)

    def _put_in_play(self, cards: list[InPlay]) -> None:
        """Set up the cards whose effects last the round (SW-3.3) as if just played."""
        for card in cards:
            self._in_play[card.kind] += 1
            for effect in self.cards.unforeseen[card.kind].effects:
                for player in card.players:
                    if effect.do == "served-reputation":
                        self._served_reputation[player] += effect.amount
                    elif effect.do == "served-money":
                        self._served_money[player] += effect.amount
                if effect.do == "cancel-next":
                    self._cancels += effect.amount
            if card.customer is not None:
                owner, place = card.customer
                customer = self._queues[owner][place]
                tip = tip_amount(self.cards, card.kind)
                self._queues[owner][place] = customer.with_tip(customer.tip + tip)

    # --- the contract ---------------------------------------------------------------------
    def current_player(self) -> int:
        return self._to_move

    def is_terminal(self) -> bool:
        return self._phase == OVER

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self._to_move != CHANCE:
            raise IllegalActionError("not a chance node")
        victim = self._random_tasks[0][0]
        hand, size = self._food[victim], self._food_size[victim]
        chances = self.game.random_actions
        return [(chances[kind], count / size) for kind, count in enumerate(hand) if count]

    def _perform(self, action: Any) -> None:
        self._turns_ended += action.kind in TURN_ENDING
        _HANDLERS[action.kind](self, action)
        self._advance()

    def explain_illegal(self, action: Any) -> None:
        raise why_illegal(self, action)

    def _explain_unreadable(self, text: str) -> None:
        """``pick 0`` or ``pick 12`` while a pick is asked: refused as a slot past this row, with
        the row's own slots (the notation knows only the largest row's); ``use foo``, a card
        of no kind: refused with the cards the mover holds (the notation lists all 16)."""
        number = self.game.space.pick_number(text)
        picks = self.game.space.pick
        picking = any(action in picks for action in self.legal_actions())
        if number is not None and picking:
            error = pick_error(number, self._row)
            if error is not None:
                raise error
        try:
            words = notation_words(text)
        except NotationError:
            return  # not text, too long, not ASCII: the notation's own error says so
        if picking and number is None and len(words) == 2 and words[0].lower() == "pick":
            # ``pick x``: the row's own slots, where the notation names the largest row's
            raise NotationError(
                f"{shown(words[1])} is not a slot: the row's slots are 1 to {len(self._row)}"
            )
        card = self.game.space.unknown_card(text)
        if card is not None and self._to_move >= 0:  # not the whole set: the mover's hand
            hand = self._unforeseen[self._to_move]
            held = [
                ev.counted(kind.id, count)
                for kind, count in zip(self.cards.unforeseen, hand, strict=True)
                if count
            ]
            yours = f"you hold {', '.join(held)}" if held else "you hold no unforeseen card"
            raise NotationError(f"no unforeseen card {card!r}; {yours}")

    def _words(self, action: Any) -> str:
        return action_words(self, action)

    def numbered_words(self, action: Action) -> str | None:
        return queue_numbers_words(self, action)

    def scores(self) -> list[int]:
        """Money plus reputation: the sum that breaks ties (SW-5.3), money net of loans (SW-1.6)
        unless the option ``loan_in_tiebreak`` is off."""
        return [self.tiebreak_sum(p) for p in range(self.num_players)]

    def winners(self) -> list[int]:
        return list(self._winners)

    def turns_completed(self) -> int:
        """Player turns ended: a mulligan choice, a maintenance, a pick, an unforeseen card or
        pass, a service."""
        return self._turns_ended

    def _observe(self, viewer: int) -> JSON:
        return self._view(None if viewer == SPECTATOR else viewer)

    def observation_key(self, player: int) -> SouvlakiObservationKey:
        """Hashable; equal exactly when `observation(player)` is (see `tensor`). `player` may
        be `SPECTATOR`, as for `observation`."""
        player = self.check_viewer(player)
        phase, options = self._phase, self.options
        return SouvlakiObservationKey(
            player,
            self._to_move,
            self._round,
            phase,
            tuple(self._order[: self.num_players]),
            tuple(self._order) if phase == NEW_CUSTOMERS else (),
            self._turn,
            self._shops,
            tuple(self._money),
            tuple(self._loans),
            tuple(self._reputation),
            tuple(self._food_size),
            tuple(map(sum, self._unforeseen)),
            tuple(self._served_reputation),
            tuple(self._served_money),
            tuple(self._food[player]) if player >= 0 else (),
            tuple(self._unforeseen[player]) if player >= 0 else (),
            tuple((holder, kind) for holder, kind, knower in self._revealed if knower == player),
            tuple(map(tuple, self._queues)),
            tuple(self._row),
            tuple(self._pool),
            tuple(self._played),
            self._served,
            (self._buys_left, self._advertised) if phase == MAINTENANCE else (),
            tuple(map(len, self._decks)),
            tuple(map(tuple, self._discards)),
            tuple(self._in_play),
            self._cancels,
            self._effect[0] if self._effect else -1,
            tuple(self._random_tasks),
            tuple(self._winners),
            rules_row(options),
        )

    def observation_tensor(self, player: int) -> list[float]:
        """`observation(player)` as flat floats, laid out by `game.observation_spec`."""
        return self.observation_entries(player).dense()

    def observation_entries(self, player: int) -> Entries:
        """The non-zero entries of `observation_tensor(player)`."""
        return observation_entries(self.cards, self.observation_key(player))

    def _determinize(self, player: int, rng: random.Random) -> SouvlakiState:
        """Resample what `player` cannot see: the others' hands, every deck's order and the
        reshuffle seed. Hand sizes, the multiset of hidden cards and the cards `player` knows to
        be in another hand stay as they are, and a deck holds only cards it may still hold: of
        the cards it was made of (all of them, or the discard pile it was reshuffled from), those
        `player` has not drawn since. What the others drew since is resampled with their hands.

        Of what the others know (`_revealed`), the sample keeps only what `player` shares:
        knowledge of `player`'s own hand, which stays as it is, and what `player` knows of
        another's. What a third player saw go into another's hand is dropped: its card is not
        `player`'s to know, and the holder's hand is resampled."""
        other = self.clone()
        other._revealed = [entry for entry in self._revealed if player in (entry[0], entry[2])]
        known = [[0] * len(self.cards.foods) for _ in range(self.num_players)]
        for holder, kind, knower in self._revealed:
            if knower == player:
                known[holder][kind] += 1
        other._resample_deck(FOOD, player, known, rng)
        unknown = [[0] * len(self.cards.unforeseen) for _ in range(self.num_players)]
        other._resample_deck(UNFORESEEN, player, unknown, rng)
        other._decks[CUSTOMERS].sort()  # the sample depends on what is hidden, not where it is
        shuffle(rng, other._decks[CUSTOMERS])  # every other customer card is in sight
        other._shuffle_seed = rng.getrandbits(32)
        return other

    def _resample_deck(
        self, deck: int, player: int, known: list[list[int]], rng: random.Random
    ) -> None:
        """Deal the cards of `deck` hidden from `player` anew: into the deck, from those it may
        hold, and into the other hands beside the `known` cards; then what the others drew."""
        hands = self._food if deck == FOOD else self._unforeseen
        drawn = self._food_drawn if deck == FOOD else self._unforeseen_drawn
        origin = self._deck_origin[deck]
        kinds = len(origin)
        others = [p for p in range(self.num_players) if p != player]
        # The deck holds what it was made of less every draw since; it may hold any of those
        # cards that `player` did not draw and cannot see.
        mine = drawn[player * kinds : (player + 1) * kinds] if player >= 0 else [0] * kinds
        unseen = [o - d for o, d in zip(origin, mine, strict=True)]  # (a spectator drew none)
        hidden = list(origin)  # what the deck holds: its making less every draw since ...
        for p in range(self.num_players):
            row = drawn[p * kinds : (p + 1) * kinds]
            hidden = [h - d for h, d in zip(hidden, row, strict=True)]
        for p in others:  # ... and the others' hands, but for the cards `player` knows of
            hidden = [h + c - k for h, c, k in zip(hidden, hands[p], known[p], strict=True)]
        may_be_in_deck = [h if h < u else u for h, u in zip(hidden, unseen, strict=True)]
        candidates = _shuffled_cards(may_be_in_deck, rng)
        size = len(self._decks[deck])
        self._decks[deck], spare = candidates[:size], candidates[size:]
        not_deck = [h - m for h, m in zip(hidden, may_be_in_deck, strict=True)]
        sizes = [sum(hands[p]) - sum(known[p]) for p in others]
        for p, dealt in zip(others, _deal_out(not_deck, spare, sizes, rng), strict=True):
            hands[p] = [k + d for k, d in zip(known[p], dealt, strict=True)]
        # The others drew, as many each as they did, the cards of the deck's making that
        # neither it nor `player` holds: the spare candidates, now in their hands, and those
        # `player` did not draw that are in sight (played or discarded since).
        gone = [u - m for u, m in zip(unseen, may_be_in_deck, strict=True)]
        sizes = [sum(drawn[p * kinds : (p + 1) * kinds]) for p in others]
        for p, dealt in zip(others, _deal_out(gone, spare, sizes, rng), strict=True):
            drawn[p * kinds : (p + 1) * kinds] = dealt

    # --- public views used by observation, rendering, explanations and tests --------------
    def card_counts(self) -> dict[str, int]:
        """Conformance hook: the cards of each deck in the game, wherever they are."""
        return self._card_counts_of()

    def knowledge(self, viewer: int) -> list[tuple[int, str]]:
        """Conformance hook: what `viewer` knows of other hands, as (holder, food card)."""
        return self._knowledge_of(viewer)

    def inconsistencies(self) -> list[str]:
        """Conformance hook: why this state is an impossible world (empty if it is not)."""
        return self._inconsistencies_of()

    @property
    def shops(self) -> tuple[int, ...]:
        """Each seat's shop, as an index into the card set's shops."""
        return self._shops

    @property
    def phase(self) -> str:
        return PHASE_NAMES[self._phase]

    @property
    def round(self) -> int:
        return self._round

    @property
    def turn_order(self) -> list[int]:
        """The players in this phase's turn order (the draft's first pass in the draft)."""
        return list(self._order[: self.num_players])

    def at_the_win(self) -> list[int]:
        """SW-5.2: the players with at least the winning money (net of loans) and reputation;
        at a round's end, they end the game."""
        options = self.options
        return [
            p
            for p in range(self.num_players)
            if self.net_money(p) >= options.win_money
            and self._reputation[p] >= options.win_reputation
        ]

    def net_money(self, player: int) -> int:
        """SW-1.6: money less the loan penalty for each loan taken."""
        return self._money[player] - self.options.loan_penalty * self._loans[player]

    def tiebreak_sum(self, player: int) -> int:
        """SW-5.3: money plus reputation, money net of loans unless the option says otherwise."""
        money = self.net_money(player) if self.options.loan_in_tiebreak else self._money[player]
        return money + self._reputation[player]

    def food_hand(self, player: int) -> list[str]:
        """The food cards in `player`'s hand, by notation, in card-set order."""
        foods = self.cards.foods
        return [
            foods[kind].text for kind, count in enumerate(self._food[player]) for _ in range(count)
        ]

    def queue(self, player: int) -> list[Customer]:
        return list(self._queues[player])

    def row(self) -> list[int]:
        """The draft row's customer card kinds, slot by slot; -1 where one was taken."""
        return list(self._row)

    def queue_length(self, player: int) -> int:
        return len(self._queues[player])

    def food_count(self, player: int) -> int:
        """How many food cards `player` holds (public: hand sizes are seen)."""
        return self._food_size[player]

    def unforeseen_count(self, player: int, card: int) -> int:
        """How many unforeseen cards of kind `card` `player` holds (private to `player`)."""
        return self._unforeseen[player][card]

    @property
    def pending_unforeseen(self) -> int:
        """The unforeseen kind whose effect waits for chance, or -1."""
        return self._effect[0] if self._effect is not None else -1

    @property
    def chance_victim(self) -> int:
        """At a chance node: the player a food card is taken from."""
        return self._random_tasks[0][0]

    def money(self, player: int) -> int:
        return self._money[player]

    def reputation(self, player: int) -> int:
        return self._reputation[player]

    @property
    def pool(self) -> list[int]:
        """The foods of the cards played this service, per food (SW-4.2)."""
        return list(self._pool)

    def purchase_refusal(self, player: int, kind: int) -> Refusal | None:
        """SW-1.3: why `player` may not buy supplies (`kind` BUY) or advertise (ADVERTISE) in
        this maintenance; None when they may (the predicate move generation applies)."""
        shop = self.cards.shops[self._shops[player]]
        money, debt = self._money[player], self.options.purchases_into_debt
        if kind == BUY:
            return buy_refusal(shop, money, self._buys_left, debt)
        return advertise_refusal(shop, money, self._advertised, debt)

    def play_refusal(self, player: int, food: int) -> Refusal | None:
        """SW-4.2: why `player` may not play the food card of contents code `food` now; None
        when they may (the predicate move generation applies)."""
        kind = self.game.food_kinds.get(food, -1)
        held = self._food[player][kind] if kind >= 0 else 0
        holds = self.game.food_holds[kind] if kind >= 0 else ()
        food_play = self.options.food_play
        return play_refusal(
            food_play, held, holds, wanted_foods(self._queues[player], self._pool, food_play)
        )

    def food_cards(self, player: int) -> int:
        """How many food cards `player` holds (public, SW-S.4)."""
        return self._food_size[player]

    # --- legal actions --------------------------------------------------------------------
    def _generate(self) -> list[SouvlakiAction]:
        player = self._to_move
        if player == TERMINAL:
            return []
        if player == CHANCE:
            hand = self._food[self._random_tasks[0][0]]
            chances = self.game.random_actions
            return [chances[kind] for kind, count in enumerate(hand) if count]
        space = self.game.space
        if self._food_size[player] > self.options.hand_limit:
            discards = self.game.discard_actions
            return [discards[kind] for kind, count in enumerate(self._food[player]) if count]
        phase = self._phase
        if phase == SERVICE:
            return self._service_actions(player)
        if phase == MULLIGAN:
            return [space.keep, space.redraw]
        if phase == MAINTENANCE:
            return self._maintenance_actions(player)
        if phase == NEW_CUSTOMERS:
            row = self._row
            return [space.pick[slot] for slot in range(len(row)) if pick_refusal(slot, row) is None]
        return [space.pass_, *self.legal_uses(player)]

    def _maintenance_actions(self, player: int) -> list[SouvlakiAction]:
        """SW-1.3: supplies (twice for a shop that may), advertising once, then done."""
        space = self.game.space
        actions = [space.done]
        if self.purchase_refusal(player, BUY) is None:
            actions.append(space.buy)
        if self.purchase_refusal(player, ADVERTISE) is None:
            actions.append(space.advertise)
        return actions

    def _service_actions(self, player: int) -> list[SouvlakiAction]:
        """SW-4.1, SW-4.2, SW-4.6: play a food card that helps, serve, send away, finish.

        Which food cards may be played is `play_refusal`, read from the table
        `game.playable_kinds` that works it out in advance for each set of wanted foods."""
        space = self.game.space
        queue = self._queues[player]
        if not queue:
            return [space.finish]
        options = self.options
        food_play = options.food_play
        hand = self._food[player]
        plays = self.game.play_actions
        if food_play == "any":
            actions = [plays[kind] for kind, count in enumerate(hand) if count]
        else:
            wanted = wanted_foods(queue, self._pool, food_play)
            assert wanted is not None  # somebody waits
            kinds = self.game.playable_kinds[wanted_mask(wanted)]
            actions = [plays[kind] for kind in kinds if hand[kind]]
        if serve_ready(queue, self._pool):
            actions.append(space.serve)
        actions.extend(space.send[: sendable(len(queue), options.send_away, MAX_QUEUE)])
        actions.append(space.finish)
        return actions

    # --- the flow of the game -------------------------------------------------------------
    def _advance(self) -> None:
        """Run the automatic steps up to the next decision and set who makes it."""
        while True:
            if self._phase == OVER:
                self._to_move = TERMINAL
                return
            while self._random_tasks:
                if self._food_size[self._random_tasks[0][0]]:
                    self._to_move = CHANCE
                    return
                del self._random_tasks[0]  # the hand is empty: nothing left to take
            if self._effect is not None:
                self.run_effects()
                continue
            over = self._over_hand_limit()
            if over >= 0:
                if self.options.hand_limit_discard == "choose":
                    self._to_move = over
                    return
                self._random_tasks.append((over, ev.OVER_THE_LIMIT))
                continue
            if self._turn < len(self._order):
                if self._needs_upkeep:
                    self._upkeep(self._order[self._turn])
                    continue
                self._to_move = self._order[self._turn]
                return
            self._next_phase()

    def _over_hand_limit(self) -> int:
        """SW-1.4: a player with more food cards than the limit discards at once."""
        limit = self.options.hand_limit
        if max(self._food_size) <= limit:  # nearly always: no need to look in turn order
            return -1
        for player in self._order or range(self.num_players):
            if self._food_size[player] > limit:
                return player
        return -1

    def _next_phase(self) -> None:
        """SW-R.1: what happens between the phases, and the start of the next one."""
        phase = self._phase
        if phase == MAINTENANCE:
            self._start_customers()
        elif phase == NEW_CUSTOMERS:
            self._end_draft()
            if self.options.first_game:  # SW-S.5: phase 3 is skipped
                self._start_service()
            else:
                self._start_unforeseen()
        elif phase == UNFORESEEN_FACTORS:
            self._start_service()
        else:  # after the mulligan or a round's service, a new round unless the game is over
            if phase == SERVICE:
                self._end_service()
                self._end_round()
            if self._phase != OVER:
                self._start_round()

    def _start_round(self) -> None:
        self._round += 1
        if self._round == 1:  # there is no shop maintenance in round 1
            self._start_customers()
        else:
            self._start_maintenance()

    def _reputation_order(self) -> list[int]:
        """SW-R.2: highest reputation first; then higher starting reputation; then seat."""
        seat = 1 if self.options.tie_break == "seat" else -1
        rep, start = self._reputation, self._start_reputation
        return sorted(range(self.num_players), key=lambda p: (-rep[p], -start[p], seat * p))

    def _begin_phase(self, phase: int) -> None:
        self._phase = phase
        self._order = self._reputation_order()
        self._turn = 0
        self._needs_upkeep = False

    # --- phase 1: shop maintenance (SW-1) --------------------------------------------------
    def _start_maintenance(self) -> None:
        self._begin_phase(MAINTENANCE)
        self._needs_upkeep = True

    def _upkeep(self, player: int) -> None:
        """SW-1.1, SW-1.2, SW-1.5: pay the operating cost (with a loan if need be), then draw."""
        self._needs_upkeep = False
        shop = self.cards.shops[self._shops[player]]
        cost = shop.operating_cost
        if self.options.loan_trigger == "cannot-pay":
            while self._money[player] < cost:
                self._take_loan(player)
        elif self._money[player] <= 0 and cost > 0:
            self._take_loan(player)
        self._money[player] -= cost
        self.emit("cost", ev.operating_cost, player, cost, self._money[player])
        self._draw_food(player, 1)
        if not self.options.first_game:
            self._draw_unforeseen(player, 1)
        self._buys_left = shop.supplies_per_round
        self._advertised = False

    def _take_loan(self, player: int) -> None:
        self._money[player] += self.options.loan_amount
        self._loans[player] += 1
        self.emit("loan", ev.loan, player, self.options.loan_amount, self.options.loan_penalty)

    def _buy(self, action: SouvlakiAction) -> None:
        player = self._to_move
        shop = self.cards.shops[self._shops[player]]
        self._money[player] -= shop.supplies_cost
        self._buys_left -= 1
        self.emit("buy", ev.bought, player, shop.supplies_cost, shop.supplies_cards)
        self._draw_food(player, shop.supplies_cards)

    def _advertise(self, action: SouvlakiAction) -> None:
        player = self._to_move
        shop = self.cards.shops[self._shops[player]]
        self._money[player] -= shop.advertising_cost
        self._reputation[player] += shop.advertising_reputation
        self._advertised = True
        cost, gain = shop.advertising_cost, shop.advertising_reputation
        self.emit("advertise", ev.advertised, player, cost, gain)

    def _done(self, action: SouvlakiAction) -> None:
        self._turn += 1
        self._needs_upkeep = True

    def _discard(self, action: SouvlakiAction) -> None:
        player = self._to_move
        kind = self.game.food_kinds[action.food]
        self._food[player][kind] -= 1
        self._food_size[player] -= 1
        self._discards[FOOD][kind] += 1
        self._spend_revealed(player, kind)
        self.emit("discard", ev.discarded, self.cards, player, kind)

    def _spend_revealed(self, holder: int, kind: int) -> None:
        """A card of `kind` left the holder's hand face up: each knower knows one fewer."""
        spent: set[int] = set()
        kept = []
        for entry in self._revealed:
            if entry[0] == holder and entry[1] == kind and entry[2] not in spent:
                spent.add(entry[2])
            else:
                kept.append(entry)
        self._revealed = kept

    # --- the mulligan (SW-S.6) -------------------------------------------------------------
    def _keep(self, action: SouvlakiAction) -> None:
        self.emit("mulligan", ev.mulligan, self._to_move, False)
        self._turn += 1

    def _redraw(self, action: SouvlakiAction) -> None:
        player = self._to_move
        hand = self._food[player]
        for kind, count in enumerate(hand):
            self._discards[FOOD][kind] += count
            hand[kind] = 0
        self._food_size[player] = 0
        self._revealed = [entry for entry in self._revealed if entry[0] != player]
        self.emit("mulligan", ev.mulligan, player, True)
        self._draw_food(player, START_FOOD)
        self._turn += 1

    # --- phase 2: new customers (SW-2) -----------------------------------------------------
    def _start_customers(self, row: list[int] | None = None) -> None:
        """SW-2.1, SW-2.2: reveal 2N+1 customers; the picks go in snake order. A set-up `row`
        is laid out instead, its taken slots (-1) picked already."""
        self._begin_phase(NEW_CUSTOMERS)
        first_pass = self._order
        self._order = first_pass + first_pass[::-1]
        self._row = []
        if row is not None:
            self._row = list(row)
            self._turn = row.count(-1)
            if row and max(row) < 0:
                self._turn = len(self._order)
            return
        for _ in range(2 * self.num_players + 1):
            card = self._draw(CUSTOMERS)
            if card >= 0:
                self._row.append(card)
        if not self._row:  # nothing to pick; the phone orders still come, in this order
            self._order = first_pass
            self._turn = len(first_pass)

    def _pick(self, action: SouvlakiAction) -> None:
        """SW-2.3, SW-2.4, SW-2.7: the card joins the end of the picker's queue."""
        player = self._to_move
        card = self._row[action.slot]
        self._row[action.slot] = -1
        self.emit("pick", ev.picked, self.cards, player, action.slot, card)
        if not self.cards.customers[card].big:
            self._queues[player].append(make_customer(self.cards, (card,), phone=False))
        elif self.options.big_phone_order_draw == "phone-step":  # its cards come later
            self._queues[player].append(waiting_big_order(card))
        else:  # rules option: drawn face up at once
            self._add_big_order(player, card)
        self._turn += 1
        if max(self._row) < 0:
            self._turn = len(self._order)

    def _end_draft(self) -> None:
        """SW-2.2, SW-2.11: the card left is discarded; then the phone orders (SW-2.6)."""
        for card in self._row:
            if card >= 0:
                self._discards[CUSTOMERS][card] += 1
                self.emit("leftover", ev.left_in_row, self.cards, card)
        self._row = []
        for player in self._order[: self.num_players]:
            waiting = self._queues[player]
            self._queues[player] = []
            for customer in waiting:
                if customer.waiting:  # SW-2.7: a Big Phone Order's cards, in its place
                    self._add_big_order(player, customer.big)
                else:
                    self._queues[player].append(customer)
            self.add_phone_order(player)

    def _add_big_order(self, player: int, big: int) -> None:
        """SW-2.7, SW-2.8, SW-2.10: one phone order made of 2 customer cards from the deck."""
        kinds = []
        for _ in range(2):
            card = self._draw_ordinary_customer()
            if card >= 0:
                kinds.append(card)
        if not kinds:  # both decks ran dry: the Big Phone Order brings nobody
            self._discards[CUSTOMERS][big] += 1
            return
        customer = make_customer(self.cards, tuple(kinds), phone=True, big=big)
        self._queues[player].append(customer)
        self.emit("phone", ev.phone_order, player, (self.cards, customer))

    def add_phone_order(self, player: int) -> None:
        """SW-2.6: the top customer card joins the end of the queue as a phone order."""
        markers = self.options.phone_markers
        if markers and self._ordinary_phone_orders() >= markers:
            return
        card = self._draw_ordinary_customer()
        if card >= 0:
            customer = make_customer(self.cards, (card,), phone=True)
            self._queues[player].append(customer)
            self.emit("phone", ev.phone_order, player, (self.cards, customer))

    def _ordinary_phone_orders(self) -> int:
        return sum(c.phone and c.big < 0 for queue in self._queues for c in queue)

    def _draw_ordinary_customer(self) -> int:
        """SW-2.10: a Big Phone Order drawn for a phone order is discarded and replaced."""
        customers = self.cards.customers
        while True:
            card = self._draw(CUSTOMERS)
            if card < 0 or not customers[card].big:
                return card
            self._discards[CUSTOMERS][card] += 1
            if not self._ordinary_customer_left():
                return -1

    def _ordinary_customer_left(self) -> bool:
        customers = self.cards.customers
        discard = self._discards[CUSTOMERS]
        return any(not customers[c].big for c in self._decks[CUSTOMERS]) or any(
            count and not customers[kind].big for kind, count in enumerate(discard)
        )

    # --- phase 3: unforeseen factors (SW-3) ------------------------------------------------
    def _start_unforeseen(self) -> None:
        self._begin_phase(UNFORESEEN_FACTORS)
        self._cancels = 0

    def _use(self, action: SouvlakiAction) -> None:
        self.play_card(self._to_move, action)
        self._turn += 1

    def _pass(self, action: SouvlakiAction) -> None:
        self._turn += 1

    def _random(self, action: SouvlakiAction) -> None:
        """SW-E.11, SW-E.15: the chance outcome is the food card taken from the victim."""
        victim, receiver = self._random_tasks.pop(0)
        kind = self.game.food_kinds[action.food]
        self.emit("take", ev.took, self.cards, victim, receiver, kind)
        self._food[victim][kind] -= 1
        self._food_size[victim] -= 1
        if receiver >= 0:  # only the victim and the taker see which card it was
            self._food[receiver][kind] += 1
            self._food_size[receiver] += 1
            self._revealed = [entry for entry in self._revealed if entry[0] != victim]
            self._revealed.append((receiver, kind, victim))
        else:  # discarded face up
            self._discards[FOOD][kind] += 1
            self._spend_revealed(victim, kind)

    # --- phase 4: customer service (SW-4) --------------------------------------------------
    def _start_service(self) -> None:
        self._begin_phase(SERVICE)
        self._served = 0

    def _play(self, action: SouvlakiAction) -> None:
        """SW-4.2: the card's foods join the pool."""
        player = self._to_move
        kind = self.game.food_kinds[action.food]
        self._food[player][kind] -= 1
        self._food_size[player] -= 1
        self._spend_revealed(player, kind)
        self._played[kind] += 1
        self.emit("play", ev.played, self.cards, player, kind)
        foods = self.cards.foods[kind].foods
        pool = self._pool
        for food in range(4):
            pool[food] += foods[food]

    def _serve(self, action: SouvlakiAction) -> None:
        """SW-4.3: the first customer takes its order, pays and adds its influence."""
        player = self._to_move
        customer = self._queues[player].pop(0)
        pool = self._pool
        for food in range(4):
            pool[food] -= customer.order[food]
        paid = max(0, customer.money + self._served_money[player]) + customer.tip
        self._money[player] += paid
        gain = max(0, customer.influence + self._served_reputation[player])
        self.change_reputation(player, gain)
        self.emit("serve", ev.served, player, (self.cards, customer), paid, gain)
        self._served += 1
        self._discard_customer(customer)

    def _send(self, action: SouvlakiAction) -> None:
        """SW-4.6: the customer leaves without paying; the shop loses 5 reputation."""
        player = self._to_move
        customer = self._queues[player].pop(action.slot)
        before = self._reputation[player]
        self.change_reputation(player, -SEND_AWAY_COST)
        text = (self.cards, customer)  # the loss as taken: never below 0 (SW-4.9)
        taken = before - self._reputation[player]
        self.emit("send", ev.sent_away, player, text, taken, SEND_AWAY_COST)
        self._discard_customer(customer)

    def _finish_service(self, action: SouvlakiAction) -> None:
        """SW-4.4 the treat; SW-4.5 the played cards are discarded."""
        player = self._to_move
        if self._served and max(self._pool) > 0:
            self.change_reputation(player, 1)
            self.emit("treat", ev.treat, player, len(self._queues[player]))
        discard = self._discards[FOOD]
        for kind, count in enumerate(self._played):
            discard[kind] += count
        self._played = [0] * len(self._played)
        self._pool = [0, 0, 0, 0]
        self._served = 0
        self._turn += 1

    def _end_service(self) -> None:
        """SW-4.7: unserved customers become annoyed; SW-4.8: annoyed ones leave."""
        for player in self._order:
            staying = []
            for customer in self._queues[player]:
                text = (self.cards, customer)  # put in words only when read
                if customer.annoyed:
                    loss = customer.leaving_loss()
                    before = self._reputation[player]
                    self.change_reputation(player, -loss)
                    self._discard_customer(customer)
                    taken = before - self._reputation[player]  # never below 0 (SW-4.9)
                    self.emit("leave", ev.walked_out, player, text, taken, loss)
                else:
                    staying.append(customer.with_annoyed(True))
                    self.emit("annoyed", ev.annoyed, player, text)
            self._queues[player] = staying

    # --- phase 5: end of round (SW-5) ------------------------------------------------------
    def _end_round(self) -> None:
        """SW-5.1: round effects expire; SW-5.2: the win check; then the round limit."""
        n = self.num_players
        self._served_reputation = [0] * n
        self._served_money = [0] * n
        self._cancels = 0
        for kind, count in enumerate(self._in_play):
            self._discards[UNFORESEEN][kind] += count
        self._in_play = [0] * len(self._in_play)
        for queue in self._queues:
            for position, customer in enumerate(queue):
                if customer.tip:
                    queue[position] = customer.without_tip()
        options = self.options
        qualified = self.at_the_win()
        self.emit("round", ev.round_over, self._round)
        goal = f"{options.win_money} money and {options.win_reputation} reputation"
        if qualified:
            names = ", ".join(f"P{p + 1}" for p in qualified)
            self.emit("end", ev.game_over, f"{names} reached {goal} (SW-5.2)")
        elif self._round >= options.round_limit:
            last = f"round {self._round} was the last (option round_limit, beyond the rulebook)"
            self.emit("end", ev.game_over, f"{last} and nobody reached {goal}")
        if qualified or self._round >= options.round_limit:
            self._finish_game(qualified or list(range(n)))

    def _finish_game(self, contenders: list[int]) -> None:
        """SW-5.3: the highest money + reputation wins; a tie shares the victory."""
        best = max(self.tiebreak_sum(p) for p in contenders)
        self._winners = [p for p in contenders if self.tiebreak_sum(p) == best]
        sums = tuple(self.tiebreak_sum(p) for p in range(self.num_players))
        self.emit("result", ev.result, tuple(self._winners), sums)
        self._phase = OVER
        self._order = []
        self._turn = 0

    # --- cards moving ---------------------------------------------------------------------
    def _draw(self, deck: int, player: int = -1) -> int:
        """SW-S.3: the top card of `deck` (a kind), reshuffling its discards; -1 if none.
        A card drawn into `player`'s hand is counted in what that player drew."""
        if not self._decks[deck] and not self._reshuffle(deck):
            return -1
        cards = self._decks[deck]
        card = cards.pop()
        if player >= 0:
            drawn = self._food_drawn if deck == FOOD else self._unforeseen_drawn
            drawn[player * len(self._deck_origin[deck]) + card] += 1
        if not cards and self.options.reshuffle == "at-once":
            self._reshuffle(deck)
        return card

    def _reshuffle(self, deck: int) -> bool:
        """The discard pile becomes the deck, in an order fixed by the shuffle seed."""
        discard = self._discards[deck]
        cards = [kind for kind, count in enumerate(discard) for _ in range(count)]
        if not cards:
            return False
        self._reshuffles[deck] += 1
        shuffle(random.Random(f"{self._shuffle_seed}/{deck}/{self._reshuffles[deck]}"), cards)
        self._decks[deck] = cards
        origins = list(self._deck_origin)
        origins[deck] = tuple(discard)
        self._deck_origin = tuple(origins)
        drawn = [0] * (self.num_players * len(discard))
        if deck == FOOD:
            self._food_drawn = drawn
        elif deck == UNFORESEEN:
            self._unforeseen_drawn = drawn
        self._discards[deck] = [0] * len(discard)
        return True

    def _draw_food(self, player: int, count: int) -> None:
        hand = self._food[player]
        drawn = []
        for _ in range(count):
            card = self._draw(FOOD, player)
            if card < 0:
                break
            hand[card] += 1
            drawn.append(card)
        self._food_size[player] += len(drawn)
        self.emit("draw", ev.drew_food, self.cards, player, drawn)  # fresh, never changed

    def _draw_unforeseen(self, player: int, count: int) -> None:
        hand = self._unforeseen[player]
        drawn = []
        for _ in range(count):
            card = self._draw(UNFORESEEN, player)
            if card < 0:
                break
            hand[card] += 1
            drawn.append(card)
        self.emit("draw", ev.drew_unforeseen, self.cards, player, tuple(drawn))

    def _discard_customer(self, customer: Customer) -> None:
        """A customer who leaves: its cards and the unforeseen cards on it are discarded."""
        discard = self._discards[CUSTOMERS]
        for kind in customer.cards:
            discard[kind] += 1
        if customer.big >= 0:
            discard[customer.big] += 1
        for kind in customer.attached:
            self._discards[UNFORESEEN][kind] += 1

    def change_reputation(self, player: int, amount: int, why: str | None = None) -> None:
        """SW-4.9: reputation never goes below 0. With `why`, the change is an event."""
        before = self._reputation[player]
        self._reputation[player] = max(0, before + amount)
        if why is not None:
            now = self._reputation[player]
            self.emit("reputation", ev.reputation, player, now - before, now, why)

    def change_money(self, player: int, amount: int, why: str) -> None:
        """An effect's money (ruling: an effect takes no more money than a player has, so a
        shop in debt loses nothing to it; a gain is whole, debt or not)."""
        before = self._money[player]
        self._money[player] = (
            before + amount if amount >= 0 else max(min(before, 0), before + amount)
        )
        now = self._money[player]
        self.emit("money", ev.money, player, now - before, now, why)

    def describe_action(self, action: Action, viewer: int) -> str:
        """Which food card chance took is told in the events, to those who may know it."""
        hidden = isinstance(action, SouvlakiAction) and action.kind == RANDOM
        return "a random food card" if hidden else action.notation


def _shuffled_cards(counts: list[int], rng: random.Random) -> list[int]:
    """The cards that `counts` counts per kind, in a random order."""
    cards = _cards_of(counts)
    shuffle(rng, cards)
    return cards


def _cards_of(counts: list[int]) -> list[int]:
    """The cards that `counts` counts per kind, kind by kind."""
    cards: list[int] = []
    for kind, count in enumerate(counts):
        if count:
            cards += [kind] * count
    return cards


def _deal_out(
    counts: list[int], extra: list[int], sizes: list[int], rng: random.Random
) -> list[list[int]]:
    """The cards that `counts` counts per kind and the cards `extra`, shuffled and dealt
    `sizes[i]` to the i-th; each share counted per kind."""
    if len(sizes) == 1:  # one player gets them all: no need to shuffle
        share = list(counts)
        for kind in extra:
            share[kind] += 1
        return [share]
    cards = _cards_of(counts) + extra
    shuffle(rng, cards)
    shares = []
    for size in sizes:
        share = [0] * len(counts)
        for kind in cards[:size]:
            share[kind] += 1
        del cards[:size]
        shares.append(share)
    return shares


_HANDLERS = {
    KEEP: SouvlakiState._keep,
    REDRAW: SouvlakiState._redraw,
    BUY: SouvlakiState._buy,
    ADVERTISE: SouvlakiState._advertise,
    DONE: SouvlakiState._done,
    DISCARD: SouvlakiState._discard,
    PICK: SouvlakiState._pick,
    USE: SouvlakiState._use,
    PASS: SouvlakiState._pass,
    PLAY: SouvlakiState._play,
    SERVE: SouvlakiState._serve,
    SEND: SouvlakiState._send,
    FINISH: SouvlakiState._finish_service,
    RANDOM: SouvlakiState._random,
}
