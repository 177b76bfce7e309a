"""The engine choice (``swissframe._collect``): per call, from the input's size, never a
different answer."""

from __future__ import annotations

import warnings

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import swissframe as sf
from swissframe import _collect, schema
from tests.helpers import cut_apart


def _events() -> pl.DataFrame:
    # several events of different sizes (odd counts: byes), one table
    return pl.concat([sf.simulate(n, rules="mtg", n_events=3, seed=n).results
                      .with_columns(event_id=pl.format("{}-{}", pl.lit(n), pl.col("event_id")))
                      for n in (7, 16, 33)], how="vertical_relaxed")


def test_small_inputs_run_in_memory_large_ones_streaming() -> None:
    assert _collect.engine_for(10) == "in-memory"
    assert _collect.engine_for(_collect.IN_MEMORY_MAX_ROWS) == "in-memory"
    assert _collect.engine_for(_collect.IN_MEMORY_MAX_ROWS + 1) == "streaming"


def test_the_users_engine_affinity_wins() -> None:
    with pl.Config(engine_affinity="streaming"):
        assert _collect.engine_for(10) == "auto"


def test_the_choice_lives_only_inside_the_call() -> None:
    seen: list[str] = []

    @_collect.scoped
    def probe(df: pl.DataFrame) -> None:
        _collect.choose(df.height)
        seen.append(_collect.query_engine())

    probe(pl.DataFrame({"a": [1]}))
    assert seen == ["in-memory"]
    assert _collect.query_engine() == "auto"
    _collect.choose(5)  # outside a scoped call: no effect
    assert _collect.query_engine() == "auto"


def _spy_collect(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, pl.QueryOptFlags]]:
    """Every query of the test (``LazyFrame.collect``, or ``pl.collect_all`` of one plan:
    a small input's, on the pool) records its engine and optimizer passes."""
    seen: list[tuple[str, pl.QueryOptFlags]] = []

    def spy(self: pl.LazyFrame, *, engine: str = "auto",
            optimizations: pl.QueryOptFlags | None = None, **_: object) -> pl.DataFrame:
        seen.append((engine, optimizations or pl.QueryOptFlags()))
        return pl.DataFrame()

    def spy_all(frames: list[pl.LazyFrame], *, engine: str = "auto",
                optimizations: pl.QueryOptFlags | None = None, **_: object
                ) -> list[pl.DataFrame]:
        return [spy(f, engine=engine, optimizations=optimizations) for f in frames]

    monkeypatch.setattr(pl.LazyFrame, "collect", spy)
    monkeypatch.setattr(pl, "collect_all", spy_all)
    return seen


@_collect.scoped
def _probe(rows: int) -> None:
    """One call of ``rows`` input rows: a query kept in memory, then a plain one."""
    _collect.choose(rows)
    _collect.collect(pl.LazyFrame(), in_memory=True)
    _collect.collect(pl.LazyFrame())


def test_an_in_memory_query_leaves_streaming_calls_only(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    # collect(..., in_memory=True) (the by-round ranking) overrides a call's streaming, not
    # its in-memory choice, and not the "auto" a user's affinity gives
    seen = _spy_collect(monkeypatch)
    _probe(_collect.IN_MEMORY_MAX_ROWS + 1)
    _probe(10)
    with pl.Config(engine_affinity="streaming"):
        _probe(_collect.IN_MEMORY_MAX_ROWS + 1)
    assert [engine for engine, _ in seen] == [
        "in-memory", "streaming", "in-memory", "in-memory", "auto", "auto"]


def test_small_inputs_keep_only_the_optimizer_passes_that_pay(
        monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _spy_collect(monkeypatch)
    _probe(_collect.LEAN_MAX_ROWS)
    _probe(_collect.LEAN_MAX_ROWS + 1)
    assert [f.predicate_pushdown for _, f in seen] == [False, False, True, True]
    assert all(f.projection_pushdown for _, f in seen)


def test_small_inputs_project_sequentially_large_ones_in_parallel() -> None:
    seen: list[tuple[bool, bool]] = []
    frame = pl.LazyFrame({"a": [1, 2]})

    @_collect.scoped
    def probe(rows: int) -> None:
        _collect.choose(rows)
        # (a projection's plan says whether it runs in parallel)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (the JSON format is deprecated, not gone)
            plan = _collect.with_columns(frame, b=pl.col("a"), c=pl.col("a")).serialize(
                format="json")
        seen.append((_collect.sequential(), '"run_parallel":false' in plan))

    probe(_collect.LEAN_MAX_ROWS)
    probe(_collect.LEAN_MAX_ROWS + 1)
    assert seen == [(True, True), (False, False)]
    assert not _collect.sequential()  # outside a call: in parallel, as Polars does


@pytest.mark.parametrize("everywhere", [
    "IN_MEMORY_MAX_ROWS",  # 0: every query on the streaming engine
    "LEAN_MAX_ROWS",  # 0: every optimizer pass, as large inputs have
])
@pytest.mark.parametrize(
    "rules", ["mtg", "pokemon", "fab", "fide", "yugioh-ddd", "melee-two-game", "topdeck"])
def test_the_engine_and_the_passes_do_not_change_the_standings(
        rules: str, everywhere: str, monkeypatch: pytest.MonkeyPatch) -> None:
    df = _events()
    assert df.height <= _collect.LEAN_MAX_ROWS
    # (one event alone too: it is ranked without an event key)
    one = df.filter(pl.col("event_id") == df["event_id"][0])
    by_default = sf.standings(df, rules)
    alone = sf.standings(one, rules)
    by_round = sf.standings_by_round(df, rules)
    monkeypatch.setattr(_collect, everywhere, 0)
    assert_frame_equal(sf.standings(df, rules), by_default)
    assert_frame_equal(sf.standings(one, rules), alone)
    assert_frame_equal(sf.standings_by_round(df, rules), by_round)


@pytest.mark.parametrize(
    "rules", ["mtg", "pokemon", "fab", "fide", "yugioh-ddd", "melee-two-game", "topdeck"])
def test_small_queries_on_the_pool_equal_them_on_the_calling_thread(
        rules: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A small input's queries run whole on a pool thread (``_collect._on_the_pool``): the
    standings, one event's and by round, equal those of every query collected on the
    calling thread (``ON_THE_POOL=False``), with the same engine and passes."""
    df = _events()
    one = df.filter(pl.col("event_id") == df["event_id"][0])
    got = (sf.standings(df, rules), sf.standings(one, rules), sf.standings_by_round(df, rules))
    monkeypatch.setattr(_collect, "ON_THE_POOL", False)
    want = (sf.standings(df, rules), sf.standings(one, rules), sf.standings_by_round(df, rules))
    for g, w in zip(got, want, strict=True):
        assert_frame_equal(g, w)


def test_a_small_input_s_query_is_one_plan_of_collect_all(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the small input's query goes to pl.collect_all (the pool), with its lean passes, and
    # its one frame is what collect returns; a large input's to LazyFrame.collect
    calls: list[tuple[int, bool]] = []
    real_all = pl.collect_all

    def spy_all(frames: list[pl.LazyFrame], **kwargs: object) -> list[pl.DataFrame]:
        opts = kwargs["optimizations"]
        assert isinstance(opts, pl.QueryOptFlags)
        calls.append((len(frames), opts.predicate_pushdown))
        return real_all(frames, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pl, "collect_all", spy_all)
    plan = pl.LazyFrame({"a": [3, 1, 2]}).join(pl.LazyFrame({"a": [1, 2], "b": [5, 6]}),
                                                on="a", how="left").sort("a")

    @_collect.scoped
    def run(rows: int, *, pooled: bool = True) -> pl.DataFrame:
        _collect.choose(rows)
        return plan.pipe(_collect.collect, pooled=pooled)

    want = pl.DataFrame({"a": [1, 2, 3], "b": [5, 6, None]})
    assert_frame_equal(run(10), want)
    assert calls == [(1, False)]
    # (a large input's, and a query its caller keeps on the calling thread: not pooled)
    assert_frame_equal(run(_collect.LEAN_MAX_ROWS + 1), want)
    assert_frame_equal(run(10, pooled=False), want)
    assert calls == [(1, False)]


@pytest.mark.parametrize("rules", ["mtg", "pokemon", "fide"])
def test_the_streaming_engine_reads_a_table_in_its_chunks_alike(
        rules: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The boundary keeps a table's chunks (``schema.MIN_CHUNK_ROWS``: large ones; 1 here,
    any), aligned or not, and large inputs run on the streaming engine: standings, by
    round, the problems and the sensitivity equal those of the table in one chunk on the
    default engine."""
    df = _events().rechunk()
    want = (sf.standings(df, rules), sf.standings_by_round(df, rules),
            sf.validate(df).problems, sf.sensitivity(df, top=4))
    monkeypatch.setattr(schema, "MIN_CHUNK_ROWS", 1)
    monkeypatch.setattr(_collect, "IN_MEMORY_MAX_ROWS", 0)
    half = df.height // 2
    aligned = pl.concat([df.slice(0, half), df.slice(half)], rechunk=False)
    at = [1 + (7 * i + 3) % (df.height - 2) for i in range(df.width)]  # (each its own)
    apart = cut_apart(df, [(cut, cut + 1) for cut in at])
    for chunked in (aligned, apart):
        assert max(chunked.n_chunks("all")) > 1
        got = (sf.standings(chunked, rules), sf.standings_by_round(chunked, rules),
               sf.validate(chunked).problems, sf.sensitivity(chunked, top=4))
        for g, w in zip(got, want, strict=True):
            assert_frame_equal(g, w)


def test_a_streaming_panic_is_retried_in_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """Polars 2.1's streaming engine panics on pl.format over a filtered multi-chunk frame;
    the same plan in memory is fine, so collect() answers instead of surfacing the panic."""
    rows = pl.DataFrame({"a": [f"p{i}" for i in range(10)],
                         "m": [None if i % 5 == 0 else i for i in range(10)]})
    multi = pl.concat([rows.slice(i, 1) for i in range(rows.height)], rechunk=False)
    plan = (multi.lazy().filter(pl.col("m").is_not_null())
            .select(pl.format("{} x", pl.col("a")).alias("t")))
    expected = [f"p{i} x" for i in range(10) if i % 5]
    monkeypatch.setattr(_collect, "IN_MEMORY_MAX_ROWS", 0)

    @_collect.scoped
    def run() -> tuple[list[str], list[str]]:
        _collect.choose(multi.height)
        assert _collect.query_engine() == "streaming"
        one = plan.pipe(_collect.collect)["t"].to_list()
        both = _collect.collect_all([plan, plan])
        return one, both[1]["t"].to_list()

    assert run() == (expected, expected)


def test_standings_of_every_game_import_no_numpy() -> None:
    # a fresh process (every CLI command) pays ~70 ms to import NumPy: the engine and the
    # boundary use Polars' kernels only (a missed-rounds check written with NumPy once
    # made `import swissframe` import it)
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    code = ("import sys, swissframe as sf\n"
            f"df = sf.read_results({str(root / 'data/events/store-championship.csv')!r})\n"
            "for rules in ('mtg', 'pokemon', 'fide'):\n"
            "    sf.standings(df, rules)\n"
            "print('numpy' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=root, env={"PYTHONPATH": str(root), "PATH": ""})
    assert out.stdout.strip() == "False", out.stderr
