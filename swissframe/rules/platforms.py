"""Platform rulesets: how melee.gg, Topdeck, CardsRealm and Manatraders compute OMW%/GW%/OGW%.

Each platform is a :class:`~swissframe.rules.Ruleset` VALUE built with
:func:`dataclasses.replace` from :data:`swissframe.rules.MTG`; the engine has no special case
for any of them. What a platform does beyond the engine's fields lives in ``Ruleset.options``
(a frozen :class:`~swissframe.rules.PlatformOptions`, validated whole and part of the
ruleset's equality) and is applied to the data by :func:`prepare_results` / :func:`publish`
(pure functions):

``playoff_in_tiebreakers`` (bool)
    Playoff matches count in the published values (melee.gg: the values of a Top-8 player
    are taken after the playoff). The playoff rows are then relabelled Swiss with stage
    ``"playoff"``, so the ``"stage"`` snapshot takes each player at the end of the last stage
    they played (Day 1, Day 2, playoff).
``rounding`` (``"round"`` | ``"truncate"`` | ``"none"``)
    How published values are cut to the event's decimals.
``compare`` (tuple of column names)
    Which values the platform's data lets us reproduce (Topdeck has no game scores: OMW% only).
``unreported`` (``"draw"`` | ``"drop"``)
    How a ``0-0-0`` (unreported) match counts: as a 0-game match draw, or not at all.
``dropped_cutoff`` (``"stage_end"`` | ``"stage_end_minus_one"`` | ``"own_round"``)
    With ``snapshot="stage"``: the round at which a player who left before the end of their
    stage (dropped, or did not play the stage's last round) is evaluated. ``"stage_end"``
    (default, melee.gg's usual behaviour) takes the stage end like everyone else;
    ``"stage_end_minus_one"`` the round before it (never before the player's own last
    round) and ``"own_round"`` the player's own last round. melee.gg froze dropped players
    at one of the latter two in a minority of its 2024-04…2025-11 events; nothing in the
    rounds tells which (docs/fidelity.md), so these are per-event overrides for an analyst
    who knows the event, never chosen automatically.
``published_order`` (``"bracket"`` | ``"swiss"``)
    Where the published standings put the playoff players: by the round they were
    eliminated in, then the rest of the field (melee.gg, Topdeck), or everyone in Swiss
    order (Manatraders and CardsRealm publish their Swiss standings; a playoff moves
    nobody). Read by :func:`swissframe.verify.verify` for the ``rank`` column.

What the platforms do to the opponents' averages is the engine's, as :class:`Ruleset`
fields any ruleset may set (honoured by every path of :func:`swissframe.standings`):

``distinct_opponents=True``
    Each opponent counts once in OMW%/OGW% even when met twice (melee.gg: a Swiss opponent
    met again in the playoff, or a rematch in a small Swiss).
``unopposed_loss_games="ignore"``
    The games of a loss without an opponent (no-show, ``0-2-0`` against ``"-"``) do not
    count in the player's own GW% (melee.gg; the match still counts in MW%).
``opponent_mw_rounds="event"``
    The denominator of an opponent's match-win rate in OMW% is every Swiss round of the
    event up to the evaluation round, so rounds an opponent missed (dropped, late,
    skipped) count as losses (CardsRealm until 2025-05-19: OMW% 73% → 93% of players
    reproduced).

The ordering is data too: a platform ruleset's ``criteria`` are the keys its published order
uses (Manatraders: points → rounds played → OMW% → GW% → OGW%; docs/fidelity.md).

Per-player evaluation cutoffs
    The platforms publish each player's values as they stood at the end of the last stage
    the player played (``snapshot="stage"``): Day 1, Day 2, or the playoff for the players
    who reached it — and then the opponents' records are taken at that same round.
    :func:`platform_values` implements it on top of the engine's ``keys=`` API: every row is
    repeated once per distinct cutoff round at or after it (an ``eval_cut`` key column),
    the engine computes every player's values per cutoff in one call, and each player reads
    the row of their own cutoff.

The melee.gg eras (SOURCES.md): E1 (6 decimals) drawn games worth 0, own GW% floored; E2
(8 decimals, 2024-05-16…2025-11-12) drawn games worth 1 point, own GW% NOT floored; E3 (7
decimals, or 8 outside E2) drawn games worth 1 point, own GW% floored. All use the 1/3 floor.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Final

import polars as pl

from swissframe.engine._exact import to_decimals
from swissframe.engine._record import cutoff_rows
from swissframe.engine.standings import standings
from swissframe.errors import RulesetError
from swissframe.rules import _ruleset as _rules
from swissframe.rules._ruleset import Criterion, PlatformOptions, Ruleset

__all__ = [
    "CARDSREALM",
    "CARDSREALM_E1",
    "CARDSREALM_E2_START",
    "MANATRADERS",
    "MELEE_E1",
    "MELEE_E2",
    "MELEE_E2_END",
    "MELEE_E2_START",
    "MELEE_E3",
    "MELEE_ERAS",
    "PLATFORMS",
    "ROUNDS_PLAYED",
    "TOPDECK",
    "assign_rulesets",
    "melee",
    "melee_era",
    "option",
    "platform_values",
    "prepare_results",
    "publish",
    "rulesets_by_name",
]

_ALL3: Final = ("omwp", "gwp", "ogwp")

#: The platforms' base: MTG counting the games a bye's row records (``bye_games=None``)
#: instead of the MTR's 2-0, as their published values are reproduced from the recorded
#: games (docs/fidelity.md).
_PLATFORM_MTG: Final = dataclasses.replace(_rules.MTG, bye_games=None)

_MELEE_BASE: Final = dataclasses.replace(
    _PLATFORM_MTG, name="melee", floor=Fraction(1, 3), snapshot="stage",
    description="melee.gg", source="melee.gg published standings, by era: docs/fidelity.md",
    options=PlatformOptions(playoff_in_tiebreakers=True, rounding="round", compare=_ALL3,
                            unreported="draw"),
    distinct_opponents=True, unopposed_loss_games="ignore")

#: melee.gg era E1 (6 decimals, early 2024): drawn games worth 0, own GW% floored at 1/3.
MELEE_E1: Final = dataclasses.replace(
    _MELEE_BASE, name="melee-e1", drawn_game_value=Fraction(0), floor_own_gw=True,
    description="melee.gg E1: floor 1/3, drawn games 0, own GW% floored, stage snapshots")
#: melee.gg era E2 (8 decimals, 2024-05-16…2025-11-12): drawn games 1/3, own GW% unfloored.
MELEE_E2: Final = dataclasses.replace(
    _MELEE_BASE, name="melee-e2", drawn_game_value=Fraction(1, 3), floor_own_gw=False,
    description="melee.gg E2: floor 1/3, drawn games 1/3, own GW% unfloored, stage snapshots")
#: melee.gg era E3 (7 decimals, late 2025 on): drawn games 1/3, own GW% floored.
MELEE_E3: Final = dataclasses.replace(
    _MELEE_BASE, name="melee-e3", drawn_game_value=Fraction(1, 3), floor_own_gw=True,
    description="melee.gg E3: floor 1/3, drawn games 1/3, own GW% floored, stage snapshots")

#: Topdeck.gg: floor 0.33, Swiss rounds only, one end-of-Swiss snapshot; match-level results
#: only, so only OMW% can be reproduced. Values are published unrounded.
TOPDECK: Final = dataclasses.replace(
    _PLATFORM_MTG, name="topdeck", floor=Fraction(33, 100), snapshot="final",
    description="Topdeck.gg: floor 0.33, Swiss only, OMW% only (match-level results)",
    source="Topdeck.gg published standings: docs/fidelity.md",
    options=PlatformOptions(playoff_in_tiebreakers=False, rounding="none",
                            compare=("omwp",), unreported="draw"))

#: CardsRealm: floor 1/3 for opponents, own GW% unfloored, Swiss only, 3 decimals truncated;
#: the published order is the Swiss order (docs/fidelity.md).
CARDSREALM: Final = dataclasses.replace(
    _PLATFORM_MTG, name="cardsrealm", floor=Fraction(1, 3), floor_own_gw=False, snapshot="final",
    description="CardsRealm: floor 1/3, own GW% unfloored, 3 decimals truncated",
    source="CardsRealm published standings: docs/fidelity.md",
    options=PlatformOptions(playoff_in_tiebreakers=False, rounding="truncate",
                            compare=_ALL3, unreported="draw", published_order="swiss"))

#: CardsRealm before :data:`CARDSREALM_E2_START` (era "CR1"): the same, but the player's own
#: GW% is floored at 1/3 (measured: own GW% of 0-2 players published as 0.333 until mid-May
#: 2025, 0.0 from 2025-05-20 on).
CARDSREALM_E1: Final = dataclasses.replace(
    CARDSREALM, name="cardsrealm-e1", floor_own_gw=True,
    description="CardsRealm until 2025-05-19: floor 1/3, own GW% floored, opponents' MW% "
                "over all Swiss rounds, 3 decimals",
    opponent_mw_rounds="event")

#: First event date of CardsRealm's era "CR2" (own GW% no longer floored).
CARDSREALM_E2_START: Final = "2025-05-20"

#: melee.gg tiebreaker eras (SOURCES.md): E1 = 6 published decimals; E2 = 8 decimals within
#: [2024-05-16, 2025-11-12]; E3 = everything else (7 decimals, or 8 outside E2's dates).
MELEE_ERAS: Final[Mapping[str, str]] = MappingProxyType({
    "E1": "6 decimals: drawn games worth 0 game points; own GW% floored at 1/3",
    "E2": "8 decimals, 2024-05-16…2025-11-12: drawn games worth 1 point; own GW% not floored",
    "E3": "7 decimals (or 8 outside E2 dates): drawn games worth 1 point; own GW% floored",
})
MELEE_E2_START: Final = "2024-05-16"
MELEE_E2_END: Final = "2025-11-12"


def melee_era(date: pl.Expr, decimals: pl.Expr) -> pl.Expr:
    """The melee.gg era (:data:`MELEE_ERAS`) from the event date and published decimals.

    Examples
    --------
    >>> import datetime as dt, polars as pl
    >>> df = pl.DataFrame({"date": [dt.date(2024, 2, 1), dt.date(2024, 8, 1),
    ...     dt.date(2026, 1, 1), dt.date(2024, 8, 1)], "decimals": [6, 8, 7, None]})
    >>> df.select(melee_era(pl.col("date"), pl.col("decimals")))["era"].to_list()
    ['E1', 'E2', 'E3', 'E2']
    """
    start = pl.lit(MELEE_E2_START).str.to_date()
    end = pl.lit(MELEE_E2_END).str.to_date()
    in_e2 = (date >= start) & (date <= end)
    return (pl.when(decimals == 6).then(pl.lit("E1"))
            .when(decimals.is_null() & (date < start)).then(pl.lit("E1"))
            .when(in_e2 & (decimals.is_null() | (decimals == 8))).then(pl.lit("E2"))
            .otherwise(pl.lit("E3")).alias("era"))

#: Rounds played, most first (a bye counts): Manatraders' second key.
ROUNDS_PLAYED: Final = Criterion("rounds_played")

#: Manatraders: floor 0.33, own GW% unfloored, the 7 Swiss rounds only, 3 decimals; its
#: published order is the Swiss order (points → rounds played → OMW% → GW% → OGW%, the
#: placement playoff moves nobody; docs/fidelity.md).
MANATRADERS: Final = dataclasses.replace(
    _PLATFORM_MTG, name="manatraders", floor=Fraction(33, 100), floor_own_gw=False,
    snapshot="final",
    description="Manatraders: floor 0.33, own GW% unfloored, Swiss only, ranked by "
                "points → rounds played → OMW% → GW% → OGW%",
    source="Manatraders published standings and order: docs/fidelity.md",
    criteria=(_rules.POINTS, ROUNDS_PLAYED, _rules.OMWP, _rules.GWP, _rules.OGWP),
    options=PlatformOptions(playoff_in_tiebreakers=False, rounding="round", compare=_ALL3,
                            unreported="draw", published_order="swiss"))

#: Every platform ruleset by name (also registered in :data:`swissframe.rules.PRESETS`).
PLATFORMS: Final[Mapping[str, Ruleset]] = MappingProxyType({
    r.name: r for r in (MELEE_E1, MELEE_E2, MELEE_E3, TOPDECK, CARDSREALM_E1, CARDSREALM,
                        MANATRADERS)})
for _r in PLATFORMS.values():  # the platform presets, selectable by name
    _rules.register(_r)


def option(ruleset: Ruleset, key: str) -> object:
    """A platform option of ``ruleset`` (see the module docstring).

    The options were validated when the ruleset was built
    (:class:`~swissframe.rules.PlatformOptions`); an unknown ``key`` is a
    :class:`~swissframe.errors.RulesetError`.

    Examples
    --------
    >>> option(TOPDECK, "compare"), option(MELEE_E2, "playoff_in_tiebreakers")
    (('omwp',), True)
    """
    try:
        return ruleset.options[key]
    except KeyError:
        msg = (f"ruleset {ruleset.name!r}: unknown platform option {key!r}. "
               f"Hint: one of {', '.join(ruleset.options)}.")
        raise RulesetError(msg) from None


def melee(era: str) -> Ruleset:
    """The melee.gg ruleset of an era (``"E1"``, ``"E2"``, ``"E3"``).

    Examples
    --------
    >>> melee("E2").floor_own_gw
    False
    """
    try:
        return {"E1": MELEE_E1, "E2": MELEE_E2, "E3": MELEE_E3}[era.upper()]
    except KeyError:
        msg = f"unknown melee.gg era {era!r}. Hint: one of 'E1', 'E2', 'E3'."
        raise RulesetError(msg) from None


_BY_SOURCE: Final = {"topdeck": TOPDECK.name, "cardsrealm": CARDSREALM.name,
                     "manatraders": MANATRADERS.name}


def assign_rulesets(events: pl.DataFrame, *, melee_era_override: str | None = None,
                    overrides: Mapping[str, str | Ruleset] | None = None) -> pl.DataFrame:
    """The platform ruleset name of each event: ``event_id, source, era, ruleset``.

    melee.gg events get their era's ruleset, chosen from the date and the published
    decimals (:func:`melee_era`) unless ``melee_era_override`` forces
    one era; CardsRealm events are era ``CR1`` (:data:`CARDSREALM_E1`) before
    :data:`CARDSREALM_E2_START` and ``CR2`` (:data:`CARDSREALM`) from then on;
    ``overrides`` maps a source (``"melee"``, ``"topdeck"``…) or an event_id to a ruleset
    (name or value) and wins over all of these.

    Examples
    --------
    >>> import datetime as dt
    >>> ev = pl.DataFrame({"event_id": ["a", "b", "c"], "source": ["melee", "melee", "topdeck"],
    ...     "date": [dt.date(2024, 2, 1), dt.date(2025, 1, 1), dt.date(2024, 5, 1)],
    ...     "decimals": [6, 8, None]})
    >>> assign_rulesets(ev)["ruleset"].to_list()
    ['melee-e1', 'melee-e2', 'topdeck']
    >>> assign_rulesets(ev, melee_era_override="E3")["ruleset"].to_list()
    ['melee-e3', 'melee-e3', 'topdeck']
    """
    era = (pl.lit(melee_era_override.upper()) if melee_era_override is not None
           else melee_era(pl.col("date"), pl.col("decimals")))
    if melee_era_override is not None:
        melee(melee_era_override)  # validates the name
    cr_era = (pl.when(pl.col("date") < pl.lit(CARDSREALM_E2_START).str.to_date())
              .then(pl.lit("CR1")).otherwise(pl.lit("CR2")))
    out = events.select("event_id", "source", pl.when(pl.col("source") == "melee").then(era)
                        .when(pl.col("source") == "cardsrealm").then(cr_era).alias("era"))
    name = (pl.when(pl.col("source") == "melee")
            .then(pl.lit("melee-") + pl.col("era").str.to_lowercase())
            .when(pl.col("era") == "CR1").then(pl.lit(CARDSREALM_E1.name))
            .otherwise(pl.col("source").replace_strict(_BY_SOURCE, default="mtg-1/3")))
    out = out.with_columns(name.alias("ruleset"))
    for key, rs in (overrides or {}).items():
        rname = rs.name if isinstance(rs, Ruleset) else _rules.get(rs).name
        out = out.with_columns(
            pl.when((pl.col("source") == key) | (pl.col("event_id") == key))
            .then(pl.lit(rname)).otherwise(pl.col("ruleset")).alias("ruleset"))
    return out


def rulesets_by_name(overrides: Mapping[str, str | Ruleset] | None = None
                     ) -> dict[str, Ruleset]:
    """The rulesets that the names :func:`assign_rulesets` writes stand for.

    Every registered name, plus the ``Ruleset`` values among ``overrides`` — passed down
    to the computation instead of being registered, so nothing global changes. A value
    whose name is taken by a different ruleset is a
    :class:`~swissframe.errors.RulesetError`: the names would be ambiguous.

    Examples
    --------
    >>> own = dataclasses.replace(MELEE_E2, name="melee-e2-own",
    ...     options=dataclasses.replace(MELEE_E2.options, dropped_cutoff="own_round"))
    >>> rulesets_by_name({"some-event": own})["melee-e2-own"] is own
    True
    >>> "melee-e2-own" in _rules.PRESETS
    False
    """
    named: dict[str, Ruleset] = dict(_rules.PRESETS)
    for rs in (overrides or {}).values():
        if not isinstance(rs, Ruleset):
            _rules.get(rs)  # validates the name
            continue
        if named.get(rs.name, rs) != rs:
            msg = (f"two different rulesets are named {rs.name!r}. Hint: give yours its own "
                   "name (dataclasses.replace(ruleset, name=...)).")
            raise RulesetError(msg)
        named[rs.name] = rs
    return named


def prepare_results(results: pl.DataFrame, ruleset: Ruleset) -> pl.DataFrame:
    """Results as the platform counts them (pure; applies the ruleset's options).

    - ``playoff_in_tiebreakers``: playoff rows become Swiss rows of stage ``"playoff"``;
      otherwise they are left as playoff (the engine ignores them).
    - ``unreported = "drop"``: rows flagged ``unreported`` are removed; ``"draw"`` keeps them
      (a 0-0-0 record is a match draw with no games).

    Examples
    --------
    >>> df = pl.DataFrame({"event_id": ["e"] * 2, "round": [1, 2], "player_id": ["A"] * 2,
    ...     "opponent_id": [None] * 2, "games_won": [2, 2], "games_lost": [0, 0],
    ...     "games_drawn": [0, 0], "phase": ["swiss", "playoff"], "stage": ["day1", "playoff"]})
    >>> prepare_results(df, MELEE_E2)["phase"].to_list()
    ['swiss', 'swiss']
    """
    out = results
    if option(ruleset, "unreported") == "drop" and "unreported" in out.columns:
        out = out.filter(~pl.col("unreported"))
    if option(ruleset, "playoff_in_tiebreakers"):
        po = pl.col("phase") == "playoff"
        stage = (pl.when(po).then(pl.lit("playoff")).otherwise(pl.col("stage"))
                 if "stage" in out.columns else pl.when(po).then(pl.lit("playoff"))
                 .otherwise(pl.lit("day1")))
        out = out.with_columns(stage.alias("stage"), pl.lit("swiss").alias("phase"))
    return out


def publish(values: pl.Expr, decimals: pl.Expr, ruleset: Ruleset) -> pl.Expr:
    """A recomputed value as the platform would publish it with ``decimals`` places.

    ``rounding = "round"`` rounds half away from zero, ``"truncate"`` cuts, ``"none"`` (or a
    null ``decimals``) leaves the value as is.

    Examples
    --------
    >>> df = pl.DataFrame({"x": [0.416666], "d": [3]})
    >>> df.select(publish(pl.col("x"), pl.col("d"), CARDSREALM))["x"].to_list()
    [0.416]
    """
    mode = option(ruleset, "rounding")
    if mode == "none":
        return values
    cut = to_decimals(values, decimals, mode="truncate" if mode == "truncate" else "round")
    return pl.when(decimals.is_null()).then(values).otherwise(cut)


_KEEP: Final = ("event_id", "round", "player_id", "opponent_id", "games_won", "games_lost",
                "games_drawn", "phase", "stage")
#: The evaluation round, an analysis key of the engine's standings (not ``_``-prefixed:
#: those names are swissframe's own, refused as keys by ``schema.key_columns``).
_CUT: Final = "eval_cut"


def _cutoffs(swiss: pl.DataFrame, ruleset: Ruleset) -> pl.DataFrame:
    """Each player's evaluation round (``eval_cut``): the end of the last stage they played
    (``snapshot="stage"``), their own last round (``"last_round"``) or the event's last
    round (``"final"``)."""
    last = (swiss.sort("round").group_by("event_id", "player_id")
            .agg(pl.col("stage").last().alias("_stage"), pl.col("round").max().alias("_own")))
    if ruleset.snapshot == "stage":
        ends = swiss.group_by("event_id", "stage").agg(pl.col("round").max().alias(_CUT))
        cut = last.join(ends.rename({"stage": "_stage"}), on=["event_id", "_stage"],
                        how="left", nulls_equal=True)
        dropped = option(ruleset, "dropped_cutoff")
        left_early = pl.col("_own") < pl.col(_CUT)
        if dropped == "stage_end_minus_one":
            cut = cut.with_columns(pl.when(left_early)
                                   .then(pl.max_horizontal(pl.col("_own"), pl.col(_CUT) - 1))
                                   .otherwise(pl.col(_CUT)).alias(_CUT))
        elif dropped == "own_round":
            cut = cut.with_columns(pl.when(left_early).then(pl.col("_own"))
                                   .otherwise(pl.col(_CUT)).alias(_CUT))
        return cut.select("event_id", "player_id", _CUT)
    if ruleset.snapshot == "last_round":
        return last.select("event_id", "player_id", pl.col("_own").alias(_CUT))
    ends = swiss.group_by("event_id").agg(pl.col("round").max().alias(_CUT))
    return last.join(ends, on="event_id").select("event_id", "player_id", _CUT)


def platform_values(results: pl.DataFrame, ruleset: Ruleset) -> pl.DataFrame:
    """Every player's OMW%, GW% and OGW% as the platform computes them (unrounded).

    Applies the ruleset's platform options (:func:`prepare_results`) and evaluates each
    player at their own cutoff round (see "Per-player evaluation cutoffs" in the module
    docstring): the engine (:func:`swissframe.standings.standings` with an ``eval_cut``
    key) computes every value at every cutoff, with the ruleset's own treatment of the
    opponents (``distinct_opponents``, ``unopposed_loss_games``, ``opponent_mw_rounds``),
    and each player reads the row of their cutoff, where the opponents' records are taken
    at that same round.

    Parameters
    ----------
    results
        Long results (with ``phase`` and ``stage``; ``unplayed``/``unreported`` if present).
    ruleset
        A platform ruleset (e.g. :data:`MELEE_E2`).

    Returns
    -------
    polars.DataFrame
        ``event_id, player_id, eval_round, omwp, gwp, ogwp``, one row per player who has a
        counted round.

    Examples
    --------
    A meets B twice (Swiss round 1 and the final): B counts once in A's OMW% on melee.gg.

    >>> rows = [("e", 1, "A", "B", 2, 0), ("e", 1, "B", "A", 0, 2),
    ...         ("e", 1, "C", "D", 2, 1), ("e", 1, "D", "C", 1, 2),
    ...         ("e", 2, "A", "B", 2, 1), ("e", 2, "B", "A", 1, 2)]
    >>> df = pl.DataFrame(rows, orient="row", schema=["event_id", "round", "player_id",
    ...     "opponent_id", "games_won", "games_lost"]).with_columns(
    ...     games_drawn=pl.lit(0), phase=pl.lit("swiss"), stage=pl.lit("day1"))
    >>> v = platform_values(df, MELEE_E2).sort("player_id")
    >>> v.select("player_id", "eval_round", pl.col("omwp", "gwp").round(4)).rows()
    [('A', 2, 0.3333, 0.8), ('B', 2, 1.0, 0.2), ('C', 2, 0.3333, 0.6667), ('D', 2, 1.0, 0.3333)]
    """
    prepared = prepare_results(results, ruleset)
    if "stage" not in prepared.columns:
        prepared = prepared.with_columns(pl.lit("day1").alias("stage"))
    extra = [c for c in ("unplayed",) if c in prepared.columns]
    swiss = prepared.filter(pl.col("phase") == "swiss").select(*_KEEP, *extra)
    out_schema = {"event_id": pl.String, "player_id": pl.String, "eval_round": pl.Int64,
                  "omwp": pl.Float64, "gwp": pl.Float64, "ogwp": pl.Float64}
    if not swiss.height:
        return pl.DataFrame(schema=out_schema)
    cut = _cutoffs(swiss, ruleset)
    rows = cutoff_rows(swiss.lazy(), ["event_id"],
                       cut.select("event_id", _CUT).unique().lazy(), through=_CUT)
    # every cutoff's standings in one call (the cutoff a key), each player read at their own
    table = standings(rows, dataclasses.replace(ruleset, snapshot="final"), keys=[_CUT])
    return (cut.join(table.select("event_id", _CUT, "player_id", *_ALL3),
                     on=["event_id", "player_id", _CUT], how="left")
            .select("event_id", "player_id", pl.col(_CUT).cast(pl.Int64).alias("eval_round"),
                    *_ALL3))
