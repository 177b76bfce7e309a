"""Recommended Swiss round counts and playoff sizes by attendance, as data.

Each table is a :class:`RoundsTable` keyed by name in :data:`ROUND_TABLES`; the lookup
(:func:`recommended_rounds`) is one as-of join of attendance against the table's rows, so
there is no per-game branching anywhere — adding a game means adding a table.

Sources (see ``../shared/docs/rules.md``):

- ``"mtg"`` — MTR Appendix E (10 Nov 2025), constructed / non-draft playoff. Awarded byes
  count a player as 2/4/8 players for a 1-/2-/3-round bye.
- ``"mtg_draft"`` — the same table with the 9–16 row for Limited events with a booster-draft
  playoff (4 rounds, Top 8).
- ``"pokemon_vg"`` (TRH variant #1, VG single day), ``"pokemon_league_challenge"`` (#2, TCG
  Swiss only), ``"pokemon_league_cup"`` (#3, TCG single day), ``"pokemon_go"`` (#4, GO single
  day), ``"pokemon_championship"`` (#5, the 2026 two-phase championship format with its
  phase-2 point thresholds). ``"pokemon"`` is the championship format (#5).
- ``"fab"``, ``"fab_draft"``, ``"fab_team"`` — Flesh and Blood Tournament Rules and Policy,
  Appendix A.2 (rules.fabtcg.com, single-day tournaments): up to 8 players 3 rounds and no
  play-off, … 385–736 players 10 rounds; 9–16 players 5 rounds and a Top 4, or 4 rounds and
  a Top 8 for a Limited event with a booster-draft play-off; teams one round more, every
  play-off a Top 4. The older policy's MTG-copied table (129–226 / 227–409 / 410+) is
  ``"mtg"``.
- ``"lorcana"``, ``"lorcana_draft"`` — Disney Lorcana TCG Tournament Rules (3 Oct 2023): 8
  players 3 single-elimination rounds, 9–16 players 5 rounds and a Top 4 (Core Constructed)
  or 4 rounds and a Top 8 (Limited with a draft play-off), 17–32 5, 33–64 6, 65–128 7,
  129–226 8, each with a Top 8; the text stops at 226 players.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

import polars as pl

from swissframe._collect import collect
from swissframe.errors import DataError, RulesetError, check_whole, did_you_mean, listed
from swissframe.rules._ruleset import known_name

__all__ = [
    "ROUNDS_COLUMNS",
    "ROUND_TABLES",
    "RoundsRow",
    "RoundsTable",
    "recommended_rounds",
    "rounds_table",
]


@dataclass(frozen=True)
class RoundsRow:
    """One attendance bracket of a rounds table.

    Attributes
    ----------
    min_players, max_players
        Inclusive attendance bracket (``max_players=None``: open-ended).
    swiss_rounds
        Total Swiss rounds (both phases of a two-phase event).
    top_cut
        Playoff size (0 = no playoff; for ``cut_kind="asymmetrical"`` the nominal size).
    elimination_rounds
        Single-elimination rounds (``None`` when the bracket size is not fixed).
    phase1_rounds
        Rounds of phase 1 (``None``: the event has one phase, all ``swiss_rounds``).
    phase2_threshold
        Match points needed after phase 1 to play phase 2 (``None``: everyone continues).
    cut_kind
        ``"none"``, ``"top"`` (a top-N playoff), ``"asymmetrical"`` (Pokémon 2026: at most
        16 players) or ``"single_elimination"`` (no Swiss at all).
    """

    min_players: int
    max_players: int | None
    swiss_rounds: int
    top_cut: int
    elimination_rounds: int | None
    phase1_rounds: int | None = None
    phase2_threshold: int | None = None
    cut_kind: str = "top"


@dataclass(frozen=True)
class RoundsTable:
    """A named rounds table: ordered, contiguous attendance brackets.

    Attributes
    ----------
    name
        Key in :data:`ROUND_TABLES`.
    source
        The document and section the rows come from.
    rows
        The brackets, ascending and contiguous.
    bye_weights
        How many players a player with 0, 1, 2, 3 awarded byes counts as (MTR Appendix E:
        1/2/4/8). A one-element tuple ``(1,)`` means awarded byes are not counted.
    """

    name: str
    source: str
    rows: tuple[RoundsRow, ...]
    bye_weights: tuple[int, ...] = (1,)

    def frame(self) -> pl.DataFrame:
        """The rows as a DataFrame (one row per bracket).

        Examples
        --------
        >>> from swissframe.rounds import ROUND_TABLES
        >>> ROUND_TABLES["mtg"].frame().select("min_players", "swiss_rounds").row(-1)
        (410, 10)
        """
        return pl.DataFrame(
            [
                {
                    "min_players": r.min_players,
                    "max_players": r.max_players,
                    "swiss_rounds": r.swiss_rounds,
                    "phase1_rounds": r.swiss_rounds if r.phase1_rounds is None
                    else r.phase1_rounds,
                    "phase2_threshold": r.phase2_threshold,
                    "phase2_rounds": 0 if r.phase1_rounds is None
                    else r.swiss_rounds - r.phase1_rounds,
                    "top_cut": r.top_cut,
                    "cut_kind": r.cut_kind,
                    "elimination_rounds": r.elimination_rounds,
                }
                for r in self.rows
            ],
            schema=_TABLE_SCHEMA,
        )


_TABLE_SCHEMA: Final = {
    "min_players": pl.Int64,
    "max_players": pl.Int64,
    "swiss_rounds": pl.Int64,
    "phase1_rounds": pl.Int64,
    "phase2_threshold": pl.Int64,
    "phase2_rounds": pl.Int64,
    "top_cut": pl.Int64,
    "cut_kind": pl.String,
    "elimination_rounds": pl.Int64,
}

#: Output columns of :func:`recommended_rounds`, in order.
ROUNDS_COLUMNS: Final = (
    "event_id", "players", "effective_players", "table", "swiss_rounds", "phase1_rounds",
    "phase2_threshold", "phase2_rounds", "top_cut", "cut_kind", "elimination_rounds",
)

R = RoundsRow
_MTG_TAIL: Final = (
    R(17, 32, 5, 8, 3), R(33, 64, 6, 8, 3), R(65, 128, 7, 8, 3), R(129, 226, 8, 8, 3),
    R(227, 409, 9, 8, 3), R(410, None, 10, 8, 3),
)
_MTG_HEAD: Final = (
    R(4, 4, 0, 4, 2, cut_kind="single_elimination"),  # team / 2HG only
    R(5, 8, 0, 8, 3, cut_kind="single_elimination"),
)
_VG_GO: Final = (
    R(4, 7, 3, 0, 0, cut_kind="none"), R(8, 8, 3, 2, 1), R(9, 16, 4, 4, 2), R(17, 32, 5, 8, 3),
    R(33, 64, 6, 8, 3), R(65, 128, 7, 8, 3), R(129, 226, 8, 8, 3), R(227, 256, 8, 16, 4),
    R(257, 409, 9, 16, 4), R(410, 512, 9, 32, 5), R(513, None, 10, 32, 5),
)
_CHAMP: Final = (
    R(4, 8, 3, 0, 0, cut_kind="none"),
    R(9, 16, 4, 2, None, cut_kind="asymmetrical"),
    R(17, 32, 6, 4, None, cut_kind="asymmetrical"),
    R(33, 64, 7, 6, None, cut_kind="asymmetrical"),
    R(65, 128, 9, 8, None, 7, 13, "asymmetrical"),
    R(129, 256, 10, 8, None, 8, 16, "asymmetrical"),
    R(257, 512, 11, 8, None, 8, 16, "asymmetrical"),
    R(513, 1024, 12, 8, None, 8, 16, "asymmetrical"),
    R(1025, 2048, 13, 8, None, 8, 16, "asymmetrical"),
    R(2049, 4096, 14, 8, None, 8, 16, "asymmetrical"),
    R(4097, 8192, 15, 8, None, 9, 19, "asymmetrical"),
)
_FAB_TAIL: Final = (
    R(17, 32, 5, 8, 3), R(33, 64, 6, 8, 3), R(65, 128, 7, 8, 3), R(129, 224, 8, 8, 3),
    R(225, 384, 9, 8, 3), R(385, 736, 10, 8, 3),
)
_FAB_HEAD: Final = (R(2, 8, 3, 0, 0, cut_kind="none"),)
#: FaB teams: one round more than individuals, every play-off a Top 4 (the text's "64 --
#: 128" row overlaps the one before; read as 65-128).
_FAB_TEAM: Final = (
    R(2, 16, 5, 4, 2), R(17, 32, 6, 4, 2), R(33, 64, 7, 4, 2), R(65, 128, 8, 4, 2),
    R(129, 224, 9, 4, 2), R(225, 384, 10, 4, 2), R(385, 736, 11, 4, 2),
)
_LOR_HEAD: Final = (R(8, 8, 0, 8, 3, cut_kind="single_elimination"),)
_LOR_TAIL: Final = (
    R(17, 32, 5, 8, 3), R(33, 64, 6, 8, 3), R(65, 128, 7, 8, 3), R(129, 226, 8, 8, 3),
)
_FAB: Final = "Flesh and Blood Tournament Rules and Policy, Appendix A.2 (single-day)"
_LOR: Final = "Disney Lorcana TCG Tournament Rules (3 Oct 2023), recommended rounds"
_TRH: Final = "Play! Pokémon Tournament Rules Handbook (1 Jan 2026) §5.5.4.1–5.5.4.2"
_MTR: Final = "MTG Tournament Rules (10 Nov 2025) Appendix E"

#: Every known rounds table by name.
ROUND_TABLES: Final[Mapping[str, RoundsTable]] = MappingProxyType({
    t.name: t
    for t in (
        RoundsTable("mtg", _MTR + " (non-draft playoff)",
                    (*_MTG_HEAD, R(9, 16, 5, 4, 2), *_MTG_TAIL), (1, 2, 4, 8)),
        RoundsTable("mtg_draft", _MTR + " (Limited, booster-draft playoff)",
                    (*_MTG_HEAD, R(9, 16, 4, 8, 3), *_MTG_TAIL), (1, 2, 4, 8)),
        RoundsTable("pokemon_vg", _TRH + ", variant #1 (VG single day)", _VG_GO),
        RoundsTable("pokemon_league_challenge", _TRH + ", variant #2 (TCG Swiss only)", (
            R(4, 8, 3, 0, 0, cut_kind="none"), R(9, 16, 4, 0, 0, cut_kind="none"),
            R(17, 32, 5, 0, 0, cut_kind="none"), R(33, 64, 6, 0, 0, cut_kind="none"),
            R(65, 128, 7, 0, 0, cut_kind="none"), R(129, 256, 8, 0, 0, cut_kind="none"),
            R(257, 512, 9, 0, 0, cut_kind="none"), R(513, None, 10, 0, 0, cut_kind="none"),
        )),
        RoundsTable("pokemon_league_cup", _TRH + ", variant #3 (TCG single day)", (
            R(4, 8, 3, 0, 0, cut_kind="none"), R(9, 12, 4, 4, 2), R(13, 20, 5, 4, 2),
            R(21, 32, 5, 8, 3), R(33, 64, 6, 8, 3), R(65, 128, 7, 8, 3), R(129, 226, 8, 8, 3),
            R(227, 409, 9, 8, 3), R(410, None, 10, 8, 3),
        )),
        RoundsTable("pokemon_go", _TRH + ", variant #4 (GO single day)", _VG_GO),
        RoundsTable("pokemon_championship", _TRH + ", variant #5 (2026 two-phase)", _CHAMP),
        RoundsTable("pokemon", _TRH + ", variant #5 (2026 two-phase)", _CHAMP),
        RoundsTable("fab", _FAB, (*_FAB_HEAD, R(9, 16, 5, 4, 2), *_FAB_TAIL)),
        RoundsTable("fab_draft", _FAB + " (Limited, booster-draft play-off)",
                    (*_FAB_HEAD, R(9, 16, 4, 8, 3), *_FAB_TAIL)),
        RoundsTable("fab_team", _FAB + " (teams)", _FAB_TEAM),
        RoundsTable("lorcana", _LOR + " (Core Constructed)",
                    (*_LOR_HEAD, R(9, 16, 5, 4, 2), *_LOR_TAIL)),
        RoundsTable("lorcana_draft", _LOR + " (Limited, draft play-off)",
                    (*_LOR_HEAD, R(9, 16, 4, 8, 3), *_LOR_TAIL)),
    )
})
del R


def rounds_table(rules: str | RoundsTable) -> RoundsTable:
    """Resolve a table name (or pass a :class:`RoundsTable` through).

    Examples
    --------
    >>> rounds_table("pokemon").source.endswith("variant #5 (2026 two-phase)")
    True
    """
    if isinstance(rules, RoundsTable):
        return rules
    name = getattr(rules, "name", rules)  # a Ruleset object with a matching name works too
    # (in any case and spelling, as a ruleset's name: "MTG", "pokémon"; bad data 247)
    table = ROUND_TABLES.get(known_name(str(name), among=ROUND_TABLES) or str(name))
    if table is None:
        every = f"use one of {sorted(ROUND_TABLES)} or pass a RoundsTable."
        msg = f"unknown rounds table {name!r}. Hint: {did_you_mean(name, ROUND_TABLES, every)}"
        raise RulesetError(msg)
    return table


def _counts_frame(players: object) -> pl.DataFrame:
    """Normalise the accepted inputs to ``event_id, players, effective_units``."""
    if isinstance(players, pl.LazyFrame):
        players = players.pipe(collect)
    if isinstance(players, pl.DataFrame):
        cols = players.columns
        if "player_id" in cols:
            frame = players if "event_id" in cols else players.with_columns(
                pl.lit("event").alias("event_id"))
            byes = pl.col("byes") if "byes" in cols else pl.lit(0)
            return frame.select(
                pl.col("event_id").cast(pl.String), byes.fill_null(0).cast(pl.Int64).alias("byes")
            )
        if "players" in cols:
            frame = players if "event_id" in cols else players.with_row_index("event_id")
            return frame.select(pl.col("event_id").cast(pl.String),
                                pl.col("players").cast(pl.Int64))
        msg = (f"players table has columns {cols}. Hint: pass one row per player "
               "(event_id, player_id[, byes]) or one row per event (event_id, players).")
        raise DataError(msg)
    hint = ("Hint: pass an int, a sequence of ints, a {event_id: count} mapping or a "
            "players DataFrame.")
    players = listed(players)  # (a NumPy array, a Series: their numbers)
    if (isinstance(players, (bool, str, bytes))
            or not isinstance(players, (numbers.Integral, Sequence, Mapping))):
        msg = f"cannot read attendance from {type(players).__name__} {players!r}. {hint}"
        raise DataError(msg)
    if isinstance(players, numbers.Integral):
        ids, counts = ["event"], [players]
    elif isinstance(players, Mapping):
        ids, counts = [str(k) for k in players], list(players.values())
    else:
        ids, counts = [str(i) for i in range(len(players))], list(players)
    odd = [c for c in counts if isinstance(c, bool) or not isinstance(c, numbers.Integral)]
    if odd:
        msg = f"attendance counts must be whole numbers, got {odd[0]!r}. {hint}"
        raise DataError(msg)
    # (a count past 64 bits ended in Polars' TypeError building the Int64 column)
    wholes = [check_whole("players", c, hint="an event's attendance, e.g. 120")
              for c in counts]
    return pl.DataFrame({"event_id": ids, "players": wholes},
                        schema={"event_id": pl.String, "players": pl.Int64})


def recommended_rounds(players: object, rules: str | RoundsTable = "mtg") -> pl.DataFrame:
    """Swiss rounds, phases and playoff size for each event's attendance.

    Parameters
    ----------
    players
        Attendance, as any of: an ``int`` (one event, ``event_id="event"``); a sequence of
        ints (event ids ``"0"``, ``"1"``, …); a ``{event_id: count}`` mapping; a DataFrame
        with ``event_id, players`` (counts); or a players table with one row per player
        (``event_id``, ``player_id`` and optionally ``byes``, the awarded byes 0–3). With a
        players table, awarded byes count per the table's ``bye_weights`` (MTG: a player
        with a 1-/2-/3-round bye counts as 2/4/8 players).
    rules
        A table name from :data:`ROUND_TABLES` (``"mtg"``, ``"mtg_draft"``, ``"pokemon"``,
        ``"pokemon_league_cup"``, …) or a :class:`RoundsTable`.

    Returns
    -------
    pl.DataFrame
        One row per event with :data:`ROUNDS_COLUMNS`: ``players`` (head count),
        ``effective_players`` (after bye weighting), ``swiss_rounds`` (total),
        ``phase1_rounds``, ``phase2_threshold`` (match points to reach phase 2, null if
        everyone continues), ``phase2_rounds``, ``top_cut``, ``cut_kind`` and
        ``elimination_rounds``.

    Raises
    ------
    DataError
        An event has fewer players than the table's first row, or awarded byes are out
        of range.
    RulesetError
        Unknown table name.

    Examples
    --------
    >>> from swissframe.rounds import recommended_rounds
    >>> recommended_rounds([226, 227, 410]).select("players", "swiss_rounds", "top_cut").rows()
    [(226, 8, 8), (227, 9, 8), (410, 10, 8)]
    >>> recommended_rounds(300, "pokemon").select(
    ...     "swiss_rounds", "phase1_rounds", "phase2_threshold", "phase2_rounds").row(0)
    (11, 8, 16, 3)
    """
    table = rounds_table(rules)
    counts = _counts_frame(players)
    if "byes" in counts.columns:  # a players table: weight awarded byes, then count
        weights = table.bye_weights
        bad = counts.filter((pl.col("byes") < 0) | (pl.col("byes") > 3))
        if bad.height:
            row = bad.row(0, named=True)
            msg = (f"event {row['event_id']!r}: awarded byes must be 0-3, found {row['byes']}. "
                   "Hint: the byes column counts a player's awarded (not pairing) byes.")
            raise DataError(msg)
        weight_of = {k: weights[min(k, len(weights) - 1)] for k in range(4)}
        counts = counts.group_by("event_id", maintain_order=True).agg(
            pl.len().cast(pl.Int64).alias("players"),
            pl.col("byes").replace_strict(weight_of, return_dtype=pl.Int64)
            .sum().alias("effective_players"),
        )
    else:
        counts = counts.with_columns(pl.col("players").alias("effective_players"))
    lowest = table.rows[0].min_players
    small = counts.filter(pl.col("effective_players").is_null()
                          | (pl.col("effective_players") < lowest))
    if small.height:
        row = small.row(0, named=True)
        msg = (f"event {row['event_id']!r}: {row['effective_players']} players is below the "
               f"smallest bracket ({lowest}) of rounds table {table.name!r}. "
               f"Hint: {table.source} starts at {lowest} players.")
        raise DataError(msg)
    ref = table.frame()
    out = (
        counts.with_row_index("_order")
        .sort("effective_players")
        .join_asof(ref, left_on="effective_players", right_on="min_players", strategy="backward")
    )
    over = out.filter(pl.col("max_players").is_not_null()
                      & (pl.col("effective_players") > pl.col("max_players")))
    if over.height:
        row = over.row(0, named=True)
        msg = (f"event {row['event_id']!r}: {row['effective_players']} players is above the "
               f"largest bracket of rounds table {table.name!r}. "
               "Hint: split the event or pass rounds explicitly.")
        raise DataError(msg)
    return out.sort("_order").with_columns(pl.lit(table.name).alias("table")).select(
        ROUNDS_COLUMNS)
