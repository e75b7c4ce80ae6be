"""Simulations: the seed alone decides them, seats and shops are shared out fairly, and the
figures add up to what was played."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections import Counter
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kafeneio.bots import BOTS
from kafeneio.bots.random_bot import RandomBot
from kafeneio.cli import app
from kafeneio.core import IllegalActionError, KafeneioError
from kafeneio.games import load_record
from kafeneio.games.souvlaki.cards import builtin_cards, load_cards
from kafeneio.sim.runner import Backend, lineup, on_processes, plan, run, seating
from kafeneio.sim.simulate import simulate
from kafeneio.sim.tournament import tournament
from server.conftest import wait_for

from .own_cards import RICH_SHOP, rich_shop_cards


def test_a_simulation_gives_the_same_results_on_one_or_two_workers() -> None:
    one = simulate("cafe", ["greedy", "random"], 6, seed=3, backend=Backend(workers=1))
    two = simulate("cafe", ["greedy", "random"], 6, seed=3, backend=Backend(workers=2))
    assert one.outcome() == two.outcome()
    other = simulate("cafe", ["greedy", "random"], 6, seed=4, backend=Backend(workers=1))
    assert other.outcome() != one.outcome()  # the seed does decide the games
    greedy, random_bot = one.by_bot
    assert greedy.name == "greedy" and greedy.win_rate > random_bot.win_rate


def test_seats_rotate_so_every_bot_plays_every_seat_equally() -> None:
    assert seating(["a", "b", "c"], 0) == ("a", "b", "c")
    assert seating(["a", "b", "c"], 1) == ("c", "a", "b")
    jobs = plan("cafe", ["greedy", "random", "random"], 9, seed=0)
    for seat in range(3):
        assert Counter(job.seats[seat] for job in jobs) == {"greedy": 3, "random": 6}


def test_dealt_shops_give_every_bot_every_shop_equally() -> None:
    report = simulate(
        "souvlaki", ["heuristic", "random", "random"], 6, seed=1, backend=Backend(workers=1)
    )
    played: Counter[tuple[str, str]] = Counter()
    for result in report.results:
        assert result.roles is not None and len(set(result.roles)) == 3
        played.update(zip(result.seats, result.roles, strict=True))
    shops = {shop for _, shop in played}
    assert len(shops) >= 3
    for shop in shops:  # random holds two seats of three, heuristic one
        assert played["random", shop] == 2 * played["heuristic", shop]
    assert sum(row.games for row in report.by_role) == 6 * 3


def test_one_bot_in_every_seat_gets_a_new_deal_of_shops_each_game() -> None:
    jobs = plan("souvlaki", ["heuristic"] * 4, 12, seed=2)
    deals = {tuple(job.options["shops"]) for job in jobs}
    assert len(deals) > 3
    fixed = plan("souvlaki", ["heuristic"] * 4, 3, seed=2, deal_roles=False)
    assert all(job.options["shops"] is None for job in fixed)


def test_the_figures_add_up_to_the_games_played() -> None:
    report = simulate("souvlaki", ["heuristic"] * 4, 8, seed=5, backend=Backend(workers=1))
    assert report.games == 8 and len(report.results) == 8
    assert sum(row.wins for row in report.by_seat) == pytest.approx(8)
    assert sum(row.wins for row in report.by_role) == pytest.approx(8)
    (bot,) = report.by_bot
    assert bot.games == 32 and bot.win_rate == pytest.approx(0.25)
    for row in report.by_seat:
        assert row.low <= row.win_rate <= row.high
        scores = [r.scores[int(row.name[1:]) - 1] for r in report.results]
        assert row.mean_score == pytest.approx(sum(scores) / len(scores))
    lengths = report.lengths
    assert lengths.rounds.low >= 1 and lengths.turns.mean > lengths.rounds.mean
    assert lengths.decisions.mean == pytest.approx(sum(r.decisions for r in report.results) / 8)


def test_progress_is_told_every_game() -> None:
    told: list[int] = []
    simulate("cafe", ["random"] * 2, 5, backend=Backend(workers=1), progress=told.append)
    assert sum(told) == 5


def test_a_lineup_must_fit_the_players() -> None:
    with pytest.raises(KafeneioError, match="3 bots for 2 players"):
        lineup(["random", "random", "greedy"], 2)
    with pytest.raises(KafeneioError, match="back end"):
        Backend("spark")
    with pytest.raises(KafeneioError, match="--workers"):
        Backend(workers=0)


def test_the_simulate_command_prints_json_and_refuses_a_bad_seat() -> None:
    runner = CliRunner()
    args = ["simulate", "cafe", "--games", "4", "--seats", "greedy,random", "--json"]
    result = runner.invoke(app, [*args, "--workers", "1"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["games"] == 4 and report["seats"] == ["greedy", "random"]
    assert [row["name"] for row in report["by_bot"]] == ["greedy", "random"]
    assert [row["games"] for row in report["by_seat"]] == [4, 4]
    long = "mcts:c=0.5:depth=2:guide=0:iterations=2"  # a pipe keeps it whole; canonical order
    shown = runner.invoke(app, ["simulate", "cafe", "--games", "2", "--seats", f"{long},random"])
    assert shown.exit_code == 0 and long in shown.stdout
    assert re.search(r"game length: [\d.]+ ± [\d.]+ \(\d+–\d+\) turns", shown.stdout)  # and range
    result = runner.invoke(app, ["simulate", "cafe", "--seats", "random,deep-blue"])
    assert result.exit_code == 2 and "deep-blue" in result.output
    result = runner.invoke(app, ["simulate", "cafe", "--games", "0"])
    assert result.exit_code == 2 and "--games" in result.output


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["--players", "0"], "Café International takes 2 to 4 players, not 0"),
        (["--players", "7", "--seats", "random,greedy"], "takes 2 to 4 players, not 7"),
        (["--players", "3", "--seats", "random,greedy"], "--seats names 2 bots for 3 players"),
        (["--players", "2", "--seats", "random,greedy,random"], "names 3 bots for 2 players"),
        (["--games", "-3"], "--games must be from 1 to 1,000,000, not -3"),
        # every game is planned in memory first: 99999999999 filled the machine's and never ended
        (["--games", "99999999999"], "--games must be from 1 to 1,000,000, not 99,999,999,999"),
    ],
)
def test_a_bad_count_is_named_in_one_line(args: list[str], error: str) -> None:
    """--players 0 said "--seats names 1 bots for 0 players": the lineup, not the count."""
    result = CliRunner().invoke(app, ["simulate", "cafe", *args, "--workers", "1"])
    assert result.exit_code == 2 and error in result.output
    assert result.output.startswith("error: ") and result.output.count("\n") == 1


@pytest.mark.parametrize("command", [["simulate", "cafe"], ["tournament", "cafe"]])
def test_a_run_takes_the_seeds_play_takes(command: list[str]) -> None:
    """A negative seed, refused by ``play``, was taken by simulate and tournament."""
    result = CliRunner().invoke(app, [*command, "--games", "2", "--seed", "-1"])
    assert result.exit_code == 2
    assert result.output == "error: a seed must be a whole number from 0 to 2**63 - 1, not -1\n"


def test_the_simulate_command_prints_tables_by_bot_seat_and_shop() -> None:
    runner = CliRunner()
    args = ["simulate", "souvlaki", "--games", "2", "--players", "2", "--seats", "heuristic"]
    result = runner.invoke(app, [*args, "--workers", "1"])
    assert result.exit_code == 0, result.output
    for heading in ("by bot", "by seat", "by shop", "95% interval", "rounds"):
        assert heading in result.stdout


def test_a_short_run_says_one_game_and_a_time_that_agrees_with_its_rate(tmp_path: Path) -> None:
    """One game said "1 games", and a run of 0.02 s "0.0 s ..., 100.0 games/s"."""
    args = ["simulate", "cafe", "--games", "1", "--workers", "1", "--report", str(tmp_path)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "Café International: 1 game, 2 players" in result.output and "1 game, 2" in page
    timing = re.search(r"; (<?)([\d.]+) s on local .*, ([\d.]+) games/s", result.output)
    assert timing, result.output
    below, seconds, rate = timing[1], float(timing[2]), float(timing[3])
    if below:  # "<0.01 s": too quick for two figures, so at least 100 games a second
        assert seconds == 0.01 and rate >= 100
    else:
        assert seconds > 0 and 0.5 < seconds * rate < 2  # the two figures tell the same run


def test_one_game_has_no_spread_in_the_tables_the_report_or_the_json(tmp_path: Path) -> None:
    """One game printed "111.0 ± 0.0" and "57.0 ± 0.0 (57–57) turns", as if its score and
    length were certain: the spread of a single value is undefined."""
    pytest.importorskip("matplotlib")
    args = ["simulate", "cafe", "--games", "1", "--seats", "greedy,random", "--workers", "1"]
    result = CliRunner().invoke(app, [*args, "--report", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert not re.search(r"± \d", result.output)  # the header's "mean score ± sd" alone
    assert re.search(r"game length: \d+ turns, \d+ rounds, \d+ decisions;", result.output)
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "<td>0.00</td>" not in page and "<td>0.0</td>" not in page
    assert "<td>—</td>" in page
    lead = re.search(r"0 where every seat shared it\): ([^<]*)\.</p>", page)
    assert lead and re.fullmatch(r"-?\d+", lead[1]), lead  # "4", not "4.0 on average, from 4 to 4"
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    tallies = results["by_bot"] + results["by_seat"]
    assert all(row["score_sd"] is None for row in tallies)
    assert all(results["lengths"][of]["sd"] is None for of in ("turns", "rounds", "decisions"))
    two = json.loads(CliRunner().invoke(app, [*args[:3], "2", *args[4:], "--json"]).stdout)
    assert all(isinstance(row["score_sd"], float) for row in two["by_bot"])  # two have one


def test_python_refuses_what_the_command_line_refuses() -> None:
    """Shops set by the options and dealt at random: the report named the options' shops
    beside games played with others. A lineup given as one string, and no game at all."""
    with pytest.raises(KafeneioError, match="add --fixed-roles"):
        simulate("souvlaki", ["greedy", "random"], 2, options={"shops": ["pita", "express"]})
    with pytest.raises(KafeneioError, match="add --fixed-roles"):
        tournament("souvlaki", ["greedy", "random"], 1, options={"shops": ["pita", "express"]})
    played = simulate("souvlaki", ["greedy", "random"], 2, options={"shops": ["pita", "express"]},
                      deal_roles=False)  # fmt: skip
    assert all(sorted(r.roles) == ["express", "pita"] for r in played.results)
    dealt = simulate("souvlaki", ["greedy", "random"], 2, options={"shops": None})
    assert all(r.roles is not None for r in dealt.results)  # null, the default, sets no shops
    with pytest.raises(KafeneioError, match="a list of bot names"):
        simulate("cafe", "greedy", 2)  # type: ignore[arg-type]
    with pytest.raises(KafeneioError, match="from 1 to 1,000,000 games, not 0"):
        simulate("cafe", ["greedy", "random"], 0)
    with pytest.raises(KafeneioError, match="from 1 to 1,000,000 games, not 1,000,001"):
        simulate("cafe", ["greedy", "random"], 1_000_001)
    with pytest.raises(KafeneioError, match=r"from 1 to 1,000,000 games, not 2\.0"):
        tournament("cafe", ["greedy", "random"], 2.0)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [1.0, True, None, "1", -1, 2**63])
def test_a_run_s_seed_is_a_whole_number_as_on_the_command_line(seed: object) -> None:
    """A float, a flag or text seeded other games than the whole number the report then
    showed, and None read as "at random" but was one fixed seed."""
    bots = ["random", "greedy"]
    with pytest.raises(KafeneioError, match="a seed must be a whole number"):
        simulate("cafe", bots, 2, seed=seed, backend=Backend(workers=1))  # type: ignore[arg-type]
    with pytest.raises(KafeneioError, match="a seed must be a whole number"):
        tournament("cafe", bots, 2, seed=seed, backend=Backend(workers=1))  # type: ignore[arg-type]


def test_numpy_s_whole_numbers_seed_a_run_as_python_s_do() -> None:
    np = pytest.importorskip("numpy")
    lineup = ["random", "greedy"]
    one = simulate("cafe", lineup, 2, seed=np.int64(1), backend=Backend(workers=np.int64(1)))
    two = simulate("cafe", lineup, 2, seed=1, backend=Backend(workers=1))
    assert one.outcome() == two.outcome() and type(one.seed) is int
    json.dumps(one.to_dict())  # a report of numpy's numbers is written as one of Python's
    rated = tournament("cafe", lineup, 2, np.int64(2), np.int64(1), backend=Backend(workers=1))
    assert type(rated.players) is int and type(rated.seed) is int
    json.dumps(rated.to_dict())
    with pytest.raises(KafeneioError, match=r"workers \(--workers\) must be at least 1, not 0"):
        Backend(workers=0)


def test_records_of_a_simulation_replay_to_its_results(tmp_path: Path) -> None:
    """Game 2 of a run can be replayed and analysed on its own: its record is written."""
    from kafeneio.games import load_record

    out = tmp_path / "records"
    args = ["simulate", "souvlaki", "--games", "3", "--seats", "greedy,random", "--seed", "5",
            "-o", "round_limit=3", "--workers", "1", "--json", "--records", str(out)]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    written = sorted(path.name for path in out.iterdir())
    assert written == ["game-0001.json", "game-0002.json", "game-0003.json"]
    for game in report["results"]:
        record = json.loads((out / f"game-{game['index'] + 1:04d}.json").read_text())
        assert record["seats"] == game["seats"]
        assert load_record(record).scores() == game["scores"]
    blocked = tmp_path / "file"
    blocked.write_text("")
    refused = CliRunner().invoke(app, [*args[:-1], str(blocked)])
    assert refused.exit_code == 2 and "--records" in refused.output


def test_records_of_an_earlier_run_are_refused_and_replaced_only_with_force(
    tmp_path: Path,
) -> None:
    out = tmp_path / "records"
    common = ["--seats", "random", "--seed", "1", "--workers", "1", "--records", str(out)]
    first = CliRunner().invoke(app, ["simulate", "souvlaki", "--games", "4", *common])
    assert first.exit_code == 0, first.output
    before = {path.name: path.read_text() for path in out.iterdir()}
    refused = CliRunner().invoke(app, ["simulate", "cafe", "--games", "2", *common])
    assert refused.exit_code == 2
    assert "--records" in refused.output and "not empty" in refused.output
    assert "--force" in refused.output and "Café" not in refused.output  # no game was played
    assert {path.name: path.read_text() for path in out.iterdir()} == before
    (out / "game-notes.json").write_text('{"game": "notes"}')  # a user's file, not a record
    forced = CliRunner().invoke(app, ["simulate", "cafe", "--games", "2", *common, "--force"])
    assert forced.exit_code == 0, forced.output
    games = {path.name: json.loads(path.read_text())["game"] for path in out.iterdir()}
    assert games == {  # Souvlaki's records are gone, and only they (every game-*.json went)
        "game-0001.json": "cafe",
        "game-0002.json": "cafe",
        "game-notes.json": "notes",
    }


@pytest.mark.parametrize(
    ("command", "kind"),
    [
        (["simulate", "cafe"], "simulation"),
        (["tournament", "cafe", "--bots", "random,greedy"], "tournament"),
    ],
)
def test_a_report_of_an_earlier_run_is_overwritten_only_with_force(
    tmp_path: Path, command: list[str], kind: str
) -> None:
    args = [*command, "--games", "2", "--workers", "1", "--report", str(tmp_path)]
    assert CliRunner().invoke(app, args).exit_code == 0
    (tmp_path / "results.json").write_text("earlier")
    refused = CliRunner().invoke(app, args)
    assert refused.exit_code == 2 and "already holds" in refused.output
    assert "--force" in refused.output and (tmp_path / "results.json").read_text() == "earlier"
    forced = CliRunner().invoke(app, [*args, "--force"])
    assert forced.exit_code == 0, forced.output
    assert json.loads((tmp_path / "results.json").read_text())["format"] == f"kafeneio-{kind}"


def test_a_simulation_plays_the_cards_of_its_card_directory(tmp_path: Path) -> None:
    cards = rich_shop_cards(tmp_path / "cards")
    report = simulate(
        "souvlaki", ["heuristic"] * 4, 12, seed=2, options={"cards_dir": str(cards)},
        backend=Backend(workers=1), keep_records=True,
    )  # fmt: skip
    rich = next(tally for tally in report.by_role if tally.name == RICH_SHOP)
    assert rich.games == 12 and rich.win_rate > 0.75  # the shops dealt are the set's own
    digest = load_cards(cards).digest
    assert digest != builtin_cards().digest
    assert report.to_dict()["cards"]["sha256"] == digest
    for result in report.results:  # each record carries the set, and replays without the files
        assert result.record is not None and result.record["cards"]["sha256"] == digest
    shutil.rmtree(cards)
    assert load_record(report.results[0].record).is_terminal()


def test_jobs_carry_their_card_set_to_workers_that_cannot_read_its_files(tmp_path: Path) -> None:
    cards = rich_shop_cards(tmp_path / "cards")
    options = {"cards_dir": str(cards), "shops": [RICH_SHOP, "thanasis"]}
    jobs = plan("souvlaki", ["heuristic"] * 2, 4, seed=5, options=options, deal_roles=False)
    shutil.rmtree(cards)  # as on another machine of a cluster
    results = run(jobs, Backend(workers=2))
    assert all(result.roles == (RICH_SHOP, "thanasis") for result in results)
    assert all(result.returns[0] == 1 for result in results)


def test_simulate_and_tournament_tell_their_seed_rules_and_cards(tmp_path: Path) -> None:
    """simulate's text told no seed, and neither told the rules options nor the card set but
    in the report's command line."""
    cards = rich_shop_cards(tmp_path / "cards")
    digest = load_cards(cards).digest[:12]
    own = ["--cards", str(cards), "-o", "round_limit=5", "--workers", "1", "--seed", "7"]
    for command in (
        ["simulate", "souvlaki"],
        ["tournament", "souvlaki", "--bots", "random,greedy"],
    ):
        report = tmp_path / command[0]
        result = CliRunner().invoke(app, [*command, "--games", "2", *own, "--report", str(report)])
        assert result.exit_code == 0, result.output
        rules = f"rules: round_limit=5; cards: own, from {cards.resolve()} ("
        told = "".join(result.stdout.split())  # the line breaks at the console's width
        assert "".join(rules.split()) in told and f"sha256{digest})" in told
        assert "seed7;" in told
        page = (report / "report.html").read_text()
        assert f"<p class='meta'>R{rules[1:]}" in page and f"sha256 {digest})" in page
    plain = CliRunner().invoke(app, ["simulate", "cafe", "--games", "1", "--workers", "1"])
    assert plain.stdout.splitlines()[-1] == "seed 0; rules: the defaults"
    dealt = CliRunner().invoke(app, ["simulate", "souvlaki", "--games", "1", "--workers", "1"])
    assert dealt.stdout.splitlines()[-1] == "seed 0; rules: the defaults; cards: built in"


def test_one_bot_written_two_ways_is_one_bot_as_in_a_tournament() -> None:
    """simulate counted mcts:iterations=5:c=0.3 and mcts:c=0.3:iterations=5 as two bots,
    where tournament refuses them as one."""
    seats = ["mcts:iterations=5:c=0.3", "MCTS:c=0.30:iterations=5"]
    report = simulate("cafe", seats, 2, seed=1, backend=Backend(workers=1))
    assert [tally.name for tally in report.by_bot] == ["mcts:c=0.3:iterations=5"]
    assert report.seats == ["mcts:c=0.3:iterations=5"] * 2
    assert all(set(result.seats) == {"mcts:c=0.3:iterations=5"} for result in report.results)
    with pytest.raises(KafeneioError, match="names one bot twice"):
        tournament("cafe", [*seats, "random"], 1)


def test_games_that_do_not_share_out_the_seats_are_warned_of(tmp_path: Path) -> None:
    """10 games of 3 bots rotated gave some bots a seat more often, and said nothing."""
    runner = CliRunner()
    args = ["--games", "3", "--workers", "1", "--json"]
    uneven = runner.invoke(app, ["simulate", "souvlaki", "--seats", "random,greedy", *args])
    assert uneven.exit_code == 0 and json.loads(uneven.stdout)["games"] == 3
    [warning] = uneven.stderr.splitlines()
    assert warning.startswith("warning: 3 games, not a multiple of the 2 seats")
    assert "shops dealt" in warning
    even = runner.invoke(app, ["simulate", "cafe", "--seats", "random,greedy", "--games", "4"])
    alone = runner.invoke(app, ["simulate", "cafe", "--seats", "random", *args])  # no rotation
    # a lineup that repeats every 2 seats shares them out in 2 games (it was warned of)
    periodic = ["--seats", "random,greedy,random,greedy", "--players", "4", "--workers", "1"]
    shared = runner.invoke(app, ["simulate", "cafe", *periodic, "--games", "2"])
    assert shared.exit_code == 0, shared.output
    assert even.stderr == alone.stderr == shared.stderr == ""
    [warning] = runner.invoke(
        app, ["simulate", "cafe", *periodic, "--games", "3"]
    ).stderr.splitlines()
    assert warning.startswith("warning: 3 games, not a multiple of the 2 seats")
    report = tmp_path / "report"
    played = ["tournament", "cafe", "--bots", "random,greedy", *args, "--report", str(report)]
    [warning] = runner.invoke(app, played).stderr.splitlines()
    assert warning.startswith("warning: 3 games a pairing, not a multiple of the 2 seats")
    assert "shops" not in warning  # Café deals none
    assert (
        f"Warning:</strong> {warning.removeprefix('warning: ')}."
        in (report / "report.html").read_text()
    )


def test_a_bot_that_fails_is_named_with_its_game_and_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only "None is not an action of Café International" was said: which game of the run,
    and which bot (seats rotate, so "P1" alone names none)?"""

    class Silent(RandomBot):
        def decide(self, state: Any) -> Any:
            return None

    monkeypatch.setitem(BOTS, "silent", Silent)
    with pytest.raises(IllegalActionError) as caught:
        simulate("cafe", ["random", "silent"], 3, seed=5, backend=Backend(workers=1))
    message = str(caught.value)
    assert re.match(r"game 1 \(seed \d+; P1 random, P2 silent\), at action \d+: None is", message)


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:  # the parent's pid, after the state
            found.add(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc for the worker processes")
@pytest.mark.parametrize("group", [False, True], ids=["process", "group"])
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_a_stopped_run_ends_its_workers_at_once(signum: int, group: bool) -> None:
    """SIGTERM ended the main process alone: its workers played on, adopted by init; Ctrl-C
    waited for the games under way, and said nothing. A signal to the whole process group
    (`timeout`, a closed terminal) must not hang it either (a `multiprocessing.Pool` did)."""
    command = [sys.executable, "-m", "kafeneio", "simulate", "cafe", "--games", "400"]
    run = subprocess.Popen(
        [*command, "--seats", "heuristic", "--workers", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a group of its own, as a terminal gives a command
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as in a terminal
    )
    try:
        workers = wait_for(
            lambda: _children(run.pid) if len(_children(run.pid)) == 2 else None, seconds=30
        )
        time.sleep(0.5)  # the run under way
        if group:
            os.killpg(run.pid, signum)
        else:
            run.send_signal(signum)
        _, err = run.communicate(timeout=20)
    finally:
        run.kill()
    assert run.returncode == 128 + signum
    assert err.strip() == f"Stopped ({signal.Signals(signum).name})."
    time.sleep(0.5)
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers)


def test_games_ended_at_the_round_limit_are_counted_apart() -> None:
    """Random Souvlaki shops all reach the 30-round limit, where the highest money +
    reputation wins: a shop read as strong there had never once won by the rules."""
    report = simulate("souvlaki", ["random", "random"], 2, seed=1, backend=Backend(workers=1))
    limit = "the round limit (30 rounds, beyond the rulebook)"
    assert [result.at_limit for result in report.results] == [limit, limit]
    assert report.at_limit == f"2 of 2 games ended at {limit}, not by a win"
    assert report.to_dict()["games_at_limit"] == 2
    heuristic = simulate(
        "souvlaki", ["heuristic", "heuristic"], 2, seed=1, backend=Backend(workers=1)
    )
    assert heuristic.at_limit is None and heuristic.to_dict()["games_at_limit"] == 0
    cafe = simulate("cafe", ["random", "random"], 1, seed=1, backend=Backend(workers=1))
    assert cafe.results[0].at_limit is None  # Café ends by its rules alone
    result = CliRunner().invoke(app, ["simulate", "souvlaki", "--seats", "random", "--games", "2"])
    assert f"note: 2 of 2 games ended at {limit}, not by a win." in " ".join(result.output.split())


def test_the_uneven_seating_warning_is_in_the_json_too() -> None:
    """It was only on stderr and in the report: a script reading --json could not see it."""
    uneven = simulate("cafe", ["greedy", "random", "random"], 4, seed=1, backend=Backend(workers=1))
    assert uneven.to_dict()["uneven"] == uneven.uneven and "not a multiple" in str(uneven.uneven)
    even = simulate("cafe", ["greedy", "random"], 2, seed=1, backend=Backend(workers=1))
    assert even.to_dict()["uneven"] is None
    report = tournament("cafe", ["random", "greedy", "heuristic"], 2, seed=1)
    ratings = report.to_dict()["ratings"]
    assert all(round(r[k], 2) == r[k] for r in ratings for k in ("elo", "low", "high"))
    assert "uneven" in report.to_dict()


def _dies(item: int) -> int:
    if item == 1:
        os._exit(9)  # as the kernel's out-of-memory killer, or a crash, ends a worker
    return item


def test_a_worker_that_dies_fails_the_run_at_once() -> None:
    """A `multiprocessing.Pool` put a new worker in its place, lost its game and waited for
    it for ever."""
    started = time.monotonic()
    with pytest.raises(BrokenProcessPool):
        list(on_processes(_dies, [0, 1, 2, 3], 2))
    assert time.monotonic() - started < 10


def test_runs_that_fail_at_once_leave_no_worker_traceback(tmp_path: Path) -> None:
    """A worker forked with the run's own signal handler, and stopped before it took its
    own, raised the run's stop there and printed a traceback (3 trials of 4 showed one)."""
    script = tmp_path / "fail_fast.py"
    script.write_text(
        textwrap.dedent(
            """
            import sys
            from kafeneio.sim.commands import stoppable
            from kafeneio.sim.runner import on_processes

            def bad(x):
                raise ValueError(x)

            @stoppable
            def run():
                for _ in range(40):
                    try:
                        list(on_processes(bad, [0, 1], 2))
                    except ValueError:
                        pass

            run()
            print("done", file=sys.stderr)
            """
        )
    )
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120
    )
    assert done.stderr.strip() == "done"
    assert list(on_processes(_dies, [], 2)) == []  # no items: no pool of no workers


def test_a_simulation_says_what_its_tables_cannot_show() -> None:
    """An analyst's review: a Souvlaki seat read as a place in the order of play (which follows
    reputation), a table by shop that was the table by seat renamed (shops fixed), and a seed
    that did not repeat the results of a bot thinking for a time, were said nowhere."""
    fixed = simulate(
        "souvlaki", ["greedy", "random"], 2, options={"shops": ["pita", "express"]},
        deal_roles=False,
    )  # fmt: skip
    assert fixed.notes[0].startswith("a seat (P1, P2, ...) is a place at the set-up")
    assert "(SW-R.2)" in fixed.notes[0]
    assert fixed.notes[1] == (
        "every game gave each seat the same shop: the table by shop is the table by seat "
        "under other names"
    )
    dealt = simulate("souvlaki", ["greedy", "random"], 4, seed=3)
    assert len({r.roles for r in dealt.results}) > 1 and len(dealt.notes) == 1
    timed = simulate("cafe", ["mcts:seconds=0.01", "greedy"], 1)
    assert timed.notes == [
        "mcts:seconds=0.01 thinks for a time, not a count of iterations: the same seed need "
        "not repeat these results (mcts:iterations=N does)"
    ]
    assert simulate("cafe", ["mcts:iterations=3", "greedy"], 1).notes == []
    assert timed.to_dict()["notes"] == timed.notes
    shown = CliRunner().invoke(
        app, ["simulate", "cafe", "--seats", "mcts:seconds=0.01,greedy", "--games", "1",
              "--workers", "1"],
    )  # fmt: skip
    assert shown.exit_code == 0 and "note: mcts:seconds=0.01 thinks for a time" in shown.stdout
    assert "Wilson's score interval" in shown.stdout


def test_a_simulation_reports_the_winner_s_lead() -> None:
    """A designer asking whether a rule makes games closer had to work the winner's margin
    out of the JSON: it is a line of the tables, of the report and of the JSON now."""
    from kafeneio.sim.simulate import lead

    assert lead([40, 55, 31], [0, 1, 0]) == 15 and lead([50, 50, 12], [0.5, 0.5, 0]) == 38
    assert lead([7], [1]) == 0 and lead([20, 20], [0.5, 0.5]) == 0
    # the winner by the rules is not the top score (a Souvlaki shop short of 25/25 held it)
    assert lead([-11, -22, 54, 52], [0, 0, 0, 1]) == -2
    played = simulate("cafe", ["greedy", "random"], 6, seed=4)
    leads = [  # a 2-player game here: the winner's score less the loser's
        r.scores[r.returns.index(1.0)] - r.scores[r.returns.index(0.0)] for r in played.results
    ]
    assert played.margin.mean == pytest.approx(sum(leads) / len(leads))
    assert (played.margin.low, played.margin.high) == (min(leads), max(leads))
    assert played.to_dict()["margin"]["mean"] == played.margin.mean
    shown = CliRunner().invoke(
        app, ["simulate", "cafe", "--seats", "greedy,random", "--games", "6", "--seed", "4",
              "--workers", "1"],
    )  # fmt: skip
    assert shown.exit_code == 0
    assert f"winner's lead: {played.margin.mean:.1f} ± " in shown.stdout


def test_a_simulation_counts_its_games_by_the_end_they_came_to() -> None:
    """A designer changed end_bag and saw the same results digit for digit: no game had ended
    by the bag, and nothing said how the games had ended."""
    plain = simulate("cafe", ["greedy", "greedy"], 20, seed=1, backend=Backend(workers=1))
    early = simulate("cafe", ["greedy", "greedy"], 20, seed=1, options={"end_bag": 30},
                     backend=Backend(workers=1))  # fmt: skip
    assert "the bag at its end" not in plain.endings and early.endings["the bag at its end"] > 0
    for report in (plain, early):
        assert sum(report.endings.values()) == 20
        assert report.to_dict()["endings"] == report.endings
        assert all(r.ended_by in report.endings for r in report.results)
        assert list(report.endings.values()) == sorted(report.endings.values(), reverse=True)
    assert early.endings_text is not None and early.endings_text.startswith("how the games ended: ")
    souvlaki = simulate("souvlaki", ["random", "random"], 2, seed=1, backend=Backend(workers=1))
    assert souvlaki.endings == {"the round limit": 2}
    args = ["simulate", "cafe", "--seats", "greedy", "--games", "4", "-o", "end_bag=30"]
    result = CliRunner().invoke(app, [*args, "--workers", "1"])
    said = " ".join(result.output.split())
    assert "how the games ended: " in said and "the bag at its end (" in said
