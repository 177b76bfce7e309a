"""``--event`` names an event as the user sees it: by its id, or by its name as every
heading shows it (``Source.event_names``) — exactly, then in any case; a name of several
events or of none is one error line listing what it could mean."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from swissframe.cli import main
from swissframe.cli._common import event_id_of
from swissframe.errors import DataError
from tests.helpers import FIXTURES

TOM = str(FIXTURES / "tom" / "three_divisions.tdf")
TRF = str(FIXTURES / "trf" / "all_codes.trf")
MELEE = str(FIXTURES / "decklist" / "melee-byes-1-2024-07-13.json")

pytestmark = pytest.mark.filterwarnings("ignore::swissframe.errors.ImportNotesWarning")


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("event", ["three_divisions:masters", "Three Divisions (masters)",
                                   "three divisions (MASTERS)", "THREE_DIVISIONS:MASTERS"])
def test_standings_by_id_or_name(event: str) -> None:
    code, out, err = _run("standings", TOM, "--event", event, "--format", "csv", "--quiet")
    assert code == 0, err
    assert set(pl.read_csv(io.StringIO(out))["event_id"]) == {"three_divisions:masters"}


def test_every_command_reads_a_name(tmp_path: Path) -> None:
    """The name works wherever ``--event`` is taken: standings, sensitivity, cut, explain,
    chart and report (each read it as an id only)."""
    name = "Fixture Open"
    assert _run("standings", TRF, "--event", name, "--quiet")[0] == 0
    assert _run("sensitivity", TRF, "--event", name.lower(), "--quiet")[0] == 0
    assert _run("cut", TRF, "--event", name, "--quiet")[0] == 0
    code, out, err = _run("explain", MELEE, "--event", "byes", "--player", "A",
                          "--quiet")
    assert code == 0, err
    assert out.startswith("A — Byes")
    code, _, err = _run("chart", "standings", TRF, "--event", name, "-o",
                        str(tmp_path / "c.json"), "--quiet")
    assert code == 0, err
    code, _, err = _run("report", TRF, "--event", name, "-o", str(tmp_path / "r.html"),
                        "--quiet")
    assert code == 0, err
    assert "Fixture Open" in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_unknown_event_says_what_it_could_be() -> None:
    code, out, err = _run("standings", TOM, "--event", "Three Divisions (master)")
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1, err
    assert "--event 'Three Divisions (master)' is no event of the input" in err
    assert "did you mean 'Three Divisions (masters)' (id three_divisions:masters)" in err
    # a part of a long name is far from it by ratio: the names holding it are offered
    code, _, err = _run("standings", TOM, "--event", "divisions")
    assert code == 2
    assert all(f"(id three_divisions:{d})" in err for d in ("juniors", "masters", "seniors"))
    # nothing near: the events there are
    code, _, err = _run("standings", TRF, "--event", "zzz")
    assert code == 2
    assert "the events are 'Fixture Open' (id all_codes)" in err


def test_a_name_of_two_events_is_refused(tmp_path: Path) -> None:
    rows = pl.DataFrame({"event_id": ["Cup", "Cup", "cup", "cup"], "round": [1] * 4,
                         "player_id": ["A", "B", "C", "D"], "opponent_id": ["B", "A", "D", "C"],
                         "games_won": [2, 0, 2, 0], "games_lost": [0, 2, 0, 2],
                         "games_drawn": [0] * 4})
    path = tmp_path / "two.csv"
    rows.write_csv(path)
    code, _, err = _run("standings", str(path), "--event", "CUP")
    assert code == 2
    assert "--event 'CUP' names 2 events: 'Cup', 'cup'" in err
    assert "Hint: give the event's id" in err
    # the exact id is never ambiguous
    code, out, _ = _run("standings", str(path), "--event", "cup", "--format", "csv")
    assert code == 0
    assert set(pl.read_csv(io.StringIO(out))["event_id"]) == {"cup"}


@given(st.dictionaries(st.text(min_size=1, max_size=8), st.text(min_size=1, max_size=8),
                       min_size=1, max_size=6))
def test_an_id_or_a_unique_name_finds_its_event(names: dict[str, str]) -> None:
    """An id is always its own event; a name held by one event only finds that event; any
    other text finds an event that id or name it (in some case) or is a DataError."""
    for event, name in names.items():
        assert event_id_of(event, names) == event
        if name not in names and list(names.values()).count(name) == 1:
            assert event_id_of(name, names) == event
        try:
            found = event_id_of(name.upper(), names)
        except DataError:
            continue
        assert name.upper().casefold() in (found.casefold(), names[found].casefold())
