"""Tests for swissframe.verify: recomputed vs published tiebreakers."""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path
from typing import Any

import orjson
import polars as pl
import pytest

import swissframe as sf
from swissframe.io.decklist import DecklistEvents, read_decklist_cache
from swissframe.verify import VERIFY_COLUMNS, summarize, verify
from tests.helpers import FIXTURES, REPO_ROOT, SHARED_ROOT

FIX = FIXTURES / "decklist"


def shared_dir() -> Path:
    return SHARED_ROOT


def corpus_root() -> Path:
    root = shared_dir() / "data" / "realworld" / "fbettega_MTG_decklistcache" / "Tournaments"
    if not root.is_dir():
        pytest.skip("../shared/data/realworld not found: real-data tests need the shared folder")
    return root


def test_hand_worked_event_matches() -> None:
    # Byes ("-" and null), an unopposed loss; values worked by hand (E2: floor 1/3).
    # A: 2-1, 2-0, then a no-show loss 0-2 whose games melee.gg leaves out of GW%: 4/5.
    # B: 1-2, bye 2-0, 2-0 = 5/7; C: bye 2-0, 0-2, 0-2 = 2/6 → floored 1/3 for opponents.
    v = verify(read_decklist_cache(FIX / "melee-byes-1-2024-07-13.json"))
    assert v.columns == list(VERIFY_COLUMNS)
    assert v.select("player_id", "omwp", "gwp", "ogwp").rows() == [
        ("A", 0.5, 0.8, 0.52380952), ("B", 0.5, 0.71428571, 0.56666667),
        ("C", 0.66666667, 0.33333333, 0.75714286)]
    assert v["match"].all()
    assert v["ruleset"].unique().to_list() == ["melee-e2"]


def test_one_unit_tolerance_and_mismatch() -> None:
    ev = read_decklist_cache(FIX / "melee-byes-1-2024-07-13.json")
    pub = ev.published.with_columns(
        pl.when(pl.col("player_id") == "A").then(pl.col("omwp") + 1e-8)
        .when(pl.col("player_id") == "B").then(pl.col("gwp") + 3e-8)
        .otherwise(pl.col("omwp")).alias("omwp"))
    v = verify(dataclasses.replace(ev, published=pub))
    assert v.select("player_id", "omwp_match", "match").rows() == [
        ("A", True, True), ("B", False, False), ("C", True, True)]


def test_topdeck_compares_omw_only() -> None:
    v = verify(read_decklist_cache(FIX / "topdeck-demo-abc123-2024-07-13.json"))
    assert v["gwp_match"].is_null().all()
    assert v["ogwp_match"].is_null().all()
    assert v["compared"].unique().to_list() == ["omwp"]
    # E: bye in R1 (not an opponent), beat D in R2; D drew then lost: MW 1/6 → floor 0.33.
    assert v.filter(pl.col("player_id") == "E")["omwp"].item() == 0.33
    # A beat B (bye in R2: MW 1/2... B is 1-1: 1/2) and C (draw, loss: 1/6 → 0.33)
    assert v.filter(pl.col("player_id") == "A")["omwp"].item() == pytest.approx((0.5 + 0.33) / 2)


def test_rules_override_and_summary() -> None:
    ev = read_decklist_cache(FIX / "melee-byes-1-2024-07-13.json")
    v = verify(ev, rules="mtg")  # plain MTR: the no-show's 0-2 counts in A's GW% (4/7)
    assert v["ruleset"].unique().to_list() == ["mtg"]
    assert v.select("player_id", "gwp", "ogwp", "match").rows() == [
        ("A", 0.57142857, 0.52380952, False), ("B", 0.71428571, 0.45238095, False),
        ("C", 0.33333333, 0.64285714, False)]
    s = summarize(verify(ev))
    assert s.select("source", "era", "events", "players", "matched", "events_exact").rows() == [
        ("melee", "E2", 1, 3, 3, 1)]


def test_players_only_in_rounds_or_standings_are_kept() -> None:
    ev = read_decklist_cache(FIX / "melee-byes-1-2024-07-13.json")
    extra = pl.DataFrame({"event_id": ["melee-byes-1-2024-07-13"], "player_id": ["Z"],
                          "rank": [4], "points": [0], "wins": [0], "losses": [0], "draws": [0],
                          "omwp": [0.0], "gwp": [0.0], "ogwp": [0.0], "decimals": [8]})
    v = verify(DecklistEvents(ev.results, pl.concat([ev.published, extra]), ev.events,
                              ev.report))
    z = v.filter(pl.col("player_id") == "Z").row(0, named=True)
    assert (z["in_rounds"], z["in_standings"], z["match"]) == (False, True, False)
    assert summarize(v)["players"].item() == 3


# A fixed small sample of real events, each reproduced exactly (runs by default).
SAMPLE = [
    "MTGmelee/2024/03/02/100-the-100th-legacy-at-home-65496-2024-03-02.json.gz",
    "MTGmelee/2024/04/06/104-the-104th-legacy-at-home-80282-2024-04-06.json.gz",
    "MTGmelee/2025/01/25/1-etapa-liga-sul-mineira-de-legacy-ancestral-cards-e-games-227748-"
    "2025-01-25.json.gz",
    "MTGmelee/2025/03/23/1-torneio-relampago-modern-274939-2025-03-23.json.gz",
    "MTGmelee/2025/10/12/10-black-league-modern-371009-2025-10-12.json.gz",
    "MTGmelee/2025/11/17/1-pioneer-381711-2025-11-17.json.gz",
    "MTGmelee/2026/04/08/110-league-08042026-sprsum-26-pauper-419767-2026-04-08.json.gz",
    "Topdeck/2024/11/24/artabrian-weekend-2024-premodern-prp3CN0CG2r79OpbYQB2-2024-11-24.json.gz",
    "CardsRealm/2025/06/15/10-etapa-liga-pauper-recife-mega-pauper-2025-06-15.json.gz",
    "CardsRealm/2025/08/24/2-etapa-liga-pauper-recife-2025-2-2025-08-24.json.gz",
    # era CR1: opponents' MW% over every Swiss round (drops count as losses)
    "CardsRealm/2025/01/06/fuguete-champ-220-2025-01-06.json.gz",
    "Manatrader/2024/02/29/manatraders-series-pioneer-february-2024-2024-02-29.json.gz",
]


@pytest.fixture(scope="module")
def sample_table() -> tuple[pl.DataFrame, int]:
    root = corpus_root()
    files = [root / p for p in SAMPLE if (root / p).exists()]
    if len(files) < len(SAMPLE) // 2:
        pytest.skip("the sample events are not in this copy of ../shared")
    v = verify(read_decklist_cache(files))
    return v.filter(pl.col("in_rounds") & pl.col("in_standings")), len(files)


@pytest.mark.realworld
def test_real_sample_reproduced_exactly(sample_table: tuple[pl.DataFrame, int]) -> None:
    v, n_files = sample_table
    assert v["match"].all(), v.filter(~pl.col("match")).head(5)
    assert v["event_id"].n_unique() == n_files


# Order agreement on the sample, per source (measured: melee.gg and CardsRealm 100%, the
# Manatraders event 93.0%, the Topdeck event 92.9%; docs/fidelity.md).
SAMPLE_ORDER_FLOORS = {"melee": 1.0, "cardsrealm": 1.0, "manatraders": 0.92, "topdeck": 0.92}


@pytest.mark.realworld
def test_real_sample_order_floors(sample_table: tuple[pl.DataFrame, int]) -> None:
    v, _ = sample_table
    got = dict(v.group_by("source").agg(pl.col("rank_match").mean()).rows())
    assert set(got) == set(SAMPLE_ORDER_FLOORS)
    for source, floor in SAMPLE_ORDER_FLOORS.items():
        assert got[source] >= floor, (source, got)


# Full corpus: measured agreement (regression floors) and the issue's targets.
# Measured (docs/fidelity.md): melee complete 95.1%, clean events 1060/1060, Manatraders
# 100%, Topdeck OMW% 95.4%, CardsRealm 92.9% (consistent records: CR2 99.95%, CR1 95.9%).
MEASURED_FLOORS = {"melee_complete": 0.95, "clean_events": 1.0, "manatraders": 1.0,
                   "topdeck_omwp": 0.95, "cardsrealm": 0.925,
                   # melee.gg events from 2025-11-13 on: 99.4% (no frozen drops any more)
                   "melee_complete_since_2025_11_13": 0.99}
# Order agreement (issue 20), measured on the whole corpus (docs/fidelity.md): melee.gg
# 81.9% (rounds complete 94.8%, from 2025-11-13 99.5%), CardsRealm 89.5%, Manatraders
# 96.1% (37.8% with the MTR key), Topdeck 95.5%.
MEASURED_ORDER_FLOORS = {"order_melee": 0.81, "order_melee_complete": 0.945,
                         "order_melee_complete_since_2025_11_13": 0.99,
                         "order_cardsrealm": 0.89, "order_manatraders": 0.96,
                         "order_topdeck": 0.95}
ISSUE_TARGETS_MET = {"clean_events": 1.0, "manatraders": 0.99, "topdeck_omwp": 0.90}
ISSUE_TARGETS_OPEN = {"melee_complete": 0.97}


def _corpus_shares() -> dict[str, float]:
    root = corpus_root()
    man = pl.read_csv(root.parents[1] / "manifest.csv", infer_schema_length=0).select(
        pl.col("stored_path").str.split("/").list.last().str.replace(r"\.json\.gz$", "")
        .alias("event_id"), "rounds_complete", "clean_single_phase")
    ev = read_decklist_cache(root)
    v = verify(ev).filter(pl.col("in_rounds") & pl.col("in_standings"))
    v = v.join(man, on="event_id", how="left").join(ev.events.select("event_id", "date"),
                                                     on="event_id", how="left")
    melee = v.filter((pl.col("source") == "melee") & (pl.col("rounds_complete") == "1"))
    recent = melee.filter(pl.col("date") >= dt.date(2025, 11, 13))
    clean = (v.filter(pl.col("clean_single_phase") == "1").group_by("event_id")
             .agg(pl.col("match").all()))
    def order(frame: pl.DataFrame) -> float:
        return float(frame["rank_match"].mean() or 0.0)

    return {
        "order_melee": order(v.filter(pl.col("source") == "melee")),
        "order_melee_complete": order(melee),
        "order_melee_complete_since_2025_11_13": order(recent),
        "order_cardsrealm": order(v.filter(pl.col("source") == "cardsrealm")),
        "order_manatraders": order(v.filter(pl.col("source") == "manatraders")),
        "order_topdeck": order(v.filter(pl.col("source") == "topdeck")),
        "melee_complete": float(melee["match"].mean() or 0.0),
        "melee_complete_since_2025_11_13": float(recent["match"].mean() or 0.0),
        "clean_events": float(clean["match"].mean() or 0.0),
        "manatraders": float(v.filter(pl.col("source") == "manatraders")["match"].mean() or 0),
        "topdeck_omwp": float(v.filter(pl.col("source") == "topdeck")["omwp_match"].mean()
                              or 0.0),
        "cardsrealm": float(v.filter(pl.col("source") == "cardsrealm")["match"].mean()
                            or 0.0),
    }


@pytest.fixture(scope="module")
def corpus_shares() -> dict[str, float]:
    return _corpus_shares()


@pytest.mark.slow
@pytest.mark.realworld
def test_real_corpus_regression_floors(corpus_shares: dict[str, float]) -> None:
    for key, floor in MEASURED_FLOORS.items():
        assert corpus_shares[key] >= floor, (key, corpus_shares)


@pytest.mark.slow
@pytest.mark.realworld
def test_real_corpus_order_floors(corpus_shares: dict[str, float]) -> None:
    for key, floor in MEASURED_ORDER_FLOORS.items():
        assert corpus_shares[key] >= floor, (key, corpus_shares)


@pytest.mark.slow
@pytest.mark.realworld
def test_real_corpus_issue_targets_met(corpus_shares: dict[str, float]) -> None:
    for key, target in ISSUE_TARGETS_MET.items():
        assert corpus_shares[key] >= target, (key, corpus_shares)


@pytest.mark.slow
@pytest.mark.realworld
@pytest.mark.xfail(reason="issue 3 melee.gg target (97%) not reached: measured 95.1% of "
                          "players of complete events; the rest are dropped/eliminated "
                          "players that melee.gg froze at another round than their stage "
                          "end in some 2024-04…2025-11 events only, which the rounds do not "
                          "reveal (docs/fidelity.md)", strict=True)
def test_real_corpus_issue_target_melee(corpus_shares: dict[str, float]) -> None:
    for key, target in ISSUE_TARGETS_OPEN.items():
        assert corpus_shares[key] >= target, (key, corpus_shares)


def test_summary_counts_exact_events_when_era_is_null() -> None:
    t = pl.DataFrame({"event_id": ["e", "f"], "source": ["topdeck"] * 2, "era": [None, None],
                      "in_rounds": [True] * 2, "in_standings": [True] * 2,
                      "match": [True, False], "omwp_match": [True, False],
                      "gwp_match": [None, None], "ogwp_match": [None, None]},
                     schema_overrides={"era": pl.String, "gwp_match": pl.Boolean,
                                       "ogwp_match": pl.Boolean})
    assert summarize(t).select("events", "players", "events_exact").rows() == [(2, 2, 1)]


def test_verify_dispatches_tom_and_trf_to_the_reference_checks() -> None:
    from polars.testing import assert_frame_equal

    import swissframe as sf
    from swissframe.verify_reference import verify_tom, verify_trf

    fixtures = FIXTURES
    tom = sf.read_tom([fixtures / "tom" / "combined.tdf"])
    assert_frame_equal(sf.verify(tom), verify_tom(tom))
    trf = sf.read_trf([fixtures / "trf" / "all_codes.trf"])
    assert_frame_equal(sf.verify(trf), verify_trf(trf))


@pytest.mark.slow
@pytest.mark.realworld
def test_fidelity_report_script_prints_the_documented_tables(
        capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.util

    root = corpus_root()
    script = REPO_ROOT / "scripts" / "fidelity_report.py"
    spec = importlib.util.spec_from_file_location("fidelity_report", script)
    assert spec is not None
    assert spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.main(["--shared", str(root.parents[3])]) == 0
    out = capsys.readouterr().out
    assert "## melee.gg, rounds complete: 1533 events" in out
    assert "| dropped, event froze every dropped player at stage end - 1 |" in out
    assert "## Order: agreement per source and era" in out
    assert "| manatraders | every value of the event reproduced (order rule) | 12 |" in out
    assert mod.main(["--shared", "/nonexistent"]) == 2


def _frozen_drop_event(tmp_path: Path, name: str) -> Path:
    # A beats B, then drops; B beats C in round 2. melee published A as of round 1.
    def m(a: str, b: str, r: str) -> dict[str, str]:
        return {"Player1": a, "Player2": b, "Result": r}

    def st(p: str, o: float, g: float, og: float) -> dict[str, object]:
        return {"Rank": 1, "Player": p, "Points": 0, "Wins": 0, "Losses": 0, "Draws": 0,
                "OMWP": o, "GWP": g, "OGWP": og}

    doc = {"Tournament": {"Date": "2025-01-10", "Name": "Demo",
                          "Uri": "https://melee.gg/Tournament/View/1", "Formats": "Modern"},
           "Rounds": [{"RoundName": "Round 1", "Matches": [m("A", "B", "2-0-0"),
                                                           m("C", "D", "2-0-0")]},
                      {"RoundName": "Round 2", "Matches": [m("B", "C", "2-1-0"),
                                                           m("D", "-", "2-0-0")]}],
           "Standings": [st("B", 0.75, 0.4, 0.8), st("A", 0.33333333, 1.0, 0.33333333)]}
    path = tmp_path / f"{name}.json"
    path.write_bytes(orjson.dumps(doc))
    return path


def test_matching_rounds_explains_a_frozen_drop_and_the_override_fixes_it(
        tmp_path: Path) -> None:
    from swissframe import platforms
    from swissframe.verify import matching_rounds

    eid = "x:y-1-2025-01-10"  # ids with the copies' separator round-trip
    ev = read_decklist_cache(_frozen_drop_event(tmp_path, eid))
    got = dict(matching_rounds(ev).select("player_id", "rounds").rows())
    assert got == {"A": [1], "B": [2]}
    v = verify(ev).filter(pl.col("in_standings"))
    assert dict(v.select("player_id", "match").rows()) == {"A": False, "B": True}
    own = dataclasses.replace(platforms.MELEE_E2, name="melee-e2-own-round",
                              options={**platforms.MELEE_E2.options,
                                       "dropped_cutoff": "own_round"})
    v2 = verify(ev, rules={eid: own}).filter(pl.col("in_standings"))
    assert v2["match"].all()


def test_cli_verify_writes_the_matching_rounds(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    from swissframe.cli import main

    src = _frozen_drop_event(tmp_path, "demo-1-2025-01-10")
    out = tmp_path / "per_player.csv"
    assert main(["verify", str(src), "--matching-rounds", "-o", str(out)]) == 0
    assert f"wrote {out} (" in capsys.readouterr().err
    got = pl.read_csv(out, schema_overrides={"matching_rounds": pl.String}).filter(
        pl.col("in_standings")).select(
        "player_id", "match", "matching_rounds").sort("player_id").rows()
    assert got == [("A", False, "1"), ("B", True, "2")]
    pq = tmp_path / "per_player.parquet"
    assert main(["verify", str(src), "--matching-rounds", "-o", str(pq)]) == 0
    assert pl.read_parquet(pq).sort("player_id")["matching_rounds"].to_list()[:2] == [[1], [2]]


# ------------------------------------------------------------------ issue 20: the order


def _event_file(tmp_path: Path, name: str, uri: str, rounds: list[tuple[str, list[tuple]]],
                ranks: list[str]) -> Path:
    """A decklist-cache file: ``rounds`` as (round name, [(player1, player2, result)]),
    the published standings in the order ``ranks`` (values left at 0: order tests only)."""
    doc = {"Tournament": {"Date": "2025-01-10", "Name": name, "Uri": uri,
                          "Formats": "Modern"},
           "Rounds": [{"RoundName": rn, "Matches": [
               {"Player1": a, "Player2": b, "Result": r} for a, b, r in ms]}
               for rn, ms in rounds],
           "Standings": [{"Rank": i + 1, "Player": p, "Points": 0, "Wins": 0, "Losses": 0,
                          "Draws": 0, "OMWP": 0.0, "GWP": 0.0, "OGWP": 0.0}
                         for i, p in enumerate(ranks)]}
    path = tmp_path / f"{name}-2025-01-10.json"
    path.write_bytes(orjson.dumps(doc))
    return path


def _ranks(v: pl.DataFrame) -> dict[str, tuple[int | None, bool | None]]:
    return {p: (r, m) for p, r, m in v.select("player_id", "rank", "rank_match").rows()}


_MANATRADERS_ROUNDS = [
    ("Round 1", [("A", "B", "2-0-0"), ("C", "D", "2-0-0"), ("E", "F", "2-0-0")]),
    ("Round 2", [("A", "C", "2-1-0"), ("D", "E", "2-0-0"), ("B", "F", "2-0-0")]),
    ("Round 3", [("C", "E", "2-0-0"), ("D", "B", "2-0-0"), ("F", "-", "2-0-0")])]


def test_manatraders_order_puts_more_rounds_first(tmp_path: Path) -> None:
    # A drops after 2-0 (6 points in 2 rounds, OMW% 1/2); C and D: 6 points in 3 rounds.
    # Manatraders publishes C, D, A; the MTR key (OMW% right after points) gives C, A, D.
    path = _event_file(tmp_path, "mt-demo", "https://www.manatraders.com/tournaments/7/",
                       _MANATRADERS_ROUNDS, ["C", "D", "A", "B", "E", "F"])
    ev = read_decklist_cache(path)
    v = verify(ev)
    assert v["ruleset"].unique().to_list() == ["manatraders"]
    assert v.select("player_id", "rank", "published_rank").sort("rank").rows() == [
        ("C", 1, 1), ("D", 2, 2), ("A", 3, 3), ("B", 4, 4), ("E", 5, 5), ("F", 6, 6)]
    assert v["rank_match"].all()
    assert summarize(v).select("ranked", "order_matched", "order_share",
                               "events_order_exact").rows() == [(6, 6, 1.0, 1)]
    mtr = _ranks(verify(ev, rules="mtg"))
    assert (mtr["A"], mtr["D"]) == ((2, False), (3, False))


def test_exact_ties_share_a_block_and_any_order_inside_it_agrees(tmp_path: Path) -> None:
    # B and C are 1-1 with equal OMW%, GW% and OGW% (2/3, 1/2, 2/3): an exact tie that
    # melee.gg breaks by nothing in the data. Published C before B: both agree.
    rounds = [("Round 1", [("A", "B", "2-0-0"), ("C", "D", "2-0-0")]),
              ("Round 2", [("A", "C", "2-0-0"), ("B", "D", "2-0-0")])]
    url = "https://melee.gg/Tournament/View/9"
    v = verify(read_decklist_cache(_event_file(tmp_path, "tie-9", url, rounds,
                                               ["A", "C", "B", "D"])))
    assert _ranks(v) == {"A": (1, True), "B": (2, True), "C": (2, True), "D": (4, True)}
    # a player published outside the block disagrees, and so does the one displaced
    w = verify(read_decklist_cache(_event_file(tmp_path, "tie-10", url, rounds,
                                               ["A", "C", "D", "B"])))
    assert _ranks(w) == {"A": (1, True), "B": (2, False), "C": (2, True), "D": (4, False)}


def _bracket_rounds(final: str) -> list[tuple[str, list[tuple]]]:
    # Swiss: A 2-0, B and C 1-1, D 0-2; everyone in the playoff; D upsets A in a
    # semifinal and beats B in the final (``final``).
    return [("Round 1", [("A", "B", "2-0-0"), ("C", "D", "2-0-0")]),
            ("Round 2", [("A", "C", "2-0-0"), ("B", "D", "2-0-0")]),
            ("Semifinals", [("D", "A", "2-1-0"), ("B", "C", "2-0-0")]),
            ("Finals", [("D", "B", final)])]


def test_playoff_players_are_placed_from_the_bracket(tmp_path: Path) -> None:
    url = "https://melee.gg/Tournament/View/11"
    v = verify(read_decklist_cache(_event_file(tmp_path, "po-11", url,
                                               _bracket_rounds("2-0-0"),
                                               ["D", "B", "A", "C"])))
    # the final decides 1 and 2; the semifinal losers follow by their values (A: 6 points)
    assert _ranks(v) == {"A": (3, True), "B": (2, True), "C": (4, True), "D": (1, True)}
    # an unreported final: who won is not derivable, so the finalists get no rank
    u = verify(read_decklist_cache(_event_file(tmp_path, "po-12", url,
                                               _bracket_rounds("0-0-0"),
                                               ["D", "B", "A", "C"])))
    assert _ranks(u) == {"A": (3, True), "B": (None, None), "C": (4, True),
                         "D": (None, None)}
    assert summarize(u).select("ranked", "order_matched").rows() == [(2, 2)]


def test_hand_worked_event_order() -> None:
    v = verify(read_decklist_cache(FIX / "melee-byes-1-2024-07-13.json"))
    assert v.select("player_id", "rank", "published_rank", "rank_match").rows() == [
        ("A", 1, 1, True), ("B", 2, 2, True), ("C", 3, 3, True)]


def test_a_player_without_opponents_ranks_after_equal_points(tmp_path: Path) -> None:
    # D has only byes (6 points, no OMW%): last among the 6-point players, as in
    # sf.standings, not first (a null key sorted ahead)
    rounds = [("Round 1", [("A", "B", "2-0-0"), ("C", "E", "2-0-0"), ("D", "-", "2-0-0")]),
              ("Round 2", [("A", "C", "0-2-0"), ("B", "E", "2-0-0"), ("D", "-", "2-0-0")])]
    url = "https://melee.gg/Tournament/View/13"
    v = verify(read_decklist_cache(_event_file(tmp_path, "nulls-13", url, rounds,
                                               ["C", "D", "A", "B", "E"])))
    got = _ranks(v)
    assert got["D"] == (2, True)
    assert got["C"] == (1, True)


@pytest.mark.parametrize(("call", "reader"), [
    (sf.verify, "read_decklist_cache"), (sf.matching_rounds, "read_decklist_cache"),
    (sf.verify_tom, "read_tom"), (sf.verify_trf, "read_trf")])
def test_a_path_for_the_events_is_named_with_the_reader_to_use(call: object,
                                                              reader: str) -> None:
    """A path given where the importer's events belong ended in "AttributeError: 'str'
    object has no attribute 'events'"."""
    assert callable(call)
    with pytest.raises(sf.SchemaError, match=rf"takes the events an importer returns .*got a "
                                             rf"path \('events\.json'\)\. Hint: ev = sf\.{reader}"):
        call("events.json")


@pytest.mark.parametrize("summary", [sf.summarize, sf.summarize_reference])
def test_a_summary_of_another_table_names_the_columns_it_lacks(summary: Any) -> None:
    """(it was Polars' bare ColumnNotFoundError: "unable to find column in_rounds")"""
    with pytest.raises(sf.SchemaError, match=r"table lacks column\(s\) \[.*'match'.*\]: it is "
                                             r"not a table of sf\.verify"):
        summary(pl.DataFrame({"a": [1]}))


def test_summarize_by_one_name_groups_by_that_column() -> None:
    t = pl.DataFrame({"event_id": ["e", "f"], "source": ["m", "m"], "in_rounds": [True] * 2,
                      "in_standings": [True] * 2, "match": [True, False],
                      "omwp_match": [True] * 2, "gwp_match": [True, False],
                      "ogwp_match": [True] * 2})
    got = sf.summarize(t, by="source")  # (a name alone, not its letters)
    assert got.select("source", "events", "players", "matched").rows() == [("m", 2, 2, 1)]
    with pytest.raises(sf.SchemaError, match=r"match is String, expected boolean"):
        sf.summarize(t.with_columns(pl.col("match").cast(pl.String)), by="source")


def test_a_table_for_the_events_is_named_on_one_line() -> None:
    """The message quoted the first line of the table's repr (bad data 240)."""
    from tests.helpers import REPO_ROOT

    res = sf.read_results(REPO_ROOT / "data" / "events" / "store-championship.csv")
    with pytest.raises(sf.SchemaError, match=r"got a polars DataFrame\. Hint: ev = ") as exc:
        sf.verify(res)  # type: ignore[arg-type]
    assert "\n" not in str(exc.value)
