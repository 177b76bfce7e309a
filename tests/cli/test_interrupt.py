"""A Ctrl-C (SIGINT) at any moment of a command ends it with one line and status 130: while
the package and the command modules are imported too (bad data 149), not only once the
command runs."""

from __future__ import annotations

import importlib
import signal
import subprocess
import sys
from pathlib import Path

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


#: Run before the console script's code: hold start-up as the module named by argv[1] is
#: about to be imported (say so on stderr, then wait), so that a Ctrl-C lands at that
#: moment, however loaded the machine is; the module's import then goes on as usual.
_HOLD = """
import sys, time
class _Hold:
    def find_spec(self, name, path=None, target=None):
        if name == _HELD:
            sys.stderr.write("holding\\n"); sys.stderr.flush(); time.sleep(120)
        return None
_HELD = sys.argv.pop(1)
sys.meta_path.insert(0, _Hold())
"""

# Moments of start-up, each named by a module about to be imported: Polars (the package's
# __init__ imports it first), the engine, the CLI's parser module (the package imported),
# a command module and the report's (build_parser imports them).
MOMENTS = ("polars", "swissframe.engine.standings", "swissframe.cli._main",
           "swissframe.cli.commands.recompute", "swissframe.report._command")


@pytest.mark.parametrize("marker", MOMENTS)
def test_ctrl_c_during_start_up_is_the_interrupt_line(marker: str, tmp_path: Path) -> None:
    """Class 149: a Ctrl-C while the console script imported the package (Polars, the
    engine) or the command modules was a Python traceback ending in ``KeyboardInterrupt``:
    ``main``'s handler was not yet in place. A real SIGINT is sent as the import of
    ``marker`` begins; the command says ``swissframe: interrupted`` and exits 130, as a
    Ctrl-C during the work does."""
    with (tmp_path / "out.txt").open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-c", _HOLD + _console_script(), marker, "standings", TRF],
            cwd=REPO_ROOT, stdout=out, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        assert proc.stderr.readline() == "holding\n", marker
        proc.send_signal(signal.SIGINT)
        err = proc.stderr.read()
        proc.wait(120)
    finally:
        proc.kill()
    assert err == "swissframe: interrupted\n", err
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


#: Run before the console script's code: hold the first atomic write of an output once its
#: temporary file is written (say so on stderr, then wait), so that a signal lands then.
_HOLD_WRITE = """
import contextlib, sys, time
import swissframe.io._files as _files
_replacing = _files.replacing
@contextlib.contextmanager
def _held(tmp, target):
    with _replacing(tmp, target):
        yield
        sys.stderr.write("holding\\n"); sys.stderr.flush(); time.sleep(120)
_files.replacing = _held
"""


def test_sigterm_while_an_output_is_written_leaves_no_scratch(tmp_path: Path) -> None:
    """Bad data 217: SIGTERM (``kill``, a job's timeout, a container stopped) ended the
    process at once, Python's default: an output being written left its temporary file
    (``.out.csv.1a2b3c4d.part``; a season's scratch folder) beside it, exit 143 and no word.
    It is raised as an interrupt: the write's cleanup runs, one line, status 143."""
    out = tmp_path / "out.csv"
    proc = subprocess.Popen(
        [sys.executable, "-c", _HOLD_WRITE + _console_script(), "standings", TRF, "-o",
         str(out)], cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True)
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        while line and line != "holding\n":  # (a note of the read before the write)
            line = proc.stderr.readline()
        assert line == "holding\n"
        proc.send_signal(signal.SIGTERM)
        err = proc.stderr.read()
        proc.wait(120)
    finally:
        proc.kill()
    assert err == "swissframe: terminated\n", err
    assert proc.returncode == 143
    assert list(tmp_path.iterdir()) == []


#: A command whose first step loses an interrupt where Python cannot raise it (as a Ctrl-C
#: in the decklist reader's after-fork handlers did), then would run on for seconds.
_LOST = """
import sys, time
import _swissframe_cli as cli
import swissframe.cli._main as commands
def run(argv=None):
    class Lost:
        def __del__(self):
            raise cli.Terminated if sys.argv[1] == "term" else KeyboardInterrupt
    Lost()  # (its __del__ runs here: "Exception ignored in", and the interrupt was gone)
    time.sleep(20)
    print("ran on")
    return 0
commands.main = run
sys.exit(cli.main())
"""


@pytest.mark.parametrize(("kind", "status", "line"), [
    ("int", 130, "swissframe: interrupted"), ("term", 143, "swissframe: terminated")])
def test_an_interrupt_python_cannot_raise_still_ends_the_command(
        kind: str, status: int, line: str) -> None:
    """A Ctrl-C (or SIGTERM) that lands in an after-fork handler, a ``__del__`` or a weakref
    callback was swallowed by Python ("Exception ignored in: <function _releaseLock …>",
    0.5 s into ``swissframe standings`` of a decklist cache as its workers forked) and the
    command ran on and wrote its output, exit 0 (bad data 225). It now ends the command."""
    done = subprocess.run([sys.executable, "-c", _LOST, kind], capture_output=True, text=True,
                          timeout=60, cwd=REPO_ROOT, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (status, "", line + "\n")
