"""Records and opponents' sums at many cutoffs without repeating the rows (issue 9).

Why: ``standings_by_round`` needs every player's record after every Swiss round. Repeating
each row once per later cutoff and running the engine on the result costs about
``(rounds + 1) / 2`` times the work of :func:`~swissframe.standings`. Here the record at a
cutoff is a running sum over the player's own rows, and only the opponents' part grows with
the number of cutoffs: a mean over the opponents met so far of *their* values at that
cutoff, which no running sum can give (an opponent's rate changes every round).

Mechanism, on integer positions instead of joins (the explosion is the large step):

- a *grid* of (player, time) for every time of the player's event at or after their first
  round, where the times are the event's cutoffs and the rounds its rows use; a player's
  grid rows are contiguous and in time order, so each row lands on a known position;
- the rows, sorted by (event, player, round), get running sums of their counts; each grid
  cell takes its latest row at or before its time (a scatter of row numbers and a forward
  fill — a block always starts with a row of its player, so the fill never crosses
  players), and the record there is the running sum minus the sums before the player's
  first row;
- the grid is then cut down to the cutoffs (the *base*: one row per (cutoff, player));
- a player's opponents met up to cutoff ``c`` are the first ``opponents`` entries of their
  pairs sorted by round, and the opponent's base row at ``c`` sits at
  ``start(opponent) + index(c)``: one ``int_ranges`` explosion gives, per (cutoff, player),
  the positions of the values to add; the values are gathered and summed per segment by a
  cumulative sum (segments are contiguous), with no hash join or group-by.

Exact sums stay exact: each Int128 value is summed as two Int64 halves whose running sums
are checked not to overflow; otherwise :func:`opponent_sums` returns None and the caller
takes the reference path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

import polars as pl

from swissframe._collect import collect, concurrently, parallel
from swissframe.engine._exact import BitFields, segment_sums, sum_layouts
from swissframe.engine._record import PAIRED, RECORD_COUNTS
from swissframe.schema import SeatOrder, code_bits, fits_int64

EVENT: Final = "event_id"
PLAYER: Final = "player_id"
OPP: Final = "opponent_id"
_COUNTED: Final = tuple((n, c) for n, c in RECORD_COUNTS.items() if c is not None)


@dataclass(frozen=True)
class CutoffGrid:
    """The per-(cutoff, player) record and what the opponents' gather needs.

    ``base`` has the columns of :func:`~swissframe.tiebreakers.aggregate_players` keyed by
    integer codes (``_e``, ``through``, player_id), in grid order (players' blocks, cutoffs
    ascending); ``ids`` decodes them (:meth:`id_exprs`): row ``player_id`` holds the
    player's key values and id, or, with ``dictionaries`` (validation's codes), the codes
    of its event and id in those (``event_id`` and ``player_id`` values in code order).
    The codes sort as the values do (events by their keys, players by id within an
    event), so ranking on them orders rows as ranking on the values would;
    ``pair_src`` holds, for every paired row sorted by (player, round), the opponent's
    ``start - index(first cutoff)`` in ``base``; ``pair_start`` (per base row) is where the
    player's pairs begin in ``pair_src`` and ``cut_index`` the cutoff's index in its event.
    """

    base: pl.DataFrame
    ids: pl.DataFrame
    pair_src: pl.Series
    pair_start: pl.Series
    cut_index: pl.Series
    dictionaries: tuple[pl.Series, pl.Series] | None = None

    def id_exprs(self, code: pl.Expr) -> dict[str, pl.Expr]:
        """The key values and id of the player whose code (``player_id`` in ``base``) is
        ``code``, by column. With validation's codes, decoded from the two dictionaries
        (a gather of codes, then of the few ids: gathering the ids of every player first,
        out of the 3.7M rows of 10,000 events, cost about 0.1 s)."""
        if self.dictionaries is None:
            return {c: pl.lit(self.ids[c]).gather(code) for c in self.ids.columns}
        events, players = self.dictionaries
        return {EVENT: pl.lit(events).gather(pl.lit(self.ids["_ce"]).gather(code)),
                PLAYER: pl.lit(players).gather(pl.lit(self.ids["_cp"]).gather(code))}


def _codable(dtype: pl.DataType) -> bool:
    """Whether :func:`_coder` codes a key of ``dtype`` so that codes order as its values do:
    text (sorted strings) and integers that are Int64 values. Others take the reference
    path: UInt64 or Int128 values past Int64, floats and dates (whose text does not sort
    as they do), an Enum (which sorts in the order of its categories, not of its text)."""
    return dtype in (pl.String, pl.Categorical) or fits_int64(dtype)


def _coder(*columns: pl.Series) -> pl.DataType | None:
    """An Enum over every string in ``columns`` (so that equal strings get equal codes in
    every frame), or None for integer columns, which are their own codes."""
    if columns[0].dtype.is_integer():
        return None
    values = pl.concat([c.cast(pl.String).unique() for c in columns]).unique().drop_nulls()
    return pl.Enum(values.sort())  # sorted: codes order as the strings do


def _code(col: str, enum: pl.DataType | None) -> pl.Expr:
    if enum is None:
        return pl.col(col).cast(pl.Int64)
    return pl.col(col).cast(pl.String).cast(enum).to_physical().cast(pl.Int64)


#: Columns of validation's id codes (``schema.IdCodes``) when the caller carries them on
#: the rows: event, player and opponent codes (see :func:`build`'s ``coded``).
CODE_COLUMNS: Final = ("_ce", "_cp", "_co")


def row_columns(keys: tuple[str, ...], *, coded: bool) -> list[str]:
    """The columns of the prepared rows that :func:`build` reads (``coded``: with
    validation's codes, which stand for the keys and ids): a caller collecting the rows
    for it collects these only."""
    ids = list(CODE_COLUMNS) if coded else [*keys, PLAYER, OPP]
    counted = [c for _, c in _COUNTED if c != "_paired"]  # (paired: from _unpaired)
    return list(dict.fromkeys([*ids, "round", "_unpaired", *counted]))


def build(rows: pl.DataFrame, keys: tuple[str, ...], cutoffs: pl.DataFrame | None,
          through: str, schema: pl.Schema, *,
          coded: tuple[pl.Series, pl.Series] | None = None,
          seats: SeatOrder | None = None) -> CutoffGrid | None:
    """The record of every player at every cutoff of their event.

    ``rows``: prepared Swiss rows (``prepare_rows``); ``cutoffs``: (keys…, ``through``),
    or None (with ``coded`` only) for every round of the rows (``standings_by_round``'s:
    taken from the coded rows, without a pass over the ids);
    ``schema``: the column names and types the base must have (those of
    ``aggregate_players`` on the repeated rows). None when a row breaks an assumption
    (two rows of a player in one round, an opponent with no row that round): the caller
    then takes the reference path, which copes with anything validation let through.

    ``coded``: ``rows`` carry validation's id codes (:data:`CODE_COLUMNS`; ``keys`` is
    ``("event_id",)``), given here as the event ids and the player ids in code order, so
    the ids are not hashed again, and are decoded from them (``CutoffGrid.dictionaries``).
    ``seats``: with ``coded``, validation's sorted seats of the table ``rows`` are row for
    row with (every row Swiss), which give the rows' order by player and round without
    sorting them again.
    """
    found = _coded_rows(rows, keys, cutoffs, through, coded=coded, seats=seats)
    if found is None:
        return None
    narrow, cut_e, layouts = found
    times, per_ev = _time_axis(narrow, cut_e)
    lookup = _time_lookup(times, narrow.height)
    players = _player_blocks(narrow, times, per_ev, lookup)
    full = _at_cutoffs(narrow, players, times, lookup)
    full = _record_at(narrow, players, full, layouts)
    k = list(keys)
    record = [c for c in schema if c not in (*k, through, PLAYER)]
    base = (full.with_columns(first_round=players["_first"].gather(full["_pid"]),
                              dropped=pl.col("last_round") < pl.col("_evmax"))
            .select(pl.col("_pid").cast(pl.Int64).alias(PLAYER),
                    *[pl.col(c).cast(schema[c]) for c in record],
                    pl.col("_t").cast(schema[through]).alias(through),
                    _e=players["_e"].gather(full["_pid"])))
    # each player's ids: with validation's, their codes, which its block's key holds
    # (a gather out of the rows cost 90-110 ms on 10,000 events); else from its first row
    if coded is not None:
        unit = 2 ** code_bits(coded[1].len())
        ids = players.select(pl.col("_e").alias("_ce"), (pl.col("_pk") % unit).alias("_cp"))
    else:
        ids = rows.select(*k, PLAYER).select(pl.all().gather(players["_ri"]))
    # pairs in (player, round) order: the first `opponents` of a player are those met so far
    pairs = narrow.filter(pl.col("_paired")).select("round", "_ok")
    # each opponent's block: its key's position among the players' (sorted), null for an
    # opponent with no block
    opp = opponent_positions(players["_pk"], pairs["_ok"])
    if opp.len() != pairs.height:
        return None  # (an unpaired row among the pairs: not a mirrored pairing)
    if opp.null_count() or not (players["_first"].gather(opp) <= pairs["round"]).all():
        return None  # an opponent without a Swiss row that round: not a mirrored pairing
    return CutoffGrid(base=base, ids=ids,
                      pair_src=players["_gcs"].gather(opp) - players["_ccbf"].gather(opp),
                      pair_start=players["_pb"].gather(full["_pid"]),
                      cut_index=full["_ccb"], dictionaries=coded)


#: Polars' index type (UInt32; UInt64 in its large-index build): the type of the grid's
#: positions (``_pid``, ``_row``, ``_ti``), which gathers read as they are. On Int64 each
#: gather by them cast the 4M positions first (10,000 events: about a dozen such casts).
INDEX: Final = pl.get_index_type()


#: The most slots of :func:`opponent_positions`' table from a player's code to their
#: row (UInt32, 32 MiB); past it the codes are searched for in the sorted players.
SLOT_TABLE_MAX: Final = 2**23


def opponent_positions(codes: pl.Series, opponents: pl.Series, *, unit: int | None = None
                       ) -> pl.Series:
    """The position among the players (``codes``, their sorted codes: a
    :func:`~swissframe.engine._record.seat_record`'s ``player_id``, the grid's players'
    keys) of each non-null opponent code of ``opponents`` (a ``PlayerRows``' faced rows,
    the grid's pairs), as UInt32; null for a code that is no player's.

    Read from a table of the players' positions by code where the codes span at most
    :data:`SLOT_TABLE_MAX` (10,000 events of up to 160 ids: 2.6M slots), else by the
    player's code within its event where each id is a player of one event only
    (``unit``, the codes' event unit, given by the caller then: 810k ids named apart, 1M
    slots), else by a search in the sorted codes (3.4M opponents among 810k players: 250
    ms CPU, against 30 for a table; by round's 3.7M pairs: 0.33 s CPU as a hash lookup)."""
    faced = opponents.drop_nulls()
    top = codes.max()
    if unit is not None and (not isinstance(top, int) or top >= SLOT_TABLE_MAX) \
            and unit <= SLOT_TABLE_MAX:
        codes, faced, top = codes % unit, faced % unit, unit - 1
    high = faced.max()
    if isinstance(top, int) and isinstance(high, int):
        top = max(top, high)  # (a code past every player's: null, not out of bounds)
    if isinstance(top, int) and top < SLOT_TABLE_MAX:
        table = pl.repeat(None, top + 1, dtype=pl.UInt32, eager=True).scatter(
            codes, pl.int_range(codes.len(), dtype=pl.UInt32, eager=True))
        found: pl.Series = table.gather(faced)
        return found
    none: pl.Series = pl.Series(codes.name, [None], dtype=pl.UInt32).new_from_index(
        0, faced.len())
    if codes.len() == 0:
        return none
    searched: pl.Series = codes.search_sorted(faced).cast(pl.UInt32)
    # (where a code is no player's, the search gives where it would be: null there)
    hit = codes.gather(searched.clip(upper_bound=codes.len() - 1)) == faced
    kept: pl.Series = searched.zip_with(hit, none)
    return kept


def _first_row() -> pl.Expr:
    """True on the first row of each player's block (rows sorted by ``_pk``)."""
    return (pl.col("_pk") != pl.col("_pk").shift(1)).fill_null(value=True)


def _coded_rows(rows: pl.DataFrame, keys: tuple[str, ...], cutoffs: pl.DataFrame | None,
                through: str, *, coded: tuple[pl.Series, pl.Series] | None = None,
                seats: SeatOrder | None = None
                ) -> tuple[pl.DataFrame, pl.DataFrame | None, list[BitFields]] | None:
    """The rows on integer codes (``_e`` event, ``_pk`` player, ``_ok`` opponent, ``_pid``
    block index), sorted into one block per player in round order, and the cutoffs on
    event codes (``_e``, ``_t``); None when the codes do not fit or a player has two rows
    in one round (the cutoffs None where :func:`build` was given none). ``coded``: see
    :func:`build`."""
    k = list(keys)
    rdt = rows.schema["round"]
    codes = [f"_c{i}" for i in range(len(k))]
    if coded is not None:
        # validation's codes: sorted like the ids, so they order rows as the ids would
        events, players = coded
        key_codes = [pl.col(CODE_COLUMNS[0]).alias("_c0")]
        cut_e = None if cutoffs is None else cutoffs.select(
            _code(k[0], pl.Enum(events)).alias("_e"), _t=pl.col(through).cast(rdt))
        player_code, opp_code = pl.col(CODE_COLUMNS[1]), pl.col(CODE_COLUMNS[2])
        # (the seats' row numbers in their sorted order: the rows by player and round)
        order = None if seats is None else seats.keys % 2**seats.index_bits
        return _block_rows(rows, cut_e, ev=None, n_ev=events.len(), n_pl=players.len(),
                           key_codes=key_codes, codes=codes, player_code=player_code,
                           opp_code=opp_code, order=order)
    if cutoffs is None:  # (every round of the rows: taken from their codes only)
        msg = "internal: the rows' own rounds as cutoffs need validation's codes"
        raise AssertionError(msg)
    if not all(_codable(rows.schema[c]) for c in k):
        return None  # a key that neither is an Int64 nor codes in its own order
    # integer codes: the keys' (equal in rows and cutoffs) and the players' (equal for
    # player_id and opponent_id); then one id per key combination (the "event")
    enums = [_coder(rows[c], cutoffs[c]) for c in k]
    players_enum = _coder(rows[PLAYER], rows[OPP])
    key_codes = [_code(c, e).alias(n) for c, e, n in zip(k, enums, codes, strict=True)]
    if len(k) == 1 and isinstance(enums[0], pl.Enum):
        ev = None  # one string key: its (sorted) code is the event id
        n_ev = len(enums[0].categories)
        cut_e = cutoffs.select(key_codes[0].alias("_e"), _t=pl.col(through).cast(rdt))
    else:
        ev = (cutoffs.select(key_codes).unique().sort(codes).with_row_index("_e")
              .with_columns(pl.col("_e").cast(pl.Int64)))
        n_ev = ev.height
        cut_e = (cutoffs.select(*key_codes, _t=pl.col(through).cast(rdt))
                 .join(ev, on=codes, how="inner").select("_e", "_t"))
    n_pl = len(players_enum.categories) if isinstance(players_enum, pl.Enum) else 0
    return _block_rows(rows, cut_e, ev=ev, n_ev=n_ev, n_pl=n_pl, key_codes=key_codes,
                       codes=codes, player_code=_code(PLAYER, players_enum),
                       opp_code=_code(OPP, players_enum))


def _block_rows(rows: pl.DataFrame, cut_e: pl.DataFrame | None, *, ev: pl.DataFrame | None,
                n_ev: int, n_pl: int, key_codes: list[pl.Expr], codes: list[str],
                player_code: pl.Expr, opp_code: pl.Expr, order: pl.Series | None = None
                ) -> tuple[pl.DataFrame, pl.DataFrame | None, list[BitFields]] | None:
    """:func:`_coded_rows` once the codes are chosen: ``ev`` maps the key codes to an
    event code (None: the one key code is the event code), ``n_ev`` / ``n_pl`` count the
    event and player codes; ``order``: the rows' positions in (player, round) order,
    where validation's sorted seats give them (the codes' order: ``_pk``, then round)."""
    if rows.height == 0 or n_pl == 0:
        return None
    r_lo, r_hi = rows.select(pl.col("round").min().alias("lo"), pl.col("round").max()).row(0)
    if int(r_lo) < 0:
        return None
    # (event, player) as one integer, and with the round as one sort key when it fits
    p_bits, e_bits = code_bits(n_pl), code_bits(n_ev)
    r_bits = int(r_hi).bit_length()
    if e_bits + p_bits > 62:
        return None
    paired = PAIRED
    counts = {n: (paired if c == "_paired" else pl.col(c)).cast(pl.Int64)
              for n, c in _COUNTED}
    narrow = rows.select(*key_codes, "round", _paired=paired, _pc=player_code, _oc=opp_code,
                         **counts).with_row_index("_ri")
    narrow = (narrow.rename({"_c0": "_e"}) if ev is None
              else narrow.join(ev, on=codes, how="inner", maintain_order="left"))
    # the counts side by side in a few Int64 before the sort, which then moves those
    # instead of each count (their running sums share them too: _record_at)
    layouts, alone = _running_layouts(narrow.select(list(counts)))
    narrow = narrow.select("_ri", "_e", "round", "_paired",
                           (pl.col("_e") * 2**p_bits + pl.col("_pc")).alias("_pk"),
                           (pl.col("_e") * 2**p_bits + pl.col("_oc")).alias("_ok"),
                           *[f.pack().alias(f"_l{i}") for i, f in enumerate(layouts)], *alone)
    # a player's rows become one block, in round order: gathered in the seats' order
    # where validation sorted them (10,000 events, 3.7M rows: 0.32 -> 0.1 s CPU), else
    # sorted
    if order is not None and order.len() == narrow.height:
        narrow = narrow.select(pl.all().gather(order))
    elif e_bits + p_bits + r_bits <= 62:
        narrow = narrow.sort(pl.col("_pk") * 2**r_bits + pl.col("round"))
    else:
        narrow = narrow.sort("_pk", "round")
    first_row = _first_row()
    # (on Polars' index type, as the grid's positions: they gather without a cast)
    narrow = narrow.with_columns(_pid=(first_row.cum_sum() - 1).cast(INDEX))
    same_seat = (pl.col("_pid").diff() == 0) & (pl.col("round").diff() == 0)
    if narrow.select(same_seat.any()).item():
        return None  # two rows of one player in one round
    return narrow, cut_e, layouts


def _event_rounds(narrow: pl.DataFrame) -> pl.DataFrame:
    """The distinct ``(_e, _t)``: each event code with each round its rows use.

    Packed into one Int64 where they fit (rounds are ≥ 0 here: ``_block_rows``), whose
    unique costs a fifth of the two columns' (3.7M rows: 17 against 91 ms)."""
    rnd = narrow.get_column("round")
    rb = max(int(rnd.max() or 0), 1).bit_length()  # type: ignore[arg-type]
    eb = max(int(narrow.get_column("_e").max() or 0), 1).bit_length()  # type: ignore[arg-type]
    if eb + rb > 62:
        return narrow.select("_e", rnd.alias("_t")).unique()
    key = (pl.col("_e") * 2**rb + pl.col("round")).unique()
    return (narrow.lazy().select(key.alias("_k"))
            .select(_e=pl.col("_k") // 2**rb, _t=(pl.col("_k") % 2**rb).cast(rnd.dtype))
            .pipe(collect))


def _time_axis(narrow: pl.DataFrame, cut_e: pl.DataFrame | None
               ) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Each event's times (its cutoffs and the rounds its rows use) with their index
    ``_jt``, the cutoffs before each (``_ccb``) and the event's latest round (``_evmax``);
    per event the number of times and cutoffs and the offset of its times. ``cut_e``
    None: the cutoffs are the rounds the rows use."""
    # the time axis of each event: its cutoffs and the rounds its rows use
    used = _event_rounds(narrow).with_columns(_isr=pl.lit(value=True))
    times = (used.with_columns(_isc=pl.lit(value=True)) if cut_e is None
             else used.join(cut_e.unique().with_columns(_isc=pl.lit(value=True)),
                            on=["_e", "_t"], how="full", coalesce=True)
             .with_columns(pl.col("_isr", "_isc").fill_null(value=False)))
    times = (times.sort("_e", "_t")
             .with_columns(_jt=pl.int_range(pl.len(), dtype=pl.Int64).over("_e"),
                           _ccb=(pl.col("_isc").cast(pl.Int64).cum_sum()
                                 - pl.col("_isc").cast(pl.Int64)).over("_e"),
                           # the event's latest round at this time: the `dropped` reference
                           _evmax=pl.when(pl.col("_isr")).then(pl.col("_t"))
                           .forward_fill().over("_e")))
    per_ev = (times.group_by("_e").agg(_nt=pl.len().cast(pl.Int64),
                                       _nc=pl.col("_isc").sum().cast(pl.Int64))
              .sort("_e")  # the offsets follow times' order
              .with_columns(_ts=pl.col("_nt").cum_sum() - pl.col("_nt")))
    return times, per_ev


class _TimeLookup(NamedTuple):
    """``_jt`` and ``_ccb`` of each (event, time) at index ``event · width + time``."""

    width: int
    jt: pl.Series
    ccb: pl.Series

    @staticmethod
    def cell(e: pl.Series, t: pl.Series, width: int) -> pl.Series:
        """The tables' index of each (event ``e``, time ``t``)."""
        index: pl.Series = e * width + t
        return index

    def at(self, e: pl.Series, t: pl.Series) -> tuple[pl.Series, pl.Series]:
        cell = self.cell(e, t, self.width)
        return self.jt.gather(cell), self.ccb.gather(cell)


def _time_lookup(times: pl.DataFrame, rows: int) -> _TimeLookup | None:
    """Each time's index on its event's axis and cutoffs before it, as dense tables
    indexed by (event, time) when they are small enough (at most four cells a row of
    ``rows``, or 2**20): a gather instead of a join on two columns. None otherwise."""
    t_hi, e_hi = times.select(pl.col("_t").max(), pl.col("_e").max()).row(0)  # distinct names
    width = int(t_hi) + 1
    cells = (int(e_hi) + 1) * width
    if cells > max(4 * rows, 2**20):
        return None
    at = _TimeLookup.cell(times["_e"], times["_t"], width)

    def table(values: pl.Series) -> pl.Series:
        empty = pl.Series(values=[0], dtype=pl.Int64).extend_constant(0, cells - 1)
        return empty.scatter(at, values)

    return _TimeLookup(width, table(times["_jt"]), table(times["_ccb"]))


def _player_blocks(narrow: pl.DataFrame, times: pl.DataFrame, per_ev: pl.DataFrame,
                   lookup: _TimeLookup | None) -> pl.DataFrame:
    """One row per player (``_pid`` order): first row, first round, block offsets on the
    grid (``_gs``) and among the cutoffs (``_gcs``) and pairs (``_pb``)."""
    first_row = _first_row()
    # players in _pid order: their first row, block offsets on the grid and among the pairs
    n_paired_before = pl.col("_paired").cast(pl.Int64).cum_sum() - pl.col("_paired").cast(
        pl.Int64)
    firsts = (narrow.with_row_index("_pos").with_columns(_pb=n_paired_before)
              .filter(first_row)
              .select("_pid", "_pk", "_e", "_ri", "_pos", "_pb",
                      pl.col("round").alias("_first")))
    if lookup is not None:
        jtf, ccbf = lookup.at(firsts["_e"], firsts["_first"])
        firsts = firsts.with_columns(_jtf=jtf, _ccbf=ccbf)
    else:
        times_at = times.select("_e", "_t", "_jt", "_ccb")
        firsts = firsts.join(times_at.rename({"_t": "_first", "_jt": "_jtf", "_ccb": "_ccbf"}),
                             on=["_e", "_first"], how="left", maintain_order="left")
    return (firsts.join(per_ev, on="_e", how="left", maintain_order="left")
               .with_columns(_len=pl.col("_nt") - pl.col("_jtf"),
                             _clen=pl.col("_nc") - pl.col("_ccbf"))
               .with_columns(_gs=pl.col("_len").cum_sum() - pl.col("_len"),
                             _gcs=pl.col("_clen").cum_sum() - pl.col("_clen")))


def _at_cutoffs(narrow: pl.DataFrame, players: pl.DataFrame, times: pl.DataFrame,
                lookup: _TimeLookup | None) -> pl.DataFrame:
    """The (player, cutoff) cells with the latest row of the player at or before each."""
    # each row's index on its event's time axis
    if lookup is not None:
        jt = lookup.jt.gather(lookup.cell(narrow["_e"], narrow["round"], lookup.width))
    else:
        jt = narrow.select("_e", "round").join(
            times.select("_e", pl.col("_t").alias("round"), "_jt"), on=["_e", "round"],
            how="left", maintain_order="left")["_jt"]
    cell = players["_gs"].gather(narrow["_pid"]) + jt - players["_jtf"].gather(narrow["_pid"])
    # each cell's row in `times` (its event's offset there, ``_ts``, plus its index on the
    # axis), from the player's block: no join of the cells with the events
    grid = (players.select("_pid", _ti=pl.int_ranges(pl.col("_ts") + pl.col("_jtf"),
                                                     pl.col("_ts") + pl.col("_nt"),
                                                     dtype=INDEX))
            .explode("_ti", empty_as_null=False))
    # the latest row at or before each cell; a block starts with its player's first row, so
    # the forward fill never crosses players
    latest = pl.repeat(None, grid.height, dtype=INDEX, eager=True).scatter(
        cell, pl.int_range(narrow.height, dtype=INDEX, eager=True)).forward_fill()
    cells = times.select(pl.col("_t", "_ccb", "_evmax").gather(grid["_ti"])).with_columns(
        _pid=grid["_pid"], _row=latest)
    at_cut = times["_isc"]
    # (every time a cutoff, standings_by_round's: every cell is kept, no filter)
    return cells if at_cut.all() else cells.filter(at_cut.gather(grid["_ti"]))


def _record_at(narrow: pl.DataFrame, players: pl.DataFrame, full: pl.DataFrame,
               layouts: Sequence[BitFields]) -> pl.DataFrame:
    """``full`` with the record at each cell: running sums over all rows at its latest
    row, minus the sums before its player's first row. ``narrow`` holds the counts
    packed by ``layouts`` (``_l0``, ``_l1`` …) and the others under their names."""
    # the packed counts' running sums share their Int64 too: none exceeds its total, and
    # each difference below is one player's count, ≥ 0: no borrow
    summed = [*[f"_l{i}" for i in range(len(layouts))],
              *[n for n, _ in _COUNTED if n in narrow.columns]]
    pos_first = players["_pos"].gather(full["_pid"])
    # one query, each column on its own: the running sums, at each cell's row less those
    # before its player's first row (the running sums shifted by one, 0 first), unpacked
    # (no table of the gathered sums, nor of the sums before, to subtract: 10,000 events,
    # 4M cells: 0.41 -> 0.35 s wall, 0.74 -> 0.61 s CPU)
    row, first = pl.lit(full["_row"]), pl.lit(pos_first)
    unpacked = {n: e for i, layout in enumerate(layouts)
                for n, e in layout.unpack(pl.col(f"_l{i}")).items()}
    totals = collect(
        narrow.lazy().select(pl.col(summed).cum_sum())
        .select((pl.col(n).gather(row) - pl.col(n).shift(1, fill_value=0).gather(first))
                .alias(n) for n in summed)
        .select(unpacked.get(n, pl.col(n)).alias(n) for n, _ in _COUNTED), in_memory=True)
    # (a row is at or after its player's first: no borrow on the index type)
    return full.hstack(totals).with_columns(rounds_played=full["_row"] - pos_first + 1,
                                            last_round=narrow["round"].gather(full["_row"]))


def _running_layouts(counts: pl.DataFrame) -> tuple[list[BitFields], list[str]]:
    """The columns of ``counts`` whose running sums share Int64 (no nulls, no negative
    value, a total of at most 63 bits: a running sum never exceeds it), laid out by
    :func:`~swissframe.engine._exact.sum_layouts` of their totals; and the others, each
    summed alone."""
    stats = counts.select(pl.all().min().name.suffix(":lo"), pl.all().sum().name.suffix(":s"),
                          pl.all().null_count().name.suffix(":n")).row(0, named=True)
    totals = {n: int(stats[f"{n}:s"]) for n in counts.columns
              if not stats[f"{n}:n"] and stats[f"{n}:lo"] is not None
              and stats[f"{n}:lo"] >= 0 and int(stats[f"{n}:s"]).bit_length() <= 63}
    # (a column alone in its Int64 is summed as it is: packing it would only cost passes)
    layouts = [f for f in sum_layouts(totals) or [] if len(f.fields) > 1]
    shared = {c for f in layouts for c, *_ in f.fields}
    return layouts, [n for n in counts.columns if n not in shared]


def opponent_sums(grid: CutoffGrid, players: pl.DataFrame, keys: list[str],
                  sources: dict[str, int]) -> pl.LazyFrame | None:
    """Per base row: exact sum and count of each source over the opponents met so far.

    ``players`` is the base with its rates, row for row (same order); ``sources`` maps a
    column to its exact scale. Columns as ``tiebreakers._base_opponent_sums``: ``_t_<s>``
    (the exact sum: Int64 where the values were summed whole, else Int128), ``_k_<s>``
    (non-null count), ``_m_<s>`` (the mean as a float, from the exact sum; read only by
    the rounding fallback, which the caller rules out first, so left to the plan:
    computed only where read). None when a sum could overflow.
    """
    met = grid.base["opponents"]
    size = met.sum()
    if not isinstance(size, int) or size >= 2**31:
        return None
    # positions on UInt32, Polars' index type: these are the largest arrays of the call
    # (13.9M values for 10,000 events), half the memory of Int64 and no cast on gathering
    # (by round 10,000 events: 0.44 -> 0.35 s for the positions and one gather). An
    # opponent's offset is negative when it entered the grid after cutoffs it was not in
    # (a late first round at the start of the grid): Int64 then, as the sum is not.
    lowest = grid.pair_src.min()
    idx = pl.UInt32 if isinstance(lowest, int) and lowest >= 0 else pl.Int64
    plan = pl.DataFrame({"_s": grid.pair_start.cast(idx), "_m": met.cast(idx),
                         "_j": grid.cut_index.cast(idx)})
    pair_src = grid.pair_src.cast(idx)

    def positions(part: pl.DataFrame) -> pl.Series:
        exploded = (part.select(pl.int_ranges("_s", pl.col("_s") + pl.col("_m"), dtype=idx)
                                .alias("_k"), "_j")
                    .explode("_k", empty_as_null=False))
        found: pl.Series = pair_src.gather(exploded["_k"]) + exploded["_j"]
        return found

    # the explosion and the gather are single-threaded kernels: on a large grid, each
    # half of the rows on a thread of its own (_collect.concurrently; 10,000 events, 13.9M
    # positions: ≈ 0.27 s on one thread). The halves are cut where segment_sums cuts its
    # gathers (at the middle row), so each of its halves reads one chunk.
    half = plan.height // 2
    if parallel(size) and half > 0:
        low, high = concurrently(lambda: positions(plan.slice(0, half)),
                                 lambda: positions(plan.slice(half)), rows=size)
        src = low.append(high)
    else:
        src = positions(plan)
    return segment_opponent_sums(players, keys, sources, src, met)


def segment_opponent_sums(players: pl.DataFrame, keys: list[str], sources: dict[str, int],
                          src: pl.Series, met: pl.Series) -> pl.LazyFrame | None:
    """:func:`opponent_sums`' columns from the positions in ``players`` of the opponents
    each row of ``players`` met (``src``: ``met[i]`` consecutive positions for row ``i``,
    in order): the running-sums grid's, or the final standings' (the coded path of
    :func:`swissframe.engine.standings._coded_standings`, on validation's sorted seats).
    None when a sum could overflow."""
    # Each segment's sums (at most `most` values) must fit Int64: an exact value is summed
    # whole where they do, and split as hi·2**31 + lo otherwise (both parts then summed on
    # Int64: Int128 gathers and sums cost about twice as much, and these arrays are the
    # largest of the computation). Whole values pack into fewer lanes of the segment sums
    # (_exact._sum_fields): OMW% and OGW% at the MTG scales are one gather instead of three
    # columns. The split is done on Int64 when the values fit (Int128 division is slow).
    longest = met.max()
    most = max(longest, 1) if isinstance(longest, int) else 1
    parts: dict[str, pl.Series] = {}
    for s in sources:
        exact = players.get_column(f"_x_{s}")
        # on Int64 where every value fits (null where one does not): its min and max, and
        # the column itself below, cost a fraction of Int128's (a column its scale put on
        # Int64, _exact.exact_dtype, is read as it is)
        if exact.dtype == pl.Int64:
            x64, fits = exact, True
        else:
            exact = exact.cast(pl.Int128)
            x64 = exact.cast(pl.Int64, strict=False)
            fits = x64.null_count() == exact.null_count()
        low, top = (x64.min(), x64.max()) if fits else (exact.min(), exact.max())
        if not isinstance(low, int) or not isinstance(top, int):  # every value null:
            # sums 0, counts 0
            parts[f"_lo_{s}"] = pl.zeros(exact.len(), dtype=pl.Int64, eager=True)
            parts[f"_nn_{s}"] = pl.zeros(exact.len(), dtype=pl.Int64, eager=True)
            continue
        if int(low) < 0 or (int(top) >> 31) * most >= 2**63:
            return None
        if int(top) * most < 2**63:  # (then every value fits Int64)
            parts[f"_lo_{s}"] = x64
        elif int(top) < 2**63:
            parts[f"_lo_{s}"] = x64 % 2**31
            parts[f"_hi_{s}"] = x64 // 2**31
        else:
            split = pl.lit(2**31, dtype=pl.Int128)
            parts[f"_lo_{s}"] = pl.select((exact % split).cast(pl.Int64)).to_series()
            parts[f"_hi_{s}"] = pl.select((exact // split).cast(pl.Int64)).to_series()
        if exact.null_count():
            parts[f"_nn_{s}"] = exact.is_not_null().cast(pl.Int64)
    values = pl.DataFrame(parts)
    if any(values.null_count().row(0)):
        values = values.fill_null(0)
    sums = segment_sums(values, src, met)
    out = players.select(keys)
    for s in sources:
        # (a sum of whole values stays Int64, where it was summed: the means read it as
        # any integer, and casting 4M of them to Int128 and back cost 40 ms)
        total = sums[f"_lo_{s}"]
        if f"_hi_{s}" in sums.columns:
            total = pl.select(total.cast(pl.Int128) + sums[f"_hi_{s}"].cast(pl.Int128)
                              * pl.lit(2**31, dtype=pl.Int128)).to_series()
        count = sums[f"_nn_{s}"] if f"_nn_{s}" in sums.columns else met
        out = out.with_columns(total.alias(f"_t_{s}"), count.alias(f"_k_{s}"))
    # the means lazily: a plan that does not read them (every one but the rounding
    # fallback's) does not compute them (4M rows: two Int128 casts and divisions)
    return out.lazy().with_columns(
        pl.when(pl.col(f"_k_{s}") > 0).then(
            pl.col(f"_t_{s}").cast(pl.Float64) / (pl.col(f"_k_{s}").cast(pl.Float64)
                                                  * float(scale))).alias(f"_m_{s}")
        for s, scale in sources.items())
