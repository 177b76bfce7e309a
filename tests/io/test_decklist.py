"""Tests for swissframe.io.decklist: one hand-written mini file per quirk."""

from __future__ import annotations

import gzip
import shutil
import tempfile
from pathlib import Path

import orjson
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from swissframe.errors import ImportFormatError, ImportNotesWarning
from swissframe.io._files import read
from swissframe.io.decklist import read_decklist_cache
from swissframe.schema import validate_results
from tests.helpers import FIXTURES, SHARED_ROOT, bounded

FIX = FIXTURES / "decklist"
#: an MTGO file of the cache (minimal, synthetic): its rounds are the top-8 playoff alone
MTGO = FIXTURES / "mtgo" / "mtgo-demo-2024-07-13.json"
COLS = ["round", "player_id", "opponent_id", "games_won", "games_lost", "games_drawn"]


def shared_dir() -> Path:
    return SHARED_ROOT


def _one(name: str):
    ev = read_decklist_cache(FIX / f"{name}.json")
    return ev, ev.results.sort("round", "player_id")


def test_all_fixtures_are_contract_valid() -> None:
    ev = read_decklist_cache(str(FIX / "*.json"))
    assert ev.events.height == 9
    validate_results(ev.results).collect()
    assert set(ev.results["phase"].unique()) == {"swiss", "playoff"}
    assert ev.events["event_id"].to_list() == sorted(ev.events["event_id"].to_list())


def test_melee_bye_markers_dash_and_null_and_unopposed_loss() -> None:
    _, r = _one("melee-byes-1-2024-07-13")
    unpaired = r.filter(pl.col("opponent_id").is_null()).select(*COLS, "unplayed").rows()
    assert unpaired == [(1, "C", None, 2, 0, 0, "pairing_bye"),
                        (2, "B", None, 2, 0, 0, "pairing_bye"),
                        (3, "A", None, 0, 2, 0, "forfeit_loss")]


def test_melee_draws_deduplicated_and_reported() -> None:
    ev, r = _one("melee-draws-2-2024-07-13")
    assert r.select(COLS).rows() == [
        (1, "A", "B", 1, 1, 1), (1, "B", "A", 1, 1, 1), (1, "C", "D", 2, 0, 0),
        (1, "D", "C", 0, 2, 0), (2, "A", "C", 0, 0, 3), (2, "B", "D", 1, 2, 0),
        (2, "C", "A", 0, 0, 3), (2, "D", "B", 2, 1, 0)]
    kinds = ev.report["kind"].to_list()
    assert kinds == ["draw_listed_again"] * 3


def _draws_file(tmp_path: Path, uri: str, round1: list[tuple[str, str, str]]) -> Path:
    """The melee-draws fixture with ``uri`` and round 1's matches replaced."""
    data = orjson.loads((FIX / "melee-draws-2-2024-07-13.json").read_bytes())
    data["Tournament"]["Uri"] = uri
    data["Rounds"][0]["Matches"] = [{"Player1": a, "Player2": b, "Result": r}
                                    for a, b, r in round1]
    path = tmp_path / "event-2024-07-13.json"
    path.write_bytes(orjson.dumps(data))
    return path


MELEE = "https://melee.gg/Tournament/View/2"


@pytest.mark.parametrize(("uri", "round1", "warned"), [
    # melee lists a draw once per player: its norm, listed but not warned of
    (MELEE, [("A", "B", "1-1-1"), ("B", "A", "1-1-1"), ("C", "D", "2-0-0")], set()),
    # a decisive match listed twice is not what melee does
    (MELEE, [("A", "B", "1-1-1"), ("C", "D", "2-0-0"), ("C", "D", "2-0-0")],
     {"duplicate_row_removed"}),
    # a draw listed twice with two different results contradicts itself
    (MELEE, [("A", "B", "1-1-1"), ("B", "A", "0-0-3"), ("C", "D", "2-0-0")],
     {"conflicting_duplicate_removed"}),
    # another platform lists a draw once: twice is unusual there
    ("https://mtg.cardsrealm.com/en-us/tournament/x",
     [("A", "B", "1-1-1"), ("B", "A", "1-1-1"), ("C", "D", "2-0-0")],
     {"duplicate_row_removed"}),
])
def test_a_draw_melee_lists_twice_is_noted_not_warned(
        tmp_path: Path, uri: str, round1: list[tuple[str, str, str]], warned: set[str]) -> None:
    import warnings

    import swissframe as sf

    path = _draws_file(tmp_path, uri, round1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        src = sf.read(path)
    said = " ".join(str(w.message) for w in caught)
    assert {k for k in ("duplicate_row_removed", "conflicting_duplicate_removed",
                        "draw_listed_again") if k in said} == warned
    kinds = set(src.notes.filter(pl.col("round") == 1)["kind"])  # (listed all the same)
    assert kinds == (warned or {"draw_listed_again"})


def test_unreported_000_kept_flagged_and_reported() -> None:
    ev, r = _one("melee-unreported-3-2024-07-13")
    flagged = r.filter(pl.col("unreported")).select(COLS).rows()
    assert flagged == [(1, "C", "D", 0, 0, 0), (1, "D", "C", 0, 0, 0)]
    assert ev.report.select("round", "player_id", "kind").rows() == [(1, "C", "unreported_match")]


@pytest.mark.parametrize("name", ["melee-named-playoff-4-2024-07-13",
                                  "melee-numbered-playoff-5-2024-07-13"])
def test_playoff_named_or_numbered_on(name: str) -> None:
    ev, r = _one(name)
    per_round = r.group_by("round").agg(pl.col("phase").first()).sort("round").rows()
    assert per_round == [(1, "swiss"), (2, "swiss"), (3, "playoff"), (4, "playoff")]
    e = ev.events.row(0, named=True)
    assert (e["swiss_rounds"], e["playoff_rounds"], e["playoff_size"]) == (2, 2, 4)
    assert e["structure"] == "2 swiss + top 4 (2 rounds)"


def test_topdeck_match_level_results_and_bye() -> None:
    ev, r = _one("topdeck-demo-abc123-2024-07-13")
    assert not r["games_known"].any()
    byes = r.filter(pl.col("opponent_id").is_null()).select(COLS).rows()
    assert byes == [(1, "E", None, 1, 0, 0), (2, "B", None, 1, 0, 0)]  # "" with 0-0-1; null
    assert r.filter(pl.col("round") == 1, pl.col("player_id") == "C").select(COLS).rows() == [
        (1, "C", "D", 0, 0, 1)]
    assert ev.events["playoff_rounds"].item() == 2
    assert ev.events["source"].item() == "topdeck"


def test_cardsrealm_bye_on_either_seat_and_decimals() -> None:
    ev, r = _one("cardsrealm-demo-2025-01-02")
    byes = r.filter(pl.col("opponent_id").is_null()).select(COLS).rows()
    assert byes == [(1, "C", None, 2, 0, 0), (2, "B", None, 2, 0, 0)]
    assert ev.published["decimals"].unique().to_list() == [3]  # 0.6670000000000001 → 3


def test_manatraders_placement_playoff() -> None:
    ev, r = _one("manatraders-demo-2024-02-29")
    assert r.group_by("round").agg(pl.col("round_name").first(), pl.col("phase").first()).sort(
        "round").select("round_name", "phase").rows() == [
        ("Round 1", "swiss"), ("Semifinals", "playoff"),
        ("Match for 3rd and 4th places", "playoff"), ("Finals", "playoff")]
    assert ev.events["era"].item() is None


def test_duplicate_display_names_disambiguated_and_reported() -> None:
    ev, r = _one("melee-dupnames-9-2024-07-13")
    assert ev.published.select("player_id", "rank").rows() == [
        ("Sam [1]", 1), ("C", 2), ("Sam [2]", 3), ("B", 4)]
    assert r.filter(pl.col("player_id").str.starts_with("Sam")).select(COLS).rows() == [
        (1, "Sam [1]", "B", 2, 0, 0), (1, "Sam [2]", "C", 1, 2, 0)]
    assert ev.report["kind"].to_list() == ["ambiguous_name", "ambiguous_name"]


def test_gz_folder_glob_and_list(tmp_path: Path) -> None:
    src = FIX / "melee-byes-1-2024-07-13.json"
    gz = tmp_path / "sub" / "melee-byes-1-2024-07-13.json.gz"
    gz.parent.mkdir()
    gz.write_bytes(gzip.compress(src.read_bytes()))
    shutil.copy(FIX / "melee-draws-2-2024-07-13.json", tmp_path)
    a = read_decklist_cache(gz)
    b = read_decklist_cache(src)
    assert a.results.equals(b.results.with_columns())
    assert a.events["event_id"].item() == "melee-byes-1-2024-07-13"
    assert read_decklist_cache(tmp_path).events.height == 2
    assert read_decklist_cache(str(tmp_path / "**" / "*.json*")).events.height == 2
    assert read_decklist_cache([gz, tmp_path / "melee-draws-2-2024-07-13.json"]).events.height == 2


def test_parallel_parse_equals_serial(tmp_path: Path) -> None:
    src = (FIX / "melee-draws-2-2024-07-13.json").read_bytes()
    for i in range(70):
        (tmp_path / f"copy-{i:02d}-2024-07-13.json").write_bytes(src)
    serial = read_decklist_cache(tmp_path, workers=1)
    par = read_decklist_cache(tmp_path, workers=2)
    assert serial.results.equals(par.results)
    assert par.events.height == 70


def test_errors_name_event_and_hint(tmp_path: Path) -> None:
    with pytest.raises(ImportFormatError, match=r"bad-result-10.*'2:1'.*Hint"):
        read_decklist_cache(FIX / "bad" / "bad-result-10-2024-07-13.json")
    with pytest.raises(ImportFormatError, match=r"'Bonus Round'.*Hint"):
        read_decklist_cache(FIX / "bad" / "bad-roundname-11-2024-07-13.json")
    with pytest.raises(ImportFormatError, match="no such file"):
        read_decklist_cache(tmp_path / "nope.json")
    (tmp_path / "x-1-2024-01-01.json").write_bytes(b"[1, 2]")
    with pytest.raises(ImportFormatError, match=r"x-1-2024-01-01.*not an object"):
        read_decklist_cache(tmp_path / "x-1-2024-01-01.json")
    (tmp_path / "y-1-2024-01-01.json.gz").write_bytes(b"\x1f\x8bnot gzip")
    with pytest.raises(ImportFormatError, match="cannot read"):
        read_decklist_cache(tmp_path / "y-1-2024-01-01.json.gz")
    d2 = tmp_path / "d2"
    d2.mkdir()
    shutil.copy(FIX / "melee-byes-1-2024-07-13.json", d2)
    (tmp_path / "melee-byes-1-2024-07-13.json.gz").write_bytes(
        gzip.compress((FIX / "melee-byes-1-2024-07-13.json").read_bytes()))
    with pytest.raises(ImportFormatError, match="given twice"):
        read_decklist_cache([d2, tmp_path / "melee-byes-1-2024-07-13.json.gz"])


@settings(max_examples=25, deadline=None)
@given(copies=st.lists(st.tuples(st.integers(1, 3), st.booleans()), min_size=1, max_size=6))
def test_draw_listing_count_and_orientation_do_not_matter(tmp_path_factory: pytest.TempPathFactory,
                                                         copies: list[tuple[int, bool]]) -> None:
    """A draw listed k times in either orientation imports as one mirrored pair."""
    matches = []
    for i, (k, flip) in enumerate(copies):
        a, b = f"P{2 * i}", f"P{2 * i + 1}"
        for j in range(k):
            p1, p2 = (b, a) if (flip and j % 2 == 0) else (a, b)
            matches.append({"Player1": p1, "Player2": p2, "Result": "1-1-1"})
    players = sorted({m["Player1"] for m in matches} | {m["Player2"] for m in matches})
    doc = {"Tournament": {"Date": "2025-01-01", "Name": "h", "Uri": "https://melee.gg/x",
                          "Formats": "x"},
           "Rounds": [{"RoundName": "Round 1", "Matches": matches}],
           "Standings": [{"Rank": i + 1, "Player": p, "Points": 1, "Wins": 0, "Losses": 0,
                          "Draws": 1, "OMWP": 0.5, "GWP": 0.5, "OGWP": 0.5}
                         for i, p in enumerate(players)]}
    path = tmp_path_factory.mktemp("h") / "h-1-2025-01-01.json"
    path.write_bytes(orjson.dumps(doc))
    ev = read_decklist_cache(path)
    assert ev.results.height == 2 * len(copies)
    assert ev.report.height == sum(k - 1 for k, _ in copies)
    validate_results(ev.results).collect()


def test_real_corpus_sample_imports() -> None:
    root = shared_dir() / "data" / "realworld" / "fbettega_MTG_decklistcache" / "Tournaments"
    if not root.is_dir():
        pytest.skip("../shared/data/realworld not found: real-data tests need the shared folder")
    files = sorted(root.glob("*/2024/0[3-4]/0[1-3]/*.json.gz"))
    ev = read_decklist_cache(files)
    validate_results(ev.results).collect()
    assert ev.events.height == len(files)
    assert set(ev.events["source"].unique()) <= {"melee", "topdeck", "cardsrealm", "manatraders"}


@pytest.mark.parametrize(("root", "said"), [(b"null", "null"), (b"[1, 2]", "an array"),
                                            (b"3", "a number"), (b'"x"', "a string")])
def test_a_root_that_is_not_an_object_is_named_in_json_s_words(
        tmp_path: Path, root: bytes, said: str) -> None:
    """(it was named by Python's type: "the root is a NoneType")"""
    path = tmp_path / "x-1-2024-01-01.json"
    path.write_bytes(root)
    with pytest.raises(ImportFormatError, match=rf": the root is {said}, not an object"):
        read_decklist_cache(path)


def test_a_player_given_as_an_object_is_shown_as_json(tmp_path: Path) -> None:
    path = _write(tmp_path, "p-1-2025-01-10", [("Round 1", [("A", "B", "2-0-0")])])
    doc = orjson.loads(path.read_bytes())
    doc["Rounds"][0]["Matches"][0]["Player2"] = {"Name": "B"}
    path.write_bytes(orjson.dumps(doc))
    with pytest.raises(ImportFormatError,
                       match=r'a player is given as an object \{"Name":"B"\}, not a name'):
        read_decklist_cache(path)


def _write(tmp: Path, name: str, rounds: list[tuple[str, list[tuple[str, str, str]]]],
           uri: str = "https://melee.gg/Tournament/View/1") -> Path:
    """A hand-written event: rounds as (name, [(p1, p2, result)]); standings from names."""
    names = sorted({p for _, ms in rounds for m in ms for p in m[:2] if p not in ("-", "")})
    doc = {"Tournament": {"Date": "2025-01-10T10:00:00", "Name": name, "Uri": uri,
                          "Formats": "Modern"},
           "Rounds": [{"RoundName": rn, "Matches": [
               {"Player1": a, "Player2": b, "Result": res} for a, b, res in ms]}
               for rn, ms in rounds],
           "Standings": [{"Rank": i + 1, "Player": p, "Points": 0, "OMWP": 0.5, "GWP": 0.5,
                          "OGWP": 0.5} for i, p in enumerate(names)]}
    path = tmp / f"{name}.json"
    path.write_bytes(orjson.dumps(doc))
    return path


def _phases(ev: object) -> list[tuple[int, str, str]]:
    res = ev.results  # type: ignore[attr-defined]
    return res.select("round", "phase", "stage").unique().sort("round").rows()


def test_knockout_from_round_one_with_byes_is_all_playoff(tmp_path: Path) -> None:
    # 6 players, a bracket of 8: two byes in round 1, then 4 → 2 players.
    r1 = [("A", "B", "2-0-0"), ("C", "D", "2-1-0"), ("E", "-", "2-0-0"), ("F", "-", "2-0-0")]
    r2 = [("A", "E", "2-1-0"), ("C", "F", "0-2-0")]
    r3 = [("A", "F", "2-0-0")]
    ev = read_decklist_cache(_write(tmp_path, "ko-1-2025-01-10",
                                    [("Round 1", r1), ("Round 2", r2), ("Round 3", r3)]))
    assert _phases(ev) == [(1, "playoff", "playoff"), (2, "playoff", "playoff"),
                           (3, "playoff", "playoff")]
    assert ev.events.select("swiss_rounds", "playoff_rounds", "playoff_size").row(0) == (0, 3, 6)


def test_last_round_of_eight_after_swiss_is_swiss_but_a_final_is_playoff(tmp_path: Path
                                                                        ) -> None:
    # 10 players, 2 Swiss rounds; in round 3 only 8 of them play (no draws): a Swiss round
    # that two players skipped, not a one-round "top 8".
    p = [f"P{i}" for i in range(10)]
    r1 = [(p[i], p[i + 1], "2-0-0") for i in range(0, 10, 2)]
    r2 = [(p[0], p[2], "2-1-0"), (p[4], p[6], "2-0-0"), (p[8], p[1], "2-0-0"),
          (p[3], p[5], "2-1-0"), (p[7], p[9], "1-2-0")]
    r3 = [(p[0], p[4], "2-0-0"), (p[8], p[2], "2-1-0"), (p[6], p[3], "2-0-0"),
          (p[5], p[9], "2-0-0")]
    ev = read_decklist_cache(_write(tmp_path, "sw-2-2025-01-10",
                                    [("Round 1", r1), ("Round 2", r2), ("Round 3", r3)]))
    assert [ph for _, ph, _ in _phases(ev)] == ["swiss", "swiss", "swiss"]
    # the same Swiss followed by a final of the two leaders: a one-round playoff
    fin = [(p[0], p[8], "2-1-0")]
    ev = read_decklist_cache(_write(tmp_path, "fin-3-2025-01-10",
                                    [("Round 1", r1), ("Round 2", r2), ("Round 3", fin)]))
    assert [ph for _, ph, _ in _phases(ev)] == ["swiss", "swiss", "playoff"]


def test_topdeck_top_power_is_a_swiss_round(tmp_path: Path) -> None:
    r1 = [("A", "B", "1-0-0"), ("C", "D", "0-0-1"), ("E", "", "0-0-1")]
    tp = [("A", "C", "1-0-0"), ("B", "E", "0-1-0"), ("D", "", "0-0-1")]
    fin = [("A", "E", "1-0-0")]
    ev = read_decklist_cache(_write(
        tmp_path, "td-xyz-2025-01-10", [("1", r1), ("Top Power", tp), ("Top 2", fin)],
        uri="https://topdeck.gg/event/xyz"))
    assert _phases(ev) == [(1, "swiss", "day1"), (2, "swiss", "day1"),
                           (3, "playoff", "playoff")]
    names = ev.results.select("round", "round_name").unique().sort("round").rows()
    assert names == [(1, "1"), (2, "Top Power"), (3, "Top 2")]


def _swiss_rounds(players: list[str], n_rounds: int, first: int = 1,
                  pts: dict[str, int] | None = None
                  ) -> tuple[list[tuple[str, list[tuple[str, str, str]]]], dict[str, int]]:
    """A deterministic Swiss: pair neighbours in the standings, the higher-listed wins."""
    pts = dict.fromkeys(players, 0) if pts is None else dict(pts)
    rounds = []
    for r in range(first, first + n_rounds):
        order = sorted(players, key=lambda p: (-pts[p], players.index(p)))
        ms = [(order[i], order[i + 1], "2-0-0") for i in range(0, len(order) - 1, 2)]
        if len(order) % 2:
            ms.append((order[-1], "-", "2-0-0"))
        for a, _b, _ in ms:
            pts[a] += 3
        rounds.append((f"Round {r}", ms))
    return rounds, pts


@pytest.mark.parametrize(("invited", "cut"), [(0, True), (1, True), (4, False)])
def test_day2_cut_tolerates_a_few_players_from_below(tmp_path: Path, invited: int,
                                                    cut: bool) -> None:
    # 32 players, 4 rounds: 10 players reach 9+ points. Day 2 (rounds 5-6): those 10 plus
    # `invited` 6-point players. One or two invited players below the threshold (melee.gg's
    # Champions Cup Finals) still make a Day-2 cut; four of 22 (18%) is ordinary attrition.
    players = [f"P{i:02d}" for i in range(32)]
    day1, pts = _swiss_rounds(players, 4)
    assert sorted(pts.values()).count(9) + sorted(pts.values()).count(12) == 10
    on = [p for p in players if pts[p] >= 9]
    on += [p for p in players if pts[p] == 6][:invited]
    day2, _ = _swiss_rounds(on, 2, first=5, pts={p: pts[p] for p in on})
    ev = read_decklist_cache(_write(tmp_path, f"cut-{invited}-2025-01-10", day1 + day2))
    stages = [st for _, _, st in _phases(ev)]
    assert stages == (["day1"] * 4 + ["day2"] * 2 if cut else ["day1"] * 6)


@pytest.mark.parametrize("value", ["NaN", "inf", "-Infinity"])
def test_published_nan_or_infinity_is_refused_not_stored(tmp_path: Path, value: str) -> None:
    """A published ``"NaN"`` used to be stored as NaN (issue 16 class 11)."""
    path = _write(tmp_path, "melee-nan-1-2024-07-13", [("Round 1", [("A", "B", "2-0-0")])])
    doc = orjson.loads(path.read_bytes())
    doc["Standings"][0]["OMWP"] = value
    path.write_bytes(orjson.dumps(doc))
    with pytest.raises(ImportFormatError, match=r"OMWP is .*not a finite number"):
        read_decklist_cache([path])


def test_a_byte_order_mark_is_read_past(tmp_path: Path) -> None:
    """UTF-8 with or without BOM (docs/bad-data.md): a file a Windows editor saved with
    one was sniffed as a decklist, then refused by the JSON parser."""
    plain = _write(tmp_path, "bom-1-2025-01-10", [("Round 1", [("A", "B", "2-0-0")])])
    marked = tmp_path / "marked" / plain.name
    marked.parent.mkdir()
    marked.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    got, want = read_decklist_cache(marked), read_decklist_cache(plain)
    assert got.results.equals(want.results)


def test_a_round_numbered_past_int64_is_named(tmp_path: Path) -> None:
    path = _write(tmp_path, "huge-1-2025-01-10",
                  [("Round 99999999999999999999", [("A", "B", "2-0-0")])])
    with pytest.raises(ImportFormatError, match=r"round name 'Round 9+'.*Hint"):
        read_decklist_cache(path)


@pytest.mark.parametrize("digit", ["١", "４"])
def test_a_round_or_result_in_other_digits_than_ascii_is_named(tmp_path: Path,
                                                               digit: str) -> None:
    """"Round ١" matched the regex ``\\d`` and then failed the integer cast: "conversion
    from str to i64 failed in column 'round_name'", no file, no hint. Digits are ASCII
    0-9 in every reader (as in a CSV cell: schema.whole_numbers)."""
    path = _write(tmp_path, "arabic-1-2025-01-10",
                  [(f"Round {digit}", [("A", "B", "2-0-0")])])
    with pytest.raises(ImportFormatError, match=rf"round name 'Round {digit}' \(round #1 in "
                                                r"the file\) is numbered in digits other than "
                                                r"ASCII 0-9 .*Hint: write the round names"):
        read_decklist_cache(path)
    result = _write(tmp_path, "result-1-2025-01-10",
                    [("Round 1", [("A", "B", f"{digit}-0-0")])])
    with pytest.raises(ImportFormatError, match=rf"'A' vs 'B' has result '{digit}-0-0'"):
        read_decklist_cache(result)


def test_a_self_paired_match_is_removed_and_reported_as_such(tmp_path: Path) -> None:
    """A decklist match of a player against themself was removed as
    ``duplicate_seat_removed`` ("a player of it already has a match in this round"),
    which it is not; it is now ``self_pairing_removed``, and the others are kept."""
    r1 = [("A", "A", "2-0-0"), ("B", "C", "2-1-0")]
    ev = read_decklist_cache(_write(tmp_path, "selfie-1-2025-01-10", [("Round 1", r1)]))
    assert ev.report.filter(pl.col("kind") != "not_in_rounds").select(
        "kind", "player_id", "detail").rows() == [
        ("self_pairing_removed", "A", "A vs A (2-0-0) removed: a player paired with themself")]
    assert sorted(ev.results["player_id"].to_list()) == ["B", "C"]


def test_a_part_given_twice_or_mistyped_is_refused(tmp_path: Path) -> None:
    """A root key given twice (``"Rounds": [...], "Rounds": []``) lost the first without a
    word: JSON parsers keep the last. A ``Tournament`` given as a list was read as no
    details at all (while a mistyped ``Rounds`` is refused). Both are named; a player
    named like a part is no repeated key."""
    good = _write(tmp_path, "twice-1-2025-01-10", [("Round 1", [("A", "B", "2-0-0")])])
    text = good.read_text()
    twice = tmp_path / "twice-2-2025-01-10.json"
    twice.write_text(text[:-1] + ', "Rounds": []}')
    with pytest.raises(ImportFormatError, match=r"holds 'Rounds' more than once"):
        read_decklist_cache(twice)
    listed = tmp_path / "listed-1-2025-01-10.json"
    listed.write_text(text.replace('"Tournament":{', '"Tournament":[{', 1)
                      .replace('},"Rounds"', '}],"Rounds"', 1))
    with pytest.raises(ImportFormatError, match="'Tournament', 'Rounds' or 'Standings'"):
        read_decklist_cache(listed)
    named = _write(tmp_path, "named-1-2025-01-10", [("Round 1", [("Rounds", "B", "2-0-0")])])
    assert "Rounds" in read_decklist_cache(named).results["player_id"].to_list()


@pytest.mark.parametrize("standings", ["null", "missing", "empty"])
def test_a_file_without_published_standings_is_read_from_its_rounds(
        tmp_path: Path, standings: str) -> None:
    """``"Standings": null`` (or no key) was refused as a mistyped file although its
    rounds are whole; an empty list gave one ``not_in_standings`` note per player. The
    results are read, with one note saying there is nothing to compare."""
    doc = orjson.loads((FIX / "melee-byes-1-2024-07-13.json").read_bytes())
    if standings == "missing":
        del doc["Standings"]
    else:
        doc["Standings"] = None if standings == "null" else []
    path = tmp_path / "melee-byes-1-2024-07-13.json"
    path.write_bytes(orjson.dumps(doc))
    ev = read_decklist_cache(path)
    assert ev.results.equals(read_decklist_cache(FIX / "melee-byes-1-2024-07-13.json").results)
    assert ev.published.height == 0
    assert ev.report.select("round", "player_id", "kind", "detail").rows() == [
        (None, None, "no_standings", "the file publishes no standings ('Standings' empty, "
         "null or missing): its 3 players are ranked from the rounds, with nothing to compare")]


@pytest.mark.parametrize(("date", "said"), [
    ("13/07/2024", "'Tournament.Date' is '13/07/2024', not a date (YYYY-MM-DD…)"),
    (20240713, "'Tournament.Date' is '20240713', not a date (YYYY-MM-DD…)"),
    (None, "the file gives no date ('Tournament.Date' missing)")])
def test_a_melee_or_cardsrealm_file_without_a_readable_date_is_said(
        tmp_path: Path, date: object, said: str) -> None:
    """Class 78: the event's date chooses the platform's tiebreaker era (its ruleset); a
    date that did not read (another format, a number, none) was taken as none and the era
    chosen without it, silently (a TRF's unreadable 042 date was already said, class
    42). A note says so; a file with its date has none."""
    for fixture in ("melee-byes-1-2024-07-13.json", "cardsrealm-demo-2025-01-02.json"):
        doc = orjson.loads((FIX / fixture).read_bytes())
        doc["Tournament"]["Date"] = date
        path = tmp_path / fixture
        path.write_bytes(orjson.dumps(doc))
        notes = read_decklist_cache(path).report.filter(pl.col("kind") == "unreadable_date")
        assert notes["detail"].to_list() == [
            f"{said}; the platform's tiebreaker era, and so the ruleset, is chosen without "
            "it (--rules, or rules= in Python, chooses one)"], fixture
        assert read_decklist_cache(FIX / fixture).report.filter(
            pl.col("kind") == "unreadable_date").height == 0


def test_rounds_null_is_no_round_and_a_file_without_rounds_is_refused(tmp_path: Path) -> None:
    doc = orjson.loads((FIX / "melee-byes-1-2024-07-13.json").read_bytes())
    doc["Rounds"] = None
    path = tmp_path / "melee-byes-1-2024-07-13.json"
    path.write_bytes(orjson.dumps(doc))
    ev = read_decklist_cache(path)
    assert ev.results.height == 0
    assert ev.report["kind"].unique().to_list() == ["not_in_rounds"]
    del doc["Rounds"]
    path.write_bytes(orjson.dumps(doc))
    with pytest.raises(ImportFormatError, match=r"the root object has no 'Rounds'.*Hint"):
        read_decklist_cache(path)


@pytest.mark.parametrize("name", [None, "missing"])
def test_a_round_without_a_name_is_said_so(tmp_path: Path, name: str | None) -> None:
    """A null ``RoundName`` was named 'None' in the error (``str(None)``)."""
    doc = orjson.loads((FIX / "melee-byes-1-2024-07-13.json").read_bytes())
    if name is None:
        doc["Rounds"][1]["RoundName"] = None
    else:
        del doc["Rounds"][1]["RoundName"]
    path = tmp_path / "melee-byes-1-2024-07-13.json"
    path.write_bytes(orjson.dumps(doc))
    with pytest.raises(ImportFormatError, match=r"a round without a RoundName \(round #2 in "
                       r"the file\) is neither numbered.*Hint"):
        read_decklist_cache(path)


@pytest.mark.parametrize("text", ["1_0", "١", "0.٥"])
def test_a_published_number_in_text_is_read_in_ascii_digits(tmp_path: Path, text: str) -> None:
    """Class 79: float() read a published OMWP "1_0" as 10 and "١" as 1; a number written
    as text is read in ASCII digits (a sign, a fraction, an exponent), as a CSV cell is."""
    doc = orjson.loads((FIX / "melee-byes-1-2024-07-13.json").read_bytes())
    doc["Standings"][0]["OMWP"] = text
    path = tmp_path / "melee-byes-1-2024-07-13.json"
    path.write_bytes(orjson.dumps(doc))
    with pytest.raises(ImportFormatError, match=rf"standings row #1 .*: OMWP is '{text}', not "
                       "a number"):
        read_decklist_cache(path)
    doc["Standings"][0]["OMWP"] = " 0.25 "
    path.write_bytes(orjson.dumps(doc))
    assert read_decklist_cache(path).published["omwp"][0] == 0.25


def _pairs_text(node: object, blank: str = "") -> str:
    """JSON text of ``node``, where a list of (key, value) tuples is an object: so that a
    key can be written twice (``blank`` between each key and its colon)."""
    if isinstance(node, list) and node and all(isinstance(x, tuple) for x in node):
        return "{" + ",".join(f"{orjson.dumps(k).decode()}{blank}:{_pairs_text(v, blank)}"
                              for k, v in node) + "}"
    if isinstance(node, list):
        return "[" + ",".join(_pairs_text(x, blank) for x in node) + "]"
    return orjson.dumps(node).decode()


def _layout_doc(match: list[tuple[str, object]] | None = None,
                row: list[tuple[str, object]] | None = None,
                card: list[tuple[str, object]] | None = None) -> list[tuple[str, object]]:
    """A file in the corpus's layout (Tournament, Decks, Rounds, Standings) as pairs."""
    tour = [("Date", "2024-07-13T15:00:00"), ("Name", "Twice"),
            ("Uri", "https://melee.gg/Tournament/View/7"), ("Formats", "Modern")]
    decks = [[("Player", p), ("Result", "1st Place"),
              ("Mainboard", [card or [("Count", 4), ("CardName", "Island")]]),
              ("Sideboard", [])] for p in ("A", "B")]
    rounds = [[("RoundName", "Round 1"), ("Matches", [
        match or [("Player1", "A"), ("Player2", "B"), ("Result", "2-1-0")],
        [("Player1", "C"), ("Player2", "-"), ("Result", "2-0-0")]])]]
    standings = [row or [("Rank", 1), ("Player", "A"), ("Points", 3)],
                 [("Rank", 2), ("Player", "C"), ("Points", 3)],
                 [("Rank", 3), ("Player", "B"), ("Points", 0)]]
    return [("Tournament", tour), ("Decks", decks), ("Rounds", rounds),
            ("Standings", standings)]


@pytest.mark.parametrize(("doc", "said"), [
    (_layout_doc(match=[("Player1", "A"), ("Player2", "B"), ("Result", "2-1-0"),
                        ("Result", "0-2-0")]),
     r"round 'Round 1', match #1 \('A' vs 'B'\) holds 'Result' more than once "
     r"\('2-1-0', then '0-2-0'\)"),
    (_layout_doc(match=[("Player1", "A"), ("Player2", "B"), ("Player1", "D"),
                        ("Result", "2-1-0")]),
     r"match #1 \('D' vs 'B'\) holds 'Player1' more than once \('A', then 'D'\)"),
    (_layout_doc(row=[("Rank", 1), ("Player", "A"), ("Points", 3), ("Points", 0)]),
     r"standings row #1 \(player 'A'\) holds 'Points' more than once \(3, then 0\)"),
    ([("Tournament", [("Date", "2024-07-13"), ("Date", "2024-07-14")]),
      *_layout_doc()[1:]],
     r"'Tournament' holds 'Date' more than once \('2024-07-13', then '2024-07-14'\)"),
    ([*_layout_doc()[:2], ("Rounds", [[("RoundName", "Round 1"), ("Matches", []),
                                       ("RoundName", "Round 2"), ("Matches", [])]]),
      _layout_doc()[3]],
     r"round 'Round 2' holds 'RoundName' more than once \('Round 1', then 'Round 2'\)"),
])
@pytest.mark.parametrize("blank", ["", " ", "\n\t"])
def test_a_key_given_twice_in_an_object_read_is_refused(
        tmp_path: Path, doc: list[tuple[str, object]], said: str, blank: str) -> None:
    """A match holding ``Result`` twice (or a standings row ``Points``, a round
    ``RoundName``, ``Tournament`` a ``Date``) was read with the last, without a word:
    orjson keeps the last of a repeated key. Refused, naming the file, event, round and
    players, with blanks before the colon too (class 93)."""
    path = tmp_path / "twice-7-2024-07-13.json"
    path.write_text(_pairs_text(doc, blank))
    with pytest.raises(ImportFormatError, match=said) as exc:
        read_decklist_cache(path)
    text = str(exc.value)
    assert text.startswith("event 'twice-7-2024-07-13': ")
    assert "twice-7-2024-07-13.json: " in text
    assert "(a JSON parser keeps the last, silently)" in text


def test_a_key_spelled_with_an_escape_is_the_same_key(tmp_path: Path) -> None:
    """``"Res\\u0075lt"`` is the key ``Result``: the screen that finds a file whose bytes
    may repeat a key does not look for the key's bytes alone."""
    text = _pairs_text(_layout_doc())
    text = text.replace('"Result":"2-1-0"', '"Result":"2-1-0","Res\\u0075lt":"0-2-0"', 1)
    path = tmp_path / "escaped-7-2024-07-13.json"
    path.write_text(text)
    with pytest.raises(ImportFormatError, match=r"holds 'Result' more than once"):
        read_decklist_cache(path)


@pytest.mark.parametrize("carrier", ['"Decks"', '["Decks"]', '{"Decks":1}'])
def test_a_decks_text_in_tournament_does_not_hide_its_repeated_keys(
        tmp_path: Path, carrier: str) -> None:
    """A ``Tournament`` key given twice whose first (overwritten) value spells ``"Decks"``
    ended the screen's counted stretch early (it took the first ``"Decks"`` bytes for the
    root key): the repeated ``Date`` was read as the last, without a word, and chose the
    platform's era (found by review)."""
    path = tmp_path / "melee-x-1-2024-08-01.json"
    path.write_text(
        '{"Tournament":{"Date":"2024-03-01T10:00:00","Name":' + carrier + ',"Name":"Open",'
        '"Date":"2024-08-01T10:00:00","Uri":"https://melee.gg/Tournament/View/1",'
        '"Formats":"Modern"},"Decks":[],"Rounds":[{"RoundName":"Round 1","Matches":['
        '{"Player1":"A","Player2":"B","Result":"2-1-0"}]}],"Standings":[{"Rank":1,'
        '"Player":"A","Points":3},{"Rank":2,"Player":"B","Points":0}]}')
    with pytest.raises(ImportFormatError, match=r"'Tournament' holds '(Date|Name)' more "
                       r"than once"):
        read_decklist_cache(path)


def _screened(text: str) -> tuple[str, bool]:
    """The exact reading's finding on ``text`` and whether the byte screen passes it."""
    from swissframe.io import decklist

    data = text.encode()
    return decklist._twice_exact(data), decklist._no_key_twice(data, orjson.loads(data))


_TOUR = _layout_doc()[0]
_DECKS, _ROUNDS, _STANDINGS = _layout_doc()[1:]
_OTHER_TOUR = ("Tournament", [("Date", "2024-08-01T10:00:00"), ("Name", "Twice"),
                              ("Uri", "https://melee.gg/Tournament/View/7"),
                              ("Formats", "Modern")])


@pytest.mark.parametrize(("doc", "said"), [
    # the root's Tournament again among the decklists' bytes (between "Decks" and "Rounds"),
    # with the same value or another one: the parsed order is still the corpus's layout
    ([_TOUR, _DECKS, _TOUR, _ROUNDS, _STANDINGS], "the root object holds 'Tournament'"),
    ([_TOUR, _DECKS, _OTHER_TOUR, _ROUNDS, _STANDINGS], "the root object holds 'Tournament'"),
    ([_TOUR, _DECKS, _OTHER_TOUR, _DECKS, _ROUNDS, _STANDINGS],
     "the root object holds 'Tournament'"),
    # ... after the rounds or the standings
    ([_TOUR, _DECKS, _ROUNDS, _OTHER_TOUR, _STANDINGS], "the root object holds 'Tournament'"),
    ([_TOUR, _DECKS, _ROUNDS, _STANDINGS, _OTHER_TOUR], "the root object holds 'Tournament'"),
    # Rounds or Standings again, the first one empty or not
    ([_TOUR, _DECKS, ("Rounds", []), _ROUNDS, _STANDINGS], "the root object holds 'Rounds'"),
    ([_TOUR, _DECKS, _ROUNDS, _STANDINGS, _ROUNDS], "the root object holds 'Rounds'"),
    ([_TOUR, _DECKS, _ROUNDS, ("Standings", []), _STANDINGS],
     "the root object holds 'Standings'"),
    # a decklist naming a player or a card "Rounds", "Tournament" or "Decks", or holding a
    # key "Rounds" (a "Rounds" text found before the root's key), and a match repeating
    # Result
    (_layout_doc(card=[("Count", 4), ("CardName", "Rounds")],
                 match=[("Player1", "A"), ("Player2", "B"), ("Result", "2-1-0"),
                        ("Result", "0-2-0")]), "holds 'Result' more than once"),
    (_layout_doc(card=[("Count", 4), ("Rounds", [[("RoundName", "Round 1"),
                                                   ("Matches", [])]])],
                 row=[("Rank", 1), ("Player", "A"), ("Points", 3), ("Points", 0)]),
     "holds 'Points' more than once"),
    # a "Rounds" text after the root's key (a player): the stretch starts at the first
    (_layout_doc(match=[("Player1", "A"), ("Player2", "B"), ("Result", "2-1-0"),
                        ("Result", "0-2-0")],
                 row=[("Rank", 1), ("Player", "Rounds"), ("Points", 3)]),
     "holds 'Result' more than once"),
    (_layout_doc(card=[("Count", 4), ("CardName", "Tournament"), ("Decks", "Decks")],
                 match=[("Player1", "A"), ("Player2", "B"), ("Player2", "Decks"),
                        ("Result", "2-1-0")]), "holds 'Player2' more than once"),
])
@pytest.mark.parametrize("blank", ["", " ", "\n  "])
def test_a_repeat_hidden_from_the_counted_stretches_is_found(
        tmp_path: Path, doc: list[tuple[str, object]], said: str, blank: str) -> None:
    """The repeated-key screen counts keys only before ``"Decks"`` and from the first
    ``"Rounds"`` after it on (class 93): a root key written again among the decklists'
    bytes, or a ``"Rounds"`` text there, must not hide a repeat. The screen does not pass
    the file (the exact reading finds the repeat), and the reader refuses it."""
    text = _pairs_text(doc, blank)
    found, passed = _screened(text)
    assert found, text
    assert not passed, text
    path = tmp_path / "hidden-7-2024-07-13.json"
    path.write_text(text)
    with pytest.raises(ImportFormatError, match=said):
        read_decklist_cache(path)


@pytest.mark.parametrize("text", [
    # a root key spelled with an escape: not found by its bytes
    _pairs_text([_TOUR, _DECKS, ("Tourney", _OTHER_TOUR[1]), _ROUNDS, _STANDINGS]).replace(
        '"Tourney":', '"Tourn\\u0061ment":', 1),
    _pairs_text([_TOUR, _DECKS, _ROUNDS, _STANDINGS]).replace(
        '"Rounds":', '"Rounds":[],"R\\u006funds":', 1),
    _pairs_text([_TOUR, _DECKS, _ROUNDS, _STANDINGS]).replace(
        '"Decks":', '"D\\u0065cks":[],"Tournament":{},"Decks":', 1),
    # "Decks" in a Tournament key, value or escaped text before the root's key
    _pairs_text([_TOUR, _DECKS, _OTHER_TOUR, _ROUNDS, _STANDINGS]).replace(
        '"Name":"Twice"', '"Name":"\\"Decks\\""', 1),
    _pairs_text([_TOUR, _DECKS, _OTHER_TOUR, _ROUNDS, _STANDINGS]).replace(
        '"Name":"Twice"', '"\\"Decks":"x"', 1),
])
def test_a_root_key_in_another_spelling_hides_no_repeat(text: str) -> None:
    """A root key written with a ``\\u`` escape, or ``"Decks"`` inside a text or key of
    ``Tournament``, is not where the screen's byte searches look: it does not pass such a
    file, whose repeat the exact reading finds."""
    assert orjson.loads(text.encode())  # (valid JSON)
    found, passed = _screened(text)
    assert found, text
    assert not passed, text


@pytest.mark.parametrize("card", ["Rounds", "Tournament", "Decks", '"Rounds":[', "\\"])
def test_a_file_repeating_no_key_read_is_read_whatever_its_decklists_say(
        tmp_path: Path, card: str) -> None:
    """A decklist naming a card like a root key (or holding one of its bytes) repeats no
    key the reader reads: the screen may leave it to the exact reading, which reads it."""
    text = _pairs_text(_layout_doc(card=[("Count", 4), ("CardName", card)]), "\n ")
    found, _ = _screened(text)
    assert not found
    path = tmp_path / "cards-8-2024-07-13.json"
    path.write_text(text)
    assert read_decklist_cache(path).results.height == 3


def test_nesting_too_deep_to_check_is_refused_not_read(tmp_path: Path) -> None:
    """orjson reads 1,024 levels of nesting, Python's json (the exact reading of repeated
    keys) about 990: its RecursionError was taken for "no key twice", and a match holding
    ``Result`` twice was read as the last (found by review). Refused, naming the file."""
    deep = "[" * 1000 + "]" * 1000
    path = tmp_path / "melee-deep-1-2024-07-13.json"
    path.write_text(
        '{"Tournament":{"Date":"2024-07-13","Name":"N","Uri":"https://melee.gg/Tournament/'
        'View/1","Formats":"Modern"},"Decks":[' + deep + '],"Rounds":[{"RoundName":"Round 1",'
        '"Matches":[{"Player1":"A","Player2":"B","Result":"2-1-0","Result":"0-2-0"}]}],'
        '"Standings":[{"Rank":1,"Player":"A","Points":3},{"Rank":2,"Player":"B","Points":0}]}')
    with pytest.raises(ImportFormatError, match=r"melee-deep-1-2024-07-13\.json: its values "
                       r"are nested too deeply"):
        read_decklist_cache(path)


def test_an_object_of_many_keys_repeating_one_is_checked_in_linear_time(
        tmp_path: Path) -> None:
    """The exact reading grouped an object's values by key with a count per key: 40,000
    keys took 23 s, so 100,000 would take minutes (found by review). One pass: the 1 MB
    object is read in about a second (a hang detector's bound, not a timing)."""
    card = "{" + ",".join(f'"k{i}":0' for i in range(100_000)) + ',"k0":1}'
    path = tmp_path / "wide-1-2024-07-13.json"
    path.write_text(
        '{"Tournament":{"Date":"2024-07-13","Name":"N","Uri":"https://melee.gg/x",'
        '"Formats":"Modern"},"Decks":[],"X":[' + card + '],"Rounds":[{"RoundName":"Round 1",'
        '"Matches":[{"Player1":"A","Player2":"B","Result":"2-1-0"}]}],"Standings":[{"Rank":1,'
        '"Player":"A","Points":3},{"Rank":2,"Player":"B","Points":0}]}')
    assert bounded(lambda: read_decklist_cache(path), timeout=60).results.height == 2


def test_a_key_twice_where_nothing_is_read_is_no_error(tmp_path: Path) -> None:
    """A decklist's card holding ``Count`` twice changes nothing the reader reads: read, as
    is a player or a card named like a key."""
    path = tmp_path / "cards-7-2024-07-13.json"
    path.write_text(_pairs_text(_layout_doc(
        card=[("Count", 4), ("Count", 3), ("CardName", "Result")],
        match=[("Player1", "Result"), ("Player2", "B"), ("Result", "2-1-0")])))
    ev = read_decklist_cache(path)
    assert sorted(ev.results["player_id"].unique().to_list()) == ["B", "C", "Result"]


def test_event_ids_are_text_in_text_order(tmp_path: Path) -> None:
    """``_assemble`` codes ``event_id`` while it works (an ``Enum`` in the ids' text order):
    the four tables hold text, sorted as text (``"a-b"`` before ``"a.b"`` before ``"a"``+
    ``"é"``), and an error of one file still names its path."""
    names = ["a.b-1-2025-01-10", "a-b-1-2025-01-10", "é-1-2025-01-10", "Z-1-2025-01-10"]
    for name in names:
        _write(tmp_path, name, [("Round 1", [("A", "B", "2-0-0")])])
    ev = read_decklist_cache(tmp_path)
    for table in (ev.results, ev.published, ev.events):
        assert table.schema["event_id"] == pl.String
        assert table["event_id"].unique(maintain_order=True).to_list() == sorted(names)
    bad = _write(tmp_path, "bad-1-2025-01-10", [("Round x", [("A", "B", "2-0-0")])])
    with pytest.raises(ImportFormatError, match=rf"^{bad}: event 'bad-1-2025-01-10': round "
                       "name 'Round x'"):
        read_decklist_cache(tmp_path)


def test_a_published_value_out_of_range_is_reported_and_kept(tmp_path: Path) -> None:
    """A published place below 1, a negative count or a rate outside 0-1 (real melee.gg
    files publish a GWP of -0.2) was kept without a word, and a mismatch it caused looked
    like ours: each is a ``published_out_of_range`` note naming the event, the player and
    the value, and the value stays as published (found by the sixth bad-data pass)."""
    path = _write(tmp_path, "odd", [("Round 1", [("A", "B", "2-0-0")])])
    doc = orjson.loads(path.read_bytes())
    doc["Standings"][0] |= {"Rank": -1, "GWP": -0.2}
    doc["Standings"][1] |= {"Points": -3, "OGWP": 1.5}
    path.write_bytes(orjson.dumps(doc))
    ev = read_decklist_cache(path)
    notes = ev.report.filter(pl.col("kind") == "published_out_of_range")
    assert sorted(zip(notes["player_id"], notes["detail"], strict=True)) == [
        ("A", "the published standings give gwp -0.2, outside 0–1: kept as published "
              "(compared as given)"),
        ("A", "the published standings give rank -1, below 1: kept as published (compared "
              "as given)"),
        ("B", "the published standings give ogwp 1.5, outside 0–1: kept as published "
              "(compared as given)"),
        ("B", "the published standings give points -3, below 0: kept as published "
              "(compared as given)")]
    assert ev.published.sort("player_id")["rank"].to_list() == [-1, 2]
    fine = read_decklist_cache(_write(tmp_path, "fine", [("Round 1", [("A", "B", "2-0-0")])]))
    assert fine.report.filter(pl.col("kind") == "published_out_of_range").height == 0



def test_a_shared_published_rank_is_noted_and_kept(tmp_path: Path) -> None:
    """Class 152: published standings giving two players one rank (13 ranks of 4 real
    melee.gg events) were read without a word: a tie the platform published, or the
    file's error. Each such player gets a ``published_shared_rank`` note naming the
    others, the rank stays as published; the file and event are named where ``read``
    says its notes."""
    players = [("A", "B", "2-0-0"), ("C", "D", "2-1-0"), ("E", "F", "1-2-0"),
               ("G", "H", "0-2-0")]
    path = _write(tmp_path, "tie-1-2025-01-10", [("Round 1", players)])
    doc = orjson.loads(path.read_bytes())
    for row, rank in zip(doc["Standings"], [1, 2, 2, 4, 5, 5, 5, 5], strict=True):
        row["Rank"] = rank
    doc["Standings"][3]["Rank"] = None  # (no rank published: nothing shared)
    doc["Standings"][4]["Rank"] = 4
    path.write_bytes(orjson.dumps(doc))
    ev = read_decklist_cache(path)
    notes = ev.report.filter(pl.col("kind") == "published_shared_rank").sort("player_id")
    assert notes["player_id"].to_list() == ["B", "C", "F", "G", "H"]
    assert notes["detail"].to_list()[:2] == [
        "the published standings give rank 2 to 2 players (B, C): read as written (a tie "
        "the platform published, or the file's error)"] * 2
    assert notes["detail"][2].startswith("the published standings give rank 5 to 3 players "
                                         "(F, G, H): ")
    assert ev.published.sort("player_id")["rank"].to_list() == [1, 2, 2, None, 4, 5, 5, 5]
    with pytest.warns(ImportNotesWarning, match=r"tie-1-2025-01-10\.json, event "
                      r"'tie-1-2025-01-10', player 'B': the published standings give rank 2 "
                      r"to 2 players \(B, C\)"):
        src = read(path)
    assert set(src.notes.filter(pl.col("kind") == "published_shared_rank")["file"]) == {
        str(path)}
    # a long tie names a few and says there are more
    for row in doc["Standings"]:
        row["Rank"] = 1
    path.write_bytes(orjson.dumps(doc))
    details = read_decklist_cache(path).report.filter(
        pl.col("kind") == "published_shared_rank")["detail"]
    assert details.len() == 8
    assert set(details) == {"the published standings give rank 1 to 8 players (A, B, C, D, "
                            "…): read as written (a tie the platform published, or the "
                            "file's error)"}


@settings(max_examples=50, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ranks=st.lists(st.one_of(st.none(), st.integers(1, 5)), min_size=2, max_size=8))
def test_the_players_noted_are_those_sharing_a_rank(ranks: list[int | None]) -> None:
    """Class 152: the players of a shared-rank note are exactly those whose published
    rank another player has; the ranks are kept as published."""
    names = [f"P{i}" for i in range(len(ranks))]
    doc = {"Tournament": {"Date": "2025-01-10T10:00:00", "Name": "t", "Formats": "Modern",
                          "Uri": "https://melee.gg/Tournament/View/1"},
           "Rounds": [{"RoundName": "Round 1", "Matches": [
               {"Player1": names[i], "Player2": names[i + 1] if i + 1 < len(names) else "-",
                "Result": "2-0-0"} for i in range(0, len(names), 2)]}],
           "Standings": [{"Rank": r, "Player": p, "Points": 3, "OMWP": 0.5, "GWP": 0.5,
                          "OGWP": 0.5} for r, p in zip(ranks, names, strict=True)]}
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "t-1-2025-01-10.json"
        path.write_bytes(orjson.dumps(doc))
        ev = read_decklist_cache(path)
    noted = set(ev.report.filter(pl.col("kind") == "published_shared_rank")["player_id"])
    assert noted == {p for p, r in zip(names, ranks, strict=True)
                     if r is not None and ranks.count(r) > 1}
    assert dict(ev.published.select("player_id", "rank").iter_rows()) == dict(
        zip(names, ranks, strict=True))

@pytest.mark.parametrize(("result", "bad"), [
    ("3-0-0", True), ("0-3-0", True), ("2-2-0", True), ("3-2-0", True), ("1-3-0", True),
    ("2-1-0", False), ("2-0-1", False), ("1-0-0", False), ("1-1-1", False), ("0-0-3", False),
])
def test_an_impossible_score_is_noted_at_read_time(tmp_path: Path, result: str,
                                                    bad: bool) -> None:
    """Class 134: a game-level result no best-of-three match ends with ("3-0-0": 172
    matches of the real melee.gg files) was read without a word; only ``validate``
    reported it. The reader notes it (``impossible_score``, by ``validate``'s own rule),
    and ``sf.read`` warns of it naming file, event, round and player, as of its other
    notes; ``validate`` lists the match once, as its own ``impossible_score``."""
    import warnings

    import swissframe as sf

    path = _write(tmp_path, "ev", [("Round 1", [("A", "B", result), ("C", "D", "2-0-0")])])
    ev = read_decklist_cache(path)
    noted = ev.report.filter(pl.col("kind") == "impossible_score")
    assert noted.height == bad
    if bad:
        assert noted.select("round", "player_id").row(0) == (1, "A")
        assert f"A vs B reads {result}, not a possible best-of-3 result" in noted["detail"][0]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        src = sf.read(path)
    said = [str(w.message) for w in caught if "impossible_score" in str(w.message)]
    assert len(said) == bad
    if bad:
        assert "ev.json, event 'ev', round 1, player 'A'" in said[0]
        assert "Hint: " in said[0]
    kinds = sf.validate(src).problems.filter(pl.col("round") == 1)["kind"].to_list()
    assert kinds.count("impossible_score") == bad
    assert not any("impossible_score" in d for d in sf.validate(src).problems["detail"]
                   if d and d.startswith("impossible_score:"))
    if bad:  # (class 145: the reader's note and validate's error say it in one sentence)
        from swissframe.schema import impossible_score_words

        words = impossible_score_words(3)
        listed = sf.validate(src).problems.filter(pl.col("kind") == "impossible_score")
        assert listed["detail"].to_list() == [f"{result} is {words}"]
        assert noted["detail"].to_list() == [f"A vs B reads {result}, {words}: read as written"]


def test_an_impossible_score_listed_twice_is_noted_once(tmp_path: Path) -> None:
    """The note is made once the repeats are removed: a match listed twice (melee lists a
    draw once per player; a decisive match twice is a duplicate) is one note."""
    path = _write(tmp_path, "ev", [("Round 1", [("A", "B", "3-0-0"), ("B", "A", "0-3-0"),
                                                ("C", "D", "2-0-0")])])
    kinds = read_decklist_cache(path).report["kind"].to_list()
    assert kinds.count("impossible_score") == 1


# ------------------------------------------- class 195: a round listed with no match


@pytest.mark.parametrize("where", ["last", "middle"])
def test_a_round_listed_with_no_match_is_noted(tmp_path: Path, where: str) -> None:
    """Class 195: a round a file lists with no match (``"Matches": []``) has no row, so
    it was read as no round at all: a lost last round left the standings of the rounds
    before it, exit 0, no warning, and ``validate`` said no problems. Each is an
    ``empty_round`` import note naming the round (warned by ``read``; one process or
    many, the notes are one)."""
    doc = orjson.loads((FIX / "melee-byes-1-2024-07-13.json").read_bytes())
    empty = {"RoundName": "Round 9", "Matches": []}
    if where == "last":
        doc["Rounds"].append(empty)
    else:
        doc["Rounds"].insert(1, empty)
    folder = tmp_path / "many"
    folder.mkdir()
    files = [folder / f"e{i:02d}-{i}-2024-07-13.json" for i in range(64)]
    for f in files:
        f.write_bytes(orjson.dumps(doc))
    one = read_decklist_cache(files[0])
    plain = read_decklist_cache(FIX / "melee-byes-1-2024-07-13.json")
    assert one.results.select(COLS).equals(plain.results.select(COLS))  # (rows unchanged)
    notes = one.report.filter(pl.col("kind") == "empty_round")
    assert notes.select("event_id", "round", "player_id").rows() == [
        ("e00-0-2024-07-13", None, None)]
    assert notes["detail"].to_list() == [
        "the file lists round 'Round 9' with no match: no result of that round is in the "
        "file (lost in the export, or not yet paired); the standings are those of the "
        "rounds it holds"]
    with pytest.warns(ImportNotesWarning, match=r"1 import note \(empty_round ×1\).*"
                                                r"round 'Round 9' with no match"):
        read(files[0])
    every = read_decklist_cache(folder, workers=2).report.filter(
        pl.col("kind") == "empty_round")
    assert sorted(every["event_id"].to_list()) == [f.name.removesuffix(".json") for f in files]


def test_an_mtgo_file_is_recognised_as_mtgo(tmp_path: Path) -> None:
    """An MTGO file (a Magic Online challenge of the cache, by its ``mtgo.com`` URI, or by
    its folder ``Tournaments/MTGO`` where it names none) was "a decklist-cache file of no
    known platform". It is MTGO wherever platforms are named; ranked by ``mtg-1/3``, as no
    floor or rounding of Magic Online's own is published, which the reason says. Its files
    list only the top-8 playoff (SOURCES.md): no Swiss standings, and a warning says so."""
    doc = orjson.loads(MTGO.read_bytes())
    folder = tmp_path / "Tournaments" / "MTGO" / "2024" / "07" / "13"
    folder.mkdir(parents=True)
    doc["Tournament"]["Uri"] = None
    (folder / "challenge-2024-07-13.json").write_bytes(orjson.dumps(doc))
    for path in (MTGO, folder / "challenge-2024-07-13.json"):
        with pytest.warns(UserWarning, match="only playoff rows"):
            src = read(path)
        ev = src.events.row(0, named=True)
        assert (ev["platform"], ev["ruleset"]) == ("mtgo", "mtg-1/3")
        assert ev["ruleset_reason"].startswith("an MTGO decklist-cache file: MTG's tiebreakers")
        assert "no known platform" not in ev["ruleset_reason"]
        assert src.results["phase"].unique().to_list() == ["playoff"]
