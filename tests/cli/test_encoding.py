"""An output whose encoding lacks characters (bad data 172): a Windows console or a file
redirected there in cp1252, ``PYTHONIOENCODING=ascii``. The table's borders are written in
ASCII and a name's missing characters as escapes, with one warning saying so; no command
ends in a ``UnicodeEncodeError`` traceback."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

import swissframe as sf
from swissframe.cli import _common, main
from tests.helpers import CLI_IN_A_PROCESS


def _event(tmp_path: Path, names: tuple[str, str, str, str]) -> Path:
    a, b, c, d = names
    m = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": [a, c, a, b],
                      "player_b": [b, d, c, d], "games_a": [2, 2, 2, 1],
                      "games_b": [0, 1, 1, 2], "games_drawn": [0, 0, 0, 0]})
    path = tmp_path / "e.csv"
    sf.from_matches(m).write_csv(path)
    return path


def _run(encoding: str, *argv: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONIOENCODING": encoding, "COLUMNS": "80"}
    env.pop("PYTHONUTF8", None)
    return subprocess.run([sys.executable, "-X", "utf8=0", "-c", CLI_IN_A_PROCESS, *argv],
                          capture_output=True, timeout=300, check=False, env=env)


@pytest.mark.parametrize("encoding", ["cp1252", "ascii", "latin-1"])
def test_names_an_encoding_lacks_are_escaped_and_said(tmp_path: Path, encoding: str) -> None:
    path = _event(tmp_path, ("東京", "Zoë", "Ελένη", "Ann"))
    done = _run(encoding, "standings", str(path))
    assert done.returncode == 0, done.stderr
    out, err = done.stdout.decode(encoding), done.stderr.decode(encoding)
    assert "Traceback" not in err
    assert "\\u6771\\u4eac" in out  # (東京, as escapes)
    assert "+--" in out  # (the borders in ASCII)
    assert "| player" in out
    lines = [x for x in out.splitlines() if x.startswith(("|", "+"))]
    assert len({len(x) for x in lines}) == 1  # (the columns aligned, escapes and all)
    if encoding != "ascii":
        assert "Zoë" in out  # (in the encoding: as it is)
    said = " ".join(err.split())
    assert f"are not in its encoding ({'iso8859-1' if encoding == 'latin-1' else encoding})" \
        in said
    assert "\\u6771, \\u4eac" in said
    assert "Hint: set PYTHONIOENCODING=utf-8" in said


def test_an_ascii_event_in_a_legacy_encoding_is_written_without_a_warning(
        tmp_path: Path) -> None:
    # (the box-drawing borders alone ended every table on cp1252 in a traceback)
    path = _event(tmp_path, ("Ann", "Bob", "Cy", "Di"))
    for argv in (["standings", str(path)], ["validate", str(path)],
                 ["standings", str(path), "--format", "csv"], ["cut", str(path), "--top", "2"]):
        done = _run("cp1252", *argv)
        assert done.returncode == 0, (argv, done.stderr)
        assert b"Traceback" not in done.stderr
        assert b"not in its encoding" not in done.stderr, argv


def test_an_error_naming_what_the_encoding_lacks_is_one_line(tmp_path: Path) -> None:
    done = _run("ascii", "standings", str(tmp_path / "予選.csv"))
    assert done.returncode == 2
    err = done.stderr.decode("ascii")
    assert err.startswith("swissframe: error: ")
    assert "\\u4e88\\u9078.csv" in err
    assert "Traceback" not in err


def test_the_streams_are_set_back_after_a_command(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # (a command run from a notebook's process leaves its streams as they were)
    path = _event(tmp_path, ("東京", "B", "C", "D"))
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="ascii")
    err = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["standings", str(path)]) == 0
    out.flush()
    assert "\\u6771\\u4eac" in raw.getvalue().decode("ascii")
    assert (out.errors, err.errors) == ("strict", "strict")
    assert _common.legible("東") == "東"  # (outside a command: as it is)


@given(st.text())
def test_legible_text_is_written_by_the_encoding_it_lacked(text: str) -> None:
    _common._LACKING.append("ascii")
    try:
        shown = _common.legible(text)
    finally:
        _common._LACKING.clear()
        _common._ESCAPED.clear()
    shown.encode("ascii")  # (raises if not)
    # printable ASCII as it is; each other character one plain form or its escape
    assert all(ch in shown for ch in text if " " <= ch <= "~")
    if text.isascii():
        assert shown == text


def test_why_lays_out_the_names_as_the_output_writes_them(tmp_path: Path) -> None:
    path = _event(tmp_path, ("東京", "Zoë", "C", "D"))
    done = _run("ascii", "why", str(path), "東京", "Zoë")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode("ascii").splitlines()
    head = next(x for x in lines if x.startswith("criterion"))
    row = next(x for x in lines if x.startswith("match points"))
    # (each value under its player's escaped name: the columns start where they start)
    starts = [m.start() for m in re.finditer(r"(?:^|(?<=  ))\S", row)]
    assert starts[1:3] == [head.index("\\u6771\\u4eac"), head.index("Zo\\xeb")]
