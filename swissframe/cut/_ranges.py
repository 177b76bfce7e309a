"""Exact tiebreaker ranges after the next round, per own outcome (:func:`next_round_ranges`).

The analysed round is prepared once (:func:`swissframe.cut._round.prepare_round`: every
player's record after each outcome of their unit) and the opponents' sums are bounded unit by
unit (:func:`swissframe.cut._round.ranges_by_seat`): two opponents who meet cannot both win.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Final

import polars as pl

from swissframe._collect import scoped
from swissframe.cut._round import (
    KEY,
    OUTCOME_ORDER,
    Frame,
    RoundFrame,
    opponents_bounded,
    outcome_table,
    per_exact_group,
    ranges_by_seat,
)
from swissframe.engine._exact import ratio_float
from swissframe.engine._record import points_unit
from swissframe.engine.standings import standings
from swissframe.errors import RulesetError, check_flag
from swissframe.rules._ruleset import GWP, OGWP, OMWP, POINTS, Ruleset, get

__all__ = ["next_round_ranges"]


def _by_level(table: pl.DataFrame, by_score: bool) -> pl.DataFrame:
    key = [*KEY, "outcome", "score"] if by_score else [*KEY, "outcome"]
    f = table.with_columns(
        outcome=pl.when(pl.col("level") == "bye").then(pl.lit("win")).otherwise("level"))
    return (f.group_by(key).agg(
        pl.col("_pts").min().alias("_x_match_points"),
        pl.col("_x_omw_lo").min(), pl.col("_x_omw_hi").max(),
        pl.col("_x_gw").min().alias("_x_gw_lo"), pl.col("_x_gw").max().alias("_x_gw_hi"),
        pl.col("_x_ogw_lo").min(), pl.col("_x_ogw_hi").max(),
        pl.col("level").first().alias("_level"), pl.col("unit").first().alias("_unit"),
        pl.col("k").alias("_ks")))


@scoped
def next_round_ranges(results: Frame, pairings: Frame | None = None, rules: str | Ruleset = "mtg",
                      *, outcomes: Sequence[tuple[int, int, int]] | None = None,
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
        Game scores a match can end in (from the first seat's side); None: the ruleset's
        ``match_outcomes`` (a card game's best of three, a chess game's win, loss or draw).
    by_score
        One row per own game score (``score`` column) instead of per outcome level.

    Returns
    -------
    DataFrame
        ``event_id, player_id, outcome[, score], match_points, omwp_min, omwp_max,
        gwp_min, gwp_max, ogwp_min, ogwp_max`` (fractions). ``outcome`` is win / draw /
        loss (a bye is a win; ``dropped`` for a player not in the pairings);
        ``match_points`` the player's after it (per outcome: the fewest its game scores
        give, e.g. without a two-game match's sweep bonus). A dropped player whose
        values the ruleset takes at the round they last played (``snapshot=
        "last_round"``, Pokémon) has those values as both min and max: the round moves
        nothing the standings show of them.

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
    check_flag("by_score", by_score)
    rs = get(rules)
    why = opponents_bounded(rs)
    if why is not None:
        # (the ranges are the analyses' own opponents' means, which count every meeting)
        msg = (f"next-round ranges: {why}; the ranges count every meeting, every row's "
               "games and the rounds an opponent played. Hint: the ranges of "
               "dataclasses.replace(rules, distinct_opponents=False, "
               "unopposed_loss_games='count', opponent_mw_rounds='played'), or "
               "swissframe.standings for these values.")
        raise RulesetError(msg)
    return per_exact_group(results, pairings, rs,
                           outcome_table(rs.match_outcomes if outcomes is None else outcomes),
                           lambda rf: _ranges(rf, rs, by_score=by_score))


def _ranges(rf: RoundFrame, rs: Ruleset, *, by_score: bool) -> pl.DataFrame:
    """:func:`next_round_ranges` of one analysed round."""
    lv = _by_level(ranges_by_seat(rf), by_score)
    unit = points_unit(rs)
    cols = [*KEY, "outcome", *(["score"] if by_score else [])]

    def rate(name: str, scale: int) -> pl.Expr:
        # the float of the rational alone (ratio_float), not of the call's scale: the
        # scale covers every event of the call, and a value's last bit moved with it
        return ratio_float(pl.col(name), pl.lit(scale, dtype=pl.Int128), scale.bit_length())

    out = lv.select(
        *cols,
        (pl.col("_x_match_points").cast(pl.Float64) / unit).alias("match_points"),
        rate("_x_omw_lo", rf.rate_scale * rf.k_lcm).alias("omwp_min"),
        rate("_x_omw_hi", rf.rate_scale * rf.k_lcm).alias("omwp_max"),
        rate("_x_gw_lo", rf.game_scale).alias("gwp_min"),
        rate("_x_gw_hi", rf.game_scale).alias("gwp_max"),
        rate("_x_ogw_lo", rf.game_scale * rf.k_lcm).alias("ogwp_min"),
        rate("_x_ogw_hi", rf.game_scale * rf.k_lcm).alias("ogwp_max"),
        pl.col("outcome").replace_strict(OUTCOME_ORDER, default=9).alias("_o"))
    if rs.integer_points:
        out = out.with_columns(pl.col("match_points").cast(pl.Int64))
    out = _frozen(out, rf, rs)
    sort = ["event_id", "player_id", "_o", *(["score"] if by_score else [])]
    return out.sort(sort).drop("_o")


#: The rates :func:`next_round_ranges` bounds, as the engine's criteria name them.
_RATES: Final = ("omwp", "gwp", "ogwp")


def _frozen(out: pl.DataFrame, rf: RoundFrame, rs: Ruleset) -> pl.DataFrame:
    """``out`` with a dropped player's rates where the ruleset takes them at the round
    they last played (``snapshot="last_round"``, Pokémon's TOM): the engine's values of
    the rounds before the analysed one, whatever it brings (their opponents' results in
    it move nothing the standings show). The ranges over the round's outcomes were
    reported there: a range that did not hold the value the standings then showed.

    The player's own rates are those of that round too: not capped as a dropped
    player's (the cap of ``cap_dropped`` is the one of the opponents' means after they
    left, ``engine/_record.eval_rounds``).
    """
    if rs.snapshot != "last_round" or not out.filter(pl.col("outcome") == "dropped").height:
        return out
    # (the rates alone, whatever the ruleset ranks by: the values at a player's own last
    # round do not depend on the criteria)
    rates = dataclasses.replace(rs, criteria=(POINTS, OMWP, GWP, OGWP), columns=())
    prior = rf.prior.drop("_R").filter(pl.col("event_id").is_in(
        out.filter(pl.col("outcome") == "dropped")["event_id"].unique().implode()))
    at_drop = standings(prior, rates).select(*KEY, *(pl.col(c).alias(f"_f_{c}")
                                                      for c in _RATES))
    dropped = pl.col("outcome") == "dropped"
    return (out.join(at_drop, on=KEY, how="left")
            .with_columns(pl.when(dropped).then(pl.col(f"_f_{c}")).otherwise(pl.col(
                f"{c}_{end}")).alias(f"{c}_{end}") for c in _RATES for end in ("min", "max"))
            .drop(*(f"_f_{c}" for c in _RATES)))
