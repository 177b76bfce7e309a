"""FIDE tie-breaks (rules.md §4): CH-F1 (TEC exercise, read from the shared folder), CH-F2,
CH-F3, and a full comparison with FIDE TEC's TieBreakServer output on a real TRF."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

import swissframe as sf
from swissframe.rules import Criterion, buchholz
from tests.engine.test_reference_presets import frame, make_event
from tests.helpers import SHARED_ROOT, decisive, games

SHARED = SHARED_ROOT
REAL = SHARED / "data" / "realworld"
TEC_CSV = REAL / "chess-trf" / "marceljuenemann_tiebreak" / "src" / "__tests__" / "testcases" \
    / "fide-exercise-2023.csv"
TBS = REAL / "chess-trf" / "OttoMilvang_TieBreakServer" / "tests" / "fixtures"

ALL = (buchholz(), buchholz(cut=1), buchholz(cut=2), buchholz(median=1), buchholz(median=2),
       Criterion("sb"), Criterion("ps"), Criterion("win"), Criterion("won"), Criterion("bpg"),
       Criterion("bwg"))


def chess(rule: str = "fide-2023") -> sf.Ruleset:
    return dataclasses.replace(sf.rules.FIDE, name=f"test-{rule}", unplayed_rounds=rule,
                               columns=ALL)  # type: ignore[arg-type]


def by_player(st: pl.DataFrame, col: str) -> dict[str, float]:
    return dict(zip(st["player_id"].to_list(), st[col].to_list(), strict=True))


# ------------------------------------------------------------------ CH-F1 (TEC exercise)


def _read_tec(path: Path) -> pl.DataFrame:
    """Parse the TEC cross-table: ``<+|=|-><W|B|F><opp>``, ``<r>BYE``, ``--``."""
    rows = []
    lines = path.read_text().strip().splitlines()[1:]
    for line in lines:
        player, *cells = line.split(",")
        for rnd, cell in enumerate(cells, start=1):
            res = cell[0]
            if cell == "--":
                rows.append((rnd, player, None, "-", "absent"))
            elif cell[1:] == "BYE":
                rows.append((rnd, player, None, res,
                             "pairing_bye" if res == "+" else "half_bye"))
            elif cell[1] == "F":
                rows.append((rnd, player, cell[2:], res,
                             "forfeit_win" if res == "+" else "forfeit_loss"))
            else:
                rows.append((rnd, player, cell[2:], res, None))
    return games(rows)


@pytest.fixture(scope="module")
def tec() -> pl.DataFrame:
    if not TEC_CSV.exists():
        pytest.skip("../shared/data/realworld not found: real-data tests need the shared folder")
    return _read_tec(TEC_CSV)


def test_ch_f1_scores_and_buchholz_2023(tec: pl.DataFrame) -> None:
    st = sf.standings(tec, chess())
    scores = {"1": 3.5, "2": 4.0, "3": 3.5, "4": 3.5, "5": 2.5, "6": 3.0, "7": 1.5, "8": 2.5,
              "9": 1.5, "10": 1.0, "11": 2.5, "12": 2.0, "13": 1.5, "14": 2.0, "15": 2.0,
              "16": 3.5}
    assert by_player(st, "match_points") == scores
    bh = by_player(st, "bh")
    for p, v in {"1": 12.5, "2": 13.0, "3": 15.5, "4": 15.0, "5": 8.5, "8": 13.5, "11": 13.5,
                 "16": 12.5}.items():
        assert bh[p] == v, p
    c1 = by_player(st, "bh_c1")
    for p, v in {"1": 11.0, "2": 12.0, "3": 13.0, "4": 11.5, "5": 7.5, "7": 12.5, "8": 12.0,
                 "9": 7.5, "11": 12.0, "12": 9.5, "13": 12.0, "14": 9.0, "15": 11.0,
                 "16": 11.0}.items():
        assert c1[p] == v, p


def test_ch_f1_derived_columns(tec: pl.DataFrame) -> None:
    st = sf.standings(tec, chess())
    want = {"2": (13.0, 12.0, 8.5, 9.5, 13.0, 3, 3), "1": (12.5, 11.0, 7.0, 8.0, 11.0, 2, 2),
            "3": (15.5, 13.0, 9.0, 10.5, 11.0, 2, 2), "16": (12.5, 11.0, 7.0, 7.25, 10.5, 3, 3)}
    for p, v in want.items():
        r = st.filter(pl.col("player_id") == p).row(0, named=True)
        assert (r["bh"], r["bh_c1"], r["bh_m1"], r["sb"], r["ps"], r["win"], r["won"]) == v, p
    r4 = st.filter(pl.col("player_id") == "4").row(0, named=True)
    assert (r4["ps"], r4["win"]) == (11.5, 2)


def test_ch_f1_player_12_adjusted_score_for_opponents(tec: pl.DataFrame) -> None:
    # rules.md CH-F1: player 12 scored 2.0 and is absent in rounds 4-5 (trailing VURs), so
    # opponents count 2.0 + 2 x 0.5 = 3.0 (Art. 16.3). Under the 2009 rule every unplayed
    # round of an opponent is a draw: 12's pairing-allocated bye (R2, +1) and forfeit win
    # (R3, +1) become halves too, so 1 x 0 + 4 x 0.5 = 2.0.
    rs = dataclasses.replace(chess(), columns=(Criterion("abh"),))
    assert by_player(sf.standings(tec, rs), "abh")["12"] == 3.0
    assert by_player(sf.standings(tec, chess("fide-2026")), "match_points")["12"] == 2.0
    old = dataclasses.replace(chess("fide-2009"), columns=(Criterion("abh"),))
    assert by_player(sf.standings(tec, old), "abh")["12"] == 2.0


def test_ch_f1_2026_cap_and_no_adjustment(tec: pl.DataFrame) -> None:
    assert by_player(sf.standings(tec, chess("fide-2026")), "bh")["4"] == 14.0
    assert by_player(sf.standings(tec, chess("as_played")), "bh")["11"] == 12.5


def test_ch_f1_direct_encounter_not_usable(tec: pl.DataFrame) -> None:
    # {1, 3, 4, 16} tie on 3.5, but not all pairs met: DE is 0 for all of them
    rs = dataclasses.replace(sf.rules.FIDE, name="de-first",
                             criteria=(sf.rules.POINTS, Criterion("direct_encounter")))
    de = by_player(sf.standings(tec, rs), "direct_encounter")
    assert [de[p] for p in ("1", "3", "4", "16")] == [0.0] * 4


def test_fide_preset_ranks_tec(tec: pl.DataFrame) -> None:
    st = sf.standings(tec, "fide")
    assert st["player_id"].to_list()[:5] == ["2", "3", "4", "1", "16"]
    assert st["rank"].to_list() == sorted(st["rank"].to_list())


# ------------------------------------------------------------------ CH-F2 round robin


def ch_f2() -> pl.DataFrame:
    m = pl.DataFrame({"round": [1, 1, 2, 2, 3, 3],
                      "player_a": ["W", "Y", "W", "X", "Z", "X"],
                      "player_b": ["X", "Z", "Y", "Z", "W", "Y"],
                      "games_a": [1, 0, 0, 1, 1, 0], "games_b": [0, 0, 0, 0, 0, 0],
                      "games_drawn": [0, 1, 1, 0, 0, 1]})
    return sf.from_matches(m)


def test_ch_f2_round_robin() -> None:
    rs = dataclasses.replace(chess(), criteria=(*sf.rules.FIDE.criteria,))
    st = sf.standings(ch_f2(), rs)
    assert set(st["match_points"]) == {1.5}
    assert set(st["bh"]) == {4.5}
    assert set(st["sb"]) == {2.25}
    # everyone met and scored 1½ against the other three (C.07 6.2): direct encounter
    # ranks no one below anyone; the points reading shows the 1.5 of rules.md CH-F2
    assert set(st["direct_encounter"]) == {0}
    assert by_player(st, "win") == {"W": 1, "X": 1, "Y": 0, "Z": 1}
    assert by_player(st, "ps") == {"W": 4.0, "Y": 3.0, "X": 2.5, "Z": 2.5}
    points = dataclasses.replace(rs, name="de-points", criteria=(
        *sf.rules.FIDE.criteria[:4], DE_POINTS, sf.rules.FIDE.criteria[5]))
    assert set(sf.standings(ch_f2(), points)["direct_encounter"]) == {1.5}


def test_ch_f2_progressive_separates() -> None:
    rs = dataclasses.replace(sf.rules.FIDE, name="ps",
                             criteria=(sf.rules.POINTS, buchholz(), Criterion("ps")))
    st = sf.standings(ch_f2(), rs)
    assert st.select("player_id", "rank").rows() == [("W", 1), ("Y", 2), ("X", 3), ("Z", 3)]


def test_direct_encounter_decides_complete_pair() -> None:
    # A beat B; both 1 point after two rounds against fillers: DE separates them.
    res = games([(1, "A", "B", "+", None), (1, "B", "A", "-", None),
                 (2, "A", "C", "-", None), (2, "C", "A", "+", None),
                 (2, "B", "D", "+", None), (2, "D", "B", "-", None),
                 (1, "C", "D", "=", None), (1, "D", "C", "=", None)])
    rs = dataclasses.replace(sf.rules.FIDE, name="de",
                             criteria=(sf.rules.POINTS, Criterion("direct_encounter")))
    st = sf.standings(res, rs)
    assert by_player(st, "direct_encounter") == {"C": 0.0, "A": 1.0, "B": 0.0, "D": 0.0}
    assert st.select("player_id", "rank").rows()[:3] == [("C", 1), ("A", 2), ("B", 3)]


# ------------------------------------------------------------------ CH-F3 (2009 rule)


def test_ch_f3_virtual_opponent_2009() -> None:
    res = games([(1, "A", "B", "+", None), (1, "B", "A", "-", None),
                 (2, "A", "B", "+", "forfeit_win"), (2, "B", "A", "-", "forfeit_loss")])
    st = sf.standings(res, chess("fide-2009"))
    assert by_player(st, "bh") == {"A": 1.5, "B": 2.5}


def _trailing_forfeit_loss() -> pl.DataFrame:
    """B loses round 3 by forfeit to A, the event's last round: a trailing VUR."""
    return games([(1, "A", "B", "+", None), (1, "B", "A", "-", None),
                  (1, "C", "D", "+", None), (1, "D", "C", "-", None),
                  (2, "A", "C", "=", None), (2, "C", "A", "=", None),
                  (2, "B", "D", "+", None), (2, "D", "B", "-", None),
                  (3, "A", "B", "+", "forfeit_win"), (3, "B", "A", "-", "forfeit_loss"),
                  (3, "C", "D", "+", None), (3, "D", "C", "-", None)])


@pytest.mark.parametrize(("draw_kinds", "b_adj", "bh_a", "bh_d"), [
    (None, 1.5, 6.5, 6.5),  # every trailing VUR a draw (marceljuenemann/tiebreak)
    (("half_bye", "zero_bye", "absent"), 1.0, 6.0, 6.0),  # TieBreakServer's reading
])
def test_trailing_forfeit_loss_is_a_ruleset_option(
        draw_kinds: tuple[str, ...] | None, b_adj: float, bh_a: float, bh_d: float) -> None:
    # rules.md §4.3 [?] / §7 item 7: whether an opponent's trailing *forfeit loss* counts
    # as a draw (Art. 16.3) is read two ways; Ruleset.trailing_draw_kinds says which.
    # B scored 1 (beat D); A's BH: B (1 or 1.5) + C 2.5 + the dummy of A's forfeit win
    # (A's own 2.5); D's: C 2.5 + B + C 2.5.
    rs = dataclasses.replace(sf.rules.FIDE, name="trail", trailing_draw_kinds=draw_kinds,
                             columns=(buchholz(), Criterion("abh")))
    st = sf.standings(_trailing_forfeit_loss(), rs)
    assert by_player(st, "match_points") == {"A": 2.5, "B": 1.0, "C": 2.5, "D": 0.0}
    assert by_player(st, "abh")["B"] == b_adj
    assert (by_player(st, "bh")["A"], by_player(st, "bh")["D"]) == (bh_a, bh_d)
    from tests import reference as ref

    rows = _trailing_forfeit_loss().to_dicts()
    want = ref.fide(rows, trailing=draw_kinds if draw_kinds is not None else ref.VUR)
    assert {p: float(v["bh"]) for p, v in want.items()} == by_player(st, "bh")


def test_trailing_draw_kinds_must_be_vur_kinds() -> None:
    with pytest.raises(sf.RulesetError, match=r"trailing_draw_kinds=.*kinds of vur_kinds"):
        dataclasses.replace(sf.rules.FIDE, name="x", trailing_draw_kinds=("forfeit_win",))
    with pytest.raises(sf.RulesetError, match="trailing_draw_kinds='absent'"):
        dataclasses.replace(sf.rules.FIDE, name="x", trailing_draw_kinds="absent")


# ------------------------------------------------------------------ TieBreakServer (real TRF)


@pytest.mark.parametrize(("date", "rule"), [("2026-02-28", "fide-2023"),
                                            ("2026-03-01", "fide-2026")])
def test_tiebreakserver_many_unplayed_rounds(date: str, rule: str) -> None:
    trf = TBS / "swiss_with_many_unplayed_rounds.RETYPED.trf"
    expected = TBS / f"swiss_with_many_unplayed_rounds.{date}.all.txt"
    if not (trf.exists() and expected.exists()):
        pytest.skip("../shared/data/realworld not found: real-data tests need the shared folder")
    from swissframe.io.trf import read_trf

    st = sf.standings(read_trf(trf).results, chess(rule))
    exp = pl.read_csv(expected, separator="\t", infer_schema_length=0).rename(
        {"StartNo": "player_id"})
    joined = st.join(exp, on="player_id", how="inner")
    assert joined.height == st.height == 15
    pairs = {"match_points": "PTS", "bh": "BH", "bh_c1": "BH/C1", "bh_c2": "BH/C2",
             "bh_m1": "BH/M1", "bh_m2": "BH/M2", "sb": "SB", "ps": "PS", "win": "WIN",
             "won": "WON", "bpg": "BPG", "bwg": "BWG"}
    for mine, theirs in pairs.items():
        diff = joined.filter(pl.col(mine).cast(pl.Float64)
                             != pl.col(theirs).cast(pl.Float64))
        assert diff.height == 0, (mine, diff.select("player_id", mine, theirs).rows())


# ------------------------------------------------------------------ Art. 16 without rows

#: 6 players, 4 rounds; B withdraws after round 2, D sits out round 3, F misses round 4:
#: none of those rounds has a row.
MISSING_ROWS = [(1, "A", "B", "+"), (1, "C", "D", "="), (1, "E", "F", "+"),
                (2, "A", "C", "+"), (2, "B", "E", "-"), (2, "D", "F", "="),
                (3, "A", "E", "="), (3, "C", "F", "+"),
                (4, "A", "D", "+"), (4, "C", "E", "-")]
ABSENT = [(3, "B"), (4, "B"), (3, "D"), (4, "F")]


def _missing_rows_table(explicit: bool) -> pl.DataFrame:
    flip = {"+": "-", "-": "+", "=": "="}
    seats = [(r, a, b, res, None) for r, a, b, res in MISSING_ROWS]
    seats += [(r, b, a, flip[res], None) for r, a, b, res in MISSING_ROWS]
    if explicit:
        seats += [(r, p, None, "-", "absent") for r, p in ABSENT]
    return games(seats).with_columns(event_id=pl.lit("art16"))


@pytest.mark.parametrize("preset", ["fide", "fide-2026", "fide-2009"])
def test_missing_rows_are_absences(preset: str) -> None:
    rules = dataclasses.replace(sf.rules.get(preset), name=f"{preset}-all", columns=ALL)
    missing, explicit = _missing_rows_table(False), _missing_rows_table(True)
    got, want = sf.standings(missing, rules), sf.standings(explicit, rules)
    assert got.equals(want)
    by_got = sf.standings_by_round(missing, rules).sort("round", "player_id")
    assert by_got.equals(sf.standings_by_round(explicit, rules).sort("round", "player_id"))


def test_missing_rows_hand_worked_values() -> None:
    # Art. 16.3: B's trailing absences (rounds 3-4) count as draws for B's opponents (B's
    # adjusted score 0 + ½ + ½ = 1), F's round-4 absence too (½ + ½ = 1); D's round-3
    # absence is followed by a game, so D's score counts as scored (1).
    # A met B, C (1½), E (3½), D: BH = 1 + 1½ + 3½ + 1 = 7 (6 when the rounds do not exist).
    # Art. 16.4: D's own round 3 meets a dummy with D's score (1): BH(D) = C 1½ + F 1 +
    # dummy 1 + A 3½ = 7 (5½ before). PS(D) = ½ + 1 + 1 + 1 = 3½ (three terms: 2½ before).
    st = sf.standings(_missing_rows_table(False), "fide")
    assert by_player(st, "match_points") == {"A": 3.5, "E": 3.5, "C": 1.5, "D": 1.0,
                                             "F": 0.5, "B": 0.0}
    assert by_player(st, "bh")["A"] == 7.0
    assert by_player(st, "bh")["D"] == 7.0
    assert by_player(st, "ps")["D"] == 3.5
    assert by_player(st, "rounds_played") == dict.fromkeys("ABCDEF", 4)
    # rulesets without the rule keep the rows as given: B played two rounds
    mtg = sf.standings(_missing_rows_table(False), "mtg")
    assert by_player(mtg, "rounds_played")["B"] == 2


def test_inferred_absences_are_listed() -> None:
    from swissframe.engine._chess import inferred_absences

    got = inferred_absences(_missing_rows_table(False)).collect()
    assert sorted(got.select("round", "player_id").rows()) == sorted(ABSENT)
    assert set(got["unplayed"]) == {"absent"}
    report = sf.validate(_missing_rows_table(False), rules="fide", best_of=None)
    listed = report.problems.filter(pl.col("kind") == "inferred_absence")
    assert sorted(listed.select("round", "player_id").rows()) == sorted(ABSENT)
    assert sf.validate(_missing_rows_table(False), rules="mtg", best_of=None).problems.filter(
        pl.col("kind") == "inferred_absence").height == 0
    assert inferred_absences(_missing_rows_table(True)).collect().height == 0


@pytest.mark.parametrize("rules", ["fide", "mtg"])
@pytest.mark.parametrize("unplayed", [False, True])
@pytest.mark.parametrize("phase", [False, True])
def test_absences_columns_are_the_plans(rules: str, unplayed: bool, phase: bool) -> None:
    # the columns the engine passes to prepare_rows instead of resolving the plan
    from swissframe.engine._chess import absences_columns, with_inferred_absences

    table = _missing_rows_table(False).with_columns(extra=pl.lit(1)).drop(
        "unplayed", strict=False)
    if unplayed:
        table = table.with_columns(unplayed=pl.lit(None, dtype=pl.String))
    table = (table.with_columns(phase=pl.lit("swiss")) if phase
             else table.drop("phase", strict=False))
    ruleset = sf.rules.get(rules)
    got = with_inferred_absences(table.lazy(), ruleset, ("event_id",))
    assert absences_columns(table.columns, ruleset) == got.collect_schema().names()


def test_direct_encounter_ignores_games_decided_by_forfeit() -> None:
    # A and B tie on 1 point; their round-1 game was a forfeit win for A (B did not come):
    # they have not met over the board (C.07 Art. 16: a forfeit is an unplayed round;
    # C.04.2 3.5), so DE is 0 for both and the tie stays for the next criterion. Counting
    # the forfeit (TieBreakServer's DE-P, Criterion param forfeits=True) gives A 1, B 0.
    res = games([(1, "A", "B", "+", "forfeit_win"), (1, "B", "A", "-", "forfeit_loss"),
                 (2, "A", "C", "-", None), (2, "C", "A", "+", None),
                 (2, "B", "D", "+", None), (2, "D", "B", "-", None),
                 (1, "C", "D", "=", None), (1, "D", "C", "=", None)])
    rs = dataclasses.replace(sf.rules.FIDE, name="de",
                             criteria=(sf.rules.POINTS, Criterion("direct_encounter")))
    de = by_player(sf.standings(res, rs), "direct_encounter")
    assert (de["A"], de["B"]) == (0.0, 0.0)
    p4f = dataclasses.replace(rs, name="de-p4f", criteria=(
        sf.rules.POINTS, Criterion("direct_encounter", params=(("forfeits", True),))))
    de_p = by_player(sf.standings(res, p4f), "direct_encounter")
    assert (de_p["A"], de_p["B"]) == (1.0, 0.0)


def test_fore_buchholz_koya_aob_abh_are_registered_criteria() -> None:
    # the Art. 16 fixture above (4 rounds): scores A 3½, E 3½, C 1½, D 1, F ½, B 0;
    # adjusted (ABH) B 1 and F 1 (trailing absences as draws), D 1 (not trailing).
    # FB(A): round 4 (A-D, C-E) as draws: B 1 + C 2 + E 3 + D 1½ = 7½ (BH 7).
    # KS (opponents with ≥ 2 of 4 points): A drew E → ½; C lost to A and E → 0.
    # AOB(A): BH of B 7, C 9, E 7, D 7 → 30/4 = 7½.
    rules = dataclasses.replace(
        sf.rules.FIDE, name="fide-fb",
        criteria=(sf.rules.POINTS, Criterion("fb", function="fore_buchholz"), buchholz()),
        columns=(Criterion("abh"), Criterion("ks", function="koya"), Criterion("aob")))
    st = sf.standings(_missing_rows_table(False), rules)
    assert by_player(st, "fb")["A"] == 7.5
    assert by_player(st, "bh")["A"] == 7.0
    assert by_player(st, "abh") == {"A": 3.5, "E": 3.5, "C": 1.5, "D": 1.0, "F": 1.0,
                                    "B": 1.0}
    assert (by_player(st, "ks")["A"], by_player(st, "ks")["C"]) == (0.5, 0.0)
    assert by_player(st, "aob")["A"] == 7.5
    # by round: each cutoff is the standings through that round
    by = sf.standings_by_round(_missing_rows_table(False), rules)
    r3 = sf.standings(_missing_rows_table(False), rules, through_round=3)
    assert by.filter(pl.col("round") == 3).drop("round").equals(r3)


def test_explain_sees_the_inferred_absences() -> None:
    from swissframe.explain import explain

    missing = _missing_rows_table(False)
    ex = explain(missing, "D", "fide")
    st = sf.standings(missing, "fide").filter(pl.col("player_id") == "D")
    assert ex.filter(pl.col("result") == "average")["bh_value"].item() == st["bh"].item() == 7.0


def test_games_elected_to_play() -> None:
    # GE (C.07 7.6): rounds played over the board or won without playing. A: played R1,
    # forfeit win R2, pairing-allocated bye R3 → 3; B: played R1, forfeit loss R2, half-point
    # bye R3 → 1 (VUR 2); VUR counts the voluntarily unplayed rounds.
    res = games([(1, "A", "B", "+", None), (1, "B", "A", "-", None),
                 (2, "A", "B", "+", "forfeit_win"), (2, "B", "A", "-", "forfeit_loss"),
                 (3, "A", None, "+", "pairing_bye"), (3, "B", None, "=", "half_bye")])
    rules = dataclasses.replace(sf.rules.FIDE, name="fide-ge",
                                columns=(Criterion("ge"), Criterion("vur"), Criterion("num")))
    st = sf.standings(res, rules)
    assert by_player(st, "ge") == {"A": 3, "B": 1}
    assert by_player(st, "vur") == {"A": 0, "B": 2}
    assert by_player(st, "num") == {"A": 1, "B": 1}


# ------------------------------------------------------------------ Held's exercises (TRF)

HELD_SWISS_5, HELD_SWISS_9, HELD_RR = (TBS / f"held_{n}.trf"
                                       for n in ("swiss_5", "swiss_9", "round_robin"))


def _held(path: Path) -> pl.DataFrame:
    if not path.exists():
        pytest.skip("../shared/data/realworld not found: real-data tests need the shared folder")
    from swissframe.io.trf import read_trf

    return read_trf(path).results


def _ranks(results: pl.DataFrame, de: Criterion) -> dict[int, int]:
    rs = dataclasses.replace(sf.rules.FIDE, name=f"pts-{de.name}",
                             criteria=(sf.rules.POINTS, de), columns=())
    st = sf.standings(results, rs)
    return dict(zip(map(int, st["player_id"]), st["rank"], strict=True))


DE = Criterion("direct_encounter")
DE_P = Criterion("direct_encounter", params=(("forfeits", True),))
DE_POINTS = Criterion("direct_encounter", params=(("method", "points"),))


def test_held_direct_encounter_swiss() -> None:
    # IA Mario Held, "Exercises in Tie-Breaking" (C.07-2023), exercises 23-25: ranks by
    # points, then DE. A tie group in which not everyone has met stays tied ({1, 3, 4, 16}
    # and {5, 8, 11} of the 5-round Swiss); in the 9-round Swiss every 6-point pair met.
    ranks5 = _ranks(_held(HELD_SWISS_5), DE)
    assert {p: ranks5[p] for p in (1, 3, 4, 16)} == dict.fromkeys((1, 3, 4, 16), 2)
    assert {p: ranks5[p] for p in (5, 8, 11)} == dict.fromkeys((5, 8, 11), 7)
    assert _ranks(_held(HELD_SWISS_9), DE) == {
        1: 3, 2: 5, 3: 1, 4: 3, 5: 9, 6: 2, 7: 6, 8: 6, 9: 14, 10: 9, 11: 13, 12: 14,
        13: 16, 14: 9, 15: 9, 16: 6}


def test_held_direct_encounter_round_robin_counts_the_forfeit() -> None:
    # Held's exercise 26 (6-player round robin): 4, 5 and 6 tie on 1½. Among them 5 beat 4,
    # 4 drew 6, and 6 won against 5 by forfeit. Held ranks 6 (½ + 1 = 1½) 4th, 5 (1) 5th,
    # 4 (½) 6th: the forfeit counts as a game. C.07 Art. 16 (a forfeit is an unplayed
    # round) does not apply to round robins (rules.md §4.3), so a round robin needs
    # forfeits=True; the default, read for Swiss events, leaves the three tied.
    res = _held(HELD_RR)
    assert _ranks(res, DE_P) == {1: 1, 2: 2, 3: 2, 4: 6, 5: 5, 6: 4}
    assert _ranks(res, DE) == {1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4}


def test_held_round_robin_sb_and_koya() -> None:
    # Held's exercises 14-16: SB, SB/C1 and KS (opponents with ≥ 2½ of 5) of the round robin
    rules = dataclasses.replace(sf.rules.FIDE, name="held-rr", columns=(
        Criterion("sb"), Criterion("sb_c1", function="sb", params=(("cut", 1),)),
        Criterion("ks", function="koya")))
    st = sf.standings(_held(HELD_RR), rules)
    want = {"sb": [9.25, 6.25, 6.25, 4.25, 3.25, 2.25],
            "sb_c1": [9.25, 4.75, 4.75, 4.25, 3.25, 1.5],
            "ks": [2.0, 0.5, 0.5, 1.0, 0.5, 0.0]}
    for col, values in want.items():
        assert by_player(st, col) == dict(zip("123456", values, strict=True)), col


def test_held_2026_aob_confirms_the_capped_pairing_bye() -> None:
    # Held's /V2 answers (TieBreakServer tests/test_fide_held_individual_exercises.py):
    # AOB changes for these 10 players. Player 6 (3 points, pairing-allocated bye in round
    # 3) meets a dummy capped at ½ × 5 = 2.5 (Art. 16.4.2): BH(6) = 14 (2) + 3 (3½) + 2½
    # + 10 (1) + 8 (2½) = 11½, not 12. Player 10's AOB drops by exactly that ½ over its
    # five opponents (10.90 → 10.80): 6 is the only one of them whose BH changes.
    rules = dataclasses.replace(sf.rules.FIDE_2026, name="held-v2", columns=(Criterion("aob"),))
    st = sf.standings(_held(HELD_SWISS_5), rules)
    assert by_player(st, "bh")["6"] == 11.5
    aob = {"1": 12.40, "3": 12.90, "5": 13.20, "7": 11.70, "8": 12.90, "10": 10.80,
           "12": 14.00, "13": 11.90, "14": 13.00, "16": 13.10}
    got = by_player(st, "aob")
    assert {p: round(got[p] + 1e-9, 2) for p in aob} == aob


# Held's answers to exercises 1-13 and 27-33 (5-round Swiss, C.07-2023), every player, as
# TieBreakServer's tests/test_fide_held_individual_exercises.py (commit b411582b) copies
# them from the paper; the 2026 values are TieBreakServer's /V2 pins of the same
# exercises (Art. 16.4 cap), for the players its tests assert.
_HELD_2023 = {
    "bh": "12.5 13 15.5 15 8.5 12 14.5 13.5 9 13 13.5 11.5 14 11 12 12.5",
    "bh_c1": "11 12 13 11.5 7.5 11 12.5 12 7.5 11.5 12 9.5 12 9 11 11",
    "fb": "13.5 13.5 15 15.5 10 12 13.5 12.5 9.5 12.5 12.5 11.5 13.5 10.5 12 13.5",
    "sb": "8 9.5 10.5 9.75 4.25 6.5 3.25 5.25 2.25 1.5 5.75 4 4.25 4.5 3.5 7.25",
    "sb_c1": "7.25 8.5 9.25 8 3.25 5.5 1.25 3.75 2.25 0 4.25 4 4.25 3 2.5 5.75",
    "ps": "11 13 11 11.5 5 6 6 8.5 2.5 4 5.5 7 7 6 7 10.5",
    "ps_c1": "10 12 10.5 10.5 5 6 5 8 2.5 4 5 7 6 5 7 10",
    "win": "2 3 2 2 2 3 1 2 1 1 2 2 1 2 2 3",
    "won": "2 3 2 2 2 2 1 2 0 1 1 0 1 2 2 3",
    "bpg": "2 3 2 2 2 2 3 2 1 3 2 0 3 2 3 2",
    "bwg": "1 1 1 1 0 1 0 0 0 1 0 0 1 1 1 1",
    "ge": "5 5 5 4 5 5 5 5 3 5 5 3 5 3 5 5",
}
_HELD_2026 = {  # the values the 2026 cap changes; the others are the 2023 ones
    "bh": {"4": 14.0, "11": 12.5}, "bh_c1": {"11": 11.0},
    "fb": {"4": 14.5, "11": 12.0, "12": 11.0},
    "sb": {"4": 9.25, "6": 6.0, "11": 4.75}, "sb_c1": {"4": 7.75, "6": 5.0, "11": 3.25},
}
_HELD_COLUMNS = (
    Criterion("fb", function="fore_buchholz"),
    Criterion("sb_c1", function="sb", params=(("cut", 1),)),
    Criterion("ps_c1", function="ps", params=(("cut", 1),)),
    Criterion("bpg"), Criterion("bwg"), Criterion("ge"))


@pytest.mark.parametrize("preset", ["fide", "fide-2026"])
def test_held_swiss_exercises_every_player(preset: str) -> None:
    rules = dataclasses.replace(sf.rules.get(preset), name=f"held-{preset}",
                                columns=(*sf.rules.get(preset).columns, *_HELD_COLUMNS))
    st = sf.standings(_held(HELD_SWISS_5), rules)
    players = [str(p) for p in range(1, 17)]
    for col, text in _HELD_2023.items():
        want = dict(zip(players, map(float, text.split()), strict=True))
        if preset == "fide-2026":
            want |= _HELD_2026.get(col, {})
        got = by_player(st, col)
        if preset == "fide-2026" and col in ("bh", "bh_c1"):
            # TieBreakServer asserts /V2 BH and BH-C1 only for players 1, 3-5, 8, 11, 16
            # (exercises 3-5); player 6's pairing-allocated bye is capped too (see
            # test_held_2026_aob_confirms_the_capped_pairing_bye)
            want = {p: v for p, v in want.items() if p in ("1", "3", "4", "5", "8", "11",
                                                           "16")}
        assert {p: got[p] for p in want} == want, col


def _de_table(results: pl.DataFrame, de: Criterion = DE) -> pl.DataFrame:
    rules = dataclasses.replace(sf.rules.FIDE, name=f"pts-{de.name}",
                                criteria=(sf.rules.POINTS, de), columns=())
    return sf.standings(results, rules)


def test_direct_encounter_ranks_a_player_no_one_else_can_reach() -> None:
    # C.07 6.3 (2024 text): A, D and E finish on 3 of 4. A beat E (round 1) and D (round
    # 3); D and E never met. A has 2 in the separate standings; D and E have 0 and one
    # encounter left each, so at most 1 whatever its result: A is first, D and E stay
    # tied (their own game is missing). The reading used before left all three tied.
    ms = [(1, "F", "C", "-"), (1, "D", "B", "+"), (1, "E", "A", "-"), (2, "A", "B", "+"),
          (2, "E", "F", "+"), (2, "C", "D", "-"), (3, "A", "D", "+"), (3, "E", "C", "+"),
          (3, "F", "B", "-"), (4, "A", "C", "-"), (4, "B", "E", "-"), (4, "D", "F", "+")]
    st = _de_table(decisive(ms))
    assert by_player(st, "match_points") == {"A": 3.0, "D": 3.0, "E": 3.0, "B": 1.0,
                                             "C": 2.0, "F": 0.0}
    assert {p: by_player(st, "direct_encounter")[p] for p in "ADE"} == {"A": 2, "D": 0, "E": 0}
    assert {p: by_player(st, "rank")[p] for p in "ADE"} == {"A": 1, "D": 2, "E": 2}
    old = _de_table(decisive(ms), DE_POINTS)
    assert {p: by_player(old, "rank")[p] for p in "ADE"} == {"A": 1, "D": 1, "E": 1}


#: 6.3 twice over: A beat B, C and D; B beat C and D; C and D never met (5 rounds, all
#: four on 3 points: the rest against one-off opponents).
DE_CHAIN = [(1, "A", "B", "+"), (1, "C", "O1", "+"), (1, "D", "O2", "+"),
            (2, "A", "C", "+"), (2, "B", "D", "+"), (3, "A", "D", "+"), (3, "B", "C", "+"),
            (4, "A", "O3", "-"), (4, "B", "O4", "+"), (4, "C", "O5", "+"), (4, "D", "O6", "+"),
            (5, "A", "O7", "-"), (5, "B", "O8", "-"), (5, "C", "O9", "+"),
            (5, "D", "O10", "+")]


def test_direct_encounter_second_place_whatever_the_missing_game() -> None:
    # separate standings A 3, B 2, C 0, D 0; C and D could each reach 1 (their missing
    # game), B 2 and A 3 are out of reach: A first, B second, C and D tied (C.07 6.3).
    st = _de_table(decisive(DE_CHAIN))
    assert {p: by_player(st, "match_points")[p] for p in "ABCD"} == dict.fromkeys("ABCD", 3.0)
    assert {p: by_player(st, "direct_encounter")[p] for p in "ABCD"} == {
        "A": 3, "B": 2, "C": 0, "D": 0}
    assert {p: by_player(st, "rank")[p] for p in "ABCD"} == {"A": 1, "B": 2, "C": 3, "D": 3}
    # the group is not complete (C-D): the points reading ranks no one
    old = by_player(_de_table(decisive(DE_CHAIN), DE_POINTS), "direct_encounter")
    assert {p: old[p] for p in "ABCD"} == dict.fromkeys("ABCD", 0.0)
    # C beating D by forfeit (round 6; C lost round 5 instead, A and B absent in round 6:
    # all four still on 3) is still a missing game (6.1.1): the same order. Counted as a
    # game (forfeits=True), it completes the group: A 3, B 2, C 1, D 0.
    ms = [m if m[:2] != (5, "C") else (5, "C", "O9", "-") for m in DE_CHAIN]
    forfeit = pl.concat([decisive(ms), games([(6, "C", "D", "+", "forfeit_win"),
                                               (6, "D", "C", "-", "forfeit_loss")])])
    st = _de_table(forfeit)
    assert {p: by_player(st, "match_points")[p] for p in "ABCD"} == dict.fromkeys("ABCD", 3.0)
    assert {p: by_player(st, "direct_encounter")[p] for p in "ABCD"} == {
        "A": 3, "B": 2, "C": 0, "D": 0}
    assert {p: by_player(_de_table(forfeit, DE_P), "direct_encounter")[p] for p in "ABCD"} == {
        "A": 3, "B": 2, "C": 1, "D": 0}


#: 6.2: A, B, C and D all met and all finish on 3 of 5. Among them A 2, B 2, C 1, D 1 (A-B
#: drew, A beat C, A-D drew, B beat C, B-D drew, C beat D); their other two rounds are
#: against one-off opponents.
DE_AGAIN = [(1, "A", "B", "="), (1, "C", "D", "+"), (2, "A", "C", "+"), (2, "B", "D", "="),
            (3, "A", "D", "="), (3, "B", "C", "+"),
            (4, "A", "O1", "+"), (4, "B", "O2", "+"), (4, "C", "O3", "+"), (4, "D", "O4", "+"),
            (5, "A", "O5", "-"), (5, "B", "O6", "-"), (5, "C", "O7", "+"), (5, "D", "O8", "+")]


def test_direct_encounter_again_on_the_players_it_leaves_tied() -> None:
    # the separate standings split {A, B} (2) from {C, D} (1); Art. 6 again on each: A-B
    # drew (still tied), C beat D. Ranks A 1, B 1, C 3, D 4. The points reading stops at
    # the first pass: C and D tied on 1.
    st = _de_table(decisive(DE_AGAIN))
    assert {p: by_player(st, "match_points")[p] for p in "ABCD"} == dict.fromkeys("ABCD", 3.0)
    assert {p: by_player(st, "direct_encounter")[p] for p in "ABCD"} == {
        "A": 2, "B": 2, "C": 1, "D": 0}
    assert {p: by_player(st, "rank")[p] for p in "ABCD"} == {"A": 1, "B": 1, "C": 3, "D": 4}
    old = _de_table(decisive(DE_AGAIN), DE_POINTS)
    assert {p: by_player(old, "direct_encounter")[p] for p in "ABCD"} == {
        "A": 2.0, "B": 2.0, "C": 1.0, "D": 1.0}
    assert {p: by_player(old, "rank")[p] for p in "CD"} == {"C": 3, "D": 3}


def test_direct_encounter_averages_a_pair_that_met_twice() -> None:
    # C.07 6.1.2: P beat Q twice (rounds 1 and 4), Q beat R, R beat P; all three on 2 of
    # 4. Averaged, each scores 1 among the three: no one is ranked. Summed (the points
    # reading), P has 2 and is first.
    ms = [(1, "P", "Q", "+"), (1, "R", "O1", "+"), (2, "Q", "R", "+"), (2, "P", "O2", "-"),
          (3, "R", "P", "+"), (3, "Q", "O3", "+"), (4, "P", "Q", "+"), (4, "R", "O4", "-")]
    st = _de_table(decisive(ms))
    assert {p: by_player(st, "match_points")[p] for p in "PQR"} == dict.fromkeys("PQR", 2.0)
    assert {p: by_player(st, "direct_encounter")[p] for p in "PQR"} == dict.fromkeys("PQR", 0)
    old = _de_table(decisive(ms), DE_POINTS)
    assert {p: by_player(old, "direct_encounter")[p] for p in "PQR"} == {
        "P": 2.0, "Q": 1.0, "R": 1.0}


def test_direct_encounter_method_is_checked() -> None:
    with pytest.raises(sf.RulesetError, match="method='mean'"):
        _de_table(decisive(DE_AGAIN), Criterion("direct_encounter",
                                                 params=(("method", "mean"),)))


def _small_event(seed: int) -> list[dict[str, object]]:
    """2-6 players, 1-5 rounds of random pairings (some sit out), the lower id winning
    three times in four: tie groups with and without every pair met, repeated pairs."""
    rng = random.Random(seed)
    players, rows = [f"p{i}" for i in range(rng.randint(2, 6))], []
    for rnd in range(1, rng.randint(1, 5) + 1):
        present = [p for p in players if rng.random() < 0.85]
        rng.shuffle(present)
        for a, b in zip(present[::2], present[1::2], strict=False):
            x = rng.random()
            g = (1, 0, 0) if x < 0.75 else (0, 0, 1) if x < 0.9 else (0, 1, 0)
            g = g if a < b else (g[1], g[0], g[2])
            for p, o, (w, lo, d) in ((a, b, g), (b, a, (g[1], g[0], g[2]))):
                rows.append({"event_id": f"e{seed}", "round": rnd, "player_id": p,
                             "opponent_id": o, "games_won": w, "games_lost": lo,
                             "games_drawn": d})
    return rows


def test_direct_encounter_engine_equals_reference_on_small_events() -> None:
    # DE as the only criterion (no points first): every event is one tie group, so Art. 6
    # decides it all, 6.3 included; the engine on all events in one table against the
    # plain-Python recursion (tests/reference.py::_de_classes), event by event
    from tests import reference as ref

    events = [rows for seed in range(400) if (rows := _small_event(seed))]
    rules = dataclasses.replace(sf.rules.FIDE, name="de-only", points_first=False,
                                criteria=(DE,), columns=())
    st = sf.standings(pl.DataFrame([r for rows in events for r in rows]), rules)
    got = {(e, p): v for e, p, v in st.select("event_id", "player_id", "direct_encounter")
           .iter_rows()}
    want, leaders = {}, 0
    for rows in events:
        vals = ref.fide(rows)
        ref.fide_direct_encounter(vals, [])
        want |= {(rows[0]["event_id"], p): v["direct_encounter"] for p, v in vals.items()}
        met = {(p, o) for p, v in vals.items() for (o, _r) in v["_otb"]}
        leaders += any(v["direct_encounter"] for v in vals.values()) and any(
            (p, o) not in met for p in vals for o in vals if p != o)
    assert got == want
    assert leaders >= 5  # groups not everyone met, ranked by 6.3


def test_a_sonneborn_berger_cut_past_the_rounds_leaves_nothing_at_once() -> None:
    """Sonneborn-Berger's Cut-n and Median-n cut one opponent a step of the plan: a cut of
    10⁶ built 10⁶ joins and never returned (bad data 206). No more steps than a player has
    rounds: the same values as cutting every round."""
    from tests.helpers import bounded

    def sb(cut: int, median: int) -> list[float]:
        crit = Criterion("sbx", "sb", params=(("cut", cut), ("median", median)))
        rules = dataclasses.replace(chess(), name="sbx", criteria=(sf.rules.POINTS, crit))
        return sf.standings(ch_f2(), rules).sort("player_id")["sbx"].to_list()

    assert bounded(lambda: sb(10**6, 0), timeout=20) == sb(3, 0)
    assert bounded(lambda: sb(0, 10**6), timeout=20) == sb(0, 3)
    assert sb(1, 0) != sb(3, 0)


@pytest.mark.parametrize(("preset", "bh_x"), [("fide", 5.5), ("fide-2026", 4.5),
                                              ("fide-2009", 4.5)])
def test_unplayed_rounds_count_the_rounds_played_not_their_numbers(preset: str,
                                                                   bh_x: float) -> None:
    """An event whose rounds are numbered 1, 2, 4 played three rounds (no row has the
    number 3, so it is no round: no absence is inferred in it either). X takes a
    requested half-point bye in the first round and scores 2.5; A finishes on 2, B on 1.
    X's Buchholz is the own-round term + A 2 + B 1:

    - 2023 (Art. 16.4): a dummy with X's own score, 2.5 → 5.5.
    - 2026 (16.4.2): capped by a draw a round, 0.5 × 3 = 1.5 → 4.5 (4 × 0.5 = 2 → 5.0
      when the number 4 was read as the count of rounds).
    - 2009: the virtual opponent 0 + (1 − 0.5) + 0.5 × (3 − 1) = 1.5 → 4.5 (0.5 × (4 − 1)
      → 5.0 before).
    """
    spec = [(1, "X", None, "=", "half_bye"), (1, "C", None, "-", "zero_bye")]
    spec += [(r, a, b, res, None) for r, a, b, res in
             [(1, "A", "B", "+"), (1, "B", "A", "-"), (2, "X", "A", "+"), (2, "A", "X", "-"),
              (2, "B", "C", "+"), (2, "C", "B", "-"), (4, "X", "B", "+"), (4, "B", "X", "-"),
              (4, "A", "C", "+"), (4, "C", "A", "-")]]
    st_ = sf.standings(games(spec), preset)
    assert by_player(st_, "match_points") == {"X": 2.5, "A": 2.0, "B": 1.0, "C": 0.0}
    assert by_player(st_, "bh")["X"] == bh_x
    # the same event numbered 1, 2, 3 gives the same values
    same = sf.standings(games([(3 if r == 4 else r, *rest) for r, *rest in spec]), preset)
    assert same.equals(st_)
    # Koya's maximum score is a win a round played: with 2/3 of 3 (not 4) rounds, A's 2
    # qualifies, so X's KS is the point X took from A (0 when 4 was the count)
    ks = Criterion("ks", function="koya", params=(("limit", Fraction(2, 3)),))
    koya = sf.standings(games(spec), dataclasses.replace(sf.rules.get(preset),
                                                         name="ks", columns=(ks,)))
    assert by_player(koya, "ks")["X"] == 1.0


#: Every registered chess criterion, with the modifiers that read rounds or unplayed rounds.
EVERY = (*ALL, buchholz(cut=1, median=1, name="bh_c1m1"),
         Criterion("sb_c1", "sb", params=(("cut", 1),)),
         Criterion("sb_c2", "sb", params=(("cut", 2),)),
         Criterion("sb_m1", "sb", params=(("median", 1),)),
         Criterion("ps_c1", "ps", params=(("cut", 1),)),
         Criterion("ps_c2", "ps", params=(("cut", 2),)),
         Criterion("fb", "fore_buchholz"), Criterion("fb_c1", "fore_buchholz",
                                                     params=(("cut", 1),)),
         Criterion("abh"), Criterion("ks", "koya"), Criterion("aob"), Criterion("vur"),
         Criterion("num"), Criterion("ge"))


def test_progressive_cut_leaves_out_the_first_rounds_played_not_numbers() -> None:
    """PS/Cn leaves out the running totals of the event's first n rounds: numbered 3, 5, 7,
    those are the rounds numbered 3 (and 5), not the numbers 1 and 2, which no row has.
    A wins, draws, wins: running totals 1, 1½, 2½, PS 5, PS/C1 4, PS/C2 2½ (the cut
    compared the numbers with n before: 5 and 5)."""
    ms = [(3, "A", "B", "+"), (3, "C", "D", "="), (5, "A", "C", "="), (5, "B", "D", "+"),
          (7, "A", "D", "+"), (7, "B", "C", "-")]
    rules = dataclasses.replace(chess(), name="ps-cuts", columns=EVERY)
    st_ = sf.standings(decisive(ms), rules)
    assert (by_player(st_, "ps")["A"], by_player(st_, "ps_c1")["A"],
            by_player(st_, "ps_c2")["A"]) == (5.0, 4.0, 2.5)
    plain = sf.standings(decisive([({3: 1, 5: 2, 7: 3}[r], *m) for r, *m in ms]), rules)
    assert plain.equals(st_)


@pytest.mark.parametrize(("rule", "sb_c1"), [("fide-2023", 2.0), ("fide-2026", 2.0),
                                             ("fide-2009", 2.75)])
def test_sonneborn_berger_cuts_a_voluntarily_unplayed_round_first_only_under_article_16(
        rule: str, sb_c1: float) -> None:
    """Art. 16.5 (2023 and 2026 texts) cuts a voluntarily unplayed round first; the 2009
    rule (rules.md §4.2) has no such clause, and Buchholz's cuts already read it so
    (``_chess.vur_first``): Sonneborn-Berger's cut took the VUR under every rule.

    X: half-point bye, beats A, loses to B; X, B, C finish on 1½, A on 2. X's SB terms:
    round 1 ½ × the dummy (X's 1½ under 2023 and 2026; 2009: 0 + ½ + ½ × 2 = 1½) = ¾,
    A 2 × 1 = 2, B 1½ × 0 = 0: SB 2¾. Cut-1: the VUR's ¾ (2023, 2026: 2) or the
    lowest-scoring opponent's, B's 0 (2009: 2¾; it was 2)."""
    spec = [(1, "X", None, "=", "half_bye"), (1, "C", None, "+", "pairing_bye")]
    spec += [(r, a, b, res, None) for r, a, b, res in
             [(1, "A", "B", "+"), (1, "B", "A", "-"), (2, "X", "A", "+"), (2, "A", "X", "-"),
              (2, "B", "C", "="), (2, "C", "B", "="), (3, "B", "X", "+"), (3, "X", "B", "-"),
              (3, "A", "C", "+"), (3, "C", "A", "-")]]
    st_ = sf.standings(games(spec), dataclasses.replace(chess(rule), columns=EVERY))
    assert by_player(st_, "match_points") == {"X": 1.5, "A": 2.0, "B": 1.5, "C": 1.5}
    assert (by_player(st_, "sb")["X"], by_player(st_, "sb_c1")["X"]) == (2.75, sb_c1)
    assert by_player(st_, "bh_c1")["X"] == 3.5  # (the VUR's 1½ or B's 1½: either way)


@pytest.mark.parametrize("preset", ["fide", "fide-2026", "fide-2009"])
@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=hst.integers(0, 2**32 - 1))
def test_every_chess_criterion_reads_the_rounds_played(preset: str, seed: int) -> None:
    """Renumbered with gaps and an offset, an event with byes, forfeits and absences keeps
    every chess criterion's value, the modifiers' (PS/Cn, SB and Buchholz cuts, FB) too:
    the rules count rounds by their place (docs/rules-decisions.md, "Rounds are the rounds
    played")."""
    rng = random.Random(seed)
    rows = make_event(seed, "chess")
    numbers, n = {}, rng.randint(2, 40)
    for r in sorted({r["round"] for r in rows}):
        numbers[r] = n
        n += rng.choice([1, 1, 2, 5])
    gapped = [{**r, "round": numbers[r["round"]]} for r in rows]
    rules = dataclasses.replace(sf.rules.get(preset), name=f"{preset}-every", columns=EVERY)
    cols = [c for c in sf.standings(frame(rows, True), rules).columns if c != "rank"]
    plain = sf.standings(frame(rows, True), rules).sort("player_id").select(cols)
    renumbered = sf.standings(frame(gapped, True), rules).sort("player_id").select(cols)
    assert plain.equals(renumbered), f"{preset} seed={seed} rounds {numbers}"
