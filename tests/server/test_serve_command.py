"""The `kafeneio serve` command's own checks (the server itself runs in the other tests)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from kafeneio.cli import app
from kafeneio.server import default_db_url


def test_serve_refuses_a_card_set_that_is_no_directory(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["serve", "--cards", f"mine={tmp_path / 'none'}"])
    assert result.exit_code == 2
    assert "NAME=DIR" in result.output


def test_the_default_database_is_a_file_in_a_data_folder_it_makes(tmp_path: Path) -> None:
    url = default_db_url(tmp_path / "data")
    assert url == f"sqlite:///{(tmp_path / 'data' / 'kafeneio.sqlite3').resolve()}"
    assert (tmp_path / "data").is_dir()
