"""What the environment may ask of Polars (bad data 175): ``POLARS_MAX_THREADS=0`` made
Polars stop at its first query (a panic, which the CSV reader took for a damaged file), and
a huge value started as many threads, which ran as a hang. The console script and
``import swissframe`` refuse such a value before any query, naming it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from _swissframe_cli import THREADS_PER_CORE, thread_setting_problem
from tests.helpers import CLI_IN_A_PROCESS

_MOST = THREADS_PER_CORE * (os.cpu_count() or 1)


@pytest.mark.parametrize(("value", "refused"), [
    ("0", True), ("+0", True), (" 0 ", True), (str(_MOST + 1), True), ("100000", True),
    ("1", False), ("2", False), (str(_MOST), False),
    # (values Polars itself cannot read: it warns and runs with its default)
    ("", False), ("abc", False), ("-1", False), ("1_000", False), ("٣", False)])
def test_thread_setting_problem(value: str, refused: bool) -> None:
    problem = thread_setting_problem({"POLARS_MAX_THREADS": value})
    assert (problem is not None) is refused
    if problem is not None:
        assert problem.startswith(f"POLARS_MAX_THREADS={value!r} is not a number of threads")
        assert "Hint: unset it" in problem
    assert thread_setting_problem({}) is None


def _python(code: str, threads: str, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "POLARS_MAX_THREADS": threads}
    # (a check missing shows as a panic or a hang, cut by the timeout)
    return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True,
                          timeout=120, check=False, env=env)


@pytest.mark.parametrize("threads", ["0", str(_MOST + 1)])
def test_the_command_refuses_a_thread_count_polars_cannot_run(tmp_path: Path,
                                                              threads: str) -> None:
    (tmp_path / "e.csv").write_text("round,player_a,player_b,games_a,games_b,games_drawn\n"
                                    "1,A,B,2,0,0\n")
    done = _python("import sys, _swissframe_cli; sys.exit(_swissframe_cli.main())", threads,
                   "standings", str(tmp_path / "e.csv"))
    assert done.returncode == 2
    assert done.stderr.startswith(f"swissframe: error: POLARS_MAX_THREADS='{threads}' is not "
                                  "a number of threads from 1 to ")
    assert "panicked" not in done.stderr
    assert done.stdout == ""


def test_import_swissframe_refuses_it_before_any_query() -> None:
    done = _python("import swissframe", "0")
    assert done.returncode == 1
    assert "SwissframeError: POLARS_MAX_THREADS='0' is not a number of threads" in done.stderr
    assert "panicked" not in done.stderr


@pytest.mark.parametrize("setting", [
    "POLARS_FMT_TABLE_HIDE_COLUMN_NAMES", "POLARS_FMT_TABLE_INLINE_COLUMN_DATA_TYPE",
    "POLARS_FMT_TABLE_HIDE_COLUMN_SEPARATOR", "POLARS_FMT_TABLE_FORMATTING"])
def test_the_tables_do_not_take_polars_display_settings(monkeypatch: pytest.MonkeyPatch,
                                                        setting: str) -> None:
    # (a user's POLARS_FMT_* for their own frames: one hid the CLI table's headings;
    # bad data 176)
    import polars as pl

    from swissframe.cli._common import render_table

    frame = pl.DataFrame({"player_id": ["Ann"], "rank": [1]})
    plain = render_table(frame)
    monkeypatch.setenv(setting, "MARKDOWN" if setting.endswith("FORMATTING") else "1")
    assert render_table(frame) == plain
    assert "player" in plain


def _with_streams(redirect: str, *argv: str) -> subprocess.CompletedProcess[str]:
    # (the shell closes or redirects the command's own streams, as a user's shell does)
    code = CLI_IN_A_PROCESS
    return subprocess.run(["sh", "-c", f'exec "$@" {redirect}', "sh", sys.executable, "-c",
                           code, *argv], capture_output=True, text=True, timeout=120,
                          check=False)


def _csv(tmp_path: Path) -> str:
    (tmp_path / "e.csv").write_text("round,player_a,player_b,games_a,games_b,games_drawn\n"
                                    "1,A,B,2,0,0\n")
    return str(tmp_path / "e.csv")


def test_a_closed_stdout_is_an_error_of_a_command_that_writes_to_it(tmp_path: Path) -> None:
    # (bad data 177: Python sets sys.stdout to None, and the first line written ended in an
    # AttributeError traceback)
    done = _with_streams(">&-", "standings", _csv(tmp_path))
    assert done.returncode == 2
    assert done.stderr.startswith("swissframe: error: standard output is closed (writing the "
                                  "output). Hint: give the output a place")
    assert "Traceback" not in done.stderr
    written = _with_streams(">&-", "standings", _csv(tmp_path), "-o", str(tmp_path / "s.csv"))
    assert written.returncode == 0, written.stderr  # (its output is the file)
    assert (tmp_path / "s.csv").read_text().startswith("event_id,")


@pytest.mark.parametrize("redirect", ["2>&-", "2>/dev/full"])
def test_a_closed_or_full_stderr_leaves_the_status(tmp_path: Path, redirect: str) -> None:
    if redirect.endswith("full") and not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    ok = _with_streams(redirect, "validate", _csv(tmp_path))
    assert ok.returncode == 0
    assert "no problems found" in ok.stdout
    failed = _with_streams(redirect, "standings", str(tmp_path / "missing.csv"))
    assert failed.returncode == 2  # (the error has nowhere to go: the status says it)
    assert "Traceback" not in failed.stdout
