"""Analysis: estimates from the mover's information only, close to the exact win chances, and
a whole game's decisions, mistakes and report."""

from __future__ import annotations

import html
import io
import itertools
import json
import math
import random
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from kafeneio.bots import BOTS, ActionEstimate, Analysis, make_bot
from kafeneio.bots.knowledge import ScoreKnowledge, knowledge_for, playout_bot
from kafeneio.bots.mcts import MctsBot
from kafeneio.cli import app
from kafeneio.core import CHANCE, KafeneioError, State, sample_chance
from kafeneio.games import get_game, load_record
from kafeneio.sim.analysis import (
    PRIOR_VISITS,
    PROPOSALS,
    Budget,
    FlatMonteCarlo,
    analyse_game,
    analyse_position,
    analyser_for,
    hint,
    judge,
    with_budget,
)
from kafeneio.sim.runner import make_seat_bot

from .toy import BETS, COIN, FLIP, GUESSES, HEADS, DrawGame, ToyGame


def test_flat_monte_carlo_finds_the_exact_win_chances_of_a_known_position() -> None:
    state = ToyGame().new_state(2, seed=1)
    analysis = FlatMonteCarlo(0, Budget(None, 600)).analyse(state)
    assert analysis.player == 0 and analysis.best == FLIP
    assert analysis.win_chance == pytest.approx(COIN, abs=0.08)
    assert analysis.iterations == 600 and sum(e.visits for e in analysis.actions) == 600
    assert analysis.actions[0].action == FLIP  # best first


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_hidden_card_is_never_looked_at_only_resampled(seed: int) -> None:
    state = ToyGame().new_state(2, seed=seed)
    right_guess = GUESSES[state.card]  # type: ignore[attr-defined]
    analysis = FlatMonteCarlo(seed, Budget(None, 600)).analyse(state, keep=[right_guess])
    # a look at the card would make this 1; the mover knows only that it is one of three
    assert analysis.estimate(right_guess) == pytest.approx(1 / 3, abs=0.15)


class Spy:
    """A state that lets the estimator see only what the mover may: which game it is, who
    moves, the legal actions and samples determinized for the mover."""

    allowed = frozenset(
        {"game", "determinize", "current_player", "legal_actions", "is_terminal", "num_players"}
    )

    def __init__(self, state: State) -> None:
        self._state = state
        self.samples = 0

    def __getattr__(self, name: str) -> Any:
        if name not in self.allowed:
            raise AssertionError(f"the estimator read {name} of the true state")
        if name == "determinize":
            self.samples += 1
            mover = self._state.current_player()

            def determinize(player: int, rng: random.Random) -> State:
                assert player == mover, "determinized for someone else than the mover"
                return self._state.determinize(player, rng)

            return determinize
        return getattr(self._state, name)


def mid_game(game_name: str, decisions: int, seed: int = 0) -> State:
    state = get_game(game_name).new_state(2, seed=seed)
    rng = random.Random(seed)
    bots = [make_seat_bot("heuristic", seed), make_seat_bot("random", seed + 1)]
    made = 0
    while made < decisions or state.current_player() == CHANCE:
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            state.apply(bots[state.current_player()].choose(state))
            made += 1
    return state


@pytest.mark.parametrize("game_name", ["cafe", "souvlaki"])
def test_the_estimator_reads_the_true_state_only_through_the_movers_samples(
    game_name: str,
) -> None:
    state = mid_game(game_name, 8)
    spy = Spy(state)
    analysis = FlatMonteCarlo(1, Budget(None, 6)).analyse(spy)  # type: ignore[arg-type]
    proposals = PROPOSALS if len(state.legal_actions()) > 1 else 0
    assert spy.samples == 6 + proposals and analysis.iterations == 6


def test_a_move_worse_than_the_best_by_more_than_the_noise_is_a_clear_mistake() -> None:
    state = ToyGame().new_state(2, seed=3)
    guess = judge(state, 0, GUESSES[0], FlatMonteCarlo(0, Budget(None, 400)))
    assert guess.best == "coin" and guess.played == "guess0"
    assert guess.lost == pytest.approx(COIN - 1 / 3, abs=0.15)
    assert guess.clear_mistake and 0 < guess.margin < guess.lost
    flip = judge(state, 0, FLIP, FlatMonteCarlo(0, Budget(None, 400)))
    assert flip.lost == 0 and flip.margin == 0 and not flip.clear_mistake


def test_a_player_far_ahead_is_estimated_to_win_and_the_one_behind_to_lose() -> None:
    ahead = mid_game("cafe", 52)  # heuristic (P1) against random, well ahead
    behind = mid_game("cafe", 54)
    assert ahead.current_player() == 0 and behind.current_player() == 1
    assert ahead.scores()[0] > ahead.scores()[1] + 30
    assert FlatMonteCarlo(0, Budget(None, 60)).analyse(ahead).win_chance > 0.7
    assert FlatMonteCarlo(0, Budget(None, 60)).analyse(behind).win_chance < 0.4


def test_an_analysis_is_reproducible_and_refuses_a_position_without_a_decision() -> None:
    state = mid_game("cafe", 10)
    first = analyse_position(state, budget=Budget(iterations=30), seed=4)
    again = analyse_position(state, budget=Budget(iterations=30), seed=4)
    assert replace(again, seconds=0) == replace(first, seconds=0)
    with pytest.raises(KafeneioError, match="brings its own budget"):  # it was dropped
        analyse_position(state, analyser=FlatMonteCarlo(1), budget=Budget(iterations=5))
    flat = [FlatMonteCarlo(1, Budget(iterations=40)).analyse(state) for _ in range(2)]
    assert replace(flat[0], seconds=0) == replace(flat[1], seconds=0)  # samples, not seconds
    assert {e.action for e in first.actions} == set(state.legal_actions())
    assert 0 <= first.win_chance <= 1 and first.best in state.legal_actions()
    with pytest.raises(KafeneioError, match=rf"{GUESSES[0].notation} is not an action of the"):
        first.estimate(GUESSES[0])
    chance = ToyGame().new_state(2, seed=0)
    chance.apply(FLIP)
    with pytest.raises(KafeneioError, match="chance"):
        analyse_position(chance, budget=Budget(None, 2))
    over = mid_game("cafe", 0)
    while not over.is_terminal():
        over.apply(over.legal_actions()[0])
    with pytest.raises(KafeneioError, match="over"):
        analyse_position(over)


def test_one_position_takes_an_analyser_by_name_as_a_whole_game_does() -> None:
    """`analyse_game` named its analyser, `analyse_position` took only one made, and a name
    given to it was an AttributeError."""
    state = mid_game("cafe", 10)
    flat = analyse_position(state, "flat", Budget(iterations=20), seed=2)
    made = FlatMonteCarlo(2, Budget(iterations=20)).analyse(state)
    assert replace(flat, seconds=0) == replace(made, seconds=0)
    assert analyse_position(state, "mcts:iterations=20", seed=2).best in state.legal_actions()
    with pytest.raises(KafeneioError, match="unknown analyser 'oracle'"):
        analyse_position(state, "oracle")
    with pytest.raises(KafeneioError, match=r"an analyser is a name .* not 5"):
        analyse_position(state, 5)  # type: ignore[arg-type]
    with pytest.raises(KafeneioError, match="a seed must be a whole number"):
        analyse_position(state, "flat", Budget(iterations=5), seed=None)  # type: ignore[arg-type]


def test_a_bot_that_cannot_analyse_is_refused_and_a_budget_must_be_positive() -> None:
    with pytest.raises(KafeneioError, match="cannot analyse"):
        analyser_for("random", Budget())
    for seconds in (0, math.inf, math.nan):  # inf never ends; nan would stop at once
        with pytest.raises(KafeneioError, match="positive, finite"):
            Budget(seconds=seconds)
    assert Budget(None, 8).scaled(0.25) == Budget(None, 2)
    # iterations alone have no time limit (a second of cap made the samples depend on the
    # machine's speed); neither given, a second
    assert Budget(iterations=5) == Budget(None, 5) and Budget(iterations=5).seconds is None
    assert Budget() == Budget(1.0) and Budget(2.0).iterations is None
    assert isinstance(analyser_for("FLAT", Budget()), FlatMonteCarlo)  # names in any case
    with pytest.raises(KafeneioError, match="flat takes no parameters"):
        analyser_for("flat:x=1", Budget())
    with pytest.raises(KafeneioError, match="unknown analyser 'deep'; analysers: flat"):
        analyser_for("deep", Budget())


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"seconds": "1"}, "a budget's seconds are a positive, finite number, not '1'"),
        ({"seconds": True}, "a budget's seconds are a positive, finite number, not True"),
        ({"iterations": "3"}, "a budget's iterations are a whole number >= 1, not '3'"),
        ({"iterations": 2.5}, "a budget's iterations are a whole number >= 1, not 2.5"),
        ({"iterations": 0}, "a budget's iterations are a whole number >= 1, not 0"),
    ],
)
def test_a_budget_of_the_wrong_type_is_refused_naming_its_field(
    arguments: dict[str, object], message: str
) -> None:
    """Text failed with a bare TypeError from a comparison; 2.5 iterations were taken."""
    with pytest.raises(KafeneioError, match=message):
        Budget(**arguments)  # type: ignore[arg-type]


def test_a_budget_takes_numpy_numbers_and_holds_them_as_python_numbers() -> None:
    """Only int and float were numbers: numpy's were refused (a regression), and a numpy
    number kept could not be written to a report's JSON."""
    np = pytest.importorskip("numpy")
    budget = Budget(seconds=np.float32(0.5), iterations=np.int64(5))
    assert (budget.seconds, budget.iterations) == (0.5, 5)
    assert type(budget.seconds) is float and type(budget.iterations) is int
    assert json.loads(json.dumps(asdict(budget))) == {"seconds": 0.5, "iterations": 5}
    with pytest.raises(KafeneioError, match="iterations are a whole number"):
        Budget(iterations=np.float64(5.0))


def test_an_analysis_by_a_bot_that_takes_no_seconds_names_no_seconds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The budget was decided twice: the bot was made without the seconds it does not take,
    while the JSON and the text said it thought for them."""

    def counted(seed: int, iterations: int | None = None) -> MctsBot:
        return MctsBot(seed, iterations=iterations)

    monkeypatch.setitem(BOTS, "counted", counted)
    record = json.loads(recorded_game(tmp_path, 4).read_text())
    result = analyse_game(record, "counted", Budget(0.01, 2))
    assert (result.budget, result.iterations) == (None, 2)
    assert result.budget_words == "2 iterations a decision, seed 0"


def test_an_analysis_holds_its_actions_in_a_tuple_and_names_those_it_has() -> None:
    """`actions` was a list inside a frozen analysis (anyone could change it), and a move not
    analysed raised a bare KeyError."""
    state = ToyGame().new_state(2, seed=0)
    analysis = FlatMonteCarlo(3, Budget(iterations=12)).analyse(state)
    assert isinstance(analysis.actions, tuple)
    made = Analysis(0, 0.5, analysis.best, list(analysis.actions))  # type: ignore[arg-type]
    assert made.actions == analysis.actions
    written = ", ".join(entry.action.notation for entry in analysis.actions)
    with pytest.raises(
        KafeneioError,
        match=rf"heads is not an action .*\(P1 to move\), whose analysis has {written}$",
    ):
        analysis.estimate(HEADS)
    many = Analysis(0, 0.5, analysis.best, (analysis.actions[0],) * 10)
    with pytest.raises(KafeneioError, match=r"and 2 more$"):
        many.estimate(HEADS)


def recorded_game(tmp_path: Path, actions: int) -> Path:
    state = get_game("cafe").new_state(2, seed=9)
    bots = [make_seat_bot("heuristic", 1), make_seat_bot("random", 2)]
    while len(state.history) < actions:
        state.apply(bots[state.current_player()].choose(state))
    record = {**state.to_record(), "seats": ["heuristic", "random"]}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def test_a_game_analysis_covers_every_decision_and_ranks_each_players_mistakes(
    tmp_path: Path,
) -> None:
    record = json.loads(recorded_game(tmp_path, 14).read_text())
    told: list[int] = []
    result = analyse_game(record, budget=Budget(None, 8), seed=1, progress=told.append)
    assert sum(told) == 14 and len(result.decisions) == 14  # Café has no chance nodes
    assert [d.ply for d in result.decisions] == list(range(14))
    assert [d.played for d in result.decisions] == record["actions"]
    state = load_record({**record, "actions": []})  # each move in words, as its mover read it
    for decision in result.decisions:
        played, best = state.parse_legal(decision.played), state.parse_legal(decision.best)
        assert decision.played_words == state.action_words(played)
        assert decision.best_words == state.action_words(best)
        state.apply(played)
    for player in (0, 1):
        own = [d.lost for d in result.decisions if d.player == player and d.legal > 1]
        assert result.mean_lost(player) == pytest.approx(sum(own) / len(own))
    for decision in result.decisions:
        assert 0 <= decision.after <= 1 and 0 <= decision.before <= 1 and decision.lost >= 0
        # a move preferred to the one played is rated higher: never a preference at no loss
        assert (decision.lost > 0) == (decision.best != decision.played)
    for player in (0, 1):
        worst = result.mistakes(player)
        assert all(d.player == player and d.lost > d.margin for d in worst)
        assert [d.lost for d in worst] == sorted((d.lost for d in worst), reverse=True)
    assert result.seats == ["heuristic", "random"] and not result.finished
    assert analyse_game(record, budget=Budget(None, 8), seed=1).decisions == result.decisions
    side_by_side = analyse_game(record, budget=Budget(None, 8), seed=1, workers=2)
    assert side_by_side.decisions == result.decisions


def test_the_analyse_command_prints_json_and_writes_a_report(tmp_path: Path) -> None:
    path = recorded_game(tmp_path, 6)
    runner = CliRunner()
    result = runner.invoke(app, ["analyse", str(path), "--iterations", "4", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert len(data["decisions"]) == 6 and len(data["mistakes"]) == 2
    shown = runner.invoke(
        app, ["analyse", str(path), "--iterations", "4", "--report", str(tmp_path / "r")]
    )
    assert shown.exit_code == 0, shown.output
    assert "of win chance a move on average, over 3 moves with a choice" in shown.stdout
    assert "% ± " in shown.stdout  # losses in win chance, as the web app gives them
    mistakes = [line for line in shown.stdout.splitlines() if line.startswith("  move ")]
    assert all(" to chair " in line or " to the bar" in line for line in mistakes)
    assert "stops before the game's end" in shown.stdout  # six moves of a game
    assert "chance outcomes count" not in shown.stdout  # Café's draws are no moves of a log
    assert "fewer samples than legal moves" in shown.stdout  # 4 iterations, more legal moves
    both = runner.invoke(app, ["analyse", str(path), "--iterations", "4", "--budget", "1"])
    assert both.exit_code == 2 and "not both" in both.output
    twice = ["analyse", str(path), "--bot", "mcts:iterations=5", "--iterations", "10"]
    told = runner.invoke(app, twice)  # the spec's budget would win without a word
    assert told.exit_code == 2 and "sets its own iterations: drop it or --iterations" in told.output
    zero = runner.invoke(app, ["analyse", str(path), "--budget", "0"])
    assert zero.exit_code == 2 and "positive" in zero.output
    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps({**json.loads(path.read_text()), "actions": []}))
    nothing = runner.invoke(app, ["analyse", str(empty), "--iterations", "2"])
    assert nothing.exit_code == 0 and "no decision to analyse" in nothing.stdout
    page = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    assert f"<h1>Analysis of a game of {get_game(data['game']).info.title}</h1>" in page
    assert page.count("data:image/png;base64,") == 2 and "Win chance" not in page.split("<img")[0]
    assert json.loads((tmp_path / "r" / "results.json").read_text())["decisions"]
    assert "Lost " in page and "of win chance a move on average, over 3 moves with a" in page
    # every decision move by move, as the terminal's table (the page had the mistakes alone)
    every = page.split("<h2>Every decision</h2>", 1)[1]
    assert every.count("<tr>") == 1 + 6  # the heading's row and a row a decision
    for decision in data["decisions"]:
        assert f"<td>{decision['ply'] + 1}</td>" in every
        assert html.escape(f"{decision['played']}, {decision['played_words']}") in every
    # a record's seats are anybody's words: shown as words, never as the page's markup
    marked = tmp_path / "marked.json"
    marked.write_text(json.dumps({**json.loads(path.read_text()), "seats": ["<b>x</b>", "y"]}))
    made = runner.invoke(
        app, ["analyse", str(marked), "--iterations", "2", "--report", str(tmp_path / "m")]
    )
    assert made.exit_code == 0, made.output
    page = (tmp_path / "m" / "report.html").read_text(encoding="utf-8")
    assert "<b>x</b>" not in page and "P1 (&lt;b&gt;x&lt;/b&gt;)" in page
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**json.loads(path.read_text()), "actions": ["nonsense"]}))
    refused = runner.invoke(app, ["analyse", str(bad), "--iterations", "2"])
    assert refused.exit_code == 2 and "nonsense" in refused.output


def test_an_analysis_says_its_seed_budget_and_analyser_to_run_it_again(tmp_path: Path) -> None:
    """The JSON, the text and the report named the analyser but neither the seed nor the
    budget a decision: nobody could make the same analysis again from them."""
    path = recorded_game(tmp_path, 4)
    runner = CliRunner()
    options = ["--iterations", "3", "--seed", "5"]
    data = json.loads(runner.invoke(app, ["analyse", str(path), *options, "--json"]).stdout)
    assert (data["analyser"], data["seed"], data["budget"], data["iterations"]) == (
        "mcts",
        5,
        None,
        3,
    )
    assert list(data).index("seed") < list(data).index("decisions")  # with the header
    report = tmp_path / "r"
    shown = runner.invoke(app, ["analyse", str(path), *options, "--report", str(report)])
    assert "by mcts (3 iterations a decision, seed 5)" in " ".join(shown.stdout.split())
    page = (report / "report.html").read_text(encoding="utf-8")
    assert "by mcts (3 iterations a decision, seed 5) from each mover" in page
    timed = analyse_game(json.loads(path.read_text()), "flat", Budget(0.01), seed=2).to_dict()
    assert (timed["seed"], timed["budget"], timed["iterations"]) == (2, 0.01, None)
    own = analyse_game(json.loads(path.read_text()), "mcts:iterations=2", Budget(0.01))
    assert (own.budget, own.iterations) == (None, 2)  # the spec's, which the search keeps
    assert own.budget_words == "2 iterations a decision, seed 0"


def test_a_forced_move_counts_in_no_mean_loss_and_is_shown_as_forced(tmp_path: Path) -> None:
    """A move with one legal choice loses nothing: counted in the mean, 7 forced moves of 45
    diluted a Café player's loss a move by a sixth."""
    from kafeneio.sim import commands
    from kafeneio.sim.analysis import Decision, GameAnalysis

    def decision(ply: int, lost: float, legal: int) -> Decision:
        return Decision(ply, 0, "a", "b", "a", "b", 0.5, 0.5 - lost, lost, 0.01, legal, 40)

    moves = [decision(0, 0.1, 5), decision(1, 0.0, 1), decision(2, 0.2, 3), decision(3, 0.0, 1)]
    result = GameAnalysis("cafe", 2, None, [1, 0], [0], True, "mcts", moves)
    assert result.choices_of(0) == 2 and result.moves_of(0) == 4
    assert result.mean_lost(0) == pytest.approx(0.15)  # (0.1 + 0.2) / 2, not / 4
    data = result.to_dict()
    assert data["mean_lost"] == [0.15, 0.0] and data["choices"] == [2, 0]
    with commands.console.capture() as captured:
        commands.print_analysis(result)
    shown = captured.get()
    assert "lost 15.0% of win chance a move on average, over 2 moves with a choice (2 forced" in (
        " ".join(shown.split())
    )
    rows = [line for line in shown.splitlines() if line.startswith("│")]
    assert ["forced" in row for row in rows] == [False, True, False, True]


def test_the_analyse_command_says_why_its_move_numbers_skip(tmp_path: Path) -> None:
    """Souvlaki's draws are moves of its log that nobody decides: the table's move numbers
    skip them, and its title counted decisions only, with no word of why."""
    records = tmp_path / "records"
    runner = CliRunner()
    made = runner.invoke(
        app,
        [
            "simulate",
            "souvlaki",
            "--games",
            "1",
            "--seats",
            "random",
            "--workers",
            "1",
            "--records",
            str(records),
        ],
    )
    assert made.exit_code == 0, made.output
    path = str(records / "game-0001.json")
    shown = runner.invoke(app, ["analyse", path, "--bot", "flat", "--iterations", "1"])
    assert shown.exit_code == 0, shown.output
    assert "(moves numbered as in the game's log, where chance outcomes count too)" in " ".join(
        shown.stdout.split()
    )
    # on a terminal of 80 columns the title, 130 long, is broken at words, not mid-word
    from kafeneio.sim import commands

    screen = io.StringIO()
    terminal = Console(file=screen, width=80, highlight=False, soft_wrap=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(commands, "console", terminal)
        again = runner.invoke(app, ["analyse", path, "--bot", "flat", "--iterations", "1"])
    assert again.exit_code == 0, again.output
    lines = screen.getvalue().splitlines()
    assert lines[0].startswith("Souvlaki Wars: ")  # and broken at a space:
    assert " ".join(" ".join(lines[:2]).split()).endswith(
        "(moves numbered as in the game's log, where chance outcomes count too)"
    )
    assert max(len(line) for line in lines) <= 80, [line for line in lines if len(line) > 80]


def test_the_analyse_commands_words_keep_to_the_terminals_width(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each player's summary ran past 80 columns (``P1 (mcts:iterations=5): lost ... no clear
    mistake``), where a terminal broke it in mid-word: it breaks at words, as the table does."""
    from kafeneio.sim import commands

    path = tmp_path / "game.json"
    seats = ["--seats", "mcts:iterations=5,greedy", "--seed", "2", "--quiet"]
    made = CliRunner().invoke(app, ["play", "cafe", *seats, "--record", str(path)])
    assert made.exit_code == 0, made.output
    screen = io.StringIO()
    terminal = Console(file=screen, width=80, highlight=False, soft_wrap=True)
    monkeypatch.setattr(commands, "console", terminal)
    shown = CliRunner().invoke(app, ["analyse", str(path), "--iterations", "2"])
    assert shown.exit_code == 0, shown.output
    lines = screen.getvalue().splitlines()
    assert any(line.startswith("P1 (mcts:iterations=5): lost ") for line in lines)
    assert max(len(line) for line in lines) <= 80, [line for line in lines if len(line) > 80]


def test_flat_analysis_finishes_samples_with_the_games_playout_bot() -> None:
    """Café's heuristic looks ahead in sampled worlds (over a second a game), so its samples
    are finished by greedy seats; Souvlaki's shopkeeper is cheap and plays them itself."""
    assert playout_bot(knowledge_for("cafe")) == "greedy"
    assert playout_bot(knowledge_for("souvlaki")) == "heuristic"
    assert playout_bot(ScoreKnowledge()) == "heuristic"


def test_paired_worlds_compare_root_children_on_the_worlds_both_met() -> None:
    # `high` beats `low` by 5 chances in 100, and the hidden number decides both bets alike in
    # 95 worlds of 100: compared world by world the better bet shows at once, while each mean
    # apart still spreads by about 0.5 / sqrt(40) = 0.08 after 80 iterations.
    game = DrawGame()
    spec = "mcts:iterations=80:c=0.3:paired={}"
    right = {
        paired: sum(
            make_bot(spec.format(paired), seed).choose(game.new_state(2, seed=seed)) == BETS[0]
            for seed in range(60)
        )
        for paired in ("true", "false")
    }
    assert right["true"] >= 59
    assert right["false"] <= 50  # the toy needs the pairing: without it the bets look alike


@pytest.mark.parametrize("game_name", ["cafe", "souvlaki"])
def test_a_hint_is_the_same_whatever_the_mover_cannot_see(game_name: str) -> None:
    state = mid_game(game_name, 8)
    mover = state.current_player()
    first = hint(state, seed=3, budget=Budget(None, 40))
    assert first.player == mover and first.best in state.legal_actions()
    assert first.iterations == 40
    for world in range(3):
        # the bag's order (and in Souvlaki the other hands and the decks) drawn again
        other = state.determinize(mover, random.Random(world))
        assert other != state and other.observation(mover) == state.observation(mover)
        again = hint(other, seed=3, budget=Budget(None, 40))
        assert replace(again, seconds=0) == replace(first, seconds=0)


def test_a_search_bot_analyses_with_the_budget_given_unless_its_spec_has_one() -> None:
    assert with_budget("mcts", Budget(0.5)) == "mcts:seconds=0.5"
    assert with_budget("mcts:c=0.4", Budget(None, 30)) == "mcts:c=0.4:iterations=30"
    assert with_budget("mcts:iterations=7", Budget(2.0)) == "mcts:iterations=7"
    assert with_budget("heuristic", Budget(1.0)) == "heuristic"  # no budget to give
    state = mid_game("cafe", 6)
    analysis = analyser_for("mcts", Budget(None, 25)).analyse(state)
    assert analysis.iterations == 25


class Stub:
    """An analyser that answers with a set analysis: the best guess at 0.6, the played one at
    0.55, each visited `visits` times with rewards of the given `variance`."""

    def __init__(self, visits: int, variance: float | None) -> None:
        self.visits, self.variance = visits, variance

    def analyse(self, state: State) -> Analysis:
        best, played = GUESSES[0], GUESSES[1]
        entries = [
            ActionEstimate(best, 0.6, self.visits, self.variance),
            ActionEstimate(played, 0.55, self.visits, self.variance),
        ]
        return Analysis(0, 0.6, best, entries, iterations=2 * self.visits)


@pytest.mark.parametrize(
    ("visits", "variance", "clear"),
    [
        (100, 0.001, True),  # a search's win chances spread little: a loss of 0.05 is clear
        (100, 0.0, True),  # and if they never varied, the margin still is not nothing
        (100, None, False),  # unknown spread: as wide as a win or a loss
        (5, 0.001, False),  # a few visits that agree prove little
        (100, 0.05, False),  # rewards that spread widely
    ],
)
def test_a_searchs_own_spread_of_rewards_sets_the_margin_of_a_loss(
    visits: int, variance: float | None, clear: bool
) -> None:
    state = ToyGame().new_state(2, seed=3)
    decision = judge(state, 0, GUESSES[1], Stub(visits, variance))
    assert decision.lost == pytest.approx(0.05)
    assert decision.clear_mistake is clear
    assert decision.margin > 0


def test_a_margin_is_at_most_one_as_a_difference_of_two_chances_is() -> None:
    """One visit each: 1.96 standard errors of a win-or-loss difference would be 1.37; the
    JSON kept that while the tables showed 100%."""
    state = ToyGame().new_state(2, seed=3)
    decision = judge(state, 0, GUESSES[1], Stub(1, None))
    assert decision.margin == 1.0 and not decision.clear_mistake


def test_a_move_rated_as_high_as_the_most_visited_is_not_shown_a_preference() -> None:
    class Higher(Stub):  # the move played rated above the search's most visited
        def analyse(self, state: State) -> Analysis:
            analysis = super().analyse(state)
            played = replace(analysis.actions[1], win_chance=0.62)
            return replace(analysis, actions=[analysis.actions[0], played])

    state = ToyGame().new_state(2, seed=3)
    decision = judge(state, 0, GUESSES[1], Higher(100, 0.01))
    assert decision.best == decision.played == GUESSES[1].notation
    assert decision.lost == 0 and decision.margin == 0 and decision.after == 0.62
    # and the position is worth what its preferred move keeps: no chance gained by moving
    assert decision.before == decision.after


def test_the_margin_draws_a_measured_spread_towards_a_win_or_a_losss() -> None:
    state = ToyGame().new_state(2, seed=3)
    measured = judge(state, 0, GUESSES[1], Stub(90, 0.01)).margin
    unknown = judge(state, 0, GUESSES[1], Stub(90, None)).margin
    # per action: 90 visits of the measured 0.01 (unbiased: 0.01 * 90 / 89) and PRIOR_VISITS
    # of a win or a loss at 0.6 and 0.55, over 100; their sum over 90 visits, 1.96 sd of it
    spreads = [(90 * 0.01 * 90 / 89 + PRIOR_VISITS * p * (1 - p)) / 100 for p in (0.6, 0.55)]
    assert measured == pytest.approx(1.96 * (sum(spreads) / 90) ** 0.5, rel=1e-3)
    assert unknown == pytest.approx(1.96 * ((0.24 + 0.2475) / 90) ** 0.5, rel=1e-3)


def test_the_search_reports_the_spread_of_each_actions_rewards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # every iteration's reward is 0.2 or 0.8 (for the mover): a reward of two values whose mean
    # is m spreads by exactly (m - 0.2)(0.8 - m), whatever the mix each action met
    rewards = itertools.cycle([[0.2, 0.8], [0.8, 0.2], [0.8, 0.2]])
    monkeypatch.setattr(MctsBot, "_rollout", lambda self, *args: list(next(rewards)))
    analysis = MctsBot(0, iterations=300).analyse(ToyGame().new_state(2, seed=1))
    searched = [e for e in analysis.actions if e.visits >= 2]
    assert searched
    for entry in searched:
        mean = entry.win_chance
        assert entry.variance == pytest.approx((mean - 0.2) * (0.8 - mean), abs=1e-9)
    assert any(entry.variance for entry in searched)
