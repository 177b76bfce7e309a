"""Platform rulesets: how melee.gg, Topdeck, CardsRealm and Manatraders compute OMW%/GW%/OGW%.

Each platform is a :class:`~swissframe.rules.Ruleset` VALUE built with
:func:`dataclasses.replace` from :data:`swissframe.rules.MTG`; the engine has no special case
for any of them. What a platform does beyond the engine's fields lives in ``Ruleset.options``
and is applied to the data by :func:`prepare_results` / :func:`publish` (pure functions):

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

The melee.gg eras (SOURCES.md): E1 (6 decimals) drawn games worth 0, own GW% floored; E2
(8 decimals, 2024-05-16…2025-11-12) drawn games worth 1 point, own GW% NOT floored; E3 (7
decimals, or 8 outside E2) drawn games worth 1 point, own GW% floored. All use the 1/3 floor.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from fractions import Fraction
from typing import Final

import polars as pl

from swissframe import rules as _rules
from swissframe.errors import RulesetError
from swissframe.io.decklist import melee_era
from swissframe.rules import Ruleset

__all__ = [
    "CARDSREALM",
    "MANATRADERS",
    "MELEE_E1",
    "MELEE_E2",
    "MELEE_E3",
    "PLATFORMS",
    "TOPDECK",
    "assign_rulesets",
    "melee",
    "option",
    "prepare_results",
    "publish",
]

_ALL3: Final = ("omwp", "gwp", "ogwp")

_MELEE_BASE: Final = dataclasses.replace(
    _rules.MTG, name="melee", floor=Fraction(1, 3), snapshot="stage",
    description="melee.gg", source="SOURCES.md (realworld), melee.gg eras",
    options={"playoff_in_tiebreakers": True, "rounding": "round", "compare": _ALL3,
             "unreported": "draw"})

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
    _rules.MTG, name="topdeck", floor=Fraction(33, 100), snapshot="final",
    description="Topdeck.gg: floor 0.33, Swiss only, OMW% only (match-level results)",
    source="SOURCES.md (realworld), Topdeck",
    options={"playoff_in_tiebreakers": False, "rounding": "none", "compare": ("omwp",),
             "unreported": "draw"})

#: CardsRealm: floor 1/3 for opponents, own GW% unfloored, Swiss only, 3 decimals truncated.
CARDSREALM: Final = dataclasses.replace(
    _rules.MTG, name="cardsrealm", floor=Fraction(1, 3), floor_own_gw=False, snapshot="final",
    description="CardsRealm: floor 1/3, own GW% unfloored, 3 decimals truncated",
    source="SOURCES.md (realworld), CardsRealm",
    options={"playoff_in_tiebreakers": False, "rounding": "truncate", "compare": _ALL3,
             "unreported": "draw"})

#: Manatraders: floor 0.33, own GW% unfloored, the 7 Swiss rounds only, 3 decimals.
MANATRADERS: Final = dataclasses.replace(
    _rules.MTG, name="manatraders", floor=Fraction(33, 100), floor_own_gw=False,
    snapshot="final",
    description="Manatraders: floor 0.33, own GW% unfloored, Swiss only",
    source="SOURCES.md (realworld), Manatraders",
    options={"playoff_in_tiebreakers": False, "rounding": "round", "compare": _ALL3,
             "unreported": "draw"})

#: Every platform ruleset by name (also registered in :data:`swissframe.rules.PRESETS`).
PLATFORMS: Final[Mapping[str, Ruleset]] = {
    r.name: r for r in (MELEE_E1, MELEE_E2, MELEE_E3, TOPDECK, CARDSREALM, MANATRADERS)}
for _r in PLATFORMS.values():
    _rules.register(_r, replace=True)

_DEFAULTS: Final[dict[str, object]] = {
    "playoff_in_tiebreakers": False, "rounding": "round", "compare": _ALL3,
    "unreported": "draw"}


def option(ruleset: Ruleset, key: str) -> object:
    """A platform option of ``ruleset`` (see the module docstring), with its default.

    Examples
    --------
    >>> option(TOPDECK, "compare"), option(MELEE_E2, "playoff_in_tiebreakers")
    (('omwp',), True)
    """
    return ruleset.options.get(key, _DEFAULTS[key])


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
    decimals (:func:`swissframe.io.decklist.melee_era`) unless ``melee_era_override`` forces
    one era; ``overrides`` maps a source (``"melee"``, ``"topdeck"``…) or an event_id to a
    ruleset (name or value) and wins over both.

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
    out = events.select("event_id", "source", pl.when(pl.col("source") == "melee").then(era)
                        .alias("era"))
    name = (pl.when(pl.col("source") == "melee")
            .then(pl.lit("melee-") + pl.col("era").str.to_lowercase())
            .otherwise(pl.col("source").replace_strict(_BY_SOURCE, default="mtg-1/3")))
    out = out.with_columns(name.alias("ruleset"))
    for key, rs in (overrides or {}).items():
        rname = rs.name if isinstance(rs, Ruleset) else _rules.get(rs).name
        if isinstance(rs, Ruleset):
            _rules.register(rs, replace=True)
        out = out.with_columns(
            pl.when((pl.col("source") == key) | (pl.col("event_id") == key))
            .then(pl.lit(rname)).otherwise(pl.col("ruleset")).alias("ruleset"))
    return out


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
    scale = pl.lit(10.0).pow(decimals)
    eps = 1e-9
    if mode == "truncate":
        cut = ((values * scale + eps).floor() / scale)
    else:
        cut = ((values * scale + 0.5 + eps).floor() / scale)
    return pl.when(decimals.is_null()).then(values).otherwise(cut)
