"""Tiebreaker functions: one per criterion, each ``Context -> LazyFrame``.

Each function returns one row per (keys…, player_id) with one named public column and its
exact twin ``_x_<name>`` (see :mod:`swissframe.engine._exact`), so a ruleset is just an ordered
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

import functools
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final, Literal, NamedTuple, TypeVar

import polars as pl

from swissframe._collect import collect, select
from swissframe._display import quoted
from swissframe.engine import _chess
from swissframe.engine._exact import (
    FALLBACK_SCALE,
    LIMIT,
    ExactScale,
    exact_dtype,
    exact_name,
    fallback_key,
    lcm_of,
    mean_exact,
    packs,
    per_group,
    ratio_key,
    warn_fallback,
)
from swissframe.engine._record import cutoff_rows, points_unit, round_position
from swissframe.errors import DataError, RulesetError, check_whole
from swissframe.rules._ruleset import Ruleset

__all__ = [
    "CAPABILITIES",
    "GROUP_TIEBREAKERS",
    "TIEBREAKERS",
    "TIEBREAKER_SPECS",
    "Context",
    "GroupContext",
    "TiebreakerSpec",
    "capability_columns",
    "decode_ygo_number",
    "register_group_tiebreaker",
    "register_tiebreaker",
    "spans_rounds",
    "supporting",
]

PLAYER: Final = "player_id"
OPP: Final = "opponent_id"
T = TypeVar("T")

#: Opponents' values every MTG-family ruleset averages; summed in one join and group-by.
BASE_SOURCES: Final = ("mwp_opp", "gwp_opp")


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
    #: Rows of ``players`` where known (None otherwise): a small table skips the bulk-only
    #: packing of the opponents' sums (:func:`~swissframe.engine._exact.packs`).
    size: int | None = None
    #: Criterion frames that are row-wise projections of a shared frame: (frame, source,
    #: columns) with ``frame == source.select(*pkeys, *columns)``, so a caller attaching
    #: several of them can join ``source`` once with all their columns (:func:`projection`).
    projections: list[tuple[pl.LazyFrame, pl.LazyFrame, tuple[pl.Expr, ...]]] = field(
        default_factory=list)
    #: Criterion frames whose columns the function that built them knows: (frame, its
    #: columns other than the keys), so that attaching them resolves no plan's schema
    #: (:meth:`columns_of`; tens of microseconds a frame on a small event).
    known_columns: list[tuple[pl.LazyFrame, tuple[str, ...]]] = field(default_factory=list)
    #: How an opponents' mean of any per-player values is summed (:func:`_opponent_mean`):
    #: given (keys…, player_id, ``_v`` exact, ``_f`` float) for every player and the
    #: values' exact scale, (keys…, player_id, ``_t`` sum, ``_k`` non-null count,
    #: ``_mean_f`` float mean) over the opponents each faced. None (the reference): one
    #: join of the faced rows. The running-sums path, which has no rows, sets its own.
    opponent_totals: Callable[[pl.LazyFrame, int], pl.LazyFrame] | None = None
    #: The columns of ``players`` where known without resolving its plan (None otherwise):
    #: a plan's schema costs a small event's call tens of microseconds each time.
    player_columns: tuple[str, ...] | None = None

    @property
    def pkeys(self) -> list[str]:
        """Keys plus ``player_id``."""
        return [*self.keys, PLAYER]

    def projection(self, frame: pl.LazyFrame
                   ) -> tuple[pl.LazyFrame, tuple[pl.Expr, ...]] | None:
        """``(source, columns)`` when ``frame`` is ``source.select(*pkeys, *columns)``
        (registered by the function that built it), else None."""
        for got, source, columns in self.projections:
            if got is frame:
                return source, columns
        return None

    def with_columns_known(self, frame: pl.LazyFrame, *columns: str) -> pl.LazyFrame:
        """``frame``, registered as having ``pkeys`` and then exactly ``columns``."""
        self.known_columns.append((frame, columns))
        return frame

    def columns_of(self, frame: pl.LazyFrame) -> list[str]:
        """The columns of a criterion frame other than ``pkeys``, in order (registered by
        :meth:`with_columns_known`, else from the plan's schema)."""
        for got, columns in self.known_columns:
            if got is frame:
                return list(columns)
        pkeys = self.pkeys
        return [c for c in frame.collect_schema().names() if c not in pkeys]

    @property
    def unit(self) -> int:
        """Match-point units per point (:func:`points_unit` of the ruleset)."""
        return points_unit(self.rules)

    def opponent_sum_parts(self) -> OpponentSumParts | None:
        """The opponents' base sums as parts of a plan that joins every row's opponent to
        the players already (:class:`OpponentSumParts`), for a reader whose group-by of
        each player's rows can carry them (the chess terms': one join and one group-by
        fewer in the criteria's query); None where the sums are known already (cached, or
        summed otherwise: ``opponent_totals``) or are not over every row with an opponent
        (``distinct_opponents``). The reader gives the sums' frame back with
        :meth:`share_opponent_sums`."""
        return _opponent_sum_parts(self)

    def share_opponent_sums(self, frame: pl.LazyFrame) -> None:
        """Take ``frame`` (every player, with the columns :meth:`opponent_sum_parts`'
        aggregations and ``after`` give) as the opponents' base sums."""
        self.cache[OPPONENT_SUMS_KEY] = (frame, None)


Tiebreaker = Callable[..., pl.LazyFrame]
#: Name → function of every plain criterion (what ``Criterion.function`` names).
TIEBREAKERS: dict[str, Tiebreaker] = {}

#: The fast paths a registered criterion may declare (see :class:`TiebreakerSpec`).
CAPABILITIES: Final = ("running", "coded", "bounds", "fast")
#: The ruleset options of the win and game rates a criterion may declare it reads
#: (``TiebreakerSpec.reads``): the one-option variants of ``sensitivity`` change them.
RATE_OPTIONS: Final = ("floor", "floor_own_gw", "bye_in_own_rate", "drawn_game_value")
Kind = Literal["own", "opponent_mean"]


@dataclass(frozen=True)
class TiebreakerSpec:
    """A registered criterion and the fast paths that can compute it.

    The engine's definition is always the function over the prepared rows; a capability
    says that another path gives the same values, so the paths choose from this
    declaration instead of keeping their own lists.

    Attributes
    ----------
    name, function
        The registry key (``Criterion.function``) and the callable.
    group
        A group-aware criterion (:data:`GROUP_TIEBREAKERS`): it reads the tie groups left
        by the criteria before it, so no fast path computes it.
    ties
        Of a group-aware criterion: whether it reads the tie groups (``_tie``,
        ``_tie_size``, ``_prelim`` of :class:`GroupContext`). False (a seeded random
        order) spares the ranking pass that forms them.
    ranks
        Of a criterion reading the tie groups: whether it reads ``_prelim`` (the ranks)
        too. False (head-to-head) lets a small table's groups come from windows over the
        criteria's columns in the plan that reads them (``standings._group_criteria``),
        without a ranking pass of their own; ``_tie`` is then an id of the group within
        the keys (no fixed type: only compared for equality).
    kind, source
        What the value is, for the paths that compute it from their own columns:
        ``"own"`` — the per-player record column ``source`` (``"match_points"``,
        ``"mwp"``, ``"gwp"``, ``"wins"``, ``"games_won"``); ``"opponent_mean"`` — the mean
        over non-bye opponents of their ``source`` (``"mwp_opp"``, ``"gwp_opp"``).
    running
        ``standings_by_round`` (and the standings of a ruleset that evaluates a player
        who left early as of their last round) may take it from running sums
        (:mod:`swissframe.engine._cumulative`) instead of repeating rows per cutoff: the
        function reads only ``ctx.players`` and opponents' means
        (:func:`_opponent_mean`, which sums them through ``Context.opponent_totals``
        there), never ``ctx.rows``.
    coded
        ``standings`` may compute it on integer id codes with no key columns.
    bounds
        ``next_round_ranges`` / ``cut_status`` know its range after one more round.
    fast
        The fast scenario model (:mod:`swissframe.cut._scenarios`) reproduces it.
    keys_only
        Of a group-aware criterion that reads no tie groups (``ties=False``): it reads
        only the keys and ``player_id`` of ``GroupContext.table`` (a seeded random order),
        so it may be computed on the table before the group criteria ahead of it are
        attached (they join into one query with it, ``standings._group_criteria``).
    round_span
        Its exact scale grows with the span of a player's rounds (CTB's ``4**span``, the
        span of their places among the event's rounds, ``_record.round_position``): an
        event is then long (computed on its own past
        :data:`~swissframe.engine._record.LONG_ROUNDS`) by the span of its round numbers,
        which bounds it, not by the rounds played (:func:`spans_rounds`).
    lot
        It orders players by lot: a seeded stand-in for the draw the event makes (Pokémon's
        and FaB's random order). Only its order is a value, and before the event draws it
        nobody knows it (:func:`drawn_by_lot`: the cut analyses count a tie it would break
        as a share, the CLI and report show no digits for it).
    untied
        Of a criterion reading the tie groups: its columns where no two players are tied
        by the criteria before it, as expressions of the table (a function of the
        criterion's name and parameters, giving None where they are not known without
        the rows). Where the tie groups are materialised and all of one player, the
        columns are taken instead of the function's plan (``standings._group_criteria``:
        FIDE's direct encounter, 0 for everyone, in most events).
    reads
        Which of the rates' ruleset options (:data:`RATE_OPTIONS`) its values depend on:
        an empty set for one that reads none (points, wins, chess scores), None when not
        declared — a reader must then assume any (``sensitivity.standard_variants`` keeps
        every variant).

    Examples
    --------
    >>> sorted(TIEBREAKER_SPECS["omwp"].capabilities)
    ['bounds', 'coded', 'fast', 'running']
    >>> TIEBREAKER_SPECS["buchholz"].capabilities
    frozenset()
    """

    name: str
    function: Tiebreaker
    group: bool = False
    kind: Kind | None = None
    source: str | None = None
    running: bool = False
    coded: bool = False
    bounds: bool = False
    fast: bool = False
    ties: bool = True
    ranks: bool = True
    keys_only: bool = False
    round_span: bool = False
    reads: frozenset[str] | None = None
    lot: bool = False
    untied: Callable[..., tuple[pl.Expr, ...] | None] | None = None

    def __post_init__(self) -> None:
        caps = self.capabilities
        where = f"tiebreaker {self.name!r}"
        if self.reads is not None and not self.reads <= set(RATE_OPTIONS):
            msg = (f"{where}: reads={sorted(self.reads)} names options outside "
                   f"{list(RATE_OPTIONS)}. Hint: declare those it reads, or leave it None.")
            raise RulesetError(msg)
        if not self.ranks and (not self.group or not self.ties):
            msg = (f"{where}: ranks=False is for a group-aware criterion that reads the tie "
                   "groups. Hint: register it with ties=True, or drop ranks=False.")
            raise RulesetError(msg)
        if self.untied is not None and (not self.group or not self.ties):
            msg = (f"{where}: untied is for a group-aware criterion that reads the tie "
                   "groups. Hint: register it with ties=True, or drop untied.")
            raise RulesetError(msg)
        if self.keys_only and (not self.group or self.ties):
            msg = (f"{where}: keys_only is for a group-aware criterion that reads no tie "
                   "groups. Hint: register it with ties=False, or drop keys_only.")
            raise RulesetError(msg)
        if self.group and caps:
            msg = (f"{where}: a group-aware criterion cannot declare {sorted(caps)}. "
                   "Hint: register it without capabilities.")
            raise RulesetError(msg)
        if (self.kind is None) != (self.source is None):
            msg = f"{where}: kind and source go together. Hint: pass own= or opponent_mean=."
            raise RulesetError(msg)
        if caps - {"coded", "running"} and self.kind is None:
            msg = (f"{where}: {sorted(caps - {'coded', 'running'})} need to know what the "
                   "value is. "
                   "Hint: pass own='<record column>' or opponent_mean='mwp_opp'/'gwp_opp'.")
            raise RulesetError(msg)
        if self.running and self.kind == "opponent_mean" and self.source not in BASE_SOURCES:
            msg = (f"{where}: running sums exist only for the opponents' {list(BASE_SOURCES)}, "
                   f"not {self.source!r}. Hint: drop running=True.")
            raise RulesetError(msg)

    @property
    def capabilities(self) -> frozenset[str]:
        """The declared capabilities, by name (a subset of :data:`CAPABILITIES`)."""
        return frozenset(c for c in CAPABILITIES if getattr(self, c))


#: Every registered criterion (plain and group-aware) with its declared capabilities.
TIEBREAKER_SPECS: dict[str, TiebreakerSpec] = {}


def register_tiebreaker(name: str, *, own: str | None = None,
                        opponent_mean: str | None = None, running: bool = False,
                        coded: bool = False, bounds: bool = False, fast: bool = False,
                        round_span: bool = False, reads: Iterable[str] | None = None
                        ) -> Callable[[Tiebreaker], Tiebreaker]:
    """Decorator adding a function to :data:`TIEBREAKERS` under ``name``, with the fast
    paths that can compute it (:class:`TiebreakerSpec`; none by default, so a new
    criterion always takes the reference path).

    Examples
    --------
    >>> @register_tiebreaker("my_omw", opponent_mean="mwp_opp", running=True, fast=True)
    ... def my_omw(ctx, *, name="my_omw"):
    ...     return omwp(ctx, name=name)
    >>> sorted(TIEBREAKER_SPECS["my_omw"].capabilities)
    ['fast', 'running']
    >>> _ = TIEBREAKERS.pop("my_omw"), TIEBREAKER_SPECS.pop("my_omw")
    """
    if own is not None and opponent_mean is not None:
        msg = f"tiebreaker {name!r}: own= and opponent_mean= exclude each other. Hint: pick one."
        raise RulesetError(msg)
    kind: Kind | None = "own" if own is not None else (
        "opponent_mean" if opponent_mean is not None else None)

    def deco(fn: Tiebreaker) -> Tiebreaker:
        TIEBREAKER_SPECS[name] = TiebreakerSpec(
            name, fn, kind=kind, source=own if own is not None else opponent_mean,
            running=running, coded=coded, bounds=bounds, fast=fast, round_span=round_span,
            reads=None if reads is None else frozenset(reads))
        TIEBREAKERS[name] = fn
        return fn

    return deco


def spans_rounds(rules: Ruleset) -> bool:
    """Whether a criterion of ``rules`` is registered with ``round_span`` (its exact scale
    grows with the span of the round numbers, CTB's ``4**span``): an event is then long by
    the span of its round numbers; otherwise by the rounds its players played, which bound
    every other scale (rounds numbered 1 and 10**9 are two rounds: taking the numbers for
    rounds computed 1,000 such events one by one, 3.5 s instead of 0.03 s).

    Examples
    --------
    >>> from swissframe.rules import get
    >>> spans_rounds(get("fab")), spans_rounds(get("mtg"))
    (True, False)
    """
    return any(getattr(TIEBREAKER_SPECS.get(c.function), "round_span", False)
               for c in (*rules.criteria, *rules.columns))


def drawn_by_lot(function: str) -> bool:
    """Whether the criterion function ``function`` orders players by lot
    (``TiebreakerSpec.lot``).

    >>> drawn_by_lot("random"), drawn_by_lot("omwp")
    (True, False)
    """
    return getattr(TIEBREAKER_SPECS.get(function), "lot", False)


def supporting(capability: str) -> AbstractSet[str]:
    """The names of the registered criteria declaring ``capability`` (a live view: a
    criterion registered later is included).

    Examples
    --------
    >>> sorted(supporting("running"))
    ['game_wins', 'gwp', 'match_points', 'match_wins', 'mwp', 'ogwp', 'omwp', 'oomwp']
    """
    _check_capability(capability)
    return _Supporting(capability)


def capability_columns(capability: str, kind: Kind, columns: Mapping[str, T]
                       ) -> Mapping[str, T]:
    """Criterion name → ``columns[source]`` for every registered criterion of ``kind``
    declaring ``capability`` whose source a fast path holds (a live view).

    A fast path states which values it keeps (``columns``: source → its own column); which
    criteria those serve is read from the registry.

    Examples
    --------
    >>> dict(capability_columns("fast", "opponent_mean", {"mwp_opp": "mw", "gwp_opp": "gw"}))
    {'omwp': 'mw', 'ogwp': 'gw'}
    """
    _check_capability(capability)
    return _Columns(capability, kind, dict(columns))


def _check_capability(capability: str) -> None:
    if capability not in CAPABILITIES:
        msg = f"unknown capability {capability!r}. Hint: one of {list(CAPABILITIES)}."
        raise RulesetError(msg)


class _Supporting(AbstractSet[str]):
    def __init__(self, capability: str) -> None:
        self._cap = capability

    def _names(self) -> set[str]:
        return {n for n, s in TIEBREAKER_SPECS.items()
                if getattr(s, self._cap) and TIEBREAKERS.get(n) is s.function}

    def __contains__(self, name: object) -> bool:
        return name in self._names()

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._names()))

    def __len__(self) -> int:
        return len(self._names())


class _Columns(Mapping[str, T]):
    def __init__(self, capability: str, kind: Kind, columns: dict[str, T]) -> None:
        self._cap, self._kind, self._columns = capability, kind, columns

    def _current(self) -> dict[str, T]:
        return {n: self._columns[s.source] for n, s in TIEBREAKER_SPECS.items()
                if getattr(s, self._cap) and s.kind == self._kind
                and s.source in self._columns and TIEBREAKERS.get(n) is s.function}

    def __getitem__(self, name: str) -> T:
        return self._current()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._current())

    def __len__(self) -> int:
        return len(self._current())


def _own(ctx: Context, column: str, name: str) -> pl.LazyFrame:
    return ctx.players.select(*ctx.pkeys, pl.col(column).alias(name),
                              pl.col(exact_name(column)).alias(exact_name(name)))


@register_tiebreaker("match_points", own="match_points", running=True, coded=True, reads=(),
                     bounds=True, fast=True)
def match_points(ctx: Context, *, name: str = "match_points") -> pl.LazyFrame:
    """Match points (MTR Appendix C: win 3, draw 1, loss 0, bye 3 — from the ruleset)."""
    return _own(ctx, "match_points", name)


@register_tiebreaker("mwp", own="mwp", running=True, coded=True, bounds=True, fast=True,
                     reads=("floor", "bye_in_own_rate"))
def mwp(ctx: Context, *, name: str = "mwp") -> pl.LazyFrame:
    """The player's own match-win rate, floored and capped (MTR Appendix C MW%)."""
    return _own(ctx, "mwp", name)


@register_tiebreaker("gwp", own="gwp", running=True, coded=True, bounds=True, fast=True,
                     reads=("floor", "floor_own_gw", "drawn_game_value"))
def gwp(ctx: Context, *, name: str = "gwp") -> pl.LazyFrame:
    """The player's own game-win rate (MTR Appendix C GW%); floored if ``floor_own_gw``."""
    return _own(ctx, "gwp", name)


def _opponent_mean(ctx: Context, source: str, scale: ExactScale, name: str, *,
                   values: pl.LazyFrame | None = None, extra: pl.LazyFrame | None = None,
                   k_max: int | None = None, least: Fraction | None = None
                   ) -> pl.LazyFrame:
    """Mean over every non-bye opponent faced (twice if met twice) of ``source``.

    ``values`` (keys…, player_id, ``source``, ``_x_<source>``) defaults to ``ctx.players``;
    ``extra`` adds contributions that are not opponents (keys…, player_id, ``_v``, ``_f``),
    e.g. an earned bye counted as an opponent. ``least``: see :func:`mean_exact` (given
    ``values`` whose bounds the caller knows; ``ctx.players``' base sources are floored
    rates).
    """
    key = f"{name}:{source}"
    if key in ctx.cache:
        return ctx.cache[key][0]
    if values is None and extra is None and source in BASE_SOURCES:
        # a projection of the shared sums (no renaming select in between), registered so
        # that the criteria reading them are attached in one join (Context.projection);
        # the opponents' base values are floored rates, each in [floor, cap] (own_rates)
        sums = _base_opponent_sums(ctx)
        exact, flt, outer = _mean_columns(scale, k_max or ctx.k_max, ctx.rules.floor,
                                          f"_t_{source}", f"_k_{source}")
        if outer.fits():
            columns = (flt.alias(name), exact.alias(exact_name(name)))
        else:
            warn_fallback(_fallback_what(name, source), bits=outer.scale.bit_length())
            mean = pl.col(f"_m_{source}")
            columns = (mean.alias(name), fallback_key(mean).alias(exact_name(name)))
            outer = FALLBACK_SCALE  # (the scale its key is at: ygo_number reads it)
        out = select(sums, *ctx.pkeys, *columns)
        ctx.projections.append((out, sums, columns))
        ctx.cache[key] = (out, outer)
        return out
    src = ctx.players if values is None else values
    vals = src.select(*ctx.pkeys, pl.col(exact_name(source)).cast(pl.Int128).alias("_v"),
                      pl.col(source).cast(pl.Float64).alias("_f"))
    if ctx.opponent_totals is not None:
        if extra is not None:  # (the paths setting opponent_totals admit no such ruleset)
            msg = "internal: opponent_totals with extra contributions"
            raise AssertionError(msg)
        agg = ctx.opponent_totals(vals, scale.scale)
    else:
        contrib = (_faced(ctx).join(vals.rename({PLAYER: OPP}), on=[*ctx.keys, OPP],
                                    how="left").drop(OPP))
        if extra is not None:
            contrib = pl.concat([contrib, extra.select(*ctx.pkeys,
                                                       pl.col("_v").cast(pl.Int128),
                                                       pl.col("_f").cast(pl.Float64))],
                                how="vertical")
        agg = (contrib.group_by(ctx.pkeys)
               .agg(pl.col("_v").sum().alias("_t"), pl.col("_v").count().alias("_k"),
                    pl.col("_f").mean().alias("_mean_f")))
    # not floored values (an earned bye's, another criterion's): the bounds the caller
    # declares, if any
    exact, flt, outer = _mean_columns(scale, k_max or ctx.k_max,
                                      None if extra is not None else least)
    if outer.fits():
        out = agg.select(*ctx.pkeys, flt.alias(name), exact.alias(exact_name(name)))
    else:
        warn_fallback(_fallback_what(name, source), bits=outer.scale.bit_length())
        out = agg.select(*ctx.pkeys, pl.col("_mean_f").alias(name),
                         fallback_key(pl.col("_mean_f")).alias(exact_name(name)))
        outer = FALLBACK_SCALE
    # players who faced nobody have no row here: callers left-join, which gives them null.
    # A plan over the base sums (above) stays lazy (the caller's one collect runs it); one
    # over a join is materialised, as a criterion may read it more than once
    out = out.pipe(collect).lazy()
    ctx.cache[key] = (out, outer)
    return out


@functools.lru_cache(maxsize=256)
def _mean_columns(scale: ExactScale, k_max: int, least: Fraction | None, total: str = "_t",
                  count: str = "_k") -> tuple[pl.Expr, pl.Expr, ExactScale]:
    """:func:`mean_exact` of the sums' ``total`` / ``count`` columns, built once per
    (scale, k_max, least, columns)."""
    return mean_exact(pl.col(total), pl.col(count), scale, k_max, least=least)


#: ``Context.cache`` entry of :func:`_base_opponent_sums`; the by-round path fills it from
#: its cumulative sums (:mod:`swissframe.engine._cumulative`) instead of the join.
OPPONENT_SUMS_KEY: Final = "__opponent_sums__"


def _faced(ctx: Context) -> pl.LazyFrame:
    """(keys…, player_id, opponent_id) for every round with an opponent; each opponent
    once with ``distinct_opponents`` (the one place the opponents' means read it)."""
    faced = ctx.rows.filter(~pl.col("_unpaired")).select(*ctx.keys, PLAYER, OPP)
    return faced.unique() if ctx.rules.distinct_opponents else faced


def _base_opponent_sums(ctx: Context) -> pl.LazyFrame:
    """Per player: exact sum, count and float mean of each base source over opponents.

    One join of the faced rows onto the opponents' values serves OMW% and OGW% (and every
    criterion averaging them), instead of one join each — the join is the engine's most
    expensive step.
    """
    key = OPPONENT_SUMS_KEY
    if key not in ctx.cache:
        values, sums, out = _opponent_sum_layout(ctx)
        joined = _faced(ctx).join(select(ctx.players, *values), on=[*ctx.keys, OPP],
                                  how="left")
        frame = joined.group_by(ctx.pkeys).agg(*sums)
        ctx.cache[key] = (frame if out is None else select(frame, *out), None)
    return ctx.cache[key][0]


def _opponent_sum_layout(ctx: Context) -> tuple[tuple[pl.Expr, ...], tuple[pl.Expr, ...],
                                                tuple[pl.Expr, ...] | None]:
    """:func:`_opponent_sum_exprs` for ``ctx``: its sums' widths decided from the scales."""
    # Int64 sums when no sum can overflow (at most k_max values each): Int128 joins and
    # sums cost about twice as much; the totals are cast back, so the values are equal
    fits = _int64_sums(ctx, [exact_name(s) for s in BASE_SOURCES])
    wide = tuple(not fits[exact_name(s)] for s in BASE_SOURCES)
    return _opponent_sum_exprs(tuple(ctx.keys), wide, _packed_width(ctx, fits))


class OpponentSumParts(NamedTuple):
    """The opponents' base sums (:func:`_base_opponent_sums`) as parts of a plan that
    joins each row's opponent to the players anyway (the chess terms, ``_chess``): the
    opponent's ``values`` (expressions of ``Context.players``, to put in that join), the
    group-by's ``aggs`` over the player's rows and, where there are some, the columns
    computed ``after`` it (a ``with_columns``). Its frame then gives what the join of the
    faced rows gives, where the group-by reads every row of the player (those without an
    opponent add null values, which the sums, counts and means skip); a player with rows
    but no opponent has count 0 there and no row there (the means of both are null)."""

    values: tuple[pl.Expr, ...]
    aggs: tuple[pl.Expr, ...]
    after: tuple[pl.Expr, ...]


#: The opponents' base sums may come from another plan's join of the opponents
#: (:meth:`Context.opponent_sum_parts`: the chess terms); False: always their own join, the
#: reference the tests compare them with.
SUMS_FROM_TERMS = True


def _opponent_sum_parts(ctx: Context) -> OpponentSumParts | None:
    """:meth:`Context.opponent_sum_parts`."""
    if (not SUMS_FROM_TERMS or OPPONENT_SUMS_KEY in ctx.cache
            or ctx.opponent_totals is not None or ctx.rules.distinct_opponents):
        return None
    values, sums, out = _opponent_sum_layout(ctx)
    n = len(ctx.keys) + 1  # (the keys and the opponent's id lead values and out)
    return OpponentSumParts(values[n:], sums, () if out is None else out[n:])


def _collect_base_sums(ctx: Context) -> None:
    """The opponents' base sums (:func:`_base_opponent_sums`) materialised, for a
    criterion that reads them in a query of its own (OOMW%: the opponents' OMW%, a
    materialised mean) besides the criteria's query, which reads them again (OMW%, OGW%):
    a small input's plans would each join and sum them (no common-subplan elimination;
    one 64-player Pokémon event, 34.4 -> 33.4 M instructions). The criteria already
    projected from the plan are attached from the materialised sums."""
    if _COLLECTED_SUMS_KEY in ctx.cache:
        return
    plan = _base_opponent_sums(ctx)
    frame = plan.pipe(collect).lazy()
    ctx.cache[OPPONENT_SUMS_KEY] = (frame, None)
    ctx.cache[_COLLECTED_SUMS_KEY] = (frame, None)
    ctx.projections[:] = [(got, frame if source is plan else source, columns)
                          for got, source, columns in ctx.projections]


#: ``Context.cache`` entry saying :func:`_collect_base_sums` ran.
_COLLECTED_SUMS_KEY: Final = "__opponent_sums_collected__"


@functools.lru_cache(maxsize=64)
def _opponent_sum_exprs(keys: tuple[str, ...], wide: tuple[bool, ...], width: int | None
                        ) -> tuple[tuple[pl.Expr, ...], tuple[pl.Expr, ...],
                                   tuple[pl.Expr, ...] | None]:
    """:func:`_base_opponent_sums`' expressions, built once per layout (building them is a
    sizeable part of one small event's call): the opponents' values (a select of the
    players), the group-by's aggregations, and the select after it (None: none). ``wide``:
    per base source, whether its sums need Int128; ``width``: see :func:`_packed_width`."""
    floats = [pl.col(s).cast(pl.Float64).alias(f"_f_{s}") for s in BASE_SOURCES]
    means = [pl.col(f"_f_{s}").mean().alias(f"_m_{s}") for s in BASE_SOURCES]
    key_cols = [pl.col(k) for k in keys]
    pkeys = [*key_cols, pl.col(PLAYER)]
    if width is not None:
        # both exact values in one Int64 (first · 2**width + second): one column through
        # the join, one sum and one count in the group-by; each field's total stays below
        # its width, so both totals come back unchanged, and the values are null
        # together, so the one count is each one's count
        first, second = (exact_name(s) for s in BASE_SOURCES)
        shift = pl.lit(2**width, dtype=pl.Int64)
        a, b = BASE_SOURCES
        return ((*key_cols, pl.col(PLAYER).alias(OPP),
                 (pl.col(first).cast(pl.Int64) * shift + pl.col(second).cast(pl.Int64))
                 .alias("_v"), *floats),
                (pl.col("_v").sum().alias("_s"), pl.col("_v").count().alias("_k"), *means),
                (*pkeys, (pl.col("_s") // shift).cast(pl.Int128).alias(f"_t_{a}"),
                 pl.col("_k").alias(f"_k_{a}"), pl.col(f"_m_{a}"),
                 (pl.col("_s") % shift).cast(pl.Int128).alias(f"_t_{b}"),
                 pl.col("_k").alias(f"_k_{b}"), pl.col(f"_m_{b}")))
    types = [pl.Int128 if w else pl.Int64 for w in wide]
    return ((*key_cols, pl.col(PLAYER).alias(OPP),
             *[pl.col(exact_name(s)).cast(t).alias(f"_v_{s}")
               for s, t in zip(BASE_SOURCES, types, strict=True)], *floats),
            tuple(e for s in BASE_SOURCES for e in (
                pl.col(f"_v_{s}").sum().cast(pl.Int128).alias(f"_t_{s}"),
                pl.col(f"_v_{s}").count().alias(f"_k_{s}"),
                pl.col(f"_f_{s}").mean().alias(f"_m_{s}"))),
            None)


def _packed_width(ctx: Context, fits: Mapping[str, bool]) -> int | None:
    """The bits of the second base source's sums when both sums pack into one Int64 (see
    :func:`_base_opponent_sums`), or None: both sums within Int64 and their widths
    together at most 62 bits (from the scales, as :func:`_int64_sums`), and, read from the
    players, the two exact values null on the same players (so null together in every
    row of the join)."""
    cols = [exact_name(s) for s in BASE_SOURCES]
    if not packs(ctx.size) or len(cols) != 2 or not all(fits[c] for c in cols):
        return None
    first, second = (_sum_bounds(ctx, cols)[c] for c in cols)
    width = second.bit_length()
    if first.bit_length() + width > 62:
        return None
    a, b = (pl.col(c) for c in cols)
    apart = ctx.players.select((a.is_null() != b.is_null()).any()).pipe(collect).item()
    return None if apart else width


def _int64_sums(ctx: Context, columns: Sequence[str]) -> dict[str, bool]:
    """Per base source's exact column: whether sums of up to ``k_max`` of its values stay
    inside Int64.

    Decided from the scales, without reading the data: the values opponents average are
    clamped (:func:`_record.own_rates`), so each lies in ``[0, max(floor, cap,
    cap_dropped) · scale]``.
    """
    return {c: exact_dtype(bound) == pl.Int64 for c, bound in _sum_bounds(ctx, columns).items()}


def _sum_bounds(ctx: Context, columns: Sequence[str]) -> dict[str, int]:
    """Per base source's exact column, the largest sum of up to ``k_max`` of its values:
    each is clamped (:func:`_record.own_rates`) into ``[0, max(floor, cap, cap_dropped) ·
    scale]``."""
    rules = ctx.rules
    top = max(rules.floor, rules.cap, rules.cap_dropped, Fraction(0))
    scale = {exact_name("mwp_opp"): ctx.rate_scale, exact_name("gwp_opp"): ctx.game_scale}
    return {c: math.ceil(top * scale[c].scale) * max(ctx.k_max, 1) for c in columns}


#: How a fallback's warning says the values a mean averages (:func:`_fallback_what`).
_SOURCE_WORDS: Final = {"mwp_opp": "match-win rates", "gwp_opp": "game-win rates",
                        "_oinner": "OMW%s"}


def _fallback_what(name: str, source: str) -> str:
    """What an opponents' mean that fell back to rounded values is called in its warning:
    its column, or for a column of the engine's own (``_omw_e`` of ``explain``, the
    ``_omwp_inner`` OOMW% averages) the values it averages — the warning named those
    columns (bad data 208)."""
    if not name.startswith("_"):
        return name
    return f"the opponents' {_SOURCE_WORDS.get(source, source.lstrip('_'))}"


def _earned_bye_contributions(ctx: Context) -> pl.LazyFrame | None:
    """Earned byes counted as opponents (``Ruleset.earned_bye_opponent``), or None."""
    how = ctx.rules.earned_bye_opponent
    if how is None:
        return None
    earned = ctx.rows.filter(pl.col("_earned")).select(*ctx.pkeys)
    if how == "own":
        return earned.join(ctx.players.select(*ctx.pkeys, pl.col("_x_mwp_opp").alias("_v"),
                                              pl.col("mwp_opp").alias("_f")),
                           on=ctx.pkeys, how="left")
    value = Fraction(how)
    return earned.with_columns(_v=ctx.rate_scale.lit(value), _f=pl.lit(float(value)))


@register_tiebreaker("omwp", opponent_mean="mwp_opp", running=True, coded=True, bounds=True,
                     fast=True, reads=("floor", "bye_in_own_rate"))
def omwp(ctx: Context, *, name: str = "omwp") -> pl.LazyFrame:
    """Opponents' match-win % (MTR Appendix C): mean of each non-bye opponent's floored MW%.

    Null when the player faced no opponent (ranked below any value).
    """
    return _opponent_mean(ctx, "mwp_opp", ctx.rate_scale, name,
                          extra=_earned_bye_contributions(ctx))


@register_tiebreaker("ogwp", opponent_mean="gwp_opp", running=True, coded=True, bounds=True,
                     fast=True, reads=("floor", "drawn_game_value"))
def ogwp(ctx: Context, *, name: str = "ogwp") -> pl.LazyFrame:
    """Opponents' game-win % (MTR Appendix C): mean of each opponent's floored GW%."""
    return _opponent_mean(ctx, "gwp_opp", ctx.game_scale, name)


@register_tiebreaker("oomwp", running=True, reads=("floor", "bye_in_own_rate"))
def oomwp(ctx: Context, *, name: str = "oomwp") -> pl.LazyFrame:
    """Opponents' opponents' match-win % (Pokémon TRH §5.5.1.1 "Op Op Win %", Yu-Gi-Oh!).

    Mean over non-bye opponents of their OMW%; an opponent whose own OMW% is null (they
    faced nobody else) contributes nothing.
    """
    key = f"{name}:_oinner"
    if key in ctx.cache:
        return ctx.cache[key][0]
    if ctx.opponent_totals is None:
        _collect_base_sums(ctx)
    inner_frame = omwp(ctx, name="_omwp_inner")
    inner_scale = ctx.cache["_omwp_inner:mwp_opp"][1]
    assert inner_scale is not None
    values = inner_frame.rename({"_omwp_inner": "_oinner",
                                 exact_name("_omwp_inner"): exact_name("_oinner")})
    # each opponent's OMW% is a mean of floored rates, in [floor, cap] (not with earned
    # byes counted as opponents, whose value may be below the floor; not where it fell
    # back to rounded floats)
    least = (ctx.rules.floor if ctx.rules.earned_bye_opponent is None
             and inner_scale != FALLBACK_SCALE else None)
    return _opponent_mean(ctx, "_oinner", inner_scale, name, values=values, least=least)


def scale_of(ctx: Context, name: str) -> ExactScale:
    """The exact scale of a criterion computed by an opponent mean (after calling it)."""
    for k, (_, sc) in ctx.cache.items():
        if k.split(":", 1)[0] == name and sc is not None:
            return sc
    msg = f"internal: no cached scale for {name!r}"
    raise AssertionError(msg)


# ------------------------------------------------------------------ integer criteria


def _int_column(ctx: Context, frame: pl.LazyFrame, value: pl.Expr, name: str) -> pl.LazyFrame:
    """One integer-valued criterion per player (missing players get 0)."""
    out = frame.select(*ctx.pkeys, value.cast(pl.Int64).alias(name))
    out = ctx.players.select(ctx.pkeys).join(out, on=ctx.pkeys, how="left").with_columns(
        pl.col(name).fill_null(0))
    return ctx.with_columns_known(
        out.with_columns(pl.col(name).cast(pl.Int128).alias(exact_name(name))),
        name, exact_name(name))


@register_tiebreaker("match_wins", own="wins", running=True, coded=True, fast=True, reads=())
def match_wins(ctx: Context, *, name: str = "match_wins") -> pl.LazyFrame:
    """Matches won, byes included (Star Wars: Unlimited ranks by this; rules.md §3.5)."""
    return _int_column(ctx, ctx.players, pl.col("wins"), name)


@register_tiebreaker("rounds_played", reads=())
def rounds_played(ctx: Context, *, name: str = "rounds_played") -> pl.LazyFrame:
    """Rounds the player has a Swiss row in, byes included; more ranks higher (Manatraders
    orders equal points by it). Under its own name only the exact twin is added: the
    public column is already in every table."""
    out = _int_column(ctx, ctx.players, pl.col("rounds_played"), name)
    return out.drop(name) if name == "rounds_played" else out


@register_tiebreaker("game_wins", own="games_won", running=True, coded=True, fast=True,
                     reads=())
def game_wins(ctx: Context, *, name: str = "game_wins") -> pl.LazyFrame:
    """Total games won (melee.gg two-game matches, second key; rules.md §3.2)."""
    return _int_column(ctx, ctx.players, pl.col("games_won"), name)


@register_tiebreaker("lost_round_squares", reads=())
def lost_round_squares(ctx: Context, *, name: str = "lost_round_squares") -> pl.LazyFrame:
    """Sum of the squares of the round numbers the player lost (Yu-Gi-Oh! ``DDD``, higher
    is better: later losses; rules.md §3.1 [S])."""
    # (the round as the event counts it, from 1: round_position; numbered 1, 2, 4, a loss
    # in the third round is 9, as it is numbered 1, 2, 3)
    r = pl.col("_n").cast(pl.Int128)  # (a round past 2**31.5 squares past Int64)
    agg = (ctx.rows.with_columns(_n=round_position(ctx.keys)).filter(pl.col("_loss"))
           .group_by(ctx.pkeys).agg((r * r).sum().alias("_s")))
    # (the first by its keys, not by the group-by's order: the same player named each time)
    over = agg.filter(pl.col("_s") > 2**63 - 1).sort(ctx.pkeys).head(1).pipe(collect)
    if over.height:
        who = ", ".join(f"{k} {quoted(v)}" for k, v in zip(ctx.pkeys, over.row(0), strict=False))
        msg = (f"lost_round_squares: the sum of the squares of the rounds lost by {who} is "
               f"{over['_s'][0]:,}, past what an Int64 column holds (this many rounds "
               "are not a Swiss event's). Hint: check the event's rounds.")
        raise DataError(msg)
    return _int_column(ctx, agg, pl.col("_s"), name)


def _late_flags(ctx: Context) -> pl.LazyFrame:
    forced = pl.col("_unpaired") & pl.col("_loss") & (pl.col("_kind") == "absent")
    first = (ctx.rows.group_by(ctx.pkeys)
             .agg(pl.col("round").filter(~forced).min().alias("_first"),
                  pl.col("round").min().alias("_any")))
    return first.with_columns(_event_first=per_group(pl.col("_any").min(), ctx.keys)).select(
        *ctx.pkeys, (pl.col("_first").is_null()
                     | (pl.col("_first") > pl.col("_event_first"))).alias("_late"))


@register_tiebreaker("late", reads=())
def late(ctx: Context, *, name: str = "late") -> pl.LazyFrame:
    """1 for a late entrant, else 0 — ranked ascending, so late players go below others on
    equal points (RK9 2021 "late penalty"; SEED-F2 "tardiness").

    The data cannot tell a late arrival from a no-show (rules.md §9 item 6): the signal
    read is an *unopposed* loss. A player is late when their first round that is not an
    unopposed loss comes after the event's first round — no row in round 1, or a
    round-1 loss with no opponent (TOM's forced loss, outcome 8). An unopposed loss is
    read as an absence whether or not the ``unplayed`` column says ``"absent"`` (an
    unpaired loss with no kind is one); one marked otherwise (``"forfeit_loss"``,
    ``"zero_bye"``) is a round played for this purpose. A round-1 loss against an
    opponent (a no-show's match loss) is not late.

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> res = pl.DataFrame({"round": [1, 1, 1, 2, 2, 2],
    ...     "player_id": ["A", "C", "B", "A", "B", "C"],
    ...     "opponent_id": ["C", "A", None, "B", "A", None], "games_won": [1, 0, 0, 1, 0, 1],
    ...     "games_lost": [0, 1, 1, 0, 1, 0], "games_drawn": [0] * 6})
    >>> sf.standings(res, "pokemon-2016").select("player_id", "late").sort("player_id").rows()
    [('A', 0), ('B', 1), ('C', 0)]
    """
    return _int_column(ctx, _late_flags(ctx), pl.col("_late"), name)


# ------------------------------------------------------------------ rate criteria


def _data_scale(ctx: Context, den: pl.Expr) -> ExactScale:
    """A scale making ``n / den`` exact for every denominator that occurs."""
    vals = ctx.players.select(den.alias("_d")).unique().pipe(collect)["_d"].drop_nulls().to_list()
    return ExactScale(lcm_of(int(v) for v in vals))


@register_tiebreaker("pml")
def pml(ctx: Context, *, name: str = "pml", byes: bool = False) -> pl.LazyFrame:
    """Flesh and Blood PML: losses ÷ matches played (lower is better; rules.md §3.3).

    A bye is not a match played (the Pairings and Tiebreaker Policy: "every round, each
    player plays a match against another player, unless they have been awarded a bye";
    ``docs/rules-decisions.md``); ``byes=True`` counts it as one. A player with no match
    played (only byes) has lost none: PML 0, as one who played and lost none (it was null,
    which ranked them below every player tied with them before PML).
    """
    den = pl.col("rounds_played") - (pl.lit(0) if byes else pl.col("byes"))
    scale = _data_scale(ctx, den)
    out = ctx.players.select(
        *ctx.pkeys,
        pl.when(den > 0).then(pl.col("losses") / den).otherwise(0.0).alias(name),
        pl.when(den > 0).then(scale.ratio(pl.col("losses"), den))
        .otherwise(pl.lit(0, dtype=pl.Int128)).alias(exact_name(name)))
    ctx.cache[f"{name}:pml"] = (out, scale)
    return out


@register_tiebreaker("omlp")
def omlp(ctx: Context, *, name: str = "omlp", byes: bool = False) -> pl.LazyFrame:
    """Flesh and Blood OML%: mean PML of the non-bye opponents (lower is better)."""
    inner = pml(ctx, name="_pml_inner", byes=byes)
    scale = ctx.cache["_pml_inner:pml"][1]
    assert scale is not None
    return _opponent_mean(ctx, "_pml_inner", scale, name, values=inner)


def _ctb(ctx: Context) -> tuple[pl.LazyFrame, ExactScale]:
    key = "_ctb:ctb"
    if key in ctx.cache:
        frame, sc = ctx.cache[key]
        assert sc is not None
        return frame, sc
    # a round is its place among the rounds the event played (round_position): CTB is
    # divided by 4 once a round of the tournament, and a round number no row of the event
    # has is not one (numbered 1, 2, 4, the event played three rounds; counting the number
    # 3 divided the first two rounds' totals once more)
    rows = ctx.rows.with_columns(round=round_position(ctx.keys))
    # the most rounds between a player's first and last rows: a row's weight is a power of
    # 1/4 of its distance to the player's last round, so that many powers make every
    # weight exact
    span = int(rows.group_by(ctx.pkeys)
               .agg((pl.col("round").max() - pl.col("round").min()).alias("_span"))
               .select(pl.col("_span").max()).pipe(collect).item() or 0)
    unit = points_unit(ctx.rules)
    # (the bits first: 4**span of a span of 10**9 rounds is not a number to build)
    bits = unit.bit_length() + 2 * span
    scale = ExactScale(unit * 4**span) if bits <= LIMIT.bit_length() else None
    # a row's total holds from its round until the player's next row (a round without a row
    # between two rows carries the total: CTB ÷ 4 + the unchanged total), so it weighs
    # Σ_{j=round}^{next-1} 4^(j - last) = (4^(next - last) - 4^(round - last)) / 3; in
    # units of 4^-span the exponents run from 0 to span + 1
    running = (rows.sort("round")
               .with_columns(_cum=pl.col("_pts").cum_sum().over(ctx.pkeys),
                             _last=pl.col("round").max().over(ctx.pkeys),
                             _next=pl.col("round").shift(-1).over(ctx.pkeys))
               .with_columns(pl.col("_next").fill_null(pl.col("_last") + 1)))
    quarter = pl.lit(0.25)
    as_float = (pl.col("_cum").cast(pl.Float64) / unit
                * (quarter.pow((pl.col("_last") - pl.col("_next")).cast(pl.Float64))
                   - quarter.pow((pl.col("_last") - pl.col("round")).cast(pl.Float64))) / 3
                ).sum().alias("_f")
    if scale is None or not scale.fits():
        warn_fallback("ctb", bits=bits)
        frame = running.group_by(ctx.pkeys).agg(as_float).select(
            *ctx.pkeys, pl.col("_f").alias("ctb"), fallback_key(pl.col("_f")).alias("_x_ctb"))
        ctx.cache[key] = (frame, ExactScale(10**12))
        return frame, ExactScale(10**12)
    exps = pl.LazyFrame({"_e": list(range(span + 2)), "_w": [4**e for e in range(span + 2)]},
                        schema={"_e": pl.Int64, "_w": pl.Int128})
    shift = span - pl.col("_last")
    terms = (running.with_columns(_e=(shift + pl.col("round")).cast(pl.Int64),
                                  _e_next=(shift + pl.col("_next")).cast(pl.Int64))
             .join(exps, on="_e", how="left")
             .join(exps.rename({"_e": "_e_next", "_w": "_w_next"}), on="_e_next", how="left"))
    agg = terms.group_by(ctx.pkeys).agg(
        (pl.col("_cum").cast(pl.Int128) * ((pl.col("_w_next") - pl.col("_w")) // 3)).sum()
        .alias("_x"), as_float)
    # materialised: CTB and OCTB both read it (OCTB in a query of its own), and a shared
    # lazy plan is run once per reader
    frame = (agg.select(*ctx.pkeys, pl.col("_f").alias("ctb"), pl.col("_x").alias("_x_ctb"))
             .pipe(collect).lazy())
    ctx.cache[key] = (frame, scale)
    return frame, scale


@register_tiebreaker("ctb", round_span=True)
def ctb(ctx: Context, *, name: str = "ctb") -> pl.LazyFrame:
    """Flesh and Blood cumulative tiebreaker: after each round, CTB = previous CTB ÷ 4 +
    total match points so far (rules.md §3.3, FAB-F1). Earlier wins weigh more.

    A round without a row between the player's first and last rows (a returning player)
    is still a round of the tournament: CTB ÷ 4 + the unchanged total, as after a loss
    (``docs/rules-decisions.md``). Rounds after the last row do not count (a dropped
    player's CTB stays as it was).

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 1, 3, 3], "player_a": ["P", "Q", "P", "Q"],
    ...     "player_b": ["A", "B", "B", "A"], "games_a": [1, 1, 1, 1],
    ...     "games_b": [0, 0, 0, 0], "games_drawn": [0, 0, 0, 0]})
    >>> r2 = pl.DataFrame({"round": [2], "player_a": ["A"], "player_b": ["Q"],
    ...     "games_a": [1], "games_b": [0], "games_drawn": [0]})
    >>> st = sf.standings(sf.from_matches(pl.concat([m, r2])), "fab")
    >>> st.select("player_id", "ctb").rows()  # P: 1, 1/4 + 1, 1.25/4 + 2
    [('P', 2.3125), ('Q', 2.3125), ('A', 1.25), ('B', 0.0)]
    """
    frame, _ = _ctb(ctx)
    return frame.rename({"ctb": name, "_x_ctb": exact_name(name)})


@register_tiebreaker("octb", round_span=True)
def octb(ctx: Context, *, name: str = "octb") -> pl.LazyFrame:
    """Flesh and Blood OCTB: mean CTB of the non-bye opponents (higher is better)."""
    frame, scale = _ctb(ctx)
    return _opponent_mean(ctx, "ctb", scale, name, values=frame)


@register_tiebreaker("omp")
def omp(ctx: Context, *, name: str = "omp", max_per_round: int = 3) -> pl.LazyFrame:
    """Opponents' match-point %: the opponents' points summed over the points they could
    have scored (``max_per_round`` × their rounds), summed over opponents (melee.gg
    two-game matches, rules.md §3.2: 86/161 = 53.4%). Exact via :func:`ratio_key`."""
    opp = ctx.players.select(*ctx.keys, pl.col(PLAYER).alias(OPP),
                             pl.col("_pts").alias("_op"), pl.col("rounds_played").alias("_or"))
    unit = points_unit(ctx.rules)
    agg = (_faced(ctx).join(opp, on=[*ctx.keys, OPP], how="left")
           .group_by(ctx.pkeys)
           .agg(pl.col("_op").sum().alias("_n"),
                (pl.col("_or") * max_per_round * unit).sum().alias("_d")))
    out = agg.select(*ctx.pkeys,
                     pl.when(pl.col("_d") > 0).then(pl.col("_n") / pl.col("_d")).alias(name),
                     ratio_key(pl.col("_n"), pl.col("_d")).alias(exact_name(name)))
    return ctx.players.select(ctx.pkeys).join(out, on=ctx.pkeys, how="left")


@register_tiebreaker("ygo_number")
def ygo_number(ctx: Context, *, name: str = "ygo_tiebreaker", loss_squares: bool = False,
               rounding: str = "truncate") -> pl.LazyFrame:
    """The Yu-Gi-Oh! printed tiebreaker number ``AABBBCCC`` (rules.md §3.1, YGO-F1):
    points (2 digits), OMW% and OOMW% in per-mille (3 digits each, truncated by default,
    or ``rounding="round"``), and with ``loss_squares`` a ``DDD`` block (sum of squares of
    lost round numbers, at most 999). Decode with :func:`decode_ygo_number`."""
    om = omwp(ctx, name="_ygo_omw")
    oo = oomwp(ctx, name="_ygo_oomw")
    s_om, s_oo = scale_of(ctx, "_ygo_omw"), scale_of(ctx, "_ygo_oomw")

    def mille(col: str, sc: ExactScale) -> pl.Expr:
        x = pl.col(exact_name(col)).cast(pl.Int128) * 1000
        s = pl.lit(sc.scale, dtype=pl.Int128)
        v = (2 * x + s) // (2 * s) if rounding == "round" else x // s
        return pl.min_horizontal(v.fill_null(0), pl.lit(999, dtype=pl.Int128))

    frame = (ctx.players.select(*ctx.pkeys, "_pts")
             .join(om, on=ctx.pkeys, how="left").join(oo, on=ctx.pkeys, how="left"))
    unit = points_unit(ctx.rules)
    number = ((pl.col("_pts") // unit).cast(pl.Int128) * 1_000_000
              + mille("_ygo_omw", s_om) * 1000 + mille("_ygo_oomw", s_oo))
    if loss_squares:
        sq = lost_round_squares(ctx, name="_ygo_ddd")
        frame = frame.join(sq, on=ctx.pkeys, how="left")
        number = number * 1000 + pl.min_horizontal(pl.col("_x__ygo_ddd"),
                                                   pl.lit(999, dtype=pl.Int128))
    return frame.select(*ctx.pkeys, number.cast(pl.Int64).alias(name),
                        number.alias(exact_name(name)))


def decode_ygo_number(number: int) -> tuple[int, Fraction, Fraction, int | None]:
    """Split a printed Yu-Gi-Oh! tiebreaker number (YGO-F1).

    Eight digits are ``AABBBCCC``; eleven are ``AABBBCCCDDD``.

    Examples
    --------
    >>> decode_ygo_number(33726677)
    (33, Fraction(363, 500), Fraction(677, 1000), None)
    """
    number = check_whole("number", number, hint="the printed number, e.g. 33726677")
    ddd: int | None = None
    if number >= 10**8:
        number, ddd = divmod(number, 1000)
    pts, rest = divmod(number, 10**6)
    omw, oomw = divmod(rest, 1000)
    return pts, Fraction(omw, 1000), Fraction(oomw, 1000), ddd


# ------------------------------------------------------------------ FIDE (engine/_chess.py)

# registered here, with the rest of the registry, so every criterion is known as soon as
# the registry is imported (no import for its side effect)
for _name, _fn in (("buchholz", _chess.buchholz), ("sb", _chess.sonneborn_berger),
                   ("ps", _chess.progressive), ("win", _chess.wins), ("won", _chess.won),
                   ("bpg", _chess.black_played), ("bwg", _chess.black_won),
                   ("fore_buchholz", _chess.fore_buchholz), ("abh", _chess.adjusted_score),
                   ("koya", _chess.koya), ("aob", _chess.average_opponents_buchholz),
                   ("vur", _chess.unplayed_voluntarily), ("num", _chess.games_played),
                   ("ge", _chess.games_elected)):
    register_tiebreaker(_name, reads=())(_fn)  # (chess scores: no win or game rate)


# ------------------------------------------------------------------ group-aware criteria


@dataclass
class GroupContext:
    """Inputs of a group-aware criterion (one that sees the tie groups left by the
    criteria before it). Built by :mod:`swissframe.standings` after snapshots.

    ``table`` has one row per (keys…, player_id) with ``_tie`` (tie-group id within the
    keys), ``_tie_size`` and ``_prelim`` (the competition rank by the criteria so far;
    not for a criterion registered with ``ties=False``; for one registered with
    ``ranks=False`` maybe not, and ``_tie`` then of no fixed type);
    ``rows`` are the prepared Swiss rows (see :func:`prepare_rows`) keyed by ``keys``;
    :meth:`rows_of` reads those of some players only.
    """

    table: pl.LazyFrame
    rows: pl.LazyFrame
    keys: tuple[str, ...]
    rules: Ruleset
    #: When one of ``keys`` is a cutoff (standings after several rounds at once, where
    #: ``rows`` repeats each row once per cutoff at or after its round): the prepared rows
    #: once, without that key, and the key's name, for :meth:`rows_of`. None otherwise.
    unrepeated: tuple[pl.LazyFrame, str] | None = None
    #: ``table`` materialised, where it is (the tie groups' ranking pass): read by
    #: :meth:`largest_tie` without a query.
    materialised: pl.DataFrame | None = None

    @property
    def pkeys(self) -> list[str]:
        """Keys plus ``player_id``."""
        return [*self.keys, PLAYER]

    def largest_tie(self) -> int | None:
        """The most players of one tie group (``_tie_size``), None when not known without
        a query (no materialised table)."""
        if self.materialised is None or "_tie_size" not in self.materialised.columns:
            return None
        top = self.materialised.get_column("_tie_size").max()
        return int(top) if isinstance(top, int) else 0

    def rows_of(self, players: pl.LazyFrame) -> pl.LazyFrame:
        """The rows of ``players`` ((keys…, player_id) and any further columns, which are
        attached): the inner join of ``rows`` with them, without repeating every row per
        cutoff first where ``unrepeated`` is set — a criterion reading the rows of the few
        tied players then reads only theirs (Pokémon's head-to-head by round: the
        repeated rows were most of that path's time)."""
        if self.unrepeated is None:
            return self.rows.join(players, on=self.pkeys, how="inner")
        rows, through = self.unrepeated
        return cutoff_rows(rows, [k for k in self.pkeys if k != through], players,
                           through=through)


GroupTiebreaker = Callable[..., pl.LazyFrame]
GROUP_TIEBREAKERS: dict[str, GroupTiebreaker] = {}


def register_group_tiebreaker(name: str, *, ties: bool = True, ranks: bool = True,
                              keys_only: bool = False, reads: Iterable[str] | None = None,
                              lot: bool = False,
                              untied: Callable[..., tuple[pl.Expr, ...] | None] | None = None
                              ) -> Callable[[GroupTiebreaker], GroupTiebreaker]:
    """Decorator adding a group-aware function to :data:`GROUP_TIEBREAKERS`; ``ties=False``
    declares that it does not read the tie groups (its ``GroupContext.table`` then has
    only the criteria's columns); ``ranks``, ``keys_only``, ``reads``, ``lot`` and
    ``untied`` as :class:`TiebreakerSpec`'s."""

    def deco(fn: GroupTiebreaker) -> GroupTiebreaker:
        TIEBREAKER_SPECS[name] = TiebreakerSpec(
            name, fn, group=True, ties=ties, ranks=ranks, keys_only=keys_only,
            reads=None if reads is None else frozenset(reads), lot=lot, untied=untied)
        GROUP_TIEBREAKERS[name] = fn
        return fn

    return deco


def _group_int(g: GroupContext, frame: pl.LazyFrame, value: str, name: str,
               default: int | None = 0) -> pl.LazyFrame:
    renamed, filled, typed = _group_int_exprs(value, name, default)
    out = g.table.select(g.pkeys).join(frame.select(*g.pkeys, renamed), on=g.pkeys,
                                       how="left")
    if filled is not None:
        out = out.with_columns(filled)
    return out.with_columns(*typed)


@functools.lru_cache(maxsize=32)
def _group_int_of_none(name: str) -> tuple[pl.Expr, pl.Expr]:
    """The columns :func:`_group_int` gives of a frame with no row (every player the
    default, 0: Int64 and its exact twin), as expressions of the table: without the frame
    or its join."""
    return pl.lit(0, dtype=pl.Int64).alias(name), pl.lit(0, dtype=pl.Int128).alias(
        exact_name(name))


@functools.lru_cache(maxsize=32)
def _group_int_exprs(value: str, name: str, default: int | None
                     ) -> tuple[pl.Expr, pl.Expr | None, tuple[pl.Expr, pl.Expr]]:
    """:func:`_group_int`'s expressions (the value renamed, its default, the Int64 and
    the exact column), built once per names and default."""
    col = pl.col(name)
    return (pl.col(value).alias(name), None if default is None else col.fill_null(default),
            (col.cast(pl.Int64), col.cast(pl.Int128).alias(exact_name(name))))


def _games_within_groups(g: GroupContext, *, played_only: bool = False) -> pl.LazyFrame:
    """Rows whose player and opponent are in the same tie group (``played_only``: games
    played over the board, no forfeit)."""
    # players alone in their group have no opponent in it: only the others' rows are read
    tied = g.table.filter(pl.col("_tie_size") >= 2)
    tie = tied.select(*g.pkeys, "_tie", "_tie_size")
    opp_tie = tied.select(*g.keys, pl.col(PLAYER).alias(OPP), pl.col("_tie").alias("_otie"))
    met = ~pl.col("_unpaired") & (pl.col("_kind").is_null() if played_only else pl.lit(True))
    return (g.rows_of(tie).filter(met)
            .select(*g.pkeys, OPP, "_pts", "_win", "_loss", "_tie", "_tie_size")
            .join(opp_tie, on=[*g.keys, OPP], how="inner")
            .filter(pl.col("_tie") == pl.col("_otie")))


def _head_to_head_untied(name: str = "head_to_head") -> tuple[pl.Expr, ...]:
    """:func:`head_to_head`'s columns where no two players are tied
    (``TiebreakerSpec.untied``): no group of two, 0 for everyone."""
    return _group_int_of_none(name)


@register_group_tiebreaker("head_to_head", ranks=False, reads=(), untied=_head_to_head_untied)
def head_to_head(g: GroupContext, *, name: str = "head_to_head") -> pl.LazyFrame:
    """Head-to-head (Pokémon TRH §5.5.1.1): only when exactly two players are still tied
    and they played each other — the one who won more of their matches ranks higher
    (+1 / -1); every other player gets 0, so it never splits three-way ties.

    A player's matches won are compared with the other player's: a double loss is a loss
    for both and a win for neither, so it decides nothing (a count of wins less losses
    made a pair who met three times — a double loss, a win of one, a double loss — both
    -1, and the lot ranked the loser of their one decided match above its winner)."""
    wins = pl.col("_w")
    h = (_games_within_groups(g).filter(pl.col("_tie_size") == 2)
         .group_by(*g.pkeys, "_tie")
         .agg(pl.col("_win").cast(pl.Int64).sum().alias("_w"))
         # (the pair's wins less the player's: the other player's wins against them)
         .select(*g.pkeys, (2 * wins - wins.sum().over([*g.keys, "_tie"])).sign()
                 .alias("_h")))
    return _group_int(g, h, "_h", name)


#: How :func:`direct_encounter` reads C.07 Art. 6 (``Criterion`` param ``method``).
DeMethod = Literal["fide", "points"]
_DE_METHODS: Final = ("fide", "points")

#: The values a criterion's parameter takes where its default's kind does not say them all
#: (``rules._ruleset._check_params`` reads the rest from the default: a flag, a whole
#: number from 0, a fraction from 0 to 1): the choices of a text parameter, and the lowest
#: whole number of a count that is not from 0 (a seed: any; points a round: at least 1).
PARAM_CHOICES: Final[Mapping[tuple[str, str], tuple[str, ...]]] = {
    ("direct_encounter", "method"): _DE_METHODS,
    ("ygo_number", "rounding"): ("truncate", "round"),
}
PARAM_LOWEST: Final[Mapping[tuple[str, str], int]] = {
    ("random", "seed"): -(2**63 - 1),
    ("omp", "max_per_round"): 1,
}


def _direct_encounter_untied(name: str = "direct_encounter", *, forfeits: bool = False,
                             method: DeMethod = "fide") -> tuple[pl.Expr, ...] | None:
    """:func:`direct_encounter`'s columns where no two players are tied
    (``TiebreakerSpec.untied``): no one ranked below another, 0 for everyone, under
    ``method="fide"``; None otherwise (``"points"``; an unknown method, which
    :func:`direct_encounter` refuses)."""
    return _group_int_of_none(name) if method == "fide" else None


@register_group_tiebreaker("direct_encounter", ranks=False, reads=(),
                           untied=_direct_encounter_untied)
def direct_encounter(g: GroupContext, *, name: str = "direct_encounter",
                     forfeits: bool = False, method: DeMethod = "fide") -> pl.LazyFrame:
    """FIDE direct encounter (C.07 Art. 6; rules.md §4.1) among the players still tied.

    ``method="fide"`` (default), Art. 6 of the 2024 and 2026 texts:

    - the *separate standings*: each tied player's points in the games played against the
      other tied players, a pair that met more than once counting the average of its
      games (6.1, 6.1.2);
    - when every pair of the tied players has met, the separate standings rank them, and
      players they leave tied are ranked by Art. 6 again among themselves (6.2);
    - when not every pair has met, a player alone at the top of the separate standings
      *whatever the outcome of the missing games* (their points exceed what any other
      tied player would have after winning every encounter they did not have) ranks
      first, then the same for second place, and so on; Art. 6 is then applied again to
      the players left (6.3).

    The column is the number of tied players that direct encounter ranks below the
    player (an integer, higher is better): 0 for an untied player and wherever direct
    encounter separates no one. ``method="points"`` is the reading used before: the points
    scored against the other tied players when every pair of them has met, else 0, one
    pass, repeated encounters summed; its column is in points.

    A game won or lost by forfeit is not an encounter (6.1.1: forfeits are excluded unless
    the tournament rules say otherwise; C.07 Art. 16 counts them among the unplayed
    rounds): it neither scores nor completes the group, and in 6.3 it is a missing game.
    ``forfeits=True`` counts them as games against the scheduled opponent
    (TieBreakServer's ``DE/P``; a round robin, where C.07 15.2 treats forfeits as games).
    ``docs/rules-decisions.md``.
    """
    if method not in _DE_METHODS:
        msg = (f"direct_encounter method={method!r} is unknown. Hint: one of "
               f"{', '.join(map(repr, _DE_METHODS))}.")
        raise RulesetError(msg)
    within = _games_within_groups(g, played_only=not forfeits).filter(pl.col("_tie_size") >= 2)
    if method == "points":
        return _direct_encounter_points(g, within, name)
    return _group_int(g, _direct_encounter_order(g, within), "_below", name)


def _direct_encounter_points(g: GroupContext, within: pl.LazyFrame, name: str
                             ) -> pl.LazyFrame:
    """``direct_encounter(method="points")``: points among the tied players where every
    pair of them met, else 0 (column in points, exact twin in point units)."""
    pairs = (within.select(*g.keys, "_tie", PLAYER, OPP, "_tie_size").unique()
             .group_by([*g.keys, "_tie"])
             .agg(pl.len().alias("_pairs"), pl.col("_tie_size").first()))
    complete = pairs.filter(pl.col("_pairs") == pl.col("_tie_size") * (pl.col("_tie_size") - 1))
    pts = (within.join(complete.select(*g.keys, "_tie"), on=[*g.keys, "_tie"], how="semi")
           .group_by(g.pkeys).agg(pl.col("_pts").sum().alias("_de")))
    unit = points_unit(g.rules)
    out = g.table.select(g.pkeys).join(pts, on=g.pkeys, how="left").with_columns(
        pl.col("_de").fill_null(0))
    return out.select(*g.pkeys, (pl.col("_de") / unit).alias(name),
                      pl.col("_de").cast(pl.Int128).alias(exact_name(name)))


def _direct_encounter_order(g: GroupContext, within: pl.LazyFrame) -> pl.LazyFrame:
    """C.07 Art. 6 on every tie group at once: (keys…, player_id, ``_below``), the number
    of players of the player's tie group that direct encounter ranks below them.

    Each tie group is cut into *classes*, runs of players in direct-encounter order; a
    class is named by its tie group and ``_off``, the number of the group's players
    ranked above it. Every pass computes the separate standings of each class of two or
    more players (one join of the pairs that met) and splits it: by points where all its
    pairs met (6.2), else into the players alone at the top whatever the missing games'
    outcome, one class each, and the rest (6.3). Passes repeat until no class splits; each
    pass splits at least one class, so there are fewer passes than players in the largest
    group. Points are exact integers: a pair's average is scaled by the least common
    multiple of the numbers of games pairs played."""
    keys, cc = list(g.keys), [*g.keys, "_tie", "_off"]
    # (no two players tied: direct_encounter returns before, without this plan)
    pairs = (within.group_by([*keys, "_tie", PLAYER, OPP])
             .agg(pl.col("_pts").sum().alias("_ps"), pl.len().alias("_pn"))
             .pipe(collect))
    if _no_encounters(pairs):  # no two tied players met: every class stays whole
        return g.table.filter(pl.col("_tie_size") >= 2).select(
            *g.pkeys, pl.lit(0, dtype=pl.Int64).alias("_below"))
    scales = _encounter_scales(pairs, [*keys, "_tie"], g.rules)
    pairs = (pairs.join(scales, on=[*keys, "_tie"], how="left", nulls_equal=True)
             .select(*keys, "_tie", PLAYER, OPP,
                     (pl.col("_ps").cast(pl.Int128)
                      * (pl.col("_scale") // pl.col("_pn").cast(pl.Int64))).alias("_pv")))
    classes = (g.table.filter(pl.col("_tie_size") >= 2)
               .select(*g.pkeys, "_tie", "_tie_size",
                       pl.lit(0, dtype=pl.Int64).alias("_off"),
                       pl.col("_tie_size").cast(pl.Int64).alias("_n"))
               .pipe(collect)
               # (a group none of whose pairs met wins nothing it could not: any worth)
               .join(scales.select(*keys, "_tie", "_win"), on=[*keys, "_tie"], how="left",
                     nulls_equal=True)
               .with_columns(pl.col("_win").fill_null(0)))
    largest = int(classes["_n"].max() or 0)  # type: ignore[arg-type]
    s, met, n = pl.col("_s"), pl.col("_met"), pl.col("_n")
    for _ in range(largest):
        active = classes.filter(n >= 2)
        if active.is_empty():
            break
        cls = active.select(*g.pkeys, "_tie", "_off")
        scores = (pairs.join(cls, on=[*keys, "_tie", PLAYER])
                  .join(cls.rename({PLAYER: OPP, "_off": "_ooff"}), on=[*keys, "_tie", OPP])
                  .filter(pl.col("_off") == pl.col("_ooff"))
                  .group_by(g.pkeys).agg(pl.col("_pv").sum().alias("_s"),
                                          pl.len().cast(pl.Int64).alias("_met")))
        a = (active.join(scores, on=g.pkeys, how="left")
             .with_columns(s.fill_null(0).cast(pl.Int128), met.fill_null(0))
             .sort([*cc, "_s", PLAYER], descending=[False] * len(cc) + [True, False])
             # 6.3: the most a player could have after winning every encounter they did
             # not have, and the best of that among the players below them
             .with_columns((s + (n - 1 - met).cast(pl.Int128) * pl.col("_win")).alias("_best"),
                           pl.int_range(pl.len(), dtype=pl.Int64).over(cc).alias("_pos"),
                           (met.min().over(cc) == n - 1).alias("_all_met"))
             .with_columns(pl.col("_best").cum_max(reverse=True).shift(-1).over(cc)
                           .alias("_after"))
             # alone at the top: above every player below, and so is everyone above
             .with_columns((pl.col("_after").is_null() | (s > pl.col("_after")))
                           .cast(pl.Int8).cum_min().over(cc).alias("_alone"))
             .with_columns(pl.col("_alone").sum().over(cc).cast(pl.Int64).alias("_lead"),
                           s.rank("min", descending=True).over(cc).cast(pl.Int64)
                           .alias("_place")))
        split = (pl.when(pl.col("_all_met")).then(pl.col("_off") + pl.col("_place") - 1)
                 .when(pl.col("_alone") == 1).then(pl.col("_off") + pl.col("_pos"))
                 .otherwise(pl.col("_off") + pl.col("_lead")))
        a = a.with_columns(split.alias("_new"))
        if (a["_new"] == a["_off"]).all():
            break
        a = (a.select(*g.pkeys, "_tie", "_tie_size", pl.col("_new").alias("_off"), "_win")
             .with_columns(pl.len().over([*keys, "_tie", "_off"]).cast(pl.Int64).alias("_n")))
        classes = pl.concat([classes.filter(n < 2), a.select(classes.columns)],
                            how="vertical_relaxed")
    return classes.lazy().select(*g.pkeys, (pl.col("_tie_size") - pl.col("_off") - n)
                                 .cast(pl.Int64).alias("_below"))


def _encounter_scales(pairs: pl.DataFrame, group: list[str], rules: Ruleset) -> pl.DataFrame:
    """Each tie group's scale of :func:`_direct_encounter_order`'s points: the least
    common multiple of the numbers of games its pairs played (``_scale``, Int64), and a
    win worth at that scale (``_win``, Int128), by ``group``.

    A tie group's points are compared within the group only, so each group has its own
    scale: one scale for every group of the call (every cutoff of ``standings_by_round``,
    every event) was the multiple of 1, 2, …, 50 for two players who met in each of 50
    rounds — past 2⁶², a refusal of a table whose standings alone were computed (bad data
    201). The multiples are computed once per distinct set of game counts."""
    sets = (pairs.group_by(group).agg(pl.col("_pn").unique().sort().alias("_pns"))
            .with_columns(pl.col("_pns").cast(pl.List(pl.String)).list.join(",")
                          .alias("_set")))
    distinct = sets["_set"].unique().to_list()
    lcms = [lcm_of(int(v) for v in text.split(",")) for text in distinct]
    worth = Fraction(rules.points_win) * points_unit(rules)
    big = [m for m in lcms if m > 2**62 or (worth * m).denominator != 1]
    if big:
        first = sets.filter(pl.col("_set") == distinct[lcms.index(big[0])]).row(0, named=True)
        where = ", ".join(f"{k} {quoted(first[k])}" for k in group if k != "_tie")
        msg = (f"direct encounter: the pairs of tied players of {where} met "
               f"{big[0]:,} times in the least common multiple; their averages cannot be "
               "held exactly. Hint: check the table for a pair listed again in every round.")
        raise DataError(msg)
    table = pl.DataFrame({"_set": distinct, "_scale": lcms,
                          "_win": [int(worth * m) for m in lcms]},
                         schema={"_set": pl.String, "_scale": pl.Int64, "_win": pl.Int128})
    return sets.join(table, on="_set").select(*group, "_scale", "_win")


def _no_encounters(pairs: pl.DataFrame) -> bool:
    """Whether no two tied players met (``_direct_encounter_order``'s pairs are empty):
    then the passes split no class and direct encounter ranks no one below anyone, so
    they are not run (tested equal to running them)."""
    return pairs.is_empty()


_P61 = 2**61 - 1


def _mix(frame: pl.LazyFrame, column: str) -> pl.LazyFrame:
    """A deterministic integer hash of ``column`` in plain Int128 arithmetic
    (version-stable), one step per ``with_columns``: each step reads the value twice, so
    one nested expression would double the work at every step (a small input's queries
    run without common-subexpression elimination)."""
    for step in _mix_steps(column):
        frame = frame.with_columns(step)
    return frame


@functools.lru_cache(maxsize=8)
def _mix_steps(column: str) -> tuple[pl.Expr, ...]:
    """:func:`_mix`'s steps on ``column``, built once (they depend on the name alone)."""
    x = pl.col(column)
    return tuple(step for a, b in ((0x5BD1E9955BD1E995 % _P61, 0x2545F491),
                                   (0x9E3779B97F4A7C15 % _P61, 1442695))
                 for step in (((x * a + b) % _P61).alias(column),
                              ((x + (x // 2**29) * 7919) % _P61).alias(column)))


@register_group_tiebreaker("random", ties=False, keys_only=True, reads=(), lot=True)
def random_key(g: GroupContext, *, name: str = "random", seed: int = 0) -> pl.LazyFrame:
    """A reproducible random order: a seeded hash of the player's position (by id) in the
    event (Pokémon TRH §5.5.1.1 "random"; FaB "random"). The same ids and seed always give
    the same order, whatever the row order."""
    start, columns = _random_exprs(tuple(g.keys), name, seed)
    return _mix(g.table.select(*g.pkeys, start), "_h").select(*g.pkeys, *columns)


@functools.lru_cache(maxsize=32)
def _random_exprs(keys: tuple[str, ...], name: str, seed: int
                  ) -> tuple[pl.Expr, tuple[pl.Expr, pl.Expr]]:
    """:func:`random_key`'s seeded start and its two output columns, built once per keys,
    name and seed."""
    pos = per_group(pl.col(PLAYER).rank("dense"), keys).cast(pl.Int128)
    key = pl.col("_h")
    return ((pos * 1_000_003 + (seed % _P61) * 7 + 12345).alias("_h"),
            ((key % 2**52).cast(pl.Int64).alias(name), key.alias(exact_name(name))))


@register_group_tiebreaker("last_opponent_rank")
def last_opponent_rank(g: GroupContext, *, name: str = "last_opponent_rank") -> pl.LazyFrame:
    """Standing of the player's last-round opponent by the criteria before this one (lower
    is better; SEED-F2, the older Pokémon order). Null after a bye (ranked last)."""
    last = (g.rows.group_by(g.pkeys)
            .agg(pl.col(OPP).sort_by("round").last().alias(OPP)))
    prelim = g.table.select(*g.keys, pl.col(PLAYER).alias(OPP), pl.col("_prelim").alias("_r"))
    frame = last.join(prelim, on=[*g.keys, OPP], how="left")
    return _group_int(g, frame, "_r", name, default=None)
