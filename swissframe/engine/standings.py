"""Run a ruleset over a results table: criteria, exact ranks, snapshots, round by round.

One call handles any number of events: every step is a join or group-by keyed by
``event_id`` (plus any extra ``keys`` an analysis adds, e.g. ``scenario_id``).
"""

from __future__ import annotations

import contextlib
import functools
import numbers
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Final, Literal, NamedTuple, overload

import polars as pl
import polars.selectors as cs

from swissframe._collect import collect, collect_all, concurrently, scoped, select, with_columns
from swissframe._display import count, quoted
from swissframe.engine import _cumulative
from swissframe.engine._chess import absences_columns, record_aggs, with_inferred_absences
from swissframe.engine._exact import bit_fields, exact_name, packs, per_group, rank_exact
from swissframe.engine._record import (
    EVAL,
    LONG_ROUNDS,
    RAW_RATE_COLUMNS,
    THROUGH,
    PlayerRows,
    RateScales,
    SumBounds,
    aggregate_players,
    cutoff_rows,
    eval_rounds,
    game_range,
    late_rounds_needed,
    late_rows,
    named,
    opponent_mwp,
    opponents_as_met,
    own_rates_staged,
    points_of_counts,
    points_unit,
    prepare_rows,
    ranking_keys,
    rate_scales,
    require_stage,
    scale_groups,
    seat_record,
    swiss_rows,
    with_event_rounds,
)
from swissframe.engine.tiebreakers import (
    BASE_SOURCES,
    GROUP_TIEBREAKERS,
    OPPONENT_SUMS_KEY,
    TIEBREAKER_SPECS,
    TIEBREAKERS,
    Context,
    GroupContext,
    _mean_columns,
    spans_rounds,
    supporting,
)
from swissframe.errors import DataError, ExactnessWarning, check_flag
from swissframe.rules._infer import is_auto, run_auto
from swissframe.rules._ruleset import Ruleset, get
from swissframe.schema import (
    DISQUALIFIED,
    IdCodes,
    batched,
    key_columns,
    read_once,
    validated_with_codes,
)

__all__ = ["STANDINGS_COLUMNS", "past_last_round", "standings", "standings_by_round"]

#: Stable leading columns of every standings table (criteria columns follow).
STANDINGS_COLUMNS: Final = (
    "event_id", "player_id", "rank", "match_points", "wins", "losses", "draws", "byes",
    "rounds_played", "dropped", "mwp", "gwp", "omwp", "ogwp",
)

Frame = pl.DataFrame | pl.LazyFrame


def check_keys(keys: Sequence[str]) -> tuple[str, ...]:
    """``event_id`` plus the extra keys, in order (:func:`validated` checked they exist)."""
    return tuple(dict.fromkeys(["event_id", *keys]))


def _rates(base: pl.DataFrame, rules: Ruleset, scales: RateScales) -> pl.LazyFrame:
    """The record with match points and the own rates (:func:`_record.own_rates`)."""
    lf = base.lazy()
    for step in _rate_columns(rules, scales):
        lf = with_columns(lf, *step)
    return lf.drop(RAW_RATE_COLUMNS)


@functools.lru_cache(maxsize=256)
def _rate_columns(rules: Ruleset, scales: RateScales) -> tuple[tuple[pl.Expr, ...], ...]:
    """The steps of :func:`_rates`, built once per (ruleset, scales), named (a name given
    as a keyword is an alias Polars builds on every call)."""
    terms, raw, clamped, raw_floats = own_rates_staged(rules, scales)
    points = pl.col("_pts")
    mp = points if rules.integer_points else points.cast(pl.Float64) / points_unit(rules)
    # (the exact points are the integer units themselves, summed on Int64: no wider copy)
    steps = ({"match_points": mp, "_x_match_points": points, **terms}, raw,
             {k: clamped[k] for k in ("_x_mwp", "_x_gwp", "_x_gwp_opp", "mwp", "gwp",
                                      "gwp_opp")},
             {**opponent_mwp(rules, scales), **raw_floats})
    return tuple(named(step) for step in steps)


def context(rows: pl.LazyFrame, rules: Ruleset, keys: tuple[str, ...], *,
            columns: Sequence[str] | None = None, swiss: bool = False) -> Context:
    """Prepared rows, the per-player record and own rates, and the exact scales.
    ``columns``, ``swiss``: ``rows``' columns where the caller knows them, and whether
    every row is a Swiss row (:func:`prepare_rows`)."""
    # materialised once: every criterion reads them, and a lazy plan would recompute them
    prepared = prepare_rows(rows, rules, columns=columns, swiss=swiss).pipe(collect).lazy()
    # (with the players' sums a criterion reads from the record: chess scores)
    flags, extra = record_aggs(rules)
    base = with_event_rounds(
        aggregate_players(with_columns(prepared, *flags) if flags else prepared, keys,
                          extra=extra), prepared, keys, rules).pipe(collect)
    scales = rate_scales(base, rules)
    players = _rates(base, rules, scales).pipe(collect, pooled=False)
    return Context(rows=prepared, players=players.lazy(), keys=keys, rules=rules,
                   player_columns=tuple(players.columns),
                   rate_scale=scales.rate, game_scale=scales.game, k_max=scales.k_max,
                   size=base.height)


def _criteria(rows: pl.LazyFrame, rules: Ruleset, keys: tuple[str, ...]) -> pl.DataFrame:
    """Every criterion of ``rules`` per (keys…, player_id), unranked, with exact twins."""
    return _criteria_of(context(rows, rules, keys))


#: Criteria registered with ``running=True`` (they read only the per-player record and the
#: opponents' base sums), so the cumulative path (:mod:`swissframe.engine._cumulative`) can
#: give them at every cutoff without repeating rows. Others (chess's Buchholz/SB, Pokémon's
#: OOMW%, FaB's CTB, …) read the rows per cutoff, so a ruleset naming one takes the
#: repeated-rows path for its criteria.
_CUMULATIVE_CRITERIA: Final = supporting("running")
#: Criteria registered with ``coded=True`` (the coded path of :func:`standings`).
_CODED_CRITERIA: Final = supporting("coded")


def _cumulative_ok(rules: Ruleset) -> bool:
    names = {c.function for c in (*rules.criteria, *rules.columns)} - set(GROUP_TIEBREAKERS)
    # an earned bye counted as an opponent goes through the rows (_earned_bye_contributions);
    # a late entrant's added losses stand from the entry round, not their own, which the
    # running sums by round do not know (_record.standing_rows)
    # (set(...): the registry read once, not once per name)
    return (rules.earned_bye_opponent is None and rules.late_rounds != "loss"
            and opponents_as_met(rules) and names <= set(_CUMULATIVE_CRITERIA))


def _cutoff_criteria(lf: pl.LazyFrame, rules: Ruleset, keys: tuple[str, ...],
                     cutoffs: pl.LazyFrame, *, cumulative: bool = True) -> pl.DataFrame:
    """``_criteria`` of the rows as they stood at each cutoff (keys…, ``_through``).

    The definition is the rows repeated once per cutoff at or after their round
    (:func:`_record.cutoff_rows`); ``cumulative=True`` gives the same table from running
    sums when the ruleset allows (``_cumulative_ok``), ``False`` forces the definition (the
    tests' reference).
    """
    coded = _cumulative_criteria(lf, rules, keys, cutoffs) if cumulative else None
    if coded is not None:
        table, grid = coded
        return _decode(table, grid)
    return _criteria(cutoff_rows(lf, keys, cutoffs), rules, (*keys, THROUGH))


#: Key columns of the cumulative path's tables: the event code and the cutoff; player_id
#: holds a player code there (see ``_cumulative.CutoffGrid``).
_CODED: Final = ("_e", THROUGH)


def _decode(frame: pl.DataFrame, grid: _cumulative.CutoffGrid) -> pl.DataFrame:
    """Replace the cumulative path's codes (``_e``, integer player_id) by the key values."""
    # one chunk per column, like the decoded ids: with mixed chunkings Polars 2.1 panics
    # in later string expressions on filtered slices of the table (pl.format in charts)
    return frame.drop("_e", "player_id").rechunk().hstack(
        frame.select(**grid.id_exprs(pl.col("player_id"))).rechunk())


def _cumulative_criteria(lf: pl.LazyFrame, rules: Ruleset, keys: tuple[str, ...],
                         cutoffs: pl.LazyFrame, codes: IdCodes | None = None, *,
                         own_rounds: bool = False
                         ) -> tuple[pl.DataFrame, _cumulative.CutoffGrid] | None:
    """What ``_criteria`` gives on the repeated rows, from running sums, keyed by codes
    (``_CODED`` and an integer player_id), with the grid that decodes them
    (``CutoffGrid.id_exprs``); None when the ruleset or the data fall outside what the
    cumulative path handles. ``codes``: validation's id codes of ``lf``'s rows, row for
    row (no extra keys), reused instead of hashing the ids again; with them,
    ``own_rounds`` says the cutoffs are every round of the Swiss rows, which the grid
    then takes from the codes instead of collecting ``cutoffs``."""
    if not _cumulative_ok(rules):
        return None
    ck = (*keys, THROUGH)
    schema = aggregate_players(prepare_rows(cutoff_rows(lf, keys, cutoffs), rules),
                               ck).collect_schema()
    coded = None
    if codes is not None:
        ce, cp, co = _cumulative.CODE_COLUMNS
        lf = pl.concat([lf, codes.codes.lazy().select(pl.col("_e").alias(ce),
                                                      pl.col("_p").alias(cp),
                                                      pl.col("_o").alias(co))],
                       how="horizontal")
        coded = (codes.events, codes.players)
    prepared = prepare_rows(lf, rules)
    cut = None if own_rounds and coded is not None else cutoffs.pipe(collect)
    # only the columns the grid reads, one chunk each: validation's frame and its codes
    # come chunked apart, and each select of a frame of misaligned columns rechunks every
    # column, the ids' strings among them (10,000 events: two selects, ~0.3 s CPU)
    rows = prepared.select(_cumulative.row_columns(keys, coded=coded is not None))
    # (validation's sorted seats: the rows are row for row with the table they sorted)
    grid = _cumulative.build(rows.pipe(collect).rechunk(), keys, cut, THROUGH, schema,
                             coded=coded, seats=None if codes is None else codes.seats)
    if grid is None:
        return None
    base = grid.base
    scales = rate_scales(base, rules)
    if not scales.exact():
        return None  # the means would fall back to rounded floats: keep the reference path
    rate, game, k_max = scales.rate, scales.game, scales.k_max
    # in memory, one chunk per column as the grid's base: the streaming engine's 40 chunks
    # a column, beside the opponents' sums' (chunked apart), left the criteria table's
    # columns misaligned, so that every later select of it rechunked all of its columns
    # (0.25 s CPU each on 4M rows; 10,000 events: 8.9 -> 7.9 s CPU a call, peak RSS
    # 3.1 -> 2.5 GiB)
    players = collect(_rates(base, rules, scales), in_memory=True)
    of = {"mwp_opp": rate.scale, "gwp_opp": game.scale}
    sums = _cumulative.opponent_sums(grid, players, [*_CODED, "player_id"],
                                     {s: of[s] for s in BASE_SOURCES})
    if sums is None:
        return None
    order = players.select(_CODED[0], _CODED[1], "player_id")

    def totals(values: pl.LazyFrame, scale: int) -> pl.LazyFrame:
        # another criterion's values (OOMW% averages OMW%): summed over the opponents met
        # so far on the grid, as the base sources are; _mean_f (read only by the rounding
        # fallback, which sends this path back to the reference) is the exact mean
        frame = values.pipe(collect)
        if not frame.select(order.columns).equals(order):
            raise _NotRunningError
        got = _cumulative.opponent_sums(grid, frame.rename({"_v": "_x__v"}),
                                        order.columns, {"_v": scale})
        if got is None:
            raise _NotRunningError
        return got.select(*order.columns, pl.col("_t__v").alias("_t"),
                          pl.col("_k__v").alias("_k"),
                          pl.col("_m__v").alias("_mean_f")).lazy()

    # no rows: the criteria allowed here (_CUMULATIVE_CRITERIA) read only the players and
    # opponents' means, summed on the grid; one reading rows would fail loudly on the
    # missing columns
    ctx = Context(rows=pl.LazyFrame(), players=players.lazy(), keys=_CODED, rules=rules,
                  rate_scale=rate, game_scale=game, k_max=k_max, opponent_totals=totals)
    ctx.cache[OPPONENT_SUMS_KEY] = (sums.lazy(), None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            table = _criteria_of(ctx, aligned=True)
        except _NotRunningError:
            return None
    if any(issubclass(w.category, ExactnessWarning) for w in caught):
        return None  # a mean fell back to rounded floats: the reference path says so itself
    for w in caught:
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return table, grid


class _NotRunningError(Exception):
    """A sum the running-sums path cannot give exactly (an overflow, or values not row
    for row with the grid): ``_cumulative_criteria`` then leaves it to the reference."""


@overload
def _criteria_of(ctx: Context, *, aligned: bool = ..., lazy: Literal[False] = ...
                 ) -> pl.DataFrame: ...
@overload
def _criteria_of(ctx: Context, *, aligned: bool = ..., lazy: Literal[True]) -> pl.LazyFrame: ...
def _criteria_of(ctx: Context, *, aligned: bool = False, lazy: bool = False
                 ) -> pl.DataFrame | pl.LazyFrame:
    """Every criterion of ``ctx.rules`` from a built Context (see ``_criteria``); ``lazy``
    returns the plan (not with ``aligned``), for a caller that adds to it before collecting.

    ``aligned``: criterion frames likely come back row for row in the players' order (the
    cumulative path, whose opponents' sums are aligned): each is then checked and put
    beside the table instead of joined — the joins were a third of that path's time.
    """
    rules = ctx.rules
    out: pl.LazyFrame | pl.DataFrame = ctx.players.pipe(collect) if aligned else ctx.players
    columns = (list(ctx.player_columns) if ctx.player_columns is not None
               else out.collect_schema().names())
    present = set(columns)
    frames: list[pl.LazyFrame] = []
    for crit in (*rules.criteria, *rules.columns):
        if crit.function in GROUP_TIEBREAKERS:
            continue  # needs the tie groups: computed after snapshots, see _group_criteria
        fn = TIEBREAKERS.get(crit.function)
        if fn is None:
            known = sorted([*TIEBREAKERS, *GROUP_TIEBREAKERS])
            msg = (f"ruleset {rules.name!r} names criterion {crit.function!r}, which is not a "
                   f"registered tiebreaker. Hint: one of {known}.")
            raise DataError(msg)
        if exact_name(crit.name) in present and crit.name == crit.function:
            continue  # already a column of the base table (match_points, mwp, gwp)
        frames.append(fn(ctx, name=crit.name, **crit.kwargs))
        present |= {crit.name}
    # the base columns every table reports, even when the ruleset does not rank by them
    for name in ("omwp", "ogwp"):
        if name not in present:
            frames.append(TIEBREAKERS[name](ctx, name=name))
    if isinstance(out, pl.LazyFrame):
        out = _attach_fused(ctx, out, frames, columns)
    else:  # (in one collection: the plans run side by side)
        # in memory where the frames are aligned: their keys then stay the base's own
        # columns (zero copy) in one chunk, which the check below compares and the table
        # keeps; streamed, each came back as a copy in 40 chunks (10,000 events by round:
        # this step 281 -> 143 ms, page faults 83k -> 2.5k)
        for got in collect_all(frames, in_memory=aligned):
            out = _attach(out, got, ctx.pkeys)
    if lazy:
        return out.lazy()
    return _collected(out)


def _attach(out: pl.DataFrame, got: pl.DataFrame, pkeys: Sequence[str]) -> pl.DataFrame:
    """``out`` left-joined to ``got`` on ``pkeys``; put beside it instead when ``got``
    has the same keys row for row (a criterion computed from ``out``'s own rows, in their
    order): a join of millions of rows costs more than checking that."""
    keys = list(pkeys)
    extra = [c for c in got.columns if c not in keys]
    if (got.height == out.height and not set(extra) & set(out.columns)
            and got.select(keys).equals(out.select(keys))):
        return out.hstack(got.select(extra))
    return out.join(got, on=keys, how="left")


def _attach_fused(ctx: Context, out: pl.LazyFrame, frames: Sequence[pl.LazyFrame],
                  columns: Sequence[str]) -> pl.LazyFrame:
    """``out`` left-joined to each criterion frame in turn, except that frames which are
    projections of one shared frame (``Context.projection``: OMW% and OGW% of the
    opponents' sums) are attached by one join of that frame with all their columns — the
    same columns (a left join of a projection gives what a left join of its source's
    selected columns gives), in the same order (a final select where it differs).
    ``columns``: ``out``'s."""
    names = [list(columns)]
    groups: dict[int, tuple[pl.LazyFrame, list[pl.Expr]]] = {}
    for frame in frames:
        proj = ctx.projection(frame)
        if proj is None:
            names.append(ctx.columns_of(frame))
        else:
            names.append([e.meta.output_name() for e in proj[1]])
            groups.setdefault(id(proj[0]), (proj[0], []))[1].extend(proj[1])
    order = [c for part in names for c in part]
    if len(set(order)) != len(order):  # a name twice: the joins' suffixes decide, as before
        for frame in frames:
            out = out.join(frame, on=ctx.pkeys, how="left")
        return out
    done: set[int] = set()
    joined = list(names[0])  # the joins' column order (no name twice: no suffixes)
    for frame, part in zip(frames, names[1:], strict=True):
        proj = ctx.projection(frame)
        if proj is None:
            out = out.join(frame, on=ctx.pkeys, how="left")
            joined += part
        elif id(proj[0]) not in done:
            done.add(id(proj[0]))
            source, exprs = groups[id(proj[0])]
            if source is ctx.players:  # (the sums beside the players: _seat_opponent_sums)
                out = with_columns(out, *exprs)
            else:
                out = out.join(select(source, *ctx.pkeys, *exprs), on=ctx.pkeys, how="left")
            joined += [e.meta.output_name() for e in exprs]
    if joined != order:  # (one selector: a list of names is parsed into an expression
        # each, ≈ 0.15 ms of Python for a FIDE table's 45 columns)
        out = out.select(cs.by_name(*order))
    return out


def _sort_keys(rules: Ruleset, upto: int | None = None) -> tuple[list[str], list[bool]]:
    """Exact columns and directions of the first ``upto`` ranking criteria (all if None)."""
    keys = ranking_keys(rules, upto)
    return [exact_name(n) for n, _, _ in keys], [d for _, _, d in keys]


def _rank(frame: pl.LazyFrame, rules: Ruleset, keys: tuple[str, ...], *,
          disqualified: bool = False) -> pl.LazyFrame:
    """Exact ranks within ``keys``; ``disqualified``: ``frame`` has the Boolean
    ``disqualified`` column, whose players are ranked apart (:func:`_unranked`)."""
    cols, desc = _sort_keys(rules)
    if disqualified:
        frame, keys = _dq_key(frame), (*keys, _DQ_KEY)
    # one row per (keys…, player): player_id makes the order total
    ranked = rank_exact(frame, keys, cols, desc, tiebreak=["player_id"], unique=True)
    return _unranked(ranked) if disqualified else ranked


#: The sort key of a disqualified player (0 ranked, 1 disqualified), after the event's
#: keys: the ranked players of an event are ranked among themselves (their ranks close up
#: over a disqualified player's place), and the disqualified follow them.
_DQ_KEY: Final = "__dq"


def _dq_key(frame: pl.LazyFrame) -> pl.LazyFrame:
    """``frame`` with :data:`_DQ_KEY` (an integer: it packs with the keys)."""
    return frame.with_columns(pl.col(DISQUALIFIED).cast(pl.Int8).alias(_DQ_KEY))


def _unranked(ranked: pl.LazyFrame) -> pl.LazyFrame:
    """A disqualified player's rank made null (MTG IPG §1.1, Pokémon TRH §5.7.3: removed
    from the standings), :data:`_DQ_KEY` dropped."""
    rank = pl.when(pl.col(_DQ_KEY) == 0).then(pl.col("rank"))
    return ranked.with_columns(rank.alias("rank")).drop(_DQ_KEY)


def _disqualified_from(rows: pl.LazyFrame, pkeys: Sequence[str]) -> pl.LazyFrame:
    """Each disqualified player's first Swiss round whose row carries the flag
    (``pkeys``…, ``_dq_from``): a player is disqualified from that round on."""
    flagged = rows.filter((pl.col("phase") == "swiss") & pl.col(DISQUALIFIED).fill_null(
        value=False))
    return flagged.group_by(list(pkeys)).agg(pl.col("round").min().alias("_dq_from"))


def _dq_flag(through: str | None) -> pl.Expr:
    """``disqualified`` of a row joined to :func:`_disqualified_from`: at the cutoff
    ``through`` (a column; None: the rows given are those that stand)."""
    first = pl.col("_dq_from")
    flag = first.is_not_null() if through is None else (first <= pl.col(through)).fill_null(
        value=False)
    return flag.alias(DISQUALIFIED)


def with_disqualified(table: pl.DataFrame, rows: pl.LazyFrame, pkeys: Sequence[str],
                      through: str | None = None) -> pl.DataFrame:
    """``table`` (one row per ``pkeys``) with the Boolean ``disqualified`` column of its
    players, read from the ``rows`` that stand (:func:`_disqualified_from`; ``through``:
    the column of ``table`` holding each row's cutoff, a player being disqualified at a
    cutoff from the round of their first flagged row). Row for row with ``table``.

    Examples
    --------
    >>> rows = pl.LazyFrame({"event_id": ["e"] * 3, "player_id": ["A", "B", "B"],
    ...     "round": [1, 1, 2], "phase": ["swiss"] * 3,
    ...     "disqualified": [False, False, True]})
    >>> table = pl.DataFrame({"event_id": ["e"] * 4, "player_id": ["A", "B", "A", "B"],
    ...     "_through": [1, 1, 2, 2]})
    >>> out = with_disqualified(table, rows, ["event_id", "player_id"], "_through")
    >>> out["disqualified"].to_list()
    [False, False, False, True]
    """
    first = _disqualified_from(rows, pkeys)
    flag = (table.lazy().select(*pkeys, *([through] if through else []))
            .join(first, on=list(pkeys), how="left", maintain_order="left")
            .select(_dq_flag(through)).pipe(collect).to_series())
    return table.with_columns(flag)


@overload
def _group_criteria(table: pl.DataFrame | pl.LazyFrame, rows: pl.LazyFrame, rules: Ruleset,
                    keys: tuple[str, ...], *,
                    unrepeated: tuple[pl.LazyFrame, str] | None = ..., one: bool = ...,
                    height: int | None = ..., final: Literal[False] = ...
                    ) -> pl.DataFrame | pl.LazyFrame: ...
@overload
def _group_criteria(table: pl.DataFrame | pl.LazyFrame, rows: pl.LazyFrame, rules: Ruleset,
                    keys: tuple[str, ...], *,
                    unrepeated: tuple[pl.LazyFrame, str] | None = ..., one: bool = ...,
                    height: int | None = ..., final: bool
                    ) -> pl.DataFrame | pl.LazyFrame | _Ranked: ...
def _group_criteria(table: pl.DataFrame | pl.LazyFrame, rows: pl.LazyFrame, rules: Ruleset,
                    keys: tuple[str, ...], *,
                    unrepeated: tuple[pl.LazyFrame, str] | None = None, one: bool = False,
                    height: int | None = None, final: bool = False
                    ) -> pl.DataFrame | pl.LazyFrame | _Ranked:
    """Add the group-aware criteria, in ruleset order, each seeing the tie groups formed by
    every criterion before it (one exact ranking pass per such criterion). ``rows`` and
    ``unrepeated``: see :class:`~swissframe.engine.tiebreakers.GroupContext`.

    A criterion's frame is attached lazily: the next ranking pass, one query, materialises
    it with the table, and the frames after the last pass are part of the caller's query
    (a plan, returned when any is pending; :func:`_finish` ranks it): a small input's
    call runs no query of its own for them (Pokémon's head-to-head and random order).
    Not on a large table (:func:`~swissframe.engine._exact.packs`): each frame is
    collected and attached in turn, a frame row for row with the table put beside it
    (``_attach``: 2,000 Pokémon events, a join of 800k rows per frame otherwise).
    ``one``: the table holds one group of ``keys`` (one event): its ranking passes rank
    one group (:func:`~swissframe.engine._exact.rank_exact` without keys: one run id where
    the keys' comparisons were one expression per column).

    A criterion that reads the tie groups but not their ranks (``TiebreakerSpec.ranks``,
    head-to-head, direct encounter) takes them, on a small table, from windows over the
    criteria's columns: no ranking pass (one query fewer). ``table`` may be the criteria's
    plan (of ``height`` rows), not yet collected: the first such criterion's windows are
    then computed in the criteria's own query, which materialises them for
    :meth:`~swissframe.engine.tiebreakers.GroupContext.largest_tie` (FIDE's direct
    encounter runs no pass of its own where no two players are tied: one query fewer).

    Where no two players are tied before it (the materialised groups say so:
    ``GroupContext.largest_tie``), a criterion declaring its columns for that case
    (``TiebreakerSpec.untied``: FIDE's direct encounter, 0 for everyone) takes them as
    expressions of the table: no plan of its function, no join. ``final``: the caller
    ranks the result as the final standings of one group (with ``one``; :func:`_finish`):
    where that criterion is the last group one, the materialised table with its columns
    is then ranked at once (:func:`_untied_ranking`: no two players are tied, so one
    sort gives the ranks), returned as :class:`_Ranked`."""
    pk = [*keys, "player_id"]
    pending: pl.LazyFrame | None = None  # the table with frames not yet collected
    if isinstance(table, pl.LazyFrame):
        first = next(TIEBREAKER_SPECS[c.function] for c in rules.criteria
                     if c.function in GROUP_TIEBREAKERS)
        if height is None or packs(height) or not first.ties or first.ranks:
            table = table.pipe(collect)  # (only a windows pass reads the plan itself)
        else:
            pending = table
            table = pl.DataFrame()  # (a stand-in: the windows pass materialises it)
    large = packs(table.height if pending is None else height)
    for i, crit in enumerate(rules.criteria):
        fn = GROUP_TIEBREAKERS.get(crit.function)
        if fn is None:
            continue
        spec = TIEBREAKER_SPECS[crit.function]
        materialised = None
        if spec.ties and not spec.ranks and not large:
            # the groups without their ranks: windows over the criteria's columns (exact,
            # nulls equal to nulls, as the ranking pass's ties), in the plan that reads
            # them, instead of a ranking pass of their own
            windows = _tie_windows(keys, tuple(_sort_keys(rules, i)[0]))
            if pending is not None:  # (read more than once below: materialised, with them)
                got = with_columns(pending, *windows).pipe(collect)
                table, pending = _without(got, "_tie", "_tie_size"), None
                tied, materialised = got.lazy(), got
            else:
                tied = with_columns(table.lazy(), *windows)
        elif spec.ties:
            cols, desc = _sort_keys(rules, i)
            ranked = (rank_exact(table.lazy() if pending is None else pending,
                                 () if one else keys, cols,
                                 desc, rank_name="_prelim", tie_name="_tie",
                                 tiebreak=["player_id"], unique=True)
                      .with_columns(_tie_size=pl.len().over([*keys, "_tie"])))
            # materialised: a criterion reads the tie groups several times (the tied
            # players, and again as their opponents), and a small input's plan would
            # rank the table once per reading (no common-subplan elimination); the
            # pending frames are materialised with it
            got = ranked.pipe(collect)
            if pending is not None:
                table, pending = _without(got, "_prelim", "_tie", "_tie_size"), None
            tied, materialised = got.lazy(), got
        elif spec.keys_only or pending is None:
            tied = table.lazy()  # (the rows and keys are the pending plan's)
        else:  # (it may read a pending criterion's column)
            table, pending = pending.pipe(collect), None
            tied = table.lazy()
        g = GroupContext(table=tied, rows=rows, keys=keys, rules=rules, unrepeated=unrepeated,
                         materialised=materialised)
        untied = (spec.untied(crit.name, **crit.kwargs)
                  if spec.untied is not None and (g.largest_tie() or 2) < 2 else None)
        if untied is not None:
            # no two players tied (FIDE's direct encounter where no two players tie on
            # the criteria before it): its columns are known, added to the table without
            # its function's plan of the rows or a join
            if (final and one and pending is None and not large
                    and not any(c.function in GROUP_TIEBREAKERS
                                for c in rules.criteria[i + 1:])):
                return _untied_ranking(table, untied, rules)  # (the last group criterion)
            if large:
                table = table.with_columns(*untied)
            else:
                pending = with_columns(table.lazy() if pending is None else pending, *untied)
            continue
        frame = fn(g, name=crit.name, **crit.kwargs)
        if large:  # (collected: put beside the table where row for row, not joined)
            table = _attach(table, frame.pipe(collect), pk)
            continue
        pending = (table.lazy() if pending is None else pending).join(frame, on=pk,
                                                                       how="left")
    return table if pending is None else pending


def _without(frame: pl.DataFrame, *columns: str) -> pl.DataFrame:
    """``frame.drop(*columns)`` without a query (:func:`_columns`: ``DataFrame.drop`` runs
    a lazy query on the calling thread, ≈ 0.15 ms of CPU on a 64-row table)."""
    return _columns(frame, [c for c in frame.columns if c not in columns])


def _columns(frame: pl.DataFrame, names: Sequence[str]) -> pl.DataFrame:
    """The columns of ``frame`` among ``names``, in that order: its Series taken by
    name, not a query (a DataFrame's ``select`` or ``drop`` runs one: ≈ 0.14–0.25 ms on
    one event's table, against ≈ 0.05 ms)."""
    have = set(frame.columns)
    kept = [c for c in names if c in have]
    # (``frame[[]]`` is the whole frame; no column left keeps the height: a query, rare)
    return frame[kept] if kept else frame.drop(frame.columns)


class _Ranked(NamedTuple):
    """A final ranking :func:`_group_criteria` gave (its ``final``): the public columns
    among others, in rank order."""

    table: pl.DataFrame


def _untied_ranking(table: pl.DataFrame, columns: Sequence[pl.Expr], rules: Ruleset
                    ) -> _Ranked:
    """:func:`_rank` of one group's ``table`` with ``columns`` added, no two of whose rows
    are tied on the ranking criteria: its rows sorted as there, ranked 1, 2, … (a
    query of one sort, on the calling thread)."""
    cols, desc = _sort_keys(rules)
    ordered = collect(with_columns(table.lazy(), *columns).sort(
        [*cols, "player_id"], descending=[*desc, False], nulls_last=True,
        multithreaded=False), pooled=False)
    return _Ranked(ordered.hstack([pl.Series("rank", range(1, table.height + 1),
                                             dtype=pl.Int64)]))


@functools.lru_cache(maxsize=64)
def _tie_windows(keys: tuple[str, ...], cols: tuple[str, ...]) -> tuple[pl.Expr, pl.Expr]:
    """The tie groups of the criteria ``cols`` as windows (``_tie``: the group's least
    player_id; ``_tie_size``), built once per keys and columns."""
    group = [*keys, *cols]
    return (pl.col("player_id").min().over(group).alias("_tie"),
            pl.len().over(group).alias("_tie_size"))


def _finish(table: pl.DataFrame | pl.LazyFrame | _Ranked, keys: tuple[str, ...],
            rules: Ruleset, *, height: int | None = None, one: bool = False) -> pl.DataFrame:
    """The ranked public table. ``table`` a plan (``_group_criteria``'s, of ``height``
    rows): ranked in its own query where the table is small, else materialised first; or
    ranked already (its public columns taken).
    ``one``: the table holds one group of ``keys`` (one event), ranked as one group."""
    if isinstance(table, _Ranked):
        return _columns(table.table, _front(keys, rules))
    if isinstance(table, pl.LazyFrame):
        if height is not None and not packs(height):  # (no disqualified column: see _compute)
            cols = _sort_keys(rules)[0]
            wanted = dict.fromkeys([*keys, *_front(keys, rules), *cols, "player_id"])
            return _output(_rank(table.select(cs.by_name(*wanted, require_all=False)),
                                 rules, () if one else keys), keys, rules)
        table = table.pipe(collect)
    return _output(_rank_table(table, rules, keys, _front(keys, rules)), keys, rules)


def _front(keys: Sequence[str], rules: Ruleset) -> list[str]:
    """The public columns of a standings table, in order."""
    crit = [c.name for c in (*rules.criteria, *rules.columns)
            if c.name not in STANDINGS_COLUMNS]
    lead = [k for k in keys if k != "event_id"]
    # (disqualified, when the results have the column: after dropped, the other status)
    status = STANDINGS_COLUMNS.index("dropped") + 1
    return list(dict.fromkeys(["event_id", *lead, *STANDINGS_COLUMNS[1:status], DISQUALIFIED,
                               *STANDINGS_COLUMNS[status:], *crit]))


def _rank_table(table: pl.DataFrame, rules: Ruleset, keys: tuple[str, ...],
                keep: Sequence[str], *, dense_codes: bool = True) -> pl.LazyFrame:
    """``_rank`` on the columns that are kept (``keep``, the keys and sort columns) only —
    the sort moves every column it is given — on narrowed sort columns (:func:`_as_int64`,
    :func:`_narrow`), with the keys and the first sort columns packed into one Int64 where
    their ranges fit (:func:`_packing`: fewer, narrower sort keys; the packed key orders
    rows as they do), and sorted on one key where every column fits one
    (:func:`_order_key`; ``dense_codes``: narrowing columns to their dense codes for it)."""
    cols, desc = _sort_keys(rules)
    wanted = [*keys, *keep, *cols, "player_id"]
    # the plan holds only these columns (a select of a DataFrame shares their buffers):
    # the others can be freed before the plan runs
    # (the names once: DataFrame.schema builds a new Schema on every access)
    have = set(table.columns)
    table = table.select([c for c in dict.fromkeys(wanted) if c in have])
    dq = DISQUALIFIED in have and _DQ_KEY not in keys
    if dq and not packs(table.height):
        return _rank(table.lazy(), rules, keys, disqualified=True)
    if dq:  # (a key after the event's: see _DQ_KEY)
        return _rank_table(_dq_key(table.lazy()).pipe(collect), rules, (*keys, _DQ_KEY),
                           keep, dense_codes=dense_codes).pipe(_unranked)
    schema = table.schema
    # one query (the stats); the narrowing, packing and ranking stay in the caller's plan
    lf = table.lazy()
    if not packs(table.height):  # a small table: the plain sort (rank_exact's reference)
        return _rank(lf, rules, keys)
    table = _as_int64(table, [c for c in cols if schema[c] == pl.Int128])
    schema = table.schema
    lead = [*keys, *cols]
    # the kept integer columns that are neither keys nor sort columns (wins, losses, …):
    # moved through the sort packed in one Int64 (one column to gather instead of several)
    # and unpacked after it, the same values
    payload = [c for c in dict.fromkeys(keep) if c in schema and c not in lead
               and c != "player_id" and schema[c] == pl.Int64]
    ints = [c for c in dict.fromkeys([*lead, *payload, "player_id"])
            if schema[c].is_signed_integer()]
    stats = _int_stats(table, ints)
    wide = [c for c in cols if schema[c] == pl.Int128]
    directions = [False] * len(keys) + desc
    table, key = _order_key(table, [*lead, "player_id"], [*directions, False], stats, wide,
                            narrowable=cols if dense_codes else (), keys=len(keys))
    lf = _narrow(table.lazy(), wide, stats)
    lf, unpack = _pack_payload(lf, payload, stats)
    if key is not None:  # one sort key: the order of every lead column and the tiebreak,
        # whose leading bits also tell the groups and the ties: the sort columns are not
        # moved through the sort, nor compared after it
        order, split = key
        lf = (lf.with_columns(order.alias("__order"))
              .drop(cs.starts_with("__dense_"), *[c for c in cols if c not in keep]))
        return rank_exact(lf, keys, [], [], tiebreak=["player_id"], unique=True,
                          order=("__order", split),
                          ).drop("__order").pipe(unpack)
    packed = _packing(lead, directions, stats)
    if len(packed) <= len(keys):
        return rank_exact(lf, keys, cols, desc, tiebreak=["player_id"], unique=True,
                          ).pipe(unpack)
    n = len(packed) - len(keys)
    # the sort columns packed into the key are no longer read: the ties are told by it
    lf = (lf.with_columns(_packed_expr(packed, wide, pl.Int64).alias("__packed"))
          .drop([c for c in cols[:n] if c not in keep]))
    return rank_exact(lf, keys, ["__packed", *cols[n:]],
                      [False, *desc[n:]], tiebreak=["player_id"], packed=len(packed),
                      unique=True).drop("__packed").pipe(unpack)


#: The widest key :func:`_order_key` builds: an Int128 less its sign bit and one spare.
ORDER_BITS: Final = 126


def _packed_expr(packed: Sequence[tuple[str, bool, int, tuple[int, int, int]]],
                 wide: Sequence[str], dtype: type[pl.Int64] | type[pl.Int128]) -> pl.Expr:
    """One integer of type ``dtype`` from the columns of a :func:`_packing` (each one's
    offset from its minimum, or from its maximum when descending, in its bits; a null one
    more than every value): it orders rows as those columns do, nulls last. ``wide``:
    columns that were Int128 before their narrowing to UInt64 (:func:`_narrow`).

    The leading fields are packed in Int64 as long as they fit 62 bits, and only the rest
    in Int128: Int128 arithmetic costs about twice Int64's (810k players, six fields in
    123 bits: the key 36 -> 25 ms CPU a half of the 10k bulk table)."""
    key: pl.Expr | None = None
    kind: type[pl.Int64] | type[pl.Int128] = pl.Int64  # (the key's type so far)
    bits = 0
    for c, d, width, (lo, hi, nulls) in packed:
        # (a field of at most 62 bits of an Int64 column: its offset fits Int64)
        t = pl.Int128 if c in wide or width > 62 else pl.Int64
        v = pl.col(c).cast(t)
        part = (pl.lit(hi, dtype=t) - v) if d else (v - pl.lit(lo, dtype=t))
        if nulls:  # (after every value, either direction: the sort's nulls_last)
            part = part.fill_null(pl.lit(hi - lo + 1, dtype=t))
        bits += width
        if key is None:
            key, kind = part, t
            continue
        if kind == pl.Int64 and (t == pl.Int128 or bits > 62):
            key, kind = key.cast(pl.Int128), pl.Int128
        key = key * pl.lit(2**width, dtype=kind) + part.cast(kind)
    return pl.lit(0, dtype=dtype) if key is None else key.cast(dtype)


def _field_width(lo: int, hi: int, nulls: int) -> int:
    """Bits of a packed column of values in ``[lo, hi]``, with one code more for null when
    it has ``nulls``."""
    return (hi - lo + (1 if nulls else 0)).bit_length()


def _order_key(table: pl.DataFrame, lead: Sequence[str], descending: Sequence[bool],
               stats: dict[str, tuple[int | None, int | None, int]], wide: Sequence[str],
               *, narrowable: Sequence[str], keys: int = 0
               ) -> tuple[pl.DataFrame, tuple[pl.Expr, tuple[int, int]] | None]:
    """One integer that orders the rows of ``table`` as ``lead`` (the ``keys`` first
    columns, the sort columns, then one tiebreak column) does, when their ranges fit
    :data:`ORDER_BITS` bits: the sort then compares one Int64 or Int128 per row instead of
    several columns (810k players, four columns: Polars' multi-column sort 129 ms, one
    Int128 36 ms).

    A sort column of ``narrowable`` whose distinct values are far fewer than its range
    spans (GW% of events of 1–9 rounds: 319 values over 38 bits, at one exact scale for
    every event) is replaced by its dense codes (its values' ranks among its distinct
    values: the same order and the same ties) when the key would not fit otherwise; the
    codes are added to ``table`` as ``__dense_<column>``. With the key, the bits below the
    keys' fields and below the sort columns' (the tiebreak's): rows are in one group, or
    tied, where the key shifted right by them is equal. None when the columns do not fit
    even so (and ``table`` as it was)."""
    given, height = table, table.height
    # (a column null on every row orders nothing)
    packing = [(c, d) for c, d in zip(lead, descending, strict=True)
               if not (c in stats and stats[c][0] is None and stats[c][2] == height)]
    bounds: dict[str, tuple[int, int, int]] = {}
    for c, _ in packing:
        lo, hi, nulls = stats.get(c, (None, None, 1))
        if lo is None or hi is None:  # (not an integer column)
            return given, None
        bounds[c] = (lo, hi, nulls)
    widths = {c: _field_width(*b) for c, b in bounds.items()}
    if sum(widths.values()) > ORDER_BITS:
        # the sort columns of fewest distinct values first (their codes cost least: 319
        # values 22 ms, 306k 109 ms), by an estimate (HyperLogLog: a few ms; the codes
        # give the exact count), each where it narrows the column
        sortable = [c for c, _ in packing if c in narrowable]
        estimates = (table.select(pl.col(c).approx_n_unique() for c in sortable).row(0)
                     if sortable else ())
        for n, c in sorted(zip(estimates, sortable, strict=True)):
            if sum(widths.values()) <= ORDER_BITS:
                break
            if (2 * n + 1).bit_length() >= widths[c]:  # (twice the estimate: its error)
                continue
            codes, distinct = _dense_codes(table.get_column(c))
            coded = (0, distinct - 1, bounds[c][2])
            if _field_width(*coded) >= widths[c]:
                continue
            name = f"__dense_{c}"
            table = table.with_columns(codes.alias(name))
            bounds[name], widths[name] = coded, _field_width(*coded)
            packing = [(name if p == c else p, d) for p, d in packing]
            del widths[c]
        if sum(widths.values()) > ORDER_BITS:
            return given, None
    dtype = pl.Int64 if sum(widths.values()) <= 62 else pl.Int128
    fields = [(c, d, widths[c], bounds[c]) for c, d in packing]
    # (the keys are never coded; a field left out, null on every row, has no bits)
    below_keys = sum(w for c, _, w, _ in fields if c not in lead[:keys])
    tiebreak = fields[-1][2] if fields and fields[-1][0] == lead[-1] else 0
    return table, (_packed_expr(fields, wide, dtype), (below_keys, tiebreak))


def _dense_codes(values: pl.Series) -> tuple[pl.Series, int]:
    """Each value's rank among the distinct values of ``values`` (0 for the least; null
    for null), and how many distinct values there are."""
    # (unique in first-seen order: one hash pass on this thread, where the unordered
    # unique hands the work to the pool; 406k values of 311: 6.4 -> 2.3 ms)
    distinct = values.drop_nulls().unique(maintain_order=True).sort()
    ranks = pl.DataFrame({"_v": distinct, "_r": pl.int_range(distinct.len(), eager=True,
                                                             dtype=pl.Int64)})
    codes = (values.to_frame("_v").join(ranks, on="_v", how="left", maintain_order="left")
             .get_column("_r"))
    return codes, distinct.len()


def _pack_payload(lf: pl.LazyFrame, columns: Sequence[str],
                  stats: dict[str, tuple[int | None, int | None, int]]
                  ) -> tuple[pl.LazyFrame, Callable[[pl.LazyFrame], pl.LazyFrame]]:
    """``columns`` (null-free Int64) replaced by one Int64 ``__payload`` (their
    :func:`~swissframe.engine._exact.bit_fields` up to 62 bits), and the step that restores
    them (the same values, as Int64) from it."""
    layout = bit_fields(columns, stats, limit=62)
    if len(layout.fields) < 2:  # nothing to gain from one column
        return lf, lambda frame: frame
    restore = layout.unpack(pl.col("__payload"))
    packed = lf.with_columns(layout.pack().alias("__payload")).drop(list(restore))
    return packed, lambda frame: frame.with_columns(**restore).drop("__payload")


def _int_stats(table: pl.DataFrame, columns: Sequence[str]
               ) -> dict[str, tuple[int | None, int | None, int]]:
    """Per integer column: min, max and null count, in one pass."""
    row = table.select(*[e for c in columns for e in (
        pl.col(c).min().alias(f"{c}:lo"), pl.col(c).max().alias(f"{c}:hi"),
        pl.col(c).null_count().alias(f"{c}:n"))]).row(0) if columns else ()
    return {c: (None if row[3 * i] is None else int(row[3 * i]),
                None if row[3 * i + 1] is None else int(row[3 * i + 1]), int(row[3 * i + 2]))
            for i, c in enumerate(columns)}


def _as_int64(table: pl.DataFrame, wide: Sequence[str]) -> pl.DataFrame:
    """The Int128 columns ``wide`` whose values all fit Int64 cast to Int64 (the same
    values, so the same order), before their stats: Int128 min and max cost 9-19 ms a
    column on 4M rows, Int64's 3 ms. (A cast that is null where a value does not fit, and
    the null counts compared, tells which fit.)"""
    as64 = [table.get_column(c).cast(pl.Int64, strict=False) for c in wide]
    fit = [s for s, c in zip(as64, wide, strict=True)
           if s.null_count() == table.get_column(c).null_count()]
    return table.with_columns(fit) if fit else table


def _narrow(table: pl.LazyFrame, wide: Sequence[str],
            stats: dict[str, tuple[int | None, int | None, int]]) -> pl.LazyFrame:
    """Int128 sort columns with a value outside Int64 (:func:`_as_int64` took the others)
    cast to UInt64 when they are non-negative and below 2**64 (the same values, so the
    same order)."""
    def below_2_64(c: str) -> bool:
        lo, hi, _ = stats[c]
        return lo is not None and hi is not None and lo >= 0 and hi < 2**64

    unsigned = [c for c in wide if below_2_64(c)]
    return table.with_columns(*[pl.col(c).cast(pl.UInt64) for c in unsigned])


def _packing(lead: Sequence[str], descending: Sequence[bool],
             stats: dict[str, tuple[int | None, int | None, int]]
             ) -> list[tuple[str, bool, int, tuple[int, int, int]]]:
    """The leading columns (keys, then sort columns) that pack into 62 bits: (column,
    descending, width, its (min, max, null count)), up to the first that is not an integer
    column with a value or does not fit. A column with nulls takes one code more, after its
    values (the sort puts nulls last, and a null ties with a null as in the unpacked
    ranking): a rate no player has (OMW% of a player with byes only) would otherwise stop
    the packing at the first tiebreaker, leaving the sort several keys whose ties it
    compares one after another (810k players: 5 keys 229 ms, 4 keys 145 ms)."""
    packed: list[tuple[str, bool, int, tuple[int, int, int]]] = []
    bits = 0
    for c, d in zip(lead, descending, strict=True):
        lo, hi, nulls = stats.get(c, (None, None, 1))
        if lo is None or hi is None:
            break
        width = _field_width(lo, hi, nulls)
        if bits + width > 62:
            break
        packed.append((c, d, width, (lo, hi, nulls)))
        bits += width
    return packed


def _output(ranked: pl.LazyFrame, keys: tuple[str, ...], rules: Ruleset, *,
            in_memory: bool = False) -> pl.DataFrame:
    """The public columns of a ranked table, in their order (``in_memory``: see
    :func:`swissframe._collect.collect`)."""
    # (a selector, not the plan's schema: resolving a large plan's schema in Python costs
    # about a fifth of a millisecond, a few percent of a one-event call)
    return collect(ranked.select(cs.by_name(*_front(keys, rules), require_all=False)),
                   in_memory=in_memory)


def validated(results: Frame, keys: Sequence[str]) -> pl.LazyFrame:
    return _validated_coded(results, keys)[0].lazy()


def _validated_coded(results: Frame, keys: Sequence[str]) -> tuple[pl.DataFrame, IdCodes | None]:
    """The validated table and its id codes (None with extra keys; see
    ``schema.validated_with_codes``)."""
    extra = [k for k in keys if k != "event_id"]
    if isinstance(results, pl.LazyFrame):  # (its plan run once, a failing one named)
        results = read_once(results)
    # (a key column the table lacks: validation's SchemaError, for every analysis)
    frame, codes = validated_with_codes(results, keys=extra)
    return frame, codes


def _compute(lf: pl.LazyFrame, rules: Ruleset, keys: tuple[str, ...],
             cutoffs: pl.LazyFrame | None, *, cumulative: bool = True,
             codes: IdCodes | None = None, own_rounds: bool = False,
             one_query: bool = True, one: bool = False, swiss: bool = False) -> pl.DataFrame:
    """Criteria + ranks. ``cutoffs`` (keys…, _through) asks for one table per cutoff;
    ``cumulative=False`` computes them from repeated rows only (see ``_cutoff_criteria``);
    then ``one_query``: the final standings of a ``snapshot="last_round"`` ruleset in one
    query (:func:`_at_own_last_round`), False the rounds of evaluation joined (the
    reference).
    ``codes``: validation's id codes of ``lf``, row for row (the cumulative path reuses
    them); ignored where the ruleset adds or drops rows first. ``own_rounds``: the cutoffs
    are every round of ``lf``'s Swiss rows (see ``_cumulative_criteria``). ``one``:
    ``lf`` holds one event (and no extra keys), so the final standings rank one group
    (``_group_criteria``, ``_finish``). ``swiss``: every row of ``lf`` is a Swiss row
    (validation counted them: ``IdCodes.swiss``; the rows ``late_rows`` and the inferred
    absences add are), so no plan compares their phases (:func:`_record.swiss_rows`)."""
    if rules.late_rounds != "as_given" or rules.missing_rounds != "not_played":
        codes = None  # late_rows / with_inferred_absences change the rows
    names = lf.collect_schema().names()
    if rules.snapshot == "stage":
        require_stage(rules, names)
    # a disqualified player's values are computed as a dropped player's (their rows count
    # for everyone); only their rank is taken, when ranking
    dq = DISQUALIFIED in names
    lf = with_inferred_absences(late_rows(lf, rules, keys), rules, keys, swiss=swiss)
    has_group = any(c.function in GROUP_TIEBREAKERS for c in rules.criteria)
    if cutoffs is None and rules.snapshot == "final":
        # (the rows' columns known where late_rows leaves them as given)
        ctx = context(lf, rules, keys, columns=absences_columns(names, rules)
                      if rules.late_rounds == "as_given" else None, swiss=swiss)
        # (with group criteria, the plan: the first's windows may run in its query)
        table = _criteria_of(ctx, lazy=True) if has_group else _criteria_of(ctx)
        height = ctx.size if isinstance(table, pl.LazyFrame) else table.height
        if dq:
            grouped = (_group_criteria(table, ctx.rows, rules, keys, one=one, height=height)
                       if has_group else table)  # (the context's rows, materialised)
            table = with_disqualified(_collected(grouped), ctx.rows, ctx.pkeys)
            return _finish(table, keys, rules)
        # (ranked at once where no two players tie before the group criterion: by one
        # sort of the materialised table, not in a query of _finish's)
        ranked = (_group_criteria(table, ctx.rows, rules, keys, one=one, height=height,
                                  final=UNTIED_RANKING) if has_group else table)
        return _finish(ranked, keys, rules, height=height, one=one)
    final_only = cutoffs is None
    if cutoffs is None:
        cutoffs = (swiss_rows(lf, swiss=swiss).group_by(list(keys))
                   .agg(pl.col("round").max().alias(THROUGH)))
    ck = (*keys, THROUGH)
    if rules.snapshot == "final" and not has_group and not final_only and cumulative:
        coded = _cumulative_criteria(lf, rules, keys, cutoffs, codes, own_rounds=own_rounds)
        if coded is not None:
            # ranked on the codes (integer joins and sorts; they order as the values do),
            # decoded once at the end
            # (the decoding only: the grid's base is freed with it)
            ids = coded[1].id_exprs(pl.col("player_id"))
            front = [c for c in _front((*keys, "round"), rules) if c not in keys]
            # (no name left on the whole criteria table: the columns ranking does not read
            # are freed before it runs, and its sort reuses their memory)
            # (no dense codes for one sort key: this ranking's in-memory multi-column sort
            # costs little more than one Int128 key, and the codes of 4M rows much more:
            # 10,000 events, 1,237 -> 1,187 ms CPU for the sort, +310 ms for two codes)
            table = coded[0]
            if dq:  # (read on the decoded ids: the rows carry no codes of the grid's)
                flag = with_disqualified(table.select(THROUGH, **ids), lf,
                                         [*keys, "player_id"], THROUGH)[DISQUALIFIED]
                table = table.with_columns(flag)
            ranked = _rank_table(table.rename({THROUGH: "round"}), rules, ("_e", "round"),
                                 front, dense_codes=False)
            del coded
            # decoded in the ranking's plan (one collect, no copy of the ranked table);
            # one chunk per column, as _decode leaves them
            decoded = ranked.with_columns(**ids).drop("_e")
            return _output(decoded, (*keys, "round"), rules, in_memory=True).rechunk()
    if rules.snapshot == "final":
        table = _cutoff_criteria(lf, rules, keys, cutoffs, cumulative=cumulative)
    elif rules.snapshot == "last_round" and final_only and not cumulative and one_query:
        table, rows, height = _at_own_last_round(lf, rules, keys, swiss=swiss)
        # (the rows at the final cutoff, without it: the context's, materialised)
        grouped = (_group_criteria(table, rows, rules, keys, one=one, height=height)
                   if has_group else table)
        if dq:  # (the rows that stand at the final cutoff: every Swiss row of lf)
            grouped = with_disqualified(_collected(grouped), lf, [*keys, "player_id"])
        return _finish(grouped, keys, rules, height=height, one=one)
    else:
        evals = eval_rounds(lf, rules, keys, cutoffs).pipe(collect)
        needed = evals.select(*keys, pl.col(EVAL).alias(THROUGH)).unique().lazy()
        crit = _cutoff_criteria(lf, rules, keys, needed, cumulative=cumulative)
        table = (evals.lazy()
                 .join(crit.lazy().rename({THROUGH: EVAL}), on=[*keys, EVAL, "player_id"],
                       how="left")
                 .with_columns(dropped=pl.col("_dropped") if rules.snapshot == "last_round"
                               else pl.col("dropped"))
                 .drop(EVAL, "_dropped").pipe(collect))
    height = table.height
    grouped = table
    if has_group:
        prepared = prepare_rows(lf, rules, swiss=swiss)
        # (the rows at each cutoff, lazily: read only by a criterion that needs all of
        # them; the reference reads them for every criterion, the definition)
        grouped = _group_criteria(table, cutoff_rows(prepared, keys, cutoffs), rules, ck,
                                  unrepeated=(prepared, THROUGH) if cumulative else None)
    if dq:
        grouped = with_disqualified(_collected(grouped), lf, [*keys, "player_id"], THROUGH)
    if final_only:
        return _finish(grouped.drop(THROUGH), keys, rules, height=height)
    return _finish(grouped.rename({THROUGH: "round"}), (*keys, "round"), rules,
                   height=height)


def _collected(table: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    return table.pipe(collect) if isinstance(table, pl.LazyFrame) else table


def _at_own_last_round(lf: pl.LazyFrame, rules: Ruleset, keys: tuple[str, ...], *,
                       swiss: bool = False
                       ) -> tuple[pl.DataFrame | pl.LazyFrame, pl.LazyFrame, int | None]:
    """The criteria of each player as of their own last Swiss round (a ruleset's
    ``snapshot="last_round"`` on the final standings), on the repeated rows, with
    ``dropped`` against the event's last round: what ``eval_rounds`` and the join of the
    criteria at the rounds it names give, in one query (the reference, kept for cutoffs:
    ``_compute``'s snapshot branch). Keyed by ``keys`` (no cutoff: every player's table
    row stands at the final one).

    At the final cutoff a player's round of evaluation is their last (a player who played
    the event's last round is evaluated there), so the cutoffs needed are the rounds some
    player played last; a player's row is the one at the cutoff of their own last round,
    the greatest ``last_round`` their records have at any cutoff. With the context's
    prepared rows (materialised) at the final cutoff, without it, for the group criteria:
    they read the rows of the table's players at its cutoff, the final one (a join on the
    player alone, over the final cutoff's rows only: Pokémon's head-to-head had joined
    every cutoff's). ``swiss``: see :func:`_compute`."""
    pk = [*keys, "player_id"]
    needed = (swiss_rows(lf, swiss=swiss).group_by(pk)
              .agg(pl.col("round").max().alias(THROUGH)).select(*keys, THROUGH).unique())
    ctx = context(cutoff_rows(lf, keys, needed), rules, (*keys, THROUGH), swiss=swiss)
    last = pl.col("last_round")
    final = per_group(last.max(), keys)
    table = (_criteria_of(ctx, lazy=True).filter(pl.col(THROUGH) == last.max().over(pk))
             .with_columns((last < final).alias("dropped")).drop(THROUGH))
    through = pl.col(THROUGH)
    rows = ctx.rows.filter(through == per_group(through.max(), keys)).drop(THROUGH)
    # a small table's plan is left to its first reader (a group criterion's windows run
    # in its query): ``packs`` of the repeated record's height, which bounds the table's,
    # then decides as the table's own would
    if packs(ctx.size):
        got = table.pipe(collect)
        return got, rows, got.height
    return table, rows, ctx.size


@overload
def standings(results: Frame, rules: str | Ruleset = ..., *, through_round: int | None = ...,
              keys: Sequence[str] = ..., lazy: Literal[False] = ...) -> pl.DataFrame: ...
@overload
def standings(results: Frame, rules: str | Ruleset = ..., *, through_round: int | None = ...,
              keys: Sequence[str] = ..., lazy: Literal[True]) -> pl.LazyFrame: ...
@scoped
def standings(results: Frame, rules: str | Ruleset = "auto", *, through_round: int | None = None,
              keys: Sequence[str] = (), lazy: bool = False) -> pl.DataFrame | pl.LazyFrame:
    """Standings of every event in ``results`` under a ruleset.

    Parameters
    ----------
    results
        The long results table (see :mod:`swissframe.schema`), DataFrame or LazyFrame.
    rules
        A preset name (``"mtg"``, ``"mtg-1/3"``, …), a :class:`~swissframe.rules.Ruleset`, or
        ``"auto"`` (the default): each event's ``ruleset`` column, which
        :func:`swissframe.read` fills from the data (TRF → the FIDE rules of the start date,
        TOM → ``pokemon``, decklist-cache → the platform's preset; see
        ``docs/inference.md``). A table without a ``ruleset`` column is ranked by ``mtg``,
        as before ``"auto"`` existed.
    through_round
        Standings as they stood after this round (rows of later rounds are ignored). An
        event whose Swiss ended before it gets its final standings (one cutoff serves
        events of different lengths); a round after the last Swiss round of every event is
        a :class:`~swissframe.errors.DataError` (:func:`past_last_round`), as on the
        command line: a typo, or another event meant.
    keys
        Extra key columns besides ``event_id`` (e.g. ``scenario_id``): standings are computed
        independently per key combination, in the same pass.
    lazy
        Return a LazyFrame (over the computed result) instead of a DataFrame.

    Returns
    -------
    DataFrame
        One row per (event_id, keys…, player_id), sorted by rank: ``event_id, player_id, rank,
        match_points, wins, losses, draws, byes, rounds_played, dropped, mwp, gwp, omwp,
        ogwp`` then any further criteria. Percentages are fractions in [0, 1]; players equal
        on every criterion (as exact rationals) share a rank (1, 2, 2, 4).

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": ["A", "C", "A", "B"],
    ...     "player_b": ["B", "D", "C", "D"], "games_a": [2, 2, 2, 1],
    ...     "games_b": [0, 1, 1, 2], "games_drawn": [0, 0, 0, 0]})
    >>> sf.standings(sf.from_matches(m)).select("player_id", "rank", "match_points", "omwp")
    shape: (4, 4)
    ┌───────────┬──────┬──────────────┬───────┐
    │ player_id ┆ rank ┆ match_points ┆ omwp  │
    │ ---       ┆ ---  ┆ ---          ┆ ---   │
    │ str       ┆ i64  ┆ i64          ┆ f64   │
    ╞═══════════╪══════╪══════════════╪═══════╡
    │ A         ┆ 1    ┆ 6            ┆ 0.415 │
    │ C         ┆ 2    ┆ 3            ┆ 0.75  │
    │ D         ┆ 3    ┆ 3            ┆ 0.415 │
    │ B         ┆ 4    ┆ 0            ┆ 0.75  │
    └───────────┴──────┴──────────────┴───────┘
    """
    keys = key_columns(keys)
    check_flag("lazy", lazy)
    if through_round is not None:
        check_through_round(through_round)
        # (the whole input's rounds, before it is split by ruleset: an event of one ruleset
        # may end before the round, and the input still reaches it. A LazyFrame read once)
        if isinstance(results, pl.LazyFrame):
            results = read_once(results)
        past_last_round(results, through_round)
    table = _ruled_standings(results, rules, through_round, keys)
    return table.lazy() if lazy else table


def _ruled_standings(results: Frame, rules: str | Ruleset, through_round: int | None,
                     keys: tuple[str, ...]) -> pl.DataFrame:
    """:func:`standings` of checked arguments: one call per ruleset the data names where
    ``rules`` is ``"auto"``."""
    if is_auto(rules):  # one call per ruleset the data names (rules/_infer.py)
        return run_auto(_ruled_standings, results, through_round=through_round, keys=keys)
    ruleset = get(rules)
    out = None
    if not keys:  # a very large table in batches of events (the same table, in less memory);
        # a large one in two halves at once (10,000 events: 1.34 -> 1.23 s; the bulk row
        # 0.51 -> 0.49x DuckDB: benchmarks/README.md, twenty-third session)
        results, out = batched(
            results, lambda part: _standings(part, ruleset, keys, through_round), halves=True)
    if out is None:
        out = _standings(results, ruleset, keys, through_round)
    return out


def _standings(results: Frame, ruleset: Ruleset, keys: tuple[str, ...],
               through_round: int | None) -> pl.DataFrame:
    """:func:`standings` of one ruleset, the whole of ``results`` in one pass."""
    full, codes = _validated_coded(results, keys)
    k = check_keys(keys)
    ruleset = late_rounds_needed(full, ruleset, k, codes)
    # the coded path first: it decides itself whether one pass keeps every event exact
    # (what _by_scale_group's None says), from the record it computes anyway
    out = None if codes is None else _coded_standings(full, codes, ruleset, through_round)
    if out is None:
        frame = full if through_round is None else full.filter(pl.col("round") <= through_round)
        # (a ruleset taking players at rounds of their own computes criteria at several
        # cutoffs: on running sums where they pay, as standings_by_round)
        out = _by_scale_group(frame, ruleset, k, lambda f: _compute(
            f.lazy(), ruleset, k, None, cumulative=_cumulative_pays(f)),
            bounds=_row_bounds(codes))
        if out is None:  # (one pass; one event ranked as one group)
            one = codes is not None and codes.events.len() == 1
            cumulative = _cumulative_pays(frame)
            if one and codes is not None and _keyless_ok(ruleset, cumulative=cumulative):
                out = _one_event(frame, ruleset, str(codes.events[0]), cumulative=cumulative,
                                 swiss=codes.swiss)
            else:
                out = _compute(frame.lazy(), ruleset, k, None, cumulative=cumulative, one=one,
                               swiss=codes is not None and codes.swiss)
    return out


#: ``_one_event`` (tests compare it with ``_compute`` on the event key: False).
KEYLESS = True

#: One small event's final standings ranked by one sort of the criteria's materialised
#: table where no two players tie before its last group criterion (``_group_criteria``'s
#: ``final``); False: ranked in ``_finish``'s query, the reference the tests compare them
#: with.
UNTIED_RANKING = True


def _keyless_ok(rules: Ruleset, *, cumulative: bool) -> bool:
    """Whether :func:`_one_event` computes ``rules``' final standings: the branches of
    ``_compute`` that take one event without its key — a final snapshot, or a
    ``"last_round"`` one on the repeated rows (:func:`_at_own_last_round`)."""
    return KEYLESS and (rules.snapshot == "final"
                        or (rules.snapshot == "last_round" and not cumulative))


def _one_event(frame: pl.DataFrame, rules: Ruleset, event: str, *, cumulative: bool,
               swiss: bool = False) -> pl.DataFrame:
    """``_compute`` of one event's validated rows (no extra keys) without the event key,
    as the coded path computes one event: every join, group-by, window and sort is keyed
    by the player (and the cutoff) alone; the id is put back on the output, first. The same
    table (Pokémon 64 players: 29.9 -> 28.1 M instructions a call). ``swiss``: see
    :func:`_compute`."""
    out = _compute(frame.lazy().drop("event_id"), rules, (), None, cumulative=cumulative,
                   one=True, swiss=swiss)
    # (a Series repeated from one value: no query, as pl.repeat(eager=True) runs)
    ids = pl.Series("event_id", [event], dtype=pl.String).new_from_index(0, out.height)
    return out.insert_column(0, ids)


def check_through_round(through_round: object) -> None:
    """``through_round`` is a round number ≥ 1 (past an event's last round: its final
    standings, so that one cutoff serves events of different lengths; past every event's:
    :func:`past_last_round`)."""
    if isinstance(through_round, bool) or not isinstance(through_round, numbers.Integral):
        msg = (f"through_round must be a whole round number, got {through_round!r}. "
               "Hint: e.g. through_round=3 (the standings after round 3).")
        raise DataError(msg)
    if through_round < 1:
        msg = f"through_round must be ≥ 1, got {through_round}. Hint: rounds start at 1."
        raise DataError(msg)


def past_last_round(results: Frame, through_round: int, *, flag: str | None = None
                    ) -> list[str]:
    """The one check of a round past the end: a :class:`~swissframe.errors.DataError` where
    ``through_round`` is after the last Swiss round of every event of ``results`` (it would
    silently mean "final": a typo, or another event meant); else the ids of the events
    whose Swiss ended before it, which get their final standings (said as a note by the
    command line). ``flag``: the option the message names (``--through-round``), else the
    argument (``through_round=``). A table whose rounds cannot be read yet (no ``round``
    column, not whole numbers, no Swiss row) is left to validation.

    Examples
    --------
    >>> df = pl.DataFrame({"event_id": ["a", "b"], "round": [9, 5], "phase": ["swiss"] * 2})
    >>> past_last_round(df, 7)
    ['b']
    >>> past_last_round(df, 10, flag="--through-round")
    Traceback (most recent call last):
    ...
    swissframe.errors.DataError: --through-round 10: the Swiss has 9 rounds (the longest of the 2
    events). Hint: pick a round from 1 to 9, or leave --through-round out for the final
    standings.
    """
    schema = results.collect_schema()
    if "round" not in schema or not schema["round"].is_integer():
        return []
    lf = results.lazy()
    if "phase" in schema:
        lf = lf.filter(pl.col("phase").cast(pl.String) == "swiss")
    event = (pl.col("event_id").cast(pl.String) if "event_id" in schema
             else pl.lit("event")).alias("event_id")
    last = lf.group_by(event).agg(pl.col("round").max()).pipe(collect)
    top = last["round"].max()
    if not isinstance(top, int):
        return []
    if through_round > top:
        said = f"{flag} {through_round}" if flag else f"through_round={through_round}"
        where = (f"event {quoted(last['event_id'][0])}" if last.height == 1
                 else f"the longest of the {last.height:,} events")
        pick = "round 1" if top == 1 else f"a round from 1 to {top}"
        msg = (f"{said}: the Swiss has {count(top, 'round')} ({where}). Hint: pick {pick}, or "
               f"leave {flag or 'through_round'} out for the final standings.")
        raise DataError(msg)
    return sorted(last.filter(pl.col("round") < through_round)["event_id"].to_list())


def _row_bounds(codes: IdCodes | None) -> tuple[int, int] | None:
    """Bounds above the rows' largest round number and game count of a row, from
    validation's (:func:`_record.scale_groups`' ``bounds``; a row's three game counts
    each at most the highest), None where it did not find them."""
    if codes is None or codes.rounds is None or codes.games is None:
        return None
    return codes.rounds[1], 3 * codes.games[1]


def _by_scale_group(frame: pl.DataFrame, rules: Ruleset, keys: tuple[str, ...],
                    run: Callable[[pl.DataFrame], pl.DataFrame], *,
                    bounds: tuple[int, int] | None = None) -> pl.DataFrame | None:
    """``run`` once per exact-scale group of events (:func:`_record.scale_groups`, with
    its ``bounds``), the parts stacked in the order one pass gives; None when one pass
    keeps every event exact.

    An event computed alone because its scales may overflow reports its own fallback: the
    :class:`~swissframe.errors.ExactnessWarning` names it, and no other event is touched.
    """
    groups = scale_groups(frame, rules, keys, span=spans_rounds(rules), bounds=bounds)
    if groups is None:
        return None
    parts = []
    fallbacks: list[tuple[str, str]] = []  # (event, its ExactnessWarning)
    for events, alone in groups:
        part = frame.filter(pl.col("event_id").is_in(events.implode()))
        if not alone:
            parts.append(run(part))
            continue
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            parts.append(run(part))
        for w in caught:
            if issubclass(w.category, ExactnessWarning):
                fallbacks.append((str(events[0]), str(w.message)))
            else:
                warnings.warn(w.message, w.category, stacklevel=4)
    for text in _fallback_summary(fallbacks):
        warnings.warn(text, ExactnessWarning, stacklevel=4)
    return pl.concat(parts, how="diagonal_relaxed").sort(list(keys), maintain_order=True)


@contextlib.contextmanager
def fallbacks_named(event_id: object) -> Iterator[None]:
    """The block's :class:`~swissframe.errors.ExactnessWarning` said of ``event_id``, as
    :func:`standings` says an event's (:func:`_fallback_summary`), each once: ``explain``'s
    named no event, and said one fallback once for each mean (bad data 208). Other
    warnings pass as they are."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    said = [str(w.message) for w in caught if issubclass(w.category, ExactnessWarning)]
    for w in caught:
        if not issubclass(w.category, ExactnessWarning):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    for text in _fallback_summary([(str(event_id), t) for t in dict.fromkeys(said)]):
        warnings.warn(text, ExactnessWarning, stacklevel=4)


def _fallback_summary(fallbacks: Sequence[tuple[str, str]]) -> list[str]:
    """The warnings for the events computed alone whose exact scales overflowed: each of
    one event's own, named; for several events one (an archive of long events gave a line
    per event), naming up to five and quoting the first event's first message."""
    events = list(dict.fromkeys(e for e, _ in fallbacks))
    if len(events) <= 1:
        return [f"event {quoted(e)}: {text}" for e, text in fallbacks]
    first, text = fallbacks[0]
    named = ", ".join(map(quoted, events[:5])) + (", …" if len(events) > 5 else "")
    return [f"{len(events)} events ({named}) rank some ties on rounded values; the first, "
            f"event {quoted(first)}: {text}"]


def _coded_ok(rules: Ruleset) -> bool:
    """Rulesets the coded path computes: final snapshot, rows as given, no earned bye as an
    opponent, no inferred absences, and every criterion registered with ``coded=True``."""
    names = {c.function for c in (*rules.criteria, *rules.columns)}
    return (rules.snapshot == "final" and rules.late_rounds == "as_given"
            and rules.earned_bye_opponent is None and rules.missing_rounds == "not_played"
            and opponents_as_met(rules) and names <= set(_CODED_CRITERIA))


def _coded_standings(frame: pl.DataFrame, codes: IdCodes, rules: Ruleset,
                     through_round: int | None) -> pl.DataFrame | None:
    """``_compute`` without extra keys, on the integer id codes validation built.

    A player is one Int64 ``event code · 2**bits + player code`` (opponents alike), so the
    group-bys and the opponents' join are keyed by one integer instead of two strings, and
    the codes order as the ids do, so ranking on them gives the same order; the ids are
    decoded once, on the output rows. None (the caller takes ``_compute``) for rulesets
    outside ``_coded_ok``, codes too wide for 62 bits, or when one pass would not keep
    every event exact (:func:`_record.scale_groups` then splits the events).
    """
    pb = codes.player_bits
    if not _coded_ok(rules) or codes.event_bits + pb > 62:
        return None
    unit = 2**pb
    # one event (the analyst's everyday call): its code is 0, so a player's code is the
    # player's own and no event key is computed, grouped by, sorted or decoded
    one = codes.events.len() == 1
    p, o = pl.col("_p"), pl.col("_o")
    if not one:
        e = pl.col("_e") * unit
        p, o = e + p, e + o
    # lazy: the codes joined to the rows and the prepared rows are part of the two plans
    # that read them (the record and the opponents' sums) instead of queries of their own
    kept = [c for c in frame.columns if c not in ("event_id", "player_id", "opponent_id")]
    rows = pl.concat([frame.lazy().select(kept),
                      select(codes.codes.lazy(), player_id=p, opponent_id=o)],
                     how="horizontal")
    if through_round is not None:
        rows = rows.filter(pl.col("round") <= through_round)
    # (where validation counted Swiss rows only, prepare_rows keeps every row without
    # comparing each row's phase and copying the rows: one half of the 10k bulk table,
    # the record's rows query 59.6 -> 52 ms CPU; one 64-player event, the record's and
    # the criteria's queries a filter each fewer)
    prepared = prepare_rows(rows, rules, columns=[*kept, "player_id", "opponent_id"],
                            swiss=codes.swiss)
    base, where = _record_of(prepared, codes, rules, None if one else unit,
                             seats=through_round is None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scales = rate_scales(base, rules)
    # (the rounds a player played: scale_groups' measure for a ruleset whose scales do not
    # grow with the round numbers, as every coded one)
    top = base["last_round"].max() if spans_rounds(rules) else base["rounds_played"].max()
    # scale_groups' test for one pass (exact scales, no event beyond LONG_ROUNDS); an
    # overflowing scale (its warning caught here) goes to the per-event split, which
    # reports it for the events concerned
    if (caught or not scales.exact()
            or (isinstance(top, int) and top > LONG_ROUNDS)):
        return None
    # the rates materialised: the criteria's plan reads them twice (the players, and the
    # opponents' values of the sums), and a shared lazy subplan costs more than a query
    # (with the opponents' positions among the players found at once: a single-threaded
    # table lookup, _collect.concurrently)
    within = None if one or codes.players.len() != base.height else unit
    players, src = concurrently(
        lambda: _rates(base, rules, scales).pipe(collect, pooled=False),
        lambda: None if where is None else _cumulative.opponent_positions(
            base.get_column("player_id"), where.opponents, unit=within),
        rows=codes.codes.height)
    columns = tuple(players.columns)
    sums = None if where is None or src is None else _seat_opponent_sums(
        players, where, src, rules, scales)
    if sums is not None:  # (beside the players, row for row: see _attach_fused)
        players = players.hstack(sums)
    # the coded criteria read of the rows only who faced whom (tiebreakers._faced): where
    # prepare_rows keeps every row as it is (Swiss rows only, no cutoff), those are the
    # codes' own columns, without the results' beside them and the flags (one 64-player
    # event: those rows as a query of their own 140-150 -> 62-64 µs CPU)
    faced = (select(codes.codes.lazy(), player_id=p, opponent_id=o, _unpaired=o.is_null())
             if codes.swiss and through_round is None else prepared)
    ctx = Context(rows=faced, players=players.lazy(), keys=(), rules=rules,
                  player_columns=columns,
                  rate_scale=scales.rate, game_scale=scales.game, k_max=scales.k_max,
                  size=base.height)
    if sums is not None:
        ctx.cache[OPPONENT_SUMS_KEY] = (ctx.players, None)
    keep = [c for c in _front(("event_id",), rules) if c != "event_id"]
    # only what ranking reads (_rank_table): the join need not gather the other columns
    criteria = _criteria_of(ctx, lazy=True)
    event_key: tuple[str, ...] = ()
    if not one:
        criteria = criteria.with_columns(_e=pl.col("player_id") // unit)
        event_key = ("_e",)
    dq = DISQUALIFIED in frame.columns
    if dq:  # (on the coded rows: a player's code is their player_id there)
        criteria = criteria.join(_disqualified_from(prepared, ["player_id"]), on="player_id",
                                 how="left").with_columns(_dq_flag(None)).drop("_dq_from")
    wanted = dict.fromkeys([*event_key, *keep, *_sort_keys(rules)[0], "player_id"])
    selected = criteria.select(cs.by_name(*wanted, require_all=False))
    # a small table is ranked by the plain sort in the criteria's own plan (one query
    # fewer: one 64-player event 5.6 -> 5.1 ms); a large one is materialised first, for
    # the stats that pack its sort keys (_rank_table)
    ranked_lf = (_rank(selected, rules, event_key, disqualified=dq) if not packs(base.height)
                 else _rank_table(selected.pipe(collect), rules, event_key, keep))
    # the ids decoded in the ranking's plan: one collect for ranking, decoding and output
    ids = pl.lit(codes.players)
    if one:
        ranked = with_columns(ranked_lf, event_id=pl.lit(codes.events[0], dtype=pl.String),
                              player_id=ids.gather(pl.col("player_id")))
    else:
        ranked = with_columns(
            ranked_lf, event_id=pl.lit(codes.events).gather(pl.col("_e")),
            player_id=ids.gather(pl.col("player_id") % unit)).drop("_e")
    return _output(ranked, ("event_id",), rules)


def _record_of(prepared: pl.LazyFrame, codes: IdCodes, rules: Ruleset,
               unit: int | None, *, seats: bool = False
               ) -> tuple[pl.DataFrame, PlayerRows | None]:
    """``aggregate_players`` of the coded rows, with its sums packed into one Int64 on a
    large table whose round and game ranges the checks measured
    (:class:`~swissframe.engine._record.SumBounds`); the same record. ``unit``: see
    ``aggregate_players``' ``event_unit`` (None: one event).

    ``seats``: ``prepared`` holds every row of the codes' table, so that validation's
    sorted seats (``codes.seats``), where it kept them, give the record without a
    group-by (:func:`~swissframe.engine._record.seat_record`: sorted by player, with
    where each player's rows are, which :func:`_seat_opponent_sums` reads; 10,000
    events, 3.7M rows, both together: a call 3.19 -> 2.50 s CPU at load 6)."""
    rounds, games = codes.rounds, codes.games
    first = spans_rounds(rules)  # (the first round: only a round-span scale reads it)
    if packs(codes.codes.height) and rounds is not None and games is not None:
        bounds = SumBounds(rounds=rounds[1] - rounds[0] + 1,
                           games=game_range(rules, *games))
        points = points_of_counts(rules)
        if seats and codes.seats is not None:
            got = seat_record(prepared, codes.seats, bounds, event_unit=unit,
                              first_round=first, points=points)
            if got is not None and bounds.held(got[0]):
                return got
        base = aggregate_players(prepared, (), event_unit=unit, packed=bounds,
                                 first_round=first, points=points).pipe(collect)
        if bounds.held(base):
            return base, None
    return (aggregate_players(prepared, (), event_unit=unit, first_round=first).pipe(collect),
            None)


def _seat_opponent_sums(players: pl.DataFrame, where: PlayerRows, src: pl.Series,
                        rules: Ruleset, scales: RateScales) -> pl.DataFrame | None:
    """The opponents' base sums (``tiebreakers._base_opponent_sums``' ``_t_<s>``,
    ``_k_<s>``), row for row with ``players`` (a :func:`seat_record`'s, sorted by
    ``player_id``), from where each player's rows are: each faced row's opponent found
    by position among the players (``src``: :func:`_cumulative.opponent_positions`), their values
    summed over each player's run of rows (:func:`_cumulative.segment_opponent_sums`) —
    no join onto the opponents, no group-by, and no join of the sums back onto the
    players. None (the join) where a mean would fall back to rounded floats (which reads
    the floats' means) or a sum could overflow."""
    if not all(_mean_columns(scale, scales.k_max, rules.floor)[2].fits()
               for scale in (scales.rate, scales.game)):
        return None
    met = players.get_column("opponents")
    sums = _cumulative.segment_opponent_sums(
        players, ["player_id"], {"mwp_opp": scales.rate.scale, "gwp_opp": scales.game.scale},
        src, met)
    if sums is None:
        return None
    # (a player who faced nobody has no sums, as the join gives: null)
    names = [f"_{x}_{s}" for s in BASE_SOURCES for x in ("t", "k")]
    return (sums.with_columns(met.alias("__met"))
            .select(pl.when(pl.col("__met") > 0).then(pl.col(n)).alias(n) for n in names)
            .pipe(collect))


@scoped
def standings_by_round(results: Frame, rules: str | Ruleset = "auto", *,
                       keys: Sequence[str] = (), lazy: bool = False
                       ) -> pl.DataFrame | pl.LazyFrame:
    """Standings after every Swiss round, in one vectorized pass (a ``round`` key column).

    Equivalent to ``standings(results, rules, through_round=r)`` for each round ``r`` of each
    event, stacked — computed at once: each player's record from running sums over their
    rounds, the opponents' means by gathering the opponents' values at each cutoff
    (rulesets whose criteria read the rows per cutoff repeat each row for every later
    cutoff instead). ``rules="auto"`` as in :func:`standings`.

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": ["A", "C", "A", "B"],
    ...     "player_b": ["B", "D", "C", "D"], "games_a": [2, 2, 2, 1],
    ...     "games_b": [0, 1, 1, 2], "games_drawn": [0, 0, 0, 0]})
    >>> by = sf.standings_by_round(sf.from_matches(m))
    >>> by.filter(pl.col("player_id") == "A").select("round", "rank", "match_points")
    shape: (2, 3)
    ┌───────┬──────┬──────────────┐
    │ round ┆ rank ┆ match_points │
    │ ---   ┆ ---  ┆ ---          │
    │ i64   ┆ i64  ┆ i64          │
    ╞═══════╪══════╪══════════════╡
    │ 1     ┆ 1    ┆ 3            │
    │ 2     ┆ 1    ┆ 6            │
    └───────┴──────┴──────────────┘
    """
    check_flag("lazy", lazy)
    out = (run_auto(_by_round, results, keys=keys) if is_auto(rules)  # (keys: in _by_round)
           else _by_round(results, rules, keys))
    return out.lazy() if lazy else out


#: ``standings_by_round`` takes the running-sums path (``_cumulative``) from this many
#: repeated rows (what the reference path would build, :func:`_cumulative_pays`); below
#: it the repeated rows are faster: 64 players 24 -> 13 ms, 256 players 30 -> 17 ms,
#: 15,363 rows of 40 events (≈ 75,000 repeated) 50 -> 45 ms, while 81,621 rows of 200
#: events (≈ 400,000) take 107 ms on running sums against 129 ms. The same holds for
#: ``standings`` under Pokémon's drop-round snapshot: one event 29 -> 15 ms, 20 events
#: (≈ 44,000 repeated) 40 -> 29 ms; 50 events (≈ 89,000) 50 against 52 ms; 400 events
#: 213 against 327 ms.
CUMULATIVE_MIN_ROWS = 100_000


def _cumulative_pays(frame: pl.DataFrame) -> bool:
    """Whether the running sums beat the repeated rows on ``frame``, whose rows would be
    repeated about ``(last round + 1) / 2`` times each (once per cutoff at or after them)."""
    top = frame.get_column("round").max()
    repeated = frame.height * ((int(top) if isinstance(top, int) else 0) + 1) // 2
    return repeated >= CUMULATIVE_MIN_ROWS


def _by_round(results: Frame, rules: str | Ruleset, keys: Sequence[str], *,
              cumulative: bool | None = None) -> pl.DataFrame:
    """``standings_by_round``; ``cumulative=False`` is the repeated-rows reference path,
    ``True`` the running sums wherever the ruleset allows, None (the default) the faster
    of the two for the input's size (:func:`_cumulative_pays`); all give the same table."""
    ruleset = get(rules)
    keys = key_columns(keys)
    out = None
    if not keys:  # a very large table in batches of events, as in standings; a large one
        # in two halves at once: many of the running sums' steps run on one thread
        # (10,000 events, 3.7M rows: 4.3 -> 3.6 s, peak RSS +0.4 GiB: benchmarks/README.md,
        # twenty-third session)
        results, out = batched(
            results, lambda part: _by_round_of(part, ruleset, keys, cumulative=cumulative),
            halves=True)
    return _by_round_of(results, ruleset, keys, cumulative=cumulative) if out is None else out


def _by_round_of(results: Frame, ruleset: Ruleset, keys: tuple[str, ...], *,
                 cumulative: bool | None) -> pl.DataFrame:
    """:func:`_by_round` of one ruleset, the whole of ``results`` in one pass."""
    frame, codes = _validated_coded(results, keys)
    k = check_keys(keys)
    ruleset = late_rounds_needed(frame, ruleset, k, codes)
    if cumulative is None:
        cumulative = _cumulative_pays(frame)

    def run(part: pl.DataFrame, codes: IdCodes | None = None) -> pl.DataFrame:
        lf = part.lazy()
        rounds = (lf.filter(pl.col("phase") == "swiss").select(*k, "round").unique()
                  .rename({"round": THROUGH}))
        return _compute(lf, ruleset, k, rounds, cumulative=cumulative, codes=codes,
                        own_rounds=True)

    out = _by_scale_group(frame, ruleset, k, run)
    # the whole validated frame: its id codes apply row for row
    return run(frame, codes) if out is None else out
