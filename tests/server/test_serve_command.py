"""The `kafeneio serve` command's own checks (the server itself runs in the other tests)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from kafeneio.cli import app
from kafeneio.server import database_url, default_db_url


def test_serve_refuses_a_card_set_that_is_no_directory(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["serve", "--cards", f"mine={tmp_path / 'none'}"])
    assert result.exit_code == 2
    assert "NAME=DIR" in result.output


def test_the_default_database_is_a_file_in_a_data_folder_it_makes(tmp_path: Path) -> None:
    url = default_db_url(tmp_path / "data")
    assert url == f"sqlite:///{(tmp_path / 'data' / 'kafeneio.sqlite3').resolve()}"
    assert (tmp_path / "data").is_dir()


def test_the_database_may_be_a_file_path_or_a_url(tmp_path: Path) -> None:
    path = tmp_path / "new" / "games.sqlite3"
    assert database_url(str(path)) == f"sqlite:///{path.resolve()}"
    assert path.parent.is_dir()  # made, so SQLite can make the file
    assert database_url("sqlite:///x.sqlite3") == "sqlite:///x.sqlite3"


@pytest.mark.parametrize(("db", "says"), [("no such://thing", "neither"), (" ", "empty")])
def test_serve_refuses_a_database_it_cannot_use(db: str, says: str) -> None:
    result = CliRunner().invoke(app, ["serve", "--db", db])
    assert result.exit_code == 2
    assert says in result.output
