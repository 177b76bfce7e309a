"""Cut status before the final round: a sound status per own outcome (:func:`cut_status`).

Outcome model
-------------
Every match of the analysed round ends in one of the outcomes of ``outcomes`` (default the
ruleset's ``match_outcomes``: a card game's 2-0, 2-1, 1-2, 0-2 and the intentional draw
0-0-3, MTR §2.5; a chess game's win, loss or draw); a bye is a win (2-0 in a card game); a
player missing from the pairings dropped (their record freezes). Probabilities are shares
of scenarios in which each match's outcome is drawn independently with ``weights``
(uniform by default: every outcome equally likely, so a card-game seat wins 2/5, draws
1/5, loses 2/5, a chess seat each 1/3). Events
whose scenario count is at most ``exact_limit`` are enumerated exhaustively and their
probabilities are exact weighted shares; larger events are sampled (``n_sims``).

Soundness
---------
A status is "guaranteed" / "eliminated" only when it is proved: by the ruleset's first
ranking key alone (match points, or match wins for Star Wars: Unlimited, each outcome
scored with the ruleset's own points, game points and sweep bonus), by the exact
per-outcome tiebreaker ranges of :func:`~swissframe.cut.next_round_ranges` (a player ``x``
can finish at or above ``p`` only if ``x``'s best case beats ``p``'s worst case, and the two
seats of one match are counted jointly), or by exhaustive enumeration. Each game score an
outcome can end in is decided on its own; the outcome is decided when all of them are, the
same way.

Scenarios are evaluated by the fast model (:mod:`swissframe.cut._scenarios`) where it
reproduces the engine, else by :func:`swissframe.standings.standings` per scenario key (the
definition).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

import polars as pl

from swissframe._collect import scoped
from swissframe.cut._round import (
    KEY,
    OUTCOME_ORDER,
    PAIRINGS_MADE_BY,
    UNKNOWN_HI,
    UNKNOWN_LO,
    Frame,
    RoundFrame,
    criteria_bounds,
    disqualified_in,
    enumerate_assignments,
    make_cut_flags,
    outcome_table,
    per_exact_group,
    ranges_by_seat,
    sample_assignments,
    unit_table,
)
from swissframe.cut._scenarios import (
    ROW_BUDGET,
    chunk_scenarios,
    fast_model,
    scenario_chunks,
    scenario_rows,
)
from swissframe.engine._record import points_unit, ranking_keys
from swissframe.errors import check_flag, check_seed, check_top, check_whole
from swissframe.rules._ruleset import Ruleset, get
from swissframe.schema import DISQUALIFIED, as_lazy

__all__ = ["cut_status", "status_summary"]


def status_words(status: str | None, p: float | None, exact: bool | None) -> str:
    """A status of :func:`cut_status` (one player, one outcome) in words, the one reading
    the command line's player table and the report's draw advice share: ``in``, ``out``,
    ``possible, 60%``, ``possible, ~0%`` (``exact`` False: simulated, or not proved: a
    share that rounds to 0 or 100 is not a certainty), ``possible`` (no probability);
    ``""`` without a status.

    >>> [status_words("guaranteed", 1.0, True), status_words("eliminated", 0.0, True),
    ...  status_words("possible", 0.6, True), status_words("possible", 0.0, False),
    ...  status_words("possible", 1.0, False), status_words("possible", None, False)]
    ['in', 'out', 'possible, 60%', 'possible, ~0%', 'possible, ~100%', 'possible']
    """
    if status is None:
        return ""
    if status == "guaranteed":
        return "in"
    if status == "eliminated":
        return "out"
    return possible_words(p, exact=exact)


def possible_words(p: float | None, *, exact: bool | None = True) -> str:
    """A ``possible`` status with its probability in words (:func:`status_words`):
    ``possible, 60%``, ``possible, ~12%`` (simulated, or not
    proved), never ``0%`` or ``100%`` (a possible status is neither: ``<1%``, ``>99%``),
    ``possible`` without a probability.

    >>> [possible_words(0.6), possible_words(0.123, exact=False), possible_words(0.999),
    ...  possible_words(0.0, exact=False), possible_words(None)]
    ['possible, 60%', 'possible, ~12%', 'possible, >99%', 'possible, ~0%', 'possible']
    """
    if p is None:
        return "possible"
    pct = round(100 * p)
    if 0 < p < 1 and pct in (0, 100):
        return f"possible, {'<1' if pct == 0 else '>99'}%"
    return f"possible, {'' if exact else '~'}{pct}%"


#: Record columns of a seat row that a first ranking key may be (exact integers).
_PRIMARY: Final = {"match_points": "_pts", "match_wins": "wins", "game_wins": "games_won"}


def _primary(rules: Ruleset) -> pl.Expr:
    """The first ranking key as a seat-row column ("P"), where it is an own integer of the
    record ranked descending (match points, or match wins for Star Wars: Unlimited); else
    a constant, so that every criterion is bounded by ranges instead."""
    name, fn, desc = ranking_keys(rules)[0] if ranking_keys(rules) else ("", "", False)
    crit = {c.name: c for c in rules.criteria}.get(name)
    col = _PRIMARY.get(fn)
    if col is None or not desc or (crit is not None and crit.params):
        return pl.lit(0, dtype=pl.Int64)
    return pl.col(col).cast(pl.Int64)


def _status_rows(table: pl.DataFrame, rules: Ruleset) -> tuple[pl.DataFrame, list[str]]:
    """Seat rows with the first key ``P`` and goodness bounds ``_lo<i>`` / ``_hi<i>`` of
    the criteria after it (one row per player and outcome ``k`` of the player's unit)."""
    primary_is_key = not _primary(rules).meta.is_literal()
    bounds = criteria_bounds(rules, skip_first=primary_is_key)
    names = [str(i) for i in range(len(bounds))]
    # a player who dropped is ranked by the values of their drop round (Pokémon) or stage
    # end (melee.gg) where the snapshot is not final: the final-round ranges do not bound them
    frozen = (pl.col("level") == "dropped") if rules.snapshot != "final" else pl.lit(value=False)
    lo_unknown = pl.lit(UNKNOWN_LO, dtype=pl.Int128)
    hi_unknown = pl.lit(UNKNOWN_HI, dtype=pl.Int128)
    primary = _primary(rules)
    if DISQUALIFIED in table.columns:
        # a disqualified player is below everyone on the first key: never at or above
        # another player (removed from the standings); their own status is "eliminated"
        # (_round_status)
        primary = pl.when(pl.col(DISQUALIFIED)).then(pl.lit(_BELOW_ALL)).otherwise(primary)
    seats = table.with_columns(
        *(pl.when(frozen).then(lo_unknown).otherwise(lo).alias(f"_lo{i}")
          for i, (_, lo, _) in zip(names, bounds, strict=True)),
        *(pl.when(frozen).then(hi_unknown).otherwise(hi).alias(f"_hi{i}")
          for i, (_, _, hi) in zip(names, bounds, strict=True)),
        P=primary,
        outcome=pl.when(pl.col("level") == "bye").then(pl.lit("win")).otherwise("level"))
    return seats, names


#: The first key of a disqualified player's seat rows: below every player's points.
_BELOW_ALL: Final = -(2**62)


def _points_pass(seats: pl.DataFrame) -> pl.DataFrame:
    """Per seat row: how many players can be / surely are at or above it on ``P`` alone,
    decomposed by unit (exact for ``P``): ``ge_total``, ``gt_total``; ``NT_GE`` / ``NT_GT``
    the same over the units where no outcome ties it (for :func:`_range_pass`)."""
    cand = seats.select("event_id", pl.col("P").alias("_cp")).unique()
    per_uk = (seats.select("event_id", "unit", "k", "P")
              .join(cand, on="event_id")
              .group_by("event_id", "_cp", "unit", "k")
              .agg(ge=(pl.col("P") >= pl.col("_cp")).sum(),
                   gt=(pl.col("P") > pl.col("_cp")).sum(),
                   touch=(pl.col("P") == pl.col("_cp")).any()))
    per_u = per_uk.group_by("event_id", "_cp", "unit").agg(
        ge_max=pl.col("ge").max(), gt_min=pl.col("gt").min(), touch=pl.col("touch").any())
    tot = per_u.group_by("event_id", "_cp").agg(
        GE=pl.col("ge_max").sum(), GT=pl.col("gt_min").sum(),
        NT_GE=pl.col("ge_max").filter(~pl.col("touch")).sum(),
        NT_GT=pl.col("gt_min").filter(~pl.col("touch")).sum())
    # own unit: the player's outcome k is fixed, and so is the other seat's
    me = seats.with_columns(_cp=pl.col("P"))
    return (me.join(tot, on=["event_id", "_cp"])
            .join(per_u.select("event_id", "_cp", "unit", "ge_max", "gt_min"),
                  on=["event_id", "_cp", "unit"])
            .join(per_uk.select("event_id", "_cp", "unit", "k", pl.col("ge").alias("own_ge"),
                                pl.col("gt").alias("own_gt")),
                  on=["event_id", "_cp", "unit", "k"])
            .with_columns(ge_total=pl.col("GE") - pl.col("ge_max") + pl.col("own_ge"),
                          gt_total=pl.col("GT") - pl.col("gt_min") + pl.col("own_gt"))
            .drop("_cp"))


def _tuple_ranks(frames: list[pl.DataFrame], names: list[str]) -> pl.DataFrame:
    """Every bound tuple of ``frames`` (columns ``_b0 …``, one per criterion) -> ``_r``, a
    dense rank in lexicographic order: ``a ≥ b`` lexicographically iff ``_r(a) ≥ _r(b)``
    (no criteria: every tuple ties, rank 0)."""
    cols = [f"_b{i}" for i in names]
    tuples = pl.concat([f.select(cols) for f in frames]).unique()
    if not cols:
        return tuples.with_columns(_r=pl.lit(0, dtype=pl.Int64))
    return tuples.with_columns(_r=pl.struct(cols).rank("dense").cast(pl.Int64))


def _ranked(frame: pl.DataFrame, ranks: pl.DataFrame, prefix: str, names: list[str],
            alias: str) -> pl.DataFrame:
    """``frame`` with the rank (:func:`_tuple_ranks`) of its tuple ``prefix<i> …`` as
    ``alias``."""
    cols = [f"{prefix}{i}" for i in names]
    if not cols:
        return frame.with_columns(pl.lit(0, dtype=pl.Int64).alias(alias))
    return frame.join(ranks.rename({f"_b{i}": f"{prefix}{i}" for i in names}
                                   | {"_r": alias}), on=cols, how="left")


def _unit_counts(rows: pl.DataFrame, value: str, keys: list[str], *, best: bool
                 ) -> tuple[pl.DataFrame, pl.DataFrame]:
    """One unit's count of seats at or above a threshold ``t``, as a step function of ``t``.

    A seat of outcome ``k`` counts when it is strictly ahead on points (``_xp > _cp``), or
    level (``_xp == _cp``) with ``value ≥ t``; the unit's count is the max (``best``) or
    min over its outcomes. It only changes at the values of its level seats: returned as
    ``keys…, _f_inf`` (the count above every value) and the steps ``keys…, _t, _d`` (the
    count at ``t`` minus the count at the next larger step), so that the count at any
    ``t`` is ``_f_inf`` plus the ``_d`` of the steps at or above ``t``.
    """
    ahead, level = pl.col("_xp") > pl.col("_cp"), pl.col("_xp") == pl.col("_cp")

    def agg(c: str) -> pl.Expr:
        return pl.col(c).max() if best else pl.col(c).min()

    unit = [*keys, "unit"]
    f_inf = (rows.group_by(*unit, "k").agg(_c=ahead.sum().cast(pl.Int64))
             .group_by(unit).agg(agg("_c").alias("_f_inf")))
    steps = rows.filter(level).select(*unit, pl.col(value).alias("_t")).unique()
    counted = ahead | (level & (pl.col(value) >= pl.col("_t")))
    at_step = (steps.join(rows, on=unit)
               .group_by(*unit, "_t", "k").agg(_c=counted.sum().cast(pl.Int64))
               .group_by(*unit, "_t").agg(agg("_c").alias("_f")))
    deltas = (at_step.join(f_inf, on=unit)
              .sort(*unit, "_t")
              .with_columns(_next=pl.col("_f").shift(-1).over(unit))
              .select(*unit, "_t", _d=pl.col("_f") - pl.coalesce("_next", "_f_inf")))
    return f_inf, deltas


def _counts_at(steps: tuple[pl.DataFrame, pl.DataFrame], queries: pl.DataFrame,
               keys: list[str], threshold: str, out: str) -> pl.DataFrame:
    """Per row of ``queries`` (``keys…`` and ``threshold``): the sum over every unit of
    its count at the threshold (``steps``: :func:`_unit_counts`), by one sort of steps
    and queries."""
    f_inf, deltas = steps
    base = f_inf.group_by(keys).agg(_base=pl.col("_f_inf").sum())
    at = deltas.group_by(*keys, "_t").agg(pl.col("_d").sum()).with_columns(
        _q=pl.lit(0, dtype=pl.Int64))
    asks = queries.select(*keys, pl.col(threshold).alias("_t")).unique().with_columns(
        _d=pl.lit(0, dtype=at.schema["_d"]), _q=pl.lit(1, dtype=pl.Int64))
    # descending thresholds, a step before a query at the same value: the running sum at
    # a query is the sum of the steps at or above its threshold
    summed = (pl.concat([at.select(asks.columns), asks])
              .sort(*keys, "_t", "_q", descending=[False] * len(keys) + [True, False])
              .with_columns(_s=pl.col("_d").cum_sum().over(keys))
              .filter(pl.col("_q") == 1)
              .join(base, on=keys, how="left")
              .select(*keys, pl.col("_t").alias(threshold),
                      (pl.col("_base").fill_null(0) + pl.col("_s")).alias(out)))
    return queries.join(summed, on=[*keys, threshold], how="left")


def _range_pass(seats: pl.DataFrame, cand: pl.DataFrame, names: list[str]) -> pl.DataFrame:
    """Refined counts with tiebreaker ranges for the seat rows in ``cand``.

    Per candidate (a player's outcome ``k`` at points ``cp``), over the units where some
    outcome puts a seat at ``cp``: ``t_poss`` sums each unit's most seats that can finish
    at or above the candidate (ahead on points, or level with upper bounds ≥ its lower
    bounds), ``t_cert`` each unit's fewest seats that surely do (lower bounds ≥ its upper
    bounds); the candidate's own unit counts only its other seat, in outcome ``k``.

    Each unit's count is a step function of the candidate's bound tuple (ranked once,
    :func:`_tuple_ranks`), summed over the units by one sort per points level, so the
    cost is linear in the seats and candidates (comparing every candidate with every
    seat at its points, the reference in ``tests/cut/test_status.py``, grew with their
    product: 1 GB at 5,000 players before round 5).
    """
    keys = ["event_id", "_cp"]
    touching = (seats.select("event_id", "unit", _cp=pl.col("P")).unique()
                .join(cand.select("event_id", _cp=pl.col("P")).unique(), on=keys, how="semi"))
    rows = (seats.select("event_id", "unit", "k", pl.col("player_id").alias("_x"),
                         pl.col("P").alias("_xp"),
                         *(pl.col(f"_lo{i}").alias(f"_l{i}") for i in names),
                         *(pl.col(f"_hi{i}").alias(f"_h{i}") for i in names))
            .join(touching, on=["event_id", "unit"]))
    c = cand.select("event_id", "player_id", pl.col("unit").alias("_up"),
                    pl.col("k").alias("_pk"), pl.col("P").alias("_cp"),
                    *(pl.col(f"_lo{i}").alias(f"_pl{i}") for i in names),
                    *(pl.col(f"_hi{i}").alias(f"_ph{i}") for i in names))
    ranks = _tuple_ranks([rows.select(pl.col(f"_l{i}").alias(f"_b{i}") for i in names),
                          rows.select(pl.col(f"_h{i}").alias(f"_b{i}") for i in names),
                          c.select(pl.col(f"_pl{i}").alias(f"_b{i}") for i in names),
                          c.select(pl.col(f"_ph{i}").alias(f"_b{i}") for i in names)], names)
    rows = (_ranked(_ranked(rows, ranks, "_l", names, "_rl"), ranks, "_h", names, "_rh")
            .select("event_id", "_cp", "unit", "k", "_x", "_xp", "_rl", "_rh"))
    c = (_ranked(_ranked(c, ranks, "_pl", names, "_tpl"), ranks, "_ph", names, "_tph")
         .select("event_id", "player_id", "_up", "_pk", "_cp", "_tpl", "_tph"))
    # every unit at the candidate's points: poss counts upper bounds ≥ the candidate's lower
    # bounds (the unit's best outcome), cert lower bounds ≥ its upper bounds (the worst)
    c = _counts_at(_unit_counts(rows, "_rh", keys, best=True), c, keys, "_tpl", "_all_poss")
    c = _counts_at(_unit_counts(rows, "_rl", keys, best=False), c, keys, "_tph", "_all_cert")
    # the own unit: those sums hold its count over every outcome; it counts only the other
    # seat, in the candidate's outcome
    ahead, level = pl.col("_xp") > pl.col("_cp"), pl.col("_xp") == pl.col("_cp")
    poss = ahead | (level & (pl.col("_rh") >= pl.col("_tpl")))
    cert = ahead | (level & (pl.col("_rl") >= pl.col("_tph")))
    own = (c.select("event_id", "player_id", "_up", "_pk", "_cp", "_tpl", "_tph")
           .join(rows.rename({"unit": "_up"}), on=[*keys, "_up"])
           .group_by("event_id", "player_id", "_pk", "k")
           .agg(poss=poss.sum(), cert=cert.sum(),
                o_poss=(poss & (pl.col("_x") != pl.col("player_id"))).sum(),
                o_cert=(cert & (pl.col("_x") != pl.col("player_id"))).sum(),
                mine=(pl.col("k") == pl.col("_pk")).any())
           .group_by("event_id", "player_id", "_pk")
           .agg(u_poss=pl.col("poss").max(), u_cert=pl.col("cert").min(),
                o_poss=pl.col("o_poss").filter("mine").sum(),
                o_cert=pl.col("o_cert").filter("mine").sum()))
    return (c.join(own, on=["event_id", "player_id", "_pk"], how="left")
            .select("event_id", "player_id", pl.col("_pk").alias("k"),
                    t_poss=pl.col("_all_poss") - pl.col("u_poss") + pl.col("o_poss"),
                    t_cert=pl.col("_all_cert") - pl.col("u_cert") + pl.col("o_cert")))


def _status(ge: pl.Expr, gt: pl.Expr, top: int) -> pl.Expr:
    """guaranteed when at most ``top`` players (the player included) can be at or above;
    eliminated when at least ``top`` others are surely above."""
    return (pl.when(ge <= top).then(pl.lit("guaranteed")).when(gt >= top)
            .then(pl.lit("eliminated")).otherwise(pl.lit("possible")))


def _bounded_status(table: pl.DataFrame, rules: Ruleset, top: int) -> pl.DataFrame:
    """Per (player, outcome): the status proved by points and ranges, with ``P`` the
    outcome's match points (the fewest, where its game scores score differently)."""
    seats, names = _status_rows(table, rules)
    st = _points_pass(seats).with_columns(status=_status(pl.col("ge_total"),
                                                         pl.col("gt_total"), top),
                                          method=pl.lit("points"))
    undecided = st.filter(pl.col("status") == "possible")
    if undecided.height:
        ref = (_range_pass(seats, undecided, names)
               .join(undecided.select(*KEY, "k", "NT_GE", "NT_GT"), on=[*KEY, "k"],
                     how="right")
               .select(*KEY, "k", _status(pl.col("NT_GE") + pl.col("t_poss").fill_null(0) + 1,
                                          pl.col("NT_GT") + pl.col("t_cert").fill_null(0),
                                          top).alias("_s2")))
        st = (st.join(ref, on=[*KEY, "k"], how="left")
              .with_columns(
                  method=pl.when(pl.col("_s2").is_not_null() & (pl.col("_s2") != "possible"))
                  .then(pl.lit("ranges")).otherwise("method"),
                  status=pl.coalesce("_s2", "status")).drop("_s2"))
    # an outcome is decided when every game score it can end in is, the same way
    return (st.group_by(*KEY, "outcome")
            .agg(pl.col("_pts").min().alias("P"),
                 pl.when(pl.col("status").n_unique() == 1).then(pl.col("status").first())
                 .otherwise(pl.lit("possible")).alias("status"),
                 pl.when(pl.col("method") == "ranges").then(1).otherwise(0).max()
                 .alias("_ranges"))
            .select(*KEY, "outcome", "P", "status",
                    pl.when((pl.col("status") != "possible") & (pl.col("_ranges") == 1))
                    .then(pl.lit("ranges")).otherwise(pl.lit("points")).alias("method")))


#: ``(assignment, top, who) -> event_id, scenario_id, player_id, makes_cut[, rank]`` for the
#: players in ``who`` (``event_id, player_id``; None = everyone).
FlagFn = Callable[[pl.DataFrame, int, pl.DataFrame | None], pl.DataFrame]


def _flag_function(rf: RoundFrame) -> tuple[FlagFn, bool]:
    """Cut flags per scenario: the fast path when it models the ruleset, else the engine.

    Both give identical flags (``tests/test_cut.py`` compares them); the engine path
    (:func:`make_cut_flags`, one standings run over prior rounds + the scenario's round) is
    the definition and stays the fallback for rulesets the fast path does not model
    (:func:`swissframe.cut._scenarios.fast_unsupported`: Pokémon drop snapshots, OOMW%,
    group-aware criteria, …). Returns the function and whether it is the fast path.
    """
    model = fast_model(rf)
    if model is not None:
        def fast(assign: pl.DataFrame, top: int, who: pl.DataFrame | None) -> pl.DataFrame:
            return model.flags(assign, top, who=who)

        return fast, True

    def engine(assign: pl.DataFrame, top: int, who: pl.DataFrame | None) -> pl.DataFrame:
        flags = make_cut_flags(rf, assign, top)
        return flags if who is None else flags.join(who, on=KEY, how="semi")

    return engine, False


def _scenario_parts(rf: RoundFrame, assign: pl.DataFrame, top: int, flags_of: FlagFn, *,
                    weighted: bool, who: pl.DataFrame | None) -> pl.DataFrame:
    """Per (player, outcome) over one chunk of scenarios: all / any make the cut, the
    (weighted) number of scenarios making it ``_hw`` out of ``_w``, and ``_n`` scenarios.

    Enumerated scenarios are weighted by their probability; sampled ones are not (the
    sampling already follows the weights) and count 1 each, so Monte Carlo shares are
    ratios of integers whatever the chunking. Rows are summed in a fixed order so both
    paths give bit-identical shares.
    """
    flags = flags_of(assign, top, who)
    # the chance of a place: 1 / 0 by ``makes_cut``, a share where a tie the ruleset breaks
    # by lot straddles the line (:func:`make_cut_flags`)
    chance = (pl.col("chance") if "chance" in flags.columns
              else pl.col("makes_cut").cast(pl.Float64).alias("chance"))
    flags = flags.select("event_id", "scenario_id", "player_id", "makes_cut", chance)
    seats = rf.seats.select("event_id", "unit", "k", "player_id", "level")
    if who is not None:
        seats = seats.join(who, on=KEY, how="semi")
    lvl = (assign.join(seats, on=["event_id", "unit", "k"])
           .with_columns(outcome=pl.when(pl.col("level") == "bye").then(pl.lit("win"))
                         .otherwise("level")).drop("level", "unit", "k"))
    j = flags.join(lvl, on=["event_id", "scenario_id", "player_id"])
    if weighted:
        w = rf.outcomes.select("k", pl.col("weight").log().alias("_lw"))
        sw = (assign.join(unit_table(rf).filter(pl.col("n_k") > 1), on=["event_id", "unit"])
              .join(w, on="k").group_by("event_id", "scenario_id")
              .agg(pl.col("_lw").sum().exp().alias("_sw")))
        j = (j.join(sw, on=["event_id", "scenario_id"], how="left")
             .with_columns(pl.col("_sw").fill_null(1.0)))
        hit = pl.col("_sw") * pl.col("chance")
    else:
        j = j.with_columns(_sw=pl.lit(1, dtype=pl.Int64))
        hit = pl.col("chance")
    return (j.sort(*KEY, "outcome", "scenario_id")
            .group_by(*KEY, "outcome", maintain_order=True)
            .agg(_all=pl.col("makes_cut").all(), _any=(pl.col("chance") > 0).any(),
                 _hw=hit.sum(), _w=pl.col("_sw").sum(), _n=pl.len()))


def _combine(parts: list[pl.DataFrame]) -> pl.DataFrame:
    """Chunk aggregates -> per (player, outcome): ``_all, _any``, the share ``_p`` (from the
    summed ``_hw / _w``) and ``_n``."""
    return (pl.concat(parts).group_by(*KEY, "outcome", maintain_order=True)
            .agg(pl.col("_all").all(), pl.col("_any").any(), pl.col("_hw", "_w", "_n").sum())
            .with_columns(_p=pl.col("_hw") / pl.col("_w")))


def _scenario_status(rf: RoundFrame, assign: pl.DataFrame, top: int,
                     flags_of: FlagFn | None = None, *, weighted: bool = True,
                     who: pl.DataFrame | None = None) -> pl.DataFrame:
    """Per (player, outcome) over the given scenarios: any/all makes the cut, weighted share.

    Scenarios are processed in chunks (:func:`scenario_chunks`) so memory stays bounded.
    """
    fn = flags_of if flags_of is not None else _flag_function(rf)[0]
    return _combine([_scenario_parts(rf, a, top, fn, weighted=weighted, who=who)
                     for a in scenario_chunks(rf, assign)])


@scoped
def cut_status(results: Frame, pairings: Frame, top: int = 8, rules: str | Ruleset = "mtg",
               *, outcomes: Sequence[tuple[int, int, int]] | None = None,
               weights: Sequence[float] | None = None, exact_limit: int = 3125,
               n_sims: int = 100, seed: int | None = 0, batch: int = 25,
               progress: bool = False) -> pl.DataFrame:
    """Who is in, who is out before the final round: a sound status per own outcome.

    Parameters
    ----------
    results
        Rounds played so far.
    pairings
        The final round's pairings, long form (``event_id, round, player_id, opponent_id``,
        both seats, or one row per table; null opponent = bye; a player missing from it
        has dropped).
    top
        Size of the cut (N).
    rules
        Ruleset.
    outcomes, weights
        Outcome space of a match (first seat's games; None: the ruleset's
        ``match_outcomes``, a card game's best of three or a chess game's win, loss or draw)
        and the probability model (default uniform over the outcomes).
    exact_limit
        Events with at most this many scenarios (product of outcome counts over their
        matches) are enumerated exhaustively: every status and probability is then exact.
        0 disables enumeration.
    n_sims
        Monte Carlo scenarios per larger event for ``probability`` of the statuses still
        "possible" (0: no probabilities there). Each scenario is a ``scenario_id`` key;
        many are evaluated per pass, within a bounded number of rows.
    batch
        Scenarios drawn per random block (each block has its own seeded stream, so the
        draws do not depend on how blocks are evaluated); on the engine fallback also the
        scenarios per standings pass.
    seed
        Random seed for the simulation (None: fresh entropy, other shares on each call).
    progress
        Show a tqdm progress bar over the enumerated chunks of scenarios and the simulation
        batches.

    Returns
    -------
    DataFrame
        ``event_id, player_id, outcome, match_points, status, probability, method, exact``:
        ``match_points`` after the outcome (the fewest, where its game scores score
        differently: a two-game match's sweep bonus);
        ``status`` ∈ guaranteed / possible / eliminated (making the cut = the player's whole
        tie group is inside the top ``top``; a tie the ruleset orders by lot — Pokémon's and
        FaB's random order — is drawn at the event, so a group across the line is
        possible, each player with the share of the places left); ``method`` says what
        decided it (points, ranges, enumeration); ``exact`` is True when the status is
        proved (every guaranteed / eliminated, and a possible confirmed by enumeration).

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 1], "player_a": ["A", "C"], "player_b": ["B", "D"],
    ...     "games_a": [2, 2], "games_b": [0, 1], "games_drawn": [0, 0]})
    >>> pairs = pl.DataFrame({"player_id": ["A", "C", "B", "D"],
    ...                       "opponent_id": ["C", "A", "D", "B"]})
    >>> st = sf.cut.cut_status(sf.from_matches(m), pairs, top=1)
    >>> st.filter(pl.col("player_id") == "A").select("outcome", "status", "probability")
    shape: (3, 3)
    ┌─────────┬────────────┬─────────────┐
    │ outcome ┆ status     ┆ probability │
    │ ---     ┆ ---        ┆ ---         │
    │ str     ┆ str        ┆ f64         │
    ╞═════════╪════════════╪═════════════╡
    │ win     ┆ guaranteed ┆ 1.0         │
    │ draw    ┆ possible   ┆ 0.6         │
    │ loss    ┆ eliminated ┆ 0.0         │
    └─────────┴────────────┴─────────────┘
    """
    check_top(top)
    for name, value, low in (("n_sims", n_sims, 0), ("exact_limit", exact_limit, 0),
                             ("batch", batch, 1)):
        check_whole(name, value, low=low, hint="see help(sf.cut_status)")
    check_seed(seed)
    check_flag("progress", progress)
    # (None is the next round's unknown pairings to the cut's shared round code, which
    # next_round_ranges takes; here it ended in the scenarios' own validation error,
    # "unpaired_draw" rows of the results table: bad data 241)
    as_lazy(pairings, what="pairings table", made_by=PAIRINGS_MADE_BY)
    rs = get(rules)
    return per_exact_group(
        results, pairings, rs,
        outcome_table(rs.match_outcomes if outcomes is None else outcomes, weights),
        lambda rf: _round_status(rf, rs, top, exact_limit=exact_limit, n_sims=n_sims,
                                 seed=seed, batch=batch, progress=progress))


def _round_status(rf: RoundFrame, rs: Ruleset, top: int, *, exact_limit: int, n_sims: int,
                  seed: int | None, batch: int, progress: bool) -> pl.DataFrame:
    """:func:`cut_status` of one analysed round."""
    st = _bounded_status(ranges_by_seat(rf), rs, top)
    units = unit_table(rf)
    n_scen = units.group_by("event_id").agg(
        _n=pl.col("n_k").cast(pl.Float64).log().sum().exp().round(0))
    small = n_scen.filter(pl.col("_n") <= exact_limit)["event_id"]
    flags_of, fast = _flag_function(rf) if (small.len() or n_sims > 0) else (None, False)
    parts = []
    if small.len() and flags_of is not None:
        parts.append(_enumerated(rf, units.filter(pl.col("event_id").is_in(small.implode())),
                                 top, flags_of, progress=progress))
    big_units = units.filter(~pl.col("event_id").is_in(small.implode()))
    # only a "possible" status takes its probability from the simulation (a proved one is
    # 1 or 0), so only players with one are followed through the scenarios
    who = (st.filter((pl.col("status") == "possible")
                     & ~pl.col("event_id").is_in(small.implode()))
           .select(KEY).unique())
    if big_units.height and n_sims > 0 and flags_of is not None and who.height:
        # the engine fallback keeps one pass per block (its memory per row is far larger)
        parts.append(_simulated(rf, big_units, who, top, flags_of,
                                budget=ROW_BUDGET if fast else 0, n_sims=n_sims, batch=batch,
                                seed=seed, progress=progress))
    out = _finish(st, parts, small, rs)
    dq = disqualified_in(rf)
    if dq.height:  # removed from the standings: out whatever happens
        gone = pl.struct(KEY).is_in(dq.select(pl.struct(KEY)).to_series().implode())
        out = out.with_columns(
            status=pl.when(gone).then(pl.lit("eliminated")).otherwise("status"),
            probability=pl.when(gone).then(0.0).otherwise("probability"),
            method=pl.when(gone).then(pl.lit("disqualified")).otherwise("method"),
            exact=pl.col("exact") | gone)
    return out


def _enumerated(rf: RoundFrame, units: pl.DataFrame, top: int, flags_of: FlagFn, *,
                progress: bool = False) -> pl.DataFrame:
    """Every scenario of the events of ``units``: the status and exact share per outcome.

    The scenarios are made a chunk at a time, the chunks :func:`scenario_chunks` cuts (so
    the shares are the same to the bit): made at once they were every event's scenarios
    times its tables, 250 million rows for 100,000 small events at the default
    ``exact_limit`` and more than memory for one event under a raised one (bad data 260).
    """
    size = chunk_scenarios(rf, units, ROW_BUDGET)
    most: int = units.group_by("event_id").agg(pl.col("n_k").product()).select(
        pl.col("n_k").max().fill_null(0)).item()
    from tqdm import tqdm  # not on `import swissframe`

    # (a raised exact_limit can mean millions of scenarios: the bar says how far it is)
    ex = _combine([_scenario_parts(rf, enumerate_assignments(units, lo, lo + size), top,
                                   flags_of, weighted=True, who=None)
                   for lo in tqdm(range(0, most, size), disable=not progress,
                                  desc="enumerating", unit="chunk", leave=False)])
    return ex.select(
        *KEY, "outcome",
        pl.when(pl.col("_all")).then(pl.lit("guaranteed"))
        .when(~pl.col("_any")).then(pl.lit("eliminated")).otherwise(pl.lit("possible"))
        .alias("_sx"), pl.col("_p").alias("probability"))


def _simulated(rf: RoundFrame, units: pl.DataFrame, who: pl.DataFrame, top: int,
               flags_of: FlagFn, *, budget: int, n_sims: int, batch: int, seed: int | None,
               progress: bool) -> pl.DataFrame:
    """Monte Carlo shares for ``who`` over ``n_sims`` sampled scenarios of ``units``.

    The random stream is drawn in blocks of ``batch`` scenarios (seeded per block, so
    results do not depend on how blocks are evaluated); blocks are evaluated together up
    to ``budget`` rows (many blocks per pass on the fast path, one on the engine's).
    """
    per_scenario = max(1, scenario_rows(rf, units))
    pending: list[pl.DataFrame] = []
    sims: list[pl.DataFrame] = []

    def flush() -> None:
        if pending:
            sims.append(_scenario_status(rf, pl.concat(pending), top, flags_of,
                                         weighted=False, who=who))
            pending.clear()

    step = max(batch, 1)
    held = 0
    from tqdm import tqdm  # not on `import swissframe`

    # leave=False: the bar is erased when the simulation ends, like every progress line
    for s0 in tqdm(range(0, n_sims, step), disable=not progress, desc="simulating",
                   unit="batch", leave=False):
        n = min(step, n_sims - s0)
        pending.append(sample_assignments(units, rf.outcomes, n, s0, seed))
        held += n
        if held * per_scenario >= budget:
            flush()
            held = 0
    flush()
    return _combine(sims).select(*KEY, "outcome", _sx=pl.lit(None, dtype=pl.String),
                                 probability=pl.col("_p"))


def _finish(st: pl.DataFrame, parts: list[pl.DataFrame], small: pl.Series, rules: Ruleset
            ) -> pl.DataFrame:
    """The proved statuses with the scenarios' (enumerated: statuses too), in the public
    columns and order."""
    if parts:
        st = st.join(pl.concat(parts), on=[*KEY, "outcome"], how="left")
    else:
        st = st.with_columns(_sx=pl.lit(None, dtype=pl.String),
                             probability=pl.lit(None, dtype=pl.Float64))
    enumerated = pl.col("event_id").is_in(small.implode())
    decided = pl.col("status") != "possible"
    out = st.with_columns(
        method=pl.when(enumerated & ~decided).then(pl.lit("enumeration")).otherwise("method"),
        status=pl.when(enumerated).then(pl.coalesce("_sx", "status")).otherwise("status"),
    ).with_columns(
        exact=(pl.col("status") != "possible") | enumerated,
        probability=pl.when(pl.col("status") == "guaranteed").then(1.0)
        .when(pl.col("status") == "eliminated").then(0.0).otherwise("probability"))
    unit = points_unit(rules)
    mp = pl.col("P") if rules.integer_points else pl.col("P").cast(pl.Float64) / unit
    return (out.with_columns(pl.col("outcome").replace_strict(OUTCOME_ORDER, default=9)
                             .alias("_o"))
            .sort("event_id", "player_id", "_o")
            .select(*KEY, "outcome", mp.alias("match_points"), "status", "probability",
                    "method", "exact"))


def status_summary(status: pl.DataFrame) -> pl.DataFrame:
    """How many statuses each method decided, per event.

    Examples
    --------
    >>> import polars as pl
    >>> st = pl.DataFrame({"event_id": ["e", "e"], "status": ["guaranteed", "possible"],
    ...                    "method": ["points", "ranges"], "exact": [True, False]})
    >>> status_summary(st).row(0)
    ('e', 2, 1, 1, 0)
    """
    return (status.group_by("event_id")
            .agg(statuses=pl.len(), exact=pl.col("exact").sum(),
                 possible_undecided=(~pl.col("exact")).sum(),
                 enumerated=(pl.col("method") == "enumeration").sum())
            .sort("event_id"))
