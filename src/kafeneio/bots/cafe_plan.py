"""Café International: the race to an empty hand, as a fitted evaluation: the search's reward at
a cut-off and the heuristic's look-ahead read it (`kafeneio.bots.cafe`).

Most games end when a player who has completed 5 single-nation tables plays their last card
(CI-D.2, CI-E.1); that player pays no hand penalty and the others pay for every card they still
hold (CI-E.2), so whoever wins that race nearly always wins the game. What counts, besides the
score, is therefore how near each player is to an empty hand and how well their (public, CI-S.1)
hand fits the tables that can still become single-nation tables.

A player's strength is in log-odds of winning, fitted by logistic regression of the winner on
the difference of these features at every turn start of 400 two-player games (`heuristic` and
`greedy` against each other and themselves): the score, more so late; the hand target, which
is worth little early and costs more and more as the end nears (late is `lateness`, 0 to 1);
jokers in hand, worth keeping early; the `reach` of the hand (below); and for each single-nation
table one card short that the hand can complete, more for the player to move (who can complete
it now) than for the others (whom the mover may forestall or block).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from operator import mul

from kafeneio.games.cafe.board import (
    JOKER_LADY,
    JOKER_MAN,
    NUM_CARD_TYPES,
    gender_of,
    is_joker,
    load_board,
    nation_of,
)
from kafeneio.games.cafe.state import CafeState
from kafeneio.games.cafe.tensor import CafeObservationKey


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


WEIGHTS = RaceWeights()
TABLES = tuple((table.nation, table.chairs) for table in load_board().tables)


@dataclass(frozen=True)
class HandFit:
    """How one player's hand fits the tables that can still seat 4 of their nation."""

    reach: float
    """For each such table with guests: the missing guests the hand holds, weighted by the
    share of the table already seated (a card for a table of 3 counts 3/4)."""
    ready: int
    """The tables of 3 the hand can complete with one card."""


def hand_fits(key: CafeObservationKey) -> list[HandFit]:
    """Each player's `HandFit` in the position `key` (everything is public but the bag's
    order, which is not read). A table can still seat 4 of its nation while it holds no
    foreigner and enough of its missing ladies and men (or jokers of that gender) are still
    unplaced, in the bag or in some hand."""
    counts = [_counts(hand) for hand in key.hands]
    unplaced = _counts(key.bag)
    for count in counts:
        for card, held in enumerate(count):
            unplaced[card] += held
    reach = [0.0] * len(counts)
    ready = [0] * len(counts)
    for nation, chairs in TABLES:
        seated = _natives_seated(key.chairs, nation, chairs)
        if seated is None or sum(seated) == 0:
            continue
        missing = (2 - seated[0], 2 - seated[1])
        lady, man = nation * 2, nation * 2 + 1
        if unplaced[lady] + unplaced[JOKER_LADY] < missing[0]:
            continue
        if unplaced[man] + unplaced[JOKER_MAN] < missing[1]:
            continue
        share = sum(seated) / 4
        for player, count in enumerate(counts):
            held = min(count[lady] + count[JOKER_LADY], missing[0]) + min(
                count[man] + count[JOKER_MAN], missing[1]
            )
            reach[player] += held * share
            ready[player] += sum(seated) == 3 and held > 0
    return [HandFit(r, n) for r, n in zip(reach, ready, strict=True)]


def race_features(state: CafeState, late: float) -> list[list[float]]:
    """Each player's features, one for each field of `RaceWeights` in its order, for a state
    that is not over; `late` is how near the end it is (0 to 1)."""
    key = state.observation_key(state.current_player())
    rows = []
    for player, fit in enumerate(hand_fits(key)):
        score, target = key.scores[player], key.hand_targets[player]
        jokers = sum(1 for card in key.hands[player] if is_joker(card))
        mover = float(player == key.to_move)
        rows.append(
            [
                *(score, score * late, target * late, target * late * late),
                *(jokers, jokers * late, fit.reach),
                *(fit.ready * mover, fit.ready * (1 - mover), mover),
            ]
        )
    return rows


WEIGHT_VECTOR = tuple(getattr(WEIGHTS, field.name) for field in fields(RaceWeights))


def race_strengths(state: CafeState, late: float) -> list[float]:
    """Each player's strength in log-odds (a player thrown out: far below everyone), for a
    state that is not over; `late` is how near the end it is (0 to 1)."""
    return [
        -100.0 if state.is_out(player) else sum(map(mul, row, WEIGHT_VECTOR))
        for player, row in enumerate(race_features(state, late))
    ]


def _counts(cards: tuple[int, ...]) -> list[int]:
    count = [0] * NUM_CARD_TYPES
    for card in cards:
        count[card] += 1
    return count


def _natives_seated(
    seats: tuple[int, ...], nation: int, chairs: tuple[int, ...]
) -> tuple[int, int] | None:
    """The (ladies, men) seated at a table, all of its nation or jokers (CI-P.3); None when a
    foreigner sits there, so it can no longer seat 4 of its nation."""
    ladies = men = 0
    for chair in chairs:
        card = seats[chair]
        if card < 0:
            continue
        if not is_joker(card) and nation_of(card) != nation:
            return None
        if gender_of(card):
            men += 1
        else:
            ladies += 1
    return ladies, men
