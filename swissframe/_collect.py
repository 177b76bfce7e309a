"""Which Polars engine runs swissframe's queries: chosen once per call, from the input's size.

Polars 2's default engine (``"auto"``) runs most queries on the streaming engine, whose fixed
cost per query (≈ 0.3 ms) dominates a one-event call (tens of queries over a few hundred
rows), while the in-memory engine costs ≈ 0.05 ms per query but is slower than streaming on
millions of rows. Measured on this repository's benchmark workload (``benchmarks/``), a
whole ``sf.standings`` call is fastest in memory up to about a million result rows
(1 event: 14.5 vs 20.1 ms; 1,000 events / 386k rows: 132 vs 213 ms) and on the streaming
engine above it (6,000 events / 2.2M rows: 0.82 vs 1.26 s).

So a public entry point is wrapped in :func:`scoped` (its own ``contextvars`` context, so the
choice never outlives the call and threads do not share it); the contract's boundary
(``schema``) calls :func:`choose` with the validated table's height; every query of the
call runs on :func:`query_engine`. A user who set ``pl.Config(engine_affinity=...)`` keeps their
choice: we then pass ``"auto"``, which honours it. Results never depend on the engine; the
test suite runs both (``tests/test_collect.py``).

The same choice sets the optimizer passes: an input of up to :data:`LEAN_MAX_ROWS` rows
keeps only projection pushdown (:data:`LEAN`), whose planning costs less than the other
passes would save on a few hundred rows. Such an input's projections also evaluate their
expressions one after another (:func:`with_columns`, :func:`select`): handing a few
hundred rows' worth of work to Polars' thread pool costs more than it does.
"""

from __future__ import annotations

import contextvars
import functools
import os
from collections.abc import Callable, Iterable
from typing import Final, Literal, ParamSpec, TypeVar, overload

import polars as pl
from polars.exceptions import PanicException

__all__ = ["IN_MEMORY_MAX_ROWS", "LEAN", "LEAN_MAX_ROWS", "PARALLEL_MIN_ROWS", "choose",
           "collect", "collect_all", "concurrently", "engine_for", "on_the_pool", "parallel",
           "query_engine", "scoped", "select", "sequential", "with_columns"]

Engine = Literal["auto", "in-memory", "streaming"]

#: Inputs up to this many result rows run on the in-memory engine, larger ones streaming.
IN_MEMORY_MAX_ROWS = 1_000_000

#: Inputs up to this many result rows run their queries with the lean optimizer passes
#: (:data:`LEAN`).
LEAN_MAX_ROWS = 20_000

#: The optimizer passes a small input's queries keep: projection pushdown only (and the
#: type checks Polars always runs). On a few hundred rows the other passes (predicate
#: and slice pushdown, expression simplification, common subexpressions and subplans,
#: ordering analysis) cost more time than they save: one 256-player event 6.6–7.6 ->
#: 5.9–6.1 ms a ``standings`` call (medians of 300 calls, three alternations), one
#: 64-player event 6.5 -> 6.0 ms; from about 20,000 rows they pay again (390k rows:
#: 103–105 ms with them, 108–112 without). Results do not depend on the passes
#: (the test suite runs with them off at every size: ``tests/test_collect.py``).
LEAN: Final = pl.QueryOptFlags(
    predicate_pushdown=False, simplify_expression=False, slice_pushdown=False,
    comm_subplan_elim=False, comm_subexpr_elim=False, cluster_with_columns=False,
    check_order_observe=False, sort_collapse=False, join_order=False, row_estimate=False)
_FULL: Final = pl.QueryOptFlags()

_ENGINE: contextvars.ContextVar[Engine] = contextvars.ContextVar("swissframe_engine",
                                                                 default="auto")
_OPTIMIZATIONS: contextvars.ContextVar[pl.QueryOptFlags] = contextvars.ContextVar(
    "swissframe_optimizations", default=_FULL)
_SCOPED: contextvars.ContextVar[bool] = contextvars.ContextVar("swissframe_engine_scoped",
                                                               default=False)

P = ParamSpec("P")
R = TypeVar("R")
S = TypeVar("S")

#: A small input's queries each run as a whole on one of Polars' pool threads
#: (:func:`_on_the_pool`; tests set it False for the reference: the calling thread).
ON_THE_POOL = True

#: From this many rows two pieces of single-threaded work run at once (:func:`parallel`,
#: :func:`concurrently`): below it a thread's start costs about what the overlap saves.
PARALLEL_MIN_ROWS = 200_000


def query_engine() -> Engine:
    """The engine for this call's queries (``"auto"`` outside a :func:`scoped` call)."""
    return _ENGINE.get()


def engine_for(rows: int) -> Engine:
    """The engine for an input of ``rows`` result rows (the user's affinity, if set, wins)."""
    if os.environ.get("POLARS_ENGINE_AFFINITY", "auto") != "auto":
        return "auto"
    return "in-memory" if rows <= IN_MEMORY_MAX_ROWS else "streaming"


def choose(rows: int) -> None:
    """Set this call's engine and optimizer passes from its validated input height (no-op
    outside a scope)."""
    if _SCOPED.get():
        _ENGINE.set(engine_for(rows))
        _OPTIMIZATIONS.set(LEAN if rows <= LEAN_MAX_ROWS else _FULL)


def sequential() -> bool:
    """Whether this call's projections evaluate their expressions one after another: an
    input of up to :data:`LEAN_MAX_ROWS` rows (no-op outside a scope: in parallel).

    Polars evaluates a projection's expressions on its thread pool, one task each; on a
    few hundred rows each task is microseconds of work, and handing it to a pool thread
    (waking it, waiting for it) costs more, most of all on a machine whose pool threads
    share its few cores with the caller. One 64-player event, a call after an idle
    moment as in Jupyter (the benchmark's row, every projection sequential against none):
    6.2-6.3 -> 5.1-5.2 ms (``benchmarks/README.md``, twelfth session)."""
    return _OPTIMIZATIONS.get() is LEAN


def with_columns(frame: pl.LazyFrame, *exprs: pl.Expr, **named: pl.Expr) -> pl.LazyFrame:
    """``frame.with_columns(...)``, sequential on a small input (:func:`sequential`)."""
    if sequential():
        return frame.with_columns_seq(*exprs, **named)
    return frame.with_columns(*exprs, **named)


@overload
def select(frame: pl.LazyFrame, *exprs: pl.Expr | str, **named: pl.Expr) -> pl.LazyFrame: ...
@overload
def select(frame: pl.DataFrame, *exprs: pl.Expr | str, **named: pl.Expr) -> pl.DataFrame: ...
def select(frame: pl.LazyFrame | pl.DataFrame, *exprs: pl.Expr | str, **named: pl.Expr
           ) -> pl.LazyFrame | pl.DataFrame:
    """``frame.select(...)`` (a plan, or a DataFrame's eager query), sequential on a small
    input (:func:`sequential`)."""
    if sequential():
        return frame.select_seq(*exprs, **named)
    return frame.select(*exprs, **named)


def _run(query: Callable[[Engine], R], *, in_memory: bool = False) -> R:
    """``query`` on this call's engine; a panic of the streaming engine is retried once in
    memory: the two engines compute the same result, and Polars 2.1's streaming engine
    panics on some plans the in-memory one runs (``pl.format`` over a filtered frame of
    several chunks: ``tests/test_collect.py``). A panic in memory is raised as it is (the
    contract's boundary keeps inputs from reaching one; see ``docs/bad-data.md``)."""
    chosen = query_engine()
    if in_memory and chosen == "streaming":
        chosen = "in-memory"
    try:
        return query(chosen)
    except PanicException:
        if chosen == "in-memory":
            raise
        return query("in-memory")


def collect(frame: pl.LazyFrame, *, in_memory: bool = False, pooled: bool = True
            ) -> pl.DataFrame:
    """``frame.collect()`` on this call's engine (``lf.pipe(collect)``; see :func:`_run`).

    ``in_memory``: on the in-memory engine even where the call streams (not where the user
    chose an affinity) — for a large sort whose output is kept whole, such as the
    by-round ranking (4M rows: the streaming engine's output comes in many chunks, and
    rechunking it cost more than streaming saved; the whole call 4.82 -> 4.54 s, median
    of 7 alternations).

    ``pooled=False``: a small input's query stays on the calling thread
    (:func:`_on_the_pool` otherwise), for a query that hands nothing to the pool itself —
    projections and whole-frame aggregations, no join, group-by, window or sort
    (validation's facts and keys, the players' rates): handing it over only adds a
    wake-up (≈ 0.2–0.3 ms a one-event call for those three).
    """
    flags = _OPTIMIZATIONS.get()
    if flags is LEAN and ON_THE_POOL and pooled:  # a small input's query: on a pool thread
        return _run(lambda engine: _on_the_pool(frame, engine, flags), in_memory=in_memory)
    return _run(lambda engine: frame.collect(engine=engine, optimizations=flags),
                in_memory=in_memory)


def _on_the_pool(frame: pl.LazyFrame, engine: Engine, flags: pl.QueryOptFlags
                 ) -> pl.DataFrame:
    """``frame.collect(...)`` run as a whole on one of Polars' pool threads
    (``pl.collect_all`` of one plan), for a small input's query.

    ``LazyFrame.collect`` runs a query on the calling thread, which hands each join,
    group-by, window or multithreaded sort to the pool and sleeps until it is done: a
    left join of a few hundred rows is ≈ 10 such hand-offs (voluntary context switches),
    each a wake-up of a pool thread and of the caller, and on a loaded machine a wait for
    a CPU. ``collect_all`` hands the whole query over once, and the pool's own work
    inside it then runs on the pool thread that took it, with no further hand-off. On
    one 64-player event (2 threads): Pokémon 142 -> 15 context switches a call, FIDE 57
    -> 11, MTG 18 -> 8 (``benchmarks/README.md``, twenty-third session). The same
    engine, passes and plan: the same table (``tests/test_collect.py`` compares the
    standings with every query collected on the calling thread)."""
    return pl.collect_all([frame], engine=engine, optimizations=flags)[0]


def on_the_pool(frame: pl.LazyFrame) -> pl.DataFrame:
    """``frame`` collected in memory as a whole on one of Polars' pool threads
    (:func:`_on_the_pool`) whatever the input's size: for a query of many small sorts
    (``list.sort``), each of which a query on the calling thread hands to the pool on its
    own. Validation's sort of 1.9M keys in blocks of whole events (``schema._sorted_keys``),
    2 threads: 79 -> 48 ms CPU on the pool, 121 ms from the calling thread."""
    return _run(lambda engine: _on_the_pool(frame, engine, _OPTIMIZATIONS.get()),
                in_memory=True)


def collect_all(frames: Iterable[pl.LazyFrame], *, in_memory: bool = False
                ) -> list[pl.DataFrame]:
    """``pl.collect_all`` on this call's engine (see :func:`_run`; ``in_memory``: see
    :func:`collect`)."""
    plans, flags = list(frames), _OPTIMIZATIONS.get()
    return _run(lambda engine: pl.collect_all(plans, engine=engine, optimizations=flags),
                in_memory=in_memory)


def parallel(rows: int) -> bool:
    """Whether work on ``rows`` rows is split across threads (:func:`concurrently`): from
    :data:`PARALLEL_MIN_ROWS` rows."""
    return rows >= PARALLEL_MIN_ROWS


def concurrently(first: Callable[[], R], second: Callable[[], S], *, rows: int
                 ) -> tuple[R, S]:
    """``(first(), second())``: on an input of ``rows`` rows large enough (:func:`parallel`)
    ``second`` on a thread of its own, in a copy of this call's context (its engine:
    :func:`choose`), while ``first`` runs on the calling thread; else one after the other.

    For two independent pieces of work that would each run on one thread: Polars' Series
    kernels (gathers, arithmetic, sorts, list sums) and queries release the GIL, so the
    two use both cores (a gather of 3.7M rows is single-threaded). Below
    :data:`PARALLEL_MIN_ROWS` a thread's start (≈ 0.1 ms) costs about what it saves."""
    if not parallel(rows):
        return first(), second()
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        later = pool.submit(contextvars.copy_context().run, second)
        return first(), later.result()


def scoped(fn: Callable[P, R]) -> Callable[P, R]:
    """Run ``fn`` in a context of its own, where :func:`choose` may set the engine.

    A nested scoped call starts from its caller's choice and its own boundary may change
    it for the nested call only.
    """

    @functools.wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        def enter() -> R:
            _SCOPED.set(True)
            return fn(*args, **kwargs)

        return contextvars.copy_context().run(enter)

    return run
