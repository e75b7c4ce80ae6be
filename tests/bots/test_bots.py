"""The bots: every one plays whole games of both games at 2-4 players, search never peeks,
forced moves are not searched, budgets hold and seat specs fail clearly."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kafeneio.bots import BOTS, Analysis, make_bot, mcts, parse_seat, run_time_bots
from kafeneio.bots.base import Bot
from kafeneio.bots.knowledge import knowledge_for
from kafeneio.bots.mcts import WALL_FACTOR, MctsBot
from kafeneio.bots.random_bot import RandomBot
from kafeneio.cli import app
from kafeneio.core import CHANCE, Action, KafeneioError, State, sample_chance
from kafeneio.games import get_game

SRC = Path(__file__).resolve().parents[2] / "src"

FAST = {
    "random": "random",
    "greedy": "greedy",
    "heuristic": "heuristic",
    "mcts": "mcts:iterations=4",
}


def advance(state: State, moves: int, rng: random.Random) -> State:
    """`moves` random decisions on, then on to the next decision with a real choice."""
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply(
            sample_chance(state, rng)
            if state.current_player() == CHANCE
            else rng.choice(state.legal_actions())
        )
    while not state.is_terminal() and (
        state.current_player() == CHANCE or len(state.legal_actions()) < 2
    ):
        state.apply(
            sample_chance(state, rng)
            if state.current_player() == CHANCE
            else rng.choice(state.legal_actions())
        )
    return state


def test_every_registered_bot_has_a_fast_spec_here() -> None:
    assert set(FAST) == set(BOTS)


@pytest.mark.parametrize("game_name", ["cafe", "souvlaki"])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("bot", sorted(FAST))
def test_each_bot_plays_whole_games(game_name: str, players: int, bot: str) -> None:
    game = get_game(game_name)
    state = game.new_state(players, seed=players)
    rng = random.Random(players)
    seats = [make_bot(FAST[bot], p) for p in range(players)]
    seats[0] = make_bot(FAST[bot], 99)
    while not state.is_terminal():
        player = state.current_player()
        state.apply(sample_chance(state, rng) if player == CHANCE else seats[player](state))
    assert state.winners()


@pytest.mark.parametrize("game_name", ["cafe", "souvlaki"])
@pytest.mark.parametrize(
    "bot", ["greedy", "heuristic", "mcts:iterations=30", "mcts:iterations=30:luck=true"]
)
def test_a_bot_chooses_the_same_whatever_the_hidden_cards(game_name: str, bot: str) -> None:
    """Two worlds with the same observation for the mover (the true one and a sample of it):
    the same seed gives the same choice, so the choice reads nothing hidden."""
    for seed in range(3):
        state = advance(get_game(game_name).new_state(3, seed=seed), 25 + seed, random.Random(seed))
        me = state.current_player()
        other = state.determinize(me, random.Random(1000 + seed))
        assert other.observation(me) == state.observation(me)
        assert other != state  # the hidden cards differ
        assert make_bot(bot, seed).choose(state) == make_bot(bot, seed).choose(other)


def test_mcts_does_not_search_a_forced_move_but_analyses_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = get_game("souvlaki")
    state = game.new_state(2, seed=4)
    rng = random.Random(4)
    while state.current_player() == CHANCE or len(state.legal_actions()) != 1:
        state.apply(
            sample_chance(state, rng)
            if state.current_player() == CHANCE
            else rng.choice(state.legal_actions())
        )
    bot = MctsBot(1, iterations=50)
    calls: list[State] = []
    monkeypatch.setattr(bot, "_iterate", lambda *args: calls.append(args[0]))
    assert bot.choose(state) == state.legal_actions()[0]
    assert calls == [] and bot.last_iterations == 0
    monkeypatch.undo()  # an analysis searches it: its win chance draws the analysis's curve
    analysis = MctsBot(1, iterations=50).analyse(state)
    assert analysis.iterations == 50 and analysis.actions[0].visits == 50


@pytest.mark.parametrize("game_name", ["cafe", "souvlaki"])
def test_mcts_keeps_to_its_iteration_budget(game_name: str) -> None:
    state = advance(get_game(game_name).new_state(2, seed=1), 20, random.Random(1))
    bot = make_bot("mcts:iterations=37", 5)
    assert isinstance(bot, MctsBot)
    analysis = bot.analyse(state)
    assert analysis.iterations == bot.last_iterations == 37


def test_mcts_keeps_to_its_time_budget() -> None:
    state = advance(get_game("cafe").new_state(2, seed=2), 20, random.Random(2))
    bot = make_bot("mcts:seconds=0.05", 5)
    cpu_start = time.thread_time()
    analysis = bot.analyse(state)
    cpu = time.thread_time() - cpu_start
    # the budget is the thread's CPU time; one iteration may run past it, and the analysis
    # rates unsearched actions; the wall clock stops it at WALL_FACTOR times the budget
    assert cpu < 0.05 + 0.1
    assert analysis.seconds < WALL_FACTOR * 0.05 + 0.1
    assert analysis.iterations >= 1


def test_a_budget_reads_the_cpu_clock_only_when_the_wall_clock_says_it_may_be_spent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    readings: list[float] = []
    thread_time = time.thread_time

    def counted() -> float:
        readings.append(thread_time())
        return readings[-1]

    monkeypatch.setattr(mcts.time, "thread_time", counted)
    budget = mcts.Budget(0.03)
    checks = 0
    while budget.left():
        checks += 1
    spent, wall = thread_time() - readings[0], time.perf_counter() - budget.start
    # the budget is spent, or on a busy machine the wall clock stopped it first
    assert spent >= 0.03 or wall >= WALL_FACTOR * 0.03
    assert spent < 0.03 + 0.05 and checks > 1000
    # one reading at the start, then a few as the budget runs out (at most one a CLOCK_GAP)
    assert len(readings) <= 2 + wall / mcts.CLOCK_GAP and len(readings) < checks / 100


def test_the_default_mcts_budget_is_a_fifth_of_a_second() -> None:
    bot = make_bot("mcts", 0)
    assert isinstance(bot, MctsBot) and bot.seconds == 0.2 and bot.iterations is None


@pytest.mark.parametrize("game_name", ["cafe", "souvlaki"])
def test_an_analysis_rates_every_legal_action_for_the_mover(game_name: str) -> None:
    state = advance(get_game(game_name).new_state(2, seed=3), 30, random.Random(3))
    bot = make_bot("mcts:iterations=60", 2)
    assert isinstance(bot, MctsBot)
    analysis = bot.analyse(state)
    assert isinstance(analysis, Analysis)
    assert analysis.player == state.current_player()
    assert {e.action for e in analysis.actions} == set(state.legal_actions())
    assert all(0.0 <= e.win_chance <= 1.0 for e in analysis.actions)
    assert 0.0 <= analysis.win_chance <= 1.0
    assert analysis.best in state.legal_actions()
    assert sum(e.visits for e in analysis.actions) == 60
    most = max(analysis.actions, key=lambda e: e.visits)
    assert analysis.best == most.action
    assert analysis.estimate(analysis.best) == analysis.win_chance


def test_mcts_with_the_same_seed_and_iterations_repeats_itself() -> None:
    state = advance(get_game("cafe").new_state(2, seed=6), 10, random.Random(6))
    first = make_bot("mcts:iterations=40", 3).choose(state)
    assert make_bot("mcts:iterations=40", 3).choose(state) == first


@pytest.mark.parametrize("game_name", ["cafe", "souvlaki"])
def test_evaluations_are_win_chances(game_name: str) -> None:
    state = advance(get_game(game_name).new_state(3, seed=8), 40, random.Random(8))
    chances = knowledge_for(state).evaluate(state)
    assert len(chances) == 3 and all(0 <= c <= 1 for c in chances)
    assert abs(sum(chances) - 1) < 1e-9


def test_a_seat_spec_gives_a_bot_its_parameters() -> None:
    assert parse_seat("mcts:seconds=0.05:c=1") == ("mcts", {"seconds": 0.05, "c": 1})
    bot = make_bot("mcts:iterations=12:bias=0", 1)
    assert isinstance(bot, MctsBot) and bot.iterations == 12 and bot.given == {"bias": 0}
    assert make_bot("mcts", 1, iterations=9).iterations == 9  # type: ignore[attr-defined]
    written = make_bot("MCTS:Iterations=12:BIAS=0", 1)  # names and parameters in any case
    assert isinstance(written, MctsBot) and written.iterations == 12 and written.given == bot.given


def test_a_seat_spec_reaches_a_bots_own_spelling_and_keeps_a_texts_case(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A spec was lowered whole: a bot's ``maxDepth`` could not be given (refused as
    'maxdepth' while the message listed maxDepth), and ``mode=Slow`` arrived as 'slow'."""
    made: list[str] = []

    class Camel(RandomBot):
        def __init__(self, seed: int, maxDepth: int = 3, mode: str = "Fast") -> None:
            super().__init__(seed)
            self.depth, self.mode = maxDepth, mode
            made.append(mode)

    monkeypatch.setitem(BOTS, "camel", Camel)
    bot = make_bot("Camel:maxDepth=4:MODE=Slow", 1)
    assert isinstance(bot, Camel) and (bot.depth, bot.mode) == (4, "Slow")
    made.clear()
    command = ["simulate", "cafe", "--seats", "CAMEL:mode=Slow,random", "--games", "1"]
    result = CliRunner().invoke(app, [*command, "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert made and set(made) == {"Slow"}  # the command line keeps it too
    with pytest.raises(KafeneioError, match="both give 'maxdepth'"):
        make_bot("camel:maxdepth=4", 1, maxDepth=5)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("deep-blue", "unknown bot 'deep-blue'"),
        ("mcts:seconds", "'seconds' is not a parameter; write name=value"),
        ("mcts:speed=3", "no parameter 'speed' (parameters: iterations, seconds"),
        ("random:seconds=1", "bot 'random' has no parameter 'seconds' (no parameters)"),
        ("mcts:seconds=-1", "seconds must be a finite number > 0"),
        ("mcts:iterations=0.5", "iterations must be a whole number"),
        ("mcts:c=1:c=2", "gives 'c' twice"),
        ("mcts:seconds=inf", "'inf' is not a finite number"),  # a search that never ends
        ("mcts:c=nan", "'nan' is not a finite number"),
        ("", "a seat is a bot name"),
    ],
)
def test_a_bad_seat_spec_is_refused_with_the_reason(spec: str, message: str) -> None:
    with pytest.raises(KafeneioError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_bot(spec, 0)


@pytest.mark.parametrize("seed", ["7", 7.0, None, True])
def test_a_seed_that_is_not_a_whole_number_is_refused(seed: object) -> None:
    """Text seeded a bot (random.Random takes it) and a float failed deep in the bot."""
    with pytest.raises(KafeneioError, match="seed is a whole number"):
        make_bot("random", seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("bot", sorted(BOTS))
@pytest.mark.parametrize("seed", ["7", 7.0, None])
def test_a_bot_made_by_its_class_refuses_a_seed_that_is_not_a_whole_number(
    bot: str, seed: object
) -> None:
    """`random.Random` took text and None without a word (None: play that differs each run)."""
    with pytest.raises(KafeneioError, match="seed is a whole number"):
        BOTS[bot](seed)


@pytest.mark.parametrize(
    ("parameter", "value", "message"),
    [
        ("iterations", True, "iterations must be a whole number >= 1, not True"),
        ("seconds", True, "seconds must be a finite number > 0, not True"),
        ("seconds", "1", "seconds must be a finite number > 0, not '1'"),
        ("depth", False, "depth must be a whole number >= 0, not False"),
        ("c", True, "c must be a finite number >= 0, not True"),
    ],
)
def test_a_flag_is_no_number_of_a_search(parameter: str, value: object, message: str) -> None:
    """True passed for an iteration budget of 1 (a flag is an int in Python)."""
    with pytest.raises(KafeneioError, match=message):
        make_bot("mcts", 0, **{parameter: value})  # type: ignore[arg-type]


def test_a_parameter_in_the_spec_and_as_a_keyword_is_refused() -> None:
    with pytest.raises(KafeneioError, match="both give 'iterations': give it once"):
        make_bot("mcts:iterations=5", 1, iterations=10)


@pytest.mark.parametrize("bot", sorted(FAST))
def test_a_bot_asked_with_no_player_to_decide_says_so(bot: str) -> None:
    """A chance node: the play loop draws it with its odds (a random bot once drew it evenly,
    the heuristic failed naming a viewer -1); a game over: nothing to decide."""
    state = get_game("souvlaki").new_state(2, seed=4)
    rng = random.Random(4)
    while state.current_player() != CHANCE:
        state.apply(rng.choice(state.legal_actions()))
    with pytest.raises(KafeneioError, match="sample_chance"):
        make_bot(FAST[bot], 1)(state)
    while not state.is_terminal():
        state.apply(sample_chance(state, rng) if state.current_player() == CHANCE
                    else rng.choice(state.legal_actions()))  # fmt: skip
    with pytest.raises(KafeneioError, match="the game is over"):
        make_bot(FAST[bot], 1).choose(state)


def test_bench_times_a_search_bot_and_refuses_one_that_does_not_search() -> None:
    runner = CliRunner()
    result = runner.invoke(
        app, ["bench", "souvlaki", "--bot", "mcts:iterations=3", "--json", "--seed", "2"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["bot"] == "mcts:iterations=3" and report["decisions"] == 10
    assert report["mean_iterations_per_decision"] == 3
    assert report["iterations_per_second"] > 0 and report["rollout_microseconds"] > 0
    result = runner.invoke(app, ["bench", "cafe", "--bot", "greedy"])
    assert result.exit_code == 2 and "search bot" in result.output
    timed = ["bench", "cafe", "--bot", "mcts", "--seconds", "0.01", "--json"]
    result = runner.invoke(app, timed)  # --seconds: how long each search thinks
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["bot"] == "mcts:seconds=0.01"
    result = runner.invoke(app, ["bench", "cafe", "--bot", "mcts", "--rl"])
    assert result.exit_code == 2 and "--rl applies to random play" in result.output


def test_play_accepts_a_seat_spec_and_refuses_a_bad_one() -> None:
    runner = CliRunner()
    args = ["play", "cafe", "--seats", "mcts:iterations=2,random", "--seed", "3", "--quiet"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    result = runner.invoke(app, ["play", "cafe", "--seats", "mcts:budget=2,random", "--quiet"])
    assert result.exit_code == 2 and "no parameter 'budget'" in result.output


def test_the_bots_entered_at_run_time_are_told_from_those_shipped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What a back end's fresh process must be given to know every bot of this one."""
    assert run_time_bots() == {}
    monkeypatch.setitem(BOTS, "mine", FirstLegal)
    monkeypatch.setitem(BOTS, "random", FirstLegal)  # a shipped name, another bot
    assert run_time_bots() == {"mine": FirstLegal, "random": FirstLegal}


class FirstLegal(Bot):
    def __init__(self, seed: int) -> None:
        self.seed = seed

    def decide(self, state: State) -> Action:
        return state.legal_actions()[0]


def test_a_bot_entered_under_a_name_in_capitals_is_found_as_seats_write_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seats are read in any case, so `BOTS["MyBot"]` could never be made, and the refusal
    listed the very name it refused."""
    monkeypatch.setitem(BOTS, "MyBot", FirstLegal)
    assert "mybot" in BOTS and "MYBOT" in BOTS and "MyBot" not in list(BOTS)
    state = get_game("cafe").new_state(2, seed=1)
    for spec in ("MyBot", "mybot", "MYBOT"):
        assert make_bot(spec, 1).choose(state) == state.legal_actions()[0]
    for name in ("my bot", "my:bot", "", "a=b"):
        with pytest.raises(KafeneioError, match="a bot's name is a word a seat can write"):
            BOTS[name] = FirstLegal
        with pytest.raises(KafeneioError, match="a bot's name is a word a seat can write"):
            BOTS.setdefault(name, FirstLegal)
        with pytest.raises(KafeneioError, match="a bot's name is a word a seat can write"):
            table = BOTS
            table |= {name: FirstLegal}
    assert "" not in BOTS and BOTS.get(3) is None  # every way in, and no error for a get
    monkeypatch.setitem(BOTS, "other", FirstLegal)  # restored by the fixture either way
    assert BOTS.setdefault("OTHER", RandomBot) is FirstLegal
    assert BOTS.pop("OTHER") is FirstLegal and "other" not in BOTS
    monkeypatch.setitem(BOTS, "third", FirstLegal)
    table = BOTS
    table |= {"Third": RandomBot}
    assert BOTS["third"] is RandomBot and "Third" not in list(BOTS)


def test_numpy_s_whole_numbers_seed_a_bot() -> None:
    np = pytest.importorskip("numpy")
    state = get_game("cafe").new_state(2, seed=1)
    assert make_bot("random", np.int64(4)).choose(state) == make_bot("random", 4).choose(state)


def test_a_bot_another_package_installs_is_a_seat_of_every_command(tmp_path: Path) -> None:
    """A bot entered by a script was a seat only for that script's Python calls: `kafeneio
    simulate --seats mine` could not name it. An entry point of the group ``kafeneio.bots``
    makes it one; a bot of one's own writes only `decide` (`Bot` keeps a seeded `rng`)."""
    (tmp_path / "mybots.py").write_text(
        "from kafeneio.bots.base import Bot\n\n"
        "class FirstLegal(Bot):\n"
        "    def decide(self, state):\n"
        "        return self.rng.choice(state.legal_actions()[:1])\n\n"
        "def helper(seed):\n"
        "    return 42\n",
        encoding="utf-8",
    )
    info = tmp_path / "mybots-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mybots\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[kafeneio.bots]\nFirstLegal = mybots:FirstLegal\nmissing = mybots:NoSuchBot\n"
        "random = mybots:FirstLegal\nhuman = mybots:FirstLegal\nhelper = mybots:helper\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(SRC)])}
    args = ["simulate", "cafe", "--seats", "firstlegal,random", "--games", "2", "--json"]
    run = subprocess.run(  # under a filter that makes warnings errors: still a warning
        [sys.executable, "-W", "error", "-m", "kafeneio", *args, "--workers", "1"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert [row["name"] for row in json.loads(run.stdout)["by_bot"]] == ["firstlegal", "random"]
    # one that cannot be loaded, is no bot, or takes a name already used is named, and left
    # out: the shipped `random` stays the shipped one, and `human` a person
    said = " ".join(run.stderr.split())
    assert "the bot 'missing' (mybots:NoSuchBot) of another package is left out: cannot" in said
    assert "the bot 'helper' (mybots:helper) of another package is left out: is no bot" in said
    for taken in ("random", "human"):
        assert f"the bot '{taken}' (mybots:FirstLegal) of another package is left out: its" in said
    check = "from kafeneio.bots import BOTS, run_time_bots; print(BOTS['random'].__module__, "
    check += "sorted(run_time_bots()), 'human' in BOTS)"
    shown = subprocess.run(
        [sys.executable, "-c", check], capture_output=True, text=True, env=env, timeout=60
    )
    # not sent to a back end's process, which enters it itself (and could not read a task
    # holding a class its environment lacks)
    assert shown.stdout.split() == ["kafeneio.bots.random_bot", "[]", "False"], shown
