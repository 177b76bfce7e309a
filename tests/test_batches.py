"""Batches of whole events (``_batches``): a very large table is computed in batches,
and what a call returns, raises or warns is what the whole table in one pass gives.

The batch threshold is lowered here (``BATCH_ROWS``) so that tables of a few dozen rows are
cut into batches; the reference is the same call with no batches at all.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any
from unittest import mock

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import swissframe as sf
from swissframe import _batches
from swissframe._batches import batch_plan, by_batch, event_batches, in_batches
from tests.test_fuzz import mutate
from tests.test_multi_event import PROPS, RULESETS, many_events

NO_BATCHES = 10**12


def _said(fn: Callable[[], Any]) -> tuple[Any, list[tuple[type, str]]]:
    """The value (or the library's refusal: class and message) and every warning."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out: Any = fn()
        except sf.SwissframeError as exc:
            out = (type(exc), str(exc))
    return out, [(w.category, str(w.message)) for w in caught]


def _same(a: Any, b: Any) -> None:
    (va, wa), (vb, wb) = a, b
    if isinstance(va, pl.DataFrame):
        assert isinstance(vb, pl.DataFrame)
        assert_frame_equal(va, vb)
    else:
        assert va == vb
    assert wa == wb


def _both(batch_rows: int, call: Callable[[], Any]) -> tuple[Any, Any]:
    """``call`` without batches, then with batches of ``batch_rows`` rows."""
    # (a context, not the monkeypatch fixture: hypothesis runs every example of a test in
    # one function-scoped fixture)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_batches, "BATCH_ROWS", NO_BATCHES)
        whole = _said(call)
        mp.setattr(_batches, "BATCH_ROWS", batch_rows)
        return whole, _said(call)


# --------------------------------------------------------------------------- the plan


def test_plan_cuts_events_in_sorted_order_at_row_multiples() -> None:
    counts = pl.DataFrame({"event_id": ["a", "b", "c", "d", "e"], "rows": [5, 1, 1, 7, 2]})
    # rows before each event: 0, 5, 6, 7, 14 -> // 6: 0, 0, 1, 1, 2
    assert batch_plan(counts, batch_rows=6)["_batch"].to_list() == [0, 0, 1, 1, 2]
    # at most three events a batch as well: a new batch where either count starts one
    assert batch_plan(counts, batch_rows=6, batch_events=3)["_batch"].to_list() == [
        0, 0, 1, 2, 3]
    assert batch_plan(counts, batch_rows=100, batch_events=2)["_batch"].to_list() == [
        0, 0, 1, 1, 2]


def test_split_by_plan_keeps_a_users_column_named_like_the_batch() -> None:
    rows = pl.DataFrame({"event_id": ["a", "b", "a", None], "_batch": [9, 9, 9, 9]})
    plan = pl.DataFrame({"event_id": ["a", "b"], "_batch": [0, 1]})
    parts = by_batch(rows, plan)
    assert sorted(parts) == [-1, 0, 1]
    assert parts[0].to_dict(as_series=False) == {"event_id": ["a", "a"], "_batch": [9, 9]}
    assert parts[-1]["event_id"].to_list() == [None]


@pytest.mark.parametrize("shuffle", [False, True])
def test_event_batches_hold_whole_events_in_sorted_order(shuffle: bool) -> None:
    ids = [f"e{i:02d}" for i in range(30) for _ in range(i % 4 + 1)]
    df = pl.DataFrame({"event_id": ids, "n": range(len(ids))})
    if shuffle:
        df = df.sample(fraction=1.0, shuffle=True, seed=3)
    parts = event_batches(df, batch_rows=10)
    assert parts is not None
    assert len(parts) > 2
    seen = [p["event_id"].unique().sort().to_list() for p in parts]
    flat = [e for s in seen for e in s]
    assert flat == sorted(set(ids))  # each event in one batch, batches in event order
    assert sum(p.height for p in parts) == df.height
    assert sorted(pl.concat(parts)["n"].to_list()) == list(range(df.height))


@given(ids=st.lists(st.sampled_from(["a", "b", "bb", "c", "d", "e\u00e9"]), min_size=1,
                    max_size=40), ordered=st.booleans(), sample=st.sampled_from([1, 3, 1024]),
       threads=st.booleans())
def test_sorted_runs_are_the_runs_of_a_sorted_column_only(
        ids: list[str], ordered: bool, sample: int, threads: bool) -> None:
    """``sorted_runs`` gives the runs (``rle``) of a sorted column and None for another,
    as ``is_sorted`` says — with a sample read first, and the column's two halves read at
    once (``threads``: a run across the middle joined again)."""
    events = pl.Series("event_id", sorted(ids) if ordered else ids)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_batches, "_SAMPLE_EVERY", sample)
        mp.setattr(sf._collect, "PARALLEL_MIN_ROWS", 0 if threads else 10**9)
        got = _batches.sorted_runs(events)
    if not events.is_sorted():
        assert got is None
        return
    want = events.rle().struct.unnest().select(event_id="value", rows=pl.col("len").cast(
        pl.Int64))
    assert got is not None
    assert_frame_equal(got, want)


@given(df=many_events(min_events=2, max_events=5), data=st.data())
@PROPS
def test_a_batch_s_known_runs_check_it_as_reading_its_events_does(
        df: pl.DataFrame, data: st.DataObject) -> None:
    """A batch cut from a table sorted by event is checked with its events' runs known
    (``_batches.runs_of``: no events' dictionary read in the facts, the sort blocks from
    the runs' lengths): the same problems, frame and codes — sorted seats too — as when
    the checks read its events, valid or broken, on a large table's paths."""
    from swissframe import schema

    df = mutate(df, data).sort("event_id", maintain_order=True, nulls_last=True)
    try:  # (as the boundary reads it: a batch is a slice of a table read so)
        df = schema.read_once(df)
    except sf.SwissframeError:
        return
    if df.height == 0 or df["event_id"].null_count():
        return
    runs = _batches.sorted_runs(df["event_id"])
    assert runs is not None
    with pytest.MonkeyPatch.context() as mp:
        for name in ("_BLOCK_SORT_MIN_ROWS", "_SEAT_ORDER_MIN_ROWS", "_SLOTS_MIN_ROWS"):
            mp.setattr(schema, name, 0)
        mp.setattr(schema, "_SORT_BLOCK_ROWS", data.draw(st.integers(1, 40)))
        read = schema._checked(df, default_event_id="event", keys=())
        token = _batches._RUNS.set((df, runs))
        try:
            assert _batches.runs_of(df) is runs
            with mock.patch.object(schema, "runs_of", wraps=schema.runs_of) as spy:
                known = schema._checked(df, default_event_id="event", keys=())
            assert all(c.args[0] is df for c in spy.call_args_list)
        finally:
            _batches._RUNS.reset(token)
    assert _batches.runs_of(df) is None
    assert_frame_equal(known[0], read[0])
    assert_frame_equal(known[1], read[1])
    assert (known[2] is None) == (read[2] is None)
    if known[2] is not None and read[2] is not None:
        assert_frame_equal(known[2].codes, read[2].codes)
        assert known[2].events.equals(read[2].events)
        assert known[2].players.equals(read[2].players)
        assert (known[2].seats is None) == (read[2].seats is None)
        if known[2].seats is not None and read[2].seats is not None:
            assert known[2].seats.keys.equals(read[2].seats.keys)


def test_event_batches_none_when_one_batch_or_no_usable_event_id() -> None:
    df = pl.DataFrame({"event_id": ["a", "a", "b"], "n": [1, 2, 3]})
    assert event_batches(df, batch_rows=3) is None  # not larger than a batch
    assert event_batches(pl.DataFrame({"event_id": ["a"] * 9}), batch_rows=2) is None
    assert event_batches(df.with_columns(event_id=pl.Series([1, 1, 2])), batch_rows=1) is None
    nulls = df.with_columns(event_id=pl.Series(["a", None, "b"]))
    assert event_batches(nulls, batch_rows=1) is None  # the boundary reports the null


def test_event_batches_read_categorical_ids_as_their_text() -> None:
    df = pl.DataFrame({"event_id": ["b", "a", "b", "c"]},
                      schema={"event_id": pl.Categorical})
    parts = event_batches(df, batch_rows=2)
    assert parts is not None
    assert [p["event_id"].to_list() for p in parts] == [["b", "a", "b"], ["c"]]


def test_a_lazy_frame_is_read_once_as_the_boundary_reads_it() -> None:
    from swissframe.schema import _is_normal, read_once

    lf = pl.LazyFrame({"event_id": ["a", "a"], "round": [1, 1], "player_id": ["x", "y"],
                       "opponent_id": ["y", "x"], "games_won": [2, 0], "games_lost": [0, 2],
                       "games_drawn": [0, 0]})
    # (validating what read_once returns reads nothing again)
    assert _is_normal(read_once(lf))


def test_a_vouched_frame_is_not_batched(monkeypatch: pytest.MonkeyPatch) -> None:
    from swissframe import schema
    from swissframe.schema import checked, trusted

    rows = [(e, 1, p, o, w, l_, 0) for e in "pqrs"
            for p, o, w, l_ in (("x", "y", 2, 0), ("y", "x", 0, 2))]
    df = pl.DataFrame(rows, schema=["event_id", "round", "player_id", "opponent_id",
                                    "games_won", "games_lost", "games_drawn"], orient="row")
    _, frame, codes = checked(df)
    monkeypatch.setattr(_batches, "BATCH_ROWS", 2)
    calls: list[int] = []
    monkeypatch.setattr(schema, "in_batches", lambda *a, **k: calls.append(1))
    with trusted(frame, codes):
        sf.standings(frame, "mtg")
    assert calls == []  # validated already: one pass, on its codes
    sf.standings(df, "mtg")
    assert calls == [1]


def test_in_batches_only_for_data_frames() -> None:
    df = pl.DataFrame({"event_id": ["a", "b"], "n": [1, 2]})
    assert in_batches(df.lazy(), lambda part: part, batch_rows=1) is None
    assert in_batches(df, lambda part: part, batch_rows=1) is not None


def test_in_batches_leaves_to_the_whole_table_what_a_batch_raises_warns_or_types_apart(
        ) -> None:
    df = pl.DataFrame({"event_id": ["a", "b"], "n": [1, 2]})

    def raises(part: pl.DataFrame) -> pl.DataFrame:
        if part["event_id"][0] == "b":
            msg = "bad"
            raise sf.ValidationError(msg)
        return part

    def warns(part: pl.DataFrame) -> pl.DataFrame:
        warnings.warn("note", UserWarning, stacklevel=1)
        return part

    def types_apart(part: pl.DataFrame) -> pl.DataFrame:
        return part.with_columns(pl.col("n").cast(pl.Float64 if part["n"][0] == 2
                                                  else pl.Int64))

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (nothing a batch says reaches the caller)
        for run in (raises, warns, types_apart):
            assert in_batches(df, run, batch_rows=1) is None


# --------------------------------------------------------------------------- the engine


@given(df=many_events(min_events=2, max_events=6), rules=st.sampled_from(RULESETS),
       batch_rows=st.integers(1, 40), shuffle=st.booleans(), categorical=st.booleans(),
       lazy=st.booleans())
@PROPS
def test_standings_in_batches_equal_one_pass(df: pl.DataFrame, rules: str, batch_rows: int,
                                            shuffle: bool, categorical: bool,
                                            lazy: bool) -> None:
    if shuffle:
        df = df.sample(fraction=1.0, shuffle=True, seed=batch_rows)
    if categorical:
        df = df.with_columns(pl.col("event_id").cast(pl.Categorical))
    given_ = df.lazy() if lazy else df  # (a LazyFrame is read once, then batched)
    whole, batched = _both(batch_rows, lambda: sf.standings(given_, rules))
    _same(whole, batched)
    _same(whole, _both(NO_BATCHES, lambda: sf.standings(df, rules))[0])
    if not whole[1] and (event_batches(df, batch_rows=batch_rows) or ()):
        # (the batches ran, not the whole-table fallback: a valid table warns of nothing)
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(_batches, "BATCH_ROWS", NO_BATCHES)
            assert in_batches(df, lambda part: sf.standings(part, rules),
                              batch_rows=batch_rows) is not None
    _same(*_both(batch_rows, lambda: sf.standings(given_, rules, through_round=2)))
    _same(*_both(batch_rows, lambda: sf.standings_by_round(given_, rules)))
    _same(*_both(batch_rows, lambda: sf.sensitivity(given_, [rules, "mtg-1/3"], top=2)))


@given(df=many_events(min_events=2, max_events=5), data=st.data(),
       batch_rows=st.integers(1, 30))
@PROPS
def test_broken_tables_in_batches_say_what_one_pass_says(
        df: pl.DataFrame, data: st.DataObject,
        batch_rows: int) -> None:
    # the refusal (its message counts the whole table's problems) and each warning once
    broken = mutate(mutate(df, data), data)
    _same(*_both(batch_rows, lambda: sf.standings(broken, "mtg")))
    _same(*_both(batch_rows, lambda: sf.standings_by_round(broken, "mtg")))
    _same(*_both(batch_rows, lambda: sf.sensitivity(broken, ["mtg", "fide"], top=2)))


def test_a_warning_of_several_batches_is_said_once() -> None:
    # a column named like swissframe's own is ignored with one warning, not one per batch
    rows = [(e, 1, "a", "b", 2, 0, 0) for e in "pqrs"] + [
        (e, 1, "b", "a", 0, 2, 0) for e in "pqrs"]
    df = pl.DataFrame(rows, schema=["event_id", "round", "player_id", "opponent_id",
                                    "games_won", "games_lost", "games_drawn"], orient="row"
                      ).with_columns(_w=pl.lit(1))
    whole, batched = _both(2, lambda: sf.standings(df, "mtg"))
    _same(whole, batched)
    assert len(batched[1]) == 1
    assert "_w" in batched[1][0][1]


def test_auto_rules_batch_within_each_ruleset() -> None:
    rows = [(e, 1, p, o, w, l_, 0) for e in ("a", "b", "c", "d")
            for p, o, w, l_ in (("x", "y", 2, 0), ("y", "x", 0, 2))]
    df = pl.DataFrame(rows, schema=["event_id", "round", "player_id", "opponent_id",
                                    "games_won", "games_lost", "games_drawn"], orient="row"
                      ).with_columns(ruleset=pl.when(pl.col("event_id") < "c")
                                     .then(pl.lit("pokemon")).otherwise(pl.lit("mtg")))
    _same(*_both(2, lambda: sf.standings(df)))


# --------------------------------------------------------------------------- validation


@given(df=many_events(min_events=2, max_events=6), data=st.data(),
       batch_rows=st.integers(1, 30), ordered=st.booleans(), broken=st.booleans(),
       lazy=st.booleans())
@PROPS
def test_validation_in_batches_equals_one_pass(df: pl.DataFrame, data: st.DataObject,
                                               batch_rows: int, ordered: bool, broken: bool,
                                               lazy: bool) -> None:
    # the normalised table row for row, in the input's order, or the same refusal
    if broken:
        df = mutate(df, data)
    if ordered:  # (only a table sorted by event is validated in batches: slices, in order)
        df = df.sort("event_id", nulls_last=True, maintain_order=True)
    given_ = df.lazy() if lazy else df
    _same(*_both(batch_rows, lambda: sf.validate_results(given_).collect()))
    # (a valid table in batches in any order: each finds nothing; problems: the whole's)
    _same(*_both(batch_rows, lambda: sf.find_problems(given_)))


def test_validation_batches_a_table_sorted_by_event_only() -> None:
    rows = [(e, 1, p, o, w, l_, 0) for e in "pqrs"
            for p, o, w, l_ in (("x", "y", 2, 0), ("y", "x", 0, 2))]
    df = pl.DataFrame(rows, schema=["event_id", "round", "player_id", "opponent_id",
                                    "games_won", "games_lost", "games_drawn"], orient="row")
    seen: list[int] = []

    def run(part: pl.DataFrame) -> pl.DataFrame:
        seen.append(part.height)
        return part

    assert in_batches(df, run, batch_rows=2, in_order=True) is not None
    assert seen == [2, 2, 2, 2]
    assert in_batches(df.reverse(), run, batch_rows=2, in_order=True) is None


def test_validation_of_a_large_table_runs_in_batches(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from swissframe import schema

    rows = [(e, 1, p, o, w, l_, 0) for e in "pqrs"
            for p, o, w, l_ in (("x", "y", 2, 0), ("y", "x", 0, 2))]
    df = pl.DataFrame(rows, schema=["event_id", "round", "player_id", "opponent_id",
                                    "games_won", "games_lost", "games_drawn"], orient="row")
    stacked: list[bool] = []

    def spy(*args: Any, **kwargs: Any) -> pl.DataFrame | None:
        out = in_batches(*args, **kwargs)
        stacked.append(out is not None)
        return out

    monkeypatch.setattr(schema, "in_batches", spy)
    monkeypatch.setattr(_batches, "BATCH_ROWS", 3)
    batched = sf.validate_results(df).collect()
    found = sf.find_problems(df.reverse())
    broken = sf.find_problems(df.head(7))  # (a lone seat: the whole table lists it)
    assert stacked == [True, True, False]
    monkeypatch.setattr(_batches, "BATCH_ROWS", NO_BATCHES)
    assert_frame_equal(batched, sf.validate_results(df).collect())
    assert_frame_equal(found, sf.find_problems(df.reverse()))
    assert found.height == 0
    assert_frame_equal(broken, sf.find_problems(df.head(7)))
    assert broken["kind"].to_list() == ["unknown_opponent"]


def test_reporting_says_which_batch_a_call_is_at() -> None:
    from swissframe._batches import reporting

    df = pl.DataFrame({"event_id": ["a", "b", "c"], "n": [1, 2, 3]})
    said: list[tuple[int, int]] = []
    with reporting(lambda done, total: said.append((done, total))):
        assert in_batches(df, lambda part: part, batch_rows=1) is not None
    assert said == [(0, 3), (1, 3), (2, 3), (3, 3)]
    in_batches(df, lambda part: part, batch_rows=1)  # (outside the block: nobody told)
    assert len(said) == 4


# --------------------------------------------------------------------------- two halves


def _halves_both(call: Callable[[], Any]) -> tuple[Any, Any]:
    """``call`` without halves, then with any table of 2 rows or more in two halves."""
    from swissframe import _collect

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_batches, "HALVES_MIN_ROWS", NO_BATCHES)
        whole = _said(call)
        mp.setattr(_batches, "HALVES_MIN_ROWS", 2)
        mp.setattr(_collect, "PARALLEL_MIN_ROWS", 1)  # (the second half on its thread)
        return whole, _said(call)


def test_halves_cut_a_table_in_two_batches_run_at_once(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    import threading

    from swissframe import _collect

    df = pl.DataFrame({"event_id": ["a", "b", "b", "c", "d"], "n": [1, 2, 3, 4, 5]})
    monkeypatch.setattr(_batches, "HALVES_MIN_ROWS", 5)
    monkeypatch.setattr(_collect, "PARALLEL_MIN_ROWS", 1)  # (threads for a few rows)
    seen: list[tuple[list[str], str]] = []

    def run(part: pl.DataFrame) -> pl.DataFrame:
        seen.append((part["event_id"].to_list(), threading.current_thread().name))
        return part

    # (whole events; the second half starts once the rows before an event reach half)
    out = in_batches(df, run, halves=True)
    assert out is not None
    assert_frame_equal(out, df)
    assert sorted(p for p, _ in seen) == [["a", "b", "b"], ["c", "d"]]
    assert len({t for _, t in seen}) == 2  # (each on a thread of its own)
    seen.clear()  # below the threshold, or without halves: one pass
    monkeypatch.setattr(_batches, "HALVES_MIN_ROWS", 6)
    assert in_batches(df, run, halves=True) is None
    monkeypatch.setattr(_batches, "HALVES_MIN_ROWS", 5)
    assert in_batches(df, run) is None
    assert seen == []


def test_halves_leave_to_the_whole_table_what_a_half_raises_or_warns(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from swissframe import _collect

    df = pl.DataFrame({"event_id": ["a", "b"], "n": [1, 2]})
    monkeypatch.setattr(_batches, "HALVES_MIN_ROWS", 2)
    monkeypatch.setattr(_collect, "PARALLEL_MIN_ROWS", 1)

    def raises(part: pl.DataFrame) -> pl.DataFrame:
        if part["event_id"][0] == "b":  # (the half on the other thread)
            msg = "bad"
            raise sf.ValidationError(msg)
        return part

    def warns(part: pl.DataFrame) -> pl.DataFrame:
        if part["event_id"][0] == "b":
            warnings.warn("note", UserWarning, stacklevel=1)
        return part

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (nothing a half says reaches the caller)
        for run in (raises, warns):
            assert in_batches(df, run, halves=True) is None


@given(df=many_events(min_events=2, max_events=6), rules=st.sampled_from(RULESETS),
       shuffle=st.booleans(), lazy=st.booleans())
@PROPS
def test_standings_in_halves_equal_one_pass(df: pl.DataFrame, rules: str, shuffle: bool,
                                            lazy: bool) -> None:
    if shuffle:
        df = df.sample(fraction=1.0, shuffle=True, seed=df.height)
    given_ = df.lazy() if lazy else df
    _same(*_halves_both(lambda: sf.standings_by_round(given_, rules)))
    _same(*_halves_both(lambda: sf.standings(given_, rules)))
    _same(*_halves_both(lambda: sf.standings(given_, rules, through_round=2)))


@given(df=many_events(min_events=2, max_events=5), data=st.data())
@PROPS
def test_broken_tables_in_halves_say_what_one_pass_says(df: pl.DataFrame,
                                                        data: st.DataObject) -> None:
    broken = mutate(mutate(df, data), data)
    _same(*_halves_both(lambda: sf.standings_by_round(broken, "mtg")))
    _same(*_halves_both(lambda: sf.standings(broken, "mtg")))
