"""Cut-line analysis: tiebreaker ranges after the next round, cut status, ID advice and a
historical intentional-draw report.

Every function works on any number of events at once; multi-scenario questions add a
``scenario_id`` key. The prior rounds are aggregated once and each scenario's last round is
applied to them for all scenarios of a chunk at once (:mod:`swissframe.cut._scenarios`);
rulesets that path does not model run :func:`swissframe.standings.standings` per scenario
key instead — the definition, which the fast path reproduces exactly.

Outcome model
-------------
Every match of the analysed round ends in one of the outcomes of ``outcomes`` (default
2-0, 2-1, 1-2, 0-2 and the intentional draw 0-0-3, MTR §2.5); a bye is a 2-0 win; a player
missing from the pairings dropped (their record freezes). Probabilities are shares of
scenarios in which each match's outcome is drawn independently with ``weights`` (uniform by
default: every outcome equally likely, so a seat wins 2/5, draws 1/5, loses 2/5). Events
whose scenario count is at most ``exact_limit`` are enumerated exhaustively and their
probabilities are exact weighted shares; larger events are sampled (``n_sims``).

Soundness
---------
``cut_status`` says "guaranteed" / "eliminated" only when it is proved: by match points
alone, by the exact per-outcome tiebreaker ranges of :func:`next_round_ranges` (a player
``x`` can finish at or above ``p`` only if ``x``'s best case beats ``p``'s worst case, and
the two seats of one match are counted jointly), or by exhaustive enumeration.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import polars as pl
from tqdm import tqdm

from swissframe.cut._round import (
    DEFAULT_OUTCOMES,
    MIRROR_LEVEL,
    RoundFrame,
    criteria_bounds,
    enumerate_assignments,
    lex_ge,
    make_cut_flags,
    outcome_table,
    prepare_round,
    ranges_by_seat,
    sample_assignments,
    unit_table,
)
from swissframe.cut._scenarios import ROW_BUDGET, fast_model, scenario_chunks, scenario_rows
from swissframe.engine.standings import standings
from swissframe.errors import DataError
from swissframe.rules._ruleset import Ruleset, get
from swissframe.schema import validate_results

__all__ = [
    "ID_SCORES",
    "IdReport",
    "cut_status",
    "detect_intentional_draws",
    "id_advice",
    "id_report",
    "next_round_ranges",
    "status_summary",
]

Frame = pl.DataFrame | pl.LazyFrame
KEY: Final = ["event_id", "player_id"]
STATUS_ORDER: Final = {"eliminated": 0, "possible": 1, "guaranteed": 2}

#: How each source records an intentional draw (games won, lost, drawn of either seat).
#: EventLink/melee.gg report 0-0-3 (MTR §2.5); WER before 2019 also allowed a 0-0 "draw
#: button"; Topdeck.gg reports matches only (0-0-1 = any draw, so every draw is flagged).
ID_SCORES: Final[Mapping[str, tuple[tuple[int, int, int], ...]]] = {
    "mtg": ((0, 0, 3),),
    "melee": ((0, 0, 3),),
    "eventlink": ((0, 0, 3),),
    "wer": ((0, 0, 3), (0, 0, 0)),
    "topdeck": ((0, 0, 1),),
    "cardsrealm": ((0, 0, 3),),
    "manatraders": ((0, 0, 3),),
}


def _by_level(table: pl.DataFrame, by_score: bool) -> pl.DataFrame:
    key = [*KEY, "outcome", "score"] if by_score else [*KEY, "outcome"]
    f = table.with_columns(
        outcome=pl.when(pl.col("level") == "bye").then(pl.lit("win")).otherwise("level"))
    return (f.group_by(key).agg(
        pl.col("_pts").first().alias("_x_match_points"),
        pl.col("_x_omw_lo").min(), pl.col("_x_omw_hi").max(),
        pl.col("_x_gw").min().alias("_x_gw_lo"), pl.col("_x_gw").max().alias("_x_gw_hi"),
        pl.col("_x_ogw_lo").min(), pl.col("_x_ogw_hi").max(),
        pl.col("level").first().alias("_level"), pl.col("unit").first().alias("_unit"),
        pl.col("k").alias("_ks")))


def _ranges(results: Frame, pairings: Frame | None, rules: Ruleset,
            outcomes: Sequence[tuple[int, int, int]]) -> tuple[RoundFrame, pl.DataFrame]:
    rf = prepare_round(results, pairings, rules, outcome_table(outcomes))
    return rf, ranges_by_seat(rf)


def next_round_ranges(results: Frame, pairings: Frame | None = None, rules: str | Ruleset = "mtg",
                      *, outcomes: Sequence[tuple[int, int, int]] = DEFAULT_OUTCOMES,
                      by_score: bool = False) -> pl.DataFrame:
    """Exact min/max of OMW%, GW% and OGW% after the next round, per own outcome.

    Parameters
    ----------
    results
        The rounds played so far (long results table).
    pairings
        The next round's pairings (``event_id, round, player_id, opponent_id``, both seats;
        null opponent = bye; players missing from it dropped). ``None``: not paired yet —
        every active opponent's result is independent and the player's own next opponent is
        a player with the same record (the classic hand calculation, rules.md SEED-F1).
    rules
        Ruleset (floors, caps, draw values, bye handling are read from it).
    outcomes
        Game scores a match can end in (from the first seat's side).
    by_score
        One row per own game score (``score`` column) instead of per outcome level.

    Returns
    -------
    DataFrame
        ``event_id, player_id, outcome[, score], match_points, omwp_min, omwp_max,
        gwp_min, gwp_max, ogwp_min, ogwp_max`` (fractions). ``outcome`` is win / draw /
        loss (a bye is a win; ``dropped`` for a player not in the pairings).

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 1], "player_a": ["A", "C"], "player_b": ["B", "D"],
    ...     "games_a": [2, 2], "games_b": [0, 1], "games_drawn": [0, 0]})
    >>> pairs = pl.DataFrame({"player_id": ["A", "C", "B", "D"],
    ...                       "opponent_id": ["C", "A", "D", "B"]})
    >>> r = sf.cut.next_round_ranges(sf.from_matches(m), pairs)
    >>> r.filter(pl.col("player_id") == "A").select("outcome", "omwp_min", "omwp_max")
    shape: (3, 3)
    ┌─────────┬──────────┬──────────┐
    │ outcome ┆ omwp_min ┆ omwp_max │
    │ ---     ┆ ---      ┆ ---      │
    │ str     ┆ f64      ┆ f64      │
    ╞═════════╪══════════╪══════════╡
    │ win     ┆ 0.415    ┆ 0.5      │
    │ draw    ┆ 0.498333 ┆ 0.583333 │
    │ loss    ┆ 0.665    ┆ 0.75     │
    └─────────┴──────────┴──────────┘
    """
    rs = get(rules)
    rf, table = _ranges(results, pairings, rs, outcomes)
    lv = _by_level(table, by_score)
    unit = _points_unit(rs)
    mscale = float(rf.rate_scale * rf.k_lcm)
    gscale_mean = float(rf.game_scale * rf.k_lcm)
    gscale = float(rf.game_scale)
    order = {"win": 0, "draw": 1, "loss": 2, "dropped": 3}
    cols = [*KEY, "outcome", *(["score"] if by_score else [])]
    out = lv.select(
        *cols,
        (pl.col("_x_match_points").cast(pl.Float64) / unit).alias("match_points"),
        (pl.col("_x_omw_lo").cast(pl.Float64) / mscale).alias("omwp_min"),
        (pl.col("_x_omw_hi").cast(pl.Float64) / mscale).alias("omwp_max"),
        (pl.col("_x_gw_lo").cast(pl.Float64) / gscale).alias("gwp_min"),
        (pl.col("_x_gw_hi").cast(pl.Float64) / gscale).alias("gwp_max"),
        (pl.col("_x_ogw_lo").cast(pl.Float64) / gscale_mean).alias("ogwp_min"),
        (pl.col("_x_ogw_hi").cast(pl.Float64) / gscale_mean).alias("ogwp_max"),
        pl.col("outcome").replace_strict(order, default=9).alias("_o"))
    if rs.integer_points:
        out = out.with_columns(pl.col("match_points").cast(pl.Int64))
    sort = ["event_id", "player_id", "_o", *(["score"] if by_score else [])]
    return out.sort(sort).drop("_o")


def _points_unit(rules: Ruleset) -> int:
    from swissframe.engine.tiebreakers import points_unit

    return points_unit(rules)


# --------------------------------------------------------------------------- cut status


def _status_rows(table: pl.DataFrame, rules: Ruleset) -> tuple[pl.DataFrame, pl.DataFrame,
                                                                list[str]]:
    """Per-seat goodness bounds (``_lo_i``/``_hi_i``) and per (player, outcome) bounds."""
    bounds = criteria_bounds(rules)
    names = [str(i) for i in range(len(bounds))]
    seats = table.with_columns(
        *(lo.alias(f"_lo{i}") for i, (_, lo, _) in zip(names, bounds, strict=True)),
        *(hi.alias(f"_hi{i}") for i, (_, _, hi) in zip(names, bounds, strict=True)),
        outcome=pl.when(pl.col("level") == "bye").then(pl.lit("win")).otherwise("level"))
    me = (seats.group_by(*KEY, "outcome")
          .agg(pl.col("_pts").first().alias("P"), pl.col("unit").first().alias("_up"),
               pl.col("level").first().alias("_level"),
               *(pl.col(f"_lo{i}").min() for i in names),
               *(pl.col(f"_hi{i}").max() for i in names)))
    return seats, me, names


def _points_pass(seats: pl.DataFrame, me: pl.DataFrame) -> pl.DataFrame:
    """Counts of players at/above on points alone, decomposed by unit (exact for points)."""
    cand = me.select("event_id", "P").unique()
    per_uk = (seats.select("event_id", "unit", "k", "player_id", "_pts")
              .join(cand, on="event_id")
              .group_by("event_id", "P", "unit", "k")
              .agg(ge=(pl.col("_pts") >= pl.col("P")).sum(),
                   gt=(pl.col("_pts") > pl.col("P")).sum(),
                   touch=(pl.col("_pts") == pl.col("P")).any()))
    per_u = per_uk.group_by("event_id", "P", "unit").agg(
        ge_max=pl.col("ge").max(), gt_min=pl.col("gt").min(), touch=pl.col("touch").any())
    tot = per_u.group_by("event_id", "P").agg(
        GE=pl.col("ge_max").sum(), GT=pl.col("gt_min").sum(),
        NT_GE=pl.col("ge_max").filter(~pl.col("touch")).sum(),
        NT_GT=pl.col("gt_min").filter(~pl.col("touch")).sum())
    # own unit: the player's outcome is fixed; the opponent's follows
    own_k = (seats.select(*KEY, "outcome", "unit", "k")
             .join(me.select(*KEY, "outcome", "P"), on=[*KEY, "outcome"]))
    own = (own_k.join(per_uk, on=["event_id", "P", "unit", "k"])
           .group_by(*KEY, "outcome").agg(own_ge=pl.col("ge").max(), own_gt=pl.col("gt").min()))
    return (me.join(tot, on=["event_id", "P"])
            .join(per_u.select("event_id", "P", pl.col("unit").alias("_up"), "ge_max",
                               "gt_min"), on=["event_id", "P", "_up"])
            .join(own, on=[*KEY, "outcome"])
            .with_columns(ge_total=pl.col("GE") - pl.col("ge_max") + pl.col("own_ge"),
                          gt_total=pl.col("GT") - pl.col("gt_min") + pl.col("own_gt")))


def _range_pass(seats: pl.DataFrame, cand: pl.DataFrame, names: list[str]) -> pl.DataFrame:
    """Refined counts with tiebreaker ranges for the (player, outcome) rows in ``cand``."""
    touching = (seats.join(cand.select("event_id", "P").unique(), on="event_id")
                .filter(pl.col("_pts") == pl.col("P")).select("event_id", "P", "unit").unique())
    cols = ["event_id", "unit", "k", "player_id", "_pts", "level",
            *(f"_lo{i}" for i in names), *(f"_hi{i}" for i in names)]
    rows = (seats.select(cols).rename({"player_id": "_x", "level": "_xlevel"})
            .join(touching, on=["event_id", "unit"]))
    pcols = ["event_id", "player_id", "outcome", "P", "_up", "_level",
             *(pl.col(f"_lo{i}").alias(f"_plo{i}") for i in names),
             *(pl.col(f"_hi{i}").alias(f"_phi{i}") for i in names)]
    j = cand.select(pcols).join(rows, on=["event_id", "P"])
    mirrored = pl.col("_xlevel").replace_strict(MIRROR_LEVEL, default=None)
    j = j.filter((pl.col("unit") != pl.col("_up"))
                 | ((pl.col("_x") != pl.col("player_id")) & (mirrored == pl.col("_level"))))
    at = pl.col("_pts") == pl.col("P")
    gt = pl.col("_pts") > pl.col("P")
    poss = gt | (at & lex_ge([f"_hi{i}" for i in names], [f"_plo{i}" for i in names]))
    cert = gt | (at & lex_ge([f"_lo{i}" for i in names], [f"_phi{i}" for i in names]))
    return (j.group_by(*KEY, "outcome", "unit", "k")
            .agg(poss=poss.sum(), cert=cert.sum())
            .group_by(*KEY, "outcome", "unit")
            .agg(poss=pl.col("poss").max(), cert=pl.col("cert").min())
            .group_by(*KEY, "outcome")
            .agg(t_poss=pl.col("poss").sum(), t_cert=pl.col("cert").sum()))


def _bounded_status(rf: RoundFrame, table: pl.DataFrame, top: int) -> pl.DataFrame:
    seats, me, names = _status_rows(table, rf.rules)
    pts = _points_pass(seats, me)
    st = pts.with_columns(
        status=pl.when(pl.col("ge_total") <= top).then(pl.lit("guaranteed"))
        .when(pl.col("gt_total") >= top).then(pl.lit("eliminated"))
        .otherwise(pl.lit("possible")),
        method=pl.lit("points"))
    undecided = st.filter(pl.col("status") == "possible")
    if undecided.height:
        ref = (_range_pass(seats, undecided, names)
               .join(undecided.select(*KEY, "outcome", "NT_GE", "NT_GT"),
                     on=[*KEY, "outcome"], how="right")
               .with_columns(
                   hi_count=pl.col("NT_GE") + pl.col("t_poss").fill_null(0) + 1,
                   lo_count=pl.col("NT_GT") + pl.col("t_cert").fill_null(0) + 1)
               .select(*KEY, "outcome",
                       pl.when(pl.col("hi_count") <= top).then(pl.lit("guaranteed"))
                       .when(pl.col("lo_count") > top).then(pl.lit("eliminated"))
                       .otherwise(pl.lit("possible")).alias("_s2")))
        st = (st.join(ref, on=[*KEY, "outcome"], how="left")
              .with_columns(
                  method=pl.when(pl.col("_s2").is_not_null() & (pl.col("_s2") != "possible"))
                  .then(pl.lit("ranges")).otherwise("method"),
                  status=pl.coalesce("_s2", "status")).drop("_s2"))
    return st.select(*KEY, "outcome", "P", "status", "method")


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
    flags = flags_of(assign, top, who).select("event_id", "scenario_id", "player_id",
                                              "makes_cut")
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
        hit = pl.col("_sw") * pl.col("makes_cut").cast(pl.Float64)
    else:
        j = j.with_columns(_sw=pl.lit(1, dtype=pl.Int64))
        hit = pl.col("makes_cut").cast(pl.Int64)
    return (j.sort(*KEY, "outcome", "scenario_id")
            .group_by(*KEY, "outcome", maintain_order=True)
            .agg(_all=pl.col("makes_cut").all(), _any=pl.col("makes_cut").any(),
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


def cut_status(results: Frame, pairings: Frame, top: int = 8, rules: str | Ruleset = "mtg",
               *, outcomes: Sequence[tuple[int, int, int]] = DEFAULT_OUTCOMES,
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
        both seats; null opponent = bye; a player missing from it has dropped).
    top
        Size of the cut (N).
    rules
        Ruleset.
    outcomes, weights
        Outcome space of a match (first seat's games) and the probability model (default
        uniform over ``outcomes``).
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
        Random seed for the simulation.
    progress
        Show a tqdm progress bar over the simulation batches.

    Returns
    -------
    DataFrame
        ``event_id, player_id, outcome, match_points, status, probability, method, exact``:
        ``status`` ∈ guaranteed / possible / eliminated (making the cut = the player's whole
        tie group is inside the top ``top``); ``method`` says what decided it (points,
        ranges, enumeration); ``exact`` is True when the status is proved (every
        guaranteed / eliminated, and a possible confirmed by enumeration).

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
    if top < 1:
        msg = f"top must be ≥ 1, got {top}. Hint: the size of the cut, e.g. 8."
        raise DataError(msg)
    rs = get(rules)
    rf, table = _ranges(results, pairings, rs, outcomes)
    rf.outcomes = outcome_table(outcomes, weights)
    st = _bounded_status(rf, table, top)
    units = unit_table(rf)
    n_scen = units.group_by("event_id").agg(
        _n=pl.col("n_k").cast(pl.Float64).log().sum().exp().round(0))
    small = n_scen.filter(pl.col("_n") <= exact_limit)["event_id"]
    parts = []
    flags_of, fast = _flag_function(rf) if (small.len() or n_sims > 0) else (None, False)
    if small.len():
        assign = enumerate_assignments(units.filter(pl.col("event_id").is_in(small.implode())))
        ex = _scenario_status(rf, assign, top, flags_of).select(
            *KEY, "outcome",
            pl.when(pl.col("_all")).then(pl.lit("guaranteed"))
            .when(~pl.col("_any")).then(pl.lit("eliminated")).otherwise(pl.lit("possible"))
            .alias("_sx"), pl.col("_p").alias("probability"))
        parts.append(ex)
    big_units = units.filter(~pl.col("event_id").is_in(small.implode()))
    # only a "possible" status takes its probability from the simulation (a proved one is
    # 1 or 0), so only players with one are followed through the scenarios
    who = (st.filter((pl.col("status") == "possible")
                     & ~pl.col("event_id").is_in(small.implode()))
           .select(KEY).unique())
    if big_units.height and n_sims > 0 and flags_of is not None and who.height:
        # the random stream is drawn in blocks of ``batch`` scenarios (seeded per block, so
        # results do not depend on how blocks are evaluated); blocks are evaluated together
        # up to the row budget — many blocks per pass on the fast path
        per_scenario = max(1, scenario_rows(rf, big_units))
        # the engine fallback keeps one pass per block (its memory per row is far larger)
        budget = ROW_BUDGET if fast else 0
        pending: list[pl.DataFrame] = []
        sims: list[pl.DataFrame] = []

        def flush() -> None:
            if pending:
                sims.append(_scenario_status(rf, pl.concat(pending), top, flags_of,
                                             weighted=False, who=who))
                pending.clear()

        step = max(batch, 1)
        held = 0
        for s0 in tqdm(range(0, n_sims, step), disable=not progress, desc="simulating",
                       unit="batch"):
            n = min(step, n_sims - s0)
            pending.append(sample_assignments(big_units, rf.outcomes, n, s0, seed))
            held += n
            if held * per_scenario >= budget:
                flush()
                held = 0
        flush()
        mc = (_combine(sims)
              .select(*KEY, "outcome", pl.col("_p").alias("probability"),
                      _sx=pl.lit(None, dtype=pl.String)))
        parts.append(mc.select(*KEY, "outcome", "_sx", "probability"))
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
    order = {"win": 0, "draw": 1, "loss": 2, "dropped": 3}
    unit = _points_unit(rs)
    mp = pl.col("P") if rs.integer_points else pl.col("P").cast(pl.Float64) / unit
    return (out.with_columns(pl.col("outcome").replace_strict(order, default=9).alias("_o"))
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


# --------------------------------------------------------------------------- ID advice


def _advice_text(a_draw: pl.Expr, b_draw: pl.Expr) -> pl.Expr:
    g = pl.lit("guaranteed")
    return (pl.when((a_draw == g) & (b_draw == g)).then(pl.lit("both can draw in"))
            .when(a_draw == g).then(pl.lit("draw safe for A only"))
            .when(b_draw == g).then(pl.lit("draw safe for B only"))
            .when((a_draw == "eliminated") & (b_draw == "eliminated"))
            .then(pl.lit("a draw eliminates both: play"))
            .otherwise(pl.lit("play (a draw is not safe)")))


def id_advice(results: Frame, pairings: Frame, top: int = 8, rules: str | Ruleset = "mtg",
              *, status: pl.DataFrame | None = None, **kwargs: object) -> pl.DataFrame:
    """Per final-round table: can both players draw into the cut, and what a draw is worth.

    Parameters
    ----------
    results, pairings, top, rules
        As for :func:`cut_status`.
    status
        A :func:`cut_status` result to reuse (computed when absent; ``kwargs`` are passed).

    Returns
    -------
    DataFrame
        One row per match: ``event_id, table, player_a, player_b``, each seat's status
        after a win / draw / loss (``a_win`` … ``b_loss``), the probabilities
        (``a_p_win`` …), ``advice`` and each seat's ``*_gain_draw``: the probability of
        making the cut after a draw minus the probability when playing it out (the
        mean over win and loss, i.e. an even match).

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 1], "player_a": ["A", "C"], "player_b": ["B", "D"],
    ...     "games_a": [2, 2], "games_b": [0, 1], "games_drawn": [0, 0]})
    >>> pairs = pl.DataFrame({"player_id": ["A", "C", "B", "D"],
    ...                       "opponent_id": ["C", "A", "D", "B"]})
    >>> adv = sf.cut.id_advice(sf.from_matches(m), pairs, top=2)
    >>> adv.select("player_a", "player_b", "a_draw", "b_draw", "advice").row(0)
    ('A', 'C', 'guaranteed', 'guaranteed', 'both can draw in')
    """
    st = status if status is not None else cut_status(
        results, pairings, top, rules, **kwargs)  # type: ignore[arg-type]
    pr = pairings.collect() if isinstance(pairings, pl.LazyFrame) else pairings
    if "event_id" not in pr.columns:
        pr = pr.with_columns(event_id=pl.lit(st["event_id"][0] if st.height else "event"))
    wide = (st.filter(pl.col("outcome").is_in(["win", "draw", "loss"]))
            .pivot(on="outcome", index=KEY, values=["status", "probability"],
                   aggregate_function="first"))
    for o in ("win", "draw", "loss"):
        for v in ("status", "probability"):
            if f"{v}_{o}" not in wide.columns:
                dt = pl.String if v == "status" else pl.Float64
                wide = wide.with_columns(pl.lit(None, dtype=dt).alias(f"{v}_{o}"))
    a = wide.select(*KEY, *(pl.col(f"status_{o}").alias(f"a_{o}") for o in ("win", "draw", "loss")),
                    *(pl.col(f"probability_{o}").alias(f"a_p_{o}")
                      for o in ("win", "draw", "loss")))
    b = a.rename({c: "b" + c[1:] for c in a.columns if c.startswith("a_")})
    pts = st.group_by(KEY).agg(pl.col("match_points").max().alias("_mp"))
    matches = (pr.filter(pl.col("opponent_id").is_not_null()
                         & (pl.col("player_id").cast(pl.String)
                            < pl.col("opponent_id").cast(pl.String)))
               .select(pl.col("event_id").cast(pl.String),
                       pl.col("player_id").cast(pl.String).alias("player_a"),
                       pl.col("opponent_id").cast(pl.String).alias("player_b")))
    out = (matches.join(a.rename({"player_id": "player_a"}), on=["event_id", "player_a"],
                        how="left")
           .join(b.rename({"player_id": "player_b"}), on=["event_id", "player_b"], how="left")
           .join(pts.rename({"player_id": "player_a", "_mp": "_ma"}),
                 on=["event_id", "player_a"], how="left")
           .join(pts.rename({"player_id": "player_b", "_mp": "_mb"}),
                 on=["event_id", "player_b"], how="left")
           .with_columns(_top=pl.max_horizontal("_ma", "_mb"))
           .sort(["event_id", "_top", "player_a"], descending=[False, True, False])
           .with_columns(table=pl.int_range(1, pl.len() + 1).over("event_id"))
           .with_columns(
               advice=_advice_text(pl.col("a_draw"), pl.col("b_draw")),
               a_gain_draw=pl.col("a_p_draw") - (pl.col("a_p_win") + pl.col("a_p_loss")) / 2,
               b_gain_draw=pl.col("b_p_draw") - (pl.col("b_p_win") + pl.col("b_p_loss")) / 2))
    return out.select("event_id", "table", "player_a", "player_b", "a_win", "a_draw", "a_loss",
                      "b_win", "b_draw", "b_loss", "a_p_win", "a_p_draw", "a_p_loss",
                      "b_p_win", "b_p_draw", "b_p_loss", "a_gain_draw", "b_gain_draw",
                      "advice")


# --------------------------------------------------------------------------- history


def detect_intentional_draws(results: Frame, source: str | Iterable[tuple[int, int, int]]
                             = "mtg") -> pl.DataFrame:
    """Flag intentional draws with a documented, source-aware rule.

    A Swiss match is an intentional draw when its game score (either seat) is one of the
    source's ID scores (:data:`ID_SCORES`): 0-0-3 for EventLink / melee.gg (MTR §2.5), also
    0-0 on WER (its "draw button"), any 0-0-1 draw on match-level sources (Topdeck.gg) —
    there every draw is flagged since the source cannot tell them apart. Other draws (1-1-0,
    1-1-1, …) are played-out draws. When ``results`` has a ``source`` column, each event
    uses its own source's rule.

    Returns
    -------
    DataFrame
        The input rows with a boolean ``intentional_draw`` column.

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 1], "player_a": ["A", "C"], "player_b": ["B", "D"],
    ...     "games_a": [0, 1], "games_b": [0, 1], "games_drawn": [3, 1]})
    >>> r = detect_intentional_draws(sf.from_matches(m))
    >>> r.filter(pl.col("intentional_draw"))["player_id"].sort().to_list()
    ['A', 'B']
    """
    df = validate_results(results).collect()

    def table(name: str, scores: Iterable[tuple[int, int, int]]) -> pl.DataFrame:
        return pl.DataFrame(
            [(name, int(s[0]), int(s[1]), int(s[2])) for s in scores],
            schema={"_src": pl.String, "games_won": pl.Int64, "games_lost": pl.Int64,
                    "games_drawn": pl.Int64}, orient="row")

    if isinstance(source, str):
        if source not in ID_SCORES:
            msg = (f"unknown source {source!r} for intentional-draw detection. Hint: one of "
                   f"{sorted(ID_SCORES)}, or pass the ID game scores themselves.")
            raise DataError(msg)
        default = source
        rules_t = pl.concat([table(k, v) for k, v in ID_SCORES.items()])
    else:
        default = "custom"
        rules_t = table("custom", source)
    src = (pl.col("source").cast(pl.String).str.to_lowercase().fill_null(default)
           if "source" in df.columns and isinstance(source, str) else pl.lit(default))
    flagged = (df.with_columns(_src=src)
               .join(rules_t.with_columns(intentional_draw=pl.lit(value=True)),
                     on=["_src", "games_won", "games_lost", "games_drawn"], how="left")
               .with_columns(intentional_draw=pl.col("intentional_draw").fill_null(value=False)
                             & pl.col("opponent_id").is_not_null()
                             & (pl.col("games_won") == pl.col("games_lost"))))
    return flagged.drop("_src")


@dataclass(frozen=True)
class IdReport:
    """Result of :func:`id_report`.

    Attributes
    ----------
    events
        One row per event: final Swiss round, number of IDs (final round / earlier), the
        cut line (points, OMW%, GW%, OGW% of places N and N+1), how many final-round IDs
        were safe, and the counterfactual (IDs played out): mean cut-line points, the share
        of simulations whose top-N set differs, the mean number of players replaced.
    draws
        One row per intentional draw (per match): event, round, the two players, whether
        each seat was safe (status "guaranteed" with a draw, from the results before that
        round; final round only — null for earlier rounds), and each seat's share of
        counterfactual simulations in which they still make the top N.
    """

    events: pl.DataFrame
    draws: pl.DataFrame

    def _facts(self) -> list[str]:
        from swissframe._display import count

        final = self.draws.filter(pl.col("final_round")) if "final_round" in \
            self.draws.columns else self.draws
        safe = (final.filter(pl.col("safe_a") & pl.col("safe_b")).height
                if {"safe_a", "safe_b"} <= set(final.columns) else 0)
        return [count(self.events.height, "event"),
                count(self.draws.height, "intentional draw"),
                f"{final.height:,} in a final round ({safe:,} safe for both players)"]

    def __repr__(self) -> str:
        """A one-line summary (the frames are ``.events`` and ``.draws``).

        >>> d = pl.DataFrame({"final_round": [True], "safe_a": [True], "safe_b": [False]})
        >>> IdReport(pl.DataFrame({"event_id": ["e"]}), d)
        IdReport: 1 event, 1 intentional draw, 1 in a final round (0 safe for both players)
        — .events, .draws
        """
        from swissframe._display import summary_text

        return summary_text("IdReport", self._facts(), ["events", "draws"])

    def _repr_html_(self) -> str:
        from swissframe._display import summary_html

        return summary_html("IdReport", self._facts(), {"events": self.events,
                                                        "draws": self.draws})


def _cut_line(st: pl.DataFrame, top: int) -> pl.DataFrame:
    pos = st.with_columns(_pos=pl.int_range(1, pl.len() + 1).over("event_id"))
    cols = ["match_points", "omwp", "gwp", "ogwp"]
    n = pos.filter(pl.col("_pos") == top).select(
        "event_id", *(pl.col(c).alias(f"{c}_n") for c in cols))
    n1 = pos.filter(pl.col("_pos") == top + 1).select(
        "event_id", *(pl.col(c).alias(f"{c}_n1") for c in cols))
    return n.join(n1, on="event_id", how="full", coalesce=True)


def id_report(results: Frame, top: int = 8, rules: str | Ruleset = "mtg", *,
              source: str | Iterable[tuple[int, int, int]] = "mtg", n_sims: int = 50,
              seed: int | None = 0, exact_limit: int = 0) -> IdReport:
    """Historical intentional draws and the cut, over many past events.

    Parameters
    ----------
    results
        Complete events (Swiss rows are used; playoff rows are ignored).
    top
        Size of the cut.
    rules
        Ruleset.
    source
        Source name (or ID game scores) for :func:`detect_intentional_draws`.
    n_sims
        Counterfactual simulations: every ID is replaced by a played-out result drawn
        uniformly from 2-0, 2-1, 1-2, 0-2; standings per ``scenario_id`` in one pass.
    seed
        Random seed.
    exact_limit
        Passed to :func:`cut_status` for the safety check (0 = ranges only, fastest).

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": ["A", "C", "A", "B"],
    ...     "player_b": ["B", "D", "C", "D"], "games_a": [2, 2, 0, 2],
    ...     "games_b": [0, 0, 0, 0], "games_drawn": [0, 0, 3, 0]})
    >>> rep = sf.cut.id_report(sf.from_matches(m), top=2, n_sims=10)
    >>> rep.draws.select("round", "player_a", "player_b", "safe_a", "safe_b").row(0)
    (2, 'A', 'C', True, True)
    """
    rs = get(rules)
    df = detect_intentional_draws(results, source).filter(pl.col("phase") == "swiss")
    final = df.group_by("event_id").agg(pl.col("round").max().alias("_R"))
    df = df.join(final, on="event_id")
    ids = (df.filter(pl.col("intentional_draw")
                     & (pl.col("player_id") < pl.col("opponent_id")))
           .select("event_id", "round", pl.col("player_id").alias("player_a"),
                   pl.col("opponent_id").alias("player_b"),
                   (pl.col("round") == pl.col("_R")).alias("final_round")))
    base = standings(df.drop("_R", "intentional_draw"), rs)
    line = _cut_line(base, top)
    # safety of final-round IDs, judged from the rounds before
    prior = df.filter(pl.col("round") < pl.col("_R")).drop("_R", "intentional_draw")
    pair = df.filter(pl.col("round") == pl.col("_R")).select(
        "event_id", "round", "player_id", "opponent_id")
    with_ids = ids.filter(pl.col("final_round"))["event_id"].unique()
    safe = pl.DataFrame(schema={"event_id": pl.String, "player_id": pl.String,
                                "_safe": pl.Boolean})
    if with_ids.len():
        multi = prior.filter(pl.col("event_id").is_in(with_ids.implode()))
        if multi.height:
            st = cut_status(multi, pair.filter(pl.col("event_id").is_in(with_ids.implode())),
                            top, rs, exact_limit=exact_limit, n_sims=0)
            safe = st.filter(pl.col("outcome") == "draw").select(
                *KEY, (pl.col("status") == "guaranteed").alias("_safe"))
    # counterfactual: every ID played out
    cf = _counterfactual(df.drop("_R"), base, rs, top, n_sims=n_sims, seed=seed)
    top_base = base.with_columns(_pos=pl.int_range(1, pl.len() + 1).over("event_id")).filter(
        pl.col("_pos") <= top)
    draws = (ids.join(safe.rename({"player_id": "player_a", "_safe": "safe_a"}),
                      on=["event_id", "player_a"], how="left")
             .join(safe.rename({"player_id": "player_b", "_safe": "safe_b"}),
                   on=["event_id", "player_b"], how="left")
             .with_columns(pl.when(pl.col("final_round")).then(pl.col(c)).alias(c)
                           for c in ("safe_a", "safe_b")))
    if cf is not None:
        share = cf["player_share"]
        draws = (draws.join(share.rename({"player_id": "player_a", "_share": "cf_top_a"}),
                            on=["event_id", "player_a"], how="left")
                 .join(share.rename({"player_id": "player_b", "_share": "cf_top_b"}),
                       on=["event_id", "player_b"], how="left"))
    else:
        draws = draws.with_columns(cf_top_a=pl.lit(None, dtype=pl.Float64),
                                   cf_top_b=pl.lit(None, dtype=pl.Float64))
    draws = draws.with_columns(
        in_top_a=pl.col("player_a").is_in(top_base["player_id"].implode()),
        in_top_b=pl.col("player_b").is_in(top_base["player_id"].implode()))
    counts = ids.group_by("event_id").agg(
        ids_final=pl.col("final_round").sum(), ids_earlier=(~pl.col("final_round")).sum())
    safe_ct = draws.filter(pl.col("final_round")).group_by("event_id").agg(
        final_ids_safe_both=(pl.col("safe_a") & pl.col("safe_b")).sum())
    events = (final.rename({"_R": "swiss_rounds"}).join(counts, on="event_id", how="left")
              .join(safe_ct, on="event_id", how="left").join(line, on="event_id", how="left")
              .with_columns(pl.col("ids_final", "ids_earlier", "final_ids_safe_both")
                            .fill_null(0)))
    if cf is not None:
        events = events.join(cf["event"], on="event_id", how="left")
    return IdReport(events=events.sort("event_id"),
                    draws=draws.sort("event_id", "round", "player_a"))


def _counterfactual(df: pl.DataFrame, base: pl.DataFrame, rules: Ruleset, top: int, *,
                    n_sims: int, seed: int | None) -> dict[str, pl.DataFrame] | None:
    """Replay every ID as a random decisive result, ``n_sims`` times, in one engine pass."""
    import numpy as np

    is_id = pl.col("intentional_draw")
    if n_sims <= 0 or not df.filter(is_id).height:
        return None
    pairs = (df.filter(is_id & (pl.col("player_id") < pl.col("opponent_id")))
             .select("event_id", "round", "player_id", "opponent_id"))
    grid = pairs.join(pl.DataFrame({"scenario_id": np.arange(n_sims)}), how="cross")
    rng = np.random.default_rng(seed)
    scores = np.array([(2, 0), (2, 1), (1, 2), (0, 2)])
    pick = scores[rng.integers(0, 4, size=grid.height)]
    grid = grid.with_columns(games_won=pl.Series(pick[:, 0]), games_lost=pl.Series(pick[:, 1]),
                             games_drawn=pl.lit(0, dtype=pl.Int64))
    mirror = grid.select("event_id", "round", pl.col("opponent_id").alias("player_id"),
                         pl.col("player_id").alias("opponent_id"), "scenario_id",
                         pl.col("games_lost").alias("games_won"),
                         pl.col("games_won").alias("games_lost"), "games_drawn")
    cols = ["event_id", "scenario_id", "round", "player_id", "opponent_id", "games_won",
            "games_lost", "games_drawn"]
    events = pairs["event_id"].unique().implode()
    keep = (df.filter(~is_id & pl.col("event_id").is_in(events))
            .join(pl.DataFrame({"scenario_id": np.arange(n_sims)}), how="cross").select(cols))
    sim = pl.concat([keep, grid.select(cols), mirror.select(cols)]).with_columns(
        phase=pl.lit("swiss"))
    st = standings(sim, rules, keys=["scenario_id"]).with_columns(
        _pos=pl.int_range(1, pl.len() + 1).over("event_id", "scenario_id"))
    top_sim = st.filter(pl.col("_pos") <= top)
    base_top = (base.with_columns(_pos=pl.int_range(1, pl.len() + 1).over("event_id"))
                .filter(pl.col("_pos") <= top).select("event_id", "player_id",
                                                      _in_base=pl.lit(value=True)))
    per_s = (top_sim.join(base_top, on=KEY, how="left")
             .group_by("event_id", "scenario_id")
             .agg(_new=pl.col("_in_base").is_null().sum(),
                  _line=pl.col("match_points").sort_by("_pos").last()))
    event = per_s.group_by("event_id").agg(
        cf_cut_points_mean=pl.col("_line").cast(pl.Float64).mean(),
        cf_topn_changed_share=(pl.col("_new") > 0).mean(),
        cf_players_replaced_mean=pl.col("_new").cast(pl.Float64).mean())
    share = top_sim.group_by(KEY).agg(_share=pl.len() / n_sims)
    return {"event": event, "player_share": share}
