"""``python -m kafeneio``: the `kafeneio` command, where its script is not on the PATH."""

from kafeneio.cli import app

if __name__ == "__main__":  # imported (spawned processes, doc tools), it runs nothing
    app(prog_name="kafeneio")
