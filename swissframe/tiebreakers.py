"""Tiebreaker functions: one per criterion, each ``Context -> LazyFrame``.

Each function returns one row per (keys…, player_id) with one named public column and its
exact twin ``_x_<name>`` (see :mod:`swissframe._exact`), so a ruleset is just an ordered
tuple of names looked up in :data:`TIEBREAKERS`. Floors, caps and bye handling come from the
ruleset's fields; no function branches on a game's name.

The shared inputs live in a :class:`Context`:

- ``rows`` — one row per player per Swiss round with derived flags ``_win``, ``_draw``,
  ``_loss``, ``_unpaired`` (null opponent), ``_bye`` (unpaired win) and ``_pts`` (match points
  in integer units of ``1 / points_unit``);
- ``players`` — one row per player with the record, ``dropped``, and the player's own
  clamped rates ``mwp`` / ``gwp`` and ``_x_mwp_opp`` / ``_x_gwp_opp`` (the values their
  opponents average: always floored and capped).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final

import polars as pl

from swissframe._exact import ExactScale, exact_name, fallback_key, mean_exact, warn_fallback
from swissframe.rules import Ruleset

__all__ = ["TIEBREAKERS", "Context", "register_tiebreaker"]

PLAYER: Final = "player_id"
OPP: Final = "opponent_id"


@dataclass
class Context:
    """Everything a tiebreaker function may read. Built by :mod:`swissframe.standings`."""

    rows: pl.LazyFrame
    players: pl.LazyFrame
    keys: tuple[str, ...]
    rules: Ruleset
    rate_scale: ExactScale
    game_scale: ExactScale
    k_max: int
    cache: dict[str, tuple[pl.LazyFrame, ExactScale | None]] = field(default_factory=dict)

    @property
    def pkeys(self) -> list[str]:
        """Keys plus ``player_id``."""
        return [*self.keys, PLAYER]


Tiebreaker = Callable[..., pl.LazyFrame]
TIEBREAKERS: dict[str, Tiebreaker] = {}


def register_tiebreaker(name: str) -> Callable[[Tiebreaker], Tiebreaker]:
    """Decorator adding a function to :data:`TIEBREAKERS` under ``name``."""

    def deco(fn: Tiebreaker) -> Tiebreaker:
        TIEBREAKERS[name] = fn
        return fn

    return deco


def _own(ctx: Context, column: str, name: str) -> pl.LazyFrame:
    return ctx.players.select(*ctx.pkeys, pl.col(column).alias(name),
                              pl.col(exact_name(column)).alias(exact_name(name)))


@register_tiebreaker("match_points")
def match_points(ctx: Context, *, name: str = "match_points") -> pl.LazyFrame:
    """Match points (MTR Appendix C: win 3, draw 1, loss 0, bye 3 — from the ruleset)."""
    return _own(ctx, "match_points", name)


@register_tiebreaker("mwp")
def mwp(ctx: Context, *, name: str = "mwp") -> pl.LazyFrame:
    """The player's own match-win rate, floored and capped (MTR Appendix C MW%)."""
    return _own(ctx, "mwp", name)


@register_tiebreaker("gwp")
def gwp(ctx: Context, *, name: str = "gwp") -> pl.LazyFrame:
    """The player's own game-win rate (MTR Appendix C GW%); floored if ``floor_own_gw``."""
    return _own(ctx, "gwp", name)


def _opponent_mean(ctx: Context, source: str, scale: ExactScale, name: str) -> pl.LazyFrame:
    """Mean over every non-bye opponent faced (twice if met twice) of ``source``."""
    key = f"{name}:{source}"
    if key in ctx.cache:
        return ctx.cache[key][0]
    opp_vals = ctx.players.select(*ctx.keys, pl.col(PLAYER).alias(OPP),
                                  pl.col(exact_name(source)).alias("_v"),
                                  pl.col(source).alias("_f"))
    faced = ctx.rows.filter(~pl.col("_unpaired")).select(*ctx.keys, PLAYER, OPP)
    agg = (faced.join(opp_vals, on=[*ctx.keys, OPP], how="left")
           .group_by(ctx.pkeys)
           .agg(pl.col("_v").sum().alias("_t"), pl.col("_v").count().alias("_k"),
                pl.col("_f").mean().alias("_mean_f")))
    exact, flt, outer = mean_exact(pl.col("_t"), pl.col("_k"), scale, ctx.k_max)
    if outer.fits():
        out = agg.select(*ctx.pkeys, flt.alias(name), exact.alias(exact_name(name)))
    else:
        warn_fallback(name, outer.scale)
        out = agg.select(*ctx.pkeys, pl.col("_mean_f").alias(name),
                         fallback_key(pl.col("_mean_f")).alias(exact_name(name)))
    out = ctx.players.select(ctx.pkeys).join(out, on=ctx.pkeys, how="left")
    ctx.cache[key] = (out, outer)
    return out


@register_tiebreaker("omwp")
def omwp(ctx: Context, *, name: str = "omwp") -> pl.LazyFrame:
    """Opponents' match-win % (MTR Appendix C): mean of each non-bye opponent's floored MW%.

    Null when the player faced no opponent (ranked below any value).
    """
    return _opponent_mean(ctx, "mwp_opp", ctx.rate_scale, name)


@register_tiebreaker("ogwp")
def ogwp(ctx: Context, *, name: str = "ogwp") -> pl.LazyFrame:
    """Opponents' game-win % (MTR Appendix C): mean of each opponent's floored GW%."""
    return _opponent_mean(ctx, "gwp_opp", ctx.game_scale, name)


@register_tiebreaker("oomwp")
def oomwp(ctx: Context, *, name: str = "oomwp") -> pl.LazyFrame:
    """Opponents' opponents' match-win % (Pokémon TRH §5.6.3 "OppOppWin%", Yu-Gi-Oh!).

    Mean over non-bye opponents of their OMW%; an opponent whose own OMW% is null (they
    faced nobody else) contributes nothing.
    """
    inner_frame = omwp(ctx, name="_omwp_inner")
    inner_scale = ctx.cache["_omwp_inner:mwp_opp"][1]
    assert inner_scale is not None
    # A nested mean: lift the inner exact values to a common scale first (they already are:
    # mean_exact returns values at one scale), then average again.
    tmp = ctx.players.join(inner_frame, on=ctx.pkeys, how="left").rename(
        {"_omwp_inner": "_oinner", exact_name("_omwp_inner"): exact_name("_oinner")})
    sub = Context(rows=ctx.rows, players=tmp, keys=ctx.keys, rules=ctx.rules,
                  rate_scale=ctx.rate_scale, game_scale=ctx.game_scale, k_max=ctx.k_max,
                  cache={})
    return _opponent_mean(sub, "_oinner", inner_scale, name)


def points_unit(rules: Ruleset) -> int:
    """Denominator that makes every point value of ``rules`` an integer."""
    from swissframe._exact import lcm_of

    return lcm_of(p.denominator for p in (rules.points_win, rules.points_draw,
                                          rules.points_loss, rules.points_bye))


def prepare_rows(results: pl.LazyFrame, rules: Ruleset) -> pl.LazyFrame:
    """Swiss rows only, with result flags and integer match-point units."""
    unit = points_unit(rules)

    def units(p: Fraction) -> pl.Expr:
        return pl.lit(int(p * unit), dtype=pl.Int64)

    won, lost = pl.col("games_won"), pl.col("games_lost")
    return (results.filter(pl.col("phase") == "swiss")
            .with_columns(_win=won > lost, _loss=won < lost, _draw=won == lost,
                          _unpaired=pl.col(OPP).is_null())
            .with_columns(_bye=pl.col("_unpaired") & pl.col("_win"))
            .with_columns(_pts=pl.when(pl.col("_bye")).then(units(rules.points_bye))
                          .when(pl.col("_win")).then(units(rules.points_win))
                          .when(pl.col("_draw")).then(units(rules.points_draw))
                          .otherwise(units(rules.points_loss))))


def aggregate_players(rows: pl.LazyFrame, keys: tuple[str, ...]) -> pl.LazyFrame:
    """The per-player record (before rates): one group-by over the rows."""
    return (rows.group_by([*keys, PLAYER])
            .agg(wins=pl.col("_win").sum().cast(pl.Int64),
                 losses=pl.col("_loss").sum().cast(pl.Int64),
                 draws=pl.col("_draw").sum().cast(pl.Int64),
                 byes=pl.col("_bye").sum().cast(pl.Int64),
                 rounds_played=pl.len().cast(pl.Int64),
                 opponents=(~pl.col("_unpaired")).sum().cast(pl.Int64),
                 _pts=pl.col("_pts").sum(),
                 games_won=pl.col("games_won").sum(),
                 games_lost=pl.col("games_lost").sum(),
                 games_drawn=pl.col("games_drawn").sum(),
                 first_round=pl.col("round").min(),
                 last_round=pl.col("round").max())
            .with_columns(dropped=pl.col("last_round") < pl.col("last_round").max().over(keys)))


def rate_terms(rules: Ruleset) -> tuple[pl.Expr, pl.Expr, pl.Expr, pl.Expr]:
    """Numerator/denominator of the own match rate and of the game rate (integers)."""
    dv, gv = rules.draw_value, rules.drawn_game_value
    wins, rounds = pl.col("wins"), pl.col("rounds_played")
    if not rules.bye_in_own_rate:
        wins, rounds = wins - pl.col("byes"), rounds - pl.col("byes")
    m_num = wins * dv.denominator + pl.col("draws") * dv.numerator
    m_den = rounds * dv.denominator
    games = pl.col("games_won") + pl.col("games_lost") + pl.col("games_drawn")
    g_num = pl.col("games_won") * gv.denominator + pl.col("games_drawn") * gv.numerator
    g_den = games * gv.denominator
    return m_num, m_den, g_num, g_den


def clamp_exact(x: pl.Expr, lo: pl.Expr, hi: pl.Expr) -> pl.Expr:
    """Clamp an exact column (nulls stay null)."""
    return pl.when(x < lo).then(lo).when(x > hi).then(hi).otherwise(x)
