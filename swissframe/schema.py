"""The results-table contract, validation at the boundary, and match ↔ long conversions.

The long results table has one row per player per round (a played match is two mirrored
rows; an unpaired round — a bye or an unopposed loss — is one row with a null opponent):

============== ======== ==========================================================
column         dtype    meaning
============== ======== ==========================================================
event_id       String   event key (filled with ``"event"`` when absent on input)
round          Int64    Swiss round number, ≥ 1
player_id      String   the player
opponent_id    String   the opponent; null = unpaired round (bye or unopposed loss)
games_won      Int64    games won by this player (≥ 0)
games_lost     Int64    games lost by this player (≥ 0)
games_drawn    Int64    drawn (or unfinished) games; an intentional draw is 0-0-3
phase          String   ``"swiss"`` (default) or ``"playoff"``; playoff rows never
                        count in Swiss standings
============== ======== ==========================================================

Optional columns that analyses and importers add (kept when present):

- ``stage`` (String): a sub-phase label such as ``"day1"`` / ``"day2"``: one a round
  (of an event and phase; ``stage_mismatch`` otherwise), kept by :func:`to_matches`.
- ``color`` (String): ``"w"`` / ``"b"`` for chess.
- ``unplayed`` (String): why a round was not played over the board (chess, FIDE C.07
  Art. 16): one of :data:`UNPLAYED_KINDS`; null for a played game. The two seats of a
  match agree: ``forfeit_win`` against ``forfeit_loss``, or null on both
  (``forfeit_mismatch`` otherwise).
- ``double_loss`` (Boolean): True on both seats of a match that both players lost (an
  unresolved Star Wars: Unlimited / One Piece match, TOM outcome 10, a double match loss).
  The match is a loss for each seat whatever its games (0 points each). Each seat's games
  are its own (a game both lost counts as lost on both seats, so the pair need not
  mirror: TOM writes ``0-1-0`` twice) and count in GW% under the game's own rules. Both
  seats must carry the flag (``double_loss_mismatch`` otherwise); a 0-1 / 0-1 pair
  without it stays a ``mirror_mismatch``.
- ``disqualified`` (Boolean): the player was disqualified (MTG IPG §1.1, Pokémon TRH
  §5.7.3). A player is disqualified in an event (``event_id`` plus any analysis keys)
  from the first Swiss round whose row carries the flag: the flag need be on one row only
  (any row; later rows may carry it or not, it is the same). The player's results stay
  in the table and count for their opponents as a dropped player's do; the standings
  give them no rank and list them after every ranked player of their event. The match
  form writes it per seat, ``disqualified_a`` / ``disqualified_b``.

Any other column is passed through, except one whose name starts with ``_``: that prefix
is swissframe's own (codes, sums, weights), so such a column is dropped at the boundary with
a warning that names it (an analysis key of that name is kept: it is declared).

Rows the contract refuses (each a kind of :func:`find_problems`, named with event, round and
player): a null required cell, an empty id (``""``: an empty cell of a match-form table
would otherwise become a phantom player), a round below 1, a negative game count, a phase
other than ``swiss``/``playoff``, an unknown ``unplayed`` or ``color`` code, a self-pairing,
a game count above :data:`MAX_GAMES`, a duplicate seat, a missing or contradictory mirror,
the two seats of one match in different phases, the rows of one round in different
stages, and an unpaired row scored as a draw
with games (1-1-1, 0-0-3: an unpaired round is a bye — more games won — or an unopposed
loss; ``unplayed="half_bye"`` makes it a draw; an unpaired 0-0-0 is an unreported round,
counted as a draw as CardsRealm publishes it, and ``validate`` reports it as
``zero_games``).

Everything downstream of :func:`validate_results` trusts its input.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import functools
import itertools
import operator
import os
import re
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Final

import polars as pl

from swissframe._batches import in_batches, runs_of
from swissframe._collect import (
    choose,
    collect,
    collect_all,
    concurrently,
    on_the_pool,
    parallel,
    scoped,
    select,
    sequential,
    with_columns,
)
from swissframe._display import count, count_expr, quoted
from swissframe.errors import (
    DataError,
    DataWarning,
    SchemaError,
    ValidationError,
    check_game_triples,
    check_id,
    check_names,
)

if TYPE_CHECKING:
    from polars._typing import PolarsDataType

__all__ = [
    "COLORS",
    "FIND_PROBLEMS_SCHEMA",
    "ID_COLUMNS",
    "INT_COLUMNS",
    "MAX_GAMES",
    "MAX_LISTED_PROBLEMS",
    "OPTIONAL_COLUMNS",
    "REQUIRED_COLUMNS",
    "RESULT_COLUMNS",
    "UNPLAYED_KINDS",
    "UNPLAYED_WORDS",
    "VOCABULARY",
    "find_problems",
    "from_matches",
    "repair_mirrors",
    "to_matches",
    "validate_results",
]

EVENT_ID: Final = "event_id"
ROUND: Final = "round"
PLAYER_ID: Final = "player_id"
OPPONENT_ID: Final = "opponent_id"
GAMES_WON: Final = "games_won"
GAMES_LOST: Final = "games_lost"
GAMES_DRAWN: Final = "games_drawn"
PHASE: Final = "phase"
#: The optional sub-phase column (Day 1, Day 2, the playoff): one value a round.
STAGE: Final = "stage"

#: Required columns of the canonical long table and their dtypes (after normalisation).
RESULT_COLUMNS: Final[Mapping[str, pl.DataType]] = {
    EVENT_ID: pl.String(),
    ROUND: pl.Int64(),
    PLAYER_ID: pl.String(),
    OPPONENT_ID: pl.String(),
    GAMES_WON: pl.Int64(),
    GAMES_LOST: pl.Int64(),
    GAMES_DRAWN: pl.Int64(),
    PHASE: pl.String(),
}

#: Optional columns with a documented meaning; any other extra column is passed through
#: (except names that start with :data:`RESERVED_PREFIX`: see :func:`_without_reserved`).
OPTIONAL_COLUMNS: Final[Mapping[str, pl.DataType]] = {
    "stage": pl.String(),
    "color": pl.String(),
    "unplayed": pl.String(),
}

#: The flag column of a disqualified player (:data:`FLAG_COLUMNS`; see the module's
#: docstring).
DISQUALIFIED: Final = "disqualified"

#: Optional flag columns (Boolean; null reads as False).
FLAG_COLUMNS: Final[Mapping[str, pl.DataType]] = {"double_loss": pl.Boolean(),
                                                  DISQUALIFIED: pl.Boolean()}

#: Kinds of unplayed round (FIDE C.07 Art. 16 vocabulary), values of the ``unplayed`` column.
UNPLAYED_KINDS: Final = (
    "forfeit_win",
    "forfeit_loss",
    "pairing_bye",
    "full_bye",
    "half_bye",
    "zero_bye",
    "absent",
)
#: How each ``unplayed`` kind is told (FIDE C.07 Art. 16's classes, TRF-16's codes): the
#: result words of a chess round not played over the board (``explain``).
UNPLAYED_WORDS: Final[Mapping[str, str]] = MappingProxyType({
    "forfeit_win": "forfeit win", "forfeit_loss": "forfeit loss",
    "pairing_bye": "pairing-allocated bye", "full_bye": "full-point bye",
    "half_bye": "half-point bye", "zero_bye": "zero-point bye", "absent": "absent"})

#: The ``unplayed`` kinds of a forfeited match, one on each seat (the two seats agree:
#: ``forfeit_mismatch``); read by the contract's checks and the chess criteria.
FORFEITS: Final = ("forfeit_win", "forfeit_loss")

#: Most games one row may record: every sum and exact scale of a record then stays inside
#: Int64 / the exact fallback (a match of more games is not a result; issue 16 class 2).
MAX_GAMES: Final = 2**31 - 1

#: Colours of the ``color`` column (chess: white, black).
COLORS: Final = ("w", "b")

#: The closed vocabularies of the optional text columns.
VOCABULARY: Final[Mapping[str, tuple[str, ...]]] = {"unplayed": UNPLAYED_KINDS,
                                                    "color": COLORS}

PHASES: Final = ("swiss", "playoff")

#: How many offending rows an error message lists (the exception carries all of them).
MAX_LISTED_PROBLEMS: Final = 10

#: Columns of :func:`find_problems` (and of ``ValidationError.problems``).
FIND_PROBLEMS_SCHEMA: Final = {
    "kind": pl.String,
    EVENT_ID: pl.String,
    ROUND: pl.Int64,
    PLAYER_ID: pl.String,
    OPPONENT_ID: pl.String,
    "detail": pl.String,
}

#: The empty problems table; callers get ``.clear()`` of it, a new frame (a caller may
#: extend it in place) for about 1 µs instead of 70 µs for building one from the schema.
_NO_PROBLEMS: Final = pl.DataFrame(schema=FIND_PROBLEMS_SCHEMA)

#: Integer columns of the contract.
INT_COLUMNS: Final = (ROUND, GAMES_WON, GAMES_LOST, GAMES_DRAWN)
#: Id columns of the contract.
ID_COLUMNS: Final = (EVENT_ID, PLAYER_ID, OPPONENT_ID)
#: Columns a results table must have (event_id and phase are filled when absent).
REQUIRED_COLUMNS: Final = (ROUND, PLAYER_ID, OPPONENT_ID, GAMES_WON, GAMES_LOST, GAMES_DRAWN)
_STR_COLUMNS: Final = (*ID_COLUMNS, PHASE)


def string_like(dtype: PolarsDataType) -> bool:
    """Whether ``dtype`` is the contract's text: String, Categorical, Enum, or Null (a
    column with no value)."""
    return dtype in (pl.String, pl.Categorical, pl.Null) or isinstance(dtype, pl.Enum)


def is_id_type(dtype: PolarsDataType) -> bool:
    """Whether a column of ``dtype`` is read as ids (``event_id``, ``player_id``,
    ``opponent_id``) where swissframe reads ids it did not write: text (String,
    Categorical, Enum), or whole numbers (a platform's numbered events, a TRF's start
    numbers saved and read back), read as their digits. A float (``1.0`` would be the id
    ``"1.0"``, and ``1.5`` another event), a decimal, a date or time, a Boolean, a list or
    an object is not: the one rule (class 135) of ``sf.read``'s Parquet files,
    ``recompute``'s, a match table's seats, pairings, a report's ``names`` table and an
    analysis's output given back (:data:`OUTPUT_KINDS`); ``sf.read`` accepted a float,
    date or Boolean ``event_id`` that ``recompute`` refused. A column with no value
    (Null) is no id type: each caller says what it makes of one. The engine's own
    contract stays text (:func:`validate_results`: a table given in memory is cast by
    its caller).

    >>> is_id_type(pl.Int64), is_id_type(pl.Categorical), is_id_type(pl.Float64)
    (True, True, False)
    >>> is_id_type(pl.Date), is_id_type(pl.Boolean), is_id_type(pl.Null)
    (False, False, False)
    """
    return dtype != pl.Null and (string_like(dtype) or dtype.is_integer())


def holds_non_ids(dtype: PolarsDataType) -> bool:
    """Whether a column of ``dtype`` holds values that are no ids (:func:`is_id_type`): what
    every reader of ids it did not write refuses. A column of nulls only (Null) holds no
    value at all and is not refused here: each caller reads it as missing ids.

    >>> holds_non_ids(pl.Float64), holds_non_ids(pl.Int64), holds_non_ids(pl.Null)
    (True, False, False)
    """
    return dtype != pl.Null and not is_id_type(dtype)


def ids_as_text(df: pl.DataFrame) -> pl.DataFrame:
    """``df`` with its whole-number id columns (:func:`is_id_type`) as text, the one
    reading of such ids (``"7"``), before the engine's contract reads them."""
    ints = [c for c in ID_COLUMNS if c in df.columns and df.schema[c].is_integer()]
    return df.with_columns(pl.col(ints).cast(pl.String)) if ints else df


def has_text_form(dtype: PolarsDataType) -> bool:
    """Whether Polars casts every value of ``dtype`` to text: text itself, numbers,
    decimals, Booleans, dates and times — not a Duration, a List, an Array, a Struct, an
    Object, or Binary (bytes that need not be UTF-8: such a cast fails on the first that
    is not). The one test before a column is read as text — a whole-number or flag cell
    (:func:`whole_numbers`, :func:`flag_values`), a match form's players, a file's
    ``event_id``, ``validate``'s text columns —, whose cast was Polars' bare error
    ("casting from Duration('μs') to String not supported", "invalid utf8").

    >>> has_text_form(pl.Date), has_text_form(pl.Duration), has_text_form(pl.List(pl.Int64))
    (True, False, False)
    """
    return (string_like(dtype) or dtype.is_numeric() or dtype == pl.Boolean
            or (dtype.is_temporal() and dtype != pl.Duration))


def swiss_part(results: pl.DataFrame) -> pl.DataFrame:
    """The Swiss rows of a results table: its rows of phase ``"swiss"``, or every row of a
    table with no ``phase`` column (the contract's default phase). The one reading of it
    by the analyses, commands and pages that take a table as given (the engine's, of a
    validated table: ``engine._record.swiss_rows``).

    >>> swiss_part(pl.DataFrame({"round": [1, 2], "phase": ["swiss", "playoff"]})).height
    1
    >>> swiss_part(pl.DataFrame({"round": [1, 2]})).height
    2
    """
    return results.filter(pl.col(PHASE) == "swiss") if PHASE in results.columns else results


def by_event(results: pl.DataFrame) -> tuple[pl.DataFrame, dict[str, tuple[int, int]]]:
    """``results`` with each event's rows together (the events in the order of their first
    rows, each event's rows in theirs) and each event's (offset, length) in it: one sort,
    so that a loop over the events reads each one's rows as a slice. A filter of the whole
    table per event is quadratic in the events (a season's pages, ``cut``'s text: 100,000
    events took 44 ms a filter; bad data 262).

    >>> df = pl.DataFrame({"event_id": ["b", "a", "b"], "round": [1, 1, 2]})
    >>> together, spans = by_event(df)
    >>> spans, together.slice(*spans["b"])["round"].to_list()
    ({'b': (0, 2), 'a': (2, 1)}, [1, 2])
    """
    together = (results.with_row_index("_row")
                .sort(pl.col("_row").min().over(EVENT_ID), maintain_order=True).drop("_row"))
    counts = together.group_by(EVENT_ID, maintain_order=True).len()
    lengths = counts["len"].to_list()
    return together, {str(e): (o, n) for e, o, n in zip(
        counts[EVENT_ID].to_list(), itertools.accumulate(lengths, initial=0), lengths,
        strict=False)}


def default_event(value: object) -> pl.Expr:
    """The ``event_id`` column of a table without one: ``default_event_id``, text (a
    number was cast to its digits, None made every row's event null, each row then a
    problem of its own: bad data 248), or a :class:`~swissframe.errors.DataError`.

    >>> pl.select(default_event("club")).item()
    'club'
    """
    text = check_id("default_event_id", value,
                    hint="e.g. default_event_id='event' (the event of a table without an "
                         "event_id column)")
    return pl.lit(text, dtype=pl.String).alias(EVENT_ID)


def _normalise(lf: pl.LazyFrame, *, default_event_id: str) -> pl.LazyFrame:
    """Check column presence and castability, fill optional defaults, cast to the contract."""
    schema = lf.collect_schema()
    missing = [c for c in REQUIRED_COLUMNS if c not in schema]
    if missing:
        msg = (
            f"results table is missing required column(s) {missing}; found {list(schema)}. "
            "Hint: a one-row-per-match table goes through sf.from_matches(...) first."
        )
        raise SchemaError(msg)
    _, misnamed = misnamed_optional(list(schema))
    if misnamed:  # (looked for before event_id and phase are filled in)
        raise SchemaError(misnamed)
    bad: list[str] = []
    hints: dict[str, str] = {}  # (one hint per kind of column mistyped, in this order)
    for c in INT_COLUMNS:
        dt = schema[c]
        if not (dt.is_integer() or dt == pl.Null):
            bad.append(f"{c} is {dt}, expected an integer type")
            hints["int"] = "rounds and game counts to integers"
    for c in (*_STR_COLUMNS, *OPTIONAL_COLUMNS):
        if c in schema and not string_like(schema[c]):
            bad.append(f"{c} is {schema[c]}, expected a string type")
            hints["str"] = "ids and labels with pl.col(...).cast(pl.String)"
    for c in FLAG_COLUMNS:
        if c in schema and schema[c] not in (pl.Boolean, pl.Null):
            bad.append(f"{c} is {schema[c]}, expected Boolean")
            hints["flag"] = f"{c} to Boolean (pl.col({c!r}).cast(pl.Boolean))"
    if bad:
        msg = ("results table has mistyped column(s): " + "; ".join(bad) + ". Hint: cast "
               + " and ".join(hints.values()) + "; a file read by sf.read gets these types "
               "(a cell like 3.0, or yes/no for a flag, is read there).")
        raise SchemaError(msg)
    exprs: list[pl.Expr] = []
    if EVENT_ID not in schema:
        exprs.append(default_event(default_event_id))
    if PHASE not in schema:
        exprs.append(pl.lit("swiss", dtype=pl.String).alias(PHASE))
    lf = lf.with_columns(exprs) if exprs else lf
    casts = [pl.col(c).cast(dt) for c, dt in RESULT_COLUMNS.items()]
    casts += [pl.col(c).cast(dt) for c, dt in OPTIONAL_COLUMNS.items() if c in schema]
    casts += [pl.col(c).cast(dt).fill_null(value=False) for c, dt in FLAG_COLUMNS.items()
              if c in schema]
    return lf.with_columns(casts)


def _problem(kind: str, frame: pl.LazyFrame, detail: pl.Expr) -> pl.LazyFrame:
    return frame.select(
        pl.lit(kind).alias("kind"),
        pl.col(EVENT_ID),
        pl.col(ROUND),
        pl.col(PLAYER_ID),
        pl.col(OPPONENT_ID),
        detail.cast(pl.String).alias("detail"),
    )


@scoped
def find_problems(results: pl.LazyFrame | pl.DataFrame, *, default_event_id: str = "event",
                  keys: Sequence[str] = ()) -> pl.DataFrame:
    """List every row that breaks the results-table contract, grouped by kind.

    Unlike :func:`validate_results`, this never raises for row-level problems: it returns
    one row per problem with columns ``kind, event_id, round, player_id, opponent_id,
    detail``. Schema problems (missing or mistyped columns) still raise
    :class:`~swissframe.errors.SchemaError`, because no row can be read without them.

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> bad = pl.DataFrame({"round": [1, 1], "player_id": ["a", "b"],
    ...     "opponent_id": ["b", "a"], "games_won": [2, 2], "games_lost": [1, 1],
    ...     "games_drawn": [0, 0]})
    >>> sf.find_problems(bad).select("kind", "player_id", "detail")
    shape: (2, 3)
    ┌─────────────────┬───────────┬─────────────────────────────────┐
    │ kind            ┆ player_id ┆ detail                          │
    │ ---             ┆ ---       ┆ ---                             │
    │ str             ┆ str       ┆ str                             │
    ╞═════════════════╪═══════════╪═════════════════════════════════╡
    │ mirror_mismatch ┆ a         ┆ a reports 2-1-0, b reports 2-1… │
    │ mirror_mismatch ┆ b         ┆ b reports 2-1-0, a reports 2-1… │
    └─────────────────┴───────────┴─────────────────────────────────┘
    """
    def clean(part: pl.LazyFrame | pl.DataFrame) -> pl.DataFrame:
        found = _problems_and_frame(part, default_event_id=default_event_id, keys=keys)[0]
        if found.height:  # the whole table lists them: its row numbers, in one order
            raise _HasProblems
        return found

    # a very large valid table in batches of events, as validate_results: each batch finds
    # nothing, and nothing is what the table holds
    if not keys:
        results, out = batched(results, clean, default_event_id=default_event_id)
        if out is not None:
            return out
    return _problems_and_frame(results, default_event_id=default_event_id, keys=keys)[0]


class _HasProblems(Exception):  # noqa: N818 - a signal to in_batches, never raised out
    """A batch of :func:`find_problems` found some (the whole table then lists them)."""


def _problems_and_frame(results: pl.LazyFrame | pl.DataFrame, *, default_event_id: str,
                        keys: Sequence[str]) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The problems table and the normalised input, materialised once (see ``_checked``)."""
    problems, df, _ = _checked(results, default_event_id=default_event_id, keys=keys)
    return problems, df


@dataclass(frozen=True)
class IdCodes:
    """Integer codes of the ids of a validated frame, row for row (``_checked``).

    ``codes`` has ``_e`` (index of the row's event_id in ``events``), ``_p`` and ``_o``
    (index of player_id / opponent_id in ``players``; ``_o`` null for an unpaired row), all
    Int64. ``events`` and ``players`` are sorted, so codes order as the ids do: sorts and
    joins on codes give what they give on the strings, and each string is hashed once.

    ``rounds`` and ``games``: the lowest and highest round number and game count of the
    rows, as the checks found them (bounds that also hold for a subset of the rows), or
    None when not known.

    ``seats``: the rows' seats in (event, player, round) order, as the duplicate-seat
    check sorted them (:class:`SeatOrder`), where the checks kept them (a large table of
    Swiss rows without a null cell); the engine's record reads each player's rows from it
    instead of a group-by. None otherwise, and on a subset of the rows.

    ``swiss``: every row is a Swiss row (no null cell, no other phase), as the checks
    counted them, so that the engine keeps every row without comparing each row's phase;
    False when not known.
    """

    codes: pl.DataFrame
    events: pl.Series
    players: pl.Series
    rounds: tuple[int, int] | None = None
    games: tuple[int, int] | None = None
    seats: SeatOrder | None = None
    swiss: bool = False

    @property
    def player_bits(self) -> int:
        """Bits of a player code (``_e * 2**player_bits + _p`` is one (event, player) key)."""
        return code_bits(self.players.len())

    @property
    def event_bits(self) -> int:
        """Bits of an event code."""
        return code_bits(self.events.len())


@dataclass(frozen=True)
class SeatOrder:
    """Every row's seat as one Int64, sorted: ``((event · 2**player_bits + player) ·
    2**round_bits + round − lowest round) · 2**index_bits + row index`` (codes of
    :class:`IdCodes`). Sorted, a player's rows are consecutive, in round order, and the
    low bits say where each row is in the table: the sort validation's duplicate-seat
    check needs anyway (:func:`_coded_keyed_checks`), shared with the engine's record
    (:func:`~swissframe.engine._record.seat_record`)."""

    keys: pl.Series
    round_bits: int
    index_bits: int
    first_round: int


def code_bits(n: int) -> int:
    """Bits of a code into a dictionary of ``n`` ids (the one width of every packed id
    code: validation's, standings' and by round's running sums')."""
    return max(n, 1).bit_length()


def _codes_frame(e: pl.Series, p: pl.Series, o: pl.Series) -> pl.DataFrame:
    return pl.DataFrame([e.alias("_e"), p.alias("_p"), o.alias("_o")])


def _id_codes(df: pl.DataFrame) -> IdCodes | None:
    """``IdCodes`` of a normalised frame (ids are strings there); None when empty.

    (What ``_checked`` computes within its own queries, more cheaply; the tests'
    reference.)"""
    if df.height == 0:
        return None
    found = df.select(*_dictionary_exprs(runs=False, opponents=True))
    events, players = _dictionary(found, EVENT_ID), _dictionary(found, PLAYER_ID)
    codes = df.select(*_code_exprs(events, players, sorted_events=False))
    return IdCodes(codes=codes, events=events, players=players)


def _dictionary_exprs(*, runs: bool, opponents: bool) -> tuple[pl.Expr, pl.Expr]:
    """The distinct event ids and player ids (with the opponents' ids when
    ``opponents``), each as one list, for :func:`_dictionary` to sort; with ``runs``, the
    event ids of each run of rows instead (:func:`_event_dictionary`).

    An event column without nulls gives its runs' ids (``runs``): in an archive grouped by
    event, sorted, they are the dictionary, found without hashing every id, and their
    order says the column is sorted, which would be a pass of its own. (Sorting inside the
    query would hand it to Polars' thread pool, whose threads a small input's call would
    wake for this alone.)"""
    events = (pl.col(EVENT_ID).rle().struct.field("value") if runs
              else pl.col(EVENT_ID).unique().drop_nulls())
    # (in first-seen order: one hash pass, where the unordered unique hands the work to
    # the pool; 1.9M ids of 160: 42 -> 38 ms CPU. _dictionary sorts them)
    players = pl.col(PLAYER_ID).unique(maintain_order=True)
    if opponents:
        players = players.append(pl.col(OPPONENT_ID).unique(maintain_order=True)).unique(
            maintain_order=True)
    return (events.implode().alias(EVENT_ID), players.drop_nulls().implode().alias(PLAYER_ID))


def _dictionary(found: pl.DataFrame, column: str) -> pl.Series:
    """The dictionary of ``column`` from a query of :func:`_dictionary_exprs`, sorted (on
    the calling thread for a small input: :func:`~swissframe._collect.sequential`)."""
    return _sorted(found.get_column(column)[0].alias(column))


def _sorted(ids: pl.Series) -> pl.Series:
    """``ids`` sorted, on the calling thread for a small input
    (:func:`~swissframe._collect.sequential`)."""
    out: pl.Series = ids.sort(multithreaded=not sequential())
    return out


def _event_dictionary(found: pl.DataFrame) -> tuple[pl.Series, bool]:
    """The events' dictionary from the ids of the runs of an event column without nulls
    (:func:`_dictionary_exprs` with ``runs``), and whether the column is sorted: it is when
    each run's id is greater than the one before, and its runs' ids are then the
    dictionary (else they are made distinct and sorted)."""
    ids: pl.Series = found.get_column(EVENT_ID)[0].alias(EVENT_ID)
    if bool(_increasing(ids).all()):
        return ids, True
    return _sorted(ids.unique(maintain_order=True)), False


def _code_exprs(events: pl.Series, players: pl.Series, *, sorted_events: bool,
                slots: _Slots | None = None, null_players: bool = True) -> list[pl.Expr]:
    """``_e, _p, _o``: each id's index in its sorted dictionary (null for a null id, and
    for an opponent id missing from ``players``). A sorted event column without nulls is
    coded by its runs. ``players`` holds every player id (and maybe opponent ids).

    The player and opponent ids are coded by one expression over both columns: building a
    cast to an Enum converts its categories to Polars' own (hashing every one), and each
    ``cast`` builds it again — 285 ms for 810k players named apart in each event, against
    175 ms for the cast itself. With ``slots`` (:func:`_slot_table` of ``players``) they
    are read from its table instead (``null_players``: whether a player id may be null)."""
    def code(*cols: str, enum: pl.Enum) -> pl.Expr:
        return pl.col(*cols).cast(enum, strict=False).to_physical().cast(pl.Int64)

    e = (pl.col(EVENT_ID).rle_id().cast(pl.Int64) if sorted_events
         else code(EVENT_ID, enum=pl.Enum(events)))
    if slots is not None:
        return [e.alias("_e"), _slot_code(slots, PLAYER_ID, nulls=null_players).alias("_p"),
                _slot_code(slots, OPPONENT_ID, players=players).alias("_o")]
    names = {PLAYER_ID: "_p", OPPONENT_ID: "_o"}
    return [e.alias("_e"), code(PLAYER_ID, OPPONENT_ID, enum=pl.Enum(players))
            .name.map(names.__getitem__)]


#: From this many rows a valid table's sorted seats are kept for the engine's record
#: (:class:`SeatOrder`): it reads each player's rows from them instead of a group-by.
_SEAT_ORDER_MIN_ROWS: Final = 100_000

#: From this many rows a small player dictionary codes the ids through a slot table
#: (:func:`_slot_table`) rather than an Enum cast: 3.7M rows of 160 players, both columns
#: 171 -> 70 ms CPU (the cast looks every id up in a hash map of the categories).
_SLOTS_MIN_ROWS: Final = 100_000

#: The largest slot table (:func:`_slot_table`): 2**20 Int64 slots, 8 MiB.
_SLOT_BITS: Final = 20

#: Hash seeds :func:`_slot_table` tries per table size.
_SLOT_SEEDS: Final = 4


@dataclass(frozen=True)
class _Slots:
    """A table of ``size`` slots where the slot ``hash(seed) % size`` of each id of a
    dictionary holds the id's index in it (and every other slot null)."""

    seed: int
    size: int
    table: pl.Series


def _slot_table(players: pl.Series) -> _Slots | None:
    """The smallest :class:`_Slots` of ``players`` (distinct, no null) in which no two
    ids share a slot (from four times as many slots as ids up to 2**:data:`_SLOT_BITS`,
    a few seeds each), or None (a large dictionary: 810k ids would need a table of about
    their square).

    Exact: equal strings hash alike, so an id of the dictionary finds its own slot; an id
    outside it may find another's, which the opponents' codes check (:func:`_slot_code`)."""
    n = players.len()
    # (n ids fall on n distinct slots of m with a chance of about exp(-n²/2m): below n²/4
    # slots nearly never, so the tries start there, and a dictionary past 2,048 ids, whose
    # n²/4 passes 2**20, gets none — the corpus's 20k-id events tried 28 tables in vain)
    first = max((4 * n).bit_length(), (n * n // 4).bit_length())
    for bits in range(first, _SLOT_BITS + 1):
        for seed in range(_SLOT_SEEDS):
            slot = players.hash(seed) % 2**bits
            if slot.n_unique() == n:
                table = pl.repeat(None, 2**bits, dtype=pl.Int64, eager=True).scatter(
                    slot, pl.int_range(n, dtype=pl.Int64, eager=True))
                return _Slots(seed=seed, size=2**bits, table=table)
    return None


def _slot_code(slots: _Slots, column: str, *, nulls: bool = True,
               players: pl.Series | None = None) -> pl.Expr:
    """The codes of ``column`` from ``slots``' table; with ``players`` (the dictionary)
    checked: null where the id is not the dictionary's id of its code (an opponent who is
    nobody's player, or null), as the Enum cast gives. ``nulls``: whether ``column`` may
    be null (its codes are then null there)."""
    code = pl.lit(slots.table).gather(pl.col(column).hash(slots.seed) % slots.size)
    if players is not None:
        return pl.when(pl.lit(players).gather(code) == pl.col(column)).then(code)
    return pl.when(pl.col(column).is_not_null()).then(code) if nulls else code


def codes_of_rows(codes: IdCodes, keep: pl.Series) -> IdCodes | None:
    """The ``IdCodes`` of the rows ``keep`` selects, equal to ``_id_codes`` of those rows
    of the frame, from the integer codes alone (no string is hashed again): the ids
    still present keep their order, so their new codes are their ranks among the old."""
    kept = codes.codes.filter(keep)
    if kept.height == 0:
        return None
    e, p, o = kept["_e"], kept["_p"], kept["_o"]
    ev = e.unique().drop_nulls().sort()
    pl_ = pl.concat([p, o]).unique().drop_nulls().sort()
    frame = _codes_frame(ev.search_sorted(e).cast(pl.Int64).set(e.is_null(), None),
                         pl_.search_sorted(p).cast(pl.Int64).set(p.is_null(), None),
                         pl_.search_sorted(o).cast(pl.Int64).set(o.is_null(), None))
    return IdCodes(codes=frame, events=codes.events.gather(ev),
                   players=codes.players.gather(pl_), rounds=codes.rounds, games=codes.games,
                   swiss=codes.swiss)


def _bounds(low: object, high: object) -> tuple[int, int] | None:
    """``(low, high)`` of a column the checks measured, None when not known (no row)."""
    return (low, high) if isinstance(low, int) and isinstance(high, int) else None


# --------------------------------------------------------------------------- the checks

#: Cells that may not be null (a null phase would make the engine skip the row).
_NOT_NULL: Final = (EVENT_ID, ROUND, PLAYER_ID, GAMES_WON, GAMES_LOST, GAMES_DRAWN, PHASE)
#: The game-count columns, in their record order (won, lost, drawn).
GAME_COLUMNS: Final = (GAMES_WON, GAMES_LOST, GAMES_DRAWN)
#: A row with a null required cell: only ``null_value`` is reported for it.
_NULL_ANY: Final = pl.any_horizontal(pl.col(c).is_null() for c in _NOT_NULL)
_OK: Final = ~_NULL_ANY


def _text(*parts: str | pl.Expr) -> pl.Expr:
    """``parts`` joined as text, null when one is null (as ``pl.format`` gives).

    ``concat_str``, not ``pl.format``: Polars 2.1's ``str.format`` panics on the streaming
    engine over a filtered frame of several chunks (an index assertion in ``binview``)."""
    return pl.concat_str([pl.lit(p) if isinstance(p, str) else p for p in parts])


def _record(won: str, lost: str, drawn: str) -> pl.Expr:
    return _text(pl.col(won).cast(pl.String), "-", pl.col(lost).cast(pl.String), "-",
                 pl.col(drawn).cast(pl.String))


_REC: Final = _record(GAMES_WON, GAMES_LOST, GAMES_DRAWN)


@dataclass(frozen=True)
class _Rule:
    """A row-level rule of the contract: ``rows`` selects the rows (of the whole table) that
    break it, ``detail`` says why, for one such row. ``coded_rows``: the part of ``rows``
    the coded checks' first query looks for (:func:`_fact_exprs`), the rest being found on
    the id dictionary it gathers (:func:`blank_ids`); None: all of ``rows``."""

    kind: str
    rows: pl.Expr
    detail: pl.Expr
    coded_rows: pl.Expr | None = None


#: Unicode's White_Space characters (what Polars' ``strip_chars()`` strips, Rust's
#: ``char::is_whitespace``), spelled out so that Python's ``str.strip`` strips the same
#: (its own default also strips the separators U+001C–U+001F).
WHITE_SPACE: Final = ("\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004"
                      "\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")
#: A dictionary of at most this many ids is looked at in Python (:func:`blank_ids`): a
#: query costs more than a small event's few dozen ids.
_BLANK_IN_PYTHON: Final = 4096


def blank(column: pl.Expr) -> pl.Expr:
    """An id that is empty or whitespace only (spaces, a tab, a no-break or an ideographic
    space: :data:`WHITE_SPACE`): no player — a cell of blanks became a player ranked in
    the standings."""
    return column.str.strip_chars(WHITE_SPACE) == ""


def blank_ids(ids: pl.Series) -> bool:
    """Whether a dictionary of ids holds an empty or blank one (:func:`blank`): what the
    ``empty_id`` rule finds in the id columns, read on their distinct ids instead of on
    every row (stripping 3.7M ids costs 80 ms; a small event's ids are looked at without
    a query).

    Examples
    --------
    >>> blank_ids(pl.Series(["a", "b"])), blank_ids(pl.Series(["a", "\u3000 "]))
    (False, True)
    """
    if ids.len() <= _BLANK_IN_PYTHON:
        return any(not i.strip(WHITE_SPACE) for i in ids.to_list() if i is not None)
    return bool(ids.str.strip_chars(WHITE_SPACE).eq("").any())


#: Column of ``_checked``'s frames with nulls: no required cell is null in this row.
_OK_COLUMN: Final = "_ok"
#: A row's position in the table, counted from 1 (what the ``null_value`` rule names, as
#: :func:`unread_cells` does).
_ROW_COLUMN: Final = "_row"


#: The row rules that bound a column's values, each bound written once: kind -> (columns,
#: the least value allowed, the largest; None: no bound). A row breaks one where a value
#: lies outside (:func:`_outside`). The coded checks decide whether a complete row does
#: from the complete rows' ranges, which they measure anyway (:func:`_range_facts`),
#: instead of a pass of their own (:func:`_range_breaks`).
_BOUNDS: Final[dict[str, tuple[tuple[str, ...], int | None, int | None]]] = {
    "round_below_1": ((ROUND,), 1, None),
    "negative_games": (GAME_COLUMNS, 0, None),
    "too_many_games": (GAME_COLUMNS, None, MAX_GAMES),
}


def _range_facts(columns: Sequence[str], rows: Callable[[str], pl.Expr]) -> list[pl.Expr]:
    """The facts (:func:`_fact_exprs`) holding the least and largest value of each of
    ``columns`` over ``rows(column)`` (one aggregate a column: a horizontal minimum of
    the aggregates would hand the query to Polars' thread pool, see ``_fact_exprs``)."""
    return [e for c in columns for e in (rows(c).min().alias(f"_lo:{c}"),
                                         rows(c).max().alias(f"_hi:{c}"))]


def _fact_range(facts: pl.DataFrame, columns: Sequence[str]) -> tuple[int | None, int | None]:
    """The complete rows' least and largest value over ``columns`` (:func:`_range_facts`;
    None where no complete row)."""
    lows = [v for c in columns if (v := facts.item(0, f"_lo:{c}")) is not None]
    highs = [v for c in columns if (v := facts.item(0, f"_hi:{c}")) is not None]
    return (min(lows) if lows else None), (max(highs) if highs else None)


def _outside(kind: str) -> pl.Expr:
    """The rows with a value outside the bound ``kind`` (:data:`_BOUNDS`)."""
    columns, least, largest = _BOUNDS[kind]
    out = [*(pl.col(c) < least for c in columns if least is not None),
           *(pl.col(c) > largest for c in columns if largest is not None)]
    return out[0] if len(out) == 1 else pl.any_horizontal(out)


def _range_breaks(kind: str, facts: pl.DataFrame) -> bool:
    """Whether the complete rows' range (``facts``) breaks the bound ``kind``: the least
    value below the least allowed or the largest above the largest (no complete row:
    no)."""
    columns, least, largest = _BOUNDS[kind]
    lo, hi = _fact_range(facts, columns)
    return ((least is not None and lo is not None and lo < least)
            or (largest is not None and hi is not None and hi > largest))


@functools.cache
def _row_rules(vocabulary: tuple[str, ...], nulls: bool) -> tuple[_Rule, ...]:
    """The row-level rules, for a table with the optional text columns ``vocabulary`` (the
    expressions are built once per column set: building them costs more than checking a
    small event). Every rule but ``null_value`` reads only rows whose required cells are
    set: with ``nulls``, the rules read the ``_ok`` column (computed once, not once per
    rule), else every row is complete."""
    ok = pl.col(_OK_COLUMN) if nulls else pl.lit(value=True)

    def complete(rows: pl.Expr) -> pl.Expr:
        # (without nulls every row is complete: no `true &` node to compute on every row,
        # as a small input's queries run without expression simplification)
        return ok & rows if nulls else rows

    # a row whose event, round or player is null is named by its position in the table
    # (nothing else says where it is); the others by those cells, as every problem is
    unnamed = pl.any_horizontal(pl.col(c).is_null() for c in (EVENT_ID, ROUND, PLAYER_ID))
    where = pl.when(unnamed).then(_text("row ", pl.col(_ROW_COLUMN).cast(pl.String),
                                        ": ")).otherwise(pl.lit(""))
    rules = [_Rule("null_value", ~ok, _text(where, "null in ", pl.concat_list(
        [pl.when(pl.col(c).is_null()).then(pl.lit(c)) for c in _NOT_NULL]
    ).list.drop_nulls().list.join(", ")))]
    rules.append(_Rule("round_below_1", complete(_outside("round_below_1")),
                       _text("round ", pl.col(ROUND), " (rounds start at 1)")))
    rules.append(_Rule("negative_games", complete(_outside("negative_games")),
                       _text("record ", _REC)))
    # (comparisons, not is_in / any_horizontal: those hand a small query to the pool)
    not_a_phase = functools.reduce(operator.and_, (pl.col(PHASE) != p for p in PHASES))
    rules.append(_Rule("bad_phase", complete(not_a_phase),
                       _text("phase '", pl.col(PHASE).fill_null("null"),
                             "' (expected 'swiss' or 'playoff')")))
    rules.append(_Rule("self_pairing", complete(pl.col(PLAYER_ID) == pl.col(OPPONENT_ID)),
                       pl.lit("paired with themself")))
    players = (PLAYER_ID, OPPONENT_ID)  # (an empty event id is only an odd name)
    empty = functools.reduce(operator.or_, (pl.col(c) == "" for c in players)).fill_null(False)
    blanks = functools.reduce(operator.or_, (blank(pl.col(c)) for c in players)
                              ).fill_null(False)
    # (the coded checks look for "" on every row, and for blanks on the ids' dictionary)
    rules.append(_Rule("empty_id", complete(blanks), _text("empty ", pl.concat_list(
        [pl.when(blank(pl.col(c))).then(pl.lit(c)) for c in players]
    ).list.drop_nulls().list.join(", "), " (an empty or blank cell is not a player)"),
        coded_rows=complete(empty)))
    rules.append(_Rule(
        "too_many_games", complete(_outside("too_many_games")),
        _text("game counts ", pl.col(GAMES_WON), "-", pl.col(GAMES_LOST), "-",
              pl.col(GAMES_DRAWN), f" are outside 0..{MAX_GAMES} (games of one match)")))
    for col in vocabulary:
        vocab = VOCABULARY[col]
        bad = pl.col(col).is_not_null() & ~pl.col(col).is_in(vocab)
        rules.append(_Rule("bad_value", complete(bad),
                           _text(f"{col} '", pl.col(col), f"' is not one of {', '.join(vocab)}")))
    not_half_bye = (~(pl.col("unplayed") == "half_bye").fill_null(False)
                    if "unplayed" in vocabulary else None)
    # (an unpaired 0-0-0 is an unreported round, counted as a draw as some platforms do and
    # reported by validate as zero_games; a drawn score with games is a draw with nobody)
    games = pl.col(GAMES_WON) + pl.col(GAMES_LOST) + pl.col(GAMES_DRAWN)
    draw_with_nobody = (pl.col(OPPONENT_ID).is_null() & (games > 0)
                        & (pl.col(GAMES_WON) == pl.col(GAMES_LOST)))
    if not_half_bye is not None:
        draw_with_nobody = draw_with_nobody & not_half_bye
    rules.append(_Rule("unpaired_draw", complete(draw_with_nobody),
                       _text("unpaired round scored ", pl.col(GAMES_WON), "-",
                             pl.col(GAMES_LOST), "-", pl.col(GAMES_DRAWN),
                             ", a draw with nobody")))
    return tuple(rules)


#: The row rules the coded checks decide on the ids' codes and dictionary instead of on
#: every row, where no required cell is null (every row is then complete): a row paired
#: with itself is one whose player and opponent codes are equal (both columns are coded
#: by one dictionary, one code an id), and an empty or blank id is one of the ids'
#: dictionary (:func:`blank_ids`), which holds every id of both columns once they are
#: coded (an opponent id that is nobody's player id is coded with both columns'
#: dictionary: :func:`_coded_keyed_checks`). Two string comparisons a row saved:
#: 1.9M rows, ≈ 19 -> 1.5 ms CPU (``benchmarks/README.md``, twenty-fifth session).
_FROM_CODES: Final = ("self_pairing", "empty_id")


def _from_codes(kind: str, coded: bool, nulls: bool) -> bool:
    """Whether the row rule ``kind`` is decided on the codes (:data:`_FROM_CODES`)."""
    return coded and not nulls and kind in _FROM_CODES


@functools.cache
def _fact_exprs(vocabulary: tuple[str, ...], nulls: bool, flags: bool, coded: bool,
                runs: bool, *, events: bool = True) -> tuple[pl.Expr, ...]:
    """One query's expressions for what ``_checked`` needs to know before checking: whether
    each row rule finds a row (``_f0`` …; not those decided on the codes:
    :data:`_FROM_CODES`), which phases occur, double losses, and for the
    coded checks the number of complete rows, their round and game-count ranges and the
    id dictionaries (over a frame with the ``_ok`` column when there are ``nulls``). The
    players' dictionary is of the player column only: an opponent id outside it is found
    by the coding (``_coded_keyed_checks``), and hashing the opponent column is saved.
    ``events=False``: no events' dictionary (a batch whose runs of events are known:
    :func:`~swissframe._batches.runs_of`)."""
    out = [(r.coded_rows if coded and r.coded_rows is not None else r.rows).any()
           .alias(f"_f{i}") for i, r in enumerate(_row_rules(vocabulary, nulls))
           if (nulls or r.kind != "null_value") and not (coded and r.kind in _BOUNDS)
           and (nulls or r.kind != "bad_phase") and not _from_codes(r.kind, coded, nulls)]
    if nulls:
        out += [(pl.col(PHASE) == "playoff").any().alias("_playoff"),
                (pl.col(PHASE) == "swiss").any().alias("_swiss")]
    else:  # (two comparisons, not four: bad_phase and both phases told by _phase_facts)
        out += [(pl.col(PHASE) == p).sum().alias(f"_n_{p}") for p in PHASES]
    if flags:
        out.append(pl.col("double_loss").any().alias("_dl"))
    if "unplayed" in vocabulary:
        out.append(_PAIRED_FORFEIT.any().alias("_ff"))
    if coded:
        ok = pl.col(_OK_COLUMN)

        def complete(c: str) -> pl.Expr:
            return pl.col(c).filter(ok) if nulls else pl.col(c)

        found = _dictionary_exprs(runs=runs, opponents=False)
        out += [(ok.sum() if nulls else pl.len()).alias("_n_ok"),
                *_range_facts((ROUND, *GAME_COLUMNS), complete),
                *(found if events else found[1:])]
    return tuple(out)


def _phase_facts(facts: pl.DataFrame, height: int, *, nulls: bool) -> tuple[bool, bool, bool]:
    """Whether a row has a phase other than :data:`PHASES` (with ``nulls``, False: the
    rule's own fact says), and whether each of the two phases occurs, from ``facts``
    (:func:`_fact_exprs` of a table of ``height`` rows). Without a null cell the facts
    count each phase's rows: two comparisons a row where the three facts' own expressions
    cost four (≈ 8 ms CPU on 3.7M rows)."""
    if nulls:
        return False, bool(facts.item(0, "_playoff")), bool(facts.item(0, "_swiss"))
    n = {p: int(facts.item(0, f"_n_{p}")) for p in PHASES}
    return sum(n.values()) < height, n["playoff"] > 0, n["swiss"] > 0


def _is_normal(df: pl.DataFrame) -> bool:
    """Whether ``_normalise`` would leave ``df`` as it is (every contract column present
    with its dtype, no null flag, no optional column misnamed — which ``_normalise``
    refuses: :func:`misnamed_optional`): then no query is needed to normalise it."""
    # (the names and dtypes as a dict: ``df.schema`` builds a checked Schema, 10 of the
    # 28 µs this took on a small frame; the names' verdict is cached per column tuple)
    columns = df.columns
    schema = dict(zip(columns, df.dtypes, strict=True))
    return (all(schema.get(c) == dt for c, dt in RESULT_COLUMNS.items())
            and all(schema[c] == dt for c, dt in OPTIONAL_COLUMNS.items() if c in schema)
            and all(schema[c] == dt and df.get_column(c).null_count() == 0
                    for c, dt in FLAG_COLUMNS.items() if c in schema)
            and _named_exactly(tuple(columns)))


@functools.lru_cache(maxsize=64)
def _named_exactly(columns: tuple[str, ...]) -> bool:
    """No column misnamed (:func:`misnamed_optional`) among ``columns``, cached: a table's
    names repeat from call to call."""
    return not misnamed_optional(columns)[0]


#: A table whose chunks hold this many rows on average is taken in its chunks; one of
#: smaller chunks is made one chunk first. Copying a Parquet read's 15 chunks of 250k rows
#: into one cost 53-112 ms of a 1.1 s ``standings`` call (10,000 events) and bought nothing:
#: the queries run the same on either. Many small chunks (a frame concatenated a match at a
#: time) slow every query instead: ``standings`` of one 64-player event in 218 one-row
#: chunks took 5.4-6.1 ms in them, 4.2 ms made one chunk first (``benchmarks/README.md``,
#: tenth session).
MIN_CHUNK_ROWS: Final = 65_536


def _one_chunk_if_small(df: pl.DataFrame) -> pl.DataFrame:
    """``df`` as it is, or as one chunk when its chunks are small on average
    (:data:`MIN_CHUNK_ROWS`; columns may be chunked differently: the most chunked counts).

    Its chunks are otherwise kept: the checks and the engine compute the same on any
    chunking (``tests/test_invariance.py`` draws aligned and misaligned chunks), and a
    panic of Polars' streaming engine on one is retried in memory (``_collect``)."""
    chunks = max(df.n_chunks("all"), default=1)
    return df.rechunk() if chunks > 1 and df.height < chunks * MIN_CHUNK_ROWS else df


def _materialised(results: pl.LazyFrame | pl.DataFrame, *, default_event_id: str
                  ) -> pl.DataFrame:
    """The input normalised to the contract (in its chunks unless they are small:
    :func:`_one_chunk_if_small`)."""
    if isinstance(results, pl.DataFrame) and _is_normal(results):
        return _one_chunk_if_small(results)
    try:
        plan = _normalise(as_lazy(results), default_event_id=default_event_id)
        out = plan.pipe(collect)
    except (pl.exceptions.PolarsError, pl.exceptions.PanicException) as exc:
        if isinstance(results, pl.LazyFrame):  # (its own plan may fail, in any way)
            raise _unevaluable(exc, "results table",
                               read=" and read as the contract's types") from exc
        if not isinstance(exc, (pl.exceptions.InvalidOperationError,
                                pl.exceptions.ComputeError)):
            raise
        msg = (f"results table cannot be read as the contract's types: {_first_line(exc)}. "
               f"Hint: {_CONTRACT_TYPES}.")
        raise SchemaError(msg) from exc
    if isinstance(results, pl.LazyFrame):
        _rows_as_declared(plan, out)
    return _one_chunk_if_small(out)


def _rows_as_declared(plan: pl.LazyFrame, rows: pl.DataFrame) -> None:
    """A :class:`SchemaError` when a LazyFrame's rows are not of the types its plan
    declares (a ``map_batches(..., schema=...)`` whose function returns other types, a
    scan told a schema its file does not have): the boundary checked the declared types
    and cast to them, the optimiser dropped the casts as no-ops, and numbers went on as
    ids (a bare Polars ``SchemaError`` from a join deeper in, or another error)."""
    declared, held = plan.collect_schema(), rows.schema  # (each read once: 20,000 columns)
    wrong = [f"{c} is declared {t} but holds {held[c]}" for c, t in declared.items()
             if c in held and held[c] != t]
    if wrong:
        msg = (f"the results table (a LazyFrame) declares types its rows do not have: "
               f"{'; '.join(wrong)}. Hint: fix the schema its plan declares "
               "(lf.collect_schema() against lf.collect().schema), or pass lf.collect().")
        raise SchemaError(msg)


#: What the contract's types ask of a table's cells (the hint of a table that cannot be
#: read as them).
_CONTRACT_TYPES: Final = "game counts must be whole numbers that fit in 64 bits, ids strings"


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _unevaluable(exc: BaseException, what: str, *, read: str = "") -> SchemaError:
    """The error of a LazyFrame given as the ``what`` whose plan fails to run (a column it
    names is missing, a strict cast fails, a name given twice …) or, ``read``, whose rows
    cannot be read as that: the call's one line naming it, instead of Polars' error and
    its plan (every entry point reads its tables through :func:`as_frame` or the
    boundary, :func:`_materialised`)."""
    if isinstance(exc, pl.exceptions.PanicException):  # (its first line: a schema dump)
        msg = (f"the {what} (a LazyFrame) cannot be evaluated{read}: Polars panicked "
               "running its plan, whose declared schema does not match its rows (a "
               "map_batches(..., schema=...) returning other columns?). Hint: compare "
               "lf.collect_schema() with lf.collect().schema, or pass lf.collect().")
        return SchemaError(msg)
    msg = (f"the {what} (a LazyFrame) cannot be evaluated{read}: {type(exc).__name__}: "
           f"{_first_line(exc)}. Hint: run lf.collect() to see the step that fails"
           + (f"; {_CONTRACT_TYPES}." if read else "."))
    return SchemaError(msg)


#: The prefix of swissframe's own column names (codes, keys, sums, weights …).
RESERVED_PREFIX: Final = "_"


def _near(columns: Sequence[str], wanted: Sequence[str]) -> dict[str, str]:
    """The columns that differ from a ``wanted`` name only by spaces around it or by case
    (``" round"``, ``"Player_ID"``), each with that name."""
    want = {w.lower(): w for w in wanted}
    return {c: want[c.strip().lower()] for c in columns
            if c not in wanted and c.strip().lower() in want}


def near_names(columns: Sequence[str], wanted: Sequence[str]) -> str:
    """A hint naming the columns that differ from a ``wanted`` name only by spaces
    around it or by case (:func:`_near`), or ``""``: names are exact, and the spaces after
    a header's commas usually sit in its cells too."""
    near = _near(columns, wanted)
    if not near:
        return ""
    pairs = ", ".join(f"{c!r} → {w!r}" for c, w in near.items())
    spaced = any(c != c.strip() for c in near)
    return (f"column names are exact: rename {pairs}"
            + (" (a header written with spaces after its commas has them in its cells too: "
               "remove them there as well)." if spaced else "."))


def misnamed_optional(columns: Sequence[str]) -> tuple[list[str], str]:
    """The columns named like a column of the contract but for case or spaces, and the
    message that refuses them (``""`` when none): an optional one (``Phase``,
    ``Double_Loss``, `` event_id ``) whose exact name is absent — passed through as an extra
    column, its rows would be read with the default (every row Swiss, no double loss, one
    event) without a word —, or any one beside the exact name (``Games_Won`` beside
    ``games_won``, ``Round`` beside ``round``: the second was ignored without a word, and
    which of the two is meant is not known). The boundary, a file's reader (naming the
    file) and ``validate`` (a ``schema`` problem) refuse them."""
    optional = [c for c in (EVENT_ID, PHASE, *OPTIONAL_COLUMNS, *FLAG_COLUMNS)
                if c not in columns]
    found = list(_near(columns, optional))
    present = [c for c in (*RESULT_COLUMNS, *OPTIONAL_COLUMNS, *FLAG_COLUMNS) if c in columns]
    twice = _near(columns, present)
    if not found and not twice:
        return [], ""
    said = []
    if found:
        said.append("a column is named like one swissframe reads, but not exactly, so it "
                    "would be ignored and its rows read with the default")
    if twice:
        pairs = ", ".join(f"{c!r} beside {w!r}" for c, w in twice.items())
        said.append(f"a column is named twice but for case or spaces ({pairs}): only the "
                    "exact name would be read, and which of the two is meant is not known")
    hint = (near_names(columns, optional) if found
            else "drop or rename one of the two (column names are exact).")
    return [*found, *twice], f"{'; '.join(said)}. Hint: {hint}"


def _without_reserved(df: pl.DataFrame, keys: Sequence[str]) -> pl.DataFrame:
    """``df`` without the input columns named like swissframe's own (``_e``, ``_through``,
    ``_w`` …: :data:`RESERVED_PREFIX`), which the checks and the engine would take for
    theirs — a duplicate column, or a user's values read as a cutoff or a weight. Dropped
    with a warning that names them (an analysis key of that name stays: it is declared)."""
    reserved = [c for c in df.columns if c.startswith(RESERVED_PREFIX) and c not in keys]
    if not reserved:
        return df
    example = reserved[0].lstrip(RESERVED_PREFIX) or "x"
    msg = (f"column(s) {reserved} of the results table are ignored: names starting with "
           f"{RESERVED_PREFIX!r} are swissframe's own. Hint: rename them to keep them, e.g. "
           f"df.rename({{{reserved[0]!r}: {example!r}}}).")
    warnings.warn(msg, UserWarning, stacklevel=4)
    return df.drop(reserved)


def _checked(results: pl.LazyFrame | pl.DataFrame, *, default_event_id: str,
             keys: Sequence[str], coded: bool = True
             ) -> tuple[pl.DataFrame, pl.DataFrame, IdCodes | None]:
    """The problems table, the normalised input, and its id codes (None with ``keys``).

    The usual valid table costs two queries after normalising: one select that tells
    which row rules find a row (and gathers the id dictionaries and value ranges), and one
    that computes the id codes with two Int64 keys, sorted after it, from which duplicate
    seats and unpaired mirrors are decided by comparing neighbours with Series kernels
    (``_coded_keyed_checks``). The
    rows of a rule are selected, and described, only when the first query says it has
    some; the keyed checks describe their problems with group-bys and joins only when the
    sorted keys say there are some.

    ``coded=False`` is the straightforward path, the tests' reference: every rule is
    filtered, duplicate seats counted by a group-by and mirrors joined on the id columns
    (as categoricals). It is also the path for extra ``keys``, or keys too wide for 62 bits.
    """
    keys = key_columns(keys)
    df = _without_reserved(_materialised(results, default_event_id=default_event_id), keys)
    _check_keys(df.schema, keys)
    choose(df.height)  # the rest of this call's queries run on the engine for its size
    ev = [EVENT_ID, *keys]  # an event is identified by event_id plus any analysis keys
    unkeyed = [k for k in keys if k in df.columns and df.get_column(k).null_count()]
    if unkeyed:  # a row of no scenario: which rows it pairs with is undefined, so only this
        rows = df.lazy().filter(pl.any_horizontal(pl.col(k).is_null() for k in unkeyed))
        null_keys = _problem("null_value", rows, _text("null in key column ", pl.concat_list(
            [pl.when(pl.col(k).is_null()).then(pl.lit(k)) for k in unkeyed]
        ).list.drop_nulls().list.join(", "), " (the keys say which analysis a row is of)"))
        return null_keys.pipe(collect).cast(FIND_PROBLEMS_SCHEMA), df, None  # type: ignore[arg-type]
    vocabulary = tuple(c for c in VOCABULARY if c in df.columns)
    # (a column's null count is known without a query)
    nulls = any(df.get_column(c).null_count() for c in _NOT_NULL)
    rules = _row_rules(vocabulary, nulls)
    lf = df.lazy().with_columns(_OK.alias(_OK_COLUMN)) if nulls else df.lazy()
    has_flag = "double_loss" in df.columns
    want_codes = coded and not keys and df.height > 0
    pending: list[pl.LazyFrame] = []

    def add(kind: str, frame: pl.LazyFrame, detail: pl.Expr) -> None:
        pending.append(_problem(kind, frame, detail))

    facts = pl.DataFrame()
    # the events' runs: their ids are the dictionary of an event column grouped by event
    # and sorted, and say whether it is (see _dictionary_exprs)
    runs = want_codes and not df.get_column(EVENT_ID).null_count()
    # (a batch of a table sorted by event: its runs found when it was cut from the table)
    known = runs_of(df) if runs else None
    if coded:
        facts = select(lf, *_fact_exprs(vocabulary, nulls, has_flag, want_codes, runs,
                                        events=known is None)).pipe(collect, pooled=False)
        bad_phase, playoff, swiss = _phase_facts(facts, df.height, nulls=nulls)
        found = [nulls] + [
            _range_breaks(rule.kind, facts) if want_codes and rule.kind in _BOUNDS
            else bad_phase if rule.kind == "bad_phase" and not nulls
            else False if _from_codes(rule.kind, want_codes, nulls)  # (after the codes)
            else bool(facts.item(0, f"_f{i}")) for i, rule in enumerate(rules) if i]
        # (facts.item(0, name): a cell without a Series, ≈ 3 -> 0.5 µs each, ~20 a call)
        both_phases = playoff and swiss
        double_loss = has_flag and bool(facts.item(0, "_dl"))
        forfeits = "unplayed" in vocabulary and bool(facts.item(0, "_ff"))
    else:  # the reference: every rule filters the table
        found = [True] * len(rules)
        both_phases = bool((df[PHASE] == "playoff").any() and (df[PHASE] == "swiss").any())
        double_loss = has_flag and bool(df["double_loss"].any())
        forfeits = "unplayed" in vocabulary and bool(df.select(_PAIRED_FORFEIT.any()).item())
    for rule, hit in zip(rules, found, strict=True):
        if hit:
            rows = (lf.with_row_index(_ROW_COLUMN, offset=1) if rule.kind == "null_value"
                    else lf)
            add(rule.kind, rows.filter(rule.rows), rule.detail)
    lf_ok = df.lazy().filter(_OK) if nulls else df.lazy()
    codes, checked, paired_up = None, False, False
    if want_codes:
        # (the seats sorted in the engine's order, kept for it: rows of one phase, Swiss)
        swiss_only = not nulls and swiss and not playoff and not bad_phase
        ordered = swiss_only and df.height >= _SEAT_ORDER_MIN_ROWS
        codes, checked, paired_up = _coded_keyed_checks(
            df, facts, add, has_null=nulls, both_phases=both_phases, runs=runs,
            ordered=ordered, known=known, swiss=swiss_only)
        # the rest of a rule the first query looked for in part (blank ids), or all of
        # it (_FROM_CODES), read on the ids' dictionary: the player ids', with the
        # opponents' where one is nobody's; a player paired with themself on the codes
        for i, (rule, hit) in enumerate(zip(rules, found, strict=True)):
            if hit or codes is None:
                continue
            if rule.kind == "self_pairing" and _from_codes(rule.kind, want_codes, nulls):
                found[i] = _self_paired(codes)
            elif rule.coded_rows is not None:
                found[i] = blank_ids(codes.players)
            if found[i]:
                add(rule.kind, lf.filter(rule.rows), rule.detail)
    flagged = {rule.kind for rule, hit in zip(rules, found, strict=True) if hit}
    if not checked:
        _categorical_keyed_checks(lf_ok, ev, add)
    # every paired row paired up with its mirror in the same phase: no phase mismatch
    # (a double-loss row is not in that pairing, a self-pairing is its own mirror)
    if both_phases and not (paired_up and not double_loss and "self_pairing" not in flagged):
        _phase_checks(lf_ok, ev, add)
    if double_loss:
        _double_loss_checks(lf_ok, ev, add)
    if forfeits:
        _forfeit_checks(lf_ok, ev, add)
    if STAGE in df.columns and not (codes is not None and not nulls
                                    and _stages_one_a_round(df, codes)):
        _stage_checks(lf_ok, ev, add)
    # the checks that found something, in one parallel collection (one plan each)
    checks = [c for c in collect_all(pending) if c.height] if pending else []
    if not checks:  # (a new frame each time: a caller may extend it in place)
        return _NO_PROBLEMS.clear(), df, codes
    out = (pl.concat([c.cast(FIND_PROBLEMS_SCHEMA) for c in checks], how="vertical")  # type: ignore[arg-type]
           # (opponent and detail last: rows alike up to the player come from joins whose
           # output order is not fixed, and the table must not depend on it)
           .sort("kind", EVENT_ID, ROUND, PLAYER_ID, OPPONENT_ID, "detail", nulls_last=True,
                 maintain_order=True))
    return out, df, codes


def _self_paired(codes: IdCodes) -> bool:
    """Whether a row's opponent is its player (:data:`_FROM_CODES`: equal codes)."""
    frame = codes.codes
    return bool((frame.get_column("_p") == frame.get_column("_o")).any())


def _holds_objects(dtype: PolarsDataType) -> bool:
    """Whether ``dtype`` is, or nests, Polars' ``Object`` (Python objects: no row encoding,
    so no group-by, join or sort on it)."""
    if dtype == pl.Object:
        return True
    if isinstance(dtype, (pl.List, pl.Array)):
        return _holds_objects(dtype.inner)
    if isinstance(dtype, pl.Struct):
        return any(_holds_objects(f.dtype) for f in dtype.fields)
    return False


def _check_keys(schema: pl.Schema, keys: Sequence[str]) -> None:
    """A :class:`SchemaError` naming an analysis key column the table lacks, or one of
    Python objects (:func:`_check_key_types`)."""
    missing = [k for k in keys if k != EVENT_ID and k not in schema]
    if missing:  # (find_problems and validate_results ended in Polars' ColumnNotFoundError)
        msg = f"key column(s) {missing} not in the results table. Hint: add them or drop keys=."
        raise SchemaError(msg)
    _check_key_types(schema, keys)


def _check_key_types(schema: pl.Schema, keys: Sequence[str]) -> None:
    """A :class:`SchemaError` naming an analysis key column of Python objects: every
    analysis groups and joins on its keys, and such a column made Polars panic ("Unsupported
    in row encoding", a Rust backtrace) in ``standings``, ``standings_by_round``,
    ``explain`` and ``find_problems``."""
    bad = [k for k in keys if k in schema and _holds_objects(schema[k])]
    if bad:
        msg = (f"key column {bad[0]!r} is {schema[bad[0]]}: Python objects cannot be grouped "
               "by. Hint: cast the key to text or numbers, e.g. "
               f"pl.col({bad[0]!r}).map_elements(str, return_dtype=pl.String).")
        raise SchemaError(msg)


_Add = Callable[[str, pl.LazyFrame, pl.Expr], None]


def _phase_checks(lf_ok: pl.LazyFrame, ev: list[str], add: _Add) -> None:
    """``phase_mismatch``: the two seats of one match in different phases would count for
    one side only (a match is one within its event and analysis keys ``ev``)."""
    paired = lf_ok.filter(pl.col(OPPONENT_ID).is_not_null())
    seats = [*ev, ROUND, PLAYER_ID, OPPONENT_ID]
    mirror = {PLAYER_ID: OPPONENT_ID, OPPONENT_ID: PLAYER_ID}
    playoff = paired.filter(pl.col(PHASE) == "playoff")
    swiss_mirrors = paired.filter(pl.col(PHASE) == "swiss").select(seats).rename(mirror)
    po_bad = playoff.join(swiss_mirrors, on=seats, how="semi")
    sw_bad = paired.filter(pl.col(PHASE) == "swiss").join(
        playoff.select(seats).rename(mirror), on=seats, how="semi")
    add("phase_mismatch", pl.concat([po_bad, sw_bad]),
        _text(pl.col(PLAYER_ID), " reports this match as ", pl.col(PHASE), ", ",
              pl.col(OPPONENT_ID), " as the other phase"))


def _stages_one_a_round(df: pl.DataFrame, codes: IdCodes) -> bool:
    """Whether each round of each event and phase of ``df`` (no null cell; ``codes`` its
    id codes, row for row) holds one stage: :func:`_stage_checks` on the event codes, a
    group-by of integers (≈ 20 ms on the decklist cache's 606k rows, where the strings'
    took 70); no query where the column holds one value (all null: a one-stage
    simulation's)."""
    stage = df.get_column(STAGE)
    if stage.n_unique() == 1:  # (a Series kernel; null is a value of its own here)
        return True
    frame = pl.DataFrame([codes.codes.get_column("_e"), df.get_column(ROUND),
                          df.get_column(PHASE) == "playoff", stage])
    keys = frame.columns[:3]
    return not (frame.lazy().group_by(keys).agg(_k=pl.col(STAGE).n_unique())
                .select((pl.col("_k") > 1).any()).pipe(collect).item())


def _stage_checks(lf_ok: pl.LazyFrame, ev: list[str], add: _Add) -> None:
    """``stage_mismatch``: the rows of one round of an event (and phase) hold more than one
    ``stage``. A round is of one stage (Day 1, Day 2, the playoff), and the ``"stage"``
    snapshot takes each player at the end of their stage, the last round any row of it
    names: one row of round 9 marked Day 1 would move every Day 1 player's values to
    round 9. The round's stage is the one most of its rows hold (ties: the first in text
    order, a missing stage last); each other row is named."""
    by = [*ev, ROUND, PHASE]
    # (a group-by and a semi-join: a window's n_unique over 606k decklist rows cost 2-3x)
    rounds = lf_ok.group_by(by).agg(_k=pl.col(STAGE).n_unique()).filter(pl.col("_k") > 1)
    mixed = lf_ok.join(rounds.select(by), on=by, how="semi", nulls_equal=True)
    main = (mixed.group_by([*by, STAGE]).agg(_n=pl.len())
            .sort([*by, "_n", STAGE], descending=[*(False for _ in by), True, False],
                  nulls_last=True)
            .group_by(by, maintain_order=True)
            .agg(pl.col(STAGE).first().alias("_main"), pl.col("_n").first().alias("_main_n")))
    bad = mixed.join(main, on=by, nulls_equal=True).filter(
        pl.col(STAGE).ne_missing(pl.col("_main")))

    def shown(col: str) -> pl.Expr:
        return _text("stage '", pl.col(col), "'").fill_null("no stage")

    add("stage_mismatch", bad,
        _text(shown(STAGE), " in a round whose ", count_expr(pl.col("_main_n"), "other row"),
              pl.when(pl.col("_main_n") == 1).then(pl.lit(" has ")).otherwise(pl.lit(" have ")),
              shown("_main")))


def _describe_duplicates(offending: pl.LazyFrame, ev: list[str], add: _Add) -> None:
    """``duplicate_seat`` problems from the rows of the seats taken more than once."""
    # (groups in order of appearance: with extra keys, two can share event, round, player)
    dup = (offending.group_by([*ev, ROUND, PLAYER_ID], maintain_order=True)
           .agg(pl.len().alias("_n"), pl.col(OPPONENT_ID).fill_null("(none)").unique().sort()
                .str.join(", ").alias("_opps"))
           .with_columns(pl.lit(None, dtype=pl.String).alias(OPPONENT_ID)))
    add("duplicate_seat", dup,
        _text(pl.col("_n"), " rows for this player in this round (opponents: ",
              pl.col("_opps"), ")"))


def _describe_mirrors(bad: pl.DataFrame, lf_ok: pl.LazyFrame, ev: list[str], add: _Add) -> None:
    """Mirror problems from the paired rows whose mirror is missing (``_m_won`` null) or
    disagrees."""
    bad = bad.rechunk()  # (a join's output comes in pieces; see _text)
    no_mirror = bad.lazy().filter(pl.col("_m_won").is_null())
    players = lf_ok.select(*ev, pl.col(PLAYER_ID).alias(OPPONENT_ID)).unique()
    add("unknown_opponent", no_mirror.join(players, on=[*ev, OPPONENT_ID], how="anti"),
        _text("opponent ", pl.col(OPPONENT_ID), " never appears as a player in event ",
              pl.col(EVENT_ID)))
    add("missing_mirror", no_mirror.join(players, on=[*ev, OPPONENT_ID], how="semi"),
        _text(pl.col(PLAYER_ID), " reports ", _REC, " against ", pl.col(OPPONENT_ID), ", but ",
              pl.col(OPPONENT_ID), " has no row against ", pl.col(PLAYER_ID), " in round ",
              pl.col(ROUND)))
    add("mirror_mismatch", bad.lazy().filter(pl.col("_m_won").is_not_null()),
        _text(pl.col(PLAYER_ID), " reports ", _REC, ", ", pl.col(OPPONENT_ID), " reports ",
              _record("_m_won", "_m_lost", "_m_drawn")))


#: What a mirror problem says of a row: a row twice (a duplicate seat) is one problem,
#: whatever columns outside the contract tell the copies apart.
_MIRROR_RECORD: Final = (EVENT_ID, ROUND, PLAYER_ID, OPPONENT_ID, GAMES_WON, GAMES_LOST,
                         GAMES_DRAWN, "_m_won", "_m_lost", "_m_drawn")

_DISAGREES: Final = ((pl.col("_m_won") != pl.col(GAMES_LOST))
                     | (pl.col("_m_lost") != pl.col(GAMES_WON))
                     | (pl.col("_m_drawn") != pl.col(GAMES_DRAWN)))


def _coded_keyed_checks(df: pl.DataFrame, facts: pl.DataFrame, add: _Add, *,
                        has_null: bool, both_phases: bool, runs: bool, ordered: bool = False,
                        known: pl.DataFrame | None = None, swiss: bool = False
                        ) -> tuple[IdCodes, bool, bool]:
    """The id codes, and duplicate seats and mirrors checked on Int64 keys built from them.

    A seat is ``(event, round, player)`` packed into one integer, a match ``(event, round,
    lower id, higher id)`` with its record: both are exact (a bijection of the id tuples),
    so the checks find what the same steps on the id columns find. One query computes the
    codes, every complete row's seat key and every paired row's match key
    (``_pairing_key``); sorted, equal neighbours among the seats are duplicate seats, and
    the match keys must come in pairs (``_pairs_up``). Returns ``(codes, checked,
    paired_up)``: checked False (the caller runs the categorical checks) when the packed
    keys would not fit 63 bits; paired_up when every paired row has its mirror.

    ``ordered`` (rows without a null cell): the seat key is ``(event, player, round, row
    index)`` (:class:`SeatOrder`), which finds the same duplicates (equal above the
    index) and, sorted, is kept in the codes for the engine's record when the table is
    valid.

    ``known``: the runs of ``df``'s event column, sorted (:func:`~swissframe._batches.
    sorted_runs`, found when the batch ``df`` was cut), which are then its events'
    dictionary and its sort blocks' events, and which ``facts`` do not hold.

    ``swiss``: every row is a Swiss row (:attr:`IdCodes.swiss`).
    """
    # (Series methods without their own kernel are queries: plain indexing, slices and
    # comparisons here, which are kernels)
    events, sorted_events = (
        (known.get_column(EVENT_ID), True) if known is not None
        else _event_dictionary(facts) if runs else (_dictionary(facts, EVENT_ID), False))
    players = _dictionary(facts, PLAYER_ID)
    n_ok = facts.item(0, "_n_ok")
    (r_lo, r_hi), (g_lo, g_hi) = _fact_range(facts, (ROUND,)), _fact_range(facts, GAME_COLUMNS)
    rounds = (r_lo or 0, r_hi or 0)  # (None without a complete row, when none is read)
    keyed = _keyed_codes(df, events, players, n_ok=n_ok, rounds=rounds,
                         games=(g_lo, g_hi), has_null=has_null, both_phases=both_phases,
                         sorted_events=sorted_events, ordered=ordered)
    if keyed[0]["_o"].null_count() != df.get_column(OPPONENT_ID).null_count():
        # an opponent id that is nobody's player id: code with both columns' dictionary
        players = _dictionary(
            df.select(_dictionary_exprs(runs=True, opponents=True)[1]), PLAYER_ID)
        keyed = _keyed_codes(df, events, players, n_ok=n_ok, rounds=rounds,
                             games=(g_lo, g_hi), has_null=has_null, both_phases=both_phases,
                             sorted_events=sorted_events, ordered=ordered)
    frame, key, index_bits = keyed
    codes = IdCodes(codes=_codes_frame(frame["_e"], frame["_p"], frame["_o"]), events=events,
                    players=players, rounds=_bounds(r_lo, r_hi), games=_bounds(g_lo, g_hi),
                    swiss=swiss)
    if "_seats" not in frame.columns:  # no complete row, or keys too wide
        return codes, n_ok == 0, n_ok == 0
    sorted_keys = _sorted_key_columns(frame, ["_seats", "_matches"] if key is not None
                                      else ["_seats"], sorted_events=sorted_events,
                                      lengths=None if known is None else known["rows"])
    seats = sorted_keys[0]
    duplicates = _equal_neighbours(seats // 2**index_bits if index_bits else seats)
    # (the pairing key assumes distinct seats: see _pairs_up). The usual valid table
    # returns here, before the expressions below are built (≈ 40 µs of a small call)
    if key is not None and not duplicates and _pairs_up(sorted_keys[1], key):
        if index_bits:
            order = SeatOrder(keys=seats, round_bits=int(rounds[1] - rounds[0]).bit_length(),
                              index_bits=index_bits, first_round=int(rounds[0]))
            codes = replace(codes, seats=order)
        return codes, True, True
    pb, rb = codes.player_bits, int(rounds[1] - rounds[0]).bit_length()
    e, p, o = pl.col("_e"), pl.col("_p"), pl.col("_o")
    rnd = pl.col(ROUND) - rounds[0]
    er = _event_round(rb, rnd)
    paired = o.is_not_null() & (p != o) & _mirrored(df.columns)  # (of the complete rows)
    with_codes = df.hstack(codes.codes)
    ok_rows = with_codes.lazy().filter(_OK) if has_null else with_codes.lazy()
    if duplicates:
        _describe_duplicates(ok_rows.filter(_seat_key(pb, er).is_duplicated()), [EVENT_ID],
                             add)
    if key is None and _pairs_up_by_columns(ok_rows.filter(paired), pb, er,
                                            phase=both_phases):
        return codes, True, True
    # some row lacks its mirror or disagrees with it: one join of every match seat onto
    # its mirror's, keeping the bad rows (the same join as on the id columns)
    own = ((e * 2**pb + p) * 2**pb + o) * 2**rb + rnd
    theirs = ((e * 2**pb + o) * 2**pb + p) * 2**rb + rnd
    rows = ok_rows.filter(paired)
    mirror = rows.select(theirs.alias("_key"), pl.col(GAMES_WON).alias("_m_won"),
                         pl.col(GAMES_LOST).alias("_m_lost"),
                         pl.col(GAMES_DRAWN).alias("_m_drawn"))
    bad = (rows.with_columns(own.alias("_key"))
           .join(mirror, on="_key", how="left", maintain_order="left")
           .filter(pl.col("_m_won").is_null() | _DISAGREES)
           .drop("_key", "_e", "_p", "_o")
           .unique(_MIRROR_RECORD, maintain_order=True).pipe(collect))
    if bad.height:
        _describe_mirrors(bad, ok_rows.drop("_e", "_p", "_o"), [EVENT_ID], add)
    return codes, True, False


def _sorted_key_columns(frame: pl.DataFrame, names: Sequence[str], *,
                        sorted_events: bool = False, lengths: pl.Series | None = None
                        ) -> list[pl.Series]:
    """:func:`_sorted_keys` of each column ``names`` of ``frame`` (one or two), in order: on
    a large frame (:func:`~swissframe._collect.parallel`) two columns at once, one thread
    each (Polars releases the GIL while it sorts): 3.7M rows, 125 -> 75 ms wall for the
    same CPU.

    ``sorted_events``: the frame's ``_e`` codes are its event column's runs, in order
    (:func:`_code_exprs`). Both keys lead with the event code, so on a large frame
    (:data:`_BLOCK_SORT_MIN_ROWS`) the Int64 keys are sorted in blocks of whole events
    (:func:`_block_sorted`), together in one query. ``lengths``: the events' rows, where
    known (else read from the ``_e`` codes)."""
    if sorted_events and frame.height >= _BLOCK_SORT_MIN_ROWS:
        blocked = [n for n in names if frame.schema[n] == pl.Int64
                   and not frame.get_column(n).null_count()]
        if blocked:
            if lengths is None:
                lengths = frame.get_column("_e").rle().struct.field("len")
            done = _block_sorted(frame.select(blocked), _event_blocks(lengths))
            return [done[n] if n in done else _sorted_keys(frame.get_column(n))
                    for n in names]
    if len(names) < 2 or not parallel(frame.height):
        return [_sorted_keys(frame.get_column(n)) for n in names]
    first, second = names
    return [*concurrently(lambda: _sorted_keys(frame.get_column(first)),
                          lambda: _sorted_keys(frame.get_column(second)), rows=frame.height)]


#: The key of a row outside a check (keys are ≥ 0; it sorts first and is sliced off):
#: dropping nulls instead would be one more query.
_NO_KEY: Final = -1

#: From this many rows the keys of a table sorted by event are sorted in blocks of whole
#: events (:func:`_block_sorted`).
_BLOCK_SORT_MIN_ROWS: Final = 100_000

#: The rows of a block of :func:`_event_blocks` (whole events: a block ends with the first
#: event that reaches the next multiple). 1.9M random keys in blocks of 50, 373, 1,000 and
#: 4,000 rows, on a pool thread: 45, 50, 44, 50 ms CPU against 77-80 for one sort; 465k
#: blocks of 4 rows, 254 ms (each list's sort has its fixed cost).
_SORT_BLOCK_ROWS: Final = 2_048


def _event_blocks(lengths: pl.Series) -> pl.Series:
    """Offsets (from 0 to the rows' count, Int64) cutting a column of sorted event codes,
    whose runs have ``lengths`` rows, into consecutive blocks of whole events, each ending
    with the event that reaches the next multiple of :data:`_SORT_BLOCK_ROWS` rows (the
    last at the column's end).

    >>> _event_blocks(pl.Series([3000, 10, 2000])).to_list()
    [0, 3000, 5010]
    """
    ends = lengths.cast(pl.Int64).cum_sum()
    before = ends.shift(1, fill_value=0)
    cuts = ends.filter(ends // _SORT_BLOCK_ROWS != before // _SORT_BLOCK_ROWS)
    n = int(ends[-1]) if ends.len() else 0
    if cuts.is_empty() or cuts[-1] != n:
        cuts = cuts.append(pl.Series([n], dtype=pl.Int64))
    offsets: pl.Series = pl.concat([pl.Series([0], dtype=pl.Int64), cuts])
    return offsets


def _block_sorted(keys: pl.DataFrame, offsets: pl.Series) -> dict[str, pl.Series]:
    """Each Int64 column of ``keys`` as :func:`_sorted_keys` gives it, where every key of
    a block of ``offsets`` (:func:`_event_blocks`) is below every key of the next block
    (keys that lead with a sorted column's event code) — or is ``_NO_KEY``, dropped.

    Each block is sorted on its own (``list.sort`` of the column cut into one list per
    block, without a copy: :func:`~swissframe.engine._exact.as_lists`), the blocks then in
    order: a sort of ≈ 2,000 keys at a time, against one of the whole column (1.9M keys,
    79 -> 48 ms CPU), in one query run whole on the pool (:func:`~swissframe._collect.
    on_the_pool`: from the calling thread each list's sort is handed to the pool on its
    own, 121 ms)."""
    from swissframe.engine._exact import as_lists  # (an engine module imports this one)

    lists = pl.DataFrame([as_lists(keys.get_column(n), offsets) for n in keys.columns])
    done = on_the_pool(lists.lazy().select_seq(pl.all().list.sort().explode()))
    return {n: _without_no_key(done.get_column(n)) for n in keys.columns}


def _without_no_key(keys: pl.Series) -> pl.Series:
    """``keys`` without its ``_NO_KEY`` entries (the keys otherwise ≥ 0)."""
    if not bool((keys == _NO_KEY).any()):
        return keys
    kept: pl.Series = keys.filter(keys != _NO_KEY)
    return kept


def _sorted_keys(keys: pl.Series) -> pl.Series:
    """The keys other than ``_NO_KEY``, sorted.

    Sorted by Polars on one thread: NumPy's sort is 1.5-2x faster where it dispatches to
    its AVX-512 kernel, but 3-4x slower where it does not (3.7M keys: 58 against 226 ms on
    an AVX-512 AMD EPYC with NumPy 2.4), and one thread costs the least CPU on a shared
    machine. No NumPy at all here: importing it was 70 of the 90 ms of a first
    ``standings`` call in a fresh process (every CLI command), for microseconds saved
    after it (``benchmarks/README.md``)."""
    out: pl.Series = keys.sort(multithreaded=False)
    skip = int((out == _NO_KEY).sum())  # (_NO_KEY sorts first)
    return out.slice(skip)


def _neighbours(values: pl.Series) -> tuple[pl.Series, pl.Series]:
    """The values from the second on, and those before them: neighbour pairs ``(i + 1,
    i)`` of ``values`` (``len - 1`` of them), compared by Series kernels, not queries."""
    n = values.len()
    return values.slice(1), values.slice(0, max(n - 1, 0))


def _same_as_next(values: pl.Series) -> pl.Series:
    """Per neighbour pair ``(i, i + 1)`` of ``values``: equal?"""
    after, before = _neighbours(values)
    return after == before


def _increasing(values: pl.Series) -> pl.Series:
    """Per neighbour pair ``(i, i + 1)`` of ``values``: is the second greater?"""
    after, before = _neighbours(values)
    return after > before


def _equal_neighbours(keys: pl.Series) -> bool:
    """Whether two neighbours of ``keys`` are equal (on sorted keys: a value twice)."""
    return keys.len() > 1 and bool(_same_as_next(keys).any())


def _event_round(rb: int, rnd: pl.Expr) -> pl.Expr:
    """``(event, round)`` as one Int64 (of the codes; ``rnd`` the round from the lowest, in
    ``rb`` bits), the lead of both keys: an archive grouped by event and round is then
    nearly sorted by them, which the sort runs through faster."""
    key: pl.Expr = pl.col("_e") * 2**rb + rnd
    return key


def _seat_key(pb: int, er: pl.Expr) -> pl.Expr:
    """A seat ``(event, round, player)`` as one Int64 (``er``: ``_event_round``)."""
    key: pl.Expr = er * 2**pb + pl.col("_p")
    return key


def _match_key(pb: int, er: pl.Expr) -> pl.Expr:
    """A match ``(event, round, lower id, higher id)`` as one Int64, the same from both
    seats."""
    p, o = pl.col("_p"), pl.col("_o")
    key: pl.Expr = (er * 2**pb + pl.min_horizontal(p, o)) * 2**pb + pl.max_horizontal(p, o)
    return key


def _keyed_codes(df: pl.DataFrame, events: pl.Series, players: pl.Series, *, n_ok: int,
                 rounds: tuple[int, int], games: tuple[int | None, int | None],
                 has_null: bool, both_phases: bool, sorted_events: bool, ordered: bool = False
                 ) -> tuple[pl.DataFrame, int | None, int]:
    """One query: the codes ``_e, _p, _o`` and, unsorted, the seat key of every complete
    row (``_seats``, ``_NO_KEY`` for the others) and the match key of every paired one
    (``_matches``; without it, the bits of ``_pairing_key`` are None). Only the codes when
    there is no complete row or the keys would not fit 63 bits. ``ordered`` (no null
    cell): the seat key of :class:`SeatOrder` where it fits 62 bits; the bits of its row
    index (0: the plain seat key)."""
    slots = _slot_table(players) if df.height >= _SLOTS_MIN_ROWS else None
    code_exprs = _code_exprs(events, players, sorted_events=sorted_events, slots=slots,
                             null_players=bool(df.get_column(PLAYER_ID).null_count()))
    pb, eb = code_bits(players.len()), code_bits(events.len())
    rb = int(rounds[1] - rounds[0]).bit_length() if n_ok else 0
    if n_ok == 0 or eb + 2 * pb + rb + 1 > 62:
        return df.select(code_exprs), None, 0
    if has_null:
        code_exprs.append(_OK.alias(_OK_COLUMN))
    ib = max(df.height - 1, 1).bit_length() if ordered and not has_null else 0
    if eb + pb + rb + ib > 62:
        ib = 0
    er, keys, low_bits = _key_exprs(pb, rb, eb, rounds[0], games, has_null=has_null,
                                    double_loss="double_loss" in df.columns,
                                    phase=both_phases, index_bits=ib)
    frame = select(with_columns(df.lazy(), *code_exprs).with_columns(er), *keys).pipe(
        collect, pooled=False)
    return frame, low_bits, ib


@functools.lru_cache(maxsize=64)
def _key_exprs(pb: int, rb: int, eb: int, r_lo: int, games: tuple[int | None, int | None], *,
               has_null: bool, double_loss: bool, phase: bool, index_bits: int = 0
               ) -> tuple[pl.Expr, tuple[pl.Expr, ...], int | None]:
    """``_keyed_codes``' expressions after the codes: ``(event, round)`` (computed once for
    both keys), then the codes with both keys, and the pairing key's low bits (None
    without it). Built once per bit layout: building them costs about what the query costs
    on a small event, and events of one size share a layout. ``index_bits`` (no null
    cell): the seat key of :class:`SeatOrder`, with the row index in that many bits."""
    e, p, o = pl.col("_e"), pl.col("_p"), pl.col("_o")
    er = pl.col("_er")
    seat = _seat_key(pb, er)
    if index_bits:
        rnd = pl.col(ROUND) - r_lo
        seat = (((e * 2**pb + p) * 2**rb + rnd) * 2**index_bits
                + pl.int_range(pl.len(), dtype=pl.Int64))
    # (a null opponent makes p != o null, which selects the otherwise branch)
    paired = p != o
    if double_loss:
        paired = paired & ~pl.col("double_loss")
    if has_null:
        ok = pl.col(_OK_COLUMN)
        seat, paired = pl.when(ok).then(seat).otherwise(_NO_KEY), ok & paired
    keys = [e, p, o, seat.alias("_seats")]
    key = _pairing_key(pb, rb, er, eb, games=games, phase=phase)
    if key is not None:
        keys.append(pl.when(paired).then(key[0]).otherwise(_NO_KEY).alias("_matches"))
    return (_event_round(rb, pl.col(ROUND) - r_lo).alias("_er"), tuple(keys),
            key[1] if key is not None else None)


#: The widest pairing key (:func:`_pairing_key`): an Int128 less its sign bit and one spare.
_PAIRING_BITS: Final = 126


def _pairing_key(pb: int, rb: int, er: pl.Expr, eb: int, *,
                 games: tuple[int | None, int | None], phase: bool
                 ) -> tuple[pl.Expr, int] | None:
    """One integer per paired row, equal on the two seats of a consistent match: (the
    match, its games won plus lost, the lower id's games won, drawn, playoff or not), and
    the bits below the match; None when the game counts do not fit beside the ids
    (``_pairs_up_by_columns`` then). Won plus lost and the lower id's wins give both
    seats' records, with fewer column operations than the two oriented counts.

    An Int64, or an Int128 where the key needs more than 62 bits (up to
    :data:`_PAIRING_BITS`): ids coded from a large dictionary (an archive whose players
    are named apart in each event: 810k players, 20 bits each) sorted 3.4M Int128 keys
    instead of comparing the records as columns (``_pairs_up_by_columns``, a sort on
    five columns)."""
    lo, hi = games  # bounds of the game counts of (a superset of) the paired rows
    if lo is None or hi is None or lo < 0:
        return None
    gb, sb, ph = int(hi).bit_length(), int(2 * hi).bit_length(), int(phase)
    bits = eb + 2 * pb + rb + sb + 2 * gb + ph
    if bits > _PAIRING_BITS:
        return None
    if bits > 62:  # (the match key's product is then computed in 128 bits)
        er = er.cast(pl.Int128)
    won, lost, drawn = pl.col(GAMES_WON), pl.col(GAMES_LOST), pl.col(GAMES_DRAWN)
    lower_won = pl.when(pl.col("_p") < pl.col("_o")).then(won).otherwise(lost)
    key = ((_match_key(pb, er) * 2**sb + (won + lost)) * 2**gb + lower_won) * 2**gb + drawn
    if phase:
        key = key * 2 + (pl.col(PHASE) == "playoff").cast(pl.Int64)
    return key, sb + 2 * gb + ph


def _pairs_up(keys: pl.Series, low_bits: int) -> bool:
    """Whether the sorted keys of ``_pairing_key`` come in equal pairs, each pair another
    match: then every paired row has one mirror row with the opposite record and phase,
    and the mirror join finds no bad row (when not, the caller runs it to describe what is
    wrong). Valid when no seat is taken twice: two rows of one match are then its two
    seats, so a third row, or a missing or contradicting one, breaks the pairs."""
    n = keys.len()
    if n % 2:
        return False
    if n == 0:
        return True
    # Series kernels only (no query): of the n - 1 neighbour pairs, exactly the n / 2 at
    # even positions must be equal — n / 2 equal ones, no two side by side, can only be
    # those — and their matches (the key's bits above low_bits; keys are ≥ 0) must differ
    # everywhere else: n / 2 equal neighbours among the matches as well
    same = _same_as_next(keys)
    if int(same.sum()) != n // 2 or bool((same.slice(1) & same.slice(0, n - 2)).any()):
        return False
    return int(_same_as_next(keys & -(2**low_bits)).sum()) == n // 2


def _pairs_up_by_columns(paired: pl.LazyFrame, pb: int, er: pl.Expr, *,
                         phase: bool) -> bool:
    """``_pairs_up`` for game counts too large (or negative) to pack beside the ids: the
    match and side as one Int64, the record and phase compared as columns."""
    lower = pl.col("_p") < pl.col("_o")
    match = _match_key(pb, er)
    side = (~lower).cast(pl.Int64)
    won, lost, drawn = pl.col(GAMES_WON), pl.col(GAMES_LOST), pl.col(GAMES_DRAWN)
    a_won = pl.when(lower).then(won).otherwise(lost)
    a_lost = pl.when(lower).then(lost).otherwise(won)
    playoff = (pl.col(PHASE) == "playoff") if phase else pl.lit(value=False)
    keyed = (paired.select((match * 2 + side).alias("_c"), a_won.alias("_w"),
                           a_lost.alias("_l"), drawn.alias("_d"), playoff.alias("_ph"))
             .sort("_c").pipe(collect))
    if keyed.height % 2:
        return False
    a = keyed.gather_every(2)
    b = keyed.gather_every(2, offset=1)
    # a's key even (lower id's side) and b's the same match from the other side; then the
    # next pair's key is even again, so it is another match: each match has two rows
    return bool(((a["_c"] % 2 == 0) & (b["_c"] == a["_c"] + 1) & (a["_w"] == b["_w"])
                 & (a["_l"] == b["_l"]) & (a["_d"] == b["_d"]) & (a["_ph"] == b["_ph"])).all())


def _mirrored(columns: Sequence[str]) -> pl.Expr:
    """Rows whose games must mirror their opponent's: all but double losses (checked by
    :func:`_double_loss_checks`)."""
    return ~pl.col("double_loss") if "double_loss" in columns else pl.lit(value=True)


def _double_loss_checks(lf_ok: pl.LazyFrame, ev: list[str], add: _Add) -> None:
    """``double_loss_mismatch``: a double-loss row whose opponent has no row against the
    player in that round, or one that is not a double loss; and one with no opponent at
    all (a match both players lost has two seats: flagged on a bye, the engine read the
    bye as a loss without a word)."""
    alone = lf_ok.filter(pl.col(OPPONENT_ID).is_null() & pl.col("double_loss"))
    add("double_loss_mismatch", alone,
        _text(pl.col(PLAYER_ID), " reports a double loss in round ", pl.col(ROUND),
              " with no opponent"))
    paired = lf_ok.filter(pl.col(OPPONENT_ID).is_not_null()
                          & (pl.col(PLAYER_ID) != pl.col(OPPONENT_ID)))
    mirror = paired.select(*ev, ROUND, pl.col(PLAYER_ID).alias(OPPONENT_ID),
                           pl.col(OPPONENT_ID).alias(PLAYER_ID),
                           pl.col("double_loss").alias("_m_dl"))
    bad = (paired.filter(pl.col("double_loss"))
           .join(mirror, on=[*ev, ROUND, PLAYER_ID, OPPONENT_ID], how="left")
           .filter(~pl.col("_m_dl").fill_null(value=False)))
    add("double_loss_mismatch", bad,
        _text(pl.col(PLAYER_ID), " reports a double loss against ", pl.col(OPPONENT_ID),
              " in round ", pl.col(ROUND), ", but ", pl.col(OPPONENT_ID), " ",
              pl.when(pl.col("_m_dl").is_null()).then(pl.lit("has no row against them"))
              .otherwise(pl.lit("does not"))))


#: A row paired with an opponent and marked a forfeit (the facts' ``_ff``).
_PAIRED_FORFEIT: Final = (pl.col(OPPONENT_ID).is_not_null()
                          & pl.col("unplayed").is_in(FORFEITS)).fill_null(value=False)


def _forfeit_checks(lf_ok: pl.LazyFrame, ev: list[str], add: _Add) -> None:
    """``forfeit_mismatch``: the two seats of a match disagree on whether it was played —
    one marks it a forfeit (``unplayed`` ``forfeit_win`` / ``forfeit_loss``), the other a
    game over the board (null), or both claim the forfeit win (a TRF ``+`` against a
    ``0``): the forfeit counted as unplayed for one player only (FIDE C.07 Art. 16: a
    dummy in one Buchholz, the real opponent in the other). Both seats are listed; a seat
    without a mirror is ``missing_mirror``'s."""
    paired = lf_ok.filter(pl.col(OPPONENT_ID).is_not_null()
                          & (pl.col(PLAYER_ID) != pl.col(OPPONENT_ID)))
    mirror = paired.select(*ev, ROUND, pl.col(PLAYER_ID).alias(OPPONENT_ID),
                           pl.col(OPPONENT_ID).alias(PLAYER_ID),
                           pl.col("unplayed").alias("_m_up"))
    own_ff = pl.col("unplayed").is_in(FORFEITS).fill_null(value=False)
    their_ff = pl.col("_m_up").is_in(FORFEITS).fill_null(value=False)
    cols = [*ev, ROUND, PLAYER_ID, OPPONENT_ID, "unplayed", "_m_up"]
    # every pair that disagrees has a forfeit seat: only the forfeit rows are joined with
    # their mirrors (joining every paired row tripled the check on a table with forfeits:
    # review), and a forfeit against a game played adds the played seat's row by swapping
    found = (paired.filter(own_ff).join(mirror, on=[*ev, ROUND, PLAYER_ID, OPPONENT_ID],
                                        how="inner")
             .filter(~their_ff | ((pl.col("unplayed") == "forfeit_win")
                                  & (pl.col("_m_up") == "forfeit_win")).fill_null(value=False))
             .select(cols))
    played_seat = found.filter(~their_ff).select(
        *ev, ROUND, pl.col(OPPONENT_ID).alias(PLAYER_ID), pl.col(PLAYER_ID).alias(OPPONENT_ID),
        pl.col("_m_up").alias("unplayed"), pl.col("unplayed").alias("_m_up"))
    bad = pl.concat([found, played_seat])

    def said(col: str) -> pl.Expr:
        return (pl.when(pl.col(col).is_in(FORFEITS)).then(pl.format("a {}", pl.col(col)))
                .otherwise(pl.lit("a game played")))

    add("forfeit_mismatch", bad,
        _text(pl.col(PLAYER_ID), " reports ", said("unplayed"), ", ", pl.col(OPPONENT_ID),
              " reports ", said("_m_up")))


def _categorical_keyed_checks(lf_ok: pl.LazyFrame, ev: list[str], add: _Add) -> None:
    """Duplicate seats and mirrors on the id columns, as categoricals (``_checked``)."""
    # categorical ids: a group-by and a join over every row, and integer codes hash and
    # compare about twice as fast as strings. Only these checks see the codes.
    lf_ok = lf_ok.with_columns(pl.col(EVENT_ID, PLAYER_ID, OPPONENT_ID).cast(pl.Categorical))
    # duplicate seats: count first (one group-by), describe only the offenders
    counts = (lf_ok.group_by([*ev, ROUND, PLAYER_ID]).agg(pl.len().alias("_n"))
              .filter(pl.col("_n") > 1).pipe(collect))
    if counts.height:
        _describe_duplicates(
            lf_ok.join(counts.lazy().drop("_n"), on=[*ev, ROUND, PLAYER_ID], how="inner"),
            ev, add)
    # mirrors: one join of every paired row onto its mirror seat, keeping only bad rows
    paired = lf_ok.filter(pl.col(OPPONENT_ID).is_not_null()
                          & (pl.col(PLAYER_ID) != pl.col(OPPONENT_ID))
                          & _mirrored(lf_ok.collect_schema().names()))
    mirror = paired.select(
        *ev, ROUND,
        pl.col(PLAYER_ID).alias(OPPONENT_ID), pl.col(OPPONENT_ID).alias(PLAYER_ID),
        pl.col(GAMES_WON).alias("_m_won"), pl.col(GAMES_LOST).alias("_m_lost"),
        pl.col(GAMES_DRAWN).alias("_m_drawn"))
    # (in the rows' order, as the coded join: rows of one seat come out in input order)
    bad = (paired.join(mirror, on=[*ev, ROUND, PLAYER_ID, OPPONENT_ID], how="left",
                       maintain_order="left")
           .filter(pl.col("_m_won").is_null() | _DISAGREES)
           .unique([*dict.fromkeys([*ev, *_MIRROR_RECORD])], maintain_order=True)
           .pipe(collect))
    if bad.height:
        _describe_mirrors(bad, lf_ok, ev, add)


def format_problems(problems: pl.DataFrame, *, limit: int = MAX_LISTED_PROBLEMS) -> str:
    """Render a problems table as readable lines, at most ``limit`` of them."""
    lines = []
    for row in problems.head(limit).iter_rows(named=True):
        # (the opponent quoted as the player is: a blank or invisible id shows its escapes)
        opp = f" vs {quoted(row[OPPONENT_ID])}" if row[OPPONENT_ID] is not None else ""
        lines.append(f"  - [{row['kind']}] event {quoted(row[EVENT_ID])}, round {row[ROUND]}, "
                     f"player {quoted(row[PLAYER_ID])}{opp}: {row['detail']}")
    if problems.height > limit:
        lines.append(f"  … and {problems.height - limit} more (see the error's .problems)")
    return "\n".join(lines)


_HINTS: Final = {
    "missing_mirror": "sf.repair_mirrors(...) fills missing mirror rows explicitly",
    "mirror_mismatch": "the two seats of a match must report opposite records",
    "duplicate_seat": "each player has at most one row per round",
    "unknown_opponent": "every opponent must also have rows as a player in the event",
    "double_loss_mismatch": "a double loss is double_loss=True on both seats of the match",
    "forfeit_mismatch": "a forfeit is unplayed='forfeit_win' on one seat and 'forfeit_loss' "
                        "on the other; a game played is neither on both",
}


@scoped
def validate_results(results: pl.LazyFrame | pl.DataFrame, *, default_event_id: str = "event",
                     keys: Sequence[str] = ()) -> pl.LazyFrame:
    """Validate a results table and return it normalised to the contract (lazy).

    Raises
    ------
    SchemaError
        A required column is missing or mistyped.
    ValidationError
        Rows break the contract; the message lists the first offending rows with
        event, round and player, and ``.problems`` holds all of them.

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> df = pl.DataFrame({"round": [1], "player_id": ["a"], "opponent_id": [None],
    ...     "games_won": [2], "games_lost": [0], "games_drawn": [0]})
    >>> sf.validate_results(df).pipe(collect).columns
    ['round', 'player_id', 'opponent_id', 'games_won', 'games_lost', 'games_drawn',
     'event_id', 'phase']
    """
    if not keys:
        return validated_table(results, default_event_id=default_event_id)[0].lazy()
    problems, frame = _problems_and_frame(results, default_event_id=default_event_id,
                                          keys=keys)
    raise_problems(problems)
    return frame.lazy()


def validated_table(results: pl.LazyFrame | pl.DataFrame, *, default_event_id: str = "event"
                    ) -> tuple[pl.DataFrame, IdCodes | None]:
    """:func:`validate_results` without extra keys, materialised, with the id codes its
    checks built (None for a table validated in batches), for a caller that passes the
    table on to analyses under :func:`trusted` (``swissframe.read``'s results in the CLI:
    each analysis then skips its own check of the same rows). A frame its caller vouches
    for is returned as it is."""
    vouched = _vouched(results)
    if vouched is not None:
        return vouched

    def valid(part: pl.LazyFrame | pl.DataFrame) -> pl.DataFrame:
        problems, frame = _problems_and_frame(part, default_event_id=default_event_id,
                                              keys=())
        raise_problems(problems)
        return frame

    # a very large table sorted by event in batches of events, stacked in its order (the
    # checks are per event; one pass over 37.5M rows took 6.6-11.9 s and 9.5 GB, batches
    # 4.6-7.7 s and 7.4 GB); a batch that raises or warns sends the call to the whole
    # table, which says it once
    results, out = batched(results, valid, in_order=True, default_event_id=default_event_id)
    if out is not None:
        return out, None
    problems, frame, codes = _checked(results, default_event_id=default_event_id, keys=())
    raise_problems(problems)
    return frame, codes


def validated_with_codes(results: pl.LazyFrame | pl.DataFrame, *, keys: Sequence[str] = ()
                         ) -> tuple[pl.DataFrame, IdCodes | None]:
    """:func:`validate_results` (materialised) and the id codes its checks built, so that
    the engine does not hash the ids again (None with extra ``keys``). A frame its caller
    vouches for (:func:`trusted`) is returned as it is, with its codes."""
    vouched = _vouched(results)
    if vouched is not None and not keys:
        choose(vouched[0].height)
        return vouched
    problems, frame, codes = _checked(results, default_event_id="event", keys=keys)
    raise_problems(problems)
    return frame, codes


_TRUSTED: contextvars.ContextVar[tuple[pl.DataFrame, IdCodes | None] | None] = \
    contextvars.ContextVar("swissframe_trusted", default=None)


def _vouched(results: object) -> tuple[pl.DataFrame, IdCodes | None] | None:
    """The frame and codes a caller vouches for (:func:`trusted`) when ``results`` is that
    very frame, else None."""
    vouched = _TRUSTED.get()
    return vouched if vouched is not None and vouched[0] is results else None


def batched(results: pl.LazyFrame | pl.DataFrame, run: Callable[[pl.DataFrame], pl.DataFrame],
            *, in_order: bool = False, default_event_id: str = "event", halves: bool = False
            ) -> tuple[pl.LazyFrame | pl.DataFrame, pl.DataFrame | None]:
    """``run`` in batches of events where ``results`` is a very large table
    (:func:`swissframe._batches.in_batches`: None when it is not, or when the whole table
    must say what a batch raised or warned), and ``results`` as the caller should then
    read it: a LazyFrame is read once here (:func:`read_once`: its plan runs once, and its
    height is then known). A frame a caller vouches for (:func:`trusted`) is not batched:
    it is validated already, and its codes are for it whole. ``halves``: see
    :func:`~swissframe._batches.in_batches`."""
    if _vouched(results) is not None:
        return results, None
    if isinstance(results, pl.LazyFrame):
        results = read_once(results, default_event_id=default_event_id)
    return results, in_batches(results, run, in_order=in_order, halves=halves)


def read_once(results: pl.LazyFrame | pl.DataFrame, *, default_event_id: str = "event"
              ) -> pl.DataFrame:
    """``results`` as the boundary reads it (normalised to the contract's types, one chunk,
    the cast errors it names): for a caller that must know a LazyFrame's height before
    validating it, without running its plan twice. Validating the frame it returns reads
    nothing again (a table already normal is taken as it is)."""
    return _materialised(results, default_event_id=default_event_id)


@scoped
def checked(results: pl.LazyFrame | pl.DataFrame
            ) -> tuple[pl.DataFrame, pl.DataFrame, IdCodes | None]:
    """The problems table, the normalised table and its id codes, in one validation (for
    ``bulk``, which skips the invalid events of a batch and ranks the others)."""
    return _checked(results, default_event_id="event", keys=())


@contextlib.contextmanager
def trusted(frame: pl.DataFrame, codes: IdCodes | None) -> Iterator[None]:
    """Inside this block (and this context: a thread has its own), validating this very
    ``frame`` object without extra keys returns it with ``codes`` and checks nothing.

    For a caller that has just validated it: ``frame`` must be the normalised output of
    :func:`checked` (or rows of it, with :func:`codes_of_rows`) without problems."""
    token = _TRUSTED.set((frame, codes))
    try:
        yield
    finally:
        _TRUSTED.reset(token)


@contextlib.contextmanager
def validated_once(results: pl.LazyFrame | pl.DataFrame) -> Iterator[pl.DataFrame]:
    """The validated table; inside this block validating that table again (each
    ``standings`` call on it) returns it as it is (:func:`trusted`). For a caller that
    ranks one input several times: the contract does not depend on the ruleset."""
    frame, codes = validated_with_codes(results)
    with trusted(frame, codes):
        yield frame


def raise_problems(problems: pl.DataFrame) -> None:
    if problems.height:
        kinds = problems["kind"].unique(maintain_order=True).to_list()
        hints = "; ".join(_HINTS[k] for k in kinds if k in _HINTS)
        msg = (f"{count(problems.height, 'problem')} in the results table ({', '.join(kinds)}):\n"
               + format_problems(problems)
               + "\nHint: " + (hints or "fix the listed rows")
               + "; sf.find_problems(...) lists all.")
        raise ValidationError(msg, problems)


def key_columns(keys: object) -> tuple[str, ...]:
    """An analysis's ``keys=`` as column names: one name, or a sequence of names (a
    number or None ended in a bare ``TypeError``, and one name was read letter by letter).

    Examples
    --------
    >>> key_columns("scenario_id"), key_columns(["a", "b"]), key_columns(())
    (('scenario_id',), ('a', 'b'), ())
    """
    names = check_names("keys", keys, hint="e.g. keys=['scenario_id'] (the columns that "
                        "tell one analysis's rows from another's).")
    taken = [k for k in names if k.startswith(RESERVED_PREFIX) or k in _taken_names()]
    if taken:
        k = taken[0]
        why = ("names starting with '_' are swissframe's own" if k.startswith(RESERVED_PREFIX)
               else "a column of the results table's contract" if k in _contract_columns()
               else "a column swissframe writes, or holds while it ranks")
        msg = (f"keys: {k!r} cannot be an analysis key: {why}, so the key and that column "
               f"would be taken for one another. Hint: copy the key under another name, e.g. "
               f"df.with_columns(pl.col({k!r}).alias({'key_' + k.lstrip('_')!r})) and "
               f"keys=[{'key_' + k.lstrip('_')!r}].")
        raise DataError(msg)
    return names


@functools.lru_cache(maxsize=1)
def _engine_columns() -> frozenset[str]:
    """The columns the engine's frames hold while it ranks — its rows and its per-player
    record and rates (``earned_byes``, ``opponents``, ``mwp_raw``, ``gwp_opp``, …) — read
    from the engine itself on a two-player event, once: a list written here would drift
    from the engine (a key named ``earned_byes`` or ``mwp_raw`` was Polars' bare
    ``SchemaError`` while this check listed the output's columns only)."""
    from swissframe.engine.standings import context, validated
    from swissframe.rules import MTG

    probe = pl.DataFrame({EVENT_ID: ["e", "e"], ROUND: [1, 1], PLAYER_ID: ["a", "b"],
                          OPPONENT_ID: ["b", "a"], "games_won": [2, 0], "games_lost": [0, 2],
                          "games_drawn": [0, 0]})
    ctx = context(validated(probe, ()), MTG, (EVENT_ID,))
    return frozenset({*ctx.players.collect_schema().names(),
                      *ctx.rows.collect_schema().names()})


def _contract_columns() -> frozenset[str]:
    """The columns the contract names (required, optional and flags) but ``event_id``."""
    return frozenset({*RESULT_COLUMNS, *OPTIONAL_COLUMNS, *FLAG_COLUMNS} - {EVENT_ID})


def _ranking_columns() -> frozenset[str]:
    """The columns a ranking holds or writes besides the contract's: the engine's rows,
    record and rates (:func:`_engine_columns`), the standings' own columns and
    ``through_round`` — the names a key (:func:`_taken_names`) and a custom criterion
    (``rules._ruleset._engine_names``) cannot take."""
    from swissframe.engine.standings import STANDINGS_COLUMNS

    return frozenset({*_engine_columns(), *STANDINGS_COLUMNS, "through_round"})


def _taken_names() -> frozenset[str]:
    """The names an analysis key cannot have (:func:`key_columns`): the contract's
    columns but ``event_id`` (required, optional and flags: a key is what tells an
    event's analyses apart, and the engine groups by the contract's columns beside it),
    the columns a ranking or ``explain`` writes or the engine holds while ranking
    (:func:`_ranking_columns`), and every criterion a preset or the
    tiebreaker registry names (the engine joins its output on the keys: a key named
    ``match_points`` or ``omwp`` was Polars' bare ``SchemaError`` or ``DuplicateError``,
    a key named ``rank`` was replaced by the rank).
    Read on each call: a tiebreaker or a preset registered since counts too."""
    from swissframe.engine.explain import CHESS_EXPLAIN_COLUMNS, EXPLAIN_COLUMNS
    from swissframe.engine.tiebreakers import GROUP_TIEBREAKERS, TIEBREAKERS
    from swissframe.rules import PRESETS

    criteria = {c.name for r in PRESETS.values() for c in (*r.criteria, *r.columns)}
    return frozenset({*_contract_columns(), *_ranking_columns(), *EXPLAIN_COLUMNS,
                      *CHESS_EXPLAIN_COLUMNS, "player_dropped", *TIEBREAKERS, *GROUP_TIEBREAKERS,
                      *criteria} - {EVENT_ID})


def as_lazy(frame: pl.LazyFrame | pl.DataFrame, *, what: str = "results table",
            made_by: str = "sf.read_results(path) (or sf.read(path).results)"
            ) -> pl.LazyFrame:
    """``frame`` as a LazyFrame: the check every public entry point's table argument
    passes first (a path, None or a pandas frame is named, with how to read or wrap it).

    Examples
    --------
    >>> as_lazy("results.csv")
    Traceback (most recent call last):
    swissframe.errors.SchemaError: the results table must be a polars DataFrame or LazyFrame,
    got a path ('results.csv'). Hint: read the file first: sf.read_results(path) ...
    """
    if isinstance(frame, pl.DataFrame):
        return frame.lazy()
    if isinstance(frame, pl.LazyFrame):
        return frame
    kind, hint = not_a_table(frame, made_by=made_by)
    msg = f"the {what} must be a polars DataFrame or LazyFrame, got {kind}. Hint: {hint}."
    raise SchemaError(msg)


def not_a_table(value: object, *, made_by: str = "sf.read_results(path)") -> tuple[str, str]:
    """What ``value``, given where a table belongs, is (its type named with its library, a
    path or a number quoted, on one line) and how to make a table of it: the one
    description behind every refusal of a table argument (:func:`as_lazy`, ``validate``,
    ``report``). A pandas frame was "got DataFrame" (read as the polars type refused), a
    dict or a list of rows was told to use ``pl.from_pandas``, a Series, an Arrow table
    or a NumPy array quoted its whole multi-line repr (bad data 240); what ``sf.read``
    returns is named as a ``Source``, with its ``.results`` (bad data 227).

    >>> not_a_table({"round": [1]})
    ('a dict', 'make a table of it: pl.DataFrame(data)')
    >>> not_a_table(pl.Series("player_id", ["A"]))[0]
    'a polars Series (one column)'
    """
    cls = type(value)
    library = cls.__module__.partition(".")[0]
    if isinstance(value, (str, os.PathLike)):
        return (f"a path ({quoted(os.fspath(value))})" if isinstance(os.fspath(value), str)
                else f"{cls.__name__} {value!r:.60}"), f"read the file first: {made_by}"
    if value is None:
        return "None", f"pass the table itself, e.g. {made_by}"
    if _is_source(value):  # (what sf.read returns: its hint was to wrap pandas data; 227)
        return ("Source (what sf.read returns)", "pass the results table it holds, "
                "sf.read(path).results (a Source is what sf.read returns; sf.validate takes "
                "it as it is)")
    if isinstance(value, pl.Series):
        return ("a polars Series (one column)",
                f"pass the whole table (the results' rows), e.g. {made_by}")
    if library == "pandas":
        return f"a pandas {cls.__name__}", "convert it: pl.from_pandas(df)"
    if library == "pyarrow":
        return f"a pyarrow {cls.__name__}", "convert it: pl.from_arrow(table)"
    if library == "numpy":
        return (f"a NumPy {cls.__name__}",
                "name its columns: pl.DataFrame(array, schema=[...], orient='row')")
    if isinstance(value, Mapping):
        return f"a {cls.__name__}", "make a table of it: pl.DataFrame(data)"
    if isinstance(value, (list, tuple)):
        return (f"a {cls.__name__} of {count(len(value), 'item')}",
                "make a table of it: pl.DataFrame(rows) (a list of dicts, one a row)")
    shown = f"{value!r:.60}" if isinstance(value, (int, float, bytes)) else ""
    name = cls.__name__ if library == "builtins" else f"{library}.{cls.__name__}"
    return (f"{name}" + (f" ({' '.join(shown.split())})" if shown else "")), (
        f"pass a polars DataFrame, e.g. {made_by}")


def _is_source(frame: object) -> bool:
    """Whether ``frame`` is what :func:`swissframe.read` returns (a ``Source``)."""
    from swissframe.io._files import Source  # (the readers import this module)

    return isinstance(frame, Source)


def as_frame(frame: pl.LazyFrame | pl.DataFrame, *, what: str = "results table",
             made_by: str = "sf.read_results(path) (or sf.read(path).results)"
             ) -> pl.DataFrame:
    """``frame`` as a DataFrame (a LazyFrame collected), after :func:`as_lazy`'s check; a
    LazyFrame whose plan fails is a :class:`SchemaError` naming ``what``
    (:func:`_unevaluable`)."""
    if isinstance(frame, pl.DataFrame):
        return frame
    lazy = as_lazy(frame, what=what, made_by=made_by)
    try:
        return lazy.pipe(collect)
    except (pl.exceptions.PolarsError, pl.exceptions.PanicException) as exc:
        raise _unevaluable(exc, what) from exc


@dataclass(frozen=True)
class MatchColumns:
    """Column names of the one-row-per-match form (see :func:`from_matches`)."""

    player_a: str = "player_a"
    player_b: str = "player_b"
    games_a: str = "games_a"
    games_b: str = "games_b"
    games_drawn: str = "games_drawn"


#: The default match-form column names.
MATCH_COLUMNS: Final = MatchColumns()

#: The match form's per-seat ``disqualified`` flags (seat A, seat B).
_DQ_SEATS: Final = (f"{DISQUALIFIED}_a", f"{DISQUALIFIED}_b")


def check_match_columns(c: object) -> MatchColumns:
    """``columns=`` of the match form (``from_matches``, ``to_matches``, ``read_results``),
    checked: a :class:`MatchColumns` of column names (anything else, or a name that is
    not text, was a bare ``AttributeError: 'dict' object has no attribute 'player_a'``:
    bad data 183), giving no column two roles (:func:`_check_match_roles`).

    >>> check_match_columns({"player_a": "P1"})
    Traceback (most recent call last):
    ...
    swissframe.errors.SchemaError: columns must be an sf.MatchColumns, got dict ...
    """
    if not isinstance(c, MatchColumns):
        msg = (f"columns must be an sf.MatchColumns, got {type(c).__name__} ({c!r:.60}). "
               "Hint: e.g. columns=sf.MatchColumns(player_a='P1', player_b='P2', "
               "games_a='W1', games_b='W2', games_drawn='D').")
        raise SchemaError(msg)
    bad = [f.name for f in dataclasses.fields(c)
           if not isinstance(getattr(c, f.name), str) or not getattr(c, f.name)]
    if bad:
        msg = (f"MatchColumns: {bad[0]} must be a column name, got "
               f"{getattr(c, bad[0])!r:.60}. Hint: name the column that holds it, e.g. "
               f"{bad[0]}={getattr(MATCH_COLUMNS, bad[0])!r}.")
        raise SchemaError(msg)
    _check_match_roles(c)
    return c


def _check_match_roles(c: MatchColumns) -> None:
    """A :class:`MatchColumns` whose names give one column two roles — two seats
    (``player_a="P1", player_b="P1"``), two counts (``games_a="W", games_b="W"``), or a
    column ``from_matches`` reads as itself (``games_drawn="round"``, ``player_a="event_id"``)
    — is a :class:`SchemaError` naming the roles (bad data 129): each was read without a
    word, every match 2-2 or each round number its drawn games."""
    roles = {"round": ROUND, "event_id": EVENT_ID, "phase": PHASE,
             **{f.name: getattr(c, f.name) for f in dataclasses.fields(c)}}
    by_name: dict[str, list[str]] = {}
    for role, name in roles.items():
        by_name.setdefault(name, []).append(role)
    shared = [(name, rs) for name, rs in by_name.items() if len(rs) > 1]
    if shared:
        said = "; ".join(f"{quoted(name)} is {' and '.join(rs)}" for name, rs in shared)
        msg = (f"MatchColumns gives one column two roles: {said}. Hint: name each role's own "
               "column (round, event_id and phase are read by their names), e.g. "
               "sf.MatchColumns(player_a='P1', player_b='P2', games_a='W1', games_b='W2', "
               "games_drawn='D').")
        raise SchemaError(msg)


def from_matches(
    matches: pl.LazyFrame | pl.DataFrame,
    *,
    columns: MatchColumns = MATCH_COLUMNS,
    bye_games: tuple[int, int, int] = (2, 0, 0),
    default_event_id: str = "event",
) -> pl.DataFrame:
    """Build the long results table from one row per match.

    ``matches`` has ``round``, ``player_a``, ``player_b`` (null for a bye), ``games_a``,
    ``games_b`` and ``games_drawn`` (names configurable through ``columns``), and optionally
    ``event_id`` and ``phase``. A match becomes two mirrored rows; a row with a null
    ``player_b`` becomes one unpaired row for A. An unpaired row whose game counts are all null
    is given ``bye_games`` (MTR Appendix C: a bye is a 2-0 win). The per-seat flags
    ``disqualified_a`` / ``disqualified_b`` become each seat's ``disqualified`` (a bare
    ``disqualified`` column names no seat: refused). Any other extra column is copied to
    both seats.

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 1], "player_a": ["A", "C"], "player_b": ["B", None],
    ...     "games_a": [2, None], "games_b": [1, None], "games_drawn": [0, None]})
    >>> sf.from_matches(m).select("round", "player_id", "opponent_id", "games_won", "games_lost")
    shape: (3, 5)
    ┌───────┬───────────┬─────────────┬───────────┬────────────┐
    │ round ┆ player_id ┆ opponent_id ┆ games_won ┆ games_lost │
    │ ---   ┆ ---       ┆ ---         ┆ ---       ┆ ---        │
    │ i64   ┆ str       ┆ str         ┆ i64       ┆ i64        │
    ╞═══════╪═══════════╪═════════════╪═══════════╪════════════╡
    │ 1     ┆ A         ┆ B           ┆ 2         ┆ 1          │
    │ 1     ┆ C         ┆ null        ┆ 2         ┆ 0          │
    │ 1     ┆ B         ┆ A           ┆ 1         ┆ 2          │
    └───────┴───────────┴─────────────┴───────────┴────────────┘
    """
    c = check_match_columns(columns)
    # (a text "2-0-0" was read as three column names: Polars' bare ColumnNotFoundError)
    bye_games = check_game_triples(
        "bye_games", [bye_games] if isinstance(bye_games, (tuple, list)) else bye_games,
        hint="one triple, e.g. bye_games=(2, 0, 0)")[0]
    lf = as_frame(matches, what="match table").lazy()
    schema = lf.collect_schema()
    need = [ROUND, c.player_a, c.player_b, c.games_a, c.games_b, c.games_drawn]
    missing = [n for n in need if n not in schema]
    if missing:
        msg = (f"match table is missing column(s) {missing}; found {list(schema)}. "
               "Hint: pass columns=sf.MatchColumns(...) to name yours.")
        raise SchemaError(msg)
    if EVENT_ID not in schema:
        lf = lf.with_columns(default_event(default_event_id))
    _check_match_integers(lf, c)
    players = [n for n in (c.player_a, c.player_b)
               if holds_non_ids(schema[n])]
    if players:
        msg = (f"match table column(s) {players} are "
               f"{', '.join(str(schema[n]) for n in players)}, expected player ids (text, "
               "or whole numbers). "
               "Hint: cast them with pl.col(...).cast(pl.String).")
        raise SchemaError(msg)
    # (as text before they are compared: a number column beside a text one, or a date,
    # could not be compared with it); the counts as whole numbers before a bye's are put
    # beside them (a Categorical count had no common type with them: Polars' bare error)
    counts = [n for n in (ROUND, c.games_a, c.games_b, c.games_drawn) if string_like(schema[n])]
    lf = lf.with_columns(pl.col(c.player_a, c.player_b).cast(pl.String),
                         *(whole_numbers(n, schema[n]) for n in counts))
    for n in (c.player_a, c.player_b):  # whitespace would become a ranked player ("": the
        spaces = (pl.col(n) != "") & blank(pl.col(n))  # contract's empty_id)
        where = unread_cells(lf, n, [EVENT_ID, ROUND, c.player_a, c.player_b],
                             pl.when(~spaces).then(pl.col(n)))
        if where:
            msg = (f"match table column {n!r} holds blank cells ({where}): a cell of "
                   "whitespace only is no player, and would be ranked as one. Hint: leave "
                   f"the cell empty{' for a bye' if n == c.player_b else ''}, or write the "
                   "player's id.")
            raise SchemaError(msg)
    seats = _DQ_SEATS
    if DISQUALIFIED in schema:
        msg = (f"match table has a {DISQUALIFIED!r} column, but a match has two seats. "
               f"Hint: name the seat, {seats[0]!r} / {seats[1]!r} (or give the long form, "
               "one row per player).")
        raise SchemaError(msg)
    dq = [n for n in seats if n in schema]
    for n in dq:  # (read as a flag cell is read: a CSV's cells are text)
        where = not_flag_cells(lf, n, [EVENT_ID, ROUND, c.player_a, c.player_b])
        if where:
            msg = (f"match table column {n!r} holds cells that are not flags ({where}). "
                   f"Hint: write a flag as {flag_spellings()} (any case), or leave the "
                   "cell empty for no flag.")
            raise SchemaError(msg)
    if dq:  # a seat without its column, or a blank cell: not disqualified
        lf = lf.with_columns(
            [flag_values(n, schema[n]).fill_null(value=False).alias(n) if n in dq
             else pl.lit(value=False).alias(n) for n in seats])
    extra = [n for n in lf.collect_schema() if n not in need and n not in seats]
    seat_flags = ([[pl.col(seats[0]).alias(DISQUALIFIED)], [pl.col(seats[1]).alias(DISQUALIFIED)]]
                  if dq else [[], []])
    all_null = (pl.col(c.games_a).is_null() & pl.col(c.games_b).is_null()
                & pl.col(c.games_drawn).is_null())
    bye = pl.col(c.player_b).is_null() & all_null
    seat_a = lf.select(
        *extra, pl.col(ROUND),
        pl.col(c.player_a).alias(PLAYER_ID), pl.col(c.player_b).alias(OPPONENT_ID),
        pl.when(bye).then(bye_games[0]).otherwise(pl.col(c.games_a)).alias(GAMES_WON),
        pl.when(bye).then(bye_games[1]).otherwise(pl.col(c.games_b)).alias(GAMES_LOST),
        pl.when(bye).then(bye_games[2]).otherwise(pl.col(c.games_drawn)).alias(GAMES_DRAWN),
        *seat_flags[0],
    )
    # (a player paired with themself is one seat: two identical rows reported the one
    # self-pairing twice, and as a seat taken twice)
    seat_b = lf.filter(pl.col(c.player_b).is_not_null()
                       & (pl.col(c.player_b) != pl.col(c.player_a)).fill_null(value=True)
                       ).select(
        *extra, pl.col(ROUND),
        pl.col(c.player_b).alias(PLAYER_ID), pl.col(c.player_a).alias(OPPONENT_ID),
        pl.col(c.games_b).alias(GAMES_WON),
        pl.col(c.games_a).alias(GAMES_LOST),
        pl.col(c.games_drawn).alias(GAMES_DRAWN),
        *seat_flags[1],
    )
    out = pl.concat([seat_a, seat_b], how="vertical_relaxed")
    order = [EVENT_ID, ROUND, PLAYER_ID, OPPONENT_ID, GAMES_WON, GAMES_LOST, GAMES_DRAWN]
    out = out.select(*order, *[n for n in extra if n not in order],
                     *([DISQUALIFIED] if dq else []))
    # (every cell is whole: _check_match_integers named any other)
    schema_out = out.collect_schema()
    return out.with_columns(whole_numbers(n, schema_out[n]) for n in INT_COLUMNS).pipe(collect)


def _check_match_integers(lf: pl.LazyFrame, c: MatchColumns) -> None:
    """The round and game columns of the match form must hold whole numbers; name the rows
    that do not (a text round in a CSV reached the cast below, whose Polars error named
    neither the row nor the value)."""
    schema = lf.collect_schema()
    for col in (ROUND, c.games_a, c.games_b, c.games_drawn):
        dt = schema[col]
        if not (dt.is_integer() or dt == pl.Null or dt.is_float() or string_like(dt)):
            msg = f"match table column {col!r} is {dt}, expected integers. Hint: cast it."
            raise SchemaError(msg)
        where = not_whole_cells(lf, col, [EVENT_ID, ROUND, c.player_a, c.player_b])
        if where:
            msg = (f"match table column {col!r} holds values that are not whole numbers "
                   f"within 64 bits ({where}). Hint: {_WHOLE_HINT[col == ROUND]}; fix or "
                   "remove those rows.")
            raise SchemaError(msg)


#: Integer dtypes that can hold a value past Int64 (the contract's integer type).
WIDER_THAN_INT64: Final = (pl.UInt64, pl.Int128, pl.UInt128)


def fits_int64(dtype: pl.DataType) -> bool:
    """Whether every value of ``dtype`` is an Int64: an integer dtype not in
    :data:`WIDER_THAN_INT64` (the one test for the readers, the match form, ``validate``'s
    coercion and the keys the running sums code as they are).

    >>> fits_int64(pl.UInt32), fits_int64(pl.UInt64), fits_int64(pl.Float64)
    (True, False, False)
    """
    return dtype.is_integer() and dtype not in WIDER_THAN_INT64


def whole_numbers(column: str, dtype: pl.DataType) -> pl.Expr:
    """``column`` (of ``dtype``) read as Int64 the way the contract reads a whole-number
    cell (a round, a game count): integers as they are; floats and decimals when integral
    and inside Int64 (``3.0``); text without surrounding blanks and a trailing ``.0``
    (``" 3 "``, ``"3.0"``, ``"+3"``). Null where a value is not a whole number: text, a
    fraction, an exponent (``"2e0"``: a spreadsheet's number format, not a count), digits
    other than ASCII ``0-9`` (``"４"``, ``"٤"``), a number past Int64 (of any type;
    callers name such cells, :func:`not_whole_cells`, before reading them). The one
    reading of such a cell (``from_matches``, :func:`not_whole_cells`, ``validate``'s
    coercion, a CSV file's cells: ``io._files.typed_columns``).

    Examples
    --------
    >>> df = pl.DataFrame({"g": [" 3 ", "3.0", "x", "2.5"]})
    >>> df.select(whole_numbers("g", pl.String))["g"].to_list()
    [3, 3, None, None]
    """
    col = pl.col(column)
    if dtype.is_integer():
        return col.cast(pl.Int64, strict=False)
    if dtype.is_float() or dtype.is_decimal():
        x = col.cast(pl.Float64)
        whole = x.is_finite() & (x == x.floor()) & (x.abs() < 2.0**63)
        return pl.when(whole).then(x).cast(pl.Int64, strict=False)
    if not has_text_form(dtype):  # (a Duration, a list: no cell of it is a number)
        return pl.lit(None, dtype=pl.Int64).alias(column)
    return (col.cast(pl.String).str.strip_chars().str.replace(r"\.0+$", "")
            .cast(pl.Int64, strict=False))


#: A whole number as a file writes it in text: ASCII digits, a sign, a trailing ``.0``.
_WHOLE_TEXT: Final = re.compile(r"[+-]?[0-9]+(?:\.0+)?")


def games_to_win(best_of: int) -> int:
    """The game wins that end a best-of-``best_of`` match (2 of 3): the bound of
    :func:`impossible_score` and of the words that explain it.

    >>> games_to_win(3), games_to_win(5), games_to_win(1)
    (2, 3, 1)
    """
    return best_of // 2 + 1


def impossible_score_words(best_of: int) -> str:
    """What :func:`impossible_score` says of a score it finds, in the words of both its
    readers (``validate``'s ``impossible_score``, the decklist reader's note): written
    once (bad data 145).

    >>> impossible_score_words(3)
    'not a possible best-of-3 result (a match ends when a player wins 2 games)'
    """
    return (f"not a possible best-of-{best_of} result (a match ends when a player wins "
            f"{games_to_win(best_of)} games)")


def impossible_score(won: pl.Expr, lost: pl.Expr, best_of: int) -> pl.Expr:
    """Whether a seat's ``won``-``lost`` games are no best-of-``best_of`` match's result:
    more game wins than needed (3-0 in best of three) or both players at the needed wins
    (2-2). The one rule of ``validate``'s ``impossible_score`` and of the decklist
    reader's note of it (class 134).

    >>> df = pl.DataFrame({"w": [2, 3, 2, 1], "l": [1, 0, 2, 0]})
    >>> df.select(impossible_score(pl.col("w"), pl.col("l"), 3))["w"].to_list()
    [False, True, True, False]
    """
    need = games_to_win(best_of)
    return (won > need) | (lost > need) | ((won == need) & (lost == need))


def whole_text(text: str) -> int | None:
    """A whole number written in a file's text (a TOM attribute, a decklist cell) read as
    :func:`whole_numbers` reads a text cell — blanks around, a sign, a trailing ``.0``,
    ASCII digits only — or None: not Python's ``int()``, which read ``"1_0"`` as 10 and
    other scripts' digits (``"١"``) as numbers, without a word.

    >>> [whole_text(t) for t in (" 3 ", "+3", "3.0", "1_0", "١", "2e0")]
    [3, 3, 3, None, None, None]
    """
    t = text.strip()
    if t.isascii() and t.isdigit():  # (the usual cell, without the pattern: a file's every number)
        return int(t)
    return int(t.split(".")[0]) if _WHOLE_TEXT.fullmatch(t) else None


#: What a whole-number column holds (game counts, round numbers), for the hints.
_WHOLE_HINT: Final = {False: "game counts are whole numbers ≥ 0 (ASCII digits 0-9, no "
                             "exponent)",
                      True: "round numbers are whole numbers ≥ 1 (ASCII digits 0-9, no "
                            "exponent)"}


def not_whole_cells(frame: pl.LazyFrame | pl.DataFrame, column: str,
                    context: Sequence[str]) -> str:
    """The first rows (at most :data:`MAX_LISTED_PROBLEMS`) whose ``column`` holds a value
    that is not a whole number — text, a fraction, a number past 64 bits (``3.0`` is
    one) — as ``row N, event 'e', round 2, 'A' vs 'B': 'x'`` from the ``context``
    columns present (``N`` counts the table's rows from 1, as the ``null_value`` rule
    does: the first data row of a file is row 1); "" when every value is whole. The one
    test of a whole-number cell for the readers and the match form."""
    dtype = frame.lazy().collect_schema()[column]
    if dtype == pl.Null or fits_int64(dtype):
        return ""  # every value is an Int64 (wider integers are read: one may not be)
    return unread_cells(frame, column, context, whole_numbers(column, dtype))


#: How a flag cell (``double_loss``) is written in a text file, case-insensitively; a
#: blank cell is no flag (False). The one list of a flag's spellings
#: (:func:`flag_values`).
FLAG_SPELLINGS: Final[Mapping[bool, tuple[str, ...]]] = {
    True: ("true", "yes", "1"), False: ("false", "no", "0")}


def flag_values(column: str, dtype: pl.DataType) -> pl.Expr:
    """``column`` (of ``dtype``) read as Boolean the way the contract reads a flag cell:
    Booleans as they are; the integers 1 and 0; text spelled as in :data:`FLAG_SPELLINGS`
    (``"TRUE"``, ``" yes "``, ``"0"``), a blank text as null. Null where a value is none
    of these (callers name such cells, :func:`not_flag_cells`). The one reading of a
    flag cell (the readers, ``validate``'s coercion).

    Examples
    --------
    >>> df = pl.DataFrame({"f": ["Yes", "false", "1", "", "maybe"]})
    >>> df.select(flag_values("f", pl.String))["f"].to_list()
    [True, False, True, None, None]
    """
    col = pl.col(column)
    if dtype in (pl.Boolean, pl.Null):
        return col.cast(pl.Boolean)
    if dtype.is_integer():
        return pl.when(col == 1).then(True).when(col == 0).then(False) \
            .otherwise(None).cast(pl.Boolean)
    if not has_text_form(dtype):  # (a Duration, a list: no cell of it is a flag)
        return pl.lit(None, dtype=pl.Boolean).alias(column)
    text = col.cast(pl.String).str.strip_chars().str.to_lowercase()
    spelled = {s: v for v, spellings in FLAG_SPELLINGS.items() for s in spellings}
    return text.replace_strict(spelled, default=None, return_dtype=pl.Boolean)


def flag_text(text: str) -> bool | None:
    """One flag written as text (a file's element or attribute) read as
    :func:`flag_values` reads a cell: the spellings of :data:`FLAG_SPELLINGS` in any case,
    blanks around; None for anything else (the caller names it).

    >>> flag_text(" TRUE "), flag_text("0"), flag_text("maybe")
    (True, False, None)
    """
    t = text.strip().lower()
    return next((v for v, spellings in FLAG_SPELLINGS.items() if t in spellings), None)


def flag_spellings() -> str:
    """The spellings :func:`flag_values` reads, for messages: ``true/false, yes/no, 1/0``."""
    return ", ".join(f"{t}/{f}" for t, f in zip(FLAG_SPELLINGS[True], FLAG_SPELLINGS[False],
                                               strict=True))


def flag_cells(column: str, dtype: pl.DataType) -> pl.Expr:
    """:func:`flag_values` with a blank text cell read as no flag (False): null exactly
    where a cell holds something that is no flag — the test of a bad flag cell
    (:func:`not_flag_cells`, ``validate``'s coercion)."""
    if not string_like(dtype):
        return flag_values(column, dtype)
    blank = pl.col(column).cast(pl.String).str.strip_chars() == ""
    return pl.when(blank).then(pl.lit(value=False)).otherwise(flag_values(column, dtype))


def not_flag_cells(frame: pl.LazyFrame | pl.DataFrame, column: str,
                   context: Sequence[str]) -> str:
    """The first rows whose flag ``column`` holds a value :func:`flag_values` cannot read
    (``"maybe"``, ``2``), named as :func:`not_whole_cells` names them; "" when every
    value is a flag or blank."""
    dtype = frame.lazy().collect_schema()[column]
    if dtype in (pl.Boolean, pl.Null):
        return ""
    return unread_cells(frame, column, context, flag_cells(column, dtype))


def unread_cells(frame: pl.LazyFrame | pl.DataFrame, column: str, context: Sequence[str],
                 read: pl.Expr) -> str:
    """The first rows (at most :data:`MAX_LISTED_PROBLEMS`) whose ``column`` is not null
    but whose reading ``read`` is, as ``row N, event 'e', round 2, 'A' vs 'B': 'x'``
    (:func:`not_whole_cells`, :func:`not_flag_cells`)."""
    lf = frame.lazy()
    schema = lf.collect_schema()
    bad = (lf.with_row_index(_ROW_COLUMN, offset=1)
           .filter(pl.col(column).is_not_null() & read.is_null())
           .select(*dict.fromkeys([_ROW_COLUMN, *[c for c in context if c in schema], column]))
           .head(MAX_LISTED_PROBLEMS).pipe(collect))
    shown = []
    for r in bad.iter_rows(named=True):
        parts = [f"row {r[_ROW_COLUMN]}"]
        if EVENT_ID in r:
            parts.append(f"event {quoted(r[EVENT_ID])}")
        if ROUND in r and column != ROUND:
            parts.append(f"round {r[ROUND]}")
        who = [quoted(r[k]) for k in context if k in r and k not in (EVENT_ID, ROUND)]
        head = ", ".join(parts) + (f", {' vs '.join(who)}" if who else "")
        shown.append(f"{head}: {quoted(r[column])}")
    return "; ".join(shown)


#: Per-seat columns of the long form that the match form (one row per match) has no place
#: for: :func:`to_matches` leaves them out, and says so when they hold something.
_SEAT_ONLY: Final = ("unplayed", "color")


#: The kinds of the columns of the analyses' outputs that other calls read back (a chart's
#: table, ``id_advice``'s ``status``: an analysis's output, perhaps saved and read back):
#: ids (text, or whole numbers as a file read back gives a TRF's), text, whole numbers,
#: numbers, lists of ids (:func:`mistyped_outputs`).
OUTPUT_KINDS: Final[Mapping[str, str]] = {
    **dict.fromkeys(("event_id", "player_id"), "text or whole number"),
    **dict.fromkeys(("ruleset", "status", "outcome", "event_name", "method",
                     "cut_criterion"), "text"),
    **dict.fromkeys(("round", "rank", "rounds_played", "players", "wins", "losses", "draws",
                     "byes", "ids_final", "swiss_rounds"), "whole number"),
    **dict.fromkeys(("match_points", "mwp", "gwp", "omwp", "ogwp", "oomwp", "probability",
                     "omwp_min", "omwp_max", "gwp_min", "gwp_max", "ogwp_min", "ogwp_max",
                     "match_points_n", "cut_gap", "kendall_tau", "cf_cut_points_mean",
                     "final_ids_safe_both", "cf_topn_changed_share"), "number"),
    **dict.fromkeys(("entering", "leaving"), "list of text"),
    # (sf.verify's tables, which summarize reads back)
    **dict.fromkeys(("in_rounds", "in_standings", "match", "omwp_match", "gwp_match",
                     "ogwp_match", "rank_match"), "boolean"),
}


def _of_kind(dtype: PolarsDataType, kind: str) -> bool:
    if kind == "text or whole number":
        # (read as text where it is read: a TRF's or TOM's whole-number player ids, saved
        # to CSV and read back, are Int64 — refusing them refused a chart of such a table)
        return is_id_type(dtype)
    if kind == "text":
        return dtype in (pl.String, pl.Categorical) or isinstance(dtype, pl.Enum)
    if kind == "whole number":
        return dtype.is_integer()
    if kind == "number":
        return dtype.is_numeric()
    if kind == "boolean":
        return dtype == pl.Boolean
    return isinstance(dtype, pl.List) and _of_kind(dtype.inner, "text or whole number")


def mistyped_outputs(schema: pl.Schema, required: Sequence[str]) -> list[str]:
    """The columns of an analysis's output, given back to another call, whose type is not
    the kind the analysis writes (:data:`OUTPUT_KINDS`), as ``"rank is String, expected
    whole number"``: ranks as text, ids as lists or objects, a ``required`` column with
    no value (Null; an optional one may be). Such columns were Polars' bare errors, panics
    or Altair's errors deeper in (the charts, ``id_advice``'s ``status``).

    >>> mistyped_outputs(pl.Schema({"rank": pl.String, "omwp": pl.Float64}), ["rank"])
    ['rank is String, expected whole number']
    """
    return [f"{c} is {schema[c]}, expected {kind}" for c, kind in OUTPUT_KINDS.items()
            if c in schema and not _of_kind(schema[c], kind)
            and not (schema[c] == pl.Null and c not in required)]


def check_output(table: pl.DataFrame, needed: Sequence[str], *, what: str, result: str,
                 hint: str) -> None:
    """Refuse an analysis's output given back to another call (a chart's table,
    ``id_advice``'s ``status``, ``summarize``'s verify table) without the ``needed``
    columns, or with a column not of the kind the analysis writes
    (:func:`mistyped_outputs`): a :class:`SchemaError` naming ``what`` and the columns, saying it
    is not ``result``, ending in ``hint``. Such tables were Polars' bare
    ``ColumnNotFoundError`` or a cast error deeper in.

    >>> check_output(pl.DataFrame({"a": [1]}), ["rank"], what="status",
    ...              result="a cut_status result", hint="pass sf.cut_status(...).")
    Traceback (most recent call last):
    ...
    swissframe.errors.SchemaError: status lacks column(s) ['rank']: it is not a cut_status ...
    """
    lacking = [c for c in needed if c not in table.columns]
    if lacking:
        msg = (f"{what} lacks column(s) {lacking}: it is not {result} (found "
               f"{table.columns[:12]}{' …' if table.width > 12 else ''}). Hint: {hint}")
        raise SchemaError(msg)
    wrong = mistyped_outputs(table.schema, needed)
    if wrong:
        msg = (f"{what} has mistyped column(s): {'; '.join(wrong)}: not {result} as it "
               f"writes it. Hint: {hint}")
        raise SchemaError(msg)


def _warn_match_form_losses(lf: pl.LazyFrame, names: Sequence[str]) -> None:
    """A :class:`~swissframe.errors.DataWarning` when :func:`to_matches` drops something:
    set cells of a per-seat column (``_SEAT_ONLY``), or double losses, whose seat B reads
    as the mirror of seat A's games when the matches are read back."""
    seat = [c for c in _SEAT_ONLY if c in names]
    exprs = [pl.col(c).is_not_null().sum().alias(c) for c in seat]
    if "double_loss" in names:
        exprs.append(pl.col("double_loss").fill_null(value=False).sum().alias("double_loss"))
    if not exprs:
        return
    counts = {k: int(v) for k, v in lf.select(exprs).pipe(collect).row(0, named=True).items()
              if v}
    if not counts:
        return
    parts = [count(n, f"{c} cell") for c, n in counts.items() if c != "double_loss"]
    if counts.get("double_loss"):
        parts.append(f"{count(counts['double_loss'], 'double-loss seat')} (seat A's games are "
                     "kept; read back, seat B gets their mirror)")
    msg = (f"to_matches: the match form has one row per match and leaves out {', '.join(parts)}."
           " Hint: keep the long form (what sf.standings reads) to keep them.")
    warnings.warn(msg, DataWarning, stacklevel=3)


def to_matches(results: pl.LazyFrame | pl.DataFrame, *,
               columns: MatchColumns = MATCH_COLUMNS) -> pl.DataFrame:
    """Collapse a validated long table to one row per match (the inverse of
    :func:`from_matches`). Seat A is the lexicographically smaller player id.

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> m = pl.DataFrame({"round": [1], "player_a": ["A"], "player_b": ["B"],
    ...     "games_a": [2], "games_b": [1], "games_drawn": [0]})
    >>> sf.to_matches(sf.from_matches(m)).select("player_a", "player_b", "games_a", "games_b")
    shape: (1, 4)
    ┌──────────┬──────────┬─────────┬─────────┐
    │ player_a ┆ player_b ┆ games_a ┆ games_b │
    │ ---      ┆ ---      ┆ ---     ┆ ---     │
    │ str      ┆ str      ┆ i64     ┆ i64     │
    ╞══════════╪══════════╪═════════╪═════════╡
    │ A        ┆ B        ┆ 2       ┆ 1       │
    └──────────┴──────────┴─────────┴─────────┘
    """
    c = check_match_columns(columns)
    lf = validate_results(results)
    keep = pl.col(OPPONENT_ID).is_null() | (pl.col(PLAYER_ID) < pl.col(OPPONENT_ID))
    # a double loss keeps its flag (seat A's games; the match form has no other place)
    names = lf.collect_schema().names()
    flags = [f for f in FLAG_COLUMNS if f in names and f != DISQUALIFIED]
    # (a round is of one stage, validated: the match's, as its phase is)
    stage = [STAGE] if STAGE in names else []
    _warn_match_form_losses(lf, names)
    seat_b: list[pl.Expr] = []
    if DISQUALIFIED in names:  # each seat's own flag (seat B's from its mirror row)
        mirror = lf.select(EVENT_ID, ROUND, pl.col(PLAYER_ID).alias("_b"),
                           pl.col(DISQUALIFIED).alias(_DQ_SEATS[1]))
        lf = lf.join(mirror, left_on=[EVENT_ID, ROUND, OPPONENT_ID],
                     right_on=[EVENT_ID, ROUND, "_b"], how="left")
        seat_b = [pl.col(DISQUALIFIED).alias(_DQ_SEATS[0]),
                  pl.col(_DQ_SEATS[1]).fill_null(value=False)]
    return lf.filter(keep).select(
        EVENT_ID, ROUND,
        pl.col(PLAYER_ID).alias(c.player_a), pl.col(OPPONENT_ID).alias(c.player_b),
        pl.col(GAMES_WON).alias(c.games_a), pl.col(GAMES_LOST).alias(c.games_b),
        pl.col(GAMES_DRAWN).alias(c.games_drawn), PHASE, *stage, *flags, *seat_b,
    ).sort(EVENT_ID, ROUND, c.player_a).pipe(collect)


def repair_mirrors(results: pl.LazyFrame | pl.DataFrame, *, default_event_id: str = "event",
                   keys: Sequence[str] = ()) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Add the missing mirror seat of every one-sided match — an explicit, reported repair.

    Returns ``(repaired, added)``: the completed long table, and exactly the rows that were
    added (each the mirror of an existing row). Contradictory mirrors are not touched: they
    still fail validation.

    An added row is the opponent's seat of the row it mirrors (:func:`_seat_of_opponent`):
    ids and games swapped, a ``forfeit_win`` its ``forfeit_loss`` (and back), a colour the
    other colour, not ``disqualified`` (the flag is the row's own player's); what the two
    seats share — ``phase``, ``stage``, ``double_loss``, the ``keys`` columns (a seat is
    looked for within them) — copied. Any other column is null there: the repair cannot
    tell a seat's own cell (a name, a deck) from the match's.

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> one_sided = pl.DataFrame({"round": [1], "player_id": ["a"], "opponent_id": ["b"],
    ...     "games_won": [2], "games_lost": [1], "games_drawn": [0]})
    >>> repaired, added = sf.repair_mirrors(one_sided)
    >>> added.select("player_id", "opponent_id", "games_won", "games_lost").rows()
    [('b', 'a', 1, 2)]
    """
    names = key_columns(keys)
    df = _without_reserved(_materialised(results, default_event_id=default_event_id), names)
    _check_keys(df.schema, names)
    lf = df.lazy()
    seat = [*names, EVENT_ID, ROUND, PLAYER_ID]
    mirrored = lf.filter(pl.col(OPPONENT_ID).is_not_null()).select(
        _seat_of_opponent(df.schema, names))
    added = mirrored.join(lf.select(seat), on=seat, how="anti", nulls_equal=True)
    added_df = added.pipe(collect)
    repaired = pl.concat([df, added_df], how="vertical").sort(
        [*names, EVENT_ID, ROUND, PLAYER_ID, OPPONENT_ID], nulls_last=True)
    return repaired, added_df


#: The columns the two seats of a match share, copied to a mirror seat by
#: :func:`repair_mirrors` (with its keys).
_MATCH_SHARED: Final = (EVENT_ID, ROUND, PHASE, STAGE, "double_loss")


def _seat_of_opponent(schema: pl.Schema, keys: Sequence[str]) -> list[pl.Expr]:
    """Each column of a long table's row as its opponent's seat of that match reads it
    (:func:`repair_mirrors`): ids and games swapped, the per-seat codes turned (a forfeit
    win is the other seat's forfeit loss, white is black), ``disqualified`` False, the
    match's columns and ``keys`` copied, every other column null (whose seat it is, the
    table does not say). In ``schema``'s order and types."""
    swapped = {PLAYER_ID: pl.col(OPPONENT_ID), OPPONENT_ID: pl.col(PLAYER_ID),
               GAMES_WON: pl.col(GAMES_LOST), GAMES_LOST: pl.col(GAMES_WON),
               GAMES_DRAWN: pl.col(GAMES_DRAWN),
               "unplayed": pl.col("unplayed").replace(dict(zip(FORFEITS, FORFEITS[::-1],
                                                              strict=True))),
               "color": pl.col("color").replace(dict(zip(COLORS, COLORS[::-1], strict=True))),
               DISQUALIFIED: pl.lit(value=False)}
    shared = {*_MATCH_SHARED, *keys}
    return [(swapped[c] if c in swapped else pl.col(c) if c in shared
             else pl.lit(None)).cast(dtype).alias(c) for c, dtype in schema.items()]
