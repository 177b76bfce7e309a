"""The per-player record: row flags, match points, the record, rate terms and clamps.

Every rule about *what a round is worth* lives here: which rows count (Swiss only), a row's
result flags, its match points (win / draw / loss / bye points of the ruleset, plus points per
game won and the sweep bonus), the record summed per player, and the numerators and
denominators of the own match- and game-win rates with the clamp that floors and caps them.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

import polars as pl

from swissframe._collect import collect, concurrently, select, with_columns
from swissframe._display import quoted
from swissframe.engine._exact import (
    FALLBACK_SCALE,
    BitFields,
    ExactScale,
    RoundedScale,
    join_keys,
    lcm_of,
    per_group,
    segment_sums,
    sum_layouts,
    warn_fallback,
)
from swissframe.errors import DataError, SchemaError
from swissframe.rules._ruleset import Ruleset
from swissframe.schema import GAME_COLUMNS, IdCodes, SeatOrder

__all__ = [
    "EVENT_ROUNDS",
    "PAIRED",
    "RECORD_COUNTS",
    "PlayerRows",
    "RateScales",
    "SumBounds",
    "aggregate_players",
    "clamp_exact",
    "clamp_float",
    "named",
    "opponent_mwp",
    "opponent_rate_terms",
    "opponents_as_met",
    "own_rates",
    "own_rates_staged",
    "points_of_counts",
    "points_unit",
    "prepare_rows",
    "ranking_keys",
    "rate_scales",
    "rate_terms",
    "round_position",
    "row_points",
    "seat_record",
    "swiss_rows",
    "unplayed_kind",
    "with_event_rounds",
]

PLAYER: Final = "player_id"
OPP: Final = "opponent_id"


def points_unit(rules: Ruleset) -> int:
    """Denominator that makes every point value of ``rules`` an integer."""
    return lcm_of(p.denominator for p in (rules.points_win, rules.points_draw,
                                          rules.points_loss, rules.points_bye,
                                          rules.points_game_win, rules.points_sweep))


def unplayed_kind(*, given: bool = True) -> pl.Expr:
    """The ``unplayed`` kind of a row, derived when the column is absent or null: an
    unpaired win is a pairing bye, an unpaired draw a half-point bye, an unpaired loss an
    absence; a row with an opponent and no kind was played. ``given=False``: the rows
    have no ``unplayed`` column (every kind is derived)."""
    won, lost = pl.col("games_won"), pl.col("games_lost")
    derived = (pl.when(pl.col(OPP).is_not_null()).then(pl.lit(None, dtype=pl.String))
               .when(won > lost).then(pl.lit("pairing_bye"))
               .when(won == lost).then(pl.lit("half_bye"))
               .otherwise(pl.lit("absent")))
    return pl.coalesce(pl.col("unplayed"), derived) if given else derived


def swiss_rows(rows: pl.LazyFrame, *, swiss: bool = False) -> pl.LazyFrame:
    """The Swiss rows of ``rows``; ``swiss``: every row is one (validation counted them:
    ``schema.IdCodes.swiss``), so ``rows`` as they are — no row's phase compared and no
    copy of the rows that a filter keeping every row still makes (a node fewer in each
    plan reading them)."""
    return rows if swiss else rows.filter(pl.col("phase") == "swiss")


def prepare_rows(results: pl.LazyFrame, rules: Ruleset, *,
                 columns: Sequence[str] | None = None, swiss: bool = False) -> pl.LazyFrame:
    """Swiss rows only, with result flags and integer match-point units.

    Flags: ``_win``, ``_loss``, ``_draw`` (a ``double_loss`` row is a loss whatever its
    games), ``_unpaired`` (null opponent), ``_bye`` (unpaired win), ``_earned`` (a bye
    marked ``unplayed="full_bye"``), ``_kind`` (the unplayed kind, null when played over the
    board), ``_pts`` (match points in units of ``1 / points_unit``). ``columns``:
    ``results``' columns where the caller knows them (resolving a plan's schema costs a
    small event's call tens of microseconds). ``swiss``: every row of ``results`` is a
    Swiss row (validation counted them: ``schema.IdCodes.swiss``), so none is filtered
    out and no row's phase is compared (a node fewer in each plan reading the rows).
    """
    names = results.collect_schema().names() if columns is None else columns
    given = "unplayed" in names
    if not given:
        results = results.with_columns(unplayed=pl.lit(None, dtype=pl.String))
    steps = _row_flags(rules, double_loss="double_loss" in names, unplayed=given)
    out = swiss_rows(results, swiss=swiss)
    for step in steps:
        out = with_columns(out, *step)
    return out


@functools.lru_cache(maxsize=64)
def _row_flags(rules: Ruleset, *, double_loss: bool, unplayed: bool
               ) -> tuple[tuple[pl.Expr, ...], ...]:
    """The expressions of :func:`prepare_rows`, in three dependent steps. They depend on
    the ruleset alone, so they are built once per ruleset (building them costs about as
    much as running them on one event). Without a ``double_loss`` or ``unplayed``
    column, the terms that read them are left out (a small input's queries run without
    expression simplification, so a constant term would be computed on every row)."""
    won, lost = pl.col("games_won"), pl.col("games_lost")
    win, loss, draw = won > lost, won < lost, won == lost
    dl = None
    if double_loss:
        dl = pl.col("double_loss").fill_null(value=False)
        win, loss, draw = win & ~dl, loss | dl, draw & ~dl
    earned = (pl.col("_bye") & (pl.col("_kind") == "full_bye") if unplayed
              else pl.lit(value=False))
    bye = pl.col("_unpaired") & pl.col("_win")
    second = {"_bye": bye}
    if rules.bye_games is not None:
        # a bye counts the ruleset's games whatever its row records (MTR: a 2-0 win); the
        # flags above are unchanged (bye_games is a win), the points below read these games
        second |= {c: pl.when(bye).then(pl.lit(g, dtype=pl.Int64)).otherwise(pl.col(c))
                   for c, g in zip(GAME_COLUMNS, rules.bye_games, strict=True)}
    steps: tuple[tuple[pl.Expr, ...], ...] = (named({"_win": win, "_loss": loss, "_draw": draw,
                    "_unpaired": pl.col(OPP).is_null(), "_kind": unplayed_kind(given=unplayed)}),
             named(second),
             named({"_earned": earned,
                    "_pts": row_points(rules, won, lost, pl.col("games_drawn"),
                                       bye=pl.col("_bye"), double_loss=dl)}))
    if rules.unopposed_loss_games == "ignore" and unplayed:
        # a no-show's games leave the game record once its result and points are set
        # (a derived kind is never a forfeit loss: without the column nothing changes)
        no_show = pl.col("_unpaired") & (pl.col("_kind") == "forfeit_loss")
        steps = (*steps, named({c: pl.when(no_show).then(pl.lit(0, dtype=pl.Int64))
                                .otherwise(pl.col(c)) for c in GAME_COLUMNS}))
    return steps


def game_range(rules: Ruleset, low: int, high: int) -> tuple[int, int]:
    """The range of a prepared row's game counts (:func:`prepare_rows`) when the results'
    rows record counts in ``[low, high]``: a bye counted as ``rules.bye_games`` may lie
    outside it. For bounds measured on the results, such as the packed record's."""
    if rules.bye_games is None:
        return low, high
    return min(low, *rules.bye_games), max(high, *rules.bye_games)


def named(step: Mapping[str, pl.Expr]) -> tuple[pl.Expr, ...]:
    """A cached ``with_columns`` step's expressions named once (a name given as a keyword
    is an alias Polars builds on every call)."""
    return tuple(e.alias(n) for n, e in step.items())


def row_points(rules: Ruleset, won: pl.Expr, lost: pl.Expr, drawn: pl.Expr, *,
               bye: pl.Expr, double_loss: pl.Expr | None = None) -> pl.Expr:
    """Match points of one round, in units of ``1 / points_unit(rules)`` (Int64).

    The ruleset's points for a bye, a win, a draw or a loss (by games won against lost),
    plus ``points_game_win`` per game won and ``points_sweep`` for winning at least
    ``sweep_games`` games without losing or drawing one (melee.gg two-game matches: a 2-0
    is 3 + 3 + 1 = 7); a ``double_loss`` round is worth ``points_loss`` alone. The one
    definition of what a round is worth.

    Examples
    --------
    >>> import polars as pl
    >>> from swissframe.rules import MELEE_TWO_GAME
    >>> df = pl.DataFrame({"w": [2, 1, 0], "l": [0, 1, 2]})
    >>> df.select(row_points(MELEE_TWO_GAME, pl.col("w"), pl.col("l"), pl.lit(0),
    ...                      bye=pl.lit(False)).alias("pts"))["pts"].to_list()
    [7, 3, 0]
    """
    unit = points_unit(rules)

    def units(p: Fraction) -> pl.Expr:
        return pl.lit(int(p * unit), dtype=pl.Int64)

    pts = (pl.when(bye).then(units(rules.points_bye))
           .when(won > lost).then(units(rules.points_win))
           .when(won == lost).then(units(rules.points_draw))
           .otherwise(units(rules.points_loss)))
    if rules.points_game_win:
        pts = pts + won.cast(pl.Int64) * units(rules.points_game_win)
    if rules.points_sweep:
        pts = pts + pl.when((won >= rules.sweep_games) & (lost == 0) & (drawn == 0)).then(
            units(rules.points_sweep)).otherwise(pl.lit(0, dtype=pl.Int64))
    if double_loss is None:
        return pts
    return pl.when(double_loss).then(units(rules.points_loss)).otherwise(pts)


#: The record's counts of a player's rows: record column -> the row column summed (the
#: flags of :func:`prepare_rows`, ``_paired`` for a row with an opponent, the game counts),
#: or None for the number of rows. One definition for the group-by
#: (:func:`aggregate_players`) and the running sums (:mod:`swissframe.engine._cumulative`).
RECORD_COUNTS: Final[dict[str, str | None]] = {
    "wins": "_win", "losses": "_loss", "draws": "_draw", "byes": "_bye",
    "earned_byes": "_earned", "rounds_played": None, "opponents": "_paired", "_pts": "_pts",
    "games_won": "games_won", "games_lost": "games_lost", "games_drawn": "games_drawn"}
#: A row with an opponent (the ``_paired`` of :data:`RECORD_COUNTS`).
PAIRED: Final = ~pl.col("_unpaired")


def aggregate_players(rows: pl.LazyFrame, keys: tuple[str, ...], *,
                      event_unit: int | None = None,
                      packed: SumBounds | None = None,
                      first_round: bool = True,
                      points: pl.Expr | None = None,
                      extra: Sequence[pl.Expr] = ()) -> pl.LazyFrame:
    """The per-player record (before rates): one group-by over the rows.

    ``event_unit``: with no ``keys``, player_id is a code unique across events (the coded
    path of :mod:`swissframe.standings`), ``event code · event_unit + player code``, so
    ``player_id // event_unit`` gives the event, which ``dropped`` compares within.
    Neither keys nor ``event_unit``: the rows are of one event.

    ``packed``: the counts the bounds bound are summed side by side in as few Int64 as
    hold them (:func:`_packed_counts`; fewer aggregations), then read back: the same
    columns, as long as the caller finds :meth:`SumBounds.held` on the result. The number
    of rows is one of them, the last field (:data:`ROW_COUNT`): a count past its bound is
    read whole, so ``held`` sees it.

    ``first_round``: without it, the record has no ``first_round`` column (an aggregation
    less: 10,000 events, 330 -> 300 ms CPU), for a caller whose ruleset's scales do not
    grow with the round numbers (:func:`~swissframe.engine.tiebreakers.spans_rounds`).

    ``points``: with ``packed``, the record's ``_pts`` from its counts
    (:func:`points_of_counts`) instead of a sum of the rows' points (an aggregation less,
    and no points a row: 10,000 events, 300 -> 270 ms CPU).

    ``extra``: further named aggregations of a player's rows that a criterion reads from
    the record (:func:`~swissframe.engine._chess.record_aggs`), before the record's own
    columns (not with ``packed``).
    """
    by, aggs, dropped = _record_exprs(keys, event_unit, first_round=first_round)
    layouts = [] if packed is None else _packed_counts(packed)
    if not layouts:
        # (the extra columns first: keyword aggregations follow positional ones)
        return rows.group_by(by).agg(*extra, **aggs).with_columns(dropped=dropped)
    if extra:
        msg = "internal: aggregate_players(extra=...) with packed counts"
        raise AssertionError(msg)
    unpacked = {n: e for i, layout in enumerate(layouts)
                for n, e in layout.unpack(pl.col(f"__sums{i}")).items()}
    counts = {n: unpacked[ROW_COUNT if c is None else c] for n, c in RECORD_COUNTS.items()
              if (ROW_COUNT if c is None else c) in unpacked}
    later = {} if points is None else {"_pts": points}  # (read from the counts)
    return (rows.with_columns(_paired=PAIRED, **{ROW_COUNT: pl.lit(1, dtype=pl.Int64)})
            .group_by(by).agg(*[f.pack().sum().alias(f"__sums{i}")
                                for i, f in enumerate(layouts)],
                              **{n: e for n, e in aggs.items()
                                 if n not in counts and n not in later})
            .select(*by, *[counts.get(n, pl.col(n)).alias(n) for n in aggs if n not in later])
            .with_columns(**later, dropped=dropped).select(*by, *aggs, "dropped"))


def points_of_counts(rules: Ruleset) -> pl.Expr | None:
    """A record's ``_pts`` from its counts — ``byes · bye + (wins − byes) · win + draws ·
    draw + losses · loss`` in units of ``1 / points_unit`` — where a round's points are
    those of its result alone (no points per game won, none for a sweep): the sum of
    :func:`row_points` over the rows (a bye is a win, a double loss a loss, as the flags
    of :func:`prepare_rows` count them). None for a ruleset with game or sweep points."""
    if rules.points_game_win or rules.points_sweep:
        return None
    unit = points_unit(rules)

    def times(x: pl.Expr, p: Fraction) -> pl.Expr:
        return x * pl.lit(int(p * unit), dtype=pl.Int64)

    wins, byes = pl.col("wins"), pl.col("byes")
    return (times(byes, rules.points_bye) + times(wins - byes, rules.points_win)
            + times(pl.col("draws"), rules.points_draw)
            + times(pl.col("losses"), rules.points_loss))


@dataclass(frozen=True)
class PlayerRows:
    """Where each player's rows are, in a record's player order (:func:`seat_record`):
    ``index``, the rows' positions in the table, each player's consecutive and in round
    order (``lengths[i]`` of them for the record's row ``i``); ``opponents``, the rows'
    ``opponent_id`` in that order (null for an unpaired row)."""

    index: pl.Series
    lengths: pl.Series
    opponents: pl.Series


def seat_record(rows: pl.LazyFrame, seats: SeatOrder, bounds: SumBounds, *,
                event_unit: int | None, first_round: bool = True,
                points: pl.Expr | None = None) -> tuple[pl.DataFrame, PlayerRows] | None:
    """:func:`aggregate_players` with ``packed=bounds`` (no keys; ``player_id`` coded as
    ``seats`` codes a player: ``event · event_unit + player``, or the player's code for one
    event) from validation's sorted seats instead of a group-by: the same record, sorted
    by ``player_id``, and where each player's rows are (:class:`PlayerRows`). ``rows``
    are the prepared rows, row for row with the table ``seats`` sorted (every row Swiss).

    A player's rows are consecutive among the sorted seats, in round order: the first
    and last round are read at the ends of the run, and the counts (packed side by side,
    :func:`_packed_counts`) are summed over it (:func:`~swissframe.engine._exact.
    segment_sums`). None when the counts do not pack (nothing to gain)."""
    layouts = _packed_counts(bounds)
    if not layouts:
        return None
    by, aggs, dropped = _record_exprs((), event_unit, first_round=first_round)
    unpacked = {n: e for i, layout in enumerate(layouts)
                for n, e in layout.unpack(pl.col(f"__sums{i}")).items()}
    counts = {n: unpacked[ROW_COUNT if c is None else c] for n, c in RECORD_COUNTS.items()
              if (ROW_COUNT if c is None else c) in unpacked}
    later = {} if points is None else {"_pts": points}
    # (the counts no layout holds: each summed as it is)
    alone = {n: pl.lit(1, dtype=pl.Int64) if c is None else PAIRED if c == "_paired"
             else pl.col(c) for n, c in RECORD_COUNTS.items()
             if n not in counts and n not in later}
    plan = (rows.with_columns(_paired=PAIRED, **{ROW_COUNT: pl.lit(1, dtype=pl.Int64)})
            .select(*[f.pack().alias(f"__sums{i}") for i, f in enumerate(layouts)],
                    *[e.cast(pl.Int64).alias(n) for n, e in alone.items()], "round", OPP))
    keys, n = seats.keys, seats.keys.len()
    low = 2**seats.index_bits

    def runs() -> tuple[pl.Series, pl.Series, pl.Series, pl.Series]:
        """Each sorted row's position in the table and player; each run's last row and
        length (single-threaded kernels)."""
        index = keys % low
        player = keys // (low * 2**seats.round_bits)
        last = pl.concat([(player.slice(1) != player.slice(0, n - 1)).arg_true()
                          .cast(pl.Int64), pl.Series([n - 1], dtype=pl.Int64)])
        return index, player, last, last - last.shift(1, fill_value=-1)

    # the runs found while the rows' values are computed, then the values summed while
    # the rounds and opponents are gathered (each a single-threaded gather): on a large
    # table two at once (_collect.concurrently), else one after the other
    values, (index, player, last, lengths) = concurrently(lambda: plan.pipe(collect), runs,
                                                          rows=n)

    def gathers() -> tuple[dict[str, pl.Series], pl.Series]:
        rnd = values.get_column("round")
        named = {PLAYER: player.gather(last).alias(PLAYER),
                 "last_round": rnd.gather(index.gather(last)).alias("last_round")}
        if first_round:
            named["first_round"] = rnd.gather(index.gather(last - lengths + 1)).alias(
                "first_round")
        return named, values.get_column(OPP).gather(index)

    summed, (named, opponents) = concurrently(
        lambda: segment_sums(values.drop("round", OPP), index, lengths, packed=False), gathers,
        rows=n)
    record = (summed.with_columns(*named.values())
              .select(*by, *[counts.get(n, pl.col(n)).alias(n) for n in aggs
                             if n not in later])
              .lazy().with_columns(**later, dropped=dropped).select(*by, *aggs, "dropped")
              .pipe(collect))
    where = PlayerRows(index=index, lengths=lengths, opponents=opponents)
    return record, where


@dataclass(frozen=True)
class SumBounds:
    """What bounds a player's counts, so that several share one Int64 sum: at most
    ``rounds`` rows a player (a validated table's seats are distinct, so its round span
    bounds them), each game count in ``games`` (``(low, high)``)."""

    rounds: int
    games: tuple[int, int]

    def held(self, record: pl.DataFrame) -> bool:
        """Whether no player of ``record`` had more rows than ``rounds`` (then no packed
        sum carried into its neighbour)."""
        top = record.get_column("rounds_played").max()
        return top is None or (isinstance(top, int) and top <= self.rounds)


@functools.lru_cache(maxsize=64)
def _packed_counts(bounds: SumBounds) -> list[BitFields]:
    """The layouts (:func:`~swissframe.engine._exact.sum_layouts`) of the counts whose sums
    ``bounds`` bound: the flags (one a row), and the game counts unless one may be
    negative. Empty when fewer than two share an Int64 (nothing to gain)."""
    r, (g_lo, g_hi) = bounds.rounds, bounds.games
    sums = {c: r * g_hi if c in GAME_COLUMNS else r for c in RECORD_COUNTS.values()
            if c is not None and c != "_pts" and (c not in GAME_COLUMNS or g_lo >= 0)}
    sums[ROW_COUNT] = r  # (last: the top field of its layout, read whole)
    return [f for f in sum_layouts(sums) or [] if len(f.fields) > 1]


#: The packed record's row count (one a row, summed): ``rounds_played``.
ROW_COUNT: Final = "_one"


@functools.lru_cache(maxsize=64)
def _record_exprs(keys: tuple[str, ...], event_unit: int | None, *, first_round: bool = True
                  ) -> tuple[list[str], dict[str, pl.Expr], pl.Expr]:
    """:func:`aggregate_players`' group keys, aggregations and ``dropped``, built once per
    keys (building them is a sizeable part of a one-event call)."""
    last = pl.col("last_round").max()
    if event_unit is not None:
        last = last.over(pl.col(PLAYER) // pl.lit(event_unit, dtype=pl.Int64))
    elif keys:
        last = last.over(keys)
    # (no keys and no unit: the rows are of one event)
    aggs = {n: pl.len().cast(pl.Int64) if c is None
            else (PAIRED if c == "_paired" else pl.col(c)).sum().cast(pl.Int64)
            for n, c in RECORD_COUNTS.items()}
    if first_round:
        aggs["first_round"] = pl.col("round").min()
    aggs["last_round"] = pl.col("round").max()
    return [*keys, PLAYER], aggs, pl.col("last_round") < last


def rate_terms(rules: Ruleset) -> tuple[pl.Expr, pl.Expr, pl.Expr, pl.Expr]:
    """Numerator/denominator of the own match rate and of the game rate (integers)."""
    dv, gv = rules.draw_value, rules.drawn_game_value
    wins, rounds = pl.col("wins"), pl.col("rounds_played")
    if not rules.bye_in_own_rate:
        wins, rounds = wins - pl.col("byes"), rounds - pl.col("byes")
    m_num = _times(wins, dv.denominator) + _times(pl.col("draws"), dv.numerator)
    m_den = _times(rounds, dv.denominator)
    games = pl.col("games_won") + pl.col("games_lost") + pl.col("games_drawn")
    g_num = (_times(pl.col("games_won"), gv.denominator)
             + _times(pl.col("games_drawn"), gv.numerator))
    g_den = _times(games, gv.denominator)
    return m_num, m_den, g_num, g_den


def opponents_as_met(rules: Ruleset) -> bool:
    """Whether ``rules`` averages its opponents as the fast paths compute them (the coded,
    seat and running-sums paths of :mod:`swissframe.engine.standings`): every meeting
    counted, every row's games in the record, opponents' match rates over the rounds they
    played. Otherwise (``distinct_opponents``, ``unopposed_loss_games="ignore"``,
    ``opponent_mw_rounds="event"``) those paths hand the ruleset to the general one, which
    honours them (:func:`prepare_rows`, :func:`opponent_mwp`,
    ``tiebreakers._faced``)."""
    return (not rules.distinct_opponents and rules.unopposed_loss_games == "count"
            and rules.opponent_mw_rounds == "played")


#: The record's column of the Swiss rounds of the player's event (keys…) up to the
#: cutoff, read by the opponents' match rate of ``opponent_mw_rounds="event"``.
EVENT_ROUNDS: Final = "_event_rounds"


def opponent_rate_terms(rules: Ruleset) -> tuple[pl.Expr, pl.Expr] | None:
    """Numerator/denominator of the match rate opponents average where it is not the own
    one (``opponent_mw_rounds="event"``: over every Swiss round of the event, a round not
    played a loss), else None. The numerator is :func:`rate_terms`' own."""
    if rules.opponent_mw_rounds == "played":
        return None
    dv = rules.draw_value
    rounds = pl.col(EVENT_ROUNDS)
    if not rules.bye_in_own_rate:
        rounds = rounds - pl.col("byes")
    return rate_terms(rules)[0], _times(rounds, dv.denominator)


def with_event_rounds(record: pl.LazyFrame, prepared: pl.LazyFrame, keys: tuple[str, ...],
                      rules: Ruleset) -> pl.LazyFrame:
    """``record`` with :data:`EVENT_ROUNDS` where ``rules`` reads it (the distinct round
    numbers of the prepared Swiss rows per keys), else as it is."""
    if rules.opponent_mw_rounds == "played":
        return record
    count = pl.col("round").n_unique().cast(pl.Int64).alias(EVENT_ROUNDS)
    if not keys:
        return record.join(prepared.select(count), how="cross")
    return record.join(prepared.group_by(list(keys)).agg(count), on=list(keys), how="left",
                       nulls_equal=True)


def _times(x: pl.Expr, k: int) -> pl.Expr:
    """``x · k`` (an integer column), without the operation where ``k`` is 1: every
    expression node costs a small input's query planning time (a draw worth 1/3 makes
    ``draws · 1`` of the usual numerator)."""
    return x if k == 1 else x * pl.lit(k, dtype=pl.Int64)


def clamp_exact(x: pl.Expr, lo: pl.Expr, hi: pl.Expr) -> pl.Expr:
    """Clamp an exact column (nulls stay null); ``lo ≤ hi`` (``Ruleset`` checks floor ≤
    cap_dropped ≤ cap).

    One ``clip`` node: a ``when x < lo … when x > hi … otherwise x`` chain names ``x``
    three times, which the lean optimizer passes of a small input (no common
    subexpressions) computed three times."""
    return x.clip(lo, hi)


def clamp_float(x: pl.Expr, rules: Ruleset, dropped: pl.Expr, *, floor: bool = True
                ) -> pl.Expr:
    """A float rate floored (``rules.floor``; 0 with ``floor=False``) and capped
    (``cap_dropped`` where ``dropped``, else ``cap``) — the float twin of the exact clamp."""
    lo = float(rules.floor) if floor else 0.0
    if rules.cap == rules.cap_dropped:  # one cap: a constant bound (fewer expressions)
        return x.clip(lo, float(rules.cap))
    return x.clip(lo, pl.when(dropped).then(float(rules.cap_dropped))
                  .otherwise(float(rules.cap)))


@dataclass(frozen=True)
class RateScales:
    """The exact scales of one computation: own match rates, game rates and ``k_max``,
    the most values any mean averages (so means are exact at ``scale × lcm(1..k_max)``)."""

    rate: ExactScale
    game: ExactScale
    k_max: int

    @property
    def k_lcm(self) -> int:
        """``lcm(1..k_max)``: the factor that makes a mean of up to ``k_max`` values exact."""
        return lcm_of(range(1, max(self.k_max, 1) + 1))

    def exact(self) -> bool:
        """Whether the own rates and their means are exact inside Int128 (``_exact.LIMIT``)."""
        if isinstance(self.rate, RoundedScale) or isinstance(self.game, RoundedScale):
            return False
        k = self.k_lcm
        return ExactScale(self.rate.scale * k).fits() and ExactScale(self.game.scale * k).fits()


def rate_scales(record: pl.DataFrame, rules: Ruleset, count: pl.Series | None = None, *,
                probe: bool = False) -> RateScales:
    """Scales making every own rate of ``record`` (the columns of
    :func:`aggregate_players`) an exact integer: the lcm of the denominators that occur
    and of the clamps' and ``earned_bye_opponent``'s. ``count`` is the number of values
    each player's means average (default: opponents, plus earned byes where the ruleset
    counts them as opponents). ``probe``: only asked whether they fit (``.exact()``), by a
    caller that then computes the events concerned on a path that says its own fallback,
    of its event: no warning here (the probes' warnings named no event; bad data 208)."""
    dv, gv = rules.draw_value, rules.drawn_game_value
    clamps = [rules.floor.denominator, rules.cap.denominator, rules.cap_dropped.denominator]
    earned = rules.earned_bye_opponent
    rate_extra = [earned.denominator] if isinstance(earned, Fraction) else []
    # the distinct denominators and the largest count in one query (a one-event call's
    # fixed cost is its number of queries)
    # (eager: on a materialised record the lazy path's planning costs more)
    found = select(record if count is None else record.with_columns(_count=count),
                   *_scale_exprs(rules, counted=count is None)).row(0)
    # (the denominators are rate_terms', already times the draw values' denominators:
    # the lcm of d·r over r is d·lcm(r), and d itself is kept when no rate has one)
    r_l, g_l = lcm_of(int(v) for v in found[0]), lcm_of(int(v) for v in found[1])
    top = found[2]
    return RateScales(rate=_fitted(lcm_of([r_l, dv.denominator, *clamps, *rate_extra]),
                                   "own match-win rates", warn=not probe),
                      game=_fitted(lcm_of([g_l, gv.denominator, *clamps]), "game-win rates",
                                   warn=not probe),
                      k_max=int(top) if isinstance(top, int) and top > 0 else 1)


@functools.lru_cache(maxsize=64)
def _scale_exprs(rules: Ruleset, *, counted: bool) -> tuple[pl.Expr, pl.Expr, pl.Expr]:
    """:func:`rate_scales`' query: the distinct denominators of the own match and game
    rates (:func:`rate_terms`'), and the largest count (``counted``: of the record's
    opponents, else of ``_count``). Built once per ruleset."""
    _, m_den, _, g_den = rate_terms(rules)
    opp_terms = opponent_rate_terms(rules)
    if opp_terms is not None:  # (the opponents' rate's denominators too)
        m_den = pl.concat_list(m_den, opp_terms[1]).explode()
    opponents = (pl.col("opponents") if rules.earned_bye_opponent is None
                 else pl.col("opponents") + pl.col("earned_byes"))
    # (unique in first-seen order: a hash pass on the calling thread, where the unordered
    # unique of integers hands the query to the thread pool; 810k players: 10 -> 5 ms)
    return (m_den.unique(maintain_order=True).drop_nulls().implode().alias("r"),
            g_den.unique(maintain_order=True).drop_nulls().implode().alias("g"),
            (opponents if counted else pl.col("_count")).max().alias("k"))


def _fitted(scale: int, what: str, *, warn: bool = True) -> ExactScale:
    """``ExactScale(scale)``, or the rounded fallback (reported, with ``warn``) when it
    overflows Int128."""
    exact = ExactScale(scale)
    if exact.fits():
        return exact
    if warn:
        warn_fallback(what, bits=scale.bit_length())
    return FALLBACK_SCALE


def own_rates(rules: Ruleset, scales: RateScales) -> dict[str, pl.Expr]:
    """The player's own rates from the record columns, exact and as floats.

    ``_x_mwp`` (match-win rate, floored and capped — what opponents average too),
    ``_x_gwp`` (own game-win rate: floored only with ``floor_own_gw``) and ``_x_gwp_opp``
    (the game-win rate opponents average: always floored), at ``scales``; ``mwp``, ``gwp``
    and ``gwp_opp`` the same as floats, from the small integers directly so they are
    correctly rounded; ``mwp_raw`` / ``gwp_raw`` before the clamp. The cap is
    ``cap_dropped`` for a ``dropped`` player. The one place floors and caps are applied.
    """
    return dict(_own_rates(rules, scales))


@functools.lru_cache(maxsize=256)
def _own_rates(rules: Ruleset, scales: RateScales) -> dict[str, pl.Expr]:
    """:func:`own_rates`, built once per (ruleset, scales): events of one kind share them."""
    raw = _raw_rates(rules, scales)
    return {**_clamped_rates(rules, scales, **raw), "mwp_raw": raw["mw"], "gwp_raw": raw["gw"]}


#: The columns :func:`own_rates_staged`'s first two steps add (the caller drops them).
RAW_RATE_COLUMNS: Final = ("__m_num", "__m_den", "__g_num", "__g_den",
                           "__x_mw_raw", "__x_gw_raw", "__mw_raw", "__gw_raw")


def own_rates_staged(rules: Ruleset, scales: RateScales) -> tuple[dict[str, pl.Expr], ...]:
    """:func:`own_rates` in steps of one ``with_columns`` each, so that each term and
    ratio is computed once (a small input's queries run without common-subexpression
    elimination): the rates' numerators and denominators, then the unclamped rates
    reading them (those two steps' columns are :data:`RAW_RATE_COLUMNS`), then the
    clamped rates reading those, then ``mwp_raw`` and ``gwp_raw``."""
    names = RAW_RATE_COLUMNS
    terms = dict(zip(names[:4], rate_terms(rules), strict=True))
    m_num, m_den, g_num, g_den = (pl.col(c) for c in names[:4])
    raw = _raw_rates(rules, scales, (m_num, m_den, g_num, g_den))
    x_mw, x_gw, mw, gw = (pl.col(c) for c in names[4:])
    return (terms,
            dict(zip(names[4:], (raw["x_mw"], raw["x_gw"], raw["mw"], raw["gw"]),
                     strict=True)),
            _clamped_rates(rules, scales, x_mw=x_mw, x_gw=x_gw, mw=mw, gw=gw),
            {"mwp_raw": mw, "gwp_raw": gw})


def _raw_rates(rules: Ruleset, scales: RateScales,
               terms: tuple[pl.Expr, pl.Expr, pl.Expr, pl.Expr] | None = None
               ) -> dict[str, pl.Expr]:
    """The own rates before the clamps: exact (``x_mw``, ``x_gw`` at ``scales``) and as
    floats (``mw``, ``gw``); null where nothing was played. ``terms``: the rates'
    numerators and denominators (default: :func:`rate_terms`)."""
    m_num, m_den, g_num, g_den = rate_terms(rules) if terms is None else terms
    return {"x_mw": scales.rate.ratio(m_num, m_den), "x_gw": scales.game.ratio(g_num, g_den),
            "mw": pl.when(m_den > 0).then(m_num.cast(pl.Float64) / m_den.cast(pl.Float64)),
            "gw": pl.when(g_den > 0).then(g_num.cast(pl.Float64) / g_den.cast(pl.Float64))}


def _clamped_rates(rules: Ruleset, scales: RateScales, *, x_mw: pl.Expr, x_gw: pl.Expr,
                   mw: pl.Expr, gw: pl.Expr) -> dict[str, pl.Expr]:
    """The floors and caps of :func:`own_rates`, applied to the unclamped rates."""
    rate, game = scales.rate, scales.game
    dropped = pl.col("dropped")

    def cap(s: ExactScale) -> pl.Expr:
        if rules.cap == rules.cap_dropped:
            return s.lit(rules.cap)
        return pl.when(dropped).then(s.lit(rules.cap_dropped)).otherwise(s.lit(rules.cap))

    x_gw_opp = clamp_exact(x_gw, game.lit(rules.floor), cap(game))
    return {
        "_x_mwp": clamp_exact(x_mw, rate.lit(rules.floor), cap(rate)),
        "_x_gwp": x_gw_opp if rules.floor_own_gw else clamp_exact(x_gw, game.lit(0), cap(game)),
        "_x_gwp_opp": x_gw_opp,
        "mwp": clamp_float(mw, rules, dropped),
        "gwp": clamp_float(gw, rules, dropped, floor=rules.floor_own_gw),
        "gwp_opp": clamp_float(gw, rules, dropped),
    }


def opponent_mwp(rules: Ruleset, scales: RateScales) -> dict[str, pl.Expr]:
    """``_x_mwp_opp`` and ``mwp_opp``, the match rate opponents average (exact at
    ``scales``, and as a float), clamped as :func:`own_rates` clamps: the own ``_x_mwp`` /
    ``mwp`` (a column of the same step's input), or with ``opponent_mw_rounds="event"``
    the rate of :func:`opponent_rate_terms`."""
    terms = opponent_rate_terms(rules)
    if terms is None:
        return {"_x_mwp_opp": pl.col("_x_mwp"), "mwp_opp": pl.col("mwp")}
    num, den = terms
    raw = {"x_mw": scales.rate.ratio(num, den),
           "mw": pl.when(den > 0).then(num.cast(pl.Float64) / den.cast(pl.Float64)),
           "x_gw": pl.lit(None), "gw": pl.lit(None)}
    clamped = _clamped_rates(rules, scales, **raw)
    return {"_x_mwp_opp": clamped["_x_mwp"], "mwp_opp": clamped["mwp"]}


def ranking_keys(rules: Ruleset, upto: int | None = None) -> list[tuple[str, str, bool]]:
    """``(name, function, descending)`` of the first ``upto`` ranking criteria (all if
    None), with match points put first when ``points_first`` and the criteria do not start
    with them."""
    crits = list(rules.criteria if upto is None else rules.criteria[:upto])
    keys = [(c.name, c.function, c.descending) for c in crits]
    if rules.points_first and (not rules.criteria or rules.criteria[0].name != "match_points"):
        keys = [("match_points", "match_points", True), *keys]
    # a column already sorted on orders nothing a second time (rows reaching it are equal
    # on it): kept once, so that no path sorts, packs or narrows one column twice
    first: dict[str, tuple[str, str, bool]] = {}
    for key in keys:
        first.setdefault(key[0], key)
    return list(first.values())


# ------------------------------------------------------------------ per-event exactness

#: Events with more Swiss rounds than this are computed on their own (criteria with their
#: own scales, e.g. Flesh and Blood's CTB at ``4**rounds``, stay exact up to here).
LONG_ROUNDS: Final = 40
#: Bits an exact mean's scale may use (``_exact.LIMIT`` is ``2**120``; one bit of margin
#: for the float logarithms of the bounds below).
_SCALE_BITS: Final = 119


@functools.lru_cache(maxsize=64)
def _lcm_bits_table(top: int) -> tuple[float, ...]:
    """``log2(lcm(1..n))`` for ``n`` in ``0..top``: the sum of ``log2 p`` over the prime
    powers ``p**a ≤ n`` (``top`` is at most a few thousand; built once per ``top``: a
    one-event call's test of its scales was mostly this loop)."""
    out, acc = [0.0, 0.0], 0.0
    for n in range(2, max(top, 1) + 1):
        p = next((q for q in range(2, math.isqrt(n) + 1) if n % q == 0), n)
        m = n
        while m % p == 0:
            m //= p
        if m == 1:  # n = p**a
            acc += math.log2(p)
        out.append(acc)
    return tuple(out[:max(top, 1) + 1])


def _one_pass_exact(rules: Ruleset, r_max: int | None, g_max: int | None) -> bool:
    """:func:`scale_groups`' test without the record: the Swiss rows' largest round
    ``r_max`` and game count ``g_max`` (or bounds above them) keep every event exact in
    one computation."""
    if rules.bye_games is not None:  # (a bye's games as prepare_rows counts them)
        g_max = max(int(g_max or 0), sum(rules.bye_games))
    const = _clamp_bits(rules)
    r_top, g_top = int(r_max or 1), int(r_max or 1) * max(int(g_max or 1), 1)
    if r_top > LONG_ROUNDS or g_top > 4096:
        return False
    t = _lcm_bits_table(g_top)
    return max(t[r_top] + const[0], t[g_top] + const[1]) + t[r_top] < _SCALE_BITS


def scale_groups(rows: pl.DataFrame, rules: Ruleset, keys: tuple[str, ...] = ("event_id",),
                 *, span: bool = True, bounds: tuple[int, int] | None = None
                 ) -> list[tuple[pl.Series, bool]] | None:
    """How the events of ``rows`` (validated results) share exact scales: None when one
    computation keeps every event exact (the usual case, decided from the rows' largest
    round and game count alone); otherwise groups of ``event_id`` values, each
    ``(events, alone)``: every event of a group with ``alone=False`` is exact at the
    group's scales, and an event that may not be (more than :data:`LONG_ROUNDS` rounds,
    or scales beyond Int128 by an upper bound) is a group of its own (``alone=True``), so
    a fallback to rounded values, if any, touches that event only. An event's rounds are
    the span of its round numbers with ``span`` (``tiebreakers.spans_rounds``: CTB's
    scale grows with it), else the most rounds one of its players played (what every
    other scale grows with: round numbers 1 and 10**9 are two rounds). ``bounds``: the
    rows' largest round number and largest game count of a row, or bounds above them
    (validation's, :class:`~swissframe.schema.IdCodes`): where they pass the test, the
    rows are not read (one query fewer in a one-event call).
    """
    if bounds is not None and _one_pass_exact(rules, *bounds):
        return None
    swiss = pl.col("phase") == "swiss"
    r_max, g_max = rows.select(
        pl.col("round").filter(swiss).max(),
        (pl.col("games_won") + pl.col("games_lost") + pl.col("games_drawn")).filter(swiss)
        .max()).row(0)
    if r_max is None or _one_pass_exact(rules, r_max, g_max):
        return None
    r_top = int(r_max or 1)
    const = _clamp_bits(rules)
    prepared = prepare_rows(rows.lazy(), rules)
    record = with_event_rounds(aggregate_players(prepared, keys), prepared, keys,
                               rules).pipe(collect)
    played = record.get_column("rounds_played").max()
    short = r_top <= LONG_ROUNDS if span else (
        isinstance(played, int) and played <= LONG_ROUNDS)
    # (a probe: an event whose scales overflow is computed alone below, which says it)
    if rate_scales(record, rules, probe=True).exact() and short:
        return None
    per_event = _event_bits(record, rules, const, span=span)
    fits = (pl.col("_bits") < _SCALE_BITS) & (pl.col("_rounds") <= LONG_ROUNDS)
    normal = per_event.filter(fits).sort("_bits")["event_id"]
    alone = per_event.filter(~fits)["event_id"].sort()
    groups = [(g, False) for g in split_exact(record, rules, normal)]
    return groups + [(alone.slice(i, 1), True) for i in range(alone.len())]


def _clamp_bits(rules: Ruleset) -> tuple[float, float]:
    """``log2`` of the constant factors of the rate and game scales (draw values, clamps)."""
    clamps = lcm_of([rules.floor.denominator, rules.cap.denominator,
                     rules.cap_dropped.denominator])
    earned = rules.earned_bye_opponent
    extra = earned.denominator if isinstance(earned, Fraction) else 1
    return (math.log2(lcm_of([clamps, extra]) * rules.draw_value.denominator),
            math.log2(clamps * rules.drawn_game_value.denominator))


def _event_bits(record: pl.DataFrame, rules: Ruleset, const: tuple[float, float], *,
                span: bool = True) -> pl.DataFrame:
    """Per event an upper bound of the bits its own exact means need (``_bits``) and its
    rounds (``_rounds``; see :func:`scale_groups`' ``span``): ``log2 lcm(dens) ≤ min(Σ
    log2 d over the distinct dens, log2 lcm(1..max d))``."""
    rounds = pl.col("rounds_played") - (pl.lit(0) if rules.bye_in_own_rate else pl.col("byes"))
    games = pl.col("games_won") + pl.col("games_lost") + pl.col("games_drawn")
    count = (pl.col("opponents") if rules.earned_bye_opponent is None
             else pl.col("opponents") + pl.col("earned_byes"))
    top = record.select(pl.max_horizontal(rounds.max(), games.max(), count.max())).item()
    table = pl.Series(_lcm_bits_table(min(int(top or 1), 4096)))

    def bits(den: pl.Expr) -> pl.Expr:
        d = den.filter(den > 0).unique().cast(pl.Float64)
        by_sum = d.log(2).sum()
        top = den.max().clip(0, table.len() - 1).cast(pl.Int64)
        by_table = pl.when(den.max() < table.len()).then(pl.lit(table).gather(top).first())
        return pl.min_horizontal(by_sum, by_table.fill_null(float("inf")))

    k_bits = pl.lit(table).gather(count.max().clip(0, table.len() - 1).cast(pl.Int64)).first()
    r_bits = bits(rounds)
    if opponent_rate_terms(rules) is not None:  # (lcm(l, n) ≤ l·n: the event's rounds too)
        r_bits = r_bits + pl.col(EVENT_ROUNDS).max().cast(pl.Float64).log(2)
    return (record.group_by("event_id")
            # (its rounds: the span of their numbers, what a round-span scale grows with
            # — an event numbered from 1001 is the event numbered from 1 —, else the
            # most rounds a player played)
            .agg(_r=r_bits, _g=bits(games), _k=k_bits,
                 _rounds=(pl.col("last_round").max() - pl.col("first_round").min() + 1)
                 if span else pl.col("rounds_played").max())
            .select("event_id", "_rounds",
                    (pl.max_horizontal(pl.col("_r") + const[0], pl.col("_g") + const[1])
                     + pl.col("_k")).alias("_bits")))


def split_exact(record: pl.DataFrame, rules: Ruleset, events: pl.Series, *,
                count: str | None = None) -> list[pl.Series]:
    """``events`` in as few groups as halving finds that keep their combined scales
    exact (:func:`rate_scales` of ``record``'s rows of the group, ``count`` naming its
    count column if any); a single event is a group whether exact or not. Used by
    :func:`scale_groups` and by the cut analyses (``cut/_round.per_exact_group``)."""
    if events.len() == 0:
        return []
    sub = record.filter(pl.col("event_id").is_in(events.implode()))
    if events.len() == 1:
        return [events]
    if rate_scales(sub, rules, None if count is None else sub[count], probe=True).exact():
        return [events]
    half = events.len() // 2
    return (split_exact(record, rules, events.slice(0, half), count=count)
            + split_exact(record, rules, events.slice(half), count=count))


# ------------------------------------------------------------------ which rows, as of when

#: Key column of the cutoff round (standings as they stood after it).
THROUGH: Final = "_through"
#: Column of the round at which a player's values are taken (``Ruleset.snapshot``).
EVAL: Final = "_eval"


#: Column of the rows :func:`late_rows` adds: the round from which they stand (the late
#: entrant's first round). The standings after round ``r`` are those of the rows up to
#: ``r``, where a player who enters later has no row yet and so no added loss either.
ENTERED: Final = "_entered"


def standing_rows(lf: pl.LazyFrame, through: pl.Expr | int) -> pl.LazyFrame:
    """The rows of ``lf`` that stand after round ``through`` (a column of the cutoffs, or
    a round number): those of a round up to it, except the losses :func:`late_rows` adds
    for a player who enters after it (:data:`ENTERED`). The one place saying which rows
    stand at a cutoff (:func:`cutoff_rows`, ``explain``)."""
    keep = pl.col("round") <= through
    if ENTERED in lf.collect_schema().names():
        keep = keep & (pl.col(ENTERED).is_null() | (pl.col(ENTERED) <= through))
    return lf.filter(keep)


def cutoff_rows(lf: pl.LazyFrame, keys: Sequence[str], cutoffs: pl.LazyFrame, *,
                through: str = THROUGH) -> pl.LazyFrame:
    """Rows repeated once per cutoff at which they stand (:func:`standing_rows`):
    ``cutoffs`` (``keys``…, ``through``, any further columns) joined on ``keys``."""
    return standing_rows(join_keys(lf, cutoffs, keys), pl.col(through))


def missing_stage(rules: Ruleset, columns: Sequence[str]) -> str | None:
    """Why ``rules`` cannot rank a table of ``columns``: it takes each player at the end of
    their stage and there is no ``stage`` column (None when it can)."""
    if rules.snapshot != "stage" or "stage" in columns:
        return None
    return (f"ruleset {rules.name!r} evaluates players at the end of their stage, but the "
            "results have no 'stage' column")


def require_stage(rules: Ruleset, columns: Sequence[str]) -> None:
    """:func:`missing_stage` as a :class:`~swissframe.errors.SchemaError`, with the hint."""
    why = missing_stage(rules, columns)
    if why is not None:
        msg = (f"{why}. Hint: add one (e.g. 'day1'/'day2') or use "
               "dataclasses.replace(rules, snapshot='final').")
        raise SchemaError(msg)


def eval_rounds(lf: pl.LazyFrame, rules: Ruleset, keys: tuple[str, ...],
                cutoffs: pl.LazyFrame) -> pl.LazyFrame:
    """Per (keys…, cutoff, player): the round at which the player's values are taken."""
    swiss = lf.filter(pl.col("phase") == "swiss")
    per_cut = cutoff_rows(swiss, keys, cutoffs)
    ck = [*keys, THROUGH]
    last = (per_cut.group_by([*ck, "player_id"])
            .agg(_last=pl.col("round").max(),
                 _stage=pl.col("stage").sort_by("round").last() if rules.snapshot == "stage"
                 else pl.lit(None, dtype=pl.String))
            .with_columns(_event_last=per_group(pl.col("_last").max(), ck)))
    if rules.snapshot == "last_round":
        ev = pl.when(pl.col("_last") < pl.col("_event_last")).then(pl.col("_last")).otherwise(
            pl.col(THROUGH))
    elif rules.snapshot == "stage":
        stage_end = (per_cut.group_by([*ck, "stage"]).agg(_stage_end=pl.col("round").max())
                     .rename({"stage": "_stage"}))
        last = last.join(stage_end, on=[*ck, "_stage"], how="left", nulls_equal=True)
        ev = pl.min_horizontal(pl.col("_stage_end"), pl.col(THROUGH))
    else:
        ev = pl.col(THROUGH)
    return last.select(*ck, "player_id", ev.alias(EVAL),
                       (pl.col("_last") < pl.col("_event_last")).alias("_dropped"))


def round_position(keys: Sequence[str]) -> pl.Expr:
    """Each row's round as its place among the rounds its event played, from 1: the round
    as the rules count it, for a frame of one event's Swiss rows (per ``keys``).

    The event's rounds are its rows' round numbers, not every whole number between them
    (docs/rules-decisions.md): an event numbered 1, 2, 4 played three rounds, and one
    numbered from 32 is the event numbered from 1. Read by what counts rounds (CTB's
    division by 4 a round, Yu-Gi-Oh!'s squares of the rounds lost, the missed rounds)."""
    return per_group(pl.col("round").rank("dense"), keys).cast(pl.Int64)


def event_rounds(lf: pl.LazyFrame, keys: Sequence[str]) -> pl.LazyFrame:
    """The Swiss rounds each event played (keys…, round), with their order in it from 0
    (``_i``): which rounds a player can have missed (:func:`late_rows`, and what
    ``validate`` calls a late entry or return)."""
    return (lf.filter(pl.col("phase") == "swiss").select(*keys, "round").unique()
            .with_columns(_i=round_position(keys) - 1))


def _with_missed_rounds(lf: pl.LazyFrame, keys: tuple[str, ...]) -> pl.LazyFrame:
    """Per player who has no row in a Swiss round their event played before their last
    row's round (a late arrival's missed rounds, or one missed between two played):
    (keys…, player_id, ``_first``, ``_last``, ``_missed`` how many). A player's seats are
    one a round (validation), so they missed rounds when they have fewer Swiss rows than
    their event played rounds up to their last."""
    pk = [*keys, "player_id"]
    return (lf.filter(pl.col("phase") == "swiss").group_by(pk)
            .agg(pl.col("round").min().alias("_first"), pl.col("round").max().alias("_last"),
                 pl.len().alias("_n"))
            .join(event_rounds(lf, keys).rename({"round": "_last"}), on=[*keys, "_last"])
            .with_columns(_missed=pl.col("_i") + 1 - pl.col("_n").cast(pl.Int64))
            .filter(pl.col("_missed") > 0)
            .select(*pk, "_first", "_last", "_missed"))


#: The most losses for missed rounds ``late_rounds="loss"`` adds beyond the table's own
#: rows: a real event's late entrants miss a few rounds, while a table of many players with
#: one row each in an event of thousands of rounds would ask for billions of rows.
MISSED_ROWS_SLACK: Final = 1_000_000


#: The most (player, round) cells :func:`_none_missed` marks (one bit each): one event or
#: a few, whose players' codes span a small range; a larger table takes the group-by.
NONE_MISSED_MAX_CELLS: Final = 1 << 20


def _none_missed(frame: pl.DataFrame, codes: IdCodes) -> bool:
    """Whether every player of ``frame`` (validated, ``codes`` its id codes row for row)
    has a Swiss row in each round from the table's first Swiss round to their last: then
    no one missed a round before their last (:func:`_with_missed_rounds` is empty). False
    also when it cannot tell cheaply (the caller then runs the group-by): a table of many
    cells, or a player whose rows start after that first round or skip a round number
    (which the group-by may still find to be no missed round: an event starting later, or
    a round number no one played).

    A player's seats are one a round (validation), so each Swiss row of round ``r`` after
    the first is checked to have a row of the same player in round ``r - 1``: marks in a
    table of (player code, round) cells, no group-by (one 64-player event: a query's fixed
    cost saved)."""
    events = codes.events.len()
    if codes.rounds is None or frame.height == 0:
        return frame.height == 0
    # (the cells bounded from the codes' sizes and the rows' round range, before reading
    # any column: a large table takes the group-by at no cost here)
    bound = (codes.players.len() * events) * (codes.rounds[1] - codes.rounds[0] + 1)
    if bound > NONE_MISSED_MAX_CELLS:
        return False
    # (Series kernels, no query and no NumPy: importing it would cost every fresh
    # process — every CLI command — more than this saves)
    swiss = frame.get_column("phase") == "swiss"
    rounds = frame.get_column("round").filter(swiss)
    if rounds.len() == 0:
        return True
    c = codes.codes
    player = c.get_column("_p").filter(swiss)
    if events > 1:
        player = c.get_column("_e").filter(swiss) * codes.players.len() + player
    first, top = int(rounds.min()), int(rounds.max())
    low, high = int(player.min()), int(player.max())
    span = top - first + 1
    if (high - low + 1) * span > NONE_MISSED_MAX_CELLS:
        return False
    cell = (player - low) * span + (rounds - first)
    # (Series methods that run no query: pl.zeros(eager=True) and Series.gather each run
    # one, ≈ 0.1 ms of a one-event call's fixed cost; indexing by a Series of
    # non-negative positions is the gather)
    marked = pl.Series(values=[False], dtype=pl.Boolean).new_from_index(
        0, (high - low + 1) * span).scatter(cell, values=True)
    return bool(marked[cell.filter(rounds > first) - 1].all())


def late_rounds_needed(frame: pl.DataFrame, rules: Ruleset, keys: tuple[str, ...],
                       codes: IdCodes | None = None) -> Ruleset:
    """``rules``, or the same with ``late_rounds="as_given"`` where :func:`late_rows`
    would add no row to ``frame`` (nor to its rows up to any round): no player misses a
    round before their last. The two rank every such table alike; the second keeps the
    paths that read the rows as given (the running sums by round, the coded rows). A
    Pokémon file from TOM writes a late entrant's losses itself: there the option costs one
    group-by, not the rows' slower path (2,000 events: 4.9–5.9 s against 11.7–14.2 s a
    ``standings`` call, thirteenth session).

    ``codes``: validation's id codes of ``frame`` (no extra keys), row for row; with them
    a table where plainly no one missed a round (:func:`_none_missed`) needs no group-by.

    Raises
    ------
    DataError
        When the losses to add would outnumber the table's rows by more than
        :data:`MISSED_ROWS_SLACK` (naming the player who missed the most rounds)."""
    if rules.late_rounds != "loss":
        return rules
    if codes is not None and _none_missed(frame, codes):
        return _as_given(rules)
    missed = _with_missed_rounds(frame.lazy(), keys).pipe(collect)
    if missed.height == 0:
        return _as_given(rules)
    total = int(missed["_missed"].sum())
    if total > frame.height + MISSED_ROWS_SLACK:
        worst = missed.row(int(missed["_missed"].arg_max() or 0), named=True)
        where = ", ".join(f"{k} {quoted(worst[k])}" for k in (*keys, "player_id"))
        msg = (f"ruleset {rules.name!r} counts a loss for every round a player missed "
               f"(late_rounds='loss'), which here is {total:,} losses for {frame.height:,} "
               f"result rows: {where} has no row in {worst['_missed']:,} rounds played "
               f"before their last, round {worst['_last']}. Hint: check the round numbers, "
               "or rank the rows as they are: dataclasses.replace(rules, "
               "late_rounds='as_given').")
        raise DataError(msg)
    return rules


@functools.lru_cache(maxsize=64)
def _as_given(rules: Ruleset) -> Ruleset:
    """``rules`` with ``late_rounds="as_given"``, one object per ruleset (a ruleset is
    checked as it is built, and the caches keyed by it find the same one again)."""
    return dataclasses.replace(rules, late_rounds="as_given")


def late_rows(lf: pl.LazyFrame, rules: Ruleset, keys: tuple[str, ...]) -> pl.LazyFrame:
    """Apply ``Ruleset.late_rounds``: with ``"loss"``, a loss for each Swiss round the
    event played before a player's last row's round in which they have no row (TRH §5.2.2: a late
    arrival loses the rounds already played; §5.3.3.1 divides a player who completed the
    event by its rounds, so a round missed between two played is one too). An added loss
    carries the round of the player's next row (:data:`ENTERED`): it stands only at
    cutoffs from there on (:func:`standing_rows`), as in ``standings(through_round=r)``,
    whose rows end at ``r`` and so have no missed round after the player's last row.
    With ``missing_rounds="absent"`` a round missed after the player's first row is an
    absence (:func:`~swissframe.engine._chess.with_inferred_absences`), so only the late
    arrival's rounds are added here: one loss a round, not two."""
    if rules.late_rounds == "as_given":
        return lf
    pk = [*keys, "player_id"]
    names = lf.collect_schema().names()
    swiss = pl.col("phase") == "swiss"
    forced = (pl.col("opponent_id").is_null() & (pl.col("games_won") < pl.col("games_lost"))
              & (pl.col("unplayed") == "absent")) if "unplayed" in names else pl.lit(value=False)
    first_real = pl.col("round").filter(swiss & ~forced).min().over(pk)
    if rules.late_rounds == "skip":
        return lf.filter(~(swiss & forced & (pl.col("round") < first_real)))
    played = lf.filter(swiss).select(*pk, pl.col("round").cast(pl.Int64))
    # with missing_rounds="absent" a round missed after the player's first row is an
    # absence (with_inferred_absences, at every cutoff): only the late arrival's are added
    until = "_first" if rules.missing_rounds == "absent" else "_last"
    missed = (_with_missed_rounds(lf, keys)
              .pipe(join_keys, event_rounds(lf, keys), keys)
              .filter(pl.col("round") < pl.col(until))
              .select(*pk, pl.col("round").cast(pl.Int64))
              .join(played, on=[*pk, "round"], how="anti"))
    # the round each missed one stands from: the player's next row's (a backward fill over
    # the player's missed and played rounds in order)
    own = pl.col("_own")
    entered = (pl.concat([missed.with_columns(_own=pl.lit(value=False)),
                          played.join(missed.select(pk).unique(), on=pk, how="semi")
                          .with_columns(_own=pl.lit(value=True))])
               .sort([*pk, "round"])
               .with_columns(pl.when(own).then(pl.col("round")).backward_fill().over(pk)
                             .alias(ENTERED))
               .filter(~own))
    added = entered.select(*pk, "round", pl.lit(None, dtype=pl.String).alias("opponent_id"),
                           pl.lit(0, dtype=pl.Int64).alias("games_won"),
                           pl.lit(1, dtype=pl.Int64).alias("games_lost"),
                           pl.lit(0, dtype=pl.Int64).alias("games_drawn"),
                           pl.lit("swiss").alias("phase"), pl.lit("absent").alias("unplayed"),
                           pl.col(ENTERED).cast(pl.Int64))
    return pl.concat([lf, added], how="diagonal_relaxed")
