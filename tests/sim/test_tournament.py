"""Round robins: every pairing plays, seats rotate, and the ratings put the bots in order."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kafeneio.cli import app
from kafeneio.core import KafeneioError
from kafeneio.games.souvlaki.cards import load_cards
from kafeneio.sim.runner import Backend, GameResult
from kafeneio.sim.tournament import pairwise, tournament

from .own_cards import RICH_SHOP, rich_shop_cards


def result(seats: tuple[str, ...], returns: tuple[float, ...]) -> GameResult:
    return GameResult(0, seats, (0,) * len(seats), returns, None, 0, 0, 0)


def test_a_game_gives_pairwise_points_and_two_losers_tell_nothing() -> None:
    names = ["a", "b", "c"]
    assert pairwise(result(("b", "a", "c"), (1.0, 0.0, 0.0)), names) == [(1, 0, 1.0), (1, 2, 1.0)]
    shared = pairwise(result(("a", "b", "c"), (0.5, 0.5, 0.0)), names)
    assert shared == [(0, 1, 0.5), (0, 2, 1.0), (1, 2, 1.0)]


def test_a_round_robin_plays_every_pairing_with_seats_rotated_and_rates_the_bots() -> None:
    report = tournament(
        "cafe", ["random", "greedy", "heuristic"], 6, seed=2, backend=Backend(workers=1)
    )
    assert [pairing.bots for pairing in report.pairings] == [
        ["random", "greedy"],
        ["random", "heuristic"],
        ["greedy", "heuristic"],
    ]
    assert len(report.results) == 18
    for pairing in report.pairings:
        assert [row.games for row in pairing.by_bot] == [6, 6]
    first_seats = [r.seats[0] for r in report.results[:6]]
    assert first_seats.count("random") == first_seats.count("greedy") == 3
    assert report.ratings[-1].name == "random"  # it loses to both rule-based players
    for rating in report.ratings:
        assert rating.low <= rating.elo <= rating.high
    matrix = report.head_to_head
    assert matrix[0][0] is None and matrix[1][0] is not None and matrix[1][0] > 0.5
    again = tournament(
        "cafe", ["random", "greedy", "heuristic"], 6, seed=2, backend=Backend(workers=2)
    )
    assert again.outcome() == report.outcome()


def test_a_tournament_refuses_repeated_bots_and_too_few_for_the_players() -> None:
    with pytest.raises(KafeneioError, match="one bot twice: 'random' and 'random'"):
        tournament("cafe", ["random", "random"], 2)
    with pytest.raises(KafeneioError, match="one bot twice"):  # the same bot however written
        tournament("cafe", ["mcts:c=0.3:seconds=1", "greedy", "MCTS:seconds=1.0:c=0.3"], 2)
    with pytest.raises(KafeneioError, match="different"):
        tournament("cafe", ["random"], 2)
    with pytest.raises(KafeneioError, match="3 players need"):
        tournament("cafe", ["random", "greedy"], 2, players=3)
    # every game of every group planned in memory first: refused past a run's bound, whole
    with pytest.raises(KafeneioError, match=r"3 groups of 2 bots × 400,000 games is 1,200,000"):
        tournament("cafe", ["random", "greedy", "heuristic"], 400_000)


def test_a_tournament_refuses_a_seat_spec_simulate_refuses() -> None:
    """Made canonical before it was checked, 'iterations=5.0' became 'iterations=5' and played."""
    with pytest.raises(KafeneioError, match=r"iterations must be a whole number >= 1, not 5\.0"):
        tournament("cafe", ["mcts:iterations=5.0", "random"], 2)


@pytest.mark.parametrize("players", [0, 5])
def test_a_tournament_refuses_a_player_count_the_game_does_not_take(players: int) -> None:
    """--players 5 was told to bring 5 bots, which Café International (2 to 4) never seats;
    --players 0 that the seats were not a list of bots."""
    refused = CliRunner().invoke(
        app, ["tournament", "cafe", "--bots", "random,greedy", "--players", str(players)]
    )
    assert refused.exit_code == 2
    assert refused.output == f"error: Café International takes 2 to 4 players, not {players}\n"


def test_the_tournament_command_prints_ratings_and_json() -> None:
    runner = CliRunner()
    args = ["tournament", "cafe", "--bots", "random,greedy", "--games", "4", "--workers", "1"]
    shown = runner.invoke(app, args)
    assert shown.exit_code == 0, shown.output
    assert "rating" in shown.stdout and "head to head" in shown.stdout
    standings = shown.stdout.split("standings", 1)[1].split("head to head", 1)[0]
    assert standings.index("greedy") < standings.index("random")  # best first, as the ratings
    # marked off the even share as simulate's tables are: random lost every game
    assert "▼" in standings and "more or less than chance" in " ".join(standings.split())
    # what the head-to-head figures are shares of: wins, not the games' score points
    said = " ".join(shown.stdout.split("head to head", 1)[1].split())
    assert said.startswith(": the row bot's share of the games either of the two won"), said
    data = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    assert data["ratings"][0]["name"] == "greedy" and len(data["results"]) == 4
    refused = runner.invoke(app, ["tournament", "cafe", "--bots", "random,alphazero"])
    assert refused.exit_code == 2 and "alphazero" in refused.output


def test_a_tournament_plays_the_cards_of_its_card_directory(tmp_path: Path) -> None:
    cards = rich_shop_cards(tmp_path / "cards")
    options = {"cards_dir": str(cards), "shops": [RICH_SHOP, "thanasis"]}
    report = tournament(
        "souvlaki", ["heuristic", "greedy"], 4, options=options, deal_roles=False,
        backend=Backend(workers=1),
    )  # fmt: skip
    assert all(result.roles == (RICH_SHOP, "thanasis") for result in report.results)
    assert report.to_dict()["cards"]["sha256"] == load_cards(cards).digest


def test_each_head_to_head_share_says_the_games_it_rests_on() -> None:
    """The head-to-head shares gave no count: at 3 players a share may rest on 4 games."""
    report = tournament("cafe", ["random", "greedy"], 3)
    assert report.head_to_head_games == [[0, 3], [3, 0]]  # greedy and random never tie
    assert report.head_to_head[1][0] == 1.0 - report.head_to_head[0][1]
    # at 3 players two bots that both lost a game are not set apart by it: its count says so
    three = tournament("cafe", ["random", "greedy", "heuristic"], 2, players=3)
    set_apart = [  # the games either of the two had a share of the win in
        sum(1 for r in three.results if r.returns[r.seats.index(a)] + r.returns[r.seats.index(b)])
        for a, b in (("random", "greedy"), ("greedy", "heuristic"))
    ]
    games = three.head_to_head_games
    assert [games[0][1], games[1][2]] == set_apart
    shown = CliRunner().invoke(
        app, ["tournament", "cafe", "--bots", "random,greedy", "--games", "3", "--workers", "1"]
    )
    assert shown.exit_code == 0 and "(in brackets, of how many)" in shown.stdout
    assert "1.000 (3)" in shown.stdout and "0.000 (3)" in shown.stdout


def test_a_tournament_counts_its_games_ended_at_the_round_limit_as_a_simulation_does() -> None:
    """Random Souvlaki shops all reach the round limit: ratings resting on its tiebreak alone
    were given without a word."""
    report = tournament("souvlaki", ["random", "greedy"], 2, seed=1, backend=Backend(workers=1))
    limit = "the round limit (30 rounds, beyond the rulebook)"
    limited = [result for result in report.results if result.at_limit == limit]
    assert limited and report.to_dict()["games_at_limit"] == len(limited)
    assert report.at_limit == f"{len(limited)} of 2 games ended at {limit}, not by a win"
    assert tournament("cafe", ["random", "greedy"], 2, seed=1).at_limit is None
    args = ["tournament", "souvlaki", "--bots", "random,greedy", "--games", "2", "--seed", "1"]
    result = CliRunner().invoke(app, args)
    assert f"note: {report.at_limit}." in " ".join(result.output.split())


def test_a_tournament_says_how_its_games_ended_as_a_simulation_does(tmp_path: Path) -> None:
    """Only simulate said which of the rules' ends its games came to: a designer comparing
    bots could not see whether the games reached Café's bag limit or the bar's end."""
    report = tournament("cafe", ["random", "greedy"], 4, seed=2, backend=Backend(workers=1))
    assert sum(report.endings.values()) == 4 and report.to_dict()["endings"] == report.endings
    assert all(result.ended_by in report.endings for result in report.results)
    said = report.endings_text
    assert said is not None and said.startswith("how the games ended: ")
    args = ["tournament", "cafe", "--bots", "random,greedy", "--games", "4", "--seed", "2"]
    result = CliRunner().invoke(app, [*args, "--report", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert said in " ".join(result.output.split())
    assert html.escape(said) in (tmp_path / "report.html").read_text(encoding="utf-8")


def test_a_tournament_writes_each_game_s_record_as_a_simulation_does(tmp_path: Path) -> None:
    """Only simulate had --records: a tournament's games could not be replayed or analysed."""
    from kafeneio.games import load_record

    out = tmp_path / "records"
    args = ["tournament", "cafe", "--bots", "random,greedy,heuristic", "--games", "2",
            "--seed", "3", "--workers", "1", "--json", "--records", str(out)]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert sorted(p.name for p in out.iterdir()) == [f"game-{n:04d}.json" for n in range(1, 7)]
    for game in report["results"]:
        record = json.loads((out / f"game-{game['index'] + 1:04d}.json").read_text())
        assert record["seats"] == game["seats"]
        assert load_record(record).scores() == game["scores"]
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 2 and "is not empty" in again.output
    assert CliRunner().invoke(app, [*args, "--force"]).exit_code == 0
