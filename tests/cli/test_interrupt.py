"""A Ctrl-C (SIGINT) at any moment of a command ends it with one line and status 130: while
the package and the command modules are imported too (bad data 149), not only once the
command runs."""

from __future__ import annotations

import importlib
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO

import pytest

from swissframe.cli import main
from tests.helpers import REPO_ROOT

tomllib = pytest.importorskip("tomllib")  # (Python 3.11+: the declaration read as written)

TRF = str(REPO_ROOT / "tests" / "fixtures" / "trf" / "all_codes.trf")


def _console_script() -> str:
    """What the console script pip writes for ``pyproject.toml``'s ``swissframe`` entry
    runs (``from MODULE import FUNC; sys.exit(FUNC())``), as ``python -c`` code."""
    with (REPO_ROOT / "pyproject.toml").open("rb") as f:
        entry = tomllib.load(f)["project"]["scripts"]["swissframe"]
    module, func = entry.split(":")
    return f"import sys; from {module} import {func}; sys.exit({func}())"


def _reader(stream: IO[str], lines: list[str], seen: threading.Event, marker: str) -> None:
    """Each line of ``stream`` into ``lines``; ``seen`` set once ``marker``'s import has
    finished (or the stream has ended)."""
    for line in stream:
        lines.append(line)
        if line.rsplit("|", 1)[-1].strip() == marker:
            seen.set()
    seen.set()  # (the end: whatever was seen)


# Moments of start-up, each named by a module whose import has just finished (``-X
# importtime`` writes a line as each import ends): inside Polars' import and the engine's
# (the package's __init__), the CLI's own modules, then a command module's imports of the
# readers (build_parser: importlib imports are not listed, their imports are).
MOMENTS = ("polars.dataframe.frame", "swissframe.engine.standings", "swissframe.cli._common",
           "swissframe.io.decklist", "swissframe.bulk")


@pytest.mark.parametrize("marker", MOMENTS)
def test_ctrl_c_during_start_up_is_the_interrupt_line(marker: str, tmp_path: Path) -> None:
    """Class 149: a Ctrl-C while the console script imported the package (Polars, the
    engine) or the command modules was a Python traceback ending in ``KeyboardInterrupt``:
    ``main``'s handler was not yet in place. A real SIGINT is sent as the import named by
    ``marker`` has just finished; the command says ``swissframe: interrupted`` and exits
    130, as a Ctrl-C during the work does."""
    with (tmp_path / "out.txt").open("w") as out:  # (stderr alone is read, by one reader)
        proc = subprocess.Popen(
            [sys.executable, "-X", "importtime", "-c", _console_script(), "standings", TRF],
            cwd=REPO_ROOT, stdout=out, stderr=subprocess.PIPE, text=True)
    lines: list[str] = []
    seen = threading.Event()
    reader = threading.Thread(target=_reader, args=(proc.stderr, lines, seen, marker))
    reader.start()
    try:
        seen.wait(120)
        proc.send_signal(signal.SIGINT)
        reader.join(120)  # (to the end of stderr: the process has ended)
        proc.wait(120)
    finally:
        proc.kill()
    said = [x.rstrip("\n") for x in lines if not x.startswith("import time:")]
    assert any(x.rsplit("|", 1)[-1].strip() == marker for x in lines), marker
    assert said == ["swissframe: interrupted"], "".join(said)
    assert proc.returncode == 130
    assert (tmp_path / "out.txt").read_text() == ""


def test_main_interrupted_while_building_the_parser(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Class 149: ``swissframe.cli.main`` imports the command modules before its handler
    of a Ctrl-C was in place; a ``KeyboardInterrupt`` there escaped. Now the same line and
    status as a Ctrl-C during the work."""
    real = importlib.import_module

    def interrupted(name: str, package: str | None = None) -> object:
        if name.startswith("swissframe.cli.commands."):
            raise KeyboardInterrupt
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", interrupted)
    assert main(["standings", TRF]) == 130
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", "swissframe: interrupted\n")
