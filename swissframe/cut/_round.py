"""Internals of :mod:`swissframe.cut`: outcome spaces, post-round states, exact ranges and
scenario tables.

Vocabulary
----------
unit
    One thing that happens to a player in the analysed round ``R``: a match (two seats,
    several outcomes ``k``), a bye (one seat, one outcome), or idleness (a player not paired
    in ``R``: they dropped; one outcome, no row is added). Every player belongs to exactly
    one unit, so the outcome of the round is one ``k`` per unit, chosen independently.
seat row
    One row per (player, ``k`` of the player's unit): the player's game score in that
    outcome, its level (win/draw/loss/bye/dropped) and the player's state after the round.

Exact arithmetic follows :mod:`swissframe.engine._exact`: a rate ``n/d`` is an Int128 at a scale
``M`` (the lcm of every denominator that occurs), a mean of ``k`` rates is ``sum·(K/k)`` at
scale ``M·K`` with ``K = lcm(1..k_max)``.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal

import polars as pl

from swissframe._collect import collect
from swissframe._display import quoted
from swissframe.engine._exact import FALLBACK_SCALE
from swissframe.engine._record import (
    RateScales,
    aggregate_players,
    late_rows,
    opponents_as_met,
    own_rates,
    prepare_rows,
    rate_scales,
    row_points,
    split_exact,
)
from swissframe.engine.standings import standings
from swissframe.engine.tiebreakers import capability_columns, drawn_by_lot
from swissframe.errors import (
    DataError,
    ExactnessWarning,
    SchemaError,
    ValidationError,
    check_outcome_space,
    did_you_mean,
    nearest,
)
from swissframe.rules._ruleset import BEST_OF_THREE, Ruleset
from swissframe.schema import (
    DISQUALIFIED,
    FLAG_COLUMNS,
    OPTIONAL_COLUMNS,
    as_frame,
    flag_spellings,
    flag_values,
    holds_non_ids,
    not_flag_cells,
    not_whole_cells,
    swiss_part,
    validate_results,
    whole_numbers,
)

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "DEFAULT_OUTCOMES",
    "LEVELS",
    "RoundFrame",
    "absences",
    "absent_players",
    "check_pairing_types",
    "criteria_bounds",
    "keyed_uniform",
    "make_cut_flags",
    "opponents_bounded",
    "outcome_table",
    "prepare_round",
    "ranges_by_seat",
    "scenario_results",
]

#: The outcome space of a match when neither the caller nor a ruleset gives one: the card
#: games' best of three (``Ruleset.match_outcomes``' default).
DEFAULT_OUTCOMES: Final = BEST_OF_THREE
Frame = pl.DataFrame | pl.LazyFrame
KEY: Final = ["event_id", "player_id"]
#: Display order of a player's outcomes.
OUTCOME_ORDER: Final = {"win": 0, "draw": 1, "loss": 2, "dropped": 3}
#: Levels of a player's own outcome.
LEVELS: Final = ("win", "draw", "loss")
MIRROR_LEVEL: Final = {"win": "loss", "loss": "win", "draw": "draw", "bye": "bye",
                       "dropped": "dropped"}
SEP: Final = "\x1f"
#: Exact "goodness" of a null tiebreaker (ranked last) and of an unknown bound.
NULL_VALUE: Final = -(2**110)
UNKNOWN_LO: Final = -(2**111)
UNKNOWN_HI: Final = 2**111
_I128 = pl.Int128


def score_label(gw: pl.Expr, gl: pl.Expr, gd: pl.Expr) -> pl.Expr:
    """``"2-1"`` or ``"0-0-3"`` (drawn games shown only when present)."""
    base = pl.concat_str([gw.cast(pl.String), pl.lit("-"), gl.cast(pl.String)])
    return pl.when(gd > 0).then(pl.concat_str([base, pl.lit("-"), gd.cast(pl.String)])
                                ).otherwise(base)


def level_expr(gw: pl.Expr, gl: pl.Expr) -> pl.Expr:
    """win / draw / loss from the games."""
    return pl.when(gw > gl).then(pl.lit("win")).when(gw < gl).then(pl.lit("loss")).otherwise(
        pl.lit("draw"))


def outcome_table(outcomes: Sequence[tuple[int, int, int]] = DEFAULT_OUTCOMES,
                  weights: Sequence[float] | None = None) -> pl.DataFrame:
    """The outcome space as a table ``k, gw, gl, gd, mk, weight`` (``mk`` = mirror's ``k``).

    The space must be closed under swapping the seats (a 2-1 needs a 1-2).
    """
    outs = check_outcome_space("outcomes", outcomes,
                               hint="e.g. [(2, 0, 0), (2, 1, 0), (1, 2, 0), (0, 2, 0)]")
    index = {o: i for i, o in enumerate(outs)}
    mirror = [index[(o[1], o[0], o[2])] for o in outs]
    # (numbers only: float() read '0.5' and True as weights, and a text "1111" letter by
    # letter as four of them; bad data 242)
    listed = (list(weights) if isinstance(weights, Iterable)
              and not isinstance(weights, (str, bytes)) else None)
    real = listed is not None and all(isinstance(x, numbers.Real) and not isinstance(x, bool)
                                      for x in listed)
    w = [1.0] * len(outs) if weights is None else (
        [float(x) for x in listed] if real and listed is not None else [])
    # (NaN compares false both ways: it passed min(w) < 0 and gave NaN probabilities)
    if (len(w) != len(outs) or not all(math.isfinite(x) and x >= 0 for x in w)
            or sum(w) <= 0):
        msg = (f"weights {weights!r:.80} must be {len(outs)} finite non-negative numbers "
               "(not text or flags), not all 0.")
        raise DataError(msg + " Hint: one weight per outcome.")
    if any(abs(w[i] - w[mirror[i]]) > 1e-12 for i in range(len(w))):
        msg = (f"weights {w} are not symmetric between mirrored outcomes. Hint: the uniform "
               "model needs weight(2-1) == weight(1-2); seat order carries no skill.")
        raise DataError(msg)
    total = sum(w)
    return pl.DataFrame({
        "k": list(range(len(outs))), "gw": [o[0] for o in outs], "gl": [o[1] for o in outs],
        "gd": [o[2] for o in outs], "mk": mirror, "weight": [x / total for x in w]},
        schema={"k": pl.Int64, "gw": pl.Int64, "gl": pl.Int64, "gd": pl.Int64,
                "mk": pl.Int64, "weight": pl.Float64})


@dataclass
class RoundFrame:
    """Everything about the analysed round: prior rows, seat rows and exact scales."""

    prior: pl.DataFrame  #: validated Swiss rows before the round (+ event's ``_R``)
    seats: pl.DataFrame  #: one row per (player, k of the player's unit) with post state
    faced: pl.DataFrame  #: (event_id, player_id, opp, c): opponents after the round
    virtual: bool  #: True when pairings were not given (a virtual same-record opponent)
    rate_scale: int
    game_scale: int
    k_lcm: int
    exact: bool  #: False when the scale overflowed and values are rounded floats
    rules: Ruleset
    outcomes: pl.DataFrame


def _reject(bad: pl.DataFrame, message: Callable[[dict[str, object]], str], *,
            error: type[ValidationError | DataError] = ValidationError) -> None:
    """Raise ``error`` with the message of the first row of ``bad`` in the order of its
    columns' values (not the input's: the same refusal however the rows are ordered), if
    any."""
    if bad.height:
        first = bad.sort(bad.columns, nulls_last=True, maintain_order=True)
        raise error(message(first.row(0, named=True)))


#: How a pairings table is made, for the hint of a path or None given as one.
PAIRINGS_MADE_BY: Final = "sf.read_results(path) of the round's pairings"


def _seats_of_tables(df: pl.DataFrame) -> pl.DataFrame:
    """Pairings published one row per table — an event none of whose opponents has a row
    of their own, as organisers post them — with the other seat of each table added; an
    event listing both seats (or mixing the two layouts, which the checks after this
    refuse) as it is. A ``disqualified`` column is per seat: such pairings are read as
    given.

    >>> t = pl.DataFrame({"event_id": ["e", "e", "e"], "player_id": ["A", "C", "E"],
    ...                   "opponent_id": ["B", "D", None], "round": [None] * 3})
    >>> _seats_of_tables(t.cast({"round": pl.Int64})).sort("player_id")["opponent_id"].to_list()
    ['B', 'A', 'D', 'C', None]
    """
    if DISQUALIFIED in df.columns:
        return df
    paired = df.filter(pl.col("opponent_id").is_not_null())
    seated = paired.join(df.select("event_id", pl.col("player_id").alias("opponent_id")),
                         on=["event_id", "opponent_id"], how="semi")
    tables = (paired.join(seated.select("event_id").unique(), on="event_id", how="anti")
              ["event_id"].unique())
    if tables.len() == 0:
        return df
    other = paired.filter(pl.col("event_id").is_in(tables.implode())).select(
        "event_id", pl.col("opponent_id").alias("player_id"),
        pl.col("player_id").alias("opponent_id"), "round")
    return pl.concat([df, other])


def check_pairing_types(df: pl.DataFrame) -> None:
    """A :class:`SchemaError` naming a pairings column that cannot be read as the results'
    are: an id column of no text form (a list, an object, a Duration), a round that is no
    whole number (text, a fraction, NaN, a count past 64 bits), a ``disqualified`` cell
    that is no flag. Each was Polars' bare cast error ("cannot cast List type",
    "conversion from `str` to `i64` failed"), read by the same helpers as a results file's
    cells (:func:`~swissframe.schema.is_id_type`, ``not_whole_cells``,
    ``not_flag_cells``)."""
    context = [c for c in ("event_id", "player_id", "opponent_id") if c in df.columns]
    # (the one rule of ids, is_id_type: a float, a date or a Boolean id was read as its
    # text — class 135)
    wrong = [f"{c} is {df.schema[c]}" for c in context
             if holds_non_ids(df.schema[c])]
    if wrong:
        msg = (f"pairings table has id column(s) that are neither text nor whole numbers: "
               f"{'; '.join(wrong)}. Hint: ids are text, e.g. "
               "pl.col('player_id').cast(pl.String).")
        raise SchemaError(msg)
    ids = [c for c in context if c != "event_id"] or context
    for column, cells, what in (("round", not_whole_cells, "round numbers are whole numbers"),
                                (DISQUALIFIED, not_flag_cells,
                                 f"a flag is one of {flag_spellings()}")):
        bad = cells(df, column, ["event_id", *ids]) if column in df.columns else ""
        if bad:
            msg = (f"pairings table: {column} cells that are not read: {bad}. Hint: {what}.")
            raise SchemaError(msg)


def _normalise_pairings(pairings: pl.DataFrame | pl.LazyFrame, prior: pl.DataFrame
                        ) -> pl.DataFrame:
    """Validate the final-round pairings (both seats, or one row per table:
    :func:`_seats_of_tables`; null opponent = bye)."""
    df = as_frame(pairings, what="pairings table", made_by=PAIRINGS_MADE_BY)
    missing = [c for c in ("player_id", "opponent_id") if c not in df.columns]
    if missing:
        msg = (f"pairings lack column(s) {missing}; found {df.columns}. Hint: a long table "
               "event_id, round, player_id, opponent_id with both seats of every match.")
        raise SchemaError(msg)
    check_pairing_types(df)
    if "event_id" not in df.columns:
        events = prior["event_id"].unique().to_list()
        if len(events) > 1:
            msg = "pairings have no event_id but the results hold several events. Hint: add it."
            raise SchemaError(msg)
        df = df.with_columns(pl.lit(events[0] if events else "event").alias("event_id"))
    df = df.select(pl.col("event_id").cast(pl.String), pl.col("player_id").cast(pl.String),
                   pl.col("opponent_id").cast(pl.String),
                   (whole_numbers("round", df.schema["round"]) if "round" in df.columns
                    else pl.lit(None, dtype=pl.Int64)).alias("round"),
                   # (a player disqualified in the analysed round: see prepare_round)
                   *([flag_values(DISQUALIFIED, df.schema[DISQUALIFIED]).fill_null(value=False)]
                     if DISQUALIFIED in df.columns else []))
    if df["player_id"].null_count():
        msg = "pairings have a null player_id. Hint: every row is one seat of a named player."
        raise ValidationError(msg)
    if df["event_id"].null_count():  # (it was read as an event None, whose seats "did not
        # point back")
        msg = ("pairings have a null event_id. Hint: every row names its event, or leave "
               "the column out for the results' one event.")
        raise ValidationError(msg)
    df = _seats_of_tables(df)
    # (a self-pairing first: its two mirrored rows would read as a seat taken twice)
    _reject(df.filter(pl.col("player_id") == pl.col("opponent_id")), lambda r: (
        f"event {quoted(r['event_id'])}: player {quoted(r['player_id'])} is paired with themself. "
        "Hint: fix the pairings."))
    _reject(df.filter(pl.len().over("event_id", "player_id") > 1), lambda r: (
        f"event {quoted(r['event_id'])}: player {quoted(r['player_id'])} is paired more than "
        "once in the analysed round. Hint: one row per seat."))
    back = df.filter(pl.col("opponent_id").is_not_null()).join(
        df.select("event_id", pl.col("player_id").alias("opponent_id"),
                  pl.col("opponent_id").alias("_back")),
        on=["event_id", "opponent_id"], how="left")
    _reject(back.filter(pl.col("_back").ne_missing(pl.col("player_id"))), lambda r: (
        f"event {quoted(r['event_id'])}: {quoted(r['player_id'])} is paired with "
        f"{quoted(r['opponent_id'])}, whose own row does not point back. Hint: give both "
        "seats of every match (pairings are mirrored like results)."))
    _check_pairing_ids(df, prior)
    # one analysed round per event: a match's two seats in rounds 5 and 6 were read as one
    # round (the rows' round was never compared)
    spread = df.group_by("event_id").agg(_lo=pl.col("round").min(), _hi=pl.col("round").max())
    _reject(spread.filter(pl.col("_lo") != pl.col("_hi")), lambda r: (
        f"event {quoted(r['event_id'])}: the pairings hold rounds {r['_lo']} to {r['_hi']}; they "
        "are the pairings of one round, the one analysed. Hint: pass only that round's "
        "rows."))
    last = prior.group_by("event_id").agg(pl.col("round").max().alias("_last"))
    at = df.join(last, on="event_id", how="left")
    _reject(at.filter(pl.col("round") <= pl.col("_last")),
            lambda r: (f"event {quoted(r['event_id'])}: pairings are for round {r['round']}, "
                       f"but the results already hold round {r['_last']}. Hint: pass only the "
                       "rounds before it as results."), error=DataError)
    # (the pairings of round 9 on the results of rounds 1-4: the analysis would read the
    # standings after round 4 as those before round 9)
    gap = at.filter(pl.col("round") > pl.col("_last") + 1).with_columns(
        _missing=pl.when(pl.col("round") == pl.col("_last") + 2)
        .then(pl.format("round {} is", pl.col("_last") + 1))
        .otherwise(pl.format("rounds {}–{} are", pl.col("_last") + 1, pl.col("round") - 1)))
    _reject(gap, lambda r: (f"event {quoted(r['event_id'])}: pairings are for round {r['round']}, "
                            f"but the results end at round {r['_last']}: {r['_missing']} "
                            "missing. Hint: pass the results of every round before the "
                            "analysed one."), error=DataError)
    return df


def absent_players(results: pl.DataFrame, round_rows: pl.DataFrame) -> pl.DataFrame:
    """Why each player of ``results`` (the rounds before the round analysed) without a seat
    in ``round_rows`` (that round's rows or pairings) is not playing it, the one reading
    the surfaces share: ``absent`` is ``"missed_stage"`` where the player played their own
    stage (``stage``: ``day1``) to its last round and the round is of a stage they never
    reached (a day-2 cut: they did not make day 2, the standings do not call them
    dropped); else ``"dropped"`` (they left during their stage, or the rows hold no
    stages). Columns ``event_id, player_id, absent, stage`` (the round's stage, null
    without stages).

    >>> prior = pl.DataFrame({"event_id": "e", "round": [1, 1, 1, 2, 2, 2],
    ...     "player_id": ["A", "B", "C", "A", "B", "C"], "stage": ["day1"] * 6})
    >>> rows = pl.DataFrame({"event_id": "e", "round": [3], "player_id": ["A"],
    ...     "opponent_id": [None], "stage": ["day2"]})
    >>> absent_players(prior.filter(pl.col("player_id") != "C").vstack(
    ...     prior.filter((pl.col("player_id") == "C") & (pl.col("round") == 1))), rows
    ...     ).sort("player_id").rows()
    [('e', 'B', 'missed_stage', 'day2'), ('e', 'C', 'dropped', 'day2')]
    """
    swiss = swiss_part(results)
    swiss = swiss.with_columns(pl.col("event_id", "player_id").cast(pl.String))
    if "event_id" not in round_rows.columns:  # (pairings of the one event the results hold)
        one = swiss["event_id"].unique()
        round_rows = round_rows.with_columns(
            event_id=pl.lit(one[0] if one.len() == 1 else None, dtype=pl.String))
    rr = round_rows.with_columns(pl.col("event_id", "player_id").cast(pl.String))
    seats = rr.select("event_id", "player_id")
    if "opponent_id" in rr.columns:  # (one row per table: the second seat)
        seats = pl.concat([seats, rr.select("event_id", pl.col("opponent_id").cast(pl.String)
                                            .alias("player_id")).drop_nulls()])
    staged = "stage" in swiss.columns and "stage" in rr.columns
    own = (swiss.sort("round").group_by("event_id", "player_id")
           .agg(_last=pl.col("round").max(),
                _stage=pl.col("stage").last() if staged else pl.lit(None, dtype=pl.String))
           .join(seats, on=["event_id", "player_id"], how="anti"))
    if not staged:
        return own.select("event_id", "player_id", absent=pl.lit("dropped"),
                          stage=pl.lit(None, dtype=pl.String))
    now = rr.group_by("event_id").agg(stage=pl.col("stage").drop_nulls().first())
    ends = swiss.group_by("event_id", pl.col("stage").alias("_stage")).agg(
        _end=pl.col("round").max())
    out = (own.join(now, on="event_id", how="left")
           .join(ends, on=["event_id", "_stage"], how="left", nulls_equal=True))
    missed = ((pl.col("_stage") != pl.col("stage")) & (pl.col("_last") == pl.col("_end"))
              ).fill_null(value=False)
    return out.select("event_id", "player_id",
                      absent=pl.when(missed).then(pl.lit("missed_stage"))
                      .otherwise(pl.lit("dropped")), stage="stage")


def absences(results: pl.DataFrame) -> pl.DataFrame:
    """Why each player of ``results`` with no seat in their event's last Swiss round is
    not in it: :func:`absent_players` of that round, for the final standings (the
    engine's ``dropped`` flag says only that a player is not there; a player who did not
    make day 2 did not drop). Columns as :func:`absent_players`'s; empty for an event of
    one round.

    >>> rows = pl.DataFrame({"event_id": "e", "round": [1, 1, 1, 2], "player_id": [
    ...     "A", "B", "C", "A"], "stage": ["day1"] * 3 + ["day2"]})
    >>> absences(rows).sort("player_id").rows()
    [('e', 'B', 'missed_stage', 'day2'), ('e', 'C', 'missed_stage', 'day2')]
    """
    swiss = swiss_part(results)
    with_last = swiss.with_columns(_R=pl.col("round").max().over("event_id"))
    return absent_players(with_last.filter(pl.col("round") < pl.col("_R")).drop("_R"),
                          with_last.filter(pl.col("round") == pl.col("_R")).drop("_R"))


def _check_pairing_ids(pairs: pl.DataFrame, prior: pl.DataFrame) -> None:
    """Pairings of an event the results do not hold are an error (nothing to rank them
    on), with the nearest event ids. A player of the pairings with no earlier row is a
    late entrant, which is allowed, but when someone of their event who played before is
    not paired and has a near id, it looks like a typo: warned, naming both."""
    events = prior["event_id"].unique().sort().to_list()
    # (the first unknown event by id, not by the rows' order)
    for ev in pairs.filter(~pl.col("event_id").is_in(events))["event_id"].unique().sort():
        msg = (f"the pairings are for event {quoted(ev)}, which the results do not hold. Hint: "
               + did_you_mean(ev, events, f"events present: {events[:10]}."))
        raise DataError(msg)
    known = prior.select("event_id", "player_id").unique()
    new = (pairs.join(known, on=["event_id", "player_id"], how="anti")
           .select("event_id", "player_id").unique().sort("event_id", "player_id"))
    if new.height == 0:
        return
    unpaired = known.join(pairs, on=["event_id", "player_id"], how="anti")
    pools = dict(unpaired.group_by("event_id").agg(pl.col("player_id").sort()).iter_rows())
    found: list[tuple[str, str, str]] = []
    # (the first new ids only: pairings that spell every player another way would
    # otherwise compare each new id with each unpaired one — 3,000 players, 11 s)
    for ev, pid in new.head(_TYPO_CHECKS).iter_rows():
        close = nearest(pid, pools.get(ev, ()), n=1, cutoff=0.75)
        if close:
            found.append((ev, pid, close[0]))
        if len(found) == _TYPO_EXAMPLES:
            break
    if not found:
        return
    ev, pid, near = found[0]
    msg = (f"event {quoted(ev)}: the pairings name {quoted(pid)}, who has no earlier round "
           f"(taken as a late entrant), while {quoted(near)}, who played before, is not paired")
    if len(found) > 1:
        msg += "; likewise " + ", ".join(
            f"{quoted(p)} and {quoted(n)}" + ("" if e == ev else f" ({quoted(e)})")
            for e, p, n in found[1:])
    if new.height > len(found):
        msg += (f" ({new.height} ids of the pairings have no earlier round, "
                f"{unpaired.height} players who played before are not paired)")
    msg += ". Hint: if that is a typo, fix the pairings."
    warnings.warn(msg, UserWarning, stacklevel=5)


#: How many ids of the pairings with no earlier round are compared with the unpaired
#: players of their event for a near spelling, and how many typos the warning names:
#: enough to show the pattern, bounded whatever the size of the pairings.
_TYPO_CHECKS: Final = 20
_TYPO_EXAMPLES: Final = 3


def _bye_games(rules: Ruleset, outcomes: pl.DataFrame) -> tuple[int, int, int]:
    """The games of a bye in a scenario, which has no row to read them from: the ruleset's
    ``bye_games`` (the MTR's 2-0), else the outcome space's most decisive win (a
    best-of-three's 2-0, a chess game's 1-0)."""
    if rules.bye_games is not None:
        return rules.bye_games
    won = outcomes.filter(pl.col("gw") > pl.col("gl")).sort(
        pl.col("gw") - pl.col("gl"), "gw", descending=True)
    if won.height == 0:  # (a space without a win: the bye is still a win, by a game)
        return (1, 0, 0)
    gw, gl, gd = won.select("gw", "gl", "gd").row(0)
    return int(gw), int(gl), int(gd)


def _single_units(players: pl.DataFrame, kind: Literal["bye", "idle"],
                  games: tuple[int, int, int] = (0, 0, 0)) -> pl.DataFrame:
    """One-seat units with a single outcome (k = 0): a bye (played, a win by ``games``
    without an opponent: :func:`_bye_games`) or an idle player (not paired in the round)."""
    bye = kind == "bye"
    gw, gl, gd = games if bye else (0, 0, 0)
    return players.select(
        "event_id", "player_id",
        pl.concat_str([pl.col("player_id"), pl.lit(SEP + kind)]).alias("unit"),
        k=pl.lit(0, dtype=pl.Int64), gw=pl.lit(gw, dtype=pl.Int64),
        gl=pl.lit(gl, dtype=pl.Int64), gd=pl.lit(gd, dtype=pl.Int64),
        mk=pl.lit(0, dtype=pl.Int64), opp=pl.lit(None, dtype=pl.String),
        played=pl.lit(value=bye), bye=pl.lit(value=bye))


def prepare_round(results: pl.DataFrame | pl.LazyFrame,
                  pairings: pl.DataFrame | pl.LazyFrame | None, rules: Ruleset,
                  outcomes: pl.DataFrame) -> RoundFrame:
    """Seat rows with every player's state after the round, for each outcome of their unit."""
    prior = validate_results(results).pipe(collect).filter(pl.col("phase") == "swiss")
    if prior.height == 0:
        msg = "no Swiss rounds in the results. Hint: pass the rounds played so far."
        raise DataError(msg)
    last = prior.group_by("event_id").agg(pl.col("round").max().alias("_last"))
    o = outcomes.select("k", "gw", "gl", "gd", "mk")
    virtual = pairings is None
    dq = [prior] if DISQUALIFIED in prior.columns else []
    if pairings is None:
        agg = _records(prior, rules)
        active = agg.join(last, on="event_id").filter(pl.col("last_round") == pl.col("_last"))
        players = agg.select("event_id", "player_id")
        seats_m = (active.select("event_id", "player_id", pl.col("player_id").alias("unit"))
                   .join(o, how="cross")
                   .with_columns(opp=pl.lit(None, dtype=pl.String), played=pl.lit(value=True),
                                 bye=pl.lit(value=False)))
        paired = active.select("event_id", "player_id")
        rnd = last.select("event_id", (pl.col("_last") + 1).alias("_R"))
    else:
        pr = _normalise_pairings(pairings, prior)
        rnd = (last.join(pr.group_by("event_id").agg(pl.col("round").max().alias("_pr")),
                         on="event_id", how="left")
               .select("event_id", pl.coalesce("_pr", pl.col("_last") + 1).alias("_R")))
        agg = _records(prior, rules, pr.select("event_id", "player_id").join(rnd, on="event_id"))
        players = pl.concat([agg.select("event_id", "player_id"),
                             pr.select("event_id", "player_id")]).unique()
        matches = pr.filter(pl.col("opponent_id").is_not_null())
        lo_id = pl.min_horizontal("player_id", "opponent_id")
        hi_id = pl.max_horizontal("player_id", "opponent_id")
        a_seat = pl.col("player_id") < pl.col("opponent_id")
        seats_m = (matches.select(
            "event_id", "player_id", pl.col("opponent_id").alias("opp"),
            pl.concat_str([lo_id, pl.lit(SEP), hi_id]).alias("unit"), a_seat.alias("_a"))
            .join(o, how="cross")
            .with_columns(gw=pl.when("_a").then("gw").otherwise("gl"),
                          gl=pl.when("_a").then("gl").otherwise("gw"),
                          played=pl.lit(value=True), bye=pl.lit(value=False))
            .drop("_a"))
        byes = _single_units(pr.filter(pl.col("opponent_id").is_null()), "bye",
                             _bye_games(rules, outcomes))
        seats_m = pl.concat([seats_m.select(byes.columns), byes])
        paired = pr.select("event_id", "player_id")
        dq += [pr] if DISQUALIFIED in pr.columns else []
    idle = _single_units(players.join(paired, on=["event_id", "player_id"], how="anti"),
                         "idle")
    seats = pl.concat([seats_m.select(idle.columns), idle])
    zero = dict.fromkeys(("wins", "losses", "draws", "byes", "rounds_played", "opponents",
                          "_pts", "games_won", "games_lost", "games_drawn"), 0)
    played, gw, gl = pl.col("played"), pl.col("gw"), pl.col("gl")
    win = played & (gw > gl)
    post = (seats.join(agg.drop("first_round", "last_round"), on=["event_id", "player_id"],
                       how="left")
            .with_columns(pl.col(c).fill_null(v) for c, v in zero.items())
            .with_columns(
                dropped=(~played) if not virtual else pl.col("dropped").fill_null(value=False),
                level=pl.when(~played).then(pl.lit("dropped")).when(pl.col("bye"))
                .then(pl.lit("bye")).otherwise(level_expr(gw, gl)),
                score=pl.when(~played).then(pl.lit(None, dtype=pl.String))
                .when(pl.col("bye")).then(pl.lit("bye"))
                .otherwise(score_label(gw, gl, pl.col("gd"))),
                wins=pl.col("wins") + win.cast(pl.Int64),
                losses=pl.col("losses") + (played & (gw < gl)).cast(pl.Int64),
                draws=pl.col("draws") + (played & (gw == gl)).cast(pl.Int64),
                byes=pl.col("byes") + pl.col("bye").cast(pl.Int64),
                rounds_played=pl.col("rounds_played") + played.cast(pl.Int64),
                _pts=pl.col("_pts") + pl.when(played).then(
                    row_points(rules, gw, gl, pl.col("gd"), bye=pl.col("bye"))).otherwise(0),
                games_won=pl.col("games_won") + gw, games_lost=pl.col("games_lost") + gl,
                games_drawn=pl.col("games_drawn") + pl.col("gd")))
    # opponents after the round, with multiplicity
    faced_prior = (prior.filter(pl.col("opponent_id").is_not_null())
                   .group_by("event_id", "player_id", pl.col("opponent_id").alias("opp"))
                   .agg(c=pl.len().cast(pl.Int64)))
    faced_new = (post.filter(pl.col("opp").is_not_null() & (pl.col("k") == 0))
                 .select("event_id", "player_id", "opp", c=pl.lit(1, dtype=pl.Int64)))
    faced = (pl.concat([faced_prior, faced_new]).group_by("event_id", "player_id", "opp")
             .agg(pl.col("c").sum()))
    cnt = faced.group_by("event_id", "player_id").agg(_cnt=pl.col("c").sum())
    post = post.join(cnt, on=["event_id", "player_id"], how="left").with_columns(
        _cnt=pl.col("_cnt").fill_null(0)
        + (pl.lit(1) if virtual else pl.lit(0)) * pl.col("played").cast(pl.Int64))
    # exact own rates after the round, at scales covering every outcome
    # (the own rates' scales: an opponents' rate over the event's rounds is the engine's,
    # read only by the scenarios it ranks, opponents_bounded)
    own = rules if rules.opponent_mw_rounds == "played" else dataclasses.replace(
        rules, opponent_mw_rounds="played")
    # (a scale that overflows is said once below, of its event)
    scales = rate_scales(post, own, post["_cnt"], probe=True)
    exact = scales.exact()
    if not exact:
        ids = post.get_column("event_id").unique()
        which = f"event {quoted(ids[0])}" if ids.len() == 1 else "this input"
        msg = (f"cut analysis: exact scales overflow Int128 for {which}; rates are compared "
               "as floats rounded to 12 decimals. Hint: only very long events do this.")
        warnings.warn(msg, ExactnessWarning, stacklevel=3)
        scales = RateScales(FALLBACK_SCALE, FALLBACK_SCALE, scales.k_max)
    rates = own_rates(rules, scales)
    post = post.with_columns(_x_mw=rates["_x_mwp"], _x_gw_opp=rates["_x_gwp_opp"],
                             _x_gw=rates["_x_gwp"]).join(rnd, on="event_id", how="left")
    if dq:
        post = _with_disqualified(post, dq)
    return RoundFrame(prior=prior.join(rnd, on="event_id", how="left"), seats=post,
                      faced=faced, virtual=virtual, rate_scale=scales.rate.scale,
                      game_scale=scales.game.scale, k_lcm=scales.k_lcm if exact else 1,
                      exact=exact, rules=rules, outcomes=outcomes)


def _records(prior: pl.DataFrame, rules: Ruleset, seated: pl.DataFrame | None = None
             ) -> pl.DataFrame:
    """Every player's record before the analysed round as the engine counts it once the
    round is played: with the losses ``late_rounds="loss"`` adds for the rounds a player
    missed before their last row (``engine/_record.late_rows``: a late entrant's, and one
    missed between two played). ``seated``: ``event_id, player_id, _R``, the players with a
    seat in the analysed round ``_R``, which is such a last row: they stand in for it here
    and are not counted. Without them a late entrant's record had no loss, and their
    opponents' OMW% ranges and the statuses proved by them were of another event."""
    rows = prior.lazy()
    if rules.late_rounds != "as_given":
        seats = (pl.DataFrame(schema={"event_id": pl.String, "player_id": pl.String,
                                      "_R": pl.Int64}) if seated is None else seated)
        stand_in = seats.lazy().select(
            "event_id", pl.col("_R").cast(prior.schema["round"]).alias("round"), "player_id",
            opponent_id=pl.lit(None, dtype=pl.String), games_won=pl.lit(0, dtype=pl.Int64),
            games_lost=pl.lit(0, dtype=pl.Int64), games_drawn=pl.lit(0, dtype=pl.Int64),
            phase=pl.lit("swiss"), _stand_in=pl.lit(value=True))
        marked = pl.concat([rows, stand_in], how="diagonal_relaxed")
        rows = (late_rows(marked, rules, ("event_id",))
                .filter(~pl.col("_stand_in").fill_null(value=False)).drop("_stand_in"))
    return aggregate_players(prepare_rows(rows, rules), ("event_id",)).pipe(collect)


def _with_disqualified(seats: pl.DataFrame, frames: Sequence[pl.DataFrame]) -> pl.DataFrame:
    """``seats`` with ``disqualified``: the player has a flagged row in ``frames`` (the
    prior rounds, or the analysed round's pairings). A disqualified player cannot make
    the cut (MTG IPG §1.1, Pokémon TRH §5.7.3: removed from the standings), and their
    results still count for their opponents."""
    who = (pl.concat([f.filter(pl.col(DISQUALIFIED)).select(KEY) for f in frames])
           .unique().with_columns(pl.lit(value=True).alias(DISQUALIFIED)))
    return (seats.join(who, on=KEY, how="left")
            .with_columns(pl.col(DISQUALIFIED).fill_null(value=False)))


def disqualified_in(rf: RoundFrame) -> pl.DataFrame:
    """The disqualified players of the analysed round (``event_id, player_id``): none
    when the results have no ``disqualified`` column."""
    if DISQUALIFIED not in rf.seats.columns:
        return pl.DataFrame(schema={"event_id": pl.String, "player_id": pl.String})
    return rf.seats.filter(pl.col(DISQUALIFIED)).select(KEY).unique()


def per_exact_group(results: Frame, pairings: Frame | None, rules: Ruleset,
                    outcomes: pl.DataFrame, run: Callable[[RoundFrame], pl.DataFrame]
                    ) -> pl.DataFrame:
    """``run`` on the analysed round of every event at once (:func:`prepare_round`) —
    or, when their exact scales together overflow Int128, once per group of events that
    stay exact together and once per event that does not (its fallback to rounded values
    then touches it only, and its warning names it), stacked in event order. As
    ``standings`` computes long events (``engine/_record.scale_groups``): an event's
    analysis does not depend on the events beside it."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rf = prepare_round(results, pairings, rules, outcomes)
    events = rf.seats.get_column("event_id").unique().sort()
    if rf.exact or events.len() < 2:
        for w in caught:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        return run(rf)
    for w in caught:  # (the overflow is said again by the group it belongs to)
        if not issubclass(w.category, ExactnessWarning):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    table = as_frame(results)
    pairs = None if pairings is None else as_frame(pairings, what="pairings table",
                                                   made_by=PAIRINGS_MADE_BY)
    parts = []
    for group in split_exact(rf.seats, rules, events, count="_cnt"):
        keep = pl.col("event_id").is_in(group.implode())
        sub = None if pairs is None else (pairs.filter(keep) if "event_id" in pairs.columns
                                          else pairs)
        parts.append(run(prepare_round(table.filter(keep), sub, rules, outcomes)))
    return pl.concat(parts, how="vertical_relaxed").sort("event_id", maintain_order=True)


def ranges_by_seat(rf: RoundFrame) -> pl.DataFrame:
    """Exact OMW%/OGW% bounds per (player, k of own unit), over every other unit's outcome.

    The sum over a player's opponents decomposes by unit: each unit's joint contribution
    is minimised / maximised over that unit's outcomes separately (two opponents who meet
    cannot both win), the player's own unit is fixed at ``k``.
    """
    seats = rf.seats
    key = ["event_id", "player_id"]
    vals = seats.select("event_id", pl.col("player_id").alias("opp"), pl.col("unit").alias(
        "_u"), "k", "_x_mw", "_x_gw_opp")
    own_unit = seats.filter(pl.col("k") == 0).select(*key, pl.col("unit").alias("_up"))
    contrib = (rf.faced.join(vals, on=["event_id", "opp"], how="inner")
               .join(own_unit, on=key, how="left")
               .group_by(*key, "_u", "k", "_up")
               .agg(_smw=(pl.col("c").cast(_I128) * pl.col("_x_mw")).sum(),
                    _sgw=(pl.col("c").cast(_I128) * pl.col("_x_gw_opp")).sum()))
    other = (contrib.filter(pl.col("_u") != pl.col("_up"))
             .group_by(*key, "_u")
             .agg(pl.col("_smw").min().alias("_mw_lo"), pl.col("_smw").max().alias("_mw_hi"),
                  pl.col("_sgw").min().alias("_gw_lo"), pl.col("_sgw").max().alias("_gw_hi"))
             .group_by(key).agg(pl.col("_mw_lo", "_mw_hi", "_gw_lo", "_gw_hi").sum()))
    own = (contrib.filter(pl.col("_u") == pl.col("_up"))
           .select(*key, "k", pl.col("_smw").alias("_own_mw"), pl.col("_sgw").alias("_own_gw")))
    out = (seats.join(other, on=key, how="left").join(own, on=[*key, "k"], how="left")
           .with_columns(pl.col("_mw_lo", "_mw_hi", "_gw_lo", "_gw_hi", "_own_mw", "_own_gw")
                         .fill_null(0)))
    if rf.virtual:  # the unknown next opponent: same record, the mirrored result
        mirror = seats.select(*key, pl.col("k").alias("mk"), pl.col("_x_mw").alias("_v_mw"),
                              pl.col("_x_gw_opp").alias("_v_gw"))
        out = (out.join(mirror, on=[*key, "mk"], how="left")
               .with_columns(_own_mw=pl.col("_own_mw") + pl.col("_v_mw").fill_null(0),
                             _own_gw=pl.col("_own_gw") + pl.col("_v_gw").fill_null(0))
               .drop("_v_mw", "_v_gw"))
    cnt = pl.col("_cnt").cast(_I128)

    def mean(total: pl.Expr) -> pl.Expr:
        # exact: total · (K / count) at scale M·K; rounded floats: total / count at 10**12
        if rf.exact:
            return pl.when(cnt > 0).then(total * (pl.lit(rf.k_lcm, dtype=_I128) // cnt))
        return pl.when(cnt > 0).then(total // cnt)

    return out.with_columns(
        _x_omw_lo=mean(pl.col("_mw_lo") + pl.col("_own_mw")),
        _x_omw_hi=mean(pl.col("_mw_hi") + pl.col("_own_mw")),
        _x_ogw_lo=mean(pl.col("_gw_lo") + pl.col("_own_gw")),
        _x_ogw_hi=mean(pl.col("_gw_hi") + pl.col("_own_gw")),
    ).drop("_mw_lo", "_mw_hi", "_gw_lo", "_gw_hi", "_own_mw", "_own_gw")


def opponents_bounded(rules: Ruleset) -> str | None:
    """None when the analyses' own opponents' means (:func:`ranges_by_seat`, the fast
    scenario model) are the engine's for ``rules``; else why not: a ruleset that counts
    each opponent once, leaves a no-show's games out or takes an opponent's rate over the
    event's rounds (:func:`~swissframe.engine._record.opponents_as_met`). Its statuses are
    then proved by points and the scenarios the engine ranks only, and its ranges are
    refused (:func:`swissframe.cut.next_round_ranges`)."""
    if opponents_as_met(rules):
        return None
    return (f"ruleset {rules.name!r} sets distinct_opponents={rules.distinct_opponents}, "
            f"unopposed_loss_games={rules.unopposed_loss_games!r}, "
            f"opponent_mw_rounds={rules.opponent_mw_rounds!r}")


def criteria_bounds(rules: Ruleset, *, skip_first: bool = True
                    ) -> list[tuple[str, pl.Expr, pl.Expr]]:
    """Per ranking criterion after the first key: (name, lower, upper) exact "goodness".

    Higher goodness ranks higher; a null value (no opponents) is :data:`NULL_VALUE` (ranked
    last, as the engine does); a criterion without a known range is unbounded. The first
    key (match points, or what ranks first when ``points_first`` is off) is left out when
    ``skip_first``: the status compares it exactly.
    """
    # criteria registered with bounds=True, by what their value is
    known = capability_columns("bounds", "own", {"gwp": ("_x_gw", "_x_gw"),
                                                  "mwp": ("_x_mw", "_x_mw")})
    if opponents_bounded(rules) is None:
        known = {**known, **capability_columns("bounds", "opponent_mean",
                                               {"mwp_opp": ("_x_omw_lo", "_x_omw_hi"),
                                                "gwp_opp": ("_x_ogw_lo", "_x_ogw_hi")})}
    crits = list(rules.criteria)
    if skip_first and crits and (not rules.points_first or crits[0].name == "match_points"):
        crits = crits[1:]  # the first key itself (with points_first, points come first)
    out: list[tuple[str, pl.Expr, pl.Expr]] = []
    for crit in crits:
        cols = known.get(crit.function) if not crit.params else None
        if cols is None:
            out.append((crit.name, pl.lit(UNKNOWN_LO, dtype=_I128),
                        pl.lit(UNKNOWN_HI, dtype=_I128)))
            continue
        # (Int128 whatever the width of the engine's exact column: an own rate is Int64
        # where its scale fits, and NULL_VALUE, -(2**110), filled into an Int64 column was a
        # null, which ranked a player without opponents nowhere)
        lo, hi = pl.col(cols[0]).cast(_I128), pl.col(cols[1]).cast(_I128)
        if not crit.descending:
            lo, hi = -hi, -lo
        out.append((crit.name, lo.fill_null(NULL_VALUE), hi.fill_null(NULL_VALUE)))
    return out


def scenario_results(rf: RoundFrame, assignment: pl.DataFrame) -> pl.DataFrame:
    """Results rows (prior rounds + the analysed round) for every scenario.

    ``assignment`` has ``event_id, scenario_id, unit, k``: one outcome per unit and
    scenario. Returns a long results table with a ``scenario_id`` key column.
    """
    played = rf.seats.filter(pl.col("played")).select(
        "event_id", "unit", "k", "player_id", pl.col("opp").alias("opponent_id"),
        pl.col("gw").alias("games_won"), pl.col("gl").alias("games_lost"),
        pl.col("gd").alias("games_drawn"), pl.col("_R").alias("round"))
    new = assignment.join(played, on=["event_id", "unit", "k"], how="inner").drop("unit", "k")
    scen = assignment.select("event_id", "scenario_id").unique()
    cols = ["event_id", "scenario_id", "round", "player_id", "opponent_id", "games_won",
            "games_lost", "games_drawn"]
    # the optional and flag columns travel with the prior rows: an unplayed round (a
    # forfeit, a half-point bye) and a double loss (TOM's: both seats 0-1-0, which the
    # contract refuses unflagged: 250 mirror_mismatch problems, one a scenario) keep their
    # meaning in every scenario; the analysed round is played (the disqualified flag is
    # put on every row of the player below)
    extra = [c for c in (*OPTIONAL_COLUMNS, *FLAG_COLUMNS)
             if c != DISQUALIFIED and c in rf.prior.columns]
    # (the prior rows' own columns only: a column of the input named scenario_id was
    # joined in place of the scenarios' key — Polars' bare SchemaError, or every scenario's
    # prior rows under one key, refused as duplicate seats the input does not hold; bad
    # data 211)
    old = (rf.prior.select(*(c for c in cols if c != "scenario_id"), *extra)
           .join(scen, on="event_id", how="inner").select(*cols, *extra))
    out = pl.concat([old, new.select(cols)], how="diagonal").with_columns(
        phase=pl.lit("swiss"))
    if DISQUALIFIED in rf.seats.columns:  # (on every row of the player: see prepare_round)
        out = _with_disqualified(out, [rf.seats])
    return out


def make_cut_flags(rf: RoundFrame, assignment: pl.DataFrame, top: int) -> pl.DataFrame:
    """Per (event, scenario, player): whether the player's whole tie group is inside the top
    (``makes_cut``), and the player's chance of a place in it (``chance``).

    Uses the engine (``standings(..., keys=["scenario_id"])``) on every scenario at once. A
    criterion that orders a tie by lot (``drawn_by_lot``: Pokémon TRH §5.5.1.1, FaB; the
    event draws that order when it happens) is left out: the players it
    would order are a tie group, and when the group straddles the line each of them has the
    share of the places left (``chance`` = places left ÷ group size), not the place the
    seeded order gives. Without one, ``chance`` is ``makes_cut`` (an exact tie across the
    line is not in).
    """
    res = scenario_results(rf, assignment)
    crits = tuple(c for c in rf.rules.criteria if not drawn_by_lot(c.function))
    lottery = len(crits) < len(rf.rules.criteria)
    rules = dataclasses.replace(rf.rules, criteria=crits) if lottery else rf.rules
    st = standings(res, rules, keys=["scenario_id"])
    size = pl.len().over("event_id", "scenario_id", "rank")
    # (a disqualified player has no rank: never in, and the next player moves up)
    makes = (pl.col("rank") + size - 1 <= top).fill_null(value=False)
    share = ((pl.lit(top) - pl.col("rank") + 1).clip(0) / size).clip(0.0, 1.0).fill_null(0.0)
    return st.select(
        "event_id", "scenario_id", "player_id", "rank", makes.alias("makes_cut"),
        (share if lottery else makes.cast(pl.Float64)).alias("chance"))


def unit_table(rf: RoundFrame) -> pl.DataFrame:
    """Units with their number of outcomes: ``event_id, unit, n_k``."""
    return rf.seats.group_by("event_id", "unit").agg(n_k=pl.col("k").n_unique()).sort(
        "event_id", "unit")


def enumerate_assignments(units: pl.DataFrame, lo: int = 0, hi: int | None = None
                          ) -> pl.DataFrame:
    """Every combination of unit outcomes (``event_id, scenario_id, unit, k``) per event;
    with ``lo``/``hi``, the scenarios ``lo <= scenario_id < hi`` of each event only (a
    chunk: every scenario at once is each event's scenarios times its tables, bad data 260).
    """
    u = units.sort("event_id", "unit").with_columns(
        _stride=pl.col("n_k").cum_prod().over("event_id") // pl.col("n_k"),
        _n=pl.col("n_k").product().over("event_id"))
    end = pl.col("_n") if hi is None else pl.min_horizontal("_n", pl.lit(hi, pl.Int64))
    scen = (u.group_by("event_id").agg(pl.col("_n").first())
            .filter(pl.col("_n") > lo)  # (an empty range would explode to a null row)
            .with_columns(scenario_id=pl.int_ranges(lo, end)).explode("scenario_id")
            .drop("_n"))
    return (scen.join(u, on="event_id")
            .select("event_id", "scenario_id", "unit",
                    ((pl.col("scenario_id") // pl.col("_stride")) % pl.col("n_k")).alias("k")))


def keyed_uniform(seed: int | None, *keys: pl.Series) -> np.ndarray:
    """One uniform draw in [0, 1) per row, a function of ``seed`` and that row's integer
    ``keys`` alone (SplitMix64 over the seed, then each key in turn): no draw depends on
    the other rows, so the scenarios of an event are the same alone and beside other
    events, in any row order. ``seed=None``: a fresh random seed for the call.

    >>> s = pl.Series([0, 1, 2])
    >>> a = keyed_uniform(7, s, pl.Series([5, 5, 5]))
    >>> b = keyed_uniform(7, s[1:], pl.Series([5, 5]))
    >>> bool((a[1:] == b).all()), bool(((0 <= a) & (a < 1)).all())
    (True, True)
    """
    import numpy as np

    def mix(x: np.ndarray) -> np.ndarray:
        x = x + np.uint64(0x9E3779B97F4A7C15)
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        out: np.ndarray = x ^ (x >> np.uint64(31))
        return out

    base = (int(np.random.default_rng().integers(2**63)) if seed is None else seed) % 2**64
    n = len(keys[0]) if keys else 0
    with np.errstate(over="ignore"):
        h = mix(np.full(n, base, dtype=np.uint64))
        for key in keys:
            h = mix(h ^ key.cast(pl.Int64).to_numpy().astype(np.uint64))
    u: np.ndarray = (h >> np.uint64(11)).astype(np.float64) * 2.0**-53
    return u


def sample_assignments(units: pl.DataFrame, outcomes: pl.DataFrame, n: int, start: int,
                       seed: int | None) -> pl.DataFrame:
    """``n`` random scenarios per event (``scenario_id`` from ``start``): every match
    draws ``k`` from the outcome weights, by :func:`keyed_uniform` of the scenario and the
    unit's place among its event's units — an event's draws are its own, whatever other
    events the call holds and however its scenarios are split into blocks."""
    import numpy as np  # not on `import swissframe`: only the simulated scenarios need it

    grid = (units.with_columns(_u=pl.col("unit").rank("dense").over("event_id"))
            .join(pl.DataFrame({"scenario_id": np.arange(start, start + n)}), how="cross"))
    w = np.cumsum(outcomes.sort("k")["weight"].to_numpy())
    u = keyed_uniform(seed, grid["scenario_id"], grid["_u"])
    draws = np.minimum(np.searchsorted(w / w[-1], u, side="right"), len(w) - 1)
    return grid.with_columns(
        k=pl.when(pl.col("n_k") > 1).then(pl.Series(draws, dtype=pl.Int64)).otherwise(0)
    ).select("event_id", "scenario_id", "unit", "k")
