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

- ``stage`` (String): a sub-phase label such as ``"day1"`` / ``"day2"``.
- ``color`` (String): ``"w"`` / ``"b"`` for chess.
- ``unplayed`` (String): why a round was not played over the board (chess, FIDE C.07
  Art. 16): one of :data:`UNPLAYED_KINDS`; null for a played game.
- ``double_loss`` (Boolean): True on both seats of a match that both players lost (an
  unresolved Star Wars: Unlimited / One Piece match, TOM outcome 10, a double match loss).
  The match is a loss for each seat whatever its games (0 points each). Each seat's games
  are its own (a game both lost counts as lost on both seats, so the pair need not
  mirror: TOM writes ``0-1-0`` twice) and count in GW% under the game's own rules. Both
  seats must carry the flag (``double_loss_mismatch`` otherwise); a 0-1 / 0-1 pair
  without it stays a ``mirror_mismatch``.

Rows the contract refuses (each a kind of :func:`find_problems`, named with event, round and
player): a null required cell, an empty id (``""``: an empty cell of a match-form table
would otherwise become a phantom player), a round below 1, a negative game count, a phase
other than ``swiss``/``playoff``, an unknown ``unplayed`` or ``color`` code, a self-pairing,
a game count above :data:`MAX_GAMES`, a duplicate seat, a missing or contradictory mirror,
the two seats of one match in different phases, and an unpaired row scored as a draw
with games (1-1-1, 0-0-3: an unpaired round is a bye — more games won — or an unopposed
loss; ``unplayed="half_bye"`` makes it a draw; an unpaired 0-0-0 is an unreported round,
counted as a draw as CardsRealm publishes it, and ``validate`` reports it as
``zero_games``).

Everything downstream of :func:`validate_results` trusts its input.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import polars as pl

from swissframe._collect import choose, collect, collect_all, scoped
from swissframe.errors import SchemaError, ValidationError

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

#: Optional columns with a documented meaning; any other extra column is passed through.
OPTIONAL_COLUMNS: Final[Mapping[str, pl.DataType]] = {
    "stage": pl.String(),
    "color": pl.String(),
    "unplayed": pl.String(),
}

#: Optional flag columns (Boolean; null reads as False).
FLAG_COLUMNS: Final[Mapping[str, pl.DataType]] = {"double_loss": pl.Boolean()}

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

#: Integer columns of the contract.
INT_COLUMNS: Final = (ROUND, GAMES_WON, GAMES_LOST, GAMES_DRAWN)
#: Id columns of the contract.
ID_COLUMNS: Final = (EVENT_ID, PLAYER_ID, OPPONENT_ID)
#: Columns a results table must have (event_id and phase are filled when absent).
REQUIRED_COLUMNS: Final = (ROUND, PLAYER_ID, OPPONENT_ID, GAMES_WON, GAMES_LOST, GAMES_DRAWN)
_STR_COLUMNS: Final = (*ID_COLUMNS, PHASE)


def _string_like(dtype: pl.DataType) -> bool:
    return dtype in (pl.String, pl.Categorical, pl.Null) or isinstance(dtype, pl.Enum)


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
    bad: list[str] = []
    for c in INT_COLUMNS:
        dt = schema[c]
        if not (dt.is_integer() or dt == pl.Null):
            bad.append(f"{c} is {dt}, expected an integer type")
    for c in _STR_COLUMNS:
        if c in schema and not _string_like(schema[c]):
            bad.append(f"{c} is {schema[c]}, expected a string type")
    for c in OPTIONAL_COLUMNS:
        if c in schema and not _string_like(schema[c]):
            bad.append(f"{c} is {schema[c]}, expected a string type")
    bad += [f"{c} is {schema[c]}, expected Boolean" for c in FLAG_COLUMNS
            if c in schema and schema[c] not in (pl.Boolean, pl.Null)]
    if bad:
        msg = ("results table has mistyped column(s): " + "; ".join(bad)
               + ". Hint: cast ids with pl.col(...).cast(pl.String) and game counts to integers.")
        raise SchemaError(msg)
    exprs: list[pl.Expr] = []
    if EVENT_ID not in schema:
        exprs.append(pl.lit(default_event_id, dtype=pl.String).alias(EVENT_ID))
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
    return _problems_and_frame(results, default_event_id=default_event_id, keys=keys)[0]


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
    """

    codes: pl.DataFrame
    events: pl.Series
    players: pl.Series

    @property
    def player_bits(self) -> int:
        """Bits of a player code (``_e * 2**player_bits + _p`` is one (event, player) key)."""
        return max(self.players.len(), 1).bit_length()

    @property
    def event_bits(self) -> int:
        """Bits of an event code."""
        return max(self.events.len(), 1).bit_length()


def _id_codes(df: pl.DataFrame) -> IdCodes | None:
    """``IdCodes`` of a normalised frame (ids are strings there); None when empty."""
    if df.height == 0:
        return None
    # both dictionaries in one select: Polars computes its expressions in parallel
    found = df.select(
        pl.col(EVENT_ID).unique().drop_nulls().sort().implode(),
        pl.col(PLAYER_ID).unique().append(pl.col(OPPONENT_ID).unique()).unique().drop_nulls()
        .sort().implode())
    events, players = found[EVENT_ID].explode(), found[PLAYER_ID].explode()
    ev_enum, pl_enum = pl.Enum(events), pl.Enum(players)

    def code(col: str, enum: pl.Enum) -> pl.Expr:
        return pl.col(col).cast(enum).to_physical().cast(pl.Int64)

    codes = df.select(_e=code(EVENT_ID, ev_enum), _p=code(PLAYER_ID, pl_enum),
                      _o=code(OPPONENT_ID, pl_enum))
    return IdCodes(codes=codes, events=events, players=players)


def _checked(results: pl.LazyFrame | pl.DataFrame, *, default_event_id: str,
             keys: Sequence[str], coded: bool = True
             ) -> tuple[pl.DataFrame, pl.DataFrame, IdCodes | None]:
    """The problems table, the normalised input, and its id codes (None with ``keys``).

    Every check is a filter, a count of distinct seats (duplicate seats) or one join
    (mirrors) over the materialised table; each collects only the offending rows. Without
    extra ``keys`` the keyed checks run on one Int64 key per row built from the id codes
    (which the engine reuses); ``coded=False`` forces the keyed checks on categorical
    columns (the tests' reference; also the path for extra keys or keys too wide for 63
    bits).
    """
    try:
        # one chunk: several Polars kernels panic on multi-chunk inputs (a concat of two
        # frames, two files), and the checks below index rows by position
        df = _normalise(_lazy(results), default_event_id=default_event_id).pipe(collect).rechunk()
    except (pl.exceptions.InvalidOperationError, pl.exceptions.ComputeError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        msg = (f"results table cannot be read as the contract's types: {first}. Hint: game "
               "counts must be whole numbers that fit in 64 bits, ids strings.")
        raise SchemaError(msg) from exc
    choose(df.height)  # the rest of this call's queries run on the engine for its size
    lf = df.lazy()
    ev = [EVENT_ID, *keys]  # an event is identified by event_id plus any analysis keys
    rec = (pl.col(GAMES_WON).cast(pl.String) + "-" + pl.col(GAMES_LOST).cast(pl.String) + "-"
           + pl.col(GAMES_DRAWN).cast(pl.String))
    pending: list[pl.LazyFrame] = []

    def add(kind: str, frame: pl.LazyFrame, detail: pl.Expr) -> None:
        pending.append(_problem(kind, frame, detail))

    # a null phase would make the engine skip the row, so it is required like the rest
    required = (EVENT_ID, ROUND, PLAYER_ID, GAMES_WON, GAMES_LOST, GAMES_DRAWN, PHASE)
    null_any = pl.any_horizontal(pl.col(c).is_null() for c in required)
    add("null_value", lf.filter(null_any),
        pl.concat_str([pl.lit("null in "), pl.concat_list(
            [pl.when(pl.col(c).is_null()).then(pl.lit(c)) for c in required]
        ).list.drop_nulls().list.join(", ")]))
    has_null = bool(df.select(null_any.any()).item())
    lf_ok = lf.filter(~null_any) if has_null else lf
    add("round_below_1", lf_ok.filter(pl.col(ROUND) < 1),
        pl.format("round {} (rounds start at 1)", pl.col(ROUND)))
    neg = pl.any_horizontal(pl.col(c) < 0 for c in (GAMES_WON, GAMES_LOST, GAMES_DRAWN))
    add("negative_games", lf_ok.filter(neg), pl.format("record {}", rec))
    add("bad_phase", lf_ok.filter(~pl.col(PHASE).is_in(PHASES)),
        pl.format("phase '{}' (expected 'swiss' or 'playoff')", pl.col(PHASE).fill_null("null")))
    add("self_pairing", lf_ok.filter(pl.col(PLAYER_ID) == pl.col(OPPONENT_ID)),
        pl.lit("paired with themself"))
    _row_checks(df, lf_ok, add)
    codes = _id_codes(df) if coded and not keys else None
    done = False
    if codes is not None:
        with_codes = df.hstack(codes.codes)
        done = _coded_keyed_checks(with_codes.filter(~null_any) if has_null else with_codes,
                                   codes, add, rec)
    if not done:
        _categorical_keyed_checks(lf_ok, ev, add, rec)
    if "double_loss" in df.columns and df["double_loss"].any():
        _double_loss_checks(lf_ok, ev, add)
    # every check over the materialised table in one parallel collection (one plan each)
    checks = collect_all(pending)
    # only the checks that found something are cast (the usual case: none, one cast)
    found = [c for c in checks if c.height] or checks[:1]
    out = (pl.concat([c.cast(FIND_PROBLEMS_SCHEMA) for c in found], how="vertical")  # type: ignore[arg-type]
           .sort("kind", EVENT_ID, ROUND, PLAYER_ID, nulls_last=True, maintain_order=True))
    return out, df, codes


_Add = Callable[[str, pl.LazyFrame, pl.Expr], None]


def _row_checks(df: pl.DataFrame, lf_ok: pl.LazyFrame, add: _Add) -> None:
    """Empty ids, unknown codes, unpaired draws and matches split across phases."""
    players = (PLAYER_ID, OPPONENT_ID)  # (an empty event id is only an odd name)
    empty = pl.any_horizontal(pl.col(c) == "" for c in players).fill_null(False)
    add("empty_id", lf_ok.filter(empty), pl.concat_str([pl.lit("empty "), pl.concat_list(
        [pl.when(pl.col(c) == "").then(pl.lit(c)) for c in players]
    ).list.drop_nulls().list.join(", "), pl.lit(" (an empty cell is not a player)")]))
    counts = (GAMES_WON, GAMES_LOST, GAMES_DRAWN)
    add("too_many_games", lf_ok.filter(pl.any_horizontal(pl.col(c) > MAX_GAMES for c in counts)),
        pl.format("game counts {}-{}-{} are outside 0..{} (games of one match)",
                  *[pl.col(c) for c in counts], pl.lit(MAX_GAMES)))
    for col, vocab in VOCABULARY.items():
        if col in df.columns:
            add("bad_value", lf_ok.filter(pl.col(col).is_not_null() & ~pl.col(col).is_in(vocab)),
                pl.format("{} '{}' is not one of {}", pl.lit(col), pl.col(col),
                          pl.lit(", ".join(vocab))))
    half_bye = (pl.col("unplayed") == "half_bye").fill_null(False) if "unplayed" in df.columns \
        else pl.lit(False)
    # (an unpaired 0-0-0 is an unreported round, counted as a draw as some platforms do and
    # reported by validate as zero_games; a drawn score with games is a draw with nobody)
    games = pl.col(GAMES_WON) + pl.col(GAMES_LOST) + pl.col(GAMES_DRAWN)
    add("unpaired_draw", lf_ok.filter(pl.col(OPPONENT_ID).is_null() & (games > 0)
                                      & (pl.col(GAMES_WON) == pl.col(GAMES_LOST)) & ~half_bye),
        pl.format("unpaired round scored {}-{}-{}, a draw with nobody",
                  pl.col(GAMES_WON), pl.col(GAMES_LOST), pl.col(GAMES_DRAWN)))
    if (df[PHASE] == "playoff").any() and (df[PHASE] == "swiss").any():
        # the two seats of one match in different phases would count for one side only
        paired = lf_ok.filter(pl.col(OPPONENT_ID).is_not_null())
        seats = [EVENT_ID, ROUND, PLAYER_ID, OPPONENT_ID]
        mirror = {PLAYER_ID: OPPONENT_ID, OPPONENT_ID: PLAYER_ID}
        playoff = paired.filter(pl.col(PHASE) == "playoff")
        swiss_mirrors = paired.filter(pl.col(PHASE) == "swiss").select(seats).rename(mirror)
        po_bad = playoff.join(swiss_mirrors, on=seats, how="semi")
        sw_bad = paired.filter(pl.col(PHASE) == "swiss").join(
            playoff.select(seats).rename(mirror), on=seats, how="semi")
        add("phase_mismatch", pl.concat([po_bad, sw_bad]),
            pl.format("{} reports this match as {}, {} as the other phase",
                      pl.col(PLAYER_ID), pl.col(PHASE), pl.col(OPPONENT_ID)))


def _describe_duplicates(offending: pl.LazyFrame, ev: list[str], add: _Add) -> None:
    """``duplicate_seat`` problems from the rows of the seats taken more than once."""
    dup = (offending.group_by([*ev, ROUND, PLAYER_ID])
           .agg(pl.len().alias("_n"), pl.col(OPPONENT_ID).fill_null("(none)").unique().sort()
                .str.join(", ").alias("_opps"))
           .with_columns(pl.lit(None, dtype=pl.String).alias(OPPONENT_ID)))
    add("duplicate_seat", dup,
        pl.format("{} rows for this player in this round (opponents: {})",
                  pl.col("_n"), pl.col("_opps")))


def _describe_mirrors(bad: pl.DataFrame, lf_ok: pl.LazyFrame, ev: list[str], add: _Add,
                      rec: pl.Expr) -> None:
    """Mirror problems from the paired rows whose mirror is missing (``_m_won`` null) or
    disagrees."""
    no_mirror = bad.lazy().filter(pl.col("_m_won").is_null())
    players = lf_ok.select(*ev, pl.col(PLAYER_ID).alias(OPPONENT_ID)).unique()
    add("unknown_opponent", no_mirror.join(players, on=[*ev, OPPONENT_ID], how="anti"),
        pl.format("opponent {} never appears as a player in event {}",
                  pl.col(OPPONENT_ID), pl.col(EVENT_ID)))
    add("missing_mirror", no_mirror.join(players, on=[*ev, OPPONENT_ID], how="semi"),
        pl.format("{} reports {} against {}, but {} has no row against {} in round {}",
                  pl.col(PLAYER_ID), rec, pl.col(OPPONENT_ID), pl.col(OPPONENT_ID),
                  pl.col(PLAYER_ID), pl.col(ROUND)))
    m_rec = (pl.col("_m_won").cast(pl.String) + "-" + pl.col("_m_lost").cast(pl.String)
             + "-" + pl.col("_m_drawn").cast(pl.String))
    add("mirror_mismatch", bad.lazy().filter(pl.col("_m_won").is_not_null()),
        pl.format("{} reports {}, {} reports {}", pl.col(PLAYER_ID), rec,
                  pl.col(OPPONENT_ID), m_rec))


_DISAGREES: Final = ((pl.col("_m_won") != pl.col(GAMES_LOST))
                     | (pl.col("_m_lost") != pl.col(GAMES_WON))
                     | (pl.col("_m_drawn") != pl.col(GAMES_DRAWN)))


def _coded_keyed_checks(ok: pl.DataFrame, codes: IdCodes, add: _Add, rec: pl.Expr) -> bool:
    """Duplicate seats and mirrors on one Int64 key per row, from the id codes.

    A seat is ``(event, player, round)`` packed into one integer, a match seat
    ``(event, player, opponent, round)``: both are exact (a bijection of the id tuples),
    so counting distinct seats and joining match seats onto their mirrors find exactly
    what the same steps on the id columns find. False (nothing checked) when the packed
    keys would not fit 63 bits.
    """
    ev = [EVENT_ID]
    if ok.height == 0:
        return False
    won, lost, drawn = pl.col(GAMES_WON), pl.col(GAMES_LOST), pl.col(GAMES_DRAWN)
    # the round range and the game counts' range (of every row: a superset of the paired
    # rows', which is all _mirrors_pair_up needs) in one query
    r_lo, r_hi, g_lo, g_hi = ok.select(
        pl.col(ROUND).min(), pl.col(ROUND).max().alias("_hi"),
        pl.min_horizontal(won.min(), lost.min(), drawn.min()).alias("_g_lo"),
        pl.max_horizontal(won.max(), lost.max(), drawn.max()).alias("_g_hi")).row(0)
    pb, rb = codes.player_bits, int(r_hi - r_lo).bit_length()
    if codes.event_bits + 2 * pb + rb + 1 > 62:
        return False
    rnd = pl.col(ROUND) - r_lo
    e, p, o = pl.col("_e"), pl.col("_p"), pl.col("_o")
    seat = (e * 2**pb + p) * 2**rb + rnd
    # duplicate seats: one count of distinct keys; the offenders only when there are some
    if ok.select(seat.n_unique()).item() < ok.height:
        _describe_duplicates(ok.lazy().filter(seat.is_duplicated()), ev, add)
    paired = ok.lazy().filter(o.is_not_null() & (p != o) & _mirrored(ok.columns))
    if _mirrors_pair_up(paired, pb, rb, rnd, codes.event_bits, games=(g_lo, g_hi)):
        return True
    # some row lacks its mirror or disagrees with it: one join of every match seat onto
    # its mirror's, keeping the bad rows (the same join as on the id columns)
    own = ((e * 2**pb + p) * 2**pb + o) * 2**rb + rnd
    theirs = ((e * 2**pb + o) * 2**pb + p) * 2**rb + rnd
    mirror = paired.select(theirs.alias("_key"), pl.col(GAMES_WON).alias("_m_won"),
                           pl.col(GAMES_LOST).alias("_m_lost"),
                           pl.col(GAMES_DRAWN).alias("_m_drawn"))
    bad = (paired.with_columns(own.alias("_key"))
           .join(mirror, on="_key", how="left", maintain_order="left")
           .filter(pl.col("_m_won").is_null() | _DISAGREES)
           .drop("_key", "_e", "_p", "_o")
           .unique(maintain_order=True).pipe(collect))
    if bad.height:
        _describe_mirrors(bad, ok.lazy().drop("_e", "_p", "_o"), ev, add, rec)
    return True


def _mirrors_pair_up(paired: pl.LazyFrame, pb: int, rb: int, rnd: pl.Expr, eb: int, *,
                     games: tuple[int | None, int | None]) -> bool:
    """Whether every paired row has exactly one mirror row, reporting the opposite record.

    The usual case, decided by one sort instead of the mirror join (a hash join of every
    paired row, the costliest check): rows sorted by (event, lower id, higher id, round,
    the record as the lower id's side sees it, side) must come in pairs — positions 2i and
    2i + 1 the two sides of one match with the same record, and the next pair another
    match. When this holds, the join finds no bad row; when not, the caller runs the join
    to describe what is wrong. The sort key is one Int64 when the game counts fit beside
    the ids, else the record columns are sorted too.
    """
    e, p, o = pl.col("_e"), pl.col("_p"), pl.col("_o")
    lower = p < o
    match = ((e * 2**pb + pl.min_horizontal(p, o)) * 2**pb + pl.max_horizontal(p, o)) * 2**rb
    match = match + rnd
    side = (~lower).cast(pl.Int64)
    won, lost, drawn = pl.col(GAMES_WON), pl.col(GAMES_LOST), pl.col(GAMES_DRAWN)
    # the record from the lower id's side: both rows of a consistent match give the same
    a_won = pl.when(lower).then(won).otherwise(lost)
    a_lost = pl.when(lower).then(lost).otherwise(won)
    lo, hi = games  # bounds of the game counts of (a superset of) the paired rows
    if lo is None or hi is None:
        return True  # no row
    gb = int(hi).bit_length()
    if lo >= 0 and eb + 2 * pb + rb + 3 * gb + 1 <= 62:
        key = ((((match * 2**gb + a_won) * 2**gb + a_lost) * 2**gb + drawn) * 2 + side)
        k = paired.select(key.alias("_k")).pipe(collect)["_k"].sort()
        if k.len() % 2:
            return False
        a, b = k.gather_every(2), k.gather_every(2, offset=1)
        first = (a // 2 ** (3 * gb + 1))
        # pairs: a the lower side, b the same match and record from the other side; the
        # next pair another match (else a third row of a match: a repeated seat)
        return bool(((a % 2 == 0) & (b == a + 1)).all()
                    and (first.len() < 2 or (first.diff().drop_nulls() != 0).all()))
    keyed = (paired.select((match * 2 + side).alias("_c"), a_won.alias("_w"),
                           a_lost.alias("_l"), drawn.alias("_d"))
             .sort("_c").pipe(collect))
    if keyed.height % 2:
        return False
    a = keyed.select(pl.all().gather_every(2))
    b = keyed.select(pl.all().gather_every(2, offset=1))
    # a's key even (lower id's side) and b's the same match from the other side; then the
    # next pair's key is even again, so it is another match: each match has two rows
    return bool(((a["_c"] % 2 == 0) & (b["_c"] == a["_c"] + 1) & (a["_w"] == b["_w"])
                 & (a["_l"] == b["_l"]) & (a["_d"] == b["_d"])).all())


def _mirrored(columns: Sequence[str]) -> pl.Expr:
    """Rows whose games must mirror their opponent's: all but double losses (checked by
    :func:`_double_loss_checks`)."""
    return ~pl.col("double_loss") if "double_loss" in columns else pl.lit(value=True)


def _double_loss_checks(lf_ok: pl.LazyFrame, ev: list[str], add: _Add) -> None:
    """``double_loss_mismatch``: a double-loss row whose opponent has no row against the
    player in that round, or one that is not a double loss."""
    paired = lf_ok.filter(pl.col(OPPONENT_ID).is_not_null()
                          & (pl.col(PLAYER_ID) != pl.col(OPPONENT_ID)))
    mirror = paired.select(*ev, ROUND, pl.col(PLAYER_ID).alias(OPPONENT_ID),
                           pl.col(OPPONENT_ID).alias(PLAYER_ID),
                           pl.col("double_loss").alias("_m_dl"))
    bad = (paired.filter(pl.col("double_loss"))
           .join(mirror, on=[*ev, ROUND, PLAYER_ID, OPPONENT_ID], how="left")
           .filter(~pl.col("_m_dl").fill_null(value=False)))
    add("double_loss_mismatch", bad,
        pl.format("{} reports a double loss against {} in round {}, but {} {}",
                  pl.col(PLAYER_ID), pl.col(OPPONENT_ID), pl.col(ROUND), pl.col(OPPONENT_ID),
                  pl.when(pl.col("_m_dl").is_null()).then(pl.lit("has no row against them"))
                  .otherwise(pl.lit("does not"))))


def _categorical_keyed_checks(lf_ok: pl.LazyFrame, ev: list[str], add: _Add,
                              rec: pl.Expr) -> None:
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
    bad = (paired.join(mirror, on=[*ev, ROUND, PLAYER_ID, OPPONENT_ID], how="left")
           .filter(pl.col("_m_won").is_null() | _DISAGREES)
           .unique(maintain_order=True).pipe(collect))
    if bad.height:
        _describe_mirrors(bad, lf_ok, ev, add, rec)


def format_problems(problems: pl.DataFrame, *, limit: int = MAX_LISTED_PROBLEMS) -> str:
    """Render a problems table as readable lines, at most ``limit`` of them."""
    lines = []
    for row in problems.head(limit).iter_rows(named=True):
        opp = f" vs {row[OPPONENT_ID]}" if row[OPPONENT_ID] is not None else ""
        lines.append(f"  - [{row['kind']}] event {row[EVENT_ID]!r}, round {row[ROUND]}, "
                     f"player {row[PLAYER_ID]!r}{opp}: {row['detail']}")
    if problems.height > limit:
        lines.append(f"  … and {problems.height - limit} more (see the error's .problems)")
    return "\n".join(lines)


_HINTS: Final = {
    "missing_mirror": "sf.repair_mirrors(...) fills missing mirror rows explicitly",
    "mirror_mismatch": "the two seats of a match must report opposite records",
    "duplicate_seat": "each player has at most one row per round",
    "unknown_opponent": "every opponent must also have rows as a player in the event",
    "double_loss_mismatch": "a double loss is double_loss=True on both seats of the match",
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
    problems, frame = _problems_and_frame(results, default_event_id=default_event_id, keys=keys)
    _raise_problems(problems)
    return frame.lazy()


def validated_with_codes(results: pl.LazyFrame | pl.DataFrame, *, keys: Sequence[str] = ()
                         ) -> tuple[pl.DataFrame, IdCodes | None]:
    """:func:`validate_results` (materialised) and the id codes its checks built, so that
    the engine does not hash the ids again (None with extra ``keys``)."""
    problems, frame, codes = _checked(results, default_event_id="event", keys=keys)
    _raise_problems(problems)
    return frame, codes


def _raise_problems(problems: pl.DataFrame) -> None:
    if problems.height:
        kinds = problems["kind"].unique(maintain_order=True).to_list()
        hints = "; ".join(_HINTS[k] for k in kinds if k in _HINTS)
        msg = (f"{problems.height} problem(s) in the results table ({', '.join(kinds)}):\n"
               + format_problems(problems)
               + "\nHint: " + (hints or "fix the listed rows")
               + "; sf.find_problems(...) lists all.")
        raise ValidationError(msg, problems)


def _lazy(frame: pl.LazyFrame | pl.DataFrame) -> pl.LazyFrame:
    if isinstance(frame, pl.DataFrame):
        return frame.lazy()
    if isinstance(frame, pl.LazyFrame):
        return frame
    msg = (f"expected a polars DataFrame or LazyFrame, got {type(frame).__name__}. "
           "Hint: wrap pandas or Arrow data with pl.from_pandas / pl.from_arrow.")
    raise SchemaError(msg)


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
    is given ``bye_games`` (MTR Appendix C: a bye is a 2-0 win). Any other extra column is
    copied to both seats.

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
    lf = _lazy(matches)
    schema = lf.collect_schema()
    c = columns
    need = [ROUND, c.player_a, c.player_b, c.games_a, c.games_b, c.games_drawn]
    missing = [n for n in need if n not in schema]
    if missing:
        msg = (f"match table is missing column(s) {missing}; found {list(schema)}. "
               "Hint: pass columns=sf.MatchColumns(...) to name yours.")
        raise SchemaError(msg)
    if EVENT_ID not in schema:
        lf = lf.with_columns(pl.lit(default_event_id).alias(EVENT_ID))
    _check_match_games(lf, c)
    extra = [n for n in lf.collect_schema() if n not in need]
    all_null = (pl.col(c.games_a).is_null() & pl.col(c.games_b).is_null()
                & pl.col(c.games_drawn).is_null())
    bye = pl.col(c.player_b).is_null() & all_null
    seat_a = lf.select(
        *extra, pl.col(ROUND),
        pl.col(c.player_a).cast(pl.String).alias(PLAYER_ID),
        pl.col(c.player_b).cast(pl.String).alias(OPPONENT_ID),
        pl.when(bye).then(bye_games[0]).otherwise(pl.col(c.games_a)).alias(GAMES_WON),
        pl.when(bye).then(bye_games[1]).otherwise(pl.col(c.games_b)).alias(GAMES_LOST),
        pl.when(bye).then(bye_games[2]).otherwise(pl.col(c.games_drawn)).alias(GAMES_DRAWN),
    )
    seat_b = lf.filter(pl.col(c.player_b).is_not_null()).select(
        *extra, pl.col(ROUND),
        pl.col(c.player_b).cast(pl.String).alias(PLAYER_ID),
        pl.col(c.player_a).cast(pl.String).alias(OPPONENT_ID),
        pl.col(c.games_b).alias(GAMES_WON),
        pl.col(c.games_a).alias(GAMES_LOST),
        pl.col(c.games_drawn).alias(GAMES_DRAWN),
    )
    out = pl.concat([seat_a, seat_b], how="vertical_relaxed")
    order = [EVENT_ID, ROUND, PLAYER_ID, OPPONENT_ID, GAMES_WON, GAMES_LOST, GAMES_DRAWN]
    out = out.select(*order, *[n for n in extra if n not in order])
    return out.with_columns(
        pl.col(n).cast(pl.String).str.strip_chars().str.replace(r"\.0+$", "")
        .cast(pl.Int64) if not schema_int else pl.col(n).cast(pl.Int64)
        for n, schema_int in ((n, out.collect_schema()[n].is_integer()) for n in INT_COLUMNS)
    ).pipe(collect)


def _check_match_games(lf: pl.LazyFrame, c: MatchColumns) -> None:
    """Game columns of the match form must hold whole numbers; name the rows that do not."""
    schema = lf.collect_schema()
    for col in (c.games_a, c.games_b, c.games_drawn):
        dt = schema[col]
        if dt.is_integer() or dt == pl.Null:
            continue
        if dt.is_float() or _string_like(dt):
            as_int = (pl.col(col).cast(pl.String).str.strip_chars()
                      .cast(pl.Int64, strict=False))
            bad = (lf.with_row_index("_row")
                   .filter(pl.col(col).is_not_null() & (as_int.is_null()
                           | (as_int.cast(pl.String) != pl.col(col).cast(pl.String)
                              .str.strip_chars().str.replace(r"\.0+$", ""))))
                   .select("_row", EVENT_ID, ROUND, c.player_a, c.player_b, col)
                   .head(MAX_LISTED_PROBLEMS).pipe(collect))
            if bad.height == 0:
                continue
            where = "; ".join(f"row {r['_row']}: event {r[EVENT_ID]!r}, round {r[ROUND]}, "
                              f"{r[c.player_a]!r} vs {r[c.player_b]!r}: {r[col]!r}"
                              for r in bad.iter_rows(named=True))
            msg = (f"match table column {col!r} holds values that are not whole numbers "
                   f"({where}). Hint: game counts are integers ≥ 0; fix or remove those rows.")
            raise SchemaError(msg)
        msg = f"match table column {col!r} is {dt}, expected integers. Hint: cast it."
        raise SchemaError(msg)


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
    lf = validate_results(results)
    c = columns
    keep = pl.col(OPPONENT_ID).is_null() | (pl.col(PLAYER_ID) < pl.col(OPPONENT_ID))
    # a double loss keeps its flag (seat A's games; the match form has no other place)
    flags = [f for f in FLAG_COLUMNS if f in lf.collect_schema().names()]
    return lf.filter(keep).select(
        EVENT_ID, ROUND,
        pl.col(PLAYER_ID).alias(c.player_a), pl.col(OPPONENT_ID).alias(c.player_b),
        pl.col(GAMES_WON).alias(c.games_a), pl.col(GAMES_LOST).alias(c.games_b),
        pl.col(GAMES_DRAWN).alias(c.games_drawn), PHASE, *flags,
    ).sort(EVENT_ID, ROUND, c.player_a).pipe(collect)


def repair_mirrors(results: pl.LazyFrame | pl.DataFrame, *, default_event_id: str = "event"
                   ) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Add the missing mirror seat of every one-sided match — an explicit, reported repair.

    Returns ``(repaired, added)``: the completed long table, and exactly the rows that were
    added (each the mirror of an existing row). Contradictory mirrors are not touched: they
    still fail validation.

    Examples
    --------
    >>> import polars as pl, swissframe as sf
    >>> one_sided = pl.DataFrame({"round": [1], "player_id": ["a"], "opponent_id": ["b"],
    ...     "games_won": [2], "games_lost": [1], "games_drawn": [0]})
    >>> repaired, added = sf.repair_mirrors(one_sided)
    >>> added.select("player_id", "opponent_id", "games_won", "games_lost").rows()
    [('b', 'a', 1, 2)]
    """
    lf = _normalise(_lazy(results), default_event_id=default_event_id)
    keys = [EVENT_ID, ROUND, PLAYER_ID, OPPONENT_ID]
    paired = lf.filter(pl.col(OPPONENT_ID).is_not_null())
    mirrored = paired.with_columns(
        pl.col(OPPONENT_ID).alias(PLAYER_ID), pl.col(PLAYER_ID).alias(OPPONENT_ID),
        pl.col(GAMES_LOST).alias(GAMES_WON), pl.col(GAMES_WON).alias(GAMES_LOST),
    )
    existing = lf.select(EVENT_ID, ROUND, PLAYER_ID)
    added = mirrored.join(existing, on=[EVENT_ID, ROUND, PLAYER_ID], how="anti")
    added_df = added.pipe(collect)
    repaired = pl.concat([lf.pipe(collect), added_df], how="vertical").sort(keys, nulls_last=True)
    return repaired, added_df
