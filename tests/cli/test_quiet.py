"""``--quiet`` is quiet: on success every command prints nothing but the output it was
asked for (a chart's or a report's "wrote …", verify's "read …", the ruleset note and the
progress lines are all silenced), on a pipe and on a terminal; an error, and a warning of a
problem in the input (tests/cli/test_cli.py), still print. And the commands that read
results files share ``--input-format``."""

from __future__ import annotations

from pathlib import Path
from typing import Final

import pytest

from swissframe.cli import main
from swissframe.cli._main import build_parser
from tests.cli.test_terminal import run_raw
from tests.helpers import REPO_ROOT

FIX = REPO_ROOT / "tests" / "fixtures"
#: a melee file with nothing to warn of (three rounds: a cut can be analysed)
MELEE = str(FIX / "decklist" / "melee-byes-1-2024-07-13.json")
TOM = str(FIX / "tom" / "three_divisions.tdf")


def _commands(tmp: Path) -> dict[str, tuple[list[str], bool]]:
    """Each command with ``--quiet``: its arguments (output to a file where it can), and
    whether its requested output still goes to stdout (verify's agreement table,
    verify-ref's matches)."""
    return {
        "standings": (["standings", MELEE, "-o", str(tmp / "s.csv")], False),
        "sensitivity": (["sensitivity", MELEE, "--top", "2", "-o", str(tmp / "n.csv")], False),
        "explain": (["explain", MELEE, "--player", "A", "-o", str(tmp / "e.txt")], False),
        "why": (["why", MELEE, "A", "B", "-o", str(tmp / "w.txt")], False),
        "validate": (["validate", MELEE, "-o", str(tmp / "v.csv")], False),
        "verify": (["verify", MELEE, "-o", str(tmp / "p.csv")], True),
        "verify-ref": (["verify-ref", TOM, "-o", str(tmp / "r.csv")], True),
        "simulate": (["simulate", "--players", "8", "--rounds", "3", "-o",
                      str(tmp / "sim.parquet")], False),
        "cut": (["cut", MELEE, "--top", "2", "-o", str(tmp / "c.csv")], False),
        "recompute": (["recompute", MELEE, "-o", str(tmp / "dataset"),
                       "--overwrite"], False),
        "chart": (["chart", "standings", MELEE, "-o", str(tmp / "chart.html")], False),
        "report": (["report", MELEE, "--top", "2", "--sims", "0", "-o",
                    str(tmp / "report.html")], False),
    }


def test_every_quiet_command_is_tested(tmp_path: Path) -> None:
    """A command that gains ``--quiet`` is added to the list above."""
    parser, _ = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    quiet = {name for name, p in sub.choices.items()  # type: ignore[union-attr]
             if any("--quiet" in a.option_strings for a in p._actions)}
    assert quiet == set(_commands(tmp_path))


@pytest.mark.parametrize("command", list(_commands(Path("."))))
def test_quiet_prints_nothing_but_the_output(command: str, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    argv, to_stdout = _commands(tmp_path)[command]
    assert main([*argv]) in (0, 1), capsys.readouterr()  # (verify-ref: 1 = a mismatch)
    loud = capsys.readouterr()
    assert main([*argv, "--quiet"]) in (0, 1)
    out, err = capsys.readouterr()
    assert err == ""
    if to_stdout:
        assert out
        assert "table:" not in out
        assert not out.startswith("read ")
        # (the lines about what was done are gone: "read …" on stdout, "wrote …" on stderr)
        assert len(out) + len(err) < len(loud.out) + len(loud.err)
    else:
        assert out == ""


def test_quiet_still_prints_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["standings", "no-such-file.csv", "--quiet"]) == 2
    assert "swissframe: error:" in capsys.readouterr().err


def test_quiet_on_a_terminal(tmp_path: Path) -> None:
    """On a terminal (progress lines, wrapped notes) too: nothing at all."""
    argvs = [[*argv, "--quiet"] for argv, stdout in _commands(tmp_path).values()
             if not stdout]
    for argv, (code, text) in zip(argvs, run_raw(argvs), strict=True):
        assert code == 0, (argv, text)
        assert text.strip() == "", (argv, text)


def test_report_reads_with_input_format(tmp_path: Path) -> None:
    """``report`` has the shared ``--input-format`` of the other file-reading commands."""
    out = tmp_path / "r.html"
    assert main(["report", TOM, "--input-format", "tom", "--sims", "0", "-o", str(out),
                 "--quiet"]) == 0
    assert out.is_file()
    assert main(["report", TOM, "--input-format", "trf", "-o", str(out), "--quiet"]) == 2


def test_every_file_reading_command_has_input_format() -> None:
    """(verify-ref checks TOM and TRF files against their published values: it tells
    them apart itself, and reads no other format)"""
    parser, _ = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    without = sorted(name for name, p in sub.choices.items()  # type: ignore[union-attr]
                     if any(a.dest == "files" for a in p._actions)
                     and not any(a.dest == "input_format" for a in p._actions))
    assert without == ["verify-ref"]


#: The commands of :func:`_commands` that write a file with ``-o`` (recompute writes a
#: dataset folder, which its summary names: "… → dataset (0.1 s)").
_WRITERS: Final = ("standings", "sensitivity", "explain", "why", "validate", "verify",
                   "verify-ref", "simulate", "cut", "chart", "report")


@pytest.mark.parametrize("command", _WRITERS)
def test_every_command_says_the_file_it_wrote_on_stderr(
        command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A command given ``-o FILE`` says so in one ``wrote FILE …`` line on stderr (the
    table commands said nothing, while chart and report said it on stdout and simulate on
    stderr): never on stdout, which is for the output asked for; ``--quiet`` silences it
    (test_quiet_prints_nothing_but_the_output)."""
    argv, _ = _commands(tmp_path)[command]
    out = argv[argv.index("-o") + 1]
    assert main(argv) in (0, 1)
    said = capsys.readouterr()
    lines = [x for x in said.err.splitlines() if x.startswith("wrote ")]
    assert len(lines) == 1, said.err
    assert lines[0].startswith(f"wrote {out}"), lines
    assert "wrote" not in said.out
    assert Path(out).exists()


@pytest.mark.parametrize(("argv", "said"), [
    (["standings", MELEE], "(3 rows, 1 event)"),
    (["simulate", "--players", "8", "--rounds", "3"], "(24 result rows, 1 event, 8 players)"),
])
def test_a_table_written_says_its_rows(argv: list[str], said: str, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "t.csv")
    assert main([*argv, "-o", out]) == 0
    assert f"wrote {out} {said}\n" in capsys.readouterr().err


def test_a_table_written_to_stdout_keeps_stdout_the_table(tmp_path: Path) -> None:
    """``-o /dev/stdout`` (bad data 250): the table alone on stdout, the line on stderr."""
    import subprocess
    import sys

    from tests.helpers import CLI_IN_A_PROCESS

    run = subprocess.run([sys.executable, "-c", CLI_IN_A_PROCESS, "standings", MELEE,
                          "--format", "csv", "-o", "/dev/stdout"], capture_output=True,
                         text=True, timeout=300, check=True, cwd=REPO_ROOT)
    assert run.stdout.startswith("event_id,player_id,rank")
    assert "wrote" not in run.stdout
    assert "wrote /dev/stdout (3 rows, 1 event)" in run.stderr
