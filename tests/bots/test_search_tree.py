"""The search tree: cheap priors for the nodes inside it, and a turn's second decision searched
from the subtree the first decision's search grew (`KeptTree`)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import cast

import pytest

from kafeneio.bots import make_bot, mcts
from kafeneio.bots.cafe import KNOWLEDGE, CafeKnowledge
from kafeneio.bots.cafe import candidate_turns as cafe_candidate_turns
from kafeneio.bots.knowledge import after, knowledge_for
from kafeneio.bots.mcts import KeptTree, MctsBot, Node, SearchSettings
from kafeneio.core import CHANCE, Action, KafeneioError, State, sample_chance
from kafeneio.games import get_game
from kafeneio.games.cafe.actions import BAR, END, PLACE, CafeAction
from kafeneio.games.cafe.state import CafeState


def positions_of(seed: int, decisions: int = 60, bot: str = "heuristic") -> list[CafeState]:
    """The decisions with a real choice of a two-player game of `bot` seats."""
    state = cast(CafeState, get_game("cafe").new_state(2, seed=seed))
    bots = [make_bot(bot, seed), make_bot(bot, seed + 1)]
    rng = random.Random(seed)
    found: list[CafeState] = []
    while not state.is_terminal() and len(found) < decisions:
        player = state.current_player()
        if player == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        if len(state.legal_actions()) > 1:
            found.append(state.clone())
        state.apply(bots[player].choose(state))
    return found


def test_cafe_node_priors_order_decisions_as_the_one_step_estimate_on_copies_does() -> None:
    rng = random.Random(2)
    positions = positions_of(3)
    assert any(s.phase == "second" for s in positions)
    for state in positions:
        me, legal = state.current_player(), cast(Sequence[CafeAction], state.legal_actions())
        priors = KNOWLEDGE.node_priors(state, rng)
        assert len(priors) == len(legal) and all(0.0 <= p <= 1.0 for p in priors)
        scored = {}
        for action, prior in zip(legal, priors, strict=True):
            if action.kind == END:  # scores nothing, keeps the hand: the standing now
                assert prior == pytest.approx(KNOWLEDGE.estimate(state)[me])
            if action.kind == PLACE:
                gain = after(state, action, rng).scores()[me] - state.scores()[me]
                scored.setdefault(action.card, []).append((gain, prior))
        for same_card in scored.values():  # the same card leaves the hand: the gain decides
            for gain, prior in same_card:
                for other_gain, other_prior in same_card:
                    if gain > other_gain:
                        assert prior > other_prior


def test_a_bar_seat_that_throws_the_mover_out_has_no_chance() -> None:
    rng = random.Random(4)
    found = 0
    for seed in range(20, 40):
        for state in positions_of(seed, decisions=200, bot="random"):
            legal = cast(Sequence[CafeAction], state.legal_actions())
            bar = [index for index, a in enumerate(legal) if a.kind == BAR]
            if bar and state.bar_points(legal[bar[0]].card) is None:
                priors = KNOWLEDGE.node_priors(state, rng)
                assert all(priors[index] == 0.0 for index in bar)
                found += 1
        if found >= 3:
            return
    raise AssertionError("no bar seat that throws a player out in 20 games")


def test_search_rates_the_nodes_inside_its_tree_with_the_games_cheap_priors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    given: list[int] = []

    def marked(self: CafeKnowledge, state: State, rng: random.Random) -> list[float]:
        given.append(len(state.legal_actions()))
        return [0.123] * len(state.legal_actions())

    monkeypatch.setattr(CafeKnowledge, "node_priors", marked)
    state = positions_of(7)[4]
    bot = make_bot("mcts:iterations=80:guide=0", 3)
    assert isinstance(bot, MctsBot)
    bot.analyse(state)
    root = bot.last_root
    assert given, "inner nodes were rated"
    assert root.children_prior and set(root.children_prior.values()) != {0.123}
    inner = [node for node in root.children.values() if node.children_prior]
    assert inner and all(set(node.children_prior.values()) == {0.123} for node in inner)


def first_decision_with_a_second(seed: int) -> CafeState:
    """A big first decision where a searching bot places a first guest and then has a choice."""
    for state in positions_of(seed):
        if state.phase == "turn" and len(state.legal_actions()) > 20:
            choice = make_bot("mcts:iterations=200", 5).choose(state)
            second = after(state, choice, random.Random(0))
            same = second.current_player() == state.current_player()
            if same and len(second.legal_actions()) > 1:
                return state
    raise AssertionError("no big first decision that a second follows")


def another_second_decision(state: CafeState, first: Action) -> State:
    """The mover's second decision after a first action other than `first`, with a choice: a
    decision that the bot's last one (`first`) did not lead to."""
    me = state.current_player()
    return next(
        following
        for a in state.legal_actions()
        if a != first
        for following in [after(state, a, random.Random(0))]
        if following.current_player() == me and len(following.legal_actions()) > 1
    )


def test_a_turns_second_decision_is_searched_from_the_subtree_the_first_grew() -> None:
    state = first_decision_with_a_second(9)
    me = state.current_player()
    bot = make_bot("mcts:iterations=200:reuse=true", 5)
    assert isinstance(bot, MctsBot)
    first = bot.choose(state)
    grown = bot.last_root.children[first.code]
    before = sum(child.visits for child in grown.children.values())
    state.apply(first)
    assert state.current_player() == me and len(state.legal_actions()) > 1
    assert bot.kept is not None and bot.kept.node is grown
    # the bot keeps the mover's observation, never the state with the bag's order
    assert not any(isinstance(v, State) for v in dataclasses.astuple(bot.kept))
    bot.choose(state)
    assert bot.last_root is grown and grown.root
    assert sum(child.visits for child in grown.children.values()) == before + 200


def test_the_kept_subtree_is_not_used_for_another_decision_or_by_analyse() -> None:
    state = first_decision_with_a_second(9)
    bot = make_bot("mcts:iterations=120:reuse=true", 5)
    assert isinstance(bot, MctsBot)
    first = bot.choose(state)
    elsewhere = another_second_decision(state, first)
    kept = bot.kept
    assert kept is not None and kept.root_for(elsewhere) is None
    state.apply(first)
    bot.analyse(state)  # a fresh search: analysis reads nothing of earlier searches
    assert bot.last_root is not kept.node and bot.last_root.visits == 120


def test_reuse_can_be_switched_off() -> None:
    state = first_decision_with_a_second(9)
    bot = make_bot("mcts:iterations=60:reuse=false", 5)
    assert isinstance(bot, MctsBot)
    bot.choose(state)
    assert bot.kept is None
    assert KeptTree.after(state, state.legal_actions()[0], Node(mover=0), 1.0) is None


def test_with_follow_a_turns_second_decision_is_the_heuristics_choice_without_a_search() -> None:
    state = first_decision_with_a_second(9)
    bot = make_bot("mcts:iterations=60:follow=true", 5)
    assert isinstance(bot, MctsBot)
    first = bot.choose(state)
    assert bot.last_iterations == 60 and bot.follows is not None
    # only the mover's observation is kept, never the state with the bag's order
    assert not any(isinstance(v, State) for v in dataclasses.astuple(bot.follows))
    state.apply(first)
    luck = random.Random()
    luck.setstate(bot.rng.getstate())
    expected = KNOWLEDGE.policy(state, luck)  # the heuristic, on the bot's own random numbers
    assert bot.choose(state) == expected and bot.last_iterations == 0


def test_follow_plays_only_the_decision_the_last_one_led_to_and_analyse_searches() -> None:
    state = first_decision_with_a_second(9)
    bot = make_bot("mcts:iterations=200:follow=true", 5)
    assert isinstance(bot, MctsBot)
    first = bot.choose(state)
    elsewhere = another_second_decision(state, first)
    follows = bot.follows
    assert follows is not None and not follows.matches(elsewhere)
    bot.choose(elsewhere)  # not the decision the bot's last one led to: searched
    assert bot.last_iterations == 200
    state.apply(first)
    assert bot.analyse(state).iterations == 200  # analysis always searches
    without = make_bot("mcts:iterations=200:follow=false", 5)
    assert isinstance(without, MctsBot)
    without.choose(state)
    assert without.follows is None and without.last_iterations == 200


def test_reuse_is_on_only_where_the_game_turns_it_on() -> None:
    """Café International at 3 and 4 players, where it was measured better; Souvlaki Wars plays
    as before until it is measured."""
    cafe, souvlaki = knowledge_for("cafe"), knowledge_for("souvlaki")
    assert [SearchSettings.of(cafe, {}, players).reuse for players in (2, 3, 4)] == [0, 1, 1]
    assert SearchSettings.of(souvlaki, {}, 4).reuse == 0.0
    assert SearchSettings.of(cafe, {"reuse": 0.0}, 4).reuse == 0.0
    assert SearchSettings.of(cafe, {"reuse": 1.0}, 2).reuse == 1.0


def test_cafe_explores_less_only_at_2_players() -> None:
    cafe, souvlaki = knowledge_for("cafe"), knowledge_for("souvlaki")
    assert [SearchSettings.of(cafe, {}, players).c for players in (2, 3, 4)] == [0.3, 0.7, 0.7]
    assert SearchSettings.of(cafe, {"c": 0.7}, 2).c == 0.7  # a given constant wins
    assert SearchSettings.of(souvlaki, {}, 2).c == SearchSettings.of(souvlaki, {}, 3).c


def test_cafe_rollouts_run_longer_only_at_3_players() -> None:
    cafe, souvlaki = knowledge_for("cafe"), knowledge_for("souvlaki")
    assert [SearchSettings.of(cafe, {}, players).depth for players in (2, 3, 4)] == [8, 12, 8]
    assert SearchSettings.of(cafe, {"depth": 8}, 3).depth == 8  # a given depth wins
    assert SearchSettings.of(souvlaki, {}, 3).depth == 12


def big_first_decision(seed: int) -> CafeState:
    return next(s for s in positions_of(seed) if s.phase == "turn" and len(s.legal_actions()) > 20)


def searched(spec: str, seed: int = 11) -> tuple[CafeState, MctsBot]:
    """A big first decision of a seeded game, and a bot of `spec` that has just analysed it."""
    state = big_first_decision(seed)
    bot = make_bot(spec, 5)
    assert isinstance(bot, MctsBot)
    bot.analyse(state)
    return state, bot


def test_width_searches_only_the_best_actions_of_each_node_by_prior() -> None:
    _, bot = searched("mcts:iterations=300:width=5")
    root = bot.last_root
    priors = root.children_prior
    best = sorted(priors.values(), reverse=True)[:5]
    assert len(root.within) == 5 and sorted((priors[c] for c in root.within), reverse=True) == best
    assert root.favoured in root.within  # the guide's choice is always searched
    assert set(root.children) == root.within
    inner = [n for child in root.children.values() for n in (child, *child.children.values())]
    narrowed = [node for node in inner if node.within]
    assert narrowed, "no node inside the tree had more than 5 actions"
    assert all(set(node.children) <= node.within for node in narrowed)


def test_without_a_width_every_action_is_searched() -> None:
    state, bot = searched("mcts:iterations=300:width=0")
    assert not bot.last_root.within
    assert len(bot.last_root.children) == len(state.legal_actions())


@pytest.mark.parametrize("width", [-1, 2.5, "wide"])
def test_a_width_that_is_not_a_whole_number_is_refused(width: object) -> None:
    with pytest.raises(KafeneioError, match="width must be a whole number >= 0"):
        MctsBot(1, width=width)  # type: ignore[arg-type]


def tree_below(root: Node) -> list[Node]:
    """Every node of a search tree but its root."""
    found: list[Node] = []
    waiting = list(root.children.values())
    while waiting:
        node = waiting.pop()
        found.append(node)
        waiting.extend(node.children.values())
    return found


def test_widening_grows_a_node_by_the_square_root_of_its_visits() -> None:
    state, bot = searched("mcts:iterations=400:widen=1")
    root = bot.last_root
    assert len(root.children) == len(state.legal_actions())  # the root is not narrowed
    inner = tree_below(root)
    # A node adds a child only while it has fewer than 1 + sqrt(visits before the iteration).
    assert all(len(node.children) <= 1 + int(max(0, node.visits - 1) ** 0.5) for node in inner)
    assert any(len(node.children) >= 3 for node in inner), "no node grew past two children"


def test_without_widening_a_node_tries_each_action_before_repeating_one() -> None:
    _, bot = searched("mcts:iterations=400:widen=0")
    crowded = [n for n in tree_below(bot.last_root) if len(n.children) > 1 + n.visits**0.5]
    assert crowded, "every node was as narrow as widening would keep it"


@pytest.mark.parametrize("widen", [-0.5, "wide"])
def test_a_widening_that_is_not_a_number_of_at_least_0_is_refused(widen: object) -> None:
    with pytest.raises(KafeneioError, match="widen must be a finite number >= 0"):
        MctsBot(1, widen=widen)  # type: ignore[arg-type]


def test_paired_worlds_give_the_n_th_visit_of_every_root_child_the_n_th_world() -> None:
    state = big_first_decision(11)
    me = state.current_player()
    bot = make_bot("mcts:iterations=300:paired=true", 5)
    assert isinstance(bot, MctsBot)
    met: dict[int, list[int]] = {}
    step = bot._paired_root_step

    def recording(state: State, root: Node, me: int, *luck):  # type: ignore[no-untyped-def]
        sample, child, expanded, rng = step(state, root, me, *luck)
        visit = child.visits  # visits before this one
        world = bot.worlds[visit].clone()
        world.apply(sample.history[-1])
        assert sample.state_key() == world.state_key()  # the visit plays in that world
        met.setdefault(sample.history[-1].code, []).append(visit)
        # the rollout's ties are not broken by the numbers that shuffled the world's bag
        assert rng.getstate() != random.Random(bot.world_seed + visit).getstate()
        return sample, child, expanded, rng

    bot._paired_root_step = recording  # type: ignore[method-assign]
    bot.analyse(state)
    assert len(met) == len(state.legal_actions())
    assert all(visits == list(range(len(visits))) for visits in met.values())
    assert min(map(len, met.values())) >= 2
    assert len(bot.worlds) == max(child.visits for child in bot.last_root.children.values())
    keys = {str(world.state_key()) for world in bot.worlds}
    assert len(keys) == len(bot.worlds)  # distinct worlds
    for world in bot.worlds:  # each a possible world of the mover's information
        assert world.observation(me) == state.observation(me)


def test_a_paired_root_child_is_valued_as_the_leader_plus_its_lead_where_both_met() -> None:
    state = big_first_decision(11)
    bot = make_bot("mcts:iterations=300:paired=true", 5)
    assert isinstance(bot, MctsBot)
    bot.analyse(state)
    children = bot.last_root.children.values()
    leader = bot.leader
    assert leader is not None and leader.visits == max(child.visits for child in children)
    for child in children:
        assert child.by_world is not None and len(child.by_world) == child.visits + 1
        assert child.by_world[-1] == pytest.approx(child.value)
        if child is not leader:
            assert leader.by_world is not None
            lead = (child.value - leader.by_world[child.visits]) / child.visits
            assert bot._root_mean(child) == pytest.approx(leader.mean() + lead)


def test_a_kept_subtree_compares_its_root_children_by_their_means_alone() -> None:
    # its children met the worlds of the search before, in no common order
    state = first_decision_with_a_second(8)
    bot = make_bot("mcts:iterations=200:paired=true:reuse=true", 5)
    assert isinstance(bot, MctsBot)
    state.apply(bot.choose(state))
    assert bot.pairing and bot.leader is not None
    bot.choose(state)
    assert bot.last_root.root and bot.last_root.visits > 200  # the kept subtree
    assert not bot.pairing and bot.leader is None
    assert bot.worlds == []  # fresh samples, as without `paired`


def test_without_paired_worlds_every_iteration_draws_a_fresh_world() -> None:
    _, bot = searched("mcts:iterations=200:paired=false")
    assert bot.worlds == []


def test_paired_searches_with_the_same_seed_choose_alike() -> None:
    state = big_first_decision(12)
    first, second = (make_bot("mcts:iterations=200:paired=true", 9) for _ in range(2))
    one, two = (bot.analyse(state.clone()) for bot in (first, second))  # type: ignore[union-attr]
    assert [(e.action, e.visits, e.win_chance) for e in one.actions] == [
        (e.action, e.visits, e.win_chance) for e in two.actions
    ]


def test_a_focus_searches_only_the_heuristics_best_turns_at_the_root() -> None:
    state, bot = searched("mcts:iterations=300:focus=6")
    root = bot.last_root
    ranked = KNOWLEDGE.root_candidates(state, random.Random(1), 6)
    assert 1 <= len(ranked) <= 6 and len(set(ranked)) == len(ranked)
    assert root.favoured in root.focus and root.within == root.focus
    assert set(root.children) == root.focus
    assert len(root.focus) < len(state.legal_actions())
    assert not any(node.focus for node in tree_below(root))  # only the root is focused


def test_cafe_root_candidates_begin_the_best_turns_by_the_one_turn_judgement() -> None:
    state = big_first_decision(12)
    ranked = KNOWLEDGE.root_candidates(state, random.Random(3), 5)
    rng = random.Random(3)  # the same sample and random numbers, step by step
    sample = cast(CafeState, state.determinize(state.current_player(), rng))
    turns = cafe_candidate_turns(sample, rng)[:5]
    assert ranked == list(dict.fromkeys(turn.decisions[0].code for turn in turns))
    assert len(turns) == 5 and turns == sorted(turns, key=lambda t: t.value, reverse=True)
    assert set(ranked) <= {a.code for a in state.legal_actions()}


@pytest.mark.parametrize("focus", [-1, 1.5])
def test_a_focus_that_is_not_a_whole_number_is_refused(focus: object) -> None:
    with pytest.raises(KafeneioError, match="focus must be a whole number >= 0"):
        MctsBot(1, focus=focus)  # type: ignore[arg-type]


def depth_of_tree(root: Node) -> int:
    """How many decisions deep the tree below `root` goes."""
    return max((1 + depth_of_tree(child) for child in root.children.values()), default=0)


@pytest.mark.parametrize("branch", [1, 2])
def test_a_branch_limit_stops_the_tree_that_many_decisions_deep(branch: int) -> None:
    state, bot = searched(f"mcts:iterations=300:branch={branch}")
    assert len(bot.last_root.children) == len(state.legal_actions())
    assert depth_of_tree(bot.last_root) == branch


def test_without_a_branch_limit_the_tree_grows_deeper_than_two_decisions() -> None:
    _, bot = searched("mcts:iterations=300:branch=0")
    assert depth_of_tree(bot.last_root) > 2


def test_with_rivals_by_rollout_the_tree_branches_only_at_the_searchers_decisions() -> None:
    state, bot = searched("mcts:iterations=400:rivals=true")
    me = state.current_player()
    inner = tree_below(bot.last_root)
    assert depth_of_tree(bot.last_root) > 2  # it reaches the searcher's next turn
    assert all(node.mover == me for node in inner)
    _, plain = searched("mcts:iterations=400:rivals=false")
    assert any(node.mover != me for node in tree_below(plain.last_root))


def exploration_constants_used(spec: str) -> set[float]:
    """The exploration constants a search of `spec` scored its children with."""
    bot = make_bot(spec, 5)
    assert isinstance(bot, MctsBot)
    used: set[float] = set()
    ucb = bot._ucb

    def recording(child: Node, c: float) -> float:
        used.add(c)
        return ucb(child, c)

    bot._ucb = recording  # type: ignore[method-assign]
    bot.analyse(big_first_decision(11))
    return used


def test_the_inner_exploration_constant_is_used_below_the_root_only() -> None:
    assert exploration_constants_used("mcts:iterations=300:c=0.7:inner_c=0.1") == {0.7, 0.1}
    assert exploration_constants_used("mcts:iterations=300:c=0.7") == {0.7}  # `c` everywhere


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        ("branch=-1", "branch must be a whole number >= 0"),
        ("branch=1.5", "branch must be a whole number >= 0"),
        ("rivals=1", "rivals must be true or false"),
        ("inner_c=-0.1", "inner_c must be a finite number >= 0"),
    ],
)
def test_bad_branch_rivals_or_inner_c_are_refused(spec: str, problem: str) -> None:
    with pytest.raises(KafeneioError, match=problem):
        make_bot(f"mcts:{spec}", 1)


def test_the_analysis_names_the_second_guest_its_search_planned() -> None:
    """A turn's first guest was all a hint said; the tree holds the plan for the second."""
    state = get_game("cafe").new_state(2, seed=2)
    heuristic = make_bot("heuristic", 1)
    for _ in range(4):
        state.apply(heuristic(state))
    bot = make_bot("mcts:iterations=300", 5)
    assert isinstance(bot, MctsBot)
    analysis = bot.analyse(state)
    following = state.clone()
    following.apply(analysis.best)
    assert following.current_player() == state.current_player()  # a guest: a second decision
    assert analysis.then in following.legal_actions()
    child = bot.last_root.children[analysis.best.code]
    most = max(child.children.items(), key=lambda item: item[1].visits)[0]
    assert analysis.then is not None and analysis.then.code == most
    bar = next(a for a in state.legal_actions() if cast(CafeAction, a).kind == BAR)
    root = Node(mover=0, root=True)
    root.children[bar.code] = Node(mover=0, visits=3, children={1: Node(mover=1, visits=3)})
    assert mcts.planned_after(state, root, bar, state.current_player()) is None  # turn over
