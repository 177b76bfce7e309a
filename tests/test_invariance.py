"""A results table's meaning does not depend on how it is spelled.

Hypothesis draws a few small events (``tests.test_multi_event.many_events``) and checks,
for each public analysis, that the output on the table as drawn equals the output on the
same table spelled another way, bit for bit (or the same refusal):

(a) its rows in any order, its columns in any order, extra unrelated columns;
(b) a LazyFrame, or a DataFrame of several chunks (``pl.concat(..., rechunk=False)``);
(c) equivalent dtypes: game counts as Int32 / Int16 / UInt8, round as Int32, ids as
    Categorical or Enum;
(d) the match form (``sf.to_matches`` → ``sf.from_matches``), a CSV or Parquet file read
    back by ``sf.read_results`` / ``sf.read``;
(e) simulated probabilities with a fixed seed, under (a)–(c);
(f) standings of tables that carry the optional ``unplayed`` / ``double_loss`` / ``stage``
    / ``color`` columns, under row and column order, Categorical ids, a LazyFrame and a
    CSV / Parquet file; an analysis key (``keys=["scenario_id"]``) and ``rules="auto"``
    with a ``ruleset`` column, under row order and stacked against each part alone.

Outputs whose documented order is a key order are compared in that order; outputs
documented as keyed rows are compared sorted by their key columns.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import swissframe as sf
from tests.helpers import chunks_kept, cut_apart  # noqa: F401 (chunks_kept: a fixture)
from tests.test_fuzz import mutate
from tests.test_multi_event import RULESETS, _outcome, _split, many_events

#: ``SWISSFRAME_INVARIANCE_EXAMPLES=500`` explores further (random, not the fixed examples).
_EXAMPLES = int(os.environ.get("SWISSFRAME_INVARIANCE_EXAMPLES", "0"))
PROPS = settings(max_examples=_EXAMPLES or 15, deadline=None, derandomize=not _EXAMPLES,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

GAMES = ("games_won", "games_lost", "games_drawn")
IDS = ("event_id", "player_id", "opponent_id")

# ------------------------------------------------------------------------ spellings


def _permute_rows(df: pl.DataFrame, data: st.DataObject) -> pl.DataFrame:
    order = data.draw(st.permutations(range(df.height)))
    return df[list(order)] if df.height else df


def _permute_columns(df: pl.DataFrame, data: st.DataObject) -> pl.DataFrame:
    return df.select(data.draw(st.permutations(df.columns)))


#: Extra columns: names of no meaning to the contract, some of them names the library
#: gives its own columns (``rank``, ``unit``, ``k``, ``status`` …).
EXTRA_NAMES = ("note", "table", "score", "rank", "status", "unit", "k", "gw", "opp", "bye",
               "played", "outcome", "level", "wins", "match_points", "kind", "detail",
               "players", "probability", "intentional_draw", "scenario_id", "player_a",
               "seat", "n", "value")


def _extra_columns(df: pl.DataFrame, data: st.DataObject) -> pl.DataFrame:
    names = data.draw(st.lists(st.sampled_from(EXTRA_NAMES), min_size=1, max_size=4,
                               unique=True))
    n = df.height
    values = [pl.Series([f"n{i % 3}" for i in range(n)], dtype=pl.String),
              pl.Series(list(range(n)), dtype=pl.Int64),
              pl.Series([i / 7 for i in range(n)], dtype=pl.Float64),
              pl.Series([i % 2 == 0 for i in range(n)], dtype=pl.Boolean)]
    return df.hstack([data.draw(st.sampled_from(values)).alias(name) for name in names])


def _chunked(df: pl.DataFrame, data: st.DataObject) -> pl.DataFrame:
    if df.height < 2:
        return df
    cuts = sorted(set(data.draw(st.lists(st.integers(1, df.height - 1), min_size=1,
                                         max_size=4))))
    bounds = [0, *cuts, df.height]
    return pl.concat([df[a:b] for a, b in itertools.pairwise(bounds)],
                     rechunk=False)


def _misaligned(df: pl.DataFrame, data: st.DataObject) -> pl.DataFrame:
    """Each column cut into chunks at its own rows (as ``hstack`` of frames read apart
    leaves them): the boundary keeps the chunks (``chunks_kept``), so every query
    reads columns whose chunks do not line up."""
    if df.height < 2:
        return df
    return cut_apart(df, [data.draw(st.lists(st.integers(1, df.height - 1), max_size=3))
                          for _ in df.columns])


def _lazy(df: pl.DataFrame, data: st.DataObject) -> pl.LazyFrame:
    return df.lazy()


def _dtypes(df: pl.DataFrame, data: st.DataObject) -> pl.DataFrame:
    games = data.draw(st.sampled_from([pl.Int32, pl.Int16, pl.UInt8, pl.Int64]))
    ids = data.draw(st.sampled_from(["String", "Categorical", "Enum"]))
    rnd = data.draw(st.sampled_from([pl.Int32, pl.Int64, pl.Int16]))
    out = df
    for cols, dtype in (([c for c in GAMES if c in df.columns], games), (["round"], rnd)):
        # (a broken table's values may not fit: those columns stay as they are)
        with contextlib.suppress(pl.exceptions.InvalidOperationError):
            out = out.with_columns(pl.col(cols).cast(dtype))
    ids_present = [c for c in IDS if c in df.columns]
    if ids == "Categorical":
        out = out.with_columns(pl.col(ids_present).cast(pl.Categorical))
    elif ids == "Enum":
        values = pl.concat([df[c] for c in ids_present]).drop_nulls().unique().sort()
        order = data.draw(st.permutations(values.to_list()))  # (not the lexical order)
        out = out.with_columns(pl.col(ids_present).cast(pl.Enum(order)))
    return out


def _matches(df: pl.DataFrame, data: st.DataObject) -> pl.DataFrame:
    return sf.from_matches(sf.to_matches(df))


def _file(df: pl.DataFrame, data: st.DataObject) -> pl.DataFrame:
    fmt = data.draw(st.sampled_from(["csv", "parquet", "matches.csv", "matches.parquet"]))
    reader = data.draw(st.sampled_from(["read_results", "read"]))
    table = sf.to_matches(df) if fmt.startswith("matches") else df
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"t.{fmt.removeprefix('matches.')}"
        (table.write_csv if path.suffix == ".csv" else table.write_parquet)(path)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return sf.read_results(path) if reader == "read_results" else sf.read(path).results


SPELLINGS: dict[str, Callable[[pl.DataFrame, st.DataObject], pl.DataFrame | pl.LazyFrame]] = {
    "rows": _permute_rows, "columns": _permute_columns, "extra": _extra_columns,
    "chunks": _chunked, "misaligned": _misaligned, "lazy": _lazy, "dtypes": _dtypes,
    "matches": _matches, "file": _file,
}
#: The spellings that keep the table a table of the same rows (no file, no match form).
IN_MEMORY = ("rows", "columns", "extra", "chunks", "misaligned", "lazy", "dtypes")


pytestmark = pytest.mark.usefixtures("chunks_kept")


def respell(df: pl.DataFrame, data: st.DataObject, kinds: tuple[str, ...] = tuple(SPELLINGS)
            ) -> pl.DataFrame | pl.LazyFrame:
    """``df`` spelled one to three ways at once (lazy, if drawn, applied last)."""
    chosen = data.draw(st.lists(st.sampled_from(kinds), min_size=1, max_size=3, unique=True))
    out: Any = df
    for kind in sorted(chosen, key=lambda k: k == "lazy"):
        out = SPELLINGS[kind](out, data)
    return out


# ------------------------------------------------------------------------ comparisons


def _unnumbered(text: str) -> str:
    return re.sub(r"\brows? \d+(, \d+)*", "row #", text)


def check(df: pl.DataFrame, other: Any, call: Callable[[Any], Any],
          compare: Callable[[Any, Any], None]) -> None:
    """``call(other)`` equals ``call(df)``, or both refuse alike."""
    want, got = _outcome(lambda: call(df)), _outcome(lambda: call(other))
    if isinstance(want, Exception) or isinstance(got, Exception):
        assert type(got) is type(want), (want, got)
        assert _unnumbered(str(got)) == _unnumbered(str(want))
        return
    compare(got, want)


def frames(by: list[str] | None = None) -> Callable[[pl.DataFrame, pl.DataFrame], None]:
    def compare(got: pl.DataFrame, want: pl.DataFrame) -> None:
        if by is not None:
            got, want = got.sort(by, maintain_order=True), want.sort(by, maintain_order=True)
        assert_frame_equal(got, want, check_exact=True)
    return compare


# ------------------------------------------------------------------------ standings


@PROPS
@given(df=many_events(1, 3), rules=st.sampled_from(RULESETS), data=st.data())
def test_standings(df: pl.DataFrame, rules: str, data: st.DataObject) -> None:
    through = data.draw(st.sampled_from([None, 1]))
    check(df, respell(df, data), lambda d: sf.standings(d, rules, through_round=through),
          frames())


@PROPS
@given(df=many_events(1, 3), rules=st.sampled_from(RULESETS), data=st.data())
def test_standings_by_round(df: pl.DataFrame, rules: str, data: st.DataObject) -> None:
    check(df, respell(df, data), lambda d: sf.standings_by_round(d, rules), frames())


# ------------------------------------------------------------------------ problems


def _problems() -> Callable[[pl.DataFrame, pl.DataFrame], None]:
    """Problems alike, the input row numbers in their details aside."""
    def compare(got: pl.DataFrame, want: pl.DataFrame) -> None:
        def unnumbered(p: pl.DataFrame) -> pl.DataFrame:
            return p.with_columns(pl.col("detail").str.replace_all(r"\brows? \d+", "row #"))
        frames(list(want.columns))(unnumbered(got), unnumbered(want))
    return compare


@PROPS
@given(df=many_events(1, 3), data=st.data())
def test_find_problems(df: pl.DataFrame, data: st.DataObject) -> None:
    broken = mutate(mutate(df, data), data)
    check(broken, respell(broken, data, IN_MEMORY), sf.find_problems, _problems())


@PROPS
@given(df=many_events(1, 3), data=st.data(), rules=st.sampled_from(["mtg", "fide"]))
def test_validate(df: pl.DataFrame, data: st.DataObject, rules: str) -> None:
    broken = mutate(mutate(df, data), data)

    def report(d: Any) -> tuple[pl.DataFrame, int, int]:
        rep = sf.validate(d, rules=rules)
        return rep.problems, rep.rows, rep.events

    def compare(got: Any, want: Any) -> None:
        _problems()(got[0], want[0])
        assert got[1:] == want[1:]

    check(broken, respell(broken, data, IN_MEMORY), report, compare)


@PROPS
@given(df=many_events(1, 3), data=st.data())
def test_validate_valid(df: pl.DataFrame, data: st.DataObject) -> None:
    def report(d: Any) -> tuple[pl.DataFrame, int, int]:
        rep = sf.validate(d)
        return rep.problems, rep.rows, rep.events

    def compare(got: Any, want: Any) -> None:
        _problems()(got[0], want[0])
        assert got[1:] == want[1:]

    check(df, respell(df, data), report, compare)


# ------------------------------------------------------------------------ cut analyses


def _cut_inputs(df: pl.DataFrame, data: st.DataObject) -> tuple[Any, Any, Any, Any]:
    results, pairs = _split(df)
    return results, pairs, respell(results, data), respell(pairs, data, IN_MEMORY)


@PROPS
@given(df=many_events(1, 3), rules=st.sampled_from(RULESETS), top=st.sampled_from([1, 2, 4]),
       how=st.sampled_from(["enumerate", "simulate", "ranges"]), data=st.data())
def test_cut_status(df: pl.DataFrame, rules: str, top: int, how: str,
                    data: st.DataObject) -> None:
    kw = {"enumerate": {}, "simulate": {"exact_limit": 0, "n_sims": 30, "batch": 7},
          "ranges": {"exact_limit": 0, "n_sims": 0}}[how]
    results, pairs, r2, p2 = _cut_inputs(df, data)
    check((results, pairs), (r2, p2), lambda rp: sf.cut_status(*rp, top, rules, **kw),
          frames())


@PROPS
@given(df=many_events(1, 3), rules=st.sampled_from(RULESETS), paired=st.booleans(),
       by_score=st.booleans(), data=st.data())
def test_next_round_ranges(df: pl.DataFrame, rules: str, paired: bool, by_score: bool,
                           data: st.DataObject) -> None:
    results, pairs, r2, p2 = _cut_inputs(df, data)
    check((results, pairs), (r2, p2), lambda rp: sf.next_round_ranges(
        rp[0], rp[1] if paired else None, rules, by_score=by_score), frames())


def _report(got: Any, want: Any) -> None:
    frames()(got.events, want.events)
    frames()(got.draws, want.draws)


@PROPS
@given(df=many_events(1, 3), top=st.sampled_from([1, 2, 4]), n_sims=st.sampled_from([0, 8]),
       rules=st.sampled_from(["mtg", "pokemon"]), data=st.data())
def test_id_report(df: pl.DataFrame, top: int, n_sims: int, rules: str,
                   data: st.DataObject) -> None:
    check(df, respell(df, data), lambda d: sf.id_report(d, top, rules, n_sims=n_sims), _report)


@PROPS
@given(df=many_events(1, 3), source=st.sampled_from(["mtg", "wer", "topdeck"]),
       data=st.data())
def test_detect_intentional_draws(df: pl.DataFrame, source: str, data: st.DataObject) -> None:
    """The input rows come back as they were given (their columns, dtypes and order):
    compared on the contract's columns, as text and Int64, by seat."""
    def flags(d: Any) -> pl.DataFrame:
        out = sf.detect_intentional_draws(d, source)
        return out.select(pl.col(*IDS).cast(pl.String), pl.col("round", *GAMES).cast(pl.Int64),
                          "intentional_draw")

    check(df, respell(df, data), flags, frames(["event_id", "round", "player_id"]))


# ------------------------------------------------------------------------ other analyses


@PROPS
@given(df=many_events(1, 3), top=st.sampled_from([1, 2, 4, 8]),
       rulesets=st.sampled_from([None, ["mtg", "pokemon", "fab", "fide"]]), data=st.data())
def test_sensitivity(df: pl.DataFrame, top: int, rulesets: list[str] | None,
                     data: st.DataObject) -> None:
    check(df, respell(df, data), lambda d: sf.sensitivity(d, rulesets, top), frames())


def _event_and_players(df: pl.DataFrame, data: st.DataObject) -> tuple[str, list[str]]:
    ev = data.draw(st.sampled_from(sorted(df["event_id"].unique())))
    players = sorted(df.filter(pl.col("event_id") == ev)["player_id"].unique())
    return ev, players


@PROPS
@given(df=many_events(1, 3), rules=st.sampled_from(RULESETS), data=st.data())
def test_explain(df: pl.DataFrame, rules: str, data: st.DataObject) -> None:
    ev, players = _event_and_players(df, data)
    player = data.draw(st.sampled_from(players))
    through = data.draw(st.sampled_from([None, 1]))
    check(df, respell(df, data), lambda d: sf.explain(d, player, rules, event_id=ev,
                                                      through_round=through), frames())


@PROPS
@given(df=many_events(1, 3), rules=st.sampled_from(RULESETS), data=st.data())
def test_compare(df: pl.DataFrame, rules: str, data: st.DataObject) -> None:
    ev, players = _event_and_players(df, data)
    a, b = data.draw(st.lists(st.sampled_from(players), min_size=2, max_size=2, unique=True))
    through = data.draw(st.sampled_from([None, 1]))

    def compare(got: sf.Comparison, want: sf.Comparison) -> None:
        assert_frame_equal(got.table, want.table, check_exact=True)
        assert got.sentence == want.sentence
        assert (got.rank_a, got.rank_b, got.ahead, got.criterion, got.value_a, got.value_b,
                got.margin) == (want.rank_a, want.rank_b, want.ahead, want.criterion,
                                want.value_a, want.value_b, want.margin)

    check(df, respell(df, data), lambda d: sf.compare(d, a, b, rules=rules, event_id=ev,
                                                      through_round=through), compare)


# ------------------------------------------------------------------------ found and fixed


def _pair_rows(rows: list[tuple[str, str | None, int, int, int]]) -> pl.DataFrame:
    """Seats of event "b", round 1, as given (no mirrors added)."""
    return pl.DataFrame([("b", 1, *r) for r in rows], orient="row", schema={
        "event_id": pl.String, "round": pl.Int64, "player_id": pl.String,
        "opponent_id": pl.String, "games_won": pl.Int64, "games_lost": pl.Int64,
        "games_drawn": pl.Int64})


def test_a_row_twice_is_one_mirror_problem_whatever_its_extra_columns() -> None:
    """A seat given twice was one mirror_mismatch, or two when an extra column (a table
    number) told the copies apart: the bad rows were made unique on every column."""
    df = _pair_rows([("p0", "p1", 0, 0, 0), ("p1", "p0", 0, 2, 0), ("p0", "p1", 0, 0, 0)])
    extra = df.with_columns(table=pl.int_range(pl.len()))
    for call in (sf.find_problems, lambda d: sf.validate(d).problems):
        _problems()(call(extra), call(df))



def test_a_seat_given_twice_names_no_record_rather_than_the_first() -> None:
    """validate joined each problem to the first row of its seat: a seat given twice with
    different records showed the record of whichever copy came first (even beside a detail
    that quoted the other one). Such a problem now names no record."""
    df = _pair_rows([("p0", "p1", 2, 0, 0), ("p1", "p0", 0, 2, 0), ("p0", "p1", 1, 0, 0)])
    want = sf.validate(df).problems
    _problems()(sf.validate(df.reverse()).problems, want)
    mismatch = want.filter(pl.col("kind") == "mirror_mismatch", pl.col("player_id") == "p0")
    assert mismatch["games_won"].to_list() == [None]


def test_pairings_refused_alike_in_any_row_order() -> None:
    """Pairings for two events the results lack were refused naming whichever came first
    in the rows (and a bad pairing row likewise); now the first by id."""
    results = _pair_rows([("p0", "p1", 2, 0, 0), ("p1", "p0", 0, 2, 0)])
    pairs = pl.DataFrame({"event_id": ["x", "x", "a", "a"], "round": [1] * 4,
                          "player_id": ["p0", "p1", "p0", "p1"],
                          "opponent_id": ["p1", "p0", "p1", "p0"]})
    bad = pl.DataFrame({"event_id": ["b"] * 4, "round": [2] * 4,  # (no seat points back)
                        "player_id": ["p1", "p0", "p2", "p3"],
                        "opponent_id": ["p2", "p1", "p0", None]})
    for p in (pairs, bad):
        for call in (lambda r, q: sf.cut_status(r, q, 1), sf.next_round_ranges):
            check((results, p), (results, p.reverse()), lambda rp, c=call: c(*rp), frames())


def test_columns_named_like_the_analysis_own_are_unrelated() -> None:
    """An input column ``intentional_draw`` was the left side of detect_intentional_draws'
    join (its values came back as the flags, or the flag's ``&`` failed on its dtype), and
    ``scenario_id`` a key of id_report's counterfactual standings (a Polars error)."""
    df = pl.concat([_pair_rows([("a", "b", 0, 0, 3), ("b", "a", 0, 0, 3),
                                ("c", "d", 2, 0, 0), ("d", "c", 0, 2, 0)]),
                    _pair_rows([("a", "c", 2, 1, 0), ("c", "a", 1, 2, 0),
                                ("b", "d", 0, 0, 3), ("d", "b", 0, 0, 3)])
                    .with_columns(round=pl.lit(2, dtype=pl.Int64))])
    for value in (pl.lit(1), pl.lit(value=False), pl.lit("x")):
        for name in ("intentional_draw", "scenario_id"):
            other = df.with_columns(value.alias(name))
            check(df, other, sf.detect_intentional_draws,
                  lambda got, want, n=name: frames()(got.drop(n, strict=False),
                                                     want.drop(n, strict=False)))
            check(df, other, lambda d: sf.id_report(d, 2, n_sims=8), _report)


# ------------------------------------------------------------------------ optional columns

SMALL = settings(max_examples=_EXAMPLES or 10, deadline=None, derandomize=not _EXAMPLES,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _decorate(df: pl.DataFrame, data: st.DataObject) -> pl.DataFrame:
    """``df`` with valid ``unplayed`` / ``double_loss`` / ``stage`` / ``color`` values: a
    2-0 match may be a forfeit (both seats) or a double loss (both seats 0-2), a bye a
    pairing / full / half bye, an unopposed loss a zero bye or an absence; colours pair
    ``w`` with ``b``; stages split the rounds in two."""
    codes = data.draw(st.lists(st.integers(0, 4), min_size=df.height, max_size=df.height))
    split = data.draw(st.integers(1, 4))
    # one code per match: the seat with the smaller id draws it for both
    seat = {(r["event_id"], r["round"], r["player_id"]): c
            for r, c in zip(df.iter_rows(named=True), codes, strict=True)}
    rows = []
    for r in df.iter_rows(named=True):
        opp = r["opponent_id"]
        key = min(r["player_id"], opp) if opp is not None else r["player_id"]
        code = seat[(r["event_id"], r["round"], key)]
        g = (r["games_won"], r["games_lost"], r["games_drawn"])
        unplayed, dl, color = None, [False, None][code % 2], None
        if opp is None:
            if g == (2, 0, 0):
                unplayed, g = [(None, g), ("pairing_bye", g), ("full_bye", g),
                               ("half_bye", (0, 0, 1)), (None, g)][code]
            else:
                unplayed = [None, "zero_bye", "absent", None, "absent"][code]
        else:
            color = "w" if (r["player_id"] < opp) == (code % 2 == 0) else "b"
            if code == 3 and g[2] == 0 and g[0] != g[1]:
                unplayed = "forfeit_win" if g[0] > g[1] else "forfeit_loss"
            elif code == 4:
                dl, g = True, (0, 2, 0)
        rows.append({**r, "games_won": g[0], "games_lost": g[1], "games_drawn": g[2],
                     "unplayed": unplayed, "double_loss": dl, "color": color,
                     "stage": "day1" if r["round"] <= split else "day2"})
    out = pl.DataFrame(rows, schema={**df.schema, "unplayed": pl.String,
                                     "double_loss": pl.Boolean, "color": pl.String,
                                     "stage": pl.String})
    assert sf.validate(out).errors.height == 0, sf.validate(out).errors
    return out


def _categorical(df: pl.DataFrame, data: st.DataObject) -> pl.DataFrame:
    return df.with_columns(pl.col(*IDS).cast(pl.Categorical))


def _long_file(df: pl.DataFrame, data: st.DataObject) -> pl.DataFrame:
    """Written as CSV or Parquet (the long form: the match form has no per-seat
    ``unplayed`` / ``color``), read back by ``sf.read_results``."""
    suffix = data.draw(st.sampled_from(["csv", "parquet"]))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"t.{suffix}"
        (df.write_csv if suffix == "csv" else df.write_parquet)(path)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return sf.read_results(path)


OPTIONAL_SPELLINGS: dict[str, Callable[[pl.DataFrame, st.DataObject],
                                       pl.DataFrame | pl.LazyFrame]] = {
    "rows": _permute_rows, "columns": _permute_columns, "categorical": _categorical,
    "lazy": _lazy, "file": _long_file}


@pytest.mark.parametrize("by_round", [False, True], ids=["standings", "by_round"])
@SMALL
@given(df=many_events(1, 2), rules=st.sampled_from(RULESETS),
       kind=st.sampled_from(sorted(OPTIONAL_SPELLINGS)), data=st.data())
def test_standings_with_optional_columns(by_round: bool, df: pl.DataFrame, rules: str,
                                         kind: str, data: st.DataObject) -> None:
    d = _decorate(df, data)
    other = OPTIONAL_SPELLINGS[kind](d, data)
    if by_round:
        check(d, other, lambda t: sf.standings_by_round(t, rules), frames())
        return
    through = data.draw(st.sampled_from([None, 1]))
    check(d, other, lambda t: sf.standings(t, rules, through_round=through), frames())


# ------------------------------------------------------------------------ analysis keys


def _scenarios(data: st.DataObject) -> tuple[pl.DataFrame, dict[Any, pl.DataFrame]]:
    """Two scenarios (of possibly the same event names), stacked, and each alone."""
    ids: list[Any] = data.draw(st.sampled_from([["s0", "s1"], [1, 0]]))
    alone = {s: data.draw(many_events(1, 2)).with_columns(scenario_id=pl.lit(s))
             for s in ids}
    return pl.concat(list(alone.values())), alone


@SMALL
@given(rules=st.sampled_from(RULESETS), by_round=st.booleans(), data=st.data())
def test_keys_stacked_equals_alone(rules: str, by_round: bool, data: st.DataObject) -> None:
    stacked, alone = _scenarios(data)
    fn = sf.standings_by_round if by_round else sf.standings
    got = fn(stacked, rules, keys=["scenario_id"])
    for s, one in alone.items():
        frames()(got.filter(pl.col("scenario_id") == s), fn(one, rules, keys=["scenario_id"]))


@SMALL
@given(rules=st.sampled_from(RULESETS), by_round=st.booleans(), data=st.data())
def test_keys_any_row_order(rules: str, by_round: bool, data: st.DataObject) -> None:
    stacked, _ = _scenarios(data)
    fn = sf.standings_by_round if by_round else sf.standings
    check(stacked, _permute_rows(stacked, data),
          lambda t: fn(t, rules, keys=["scenario_id"]), frames())


# ------------------------------------------------------------------------ rules="auto"


def _with_rulesets(df: pl.DataFrame, data: st.DataObject) -> pl.DataFrame:
    events = sorted(df["event_id"].unique())
    names = data.draw(st.lists(st.sampled_from(RULESETS), min_size=len(events),
                               max_size=len(events)))
    return df.with_columns(ruleset=pl.col("event_id").replace_strict(events, names))


@SMALL
@given(df=many_events(1, 3), by_round=st.booleans(), data=st.data())
def test_auto_any_row_order(df: pl.DataFrame, by_round: bool, data: st.DataObject) -> None:
    d = _with_rulesets(df, data)
    fn = sf.standings_by_round if by_round else sf.standings
    check(d, _permute_rows(d, data), lambda t: fn(t, "auto"), frames())


@SMALL
@given(df=many_events(2, 3), by_round=st.booleans(), data=st.data())
def test_auto_stacked_equals_alone(df: pl.DataFrame, by_round: bool,
                                   data: st.DataObject) -> None:
    d = _with_rulesets(df, data)
    fn = sf.standings_by_round if by_round else sf.standings
    got = fn(d, "auto")
    for ev in sorted(d["event_id"].unique()):
        alone = fn(d.filter(pl.col("event_id") == ev), "auto")
        mine = got.filter(pl.col("event_id") == ev)
        # events of several rulesets stack diagonally (``run_auto``): another ruleset's
        # columns are null here, and a column both have takes the common supertype
        assert all(n == mine.height for n in mine.drop(alone.columns).null_count().row(0))
        frames()(mine.select(alone.columns), alone.cast(mine.select(alone.columns).schema))
