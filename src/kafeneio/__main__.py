"""``python -m kafeneio``: the `kafeneio` command, where its script is not on the PATH."""

from kafeneio.cli import app

app(prog_name="kafeneio")
