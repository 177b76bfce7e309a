"""FIDE TRF-16 files (Swiss-Manager, Vega, JaVaFo / bbpPairings TRF(x)) → the long results table.

:func:`read_trf` parses any number of files with the fixed columns of TRF-16 (1-based:
start no 5–8, sex 10, title 11–13, name 15–47, rating 49–52, federation 54–56, FIDE id
58–68, birth date 70–79, points 81–84, rank 86–89, then one 10-character block per round
from column 92: opponent (4), colour, result). A block whose separators are not blank, an
unknown result code or colour, or a non-numeric field is an
:class:`~swissframe.errors.ImportFormatError` naming the file, line, player and round.

Decisions
---------
- ``event_id``: one event per file, keyed by the file name without extension (parent
  folders are prepended only when two given files would clash).
- ``player_id``: the start number as a plain decimal string, not zero-padded (``"7"``, as
  TRF, cross-tables and the reference outputs write it); ``players.start_no`` holds the
  integer for numeric sorting.
- Games columns use the chess encoding: win ``1-0-0``, draw ``0-0-1``, loss ``0-1-0``.
  Every result code is mapped in :data:`TRF_RESULT_CODES`:

  ====== ================================= ============= ==================
  code   meaning                           games (W-L-D)  ``unplayed``
  ====== ================================= ============= ==================
  1 = 0  played win / draw / loss          1-0-0 …       null
  W D L  unrated game win / draw / loss    1-0-0 …       null
  \\+     forfeit win                       1-0-0         ``forfeit_win``
  \\-     forfeit loss                      0-1-0         ``forfeit_loss``
  U      pairing-allocated bye             1-0-0         ``pairing_bye``
  F      full-point bye                    1-0-0         ``full_bye``
  H      half-point bye                    0-0-1         ``half_bye``
  Z      zero-point bye                    0-1-0         ``zero_bye``
  blank  not paired                        0-1-0         ``absent``
  ====== ================================= ============= ==================

- Byes have a null opponent. Forfeits keep the scheduled opponent id, and the opponent's
  block holds the opposite forfeit (checked: the table is validated). A **double
  forfeit** (both blocks ``-``) cannot be two mirrored losses, so both rows get a null
  ``opponent_id``; ``scheduled_opponent_id`` keeps the pairing on every row (FIDE C.07
  Art. 16.4.1, 2026 rules, caps a forfeit's dummy by the scheduled opponent's score).
- **Absent rounds are emitted** as ``unplayed="absent"``, null opponent, ``0-1-0`` rows,
  for every blank (or missing trailing) block up to the last round in which any game or
  forfeit was recorded (``header.rounds_completed``). Art. 16 needs them: an absence is a
  voluntarily unplayed round, it gets a dummy opponent in the player's own Buchholz
  (16.4) and, when trailing, counts as a draw for the opponents' scores (16.3). Rounds
  after that (not yet played; e.g. a pre-declared ``Z`` in a TRF(x) pairing input) get
  no absent rows.
- A block with an opponent but no result (a round paired but not yet played) is not a
  result: it is listed in :attr:`TrfEvents.pending` and left out of ``results``.
- Extra result columns: ``color`` (``w``/``b``, null for ``-``), ``unplayed``,
  ``scheduled_opponent_id``, ``trf_code`` (the result character; letters in upper case:
  TRF-2026 reads letter codes case-insensitively, so ``w``/``B`` colours and ``h``/``u``
  results are read as ``w``/``b`` and ``H``/``U``).
- TRF-2026 records: ``142`` (number of rounds) is read like ``XXR``; records that would
  change the scores but are not applied (``162`` a scoring system other than 1 / ½ / 0,
  ``299`` abnormal points, ``240`` a bye the round blocks do not show) are listed in
  :attr:`TrfEvents.not_applied` and reported, never applied or dropped silently.
"""

from __future__ import annotations

import contextlib
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import date
from pathlib import Path
from typing import Any, Final, NamedTuple

import polars as pl

from swissframe._display import count, noun_expr, quoted
from swissframe.errors import DataError, ImportFormatError, SwissframeError
from swissframe.io._files import (
    MAX_DIGITS,
    bom_decoded,
    built_in_chunks,
    say_warnings,
    several_files,
)
from swissframe.schema import RESULT_COLUMNS, UNPLAYED_WORDS, validate_results

__all__ = [
    "TRF_RESULT_CODES",
    "TrfCode",
    "TrfEvents",
    "parse_trf",
    "read_any",
    "read_trf",
]


class TrfCode(NamedTuple):
    """How one TRF result character becomes a result row."""

    meaning: str
    games: tuple[int, int, int]
    """(won, lost, drawn)."""
    unplayed: str | None
    """Value of the ``unplayed`` column (null = played over the board)."""
    opponent: str
    """``"required"``, ``"optional"`` (forfeits) or ``"forbidden"`` (byes)."""


#: Every TRF-16 result code (plus ``" "`` = not paired); an unplayed round named as every
#: surface names its kind (``schema.UNPLAYED_WORDS``).
TRF_RESULT_CODES: Final[Mapping[str, TrfCode]] = {
    "1": TrfCode("win", (1, 0, 0), None, "required"),
    "=": TrfCode("draw", (0, 0, 1), None, "required"),
    "0": TrfCode("loss", (0, 1, 0), None, "required"),
    "W": TrfCode("unrated win", (1, 0, 0), None, "required"),
    "D": TrfCode("unrated draw", (0, 0, 1), None, "required"),
    "L": TrfCode("unrated loss", (0, 1, 0), None, "required"),
    "+": TrfCode(UNPLAYED_WORDS["forfeit_win"], (1, 0, 0), "forfeit_win", "optional"),
    "-": TrfCode(UNPLAYED_WORDS["forfeit_loss"], (0, 1, 0), "forfeit_loss", "optional"),
    "U": TrfCode(UNPLAYED_WORDS["pairing_bye"], (1, 0, 0), "pairing_bye", "forbidden"),
    "F": TrfCode(UNPLAYED_WORDS["full_bye"], (1, 0, 0), "full_bye", "forbidden"),
    "H": TrfCode(UNPLAYED_WORDS["half_bye"], (0, 0, 1), "half_bye", "forbidden"),
    "Z": TrfCode(UNPLAYED_WORDS["zero_bye"], (0, 1, 0), "zero_bye", "forbidden"),
    " ": TrfCode("not paired", (0, 1, 0), "absent", "forbidden"),
}

#: Codes of a round that was actually paired and decided (sets ``rounds_completed``).
_DECIDED: Final = ("1", "=", "0", "W", "D", "L", "+", "-")
_COLOURS: Final = {"w": "w", "b": "b", "-": None, " ": None}
_FIRST_BLOCK: Final = 91  # 0-based start of round 1's block (column 92)
_NRS_END: Final = 89  # an NRS record's static part ends by column 89 (rank; TRF-2026: 79)
_BLOCK: Final = 10
TRF_SUFFIXES: Final = (".trf", ".txt", ".input")

_RESULT_SCHEMA: Final[dict[str, pl.DataType]] = {
    **RESULT_COLUMNS,  # the contract, then this format's own columns
    "color": pl.String(),
    "unplayed": pl.String(),
    "scheduled_opponent_id": pl.String(),
    "trf_code": pl.String(),
}

_PLAYER_SCHEMA: Final[dict[str, pl.DataType]] = {
    "event_id": pl.String(),
    "player_id": pl.String(),
    "start_no": pl.Int64(),
    "sex": pl.String(),
    "title": pl.String(),
    "name": pl.String(),
    "rating": pl.Int64(),
    "federation": pl.String(),
    "fide_id": pl.String(),
    "birth_date": pl.String(),
    "points": pl.Float64(),
    "rank": pl.Int64(),
    "points_computed": pl.Float64(),
}

_HEADER_SCHEMA: Final[dict[str, pl.DataType]] = {
    "event_id": pl.String(),
    "source": pl.String(),
    "name": pl.String(),
    "city": pl.String(),
    "federation": pl.String(),
    "start_date_raw": pl.String(),
    "start_date": pl.Date(),
    "start_date_note": pl.String(),
    "end_date_raw": pl.String(),
    "players_declared": pl.String(),
    "rated_players": pl.String(),
    "tournament_type": pl.String(),
    "chief_arbiter": pl.String(),
    "rounds_declared": pl.Int64(),
    "rounds_note": pl.String(),
    "rounds_in_file": pl.Int64(),
    "rounds_completed": pl.Int64(),
    "players": pl.Int64(),
}

_HEADER_CODES: Final = {"012": "name", "022": "city", "032": "federation",
                        "042": "start_date_raw", "052": "end_date_raw",
                        "062": "players_declared", "072": "rated_players",
                        "092": "tournament_type", "102": "chief_arbiter"}

_RECORD_SCHEMA: Final[dict[str, pl.DataType]] = {
    "event_id": pl.String(), "line": pl.Int64(), "code": pl.String(), "value": pl.String()}

#: Record codes TRF-16 and TRF-2026 (FIDE handbook, TRF26, applied from 1 Sep 2025)
#: define, plus the ``DDD`` column ruler Swiss-Manager writes and Tornelo's ``DAT`` player
#: data; codes starting ``XX`` (TRF(x), JaVaFo) and ``BB`` (bbpPairings point values) are
#: extensions. TRF-2026's National Rating Support records (a federation code such as
#: ``GER`` laid out as a player line's static part, without round blocks) and its ``###``
#: comment lines are known too (:func:`_unknown_line`).
KNOWN_RECORDS: Final = frozenset({
    "001", "012", "013", "022", "032", "042", "052", "062", "072", "082", "092", "102",
    "112", "122", "132",
    # TRF-2026
    "142", "152", "162", "172", "182", "192", "202", "212", "222", "240", "250", "260",
    "299", "300", "310", "320", "330", "352", "362", "801", "802",
    "DDD", "DAT"})
_PLAYER_LAYOUT: Final = re.compile(r"^.{3} [ \d]{3}\d [ mfMFwW]")
#: A TRF-2026 National Rating Support record: a federation code, then the start number of
#: the ``001`` line it completes (columns 5-8), and no round blocks.
_NRS: Final = re.compile(r"^[A-Z]{3} [ \d]{3}\d(?: |$)")


def _unknown_line(code: str | None, line: str) -> bool:
    """A line that TRF does not define: an unknown record code, or a player line's layout
    (start number in columns 5-8, reaching the round blocks) under another code."""
    if code == "001":
        return False
    if len(line) > _FIRST_BLOCK and _PLAYER_LAYOUT.match(line):
        return True
    if code is not None and len(line.rstrip()) <= _NRS_END and _NRS.match(line):
        return False
    return code is not None and code not in KNOWN_RECORDS and code[:2] not in ("XX", "BB")


_NOT_APPLIED_SCHEMA: Final[dict[str, pl.DataType]] = {
    **_RECORD_SCHEMA, "detail": pl.String()}

#: TRF-2026 record 162's result codes and their default points (W win, D draw, L loss, A
#: absence; P, the pairing-allocated bye, and X, an unknown result, default to W and D).
_DEFAULT_POINTS: Final = {"W": 1.0, "D": 0.5, "L": 0.0, "A": 0.0}
_POINTS_TOKEN: Final = re.compile(r"([WDLAPX])\s*(-?[0-9]+(?:\.[0-9]+)?)")
#: The TRF(x) extensions' scoring records and their keys' default points: JaVaFo's ``XXS``
#: (``XXS W=3 D=1``: W / D a win / draw with either colour, WW BW WD BD WL BL by colour,
#: ZPB HPB FPB PAB the byes, FW FL the forfeits) and bbpPairings' ``BBW BBD BBL BBZ BBF
#: BBU`` (``BBW  3.0``: win, draw, loss, zero-point bye, forfeit loss, pairing-allocated
#: bye). Like TRF-2026's 162, one other than 1 / ½ / 0 is listed, not applied.
_XXS_POINTS: Final = {"W": 1.0, "WW": 1.0, "BW": 1.0, "D": 0.5, "WD": 0.5, "BD": 0.5,
                      "L": 0.0, "WL": 0.0, "BL": 0.0, "ZPB": 0.0, "HPB": 0.5, "FPB": 1.0,
                      "PAB": 1.0, "FW": 1.0, "FL": 0.0}
_XXS_TOKEN: Final = re.compile(r"([A-Z]+)\s*=\s*(-?[0-9]*\.?[0-9]+)")
_BB_POINTS: Final = {"BBW": 1.0, "BBD": 0.5, "BBL": 0.0, "BBZ": 0.0, "BBF": 0.0, "BBU": 1.0}
_NUMBER: Final = re.compile(r"-?[0-9]*\.?[0-9]+")


def _other_scoring(code: str, got: Mapping[str, float], want: Mapping[str, float]
                   ) -> str | None:
    """What a scoring record (162, ``XXS``, ``BB?``) declaring ``got`` says when a point
    value differs from the 1 / ½ / 0 ``want`` the standings score, else None."""
    odd = [f"{k} {got[k]:g}" for k in got if k in want and got[k] != want[k]]
    if not odd:
        return None
    return (f"record {code} declares a scoring system ({', '.join(odd)}) other than "
            "1 / ½ / 0: the standings score 1 / ½ / 0")


def _not_applied(records: list[dict[str, Any]], blocks: list[dict[str, Any]]
                 ) -> list[dict[str, Any]]:
    """The TRF-2026 records of one file that would change its scores, which the reader
    does not apply (see :attr:`TrfEvents.not_applied`)."""
    shown = {(b["round"], b["player_id"]): b["code"] for b in blocks}
    out = []
    for r in records:
        code, value = r["code"], r["value"] or ""
        detail = None
        if code == "162":
            got = {k: float(v) for k, v in _POINTS_TOKEN.findall(value)}
            want = {**_DEFAULT_POINTS, "P": got.get("W", 1.0), "X": got.get("D", 0.5)}
            detail = _other_scoring(code, got, want)
        elif code == "XXS":
            detail = _other_scoring(code, {k: float(v) for k, v in
                                           _XXS_TOKEN.findall(value.upper())}, _XXS_POINTS)
        elif code in _BB_POINTS:
            number = _NUMBER.search(value)
            if number is not None:
                detail = _other_scoring(code, {code: float(number.group())}, _BB_POINTS)
        elif code == "299":
            detail = ("record 299 (abnormal points) is not applied: the standings count "
                      "the round blocks only")
        elif code == "240":
            parts = value.split()
            kind, rnd = (parts[0].upper(), parts[1]) if len(parts) > 1 else ("", "")
            ids = [str(int(x)) for x in parts[2:] if x.isascii() and x.isdigit()]
            missing = [i for i in ids if not rnd.isdigit()
                       or shown.get((int(rnd), i)) != kind]
            if missing:
                detail = (f"record 240 gives a {kind or '?'} bye in round "
                          f"{rnd.lstrip('0') or rnd} to {', '.join(missing[:5])}, whose "
                          "round block does not show it: the standings count the round "
                          "blocks only")
        if detail:
            out.append({**r, "value": f"{code} {value}".rstrip(), "detail": detail})
    return out


_PENDING_SCHEMA: Final[dict[str, pl.DataType]] = {
    "event_id": pl.String(), "round": pl.Int64(), "player_id": pl.String(),
    "opponent_id": pl.String(), "color": pl.String()}


@dataclass(frozen=True)
class TrfEvents:
    """Everything :func:`read_trf` extracts from TRF files (one event per file).

    Attributes
    ----------
    results
        The long results table (validated) plus ``color``, ``unplayed``,
        ``scheduled_opponent_id`` and ``trf_code``.
    players
        ``event_id, player_id, start_no, sex, title, name, rating, federation, fide_id,
        birth_date, points`` (declared), ``rank`` (declared), ``points_computed`` (win 1,
        draw ½ over ``results``; compare with ``points``).
    header
        One row per event: ``012`` name, ``022`` city, ``032`` federation, ``042`` start
        date (raw and parsed; it selects the FIDE rule era), ``052`` end date, ``062``,
        ``072``, ``092``, ``102``, ``XXR`` (``rounds_declared``: a whole number ≥ 1, else
        null; ``rounds_note`` says why a declared number is not read, or is fewer than the
        rounds played: :func:`declared_rounds`), the highest round with a block
        (``rounds_in_file``), the last round with a decided game
        (``rounds_completed``) and the number of player lines.
    records
        Every non-player line, in order: ``event_id, line, code, value`` (``code`` is null
        for a line that is not a record, such as a column ruler).
    pending
        Paired blocks without a result (round in progress), left out of ``results``.
    unknown
        Lines ignored that TRF does not define (``event_id, line, code, value``): an unknown
        record code, or a line laid out as a player line without the ``001`` code (a
        garbled code would otherwise lose the player). Reported by a warning too.
    not_applied
        TRF-2026 records that would change the scores but are not applied
        (``event_id, line, code, value, detail``): ``162`` declaring a scoring system
        other than 1 / ½ / 0, ``299`` abnormal points, ``240`` a bye that the player's
        round block does not show. The standings count the round blocks only; reported by
        a warning too.
    """

    results: pl.DataFrame
    players: pl.DataFrame
    header: pl.DataFrame
    records: pl.DataFrame
    pending: pl.DataFrame
    unknown: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=_RECORD_SCHEMA))
    not_applied: pl.DataFrame = field(
        default_factory=lambda: pl.DataFrame(schema=_NOT_APPLIED_SCHEMA))

    def _facts(self) -> list[str]:

        return [count(self.header.height, "event"), count(self.players.height, "player"),
                count(self.results.height, "result row"),
                count(self.pending.height, "pending seat")]

    def __repr__(self) -> str:
        """A one-line summary, as the other result objects print (the frames are
        ``.results``, ``.players``, …; printing one dumped every frame: bad data 246).

        >>> e = pl.DataFrame()
        >>> TrfEvents(e, e, pl.DataFrame({"event_id": ["a"]}), e, e)
        TrfEvents: 1 event, 0 players, 0 result rows, 0 pending seats — .results, .players,
        .header, .records, .pending, .unknown, .not_applied
        """
        from swissframe._display import summary_text

        return summary_text("TrfEvents", self._facts(), [f.name for f in fields(self)])

    def _repr_html_(self) -> str:
        from swissframe._display import summary_html

        return summary_html("TrfEvents", self._facts(),
                            {f.name: getattr(self, f.name) for f in fields(self)})


def _decode(data: bytes | str, source: str) -> str:
    """A TRF file's text: by its UTF-16/32 byte-order mark (:func:`bom_decoded`), else
    UTF-8 (with or without a mark), else Windows-1252 — what Swiss-Manager and Vega, Windows
    programs, write (Latin-1 read its "Š", "Ž", "…" as control characters) —, else
    Latin-1 (the bytes cp1252 leaves undefined)."""
    if isinstance(data, str):
        return data
    raw = bytes(data)
    text = bom_decoded(raw, source)
    if text is not None:
        return text
    with contextlib.suppress(UnicodeDecodeError):
        return raw.decode("utf-8-sig")
    _refuse_names_cut_in_bytes(raw, source)
    with contextlib.suppress(UnicodeDecodeError):
        return raw.decode("cp1252")
    return raw.decode("latin-1")


#: A player line's fields that the reader and the byte-layout checks both read (0-based
#: slices of TRF-16's columns: name 15-47, rating 49-52, points 81-84, rank 86-89).
_NAME: Final = slice(14, 47)
_RATING: Final = slice(48, 52)
_POINTS: Final = slice(80, 84)
_RANK: Final = slice(85, 89)
_NAME_WIDTH: Final = _NAME.stop - _NAME.start
_BYTES_HINT: Final = ("Hint: TRF-16 counts characters (33 a name); the program that wrote the "
                      "file counted UTF-8 bytes. Export the file again as Windows-1252 (the "
                      "names then take one byte a character), or pad each name to 33 "
                      "characters.")


def _refuse_names_cut_in_bytes(raw: bytes, source: str) -> None:
    """Refuse a file that is UTF-8 but for a character cut at the end of a player's name
    field: a program counting bytes wrote it (C's ``%-33.33s``, PHP's ``str_pad``), each
    name padded or cut to 33 bytes. Read as Windows-1252 (the file is not UTF-8 as a whole),
    every accented or Cyrillic name became mojibake (``MÃ¼ller``) without a word (bad data
    157). A Windows-1252 file is not UTF-8 in its names' letters, and is read as before."""
    cut = None
    for lineno, line in enumerate(re.split(rb"\r\n|\r|\n", raw), start=1):
        try:
            line.decode("utf-8")
            continue
        except UnicodeDecodeError:
            pass
        if not line.startswith(b"001"):
            return
        name = line[_NAME]
        try:  # (the name less a character cut at its end, the line around it)
            shown = name.decode("utf-8", errors="ignore")
            if shown.encode("utf-8") != name[:len(shown.encode("utf-8"))]:
                return
            line[:_NAME.start].decode("utf-8")
            line[_NAME.stop:].decode("utf-8")
        except UnicodeDecodeError:
            return
        cut = cut or (lineno, shown.rstrip())
    if cut is not None:
        msg = (f"{source}, line {cut[0]}: the file is UTF-8 but for a name cut inside a "
               f"character at column 47 ({quoted(cut[1])}…): its player lines are laid out "
               "in bytes, not characters, and read as Windows-1252 every name would be "
               f"garbled. {_BYTES_HINT}")
        raise ImportFormatError(msg)


def _realigned_from_bytes(line: str) -> str | None:
    """A player line whose name field was padded to 33 UTF-8 bytes (not characters),
    padded to 33 characters instead; None when the line is ASCII or its name field is not
    whole characters in bytes."""
    raw = line.encode("utf-8")
    if len(raw) == len(line):
        return None
    try:
        head, name, tail = (raw[:_NAME.start].decode("utf-8"),
                            raw[_NAME].decode("utf-8"), raw[_NAME.stop:].decode("utf-8"))
    except UnicodeDecodeError:
        return None
    return head + name.ljust(_NAME_WIDTH) + tail


_SEP: Final = r"\s*[-/.]\s*"
_YMD: Final = re.compile(rf"([0-9]{{4}}){_SEP}([0-9]{{1,2}}){_SEP}([0-9]{{1,2}})")
_COMPACT: Final = re.compile(r"([0-9]{4})([0-9]{2})([0-9]{2})")
_XXY: Final = re.compile(rf"([0-9]{{1,2}}){_SEP}([0-9]{{1,2}}){_SEP}([0-9]{{4}})")
#: The presets a note on the start date offers (``--rules``), with their eras.
_ERA_HINT: Final = ("pass --rules fide-2009 (started before 1 Jul 2023), fide (to 28 Feb "
                    "2026) or fide-2026 (rules= in Python) if that is not the event's era")


def _calendar(y: int, mo: int, d: int) -> date | None:
    try:
        return date(y, mo, d)
    except ValueError:
        return None


def read_start_date(raw: str | None) -> tuple[date | None, str | None]:
    """The ``042`` start date of a TRF file, and a note when the text is there but its
    date is not certain: the date chooses the FIDE rules (``rules._infer``), so a date
    misread would rank the event by another era's rules without a word.

    Read: ``YYYY/MM/DD`` (TRF-16's form; ``-`` or ``.`` too), ``YYYYMMDD``, and a day and
    month before the year (``DD.MM.YYYY``, ``MM/DD/YYYY``): a number above 12 says which
    is the day (``02/13/2026`` is 13 Feb); when both are ≤ 12 the day comes first (the
    European order of Swiss-Manager and Vega), with a note when the other order would
    fall in another FIDE era. Any other text (``2026-02-30``, ``24/08/01``) is no date,
    with a note: the event then gets the rules in force today, unless its round dates
    (``132``) give its first round's (:func:`first_round_date`).

    >>> read_start_date("2024/08/01")
    (datetime.date(2024, 8, 1), None)
    >>> read_start_date("02/13/2026")[0]
    datetime.date(2026, 2, 13)
    >>> read_start_date("2026-02-30")[1]
    "042 start date '2026-02-30' is not a date (expected YYYY/MM/DD)"
    """
    from swissframe.rules._infer import fide_era

    s = (raw or "").strip()
    if not s:
        return None, None
    if m := _YMD.fullmatch(s) or _COMPACT.fullmatch(s):
        got = _calendar(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        return got, None if got else f"042 start date {s!r} is not a date (expected YYYY/MM/DD)"
    if m := _XXY.fullmatch(s):
        a, b, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
        day_first, month_first = _calendar(y, b, a), _calendar(y, a, b)
        got = day_first or month_first
        if got is None:
            return None, f"042 start date {s!r} is not a date (expected YYYY/MM/DD)"
        if (day_first and month_first and day_first != month_first
                and fide_era(day_first) != fide_era(month_first)):
            return day_first, (
                f"042 start date {s!r} is {day_first} read day first and {month_first} "
                f"read month first, dates of different FIDE rules: read day first "
                f"({fide_era(day_first)}, not {fide_era(month_first)})")
        return got, None
    return None, f"042 start date {s!r} is not a date (expected YYYY/MM/DD)"


def start_date_note(raw: str | None) -> str | None:
    """The import note on a TRF file's ``042`` start date (:func:`read_start_date`), with
    the era it chose and a hint naming the presets; None when the date is certain.

    >>> start_date_note("2024-13-45")  # doctest: +ELLIPSIS
    "042 start date '2024-13-45' is not a date ...; ranked by fide-2026, the rules in force
    today. Hint: write it as YYYY/MM/DD in the file, or pass --rules fide-2009 ..."
    """
    from swissframe.rules._infer import fide_era

    got, why = read_start_date(raw)
    if why is None:
        return None
    chosen = (f"ranked by {fide_era(got)}" if got is not None
              else f"ranked by {fide_era(None)}, the rules in force today")
    return (f"{why}; {chosen}. Hint: write it as YYYY/MM/DD in the file, or "
            f"{_ERA_HINT}.")


#: A round date of record 132 as TRF-16 writes it: ``YY/MM/DD`` (Swiss-Manager:
#: ``24/11/23``), each from column 92 like the round blocks.
_ROUND_DATE: Final = re.compile(r"([0-9]{2})/([0-9]{1,2})/([0-9]{1,2})")


def first_round_date(value: str | None, *, today: date | None = None
                     ) -> tuple[date, str] | None:
    """The date of round 1 in a ``132`` record's value (the round dates), and its text:
    the event's start when its ``042`` is absent or not a date (bad data 232). TRF-16
    writes ``YY/MM/DD`` (a year after next year's is read in the 1900s); a four-digit
    year is read as :func:`read_start_date` reads one, when certain. None when the first
    date is none of these.

    >>> first_round_date("  24/11/23  24/11/24", today=date(2026, 12, 7))
    (datetime.date(2024, 11, 23), '24/11/23')
    >>> first_round_date("2026/03/02  2026/03/03")
    (datetime.date(2026, 3, 2), '2026/03/02')
    >>> first_round_date("") is None, first_round_date("99/99/99") is None
    (True, True)
    """
    words = (value or "").split()
    if not words:
        return None
    first = words[0]
    if m := _ROUND_DATE.fullmatch(first):
        year = 2000 + int(m.group(1))
        if year > (today or date.today()).year + 1:
            year -= 100
        got = _calendar(year, int(m.group(2)), int(m.group(3)))
    else:
        got, why = read_start_date(first)
        got = got if why is None else None
    return (got, first) if got is not None else None


def _start_date(raw: str | None, round_dates: str | None) -> tuple[date | None, str | None]:
    """The start date of a file (``042``, else its first round's date in ``132``) and the
    note on it: an ``042`` absent or not a date left the event to today's FIDE rules
    while its round dates said its era (a 2024 event ranked by the 2026 rules)."""
    from swissframe.rules._infer import fide_era

    got = read_start_date(raw)[0]
    rounds = first_round_date(round_dates) if got is None else None
    if rounds is None:
        return got, start_date_note(raw)
    text = (raw or "").strip()
    said = f"{text!r} not a date" if text else "absent"
    return rounds[0], (
        f"042 start date {said}: the first round's date in record 132, {rounds[1]!r}, "
        f"read as {rounds[0]}; ranked by {fide_era(rounds[0])}. Hint: write the start date "
        f"as YYYY/MM/DD in 042, or {_ERA_HINT}.")


def _field_int(text: str, *, what: str, where: str) -> int | None:
    t = text.strip()
    if not t:
        return None
    if not t.isascii() or not t.isdigit():
        msg = (f"{where}: {what} is {t!r}, not a number. Hint: TRF-16 is fixed-column; "
               "check that the line is aligned (see swissframe.io.trf).")
        raise ImportFormatError(msg)
    if len(t) > MAX_DIGITS:
        msg = (f"{where}: {what} is {t}, too large a number for any tournament. Hint: "
               "TRF-16 is fixed-column; check that the line is aligned.")
        raise ImportFormatError(msg)
    return int(t)


#: A control character (C0 but the tab, and DEL): where a player line holding one is
#: misaligned, the character is named (a NUL byte added to a name was reported as
#: misaligned points). A line that stays aligned is read (class 21: a form feed or
#: U+001C in place of a letter keeps its player's line).
_CONTROL: Final = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def _refuse_tabs(line: str, lineno: int, src: str) -> None:
    """Refuse a tab in a player line outside its name: TRF-16 is fixed-column and a tab is
    one column, so an editor that wrote a run of blanks as a tab shifted every field after
    it. Such a line could still read — shorter than column 92, so with no round block —
    and its player's rounds were lost without a word (a ``0000 - U`` bye, a point, read as
    an absence). A tab inside the name is one of its characters (its columns stay)."""
    if "\t" not in line:  # (the usual line: no character looked at one by one)
        return
    at = next((i for i, c in enumerate(line) if c == "\t"
               and not _NAME.start <= i < _NAME.stop), None)
    if at is None:
        return
    msg = (f"{src}, line {lineno}: a tab at column {at + 1} of a player line (001), in "
           f"{line[max(at - 12, 0):at + 12]!r}: TRF-16 is fixed-column and a tab is one "
           "column, so the fields after it are misaligned. Hint: the file was edited with "
           "tabs; write each as the blanks it stands for, or re-export the file.")
    raise ImportFormatError(msg)


def _parse_player(line: str, lineno: int, src: str, event_id: str
                  ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    _refuse_tabs(line, lineno, src)
    try:
        read = _player_fields(line, lineno, src, event_id)
    except ImportFormatError:
        bad = _CONTROL.search(line)
        if bad is None:
            _refuse_aligned_in_bytes(line, lineno, src, event_id, None)
            raise
    else:
        _refuse_aligned_in_bytes(line, lineno, src, event_id, read)
        return read
    char = bad.group()
    what = "a NUL byte" if char == "\x00" else f"a control character (U+{ord(char):04X})"
    msg = (f"{src}, line {lineno}: {what} at column {bad.start() + 1} of a player line (001), "
           f"in {line[max(bad.start() - 12, 0):bad.start() + 12]!r}, and the fields after it "
           "are misaligned. Hint: the file is damaged there; remove the character (TRF-16 "
           "is fixed-column).")
    raise ImportFormatError(msg) from None


#: The right-aligned numbers of a player line (rating, points, rank).
_RIGHT_ALIGNED: Final = (_RATING, _POINTS, _RANK)


def _misplaced(line: str) -> bool:
    """Whether a right-aligned number of a player line (rating, points, rank) does not end
    at its field's last column: a line shifted by a name padded in bytes can read whole,
    its round blocks fallen before column 92 (a name of 8 CJK and accented letters, 12
    bytes more than characters, left the player without rounds)."""
    padded = line.ljust(_FIRST_BLOCK)
    return any(padded[f].strip() and padded[f.stop - 1] == " " for f in _RIGHT_ALIGNED)


def _filled(read: tuple[dict[str, Any], list[dict[str, Any]]]) -> int:
    """How many of a player line's numbers (rating, points, rank) and round blocks were
    read: a line shifted by a name padded in bytes loses some to the columns before them."""
    player, blocks = read
    return sum(player[k] is not None for k in ("rating", "points", "rank")) + len(blocks)


def _refuse_aligned_in_bytes(line: str, lineno: int, src: str, event_id: str,
                             read: tuple[dict[str, Any], list[dict[str, Any]]] | None
                             ) -> None:
    """Name what misaligned a player line (``read``: what its characters gave, None when
    they did not read) when, with its name field counted in UTF-8 bytes, it reads whole
    with its numbers at their fields' ends, and counted in characters it did not read, or
    its numbers are not in place, or it reads fewer of them and of its round blocks
    (:func:`_filled`): a name of
    accented or other letters padded to 33 bytes left every field after it shifted by a
    column a letter (the error said ``points are '.0'``, or the rounds fell before column
    92; bad data 157)."""
    fixed = _realigned_from_bytes(line)
    if fixed is None or _misplaced(fixed):
        return
    try:
        player, blocks = _player_fields(fixed, lineno, src, event_id)
    except ImportFormatError:
        return
    if read is not None and not _misplaced(line) and _filled(read) >= _filled(
            (player, blocks)):
        return
    name = fixed[_NAME].rstrip()
    shift = len(line[:_NAME.stop].encode("utf-8")) - _NAME.stop
    msg = (f"{src}, line {lineno}: the name {quoted(name)} is padded to 33 bytes of UTF-8, "
           f"not 33 characters, so each field after it starts {count(shift, 'column')} early "
           f"(the line reads whole counted in bytes). {_BYTES_HINT}")
    raise ImportFormatError(msg)


def _player_fields(line: str, lineno: int, src: str, event_id: str
                   ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    where = f"{src}, line {lineno}"
    padded = line.ljust(_FIRST_BLOCK)
    start = _field_int(padded[4:8], what="start number (columns 5-8)", where=where)
    if start is None or start < 1:
        msg = (f"{where}: a player line (001) needs a start number ≥ 1 in columns 5-8, "
               f"found {padded[4:8]!r}. Hint: the line is misaligned or truncated.")
        raise ImportFormatError(msg)
    pid = str(start)
    where = f"{src}, line {lineno}, player {pid}"
    pts_raw = padded[_POINTS].strip()
    points: float | None = None
    if pts_raw:
        try:
            points = float(pts_raw)
        except ValueError:
            points = None
        if points is None or not re.fullmatch(r"[0-9]+(\.[0-9]+)?", pts_raw):  # (ASCII)
            msg = (f"{where}: points (columns 81-84) are {pts_raw!r}, not a number. "
                   "Hint: the line is misaligned.")
            raise ImportFormatError(msg)
    player = {
        "event_id": event_id,
        "player_id": pid,
        "start_no": start,
        "sex": padded[9].strip() or None,
        "title": padded[10:13].strip() or None,
        "name": padded[_NAME].strip() or None,
        "rating": _field_int(padded[_RATING], what="rating (columns 49-52)", where=where),
        "federation": padded[53:56].strip() or None,
        "fide_id": padded[57:68].strip() or None,
        "birth_date": padded[69:79].strip() or None,
        "points": points,
        "rank": _field_int(padded[_RANK], what="rank (columns 86-89)", where=where),
    }
    blocks: list[dict[str, Any]] = []
    rest = line[_FIRST_BLOCK:]
    if line[89:_FIRST_BLOCK].strip():
        msg = (f"{where}: columns 90-91 must be blank, found {line[89:91]!r}. "
               "Hint: the round blocks are misaligned (each is 10 characters from column 92).")
        raise ImportFormatError(msg)
    n_blocks = (len(rest.rstrip()) + _BLOCK - 1) // _BLOCK
    for i in range(n_blocks):
        rnd = i + 1
        b = rest[i * _BLOCK:(i + 1) * _BLOCK].ljust(_BLOCK)
        if not b.strip():
            continue
        if b[4] != " " or b[6] != " " or b[8:].strip():
            bwhere = _block_where(where, i)
            msg = (f"{bwhere}: malformed round block {b!r}. Hint: a block is "
                   "'OOOO C R  ' (opponent in 4 columns, colour, result); the line is "
                   "misaligned.")
            raise ImportFormatError(msg)
        digits = b[0:4].strip()  # (the usual block's number read at once; else checked)
        opp = (int(digits) if digits.isascii() and digits.isdigit() else
               _field_int(b[0:4], what="opponent number", where=_block_where(where, i)))
        # TRF-2026: "letter codes are case-insensitive" ('W' colour, 'h' bye)
        colour, code = b[5].lower(), b[7].upper()
        if colour not in _COLOURS:
            bwhere = _block_where(where, i)
            msg = (f"{bwhere}: unknown colour {b[5]!r}. Hint: TRF colours are 'w', 'b' "
                   "or '-'.")
            raise ImportFormatError(msg)
        if code not in TRF_RESULT_CODES:
            bwhere = _block_where(where, i)
            msg = (f"{bwhere}: unknown result code {b[7]!r}. Hint: TRF-16 codes are "
                   f"{' '.join(c for c in TRF_RESULT_CODES if c != ' ')} (see "
                   "swissframe.io.trf.TRF_RESULT_CODES).")
            raise ImportFormatError(msg)
        opp_id = str(opp) if opp else None
        kind = TRF_RESULT_CODES[code]
        if code == " " and opp_id is not None:
            blocks.append({"round": rnd, "opponent_id": opp_id, "color": _COLOURS[colour],
                           "code": None})  # paired, not yet played
            continue
        if code == " ":
            continue  # '0000 -  ': not paired, handled with the blank blocks
        if kind.opponent == "required" and opp_id is None:
            bwhere = _block_where(where, i)
            msg = (f"{bwhere}: result {code!r} ({kind.meaning}) without an opponent. "
                   "Hint: a game result needs the opponent's start number; byes use "
                   "H/F/U/Z.")
            raise ImportFormatError(msg)
        if kind.opponent == "forbidden" and opp_id is not None:
            bwhere = _block_where(where, i)
            msg = (f"{bwhere}: {kind.meaning} ({code!r}) with opponent {opp_id}. "
                   "Hint: a bye's opponent is 0000.")
            raise ImportFormatError(msg)
        if opp_id == pid:
            bwhere = _block_where(where, i)
            msg = f"{bwhere}: the player is paired with themself. Hint: the file is damaged."
            raise ImportFormatError(msg)
        blocks.append({"round": rnd, "opponent_id": opp_id, "color": _COLOURS[colour],
                       "code": code})
    for blk in blocks:
        blk["event_id"] = event_id
        blk["player_id"] = pid
    return player, blocks


def _block_where(where: str, i: int) -> str:
    """Where the ``i``-th round block of a player line is, for its errors (built only
    for one: a file's every block paid the text)."""
    return f"{where}, round {i + 1} (columns {92 + i * _BLOCK}-{101 + i * _BLOCK})"


#: A TRF line end (the file's own: not the other separators ``str.splitlines`` knows).
_LINE_END: Final = re.compile(r"\r\n|\r|\n")


def parse_trf(data: bytes | str, *, event_key: str = "event", source: str | None = None
              ) -> TrfEvents:
    """Parse the content of one TRF file (see :func:`read_trf` for the output).

    Examples
    --------
    >>> trf = ("012 Demo\\n"
    ...        "001    1      Alice" + " " * 62 + "1.5    1     2 w 1  0000 - H\\n"
    ...        "001    2      Bob" + " " * 64 + "0.0    2     1 b 0\\n")
    >>> ev = parse_trf(trf, event_key="demo")
    >>> ev.results.select("round", "player_id", "opponent_id", "games_won", "games_drawn",
    ...                   "unplayed").rows()
    [(1, '1', '2', 1, 0, None), (1, '2', '1', 0, 0, None), (2, '1', None, 0, 1, 'half_bye')]
    """
    return _build([_parsed(data, event_key=event_key, source=source)])


@dataclass(frozen=True)
class _TrfFile:
    """What one TRF file holds, read from its lines into plain Python (no frame yet):
    :func:`_build` makes the frames of any number of files at once."""

    source: str
    event_key: str
    players: list[dict[str, Any]]
    blocks: list[dict[str, Any]]
    records: list[dict[str, Any]]
    unknown: list[dict[str, Any]]


def _parsed(data: bytes | str, *, event_key: str, source: str | None) -> _TrfFile:
    """One TRF file's :class:`_TrfFile`: its lines read and checked one by one."""
    src = source or event_key
    text = _decode(data, src)
    players: list[dict[str, Any]] = []
    blocks: list[dict[str, Any]] = []
    records: list[dict[str, Any]] = []
    unknown: list[dict[str, Any]] = []
    # lines end at \n, \r\n or \r only: str.splitlines also splits at U+0085 (a Latin-1 /
    # cp1252 "…" in a name decodes to it), form feeds and other separators, which cut a
    # player's line and dropped the rest of it
    for lineno, raw_line in enumerate(_LINE_END.split(text), start=1):
        line = raw_line
        if not line.strip():
            continue
        code: str | None = line[:3]
        if code == "001":
            player, pblocks = _parse_player(line, lineno, src, event_key)
            players.append(player)
            blocks.extend(pblocks)
            continue
        # a record's code is followed by a blank, or by a tab where the file was edited
        # with tabs ('042<TAB>2024/08/01'): such a line was read as a comment, without a
        # word, and its start date lost (the other FIDE era's values; bad data 226). A
        # record's value is free text after its code (the fixed columns are the 001
        # line's, where a tab is refused: class 191)
        is_record = bool(re.fullmatch(r"[0-9A-Z]{3}", line[:3])) and (
            len(line) == 3 or line[3] in " \t")
        code = line[:3] if is_record else None
        value = line[4:].lstrip("\t") if line[3:4] == "\t" else line[4:]
        record = {"event_id": event_key, "line": lineno, "code": code,
                  "value": value.rstrip() if is_record else line.rstrip()}
        records.append(record)
        if _unknown_line(code, line):
            unknown.append({**record, "value": line.rstrip()})
    if not players:
        msg = (f"{src}: no player lines (records starting with '001'). "
               "Hint: this is not a TRF-16 file, or it is truncated.")
        raise ImportFormatError(msg)
    ids = [p["player_id"] for p in players]
    # (counted once: ids.count per id compared every pair of player lines)
    dupes = sorted((i for i, n in Counter(ids).items() if n > 1), key=int)
    if dupes:
        msg = (f"{src}: start number(s) {dupes[:5]} appear on more than one 001 line. "
               "Hint: each player has exactly one line.")
        raise ImportFormatError(msg)
    return _TrfFile(source=src, event_key=event_key, players=players, blocks=blocks,
                    records=records, unknown=unknown)


def _build(files: Sequence[_TrfFile]) -> TrfEvents:
    """The frames of any number of parsed files at once, each file one event (its
    ``event_id``, distinct across the files: ``keys_for``), stacked in the given order
    (a frame of a few rows per file cost ≈ 10 ms a file, ≈ 30 small queries). A damaged
    file raises here (:func:`~swissframe.io._files.built_in_chunks` finds which)."""
    # (the files' order, which the output keeps: each file's rows sorted as it sorted them)
    order = pl.Enum([f.event_key for f in files])
    code_tbl = pl.DataFrame(
        [{"code": c, "w": k.games[0], "l": k.games[1], "d": k.games[2],
          "unplayed": k.unplayed} for c, k in TRF_RESULT_CODES.items()],
        schema={"code": pl.String, "w": pl.Int64, "l": pl.Int64, "d": pl.Int64,
                "unplayed": pl.String})
    raw = pl.DataFrame([b for f in files for b in f.blocks],
                       schema={"round": pl.Int64, "opponent_id": pl.String,
                               "color": pl.String, "code": pl.String,
                               "event_id": pl.String, "player_id": pl.String})
    pending = (raw.filter(pl.col("code").is_null())
               .select(list(_PENDING_SCHEMA)).cast(_PENDING_SCHEMA))  # type: ignore[arg-type]
    rows = raw.filter(pl.col("code").is_not_null())
    # a double forfeit: both blocks '-' against each other → no mirrored pair possible
    mirror = rows.select("event_id", "round", pl.col("player_id").alias("opponent_id"),
                         pl.col("opponent_id").alias("player_id"),
                         pl.col("code").alias("_m_code"))
    rows = (rows.join(mirror, on=["event_id", "round", "player_id", "opponent_id"],
                      how="left")
            .join(code_tbl, on="code", how="left")
            .with_columns(
                pl.col("opponent_id").alias("scheduled_opponent_id"),
                pl.when((pl.col("code") == "-") & (pl.col("_m_code") == "-"))
                .then(None).otherwise(pl.col("opponent_id")).alias("opponent_id")))
    played = rows.select(
        "event_id", "round", "player_id", "opponent_id",
        pl.col("w").alias("games_won"), pl.col("l").alias("games_lost"),
        pl.col("d").alias("games_drawn"), pl.lit("swiss").alias("phase"), "color",
        "unplayed", "scheduled_opponent_id", pl.col("code").alias("trf_code"))
    # each file's rounds completed and rounds in its player lines (the header's)
    completed = [max((b["round"] for b in f.blocks if b["code"] in _DECIDED), default=0)
                 for f in files]
    in_file = [max((b["round"] for b in f.blocks), default=0) for f in files]
    player_df = pl.DataFrame([p for f in files for p in f.players],
                             schema={k: v for k, v in _PLAYER_SCHEMA.items()
                                     if k != "points_computed"})
    absent_kind = TRF_RESULT_CODES[" "]
    spans = pl.DataFrame({"event_id": [f.event_key for f in files], "_done": completed},
                         schema={"event_id": pl.String, "_done": pl.Int64})
    absent = (
        player_df.select("event_id", "player_id")
        .join(spans, on="event_id", how="left")
        .select("event_id", "player_id",
                pl.int_ranges(1, pl.col("_done") + 1, dtype=pl.Int64).alias("round"))
        .explode("round").drop_nulls("round")
        .join(raw.select("event_id", "round", "player_id"),
              on=["event_id", "round", "player_id"], how="anti")
        .select("event_id", "round", "player_id",
                pl.lit(None, dtype=pl.String).alias("opponent_id"),
                pl.lit(absent_kind.games[0]).alias("games_won"),
                pl.lit(absent_kind.games[1]).alias("games_lost"),
                pl.lit(absent_kind.games[2]).alias("games_drawn"),
                pl.lit("swiss").alias("phase"), pl.lit(None, dtype=pl.String).alias("color"),
                pl.lit(absent_kind.unplayed).alias("unplayed"),
                pl.lit(None, dtype=pl.String).alias("scheduled_opponent_id"),
                pl.lit(None, dtype=pl.String).alias("trf_code"))
    )
    results = (pl.concat([played.cast(_RESULT_SCHEMA),  # type: ignore[arg-type]
                          absent.cast(_RESULT_SCHEMA)], how="vertical")  # type: ignore[arg-type]
               .sort(pl.col("event_id").cast(order), "round",
                     pl.col("player_id").cast(pl.Int64)))
    try:
        validate_results(results).collect()
    except SwissframeError as exc:
        msg = (f"{files[0].source}: the round blocks do not form a consistent results "
               f"table: {exc}")
        raise ImportFormatError(msg) from None
    _check_colours(results, files)

    computed = results.group_by("event_id", "player_id").agg(
        (pl.col("games_won").sum() + 0.5 * pl.col("games_drawn").sum())
        .cast(pl.Float64).alias("points_computed"))
    players_out = (player_df.join(computed, on=["event_id", "player_id"], how="left")
                   .with_columns(pl.col("points_computed").fill_null(0.0))
                   .select(list(_PLAYER_SCHEMA)).cast(_PLAYER_SCHEMA)  # type: ignore[arg-type]
                   .sort(pl.col("event_id").cast(order), "start_no"))
    headers = []
    for f, done, held in zip(files, completed, in_file, strict=True):
        _check_read_once(f.records, f.source)
        headers.append(_header_row(f, rounds_completed=done, in_file=held))
    header = pl.DataFrame(headers, schema=_HEADER_SCHEMA).select(list(_HEADER_SCHEMA))
    records = [r for f in files for r in f.records]
    return TrfEvents(
        results=results, players=players_out, header=header,
        records=pl.DataFrame(records, schema=_RECORD_SCHEMA), pending=pending,
        unknown=pl.DataFrame([u for f in files for u in f.unknown], schema=_RECORD_SCHEMA),
        not_applied=pl.DataFrame([n for f in files for n in _not_applied(f.records, f.blocks)],
                                 schema=_NOT_APPLIED_SCHEMA))


def _header_row(f: _TrfFile, *, rounds_completed: int, in_file: int) -> dict[str, Any]:
    """One file's row of :attr:`TrfEvents.header`."""
    first = {r["code"]: r["value"] for r in reversed(f.records) if r["code"] is not None}
    rounds_code = "XXR" if first.get("XXR") else "142"  # (TRF-2026's number of rounds)
    rounds_declared, rounds_note = declared_rounds(first.get(rounds_code), rounds_code,
                                                   in_file)
    row: dict[str, Any] = {
        "event_id": f.event_key, "source": f.source,
        **{col: (first.get(code) or "").strip() or None for code, col in _HEADER_CODES.items()},
        "rounds_declared": rounds_declared,
        "rounds_note": rounds_note,
        "rounds_in_file": in_file,
        "rounds_completed": rounds_completed,
        "players": len(f.players),
    }
    row["start_date"], row["start_date_note"] = _start_date(row["start_date_raw"],
                                                            first.get("132"))
    return row


def declared_rounds(value: str | None, code: str, in_file: int
                    ) -> tuple[int | None, str | None]:
    """The number of rounds an ``XXR`` (TRF-2026: ``142``) record declares, and the note
    on it when it is not one (bad data 49, 141): a whole number ≥ 1 — its first word — is
    read; ``0``, a sign, a fraction or a word is no number of rounds and is read as none
    declared, with a note (``XXR 0`` was read as "0 rounds declared", ``XXR -1`` or
    ``XXR abc`` refused the whole file as misaligned, though no column of it is); a number
    below the rounds the player lines hold is kept, with a note (one of the two is wrong;
    more rounds than played is an event in progress, and says nothing). The rounds the
    standings count are the player lines' whatever the record says.

    >>> declared_rounds("9", "XXR", 5), declared_rounds(None, "XXR", 5)
    ((9, None), (None, None))
    >>> declared_rounds("0", "XXR", 0)
    (None, "XXR '0' is not a number of rounds (a whole number ≥ 1): read as not declared")
    >>> declared_rounds("2", "XXR", 4)[1]
    'XXR declares 2 rounds but the player lines hold round 4: the results are read as they are'
    """
    words = (value or "").split()
    if not words:
        return None, None
    first = words[0]
    digits = first.isascii() and first.isdigit()
    if not digits or len(first) > MAX_DIGITS or int(first) < 1:
        what = ("too large a number of rounds for any tournament" if digits and int(first)
                else "not a number of rounds (a whole number ≥ 1)")
        return None, f"{code} {first[:20]!r} is {what}: read as not declared"
    declared = int(first)
    if in_file > declared:
        return declared, (f"{code} declares {count(declared, 'round')} but the player lines hold "
                          f"round {in_file}: the results are read as they are")
    return declared, None


def _check_read_once(records: Sequence[Mapping[str, Any]], src: str) -> None:
    """A header record the reader reads (:data:`_HEADER_CODES`, ``XXR``/``142``) given twice
    with different values is an :class:`ImportFormatError` naming both lines (bad data
    132): the first was read without a word — two ``042`` start dates chose the FIDE era,
    and so the ruleset, by the first; two ``XXR`` the rounds declared. The same value twice
    is one value."""
    what = {**{c: n.removesuffix("_raw").replace("_", " ") for c, n in _HEADER_CODES.items()},
            "XXR": "number of rounds", "142": "number of rounds"}
    seen: dict[str, tuple[int, str]] = {}
    for r in records:
        code = r["code"]
        if code not in what:
            continue
        value = (r["value"] or "").strip()
        code = "XXR" if code == "142" else code  # (one number of rounds, in either record)
        if code in seen and seen[code][1] != value:
            line, said = seen[code]
            msg = (f"{src}: the {r['code']} record ({what[code]}) is given twice, "
                   f"differently: line {line} {said!r:.60}, line {r['line']} {value!r:.60}; "
                   "only the first would be read. Hint: keep the line that is right (two "
                   "exports joined?).")
            raise ImportFormatError(msg)
        seen.setdefault(code, (r["line"], value))


def _check_colours(results: pl.DataFrame, files: Sequence[_TrfFile]) -> None:
    """Both seats of a game must not claim the same colour."""
    seats = results.filter(pl.col("opponent_id").is_not_null() & pl.col("color").is_not_null())
    clash = seats.join(
        seats.select("event_id", "round", pl.col("player_id").alias("opponent_id"),
                     pl.col("opponent_id").alias("player_id"), pl.col("color").alias("_mc")),
        on=["event_id", "round", "player_id", "opponent_id"], how="inner",
        maintain_order="left").filter(pl.col("color") == pl.col("_mc"))
    if clash.height:
        r = clash.row(0, named=True)
        src = next(f.source for f in files if f.event_key == r["event_id"])
        n = clash.filter(pl.col("event_id") == r["event_id"]).height
        msg = (f"{src}: round {r['round']}: players {r['player_id']} and {r['opponent_id']} "
               f"both have colour {r['color']!r} ({count(n // 2, 'game')} like this). "
               "Hint: one of the two blocks is wrong.")
        raise ImportFormatError(msg)


def read_trf(paths: str | Path | Iterable[str | Path], *,
             event_ids: Sequence[str] | None = None, max_bytes: int | None = None
             ) -> TrfEvents:
    """Read one or many FIDE TRF-16 / TRF(x) files into a :class:`TrfEvents`.

    Parameters
    ----------
    paths
        A path or an iterable of paths; one event per file.
    event_ids
        Event ids, one per path (default: derived from the file names).
    max_bytes
        Largest file read (see :mod:`swissframe.io._files`; default 512 MiB).

    Raises
    ------
    ImportFormatError
        Unreadable file, no player lines, a misaligned or malformed line, an unknown
        result code or colour, or round blocks that contradict each other. The message
        names the file, line, player and round.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "club.trf").write_text(
    ...     "012 Club\\nXXR 2\\n"
    ...     "001    1      A" + " " * 66 + "1.0    1     2 w +  0000 - Z\\n"
    ...     "001    2      B" + " " * 66 + "1.0    2     1 b -  0000 - U\\n")
    >>> ev = read_trf(d / "club.trf")
    >>> ev.results.select("round", "player_id", "opponent_id", "color", "unplayed").rows()
    ... # doctest: +NORMALIZE_WHITESPACE
    [(1, '1', '2', 'w', 'forfeit_win'), (1, '2', '1', 'b', 'forfeit_loss'),
     (2, '1', None, None, 'zero_bye'), (2, '2', None, None, 'pairing_bye')]
    >>> ev.header.select("name", "rounds_declared", "rounds_completed").row(0)
    ('Club', 2, 1)
    """
    out = _read_trf(paths, event_ids=event_ids, max_bytes=max_bytes)
    say_warnings(trf_warnings(out))
    return out


def _read_trf(paths: str | Path | Iterable[str | Path], *, event_ids: Sequence[str] | None,
              max_bytes: int | None) -> TrfEvents:
    """:func:`read_trf` without its warnings (``swissframe.read`` lists them as import
    notes, and says the others itself: :func:`trf_warnings`).

    Each file is parsed to plain Python, and the parsed files are built into frames many
    at a time (:func:`~swissframe.io._files.built_in_chunks`, :func:`_build`); the first
    damaged file in the given order is the one named."""
    return built_in_chunks(
        paths, event_ids=event_ids, max_bytes=max_bytes, parse=_parsed,
        rows=lambda f: len(f.players) + len(f.blocks), build=_build,
        stack=lambda parts: TrfEvents(**{
            f.name: pl.concat([getattr(p, f.name) for p in parts], how="vertical")
            for f in fields(TrfEvents)}))


def declared_points_differ(players: pl.DataFrame) -> pl.DataFrame:
    """The players (of :attr:`TrfEvents.players`) whose declared points (columns 81-84, the
    organiser's total) are not what their round blocks give (1 / ½ / 0): a score given
    outside the blocks (a penalty, a 299 record, another scoring system) or a block lost.
    The standings count the blocks, so such a player's published total is not reproduced
    (bad data 229); ``verify-ref`` compares every declared total as ``PTS``.

    With what is said of each (``detail``), which the read's warning and its import note
    both quote:

    >>> p = pl.DataFrame({"points": [1.0, 2.5], "points_computed": [0.0, 2.5]})
    >>> declared_points_differ(p)["detail"].to_list()
    ['the file declares 1 point, the round blocks give 0: the standings count the round blocks']
    """
    def said(column: str) -> pl.Expr:  # (1.5 as 1.5, 2.0 as 2: half points at most)
        return pl.col(column).round(1).cast(pl.String).str.replace(r"\.0$", "")

    return (players.filter(pl.col("points").is_not_null()
                           & ((pl.col("points") - pl.col("points_computed")).abs() > 1e-9))
            .with_columns(pl.format(
                "the file declares {} {}, the round blocks give {}: the standings count "
                "the round blocks", said("points"),
                noun_expr(pl.col("points"), "point"),
                said("points_computed")).alias("detail")))


#: Records that list a team and its players: TRF-16's ``013`` and TRF-2026's ``310``.
TEAM_RECORDS: Final = ("013", "310")


def team_events(records: pl.DataFrame) -> pl.DataFrame:
    """The events (of :attr:`TrfEvents.records`) that are team tournaments, with their
    number of team records and what is said of them (``event_id``, ``teams``,
    ``detail``): their player lines are the boards of team matches, whose standings
    (match and game points of the teams) the readers do not compute; the standings rank
    the players one by one (bad data 230)."""
    return (records.filter(pl.col("code").is_in(TEAM_RECORDS))
            .group_by("event_id", maintain_order=True).agg(pl.len().alias("teams"))
            # (what the read's warning and its import note say of it, written once)
            .with_columns(pl.format(
                "a team tournament ({} team records 013 / 310): its players are ranked one "
                "by one; the teams' standings (match and game points) are not computed",
                "teams").alias("detail")))


def trf_warnings(events: TrfEvents) -> dict[str, str]:
    """What :func:`read_trf` warns of, by kind, one line per kind however many files say
    it: ``unknown_record`` (records ignored), ``not_applied`` (TRF-2026 records that would
    change the scores: :attr:`TrfEvents.not_applied`), ``start_date`` (042 dates
    unreadable, or read in one of two FIDE eras: :func:`start_date_note`) and
    ``rounds_declared`` (an ``XXR`` that is no number of rounds, or fewer than the player
    lines hold: :func:`declared_rounds`), ``declared_points`` (declared totals the round
    blocks do not give: :func:`declared_points_differ`), ``team_event`` (a team
    tournament, ranked player by player: :func:`team_events`).
    ``swissframe.read`` lists each as an import note instead."""
    out = {}
    unknown = events.unknown
    if unknown.height:
        r = unknown.row(0, named=True)
        out["unknown_record"] = (
            f"{r['event_id']}: {count(unknown.height, 'unknown record')} ignored, e.g. line "
            f"{r['line']}: {r['value'][:30]!r} (listed in TrfEvents.unknown). Hint: a "
            "garbled record code may hide a player line; check the file.")
    skipped = events.not_applied
    if skipped.height:
        r = skipped.row(0, named=True)
        out["not_applied"] = (
            f"{r['event_id']}: {count(skipped.height, 'record')} that would change the scores "
            f"{'is' if skipped.height == 1 else 'are'} "
            f"not applied, e.g. line {r['line']}: {r['detail']} (listed in "
            "TrfEvents.not_applied). Hint: check the standings against the organiser's, or "
            "write the result into the player's round block.")
    teams = team_events(events.records)
    if teams.height:
        out["team_event"] = (
            f"{teams['event_id'][0]}: {teams['detail'][0]}. Hint: compare the players' "
            "standings with the organiser's individual (board) ranking, not the team "
            "ranking.")
    differ = declared_points_differ(events.players)
    if differ.height:
        p = differ.row(0, named=True)
        out["declared_points"] = (
            f"{differ['event_id'][0]}: {count(differ.height, 'player')} whose declared "
            f"points are not what their round blocks give, e.g. player {p['player_id']} "
            f"({p['name'] or 'no name'}): {p['detail']}. Hint: check the standings against "
            "the organiser's (TrfEvents.players: points, points_computed).")
    dated = events.header.filter(pl.col("start_date_note").is_not_null())
    if dated.height:
        out["start_date"] = (several_files(dated.height, "have a start-date note "
                                           "(TrfEvents.header's start_date_note)")
                             + f"{dated['source'][0]}: {dated['start_date_note'][0]}")
    counted = events.header.filter(pl.col("rounds_note").is_not_null())
    if counted.height:
        out["rounds_declared"] = (
            several_files(counted.height, "have a note on their number of rounds "
                          "(TrfEvents.header's rounds_note)")
            + f"{counted['source'][0]}: {counted['rounds_note'][0]}. Hint: the standings "
            "count the rounds of the player lines; correct the record (the tournament's "
            "number of rounds), or remove it.")
    return out


def read_any(paths: str | Path | Iterable[str | Path], *, format: str | None = None
             ) -> pl.DataFrame:
    """The results of TOM / TRF (or any other) files: :func:`swissframe.read`'s ``results``.

    Kept for existing callers; :func:`swissframe.read` is the one reader (it also returns
    names, divisions, published values and the inferred rules).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "mini.trf").write_text(
    ...     "001    1      A" + " " * 66 + "1.0    1     2 w 1\\n"
    ...     "001    2      B" + " " * 66 + "0.0    2     1 b 0\\n")
    >>> read_any(d / "mini.trf").select("player_id", "opponent_id", "games_won").rows()
    [('1', '2', 1), ('2', '1', 0)]
    """
    from swissframe.io._files import FORMATS, read

    if format is not None and format not in FORMATS:
        msg = f"unknown format {format!r}. Hint: use 'tom', 'trf' or leave it out."
        raise DataError(msg)
    return read(paths, format=format or "auto").results
