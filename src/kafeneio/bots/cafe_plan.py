"""Café International: the race to an empty hand, as a fitted evaluation: the search's reward at
a cut-off and the heuristic's look-ahead read it (`kafeneio.bots.cafe`).

Most games end when a player who has completed 5 single-nation tables plays their last card
(CI-D.2, CI-E.1); that player pays no hand penalty and the others pay for every card they still
hold (CI-E.2), so whoever wins that race nearly always wins the game. What counts, besides the
score, is therefore how near each player is to an empty hand and how well their (public, CI-S.1)
hand fits the tables that can still become single-nation tables.

A player's strength is in log-odds of winning (a conditional logit: each player's chance is
the softmax of the strengths), fitted on the winner at every turn start, separately for each
player count: at 2 players on 400 games (`heuristic` and `greedy` against each other and
themselves), at 3 and 4 on 1,500 games each (greedy seats, one heuristic seat in every fifth
game: `scripts/fit_cafe_race.py --games 1500 --players P --seed 300000 --heuristic-every 5`).
The features: the score, more so late; the hand target, which is worth little early and costs
more and more as the end nears (late is `lateness`, 0 to 1); jokers in hand (at 2 players worth
keeping early; at 3 and 4 the fit values them late); the `reach` of the hand (below); and for
each single-nation table one card short that the hand can complete, more for the player to move
(who can complete it now) than for the others (whom the mover may forestall or block).

The search reads weights of its own (`SEARCH_WEIGHTS_BY_PLAYERS`), fitted on games of the
heuristic against itself with two more features: the hand's dead cards (`dead_cards`: cards
that fit no free chair now, bound for the bar or a hand penalty unless the board opens up),
and the same × lateness. On games kept apart from the fit they predict the winner better
(`scripts/fit_cafe_race.py --search`; docs/bots-log.md); the heuristic's look-ahead keeps its
weights, so the heuristic plays as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from operator import mul
from types import MappingProxyType

from kafeneio.games.cafe.board import (
    JOKER_LADY,
    JOKER_MAN,
    NUM_CARD_TYPES,
    load_board,
)
from kafeneio.games.cafe.state import CafeState


@dataclass(frozen=True)
class RaceWeights:
    """Log-odds per unit of each feature (fitted; see the module's text)."""

    score: float = 0.0306
    score_late: float = 0.0408
    target_late: float = 0.8506
    target_late_squared: float = -1.9146
    joker: float = 0.1613
    joker_late: float = -0.1914
    reach: float = 0.1818
    ready_mover: float = 0.2123
    ready_other: float = 0.1484
    mover: float = 0.0756
    dead: float = 0.0
    dead_late: float = 0.0
    """Per card of the hand (not a joker) that fits no free chair now (`dead_cards`); read
    only by the search's weights (`SEARCH_WEIGHTS_BY_PLAYERS`)."""


WEIGHTS_BY_PLAYERS: Mapping[int, RaceWeights] = MappingProxyType(
    {
        2: RaceWeights(),
        3: RaceWeights(
            score=0.0291,
            score_late=0.0638,
            target_late=0.9087,
            target_late_squared=-1.6861,
            joker=-0.0948,
            joker_late=0.2407,
            reach=0.1777,
            ready_mover=0.2747,
            ready_other=0.195,
            mover=0.0887,
        ),
        4: RaceWeights(
            score=0.019,
            score_late=0.1019,
            target_late=1.1938,
            target_late_squared=-1.7548,
            joker=-0.2084,
            joker_late=0.2884,
            reach=0.3561,
            ready_mover=0.2061,
            ready_other=0.0943,
            mover=0.0957,
        ),
    }
)
"""The fitted weights by player count. The weights of 2 players fitted poorly at 4 (a log loss
of 1.2098 on games kept apart from the fit, against 1.1685 with their own; 0.9128 against
0.8998 at 3): with more rivals a player's score and hand count for more."""
WEIGHTS = WEIGHTS_BY_PLAYERS[2]
SEARCH_WEIGHTS_BY_PLAYERS: Mapping[int, RaceWeights] = MappingProxyType(
    {
        2: RaceWeights(
            score=0.0216,
            score_late=0.0551,
            target_late=-0.3776,
            target_late_squared=0.2381,
            joker=-0.15,
            joker_late=0.1636,
            reach=0.0959,
            ready_mover=0.2681,
            ready_other=0.2221,
            mover=0.0858,
            dead=0.1198,
            dead_late=-0.8499,
        ),
        3: RaceWeights(
            score=-0.0112,
            score_late=0.1118,
            target_late=-0.3294,
            target_late_squared=0.6562,
            joker=0.0394,
            joker_late=-0.1409,
            reach=0.0785,
            ready_mover=0.2237,
            ready_other=0.1737,
            mover=0.0629,
            dead=0.2971,
            dead_late=-1.1309,
        ),
        4: RaceWeights(
            score=0.01,
            score_late=0.0927,
            target_late=0.7509,
            target_late_squared=-0.8147,
            joker=0.1503,
            joker_late=-0.3897,
            reach=0.1465,
            ready_mover=0.1958,
            ready_other=0.1143,
            mover=0.0654,
            dead=0.0645,
            dead_late=-0.7108,
        ),
    }
)
"""The search's weights: the race features and the hands' dead cards, fitted on games of
`heuristic` seats against each other (`scripts/fit_cafe_race.py --search --seats
heuristic,...`): at 2 players on all of 700 games from seed 700000, at 3 on 480 of 600 from
seed 710000, at 4 on 400 of 500 from seed 730000. A dead card costs late: a bar visit or a hand
penalty (CI-M.2, CI-E.2)."""
TABLES = tuple((table.nation, table.chairs) for table in load_board().tables)
LADY, MAN, FOREIGNER = 1, 8, 64
"""What a guest adds to a table's tally (at most 4 guests: a native lady, a native man, a
foreigner each keep to their own bits)."""


def _tally_of(nation: int) -> tuple[int, ...]:
    """What each card type adds to the tally of a table of `nation`, and last what a free chair
    adds (nothing: a free chair's -1 indexes the last entry). Jokers are natives of every
    table (CI-P.3)."""
    tally = [FOREIGNER] * NUM_CARD_TYPES + [0]
    tally[nation * 2] = tally[JOKER_LADY] = LADY
    tally[nation * 2 + 1] = tally[JOKER_MAN] = MAN
    return tuple(tally)


TABLE_TALLIES = tuple((nation, chairs, _tally_of(nation)) for nation, chairs in TABLES)
"""Per table: its nation, its 4 chairs and the tally of each card type there."""
ALL_TABLES = (1 << len(TABLES)) - 1


def hand_fits(
    hands: Sequence[Sequence[int]],
    bag_counts: list[int],
    seats: Sequence[int],
    candidates: int = ALL_TABLES,
) -> list[tuple[float, int]]:
    """How each player's hand fits the tables that can still seat 4 of their nation, from the
    players' `hands`, how many cards of each type the bag holds and the card on each chair
    (`seats`, -1 for a free chair): everything is public but the bag's order, which is not
    read. A table can still seat 4 of its nation while it holds no foreigner and enough of its
    missing ladies and men (or jokers of that gender) are still unplaced, in the bag or in some
    hand. Each player's pair is (reach, ready): for each such table with guests, the missing
    guests the hand holds, weighted by the share of the table already seated (a card for a
    table of 3 counts 3/4); and the tables of 3 the hand can complete with one card. Only the
    tables of the mask `candidates` are read (table t is bit t; the state's
    `partly_seated_tables`: an empty table or a full one adds nothing)."""
    unplaced = list(bag_counts)
    for hand in hands:
        for card in hand:
            unplaced[card] += 1
    tables = _open_tables(seats, unplaced, candidates)
    found = []
    for hand in hands:
        count = _counts(hand)
        jokers = count[JOKER_LADY], count[JOKER_MAN]
        reach, ready = 0.0, 0
        for lady, man, missing_ladies, missing_men, share, one_short in tables:
            ladies, men = count[lady] + jokers[0], count[man] + jokers[1]
            held = (ladies if ladies < missing_ladies else missing_ladies) + (
                men if men < missing_men else missing_men
            )  # min(), written out: this is the evaluation's inner loop
            reach += held * share
            ready += one_short and held > 0
        found.append((reach, ready))
    return found


def _open_tables(
    seats: Sequence[int], unplaced: list[int], candidates: int
) -> list[tuple[int, int, int, int, float, bool]]:
    """The tables of the mask `candidates` with guests that can still seat 4 of their nation
    (no foreigner, and enough of the missing ladies and men still `unplaced`), in table
    order: the card types of their nation's lady and man, the ladies and men missing, the
    share of the table seated and whether it is one card short."""
    found = []
    while candidates:
        bit = candidates & -candidates
        candidates ^= bit
        nation, (one, two, three, four), tally_of = TABLE_TALLIES[bit.bit_length() - 1]
        tally = tally_of[seats[one]] + tally_of[seats[two]] + tally_of[seats[three]]
        tally += tally_of[seats[four]]
        if not tally or tally >= FOREIGNER:  # no guest yet, or no longer for natives only
            continue
        ladies, men = tally % MAN, tally // MAN
        missing_ladies, missing_men = 2 - ladies, 2 - men
        lady, man = nation * 2, nation * 2 + 1
        if unplaced[lady] + unplaced[JOKER_LADY] < missing_ladies:
            continue
        if unplaced[man] + unplaced[JOKER_MAN] < missing_men:
            continue
        seated = ladies + men
        found.append((lady, man, missing_ladies, missing_men, seated / 4, seated == 3))
    return found


def dead_cards(state: CafeState, hands: Sequence[Sequence[int]]) -> list[int]:
    """For each hand, its cards (not jokers) that fit no free chair now (nation and gender,
    CI-T.2, CI-T.3): a bar visit or a hand penalty unless the board opens up for them."""
    fits: dict[int, int] = {}
    found = []
    for hand in hands:
        dead = 0
        for card in hand:
            if card >= JOKER_LADY:
                continue
            if card not in fits:
                fits[card] = state.fitting_chairs(card)
            dead += not fits[card]
        found.append(dead)
    return found


def race_features(state: CafeState, late: float, dead: bool = False) -> list[list[float]]:
    """Each player's features, one for each field of `RaceWeights` in its order (with `dead`
    the two of `dead_cards`, else all but those), for a state that is not over; `late` is how
    near the end it is (0 to 1)."""
    hands = [state.hand(player) for player in range(state.num_players)]
    scores, targets, to_move = state.scores(), state.hand_targets(), state.current_player()
    rows = []
    deads = dead_cards(state, hands) if dead else None
    fits = hand_fits(hands, state.bag_counts(), state.seats(), state.partly_seated_tables())
    for player, (reach, ready) in enumerate(fits):
        score, target = scores[player], targets[player]
        jokers = hands[player].count(JOKER_LADY) + hands[player].count(JOKER_MAN)
        mover = float(player == to_move)
        rows.append(
            [
                *(score, score * late, target * late, target * late * late),
                *(jokers, jokers * late, reach),
                *(ready * mover, ready * (1 - mover), mover),
            ]
        )
        if deads is not None:
            rows[-1] += [deads[player], deads[player] * late]
    return rows


RACE_FIELDS = tuple(field.name for field in fields(RaceWeights))[:-2]
"""The fields the heuristic's weights read: all but the dead cards' two, which come last."""
WEIGHT_VECTORS = {
    players: tuple(getattr(weights, name) for name in RACE_FIELDS)
    for players, weights in WEIGHTS_BY_PLAYERS.items()
}
SEARCH_WEIGHT_VECTORS = {
    players: tuple(getattr(weights, field.name) for field in fields(RaceWeights))
    for players, weights in SEARCH_WEIGHTS_BY_PLAYERS.items()
}


def race_strengths(
    state: CafeState, late: float, vectors: Mapping[int, tuple[float, ...]] = WEIGHT_VECTORS
) -> list[float]:
    """Each player's strength in log-odds (a player thrown out: far below everyone), for a
    state that is not over; `late` is how near the end it is (0 to 1); by the heuristic's
    weights, or the search's (`SEARCH_WEIGHT_VECTORS`, which read the dead cards too)."""
    vector = vectors[state.num_players]
    rows = race_features(state, late, dead=len(vector) > len(RACE_FIELDS))
    return [
        -100.0 if state.is_out(player) else sum(map(mul, row, vector))
        for player, row in enumerate(rows)
    ]


def _counts(cards: Iterable[int]) -> list[int]:
    count = [0] * NUM_CARD_TYPES
    for card in cards:
        count[card] += 1
    return count
