"""The validation report: one test per kind, exact rows, severities, the CLI's exit codes."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import swissframe as sf
from swissframe.cli import main
from swissframe.validate import KINDS, PROBLEM_SCHEMA, ValidationReport, raise_for, validate
from tests.helpers import bounded

ROOT = Path(__file__).resolve().parents[1]

#: A clean 4-player, 3-round best-of-three event (hand-written).
GOOD = sf.from_matches(pl.DataFrame({
    "event_id": ["e"] * 6,
    "round": [1, 1, 2, 2, 3, 3],
    "player_a": ["A", "C", "A", "B", "A", "B"],
    "player_b": ["B", "D", "C", "D", "D", "C"],
    "games_a": [2, 2, 1, 0, 2, 1],
    "games_b": [1, 0, 1, 2, 0, 2],
    "games_drawn": [0, 0, 1, 0, 0, 0]}))


def kinds(report: ValidationReport) -> dict[str, int]:
    return dict(report.summary.select("kind", "count").iter_rows())


def only(report: ValidationReport, kind: str) -> pl.DataFrame:
    return report.problems.filter(pl.col("kind") == kind)


def with_row(df: pl.DataFrame, **row: object) -> pl.DataFrame:
    return pl.concat([df, pl.DataFrame([row])], how="diagonal_relaxed")


def set_row(df: pl.DataFrame, rnd: int, player: str, **values: object) -> pl.DataFrame:
    hit = (pl.col("round") == rnd) & (pl.col("player_id") == player)
    return df.with_columns(pl.when(hit).then(pl.lit(v)).otherwise(pl.col(c)).alias(c)
                           for c, v in values.items())


# ----------------------------------------------------------------------------- basics


def test_clean_event() -> None:
    r = validate(GOOD)
    assert r.clean
    assert r.ok
    assert r.rows == 12
    assert r.events == 1
    assert r.problems.schema == pl.Schema(PROBLEM_SCHEMA)
    assert r.summary.height == 0
    assert str(r).endswith("no problems found.")
    raise_for(r)  # no error: nothing raised


def test_every_kind_is_documented_with_a_severity() -> None:
    doc = (ROOT / "docs" / "bad-data.md").read_text(encoding="utf-8")
    for kind, info in KINDS.items():
        assert info.severity in ("error", "warning", "note")
        assert f"`{kind}`" in doc, kind


def test_lazy_input_and_default_event_id() -> None:
    r = validate(GOOD.drop("event_id").lazy())
    assert r.clean
    assert r.events == 1


def test_bad_arguments_raise() -> None:
    with pytest.raises(sf.SchemaError, match=r"validate takes a polars DataFrame .*got a dict\. "
                                             r"Hint: make a table of it: pl\.DataFrame"):
        validate({"round": [1]})  # type: ignore[arg-type]
    with pytest.raises(sf.RulesetError, match="unknown ruleset 'nope'"):
        validate(GOOD, rules="nope")
    for bad in (0, -1, True, 2.0, "three", ""):
        with pytest.raises(sf.SchemaError, match="best_of must be a whole number ≥ 1, 'auto'"):
            validate(GOOD, best_of=bad)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- schema


def test_schema_missing_column_stops_row_checks() -> None:
    r = validate(GOOD.drop("games_drawn"))
    assert kinds(r) == {"schema": 1}
    assert "missing required column(s) ['games_drawn']" in r.problems["detail"][0]
    assert r.events == 0
    assert not r.ok


def test_schema_mistyped_column_and_bad_cells() -> None:
    df = GOOD.with_columns(pl.col("games_won").cast(pl.String))
    df = set_row(df, 2, "B", games_won="two")
    r = validate(df)
    assert kinds(r)["schema"] == 1
    bad = only(r, "bad_value")
    assert bad.select("round", "player_id", "opponent_id", "value").rows() == [
        (2, "B", "D", "two")]
    assert bad["detail"][0] == "games_won 'two' is not a whole number"
    # the bad row is left out of the other checks: its partner's row is now one-sided
    assert only(r, "missing_mirror").select("round", "player_id").rows() == [(2, "D")]


def test_float_games_whole_numbers_are_read_fractions_are_bad() -> None:
    df = GOOD.with_columns(pl.col("games_lost").cast(pl.Float64))
    r = validate(df)
    assert kinds(r) == {"schema": 1}
    df = set_row(df, 1, "A", games_lost=1.5)
    assert only(validate(df), "bad_value")["value"].to_list() == ["1.5"]


def test_integer_ids_are_a_schema_error_but_rows_are_still_checked() -> None:
    df = GOOD.with_columns(pl.col("player_id").replace({"A": "1", "B": "2", "C": "3", "D": "4"})
                           .cast(pl.Int64),
                           pl.col("opponent_id").replace({"A": "1", "B": "2", "C": "3", "D": "4"})
                           .cast(pl.Int64))
    df = df.with_columns(pl.when((pl.col("round") == 1) & (pl.col("player_id") == 1)).then(3)
                         .otherwise(pl.col("games_won")).alias("games_won"))
    r = validate(df)
    assert kinds(r) == {"schema": 2, "impossible_score": 1, "mirror_mismatch": 2}


def test_unusable_column_type() -> None:
    df = GOOD.with_columns(pl.col("games_won").map_elements(lambda v: [v],
                                                            return_dtype=pl.List(pl.Int64)))
    r = validate(df)
    assert kinds(r) == {"schema": 1}
    assert "cannot be read as one" in r.problems["detail"][0]


def test_huge_unsigned_values_are_bad_cells() -> None:
    df = GOOD.with_columns(pl.col("games_drawn").cast(pl.UInt64))
    df = set_row(df, 3, "A", games_drawn=2**64 - 1)
    bad = only(validate(df), "bad_value")
    assert bad.select("player_id", "value").rows() == [("A", str(2**64 - 1))]


def test_unknown_unplayed_code() -> None:
    df = GOOD.with_columns(pl.lit(None, dtype=pl.String).alias("unplayed"))
    df = with_row(df, event_id="e", round=3, player_id="E", opponent_id=None, games_won=2,
                  games_lost=0, games_drawn=0, unplayed="bye")
    r = validate(df)
    assert only(r, "bad_value").select("player_id", "value").rows() == [("E", "bye")]


def test_stage_snapshot_ruleset_needs_a_stage_column() -> None:
    staged = dataclasses.replace(sf.rules.MTG, name="mtg-staged", snapshot="stage")
    r = validate(GOOD, rules=staged)
    assert kinds(r) == {"schema": 1}
    assert "no 'stage' column" in r.problems["detail"][0]
    assert validate(GOOD.with_columns(pl.lit("day1").alias("stage")), rules=staged).clean


# ----------------------------------------------------------------------------- contract


def test_null_phase_is_reported() -> None:
    df = GOOD.with_columns(pl.when(pl.col("round") == 3).then(None).otherwise(pl.lit("swiss"))
                           .alias("phase"))
    r = validate(df)
    assert kinds(r) == {"null_value": 4}
    assert "null in phase" in only(r, "null_value")["detail"][0]


def test_contract_kinds_from_find_problems() -> None:
    df = set_row(GOOD, 1, "B", games_won=2)  # B also claims 2 games: contradictory mirror
    df = df.filter(~((pl.col("round") == 2) & (pl.col("player_id") == "D")))  # one-sided
    df = with_row(df, event_id="e", round=3, player_id="A", opponent_id="A", games_won=2,
                  games_lost=0, games_drawn=0)  # self-pairing, and a duplicate seat
    df = with_row(df, event_id="e", round=3, player_id="C", opponent_id="Zed", games_won=2,
                  games_lost=0, games_drawn=0)  # unknown opponent, duplicate seat
    df = with_row(df, event_id="e", round=0, player_id="B", opponent_id=None, games_won=2,
                  games_lost=0, games_drawn=0)
    df = with_row(df, event_id="e", round=1, player_id="F", opponent_id=None, games_won=-2,
                  games_lost=0, games_drawn=0, phase="swiss")
    df = with_row(df, event_id="e", round=None, player_id="G", opponent_id=None, games_won=2,
                  games_lost=0, games_drawn=0, phase="swiss")
    df = with_row(df, event_id="e", round=1, player_id="H", opponent_id=None, games_won=2,
                  games_lost=0, games_drawn=0, phase="top8")
    df = df.with_columns(pl.col("phase").fill_null("swiss"))
    r = validate(df)
    got = kinds(r)
    for kind in ("mirror_mismatch", "missing_mirror", "self_pairing", "duplicate_seat",
                 "unknown_opponent", "round_below_1", "negative_games", "null_value",
                 "bad_phase"):
        assert got.get(kind, 0) >= 1, kind
        assert only(r, kind)["severity"].unique().to_list() == ["error"]
    mm = only(r, "mirror_mismatch")
    assert mm.select("round", "player_id", "games_won", "games_lost").sort("player_id").rows() \
        == [(1, "A", 2, 1), (1, "B", 2, 2)]
    assert only(r, "missing_mirror").select("round", "player_id", "opponent_id").rows() == [
        (2, "B", "D")]
    assert only(r, "unknown_opponent")["opponent_id"].to_list() == ["Zed"]
    assert sorted(only(r, "duplicate_seat")["player_id"].to_list()) == ["A", "C"]
    assert only(r, "null_value")["player_id"].to_list() == ["G"]
    # the engine refuses exactly these tables
    with pytest.raises(sf.ValidationError):
        sf.standings(df)


# ----------------------------------------------------------------------------- scores


def test_impossible_scores_best_of_three() -> None:
    df = set_row(GOOD, 1, "A", games_won=3, games_lost=0)
    df = set_row(df, 1, "B", games_won=0, games_lost=3)
    df = set_row(df, 3, "B", games_won=2, games_lost=2)
    df = set_row(df, 3, "C", games_won=2, games_lost=2)
    r = validate(df)
    assert kinds(r) == {"impossible_score": 2}  # one row per match, not per seat
    assert only(r, "impossible_score").select(
        "round", "player_id", "opponent_id", "games_won", "games_lost").rows() == [
        (1, "A", "B", 3, 0), (3, "B", "C", 2, 2)]
    assert "3-0-0 is not a possible best-of-3 result" in only(r, "impossible_score")["detail"][0]


def test_short_win_at_time_is_allowed() -> None:
    df = set_row(GOOD, 1, "A", games_won=1, games_lost=0, games_drawn=1)
    df = set_row(df, 1, "B", games_won=0, games_lost=1, games_drawn=1)
    assert validate(df).clean


def test_best_of_one_and_unchecked_and_games_known() -> None:
    assert kinds(validate(GOOD, best_of=1)) == {"impossible_score": 6}
    assert validate(GOOD, best_of=None).clean
    assert validate(GOOD, best_of=5).clean
    assert validate(GOOD.with_columns(pl.lit(False).alias("games_known")), best_of=1).clean


@pytest.mark.parametrize(("cell", "checked"), [
    ("no", 0), (" FALSE ", 0), ("0", 0), ("yes", 6), ("x", 6), ("", 6), (1, 6), (0, 0)])
def test_games_known_is_read_as_a_flag(tmp_path: Path, cell: object, checked: int) -> None:
    """Class 187: ``games_known`` (the decklist reader's column: False where the platform
    publishes no game counts, whose scores are then not checked) written to a file and
    read back, or given as text: Polars casts no text to Boolean, so ``validate`` (and
    ``swissframe validate``, exit 2) ended in an internal ``InvalidOperationError``. Its
    cells are read as every flag is (``schema.flag_values``); a cell that is no flag
    leaves the score checked."""
    table = GOOD.with_columns(pl.Series("games_known", [cell] * GOOD.height))
    assert kinds(validate(table, best_of=1)).get("impossible_score", 0) == checked
    f = tmp_path / "e.csv"
    table.with_columns(pl.col("games_known").cast(pl.String)).write_csv(f)
    assert main(["validate", str(f), "--best-of", "1", "--format", "json", "-o",
                 str(tmp_path / "r.json")]) == (1 if checked else 0)


def test_unusual_score_zero_games_and_playoff_draw() -> None:
    df = set_row(GOOD, 2, "A", games_won=0, games_lost=0, games_drawn=9)
    df = set_row(df, 2, "C", games_won=0, games_lost=0, games_drawn=9)
    df = set_row(df, 2, "B", games_won=0, games_lost=0)
    df = set_row(df, 2, "D", games_won=0, games_lost=0)
    df = pl.concat([df, sf.from_matches(pl.DataFrame({
        "event_id": ["e"], "round": [4], "player_a": ["A"], "player_b": ["C"],
        "games_a": [1], "games_b": [1], "games_drawn": [1], "phase": ["playoff"]}))],
        how="diagonal_relaxed").with_columns(pl.col("phase").fill_null("swiss"))
    r = validate(df)
    assert kinds(r) == {"unusual_score": 1, "zero_games": 1, "playoff_draw": 1}
    assert only(r, "zero_games").select("round", "player_id", "opponent_id").rows() == [
        (2, "B", "D")]
    assert r.ok
    assert not r.clean
    assert r.problems["severity"].unique().to_list() == ["warning"]


# ----------------------------------------------------------------------------- rounds


def test_missing_rounds_in_the_middle_and_at_the_start() -> None:
    df = GOOD.with_columns(pl.col("round").replace({2: 5, 3: 6}))
    r = validate(df)
    assert kinds(r) == {"missing_round": 1}
    row = only(r, "missing_round").row(0, named=True)
    assert (row["round"], row["value"]) == (2, "2-4")
    assert row["detail"] == "no row in rounds 2–4 (the event has rows up to round 6)"
    r = validate(GOOD.with_columns(pl.col("round") + 1))
    assert only(r, "missing_round").select("round", "detail").rows() == [
        (1, "no row in round 1 (the event has rows up to round 4)")]


def test_an_event_with_only_playoff_rows_is_said() -> None:
    """Class 73: a playoff bracket exported on its own has no Swiss standings: the event
    vanished from ``standings`` (exit 0) and validate said "no problems found"."""
    swiss = GOOD.with_columns(pl.lit("swiss").alias("phase"))
    bracket = swiss.with_columns(pl.lit("top8").alias("event_id"), pl.lit("playoff").alias("phase"))
    r = validate(pl.concat([swiss, bracket.filter(pl.col("round") == 3)]))
    # (its round 3 is all it has: rounds 1–2 are missing too)
    assert kinds(r) == {"no_swiss_round": 1, "missing_round": 1}
    row = only(r, "no_swiss_round").row(0, named=True)
    assert (row["severity"], row["event_id"], row["round"]) == ("warning", "top8", None)
    assert row["detail"] == ("4 playoff rows in round 3 and no Swiss row: the event "
                             "has no Swiss standings")
    assert validate(swiss.filter(pl.col("round") == 1).with_columns(
        pl.when(pl.col("player_id") == "A").then(pl.lit("playoff")).otherwise(pl.col("phase"))
        .alias("phase"))).problems.filter(pl.col("kind") == "no_swiss_round").height == 0


def test_huge_round_gap_is_one_row_not_an_expansion() -> None:
    # a gap of 10**15 rounds described as one range, never expanded round by round (which
    # would not finish: bounded() fails on a hang, it does not time the call)
    df = GOOD.with_columns(pl.when(pl.col("round") == 3).then(10**15).otherwise(pl.col("round"))
                           .alias("round"))
    r = bounded(lambda: validate(df), timeout=120)
    assert only(r, "missing_round")["value"].to_list() == [f"3-{10**15 - 1}"]


def test_late_entry_and_late_return() -> None:
    # B skips round 2 and returns in round 3 (D gets a bye in round 2); E enters in round 2
    df = GOOD.filter(~((pl.col("round") == 2) & pl.col("player_id").is_in(["B", "D"])))
    df = with_row(df, event_id="e", round=2, player_id="D", opponent_id="E", games_won=2,
                  games_lost=0, games_drawn=0)
    df = with_row(df, event_id="e", round=2, player_id="E", opponent_id="D", games_won=0,
                  games_lost=2, games_drawn=0)
    r = validate(df)
    assert kinds(r) == {"late_entry": 1, "late_return": 1}
    assert only(r, "late_entry").select("round", "player_id").rows() == [(2, "E")]
    ret = only(r, "late_return").row(0, named=True)
    assert (ret["round"], ret["player_id"]) == (2, "B")
    assert ret["detail"].startswith("no row in round 2 but plays again up to round 3")
    # a late return is computable: MTG counts only the rounds played
    st = sf.standings(df).filter(pl.col("player_id") == "B")
    assert st.select("rounds_played", "dropped").row(0) == (2, False)


# ----------------------------------------------------------------------------- ids, events


def test_suspicious_ids() -> None:
    df = GOOD.with_columns(pl.col("player_id").replace({"D": "D "}),
                           pl.col("opponent_id").replace({"D": "D "}))
    df = with_row(df, event_id="e", round=3, player_id="tab\tname", opponent_id=None,
                  games_won=2, games_lost=0, games_drawn=0)
    r = validate(df)
    got = only(r, "suspicious_id")
    assert sorted(zip(got["player_id"].to_list(), got["opponent_id"].to_list(), strict=True),
                  key=str) == sorted([("D ", None), (None, "D "), ("tab\tname", None)], key=str)
    assert r.ok  # warnings only


def renamed(df: pl.DataFrame, old: str, new: str, rounds: tuple[int, ...]) -> pl.DataFrame:
    """``df`` with player ``old`` spelled ``new`` on both seats of the given rounds."""
    def spelled(c: str) -> pl.Expr:
        hit = (pl.col(c) == old) & pl.col("round").is_in(rounds)
        return pl.when(hit).then(pl.lit(new)).otherwise(pl.col(c)).alias(c)
    return df.with_columns(spelled("player_id"), spelled("opponent_id"))


@pytest.mark.parametrize("char", ["\u200b", "\u200d", "\u200e", "\u202e", "\u2066",
                                  "\ufeff", "\u00ad", "\u0085", "\u2028", "\x00"])
def test_invisible_characters_in_ids(char: str) -> None:
    """Zero-width, bidi, BOM, soft hyphen, C1 control, line separator: a reader sees 'AB'."""
    df = renamed(GOOD, "A", f"A{char}B", (1, 2, 3))
    got = only(validate(df), "suspicious_id")
    assert sorted(got["detail"].to_list()) == [
        f"opponent_id {f'A{char}B'!r} has invisible characters (control, zero-width or bidi)",
        f"player_id {f'A{char}B'!r} has invisible characters (control, zero-width or bidi)"]
    assert "\\u" in got["detail"][0] or "\\x" in got["detail"][0]  # shown escaped
    assert got["value"].to_list() == [f"A{char}B"] * 2


@pytest.mark.parametrize("name", ["\u0639\u0644\u06cc\u200c\u0631\u0636\u0627",  # Persian
                                  "\u0915\u094d\u200d\u0937",  # Devanagari
                                  "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # a family
                                  "\U0001f469\u200d\u2764\ufe0f\u200d\U0001f468 Kim"])
def test_joiners_of_a_names_script_are_not_suspicious(name: str) -> None:
    """A zero-width non-joiner is how Persian spells علی‌رضا, a joiner how an emoji family
    is written: every such name was warned of as holding invisible characters (bad data
    156). A joiner between two letters, marks or symbols of a script other than Latin is
    the name's spelling; the look-alike check still meets 'علیرضا' typed without it."""
    assert only(validate(renamed(GOOD, "A", name, (1, 2, 3))), "suspicious_id").height == 0
    plain = name.replace("\u200c", "").replace("\u200d", "")
    look = only(validate(renamed(GOOD, "A", plain, (3,)).pipe(renamed, "A", name, (1, 2))),
                "suspicious_id")
    assert look["detail"].str.contains("read as one id").to_list() == [True]


#: Characters a joiner belongs between (letters, marks, symbols of scripts other than Latin)
#: and others, for the property below.
_JOINABLE = ["\u0639", "\u0631", "\u0915", "\u094d", "\U0001f468", "\ufe0f", "\u5c71"]
_NOT_JOINABLE = ["a", "\u00e9", "1", " ", "-", "\u3000"]


@settings(deadline=None, max_examples=60)
@given(st.lists(st.sampled_from([*_JOINABLE, *_NOT_JOINABLE, "\u200c", "\u200d"]),
                min_size=1, max_size=8))
def test_a_joiner_is_suspicious_unless_between_joinable_characters(chars: list[str]) -> None:
    """An id is flagged for a joiner exactly when one of its joiners does not stand between
    two joinable characters ('Ali\u200cReza', a joiner at an end or beside a space)."""
    name = "".join(chars)
    if not name.strip() or name != name.strip():
        return  # (blank ids and surrounding spaces: other checks)
    stray = any(c in "\u200c\u200d" and not (0 < i < len(chars) - 1
                                            and chars[i - 1] in _JOINABLE
                                            and chars[i + 1] in _JOINABLE)
                for i, c in enumerate(chars))
    got = only(validate(renamed(GOOD, "A", name, (1, 2, 3))), "suspicious_id")
    flagged = got["detail"].str.contains("invisible characters").any()
    assert flagged == stray, (ascii(name), got["detail"].to_list())


def test_visible_unicode_ids_are_not_suspicious() -> None:
    df = GOOD
    for x, y in [("A", "Eléna"), ("B", "Ｂｏｂ"), ("C", "Ивана"), ("D", "李 雷")]:
        df = renamed(df, x, y, (1, 2, 3))
    assert validate(df).clean


@pytest.mark.parametrize(("stray", "usual"), [
    ("alice", "Alice"),                       # case
    ("Ele\u0301na", "El\u00e9na"),           # decomposed / composed accent (NFD / NFC)
    ("Al\u200bice", "Alice"),                 # zero-width space
    ("\ufeffAlice", "Alice"),                 # byte-order mark
    ("Alice  Smith", "Alice Smith"),          # two spaces
    ("Alice\u00a0Smith", "Alice Smith"),      # no-break space
    (" Alice", "Alice"),                      # surrounding space
    ("Ａｌｉｃｅ", "Alice"),                      # full-width letters (NFKC)
    ("\u0410lice", "Alice"),                  # Cyrillic capital A
    ("STRASSE", "Straße"),                    # case folding of ß
])
def test_lookalike_ids_in_one_event(stray: str, usual: str) -> None:
    """Two ids a reader takes for one are two players to the engine: warned, naming both,
    the event and the rounds of each (issue: look-alike ids were silent)."""
    df = renamed(renamed(GOOD, "A", usual, (1, 2, 3)), usual, stray, (2,))
    r = validate(df)
    assert r.ok  # a warning: they may be two people
    look = only(r, "suspicious_id").filter(pl.col("detail").str.contains("read as one id"))
    assert look.height == 1
    row = look.row(0, named=True)
    assert (row["event_id"], row["round"], row["player_id"], row["value"]) == (
        "e", 2, stray, usual)
    assert f"{stray!r}" in row["detail"]
    assert f"{usual!r}" in row["detail"]
    assert "in round 2 and" in row["detail"]
    assert "in rounds 1, 3 read as one id" in row["detail"]
    assert row["detail"].endswith("one person under two spellings? fix the id in the source")
    # the engine still ranks them as two players (reported, not repaired)
    assert sf.standings(df).height == 5


def test_lookalike_ids_shown_with_their_code_points() -> None:
    df = renamed(renamed(GOOD, "A", "El\u00e9na", (1, 2, 3)), "El\u00e9na", "Ele\u0301na", (2,))
    look = only(validate(df), "suspicious_id")
    assert look["detail"].to_list() == [
        "'Ele\u0301na' (Ele\\u0301na) in round 2 and 'El\u00e9na' (El\\xe9na) in rounds 1, 3 "
        "read as one id once case, Unicode form, spacing and invisible characters are set "
        "aside: one person under two spellings? fix the id in the source"]


def test_lookalike_ids_three_spellings_and_round_ranges() -> None:
    rounds = pl.concat([GOOD.with_columns(pl.col("round") + 3 * k) for k in range(3)])
    df = renamed(renamed(renamed(rounds, "A", "Alice", tuple(range(1, 10))), "Alice", "alice",
                         (4,)), "Alice", "ALICE", (8, 9))
    look = only(validate(df), "suspicious_id")
    assert look.select("event_id", "round", "player_id", "value").rows() == [
        ("e", 4, "alice", "ALICE, Alice")]
    assert look["detail"][0].startswith(
        "'alice' in round 4 and 'ALICE' in rounds 8–9 and 'Alice' in rounds 1–3, 5–7 read as one")


def test_lookalike_ids_only_within_one_event() -> None:
    """'alice' in one event and 'Alice' in another are not reported; nor are accents, and
    with keys= one event is the event id and its keys (a division)."""
    other = renamed(GOOD, "A", "alice", (1, 2, 3)).with_columns(pl.lit("f").alias("event_id"))
    df = pl.concat([renamed(GOOD, "A", "Alice", (1, 2, 3)), other])
    assert validate(df).clean
    assert validate(renamed(renamed(GOOD, "A", "Elena", (1, 2, 3)), "Elena", "Eléna",
                            (2,))).warnings.filter(pl.col("kind") == "suspicious_id").height == 0
    split = renamed(renamed(GOOD, "A", "Alice", (1, 2, 3)), "Alice", "alice", (2,))
    by_division = split.with_columns(pl.lit("masters").alias("division"))
    assert only(validate(by_division, keys=["division"]), "suspicious_id").height == 1
    two = pl.concat([renamed(GOOD, "A", "Alice", (1, 2, 3)).with_columns(
        pl.lit("masters").alias("division")), other.with_columns(
        pl.lit("e").alias("event_id"), pl.lit("juniors").alias("division"))])
    assert only(validate(two, keys=["division"]), "suspicious_id").height == 0


def test_cli_validate_reports_lookalike_ids(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """The probe: a zero-width space in one round of a match CSV gave exit 0 and, at most,
    an indirect late_entry."""
    src = (ROOT / "data" / "events" / "store-championship.csv").read_text(encoding="utf-8")
    assert "\n2,Alice,Ines," in src
    path = tmp_path / "zw.csv"
    path.write_text(src.replace("\n2,Alice,Ines,", "\n2,Al\u200bice,Ines,"), encoding="utf-8")
    assert main(["validate", str(path)]) == 0  # warnings only
    out = capsys.readouterr().out
    assert "WARNING suspicious_id (3)" in out
    assert ("player 'Al\\u200bice': 'Al\\u200bice' in round 2 and 'Alice' in rounds 1, 3–"
            in out)
    assert "player_id 'Al\\u200bice' has invisible characters" in out
    assert main(["validate", str(path), "--strict"]) == 1


def test_empty_id_is_an_error_not_a_phantom_player() -> None:
    """An empty ``player_b`` cell of a match-form table used to become a ranked player."""
    m = pl.DataFrame({"event_id": ["e", "e"], "round": [1, 1], "player_a": ["A", "C"],
                      "player_b": ["B", ""], "games_a": [2, 2], "games_b": [0, 0],
                      "games_drawn": [0, 0]})
    df = sf.from_matches(m)
    with pytest.raises(sf.ValidationError, match="empty opponent_id"):
        sf.standings(df)
    r = validate(df)
    assert not r.ok
    assert set(only(r, "empty_id")["player_id"].to_list()) == {"C", ""}
    assert only(r, "suspicious_id").height == 0  # reported once, as the error


def test_duplicate_events_full_and_truncated_copy() -> None:
    copy = GOOD.with_columns(pl.lit("e-copy").alias("event_id"))
    part = GOOD.filter(pl.col("round") <= 2).with_columns(pl.lit("e-part").alias("event_id"))
    other = GOOD.with_columns(pl.lit("f").alias("event_id"),
                              pl.col("player_id") + "x", pl.col("opponent_id") + "x")
    r = validate(pl.concat([GOOD, copy, part, other]))
    dup = only(r, "duplicate_event").select("event_id", "value", "detail").rows()
    assert sorted(dup) == [
        ("e-copy", "e", "same rounds and results as event 'e' (3 rounds, 12 rows)"),
        ("e-part", "e", "all 2 rounds appear identically in event 'e' (3 rounds): a "
                        "truncated copy?")]  # (e-copy is said to be e: not listed again)
    assert r.ok  # a warning: each event's standings are still right


def test_many_copies_of_an_event_are_each_said_once_against_the_first() -> None:
    """Bad data 263: k copies of one event were paired with each other — k² pairs of
    events sharing a round (10,000 copies of a one-match event: out of memory past 6 GB)
    — and listed k(k − 1)/2 times. Each copy is now named once, against the first copy
    by id, and a truncated copy against the first longer event, as one group-by finds
    them."""
    one = GOOD.filter(pl.col("round") == 1)
    k = 2_000
    copies = pl.concat([one.with_columns(pl.lit(f"c{i:05d}").alias("event_id"))
                        for i in range(k)])
    dup = only(validate(pl.concat([GOOD, copies])), "duplicate_event")
    same = dup.filter(pl.col("detail").str.starts_with("same"))
    assert same.height == k - 1
    assert set(same["value"]) == {"c00000"}
    part = dup.filter(pl.col("detail").str.ends_with("a truncated copy?"))
    assert part.select("event_id", "value").rows() == [("c00000", "e")]


def test_row_details_count_in_words() -> None:
    """validate's details, built per row by Polars expressions, said "row(s)" and
    "round(s)": they count in words, as every message does (``_display.count_expr``)."""
    one = GOOD.filter(pl.col("round") == 1).with_columns(pl.lit("e-one").alias("event_id"))
    dup = only(validate(pl.concat([GOOD, one])), "duplicate_event")
    assert dup["detail"].to_list() == [
        "its 1 round appears identically in event 'e' (3 rounds): a truncated copy?"]
    twin = validate(pl.concat([one, one.with_columns(pl.lit("e-two").alias("event_id"))]))
    assert only(twin, "duplicate_event")["detail"].to_list() == [
        "same rounds and results as event 'e-one' (1 round, 4 rows)"]
    # B misses rounds 2 and 3 of four, and plays round 4
    four = pl.concat([GOOD, GOOD.filter(pl.col("round") == 1).with_columns(
        pl.lit(4, dtype=GOOD.schema["round"]).alias("round"))])
    gone = four.filter(~(pl.col("round").is_in([2, 3]) & pl.col("player_id").is_in(["B", "D"])))
    gone = with_row(with_row(gone, event_id="e", round=2, player_id="D", opponent_id=None,
                             games_won=2, games_lost=0, games_drawn=0),
                    event_id="e", round=3, player_id="D", opponent_id=None, games_won=2,
                    games_lost=0, games_drawn=0)
    ret = only(validate(gone), "late_return").filter(pl.col("player_id") == "B")
    assert ret["detail"][0].startswith("no row in rounds 2, 3 but plays again up to round 4")


def test_duplicate_events_compare_rounds_as_multisets_and_list_in_one_order() -> None:
    # a round is its rows whatever their order; one game count apart is another round
    shuffled = GOOD.reverse().with_columns(pl.lit("e-rev").alias("event_id"))
    changed = GOOD.with_columns(
        pl.lit("e-chg").alias("event_id"),
        pl.when((pl.col("round") == 1) & (pl.col("games_drawn") == 0))
        .then(pl.col("games_drawn") + 1).otherwise(pl.col("games_drawn")))
    copies = [GOOD.with_columns(pl.lit(f"e-{i}").alias("event_id")) for i in range(4)]
    table = pl.concat([GOOD, shuffled, changed, *copies])
    r = validate(table)
    dup = only(r, "duplicate_event")
    assert "e-chg" not in dup["event_id"].to_list() + dup["value"].to_list()
    assert ("e-rev", "e") in dup.select("event_id", "value").rows()
    # an event with several copies: the listing is the same however the rows come
    for seed in range(3):
        again = validate(table.sample(fraction=1.0, shuffle=True, seed=seed))
        assert_frame_equal(only(again, "duplicate_event"), dup)


def test_event_split_across_files_and_file_column() -> None:
    df = GOOD.with_columns(pl.when(pl.col("round") == 3).then(pl.lit("day2.csv"))
                           .otherwise(pl.lit("day1.csv")).alias("src"))
    r = validate(df, origin="src")
    assert kinds(r) == {"event_split": 1}
    row = only(r, "event_split").row(0, named=True)
    assert row["file"] == "day1.csv, day2.csv"
    assert row["detail"] == "event rows come from 2 files: day1.csv, day2.csv"


def test_analysis_keys_separate_events() -> None:
    two = pl.concat([GOOD.with_columns(pl.lit(k).alias("scenario_id")) for k in (1, 2)])
    assert kinds(validate(two)) == {"duplicate_seat": 12}
    r = validate(two, keys=["scenario_id"])
    assert kinds(r) == {"duplicate_event": 1}  # identical scenarios are flagged, not errors
    assert kinds(validate(GOOD, keys=["scenario_id"])) == {"schema": 1}


# ----------------------------------------------------------------------------- report


def test_report_text_groups_and_raise_for() -> None:
    df = set_row(GOOD, 1, "A", games_won=3, games_lost=0)
    df = set_row(df, 1, "B", games_won=0, games_lost=3)
    r = validate(df)
    text = str(r)
    assert "1 error, 0 warnings" in text
    assert "ERROR impossible_score (1):" in text
    # (the one event every problem is of, said once above them)
    assert "all in event 'e'" in text
    assert "  - round 1, player 'A' vs 'B', record 3-0-0" in text
    assert "Hint: correct the score" in text
    assert list(r.by_kind()) == ["impossible_score"]
    with pytest.raises(sf.ValidationError, match="impossible_score") as info:
        raise_for(r)
    assert isinstance(info.value, sf.SwissframeError)
    assert info.value.problems.height == 1  # type: ignore[union-attr]


def test_many_problems_are_all_listed_and_text_is_capped() -> None:
    big = pl.concat([GOOD.with_columns(pl.lit(f"e{i}").alias("event_id"),
                                       pl.col("player_id") + str(i),
                                       pl.col("opponent_id") + str(i)) for i in range(20)])
    big = big.with_columns(pl.when(pl.col("games_won") == 2).then(3)
                           .otherwise(pl.col("games_won")).alias("games_won"))
    r = validate(big)
    assert only(r, "mirror_mismatch").height == 20 * 10
    assert "… and 195 more (see report.problems)" in str(r)
    assert "… and 195 more (in a file)" in r.text(more="in a file")


def test_cli_says_where_the_rows_beyond_the_first_are(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The command line said "… and 195 more (see report.problems)": a Python attribute
    its user has no way to read; it names its own way to list them."""
    path = tmp_path / "many.csv"
    pl.concat([GOOD.with_columns(pl.lit(f"e{i}").alias("event_id")) for i in range(3)]) \
        .with_columns(pl.when(pl.col("games_won") == 2).then(3)
                      .otherwise(pl.col("games_won")).alias("games_won")).write_csv(path)
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert "report.problems" not in out
    assert "more (-o problems.csv lists every one)" in out


# ----------------------------------------------------------------------------- CLI


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    good = tmp_path / "good.csv"
    GOOD.write_csv(good)
    bad = tmp_path / "bad.csv"
    set_row(set_row(GOOD, 1, "A", games_won=3, games_lost=0), 1, "B", games_won=0,
            games_lost=3).with_columns(pl.lit("b").alias("event_id")).write_csv(bad)
    garbage = tmp_path / "garbage.parquet"
    garbage.write_bytes(b"\x00not parquet")
    matches = tmp_path / "matches.csv"
    matches.write_text("round,player_a,player_b,games_a,games_b,games_drawn\n"
                       "1,A,B,2,1,0\n1,C,,,,\n2,A,C,two,0,0\n", encoding="utf-8")
    return {"good": good, "bad": bad, "garbage": garbage, "matches": matches}


def test_cli_exit_codes(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(files["good"])]) == 0
    assert "no problems found" in capsys.readouterr().out
    assert main(["validate", str(files["bad"])]) == 1
    assert "ERROR impossible_score (1)" in capsys.readouterr().out
    assert main(["validate", str(files["good"]), str(files["garbage"])]) == 2
    out = capsys.readouterr().out
    assert "unreadable_file" in out
    assert "garbage.parquet" in out
    assert main(["validate", str(files["good"]) + ".missing"]) == 2
    assert "no such file or folder" in capsys.readouterr().out
    assert main(["validate", str(files["good"]), "--rules", "nope"]) == 2
    assert "unknown ruleset 'nope'" in capsys.readouterr().err
    assert main(["validate", str(files["good"]), "--best-of", "x"]) == 2
    capsys.readouterr()


def test_cli_best_of_strict_and_match_form(files: dict[str, Path],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(files["bad"]), "--best-of", "none"]) == 0
    assert main(["validate", str(files["good"]), "--best-of", "1"]) == 1
    capsys.readouterr()
    assert main(["validate", str(files["matches"]), "--format", "csv"]) == 1
    probs = pl.read_csv(capsys.readouterr().out.encode())
    bad = probs.filter(pl.col("kind") == "bad_value")
    assert bad.select("round", "player_id", "opponent_id", "value").rows() == [
        (2, "A", "C", "two")]
    # warnings only: exit 0, or 1 with --strict
    warn = files["good"].parent / "late.csv"
    GOOD.with_columns(pl.col("round") * 1).filter(
        ~((pl.col("round") == 2) & pl.col("player_id").is_in(["B", "D"]))).write_csv(warn)
    assert main(["validate", str(warn)]) == 0
    assert main(["validate", str(warn), "--strict"]) == 1
    capsys.readouterr()


def test_cli_json_and_output_file(files: dict[str, Path], tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.json"
    assert main(["validate", str(files["good"]), str(files["bad"]), "--format", "json",
                 "-o", str(out)]) == 1
    said = capsys.readouterr()
    assert "1 error" in said.out
    assert f"wrote {out} (" in said.err
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["ok"] is False
    assert doc["summary"] == [{"severity": "error", "kind": "impossible_score", "count": 1}]
    assert doc["rows"] == 24
    assert doc["events"] == 2
    assert doc["problems"][0]["file"].endswith("bad.csv")


def test_cli_folder_with_importer_files(capsys: pytest.CaptureFixture[str]) -> None:
    fixtures = ROOT / "tests" / "fixtures"
    assert main(["validate", str(fixtures / "tom"), str(fixtures / "trf")]) == 0
    out = capsys.readouterr().out
    assert "best of 1" in out
    assert "import_note" in out  # pending matches are reported, not silently dropped


@pytest.mark.parametrize("value", [2**64 - 1, -(2**100)])
def test_an_integer_past_int64_on_either_side_is_named_not_nulled(value: int) -> None:
    """A game count of a wide integer type past Int64: only values above it were named;
    one below it became a null and was reported as "null in games_won". Both sides now go
    through the one whole-number reading (``schema.whole_numbers``)."""
    dtype = pl.UInt64 if value > 0 else pl.Int128
    df = pl.DataFrame({"event_id": ["e", "e"], "round": [1, 1], "player_id": ["A", "B"],
                       "opponent_id": ["B", "A"],
                       "games_won": pl.Series([value, 0], dtype=dtype),
                       "games_lost": [0, 2], "games_drawn": [0, 0]})
    problems = sf.validate(df).problems
    details = problems.filter(pl.col("kind") == "bad_value")["detail"].to_list()
    assert details == [f"games_won '{value}' is beyond the 64-bit integer range"]
    assert "null_value" not in problems["kind"].to_list()


def test_a_note_leaves_the_report_clean_and_is_listed() -> None:
    """A format's routine (``format_note``, severity ``note``) is no problem: the report is
    clean (``validate --strict`` passes) and still lists it, after the problems."""
    def row(severity: str, kind: str) -> dict[str, object]:
        return {"severity": severity, "kind": kind, "detail": f"{kind} here"}

    schema = dict(PROBLEM_SCHEMA)
    noted = ValidationReport(pl.DataFrame([row("note", "format_note")], schema=schema),
                             rows=4, events=1)
    assert noted.ok
    assert noted.clean
    assert noted.notes.height == 1
    assert "no problems found; 1 note." in str(noted)
    assert "NOTE format_note (1)" in str(noted)
    assert "1 note" in repr(noted)
    both = ValidationReport(pl.DataFrame([row("note", "format_note"),
                                          row("warning", "suspicious_id")], schema=schema),
                            rows=4, events=1)
    assert both.ok
    assert not both.clean
    assert "0 errors, 1 warning; 1 note." in str(both)
    assert both.summary["severity"].to_list() == ["warning", "note"]


# ------------------------------------------------------------- a read's notes (a Source)


MELEE_DRAWS = ROOT / "tests" / "fixtures" / "decklist" / "melee-draws-2-2024-07-13.json"
PENDING_TOM = ROOT / "tests" / "fixtures" / "tom" / "pending.tdf"
FIXTURES = ROOT / "tests" / "fixtures"


def test_validate_of_a_source_lists_its_format_notes() -> None:
    # only the CLI listed a reader's notes: sf.validate(src.results) said nothing of
    # melee's draw listed once per player (a format_note of severity note)
    src = sf.read(MELEE_DRAWS)
    assert sf.validate(src.results).problems.height == 0
    report = sf.validate(src)
    assert report.clean
    assert report.rules == "melee-e2"  # rules="auto": the ruleset the read inferred
    assert report.files == tuple(src.files)
    notes = report.notes
    assert notes.select("kind", "round", "player_id").rows() == [
        ("format_note", 1, "B"), ("format_note", 2, "A"), ("format_note", 2, "C")]
    assert notes["detail"].str.starts_with("draw_listed_again: ").all()
    assert notes["file"].is_not_null().all()


def test_validate_of_a_source_lists_repairs_and_unreadable_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tdf"
    bad.write_text("<tournament><players>")
    with pytest.warns(sf.errors.ImportNotesWarning):
        src = sf.read([PENDING_TOM, bad], on_error="collect")
    report = sf.validate(src, best_of=1)
    assert report.rules == "pokemon"
    assert kinds(report) == {"unreadable_file": 1, "import_note": 2}
    assert only(report, "unreadable_file")["file"].to_list() == [str(bad)]
    pending = only(report, "import_note")
    assert pending.select("round", "player_id").rows() == [(2, "1"), (2, "4")]
    assert pending["severity"].unique().to_list() == ["warning"]


def test_best_of_auto_reads_the_files_format_as_the_command_line() -> None:
    """``best_of="auto"`` (the default) checks a TRF or TOM read as best of one (they
    record matches, not games) and a table or decklist as best of three — what
    ``swissframe validate --best-of auto`` chose while Python's default said "best of 3"
    of a chess file; a mix takes the most files' format."""
    trf = FIXTURES / "trf" / "all_codes.trf"
    with pytest.warns(sf.errors.ImportNotesWarning):
        chess = sf.read(trf)
    assert sf.validate(chess).best_of == 1
    assert "best of 1" in str(sf.validate(chess))
    assert sf.validate(chess, best_of=" AUTO ").best_of == 1
    assert sf.validate(chess, best_of=3).best_of == 3
    assert sf.validate(chess.results).best_of == 3  # a frame: no format to read
    assert sf.validate(sf.read(MELEE_DRAWS)).best_of == 3
    with pytest.warns(sf.errors.ImportNotesWarning):
        mixed = sf.read([MELEE_DRAWS, PENDING_TOM, trf])
    assert mixed.file_formats == ["decklist", "tom", "trf"]
    assert sf.validate(mixed).best_of == 3  # one file each: the first format in order
    with pytest.warns(sf.errors.ImportNotesWarning):
        two_tom = sf.read([PENDING_TOM, FIXTURES / "tom" / "combined.tdf", MELEE_DRAWS])
    assert sf.validate(two_tom).best_of == 1


def test_validate_of_a_source_equals_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "problems.parquet"
    assert main(["validate", str(MELEE_DRAWS), str(PENDING_TOM), "--best-of", "3",
                 "-o", str(out), "--quiet"]) == 0
    cli = pl.read_parquet(out)
    with pytest.warns(sf.errors.ImportNotesWarning):
        src = sf.read([MELEE_DRAWS, PENDING_TOM])
    # (the command line reads with validate=False; the report is the same)
    api = sf.validate(src, rules="mtg").problems
    assert_frame_equal(api, cli)


def test_validate_of_an_empty_source() -> None:
    # every file unreadable: a Source without a column
    read = sf.read(MELEE_DRAWS)
    empty = dataclasses.replace(read, results=pl.DataFrame(), notes=read.notes.clear(),
                                events=read.events.clear())
    report = sf.validate(empty)
    assert report.problems.height == 0
    assert (report.rows, report.events, report.rules) == (0, 0, "mtg")


def test_rules_auto_reads_the_ruleset_column() -> None:
    table = GOOD.with_columns(pl.lit("fide").alias("ruleset"))
    assert validate(table).rules == "fide"
    assert validate(GOOD).rules == "mtg"
    two = pl.concat([table, GOOD.with_columns(event_id=pl.lit("f"),
                                              ruleset=pl.lit("pokemon"))])
    assert validate(two).rules == "mtg"  # several: the default, as the CLI says
    # "auto" is read as standings reads it (any case, blanks around: rules.is_auto)
    assert validate(table, rules=" Auto ").rules == "fide"


def test_a_note_of_the_one_event_is_not_called_a_table(tmp_path: Path) -> None:
    """Class 198: in the text report of one file and one event (said once above the lines:
    ``all in file …``, ``all in event …``), a note of the whole event (a decklist file's
    ``no_standings``, a round listed with no match) was ``- table: …``: a decklist or TOM
    file called a table. Such a line is the detail alone; a problem of a table given in
    Python, with no file or event, is still ``table: …``."""
    doc = json.loads((FIXTURES / "decklist" / "melee-byes-1-2024-07-13.json").read_text())
    doc["Standings"] = []
    f = tmp_path / "e-1-2024-07-13.json"
    f.write_text(json.dumps(doc))
    text = str(validate(sf.read(f, validate=False)))
    assert "all in file" in text
    assert "\n  - no_standings: the file publishes no standings" in text
    assert "table:" not in text
    bad = GOOD.with_columns(pl.col("round").cast(pl.String))
    assert "\n  - table: round is String" in str(validate(bad))


def test_best_of_as_a_numpy_integer_is_its_number() -> None:
    """np.int64(3) was "best_of must be a whole number ≥ 1" (bad data 242)."""
    np = pytest.importorskip("numpy")
    assert validate(GOOD, best_of=np.int64(3)).best_of == 3
    with pytest.raises(sf.SchemaError, match="best_of must be a whole number"):
        validate(GOOD, best_of=np.float64(3))
