"""Batches of whole events: the one plan behind ``recompute``'s out-of-core batches and the
standings, sensitivity and validation of a very large table in memory.

Events are taken in sorted ``event_id`` order and cut into contiguous batches of about
``batch_rows`` rows (a batch starts where the rows before an event reach the next multiple
of ``batch_rows``, so one event never straddles two batches; a batch may end up to one
event beyond ``batch_rows``), and optionally of at most ``batch_events`` events.

Why a table that fits in memory is still computed in batches: one ``standings`` call's
working memory grows with its input, and from about 15M rows (40,000 events of the
benchmark's workload) the time per row grows with it (``benchmarks/README.md``, ninth
session: 100,000 events took 0.53–0.85 µs a row in one call, against 0.30 at 10,000, most
of it the kernel's time faulting in and reclaiming pages). Every event's standings depend
on its own rows only (``tests/test_multi_event.py``), so batches give the same table.
"""

from __future__ import annotations

import contextlib
import contextvars
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Final, TypeVar

import polars as pl

from swissframe._collect import concurrently, parallel

__all__ = ["BATCH", "BATCH_ROWS", "HALVES_MIN_ROWS", "batch_plan", "by_batch", "event_batches",
           "in_batches", "reporting", "runs_of", "sorted_runs", "tell"]

#: The batch column of a plan (``event_id, rows, _batch``).
BATCH: Final = "_batch"

#: A table of more than this many result rows is computed in batches of about this many
#: (``standings``, ``standings_by_round``, ``sensitivity``, ``validate_results``,
#: ``find_problems``, through ``schema.batched``). Measured on the benchmark's workload
#: (``benchmarks/README.md``, ninth session): below it one pass costs the same per row.
BATCH_ROWS: Final = 4_000_000


#: A caller that opts in (``in_batches(..., halves=True)``) computes a table of from this
#: many rows up to one batch in two halves of whole events at once, one on a thread of
#: its own: ``standings_by_round``, many of whose steps (gathers, scatters, the grid's
#: explosion, the in-memory queries) run on one thread, and ``standings``, whose
#: single-threaded pieces are fewer, so that two halves use both cores. Measured on the
#: benchmark's events (``benchmarks/README.md``, twenty-third session), whole against
#: halves, by round: 197k rows 0.26 against 0.30 s, 277k 0.35 against 0.28, 765k 0.93
#: against 0.72, 3.7M 4.3 against 3.6; standings: 197k 0.098 against 0.118, 277k 0.115
#: against 0.104, 765k 0.30 against 0.27, 3.7M 1.34 against 1.23.
HALVES_MIN_ROWS: Final = 250_000


_T = TypeVar("_T")
#: The reporter of :func:`reporting`: ``report(done, total)`` or ``report(done, total, unit)``.
_REPORT: contextvars.ContextVar[Callable[..., None] | None] = contextvars.ContextVar(
    "swissframe_batch_report", default=None)


@contextlib.contextmanager
def reporting(report: Callable[..., None]) -> Iterator[None]:
    """Inside this block (and this context), :func:`in_batches` calls ``report(done,
    total)`` before its first batch and after each one, and :func:`counted` ``report(done,
    total, unit)`` before each item: the CLI's progress line of a long step says where it
    is ("2/5 batches", "5/16 events")."""
    token = _REPORT.set(report)
    try:
        yield
    finally:
        _REPORT.reset(token)


def tell(done: int, total: int, unit: str = "batch") -> None:
    """Say ``done`` of ``total`` ``unit`` s to the reporter of :func:`reporting`, if any
    (a pool's files as each chunk comes back: "1,200 of 2,249 files").

    >>> tell(1, 2, "file")
    """
    report = _REPORT.get()
    if report is not None:
        report(done, total, unit)


def counted(items: Sequence[_T], unit: str) -> Iterator[_T]:
    """Each of ``items``, saying how many of them are done to the reporter of
    :func:`reporting` before each, and all of them after the last (a season report's event
    pages: "5/16 events").

    >>> list(counted(["a", "b"], "event"))
    ['a', 'b']
    """
    for i, item in enumerate(items):
        tell(i, len(items), unit)
        yield item
    tell(len(items), len(items), unit)


def batch_plan(counts: pl.DataFrame, *, batch_rows: int, batch_events: int | None = None
               ) -> pl.DataFrame:
    """``counts`` (``event_id, rows``, sorted by ``event_id``) with each event's batch
    (``_batch``, from 0).

    Examples
    --------
    >>> counts = pl.DataFrame({"event_id": ["a", "b", "c", "d"], "rows": [3, 3, 5, 1]})
    >>> batch_plan(counts, batch_rows=6)["_batch"].to_list()
    [0, 0, 1, 1]
    >>> batch_plan(counts, batch_rows=6, batch_events=1)["_batch"].to_list()
    [0, 1, 2, 3]
    """
    rows = pl.col("rows")
    by_rows = (rows.cum_sum() - rows) // max(batch_rows, 1)
    by_events = (pl.int_range(pl.len(), dtype=pl.Int64) // batch_events if batch_events
                 else pl.lit(0, dtype=pl.Int64))
    return counts.with_columns(
        pl.struct(by_rows.alias("a"), by_events.alias("b")).rank("dense").cast(pl.Int64)
        .sub(1).alias(BATCH))


def by_batch(rows: pl.DataFrame, plan: pl.DataFrame) -> dict[int, pl.DataFrame]:
    """The rows of ``rows`` split by their event's batch in ``plan`` (rows of an event the
    plan does not hold, a null ``event_id`` among them, under batch -1), each in input
    order. An input column named like the batch column is kept as it is."""
    name = BATCH
    while name in rows.columns:  # (a user's column of that name is not the plan's)
        name = "_" + name
    rows = rows.join(plan.select("event_id", pl.col(BATCH).alias(name)), on="event_id",
                     how="left", maintain_order="left").with_columns(pl.col(name).fill_null(-1))
    parts = rows.partition_by(name, as_dict=True, include_key=False)
    return {int(k[0]): v for k, v in parts.items()}


#: The batch a call is computing and its events' runs (:func:`sorted_runs`), where the
#: batch is a slice of a table sorted by event (:func:`in_batches`): read by the
#: contract's boundary (:func:`runs_of`), which then need not find them again.
_RUNS: contextvars.ContextVar[tuple[pl.DataFrame, pl.DataFrame] | None] = (
    contextvars.ContextVar("swissframe_batch_runs", default=None))


def runs_of(frame: pl.DataFrame) -> pl.DataFrame | None:
    """The runs of ``frame``'s event ids (:func:`sorted_runs`: ``frame`` is sorted by
    event) when ``frame`` is the batch this call is computing and its runs are known,
    else None."""
    known = _RUNS.get()
    return known[1] if known is not None and known[0] is frame else None


def event_batches(results: pl.DataFrame, *, batch_rows: int, in_order: bool = False
                  ) -> list[pl.DataFrame] | None:
    """``results`` as batches of whole events in sorted event order (:func:`batch_plan`),
    or None when it is one batch or has no usable ``event_id`` (a column that is not
    text — a string, categorical or enum — or holds a null: the contract's boundary
    reports those on the whole table).

    A table sorted by ``event_id`` is cut into slices (no copy); another is split by a
    join to the plan (its rows keep their input order within a batch), unless
    ``in_order``: then None (the stacked batches would not be the table in its order).

    Examples
    --------
    >>> df = pl.DataFrame({"event_id": ["b", "a", "b", "c"], "round": [1, 1, 2, 1]})
    >>> [p["event_id"].to_list() for p in event_batches(df, batch_rows=2)]
    [['b', 'a', 'b'], ['c']]
    """
    found = _batches_and_runs(results, batch_rows=batch_rows, in_order=in_order)
    return None if found is None else found[0]


def _batches_and_runs(results: pl.DataFrame, *, batch_rows: int, in_order: bool = False
                      ) -> tuple[list[pl.DataFrame], list[pl.DataFrame] | None] | None:
    """:func:`event_batches`, and each batch's runs (:func:`sorted_runs`) where the table
    is sorted by event (else None)."""
    if results.height <= batch_rows:  # (first: a small table costs nothing more)
        return None
    kind = results.schema.get("event_id")
    if not (kind == pl.String or isinstance(kind, (pl.Categorical, pl.Enum))):
        return None
    events = results.get_column("event_id")
    if events.null_count():
        return None
    if kind != pl.String:  # (the contract's boundary reads a categorical id as its text)
        events = events.cast(pl.String)
        results = results.with_columns(events)
    counts = sorted_runs(events)  # (sorted: an event is one run of equal ids)
    ordered = counts is not None
    if in_order and not ordered:
        return None
    if counts is None:
        counts = (results.select("event_id").group_by("event_id")
                  .agg(rows=pl.len().cast(pl.Int64)).sort("event_id"))
    plan = batch_plan(counts, batch_rows=batch_rows)
    if plan.get_column(BATCH).max() == 0:
        return None
    if ordered:
        sizes = plan.group_by(BATCH, maintain_order=True).agg(pl.col("rows").sum())
        starts = sizes.get_column("rows").cum_sum() - sizes.get_column("rows")
        runs = plan.partition_by(BATCH, maintain_order=True, include_key=False)
        return ([results.slice(int(s), int(n))
                 for s, n in zip(starts, sizes.get_column("rows"), strict=True)], runs)
    parts = by_batch(results, plan)
    return [parts[b] for b in sorted(parts)], None


#: One id in this many is read first by :func:`sorted_runs`: a column whose sample is
#: not sorted is not sorted either, and is not read whole.
_SAMPLE_EVERY: Final = 1_024


def sorted_runs(events: pl.Series) -> pl.DataFrame | None:
    """The runs of a column of event ids without nulls (``event_id``, ``rows``: Int64),
    when the column is sorted (each run's id greater than the one before), else None.

    One pass (the runs, whose ids say whether the column is sorted) instead of a sortedness
    check and then the runs; on a large column (:func:`~swissframe._collect.parallel`) its
    two halves at once, on two threads (a run across the middle joined again): the
    halves of a call wait for this, the one step of the call on one core (3.7M ids,
    ``is_sorted`` then ``rle``: 62 ms wall). A column whose every 1,024th id is not in
    order is not read whole.

    Examples
    --------
    >>> sorted_runs(pl.Series(["a", "a", "b", "c", "c"])).rows()
    [('a', 2), ('b', 1), ('c', 2)]
    >>> sorted_runs(pl.Series(["b", "a", "b"])) is None
    True
    """
    n = events.len()
    if n > _SAMPLE_EVERY and not events.gather_every(_SAMPLE_EVERY).is_sorted():
        return None

    def runs(part: pl.Series) -> pl.DataFrame:
        out: pl.DataFrame = part.rle().struct.unnest().select(
            event_id=pl.col("value"), rows=pl.col("len").cast(pl.Int64))
        return out

    if n < 2 or not parallel(n):
        found = runs(events)
    else:
        half = n // 2
        first, second = concurrently(lambda: runs(events.slice(0, half)),
                                     lambda: runs(events.slice(half)), rows=n)
        if first.item(-1, "event_id") == second.item(0, "event_id"):  # (one run)
            second = second.with_columns(pl.when(pl.int_range(pl.len()) == 0)
                                         .then(pl.col("rows") + first.item(-1, "rows"))
                                         .otherwise(pl.col("rows")).alias("rows"))
            first = first.head(-1)
        found = pl.concat([first, second])
    ids = found.get_column("event_id").alias("event_id")
    if ids.len() > 1 and not bool((ids.slice(1) > ids.slice(0, ids.len() - 1)).all()):
        return None
    return found


def in_batches(results: object, run: Callable[[pl.DataFrame], pl.DataFrame], *,
               batch_rows: int | None = None, in_order: bool = False,
               halves: bool = False) -> pl.DataFrame | None:
    """``run`` on each batch of ``results`` (:func:`event_batches`), stacked.

    ``halves``: a table of :data:`HALVES_MIN_ROWS` rows up to one batch is cut into two
    batches of about half its rows, run at once (``_collect.concurrently``: the second
    on a thread of its own, in a copy of the call's context).

    None when the input is not a DataFrame of more than ``batch_rows`` rows (by default
    :data:`BATCH_ROWS`), is one batch, or when a batch raised or warned: the caller then
    runs the whole table, so that what it raises or warns is said once, of the whole
    input, as without batches (an archive of long events warns once, not once per batch;
    a problem's count is the table's). A LazyFrame is not batched here: the contract's
    boundary reads it once first (``schema.batched``); ``recompute`` reads an archive in
    batches from its files.

    ``run`` must give each event's rows the result it gives them in any other company,
    in sorted event order (the batches are contiguous in it, so the stacked parts are);
    or, ``in_order``, row for row (then only a table sorted by ``event_id`` is batched:
    its batches are slices, and the stacked parts keep its order).
    """
    if not isinstance(results, pl.DataFrame):
        return None
    size = BATCH_ROWS if batch_rows is None else batch_rows
    # (two batches at most: an event starts batch 1 once the rows before it reach half)
    two = halves and HALVES_MIN_ROWS <= results.height <= size
    found = _batches_and_runs(results, batch_rows=-(-results.height // 2) if two else size,
                              in_order=in_order)
    if found is None:
        return None
    parts, runs = found

    def part_run(i: int) -> pl.DataFrame:
        """``run`` of batch ``i``, with its events' runs known (:func:`runs_of`)."""
        token = _RUNS.set(None if runs is None else (parts[i], runs[i]))
        try:
            return run(parts[i])
        finally:
            _RUNS.reset(token)

    out: list[pl.DataFrame] = []
    report = _REPORT.get()
    # (the warnings of both threads: catch_warnings records the process's, not a thread's)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if two and len(parts) == 2:  # (one step to the reporter: no batches to count)
                out.extend(concurrently(lambda: part_run(0), lambda: part_run(1),
                                        rows=results.height))
            else:
                for i in range(len(parts)):
                    if report is not None:
                        report(i, len(parts))
                    out.append(part_run(i))
                if report is not None:
                    report(len(parts), len(parts))
        except Exception:  # (the whole table says what is wrong, once)
            return None
    if caught:
        return None
    try:
        return pl.concat(out, how="vertical")
    except pl.exceptions.PolarsError:  # (parts typed apart: the whole table types it once)
        return None
