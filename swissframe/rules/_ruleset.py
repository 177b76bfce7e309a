"""Rulesets as frozen data: points, rate definitions, floors, caps and ordered criteria.

A ruleset never selects a code path: the engine reads its fields. Variants are made with
:func:`dataclasses.replace`::

    >>> import dataclasses
    >>> from fractions import Fraction
    >>> import swissframe as sf
    >>> dci = dataclasses.replace(sf.rules.MTG, name="mtg-1/3", floor=Fraction(1, 3))
    >>> dci.floor
    Fraction(1, 3)

A user-defined ruleset is a few lines — points, the tiebreakers in order, floors and caps
(every name in :data:`swissframe.tiebreakers.TIEBREAKERS` or
:data:`~swissframe.tiebreakers.GROUP_TIEBREAKERS` can be used)::

    >>> import polars as pl
    >>> from swissframe.rules import Criterion, Ruleset, random_order
    >>> league = Ruleset(
    ...     name="my-league", points_win=3, points_draw=1, points_loss=0,
    ...     floor=Fraction(1, 4), draw_value=Fraction(1, 2), bye_in_own_rate=False,
    ...     criteria=(Criterion("match_points"), Criterion("omwp"), Criterion("oomwp"),
    ...               Criterion("head_to_head"), random_order(seed=2024)))
    >>> m = pl.DataFrame({"round": [1, 1, 2, 2], "player_a": ["A", "C", "A", "B"],
    ...     "player_b": ["B", "D", "C", "D"], "games_a": [1, 1, 0, 1],
    ...     "games_b": [0, 0, 1, 0], "games_drawn": [0, 0, 0, 0]})
    >>> sf.standings(sf.from_matches(m), league).select("player_id", "rank").rows()
    [('C', 1), ('A', 2), ('B', 3), ('D', 4)]

Each preset's ``source`` cites the official document it follows (the Magic Tournament Rules,
the Play! Pokémon TRH, FIDE Handbook C.07, the policies); where the sources disagree the
point is an option, and ``docs/rules-decisions.md`` in the repository says what each preset
follows and why.
"""

from __future__ import annotations

import dataclasses
import decimal
import functools
import inspect
import math
import numbers
import re
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Final, Literal, get_args

from swissframe.errors import (
    DataError,
    RulesetError,
    check_choice,
    check_flag,
    check_outcome_space,
    check_whole,
    did_you_mean,
)
from swissframe.schema import MAX_GAMES, UNPLAYED_KINDS

__all__ = [
    "BEST_OF_THREE",
    "DIGIMON",
    "FAB",
    "FIDE",
    "FIDE_2009",
    "FIDE_2026",
    "GWP",
    "HEAD_TO_HEAD",
    "LABELS",
    "LAST_OPPONENT",
    "LOSS_SQUARES",
    "MELEE_TWO_GAME",
    "MTG",
    "MTG_1999",
    "MTG_DCI_REPORTER",
    "MTG_WER",
    "OGWP",
    "OMWP",
    "ONE_GAME",
    "ONE_PIECE",
    "OOMWP",
    "PARAM_UNITS",
    "POINTS",
    "POKEMON",
    "POKEMON_2016",
    "PRESETS",
    "SWU",
    "TARDINESS",
    "TWO_GAMES",
    "UNITS",
    "YUGIOH",
    "YUGIOH_DDD",
    "Criterion",
    "PlatformOptions",
    "Ruleset",
    "buchholz",
    "get",
    "label_of",
    "pokemon",
    "random_order",
    "register",
    "yugioh_number",
]

Snapshot = Literal["final", "last_round", "stage"]


def _check_flags(obj: object, where: str) -> None:
    """A :class:`RulesetError` for a flag field of ``obj`` (a dataclass) that is not True or
    False: ``floor_own_gw="no"``, ``descending=0`` were read by their truth."""
    for f in dataclasses.fields(obj):  # type: ignore[arg-type]
        value = getattr(obj, f.name)
        if f.type == "bool" and not isinstance(value, bool):
            msg = (f"{where}: {f.name} takes True or False, got {value!r:.40}. Hint: "
                   f"{f.name}={f.default!r}.")
            raise RulesetError(msg)
LateRounds = Literal["as_given", "loss", "skip"]
UnplayedRule = Literal["fide-2023", "fide-2026", "fide-2009", "as_played"]
MissingRounds = Literal["not_played", "absent"]
Rounding = Literal["round", "truncate", "none"]
Unreported = Literal["draw", "drop"]
UnopposedLossGames = Literal["count", "ignore"]
DroppedCutoff = Literal["stage_end", "stage_end_minus_one", "own_round"]
OpponentMwRounds = Literal["played", "event"]
PublishedOrder = Literal["bracket", "swiss"]

_COMPARABLE = ("omwp", "gwp", "ogwp")


@dataclass(frozen=True)
class PlatformOptions(Mapping[str, object]):
    """What a platform does beyond the engine's fields (:mod:`swissframe.rules.platforms`).

    Frozen, validated whole when built, and part of a ruleset's equality and hash: two
    rulesets whose platforms behave differently never compare equal. It reads like a
    mapping, so a variant is ``{**rs.options, "unreported": "drop"}`` (a ``Ruleset`` turns
    a mapping given as ``options`` into this class, rejecting unknown keys).

    Attributes
    ----------
    playoff_in_tiebreakers
        Playoff matches count in the published values (melee.gg).
    rounding
        How published values are cut to the event's decimals: ``"round"``, ``"truncate"``,
        ``"none"``.
    compare
        Which of ``omwp``, ``gwp``, ``ogwp`` the platform's data lets us reproduce.
    unreported
        A ``0-0-0`` match counts as a 0-game draw (``"draw"``) or not at all (``"drop"``).
    dropped_cutoff
        With ``snapshot="stage"``: when a player who left early is evaluated.
    published_order
        How the published standings place the playoff players: ``"bracket"`` (by the
        round they were eliminated in, the rest of the field after them: melee.gg,
        Topdeck) or ``"swiss"`` (everyone in Swiss order, playoff ignored: Manatraders,
        CardsRealm).

    Examples
    --------
    >>> o = PlatformOptions(rounding="truncate")
    >>> o["rounding"], o == PlatformOptions(), dict(o)["compare"]
    ('truncate', False, ('omwp', 'gwp', 'ogwp'))
    >>> PlatformOptions(rounding="ceil")
    Traceback (most recent call last):
    ...
    swissframe.errors.RulesetError: platform option rounding='ceil' is unknown. Hint: ...
    """

    playoff_in_tiebreakers: bool = False
    rounding: Rounding = "round"
    compare: tuple[str, ...] = _COMPARABLE
    unreported: Unreported = "draw"
    dropped_cutoff: DroppedCutoff = "stage_end"
    published_order: PublishedOrder = "bracket"

    def __post_init__(self) -> None:
        choices = {"rounding": Rounding, "unreported": Unreported,
                   "dropped_cutoff": DroppedCutoff, "published_order": PublishedOrder}
        for key, kind in choices.items():
            allowed = get_args(kind)
            if getattr(self, key) not in allowed:
                msg = (f"platform option {key}={getattr(self, key)!r} is unknown. "
                       f"Hint: one of {', '.join(map(repr, allowed))}.")
                raise RulesetError(msg)
        for key in ("playoff_in_tiebreakers",):
            if not isinstance(getattr(self, key), bool):
                msg = (f"platform option {key}={getattr(self, key)!r} is not a bool. "
                       "Hint: True or False.")
                raise RulesetError(msg)
        compare = (self.compare,) if isinstance(self.compare, str) else tuple(self.compare)
        if not compare or any(c not in _COMPARABLE for c in compare):
            msg = (f"platform option compare={self.compare!r} is unknown. "
                   f"Hint: a non-empty tuple of {', '.join(map(repr, _COMPARABLE))}.")
            raise RulesetError(msg)
        object.__setattr__(self, "compare", compare)

    @classmethod
    def of(cls, options: Mapping[str, object]) -> PlatformOptions:
        """The options from a mapping (unknown keys are a :class:`RulesetError`).

        Examples
        --------
        >>> PlatformOptions.of({"compare": ("omwp",)}).compare
        ('omwp',)
        """
        if isinstance(options, PlatformOptions):
            return options
        if not isinstance(options, Mapping):  # (None was a bare TypeError)
            msg = (f"platform options must be a mapping, got {type(options).__name__} "
                   f"{options!r:.60}. Hint: e.g. {{'compare': ('omwp',)}}, or leave it out.")
            raise RulesetError(msg)
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(options) - known)
        if unknown:
            msg = (f"unknown platform option(s) {unknown}. "
                   f"Hint: one of {', '.join(sorted(known))}.")
            raise RulesetError(msg)
        return cls(**options)  # type: ignore[arg-type]

    def __getitem__(self, key: str) -> object:
        if key not in self.__dataclass_fields__:
            raise KeyError(key)
        return getattr(self, key)

    def __iter__(self) -> Iterator[str]:
        return iter(self.__dataclass_fields__)

    def __len__(self) -> int:
        return len(self.__dataclass_fields__)


#: Human labels of criteria and standings columns, as the rules texts and the organisers'
#: software print them (one place: charts, tables and explanations read them from here).
#: A percentage's label ends with ``%``.
LABELS: Final[Mapping[str, str]] = MappingProxyType({
    "match_points": "Points", "match_wins": "Match wins", "wins": "Wins",
    "mwp": "MW%", "gwp": "GW%", "omwp": "OMW%", "ogwp": "OGW%", "oomwp": "OOMW%",
    "head_to_head": "Head-to-head", "random": "Random", "late": "Tardiness",
    "last_opponent_rank": "Last opponent's standing",
    "ygo_tiebreaker": "Tiebreaker number", "lost_round_squares": "Lost-round squares",
    "ctb": "CTB", "pml": "PML", "omlp": "OML%", "octb": "OCTB",
    "game_wins": "Game wins", "omp": "OMP%",
    "buchholz": "BH", "bh": "BH", "sb": "SB", "direct_encounter": "DE", "win": "WIN",
    "won": "WON", "ps": "PS",
})

#: What a criterion's number counts where its label does not say it, by tiebreaker function
#: (one place: the terminal's legends and explanations, ``why`` and the reports read it
#: through :attr:`Criterion.unit`). A percentage, points and sums of opponents' scores say
#: it themselves. FIDE direct encounter (C.07 Art. 6) is a count, not points: the number
#: of the tied players it ranks below the player (``docs/rules-decisions.md``); Pokémon's
#: head-to-head is the result of the one match of two tied players (TRH §5.5.1.1).
UNITS: Final[Mapping[str, str]] = MappingProxyType({
    "direct_encounter": "tied players ranked below",
    "head_to_head": "+1 beat the other tied player, -1 lost to them"})

#: A parameter value that changes what the number counts: ``(function, key, value)`` →
#: unit (the reading of direct encounter used before C.07's 2024 text is in points).
PARAM_UNITS: Final[Mapping[tuple[str, str, object], str]] = MappingProxyType({
    ("direct_encounter", "method", "points"): "points against the tied players"})

_BUCHHOLZ = re.compile(r"bh((?:_[cm]\d+)+)")


def fraction_text(v: Fraction) -> str:
    """A ruleset's number as rules texts write it: a whole number, a decimal of up to six
    places where it is one (0.33, 0.25), else a fraction (1/3).

    >>> [fraction_text(Fraction(n, d)) for n, d in ((3, 1), (33, 100), (1, 3), (3333, 10000))]
    ['3', '0.33', '1/3', '0.3333']
    """
    if v.denominator == 1:
        return str(v.numerator)
    for digits in range(1, 7):
        if (v * 10**digits).denominator == 1:
            return f"{float(v):.{digits}f}"
    return f"{v.numerator}/{v.denominator}"


def label_of(name: str) -> str:
    """The human label of a criterion or standings column (the name itself when unknown).

    Examples
    --------
    >>> label_of("omwp"), label_of("oomwp"), label_of("bh_c1"), label_of("bh_c1_m2")
    ('OMW%', 'OOMW%', 'BH-C1', 'BH-C1-M2')
    >>> label_of("my_column")
    'my_column'
    """
    if name in LABELS:
        return LABELS[name]
    m = _BUCHHOLZ.fullmatch(name)
    if m:
        return "BH" + "".join("-" + part.upper() for part in m.group(1).split("_")[1:])
    return name


def _criterion_label(c: Criterion) -> str:
    """A criterion's default label: by its name, else by its function (and parameters)."""
    by_name = label_of(c.name)
    if by_name != c.name or c.function == c.name:
        return by_name
    if c.function == "buchholz":
        kw = dict(c.params)
        return "BH" + "".join(f"-{k}{kw[key]}" for k, key in (("C", "cut"), ("M", "median"))
                               if kw.get(key))
    return label_of(c.function) if c.function in LABELS else c.name


def _check_criterion_fields(c: Criterion) -> None:
    """A criterion's name is non-empty text (it names a column), its function text, its
    parameters ``(key, value)`` pairs keyed by text (a list of pairs is read as their
    tuple): a list was ``TypeError: unhashable type: 'list'`` when ranking, a name that is
    no text a Polars error."""
    for f in ("name", "function", "label"):
        value = getattr(c, f)
        if not isinstance(value, str) or (f == "name" and not value.strip()):
            msg = (f"criterion {c.name!r:.60}: {f} must be {'non-empty ' * (f == 'name')}"
                   f"text, got {value!r:.60}. Hint: e.g. Criterion('omwp').")
            raise RulesetError(msg)
    params = c.params
    pairs = tuple(tuple(p) if isinstance(p, (tuple, list)) else p
                  for p in params) if isinstance(params, (tuple, list)) else None
    if pairs is None or not all(isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str)
                                for p in pairs):
        msg = (f"criterion {c.name!r:.60}: params must be (key, value) pairs, got "
               f"{params!r:.60}. Hint: e.g. params=(('cut', 1),).")
        raise RulesetError(msg)
    object.__setattr__(c, "params", pairs)


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
    label
        How people write it (``"OMW%"``, ``"BH-C1"``); default from :data:`LABELS` (see
        :func:`label_of`). Not part of equality.
    """

    name: str
    function: str = ""
    descending: bool = True
    params: tuple[tuple[str, object], ...] = ()
    label: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        _check_flags(self, f"criterion {self.name!r}")
        _check_criterion_fields(self)
        if not self.function:
            object.__setattr__(self, "function", self.name)
        if not self.label:
            object.__setattr__(self, "label", _criterion_label(self))

    @property
    def kwargs(self) -> dict[str, object]:
        """The parameters as a dict."""
        return dict(self.params)

    @property
    def unit(self) -> str:
        """What the criterion's number counts where its label does not say it, "" where it
        does (:data:`UNITS`, :data:`PARAM_UNITS`): read from the function and parameters,
        so a variant's unit follows its parameters.

        Examples
        --------
        >>> Criterion("direct_encounter").unit, Criterion("omwp").unit
        ('tied players ranked below', '')
        >>> Criterion("direct_encounter", params=(("method", "points"),)).unit
        'points against the tied players'
        """
        kwargs = self.kwargs
        for (function, key, value), unit in PARAM_UNITS.items():
            if function == self.function and key in kwargs and kwargs[key] == value:
                return unit
        return UNITS.get(self.function, "")


#: The outcomes of a best-of-three match, from the first seat's side: 2-0, 2-1, 1-2, 0-2
#: and the intentional draw 0-0-3 (MTR §2.5; rules.md §1.4) — the card games' match.
BEST_OF_THREE: Final[tuple[tuple[int, int, int], ...]] = (
    (2, 0, 0), (2, 1, 0), (1, 2, 0), (0, 2, 0), (0, 0, 3))
#: The outcomes of a one-game match with draws: a win, a loss, a draw (a chess game, where an
#: agreed draw is a draw; rules.md §4).
ONE_GAME: Final[tuple[tuple[int, int, int], ...]] = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
#: The outcomes of a two-game match (melee.gg "Two-Game Matches", rules.md §3.2): 2-0, the
#: 1-1 split, 0-2, a game won and one drawn (1-0-1, 0-1-1) and the intentional draw 0-0-2 —
#: one score for each result the two games can score (7/0, 3/3, 0/7, 3/0, 0/3, 0/0;
#: docs/rules-decisions.md). No 2-1: a two-game match has no third game.
TWO_GAMES: Final[tuple[tuple[int, int, int], ...]] = (
    (2, 0, 0), (1, 1, 0), (0, 2, 0), (1, 0, 1), (0, 1, 1), (0, 0, 2))


#: The point values of a ruleset (:attr:`Ruleset.points_win` …).
_POINT_FIELDS: Final = ("points_win", "points_draw", "points_loss", "points_bye",
                        "points_game_win", "points_sweep")
#: The worths of a drawn match and game in a win rate, fractions of a win from 0 to 1.
_RATE_FIELDS: Final = ("draw_value", "drawn_game_value")
#: Most units of ``1 / lcm(denominators)`` a point value may be (the engine counts points
#: in those units, Int64; Sonneborn-Berger-type sums multiply two of them): 3 / 1 / 0,
#: 1 / ½ / 0 or 100 / 50 / 0 are a few units; 3602879701896397 / 2**55 (the float ``0.1``'s
#: binary value, as it was read before a float was its decimal: :func:`_number`) is 2**55
#: of them, and 90 rounds overflowed a total.
MAX_POINT_UNITS: Final = 2**20

#: Where a :class:`Ruleset` keeps its hash once computed (``Ruleset.__hash__``).
_HASH_SLOT: Final = "_ruleset_hash"

#: Largest denominator of a draw's worth in a rate (a rate's exact scale multiplies it;
#: ``Fraction(1, 2**63)`` is refused).
MAX_RATE_DENOMINATOR: Final = 2**62


def _number(name: str, field: str, value: object) -> Fraction:
    """``value`` as a finite :class:`Fraction`: a bool is not a number (``True`` was read as
    1), and infinity was Python's bare ``OverflowError``.

    A float is the decimal it is written as (its shortest repr): ``floor=0.33`` is
    33/100, the preset's floor, not the float's binary value 5944751508129055/2**54,
    which ranked differently from the preset where ties are decided (``0.1`` is 1/10,
    ``1/3`` written as a float 3333333333333333/10**16: ``Fraction(1, 3)`` is the third).

    >>> _number("r", "floor", 0.33), _number("r", "points_draw", 0.1)
    (Fraction(33, 100), Fraction(1, 10))
    """
    if isinstance(value, Fraction):
        return value
    if isinstance(value, (int, float, str, decimal.Decimal, numbers.Rational)) \
            and not isinstance(value, bool):
        try:
            # (repr of the float itself: a NumPy float's repr names its type)
            return Fraction(repr(float(value)) if isinstance(value, float) else value)
        except (TypeError, ValueError, OverflowError, ZeroDivisionError):
            pass
    msg = (f"ruleset {name!r}: {field}={value!r} is not a finite number. Hint: use a "
           "Fraction or a number, e.g. Fraction(1, 3) or 0.5.")
    raise RulesetError(msg)


def _check_numbers(rules: Ruleset) -> None:
    """The point values fit the engine's units (:data:`MAX_POINT_UNITS`), the draws' worths
    are fractions of a win (0 to 1) and ``sweep_games`` a number of games: a float such as
    ``0.1`` overflowed a player's total without a word (the winner of every round ranked
    last), ``10**40`` or ``2**62`` points were Polars' bare ``OverflowError`` or wrong
    ranks, a worth of ``Fraction(1, 10**40)`` Polars' ``OverflowError``."""
    points = [getattr(rules, f) for f in _POINT_FIELDS]
    unit = math.lcm(*(p.denominator for p in points))
    units = max(abs(p) for p in points) * unit
    if units > MAX_POINT_UNITS:
        values = ", ".join(f"{f}={getattr(rules, f)}" for f in _POINT_FIELDS
                           if getattr(rules, f))
        def size(n: int) -> str:
            return f"{n:,}" if n.bit_length() <= 64 else f"about 2**{n.bit_length() - 1}"

        msg = (f"ruleset {rules.name!r}: the point values ({values:.300}) count "
               f"{size(int(units))} units of 1/{size(unit)} point, more than the "
               f"{MAX_POINT_UNITS:,} a total stays exact with. Hint: give points in a few "
               "units (3/1/0, 1/0.5/0, 100/50/0) or a smaller scale.")
        raise RulesetError(msg)
    for f in _RATE_FIELDS:
        v = getattr(rules, f)
        if not 0 <= v <= 1 or v.denominator > MAX_RATE_DENOMINATOR:
            why = ("a fraction of a win from 0 to 1" if not 0 <= v <= 1
                   else f"a fraction whose denominator is at most 2**62, got {v.denominator:.3g}")
            msg = (f"ruleset {rules.name!r}: {f}={v if len(str(v)) < 60 else float(v)} must be "
                   f"{why}. Hint: e.g. Fraction(1, 3) (MTG) or Fraction(1, 2) (Pokémon).")
            raise RulesetError(msg)
    games = rules.sweep_games
    if isinstance(games, bool) or not isinstance(games, numbers.Integral) or games < 1:
        msg = (f"ruleset {rules.name!r}: sweep_games={games!r} must be a whole number of "
               "games ≥ 1. Hint: melee.gg's two-game matches sweep with 2.")
        raise RulesetError(msg)


def _criteria(name: str, field_name: str, value: object) -> tuple[Criterion, ...]:
    """``value`` (a ruleset's ``criteria`` or ``columns``) as a tuple of
    :class:`Criterion`: a list is read as its tuple, anything else — a name as text, a
    ``(name, function)`` pair — is a :class:`RulesetError` naming it (it was a bare
    ``AttributeError`` or ``TypeError: unhashable type: 'list'`` when ranking)."""
    items = tuple(value) if isinstance(value, (tuple, list)) else (value,)
    wrong = [c for c in items if not isinstance(c, Criterion)]
    if wrong or not isinstance(value, (tuple, list)):
        got = wrong[0] if wrong else value
        msg = (f"ruleset {name!r}: {field_name} must be a tuple of Criterion, got "
               f"{type(got).__name__} {got!r:.60}. Hint: e.g. {field_name}="
               "(Criterion('match_points'), Criterion('omwp')).")
        raise RulesetError(msg)
    return items


def _check_vur_kinds(rules: Ruleset) -> None:
    """``vur_kinds`` is a tuple of ``unplayed`` kinds (:data:`swissframe.schema.UNPLAYED_KINDS`):
    an unknown kind, or one kind given as text (read letter by letter), counted no round
    as voluntarily unplayed, without a word. ``trailing_draw_kinds`` (when given) is a
    tuple of kinds of ``vur_kinds``: another kind is never a trailing VUR, so it would
    convert nothing."""
    for f in ("vur_kinds", "trailing_draw_kinds"):
        kinds = getattr(rules, f)
        if kinds is None and f == "trailing_draw_kinds":
            continue
        allowed: tuple[str, ...] = UNPLAYED_KINDS if f == "vur_kinds" else rules.vur_kinds
        bad = (kinds if not isinstance(kinds, (tuple, list))
               else [k for k in kinds if k not in allowed])
        if bad:
            what = "unplayed kinds" if f == "vur_kinds" else "kinds of vur_kinds"
            msg = (f"ruleset {rules.name!r}: {f}={kinds!r:.80} must be a tuple of {what}; "
                   f"{bad!r:.60} is not. Hint: a subset of {allowed}.")
            raise RulesetError(msg)
        object.__setattr__(rules, f, tuple(kinds))


@dataclass(frozen=True)
class Ruleset:
    """A complete, declarative description of how standings are computed.

    Attributes
    ----------
    name, description, source
        Identification; ``source`` cites the governing document and section.
    points_win, points_draw, points_loss, points_bye
        Match points (MTR Appendix C: 3/1/0, a bye is a win worth 3). Finite numbers of at
        most :data:`MAX_POINT_UNITS` units of the smallest fraction they share (the engine
        counts points in those units). A float is the decimal it is written as (``0.1`` is
        1/10, ``0.33`` is 33/100).
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
        Ordered ranking criteria (match points first unless ``points_first`` is False).
    options
        Platform behaviour beyond the engine's fields (:class:`PlatformOptions`; a mapping
        is converted and validated). Not read by the engine; part of equality and hash.
    points_game_win, points_sweep, sweep_games
        Extra match points per game won, and for winning ``sweep_games`` games without
        losing or drawing one — melee.gg two-game matches score 2-0 as 3 + 3 + 1 = 7,
        1-1 as 3 each (rules.md §3.2 "MEL"). Zero for every match-scored game.
    points_first
        Whether match points are the first ranking key even when ``criteria`` does not
        start with ``match_points`` (Star Wars: Unlimited ranks by match wins instead).
    late_rounds
        Swiss rounds without a row before a player's last row (Pokémon TRH §5.2.2 and
        §5.3.3.1): ``"as_given"`` uses the rows as they are, ``"loss"`` adds a loss (null
        opponent, ``unplayed="absent"``) for each such round, before the player's first row
        (a late entrant) or between two of their rows, ``"skip"`` removes forced-loss rows
        before a player's first real round so those rounds count nowhere.
    earned_bye_opponent
        How an earned bye (``unplayed="full_bye"`` with no opponent; TOM outcome 4) enters
        opponents' averages: ``None`` like any bye (left out), a fraction (e.g. 3/4) counts
        it as an opponent with that win rate, ``"own"`` as an opponent with the recipient's
        own win rate (rules.md §2; SOURCES.md Pokémon: unresolved on the evidence).
    unplayed_rounds
        Chess unplayed rounds in Buchholz-type criteria (rules.md §4.2–4.3):
        ``"fide-2023"`` (C.07 Art. 16: trailing VURs of an opponent count as draws, own
        unplayed rounds meet a dummy with the player's own score), ``"fide-2026"`` (the
        same with the dummy capped, Art. 16.4.1–16.4.2), ``"fide-2009"`` (virtual opponent)
        or ``"as_played"`` (no adjustment).
    vur_kinds
        ``unplayed`` kinds that are voluntarily unplayed rounds (C.07 Art. 16.2).
    trailing_draw_kinds
        Which of an opponent's trailing voluntarily unplayed rounds (VURs not followed by
        any non-VUR round: a withdrawal) count as draws in the others' Buchholz-type
        criteria (C.07 Art. 16.3). ``None`` (the presets): every kind of ``vur_kinds``,
        a trailing forfeit loss too, as marceljuenemann/tiebreak reads the 2023 text.
        ``("half_bye", "zero_bye", "absent")`` converts only rounds without a scheduled
        opponent and keeps a trailing forfeit loss at its score, as FIDE TEC's
        TieBreakServer does (rules.md §4.3 [?], §7 item 7; ``docs/rules-decisions.md``).
    missing_rounds
        A round of the event, after a player's first row, in which the player has no row:
        ``"not_played"`` (the round counts nowhere for them: MTG, Pokémon, …) or
        ``"absent"`` (an absence, as an explicit ``unplayed="absent"`` unopposed loss:
        FIDE C.07 Art. 16, where a registered player who is not paired is absent).
    columns
        Extra output columns computed like criteria but not used for ranking (e.g. the
        Yu-Gi-Oh! printed tiebreaker number).
    bye_games
        The games a bye (an unpaired win) counts, ``(won, lost, drawn)``, whatever its row
        records: MTR Appendix C "Byes" treats a bye as a 2-0 win (6 game points), so a
        bye written ``1-0-0`` or ``0-0-0``-won still counts ``(2, 0, 0)`` in the player's
        games and GW%. None counts the games the row records (every non-MTR preset, and the
        platforms', whose published values are reproduced from their recorded games).
    match_outcomes
        The results a match can end in, as the first seat's ``(won, lost, drawn)`` games:
        the outcome space of the cut and intentional-draw analyses (:mod:`swissframe.cut`;
        uniform over it unless weights are given). :data:`BEST_OF_THREE` (default: the card
        games' best-of-three, with the 0-0-3 intentional draw), :data:`ONE_GAME` (the
        chess presets': a win, a loss or a draw) or :data:`TWO_GAMES` (melee.gg's two-game
        matches: no 2-1, a 1-1 split). Closed under swapping the seats.
    playoff
        Whether the Swiss ends in a playoff *cut* (the card games: MTR Appendix E, Play!
        Pokémon TRH §5.5.4, the KDE, FaB and Bandai policies): the cut and ID analyses,
        charts and pages speak of "the top-8 cut". False (the FIDE presets): places and
        prizes go by the final standings (C.07), and they speak of "the top 8 places".
        Read by the surfaces' words only (:func:`swissframe.cut._words.cut_words`).
    draw_word
        What the game calls a drawn match, as its rules text does: ``"draw"`` (MTR, FIDE,
        and the other card games), ``"tie"`` in the Pokémon presets (TRH §5.3.1: a record
        is W/L/T; rules.md §2.1). Read by the surfaces' words only (``swissframe cut``'s
        "if tie", ``explain``'s result column, the report's "W–L–T"; through
        :func:`swissframe.cut._words.draw_word`).
    distinct_opponents
        Whether an opponent met more than once counts once in the opponents' averages
        (OMW%, OGW%, OOMW% and every mean over the opponents faced) instead of once per
        meeting. False (the presets: the MTR's Appendix C averages "each opponent"'s
        rates over the matches played, as DCI Reporter does); True on melee.gg and in the
        npm ``tournament-organizer`` (docs/rules-decisions.md, "Each opponent once").
    unopposed_loss_games
        The games of a forfeit loss without an opponent (``unplayed="forfeit_loss"`` and
        a null ``opponent_id``: a no-show): ``"count"`` in the player's games like any
        other row (the default), or ``"ignore"``: left out of the player's games and GW%
        (and so of the GW% their opponents average) while the round still counts as a
        loss in match points and MW% (melee.gg; docs/fidelity.md).
    opponent_mw_rounds
        The denominator of the match-win rate the opponents' averages read:
        ``"played"`` (the rounds the opponent played, MTR Appendix C; the default) or
        ``"event"``: every Swiss round of the event up to the evaluation round, so a
        round the opponent did not play counts as a loss (CardsRealm until 2025-05-19).
        The player's own MW% is unchanged.
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
    options: PlatformOptions = field(default_factory=PlatformOptions)
    points_game_win: Fraction = Fraction(0)
    points_sweep: Fraction = Fraction(0)
    sweep_games: int = 2
    points_first: bool = True
    late_rounds: LateRounds = "as_given"
    earned_bye_opponent: Fraction | Literal["own"] | None = None
    unplayed_rounds: UnplayedRule = "fide-2023"
    vur_kinds: tuple[str, ...] = ("half_bye", "zero_bye", "forfeit_loss", "absent")
    trailing_draw_kinds: tuple[str, ...] | None = None
    missing_rounds: MissingRounds = "not_played"
    columns: tuple[Criterion, ...] = ()
    bye_games: tuple[int, int, int] | None = None
    match_outcomes: tuple[tuple[int, int, int], ...] = BEST_OF_THREE
    playoff: bool = True
    draw_word: str = "draw"
    distinct_opponents: bool = False
    unopposed_loss_games: UnopposedLossGames = "count"
    opponent_mw_rounds: OpponentMwRounds = "played"

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            msg = (f"a ruleset's name must be non-empty text, got {self.name!r:.60}. Hint: "
                   "dataclasses.replace(rules, name='my-rules').")
            raise RulesetError(msg)
        try:
            object.__setattr__(self, "options", PlatformOptions.of(self.options))
        except RulesetError as exc:
            msg = f"ruleset {self.name!r}: {exc}"
            raise RulesetError(msg) from None
        for f in (*_POINT_FIELDS, *_RATE_FIELDS, "floor", "cap", "cap_dropped"):
            object.__setattr__(self, f, _number(self.name, f, getattr(self, f)))
        _check_numbers(self)
        object.__setattr__(self, "sweep_games", int(self.sweep_games))  # (numpy's ints too)
        if not Fraction(0) <= self.floor <= self.cap_dropped <= self.cap <= 1:
            msg = (f"ruleset {self.name!r}: need 0 ≤ floor ≤ cap_dropped ≤ cap ≤ 1, got "
                   f"{self.floor}, {self.cap_dropped}, {self.cap}. Hint: check the clamps.")
            raise RulesetError(msg)
        earned = self.earned_bye_opponent
        if earned is not None and earned != "own":
            earned = _number(self.name, "earned_bye_opponent", earned)
            if not 0 <= earned <= 1:
                msg = (f"ruleset {self.name!r}: earned_bye_opponent={earned} is not a win rate "
                       "from 0 to 1. Hint: None, 'own' or a fraction such as Fraction(3, 4).")
                raise RulesetError(msg)
            object.__setattr__(self, "earned_bye_opponent", earned)
        if self.late_rounds not in ("as_given", "loss", "skip"):
            msg = (f"ruleset {self.name!r}: late_rounds={self.late_rounds!r}; expected "
                   "'as_given', 'loss' or 'skip'.")
            raise RulesetError(msg)
        for key, kind in (("unopposed_loss_games", UnopposedLossGames),
                          ("opponent_mw_rounds", OpponentMwRounds)):
            allowed = get_args(kind)
            if getattr(self, key) not in allowed:
                msg = (f"ruleset {self.name!r}: {key}={getattr(self, key)!r:.40} is unknown. "
                       f"Hint: one of {', '.join(map(repr, allowed))}.")
                raise RulesetError(msg)
        if self.missing_rounds not in ("not_played", "absent"):
            msg = (f"ruleset {self.name!r}: missing_rounds={self.missing_rounds!r}; expected "
                   "'not_played' or 'absent'.")
            raise RulesetError(msg)
        _check_flags(self, f"ruleset {self.name!r}")
        if not isinstance(self.draw_word, str) or not self.draw_word.strip():
            msg = (f"ruleset {self.name!r}: draw_word={self.draw_word!r:.40} must be a word. "
                   "Hint: 'draw', or 'tie' as Pokémon says it.")
            raise RulesetError(msg)
        if self.unplayed_rounds not in ("fide-2023", "fide-2026", "fide-2009", "as_played"):
            msg = (f"ruleset {self.name!r}: unplayed_rounds={self.unplayed_rounds!r}; expected "
                   "'fide-2023', 'fide-2026', 'fide-2009' or 'as_played'.")
            raise RulesetError(msg)
        for f in ("criteria", "columns"):
            object.__setattr__(self, f, _criteria(self.name, f, getattr(self, f)))
        _check_vur_kinds(self)
        if not self.criteria and not self.points_first:
            # (the ranking sorted on no column: Polars' bare "expected at least 1 expression
            # in 'as_struct'" from every analysis; bad data 202)
            msg = (f"ruleset {self.name!r} ranks by nothing: no criteria, and "
                   "points_first=False. Hint: give criteria, e.g. (Criterion('match_points'),), "
                   "or leave points_first=True (match points first).")
            raise RulesetError(msg)
        ranked = {c.name: c for c in self.criteria}
        clash = [c.name for c in self.columns if c.name in ranked and ranked[c.name] != c]
        if clash:
            msg = (f"ruleset {self.name!r}: extra column(s) {clash} reuse a criterion's name "
                   "with another definition. Hint: rename the column.")
            raise RulesetError(msg)
        object.__setattr__(self, "columns",
                           tuple(c for c in self.columns if c.name not in ranked))
        names = [c.name for c in (*self.criteria, *self.columns)]
        if len(set(names)) != len(names):
            msg = f"ruleset {self.name!r}: duplicate criterion names {names}."
            raise RulesetError(msg)
        if self.bye_games is not None:
            games = self.bye_games
            if (not isinstance(games, (tuple, list)) or len(games) != 3
                    or not all(isinstance(g, int) and not isinstance(g, bool)
                               and 0 <= g <= MAX_GAMES for g in games)
                    or games[0] <= games[1]):
                # (a count past MAX_GAMES, as in a results table, gave a null GW%)
                msg = (f"ruleset {self.name!r}: bye_games={games!r:.80}; expected three whole "
                       f"numbers (won, lost, drawn) from 0 to {MAX_GAMES:,} with more games "
                       "won than lost, or None. Hint: the MTR's bye is (2, 0, 0).")
                raise RulesetError(msg)
            object.__setattr__(self, "bye_games", tuple(games))
        try:
            outcomes = check_outcome_space(f"ruleset {self.name!r}: match_outcomes",
                                           self.match_outcomes,
                                           hint="BEST_OF_THREE or ONE_GAME of swissframe.rules")
        except DataError as exc:
            raise RulesetError(str(exc)) from None
        object.__setattr__(self, "match_outcomes", tuple(outcomes))
        if self.snapshot not in ("final", "last_round", "stage"):
            msg = (f"ruleset {self.name!r}: snapshot={self.snapshot!r}; expected 'final', "
                   "'last_round' or 'stage'.")
            raise RulesetError(msg)

    def __hash__(self) -> int:
        """The hash of the fields (the one ``dataclass(frozen=True)`` would give), computed
        once: the engine's expression caches are keyed by the ruleset, five look-ups a
        call, and hashing a dozen ``Fraction`` fields and the criteria took ≈ 20–40 µs each
        (a pickled or copied ruleset computes it again: :meth:`__getstate__`)."""
        got: int | None = self.__dict__.get(_HASH_SLOT)
        if got is None:
            got = hash(tuple(getattr(self, f.name) for f in dataclasses.fields(self)
                             if f.compare and f.hash is not False))
            object.__setattr__(self, _HASH_SLOT, got)
        return got

    def __getstate__(self) -> dict[str, object]:
        """The fields only: a cached hash may differ in another process (string hashes
        are salted per process)."""
        return {k: v for k, v in self.__dict__.items() if k != _HASH_SLOT}

    @property
    def integer_points(self) -> bool:
        """True when every point value is a whole number (match_points is then Int64)."""
        return all(p.denominator == 1 for p in (self.points_win, self.points_draw,
                                                  self.points_loss, self.points_bye,
                                                  self.points_game_win, self.points_sweep))

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
#: (6 game points, whatever games its row records) that counts in the player's own MW%
#: (Appendix C example 9/15 = 0.60).
MTG = Ruleset(
    name="mtg",
    description="Magic: The Gathering, MTR Appendix C (floor 0.33, own GW% floored)",
    source="Magic: The Gathering Tournament Rules (10 Nov 2025) §3.1, Appendix C",
    criteria=(POINTS, OMWP, GWP, OGWP), bye_games=(2, 0, 0),
)

#: MTG with the 1/3 floor used by DCI Reporter and many tools (rules §1.6).
MTG_DCI_REPORTER = dataclasses.replace(
    MTG, name="mtg-1/3", floor=Fraction(1, 3),
    description="MTG with floor 1/3 (DCI Reporter, melee.gg)",
    source=("MTR Appendix C with the 1/3 floor of DCI Reporter (judges' forum, "
           "apps.magicjudges.org topics 12538, 18526)"))

#: MTG as the 1999 DCI text reads: the player's own GW% is not floored (SEED-F3).
MTG_1999 = dataclasses.replace(
    MTG, name="mtg-1999", floor_own_gw=False,
    description="MTG, 1999 DCI text: own GW% unfloored",
    source="DCI Universal Tournament Rules (1999), tie-breaker examples")

#: MTG as Wizards Event Reporter computed it: byes left out of the player's own MW%.
MTG_WER = dataclasses.replace(
    MTG, name="mtg-wer", bye_in_own_rate=False,
    description="MTG as WER: bye excluded from own MW% (SK211)",
    source="Wizards Event Reporter as 'SK211 – Deep Dive into Tiebreaker Math' (2017) describes")

# ------------------------------------------------------------------ shared criteria

#: Pokémon TRH §5.5.1.1 "Op Op Win %"; Yu-Gi-Oh! OOMW.
OOMWP = Criterion("oomwp")
#: Head-to-head: only when exactly two players are still tied and they met (TRH §5.5.1.1).
HEAD_TO_HEAD = Criterion("head_to_head")
#: Late players below others on equal points (RK9 2021 "late penalty"; SEED-F2 tardiness).
TARDINESS = Criterion("late", descending=False)
#: Standing of the last-round opponent (SEED-F2, the older Pokémon order).
LAST_OPPONENT = Criterion("last_opponent_rank", descending=False)


def random_order(seed: int = 0, name: str = "random") -> Criterion:
    """A reproducible random order (a seeded hash of the player's position in the event).

    Examples
    --------
    >>> random_order(7).kwargs
    {'seed': 7}
    """
    return Criterion(name, function="random", params=(("seed", seed),))


def pokemon(*, tie_value: Fraction | int = Fraction(1, 2), drop_freeze: bool = True,
            late_below: bool = False, late_rounds: LateRounds = "loss",
            earned_bye_opponent: Fraction | Literal["own"] | None = None, seed: int = 0,
            name: str = "pokemon") -> Ruleset:
    """The Pokémon ruleset with its options (rules.md §2.2–2.3; SOURCES.md Pokémon section).

    Parameters
    ----------
    tie_value
        Worth of a tie in win %: 1/2 (TOM, RK9 — default) or 0 (the TRH's literal text).
    drop_freeze
        Take a dropped player's points, OMW% and OOMW% at their drop round, as TOM does
        (``snapshot="last_round"``); False evaluates everyone at the end of the Swiss.
    late_below
        Rank late players below others on equal points (the older "tardiness" criterion).
    late_rounds
        ``"loss"`` (default: a loss for every Swiss round before the player's last row in
        which they have no row, a late entrant's rounds (TRH §5.2.2) and a round missed
        between two played (§5.3.3.1); a TOM file writes these losses itself, and nothing
        is added then),
        ``"as_given"`` (the rows only), ``"skip"``.
    earned_bye_opponent
        ``None``: an earned bye (TOM outcome 4) is left out like a random bye; a fraction
        (e.g. 3/4) or ``"own"``: it counts as an opponent with that win %. The real TOM
        files do not settle this (SOURCES.md): both are kept.
    seed
        Seed of the final random order.

    Examples
    --------
    >>> pokemon(tie_value=0, drop_freeze=False, name="pokemon-trh").describe()
    'pokemon-trh: W/D/L/bye 3/1/0/3; match_points → omwp → oomwp → head_to_head → random'
    """
    check_flag("drop_freeze", drop_freeze)
    check_flag("late_below", late_below)
    crit = (POINTS, *((TARDINESS,) if late_below else ()), OMWP, OOMWP, HEAD_TO_HEAD,
            random_order(seed))
    return Ruleset(
        name=name,
        description="Pokémon TCG/VG as TOM computes it (tie = 1/2 in win %, drops frozen)",
        source=("Play! Pokémon Tournament Rules Handbook (1 Jan 2026) §5.3.3, §5.3.3.1, "
                "§5.5.1.1, §5.6.1; TOM's behaviour: docs/fidelity-tom-trf.md"),
        draw_value=_number(name, "tie_value", tie_value), floor=Fraction(1, 4), cap=Fraction(1),
        cap_dropped=Fraction(3, 4), bye_in_own_rate=False,
        snapshot="last_round" if drop_freeze else "final", late_rounds=late_rounds,
        earned_bye_opponent=earned_bye_opponent, criteria=crit, floor_own_gw=False,
        draw_word="tie")


#: Pokémon (TRH 1 Jan 2026 §5.3.3.1 win % with clamps [25%, 100%] / [25%, 75%] dropped,
#: §5.5.1.1 OMW% → OOMW% → head-to-head → random; rules.md §2), with TOM's observed
#: behaviour as defaults (tie = 1/2 in win %, dropped players frozen at their drop round;
#: SOURCES.md Pokémon section). Options: :func:`pokemon`.
POKEMON = pokemon()

#: The older Pokémon order from SEED-F2 (rules.md §8): points → tardiness → OMW% → OOMW%
#: → head-to-head → standing of the last-round opponent (→ random).
POKEMON_2016 = dataclasses.replace(
    POKEMON, name="pokemon-2016",
    description="Pokémon, older order (tardiness, last-round opponent's standing)",
    source="Play! Pokémon tiebreakers as TOP computed them (2016): tardiness, last-round opponent",
    criteria=(POINTS, TARDINESS, OMWP, OOMWP, HEAD_TO_HEAD, LAST_OPPONENT, random_order()))


def yugioh_number(*, loss_squares: bool = False, rounding: Literal["truncate", "round"] =
                  "truncate") -> Criterion:
    """The printed KTS tiebreaker number ``AABBBCCC`` (+ ``DDD`` with ``loss_squares``).

    Examples
    --------
    >>> yugioh_number(loss_squares=True).kwargs
    {'loss_squares': True, 'rounding': 'truncate'}
    """
    check_flag("loss_squares", loss_squares)
    if rounding not in ("truncate", "round"):
        msg = (f"yugioh_number: rounding={rounding!r} is not 'truncate' or 'round'. Hint: "
               "rounding='truncate' (KDE's printed number).")
        raise RulesetError(msg)
    return Criterion("ygo_tiebreaker", function="ygo_number",
                     params=(("loss_squares", loss_squares), ("rounding", rounding)))


#: Sum of the squares of the round numbers a player lost (Yu-Gi-Oh! ``DDD``; later losses
#: score higher, rules.md §3.1 [S]).
LOSS_SQUARES = Criterion("lost_round_squares")

#: Yu-Gi-Oh! (KDE Official Tournament Policy, "Tie-Breaker Explanation"; rules.md §3.1):
#: points → OMW% → OOMW%, plus the printed tiebreaker number as a column. Floor: none
#: (unknown in the policy [?]); byes excluded from opponents' averages as in MTG.
YUGIOH = Ruleset(
    name="yugioh", description="Yu-Gi-Oh! (points → OMW% → OOMW%; printed number column)",
    source="Konami (KDE) Official Tournament Policy, Tie-Breaker Explanation",
    floor=Fraction(0), floor_own_gw=False, criteria=(POINTS, OMWP, OOMWP),
    columns=(yugioh_number(),))

#: Yu-Gi-Oh! with the sum of squares of lost round numbers as the last criterion (and in
#: the printed number as ``DDD``; rules.md §3.1, open-source KTS implementations [S]).
YUGIOH_DDD = dataclasses.replace(
    YUGIOH, name="yugioh-ddd", description="Yu-Gi-Oh! with the DDD (lost-round squares) key",
    criteria=(POINTS, OMWP, OOMWP, LOSS_SQUARES), columns=(yugioh_number(loss_squares=True),))

#: Flesh and Blood (Pairings and Tiebreaker Policy; rules.md §3.3): win 1, draw 0, loss 0,
#: bye 1; CTB → PML (lower better) → OML% (lower better) → OCTB → random. A bye is not a
#: match played in PML (the policy: a player plays a match every round "unless they have
#: been awarded a bye"; ``Criterion`` param ``byes=True`` counts it; rules.md §3.3 [?]).
FAB = Ruleset(
    name="fab", description="Flesh and Blood (1/0/0; CTB, PML↑, OML%↑, OCTB)",
    source="Flesh and Blood Pairings and Tiebreaker Policy; Tournament Rules and Policy App. A.2",
    points_win=Fraction(1), points_draw=Fraction(0), points_loss=Fraction(0),
    points_bye=Fraction(1), floor=Fraction(0), floor_own_gw=False,
    criteria=(POINTS, Criterion("ctb"), Criterion("pml", descending=False),
              Criterion("omlp", descending=False), Criterion("octb"), random_order()))

#: melee.gg two-game matches (Lorcana "Challenge" style; rules.md §3.2 "MEL"): a game win
#: is 3 points, a 2-0 adds 1 (7/0), 1-1 gives 3/3, drawn games 0; points → total game wins
#: → opponents' match-point % (sum of their points over the sum of their possible points,
#: 86/161 reading). The third key, "game 2" wins, needs per-game data the results table
#: does not carry: not supported.
MELEE_TWO_GAME = Ruleset(
    name="melee-two-game", description="melee.gg two-game matches (Lorcana challenge)",
    source="melee.gg help 'Two-Game Matches'",
    points_win=Fraction(0), points_draw=Fraction(0), points_loss=Fraction(0),
    points_bye=Fraction(0), points_game_win=Fraction(3), points_sweep=Fraction(1),
    sweep_games=2, floor=Fraction(0), floor_own_gw=False, drawn_game_value=Fraction(0),
    criteria=(POINTS, Criterion("game_wins"),
              Criterion("omp", params=(("max_per_round", 7),))), match_outcomes=TWO_GAMES)

#: Star Wars: Unlimited on melee.gg (rules.md §3.5): ranked by match wins, then OMW%, GW%,
#: OGW% with match 3/1/0 and game 3/1/0 in the percentages; floor 33.33%.
SWU = Ruleset(
    name="swu", description="Star Wars: Unlimited (match wins → OMW% → GW% → OGW%, 33.33%)",
    source="melee.gg help 'Star Wars: Unlimited Tiebreakers'",
    floor=Fraction(3333, 10000), points_first=False,
    criteria=(Criterion("match_wins"), OMWP, GWP, OGWP))

#: One Piece Card Game (Bandai TRM §5.4 as summarised by an open-source tool; rules.md
#: §3.4 [S]): points → own win rate → opponents' average win rate; byes excluded; floor 0.33.
#: Swiss matches are one game without a draw (a game still undecided is a double loss:
#: Bandai's Championship 2023 Asia rules, "Best of 1 … Double Lost for both players"), so
#: the cut analyses weigh a win and a loss.
ONE_PIECE = Ruleset(
    name="one-piece", description="One Piece (points → own win rate → OMW%, floor 0.33)",
    source="Bandai One Piece Card Game Tournament Rules Manual §5.4; Championship 2023 "
           "(Asia) rules of the event",
    draw_value=Fraction(0), bye_in_own_rate=False, floor_own_gw=False,
    criteria=(POINTS, Criterion("mwp"), OMWP), match_outcomes=((1, 0, 0), (0, 1, 0)))

#: Digimon Card Game (Bandai; rules.md §3.6 [?]): the Bandai Tournament Rules Manual's
#: Swiss section (3.4.2) could not be read, so this is rules.md's reading: MTG-like 3/1/0
#: scoring and floor 0.33 (the floor is unknown: ``dataclasses.replace(DIGIMON,
#: floor=...)``), ranked by the order community team-event rules print: points → OMW% →
#: own win rate → opponents' OMW% (``docs/rules-decisions.md``).
DIGIMON = Ruleset(
    name="digimon", description="Digimon (points → OMW% → own win rate → OOMW%, floor 0.33)",
    source="Bandai Digimon Card Game Tournament Rules Manual §3.4.2 (not read); "
           "docs/rules-decisions.md",
    criteria=(POINTS, OMWP, Criterion("mwp"), OOMWP))


def buchholz(cut: int = 0, median: int = 0, name: str | None = None) -> Criterion:
    """A Buchholz criterion with FIDE C.07 Art. 14 modifiers (Cut-n, Median-n).

    Examples
    --------
    >>> buchholz(cut=1).name, buchholz(median=1).name
    ('bh_c1', 'bh_m1')
    """
    default = "bh" + (f"_c{cut}" if cut else "") + (f"_m{median}" if median else "")
    return Criterion(name or default, function="buchholz",
                     params=(("cut", cut), ("median", median)))


#: Chess, FIDE Handbook C.07 (2023 text; rules.md §4): score 1/½/0 (a pairing-allocated or
#: full-point bye 1, a half-point bye ½ — read from the results), then Buchholz Cut-1,
#: Buchholz, Sonneborn-Berger, direct encounter (Art. 6 as in the 2024 text: averages of
#: repeated encounters, again on the players it leaves tied, and the leader no one can reach
#: when not everyone met; ``docs/rules-decisions.md``), number of wins; progressive score,
#: BH Median-1 and games won are extra columns. Unplayed rounds per Art. 16 (2023); a player
#: with no row in a round of the event is absent in it (Art. 16; rules.md §9 item 5).
FIDE = Ruleset(
    name="fide", description="Chess, FIDE C.07 (2023): BH-C1 → BH → SB → DE → WIN",
    source="FIDE Handbook C.07 Tie-Break Regulations (2023), Arts. 6–9, 14, 16",
    points_win=Fraction(1), points_draw=Fraction(1, 2), points_loss=Fraction(0),
    points_bye=Fraction(1), draw_value=Fraction(1, 2), drawn_game_value=Fraction(1, 2),
    floor=Fraction(0), floor_own_gw=False, missing_rounds="absent", match_outcomes=ONE_GAME,
    playoff=False,
    criteria=(POINTS, buchholz(cut=1), buchholz(), Criterion("sb"),
              Criterion("direct_encounter"), Criterion("win")),
    columns=(buchholz(median=1), Criterion("ps"), Criterion("won")))

#: FIDE C.07 as revised from 1 March 2026: the own-side dummy opponent is capped (Art.
#: 16.4.1–16.4.2; rules.md §4.3).
FIDE_2026 = dataclasses.replace(
    FIDE, name="fide-2026", unplayed_rounds="fide-2026",
    description="Chess, FIDE C.07 with the 1 March 2026 cap on unplayed-round dummies",
    source="FIDE Handbook C.07 Tie-Break Regulations (from 1 Mar 2026), Art. 16.4")

#: FIDE's 2009 "virtual opponent" rule for unplayed rounds (rules.md §4.2, historical).
FIDE_2009 = dataclasses.replace(
    FIDE, name="fide-2009", unplayed_rounds="fide-2009",
    description="Chess, FIDE 2009 virtual-opponent rule for unplayed rounds",
    source="FIDE Handbook tie-break rules (2009): the virtual opponent")

_REGISTERED: Final[dict[str, Ruleset]] = {r.name: r for r in (
    MTG, MTG_DCI_REPORTER, MTG_1999, MTG_WER, POKEMON, POKEMON_2016, YUGIOH, YUGIOH_DDD, FAB,
    MELEE_TWO_GAME, SWU, ONE_PIECE, DIGIMON, FIDE, FIDE_2026, FIDE_2009)}
#: Every ruleset selectable by name: a read-only view (:func:`register` adds one). As a
#: dict, ``sf.rules.PRESETS["mtg"] = …`` changed what every later call's ``rules="mtg"``
#: ranked by, without a word (bad data 245); the tables of labels and units likewise.
PRESETS: Final[Mapping[str, Ruleset]] = MappingProxyType(_REGISTERED)



def register(ruleset: Ruleset, *, replace: bool = False) -> Ruleset:
    """Make a ruleset selectable by name (``sf.standings(..., rules=name)``).

    Registering a ruleset equal to the one of that name (options included) does nothing;
    a different one under a taken name is a :class:`~swissframe.errors.RulesetError`
    unless ``replace=True``. No function of the package calls this: it is for the user.

    Examples
    --------
    >>> import dataclasses, swissframe as sf
    >>> sf.rules.register(dataclasses.replace(sf.rules.MTG, floor=0))
    Traceback (most recent call last):
    ...
    swissframe.errors.RulesetError: a different ruleset named 'mtg' exists. Hint: ...
    """
    if ruleset.name in PRESETS and not replace and PRESETS[ruleset.name] != ruleset:
        msg = (f"a different ruleset named {ruleset.name!r} exists. Hint: give yours another "
               "name (dataclasses.replace(..., name=...)) or pass replace=True.")
        raise RulesetError(msg)
    alike = [n for n in PRESETS if n != ruleset.name and _folded(n) == _folded(ruleset.name)]
    if alike:  # (a name is found in any case and spelling: two alike would be ambiguous)
        msg = (f"the ruleset name {ruleset.name!r} reads as the ruleset {alike[0]!r} (names "
               "are found in any case, accents and spacing). Hint: give yours another name "
               "(dataclasses.replace(..., name=...)).")
        raise RulesetError(msg)
    _REGISTERED[ruleset.name] = ruleset
    return ruleset


def _folded(name: str) -> str:
    """A ruleset's name as :func:`known_name` compares it: one Unicode form (NFKC: a
    full-width ``ｍｔｇ`` is ``mtg``), any case, accents left out (``pokémon``), spaces
    around left out and spaces or underscores within read as ``-`` (``fide 2026``).

    >>> _folded(" Pokémon "), _folded("FIDE_2026"), _folded("ｍｔｇ")
    ('pokemon', 'fide-2026', 'mtg')
    """
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name)).casefold()
    text = "".join(c for c in text if not unicodedata.combining(c))
    return re.sub(r"[\s_]+", "-", text.strip())


def known_name(name: object, among: Mapping[str, object] | None = None) -> str | None:
    """The registered ruleset name ``name`` means: itself, else the one name it spells in
    another case, accents, Unicode form or spacing (``"MTG"``, ``" mtg"``, ``"pokémon"``,
    ``"fide 2026"``: each was "unknown ruleset", though it names one ruleset and no other;
    bad data 247), else None. The one reading of a ruleset's name: ``rules=`` and
    ``--rules`` (:func:`get`), a results file's ``ruleset`` column; ``among`` another
    registry's names (the rounds tables, the simulation rules) read the same way.

    >>> known_name("Pokémon"), known_name("mtg"), known_name("magic")
    ('pokemon', 'mtg', None)
    """
    names = PRESETS if among is None else among
    if not isinstance(name, str):
        return None
    if name in names:
        return name
    found = [n for n in names if _folded(n) == _folded(name)]
    return found[0] if len(found) == 1 else None


@functools.cache
def _engine_names() -> frozenset[str]:
    """The columns a ranking holds besides its criteria
    (:func:`swissframe.schema._ranking_columns`) and the flags; ``omwp`` and ``ogwp`` are
    criteria (a ruleset may name another function so)."""
    from swissframe.schema import FLAG_COLUMNS, _ranking_columns

    return frozenset({*_ranking_columns(), *FLAG_COLUMNS} - {"omwp", "ogwp"})


def _check_engine_names(rules: Ruleset) -> None:
    """A custom ruleset's criteria and columns, checked against the engine when it is
    used: a criterion named like a column the ranking holds (``wins``, ``gwp``,
    ``opponents``, ``rank``, ``player_id``) but computing another function was replaced
    by that column without a word (a criterion ``wins`` of function ``ogwp`` ranked by
    wins) or ended in Polars' ``DuplicateError``; a parameter its function does not take
    was a bare ``TypeError`` (``omwp() got an unexpected keyword argument``)."""
    from swissframe.engine.tiebreakers import GROUP_TIEBREAKERS, TIEBREAKERS

    taken = _engine_names()
    for c in (*rules.criteria, *rules.columns):
        if c.name in taken and c.name != c.function:
            msg = (f"ruleset {rules.name!r}: criterion {c.name!r} (function {c.function!r}) "
                   "is named like a column the standings hold already, which would be "
                   f"ranked by instead. Hint: name it otherwise, e.g. "
                   f"Criterion({c.function + '_' + c.name!r}, {c.function!r}).")
            raise RulesetError(msg)
        fn = TIEBREAKERS.get(c.function) or GROUP_TIEBREAKERS.get(c.function)
        if fn is None or not c.params:
            continue  # (an unknown function is named when ranking)
        takes = inspect.signature(fn).parameters
        if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in takes.values()):
            continue
        unknown = [k for k, _ in c.params if k not in takes or k in ("ctx", "name")]
        if unknown:
            known = [k for k, p in takes.items() if k not in ("ctx", "name")
                     and p.kind is not inspect.Parameter.VAR_POSITIONAL]
            msg = (f"ruleset {rules.name!r}: criterion {c.name!r}: function {c.function!r} "
                   f"takes no parameter {unknown[0]!r}. Hint: its parameters are "
                   f"{known or 'none'}.")
            raise RulesetError(msg)
        _check_params(rules, c, {k: p.default for k, p in takes.items()})


def _check_params(rules: Ruleset, c: Criterion, defaults: Mapping[str, object]) -> None:
    """Each parameter value of a custom criterion, of the kind its function's default is
    (``tiebreakers.PARAM_CHOICES``, ``PARAM_LOWEST`` where that does not say it all): a
    flag, a whole number (from 0), a fraction from 0 to 1, one of a text parameter's
    choices. None was checked: a flag took anything by its truth (``forfeits='no'``), a
    count a float or None (``cut=1.5``, ``seed=1.5`` gave every player the same random
    key), a text an unknown word (``rounding='x'`` truncated), and others ended in bare
    ``TypeError``s or Polars' errors (bad data 206)."""
    from swissframe.engine.tiebreakers import PARAM_CHOICES, PARAM_LOWEST

    for key, value in c.params:
        default, what = defaults[key], key
        choices = PARAM_CHOICES.get((c.function, key))
        try:
            if choices is not None:
                check_choice(what, value, choices)
            elif isinstance(default, bool):
                check_flag(what, value)
            elif isinstance(default, int):
                check_whole(what, value, low=PARAM_LOWEST.get((c.function, key), 0),
                            hint=f"{c.function}'s default is {default}")
            elif isinstance(default, Fraction) and not (
                    isinstance(value, (int, Fraction)) and not isinstance(value, bool)
                    and 0 <= value <= 1):
                msg = (f"{what}={value!r:.40} is not a fraction from 0 to 1. Hint: e.g. "
                       f"Fraction(1, 2), {c.function}'s default.")
                raise DataError(msg)
        except DataError as exc:
            msg = f"ruleset {rules.name!r}: criterion {c.name!r} ({c.function}): {exc}"
            raise RulesetError(msg) from None


def get(rules: str | Ruleset) -> Ruleset:
    """Resolve a ruleset by name, or return it unchanged.

    Examples
    --------
    >>> import swissframe as sf
    >>> sf.rules.get("mtg").describe()
    'mtg: W/D/L/bye 3/1/0/3; match_points → omwp → gwp → ogwp'
    >>> sf.rules.get("Pokémon").name  # (a name in another case or spelling: known_name)
    'pokemon'
    """
    if isinstance(rules, Ruleset):
        if PRESETS.get(rules.name) is not rules:
            _check_engine_names(rules)
        return rules
    name = known_name(rules)  # (a list of names or another object: None)
    if name is not None:
        return PRESETS[name]
    every = (f"one of {sorted(PRESETS)}, or a swissframe.rules.Ruleset instance "
             "(swissframe rules lists them).")
    hint = (did_you_mean(_folded(rules), PRESETS, every, fold_case=True)
            if isinstance(rules, str) else every)
    msg = f"unknown ruleset {rules!r}. Hint: {hint}"
    raise RulesetError(msg) from None
