"""Cut flags for many scenarios of the analysed round without re-running the engine.

Why: a scenario of :func:`swissframe.cut.cut_status` differs from another only in the
outcomes of the analysed round ``R``; every prior round is the same. The reference path
(:func:`swissframe.cut._round.make_cut_flags`) still hands the engine all prior rows once
per scenario. Here the prior rounds are aggregated once and the round is decomposed by
*unit* (a match, a bye, an idle player; see :mod:`swissframe.cut._round`):

- a player's own record after ``R`` depends only on the outcome ``k`` of the player's unit,
  so it is one row per (unit, k, player) — ``values``;
- a player's opponents' sums (OMW%, OGW%) split over the units the opponents belong to:
  ``Σ_opp c·v(opp) = Σ_units Σ_{opp in unit} c·v(opp, k_unit)``, so the inner sum is one row
  per (player, unit, k) — ``contrib`` — and a scenario just picks one ``k`` per unit.

A chunk of scenarios (``event_id, scenario_id, unit, k``) is then two joins, one group-by
and the engine's own exact ranking (:func:`swissframe.engine._exact.rank_exact`), for all
scenarios of the chunk at once.

Exactness: values are the engine's (the same row flags and points
:func:`~swissframe.engine._record.prepare_rows`, record, own rates, floors and caps of
:mod:`swissframe.engine._record`), held as exact integers at scales taken over *every*
outcome of the round, so a multiple of the scale the engine picks for any one scenario.
Ranks compare exact integers only, so they equal the engine's ranks. When those scales would
overflow, or the ruleset ranks by something this module does not model, :func:`fast_model`
returns None and callers use the engine path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import polars as pl

from swissframe._collect import collect
from swissframe.cut._round import RoundFrame, opponents_bounded
from swissframe.engine._exact import exact_dtype, rank_exact
from swissframe.engine._record import (
    aggregate_players,
    own_rates,
    prepare_rows,
    ranking_keys,
    rate_scales,
)
from swissframe.engine.tiebreakers import GROUP_TIEBREAKERS, capability_columns
from swissframe.rules._ruleset import Ruleset
from swissframe.schema import DISQUALIFIED

__all__ = ["ROW_BUDGET", "FastModel", "chunk_scenarios", "fast_model", "fast_unsupported",
           "scenario_chunks", "scenario_rows"]

_I128 = pl.Int128
KEY: Final = ["event_id", "player_id"]
#: Criteria (by tiebreaker function, registered with ``fast=True``) whose value this module
#: computes, and its column: the record values it keeps, and the opponents' means it sums.
_OWN: Final = capability_columns("fast", "own", {
    "match_points": "_pts", "mwp": "_x_mw", "gwp": "_x_gw", "wins": "wins",
    "games_won": "games_won"})
_OPP: Final = capability_columns("fast", "opponent_mean", {"mwp_opp": "mw", "gwp_opp": "gw"})
#: Rows (scenarios × joined rows) one chunk may hold; bounds the memory of a pass.
ROW_BUDGET: Final = 4_000_000


def fast_unsupported(rules: Ruleset, rf: RoundFrame) -> str | None:
    """Why the fast path cannot reproduce the engine for ``rules`` (None when it can).

    The fast path models the MTG family of criteria evaluated at the end of the Swiss.
    Everything else (snapshots at a drop or stage end, late-entrant rows, earned byes as
    opponents, opponents-of-opponents, group-aware and history criteria) keeps the engine
    path, which is the definition.
    """
    if rf.virtual:
        return "no pairings (virtual opponents)"
    if DISQUALIFIED in rf.seats.columns and rf.seats[DISQUALIFIED].any():
        return "a disqualified player (ranked apart by the engine)"
    if rules.snapshot != "final":
        return f"snapshot={rules.snapshot!r}"
    if rules.late_rounds != "as_given":
        return f"late_rounds={rules.late_rounds!r}"
    if rules.earned_bye_opponent is not None:
        return "earned_bye_opponent"
    why = opponents_bounded(rules)
    if why is not None:
        return why
    for c in rules.criteria:
        if c.function in GROUP_TIEBREAKERS:
            return f"group criterion {c.name!r}"
        if c.params or (c.function not in _OWN and c.function not in _OPP):
            return f"criterion {c.name!r}"
    return None


@dataclass(frozen=True)
class FastModel:
    """Per-(unit, k) values and opponents' contributions of one :class:`RoundFrame`.

    Units and players carry integer ids (``_u``, ``_p``) so the per-scenario joins and
    group-bys run on integer keys; strings come back only for the rows returned.
    """

    units: pl.DataFrame  #: event_id, unit -> _u
    values: pl.DataFrame  #: _u, k -> _p, _e and the own exact criteria columns
    players: pl.DataFrame  #: _p -> event_id, player_id
    contrib: pl.DataFrame  #: _p, _u, k -> _smw, _nmw, _sgw, _ngw (opponents in unit _u)
    pairs: pl.DataFrame  #: (_p, _u): the units a player's opponents belong to
    n_events: int
    sort_cols: tuple[str, ...]
    descending: tuple[bool, ...]
    k_lcm: int
    #: the first ranking key when it is an own, never-null value: only players within the
    #: first ``top`` on it can make the cut, so later keys are computed for those only
    first: str | None

    def flags(self, assignment: pl.DataFrame, top: int, *, who: pl.DataFrame | None = None,
              full_rank: bool = False) -> pl.DataFrame:
        """Like :func:`swissframe.cut._round.make_cut_flags` for one chunk of scenarios.

        Parameters
        ----------
        assignment
            ``event_id, scenario_id, unit, k``.
        top
            Size of the cut.
        who
            ``event_id, player_id`` to return (None: everyone).
        full_rank
            Also return every player's exact ``rank`` (for tests; otherwise ``rank`` is
            only filled for the players whose first key keeps them in contention).

        Returns
        -------
        DataFrame
            ``event_id, scenario_id, player_id, rank, makes_cut``.
        """
        # eager steps: each is a join / group-by on integer keys; a single lazy plan was
        # several times slower here (the optimiser reorders the small joins badly)
        a = (assignment.join(self.units, on=["event_id", "unit"])
             .select("scenario_id", "_u", "k"))
        # one integer key per (event, scenario)
        g = (pl.col("scenario_id") * self.n_events + pl.col("_e")).alias("_g")
        head = a.join(self.values.select("_u", "k", "_p", "_e"), on=["_u", "k"]).with_columns(g)
        if self.first is not None and not full_rank:
            # rank by the first key alone = 1 + players strictly ahead on it; above ``top``
            # the player is out whatever the later keys, and never ahead of one who is in
            firsts = a.join(self.values.select("_u", "k", "_p", "_e", self.first),
                            on=["_u", "k"]).with_columns(g)
            head = firsts.filter(pl.col(self.first).rank("min", descending=self.descending[0])
                                 .over("_g") <= top).drop(self.first)
        cand = head.join(self.values.drop("_e"), on=["_u", "k", "_p"])
        if "_x_omw" in self.sort_cols or "_x_ogw" in self.sort_cols:
            sums = (cand.select("scenario_id", "_p").join(self.pairs, on="_p")
                    .join(a, on=["scenario_id", "_u"])
                    .join(self.contrib, on=["_p", "_u", "k"])
                    .group_by("scenario_id", "_p")
                    .agg(pl.col("_smw", "_nmw", "_sgw", "_ngw").sum()))
            kl = pl.lit(self.k_lcm, dtype=_I128)

            def mean(total: str, count: str) -> pl.Expr:
                n = pl.col(count).cast(_I128)
                return pl.when(n > 0).then(pl.col(total).cast(_I128) * (kl // n))

            cand = (cand.join(sums, on=["scenario_id", "_p"], how="left")
                    .with_columns(_x_omw=mean("_smw", "_nmw"), _x_ogw=mean("_sgw", "_ngw")))
        ranked = (rank_exact(cand.lazy(), ["_g"], list(self.sort_cols), list(self.descending),
                             tiebreak=["_p"])
                  .select("scenario_id", "_p", "rank",
                          (pl.col("rank") + pl.len().over("_g", "rank") - 1 <= top)
                          .alias("makes_cut"))
                  .pipe(collect))
        seat = self.values.filter(pl.col("k") == 0).select("_u", "_p")
        if who is not None:
            ids = self.players.join(who.select("event_id", "player_id"),
                                    on=["event_id", "player_id"], how="semi")
            seat = seat.join(ids.select("_p"), on="_p", how="semi")
        return (a.select("scenario_id", "_u").join(seat, on="_u")
                .join(ranked, on=["scenario_id", "_p"], how="left")
                .join(self.players, on="_p")
                .select("event_id", "scenario_id", "player_id", "rank",
                        pl.col("makes_cut").fill_null(value=False)))


def _sort_keys(rules: Ruleset) -> tuple[tuple[str, ...], tuple[bool, ...]]:
    """The engine's ranking keys (:func:`~swissframe.engine._record.ranking_keys`) as this
    module's columns."""
    col = {**_OWN, "omwp": "_x_omw", "ogwp": "_x_ogw"}
    keys = ranking_keys(rules)
    return tuple(col[f] for _, f, _ in keys), tuple(d for _, _, d in keys)


def _ids(rf: RoundFrame) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """Integer ids: players ``(event_id, player_id) -> _p, _e``, units ``-> _u``, and the
    seat rows with them (every later join and group-by is on integers)."""
    one = rf.seats.filter(pl.col("k") == 0)
    events = (one.select("event_id").unique(maintain_order=True)
              .with_row_index("_e").with_columns(pl.col("_e").cast(pl.Int64)))
    players = (one.select(*KEY).with_row_index("_p").with_columns(pl.col("_p").cast(pl.Int64))
               .join(events, on="event_id"))
    units = (one.select("event_id", "unit").unique(maintain_order=True)
             .with_row_index("_u").with_columns(pl.col("_u").cast(pl.Int64)))
    seats = (rf.seats.select("event_id", "unit", "k", "player_id", "opp", "gw", "gl", "gd",
                             "played", "_R")
             .join(players, on=KEY).join(units, on=["event_id", "unit"])
             .join(players.select("event_id", pl.col("player_id").alias("opp"),
                                  pl.col("_p").alias("_o")), on=["event_id", "opp"],
                   how="left")
             .drop("event_id", "unit", "player_id", "opp"))
    return players, units, seats


def fast_model(rf: RoundFrame) -> FastModel | None:
    """Precompute everything about the prior rounds for scenario flags (None: use the engine).

    Mirrors the engine on the rows the reference path builds (:func:`scenario_results`):
    prior Swiss rows without optional columns, plus the analysed round's rows; the engine's
    own row flags (:func:`prepare_rows`), record (:func:`aggregate_players`) and rate terms
    (:func:`~swissframe.engine._record.own_rates`) are applied to them, with integer ids in
    place of the strings.
    """
    rules = rf.rules
    if fast_unsupported(rules, rf) is not None:
        return None
    players, units, seats = _ids(rf)
    pid = players.select("event_id", "player_id", "_p")
    prior = prepare_rows(
        rf.prior.lazy().select("event_id", "round", "player_id", "opponent_id", "games_won",
                               "games_lost", "games_drawn", "phase")
        .join(pid.lazy(), on=KEY)
        .join(pid.lazy().select("event_id", pl.col("player_id").alias("opponent_id"),
                                pl.col("_p").alias("_o")), on=["event_id", "opponent_id"],
              how="left")
        .select("event_id", "round", pl.col("_p").alias("player_id"),
                pl.col("_o").alias("opponent_id"), "games_won", "games_lost", "games_drawn",
                "phase"), rules).pipe(collect)
    before = (aggregate_players(prior.lazy(), ("event_id",)).pipe(collect)
              .select(pl.col("player_id").alias("_p"), "wins", "losses", "draws", "byes",
                      "rounds_played", "opponents", "_pts", "games_won", "games_lost",
                      "games_drawn", "last_round"))
    # the analysed round's row of each (unit, k, seat), flagged exactly as the engine does
    new = prepare_rows(seats.lazy().filter("played").select(
        "_u", "k", "_p", pl.col("_R").alias("round"), pl.col("_o").alias("opponent_id"),
        pl.col("gw").alias("games_won"), pl.col("gl").alias("games_lost"),
        pl.col("gd").alias("games_drawn"), phase=pl.lit("swiss")), rules).select(
        "_u", "k", "_p", "round",
        *(pl.col(f).cast(pl.Int64).alias(f"_d_{n}") for f, n in (
            ("_win", "wins"), ("_loss", "losses"), ("_draw", "draws"), ("_bye", "byes"))),
        (~pl.col("_unpaired")).cast(pl.Int64).alias("_d_opponents"),
        pl.col("_pts").alias("_d__pts"), pl.col("games_won").alias("_d_games_won"),
        pl.col("games_lost").alias("_d_games_lost"),
        pl.col("games_drawn").alias("_d_games_drawn")).pipe(collect)
    summed = ("wins", "losses", "draws", "byes", "opponents", "_pts", "games_won",
              "games_lost", "games_drawn")
    post = (seats.select("_u", "k", "_p", "_e", "played")
            .join(before, on="_p", how="left")
            .join(new, on=["_u", "k", "_p"], how="left")
            .with_columns(
                *(pl.col(c).fill_null(0) + pl.col(f"_d_{c}").fill_null(0) for c in summed),
                rounds_played=pl.col("rounds_played").fill_null(0)
                + pl.col("played").cast(pl.Int64),
                last_round=pl.coalesce("round", "last_round"))
            # the engine: dropped = last round before the event's last round (same in every
            # scenario: only game scores vary between scenarios, not who plays)
            .with_columns(dropped=pl.col("last_round") < pl.col("last_round").max().over("_e")))
    scales = rate_scales(post, rules, post["opponents"], probe=True)
    if not scales.exact():
        return None  # the engine itself may round here: keep its path (the definition)
    rates = own_rates(rules, scales)
    post = post.with_columns(_x_mw=rates["_x_mwp"], _x_gw=rates["_x_gwp"],
                             _x_gwo=rates["_x_gwp_opp"])
    rate_s, game_s, k_max, k_lcm = (scales.rate.scale, scales.game.scale, scales.k_max,
                                    scales.k_lcm)
    # the width of a player's sum over opponents (Int64 where it fits: faster joins and
    # sorts; the order of integers does not depend on their width), whatever width the
    # engine gave a rate (Int64 where the rate fits: its sum over opponents may not)
    wide = exact_dtype(max(rate_s, game_s) * k_max)
    post = post.with_columns(pl.col("_x_mw", "_x_gw", "_x_gwo").cast(wide))
    values = post.select("_u", "k", "_p", "_e", "_pts", "_x_mw", "_x_gw", "wins", "games_won")
    # who faced whom (multiplicity), prior rounds and the analysed round's opponent
    faced = (pl.concat([
        prior.filter(~pl.col("_unpaired")).select(pl.col("player_id").alias("_p"),
                                                   pl.col("opponent_id").alias("_o")),
        seats.filter(pl.col("_o").is_not_null() & (pl.col("k") == 0)).select("_p", "_o")])
        .group_by("_p", "_o").agg(c=pl.len().cast(post.schema["_x_mw"])))
    opp_vals = post.select(pl.col("_p").alias("_o"), "_u", "k", "_x_mw", "_x_gwo")
    contrib = (faced.join(opp_vals, on="_o", how="inner")
               .group_by("_p", "_u", "k")
               .agg(_smw=(pl.col("c") * pl.col("_x_mw")).sum(),
                    _nmw=(pl.col("c") * pl.col("_x_mw").is_not_null()).sum().cast(pl.Int64),
                    _sgw=(pl.col("c") * pl.col("_x_gwo")).sum(),
                    _ngw=(pl.col("c") * pl.col("_x_gwo").is_not_null()).sum().cast(pl.Int64)))
    cols_s, desc = _sort_keys(rules)
    never_null = {"_pts", "wins", "games_won"}
    return FastModel(units=units, values=values, players=players.select("_p", *KEY),
                     contrib=contrib, pairs=contrib.select("_p", "_u").unique(),
                     n_events=max(int(players["_e"].max() or 0) + 1, 1),  # type: ignore[arg-type]
                     sort_cols=cols_s, descending=desc, k_lcm=k_lcm,
                     first=cols_s[0] if cols_s and cols_s[0] in never_null else None)


def scenario_rows(rf: RoundFrame, events: pl.DataFrame) -> int:
    """Rows one scenario of all of ``events`` (an ``event_id`` column) costs to evaluate:
    about one per player plus one per (player, opponent) pair — what either path joins."""
    ev = events["event_id"].unique().implode()
    players = rf.seats.filter((pl.col("k") == 0) & pl.col("event_id").is_in(ev)).height
    return players + rf.faced.filter(pl.col("event_id").is_in(ev)).height


def chunk_scenarios(rf: RoundFrame, events: pl.DataFrame, budget: int = ROW_BUDGET) -> int:
    """Scenarios of each event of ``events`` in one chunk, so that a chunk touches about
    ``budget`` rows (:func:`scenario_rows`; at least one scenario)."""
    return max(1, budget // max(scenario_rows(rf, events), 1))


def scenario_chunks(rf: RoundFrame, assignment: pl.DataFrame,
                    budget: int = ROW_BUDGET) -> list[pl.DataFrame]:
    """``assignment`` split by ``scenario_id`` so one chunk touches about ``budget`` rows.

    The split depends on the data only, never on the path, so the fast path and the engine
    path aggregate the same chunks in the same order.
    """
    if assignment.height == 0:
        return []
    size = chunk_scenarios(rf, assignment, budget)
    lo, hi = assignment.select(lo=pl.col("scenario_id").min(),
                               hi=pl.col("scenario_id").max()).row(0)
    if hi - lo < size:
        return [assignment]
    return assignment.with_columns(_c=(pl.col("scenario_id") - lo) // size).partition_by(
        "_c", include_key=False, maintain_order=True)
