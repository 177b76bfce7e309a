"""Validation at the boundary: every kind of bad row is named with event, round and player,
all offending rows are listed, and nothing is silently dropped or repaired."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import swissframe as sf
from swissframe import schema
from tests.helpers import REPO_ROOT, bounded

GOOD = sf.from_matches(pl.DataFrame({
    "event_id": ["e1", "e1", "e1"], "round": [1, 1, 2], "player_a": ["A", "C", "A"],
    "player_b": ["B", None, "C"], "games_a": [2, None, 2], "games_b": [1, None, 0],
    "games_drawn": [0, None, 0]}))


def problems_of(df: pl.DataFrame) -> pl.DataFrame:
    with pytest.raises(sf.ValidationError) as info:
        sf.validate_results(df)
    probs = info.value.problems
    assert isinstance(probs, pl.DataFrame)
    assert probs.equals(sf.find_problems(df))
    return probs


def test_good_table_passes_and_fills_defaults() -> None:
    out = sf.validate_results(GOOD.drop("event_id")).collect()
    assert set(out["event_id"]) == {"event"}
    assert set(out["phase"]) == {"swiss"}
    assert sf.find_problems(GOOD).height == 0


def test_missing_and_mistyped_columns() -> None:
    with pytest.raises(sf.SchemaError, match=r"missing required column\(s\) \['games_drawn'\]"):
        sf.validate_results(GOOD.drop("games_drawn"))
    with pytest.raises(sf.SchemaError, match="games_won is String"):
        sf.validate_results(GOOD.with_columns(pl.col("games_won").cast(pl.String)))
    with pytest.raises(sf.SchemaError, match="must be a polars DataFrame or LazyFrame, got a dict"):
        sf.validate_results({"round": [1]})  # type: ignore[arg-type]


@pytest.mark.parametrize("call", [sf.standings, sf.standings_by_round, sf.validate_results,
                                  lambda x: sf.explain(x, "A"), lambda x: sf.standings(x, "mtg")])
def test_what_sf_read_returns_for_the_table_is_named_with_its_results(
        call: Callable[[object], object], tmp_path: Path) -> None:
    """Class 227: ``sf.standings(sf.read(path))`` (``sf.validate`` takes what ``sf.read``
    returns, so the other analyses were tried the same way) was refused with the hint
    "wrap pandas or Arrow data with pl.from_pandas / pl.from_arrow", which no Source
    needs; the hint names its results table."""
    path = tmp_path / "e.csv"
    GOOD.write_csv(path)
    src = sf.read(path)
    with pytest.raises(sf.SchemaError, match=r"got Source \(.*\)\. Hint: pass the results "
                       r"table it holds, sf\.read\(path\)\.results \(a Source is what sf\.read "
                       r"returns; sf\.validate takes it as it is\)\.$"):
        call(src)
    assert sf.validate(src).ok


@pytest.mark.parametrize("call", [sf.standings, sf.standings_by_round, sf.validate_results,
                                  lambda x: sf.standings(x, "mtg")])
def test_a_path_or_none_for_the_table_is_named_with_how_to_read_it(call: object) -> None:
    """With rules="auto" (the default) a path or None reached ``.lazy()`` first and
    ended in "AttributeError: 'str' object has no attribute 'lazy'"."""
    assert callable(call)
    with pytest.raises(sf.SchemaError, match=r"got a path \('league\.csv'\)\. Hint: read the "
                                             r"file first: sf\.read_results\(path\)"):
        call("league.csv")
    with pytest.raises(sf.SchemaError, match=r"got None\. Hint: pass the table"):
        call(None)
    assert issubclass(sf.SchemaError, ValueError)


def test_duplicate_seat_lists_every_offender() -> None:
    dup = pl.concat([GOOD, GOOD.filter(pl.col("player_id").is_in(["A", "B"])
                                       & (pl.col("round") == 1))])
    probs = problems_of(dup)
    d = probs.filter(pl.col("kind") == "duplicate_seat")
    assert sorted(d["player_id"].to_list()) == ["A", "B"]
    assert set(d["round"].to_list()) == {1}


def test_self_pairing_negative_games_round_below_one() -> None:
    bad = pl.concat([GOOD, pl.DataFrame({
        "event_id": ["e1", "e1", "e1"], "round": [3, 0, 3], "player_id": ["A", "B", "C"],
        "opponent_id": ["A", None, None], "games_won": [2, 2, -1], "games_lost": [0, 0, 0],
        "games_drawn": [0, 0, 0]})], how="diagonal_relaxed")
    probs = problems_of(bad)
    kinds = dict(zip(probs["kind"], probs["player_id"], strict=False))
    assert kinds["self_pairing"] == "A"
    assert kinds["round_below_1"] == "B"
    assert kinds["negative_games"] == "C"


def test_mirror_disagreement_both_claim_the_win() -> None:
    bad = GOOD.with_columns(
        pl.when((pl.col("player_id") == "B") & (pl.col("round") == 1)).then(2)
        .otherwise(pl.col("games_won")).alias("games_won"),
        pl.when((pl.col("player_id") == "B") & (pl.col("round") == 1)).then(1)
        .otherwise(pl.col("games_lost")).alias("games_lost"))
    probs = problems_of(bad)
    mm = probs.filter(pl.col("kind") == "mirror_mismatch")
    assert sorted(mm["player_id"].to_list()) == ["A", "B"]
    assert "A reports 2-1-0, B reports 2-1-0" in mm["detail"].to_list()


def test_missing_mirror_and_unknown_opponent_and_message() -> None:
    one_sided = GOOD.filter(~((pl.col("player_id") == "C") & (pl.col("round") == 2)))
    ghost = pl.DataFrame({"event_id": ["e1"], "round": [3], "player_id": ["A"],
                          "opponent_id": ["Zed"], "games_won": [2], "games_lost": [0],
                          "games_drawn": [0]})
    bad = pl.concat([one_sided, ghost], how="diagonal_relaxed")
    with pytest.raises(sf.ValidationError) as info:
        sf.validate_results(bad)
    msg = str(info.value)
    assert "[missing_mirror] event 'e1', round 2, player 'A' vs 'C'" in msg
    assert "[unknown_opponent] event 'e1', round 3, player 'A' vs 'Zed'" in msg
    assert msg.rstrip().splitlines()[-1].startswith("Hint:")


def test_error_lists_first_ten_and_counts_the_rest() -> None:
    rows = pl.DataFrame({"event_id": "e", "round": list(range(1, 26)), "player_id": "A",
                         "opponent_id": "A", "games_won": 2, "games_lost": 0, "games_drawn": 0})
    with pytest.raises(sf.ValidationError) as info:
        sf.validate_results(rows)
    assert "… and 15 more" in str(info.value)
    assert info.value.problems.height == 25  # type: ignore[attr-defined]


def test_bad_phase_and_nulls() -> None:
    bad = GOOD.with_columns(pl.lit("finals").alias("phase"))
    assert set(problems_of(bad)["kind"]) == {"bad_phase"}
    nulls = GOOD.with_columns(pl.when(pl.col("player_id") == "A").then(None)
                              .otherwise(pl.col("games_won")).alias("games_won"))
    probs = problems_of(nulls)
    assert "null in games_won" in probs.filter(pl.col("kind") == "null_value")["detail"][0]


def test_a_row_of_nulls_is_named_by_its_position() -> None:
    """A row whose ids and round are null has nothing else to name it by: it was "event
    None, round None, player None"."""
    empty = pl.DataFrame([pl.Series(c, [None], dtype=t) for c, t in GOOD.schema.items()])
    probs = problems_of(pl.concat([GOOD.head(2), empty, GOOD.slice(2)]))
    assert probs.filter(pl.col("kind") == "null_value")["detail"].to_list() == [
        "row 3: null in event_id, round, player_id, games_won, games_lost, games_drawn"]
    # a row its cells name keeps being named by them (a file's row numbers differ from
    # the table's: a match is two rows)
    probs = problems_of(GOOD.with_columns(pl.when(pl.col("player_id") == "A").then(None)
                                          .otherwise(pl.col("games_won")).alias("games_won")))
    assert probs.filter(pl.col("kind") == "null_value")["detail"].to_list()[0] == (
        "null in games_won")


def test_repair_mirrors_is_explicit_and_reported() -> None:
    one_sided = GOOD.filter(pl.col("player_id") != "B")
    with pytest.raises(sf.ValidationError):
        sf.validate_results(one_sided)
    repaired, added = sf.repair_mirrors(one_sided)
    assert added.select("round", "player_id", "opponent_id", "games_won", "games_lost").rows() \
        == [(1, "B", "A", 1, 2)]
    sf.validate_results(repaired)
    assert repaired.height == one_sided.height + 1


def test_repair_mirrors_adds_the_opponents_seat() -> None:
    """A mirror seat is the opponent's: the forfeit winner's ``forfeit_win`` is the other
    seat's ``forfeit_loss``, white is black, a disqualified player's flag stays theirs,
    and a column whose seat the table does not say (a name) is null. Each was copied: the
    repair made a ``forfeit_mismatch`` of its own, both seats white, and disqualified the
    opponent without a word (bad data 200)."""
    one_sided = pl.DataFrame({
        "event_id": ["e"] * 3, "round": [1, 1, 2], "player_id": ["a", "c", "a"],
        "opponent_id": ["b", "d", "c"], "games_won": [2, 0, 2], "games_lost": [0, 2, 0],
        "games_drawn": [0, 0, 0], "unplayed": ["forfeit_win", None, None],
        "color": ["w", "b", "w"], "disqualified": [False, True, False],
        "double_loss": [False, False, False], "stage": ["d1", "d1", "d2"],
        "name": ["Ann", "Cy", "Ann"]})
    repaired, added = sf.repair_mirrors(one_sided)
    assert added.select("round", "player_id", "opponent_id", "unplayed", "color",
                        "disqualified", "stage", "name").rows() == [
        (1, "b", "a", "forfeit_loss", "b", False, "d1", None),
        (1, "d", "c", None, "w", False, "d1", None),
        (2, "c", "a", None, "b", False, "d2", None)]
    assert sf.find_problems(repaired).is_empty()
    ranked = sf.standings(repaired, "mtg")
    assert ranked.filter(pl.col("rank").is_null())["player_id"].to_list() == ["c"]


def test_repair_mirrors_looks_for_a_seat_within_its_keys() -> None:
    """With ``keys``, a seat is looked for within its scenario (a mirror present in
    scenario 1 was taken for scenario 2's), and the key is copied (bad data 200); a key
    the table lacks is validation's ``SchemaError``."""
    rows = pl.DataFrame({"event_id": ["e"] * 3, "round": [1] * 3,
                         "player_id": ["a", "a", "b"], "opponent_id": ["b", "b", "a"],
                         "games_won": [2, 2, 0], "games_lost": [0, 0, 2],
                         "games_drawn": [0] * 3, "scenario": [1, 2, 1]})
    repaired, added = sf.repair_mirrors(rows, keys=["scenario"])
    assert added.select("scenario", "player_id", "opponent_id").rows() == [(2, "b", "a")]
    sf.validate_results(repaired, keys=["scenario"])
    with pytest.raises(sf.SchemaError, match="not in the results table"):
        sf.repair_mirrors(rows, keys=["stage_key"])


def test_match_form_roundtrip() -> None:
    m = sf.to_matches(GOOD)
    back = sf.from_matches(m)
    key = ["event_id", "round", "player_id"]
    cols = ["event_id", "round", "player_id", "opponent_id", "games_won", "games_lost",
            "games_drawn"]
    assert back.select(cols).sort(key).equals(GOOD.select(cols).sort(key))


def test_from_matches_names_missing_columns() -> None:
    with pytest.raises(sf.SchemaError, match=r"missing column\(s\) \['games_b'\]"):
        sf.from_matches(pl.DataFrame({"round": [1], "player_a": ["a"], "player_b": ["b"],
                                      "games_a": [1], "games_drawn": [0]}))


_ROLE_NAMES = ["P1", "P2", "W1", "W2", "D", "round", "event_id", "phase"]


@settings(max_examples=60, deadline=None)
@given(names=st.lists(st.sampled_from(_ROLE_NAMES), min_size=5, max_size=5))
def test_a_column_given_two_roles_of_the_match_form_is_refused(names: list[str]) -> None:
    """Bad data 129: MatchColumns naming one column for two roles (two seats, two counts,
    or round / event_id / phase, which are read by their names) was read without a word:
    P1 against P1, every match 2-2, each round number its drawn games."""
    m = pl.DataFrame({"event_id": ["e", "e"], "round": [1, 1], "phase": ["swiss"] * 2,
                      "P1": ["A", "C"], "P2": ["B", "D"], "W1": [2, 1], "W2": [0, 2],
                      "D": [0, 0]})
    cols = sf.MatchColumns(*names)
    roles = [*names, "round", "event_id", "phase"]
    if len(set(roles)) < len(roles):
        with pytest.raises(sf.SchemaError, match=r"MatchColumns gives one column two roles: "
                           r".*Hint: name each role's own column"):
            sf.from_matches(m, columns=cols)
    elif set(names[2:]) <= {"W1", "W2", "D"}:  # (each once, the counts from the numbers:
        out = sf.from_matches(m, columns=cols)  # the table read as written)
        assert out.height == 4
    else:  # (each once, but a count read from a column of names: said as such, naming it)
        with pytest.raises(sf.SchemaError, match=r"holds values that are not whole numbers"):
            sf.from_matches(m, columns=cols)


def test_a_match_tables_roles_are_read_from_their_own_columns() -> None:
    m = pl.DataFrame({"round": [1], "P1": ["A"], "P2": ["B"], "W1": [2], "W2": [1], "D": [0]})
    out = sf.from_matches(m, columns=sf.MatchColumns("P1", "P2", "W1", "W2", "D"))
    assert out.select("player_id", "games_won", "games_lost", "games_drawn").rows() == [
        ("A", 2, 1, 0), ("B", 1, 2, 0)]
    with pytest.raises(sf.SchemaError, match=r"'round' is round and games_drawn"):
        sf.from_matches(m, columns=sf.MatchColumns("P1", "P2", "W1", "W2", "round"))


def test_from_matches_reads_players_of_text_or_numbers_and_names_the_others() -> None:
    """Class 72: a player column of numbers beside one of text ended in Polars' "cannot
    compare string with numeric type" (they were compared before they were text); a
    Duration, a list or bytes in Polars' bare cast error. Class 135: ids by the one rule
    (``schema.is_id_type``): text or whole numbers — a date, a float or a Boolean seat,
    read as its text before, is named as the others are."""
    m = pl.DataFrame({"round": [1, 1], "player_a": [7, 8], "player_b": ["B", None],
                      "games_a": [2, None], "games_b": [0, None], "games_drawn": [0, None]})
    assert sf.from_matches(m)["player_id"].to_list() == ["7", "8", "B"]
    dates = pl.Series([dt.date(2024, 1, 7), dt.date(2024, 1, 8)])
    for odd in (pl.Series([dt.timedelta(1)] * 2), pl.Series([[1]] * 2),
                pl.Series([b"\xff"] * 2), dates, pl.Series([7.0, 8.0]),
                pl.Series([True, False])):
        with pytest.raises(sf.SchemaError, match=r"match table column\(s\) \['player_a'\] "
                           r"are .*, expected player ids \(text, or whole numbers\)\. Hint: "
                           r"cast them"):
            sf.from_matches(m.with_columns(odd.alias("player_a")))


@pytest.mark.parametrize("column", ["player_id", "event_id", "phase", "stage", "round"])
def test_validate_names_a_column_with_no_text_form(column: str) -> None:
    """Class 72: a Duration id or label column was read as text by validate's coercion
    (every temporal type was taken to have one), which ended in Polars'
    InvalidOperationError."""
    odd = GOOD.with_columns(pl.lit(dt.timedelta(days=1)).alias(column))
    report = sf.validate(odd, rules="mtg")
    assert report.problems.filter(pl.col("kind") == "schema")["detail"].to_list() == [
        f"{column} is Duration(time_unit='us'), expected "
        f"{'an integer' if column == 'round' else 'a string'} type; it cannot be read as one"]


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_random_corruption_raises_swissframe_error_or_passes(data: st.DataObject) -> None:
    """Any corruption of a valid table either validates or raises a ValidationError whose
    problems name rows — never another exception type."""
    df = GOOD
    col = data.draw(st.sampled_from(["round", "games_won", "games_lost", "games_drawn"]))
    idx = data.draw(st.integers(0, df.height - 1))
    val = data.draw(st.one_of(st.none(), st.integers(-3, 5)))
    vals = df[col].to_list()
    vals[idx] = val
    bad = df.with_columns(pl.Series(col, vals, dtype=pl.Int64))
    if sf.find_problems(bad).height:
        with pytest.raises(sf.ValidationError) as info:
            sf.validate_results(bad)
        assert info.value.problems.height >= 1  # type: ignore[attr-defined]
    else:
        sf.validate_results(bad)


# ------------------------------------------------- inputs in several chunks (concat, many files)

_SEASON = sf.simulate([9, 16], rules="mtg", n_events=2, seed=3).results


@st.composite
def chunked(draw: st.DrawFn, bad_rounds: bool) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The same rows, once in one chunk and once split into 2-4 chunks (as ``pl.concat``
    of frames or several files leave them), optionally with round-0 rows in a later chunk."""
    df = _SEASON.sample(fraction=1.0, shuffle=True, seed=draw(st.integers(0, 10_000)))
    cuts = sorted(draw(st.lists(st.integers(1, df.height - 1), min_size=1, max_size=3,
                                unique=True)))
    pieces = [df.slice(a, b - a) for a, b in zip([0, *cuts], [*cuts, df.height], strict=True)]
    if bad_rounds:
        k = draw(st.integers(1, len(pieces) - 1)) if len(pieces) > 1 else 0
        n = draw(st.integers(1, min(3, pieces[k].height)))
        pieces[k] = pieces[k].with_columns(
            pl.when(pl.int_range(pl.len()) < n).then(0).otherwise(pl.col("round"))
            .cast(df.schema["round"]).alias("round"))
    multi = pl.concat(pieces, rechunk=False)
    return multi, multi.rechunk()


@settings(max_examples=25, deadline=None)
@given(chunked(bad_rounds=False), st.sampled_from([1, schema.MIN_CHUNK_ROWS]))
def test_standings_do_not_depend_on_chunking(frames: tuple[pl.DataFrame, pl.DataFrame],
                                             min_chunk_rows: int) -> None:
    """In its chunks (the boundary keeps chunks of ``min_chunk_rows`` rows on average) or
    made one chunk at the boundary, the same standings."""
    multi, single = frames
    assert multi.n_chunks() > 1
    key = ["event_id", "player_id"]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(schema, "MIN_CHUNK_ROWS", min_chunk_rows)
        assert sf.standings(multi).sort(key).equals(sf.standings(single).sort(key))
        assert sf.standings(multi.lazy()).sort(key).equals(sf.standings(single).sort(key))


@settings(max_examples=25, deadline=None)
@given(chunked(bad_rounds=True), st.sampled_from([1, schema.MIN_CHUNK_ROWS]))
def test_bad_rows_in_a_later_chunk_are_reported_not_a_panic(
        frames: tuple[pl.DataFrame, pl.DataFrame], min_chunk_rows: int) -> None:
    multi, single = frames
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(schema, "MIN_CHUNK_ROWS", min_chunk_rows)
        with pytest.raises(sf.ValidationError, match="round 0"):
            sf.standings(multi)
        assert sf.validate(multi).problems.equals(sf.validate(single).problems)


def test_large_chunks_are_kept_and_small_ones_joined(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table of large chunks (a Parquet read, a concat of archives) is taken as it is:
    copying it into one chunk cost a tenth of a bulk call. One of small chunks on average
    (a frame built a match at a time) is made one chunk, which every query reads faster.
    Columns chunked apart count by their most chunked."""
    monkeypatch.setattr(schema, "MIN_CHUNK_ROWS", 4)
    df = _SEASON.rechunk()
    halves = pl.concat([df.slice(0, 8), df.slice(8)], rechunk=False)
    assert df.height >= 16
    kept = schema._materialised(halves, default_event_id="event")
    assert kept.n_chunks("all") == [2] * df.width
    assert kept.equals(df)
    rows = pl.concat([df.slice(i, 1) for i in range(df.height)], rechunk=False)
    assert schema._materialised(rows, default_event_id="event").n_chunks("all") == \
        [1] * df.width
    # one column in rows of one, the others whole: joined too
    apart = df.with_columns(rows.get_column("player_id"))
    assert apart.n_chunks("all") != [1] * df.width
    assert schema._materialised(apart, default_event_id="event").n_chunks("all") == \
        [1] * df.width
    # a lazy input's collected chunks alike
    assert schema._materialised(halves.lazy(), default_event_id="event").equals(df)


# ------------------------------------------- wrong results the engine used to accept silently


def _base() -> pl.DataFrame:
    return sf.from_matches(pl.DataFrame({
        "event_id": ["e"] * 3, "round": [1, 1, 2], "player_a": ["A", "C", "A"],
        "player_b": ["B", "D", "C"], "games_a": [2, 2, 2], "games_b": [0, 1, 0],
        "games_drawn": [0, 0, 0]}))


@pytest.mark.parametrize("record", [(1, 1, 1), (1, 1, 0), (0, 0, 3)])
def test_unpaired_draw_is_refused(record: tuple[int, int, int]) -> None:
    row = pl.DataFrame({"event_id": ["e"], "round": [2], "player_id": ["B"],
                        "opponent_id": [None], "games_won": [record[0]],
                        "games_lost": [record[1]], "games_drawn": [record[2]]})
    df = pl.concat([_base(), row], how="diagonal_relaxed")
    probs = problems_of(df)
    assert probs.select("kind", "round", "player_id").rows() == [("unpaired_draw", 2, "B")]


def test_unpaired_zero_games_is_computed_and_reported() -> None:
    """CardsRealm publishes a 'Bye 0-0-0' as a draw: the engine keeps it, validate warns."""
    row = pl.DataFrame({"event_id": ["e"], "round": [2], "player_id": ["B"],
                        "opponent_id": [None], "games_won": [0], "games_lost": [0],
                        "games_drawn": [0]})
    df = pl.concat([_base(), row], how="diagonal_relaxed")
    assert sf.standings(df).filter(pl.col("player_id") == "B")["draws"].item() == 1
    assert "zero_games" in sf.validate(df).problems["kind"].to_list()


def test_half_point_bye_is_the_one_unpaired_draw() -> None:
    row = pl.DataFrame({"event_id": ["e"], "round": [2], "player_id": ["B"],
                        "opponent_id": [None], "games_won": [0], "games_lost": [0],
                        "games_drawn": [1], "unplayed": ["half_bye"]})
    df = pl.concat([_base(), row], how="diagonal_relaxed")
    sf.validate_results(df).collect()


def test_mirror_seats_in_different_phases_are_refused() -> None:
    df = _base().with_columns(phase=pl.lit("swiss")).with_columns(
        pl.when((pl.col("round") == 2) & (pl.col("player_id") == "C")).then(pl.lit("playoff"))
        .otherwise(pl.col("phase")).alias("phase"))
    probs = problems_of(df)
    assert probs.select("kind", "round", "player_id").sort("player_id").rows() == [
        ("phase_mismatch", 2, "A"), ("phase_mismatch", 2, "C")]


def test_phases_are_compared_within_the_analysis_keys() -> None:
    """One match may be a playoff in one scenario and Swiss in another: the two seats that
    must agree are those of one (event, keys…) only."""
    swiss = _base().with_columns(phase=pl.lit("swiss"))
    playoff = swiss.with_columns(pl.when(pl.col("round") == 2).then(pl.lit("playoff"))
                                 .otherwise(pl.col("phase")).alias("phase"))
    both = pl.concat([swiss.with_columns(scenario=pl.lit(0)),
                      playoff.with_columns(scenario=pl.lit(1))])
    assert sf.find_problems(both, keys=["scenario"]).height == 0
    got = sf.standings(both, "mtg", keys=["scenario"])
    assert got.filter(pl.col("scenario") == 0).drop("scenario").equals(
        sf.standings(swiss, "mtg"))
    # a seat whose mirror in the same scenario disagrees is still found
    bad = pl.concat([swiss.with_columns(scenario=pl.lit(0)),
                     playoff.with_columns(scenario=pl.lit(1)).with_columns(
                         pl.when((pl.col("round") == 2) & (pl.col("player_id") == "C"))
                         .then(pl.lit("swiss")).otherwise(pl.col("phase")).alias("phase"))])
    probs = sf.find_problems(bad, keys=["scenario"])
    assert probs.select("kind", "round", "player_id").sort("player_id").rows() == [
        ("phase_mismatch", 2, "A"), ("phase_mismatch", 2, "C")]


def _staged(**stages: str | None) -> pl.DataFrame:
    """``_base()`` all of stage ``day1``, but for the seats named ``"C1"`` (player C,
    round 1) and so on."""
    df = _base().with_columns(stage=pl.lit("day1"))
    return df.with_columns(pl.struct("player_id", "round").map_elements(
        lambda r: stages.get(f"{r['player_id']}{r['round']}", "day1"),
        return_dtype=pl.String).alias("stage"))


def test_a_round_of_two_stages_is_refused_naming_the_odd_rows() -> None:
    """A round is of one stage: the "stage" snapshot takes each player at the end of the
    last round any row of their stage names, so one seat marked Day 1 in a Day 2 round
    moved every Day 1 player's values (found by the twenty-eighth session's table sweep).
    The odd rows are those whose stage differs from the one most of the round holds."""
    probs = problems_of(_staged(C1="day2"))
    assert probs.select("kind", "round", "player_id", "opponent_id", "detail").rows() == [
        ("stage_mismatch", 1, "C", "D",
         "stage 'day2' in a round whose 3 other rows have stage 'day1'")]
    # a seat with no stage, and a whole match of another stage (a tie: the later one)
    probs = problems_of(_staged(D1=None))
    assert probs.select("player_id", "detail").rows() == [
        ("D", "no stage in a round whose 3 other rows have stage 'day1'")]
    probs = problems_of(_staged(C1="day2", D1="day2"))
    assert probs.select("player_id").to_series().to_list() == ["C", "D"]
    with pytest.raises(sf.ValidationError, match=r"\[stage_mismatch\] event 'e', round 1, "
                                                 r"player 'C' vs 'D'"):
        sf.standings(_staged(C1="day2"), "melee-e1")


def test_stages_are_compared_within_a_round_phase_and_analysis_keys() -> None:
    """Rounds of one event may be of different stages; a round's Swiss and playoff rows are
    compared apart, and so are the scenarios of an analysis key."""
    assert sf.find_problems(_staged(A2="day2", C2="day2")).height == 0
    playoff = _staged(A2="top8", C2="top8").with_columns(
        phase=pl.when(pl.col("round") == 2).then(pl.lit("playoff")).otherwise(pl.lit("swiss")))
    assert sf.find_problems(playoff).height == 0
    both = pl.concat([_staged().with_columns(scenario=pl.lit(0)),
                      _staged(A1="day2", B1="day2", C1="day2", D1="day2")
                      .with_columns(scenario=pl.lit(1))])
    assert sf.find_problems(both, keys=["scenario"]).height == 0
    bad = pl.concat([both, _staged(C1="day2").with_columns(scenario=pl.lit(2))])
    assert sf.find_problems(bad, keys=["scenario"]).select("player_id").rows() == [("C",)]


def test_to_matches_keeps_the_stage_of_a_match() -> None:
    """A round's stage is one (validated), so it is the match's, as its phase is: the match
    form keeps it, without a warning, and ``from_matches`` gives it to both seats."""
    import warnings

    df = _staged(A2="day2", C2="day2")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        matches = sf.to_matches(df)
    assert matches.select("round", "player_a", "stage").rows() == [
        (1, "A", "day1"), (1, "C", "day1"), (2, "A", "day2")]
    back = sf.from_matches(matches).select(df.columns)
    assert back.sort("round", "player_id").equals(df.sort("round", "player_id"))


def test_a_null_analysis_key_is_refused_with_its_rows() -> None:
    """A row of no scenario belongs to no event of the analysis: refused by name, not
    joined (null keys match nothing) into unknown opponents or dropped players."""
    good = _base().with_columns(scenario=pl.lit(1, dtype=pl.Int64))
    bad = pl.concat([good, _base().with_columns(scenario=pl.lit(None, dtype=pl.Int64))])
    probs = sf.find_problems(bad, keys=["scenario"])
    assert probs["kind"].unique().to_list() == ["null_value"]
    assert probs.height == _base().height
    assert probs["detail"].str.contains("key column scenario").all()
    for rules in ("mtg", "pokemon", "melee-e1"):
        with pytest.raises(sf.ValidationError, match="null in key column scenario"):
            sf.standings(bad, rules, keys=["scenario"])
    assert sf.find_problems(good, keys=["scenario"]).height == 0


@pytest.mark.parametrize("name", ["_e", "_p", "_o", "_ce", "_through", "_w", "_w_next",
                                  "__index_level_0__"])
def test_an_input_column_named_like_swissframes_own_is_dropped_with_a_warning(
        name: str) -> None:
    """Input columns named like internal ones (codes, cutoffs, weights) were a duplicate
    column error, or read as the cutoff (rows lost) or as CTB weights (other ranks): they
    are dropped at the boundary, and the warning names them."""
    from swissframe.engine import standings as st_mod
    clean = _base().with_columns(phase=pl.lit("swiss"))
    odd = clean.with_columns(pl.lit(1).alias(name))
    for rules in ("mtg", "pokemon", "fab"):
        with pytest.warns(UserWarning, match=f"{re.escape(repr(name))}.*Hint: rename"):
            got = sf.standings(odd, rules)
        assert got.equals(sf.standings(clean, rules))
        for cumulative in (True, False):
            with pytest.warns(UserWarning, match="swissframe's own"):
                got = st_mod._by_round(odd, rules, (), cumulative=cumulative)
            assert got.equals(st_mod._by_round(clean, rules, (), cumulative=cumulative))
    with pytest.warns(UserWarning, match="swissframe's own"):
        assert sf.find_problems(odd).height == 0
    # an analysis key named so is refused, not dropped (class 99)
    keyed = clean.with_columns(pl.lit(1).alias("_cut"))
    with pytest.raises(sf.DataError, match=r"'_cut' cannot be an analysis key.*Hint: copy"):
        sf.standings(keyed, "mtg", keys=["_cut"])


#: Analysis keys named like a column the engine reads or writes (class 99): each was a bare
#: Polars error or a key lost in the output.
_TAKEN_KEYS = ("_pts", "_x_mwp", "_through", "_e", "round", "player_id", "opponent_id",
               "games_won", "rank", "match_points", "wins", "dropped", "mwp", "omwp",
               "bh_c1", "ygo_tiebreaker", "result", "opp_mwp", "note", "bye", "excluded",
               "opp_score", "phase", "stage", "unplayed", "double_loss",
               # the engine's own record and rates (the first list missed them; review)
               "earned_byes", "opponents", "first_round", "last_round", "mwp_raw", "gwp_raw",
               "mwp_opp", "gwp_opp", "points", "vur")


@pytest.mark.parametrize("name", _TAKEN_KEYS)
def test_an_analysis_key_named_like_a_column_the_engine_reads_or_writes_is_refused(
        name: str) -> None:
    """Class 99: ``keys=["rank"]`` replaced the key by the rank, ``"match_points"``,
    ``"omwp"``, ``"_pts"``, ``"player_id"``, ``"result"`` … ended in Polars'
    ``SchemaError`` / ``DuplicateError``: every entry point reading ``keys`` refuses them,
    naming the key and a rename."""
    keyed = _base().with_columns(pl.lit("x").alias(name)) if name not in _base().columns \
        else _base()
    calls: dict[str, Callable[[], object]] = {
        "standings": lambda: sf.standings(keyed, "mtg", keys=[name]),
        "by round": lambda: sf.standings_by_round(keyed, "fide", keys=[name]),
        "explain": lambda: sf.explain(keyed, "A", "fide", keys=[name]),
        "validate": lambda: sf.validate(keyed, keys=[name]),
        "find_problems": lambda: sf.find_problems(keyed, keys=[name]),
    }
    for call in calls.values():
        with pytest.raises(sf.DataError, match=rf"keys: {re.escape(repr(name))} cannot be "
                           r"an analysis key: .*Hint: copy the key under another name"):
            call()


@pytest.mark.parametrize("name", ["scenario", "division", "name", "key_rank"])
def test_an_analysis_key_of_its_own_name_is_kept(name: str) -> None:
    keyed = _base().with_columns(pl.lit("x").alias(name))
    for rules in ("mtg", "fide"):
        assert sf.standings(keyed, rules, keys=[name]).columns.count(name) == 1
        assert sf.explain(keyed, "A", rules, keys=[name]).columns.count(name) == 1


@pytest.mark.parametrize(("col", "value"), [("unplayed", "forfeit"), ("color", "white")])
def test_unknown_codes_are_refused_by_the_engine_too(col: str, value: str) -> None:
    df = _base().with_columns(pl.lit(None, dtype=pl.String).alias(col))
    df = df.with_columns(pl.when(pl.col("player_id") == "D").then(pl.lit(value))
                         .otherwise(pl.col(col)).alias(col))
    probs = problems_of(df)
    assert probs.select("kind", "player_id").rows() == [("bad_value", "D")]
    with pytest.raises(sf.ValidationError, match=value):
        sf.standings(df)


# ------------------------------------------- the boundary's fast path (issue 19) and its edges


def test_problem_text_is_pl_format_and_survives_chunks_on_the_streaming_engine() -> None:
    """Details are joined with concat_str, which gives pl.format's text (null when a part
    is null); over a filtered frame of several chunks on the streaming engine, pl.format
    panicked in Polars 2.1 (a 3.7M-row table with mirror mismatches hit it)."""
    from swissframe.schema import _text
    df = pl.DataFrame({"a": ["x", None, "z", "w"], "b": [1, 2, None, 4]})
    ours = df.select(_text(pl.col("a"), " reports ", pl.col("b"), "!").alias("t"))
    theirs = df.select(pl.format("{} reports {}!", pl.col("a"), pl.col("b")).alias("t"))
    assert ours.equals(theirs)
    rows = pl.DataFrame({"a": [f"p{i}" for i in range(10)],
                         "m": [None if i % 5 == 0 else i for i in range(10)]})
    multi = pl.concat([rows.slice(i, 1) for i in range(rows.height)], rechunk=False)
    plan = multi.lazy().filter(pl.col("m").is_not_null())
    got = plan.select(_text(pl.col("a"), " x").alias("t")).collect(engine="streaming")
    assert got["t"].to_list() == [f"p{i} x" for i in range(10) if i % 5]


def test_a_trusted_frame_is_returned_unchecked_only_as_that_object() -> None:
    """schema.trusted (bulk's one validation per batch) vouches for one frame object
    without extra keys; any other frame is validated as usual."""
    from swissframe.schema import checked, trusted, validated_with_codes
    problems, frame, codes = checked(GOOD.with_columns(scenario=pl.lit(1)))
    assert problems.height == 0
    assert codes is not None
    bad = frame.with_columns(pl.when(pl.col("player_id") == "B").then(2)
                             .otherwise(pl.col("games_won")).alias("games_won"))
    with trusted(frame, codes):
        got, got_codes = validated_with_codes(frame)
        assert got is frame
        assert got_codes is codes
        with pytest.raises(sf.ValidationError, match="mirror_mismatch"):
            validated_with_codes(bad)
        assert validated_with_codes(frame.clone())[1] is not codes
        assert validated_with_codes(frame, keys=["scenario"])[1] is None
    assert validated_with_codes(frame)[1] is not codes


def test_valid_table_is_checked_in_two_queries() -> None:
    """A valid table (already normal) costs two queries: one select of every rule's flag
    and the dictionaries, one of the codes and the packed keys (counted, not timed; the
    sorts and neighbour comparisons are Series kernels, not queries)."""
    from swissframe.schema import validated_with_codes
    table = sf.simulate([16], rules="mtg", n_events=1, seed=1).results
    table = sf.validate_results(table).collect()
    queries = []
    real = pl.LazyFrame.collect

    def counted(self: pl.LazyFrame, *args: object, **kwargs: object) -> pl.DataFrame:
        queries.append(1)
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pl.LazyFrame, "collect", counted)
        mp.setattr(pl.LazyFrame, "_collect_eager", counted)
        validated_with_codes(table)
    assert len(queries) == 2


@pytest.mark.slow
def test_a_large_hostile_table_on_the_streaming_engine() -> None:
    """Above a million rows every query streams: the problems of a big table with faults in
    many events (mirror mismatches, duplicates, nulls) equal the in-memory engine's."""
    from swissframe import _collect
    one = sf.simulate([64], rules="mtg", n_events=1, seed=2).results
    one = sf.validate_results(one).collect().select(
        "event_id", "round", "player_id", "opponent_id", "games_won", "games_lost",
        "games_drawn", "phase")
    copies = max(1, 1_100_000 // one.height + 1)
    big = pl.concat([one.with_columns(event_id=pl.lit(f"e{i:05d}")) for i in range(copies)])
    i = pl.int_range(pl.len())
    big = big.with_columns(
        games_won=pl.when(i % 99_991 == 7).then(5).otherwise(pl.col("games_won")),
        games_lost=pl.when(i % 299_993 == 3).then(None).otherwise(pl.col("games_lost")))
    big = pl.concat([big, big.slice(123_456, 3)])
    assert big.height > _collect.IN_MEMORY_MAX_ROWS
    streamed = sf.find_problems(big)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_collect, "IN_MEMORY_MAX_ROWS", 10**9)
        in_memory = sf.find_problems(big)
    assert streamed.height > 0
    assert set(streamed["kind"]) >= {"mirror_mismatch", "duplicate_seat", "null_value"}
    assert streamed.equals(in_memory)


def test_problems_alike_up_to_the_player_come_in_one_fixed_order() -> None:
    # two rows with an empty player id in one round: their problems tie on (kind, event,
    # round, player) and came out of the joins in either order, run to run (found by
    # tests/test_fuzz.py); opponent and detail now order them
    df = pl.DataFrame({"event_id": ["e0"] * 5, "round": [1] * 5,
                       "player_id": ["a#0", "a#1", "", "", "a#4"],
                       "opponent_id": ["a#1", "a#0", "a#3", "a#2", None],
                       "games_won": [2, 0, 2, 1, 2], "games_lost": [0, 2, 1, 2, 0],
                       "games_drawn": [0] * 5})
    from swissframe.schema import _checked

    first = _checked(df, default_event_id="event", keys=())[0]
    assert first.select("kind", "opponent_id").rows() == [
        ("duplicate_seat", None), ("empty_id", "a#2"), ("empty_id", "a#3"),
        ("unknown_opponent", "a#2"), ("unknown_opponent", "a#3")]
    for _ in range(20):
        assert _checked(df, default_event_id="event", keys=())[0].equals(first)
        assert _checked(df, default_event_id="event", keys=(), coded=False)[0].equals(first)


def test_sorted_match_keys_pair_up_only_in_equal_pairs_of_distinct_matches() -> None:
    from swissframe.schema import _pairs_up

    def keys(*k: int) -> pl.Series:
        return pl.Series("_matches", k, dtype=pl.Int64)

    # low 2 bits: the record; the match is key // 4
    assert _pairs_up(keys(), 2)
    assert _pairs_up(keys(5, 5, 9, 9), 2)  # matches 1 and 2, each with its two seats
    assert not _pairs_up(keys(5, 5, 6, 6), 2)  # match 1 twice (four seats of one match)
    assert not _pairs_up(keys(5, 6, 9, 9), 2)  # the two seats of match 1 disagree
    assert not _pairs_up(keys(5, 5, 9), 2)  # a seat without its mirror
    assert not _pairs_up(keys(5, 5, 5, 5), 2)  # one seat pair reported twice
    assert not _pairs_up(keys(5, 9, 9, 13), 2)  # equal keys, but not in pairs
    assert _pairs_up(keys(5, 5, 9, 9, 13, 13), 2)


@settings(max_examples=60, deadline=None)
@given(sizes=st.lists(st.integers(1, 9), min_size=1, max_size=12), data=st.data(),
       block=st.integers(1, 12), two=st.booleans(), known=st.booleans())
def test_keys_sorted_in_blocks_of_whole_events_are_the_whole_sort(
        sizes: list[int], data: st.DataObject, block: int, two: bool, known: bool) -> None:
    """Keys that lead with a sorted column's event code, sorted in blocks of whole events
    (``schema._block_sorted``, a large table's path), are the keys sorted whole, without
    ``_NO_KEY``; the blocks hold whole events and cover the column — the events' rows read
    from the codes, or given (``known``: a batch's runs, ``_batches.runs_of``)."""
    from unittest import mock

    events = [e for e, n in enumerate(sizes) for _ in range(n)]
    low = st.integers(0, 2**8 - 1)

    def keys(name: str) -> pl.Series:
        drawn = [data.draw(st.one_of(low.map(lambda v, e=e: e * 2**8 + v),
                                     st.just(schema._NO_KEY))) for e in events]
        return pl.Series(name, drawn, dtype=pl.Int64)

    names = ["_seats", "_matches"] if two else ["_seats"]
    frame = pl.DataFrame([pl.Series("_e", events, dtype=pl.Int64), *map(keys, names)])
    with (mock.patch.object(schema, "_BLOCK_SORT_MIN_ROWS", 0),
          mock.patch.object(schema, "_SORT_BLOCK_ROWS", block),
          mock.patch.object(schema, "_block_sorted", wraps=schema._block_sorted) as spy):
        got = schema._sorted_key_columns(
            frame, names, sorted_events=True,
            lengths=pl.Series(sizes, dtype=pl.Int64) if known else None)
        offsets = schema._event_blocks(frame["_e"].rle().struct.field("len")).to_list()
    assert spy.call_count == 1
    assert offsets[0] == 0
    assert offsets[-1] == len(events)
    assert offsets == sorted(set(offsets))
    ends = {i for i in range(1, len(events) + 1)
            if i == len(events) or events[i] != events[i - 1]}
    assert set(offsets[1:]) <= ends  # (a block ends where an event ends)
    for name, out in zip(names, got, strict=True):
        assert out.to_list() == sorted(k for k in frame[name] if k != schema._NO_KEY)


@pytest.mark.parametrize("fault", ["none", "mismatch", "missing", "twice"])
def test_wide_pairing_key_is_an_int128_and_finds_what_the_reference_finds(fault: str) -> None:
    # game counts of 2**20 need 2 · 21 + 22 bits beside the ids: more than an Int64 holds,
    # so the match keys are Int128 (they were compared as columns); the problems are the
    # reference's, row for row, whatever breaks the pairs
    from swissframe.schema import _checked, _pairing_key

    big = 2**20
    df = pl.DataFrame({"event_id": ["e"] * 6, "round": [1, 1, 1, 1, 2, 2],
                       "player_id": ["A", "B", "C", "D", "A", "C"],
                       "opponent_id": ["B", "A", "D", "C", "C", "A"],
                       "games_won": [big, 3, 2, 0, 1, big], "games_lost": [3, big, 0, 2, big, 1],
                       "games_drawn": [0, 0, 1, 1, 0, 0]})
    key = _pairing_key(2, 1, pl.col("_er"), 0, games=(0, big), phase=False)
    assert key is not None
    frame = pl.DataFrame({"_er": [1], "_p": [0], "_o": [1], "games_won": [big],
                          "games_lost": [3], "games_drawn": [0]})
    assert frame.select(key[0])["_er"].dtype == pl.Int128
    if fault == "mismatch":
        df = df.with_columns(games_drawn=pl.Series([0, 0, 1, 2, 0, 0]))
    elif fault == "missing":
        df = df.slice(0, 5)
    elif fault == "twice":
        df = pl.concat([df, df.slice(4, 1)])
    got = _checked(df, default_event_id="event", keys=())
    ref = _checked(df, default_event_id="event", keys=(), coded=False)
    assert got[0].equals(ref[0]), (got[0], ref[0])
    assert (got[0].height == 0) == (fault == "none")


def test_a_self_paired_match_is_one_seat_and_one_problem() -> None:
    """``Alice vs Alice`` in the match form became two identical rows: the self-pairing
    was listed twice, and again as a seat taken twice. It is one row now, one problem."""
    m = pl.DataFrame({"round": [1, 1], "player_a": ["A", "C"], "player_b": ["A", "D"],
                      "games_a": [2, 2], "games_b": [1, 0], "games_drawn": [0, 0]})
    long = sf.from_matches(m)
    assert long.filter(pl.col("player_id") == "A").height == 1
    report = sf.validate(long)
    assert report.problems.group_by("kind").len().sort("kind").rows() == [("self_pairing", 1)]


def test_a_mistyped_column_gets_the_hint_of_its_kind() -> None:
    """A text ``double_loss`` was told to "cast ids with pl.col(...).cast(pl.String) and
    game counts to integers": the hint now names the cast of each kind of column that is
    mistyped, and where a file's cells are read."""
    res = sf.from_matches(pl.DataFrame({
        "round": [1], "player_a": ["A"], "player_b": ["B"], "games_a": [2], "games_b": [0],
        "games_drawn": [0]}))
    with pytest.raises(sf.SchemaError, match=r"double_loss is String, expected Boolean\. "
                       r"Hint: cast double_loss to Boolean \(pl\.col\('double_loss'\)"):
        sf.standings(res.with_columns(double_loss=pl.lit("false")))
    with pytest.raises(sf.SchemaError, match=r"Hint: cast rounds and game counts to "
                       r"integers and ids and labels with"):
        sf.standings(res.with_columns(pl.col("games_won").cast(pl.Float64),
                                      pl.lit(3).alias("event_id")))


def test_to_matches_says_what_the_match_form_leaves_out() -> None:
    """The match form has one row per match: per-seat cells (unplayed, color) and a
    double loss's seat B were dropped without a word, and read back they changed the
    standings (seat B of a double loss became a 2-0 win; a half bye became an unpaired
    draw). A DataWarning now says what is left out; a table with nothing to lose is quiet."""
    import warnings

    from swissframe.errors import DataWarning

    df = pl.DataFrame({"event_id": ["e"] * 3, "round": [1, 1, 1],
                       "player_id": ["A", "B", "C"], "opponent_id": ["B", "A", None],
                       "games_won": [0, 0, 0], "games_lost": [2, 2, 0],
                       "games_drawn": [0, 0, 1], "double_loss": [True, True, False],
                       "unplayed": [None, None, "half_bye"]})
    with pytest.warns(DataWarning, match=r"leaves out 1 unplayed cell, 2 double-loss "
                                         r"seats \(seat A's games are kept; read back, "
                                         r"seat B gets their mirror\)"):
        assert sf.to_matches(df).height == 2
    plain = df.filter(pl.col("player_id") != "C").with_columns(
        games_won=pl.Series([2, 0]), games_lost=pl.Series([0, 2]),
        double_loss=pl.lit(value=False), unplayed=pl.lit(None, dtype=pl.String))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert sf.to_matches(plain).height == 1


def test_validated_table_gives_the_frame_and_codes_of_the_checks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What ``read`` keeps for the CLI: the validated frame with the codes the engine's
    own validation builds; no codes for a table validated in batches (each batch has its
    own), the same frame."""
    from swissframe import _batches

    df = _SEASON.sort("event_id", "round", "player_id")
    frame, codes = schema.validated_table(df)
    again, own = schema.validated_with_codes(df)
    assert frame.equals(again)
    assert codes is not None
    assert own is not None
    assert codes.codes.equals(own.codes)
    assert codes.events.equals(own.events)
    assert codes.players.equals(own.players)
    with schema.trusted(frame, codes):  # a vouched-for frame is returned as it is
        assert schema.validated_table(frame)[0] is frame
    monkeypatch.setattr(_batches, "BATCH_ROWS", 10)
    batched, none = schema.validated_table(df)
    assert none is None
    assert batched.equals(frame)


@pytest.mark.parametrize(("column", "value", "name"), [
    ("Phase", "playoff", "phase"),
    ("Double_Loss", True, "double_loss"),
    ("Event_ID", "other", "event_id"),
    (" unplayed", "absent", "unplayed"),
])
def test_an_optional_column_off_by_case_or_spaces_is_refused(column: str, value: object,
                                                             name: str) -> None:
    """A table (eager or lazy) with ``Phase``, ``Double_Loss`` … where the contract reads
    ``phase``, ``double_loss`` … was ranked as if the column were not there (playoff rows
    as Swiss, double losses as draws); ``validate`` said "no problems". Now a
    ``SchemaError`` with the rename, and a ``schema`` problem (the other checks still run,
    on the rows as the contract reads them)."""
    from swissframe.validate import validate

    rows = pl.DataFrame({"event_id": ["e"] * 2, "round": [1, 1], "player_id": ["A", "B"],
                         "opponent_id": ["B", "A"], "games_won": [0, 0], "games_lost": [0, 0],
                         "games_drawn": [0, 0]}).with_columns(pl.lit(value).alias(column))
    rows = rows.drop(name, strict=False)  # (the exact name absent: `Event_ID` alone)
    rename = rf"rename {column!r} → {name!r}"
    for table in (rows, rows.lazy()):
        with pytest.raises(sf.SchemaError, match=rename):
            sf.standings(table, "mtg")
    report = validate(rows, rules="mtg", best_of=3)
    assert report.problems["kind"].to_list() == ["schema", "zero_games"]
    assert re.search(rename, report.problems["detail"][0])
    # a table with every contract column typed (read without a normalising query) too
    full = pl.DataFrame({"event_id": ["e"] * 2, "round": [1, 1], "player_id": ["A", "B"],
                         "opponent_id": ["B", "A"], "games_won": [2, 0], "games_lost": [0, 2],
                         "games_drawn": [0, 0], "phase": ["swiss"] * 2})
    assert schema._is_normal(full)
    if name not in full.columns:
        full = full.with_columns(pl.lit(value).alias(column))
        with pytest.raises(sf.SchemaError, match=rename):
            sf.standings(full, "mtg")


# A LazyFrame whose own plan fails: each entry point reads it once and names it
def _store() -> pl.DataFrame:
    return sf.read_results(REPO_ROOT / "data" / "events" / "store-championship.csv")


_BROKEN_PLANS = {
    "strict cast": lambda lf: lf.with_columns(
        (pl.col("round").cast(pl.String) + "x").str.to_integer().alias("round")),
    "missing column": lambda lf: lf.with_columns(pl.col("no_such_column")),
    "duplicate name": lambda lf: pl.concat([lf, lf.select("round")], how="horizontal"),
}


def _entry_points() -> tuple[dict[str, object], dict[str, pl.DataFrame]]:
    res = _store()
    last = int(res["round"].max())  # type: ignore[arg-type]
    before = res.filter(pl.col("round") < last)
    pairs = res.filter(pl.col("round") == last).select("player_id", "opponent_id")
    tables = {"from_matches": sf.to_matches(res),  # (the table each entry point reads)
              "cut_status pairings": res.filter(pl.col("round") == last)}
    return {
        "standings": sf.standings,
        "standings mtg": lambda lf: sf.standings(lf, "mtg"),
        "standings_by_round": sf.standings_by_round,
        "find_problems": sf.find_problems,
        "validate_results": sf.validate_results,
        "validate": sf.validate,
        "repair_mirrors": sf.repair_mirrors,
        "to_matches": sf.to_matches,
        "from_matches": sf.from_matches,
        "sensitivity": sf.sensitivity,
        "explain": lambda lf: sf.explain(lf, "Alice"),
        "explain keys": lambda lf: sf.explain(lf, "Alice", keys=["event_id"]),
        "compare": lambda lf: sf.compare(lf, "Alice", "Bob"),
        "detect_intentional_draws": sf.detect_intentional_draws,
        "id_report": lambda lf: sf.id_report(lf, n_sims=2),
        "next_round_ranges": sf.next_round_ranges,
        "cut_status results": lambda lf: sf.cut_status(lf, pairs, top=4, n_sims=2),
        "cut_status pairings": lambda lf: sf.cut_status(before, lf, top=4, n_sims=2),
        "pair_round": sf.pair_round,
        "chart_standings": sf.charts.chart_standings,
        "report": lambda lf: sf.report(lf, n_sims=0),
        "namespace": lambda lf: lf.swiss.standings("mtg"),
    }, tables


@pytest.mark.parametrize("plan", sorted(_BROKEN_PLANS))
@pytest.mark.parametrize("entry", sorted(_entry_points()[0]))
def test_a_lazyframe_whose_plan_fails_is_named(entry: str, plan: str) -> None:
    """A LazyFrame input whose evaluation fails ended in Polars' own error and its plan
    (``DuplicateError``, ``ColumnNotFoundError``, ``ComputeError``) from ``validate``,
    ``repair_mirrors``, ``compare``, ``explain``, ``from_matches``, a chart, the report,
    and ``standings`` with ``rules="auto"``: each now reads it once, through
    ``schema.as_frame`` or the boundary, and says which table failed, with a hint."""
    calls, tables = _entry_points()
    table = tables.get(entry, _store())
    with pytest.raises(sf.SchemaError, match=r"\(a LazyFrame\) cannot be evaluated.*Hint: "
                                             r"run lf\.collect\(\)"):
        calls[entry](_BROKEN_PLANS[plan](table.lazy()))  # type: ignore[operator]


def _lying(change: Callable[[pl.DataFrame], pl.DataFrame]) -> Callable[[pl.LazyFrame],
                                                                      pl.LazyFrame]:
    """A plan that declares its input's schema but returns ``change``'s rows."""
    return lambda lf: lf.map_batches(change, schema=lf.collect_schema(),
                                     validate_output_schema=False)


#: LazyFrames whose declared schema is not their rows' (class 80); the third, without a
#: phase column (which the boundary adds), made Polars panic.
_LYING_PLANS = {
    "round as text": _lying(lambda df: df.with_columns(pl.col("round").cast(pl.String))),
    "a column left out": _lying(lambda df: df.drop("games_drawn")),
    "a column left out, no phase": lambda lf: _lying(lambda df: df.drop("games_drawn"))(
        lf.drop("phase", strict=False)),
}


@pytest.mark.parametrize("plan", sorted(_LYING_PLANS))
@pytest.mark.parametrize("entry", sorted(_entry_points()[0]))
def test_a_lazyframe_whose_rows_are_not_its_declared_schema_is_named(entry: str,
                                                                      plan: str) -> None:
    """Class 80: the boundary checked the types a LazyFrame declared; a plan whose rows
    are other (a ``map_batches(..., schema=...)`` returning text rounds, or fewer
    columns) made Polars panic (a ``PanicException`` and a Rust backtrace) or went on
    with the wrong types (numbers as ids, a bare Polars ``SchemaError`` from a join).
    Every entry point now reads the rows (``validate`` reports them, ``from_matches`` and
    a pairings table read them as they are) or raises a ``SchemaError`` naming the table —
    never another exception."""
    calls, tables = _entry_points()
    table = tables.get(entry, _store())
    said = ["Hint: "]
    try:
        calls[entry](_LYING_PLANS[plan](table.lazy()))  # type: ignore[operator]
    except sf.SchemaError as exc:
        said.append(str(exc))
    assert all("Hint: " in text for text in said)


def test_the_boundary_names_a_lazyframe_whose_rows_are_not_its_declared_schema() -> None:
    lf = _store().lazy()
    with pytest.raises(sf.SchemaError, match=r"\(a LazyFrame\) declares types its rows do not "
                       r"have: round is declared Int64 but holds String\. Hint: "):
        sf.standings(_LYING_PLANS["round as text"](lf), "mtg")
    with pytest.raises(sf.SchemaError, match=r"\(a LazyFrame\) cannot be evaluated .*Polars "
                       r"panicked .*Hint: compare lf\.collect_schema\(\)"):
        sf.standings(_LYING_PLANS["a column left out, no phase"](lf), "mtg")


def test_a_wide_lazyframe_is_checked_against_its_declared_schema_in_linear_time() -> None:
    """The check of class 80 read a DataFrame's schema once per column: a 20,000-column
    CSV took ``swissframe validate`` from 2 s to more than 5 minutes."""
    wide = _store().with_columns(pl.lit(1).alias(f"c{i}") for i in range(20_000))
    problems = bounded(lambda: sf.find_problems(wide.lazy()), timeout=60)
    assert problems.height == 0


def test_repair_mirrors_names_a_cell_past_64_bits() -> None:
    """``repair_mirrors`` cast the table itself: a UInt64 game count past Int64 ended in
    Polars' ``InvalidOperationError``; it now reads the table through the boundary."""
    res = _store().with_columns(pl.col("games_won").cast(pl.UInt64))
    res = res.with_columns(pl.when(pl.int_range(pl.len()) == 0).then(pl.lit(2**64 - 1, pl.UInt64))
                           .otherwise(pl.col("games_won")).alias("games_won"))
    with pytest.raises(sf.SchemaError, match=r"cannot be read as the contract's types.*"
                                             r"games_won.*Hint"):
        sf.repair_mirrors(res)


@pytest.mark.parametrize(("seats", "kinds"), [
    (("forfeit_win", None), ["forfeit_mismatch", "forfeit_mismatch"]),
    ((None, "forfeit_loss"), ["forfeit_mismatch", "forfeit_mismatch"]),
    (("forfeit_win", "forfeit_win"), ["forfeit_mismatch", "forfeit_mismatch",
                                      "mirror_mismatch", "mirror_mismatch"]),
    (("forfeit_win", "forfeit_loss"), []),
    ((None, None), []),
])
def test_the_seats_of_a_match_agree_on_whether_it_was_played(
        seats: tuple[str | None, str | None], kinds: list[str]) -> None:
    """Class 105: one seat marked a forfeit and the other a game played (a TRF '+' against
    '0') was accepted: the forfeit was unplayed for one player's Buchholz only. Both seats
    are listed, on the coded, the keyed and the reference paths, and standings refuse it."""
    won = (1, 1) if seats == ("forfeit_win", "forfeit_win") else (1, 0)
    df = pl.DataFrame({
        "event_id": ["e"] * 4, "round": [1, 1, 2, 2], "player_id": ["A", "B", "A", "B"],
        "opponent_id": ["B", "A", "B", "A"], "games_won": [*won, 0, 1],
        "games_lost": [1 - won[0], 1 - won[1], 1, 0], "games_drawn": [0] * 4,
        "unplayed": [*seats, None, None], "scenario": ["s"] * 4})
    assert sorted(sf.find_problems(df)["kind"].to_list()) == kinds
    assert sorted(sf.find_problems(df, keys=["scenario"])["kind"].to_list()) == kinds
    assert sorted(schema._checked(df, default_event_id="e", keys=(), coded=False)[0]["kind"]
                  .to_list()) == kinds
    if kinds:
        with pytest.raises(sf.ValidationError, match=r"(?s)forfeit_mismatch.*Hint: a forfeit is "
                           r"unplayed='forfeit_win' on one seat"):
            sf.standings(df, "fide")
    else:
        assert sf.standings(df, "fide").height == 2


_SEAT_KINDS = st.sampled_from([None, "forfeit_win", "forfeit_loss", "absent", "half_bye"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 3), st.integers(0, 5), st.integers(0, 5), _SEAT_KINDS,
                          _SEAT_KINDS), min_size=1, max_size=12))
def test_forfeit_mismatch_lists_the_seats_the_pairwise_definition_does(
        matches: list[tuple[int, int, int, str | None, str | None]]) -> None:
    """The check joins only the forfeit rows with their mirrors (the review's speed-up):
    it lists exactly the seats the definition does — every paired row whose mirror
    disagrees on whether the match was played, or both seats a forfeit_win — on the coded
    and the reference paths."""
    rows, seen = [], set()
    for rnd, a, b, ka, kb in matches:
        pa, pb = f"P{a}", f"P{b}"
        if a == b or (rnd, pa) in seen or (rnd, pb) in seen:
            continue
        seen |= {(rnd, pa), (rnd, pb)}
        rows += [(rnd, pa, pb, ka), (rnd, pb, pa, kb)]
    if not rows:
        return
    kind = {(r, p, o): k for r, p, o, k in rows}
    ff = {"forfeit_win", "forfeit_loss"}
    want = sorted((r, p, o) for r, p, o, k in rows
                  if ((k in ff) != (kind[(r, o, p)] in ff))
                  or (k == kind[(r, o, p)] == "forfeit_win"))
    df = pl.DataFrame({"event_id": ["e"] * len(rows), "round": [r[0] for r in rows],
                       "player_id": [r[1] for r in rows], "opponent_id": [r[2] for r in rows],
                       "games_won": [0] * len(rows), "games_lost": [0] * len(rows),
                       "games_drawn": [0] * len(rows), "unplayed": [r[3] for r in rows]},
                      schema_overrides={"unplayed": pl.String})
    for got in (sf.find_problems(df),
                schema._checked(df, default_event_id="e", keys=(), coded=False)[0]):
        listed = got.filter(pl.col("kind") == "forfeit_mismatch")
        assert sorted(listed.select("round", "player_id", "opponent_id").rows()) == want


@pytest.mark.parametrize(("column", "beside"), [
    ("Games_Won", "games_won"), ("Round", "round"), (" player_id", "player_id"),
    ("PHASE", "phase"), ("Unplayed", "unplayed")])
def test_a_contract_column_named_twice_but_for_case_is_refused(column: str,
                                                              beside: str) -> None:
    """Class 106: ``Games_Won`` beside ``games_won`` (two exports merged, a spreadsheet's
    copy) was passed through as an extra column: the exact one was read, which of the
    two was meant unknown, without a word. A ``SchemaError`` naming both (a ``schema``
    problem of ``validate``, whose other checks read the exact column)."""
    from swissframe.validate import validate

    rows = pl.DataFrame({"event_id": ["e"] * 2, "round": [1, 1], "player_id": ["A", "B"],
                         "opponent_id": ["B", "A"], "games_won": [2, 0], "games_lost": [0, 2],
                         "games_drawn": [0, 0], "phase": ["swiss"] * 2,
                         "unplayed": [None, None]}).with_columns(
        pl.col(beside).alias(column))
    said = rf"named twice but for case or spaces \({column!r} beside {beside!r}\).*Hint: drop"
    for table in (rows, rows.lazy()):
        with pytest.raises(sf.SchemaError, match=said):
            sf.standings(table, "mtg")
    report = validate(rows, rules="mtg", best_of=3)
    assert report.problems["kind"].to_list() == ["schema"]
    assert re.search(said, report.problems["detail"][0])


def test_an_analysis_key_of_python_objects_is_named() -> None:
    """Class 119: a key column of Python objects (``pl.Object``, or nesting them) made
    Polars panic ("Unsupported in row encoding", a Rust backtrace) in every analysis that
    groups by its keys; it is a ``SchemaError`` naming the key."""
    df = pl.DataFrame({"round": [1, 1], "player_id": ["A", "B"], "opponent_id": ["B", "A"],
                       "games_won": [2, 0], "games_lost": [0, 2], "games_drawn": [0, 0]})
    df = df.with_columns(pl.Series("k", [object(), object()], dtype=pl.Object))
    for call in (lambda: sf.standings(df, keys=["k"]), lambda: sf.find_problems(df, keys=["k"]),
                 lambda: sf.standings_by_round(df, keys=["k"]),
                 lambda: sf.explain(df, "A", keys=["k"])):
        with pytest.raises(sf.SchemaError, match=r"key column 'k' is .*Object.*cannot be "
                           r"grouped by. Hint: cast the key"):
            call()


@pytest.mark.parametrize("column", ["round", "games_a", "games_b", "games_drawn"])
def test_a_match_forms_counts_as_categorical_text_are_read(column: str) -> None:
    """Class 120: a match-form round or game count given as Categorical text (a
    spreadsheet's column read with categories) passed the checks as text of whole numbers,
    then had no common type with a bye's games: Polars' bare ``SchemaError`` ("failed to
    determine supertype of i64 and cat"). It is read as the same counts as text."""
    m = pl.DataFrame({"round": [1, 1, 2], "player_a": ["A", "C", "A"],
                      "player_b": ["B", None, "C"], "games_a": [2, None, 2],
                      "games_b": [0, None, 1], "games_drawn": [0, None, 0]})
    cat = m.with_columns(pl.col(column).cast(pl.String).cast(pl.Categorical))
    assert sf.from_matches(cat).equals(sf.from_matches(m))


# ------------------------------------------------- ids coded through a slot table (large inputs)

_IDS = st.one_of(st.text(min_size=1, max_size=3), st.sampled_from(
    ["p1", "p10", "p159", "a much longer player id of ev000123", "é", "0", " "]))


@settings(max_examples=80, deadline=None)
@given(players=st.lists(_IDS, min_size=1, max_size=300, unique=True), data=st.data())
def test_slot_codes_equal_the_enum_cast(players: list[str], data: st.DataObject) -> None:
    """The codes read from a slot table (``schema._slot_table``, large inputs) equal the
    Enum cast's on both id columns: every player id its index in the sorted dictionary, an
    opponent id outside it (or null) null — also where it falls on another id's slot."""
    n = data.draw(st.integers(1, 200))
    pick = st.integers(0, len(players) - 1)
    player = [players[data.draw(pick)] for _ in range(n)]
    strangers = st.one_of(st.none(), st.sampled_from(players), _IDS)
    opponent = [data.draw(strangers) for _ in range(n)]
    if data.draw(st.booleans()):
        player[data.draw(st.integers(0, n - 1))] = None  # type: ignore[call-overload]
    df = pl.DataFrame({"event_id": ["e"] * n, "player_id": player, "opponent_id": opponent},
                      schema={"event_id": pl.String, "player_id": pl.String,
                              "opponent_id": pl.String})
    ids = pl.Series("player_id", sorted(players), dtype=pl.String)
    events = pl.Series("event_id", ["e"], dtype=pl.String)
    want = df.select(schema._code_exprs(events, ids, sorted_events=True))
    slots = schema._slot_table(ids)
    assert slots is not None  # (300 ids fit a table of 2**20 slots)
    # (every slot of a stranger: the table's ids' slots, checked by the opponents' codes)
    nulls = df.get_column("player_id").null_count() > 0
    got = df.select(schema._code_exprs(events, ids, sorted_events=True, slots=slots,
                                       null_players=nulls))
    assert got.equals(want), (got, want)


def test_a_large_dictionary_has_no_slot_table() -> None:
    """A dictionary too large for a table of 2**20 slots with every id in its own keeps
    the Enum cast (``_slot_table`` None)."""
    ids = pl.Series("player_id", [f"p{i} of ev{i % 997}" for i in range(5_000)])
    assert schema._slot_table(ids.sort()) is None
    assert schema._slot_table(ids.head(100).sort()) is not None


@settings(max_examples=80, deadline=None)
@given(ids=st.lists(st.sampled_from(["A", "B", "C", "D", "", " ", "\u3000", "Z"]),
                    min_size=2, max_size=12),
       opponents=st.lists(st.sampled_from(["A", "B", "C", "D", "", "\t", "Z", None]),
                          min_size=12, max_size=12),
       null_cell=st.booleans(), large=st.booleans())
def test_self_pairing_and_empty_ids_from_the_codes_are_the_rules(
        ids: list[str], opponents: list[str | None], null_cell: bool, large: bool) -> None:
    """Without a null cell the coded checks decide ``self_pairing`` on the codes (a row
    whose player and opponent codes are equal) and ``empty_id`` on the ids' dictionary
    (``schema._FROM_CODES``), not by comparing every row's ids: the problems found are
    the reference's — players paired with themselves, empty or blank ids in either column,
    opponents who are nobody's players (the dictionary of both columns) — on the Enum cast
    and on the slot table (``large``, as a large table's); with a null cell the rules' own
    row facts."""
    n = len(ids)
    df = pl.DataFrame({"event_id": ["e"] * n, "round": [1 + i // 4 for i in range(n)],
                       "player_id": ids, "opponent_id": opponents[:n],
                       "games_won": [1] * n, "games_lost": [1] * n, "games_drawn": [0] * n,
                       "phase": ["swiss"] * n})
    if null_cell:
        df = df.with_columns(pl.when(pl.int_range(pl.len()) == 0).then(None)
                             .otherwise(pl.col("games_won")).alias("games_won"))
    with pytest.MonkeyPatch.context() as mp:  # (large: the ids coded by a slot table)
        mp.setattr(schema, "_SLOTS_MIN_ROWS", 0 if large else 10**9)
        got = schema._checked(df, default_event_id="e", keys=())[0]
    ref = schema._checked(df, default_event_id="e", keys=(), coded=False)[0]
    assert got.equals(ref), (got, ref)
    kinds = set(got["kind"].to_list())
    complete = df.filter(pl.all_horizontal(pl.all().exclude("opponent_id").is_not_null()))
    assert ("self_pairing" in kinds) == bool(
        (complete["player_id"] == complete["opponent_id"]).any())
    blank = [i for i in [*complete["player_id"], *complete["opponent_id"]]
             if i is not None and not i.strip(schema.WHITE_SPACE)]
    assert ("empty_id" in kinds) == bool(blank)


@pytest.mark.parametrize("phases", [
    ("swiss",) * 4, ("playoff",) * 4, ("swiss", "swiss", "playoff", "playoff"),
    ("swiss", "playoff", "playoff", "playoff"), ("swiss", "swiss", "finals", "finals"),
    ("playoff", "playoff", "", ""), ("swiss", "swiss", "playoff", "Swiss")])
def test_coded_phase_facts_agree_with_the_reference(phases: tuple[str, ...]) -> None:
    """Without a null cell the coded checks tell a bad phase and whether both phases occur
    from each phase's row count (``_phase_facts``), not the rule's own comparisons: the
    problems found (bad_phase, phase_mismatch) are the reference's."""
    df = pl.DataFrame({"event_id": ["e"] * 4, "round": [1, 1, 2, 2],
                       "player_id": ["A", "B", "A", "B"], "opponent_id": ["B", "A", "B", "A"],
                       "games_won": [2, 0, 2, 0], "games_lost": [0, 2, 0, 2],
                       "games_drawn": [0] * 4, "phase": list(phases)})
    got = schema._checked(df, default_event_id="e", keys=())[0]
    ref = schema._checked(df, default_event_id="e", keys=(), coded=False)[0]
    assert got.equals(ref), (got, ref)
    assert ("bad_phase" in got["kind"].to_list()) == any(p not in schema.PHASES for p in phases)
    mismatch = phases[0] != phases[1] and set(phases[:2]) <= set(schema.PHASES)
    assert ("phase_mismatch" in got["kind"].to_list()) == mismatch


@given(playoff=st.booleans(), cut=st.integers(0, 40))
@settings(max_examples=20, deadline=None)
def test_codes_say_whether_every_row_is_swiss(playoff: bool, cut: int) -> None:
    """``IdCodes.swiss`` (the engine then keeps every row without comparing its phase):
    True where every row's phase is Swiss, False with a playoff row; a subset of the rows
    (``codes_of_rows``) keeps what the whole table's codes say."""
    df = _SEASON.with_columns(phase=pl.lit("swiss"))
    if playoff:  # (a match of the first event's last round played again as a playoff)
        last = df.filter(pl.col("event_id") == df["event_id"].min())
        last = last.filter((pl.col("round") == last["round"].max())
                           & pl.col("opponent_id").is_not_null()).sort("player_id")
        a = last.row(0, named=True)
        match = last.filter(pl.col("player_id").is_in([a["player_id"], a["opponent_id"]]))
        df = pl.concat([df, match.with_columns(round=pl.col("round") + 1,
                                               phase=pl.lit("playoff"))])
    frame, codes = schema.validated_with_codes(df)
    assert codes is not None
    assert codes.swiss == (frame["phase"] == "swiss").all()
    keep = pl.Series([i % 41 != cut for i in range(frame.height)])
    sub = schema.codes_of_rows(codes, keep)
    assert sub is not None
    assert sub.swiss == codes.swiss


@pytest.mark.parametrize("columns", [None, {"player_a": "P1"}, "P1", 3,
                                     sf.MatchColumns(player_a=""), sf.MatchColumns(games_a=3)])
def test_match_columns_that_are_not_column_names_are_refused_by_name(
        columns: object, tmp_path: Path) -> None:
    """Bad data 183: ``columns=`` of the match form that is not an ``sf.MatchColumns`` of
    names was a bare ``AttributeError: 'dict' object has no attribute 'player_a'`` in
    ``from_matches``, ``to_matches`` and ``read_results``."""
    m = pl.DataFrame({"round": [1], "player_a": ["A"], "player_b": ["B"], "games_a": [2],
                      "games_b": [1], "games_drawn": [0]})
    m.write_csv(tmp_path / "m.csv")
    said = r"columns must be an sf\.MatchColumns|MatchColumns: \w+ must be a column name"
    for call in (lambda: sf.from_matches(m, columns=columns),
                 lambda: sf.to_matches(sf.from_matches(m), columns=columns),
                 lambda: sf.read_results(tmp_path / "m.csv", columns=columns)):
        with pytest.raises(sf.SchemaError, match=said):
            call()


def test_a_key_column_the_table_lacks_is_named_by_every_check() -> None:
    """(find_problems and validate_results ended in Polars' ColumnNotFoundError, and
    sf.validate's keys=None in a bare TypeError; standings said it already)"""
    res = sf.from_matches(pl.DataFrame({"round": [1], "player_a": ["A"], "player_b": ["B"],
                                        "games_a": [2], "games_b": [1], "games_drawn": [0]}))
    said = r"key column\(s\) \['scenario'\] not in the results table"
    for check in (sf.find_problems, sf.validate_results, sf.standings):
        with pytest.raises(sf.SchemaError, match=said):
            check(res, keys="scenario")
    with pytest.raises(sf.DataError, match=r"keys must be column names, got None"):
        sf.validate(res, keys=None)  # type: ignore[arg-type]
    with pytest.raises(sf.DataError, match=r"origin must be a column name, got \[\]"):
        sf.validate(res, origin=[])  # type: ignore[arg-type]
    assert any("scenario" in d for d in sf.validate(res, keys=["scenario"]).problems[
        "detail"].to_list())  # (validate reports what it finds: a missing column too)


@settings(max_examples=60)
@given(stages=st.lists(st.sampled_from(["day1", "day2", "top8", None]), min_size=16,
                       max_size=16),
       playoff_round=st.sampled_from([None, 2, 4]), null_cell=st.booleans())
def test_coded_stage_fact_agrees_with_the_reference(
        stages: list[str | None], playoff_round: int | None, null_cell: bool) -> None:
    """Without a null cell the coded checks tell whether every round holds one stage from
    the event codes (``_stages_one_a_round``), and describe the rounds only when one does
    not: the problems found are the reference's, and a round of two stages is found. Two
    events, four rounds of one match each; the stages drawn per seat."""
    n = 16
    df = pl.DataFrame({"event_id": ["e1"] * 8 + ["e2"] * 8,
                       "round": [1 + (i % 8) // 2 for i in range(n)],
                       "player_id": [("A", "B")[i % 2] for i in range(n)],
                       "opponent_id": [("B", "A")[i % 2] for i in range(n)],
                       "games_won": [(2, 0)[i % 2] for i in range(n)],
                       "games_lost": [(0, 2)[i % 2] for i in range(n)],
                       "games_drawn": [0] * n, "stage": stages})
    df = df.with_columns(phase=pl.when(pl.col("round") == (playoff_round or 0))
                         .then(pl.lit("playoff")).otherwise(pl.lit("swiss")))
    if null_cell:
        df = df.with_columns(pl.when(pl.int_range(pl.len()) == 0).then(None)
                             .otherwise(pl.col("games_won")).alias("games_won"))
    got = schema._checked(df, default_event_id="e", keys=())[0]
    ref = schema._checked(df, default_event_id="e", keys=(), coded=False)[0]
    assert got.equals(ref), (got, ref)
    rows = df.filter(pl.col("games_won").is_not_null()) if null_cell else df
    mixed = rows.group_by("event_id", "round", "phase").agg(pl.col("stage").n_unique() > 1)
    assert ("stage_mismatch" in got["kind"].to_list()) == mixed["stage"].any()


@pytest.mark.parametrize("bye_games", ["2-0-0", (2, 0), (2, 0, -1), None])
def test_from_matches_reads_one_bye_score(bye_games: object) -> None:
    """A text "2-0-0" was read as three column names (Polars' bare ColumnNotFoundError),
    a pair or None a bare error of its own (bad data 248)."""
    m = pl.DataFrame({"round": [1], "player_a": ["A"], "player_b": [None],
                      "games_a": [2], "games_b": [0], "games_drawn": [0]},
                     schema_overrides={"player_b": pl.String})
    with pytest.raises(sf.DataError, match=r"^bye_games must be \(games won, lost, drawn\) "
                                           r"triples .*Hint: one triple"):
        sf.from_matches(m, bye_games=bye_games)  # type: ignore[arg-type]
    assert sf.from_matches(m, bye_games=[2, 0, 0]).equals(sf.from_matches(m))


@pytest.mark.parametrize("value", [3, None, ["e"]])
def test_the_default_event_id_is_text(value: object) -> None:
    """A number was cast to its digits, None made every row's event null (each row a
    problem of its own) (bad data 248)."""
    from tests.helpers import REPO_ROOT

    res = sf.read_results(REPO_ROOT / "data" / "events" / "store-championship.csv")
    m = sf.to_matches(res).drop("event_id")
    for call in (lambda: sf.validate(res.drop("event_id"), default_event_id=value),
                 lambda: sf.find_problems(res.drop("event_id"), default_event_id=value),
                 lambda: sf.from_matches(m, default_event_id=value)):
        with pytest.raises(sf.DataError, match=r"^default_event_id must be an id as text"):
            call()  # type: ignore[no-untyped-call]
