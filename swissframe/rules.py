"""Rulesets as frozen data: points, rate definitions, floors, caps and ordered criteria.

A ruleset never selects a code path: the engine reads its fields. Variants are made with
:func:`dataclasses.replace`::

    >>> import dataclasses
    >>> from fractions import Fraction
    >>> import swissframe as sf
    >>> dci = dataclasses.replace(sf.rules.MTG, name="mtg-1/3", floor=Fraction(1, 3))
    >>> dci.floor
    Fraction(1, 3)

Every option cites the rules reference (``docs/rules.md`` in the shared folder), section 6
("Configuration matrix") and section 7 ("Where sources disagree").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from swissframe.errors import RulesetError

__all__ = [
    "MTG",
    "MTG_1999",
    "MTG_DCI_REPORTER",
    "MTG_WER",
    "PRESETS",
    "Criterion",
    "Ruleset",
    "get",
    "register",
]

Snapshot = Literal["final", "last_round", "stage"]


@dataclass(frozen=True)
class Criterion:
    """One ranking criterion: which tiebreaker function, its output column and direction.

    Parameters
    ----------
    name
        Output column name (e.g. ``"omwp"``); must be unique within a ruleset.
    function
        Key of the tiebreaker function in :data:`swissframe.tiebreakers.TIEBREAKERS`;
        defaults to ``name``.
    descending
        True when a higher value ranks higher (most criteria); False for "lower is better"
        (e.g. Flesh and Blood's OML%).
    params
        Keyword parameters passed to the tiebreaker function, as ``(key, value)`` pairs so
        the criterion stays hashable.
    """

    name: str
    function: str = ""
    descending: bool = True
    params: tuple[tuple[str, object], ...] = ()

    def __post_init__(self) -> None:
        if not self.function:
            object.__setattr__(self, "function", self.name)

    @property
    def kwargs(self) -> dict[str, object]:
        """The parameters as a dict."""
        return dict(self.params)


@dataclass(frozen=True)
class Ruleset:
    """A complete, declarative description of how standings are computed.

    Attributes
    ----------
    name, description, source
        Identification; ``source`` cites the governing document and section.
    points_win, points_draw, points_loss, points_bye
        Match points (MTR Appendix C: 3/1/0, a bye is a win worth 3).
    draw_value
        Worth of a drawn match in the player's own win rate, as a fraction of a win. MTG's
        MW% = MP / (3 × rounds) makes a draw worth 1/3; Pokémon's TOM counts a tie as 1/2.
    drawn_game_value
        Worth of a drawn (or unfinished) game in GW%, as a fraction of a won game: 1/3 in the
        MTR (1 game point of 3); 0 on melee.gg's 2024 era E1.
    floor
        Lower bound of every win rate (own and opponents'): 0.33 in the MTR text, 1/3 in DCI
        Reporter and many tools (rules §1.6; §7 item 1).
    floor_own_gw
        Whether the player's own GW% is floored too (MTR: yes; MTR 1999 text: no; §7 item 4).
    cap, cap_dropped
        Upper bound of a win rate for players who finished / dropped (Pokémon: 1 and 3/4).
    bye_in_own_rate
        Whether bye rounds count (as wins) in the player's own match-win rate (MTR example
        9/15 = 0.60: yes; WER and Pokémon: no). Byes never count in opponents' averages.
    snapshot
        When each player's values are taken: ``"final"`` (end of the Swiss), ``"last_round"``
        (a dropped player's points and tiebreakers frozen at the round they last played, as
        Pokémon's TOM does), or ``"stage"`` (end of the last stage — ``stage`` column — the
        player played, as melee.gg publishes).
    criteria
        Ordered ranking criteria after match points.
    """

    name: str
    description: str = ""
    source: str = ""
    points_win: Fraction = Fraction(3)
    points_draw: Fraction = Fraction(1)
    points_loss: Fraction = Fraction(0)
    points_bye: Fraction = Fraction(3)
    draw_value: Fraction = Fraction(1, 3)
    drawn_game_value: Fraction = Fraction(1, 3)
    floor: Fraction = Fraction(33, 100)
    floor_own_gw: bool = True
    cap: Fraction = Fraction(1)
    cap_dropped: Fraction = Fraction(1)
    bye_in_own_rate: bool = True
    snapshot: Snapshot = "final"
    criteria: tuple[Criterion, ...] = ()
    options: Mapping[str, object] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        for f in ("points_win", "points_draw", "points_loss", "points_bye", "draw_value",
                  "drawn_game_value", "floor", "cap", "cap_dropped"):
            v = getattr(self, f)
            if not isinstance(v, Fraction):
                try:
                    object.__setattr__(self, f, Fraction(v))
                except (TypeError, ValueError) as exc:
                    msg = f"ruleset {self.name!r}: {f}={v!r} is not a number. Hint: use Fraction."
                    raise RulesetError(msg) from exc
        if not Fraction(0) <= self.floor <= self.cap_dropped <= self.cap <= 1:
            msg = (f"ruleset {self.name!r}: need 0 ≤ floor ≤ cap_dropped ≤ cap ≤ 1, got "
                   f"{self.floor}, {self.cap_dropped}, {self.cap}. Hint: check the clamps.")
            raise RulesetError(msg)
        names = [c.name for c in self.criteria]
        if len(set(names)) != len(names):
            msg = f"ruleset {self.name!r}: duplicate criterion names {names}."
            raise RulesetError(msg)
        if self.snapshot not in ("final", "last_round", "stage"):
            msg = (f"ruleset {self.name!r}: snapshot={self.snapshot!r}; expected 'final', "
                   "'last_round' or 'stage'.")
            raise RulesetError(msg)

    @property
    def integer_points(self) -> bool:
        """True when every point value is a whole number (match_points is then Int64)."""
        return all(p.denominator == 1 for p in (self.points_win, self.points_draw,
                                                  self.points_loss, self.points_bye))

    def describe(self) -> str:
        """One line: name, points and the ordered criteria."""
        crit = " → ".join(("" if c.descending else "↑") + c.name for c in self.criteria)
        return (f"{self.name}: W/D/L/bye {self.points_win}/{self.points_draw}/"
                f"{self.points_loss}/{self.points_bye}; {crit}")


POINTS = Criterion("match_points")
OMWP = Criterion("omwp")
GWP = Criterion("gwp")
OGWP = Criterion("ogwp")

#: Magic: The Gathering, MTR (10 Nov 2025) §3.1 and Appendix C: match points, OMW%, GW%,
#: OGW%; floor 0.33 on every percentage including the player's own GW%; a bye is a 2-0 win
#: that counts in the player's own MW% (Appendix C example 9/15 = 0.60).
MTG = Ruleset(
    name="mtg",
    description="Magic: The Gathering, MTR Appendix C (floor 0.33, own GW% floored)",
    source="MTR 10 Nov 2025 §3.1, Appendix C (rules.md §1.1–1.3)",
    criteria=(POINTS, OMWP, GWP, OGWP),
)

#: MTG with the 1/3 floor used by DCI Reporter and many tools (rules §1.6).
MTG_DCI_REPORTER = dataclasses.replace(
    MTG, name="mtg-1/3", floor=Fraction(1, 3),
    description="MTG with floor 1/3 (DCI Reporter, melee.gg)",
    source="rules.md §1.6 (JF 2014), §7 item 1")

#: MTG as the 1999 DCI text reads: the player's own GW% is not floored (SEED-F3).
MTG_1999 = dataclasses.replace(
    MTG, name="mtg-1999", floor_own_gw=False,
    description="MTG, 1999 DCI text: own GW% unfloored",
    source="rules.md §8 SEED-F3")

#: MTG as Wizards Event Reporter computed it: byes left out of the player's own MW%.
MTG_WER = dataclasses.replace(
    MTG, name="mtg-wer", bye_in_own_rate=False,
    description="MTG as WER: bye excluded from own MW% (SK211)",
    source="rules.md §1.6 (SK211), §7 item 2")

PRESETS: dict[str, Ruleset] = {r.name: r for r in (MTG, MTG_DCI_REPORTER, MTG_1999, MTG_WER)}


def register(ruleset: Ruleset, *, replace: bool = False) -> Ruleset:
    """Make a ruleset selectable by name (``sf.standings(..., rules=name)``)."""
    if ruleset.name in PRESETS and not replace and PRESETS[ruleset.name] != ruleset:
        msg = f"a ruleset named {ruleset.name!r} exists. Hint: pass replace=True."
        raise RulesetError(msg)
    PRESETS[ruleset.name] = ruleset
    return ruleset


def get(rules: str | Ruleset) -> Ruleset:
    """Resolve a ruleset by name, or return it unchanged.

    Examples
    --------
    >>> import swissframe as sf
    >>> sf.rules.get("mtg").describe()
    'mtg: W/D/L/bye 3/1/0/3; match_points → omwp → gwp → ogwp'
    """
    if isinstance(rules, Ruleset):
        return rules
    try:
        return PRESETS[rules]
    except KeyError:
        msg = (f"unknown ruleset {rules!r}. Hint: one of {sorted(PRESETS)}, or a "
               "swissframe.rules.Ruleset instance.")
        raise RulesetError(msg) from None
