"""The report's content against hand-worked events, its offline guarantees, the season
folder and the CLI."""

from __future__ import annotations

import datetime as dt
import os
import re
import threading
import urllib.parse
from pathlib import Path

import polars as pl
import pytest

import swissframe as sf
from swissframe.cli import main
from swissframe.errors import DataError, DataWarning
from swissframe.report import SeasonReport
from tests.helpers import DE_DECIDES, SHARED_ROOT, decisive

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data" / "events"
REAL = SHARED_ROOT / "data" / "realworld"  # (../shared, as every test reaches it)


def _text(html: str) -> str:
    """Visible text, roughly (tags dropped, whitespace folded)."""
    body = re.sub(r"<script.*?</script>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


def test_cut_decided_on_omw_league_night() -> None:
    # Lena (2nd) and Nico (3rd) both 6 points. Lena met Kai (2-1), Omar (1-2), Kai again:
    # OMW% = (2/3 + 1/3 + 2/3) / 3 = 5/9 = 55.56%. Nico met Mara (1-1-1: 4/9), Kai (2/3),
    # Omar (1/3): (4/9 + 6/9 + 3/9) / 3 = 13/27 = 48.15%.
    rep = sf.report(DATA / "league-night.csv", top=2, n_sims=0)
    c = rep.comparison
    assert c is not None
    assert (c.criterion, c.ahead) == ("omwp", "Lena")
    assert c.value_a == pytest.approx(5 / 9)
    assert c.value_b == pytest.approx(13 / 27)
    text = _text(rep.html)
    assert ("Lena (2nd) beat Nico (3rd) on OMW%: 55.56% vs 48.15%, level on match points "
            "(6).") in text
    assert "The margin on OMW% was 7.41 percentage points" in text
    assert "The top-2 cut fell at 6 points: 2 of the 3 players on 6 made it." in text


def test_cut_decided_on_points_store_championship() -> None:
    # Chandra: W, 1-1-1 draw, L, W = 7 points; Grace: W, L, W, L = 6.
    rep = sf.report(DATA / "store-championship.csv", top=4, n_sims=0)
    text = _text(rep.html)
    assert "Chandra (4th) beat Grace (5th) on match points: 7 vs 6." in text
    assert ("The top-4 cut fell at 7 points: every player on 7 or more made it; the best "
            "below had 6.") in text
    assert "Alice topped the Swiss at 3–0–1 (10 points)." in text


def test_exact_tie_at_the_cut() -> None:
    m = pl.DataFrame({"round": [1], "player_a": ["A"], "player_b": ["B"], "games_a": [1],
                      "games_b": [1], "games_drawn": [0]})
    rep = sf.report(sf.from_matches(m), top=1, n_sims=0)
    assert rep.comparison is not None
    assert rep.comparison.tied
    assert "exactly tied" in _text(rep.html)


def test_every_criterion_of_the_ruleset_is_a_column() -> None:
    rep = sf.report(DATA / "store-championship.csv", rules="pokemon", top=4, n_sims=0)
    head = re.search(r'<table class="sortable" id="standings"><thead>(.*?)</thead>', rep.html)
    assert head is not None
    for label in ("OMW%", "OOMW%", "head-to-head", "random draw"):
        assert f">{label}<" in head.group(1)
    assert "Ranked by <b>pokemon</b>" in rep.html
    assert "Chosen for this report." in rep.html


def test_the_page_is_self_contained() -> None:
    html = sf.report(DATA / "store-championship.csv", top=4, n_sims=0).html
    assert "Content-Security-Policy" in html
    assert "default-src 'none'" in html
    markup = re.sub(r"(<script[^>]*>).*?</script>", r"\1</script>", html, flags=re.S)
    assert not re.search(r"<(script|img|iframe)[^>]*\bsrc=", markup)
    assert not re.search(r"<link\b", markup)
    assert "@import" not in html
    assert "url(http" not in html
    assert html.count('data-chart="chart-') >= 4
    assert "window.vegaEmbed" in html  # the libraries are inline


def test_names_are_shown_and_charts_are_named() -> None:
    r = sf.read_results(DATA / "store-championship.csv")
    names = {"Alice": "Alice Liddell", "Bob": "Bob Dylan"}
    rep = sf.report(r, top=4, n_sims=0, names=names, title="Store Championship")
    html = rep.html
    assert "<h1>Store Championship</h1>" in html
    assert "Alice Liddell" in _text(html)
    assert rep._repr_html_().startswith("<iframe srcdoc=")


def test_a_names_table_giving_a_player_two_names_is_refused() -> None:
    """A names DataFrame with two rows for one player showed the last without a word
    (found by the sixth bad-data sweep); the same name twice is one name."""
    r = sf.read_results(DATA / "store-championship.csv")
    twice = pl.DataFrame({"player_id": ["Alice", "Alice", "Bob", "Bob"],
                          "name": ["Alice Liddell", "Alice Smith", "Bob Dylan", "Bob Dylan"]})
    with pytest.raises(sf.DataError, match=r"'Alice' .*'Alice Liddell', 'Alice Smith'"):
        sf.report(r, top=4, n_sims=0, names=twice)
    rep = sf.report(r, top=4, n_sims=0, names=twice.filter(pl.col("name") != "Alice Smith"))
    assert "Bob Dylan" in _text(rep.html)


def test_sensitivity_prose_names_who_enters() -> None:
    sim = sf.simulate([24, 40, 64], rules="mtg", n_events=3, seed=3)
    ev = sim.results.filter(pl.col("event_id") == "mtg-0002")
    rep = sf.report(ev, top=8, n_sims=0)
    sens = rep.sensitivity
    assert sens is not None
    changed = sens.filter(pl.col("entering").list.len() > 0)
    text = _text(rep.html)
    if changed.height:
        who = changed["entering"][0][0]
        verb = "changes" if changed.height == 1 else "change"
        assert f"{changed.height} of the 5 rule variants below {verb} the top 8." in text
        assert f"{who} would enter" in text
    else:
        assert "None of the 5 rule variants" in text


def test_a_page_of_an_event_whose_every_player_is_disqualified() -> None:
    """Every player disqualified (no one ranked): the page ended in a bare ``IndexError``
    in its sensitivity section, whose table had no row (bad data 207); it says so."""
    ev = sf.simulate(8, 3, seed=1).results.with_columns(pl.lit(True).alias("disqualified"))
    text = _text(sf.report(ev, n_sims=0).html)
    assert "No player is ranked (every player was disqualified)" in text


def test_season_folder_links_and_single_file(tmp_path: Path) -> None:
    rep = sf.report(DATA, top=2, n_sims=0)
    assert isinstance(rep, SeasonReport)
    folder = rep.save(tmp_path / "season")
    index = (folder / "index.html").read_text()
    pages = sorted(p.name for p in (folder / "events").iterdir())
    assert pages == ["league-night.html", "store-championship.html"]
    assert 'href="events/league-night.html"' in index
    assert 'href="../index.html"' in (folder / "events" / "league-night.html").read_text()
    single = rep.save(tmp_path / "season.html").read_text()
    assert "events/" not in re.sub(r"<script.*?</script>", "", single, flags=re.S)
    text = _text(index)
    assert "2 events" in text
    assert rep.summary.filter(pl.col("event_id") == "league-night")["decided_by"][0] == "OMW%"


def test_an_interrupted_season_save_leaves_the_old_folder_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Class 136: a season written over an existing folder page by page, and interrupted
    (an error, Ctrl-C, a full disk), left old and new pages mixed. The folder is written
    beside it and swapped in whole: the old one is kept, byte for byte, and nothing of
    the failed save is left."""
    rep = sf.report(DATA, top=2, n_sims=0)
    assert isinstance(rep, SeasonReport)
    folder = rep.save(tmp_path / "season")
    (folder / "events" / "old-event.html").write_text("an old season's page")
    before = {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    built = SeasonReport._event
    calls = []

    def second_fails(self: SeasonReport, meta: object) -> object:
        calls.append(meta)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return built(self, meta)  # type: ignore[arg-type]

    monkeypatch.setattr(SeasonReport, "_event", second_fails)
    with pytest.raises(KeyboardInterrupt):
        rep.save(folder)
    after = {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    assert after == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["season"]  # (no scratch left)
    monkeypatch.setattr(SeasonReport, "_event", built)
    rep.save(folder)  # (a save that completes replaces the folder: no old page is left)
    assert sorted(p.name for p in (folder / "events").iterdir()) == [
        "league-night.html", "store-championship.html"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["season"]


def test_a_season_folder_holding_other_files_is_refused(tmp_path: Path) -> None:
    """Class 136: the swap would delete a file the report does not write (a user's data
    in the folder given); writing into it would mix the files. Refused, nothing written."""
    rep = sf.report(DATA, top=2, n_sims=0)
    (tmp_path / "season").mkdir()
    (tmp_path / "season" / "results.csv").write_text("mine")
    with pytest.raises(sf.DataError, match=r"season' holds 1 file this output does not "
                       r"write \('results.csv'\).*Hint: choose a new or empty folder"):
        rep.save(tmp_path / "season")
    assert [p.name for p in (tmp_path / "season").iterdir()] == ["results.csv"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["season"]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert (rep.save(empty) / "index.html").is_file()


def test_event_selection_errors() -> None:
    with pytest.raises(sf.DataError, match="did you mean 'league-night'"):
        sf.report(DATA, event_id="league-nite")
    with pytest.raises(sf.DataError, match="event_id"):
        sf.report(DATA, season=False)


def test_cli_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.html"
    assert main(["report", str(DATA / "league-night.csv"), "--top", "2", "--sims", "0",
                 "-o", str(out)]) == 0
    assert "Lena (2nd) beat Nico (3rd)" in out.read_text()
    said = capsys.readouterr()
    assert f"wrote {out} (" in said.err  # (what a command wrote: stderr, as every command)
    assert "wrote" not in said.out
    assert main(["report", str(DATA / "league-night.csv"), "-o", str(tmp_path / "r.pdf")]) == 2
    assert "unknown suffix" in capsys.readouterr().err
    src = DATA / "league-night.csv"
    assert main(["report", str(src), "-o", str(src)]) == 2


def test_an_event_report_saved_to_a_folder_is_its_index_page(tmp_path: Path) -> None:
    rep = sf.report(DATA / "league-night.csv", n_sims=0)
    assert rep.save(tmp_path) == tmp_path / "index.html"  # (was an IsADirectoryError)
    assert (tmp_path / "index.html").read_text() == rep.html


@pytest.mark.parametrize("folder", ["existing", "new/"])
def test_cli_report_of_one_event_into_a_folder_writes_inside_it(
        tmp_path: Path, folder: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``-o DIR`` for one event: the page is DIR/index.html (it was DIR.html, beside the
    folder), for a folder that exists and for a new one named with a trailing separator."""
    (tmp_path / "existing").mkdir()
    out = f"{tmp_path}/{folder}"  # (a Path would drop the trailing separator)
    assert main(["report", str(DATA / "league-night.csv"), "--top", "2", "--sims", "0",
                 "-o", out]) == 0
    page = tmp_path / folder / "index.html"
    assert "Lena (2nd) beat Nico (3rd)" in page.read_text()
    assert str(page) in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted({"existing",
                                                                folder.rstrip("/")})


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_cli_report_to_a_named_pipe_or_device_writes_it_as_it_is(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Bad data 221: a one-event report's ``-o`` without a suffix gets ``.html`` — and so
    did a device or a named pipe: ``-o /dev/stdout`` made a file ``/dev/stdout.html`` (as
    root, in /dev), ``-o /dev/null`` ``/dev/null.html``, and ``-o PIPE`` wrote
    ``PIPE.html`` while the pipe's reader waited for ever. Each is written as it is."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    try:
        assert main(["report", str(DATA / "league-night.csv"), "--top", "2", "--sims", "0",
                     "-o", str(fifo)]) == 0
        reader.join(60)
    finally:
        if reader.is_alive():  # (the old behaviour: release the reader waiting on the pipe)
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    assert got
    assert got[0].startswith(b"<!DOCTYPE html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]
    assert f"wrote {fifo} (in" in capsys.readouterr().err


@pytest.mark.parametrize("out", ["/dev/stdout", "link.html"])
def test_a_page_piped_on_through_stdout_ends_with_the_page(out: str, tmp_path: Path) -> None:
    """Bad data 250: ``swissframe report FILE -o /dev/stdout | …`` (bad data 221's way to
    pipe the page on) put "wrote /dev/stdout in 0.9 s" after ``</html>`` in the pipe, where
    a browser shows it as text. The line goes to stderr when an output is stdout itself."""
    import subprocess
    import sys

    from tests.helpers import CLI_IN_A_PROCESS

    if out == "link.html":  # (a link to stdout's file, as a script might name it)
        (tmp_path / out).symlink_to("/dev/stdout")
    run = subprocess.run([sys.executable, "-c", CLI_IN_A_PROCESS, "report",
                          str(DATA / "league-night.csv"), "--top", "2", "--sims", "0",
                          "-o", out], capture_output=True, cwd=tmp_path, timeout=300,
                         check=False, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(b"<!DOCTYPE html>")
    assert run.stdout.rstrip().endswith(b"</html>")
    assert f"wrote {out} (in".encode() in run.stderr


@pytest.mark.parametrize("name", ["page.png", "standings.csv", "Page.PDF"])
def test_a_report_saved_under_a_name_of_another_kind_is_refused(
        name: str, tmp_path: Path) -> None:
    """Bad data 224: ``swissframe report -o page.png`` was refused, but
    ``EventReport.save("page.png")`` wrote the HTML page under an image's name (and
    ``SeasonReport.save("x.csv")`` a folder of pages) without a word. One rule for both:
    a ``DataError`` before anything is written; ``.html``/``.htm`` in any case, a folder,
    or no suffix, as before."""
    rep = sf.report(DATA / "league-night.csv", n_sims=0)
    season = sf.report(DATA / "league-night.csv", n_sims=0, season=True)
    for saved in (rep, season):
        with pytest.raises(DataError, match="unknown suffix"):
            saved.save(tmp_path / name)
    assert list(tmp_path.iterdir()) == []
    assert rep.save(tmp_path / "P.HTML").is_file()
    assert rep.save(f"{tmp_path}/x.d/") == tmp_path / "x.d" / "index.html"


def _need_real() -> None:
    if not REAL.exists():
        pytest.skip(f"real-world data not found at {REAL} (needs ../shared/data/realworld)")


def test_real_decklist_event() -> None:
    _need_real()
    files = sorted((REAL / "fbettega_MTG_decklistcache" / "Tournaments" / "MTGmelee").rglob(
        "*-2024-01-04.json.gz"))
    if not files:
        pytest.skip("no melee.gg event of 2024-01-04 in the real-world data")
    ev = sf.read_decklist_cache(files[0])
    rep = sf.report(ev, top=8, n_sims=20)
    name = ev.events["name"][0]
    html = rep.html
    assert f"<h1>{name}" in html.replace("&#x27;", "'")
    # ranked as `swissframe standings` ranks the file: its platform's preset, and says so
    assert rep.meta.rules.name == sf.read(files[0]).events["ruleset"][0]
    assert "decklist-cache file" in html
    if rep.comparison is not None:
        assert rep.comparison.describe() in _text(html).replace("&#x27;", "'")


def test_real_tom_event_shows_names() -> None:
    _need_real()
    files = sorted((REAL / "pokemon-tom").rglob("*.tdf"))
    if not files:
        pytest.skip("no TOM file in the real-world data")
    tom = sf.read_tom(files[0])
    event = tom.results["event_id"][0]
    rep = sf.report(tom, event_id=event, top=4, n_sims=0)
    assert rep.meta.rules.name == "pokemon"
    some = tom.players.filter(pl.col("event_id") == event)["name"].drop_nulls()[0]
    assert some in rep.html
    assert "OOMW%" in rep.html


def _ranks(table: pl.DataFrame) -> list[tuple[str, int]]:
    return sorted(table.select(pl.col("player_id").cast(pl.String), "rank").iter_rows())


def test_a_report_ranks_files_as_standings_does_every_format() -> None:
    """The report read paths with its own reader (sniffing the first file's suffix) and
    chose its own default ruleset by input kind: a cardsrealm decklist was ranked by
    ``mtg`` and a TRF of any date by ``fide``, while ``swissframe standings`` ranks them by
    the platform's preset and the FIDE rules in force on the start date. One reader and
    one inference now: the report's standings equal ``sf.standings`` of ``sf.read``."""
    _need_real()
    picks = [sorted((REAL / "fbettega_MTG_decklistcache").rglob("*.json.gz"))[:1],
             sorted((REAL / "chess-trf").rglob("*.trf"))[:1],
             sorted((REAL / "pokemon-tom").rglob("*.tdf"))[:1]]
    files = [f[0] for f in picks if f]
    if not files:
        pytest.skip("no decklist, TRF or TOM file in the real-world data")
    for f in files:
        src = sf.read(f)
        event = src.results["event_id"][0]
        rows = src.results.filter(pl.col("event_id") == event)
        rep = sf.report(f, event_id=event, top=4, n_sims=0)
        assert rep.meta.rules.name == src.ruleset_of(event), f
        assert _ranks(rep.standings) == _ranks(sf.standings(rows)), f
        # what sf.read returned is taken as it is: the same event, ruleset and names
        again = sf.report(src, event_id=event, top=4, n_sims=0)
        assert (again.meta.rules.name, again.meta.name) == (rep.meta.rules.name,
                                                             rep.meta.name), f


def test_a_report_of_a_trf_uses_the_fide_rules_of_its_start_date(tmp_path: Path) -> None:
    """A TRF started after 1 March 2026 is ranked by ``fide-2026`` (its Buchholz dummy),
    not by ``fide`` as the report's own per-kind default had it."""
    trf = tmp_path / "late.trf"
    trf.write_text(
        "012 Spring Open\n042 2026-04-02\n"
        "001    1      Alpha                             1800                             "
        "1.0    1     2 w 1\n"
        "001    2      Beta                              1700                             "
        "0.0    2     1 b 0\n")
    assert sf.read(trf).events["ruleset"][0] == "fide-2026"
    rep = sf.report(trf, top=1, n_sims=0)
    assert rep.meta.rules.name == "fide-2026"
    assert "start date (2026-04-02)" in rep.html


def test_a_report_of_a_table_follows_its_ruleset_column() -> None:
    """A results table carrying ``sf.read``'s ``ruleset`` column is ranked by it, as
    ``sf.standings(rules="auto")`` ranks it; without one, by ``mtg``."""
    m = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": ["A", "C", "A", "B"],
                      "player_b": ["B", "D", "C", "D"], "games_a": [2, 2, 2, 1],
                      "games_b": [0, 1, 1, 2], "games_drawn": [0, 0, 0, 0]})
    table = sf.from_matches(m)
    assert sf.report(table, top=2, n_sims=0).meta.rules.name == "mtg"
    tagged = table.with_columns(ruleset=pl.lit("pokemon"))
    rep = sf.report(tagged, top=2, n_sims=0)
    assert rep.meta.rules.name == "pokemon"
    assert _ranks(rep.standings) == _ranks(sf.standings(tagged))


def test_floor_variant_says_the_base_rulesets_floor() -> None:
    # standard_variants adds "floor 1/3" and "floor 0.33" to any base whose floor differs:
    # the label names the base's own floor (Pokémon 25%, SWU 33.33%, MTG 0.33, 1/3)
    from swissframe.report._event import variant_label

    assert variant_label("mtg+floor=1/3", "mtg") == "floor 1/3 instead of 0.33"
    assert variant_label("mtg-1/3+floor=0.33", "mtg-1/3") == "floor 0.33 instead of 1/3"
    assert variant_label("pokemon+floor=1/3", "pokemon") == "floor 1/3 instead of 0.25"
    assert variant_label("swu+floor=0.33", "swu") == "floor 0.33 instead of 0.3333"
    assert variant_label("mine+floor=1/3", "mine") == "floor 1/3"  # not a preset


@pytest.mark.filterwarnings("ignore::swissframe.errors.ImportNotesWarning")  # (pending)
def test_chess_report_speaks_chess_and_charts_are_labelled() -> None:
    """A chess report said "match points" (ranking order, cut box, chart caption), listed
    MTG variants (floor, byes in own MW%, drawn games) that changed nothing, called every
    drawn chess game an "ID" in the advice table while the section below said "No
    intentional draw"; a screen reader read each chart as a file slug."""
    html = sf.report(ROOT / "tests" / "fixtures" / "trf" / "all_codes.trf", top=4,
                     n_sims=20).html
    text = _text(html)
    assert "match points" not in text.lower()
    assert "Ranked by fide-2026 : points → " in text
    assert "floor" not in text
    assert "MW%" not in text
    # nothing in a chess result tells an agreed draw from a played one (the season page
    # says none): the event page said "none of them drew intentionally" and "What the
    # intentional draws did: No intentional draw in round 3"; its advice is on draws
    assert "intentional" not in text.lower()
    assert "Draw advice, table by table" in text
    labels = re.findall(r'role="img" aria-label="([^"]*)"', html)
    assert labels
    assert all(x.startswith("Fixture Open: ") for x in labels), labels
    assert "Points (bars) and tiebreakers (dots)" in labels[0]


def test_the_standings_chart_names_the_ruleset_the_page_ranks_by() -> None:
    """The report's standings chart was drawn without the ruleset and guessed "mtg" from
    the columns: a melee.gg page "Ranked by melee-e2" captioned its chart "(mtg)"."""
    html = sf.report(ROOT / "tests" / "fixtures" / "decklist" /
                     "melee-draws-2-2024-07-13.json", top=2, n_sims=20).html
    assert "Ranked by melee-e2" in _text(html)
    assert "(melee-e2)" in html
    assert "(mtg)" not in html


def test_a_possible_status_never_shows_100_percent() -> None:
    """The advice table said "possible, 100%" beside "guaranteed" (the command line says
    ">99%"): both now read a possible status by one function."""
    from swissframe.cut._status import status_words

    assert status_words("possible", 0.999, True) == "possible, >99%"
    assert status_words("possible", 0.001, True) == "possible, <1%"
    assert status_words("possible", 0.6, True) == "possible, 60%"
    assert status_words("guaranteed", 1.0, True) == "in"


def test_the_draw_advice_says_a_simulated_share_as_the_command_line_does() -> None:
    """The report's draw advice showed a simulated share that came out 1 or 0 as "possible,
    100%" / "possible, 0%" where ``swissframe cut`` says "possible, ~100%" / "~0%": the
    report read id_advice's probabilities without the status' ``exact`` flag. 16 players,
    8 tables in the last round (more scenarios than are enumerated), 5 simulations."""
    rows = []
    for r, bit in ((1, 1), (2, 2), (3, 4), (4, 8)):
        for i in range(16):
            if i < (j := i ^ bit):
                a_wins = (i + r) % 3 != 0
                rows.append((r, f"P{i:02d}", f"P{j:02d}", 2 if a_wins else 1,
                             1 if a_wins else 2, 0))
    m = pl.DataFrame(rows, orient="row", schema=["round", "player_a", "player_b",
                                                 "games_a", "games_b", "games_drawn"])
    text = _text(sf.report(sf.from_matches(m), top=4, n_sims=5).html)
    advice = text[text.index("table by table"):text.index("What the intentional draws")]
    assert "possible, ~100%" in advice, advice
    assert "possible, ~0%" in advice, advice
    assert not re.search(r"possible, (100|0)%", advice), advice
    assert "guaranteed" not in advice  # (the CLI's in / out)
    assert "eliminated" not in advice


def _no_playoff_event() -> pl.DataFrame:
    """12 players, 3 Swiss rounds, no playoff rows (a prerelease: no elimination rounds)."""
    rows = []
    for r, bit in ((1, 1), (2, 2), (3, 4)):
        for i in range(12):
            if i < (j := i ^ bit) < 12:
                a_wins = (i + r) % 3 != 0
                rows.append((r, f"P{i:02d}", f"P{j:02d}", int(a_wins), int(not a_wins), 0))
    return sf.from_matches(pl.DataFrame(rows, orient="row", schema=[
        "round", "player_a", "player_b", "games_a", "games_b", "games_drawn"]))


_CUT_WORDS = re.compile(r"top-8 cut|the cut|[Cc]ut status|top cut|[Cc]ut lines?\b")


def test_an_event_without_a_playoff_is_not_said_to_cut() -> None:
    """A Pokémon event whose file holds no playoff, reported without ``top``: "The top-8 cut
    fell at 6 points: all 4 above made it…" as if there was a cut (a real 23-player
    prerelease). Neither the caller nor the file gives a cut: the page says so, and speaks
    of the top 8 places, in its prose and its charts; with ``top=8`` it is the cut."""
    res = _no_playoff_event()
    page = sf.report(res, rules="pokemon", n_sims=10).html
    text = _text(re.sub(r"<style.*?</style>", " ", page, flags=re.S))
    assert "no playoff in the file; showing the top 8 places" in text
    assert "Place 8 went at 3 points" in text
    assert not _CUT_WORDS.search(re.sub(r"<style.*?</style>", " ", page, flags=re.S)), (
        _CUT_WORDS.search(page))
    given = _text(sf.report(res, rules="pokemon", top=8, n_sims=10).html)
    assert "The top-8 cut fell at 3 points" in given
    assert "no playoff in the file" not in given


def test_a_season_leaves_events_of_no_more_players_than_the_top_out_of_its_cut_lines(
        ) -> None:
    """"The top-8 cut line ranged from 0 to 15 points over 14 events of 8–78 players"
    counted events of 8 players or fewer (place 8 their last place, 0 points): they have
    no line, are left out of the line's statistics and chart, and the page says how many;
    with no top given and no playoff in the files, the line is place 8's, not a cut."""
    def event(name: str, n: int, flip: bool) -> pl.DataFrame:
        rows = [(r, f"P{i:02d}", f"P{i ^ bit:02d}", 2 * int(((i + r) % 3 != 0) ^ flip),
                 2 * int(((i + r) % 3 == 0) ^ flip), 0)
                for r, bit in ((1, 1), (2, 2), (3, 4)) for i in range(n) if i < i ^ bit < n]
        return sf.from_matches(pl.DataFrame(rows, orient="row", schema=[
            "round", "player_a", "player_b", "games_a", "games_b", "games_drawn"])
        ).with_columns(event_id=pl.lit(name))

    res = pl.concat([event("big-a", 16, flip=False), event("big-b", 12, flip=True),
                     event("eight", 8, flip=False), event("four", 4, flip=False)])
    rep = sf.report(res, top=8, n_sims=10)
    assert rep.summary.filter(pl.col("cut_points").is_not_null())["event_id"].sort(
        ).to_list() == ["big-a", "big-b"]
    text = _text(rep.html)
    assert ("The top-8 cut line ranged from 3 to 6 points over 2 events of 12–16 players "
            "(2 events of 8 players or fewer, with no line, left out).") in text
    page = sf.report(res, n_sims=10).html
    places = _text(page)
    assert "No playoff in the files; showing the top 8 places of each event." in places
    assert "The line under place 8 ranged from 3 to 6 points" in places
    assert "top-8 cut" not in page  # (the chart's title too)


def test_a_player_who_did_not_make_day_two_is_not_noted_as_dropped() -> None:
    """Under a ruleset ranking the Swiss as it ends (mtg), the standings call every player
    without a day-2 round dropped; the page's notes read who left as ``swissframe cut``
    does (cut._round.absent_players): A–H play day 1, G and H leave after round 1, A–D
    make day 2."""
    rows = [(1, "A", "E"), (1, "B", "F"), (1, "C", "G"), (1, "D", "H"), (2, "A", "B"),
            (2, "C", "D"), (2, "E", "F"), (3, "A", "C"), (3, "B", "D"), (4, "A", "B"),
            (4, "C", "D")]
    res = pl.DataFrame(
        [(r, a, b, 2, 0, f"day{1 + (r > 2)}") for r, a, b in rows]
        + [(r, b, a, 0, 2, f"day{1 + (r > 2)}") for r, a, b in rows], orient="row",
        schema=["round", "player_id", "opponent_id", "games_won", "games_lost", "stage"]
    ).with_columns(event_id=pl.lit("e"), games_drawn=pl.lit(0))
    text = _text(sf.report(res, rules="mtg", top=2, n_sims=0).html)
    notes = dict(re.findall(r" ([A-H]) \d+ \d–\d–\d (?:[\d.]+% ){3}(did not make day 2|dropped)",
                            text))
    assert notes == {"E": "did not make day 2", "F": "did not make day 2", "G": "dropped",
                     "H": "dropped"}, text


def test_only_an_id_score_is_called_id() -> None:
    from swissframe.report._event import _result_text

    final = sf.from_matches(pl.DataFrame({
        "round": [5] * 3, "player_a": ["A", "C", "E"], "player_b": ["B", "D", "F"],
        "games_a": [0, 0, 1], "games_b": [0, 0, 1], "games_drawn": [3, 1, 1]}))
    assert _result_text(final, "A", "B", str) == "ID"  # 0-0-3, as id_report counts IDs
    assert _result_text(final, "C", "D", str) == "draw"  # a drawn chess game
    assert _result_text(final, "E", "F", str) == "draw 1–1–1"
    # a source that records an ID otherwise (WER's 0-0 draw button) is read as id_report
    # reads it: the one rule, sf.detect_intentional_draws
    wer = sf.from_matches(pl.DataFrame({
        "round": [5], "player_a": ["A"], "player_b": ["B"], "games_a": [0], "games_b": [0],
        "games_drawn": [0]})).with_columns(source=pl.lit("wer"))
    assert _result_text(wer, "A", "B", str) == "ID"


@pytest.mark.parametrize("phase", [None, "Swiss", "day1"])
@pytest.mark.parametrize("season", [False, True])
def test_a_report_refuses_rows_the_contract_refuses(phase: str | None, season: bool) -> None:
    """The pages kept the rows whose phase is ``"swiss"`` before any check: a null or
    misspelled phase left an event with no rows, and ``.html`` failed with Polars'
    ``OutOfBoundsError`` (the season page: an empty one). ``report`` now validates its
    input first and names the rows."""
    res = sf.read_results(DATA / "store-championship.csv").with_columns(
        pl.lit(phase, dtype=pl.String).alias("phase"))
    with pytest.raises(sf.ValidationError, match=r"event 'store-championship', round 1, "
                                                 r"player .*phase(?s:.*)\nHint: "):
        sf.report(res, n_sims=0, season=season)


def test_the_race_caption_does_not_claim_a_log_scale() -> None:
    """Every race chart's caption said "(log scale)"; a small event's rank axis is linear
    (the chart's own axis title says "(log scale)" when it is one)."""
    html = sf.report(DATA / "store-championship.csv", top=4, n_sims=0).html
    caption = re.search(r"Where the final top 4 stood after each round[^<]*", html)
    assert caption is not None
    assert "log" not in caption.group(0)
    assert "Rank (log scale)" not in html


@pytest.mark.filterwarnings("ignore::swissframe.errors.ImportNotesWarning")  # (pending)
def test_a_chess_season_counts_no_intentional_draws(tmp_path: Path) -> None:
    """A chess season page counted "IDs (last round)", said "No event had an intentional
    draw" and split its cut-line chart by IDs: a chess draw is a result (a draw worth half a
    win), so none of them is shown; its axis says points."""
    for name in ("a", "b"):
        (tmp_path / f"{name}.trf").write_bytes(
            (ROOT / "tests" / "fixtures" / "trf" / "all_codes.trf").read_bytes())
    html = sf.report(sorted(tmp_path.glob("*.trf")), top=4, n_sims=0, season=True).html
    text = _text(html)
    assert "IDs (last round)" not in text
    assert "intentional" not in text
    assert "Points of place 4" in html
    chart = html.split("Place 4 against field size")[1].split("</script>")[0]  # (no cut)
    assert '"field":"ids"' not in chart.replace(" ", "")  # (no colour or shape by IDs)
    assert '"field":"match_points_n"' in chart.replace(" ", "")


def test_a_cut_decided_by_direct_encounter_says_what_the_number_counts() -> None:
    """FIDE direct encounter counts the tied players it ranks below the player (C.07 Art.
    6): the cut box read "P1 beat P5 on direct encounter: 1 vs 0 … The margin on direct
    encounter was 1" (a 1-0 game, to a chess reader) and the standings' column a bare
    number; the chess table also said "Percentages to two decimals" over no percentage."""
    res = decisive(DE_DECIDES).with_columns(event_id=pl.lit("de"))
    rep = sf.report(res, rules="fide", top=3, n_sims=0)
    assert rep.comparison is not None
    assert rep.comparison.criterion == "direct_encounter"
    text = _text(rep.html)
    assert ("P1 (3rd) beat P5 (4th) on direct encounter (tied players ranked below): 1 vs 0, "
            "level on points (2)") in text
    assert "The margin on direct encounter (tied players ranked below) was 1:" in text
    assert " direct encounter (tied players ranked below) 1 0 +1 " in text  # the cut table
    assert "Direct encounter: tied players ranked below." in text  # the standings' note
    assert "Percentages" not in text
    assert "Percentages to two decimals" in _text(sf.report(DATA / "league-night.csv", top=2,
                                                            n_sims=0).html)


def test_the_cut_sentence_counts_the_players_above_in_words() -> None:
    """It said "all 2 players above made it" (and "all 1 players")."""
    res = decisive(DE_DECIDES).with_columns(event_id=pl.lit("de"))
    text = _text(sf.report(res, rules="fide", top=3, n_sims=0).html)
    # (a chess event has no cut: its line is under place 3, swissframe.cut._words)
    assert ("Place 3 went at 2 points: both players above made it, and 1 of the 3 "
            "players on 2 did.") in text
    text = _text(sf.report(res.filter(pl.col("round") <= 4), rules="fide", top=2,
                           n_sims=0).html)
    assert ("Place 2 went at 2 points: the player above made it, and 1 of the 3 "
            "players on 2 did.") in text


def test_a_season_whose_events_share_their_cut_says_it_once() -> None:
    """Two events with one cut and one field size read "ranged from 2 to 2 points over 2
    events of 6–6 players"."""
    one = decisive(DE_DECIDES)
    res = pl.concat([one.with_columns(event_id=pl.lit(e)) for e in ("a", "b")])
    text = _text(sf.report(res, rules="fide", top=3, n_sims=0, season=True).html)
    assert "The line under place 3 fell at 2 points in all 2 events (6 players)." in text
    assert "Place 3 against field size" in text  # (a chess season has no cut lines)
    assert "Cut lines" not in text
    assert "ranged" not in text
    mixed = pl.concat([res, one.filter(pl.col("round") <= 3).with_columns(
        event_id=pl.lit("c"))])
    text = _text(sf.report(mixed, rules="fide", top=2, n_sims=0, season=True).html)
    assert ("The line under place 2 ranged from 2 to 3 points over 3 events of 6 "
            "players.") in text


def test_a_cut_decided_by_lot_has_no_margin() -> None:
    """A cut the random order decided read "The margin on random draw was
    3451757730741205" (the difference of two seeded keys) and named both keys."""
    res = sf.from_matches(pl.DataFrame({
        "round": [1, 1], "player_a": ["A", "C"], "player_b": ["B", "D"],
        "games_a": [1, 1], "games_b": [1, 1], "games_drawn": [1, 1]}))
    rep = sf.report(res, rules="pokemon", top=1, n_sims=0)
    assert rep.comparison is not None
    assert rep.comparison.criterion == "random"
    text = _text(rep.html)
    assert "on random draw: the order drawn by lot" in text
    assert "The margin on" not in text


def test_a_season_leaves_out_an_event_with_only_playoff_rows() -> None:
    """Class 73: a season (or an event page) of events one of which is a playoff bracket
    alone failed with an internal ``OutOfBoundsError`` on its empty standings; the season
    leaves it out with a warning, its own page is an error naming it."""
    from swissframe.errors import DataError, DataWarning

    rows = sf.read_results(DATA / "league-night.csv").with_columns(
        pl.lit("swiss").alias("phase"))
    both = pl.concat([rows, rows.filter(pl.col("round") == 3).with_columns(
        pl.lit("top4").alias("event_id"), pl.lit("playoff").alias("phase"))])
    with pytest.warns(DataWarning, match=r"the season page leaves out 1 event with only "
                      r"playoff rows \('top4'\)"):
        season = sf.report(both, season=True, n_sims=0)
    assert isinstance(season, SeasonReport)
    assert [m.event_id for m in season.metas] == ["league-night"]
    with pytest.raises(DataError, match=r"event 'top4' has only playoff rows .* a report ranks "
                       r"the Swiss\. Hint: "):
        sf.report(both, event_id="top4", n_sims=0)


def test_a_player_disqualified_in_the_last_round_is_out_of_its_scenarios() -> None:
    # E (6 points before round 3) is disqualified in round 3: the page's "before the last
    # round" read the round's pairings without the flag, so E was "in whatever happened",
    # where swissframe cut (and the standings) have E out and the next player in
    from tests.engine.test_disqualified import SIX, _dq

    rep = sf.report(_dq(SIX, "E", 3), top=3, n_sims=0)
    status = getattr(rep, "status", None)
    assert status is not None
    e = status.filter(pl.col("player_id") == "E")
    assert e["status"].to_list() == ["eliminated"] * 3
    assert set(e["method"]) == {"disqualified"}
    assert "1 player was in the top 3 whatever happened" in _text(rep.html)


def test_a_chess_page_speaks_of_places_not_of_a_cut() -> None:
    """A chess event has no playoff (FIDE C.07 ranks the final standings): its page read
    "The top-3 cut fell at", "The cut", "mattered for the cut"; a card game's still does
    (swissframe.cut._words)."""
    res = decisive(DE_DECIDES).with_columns(event_id=pl.lit("de"))
    html = sf.report(res, rules="fide", top=3, n_sims=0).html
    text = _text(html)
    assert "<h2>Places 3 and 4</h2>" in html
    assert "<h2>The cut</h2>" not in html
    assert not re.search(r"top-\d cut|the cut\b|in the cut|Cut status", text), \
        re.findall(r".{40}(?:top-\d cut|the cut\b|in the cut|Cut status).{20}", text)
    mtg = sf.report(res, rules="mtg", top=3, n_sims=0).html
    assert "<h2>The cut</h2>" in mtg
    assert "The top-3 cut fell at" in _text(mtg)


def test_a_result_is_told_in_the_rulesets_terms() -> None:
    """Pokémon's and chess' tiebreakers read only the match: the advice table's "what
    happened" said "A 1–0" (a game score the file did not mean); MTG's reads games."""
    from swissframe.report._event import _result_text

    final = pl.DataFrame({"player_id": ["A"], "opponent_id": ["B"], "games_won": [2],
                          "games_lost": [1], "games_drawn": [0], "intentional_draw": [False]})
    assert _result_text(final, "A", "B", str, sf.rules.MTG) == "A 2–1"
    assert _result_text(final, "A", "B", str, sf.rules.POKEMON) == "A won"
    assert _result_text(final, "A", "B", str, sf.rules.FIDE) == "A won"


def test_the_page_takes_the_events_own_cut_from_its_playoff() -> None:
    """The page cut every event to a top 8: a file holding the event's playoff (a
    decklist file's Top 8, here a Top 4) says its cut; without one (a chess file, a
    Swiss-only export) 8 stays the default, and ``top=`` wins over both."""
    swiss = sf.read(DATA / "store-championship.csv").results.drop("source_file", strict=False)
    firsts = sf.standings(swiss)["player_id"].to_list()[:4]
    semis = sf.from_matches(pl.DataFrame({
        "event_id": swiss["event_id"][0], "round": 5, "player_a": firsts[:2],
        "player_b": firsts[:1:-1], "games_a": [2, 2], "games_b": [0, 1],
        "games_drawn": [0, 0], "phase": "playoff"}))
    rows = pl.concat([swiss.select(semis.columns), semis], how="vertical_relaxed")
    rep = sf.report(rows, n_sims=0)
    assert rep.top == 4
    assert _text(rep.html).count("top 4 playoff") == 1
    assert "The top-4 cut fell at" in _text(rep.html)
    assert sf.report(swiss, n_sims=0).top == 8
    assert sf.report(rows, n_sims=0, top=2).top == 2


def test_a_chess_season_across_fides_texts_speaks_of_places() -> None:
    """A season of chess events inferred to different FIDE texts (fide, fide-2026) was
    spoken of as a card game's ("cut to the top", "Cut lines against field size", "cut
    line, IDs played out"): rulesets that speak alike are spoken of as one (review)."""
    res = pl.concat([decisive(DE_DECIDES).with_columns(event_id=pl.lit(e), ruleset=pl.lit(r))
                     for e, r in (("a", "fide"), ("b", "fide-2026"))])
    html = sf.report(res, top=3, n_sims=0, season=True).html
    for card in ("cut to the top", "Cut lines against field size", "IDs played out",
                 "top-3 cut"):
        assert card not in html
    assert "the top places: " in html


def test_a_pokemon_page_calls_a_drawn_match_a_tie() -> None:
    """Pokémon's record is W/L/T (TRH §5.3.1): its page headed the standings "W–L–D" and
    said "If they draw" and "could draw in"; the words come from ``Ruleset.draw_word``."""
    from swissframe.report._event import _result_text

    m = pl.DataFrame({
        "round": [1, 1, 1, 2, 2, 2, 3, 3, 3], "player_a": list("ACEAEBAFC"),
        "player_b": list("BDFCDFEBD"), "games_a": [2, 1, 2, 2, 0, 2, 1, 2, 2],
        "games_b": [0, 1, 0, 0, 2, 0, 1, 0, 0], "games_drawn": [0, 1, 0, 0, 0, 0, 1, 0, 0]})
    res = sf.from_matches(m).with_columns(event_id=pl.lit("e"))
    page = _text(sf.report(res, rules="pokemon", top=2, n_sims=0).html)
    assert "W–L–T" in page
    for card_words in ("W–L–D", "If they draw", "could draw in"):
        assert card_words not in page
    assert "W–L–D" in _text(sf.report(res, rules="mtg", top=2, n_sims=0).html)
    final = sf.from_matches(m.filter(pl.col("round") == 3))
    assert _result_text(final, "A", "E", str, sf.rules.POKEMON) == "tie 1–1–1"


def test_a_chess_page_has_no_drawing_in() -> None:
    """A chess event's page said "3 more could draw in" and advised "draw safe for A only"
    (an intentional draw into a playoff; chess has neither): it says who is in with a
    draw, and what a draw does to the places."""
    page = _text(sf.report(decisive(DE_DECIDES).with_columns(event_id=pl.lit("de")),
                           rules="fide", top=2, n_sims=0).html)
    for card_words in ("draw in", "draw safe", "play (a draw"):
        assert card_words not in page, page
    held = (SHARED_ROOT / "data" / "realworld" / "chess-trf" / "OttoMilvang_TieBreakServer"
            / "tests" / "fixtures" / "held_swiss_9.trf")
    if not held.exists():
        pytest.skip(f"shared real-world data not found at {held}")
    page = " ".join(_text(sf.report(str(held), n_sims=0).html).split())
    assert "3 more were in with a draw" in page
    assert "draw in" not in page


@pytest.mark.parametrize(("kwargs", "error", "says"), [
    ({"names": pl.DataFrame({"player_id": [["Kai"]], "name": ["K"]})}, sf.DataError,
     r"names table has mistyped column\(s\): player_id is List\(String\)"),
    ({"names": pl.DataFrame({"player_id": ["Kai"],
                             "name": pl.Series([object()], dtype=pl.Object)})},
     sf.DataError, r"names table has mistyped column\(s\): name is Object"),
    ({"names": pl.DataFrame({"player_id": [dt.date(2026, 1, 1)], "name": ["K"]})},
     sf.DataError, r"names table has mistyped column\(s\): player_id is Date"),
    ({"title": 5}, sf.DataError, r"title must be text, got 5"),
    ({"variants": "mtg"}, sf.DataError, r"variants must be a list of rulesets, got 'mtg'"),
    ({"variants": ["mtg", "nope"]}, sf.RulesetError, r"unknown ruleset 'nope'"),
])
def test_report_arguments_of_the_wrong_kind_are_named(kwargs: dict[str, object],
                                                      error: type[Exception], says: str) -> None:
    """Class 122: a names table whose ids or names have no text form was Polars' bare cast
    error, a number as title a bare ``AttributeError`` when the page was written; a variant
    given as one name (read letter by letter) or unknown only left the page's sensitivity
    section out, with a line on the page. Each is refused before anything is computed."""
    results = pl.read_csv(DATA / "league-night.csv")
    with pytest.raises(error, match=rf"{says}.*Hint: "):
        sf.report(results, n_sims=0, **kwargs)  # type: ignore[arg-type]
    assert sf.report(results, n_sims=0, title="Night", variants=["mtg", "mtg-1/3"],
                     names={"Kai": "Kai K."}).html


def test_names_of_players_the_results_do_not_hold_are_said() -> None:
    """A ``names`` entry whose id no result holds (a typo: ``Kaii``) was left out without
    a word; a names table's rows for an event the input does not hold (a season's table
    given for one event) are not named."""
    import warnings

    results = pl.read_csv(DATA / "league-night.csv")
    with pytest.warns(DataWarning, match=r"names gives 1 player the results do not hold "
                                            r"\('Kaii'\).*Hint: "):
        sf.report(results, n_sims=0, names={"Kai": "Kai K.", "Kaii": "typo"})
    event = results["event_id"][0]
    table = pl.DataFrame({"event_id": [event, event, "another-night"],
                          "player_id": ["Kai", "Nobody", "Whoever"],
                          "name": ["Kai K.", "N", "W"]})
    with pytest.warns(DataWarning, match=r"\('Nobody'\)"):
        sf.report(results, n_sims=0, names=table)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DataWarning)
        sf.report(results, n_sims=0, names={"Kai": "Kai K."})
        sf.report(results, n_sims=0, names=table.filter(pl.col("player_id") != "Nobody"))


def test_season_pages_of_events_named_in_any_script_are_linked(tmp_path: Path) -> None:
    # (pages were named by the ids' ASCII letters: events named in Japanese were "event",
    # "event-x", … — a season of 130 failed with "File name too long"; bad data 168)
    m = pl.DataFrame({"round": [1, 1], "player_a": ["A", "C"], "player_b": ["B", "D"],
                      "games_a": [2, 2], "games_b": [0, 1], "games_drawn": [0, 0]})
    ids = ["東京予選", "大阪予選", "Round up", "round-up"]
    results = pl.concat([sf.from_matches(m).with_columns(event_id=pl.lit(e)) for e in ids])
    rep = sf.report(results, top=2, n_sims=0)
    assert isinstance(rep, SeasonReport)
    folder = rep.save(tmp_path / "season")
    index = (folder / "index.html").read_text()
    hrefs = re.findall(r'href="(events/[^"]+)"', index)
    assert len(set(hrefs)) == 4
    for href in hrefs:  # (each link opens its event's page)
        assert (folder / urllib.parse.unquote(href)).is_file()
    first, second = sorted(p.name for p in (folder / "events").iterdir())[:2]
    assert re.fullmatch(r"round-up-[0-9a-f]{8}\.html", first)
    assert second == "round-up.html"
    assert (folder / "events" / "東京予選.html").is_file()


def test_a_report_prints_one_line() -> None:
    """The dataclasses' own repr printed every table and ruleset: 21 KB for an event of 9
    players, 13 KB for a season of two (bad data 246)."""
    event = sf.report(DATA / "store-championship.csv", n_sims=2)
    assert repr(event) == ("EventReport: 'store-championship', 9 players, rules mtg, top 8 — "
                           ".html, .save(path), .standings, .by_round, .comparison, .status, "
                           ".advice, .sensitivity")
    season = sf.report(DATA, n_sims=2)
    assert repr(season).startswith("SeasonReport: 'Season report: 2 events', 2 events, top 8")
    assert "\n" not in repr(season)


def test_a_kendall_tau_below_one_never_reads_as_one() -> None:
    """The sensitivity table printed τ with three places: a real 1,045-player event's floor
    variant (τ = 0.9996, a few pairs swapped) read "1.000" under "1 = identical order"."""
    import dataclasses

    rep = sf.report(sf.read(DATA / "store-championship.csv").results, top=4, n_sims=0)
    assert rep.sensitivity is not None
    taus = [1.0, 0.99960036, 0.9999927, 0.98] + [0.5] * (rep.sensitivity.height - 4)
    sens = rep.sensitivity.with_columns(kendall_tau=pl.Series(taus[:rep.sensitivity.height]))
    text = _text(dataclasses.replace(rep, sensitivity=sens).html)
    cells = re.findall(r"\s(\d\.\d+|1)\s(?:match points|OMW%|GW%|OGW%|exact tie)", text)
    assert cells[:4] == ["1", "0.9996", "0.99999", "0.98"], cells


def test_a_season_without_playoffs_speaks_of_its_top_places_throughout() -> None:
    """The season page of the real TOM files ("No playoff in the files; showing the top 8
    places") drew its sensitivity heatmap as "Does the top cut depend on the tiebreaker
    rules?" with "Players swapped into the top cut", and headed two columns "top N"."""
    tom = REAL / "pokemon-tom"
    if not tom.is_dir():
        pytest.skip("../shared/data/realworld not found: real-data tests need the shared folder")
    rep = sf.report(tom, n_sims=0)
    assert isinstance(rep, SeasonReport)
    html = rep.html
    assert "No playoff in the files; showing the top 8 places" in _text(html)
    assert "Does the top 8 depend on the tiebreaker rules?" in html
    assert "top cut" not in html
    assert "top N" not in _text(html)


def test_a_season_reads_each_events_rows_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bad data 262: a season's summary and each of its pages filtered the whole table for
    one event, and listed every event to check it: time quadratic in the events (100,000
    events: 85 ms a page before its own work, hours in all). The table is now split by
    event once, so the whole-table filters do not grow with the events: a season of 6
    events filters the whole table as often as one of 3, and its pages are the same."""
    from swissframe.report import SeasonReport

    def season(n: int) -> pl.DataFrame:  # (rows shuffled: the events' rows interleave)
        return (sf.simulate(4, 2, n_events=n, seed=5, id_policy=None).results
                .sample(fraction=1.0, shuffle=True, seed=2))

    def whole_table_filters(df: pl.DataFrame) -> tuple[int, list[str]]:
        real = pl.DataFrame.filter
        seen = [0]

        def counted(self: pl.DataFrame, *args: object, **kwargs: object) -> pl.DataFrame:
            if self.height == df.height and "games_won" in self.columns:  # (the results)
                seen[0] += 1
            return real(self, *args, **kwargs)  # type: ignore[arg-type]

        with monkeypatch.context() as m:
            m.setattr(pl.DataFrame, "filter", counted)
            rep = sf.report(df, season=True, n_sims=10)
            assert isinstance(rep, SeasonReport)
            pages = [e.html for e in rep.events()]
        return seen[0], pages

    three, _ = whole_table_filters(season(3))
    six, pages = whole_table_filters(season(6))
    assert six == three
    df = season(6)
    rep = sf.report(df, season=True, n_sims=10)
    assert pages == [sf.report(df.filter(pl.col("event_id") == e), n_sims=10).html
                     for e in df["event_id"].unique(maintain_order=True).to_list()]
    assert isinstance(rep, SeasonReport)
