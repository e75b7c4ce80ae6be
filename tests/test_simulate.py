"""Simulations: reproducible, the same split over workers, and reporting what they claim."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from kafeneio.cli import app
from kafeneio.sim.tournament import simulate


def test_a_simulation_gives_the_same_report_on_one_or_two_workers() -> None:
    one = simulate("cafe", ["greedy", "random"], 6, seed=3)
    two = simulate("cafe", ["greedy", "random"], 6, seed=3, workers=2)
    assert one.seat_win_share == two.seat_win_share
    assert one.seat_mean_score == two.seat_mean_score
    assert abs(sum(one.seat_win_share) - 1) < 1e-9
    assert one.seat_win_share[0] > one.seat_win_share[1]  # greedy beats random


def test_dealt_roles_give_every_shop_its_games_and_shares_that_sum_to_the_players() -> None:
    report = simulate("souvlaki", ["heuristic"] * 3, 8, seed=1, deal_roles=True)
    assert sum(report.role_games.values()) == 8 * 3
    assert set(report.role_games) <= {"thanasis", "pita", "express", "souvlache"}
    shares = sum(report.role_win_share[r] * report.role_games[r] for r in report.role_games)
    assert abs(shares - 8) < 0.02  # each game's win counted once (shares are rounded)


def test_the_simulate_command_prints_json_and_refuses_a_bad_seat() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["simulate", "cafe", "--games", "2", "--seats", "random", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["games"] == 2 and report["seats"] == ["random", "random"]
    result = runner.invoke(app, ["simulate", "cafe", "--seats", "random,deep-blue"])
    assert result.exit_code == 2 and "deep-blue" in result.output
