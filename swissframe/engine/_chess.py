"""FIDE tie-breaks (Handbook C.07; rules.md §4) as tiebreaker functions.

Scores come from the ruleset's points (1 / ½ / 0 for :data:`swissframe.rules.FIDE`) and
are held exactly in integer point units. Unplayed rounds are read from the optional
``unplayed`` column (see :mod:`swissframe.schema`; derived from the result when absent:
an unpaired win is a pairing-allocated bye, an unpaired draw a half-point bye, an unpaired
loss an absence) and treated per ``Ruleset.unplayed_rounds``:

``"fide-2023"`` — C.07 Art. 16 (2023 text)
    Opponent side (16.3): an opponent's score counts as awarded, except that their
    voluntarily unplayed rounds (VUR: ``Ruleset.vur_kinds``, by default half- and
    zero-point byes, forfeit losses and absences) not followed by any non-VUR round count
    as draws (those of ``Ruleset.trailing_draw_kinds`` only, when it is given). Own side
    (16.4): each of the player's own unplayed rounds (byes, forfeits, absences) is a game
    against a dummy whose score is the player's own final score.
    Cuts (16.5): VUR contributions are cut first.
``"fide-2026"``
    As 2023, with the dummy capped (16.4.1–16.4.2, from 1 March 2026): for a forfeit, by
    the scheduled opponent's adjusted score; otherwise by draw points × rounds.
``"fide-2009"``
    Every unplayed game of an opponent counts as a draw; the player's own unplayed round
    ``R`` meets a virtual opponent with ``score before R + (win − result) + draw × (n − R)``
    (rules.md §4.2, CH-F3).
``"as_played"``
    No adjustment: forfeits count the scheduled opponent's actual score; rounds without an
    opponent contribute nothing.

Median-n cuts the n lowest contributions (VUR first, as for Cut-n) and then the n highest
of the rest; implementations differ on whether the highest cut skips VURs [?].
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Final, NamedTuple

import polars as pl

from swissframe._collect import collect
from swissframe.engine._exact import ExactScale, exact_name, join_keys, mean_exact, per_group
from swissframe.engine._record import points_unit, round_position, swiss_rows
from swissframe.schema import FORFEITS
from swissframe.schema import OPPONENT_ID as OPP
from swissframe.schema import PLAYER_ID as PLAYER

if TYPE_CHECKING:
    from swissframe.engine.tiebreakers import Context
    from swissframe.rules._ruleset import Ruleset

__all__ = ["adjusted_score", "average_opponents_buchholz", "buchholz", "chess_terms",
           "fore_buchholz", "games_elected", "games_played", "inferred_absences", "koya",
           "progressive", "sonneborn_berger", "unplayed_voluntarily", "vur_first", "wins",
           "with_inferred_absences", "won"]

#: The unplayed-round rules of C.07 Art. 16 (its 2023 and 2026 texts): an opponent's
#: trailing voluntarily unplayed rounds count as draws (Art. 16.3), and a Buchholz cut
#: takes a voluntarily unplayed round's value first (Art. 16.5).
ARTICLE_16: Final = frozenset({"fide-2023", "fide-2026"})


def vur_first(rules: Ruleset) -> bool:
    """Whether a Buchholz cut under ``rules`` takes a voluntarily unplayed round's value
    first (C.07 Art. 16.5): the one reading of it, for the criteria and ``explain``."""
    return rules.unplayed_rounds in ARTICLE_16


def inferred_absences(results: pl.LazyFrame | pl.DataFrame,
                      keys: Sequence[str] = ("event_id",), *, swiss: bool = False
                      ) -> pl.LazyFrame:
    """The absences C.07 Art. 16 implies where a table has no row: one ``absent`` row per
    (keys…, player, round) for every Swiss round of the event (any round with a Swiss row)
    after the player's first row in which the player has none — a withdrawal, a round sat
    out. Rounds before a player's first row are not inferred (the player had not entered
    yet: ``Ruleset.late_rounds`` or explicit rows say what they count), so the standings
    after round ``r`` depend on the rows up to ``r`` only.

    The rows are what :func:`swissframe.io.trf.read_trf` writes for a blank round: null
    opponent, ``0-1-0``, ``unplayed="absent"`` (a voluntarily unplayed round: a dummy
    opponent in the player's own Buchholz, a draw for the opponents when trailing), and
    ``phase="swiss"`` when the table has a ``phase`` column. ``swiss``: every row of
    ``results`` is a Swiss row (validation counted them: ``schema.IdCodes.swiss``), so
    no row's phase is compared (the plan reads the rows three times: a filter each).

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 1, 2], "player_a": ["A", "C", "A"],
    ...     "player_b": ["B", "D", "C"], "games_a": [1, 0, 1], "games_b": [0, 1, 0],
    ...     "games_drawn": [0, 0, 0]})
    >>> inferred_absences(sf.from_matches(m)).select("round", "player_id", "unplayed"
    ...     ).sort("player_id").pipe(collect).rows()
    [(2, 'B', 'absent'), (2, 'D', 'absent')]
    """
    lf = results.lazy()
    k = list(keys)
    schema = lf.collect_schema()
    rows = swiss_rows(lf, swiss=swiss) if "phase" in schema else lf
    seats = rows.select(*k, "round", "player_id")
    rounds = seats.select(*k, "round").unique()
    players = seats.group_by([*k, "player_id"]).agg(pl.col("round").min().alias("_first"))
    grid = join_keys(players, rounds, k)
    dtypes = tuple(schema[c] for c in ("round", OPP, "games_won", "games_lost", "games_drawn"))
    return (grid.filter(pl.col("round") > pl.col("_first"))
            .join(seats, on=[*k, "round", "player_id"], how="anti")
            .select(*k, *_absence_columns(dtypes, phase="phase" in schema)))


@functools.lru_cache(maxsize=16)
def _absence_columns(dtypes: tuple[pl.DataType, ...], *, phase: bool) -> tuple[pl.Expr, ...]:
    """:func:`inferred_absences`' columns after the keys, built once per dtypes of
    ``round``, the opponent and the game columns (≈ 90 µs of a one-event call)."""
    rnd, opp, *games = dtypes
    return (pl.col("round").cast(rnd), pl.col("player_id"), pl.lit(None).cast(opp).alias(OPP),
            *[pl.lit(v).cast(dt).alias(c) for (c, v), dt in
              zip((("games_won", 0), ("games_lost", 1), ("games_drawn", 0)), games,
                  strict=True)],
            *([pl.lit("swiss", dtype=pl.String).alias("phase")] if phase else []),
            pl.lit("absent", dtype=pl.String).alias("unplayed"))


def with_inferred_absences(results: pl.LazyFrame, rules: Ruleset,
                           keys: Sequence[str] = ("event_id",), *, swiss: bool = False
                           ) -> pl.LazyFrame:
    """``results`` plus :func:`inferred_absences` when ``rules.missing_rounds`` is
    ``"absent"`` (the FIDE presets); unchanged otherwise. ``swiss``: see
    :func:`inferred_absences`."""
    if rules.missing_rounds != "absent":
        return results
    return pl.concat([results, inferred_absences(results, keys, swiss=swiss)],
                     how="diagonal_relaxed")


def absences_columns(columns: Sequence[str], rules: Ruleset) -> list[str]:
    """The columns of :func:`with_inferred_absences` of a table of ``columns``, without
    resolving its plan (≈ 0.1 ms on one event): the absences' columns are the table's and
    ``unplayed``, which the diagonal concatenation appends when the table lacks it."""
    if rules.missing_rounds != "absent" or "unplayed" in columns:
        return list(columns)
    return [*columns, "unplayed"]


def _units(ctx: Context, value: Fraction) -> int:
    return int(value * ctx.unit)


def chess_terms(ctx: Context, *, fore: bool = False) -> pl.LazyFrame:
    """Per (keys…, player_id, round): the opponent value each round contributes to
    Buchholz-type criteria (``_val``, point units, null = no contribution), with ``_vur``,
    ``_pts``, ``_kind``, ``_sched`` (the scheduled opponent), ``_sscore`` (their score),
    the player's score ``_score`` and adjusted score ``_adj``.

    ``fore``: as if every game of the event's last round with a scheduled opponent (a
    forfeit too) were a draw over the board (Fore Buchholz, C.07 Art. 8.3)."""
    key = "_chess_terms_fore" if fore else "_chess_terms"
    if key not in ctx.cache:
        ctx.cache[key] = (_terms_plan(ctx, fore=fore).pipe(collect).lazy(), None)
    return ctx.cache[key][0]


def _terms_plan(ctx: Context, *, fore: bool,
                opponents: tuple[pl.Expr, ...] | None = None) -> pl.LazyFrame:
    """:func:`chess_terms` as a plan (the players' scores materialised in it): for a
    reader that reads the terms once, in a query of its own (:func:`_terms_sums`); the
    materialised terms where another criterion had them collected already.

    ``opponents``: expressions of ``ctx.players`` (the opponents' base values,
    ``OpponentSumParts.values``) each row takes of its opponent in the join that gives
    ``_oadj``, where the scores come from the record (:func:`_scores_in_record`); a plan
    of the reader's own (not cached)."""
    key = "_chess_terms_fore" if fore else "_chess_terms"
    if opponents is None and key in ctx.cache:
        return ctx.cache[key][0]
    plan_key = f"{key}_plan"
    if opponents is None and plan_key in ctx.cache:
        return ctx.cache[plan_key][0]
    names = ctx.rows.collect_schema().names()
    e = _terms_exprs(ctx.rules.unplayed_rounds, tuple(ctx.keys),
                     win_u=_units(ctx, ctx.rules.points_win),
                     draw_u=_units(ctx, ctx.rules.points_draw),
                     sched="scheduled_opponent_id" in names,
                     vur_kinds=tuple(ctx.rules.vur_kinds),
                     draw_kinds=ctx.rules.trailing_draw_kinds, fore=fore)
    keys, pk = list(ctx.keys), ctx.pkeys
    rows = ctx.rows.select(*e.rows)
    if e.fore is not None:
        rows = rows.with_columns(*e.fore)
    rows = rows.with_columns(*e.flags)
    if e.before is not None:
        rows = rows.sort("round").with_columns(e.before)
    # per player once (one group-by, materialised: read three times below), then joined
    # to the rows as the player, the opponent and the scheduled opponent — instead of
    # windows over the rows (a window per value, and this plan read twice); taken from
    # the record where the context summed them there (:func:`record_aggs`: no query)
    if _scores_in_record(ctx, fore=fore):
        scores = ctx.players.select(*e.scores_of_record)
    else:
        scores = (rows.group_by(pk).agg(*e.score_aggs).select(*e.scores)
                  .pipe(collect).lazy())
    opp_adj = scores.select(*e.opp_adj)
    # (with the opponents' values asked for: taken in the same join, from the record)
    opp = opp_adj if opponents is None else ctx.players.select(*e.opp_of_record, *opponents)
    rows = (rows.join(scores, on=pk, how="left")
            .join(opp, left_on=[*keys, OPP], right_on=[*keys, "_o"], how="left"))
    if e.sched:
        rows = rows.join(opp_adj.rename({"_oadj": "_sadj", "_oscore": "_sscore"}),
                         left_on=[*keys, "_sched"], right_on=[*keys, "_o"], how="left")
    else:  # (the scheduled opponent is the opponent: the same join's values)
        rows = rows.with_columns(*e.same_sched)
    out = rows.with_columns(e.val)
    if opponents is None:
        ctx.cache[plan_key] = (out, None)
    return out


def _scores_in_record(ctx: Context, *, fore: bool) -> bool:
    """Whether :func:`_terms_plan` takes the players' scores from the record
    (:func:`record_aggs` summed them there) instead of a group-by of the terms' rows."""
    cols = ctx.player_columns or ()
    return not fore and all(c in cols for c in RECORD_SCORES)


class _TermsExprs(NamedTuple):
    """The expressions of :func:`_terms_plan`, built once per layout (:func:`_terms_exprs`)."""

    rows: tuple[pl.Expr, ...]
    fore: tuple[pl.Expr, ...] | None
    flags: tuple[pl.Expr, ...]
    before: pl.Expr | None
    score_aggs: tuple[pl.Expr, ...]
    scores: tuple[pl.Expr, ...]
    scores_of_record: tuple[pl.Expr, ...]
    opp_adj: tuple[pl.Expr, ...]
    opp_of_record: tuple[pl.Expr, ...]
    sched: bool
    same_sched: tuple[pl.Expr, ...]
    val: pl.Expr


@functools.lru_cache(maxsize=64)
def _terms_exprs(rule: str, keys: tuple[str, ...], *, win_u: int, draw_u: int, sched: bool,
                 vur_kinds: tuple[str, ...], draw_kinds: tuple[str, ...] | None,
                 fore: bool) -> _TermsExprs:
    """:func:`_terms_plan`'s expressions for an unplayed-rounds rule and the keys, given
    the win and draw points in units, whether the rows have a scheduled opponent column,
    the VUR kinds and Fore Buchholz's last round: built once (building them was a
    sizeable part of one small event's call: 64 players, 4.0 -> 3.5 ms outside the
    queries)."""
    k, pk = list(keys), [*keys, PLAYER]
    sched_col = (pl.coalesce(pl.col(OPP), pl.col("scheduled_opponent_id")) if sched
                 else pl.col(OPP))
    rows = (*[pl.col(c) for c in pk], pl.col("round"), pl.col(OPP), pl.col("_pts"),
            pl.col("_win"), pl.col("_kind"), sched_col.alias("_sched"))
    fore_cols = None
    if fore:
        last = ((pl.col("round") == per_group(pl.col("round").max(), k))
                & pl.col("_sched").is_not_null())
        fore_cols = (
            pl.when(last).then(pl.lit(draw_u, dtype=pl.Int64)).otherwise(pl.col("_pts"))
            .alias("_pts"),
            pl.when(last).then(pl.lit(None, dtype=pl.String)).otherwise(pl.col("_kind"))
            .alias("_kind"),
            pl.when(last).then(pl.col("_sched")).otherwise(pl.col(OPP)).alias(OPP))
    # (the event's rounds are the rounds it played, whatever their numbers: _n counts them
    # and _i is a row's place among them, from 1 — round_position; numbered 1, 2, 4, the
    # 2026 cap is 3 draws and the 2009 virtual opponent after the second draws once)
    flags = (*_unplayed_flags(vur_kinds), per_group(pl.col("round").n_unique(), k).alias("_n"),
             round_position(k).alias("_i"))
    before = None
    if rule == "fide-2009":  # (the score before each round: only this rule's dummy reads it)
        before = (pl.col("_pts").cum_sum() - pl.col("_pts")).over(pk).alias("_before")
    extra = _score_terms(rule, pl.col("_vur"), pl.col("_unpl"), draw_u, draw_kinds)
    score_aggs = (pl.col("_pts").sum().alias("_score"), extra.alias("_extra"))
    scores = (*[pl.col(c) for c in pk], pl.col("_score"),
              (pl.col("_score") + pl.col("_extra")).alias("_adj"))
    # (the record's: its _pts is the same sum of the rows' points)
    adj_of_record = pl.col("_pts") + pl.col(RECORD_SCORES[0])
    scores_of_record = (*[pl.col(c) for c in pk], pl.col("_pts").alias("_score"),
                        adj_of_record.alias("_adj"))
    opp_adj = (*[pl.col(c) for c in k], pl.col(PLAYER).alias("_o"),
               pl.col("_adj").alias("_oadj"), pl.col("_score").alias("_oscore"))
    # (opp_adj of the record's scores in one step: the players' columns themselves)
    opp_of_record = (*[pl.col(c) for c in k], pl.col(PLAYER).alias("_o"),
                     adj_of_record.alias("_oadj"), pl.col("_pts").alias("_oscore"))
    same_sched = (pl.col("_oadj").alias("_sadj"), pl.col("_oscore").alias("_sscore"))
    played = ~pl.col("_unpl") & pl.col(OPP).is_not_null()
    if rule == "fide-2023":
        dummy = pl.col("_score")
    elif rule == "fide-2026":
        forfeit = pl.col("_kind").is_in(FORFEITS) & pl.col("_sadj").is_not_null()
        dummy = (pl.when(forfeit).then(pl.min_horizontal(pl.col("_score"), pl.col("_sadj")))
                 .otherwise(pl.min_horizontal(pl.col("_score"), pl.col("_n") * draw_u)))
    elif rule == "fide-2009":
        dummy = (pl.col("_before") + (pl.lit(win_u) - pl.col("_pts"))
                 + (pl.col("_n") - pl.col("_i")) * draw_u)
    else:
        dummy = pl.col("_sscore")  # forfeits: the scheduled opponent's score; else nothing
    val = pl.when(played).then(pl.col("_oadj") if rule != "as_played" else pl.col("_oscore")
                               ).otherwise(dummy)
    return _TermsExprs(rows, fore_cols, flags, before, score_aggs, scores, scores_of_record,
                       opp_adj, opp_of_record, sched, same_sched,
                       val.cast(pl.Int64).alias("_val"))


def _unplayed_flags(vur_kinds: tuple[str, ...]) -> tuple[pl.Expr, pl.Expr]:
    """A prepared row's ``_vur`` (a voluntarily unplayed round: its kind one of
    ``vur_kinds``, Art. 16.2) and ``_unpl`` (unplayed: any kind)."""
    return (_COUNTED["vur"](vur_kinds).alias("_vur"),
            pl.col("_kind").is_not_null().alias("_unpl"))


def _score_terms(rule: str, vur: pl.Expr, unplayed: pl.Expr, draw_u: int,
                 draw_kinds: tuple[str, ...] | None) -> pl.Expr:
    """A player's aggregation over their rows for the score Buchholz credits to their
    opponents: what the adjusted score adds to the score
    (Art. 16.3: trailing VURs as draws, those of ``draw_kinds`` only when it is given:
    ``Ruleset.trailing_draw_kinds``; the 2009 rule: every unplayed game as a draw).
    ``vur`` and ``unplayed``: the rows' flags (columns, or expressions of the prepared
    rows). The one definition, for the terms' group-by and the record's
    (:func:`record_aggs`)."""
    to_draw = pl.lit(draw_u, dtype=pl.Int64) - pl.col("_pts")
    lnv = pl.col("round").filter(~vur).max()  # the last round not a VUR
    if rule in ARTICLE_16:
        trailing = vur & (lnv.is_null() | (pl.col("round") > lnv))
        if draw_kinds is not None:  # (Ruleset.trailing_draw_kinds: some trailing VURs only)
            trailing = trailing & pl.col("_kind").is_in(list(draw_kinds))
        extra = pl.when(trailing).then(to_draw).otherwise(0).sum()
    elif rule == "fide-2009":
        extra = pl.when(unplayed).then(to_draw).otherwise(0).sum()
    else:
        extra = pl.lit(0, dtype=pl.Int64)
    return extra


#: The record's columns :func:`record_aggs` adds (the adjusted score's addition to the
#: score; the last round not a VUR, which nothing read, is no longer one: an aggregation
#: fewer).
RECORD_SCORES: Final = ("_c_extra",)

#: Criteria reading the chess terms (:func:`chess_terms`) of the plain rounds, whose
#: players' scores the record can carry (:func:`record_aggs`).
TERMS_READERS: Final = frozenset({"buchholz", "sb", "abh", "koya", "aob"})


#: The players' scores of the chess terms from the record (:func:`record_aggs`); False:
#: the terms' own group-by, the reference the tests compare them with.
SCORES_IN_RECORD = True


#: The sums of :func:`_rows_sums` the ruleset's criteria read, summed with the record
#: (:func:`record_aggs`); False: the rows' own group-by, the reference the tests compare
#: them with.
COUNTS_IN_RECORD = True


def record_aggs(rules: Ruleset) -> tuple[tuple[pl.Expr, ...], tuple[pl.Expr, ...]]:
    """What the record adds for a ruleset whose criteria read the chess terms
    (:data:`TERMS_READERS`) or the rows' counts (:data:`_ROWS_READERS`): the rows' flags
    the aggregations read (a ``with_columns`` step: each read twice in a group) and the
    aggregations giving :data:`RECORD_SCORES`, so that the terms take each player's score
    from the record instead of a group-by of their own (one 64-player FIDE event: a query
    fewer), and those giving the counts and PS the criteria read (:func:`_rows_sums`:
    then a group-by and two joins fewer in the criteria's query); none for another
    ruleset."""
    flags, scores = _record_aggs(rules) if SCORES_IN_RECORD else ((), ())
    if not COUNTS_IN_RECORD:
        return flags, scores
    return flags, (*scores, *_rows_aggs(tuple(rules.vur_kinds), _rows_readers(rules)))


@functools.lru_cache(maxsize=32)
def _record_aggs(rules: Ruleset) -> tuple[tuple[pl.Expr, ...], tuple[pl.Expr, ...]]:
    """The chess scores of :func:`record_aggs`, built once per ruleset."""
    if not any(c.function in TERMS_READERS for c in (*rules.criteria, *rules.columns)):
        return (), ()
    unit = points_unit(rules)
    flags = _unplayed_flags(tuple(rules.vur_kinds))
    extra = _score_terms(rules.unplayed_rounds, pl.col("_vur"), pl.col("_unpl"),
                         int(rules.points_draw * unit), rules.trailing_draw_kinds)
    return flags, (extra.cast(pl.Int64).alias(RECORD_SCORES[0]),)


def _finish(ctx: Context, agg: pl.LazyFrame, name: str, divisor: int) -> pl.LazyFrame:
    out = ctx.players.select(ctx.pkeys).join(agg, on=ctx.pkeys, how="left").with_columns(
        pl.col("_s").fill_null(0))
    return ctx.with_columns_known(
        out.select(*ctx.pkeys, (pl.col("_s") / divisor).alias(name),
                   pl.col("_s").cast(pl.Int128).alias(exact_name(name))),
        name, exact_name(name))


#: Buchholz (at most one value cut), SB and PS without a cut, and the counts as
#: projections of one group-by each of the terms and of the rows (:func:`_terms_sums`,
#: :func:`_rows_sums`); False: each criterion's own group-by, the reference the tests
#: compare them with.
SHARED_SUMS = True

#: The ``Context.cache`` entries of :func:`_terms_sums` (plain terms, Fore Buchholz's).
_SUMS_KEYS: Final = {False: "_chess_terms_sums", True: "_chess_terms_sums_fore"}


def _terms_sums(ctx: Context, *, fore: bool = False) -> pl.LazyFrame:
    """Every player of ``ctx.players`` with the sums of their chess terms
    (:func:`chess_terms`, values not null) that Buchholz with at most one value cut
    (Cut-1, Median-1 too) and Sonneborn-Berger without a cut read: ``_t`` (the values'
    sum), ``_n`` (their count), ``_low`` (the value Cut-1 takes: the lowest VUR's first
    where VURs are cut first), ``_max``, ``_second`` (the two highest, repeats counted) and
    ``_sb`` (Σ value × the round's points); null for a player with no value.

    One group-by and one join serve every such criterion: each is a projection of this
    frame (``Context.projections``), so the criteria's query joins it once, as OMW% and
    OGW% share the opponents' sums — instead of a group-by and a join each. Where the
    terms are a plan of the record's scores, the group-by sums those opponents' sums too
    (``Context.opponent_sum_parts``: each row's opponent's values taken in the terms'
    join of the opponents), and the frame is theirs as well: one join and one group-by
    fewer (one 64-player FIDE event −0.15 to −0.22 ms a call, 300 events −25 ms)."""
    key = _SUMS_KEYS[fore]
    if key in ctx.cache:
        return ctx.cache[key][0]
    # the opponents' base sums (OMW%, OGW%, reported by every table) in this group-by,
    # their values taken in the terms' join of the opponents: not a join and a group-by
    # of their own (where the terms are a plan, not materialised for another reader)
    parts = (ctx.opponent_sum_parts() if _scores_in_record(ctx, fore=fore)
             and "_chess_terms" not in ctx.cache else None)
    # (the terms' plan: this group-by is its one reader in the criteria's query)
    terms = _terms_plan(ctx, fore=fore, opponents=None if parts is None else parts.values)
    # (VURs cut first, Art. 16.5)
    if parts is None:
        agg = (terms.filter(pl.col("_val").is_not_null()).group_by(ctx.pkeys)
               .agg(*_terms_aggs(vur_first=vur_first(ctx.rules))))
    else:  # (every row, for the opponents' sums: the terms' own skip the null values)
        agg = terms.group_by(ctx.pkeys).agg(
            *_terms_aggs(vur_first=vur_first(ctx.rules), every_row=True), *parts.aggs)
        if parts.after:
            agg = agg.with_columns(*parts.after)
    out = ctx.players.select(ctx.pkeys).join(agg, on=ctx.pkeys, how="left")
    ctx.cache[key] = (out, None)
    if parts is not None:
        ctx.share_opponent_sums(out)
    return out


def _second_highest(values: pl.Expr) -> pl.Expr:
    """The second highest of a group's ``values``, repeats counted (the highest again
    when it occurs twice; the one value of a group of one), as ``top_k(2).min()``: a
    sort and a slice of each group cost less in a group-by than its ``top_k`` (64
    groups of 6: ≈ 0.09 against ≈ 0.21 ms; one 64-player FIDE call −0.2 ms)."""
    return values.sort(descending=True, nulls_last=True).head(2).min()


@functools.lru_cache(maxsize=4)
def _terms_aggs(*, vur_first: bool, every_row: bool = False) -> tuple[pl.Expr, ...]:
    """:func:`_terms_sums`' aggregations, built once; ``every_row``: over rows whose
    value may be null (each aggregation skips it; ``_n`` counts the values), else over
    the values only.

    Over every row, a player whose values are all null has a row of ``_t`` and ``_sb``
    0, ``_n`` 0 and nulls, where the values only give none (null after the join to the
    players): :func:`_total_columns` reads both as 0."""
    val = pl.col("_val")
    lowest = val.min()
    if vur_first:
        lowest = pl.coalesce(val.filter(pl.col("_vur")).min(), lowest)
    n = val.count() if every_row else pl.len()
    return (val.sum().alias("_t"), n.alias("_n"), lowest.alias("_low"),
            val.max().alias("_max"), _second_highest(val).alias("_second"),
            (val * pl.col("_pts")).sum().alias("_sb"))


def _projected(ctx: Context, source: pl.LazyFrame, name: str,
               columns: tuple[pl.Expr, pl.Expr]) -> pl.LazyFrame:
    """``source.select(*pkeys, *columns)`` (criterion ``name``'s columns of
    :func:`_total_columns`), registered as a projection of ``source`` for the one join
    (``Context.projections``)."""
    out = source.select(*ctx.pkeys, *columns)
    ctx.projections.append((out, source, columns))
    return ctx.with_columns_known(out, name, exact_name(name))


@functools.lru_cache(maxsize=256)
def _total_columns(total: tuple[str, int], name: str, divisor: int, *, count: bool = False
                   ) -> tuple[pl.Expr, pl.Expr]:
    """What :func:`_finish` gives (:func:`_count` with ``count``) for a per-player total
    of a shared sums frame, 0 for a player with none, built once: ``total`` is
    ``("_t", n)``, Buchholz of :func:`_terms_sums` with ``n`` values cut (the lowest, and
    with ``n = 2`` for Median-1 the highest of the rest: as :func:`_cut_one_sum`, 0 where
    no value is left), or (a column, 0), that column (``_sb``, ``_ps``, ``_n_<count>``)."""
    column, cut = total
    t = pl.col(column)
    if not cut:
        value = t.fill_null(0)
    else:
        low, top = pl.col("_low"), pl.col("_max")
        drop = (low + pl.when(low < top).then(top).otherwise(pl.col("_second")) if cut == 2
                else low)
        value = pl.when(pl.col("_n") > cut).then(t - drop).otherwise(pl.lit(0, pl.Int64))
    shown = (value / divisor).cast(pl.Int64) if count else value / divisor
    return shown.alias(name), value.cast(pl.Int128).alias(exact_name(name))


def _summed(ctx: Context, name: str, cut: int, median: int, *, fore: bool = False
            ) -> pl.LazyFrame | None:
    """Buchholz (``cut + median ≤ 1``) as a projection of :func:`_terms_sums`; None for
    the other modifiers (the sorted cut: :func:`_buchholz`)."""
    if cut + median > 1 or not SHARED_SUMS:
        return None
    n = 0 if cut + median == 0 else 1 + median
    return _projected(ctx, _terms_sums(ctx, fore=fore), name,
                      _total_columns(("_t", n), name, ctx.unit))


def buchholz(ctx: Context, *, name: str = "bh", cut: int = 0, median: int = 0) -> pl.LazyFrame:
    """Buchholz (C.07 Art. 8.1) with Cut-n / Median-n (Art. 14): the sum of the opponents'
    (adjusted) scores, unplayed rounds per the module notes; VURs are cut first (16.5).

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 2], "player_a": ["A", "A"], "player_b": ["B", "C"],
    ...     "games_a": [1, 0], "games_b": [0, 0], "games_drawn": [0, 1]})
    >>> st = sf.standings(sf.from_matches(m), "fide")
    >>> st.select("player_id", "match_points", "bh").rows()
    [('A', 1.5, 1.0), ('C', 0.5, 1.5), ('B', 0.0, 1.5)]

    B has no row in round 2: B is absent there (Art. 16), and that trailing absence counts
    as a draw for A's Buchholz (B ½ + C ½ = 1). C entered in round 2.
    """
    summed = _summed(ctx, name, cut, median)
    return summed if summed is not None else _buchholz(ctx, chess_terms(ctx), name, cut,
                                                       median)


def _buchholz(ctx: Context, terms: pl.LazyFrame, name: str, cut: int, median: int
              ) -> pl.LazyFrame:
    terms = terms.filter(pl.col("_val").is_not_null())
    pk = ctx.pkeys
    first = vur_first(ctx.rules)
    if cut + median == 1:  # (Cut-1 and Median-1, FIDE's: no sort)
        agg = _cut_one_sum(terms, pk, vur_first=first, median=median)
    else:
        if cut or median:
            terms = _cut_sorted(terms, pk, cut, median, vur_first=first)
        agg = terms.group_by(pk).agg(pl.col("_val").sum().alias("_s"))
    return _finish(ctx, agg, name, ctx.unit)


def _cut_sorted(terms: pl.LazyFrame, pk: Sequence[str], cut: int, median: int, *,
                vur_first: bool) -> pl.LazyFrame:
    """``terms`` without each player's ``cut + median`` lowest values (VURs first, Art.
    16.5, when ``vur_first``) and ``median`` highest (Art. 14): by sorting. The
    definition; :func:`_cut_one_sum` is Cut-1's sum without a sort."""
    pk = list(pk)
    low = cut + median
    order = [*pk, "_vur", "_val"] if vur_first else [*pk, "_val"]
    desc = [False] * len(pk) + ([True, False] if vur_first else [False])
    return (terms.sort(order, descending=desc)
            .with_columns(_lo=pl.int_range(pl.len()).over(pk))
            .filter(pl.col("_lo") >= low)
            .sort([*pk, "_val"], descending=[False] * len(pk) + [True])
            .with_columns(_hi=pl.int_range(pl.len()).over(pk))
            .filter(pl.col("_hi") >= median))


def _cut_one_sum(terms: pl.LazyFrame, pk: Sequence[str], *, vur_first: bool,
                 median: int = 0) -> pl.LazyFrame:
    """Per player, ``_s``: the sum of ``_val`` less what :func:`_cut_sorted` cuts with
    ``cut + median == 1`` — the lowest value (the lowest VUR's when ``vur_first`` and
    there is one), and with ``median=1`` the highest of the rest — in one group-by (the
    sorts of every row were most of these criteria's time by round). No row for a player
    with nothing left, as there.

    The highest of the rest is the highest value, unless the cut value was it: then the
    second highest counted with repeats (the highest again when it occurs twice)."""
    lowest = pl.col("_val").min()
    if vur_first:
        lowest = pl.coalesce(pl.col("_val").filter(pl.col("_vur")).min(), lowest)
    aggs = {"_t": pl.col("_val").sum(), "_n": pl.len(), "_low": lowest}
    if median:
        aggs |= {"_max": pl.col("_val").max(), "_second": _second_highest(pl.col("_val"))}
    agg = terms.group_by(list(pk)).agg(**aggs).filter(pl.col("_n") > 1 + median)
    drop = pl.col("_low")
    if median:
        drop = drop + pl.when(pl.col("_low") < pl.col("_max")).then(pl.col("_max")).otherwise(
            pl.col("_second"))
    return agg.select(*pk, (pl.col("_t") - drop).alias("_s"))


def sonneborn_berger(ctx: Context, *, name: str = "sb", cut: int = 0, median: int = 0
                     ) -> pl.LazyFrame:
    """Sonneborn-Berger (C.07): Σ over rounds of (opponent's adjusted score × points the
    player scored in that round); unplayed rounds use the same dummy as Buchholz.

    Cut-n / Median-n (Art. 14) as TieBreakServer applies them to SB: ``cut + median``
    times the contribution of the lowest-*scoring* opponent goes — a voluntarily unplayed
    round's instead when there is one and the lowest opponent's contribution is not
    larger (Art. 16.5: the 2023 and 2026 rules only, :func:`vur_first`) — then ``median``
    times the highest-scoring opponent's."""
    unit = ctx.unit
    if not cut and not median and SHARED_SUMS:  # (one group-by with Buchholz's)
        return _projected(ctx, _terms_sums(ctx), name,
                          _total_columns(("_sb", 0), name, unit * unit))
    terms = (chess_terms(ctx).filter(pl.col("_val").is_not_null())
             .with_columns(_c=pl.col("_val") * pl.col("_pts")))
    if cut or median:
        # (each cut is one step of the plan: no more than a player has rounds, which leave
        # nothing past them — Cut-1000000 built a million joins, a hang; bad data 206)
        most = int(terms.group_by(ctx.pkeys).len().select(pl.col("len").max())
                   .pipe(collect).item() or 0)
        terms = _cut_lowest_scoring(terms, ctx.pkeys, min(cut + median, most),
                                    min(median, most), vur_first=vur_first(ctx.rules))
    agg = terms.group_by(ctx.pkeys).agg(pl.col("_c").sum().alias("_s"))
    return _finish(ctx, agg, name, unit * unit)


def _cut_lowest_scoring(terms: pl.LazyFrame, pk: list[str], low: int, high: int, *,
                        vur_first: bool) -> pl.LazyFrame:
    """Drop ``low`` times the lowest-scoring opponent's contribution ``_c`` (by ``_val``,
    then ``_c``, then round; where ``vur_first`` — Art. 16.5, :func:`vur_first`, as for
    Buchholz — a VUR's instead unless that opponent's contribution is larger than the
    lowest VUR's), then ``high`` times the highest-scoring opponent's."""
    t = terms
    for _ in range(low):
        lowest = (t.sort("_val", "_c", "round").group_by(pk, maintain_order=True)
                  .agg(pl.col("round").first().alias("_ar"), pl.col("_c").first().alias("_av")))
        if not vur_first:  # (the 2009 rule and no adjustment: the lowest opponent's goes)
            t = t.join(lowest.select(*pk, pl.col("_ar").alias("round")), on=[*pk, "round"],
                       how="anti")
            continue
        vur = (t.filter(pl.col("_vur")).sort("_c", "_val", "round")
               .group_by(pk, maintain_order=True)
               .agg(pl.col("round").first().alias("_vr"), pl.col("_c").first().alias("_vv")))
        drop = lowest.join(vur, on=pk, how="left").select(*pk, pl.when(
            pl.col("_vr").is_null() | (pl.col("_av") > pl.col("_vv")))
            .then(pl.col("_ar")).otherwise(pl.col("_vr")).alias("round"))
        t = t.join(drop, on=[*pk, "round"], how="anti")
    for _ in range(high):
        drop = (t.sort(["_val", "_c", "round"], descending=[True, True, False])
                .group_by(pk, maintain_order=True).agg(pl.col("round").first()))
        t = t.join(drop, on=[*pk, "round"], how="anti")
    return t


#: The conditions a player's rounds are counted by (:func:`_count`), by criterion, each
#: an expression of the prepared rows given the ruleset's VUR kinds.
_COUNTED: Final[dict[str, Callable[[Sequence[str]], pl.Expr]]] = {
    "vur": lambda kinds: pl.col("_kind").is_in(list(kinds)).fill_null(value=False),
    "ge": lambda _: (pl.col("_kind").is_null() & ~pl.col("_unpaired")) | pl.col("_win"),
    "num": lambda _: pl.col("_kind").is_null() & ~pl.col("_unpaired"),
    "win": lambda _: pl.col("_win"),
    "won": lambda _: pl.col("_win") & pl.col("_kind").is_null() & ~pl.col("_unpaired"),
}

#: ``Context.cache`` entry of :func:`_rows_sums`.
_ROWS_SUMS_KEY: Final = "_chess_rows_sums"


def _rows_sums(ctx: Context, column: str) -> pl.LazyFrame:
    """Every player of ``ctx.players`` with, from one group-by of their rows, the count
    of each condition of :data:`_COUNTED` (``_n_<criterion>``) and the progressive
    score's sum of running totals (``_ps``); null for a player with no row. Each count
    and PS without a cut is a projection of this frame (as :func:`_terms_sums`): one
    group-by and one join for all of them instead of one each.

    ``column``: the sum the caller reads. Where the record summed it already
    (:func:`record_aggs`, the context's own record), the players themselves: no group-by
    and no join in the criteria's query."""
    if ctx.player_columns is not None and column in ctx.player_columns:
        return ctx.players
    if _ROWS_SUMS_KEY in ctx.cache:
        return ctx.cache[_ROWS_SUMS_KEY][0]
    agg = ctx.rows.group_by(ctx.pkeys).agg(*_rows_aggs(tuple(ctx.rules.vur_kinds),
                                                       _ROWS_READERS))
    out = ctx.players.select(ctx.pkeys).join(agg, on=ctx.pkeys, how="left")
    ctx.cache[_ROWS_SUMS_KEY] = (out, None)
    return out


#: The criteria (function names) whose values are sums of :func:`_rows_sums` without a
#: cut: a condition's count of :data:`_COUNTED` each (the same name), and ``"ps"``.
_ROWS_READERS: Final = frozenset({"ps", "vur", "ge", "num", "win", "won"})


@functools.lru_cache(maxsize=32)
def _rows_readers(rules: Ruleset) -> frozenset[str]:
    """The criteria of ``rules`` reading :func:`_rows_sums` (:data:`_ROWS_READERS`; PS
    with a cut reads the rows): what the record sums for them (:func:`record_aggs`)."""
    return frozenset(c.function for c in (*rules.criteria, *rules.columns)
                     if c.function in _ROWS_READERS
                     and not (c.function == "ps" and c.kwargs.get("cut")))


@functools.lru_cache(maxsize=32)
def _rows_aggs(vur_kinds: tuple[str, ...], readers: frozenset[str]) -> tuple[pl.Expr, ...]:
    """:func:`_rows_sums`' aggregations, those of the criteria ``readers`` (of
    :data:`_ROWS_READERS`), built once per set of VUR kinds (what the conditions read of
    the ruleset) and readers."""
    counts = [cond(vur_kinds).sum().cast(pl.Int64).alias(f"_n_{c}")
              for c, cond in _COUNTED.items() if c in readers]
    # (the running totals in round order, rows of one round in the order given, as the
    # stable sort of progressive's reference)
    ps = pl.col("_pts").sort_by("round", maintain_order=True).cum_sum().sum()
    return (*counts, *([ps.alias("_ps")] if "ps" in readers else []))


def progressive(ctx: Context, *, name: str = "ps", cut: int = 0) -> pl.LazyFrame:
    """Progressive (cumulative) score: the sum of the running totals after each round
    (byes and forfeits count with their points; rules.md §4.1); ``cut`` leaves out the
    running totals of the first ``cut`` rounds the event played (PS/Cn): the rounds by
    their place, not their numbers (numbered 3, 5, 7, PS/C1 leaves out round 3's;
    :func:`~swissframe.engine._record.round_position`)."""
    if not cut and SHARED_SUMS:  # (every round: they start at 1; a group-by with the counts)
        return _projected(ctx, _rows_sums(ctx, "_ps"), name,
                          _total_columns(("_ps", 0), name, ctx.unit))
    agg = (ctx.rows.sort("round").with_columns(_c=pl.col("_pts").cum_sum().over(ctx.pkeys))
           .filter(round_position(ctx.keys) > cut)
           .group_by(ctx.pkeys).agg(pl.col("_c").sum().alias("_s")))
    return _finish(ctx, agg, name, ctx.unit)


def unplayed_voluntarily(ctx: Context, *, name: str = "vur") -> pl.LazyFrame:
    """VUR: the number of voluntarily unplayed rounds (``Ruleset.vur_kinds``, C.07 Art.
    16.2)."""
    return _counted(ctx, "vur", name)


def games_elected(ctx: Context, *, name: str = "ge") -> pl.LazyFrame:
    """GE (C.07 Art. 7.6, "games one elected to play"; TieBreakServer ``GE``/``REP``): the
    rounds the player played over the board or received the points of a win without
    playing (a forfeit win, a pairing-allocated or full-point bye); requested byes, forfeit
    losses and absences are not."""
    return _counted(ctx, "ge", name)


def games_played(ctx: Context, *, name: str = "num") -> pl.LazyFrame:
    """NUM: games played over the board (no bye, no forfeit)."""
    return _counted(ctx, "num", name)


def _counted(ctx: Context, criterion: str, name: str) -> pl.LazyFrame:
    """:func:`_count` of ``criterion``'s condition (:data:`_COUNTED`), as a projection of
    :func:`_rows_sums`."""
    if not SHARED_SUMS:
        return _count(ctx, _COUNTED[criterion](ctx.rules.vur_kinds), name)
    return _projected(ctx, _rows_sums(ctx, f"_n_{criterion}"), name,
                      _total_columns((f"_n_{criterion}", 0), name, 1, count=True))


def _count(ctx: Context, cond: pl.Expr, name: str) -> pl.LazyFrame:
    agg = ctx.rows.group_by(ctx.pkeys).agg(cond.sum().cast(pl.Int64).alias("_s"))
    out = _finish(ctx, agg, name, 1)
    return ctx.with_columns_known(out.with_columns(pl.col(name).cast(pl.Int64)),
                                  name, exact_name(name))


def wins(ctx: Context, *, name: str = "win") -> pl.LazyFrame:
    """WIN: rounds in which the player received the points of a win, unplayed wins
    (forfeit wins, pairing-allocated and full-point byes) included."""
    return _counted(ctx, "win", name)


def won(ctx: Context, *, name: str = "won") -> pl.LazyFrame:
    """WON: games won over the board."""
    return _counted(ctx, "won", name)


def black_played(ctx: Context, *, name: str = "bpg") -> pl.LazyFrame:
    """BPG: games played over the board with Black (needs the ``color`` column)."""
    if "color" not in ctx.rows.collect_schema().names():
        return _count(ctx, pl.lit(value=False), name)
    return _count(ctx, (pl.col("color") == "b") & pl.col("_kind").is_null()
                  & ~pl.col("_unpaired"), name)


def black_won(ctx: Context, *, name: str = "bwg") -> pl.LazyFrame:
    """BWG: games won over the board with Black (needs the ``color`` column)."""
    if "color" not in ctx.rows.collect_schema().names():
        return _count(ctx, pl.lit(value=False), name)
    return _count(ctx, (pl.col("color") == "b") & pl.col("_win") & pl.col("_kind").is_null()
                  & ~pl.col("_unpaired"), name)


def fore_buchholz(ctx: Context, *, name: str = "fb", cut: int = 0, median: int = 0
                  ) -> pl.LazyFrame:
    """Fore Buchholz (C.07 Art. 8.3): Buchholz as if every game of the event's last round
    were a draw — each paired player's last round scores a draw, for their own score (the
    dummies of their unplayed rounds) and as an opponent; a last-round forfeit counts as a
    drawn game against the scheduled opponent. Cut-n / Median-n as :func:`buchholz`.

    Examples
    --------
    >>> import dataclasses, polars as pl, swissframe as sf
    >>> from swissframe.rules import Criterion
    >>> m = pl.DataFrame({"round": [1, 1, 1, 2, 2, 2],
    ...     "player_a": ["A", "C", "E", "A", "D", "B"], "player_b": ["B", "D", "F", "C", "E", "F"],
    ...     "games_a": [1, 0, 1, 1, 0, 0], "games_b": [0, 0, 0, 0, 1, 0],
    ...     "games_drawn": [0, 1, 0, 0, 0, 1]})
    >>> rules = dataclasses.replace(sf.rules.FIDE, name="with-fb",
    ...     columns=(Criterion("fb", function="fore_buchholz"),))
    >>> st = sf.standings(sf.from_matches(m), rules)
    >>> st.filter(pl.col("player_id").is_in(["A", "C"])).select("player_id", "bh", "fb").rows()
    [('A', 1.0, 1.5), ('C', 2.5, 2.5)]

    A's opponents B and C score ½ each (BH 1); with round 2 drawn B keeps ½ and C has 1
    (FB 1½). C met D (1 with round 2 drawn) and A (1½): FB 2½.
    """
    summed = _summed(ctx, name, cut, median, fore=True)
    return summed if summed is not None else _buchholz(ctx, chess_terms(ctx, fore=True),
                                                       name, cut, median)


def adjusted_score(ctx: Context, *, name: str = "abh") -> pl.LazyFrame:
    """ABH: the player's score as Buchholz credits it to their opponents (C.07 Art. 16.3:
    voluntarily unplayed rounds not followed by a played one count as draws; per
    ``Ruleset.unplayed_rounds``)."""
    agg = chess_terms(ctx).group_by(ctx.pkeys).agg(pl.col("_adj").first().alias("_s"))
    return _finish(ctx, agg, name, ctx.unit)


def koya(ctx: Context, *, name: str = "ks", limit: Fraction = Fraction(1, 2)
         ) -> pl.LazyFrame:
    """Koya (KS, C.07 Art. 9.x; TieBreakServer ``KS``): the points the player scored
    against (scheduled) opponents whose final score is at least ``limit`` of the maximum
    (win points × the event's rounds; 50% by default)."""
    win = Fraction(ctx.rules.points_win) * ctx.unit * limit
    terms = chess_terms(ctx).with_columns(  # (the rounds played: round_position)
        _n=per_group(pl.col("round").n_unique(), ctx.keys))
    agg = (terms.filter(pl.col("_sched").is_not_null()
                        & (pl.col("_sscore") * win.denominator
                           >= pl.col("_n") * win.numerator))
           .group_by(ctx.pkeys).agg(pl.col("_pts").sum().alias("_s")))
    return _finish(ctx, agg, name, ctx.unit)


def average_opponents_buchholz(ctx: Context, *, name: str = "aob") -> pl.LazyFrame:
    """AOB (C.07 Art. 8.2): the mean Buchholz (no modifier) of the opponents met over the
    board; null for a player who played no game. Exact (a mean of exact point units)."""
    bh = buchholz(ctx, name="_aob_bh").select(*ctx.keys, pl.col(PLAYER).alias(OPP),
                                              pl.col("_x__aob_bh").alias("_v"))
    played = (chess_terms(ctx).filter(pl.col("_kind").is_null() & pl.col(OPP).is_not_null())
              .select(*ctx.pkeys, OPP))
    agg = (played.join(bh, on=[*ctx.keys, OPP], how="left").group_by(ctx.pkeys)
           .agg(pl.col("_v").sum().alias("_t"), pl.col("_v").count().alias("_k")))
    k_max = int(agg.select(pl.col("_k").max()).pipe(collect).item() or 1)
    exact, flt, _ = mean_exact(pl.col("_t"), pl.col("_k"), ExactScale(ctx.unit), k_max)
    out = agg.select(*ctx.pkeys, flt.alias(name), exact.alias(exact_name(name)))
    return ctx.players.select(ctx.pkeys).join(out, on=ctx.pkeys, how="left")
