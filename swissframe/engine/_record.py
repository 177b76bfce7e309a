"""The per-player record: row flags, match points, the record, rate terms and clamps.

Every rule about *what a round is worth* lives here: which rows count (Swiss only), a row's
result flags, its match points (win / draw / loss / bye points of the ruleset, plus points per
game won and the sweep bonus), the record summed per player, and the numerators and
denominators of the own match- and game-win rates with the clamp that floors and caps them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final

import polars as pl

from swissframe.engine._exact import lcm_of
from swissframe.rules._ruleset import Ruleset

__all__ = ["aggregate_players", "clamp_exact", "points_unit", "prepare_rows", "rate_terms",
           "unplayed_kind"]

PLAYER: Final = "player_id"
OPP: Final = "opponent_id"


def points_unit(rules: Ruleset) -> int:
    """Denominator that makes every point value of ``rules`` an integer."""
    return lcm_of(p.denominator for p in (rules.points_win, rules.points_draw,
                                          rules.points_loss, rules.points_bye,
                                          rules.points_game_win, rules.points_sweep))


def unplayed_kind() -> pl.Expr:
    """The ``unplayed`` kind of a row, derived when the column is absent or null: an
    unpaired win is a pairing bye, an unpaired draw a half-point bye, an unpaired loss an
    absence; a row with an opponent and no kind was played."""
    won, lost = pl.col("games_won"), pl.col("games_lost")
    derived = (pl.when(pl.col(OPP).is_not_null()).then(pl.lit(None, dtype=pl.String))
               .when(won > lost).then(pl.lit("pairing_bye"))
               .when(won == lost).then(pl.lit("half_bye"))
               .otherwise(pl.lit("absent")))
    return pl.coalesce(pl.col("unplayed"), derived)


def prepare_rows(results: pl.LazyFrame, rules: Ruleset) -> pl.LazyFrame:
    """Swiss rows only, with result flags and integer match-point units.

    Flags: ``_win``, ``_loss``, ``_draw``, ``_unpaired`` (null opponent), ``_bye`` (unpaired
    win), ``_earned`` (a bye marked ``unplayed="full_bye"``), ``_kind`` (the unplayed kind,
    null when played over the board), ``_pts`` (match points in units of
    ``1 / points_unit``).
    """
    unit = points_unit(rules)

    def units(p: Fraction) -> pl.Expr:
        return pl.lit(int(p * unit), dtype=pl.Int64)

    won, lost = pl.col("games_won"), pl.col("games_lost")
    if "unplayed" not in results.collect_schema().names():
        results = results.with_columns(unplayed=pl.lit(None, dtype=pl.String))
    game_pts = won * units(rules.points_game_win) + pl.when(
        (won >= rules.sweep_games) & (lost == 0) & (pl.col("games_drawn") == 0)
    ).then(units(rules.points_sweep)).otherwise(pl.lit(0, dtype=pl.Int64))
    return (results.filter(pl.col("phase") == "swiss")
            .with_columns(_win=won > lost, _loss=won < lost, _draw=won == lost,
                          _unpaired=pl.col(OPP).is_null(), _kind=unplayed_kind())
            .with_columns(_bye=pl.col("_unpaired") & pl.col("_win"))
            .with_columns(_earned=pl.col("_bye") & (pl.col("_kind") == "full_bye"),
                          _pts=pl.when(pl.col("_bye")).then(units(rules.points_bye))
                          .when(pl.col("_win")).then(units(rules.points_win))
                          .when(pl.col("_draw")).then(units(rules.points_draw))
                          .otherwise(units(rules.points_loss)) + game_pts))


def aggregate_players(rows: pl.LazyFrame, keys: tuple[str, ...], *,
                      event_of: pl.Expr | None = None) -> pl.LazyFrame:
    """The per-player record (before rates): one group-by over the rows.

    ``event_of``: with no ``keys``, player_id is a code unique across events (the coded
    path of :mod:`swissframe.standings`) and this expression of it gives the event, which
    ``dropped`` compares within.
    """
    event: list[str] | pl.Expr = list(keys) if event_of is None else event_of
    return (rows.group_by([*keys, PLAYER])
            .agg(wins=pl.col("_win").sum().cast(pl.Int64),
                 losses=pl.col("_loss").sum().cast(pl.Int64),
                 draws=pl.col("_draw").sum().cast(pl.Int64),
                 byes=pl.col("_bye").sum().cast(pl.Int64),
                 earned_byes=pl.col("_earned").sum().cast(pl.Int64),
                 rounds_played=pl.len().cast(pl.Int64),
                 opponents=(~pl.col("_unpaired")).sum().cast(pl.Int64),
                 _pts=pl.col("_pts").sum(),
                 games_won=pl.col("games_won").sum(),
                 games_lost=pl.col("games_lost").sum(),
                 games_drawn=pl.col("games_drawn").sum(),
                 first_round=pl.col("round").min(),
                 last_round=pl.col("round").max())
            .with_columns(dropped=pl.col("last_round") < pl.col("last_round").max().over(event)))


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
