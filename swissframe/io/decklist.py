"""Importer for the community "decklist cache" JSON format (melee.gg, Topdeck, CardsRealm,
Manatraders, Magic Online), as stored in ``fbettega/MTG_decklistcache``. (Magic Online's
files list only the top-8 playoff rounds, ``SOURCES.md``: the platform is recognised,
and its published standings read, but its Swiss cannot be recomputed; no bye marker of
its is known, so one met is read and reported as unlisted.)

One file is one event::

    {"Tournament": {"Date", "Name", "Uri", "Formats"},
     "Decks": [...],
     "Rounds": [{"RoundName": "Round 1", "Matches": [{"Player1", "Player2", "Result"}]}],
     "Standings": [{"Rank", "Player", "Points", "Wins", "Losses", "Draws",
                    "OMWP", "GWP", "OGWP"}]}

:func:`read_decklist_cache` turns many such files into three Polars tables (the long results
table of :mod:`swissframe.schema`, the organiser's published standings, one row per event)
plus a ``report`` that lists every explicit repair or disambiguation made.

Every source quirk is handled by a named table below, never by a silent special case:

- :data:`SOURCE_BY_HOST` / :data:`SOURCE_BY_FOLDER`: which platform produced a file;
- :data:`BYE_MARKERS`: the seat values that mean "no opponent", per source;
- :data:`DRAWS_LISTED_AGAIN`: the sources that list a draw once per player;
- :data:`RESULT_LEVEL`: whether ``Result`` counts games (``"2-1-0"``) or is match-level
  (Topdeck ``1-0-0`` / ``0-0-1``);
- :data:`UNPAIRED_RESULT_REMAP`: results of unpaired rows that mean something else
  (a Topdeck bye is written ``0-0-1`` but is a win);
- :data:`PLAYOFF_ROUND_NAMES` / :data:`PLAYOFF_ROUND_PATTERNS`: named playoff rounds;
- :data:`SWISS_ROUND_NAMES`: named rounds that are Swiss rounds (Topdeck ``Top Power``);
- :data:`MELEE_ERAS`: the three melee.gg tiebreaker eras (a platform rule, written in
  :mod:`swissframe.platforms` and named here too).

Game counts at match level (Topdeck)
    Topdeck publishes only the match result. Such a match is stored as a one-"game" record
    (win ``1-0-0``, loss ``0-1-0``, draw ``0-0-1``) and the row carries
    ``games_known = False``: match points and MW%/OMW% are exact, GW%/OGW% are meaningless
    and :mod:`swissframe.verify` does not compare them.

Unreported matches
    ``0-0-0`` between two players is kept as two mirrored ``0-0-0`` rows flagged
    ``unreported = True`` (and listed in the report); it is never dropped.

Phases and cuts are detected from the rounds alone (:func:`detect_structure`), never from the
published values.
"""

from __future__ import annotations

import gc
import math
import multiprocessing
import os
import re
import signal
from array import array
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import chain, pairwise, repeat
from pathlib import Path
from typing import Any, Final

import orjson
import polars as pl
import polars.selectors as cs

try:  # (optional: without it every file is parsed whole, see _read_parts)
    import simdjson as _simdjson
except ImportError:  # pragma: no cover - the wheels cover the supported Pythons
    _simdjson = None  # type: ignore[assignment]

from swissframe._batches import counted, tell
from swissframe._display import count, quoted
from swissframe.errors import ImportFormatError
from swissframe.io._files import (
    MAX_DIGITS,
    bom_decoded,
    check_workers,
    empty_round_detail,
    expand_resolved,
    read_decompressed,
    shown,
)

# (the melee.gg eras are a platform rule: written in rules/platforms, named here too)
from swissframe.rules.platforms import MELEE_ERAS, melee_era

__all__ = [
    "BYE_MARKERS",
    "DRAWS_LISTED_AGAIN",
    "MELEE_ERAS",
    "PLAYOFF_ROUND_NAMES",
    "PLAYOFF_ROUND_PATTERNS",
    "RESULT_LEVEL",
    "SOURCE_BY_FOLDER",
    "SOURCE_BY_HOST",
    "SWISS_ROUND_NAMES",
    "UNPAIRED_RESULT_REMAP",
    "DecklistEvents",
    "detect_structure",
    "melee_era",
    "read_decklist_cache",
]

# --------------------------------------------------------------------------------------------
# Named quirk tables
# --------------------------------------------------------------------------------------------

#: Platform by the host of ``Tournament.Uri`` (suffix match).
SOURCE_BY_HOST: Final[dict[str, str]] = {
    "melee.gg": "melee",
    "topdeck.gg": "topdeck",
    "cardsrealm.com": "cardsrealm",
    "manatraders.com": "manatraders",
    "mtgo.com": "mtgo",
}

#: Platform by the folder under ``Tournaments/`` (fallback when the URI is missing).
SOURCE_BY_FOLDER: Final[dict[str, str]] = {
    "MTGmelee": "melee",
    "Topdeck": "topdeck",
    "CardsRealm": "cardsrealm",
    "Manatrader": "manatraders",
    # (Magic Online: fbettega's Tournaments/MTGO, the MTGODecklistCache's mtgo.com)
    "MTGO": "mtgo",
    "mtgo.com": "mtgo",
}

#: Sources that list a draw once per player (SOURCES.md: melee.gg lists a draw twice, once
#: in each orientation, sometimes three times): there an identical repeat of a drawn match
#: is the format's norm, reported as ``draw_listed_again`` (an import note that
#: :func:`swissframe.read` lists but does not warn of); any other repeated pair is reported
#: as ``duplicate_row_removed`` (identical) or ``conflicting_duplicate_removed``.
DRAWS_LISTED_AGAIN: Final[frozenset[str]] = frozenset({"melee"})

#: Seat values meaning "no opponent", per source and seat (``None`` = JSON null). Observed:
#: melee ``Player2 == "-"`` (null in some 2024-02…2025-02 rows); Topdeck ``Player2 == ""``
#: (null in a few rows); CardsRealm ``Player1 == "Bye"`` or ``Player2 == ""``; Manatraders
#: ``Player2 == null``. A marker seen for a source that does not list it is still read as "no
#: opponent" but reported (``kind = "unlisted_bye_marker"``).
BYE_MARKERS: Final[dict[str, tuple[tuple[int, str | None], ...]]] = {
    "melee": ((2, "-"), (2, None)),
    "topdeck": ((2, ""), (2, None)),
    "cardsrealm": ((1, "Bye"), (2, "")),
    "manatraders": ((2, None),),
    "unknown": ((1, "Bye"), (2, "-"), (2, ""), (2, None)),
}

#: Every value read as "no opponent" (the union of :data:`BYE_MARKERS`).
_ANY_MARKER: Final = ("-", "", "Bye")

#: What ``Result`` counts, per source: ``"games"`` (P1 game wins - P2 game wins - drawn games)
#: or ``"match"`` (``1-0-0`` P1 won, ``0-0-1`` draw; Topdeck).
RESULT_LEVEL: Final[dict[str, str]] = {
    "melee": "games",
    "topdeck": "match",
    "cardsrealm": "games",
    "manatraders": "games",
    "mtgo": "games",
    "unknown": "games",
}

#: Unpaired rows whose written result means something else: (source, result) → the present
#: player's (won, lost, drawn). A Topdeck bye is written ``0-0-1`` but scores 3 points.
UNPAIRED_RESULT_REMAP: Final[dict[tuple[str, str], tuple[int, int, int]]] = {
    ("topdeck", "0-0-1"): (1, 0, 0),
}

#: Round names that are playoff rounds (exact, case-insensitive).
PLAYOFF_ROUND_NAMES: Final = frozenset({
    "quarterfinals", "semifinals", "finals", "final", "loser semifinals", "octofinals",
    "round of 16", "round of 32",
})

#: Named rounds that are Swiss rounds (exact, case-insensitive), numbered after the
#: numbered rounds in file order. Topdeck's ``Top Power`` (power-paired) and ``Top Random``
#: (randomly paired) rounds have most of the field, draws and byes, and count in the
#: published OMW% like any Swiss round (measured: Topdeck OMW% 87.5% → 95.4%).
SWISS_ROUND_NAMES: Final = frozenset({"top power", "top random"})

#: Round-name patterns that are playoff rounds.
PLAYOFF_ROUND_PATTERNS: Final = (
    re.compile(r"^top [0-9]+$", re.IGNORECASE),
    re.compile(r"^match for [0-9]+\w* and [0-9]+\w* places?$", re.IGNORECASE),
)

#: Round-name patterns carrying a Swiss round number (melee/CardsRealm "Round N", Topdeck "N").
#: Digits are ASCII 0-9, as in every file's number (``schema.whole_numbers``): a regex
#: ``\d`` also matches "١" or "４", which the integer cast then refused with a bare
#: Polars error; such a round is named (:data:`_OTHER_DIGITS`).
_NUMBERED_ROUND: Final = re.compile(r"(?i)^(?:round\s*)?([0-9]+)$")
#: A round name numbered in digits other than ASCII (``\d`` is Unicode in Polars' regex).
_OTHER_DIGITS: Final = re.compile(r"(?i)^(?:round\s*)?\d+$")

_RESULT_RE: Final = re.compile(r"^([0-9]+)-([0-9]+)-([0-9]+)$")


#: A Day-2 style cut between Swiss rounds k and k+1 (detected from the rounds, see
#: :func:`detect_structure`): for some score threshold, at least this share of round-k
#: players sit below it, at least this share of those at or above it continue, at most
#: :data:`CUT_MAX_BELOW_CONTINUE_SHARE` of those below it continue (a few invited or
#: otherwise qualified players may play on from below the cut), and round k has at least
#: this many players.
CUT_MIN_BELOW_SHARE: Final = 0.3
CUT_MIN_CONTINUE_SHARE: Final = 0.75
CUT_MAX_BELOW_CONTINUE_SHARE: Final = 0.1
CUT_MIN_PLAYERS: Final = 16
#: A cut needs at least this many Swiss rounds before it and after it.
CUT_MIN_ROUNDS_BEFORE: Final = 4
CUT_MIN_ROUNDS_AFTER: Final = 2
#: A detected (unnamed) single-elimination bracket starts with at most this many players.
BRACKET_MAX_SEATS: Final = 8

_STANDING_SCHEMA: Final = {
    "event_id": pl.String, "pos": pl.Int64, "rank": pl.Int64, "player": pl.String,
    "points": pl.Int64, "wins": pl.Int64, "losses": pl.Int64, "draws": pl.Int64,
    "omwp": pl.Float64, "gwp": pl.Float64, "ogwp": pl.Float64,
}
_EVENT_SCHEMA: Final = {
    "event_id": pl.String, "source": pl.String, "name": pl.String, "datetime": pl.String,
    "format": pl.String, "url": pl.String, "path": pl.String,
}
#: Platforms whose tiebreaker era (and so ruleset) is chosen by the event's date
#: (``rules.platforms.assign_rulesets``): a file of theirs without a readable date is
#: said (an ``unreadable_date`` note).
_DATED_ERAS: Final = ("melee", "cardsrealm")
_REPORT_SCHEMA: Final = {
    "event_id": pl.String, "round": pl.Int64, "player_id": pl.String, "kind": pl.String,
    "detail": pl.String,
}


@dataclass(frozen=True)
class DecklistEvents:
    """Events read from decklist-cache files.

    Attributes
    ----------
    results
        The long results table (:mod:`swissframe.schema` contract) with ``phase``, ``stage``,
        ``unplayed`` and the importer's columns ``round_name``, ``games_known`` (False for
        match-level sources), ``unreported`` (a ``0-0-0`` match) and ``source``.
    published
        The organiser's standings: ``event_id, player_id, rank, points, wins, losses, draws,
        omwp, gwp, ogwp, decimals`` (``decimals`` null = unrounded doubles).
    events
        One row per event: ``event_id, source, name, date, format, url, path, players,
        rounds, swiss_rounds, playoff_rounds, stages, day2_after_round, playoff_size,
        structure, decimals, era``.
    report
        Every explicit repair or disambiguation: ``event_id, round, player_id, kind, detail``.
    """

    results: pl.DataFrame
    published: pl.DataFrame
    events: pl.DataFrame
    report: pl.DataFrame

    def _facts(self) -> list[str]:

        src = (self.events["source"].value_counts(sort=True).iter_rows()
               if "source" in self.events.columns else [])
        by = ", ".join(f"{s} {n}" for s, n in src)
        return [count(self.events.height, "event") + (f" ({by})" if by else ""),
                count(self.results.height, "result row"),
                count(self.published.height, "published standing"),
                count(self.report.height, "repair") + " reported"]

    def __repr__(self) -> str:
        """A one-line summary (the frames are ``.results``, ``.published``, …).

        >>> e = pl.DataFrame({"source": ["melee"]})
        >>> DecklistEvents(pl.DataFrame(), pl.DataFrame(), e, pl.DataFrame())
        DecklistEvents: 1 event (melee 1), 0 result rows, 0 published standings,
        0 repairs reported — .results, .published, .events, .report
        """
        from swissframe._display import summary_text

        return summary_text("DecklistEvents", self._facts(),
                            ["results", "published", "events", "report"])

    def _repr_html_(self) -> str:
        from swissframe._display import summary_html

        return summary_html("DecklistEvents", self._facts(), {
            "events": self.events, "results": self.results, "published": self.published,
            "report": self.report})


# --------------------------------------------------------------------------------------------
# File discovery and parsing (one file at a time; many files in a process pool)
# --------------------------------------------------------------------------------------------


def _event_id(path: Path) -> str:
    name = shown(path.name)  # a non-UTF-8 file name, escaped: ids are text
    for suffix in (".json.gz", ".json"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return shown(path.stem)


def _expand(paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]]) -> list[Path]:
    """The files to read, each once (:func:`~swissframe.io._files.expand`: two paths of
    one file, by their resolved form, are one, the first given), as the user gave them —
    every reader names a file so (its ``path``, its messages; the resolved form was named
    here: bad data 143) —, in the order of their resolved names."""
    found, _ = expand_resolved(paths, format="decklist")  # (each file once: bad data 197)
    files = [f for f, _, _ in sorted(found, key=lambda x: (x[2].name, str(x[2])))]
    seen: dict[str, Path] = {}
    for f in files:
        eid = _event_id(f)
        if eid in seen:
            msg = (f"event {quoted(eid)} is given twice: {shown(seen[eid])} and {shown(f)}. "
                   "Hint: event_id is the file name, so pass each event once.")
            raise ImportFormatError(msg)
        seen[eid] = f
    return files


_SCHEME: Final = re.compile(r"^[a-z]+://")


def _source_of(path: Path, uri: str | None) -> str:
    if uri:
        host = _SCHEME.sub("", uri).split("/", 1)[0].lower()
        for suffix, src in SOURCE_BY_HOST.items():
            if host == suffix or host.endswith("." + suffix):
                return src
    # (the folders the file is in, a link's or a relative path's too: the resolved path)
    for part in Path(os.path.realpath(path)).parts:
        if part in SOURCE_BY_FOLDER:
            return SOURCE_BY_FOLDER[part]
    return "unknown"


#: The hint of a file that is not in the decklist-cache format's shape.
_FORMAT_HINT: Final = ("the decklist-cache format is an object with 'Tournament', 'Rounds' "
                       "and 'Standings' (see swissframe.io.decklist)")


def _fail(eid: str, what: str, hint: str = _FORMAT_HINT) -> ImportFormatError:
    """The error of one file, naming its event, what is wrong and ``hint``."""
    return ImportFormatError(f"event {eid!r}: {what}. Hint: {hint}.")


def _str_or_none(x: Any) -> str | None:
    return None if x is None else str(x)


#: A published number written as text: ASCII digits, a sign, a fraction, an exponent
#: (``"0.5"``, ``"1e-3"``); ``NaN`` and ``inf`` are read to be refused by name.
_DECIMAL_TEXT: Final = re.compile(
    r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?(?:nan|inf|infinity)",
    re.IGNORECASE)


def _number(x: Any, eid: str, where: str, key: str) -> float | None:
    """A published number (int, float or numeric string); anything else names the cell."""
    if x is None:
        return None
    if isinstance(x, bool) or not isinstance(x, (int, float, str)):
        raise _fail(eid, f"{where}: {key} is {x!r}, not a number")
    # (a number in text in ASCII digits: float() read "1_0" as 10 and "١" as 1)
    if isinstance(x, str) and not _DECIMAL_TEXT.fullmatch(x.strip()):
        raise _fail(eid, f"{where}: {key} is {x!r}, not a number")
    try:
        v = float(x)
    except ValueError:
        raise _fail(eid, f"{where}: {key} is {x!r}, not a number") from None
    if not math.isfinite(v):  # "NaN", "inf": no published value is that
        raise _fail(eid, f"{where}: {key} is {x!r}, not a finite number")
    return v


def _whole(x: Any, eid: str, where: str, key: str) -> int | None:
    """A published whole number (rank, points, W/L/D); fractional or text values name the cell."""
    v = _number(x, eid, where, key)
    if v is None:
        return None
    if not v.is_integer() or abs(v) >= 2**63:
        raise _fail(eid, f"{where}: {key} is {x!r}, not a whole number")
    return int(v)


#: One file's columns: its rounds and matches (``round_name`` and ``matches``, the count of
#: matches, per round; ``p1``, ``p2``, ``result`` per match), its standings (per row, without
#: the event and the row's place, which :func:`_frames` adds) and its event record.
_Parsed = tuple[dict[str, list[Any]], dict[str, list[Any]], dict[str, Any]]


#: The parts of a decklist-cache file (its root object's keys).
_PARTS: Final = ("Tournament", "Rounds", "Standings")
#: The keys the reader reads in each kind of object (:func:`_twice`): one given twice there
#: is refused, as JSON parsers keep the last without a word.
_READ_KEYS: Final = {"root": _PARTS, "Tournament": ("Date", "Name", "Uri", "Formats"),
                     "round": ("RoundName", "Matches"),
                     "match": ("Player1", "Player2", "Result"),
                     "standing": ("Player", "Rank", "Points", "Wins", "Losses", "Draws",
                                  "OMWP", "GWP", "OGWP")}
#: The root keys of every file of the shared corpus, in order: the screen of repeated keys
#: counts the keys of the bytes before ``Decks`` and from ``Rounds`` on, not the decklists.
_LAYOUT: Final = ("Tournament", "Decks", "Rounds", "Standings")
#: JSON's blanks (RFC 8259), which may stand between a key and its colon.
_BLANKS: Final = b" \t\n\r"


def _json_bytes(path: Path, limit: int | None) -> bytes:
    """A file's JSON text (gunzipped), without the UTF-8 byte-order mark a Windows editor
    may write (JSON parsers refuse it; the format sniffing already skips it)."""
    data = read_decompressed(path, limit=limit)
    text = bom_decoded(data, shown(path))  # UTF-16/32 text (JSON parsers read UTF-8 only)
    data = text.encode("utf-8") if text is not None else data
    return data[3:] if data.startswith(b"\xef\xbb\xbf") else data


def _json_doc(path: Path, limit: int | None, data: bytes | None = None) -> Any:
    """A file's parsed JSON (``orjson.JSONDecodeError`` when it does not parse), from its
    bytes ``data`` when given. A key given twice in an object the reader reads is refused
    (:func:`_twice`)."""
    data = _json_bytes(path, limit) if data is None else data
    doc = orjson.loads(data)
    try:
        twice = _twice(data, doc)
    except RecursionError:  # (orjson reads 1,024 levels, Python's json about 990)
        raise _fail(_event_id(path), f"{shown(path)}: its values are nested too deeply "
                    "(about 1,000 levels) to check that no object gives a key twice",
                    "a decklist file nests a few levels; fetch the file again") from None
    if twice:
        raise _fail(_event_id(path), f"{shown(path)}: {twice} (a JSON parser keeps the last, "
                    "silently)", "which one the source meant is not known; keep the right "
                    "one in the file, or fetch the file again")
    return doc


def _read_parts(data: bytes) -> dict[str, Any] | None:
    """The root's ``Tournament``, ``Rounds`` and ``Standings`` (those it holds, in its
    order) as :func:`_json_doc` gives them, without building the decklists, or None when
    this cannot say so (the caller then parses the whole file with :func:`_json_doc`).

    simdjson checks the whole text (UTF-8, strings, numbers, nesting: it refuses every text
    orjson refuses, and a few orjson reads, such as integers beyond 64 bits); the decklists,
    most of a file's bytes, stay in its tape. The parts read are written back without blanks
    (its ``mini``: texts as they read, numbers in their shortest exact form, a float as a
    float) and parsed by orjson, faster than simdjson's own objects, to the values orjson
    reads in the file. simdjson keeps every key an object writes, so a key given twice is seen where
    the reader reads (:func:`_twice`): the root's keys are all distinct, ``Tournament``
    writes as many keys as its object holds, and the rounds' and standings' text, written
    back without blanks, holds no more keys (colons) than their rounds', matches' and rows'
    objects have (:func:`_at_most`'s count; each key has its colon). Anything else gives
    None: a text that does not parse, a root that is no object, any root key twice, a part
    whose keys cannot be counted so, or no simdjson (an optional dependency).
    """
    if _simdjson is None:
        return None
    parser = _simdjson.Parser()  # (one per file: a parser is reused only once its proxies
    try:                         # are gone, and calls may come from several threads)
        root = parser.parse(data)
        if type(root) is not _simdjson.Object:
            return None
        keys = list(root.keys())
        if len(set(keys)) < len(keys):
            return None
        parts: dict[str, Any] = {k: root[k] for k in keys if k in _PARTS}
        texts = {k: v.mini for k, v in parts.items()
                 if type(v) in (_simdjson.Array, _simdjson.Object)}
        doc = {k: orjson.loads(texts[k]) if k in texts else v for k, v in parts.items()}
        tour = parts.get("Tournament")
        if type(tour) is _simdjson.Object and len(tour) != len(doc["Tournament"]):
            return None
        inner = _objects_keys(doc.get("Rounds"), doc.get("Standings"))
        # (the parts' texts end to end: no key's quote and colon straddle two of them)
        if inner is None or not _at_most(
                b"".join(t for k, t in texts.items() if k != "Tournament"), inner):
            return None
    except Exception:  # (simdjson's ValueError on a bad text, or anything odd: orjson decides)
        return None
    return doc


def _twice(data: bytes, doc: Any) -> str:
    """Where an object the reader reads (the root, ``Tournament``, a round, a match, a
    standings row) holds one of the keys it reads (:data:`_READ_KEYS`) twice, or "".

    orjson keeps the last of a repeated key without a word: a match whose first
    ``Result`` is the real one lost it. A file is parsed again with every object's keys
    kept (:func:`_twice_exact`, seconds over a large archive) only when its bytes leave a
    repeated key possible (:func:`_no_key_twice`, exact: it never passes a file that
    repeats a key in one of those objects)."""
    if type(doc) is not dict or _no_key_twice(data, doc):
        return ""
    return _twice_exact(data)


def _at_most(data: bytes, known: int, start: int = 0, end: int | None = None) -> bool:
    """True when ``data[start:end]`` holds at most ``known`` keys. Every key is followed by
    its own colon (after blanks), so the colons are never fewer than the keys: at most
    ``known`` colons says it (the rounds and standings of every real file, whose texts hold
    no colon). Else the quotes followed by a colon once the blanks are taken out are
    counted, never fewer than the keys either (a text holding ``":`` counts too)."""
    if data.count(b":", start, end) <= known:
        return True
    return data[start:end].translate(None, _BLANKS).count(b'":') <= known


def _escapes_a_letter(data: bytes) -> bool:
    """Whether ``data`` may spell a character with a ``\\u`` escape (a key's letter: then
    the key is not found by its bytes). Backslashes are rare: each is looked at."""
    at = data.find(b"\\")
    while at >= 0:
        if data[at + 1:at + 2] == b"u":
            return True
        at = data.find(b"\\", at + 2)
    return False


def _objects_keys(rounds: Any, standings: Any) -> int | None:
    """The keys of the rounds', matches' and standings rows' objects, or None when one is
    no object (the exact reading then decides)."""
    try:
        rounds = rounds or ()
        matches = chain.from_iterable([r.get("Matches") for r in rounds])
        return (sum(map(dict.__len__, rounds)) + sum(map(dict.__len__, matches))
                + sum(map(dict.__len__, standings or ())))
    except (TypeError, AttributeError):
        return None


#: The bytes before a file's ``"Decks"`` key in the corpus's layout, parsed as JSON is:
#: the root object's ``{``, its key ``"Tournament"`` and an object of keys with text, number,
#: ``true``, ``false`` or ``null`` values, then the comma before the next root key. A JSON
#: text (``\\`` escapes whole) ends at its first unescaped quote, as a parser reads it.
_TEXT: Final = rb'"(?:[^"\\]|\\.)*"'
_PAIR: Final = rb"[ \t\n\r]*" + _TEXT + rb"[ \t\n\r]*:[ \t\n\r]*(?:" + _TEXT + (
    rb"|[-+0-9.eE]+|true|false|null)[ \t\n\r]*")
_HEAD: Final = re.compile(
    rb'[ \t\n\r]*\{[ \t\n\r]*"Tournament"[ \t\n\r]*:[ \t\n\r]*\{(?:' + _PAIR
    + rb"(?:," + _PAIR + rb")*|[ \t\n\r]*)\}[ \t\n\r]*,[ \t\n\r]*", re.DOTALL)


def _no_key_twice(data: bytes, doc: dict[str, Any]) -> bool:
    """True when no object the reader reads can hold a key twice, by counting keys.

    An object holding a key twice writes more keys than it has: so when the bytes of a
    stretch of the file hold no more keys (:func:`_at_most`) than the objects known to lie
    in it have, none of them repeats a key. The stretches are the whole file, or, in the
    corpus's layout (:data:`_LAYOUT`: the root's keys in that order, as the parsed object
    gives the first writing of each), the bytes before ``"Decks"`` (the root's key
    ``Tournament`` and its object) and from ``"Rounds"`` on (the rounds and standings),
    without the decklists (most of the bytes), found by two searches of the decklists'
    bytes and one of the backslashes (no count of keys over the whole file):

    - no ``\\u`` escape anywhere (:func:`_escapes_a_letter`): every key is then written
      with its own letters, so a root key ``Rounds`` is the bytes ``"Rounds"``;
    - ``D``, the first ``"Decks"``: the bytes before it are ``{``, ``"Tournament"``, an
      object of plain values and a comma (:data:`_HEAD`, read as a parser reads them), so
      the text at ``D`` is a root key, the root's first ``Decks``, and the bytes before it
      hold the root's first key and no other root key (a ``"Decks"`` in a ``Tournament``
      value, even one a repeated key overwrote, fails this: the exact reading decides);
    - ``R``, the first ``"Rounds"`` after ``D``: at or before the root's first ``Rounds``
      key (the parsed order puts it after the first ``Decks``), so every root ``Rounds`` and
      ``Standings`` key (the first ``Standings`` comes after the first ``Rounds``), and so
      every round, match and standings row read (values of the last of each), lie from
      ``R`` on; when ``R`` is earlier (a ``"Rounds"`` text in a decklist) the stretch holds
      more bytes and more colons, never fewer keys;
    - no ``"Tournament"`` between ``D`` and ``R``: the root's ``Tournament`` keys other
      than the first then lie from ``R`` on, where each is one more key than counted.

    So the root writes ``Tournament`` once (before ``D``), ``Rounds`` and ``Standings``
    once each when the bytes from ``R`` on hold at most 2 keys more than the rounds',
    matches' and rows' objects have (then none of those repeats a key either), and
    ``Tournament``'s object (the one before ``D``, the one read) repeats none when the bytes
    before ``D`` hold at most 1 key more than it has. A repeated ``Decks`` is read by no one
    (the exact reading lets it pass too). Anything else (more objects, nested values, other
    layouts) leaves more keys than counted: False, and the exact reading decides."""
    rounds, standings = doc.get("Rounds"), doc.get("Standings")
    tour = doc.get("Tournament") or {}
    inner = _objects_keys(rounds, standings)
    if inner is None or type(tour) is not dict or not all(
            type(v) in (str, int, float, bool) or v is None for v in tour.values()):
        return False
    if tuple(doc) != _LAYOUT:  # the whole file
        return _at_most(data, len(doc) + len(tour) + inner)
    decks = data.find(b'"Decks"')
    if decks < 0 or _escapes_a_letter(data) or not _HEAD.fullmatch(data, 0, decks):
        return False
    rounds_at = data.find(b'"Rounds"', decks)
    return (rounds_at > 0 and data.find(b'"Tournament"', decks, rounds_at) < 0
            and _at_most(data, 1 + len(tour), 0, decks)
            and _at_most(data, 2 + inner, rounds_at))


def _twice_exact(data: bytes) -> str:
    """:func:`_twice` by parsing ``data`` again with every object's keys kept."""
    import json

    # (each object kept alive here, so that no later object takes its id)
    repeated: dict[int, tuple[dict[str, Any], list[tuple[str, list[Any]]]]] = {}

    def keep(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(pairs)
        if len(obj) < len(pairs):  # (grouped in one pass: an object may hold many keys)
            values: dict[str, list[Any]] = {}
            for k, v in pairs:
                values.setdefault(k, []).append(v)
            repeated[id(obj)] = (obj, [(k, vs) for k, vs in values.items() if len(vs) > 1])
        return obj

    # (a RecursionError — nesting orjson reads but Python's json does not — is the
    # caller's: the file cannot be checked, which is not "no key twice")
    try:
        doc = json.loads(data, object_pairs_hook=keep)
    except ValueError:
        return ""  # (text orjson read and json does not: none is known)
    if not repeated or type(doc) is not dict:
        return ""

    def key_of(obj: Any, kind: str) -> tuple[str, list[Any]] | None:
        held = repeated.get(id(obj)) if type(obj) is dict else None
        if held is None or held[0] is not obj:
            return None
        return next(((k, vs) for k, vs in held[1] if k in _READ_KEYS[kind]), None)

    def said(where: str, found: tuple[str, list[Any]]) -> str:
        key, values = found
        shown_ = ", then ".join(f"{v!r:.40}" for v in values
                                if v is None or type(v) in (str, int, float, bool))
        return f"{where} holds {key!r} more than once" + (f" ({shown_})" if shown_ else "")

    root = key_of(doc, "root")
    if root:
        return f"the root object holds {root[0]!r} more than once"
    found = key_of(doc.get("Tournament"), "Tournament")
    if found:
        return said("'Tournament'", found)
    rounds = doc.get("Rounds")
    for rpos, rnd in enumerate(rounds if type(rounds) is list else ()):
        name = _round_name(rnd) if type(rnd) is dict else ""
        where = f"round {name!r}" if name else f"round #{rpos + 1}"
        found = key_of(rnd, "round")
        if found:
            return said(where, found)
        matches = rnd.get("Matches") if type(rnd) is dict else None
        for mpos, m in enumerate(matches if type(matches) is list else ()):
            found = key_of(m, "match")
            if found:
                return said(f"{where}, match #{mpos + 1} ({m.get('Player1')!r:.40} vs "
                            f"{m.get('Player2')!r:.40})", found)
    standings = doc.get("Standings")
    for pos, row in enumerate(standings if type(standings) is list else ()):
        found = key_of(row, "standing")
        if found:
            return said(f"standings row #{pos + 1} (player {row.get('Player')!r:.40})", found)
    return ""


def _round_name(rnd: dict[str, Any]) -> str:
    """A round's ``RoundName`` as text, "" when null or missing (``str(None)`` named such a
    round 'None' in the error that refuses it)."""
    name = rnd.get("RoundName")
    return "" if name is None else str(name).strip()


def _parts(doc: dict[str, Any]) -> tuple[Any, Any, Any]:
    """A file's ``Tournament``, ``Rounds`` and ``Standings``, with null for none: no
    details, no round or no published standings (a scraper writes null, or leaves the key
    out, where the platform showed none). ``Rounds`` must be named, null or not: a JSON
    object without it is not a decklist-cache file."""
    def part(key: str, missing: Any) -> Any:
        got = doc.get(key, missing)
        return [] if got is None else got

    tour = doc.get("Tournament")
    return ({} if tour is None else tour), part("Rounds", object()), part("Standings", None)


def _parse_file(path: Path, limit: int | None = None) -> _Parsed:
    """Read one file into column lists (matches, standings) and an event record."""
    eid = _event_id(path)
    try:
        doc = _json_doc(path, limit)
    except orjson.JSONDecodeError as exc:
        raise _fail(eid, f"cannot read {shown(path)} (JSONDecodeError: {exc})") from None
    if not isinstance(doc, dict):
        raise _fail(eid, f"{shown(path)}: the root is {_json_kind(doc)}, not an object")
    tour, rounds, standings = _parts(doc)
    if not isinstance(tour, dict) or not isinstance(rounds, list) or not isinstance(
            standings, list):
        what = ("has no 'Rounds'" if "Rounds" not in doc
                else "has a 'Tournament', 'Rounds' or 'Standings' of the wrong type")
        raise _fail(eid, f"{shown(path)}: the root object {what}")
    source = _source_of(path, _str_or_none(tour.get("Uri")))
    rnames: list[str] = []
    counts: list[int] = []
    p1: list[str | None] = []
    p2: list[str | None] = []
    res: list[str | None] = []
    for rpos, rnd in enumerate(rounds):
        if not isinstance(rnd, dict) or not isinstance(rnd.get("Matches"), list):
            raise _fail(eid, f"round #{rpos + 1} has no 'Matches' list")
        rname = _round_name(rnd)
        matches = rnd["Matches"]
        if not all(isinstance(x, dict) for x in matches):
            bad = next(i for i, x in enumerate(matches) if not isinstance(x, dict))
            raise _fail(eid, f"round {rname!r} match #{bad + 1} is not an object")
        rnames.append(rname)
        counts.append(len(matches))
        p1 += [_seat_name(x.get("Player1"), eid, rname) for x in matches]
        p2 += [_seat_name(x.get("Player2"), eid, rname) for x in matches]
        res += [_str_or_none(x.get("Result")) for x in matches]
    m: dict[str, list[Any]] = {"round_name": rnames, "matches": counts, "p1": p1, "p2": p2,
                               "result": res}
    if not all(isinstance(row, dict) and row.get("Player") is not None for row in standings):
        pos = next(i for i, row in enumerate(standings)
                   if not isinstance(row, dict) or row.get("Player") is None)
        raise _fail(eid, f"standings row #{pos + 1} has no 'Player'")
    players = [row["Player"] for row in standings]
    s: dict[str, list[Any]] = {
        "player": (players if all(type(x) is str for x in players)
                   else [_seat_name(x, eid, f"standings row #{i + 1}")
                         for i, x in enumerate(players)])}
    for key, col in (("Rank", "rank"), ("Points", "points"), ("Wins", "wins"),
                     ("Losses", "losses"), ("Draws", "draws")):
        s[col] = _column(standings, key, eid, whole=True)
    for key, col in (("OMWP", "omwp"), ("GWP", "gwp"), ("OGWP", "ogwp")):
        s[col] = _column(standings, key, eid, whole=False)
    ev = {"event_id": eid, "source": source, "name": _str_or_none(tour.get("Name")),
          "datetime": _str_or_none(tour.get("Date")), "format": _str_or_none(tour.get("Formats")),
          "url": _str_or_none(tour.get("Uri")), "path": shown(path)}
    return m, s, ev


def _column(rows: list[dict[str, Any]], key: str, eid: str, *, whole: bool) -> list[Any]:
    """One published column: plain JSON numbers (ints; floats too unless ``whole``) pass in
    one pass; any other value goes through :func:`_whole` / :func:`_number`, which name
    the cell."""
    kinds = (int,) if whole else (int, float)
    values = [row.get(key) for row in rows]
    if all(v is None or (type(v) in kinds and -(2**63) < v < 2**63) for v in values):
        return values if whole else [None if v is None else float(v) for v in values]
    check = _whole if whole else _number
    return [check(v, eid, f"standings row #{i + 1} ({quoted(rows[i]['Player'])})", key)
            for i, v in enumerate(values)]


def _seat_name(x: Any, eid: str, where: str) -> str | None:
    """A player name as text: a string or number; a list or object is refused."""
    if x is None or isinstance(x, str):
        return x
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return str(x)
    raise _fail(eid, f"{where}: a player is given as {_json_kind(x)} "
                f"{orjson.dumps(x).decode()[:40]}, not a name")


def _json_kind(x: Any) -> str:
    """What a parsed JSON value is, in JSON's words (a message said "the root is a
    NoneType" of a file holding ``null``).

    >>> [_json_kind(x) for x in (None, True, 3, 2.5, "a", [], {})]
    ['null', 'a boolean', 'a number', 'a number', 'a string', 'an array', 'an object']
    """
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "a boolean"
    if isinstance(x, (int, float)):
        return "a number"
    if isinstance(x, str):
        return "a string"
    return "an array" if isinstance(x, list) else "an object"


_Frames = tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]
_PLAIN_SEAT: Final = frozenset({str, type(None)})
_PLAIN_WHOLE: Final = frozenset({int, type(None)})
_PLAIN_NUMBER: Final = frozenset({int, float, type(None)})
_WHOLE_KEYS: Final = (("Rank", "rank"), ("Points", "points"), ("Wins", "wins"),
                      ("Losses", "losses"), ("Draws", "draws"))
_NUMBER_KEYS: Final = (("OMWP", "omwp"), ("GWP", "gwp"), ("OGWP", "ogwp"))


def _plain_file(path: Path, limit: int | None) -> _Parsed | None:
    """:func:`_parse_file` for a file as the platforms write it, with one ``dict.get`` per
    value and one type check per column instead of a check per value.

    A plain file has every seat and result as text or null, every player as text, every
    whole number a JSON integer strictly between -2^63 and 2^63 and every rate a JSON number.
    Anything else (a value to convert or to refuse, a missing or mistyped part, a file that
    does not parse) gives None or raises: the caller then reads the file with
    :func:`_parse_file`, which converts the value or raises the error naming the cell. So on
    a plain file both give the same columns, and on any other file the caller's result is
    :func:`_parse_file`'s own.
    """
    eid = _event_id(path)
    data = _json_bytes(path, limit)
    doc = _read_parts(data)
    if doc is None:
        doc = _json_doc(path, limit, data)
    if type(doc) is not dict:
        return None
    tour, rounds, standings = _parts(doc)
    if type(tour) is not dict or type(rounds) is not list or type(standings) is not list:
        return None
    uri = _str_or_none(tour.get("Uri"))
    source = _source_of(path, uri)
    rnames: list[str] = []
    counts: list[int] = []
    p1: list[Any] = []
    p2: list[Any] = []
    res: list[Any] = []
    for rnd in rounds:
        if type(rnd) is not dict:
            return None
        matches = rnd.get("Matches")
        if type(matches) is not list:
            return None
        rnames.append(_round_name(rnd))
        counts.append(len(matches))
        # a match that is not an object has no .get: AttributeError, the caller reads again
        p1 += [x.get("Player1") for x in matches]
        p2 += [x.get("Player2") for x in matches]
        res += [x.get("Result") for x in matches]
    if not (set(map(type, p1)) <= _PLAIN_SEAT and set(map(type, p2)) <= _PLAIN_SEAT
            and set(map(type, res)) <= _PLAIN_SEAT):
        return None
    players = [row.get("Player") for row in standings]  # not an object: AttributeError
    if not set(map(type, players)) <= {str}:
        return None
    m: dict[str, list[Any]] = {"round_name": rnames, "matches": counts, "p1": p1, "p2": p2,
                               "result": res}
    s: dict[str, list[Any]] = {"player": players}
    for key, col in _WHOLE_KEYS:
        values = [row.get(key) for row in standings]
        kinds = set(map(type, values))
        if not kinds <= _PLAIN_WHOLE:
            return None
        known = [v for v in values if v is not None] if type(None) in kinds else values
        if known and (min(known) <= -(2**63) or max(known) >= 2**63):
            return None
        s[col] = values
    for key, col in _NUMBER_KEYS:
        values = [row.get(key) for row in standings]
        if not set(map(type, values)) <= _PLAIN_NUMBER:
            return None
        rates = [float(v) for v in values if v is not None]
        if not all(map(math.isfinite, rates)):  # orjson reads none; the message path
            return None
        s[col] = rates if len(rates) == len(values) else [
            None if v is None else float(v) for v in values]
    ev = {"event_id": eid, "source": source, "name": _str_or_none(tour.get("Name")),
          "datetime": _str_or_none(tour.get("Date")), "format": _str_or_none(tour.get("Formats")),
          "url": uri, "path": shown(path)}
    return m, s, ev


#: The columns of a run of files (a chunk): the files' columns end to end (:data:`_Parsed`),
#: their event records, and each file's count of rounds and of standings rows (with, once a
#: worker coded its texts, the dictionaries of :data:`_DICTIONARIES` beside the counts).
_Columns = tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]], dict[str, list[Any]]]


def _read_one(path: Path, limit: int | None) -> _Parsed:
    """A file's columns: by :func:`_plain_file`, or by :func:`_parse_file` when it is not
    plain (which converts an odd value or raises the error naming it)."""
    try:
        parsed = _plain_file(path, limit)
    except Exception:  # anything unusual: read again value by value, for its message
        parsed = None
    return parsed if parsed is not None else _parse_file(path, limit)


def _gathered(files: Iterable[_Parsed]) -> _Columns:
    """The columns of files end to end, with each file's count of rounds and rows."""
    m: dict[str, list[Any]] = {"round_name": [], "matches": [], "p1": [], "p2": [],
                               "result": []}
    s: dict[str, list[Any]] = {k: [] for k in _STANDING_SCHEMA if k not in ("event_id", "pos")}
    evs: list[dict[str, Any]] = []
    sizes: dict[str, list[int]] = {"rounds": [], "standings": []}
    for fm, fs, ev in files:
        for k, v in fm.items():
            m[k] += v
        for k, v in fs.items():
            s[k] += v
        evs.append(ev)
        sizes["rounds"].append(len(fm["matches"]))
        sizes["standings"].append(len(fs["player"]))
    return m, s, evs, sizes


def _parse_chunk(files: Sequence[Path], limit: int | None, *, told: bool = False
                 ) -> _Columns:
    """Parse files into one set of column lists (a worker never calls Polars, whose thread
    pool does not survive ``fork``). Files are read in order (:func:`_read_one`), so the
    first bad file raises its own error. ``told``: each file counted to the progress
    reporter (:func:`~swissframe._batches.counted`; in this process only: a worker forked
    with the reporter would draw on the terminal itself)."""
    return _gathered(_read_one(f, limit) for f in (counted(files, "file") if told else files))


#: The columns of texts a chunk sends coded (:func:`_coded`), by dictionary: the players'
#: names (both seats and the standings' players, one dictionary: their codes are compared)
#: and the results (a few distinct texts, parsed once each).
_DICTIONARIES: Final = {"names": (("m", "p1"), ("m", "p2"), ("s", "player")),
                        "results": (("m", "result"),)}


def _coded(columns: Sequence[list[str | None]]) -> tuple[list[str | None], list[array[int]]]:
    """Columns of texts as their distinct texts (in the order first seen; a null is one of
    them) and, per column, each value's place among them: one small list and arrays of
    numbers to pickle and to read back (:func:`_decoded`), not one object per value."""
    index: dict[str | None, Any] = dict.fromkeys(chain.from_iterable(columns))
    for place, text in enumerate(index):
        index[text] = place
    return list(index), [array("I", map(index.__getitem__, c)) for c in columns]


def _packed_chunk(files: Sequence[Path], limit: int | None) -> _Columns:
    """:func:`_parse_chunk` as a worker sends it back: its columns of texts coded by
    dictionary (:data:`_DICTIONARIES`), the dictionaries under ``sizes``' keys."""
    m, s, evs, sizes = _parse_chunk(files, limit)
    _code_texts({"m": m, "s": s}, sizes)
    return m, s, evs, sizes


def _code_texts(parts: dict[str, dict[str, Any]], into: dict[str, Any]) -> None:
    """The columns of texts of a chunk's parts coded in place (:func:`_coded`), each
    dictionary's texts put ``into`` under its name."""
    for name, where in _DICTIONARIES.items():
        into[name], codes = _coded([parts[part][col] for part, col in where])
        for (part, col), coded in zip(where, codes, strict=True):
            parts[part][col] = coded


def _text_order(*texts: pl.Series | Sequence[str]) -> pl.Enum:
    """An ``Enum`` of the distinct texts of ``texts`` in text order: a comparison or sort
    of its codes is one of the texts (Polars compares an ``Enum`` by code)."""
    every = pl.concat([pl.Series("", t, dtype=pl.String) for t in texts])
    return pl.Enum(every.drop_nulls().unique().sort())


def _decoded(name: str, dictionary: pl.Series, codes: array[int]) -> pl.Series:
    """A coded column (:func:`_coded`) as the ``Enum`` series ``dictionary`` gathered."""
    import numpy as np  # (here: ``import swissframe`` does not import NumPy)

    places = pl.Series(name, np.frombuffer(codes, dtype=np.uint32) if len(codes) else [],
                       dtype=pl.UInt32)
    return dictionary.gather(places).alias(name)


#: Chunks per worker process: a few, so that the two halves of a pool end together, but
#: not one per file (each chunk's frames are pickled back).
_CHUNKS_PER_WORKER: Final = 4


@contextmanager
def _no_gc() -> Iterator[None]:
    """The cyclic garbage collector paused: parsing allocates millions of containers (the
    JSON documents, freed by reference counting) and would trigger many full collections."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _chunks(files: Sequence[Path], n: int) -> list[Sequence[Path]]:
    """``files`` cut in order into ``n`` runs of about equal size on disk."""
    sizes = []
    for f in files:
        try:
            sizes.append(f.stat().st_size)
        except OSError:  # the reader names the file
            sizes.append(0)
    total = sum(sizes) or 1
    out: list[Sequence[Path]] = []
    start, acc = 0, 0
    for i, size in enumerate(sizes):
        acc += size
        if acc * n >= total * (len(out) + 1) and i + 1 > start:
            out.append(files[start:i + 1])
            start = i + 1
    if start < len(files):
        out.append(files[start:])
    return out


def _runs(counts: list[int]) -> pl.DataFrame:
    """One row per item of runs of ``counts`` items: its run (``_of``, the run's index) and
    its place in the run (``_at``)."""
    runs = pl.DataFrame({"_n": counts}, schema={"_n": pl.Int64})
    start = pl.col("_n").cum_sum() - pl.col("_n")
    return runs.select(
        pl.int_range(pl.len()).repeat_by("_n").explode(empty_as_null=False).alias("_of"),
        start.repeat_by("_n").explode(empty_as_null=False).alias("_at"),
    ).with_columns((pl.int_range(pl.len()) - pl.col("_at")).alias("_at"))


def _frames(part: _Columns) -> _Frames:
    """One frame per table from a chunk's columns: each round and standings row given its
    event (its file's), each match its round, and the places in the file (``round_pos``,
    ``match_pos``, ``pos``) counted here. The matches' frame is ``event_id, source,
    round_pos, round_name, match_pos, p1, p2, result`` (Int64 places). The events' ids,
    the players' names (with the bye markers) and the results are each an ``Enum`` in text
    order (:func:`_text_order`), as :func:`_assemble` holds them; other texts are text."""
    m, s, evs, sizes = part
    if "names" not in sizes:  # the lists of one process: coded here, as a worker codes
        m, s, sizes = dict(m), dict(s), dict(sizes)
        _code_texts({"m": m, "s": s}, sizes)
    names = pl.Series(sizes["names"], dtype=pl.String)
    names = names.cast(_text_order(names, _ANY_MARKER))
    results = pl.Series(sizes["results"], dtype=pl.String)
    results = results.cast(_text_order(results))
    events = pl.DataFrame(evs, schema=_EVENT_SCHEMA)
    events = events.with_columns(pl.col("event_id").cast(_text_order(events["event_id"])))
    in_file = _runs(sizes["rounds"])
    rounds = pl.DataFrame([
        events["event_id"].gather(in_file["_of"]), events["source"].gather(in_file["_of"]),
        in_file["_at"].alias("round_pos"), pl.Series("round_name", m["round_name"],
                                                     dtype=pl.String)])
    # (a round the file lists with no match has no row below: its names kept per event,
    # for the note that says so, _empty_rounds)
    empty = (rounds.filter(pl.Series(m["matches"], dtype=pl.Int64) == 0)
             .group_by("event_id", maintain_order=True)
             .agg(pl.col("round_name").alias("empty_rounds")))
    events = events.join(empty, on="event_id", how="left", maintain_order="left")
    in_round = _runs(m["matches"])
    raw = pl.DataFrame([*rounds.select(pl.all().gather(in_round["_of"])),
                        in_round["_at"].alias("match_pos"), _decoded("p1", names, m["p1"]),
                        _decoded("p2", names, m["p2"]),
                        _decoded("result", results, m["result"])])
    rows = _runs(sizes["standings"])
    cols = {"event_id": events["event_id"].gather(rows["_of"]), "pos": rows["_at"],
            "player": _decoded("player", names, s["player"])}
    stands = pl.DataFrame([cols[k].alias(k) if k in cols else pl.Series(k, s[k], dtype=t)
                           for k, t in _STANDING_SCHEMA.items()])
    return raw, stands, events


def _parallel(files: Sequence[Path], workers: int) -> bool:
    return workers > 1 and len(files) >= 64


def _workers(workers: int | None) -> int:
    checked = check_workers(workers)
    return checked if checked is not None else min(os.cpu_count() or 1, 8)


def _pool(n: int) -> ProcessPoolExecutor:
    """``n`` worker processes, forked where the platform can (a worker starts in
    milliseconds with everything imported), the GC paused in each. They are started by
    the first task given to them, which :func:`_interrupts_held` must surround."""
    ctx = (multiprocessing.get_context("fork")
           if "fork" in multiprocessing.get_all_start_methods() else None)
    return ProcessPoolExecutor(max_workers=n, mp_context=ctx, initializer=_worker_start)


#: The signals that interrupt a read: Ctrl-C, and SIGTERM where a program made it one.
_INTERRUPTS: Final = frozenset({signal.SIGINT, signal.SIGTERM})


@contextmanager
def _interrupts_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM held back while this thread forks the workers, and raised after.

    An interrupt that arrives during a fork is handled in Python's after-fork handlers,
    where an exception is swallowed ("Exception ignored in: <function _releaseLock …>"):
    a Ctrl-C 0.5 s into a read of the decklist cache was lost, and the read ran on (bad
    data 225). Held, it stays pending through the fork and is raised as the block ends.
    The workers, which inherit the held signals, let them through again as they start
    (:func:`_worker_start`). Where the platform cannot hold signals, as it is."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - Windows
        yield
        return
    was = signal.pthread_sigmask(signal.SIG_BLOCK, _INTERRUPTS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, was)


def _worker_start() -> None:
    """A worker's start: the GC paused (see :func:`_no_gc`), and the interrupts the
    parent held while forking it let through (:func:`_interrupts_held`)."""
    gc.disable()
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _INTERRUPTS)


def _read_parallel(files: Sequence[Path], n: int, limit: int | None) -> DecklistEvents:
    """Many files: workers parse chunks while this process assembles each chunk's events as
    it arrives (every step of :func:`_assemble` works event by event), then the chunks'
    tables are put in the order of one call.

    Errors are those of one whole-table call: a parse error surfaces at its chunk, in file
    order, as when one process reads them; when a chunk's assembly fails (a bad round name
    or result, whose message counts every file's), the remaining chunks are parsed and
    :func:`_assemble` runs once on every file's frames, which raises that error.
    """
    chunks = _chunks(files, n * _CHUNKS_PER_WORKER)
    frames: list[_Frames] = []
    outs: list[DecklistEvents] = []
    failed = False
    with _pool(min(n, len(chunks))) as pool, _no_gc():  # unpickled chunks: no collections
        with _interrupts_held():  # (every task given at once: the workers forked here)
            parts = pool.map(_packed_chunk, chunks, repeat(limit))
        done = 0
        tell(0, len(files), "file")
        for chunk, part in zip(chunks, parts, strict=True):
            done += len(chunk)
            tell(done, len(files), "file")  # (the progress line: files read of all)
            frames.append(_frames(part))
            if not failed:
                try:
                    outs.append(_assemble(*frames[-1]))
                except Exception:  # one whole-table call gives the message
                    failed = True
    if not failed:
        try:
            return _combine(outs)
        except Exception:  # tables that do not concatenate: one whole-table call decides
            pass
    raw, stands, events = (pl.concat([_as_text(f[i]) for f in frames], rechunk=True)
                           for i in range(3))
    return _assemble(raw, stands, events)


def _combine(outs: Sequence[DecklistEvents]) -> DecklistEvents:
    """The tables of chunks of events, in the row order of one :func:`_assemble` call (the
    same sorts; an event's rows are all in one chunk, in the order that call gives them).

    Each chunk's tables are already sorted by ``event_id`` first: when every chunk's events
    come after the previous chunk's (files are in name order, so nearly always), the chunks
    end to end are that order and the results, published and events tables need no second
    sort (results and events have one row per key; published ties keep their order).
    """
    def cat(name: str) -> pl.DataFrame:
        # (in the chunks' pieces, not copied into one: 19 ms for the corpus's results, after
        # the workers' end; the engine reads a table in its chunks alike)
        frame: pl.DataFrame = pl.concat([getattr(o, name) for o in outs], rechunk=False)
        return frame

    ids = [o.events["event_id"] for o in outs if o.events.height]
    in_order = all(x[-1] < y[0] for x, y in pairwise(ids))
    results, published, events = cat("results"), cat("published"), cat("events")
    if not in_order:
        results = results.sort("event_id", "round", "player_id", maintain_order=True)
        published = published.sort("event_id", "rank", maintain_order=True)
        events = events.sort("event_id")
    return DecklistEvents(
        results=results, published=published, events=events,
        report=cat("report").sort("event_id", "kind", "round", "player_id", nulls_last=True))


# --------------------------------------------------------------------------------------------
# Vectorised quirk handling
# --------------------------------------------------------------------------------------------


def _marker_table() -> pl.DataFrame:
    rows = [(src, seat, mk) for src, marks in BYE_MARKERS.items() for seat, mk in marks]
    return pl.DataFrame(rows, schema={"source": pl.String, "seat": pl.Int64,
                                      "marker": pl.String}, orient="row")


def _is_marker(col: str) -> pl.Expr:
    return pl.col(col).is_null() | pl.col(col).is_in(_ANY_MARKER)


def _text(col: str, if_null: str) -> pl.Expr:
    """A column of names (text or coded, :func:`_assemble`) as text, nulls written
    ``if_null``."""
    return pl.col(col).cast(pl.String).fill_null(if_null)


def _report(frame: pl.DataFrame, kind: str, detail: pl.Expr, player: str = "player_id",
            rnd: str = "round") -> pl.DataFrame:
    return frame.select(
        pl.col("event_id"), pl.col(rnd).cast(pl.Int64).alias("round"),
        pl.col(player).cast(pl.String).alias("player_id"), pl.lit(kind).alias("kind"),
        detail.cast(pl.String).alias("detail"))


def _number_rounds(matches: pl.DataFrame) -> pl.DataFrame:
    """Give each round a number and a named-playoff flag (round names are per file). A bad
    round name raises the error naming the first in event and file order."""
    # (a round's first match, not a hash pass over every match: one row per round)
    rounds = matches.filter(pl.col("match_pos") == 0).select(
        "event_id", "round_pos", "round_name").sort("event_id", "round_pos")
    low = pl.col("round_name").str.to_lowercase()
    named = low.is_in(list(PLAYOFF_ROUND_NAMES))
    for pat in PLAYOFF_ROUND_PATTERNS:
        named = named | low.str.contains(pat.pattern)
    named_swiss = low.is_in(list(SWISS_ROUND_NAMES))
    digits = pl.col("round_name").str.extract(_NUMBERED_ROUND.pattern, 1)
    huge = rounds.filter(digits.str.len_chars() > MAX_DIGITS)
    if huge.height:
        r = huge.row(0, named=True)
        msg = (f"event {quoted(r['event_id'])}: round name {quoted(r['round_name'])} (round #"
               f"{r['round_pos'] + 1} in the file) numbers a round past any tournament's. "
               "Hint: rounds are 'Round 1', 'Round 2', …; fix the file's round names.")
        raise ImportFormatError(msg)
    rounds = rounds.with_columns(named.alias("named_playoff"), named_swiss.alias("_nsw"),
                                 digits.cast(pl.Int64).alias("label_no"))
    bad = rounds.filter(~pl.col("named_playoff") & ~pl.col("_nsw") & pl.col("label_no").is_null())
    other = bad.filter(pl.col("round_name").str.contains(_OTHER_DIGITS.pattern))
    if other.height:
        r = other.row(0, named=True)
        msg = (f"event {quoted(r['event_id'])}: round name {quoted(r['round_name'])} (round #"
               f"{r['round_pos'] + 1} in the file) is numbered in digits other than ASCII "
               f"0-9 ({count(other.height, 'such round')} in total). Hint: write the round names "
               "'Round 1', 'Round 2', … with the digits 0-9.")
        raise ImportFormatError(msg)
    if bad.height:
        r = bad.row(0, named=True)
        label = (f"round name {quoted(r['round_name'])}" if r["round_name"]
                 else "a round without a RoundName")
        msg = (f"event {quoted(r['event_id'])}: {label} (round #"
               f"{r['round_pos'] + 1} in the file) is neither numbered nor a known playoff "
               f"name ({count(bad.height, 'such round')} in total). Hint: add it to "
               "swissframe.io.decklist.PLAYOFF_ROUND_NAMES, PLAYOFF_ROUND_PATTERNS or "
               "SWISS_ROUND_NAMES.")
        raise ImportFormatError(msg)
    rounds = rounds.with_columns(
        pl.col("label_no").max().over("event_id").fill_null(0).alias("_maxno"),
        (pl.col("named_playoff") | pl.col("_nsw")).cast(pl.Int64).cum_sum().over("event_id")
        .alias("_k"))
    rounds = rounds.with_columns(
        pl.when(pl.col("named_playoff") | pl.col("_nsw")).then(pl.col("_maxno") + pl.col("_k"))
        .otherwise(pl.col("label_no")).alias("round"))
    dup = rounds.filter(pl.len().over("event_id", "round") > 1)
    if dup.height:
        r = dup.row(0, named=True)
        msg = (f"event {quoted(r['event_id'])}: round number {r['round']} is used by more than one "
               "round of the file. Hint: round names must be distinct 'Round N' labels or "
               "playoff names that come after the numbered rounds.")
        raise ImportFormatError(msg)
    return rounds.select("event_id", "round_pos", "round", "named_playoff")


def _result_counts(result: pl.Series) -> list[pl.Series]:
    """``r1``, ``r2``, ``r3``: the three counts of each ``W-L-D`` result (null when it is
    not one, or a count reaches 2^63); a coded column (``Enum``) is parsed once per
    distinct text."""
    dtype = result.dtype
    texts = dtype.categories if isinstance(dtype, pl.Enum) else result
    groups = texts.str.extract_groups(_RESULT_RE.pattern)
    counts = [groups.struct.field(str(k)).cast(pl.Int64, strict=False).alias(f"r{k}")
              for k in (1, 2, 3)]
    if isinstance(dtype, pl.Enum):
        counts = [c.gather(result.to_physical()) for c in counts]
    return counts


def _orient(matches: pl.DataFrame, report: list[pl.DataFrame]) -> pl.DataFrame:
    """Parse results, resolve bye markers, and give one row per match seat A/B."""
    m = matches.with_columns(_result_counts(matches["result"]))
    bad = m.filter(pl.any_horizontal(pl.col("r1", "r2", "r3").is_null()))
    if bad.height:
        r = bad.sort("event_id", "round_pos", "match_pos").row(0, named=True)
        msg = (f"event {quoted(r['event_id'])}, round {r['round']}: match {quoted(r['p1'])} "
               f"vs {quoted(r['p2'])} has result {quoted(r['result'])}, expected 'W-L-D' with "
               f"counts below 2^63 ({bad.height} "
               "such match(es)). Hint: Result is '<P1 game wins>-<P2 game wins>-<drawn "
               "games>'.")
        raise ImportFormatError(msg)
    marks = _marker_table()
    m = m.with_columns(_is_marker("p1").alias("_m1"), _is_marker("p2").alias("_m2"))
    both = m.filter(pl.col("_m1") & pl.col("_m2"))
    if both.height:
        report.append(_report(both, "empty_match_dropped", pl.format(
            "a match with no player on either seat ({} vs {}, {}) was dropped",
            _text("p1", "null"), _text("p2", "null"), pl.col("result")),
            player="p1"))
        m = m.filter(~(pl.col("_m1") & pl.col("_m2")))
    # Markers not listed for the source: read as "no opponent", reported.
    for seat in (1, 2):
        col = f"p{seat}"
        cand = m.filter(pl.col(f"_m{seat}")).with_columns(pl.lit(seat).alias("seat"),
                                                          pl.col(col).cast(pl.String))
        listed = marks.filter(pl.col("seat") == seat)
        nn = cand.join(listed.filter(pl.col("marker").is_not_null()),
                       left_on=["source", col], right_on=["source", "marker"], how="anti")
        nn = nn.filter(~(pl.col(col).is_null() & pl.col("source").is_in(
            listed.filter(pl.col("marker").is_null())["source"].to_list())))
        if nn.height:
            other = "p2" if seat == 1 else "p1"
            report.append(_report(nn, "unlisted_bye_marker", pl.format(
                "seat {} holds {} which {} files do not use as a bye marker; read as 'no "
                "opponent'", pl.lit(seat), _text(col, "null"), pl.col("source")),
                player=other))
    level = pl.col("source").replace_strict(RESULT_LEVEL, default="games")
    m = m.with_columns(level.alias("level"))
    # Seat A = the present player of an unpaired row, else Player1.
    swap = pl.col("_m1")
    m = m.with_columns(
        pl.when(swap).then(pl.col("p2")).otherwise(pl.col("p1")).alias("a"),
        pl.when(swap | pl.col("_m2")).then(None).otherwise(pl.col("p2")).alias("b"),
        pl.when(swap).then(pl.col("r2")).otherwise(pl.col("r1")).alias("ga"),
        pl.when(swap).then(pl.col("r1")).otherwise(pl.col("r2")).alias("gb"),
        pl.col("r3").alias("gd"),
    )
    remap = pl.DataFrame(
        [(s, r, w, lo, d) for (s, r), (w, lo, d) in UNPAIRED_RESULT_REMAP.items()],
        schema={"source": pl.String, "result": pl.String, "_w": pl.Int64, "_l": pl.Int64,
                "_d": pl.Int64}, orient="row")
    remap = remap.with_columns(pl.col("result").cast(m["result"].dtype, strict=False))
    m = m.join(remap, on=["source", "result"], how="left").with_columns(
        pl.when(pl.col("b").is_null() & pl.col("_w").is_not_null())
        .then(pl.struct(ga="_w", gb="_l", gd="_d"))
        .otherwise(pl.struct("ga", "gb", "gd")).struct.unnest())
    bad_level = m.filter((pl.col("level") == "match") & ((pl.col("ga") + pl.col("gb")
                                                          + pl.col("gd")) > 1))
    if bad_level.height:
        r = bad_level.sort("event_id", "round_pos", "match_pos").row(0, named=True)
        msg = (f"event {quoted(r['event_id'])}, round {r['round']}: {r['source']} results are "
               f"match-level (1-0-0 / 0-0-1) but {quoted(r['a'])} vs {quoted(r['b'])} reads "
               f"{quoted(r['result'])}. Hint: check swissframe.io.decklist.RESULT_LEVEL.")
        raise ImportFormatError(msg)
    return m


#: Games a match of a game-level source (:data:`RESULT_LEVEL`) is played to: best of
#: three, as ``validate``'s ``best_of="auto"`` reads a decklist file.
DECKLIST_BEST_OF: Final = 3


def _impossible_scores(m: pl.DataFrame, report: list[pl.DataFrame]) -> None:
    """An ``impossible_score`` note for each game-level result no best-of-three match ends
    with (``3-0-0``, ``2-2-0``: 232 matches of 127 real melee.gg and CardsRealm files),
    read as written — so a read warns of it, naming file, event, round and players, as it
    does of the reader's other notes; ``validate`` reported it alone (class 134). The
    rule is ``validate``'s (:func:`~swissframe.schema.impossible_score`)."""
    from swissframe.schema import impossible_score, impossible_score_words

    bad = m.filter((pl.col("level") == "games")
                   & impossible_score(pl.col("ga"), pl.col("gb"), DECKLIST_BEST_OF))
    if bad.height:
        report.append(_report(bad, "impossible_score", pl.format(
            f"{{}} vs {{}} reads {{}}, {impossible_score_words(DECKLIST_BEST_OF)}: read as "
            "written", pl.col("a"), pl.col("b").fill_null("no opponent"), pl.col("result")),
            player="a"))


def _dedup(m: pl.DataFrame, report: list[pl.DataFrame]) -> pl.DataFrame:
    """One row per unordered pair per round (melee lists draws two or three times:
    :data:`DRAWS_LISTED_AGAIN`)."""
    lo = pl.min_horizontal("a", "b")
    paired = pl.col("b").is_not_null()
    pair = (pl.when(paired).then(lo).otherwise(pl.col("a")).alias("_k1"),
            pl.when(paired).then(pl.max_horizontal("a", "b")).alias("_k2"))
    keys = ["event_id", "round", "_k1", "_k2"]
    # only the rows of repeated pairs need the ordered window (a hash pass finds them,
    # once; the pair's key columns are kept for those rows only)
    repeated = m.select(pl.struct("event_id", "round", *pair).is_duplicated()).to_series()
    single = m.filter(~repeated)
    m = m.filter(repeated).with_columns(*pair).with_columns(
        # record oriented to the key order, to compare duplicates
        pl.when(pl.col("a") == lo).then(pl.format("{}-{}-{}", "ga", "gb", "gd"))
        .otherwise(pl.format("{}-{}-{}", "gb", "ga", "gd")).alias("_rec"),
    ).sort("event_id", "round", "round_pos", "match_pos")
    m = m.with_columns(
        pl.int_range(pl.len()).over(keys).alias("_occ"),
        pl.col("_rec").n_unique().over(keys).alias("_nrec"),
        pl.col("_rec").first().over(keys).alias("_kept"))
    extra = m.filter(pl.col("_occ") > 0)
    if extra.height:
        same = extra.filter(pl.col("_nrec") == 1)
        diff = extra.filter(pl.col("_nrec") > 1)
        # (a draw the source lists once per player: its norm, not a repair to warn of)
        drawn = (pl.col("b").is_not_null() & (pl.col("ga") == pl.col("gb"))
                 & (pl.col("ga") + pl.col("gb") + pl.col("gd") > 0))
        norm = pl.col("source").is_in(list(DRAWS_LISTED_AGAIN)) & drawn
        routine, same = same.filter(norm), same.filter(~norm)
        if routine.height:
            report.append(_report(routine, "draw_listed_again", pl.format(
                "{} vs {} drawn ({}) and listed again in this round, as {} lists a draw "
                "once per player; one copy kept", pl.col("a"), pl.col("b"),
                pl.col("result"), pl.col("source")), player="a"))
        if same.height:
            report.append(_report(same, "duplicate_row_removed", pl.format(
                "{} vs {} listed again in this round ({}); one copy kept", pl.col("a"),
                _text("b", "(no opponent)"), pl.col("result")), player="a"))
        if diff.height:
            report.append(_report(diff, "conflicting_duplicate_removed", pl.format(
                "{} vs {} listed again with another result ({} vs kept {} in key order); the "
                "first listing is kept", pl.col("a"), _text("b", "(no opponent)"),
                pl.col("_rec"), pl.col("_kept")), player="a"))
    kept = m.filter(pl.col("_occ") == 0).drop("_k1", "_k2", "_rec", "_occ", "_nrec", "_kept")
    return pl.concat([single, kept])


@dataclass(frozen=True)
class _Widened:
    """Names held as codes (:func:`_assemble`) and new names (texts) put in one ``Enum``
    of both in text order: each old code's new one (``codes``) and the new names in it
    (``new``); the names as they are when held as text (``codes`` None)."""

    codes: pl.Series | None
    new: pl.Series

    @staticmethod
    def of(dtype: pl.DataType, new: pl.Series) -> _Widened:
        """``dtype``'s names (an ``Enum``, or text) with the texts ``new`` among them."""
        if not isinstance(dtype, pl.Enum):
            return _Widened(None, new)
        old = dtype.categories
        wider = pl.Enum(pl.concat([old, new.rename(old.name)]).unique().sort())
        return _Widened(old.cast(wider), new.cast(wider))

    def series(self, names: pl.Series) -> pl.Series:
        """``names`` (coded as ``dtype`` was, or texts) in the wider ``Enum``."""
        if self.codes is None:
            return names
        wider: pl.Series = self.codes.gather(names.to_physical())
        return wider.alias(names.name)


def _disambiguate(m: pl.DataFrame, stands: pl.DataFrame, report: list[pl.DataFrame]
                  ) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Suffix duplicated display names ``"Name [2]"``… deterministically, and report it.

    In the standings the k-th listing (by rank order) of a name becomes ``Name [k]``; in a
    round, the k-th seat (in file order) holding that name becomes ``Name [k]``. Rounds carry
    no ids, so results of same-named players may be crossed between them: every such player
    is reported as ``ambiguous_name``.
    """
    # (the listing's number is counted only among the rows of repeated names: a window
    # counting rows over every name of every event costs 10x the rest of this step)
    stands = stands.with_columns(pl.len().over("event_id", "player").alias("_n"))
    dups = stands.with_row_index("_row").filter(pl.col("_n") > 1).with_columns(
        pl.int_range(1, pl.len() + 1).over("event_id", "player").alias("_k"))
    stands = stands.with_columns(pl.col("player").alias("player_id")).drop("_n")
    if not dups.height:
        return m, stands
    sfx = pl.format("{} [{}]", pl.col("player"), pl.col("_k"))
    report.append(_report(dups.with_columns(sfx.alias("player_id"), pl.lit(None).alias("round")),
                          "ambiguous_name", pl.format(
        "{} players are listed as '{}'; renamed by rank order. Rounds have no ids, so their "
        "matches are assigned by seat order within each round and may be crossed", pl.col("_n"),
        pl.col("player"))))
    dn = dups.select("event_id", pl.col("player").alias("_name")).unique()
    # (each seat of a repeated name with its match's row ``_i``: renamed in place)
    seats = pl.concat([
        m.select(pl.int_range(pl.len(), dtype=pl.UInt32).alias("_i"), "event_id", "round",
                 "round_pos", "match_pos", pl.lit(s).alias("_seat"), pl.col(s).alias("_name"))
        for s in ("a", "b")]).drop_nulls("_name")
    seats = seats.join(dn, on=["event_id", "_name"], how="semi").sort(
        "event_id", "round", "round_pos", "match_pos", "_seat").with_columns(pl.format(
            "{} [{}]", "_name", pl.int_range(1, pl.len() + 1).over("event_id", "round", "_name"))
        .alias("_new"))
    renamed = dups.select("_row", sfx.alias("_new"))
    # (every new name put among the names at once: each Enum handed over copies its texts)
    code = _Widened.of(stands["player_id"].dtype, pl.concat([renamed["_new"], seats["_new"]]))
    stands = stands.with_columns(code.series(stands["player_id"]).scatter(
        renamed["_row"], code.new.head(renamed.height)))
    seats = seats.with_columns(code.new.tail(seats.height).alias("_new"))
    fixed = {}
    for s in ("a", "b"):
        fix = seats.filter(pl.col("_seat") == s)
        fixed[s] = code.series(m[s]).scatter(fix["_i"], fix["_new"])
    return m.with_columns(**fixed), stands


def _one_seat(m: pl.DataFrame, report: list[pl.DataFrame]) -> pl.DataFrame:
    """A player listed in two different matches of one round keeps the first (file order);
    the later matches are removed and reported (``duplicate_seat_removed``). A match of a
    player against themself is removed first and reported as such
    (``self_pairing_removed``: it was reported as a seat taken twice)."""
    self_paired = pl.col("a") == pl.col("b")
    selfs = m.filter(self_paired)
    if selfs.height:
        report.append(_report(selfs, "self_pairing_removed", pl.format(
            "{} vs {} ({}) removed: a player paired with themself", pl.col("a"), pl.col("b"),
            pl.col("result")), player="a"))
        m = m.filter(~self_paired.fill_null(value=False))
    seats = pl.concat([
        m.select("event_id", "round", "round_pos", "match_pos", pl.col(s).alias("_name"))
        for s in ("a", "b")]).drop_nulls("_name")
    # only seats of a name repeated in a round need the ordered window
    seats = seats.filter(pl.struct("event_id", "round", "_name").is_duplicated())
    if not seats.height:
        return m
    seats = seats.sort("event_id", "round", "round_pos", "match_pos").with_columns(
        pl.int_range(pl.len()).over("event_id", "round", "_name").alias("_occ"))
    bad = seats.filter(pl.col("_occ") > 0).select("event_id", "round_pos", "match_pos").unique()
    if not bad.height:
        return m
    gone = m.join(bad, on=["event_id", "round_pos", "match_pos"], how="semi")
    report.append(_report(gone, "duplicate_seat_removed", pl.format(
        "{} vs {} ({}) removed: a player of it already has a match in this round",
        pl.col("a"), _text("b", "(no opponent)"), pl.col("result")), player="a"))
    return m.join(bad, on=["event_id", "round_pos", "match_pos"], how="anti")


def _long(m: pl.DataFrame) -> pl.DataFrame:
    """Match rows (seat A/B) → the long table, two mirrored rows per played match."""
    keep = ["event_id", "round", "round_name", "source", "level", "result"]
    unreported = pl.col("b").is_not_null() & (pl.col("ga") + pl.col("gb") + pl.col("gd") == 0)
    m = m.with_columns(unreported.alias("unreported"))
    a = m.select(*keep, "unreported", pl.col("a").alias("player_id"),
                 pl.col("b").alias("opponent_id"), pl.col("ga").alias("games_won"),
                 pl.col("gb").alias("games_lost"), pl.col("gd").alias("games_drawn"))
    b = m.filter(pl.col("b").is_not_null()).select(
        *keep, "unreported", pl.col("b").alias("player_id"), pl.col("a").alias("opponent_id"),
        pl.col("gb").alias("games_won"), pl.col("ga").alias("games_lost"),
        pl.col("gd").alias("games_drawn"))
    out = pl.concat([a, b])
    unpaired = pl.col("opponent_id").is_null()
    won, lost = pl.col("games_won"), pl.col("games_lost")
    unplayed = (pl.when(~unpaired).then(None)
                .when(won > lost).then(pl.lit("pairing_bye"))
                .when(won < lost).then(pl.lit("forfeit_loss"))
                .otherwise(pl.lit("absent")))
    return out.with_columns(unplayed.alias("unplayed"),
                            (pl.col("level") == "games").alias("games_known")).drop("level")


def detect_structure(results: pl.DataFrame, named_playoff: pl.DataFrame | None = None
                     ) -> pl.DataFrame:
    """Label each (event_id, round) with ``phase`` and ``stage`` from the rounds alone.

    Playoff rounds are named playoff rounds (``named_playoff``: event_id, round, flag) plus
    the trailing run of numbered rounds that form a single-elimination bracket: rounds with
    no draws and no unpaired loss, whose winners (byes included) are exactly the players of
    the next round; the event's last round must be fully paired with a power-of-two number
    of players. When that run reaches back to round 1 (and the event has two or more
    rounds), the whole event is a knockout and every round is a playoff round. Otherwise the
    bracket starts at its first round that has fewer players than the round before and at
    most :data:`BRACKET_MAX_SEATS` (8) players, and a one-round bracket is a final of 2
    players: a last round of 4 or 8 players after a Swiss is a Swiss round most players
    skipped (measured on melee.gg's clean events). Larger "brackets" after a Swiss (16, 32
    players) are Swiss rounds for the platforms (measured on melee.gg).

    Among the Swiss rounds, a cut after round ``k`` (a new stage) is detected when some
    score threshold splits round ``k``'s players so that at least
    :data:`CUT_MIN_BELOW_SHARE` of them are below it, at least
    :data:`CUT_MIN_CONTINUE_SHARE` of those at or above it play on, at most
    :data:`CUT_MAX_BELOW_CONTINUE_SHARE` of those below it play on (melee.gg's Champions Cup
    Finals let a few 12-point players into a 13-point Day 2), and round ``k`` has at least
    :data:`CUT_MIN_PLAYERS` players. Stages are ``day1``, ``day2``, …; playoff rounds get
    stage ``playoff``.

    Parameters
    ----------
    results
        Long rows with ``event_id, round, player_id, opponent_id, games_won, games_lost``.
    named_playoff
        Optional ``event_id, round, named_playoff`` flags from the round names.

    Returns
    -------
    polars.DataFrame
        ``event_id, round, phase, stage``, one row per round.

    Examples
    --------
    >>> import polars as pl
    >>> rows = [(1, "A", "B", 2, 0), (1, "B", "A", 0, 2), (1, "C", "D", 1, 1),
    ...         (1, "D", "C", 1, 1), (2, "A", "C", 2, 0), (2, "C", "A", 0, 2),
    ...         (2, "B", "D", 2, 1), (2, "D", "B", 1, 2), (3, "A", "B", 2, 1),
    ...         (3, "B", "A", 1, 2)]
    >>> df = pl.DataFrame(rows, orient="row", schema=["round", "player_id", "opponent_id",
    ...     "games_won", "games_lost"]).with_columns(event_id=pl.lit("e"))
    >>> detect_structure(df).rows()
    [('e', 1, 'swiss', 'day1'), ('e', 2, 'swiss', 'day1'), ('e', 3, 'playoff', 'playoff')]
    """
    r = results.select("event_id", "round", "player_id", "opponent_id", "games_won",
                       "games_lost")
    won = pl.col("games_won") > pl.col("games_lost")
    per = r.group_by("event_id", "round").agg(
        pl.len().alias("seats"),
        (pl.col("games_won") == pl.col("games_lost")).any().alias("has_draw"),
        pl.col("opponent_id").is_null().any().alias("has_unpaired"),
        (pl.col("opponent_id").is_null() & ~won).any().alias("has_unpaired_loss"),
        won.sum().alias("n_winners"),
    ).sort("event_id", "round")
    per = per.with_columns(
        pl.col("round").shift(-1).over("event_id").alias("next_round"),
        pl.col("seats").shift(-1).over("event_id").alias("next_seats"),
        (pl.col("round") == pl.col("round").min().over("event_id")).alias("is_first"),
        pl.len().over("event_id").alias("n_rounds"),
    )
    winners = r.lazy().filter(won).select("event_id", "round", "player_id").collect()
    nxt = r.select("event_id", pl.col("round").alias("next_round"), "player_id")
    overlap = (winners.join(per.select("event_id", "round", "next_round"),
                            on=["event_id", "round"])
               .join(nxt, on=["event_id", "next_round", "player_id"], how="semi")
               .group_by("event_id", "round").agg(pl.len().alias("w_next")))
    per = per.join(overlap, on=["event_id", "round"], how="left").with_columns(
        pl.col("w_next").fill_null(0))
    pow2 = (pl.col("seats") > 0) & ((pl.col("seats") & (pl.col("seats") - 1)) == 0)
    # A knockout round: no draws, no unpaired loss, and exactly its winners (byes included:
    # a bracket's first round may give byes) play the next round. The last round of the
    # event must be fully paired with a power-of-two number of players.
    chain = (~pl.col("has_draw") & ~pl.col("has_unpaired_loss")
             & pl.when(pl.col("next_round").is_null())
             .then(~pl.col("has_unpaired") & pow2)
             .otherwise((pl.col("w_next") == pl.col("n_winners"))
                        & (pl.col("next_seats") == pl.col("n_winners"))))
    per = per.with_columns(chain.alias("_chain"),
                           pl.col("seats").shift(1).over("event_id").alias("prev_seats"),
                           pl.int_range(pl.len(), 0, -1).over("event_id").alias("to_end"))
    if named_playoff is not None:
        per = per.join(named_playoff.select("event_id", "round", "named_playoff"),
                       on=["event_id", "round"], how="left").with_columns(
            pl.col("named_playoff").fill_null(False))
    else:
        per = per.with_columns(pl.lit(False).alias("named_playoff"))
    # Named playoff rounds continue a chain; the trailing run of chain rounds is the bracket.
    # When it reaches back to round 1 (and the event has 2+ rounds) the whole event is a
    # single-elimination bracket. Otherwise the bracket starts at its first round that has
    # fewer players than the round before and at most BRACKET_MAX_SEATS of them; a one-round
    # bracket is a final (2 players): a last round of 4 or 8 players is a Swiss round that
    # many players skipped.
    link = pl.col("_chain") | pl.col("named_playoff")
    trailing = link.cast(pl.Int64).reverse().cum_min().reverse().over("event_id") == 1
    per = per.with_columns(trailing.alias("_trail"))
    whole = (pl.col("_trail") & pl.col("is_first")).any().over("event_id") & (
        pl.col("n_rounds") >= 2)
    start_ok = ((pl.col("seats") < pl.col("prev_seats")) & (pl.col("seats") <= BRACKET_MAX_SEATS)
                & ((pl.col("to_end") >= 2) | (pl.col("seats") == 2)))
    start = pl.col("round").filter(pl.col("_trail") & start_ok).min().over("event_id")
    playoff = (pl.col("named_playoff") | whole
               | (pl.col("_trail") & (pl.col("round") >= start) & ~pl.col("is_first")))
    per = per.with_columns(playoff.fill_null(False).alias("_po"))
    phases = per.select("event_id", "round", pl.when("_po").then(pl.lit("playoff"))
                        .otherwise(pl.lit("swiss")).alias("phase"))
    # Day cuts inside the Swiss.
    mp = (pl.when(pl.col("games_won") > pl.col("games_lost")).then(3)
          .when(pl.col("games_won") == pl.col("games_lost")).then(1).otherwise(0))
    # (only the columns counted below: the join and the sort move no opponent's name)
    sw = r.select("event_id", "round", "player_id", mp.alias("_mp")).join(
        phases.filter(pl.col("phase") == "swiss"), on=["event_id", "round"], how="semi")
    # one row per player and round: in round order, a running sum over each player's rows
    # is their points after each round (the rows' order is not kept: only counted below)
    sw = sw.sort("round", maintain_order=True).with_columns(
        pl.col("_mp").cum_sum().over("event_id", "player_id").alias("_pts"),
        pl.col("round").max().over("event_id", "player_id").alias("_last"),
    ).with_columns((pl.col("_last") > pl.col("round")).alias("_cont"))
    last_sw = pl.col("round").max().over("event_id")
    sw = sw.filter((pl.col("round") <= last_sw - CUT_MIN_ROUNDS_AFTER)
                   & (pl.col("round") >= CUT_MIN_ROUNDS_BEFORE))
    # Every score threshold p of round k: A = players at or above p, B = those below.
    by_pts = (sw.group_by("event_id", "round", "_pts")
              .agg(pl.len().alias("_c"), pl.col("_cont").sum().alias("_k"))
              .sort("event_id", "round", "_pts", descending=[False, False, True]))
    grp = ("event_id", "round")
    by_pts = by_pts.with_columns(
        pl.col("_c").cum_sum().over(grp).alias("above"),
        pl.col("_k").cum_sum().over(grp).alias("above_cont"),
        pl.col("_c").sum().over(grp).alias("n"),
        pl.col("_k").sum().over(grp).alias("n_cont"),
    ).with_columns((pl.col("n") - pl.col("above")).alias("below"),
                   (pl.col("n_cont") - pl.col("above_cont")).alias("below_cont"))
    cuts = by_pts.filter(
        (pl.col("n") >= CUT_MIN_PLAYERS)
        & (pl.col("below") >= CUT_MIN_BELOW_SHARE * pl.col("n"))
        & (pl.col("above_cont") >= CUT_MIN_CONTINUE_SHARE * pl.col("above"))
        & (pl.col("below_cont") <= CUT_MAX_BELOW_CONTINUE_SHARE * pl.col("below"))
    ).select("event_id", "round").unique()
    cut_after = cuts.select("event_id", pl.col("round").alias("_cut"))
    stage_no = (phases.filter(pl.col("phase") == "swiss")
                .join(cut_after, on="event_id", how="left")
                .group_by("event_id", "round").agg(
                    (pl.col("_cut") < pl.col("round")).sum().alias("_k")))
    out = phases.join(stage_no, on=["event_id", "round"], how="left").with_columns(
        pl.when(pl.col("phase") == "playoff").then(pl.lit("playoff"))
        .otherwise(pl.format("day{}", pl.col("_k") + 1)).alias("stage"))
    return out.select("event_id", "round", "phase", "stage").sort("event_id", "round")


def _decimals(stands: pl.DataFrame) -> pl.DataFrame:
    """Published decimals per event: the fewest d ≤ 10 with every value a multiple of 10^-d
    (float artefacts such as 0.5670000000000001 tolerated); null = unrounded doubles."""
    vals = stands.unpivot(index="event_id", on=["omwp", "gwp", "ogwp"]).drop_nulls("value")
    d = pl.lit(None, dtype=pl.Int64)
    for k in range(10, -1, -1):
        d = pl.when((pl.col("value").round(k) - pl.col("value")).abs() < 1e-12).then(
            pl.lit(k)).otherwise(d)
    return vals.with_columns(d.alias("d")).group_by("event_id").agg(
        pl.when(pl.col("d").is_null().any()).then(None).otherwise(pl.col("d").max())
        .alias("decimals"))


def read_decklist_cache(
    paths: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
    *,
    workers: int | None = None,
    max_bytes: int | None = None,
) -> DecklistEvents:
    """Read decklist-cache event files into results, published standings and event tables.

    Parameters
    ----------
    paths
        Files (``.json`` / ``.json.gz``), folders (searched recursively) or glob patterns,
        one or many.
    workers
        Processes used to parse many files (default: the CPU count, at most 8; files are
        parsed in this process when fewer than 64).
    max_bytes
        Largest file and largest decompressed content read (a ``.json.gz`` is decompressed
        in a stream that stops there; default 512 MiB, see :mod:`swissframe.io._files`).

    Returns
    -------
    DecklistEvents
        ``results``, ``published``, ``events`` and ``report`` (see :class:`DecklistEvents`).

    Raises
    ------
    ImportFormatError
        A path matches nothing, a file is not valid JSON of this format, a result is not
        ``W-L-D``, a round name is unknown, or an event is given twice.

    Examples
    --------
    >>> import orjson, tempfile, pathlib
    >>> doc = {"Tournament": {"Date": "2024-07-13T15:00:00", "Name": "Demo",
    ...        "Uri": "https://melee.gg/Tournament/View/1", "Formats": "Modern"},
    ...        "Rounds": [{"RoundName": "Round 1", "Matches": [
    ...            {"Player1": "A", "Player2": "B", "Result": "2-1-0"},
    ...            {"Player1": "C", "Player2": "-", "Result": "2-0-0"}]}],
    ...        "Standings": [{"Rank": 1, "Player": "A", "Points": 3, "Wins": 1, "Losses": 0,
    ...            "Draws": 0, "OMWP": 0.33333333, "GWP": 0.66666667, "OGWP": 0.33333333}]}
    >>> d = pathlib.Path(tempfile.mkdtemp()) / "demo-1-2024-07-13.json"
    >>> _ = d.write_bytes(orjson.dumps(doc))
    >>> ev = read_decklist_cache(d)
    >>> ev.results.select("round", "player_id", "opponent_id", "games_won", "games_lost",
    ...                   "unplayed").rows()
    [(1, 'A', 'B', 2, 1, None), (1, 'B', 'A', 1, 2, None), (1, 'C', None, 2, 0, 'pairing_bye')]
    >>> ev.events.select("source", "players", "swiss_rounds", "decimals", "era").rows()
    [('melee', 1, 1, 8, 'E2')]
    """
    n = _workers(workers)
    files = _expand(paths)
    if _parallel(files, n):
        return _read_parallel(files, n, max_bytes)
    with _no_gc():
        parsed = _parse_chunk(files, max_bytes, told=True)
    return _assemble(*_frames(parsed))


def _assemble(raw: pl.DataFrame, stands: pl.DataFrame, events: pl.DataFrame, *,
              coded: bool = True) -> DecklistEvents:
    """The parsed columns of every file → the four tables (quirks resolved, structure
    detected, repairs reported).

    While assembling, ``event_id`` is an ``Enum`` of the events' ids in text order, and
    the players' names (with the bye markers) and the results each another
    (:func:`_text_order`): :func:`_frames` gives them so, and frames of texts are coded
    here (names and results stay texts when not ``coded``: the reference the codes are
    tested equal to). Joins, windows and sorts
    on them compare codes, not texts, in the same order (a sort by code is a sort by the
    text), and a result is parsed once per distinct text; the four tables hold texts."""
    # (a frame's texts found by a selector: an Enum's type read in Python copies its texts)
    if "event_id" in _text_columns(events):
        ids = pl.col("event_id").cast(_text_order(events["event_id"]))
        raw, stands, events = (f.with_columns(ids) for f in (raw, stands, events))
    if not coded:
        raw = raw.with_columns(pl.col("p1", "p2", "result").cast(pl.String))
        stands = stands.with_columns(pl.col("player").cast(pl.String))
    elif "p1" in _text_columns(raw):
        names = _text_order(raw["p1"], raw["p2"], stands["player"], _ANY_MARKER)
        raw = raw.with_columns(pl.col("p1", "p2").cast(names),
                               pl.col("result").cast(_text_order(raw["result"])))
        stands = stands.with_columns(pl.col("player").cast(names))
    out = _assemble_coded(raw, stands, events)
    texts = {"results": ("event_id", "player_id", "opponent_id"),
             "published": ("event_id", "player_id"), "events": ("event_id",),
             "report": ("event_id",)}
    return DecklistEvents(**{name: getattr(out, name).with_columns(
        pl.col(*cols).cast(pl.String)) for name, cols in texts.items()})


def _text_columns(frame: pl.DataFrame) -> list[str]:
    """The columns of ``frame`` that hold texts (not codes)."""
    return frame.select(cs.string()).columns


def _as_text(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` with its coded columns (``Enum``) as texts."""
    return frame.with_columns(pl.col(c).cast(pl.String) for c, t in frame.schema.items()
                              if isinstance(t, pl.Enum))


#: A published value no standings can hold: a place below 1, a negative count, a rate
#: outside 0–1. Real files hold some (a melee.gg GWP of -0.2): reported, kept as published.
_PUBLISHED_RANGE: Final = (("rank", 1, None), ("points", 0, None), ("wins", 0, None),
                           ("losses", 0, None), ("draws", 0, None), ("omwp", 0, 1),
                           ("gwp", 0, 1), ("ogwp", 0, 1))


def _out_of_range(stands: pl.DataFrame, report: list[pl.DataFrame]) -> None:
    """A ``published_out_of_range`` note for each published value outside its range
    (:data:`_PUBLISHED_RANGE`): they are compared with the computed standings as given, so
    a mismatch there is the file's, which the note says."""
    for col, low, high in _PUBLISHED_RANGE:
        out = pl.col(col) < low
        if high is not None:
            out = out | (pl.col(col) > high)
        bad = stands.filter(out.fill_null(value=False))
        if bad.height:
            report.append(_report(bad.with_columns(pl.lit(None).alias("round")),
                                  "published_out_of_range", pl.format(
                "the published standings give {} {}, {}: kept as published (compared as "
                "given)", pl.lit(col), pl.col(col).cast(pl.String),
                pl.lit(f"below {low}" if high is None else f"outside {low}–{high}"))))


#: How many of the players sharing a published rank a note names (then "…": a file giving
#: every player one rank says so without each note naming them all).
_SHARED_NAMED: Final = 4


def _shared_ranks(stands: pl.DataFrame, report: list[pl.DataFrame]) -> None:
    """A ``published_shared_rank`` note for each player whose published rank another
    player of the event has too (bad data 152): a tie the platform published, or the
    file's error (13 ranks of 4 real melee.gg events: two players at rank 9 of one, at
    996 of another). The ranks are kept as published, and compared as given."""
    key = ["event_id", "rank"]
    shared = (stands.filter(pl.col("rank").is_not_null())
              .group_by(key, maintain_order=True)
              .agg(pl.col("player_id").cast(pl.String).alias("_who"))
              .filter(pl.col("_who").list.len() > 1))
    if not shared.height:
        return
    n = pl.col("_who").list.len()
    named = pl.col("_who").list.head(_SHARED_NAMED).list.join(", ") + pl.when(
        n > _SHARED_NAMED).then(pl.lit(", …")).otherwise(pl.lit(""))
    shared = shared.with_columns(named.alias("_named"), n.alias("_n"),
                                 pl.col("_who").alias("player_id"),
                                 pl.lit(None).alias("round")).explode("player_id")
    report.append(_report(shared, "published_shared_rank", pl.format(
        "the published standings give rank {} to {} players ({}): read as written (a tie "
        "the platform published, or the file's error)", "rank", "_n", "_named")))


def _assemble_coded(raw: pl.DataFrame, stands: pl.DataFrame, events: pl.DataFrame
                    ) -> DecklistEvents:
    """:func:`_assemble` on frames whose ``event_id`` is an ``Enum``."""
    report: list[pl.DataFrame] = []
    events_in = events
    try:
        rounds = _number_rounds(raw)
        raw = raw.join(rounds, on=["event_id", "round_pos"], how="left")
        m = _orient(raw, report)
    except ImportFormatError as exc:  # a file's content: name the file, not only the event
        raise _with_path(exc, events) from None
    m = _dedup(m, report)
    _impossible_scores(m, report)  # (after the repeats are removed: one note a match)
    m, stands = _disambiguate(m, stands, report)
    m = _one_seat(m, report)
    long = _long(m)
    structure = detect_structure(long, rounds.select("event_id", "round", "named_playoff"))
    long = long.join(structure, on=["event_id", "round"], how="left")
    unrep = long.filter(pl.col("unreported") & (pl.col("player_id") < pl.col("opponent_id")))
    if unrep.height:
        report.append(_report(unrep, "unreported_match", pl.format(
            "{} vs {} reported 0-0-0 (unplayed/unreported): kept as 0-0-0 rows flagged "
            "unreported", pl.col("player_id"), pl.col("opponent_id"))))
    results = long.select(
        "event_id", "round", "player_id", "opponent_id", "games_won", "games_lost",
        "games_drawn", "phase", "stage", "unplayed", "round_name", "games_known", "unreported",
        "source").sort("event_id", "round", "player_id", maintain_order=True)
    # Names in rounds but not in standings, and the reverse: reported, not repaired.
    in_rounds = results.select("event_id", "player_id").unique()
    listed = stands.select("event_id", "player_id")
    missing = in_rounds.join(listed, on=["event_id", "player_id"], how="anti")
    unpublished = missing.join(listed.select("event_id").unique(), on="event_id", how="anti")
    if unpublished.height:  # (the file lists no standings: one note, not one per player)
        report.append(_report(
            unpublished.group_by("event_id").agg(pl.len().alias("n")).with_columns(
                pl.lit(None).alias("round"), pl.lit(None).alias("player_id")),
            "no_standings", pl.format(
                "the file publishes no standings ('Standings' empty, null or missing): its "
                "{} players are ranked from the rounds, with nothing to compare", "n")))
        missing = missing.join(unpublished, on=["event_id", "player_id"], how="anti")
    if missing.height:
        report.append(_report(missing.with_columns(pl.lit(None).alias("round")),
                              "not_in_standings",
                              pl.lit("plays in the rounds but is not in the published standings")))
    absent = listed.join(in_rounds, on=["event_id", "player_id"], how="anti")
    if absent.height:
        report.append(_report(absent.with_columns(pl.lit(None).alias("round")),
                              "not_in_rounds",
                              pl.lit("listed in the standings but has no match in the rounds")))
    _out_of_range(stands, report)
    _shared_ranks(stands, report)
    dec = _decimals(stands)
    published = stands.join(dec, on="event_id", how="left").select(
        "event_id", "player_id", "rank", "points", "wins", "losses", "draws", "omwp", "gwp",
        "ogwp", pl.col("decimals").cast(pl.Int64)).sort("event_id", "rank", maintain_order=True)
    events = _event_table(events, results, stands, structure, dec)
    # (a platform whose era — its ruleset — depends on the date: an unreadable one was
    # read as none, and the era chosen without it, silently)
    undated = events.filter(pl.col("source").is_in(list(_DATED_ERAS))
                            & pl.col("date").is_null())
    if undated.height:
        report.append(_report(undated.with_columns(
            pl.lit(None).alias("round"), pl.lit(None).alias("player_id")), "unreadable_date",
            pl.when(pl.col("datetime").is_null())
            .then(pl.lit("the file gives no date ('Tournament.Date' missing)"))
            .otherwise(pl.format("'Tournament.Date' is '{}', not a date (YYYY-MM-DD…)",
                                 pl.col("datetime")))
            + pl.lit("; the platform's tiebreaker era, and so the ruleset, is chosen without "
                     "it (--rules, or rules= in Python, chooses one)")))
    _empty_rounds(events_in, report)
    rep = (pl.concat([x.cast(_REPORT_SCHEMA) for x in report]) if report  # type: ignore[arg-type]
           else pl.DataFrame(schema=_REPORT_SCHEMA))
    rep = rep.sort("event_id", "kind", "round", "player_id", nulls_last=True)
    return DecklistEvents(results=results, published=published, events=events, report=rep)


def _empty_rounds(events: pl.DataFrame, report: list[pl.DataFrame]) -> None:
    """Note each round a file lists with no match (``"Matches": []``): it has no row, so it
    was read as no round at all — a lost last round left the standings of the rounds
    before it, exit 0, and ``validate`` said no problems. None of the 2,249 real files
    lists one: an export that lost the round's matches, or a round not yet paired."""
    if "empty_rounds" not in events.columns:
        return
    hollow = events.filter(pl.col("empty_rounds").is_not_null()).explode("empty_rounds")
    if hollow.height:
        report.append(_report(hollow.with_columns(
            pl.lit(None).alias("round"), pl.lit(None).alias("player_id")), "empty_round",
            empty_round_detail(pl.col("empty_rounds"))))


def _with_path(exc: ImportFormatError, events: pl.DataFrame) -> ImportFormatError:
    text = str(exc)
    found = re.match(r"event '([^']*)'", text)
    hit = (events.filter(pl.col("event_id").cast(pl.String) == found.group(1)) if found
           else events.clear())
    return ImportFormatError(f"{hit['path'][0]}: {text}") if hit.height else exc


def _event_table(events: pl.DataFrame, results: pl.DataFrame, stands: pl.DataFrame,
                 structure: pl.DataFrame, dec: pl.DataFrame) -> pl.DataFrame:
    st = structure.group_by("event_id").agg(
        pl.len().alias("rounds"),
        (pl.col("phase") == "swiss").sum().alias("swiss_rounds"),
        (pl.col("phase") == "playoff").sum().alias("playoff_rounds"),
        pl.col("stage").filter(pl.col("phase") == "swiss").n_unique().alias("stages"),
        pl.col("round").filter((pl.col("stage") == "day1")
                               & (pl.col("phase") == "swiss")).max().alias("_d1end"),
    )
    first_po = results.filter(pl.col("phase") == "playoff").filter(
        pl.col("round") == pl.col("round").min().over("event_id")).group_by("event_id").agg(
        pl.col("player_id").n_unique().alias("playoff_size"))
    n_players = stands.group_by("event_id").agg(pl.len().alias("players"))
    out = (events.join(n_players, on="event_id", how="left")
           .join(st, on="event_id", how="left").join(first_po, on="event_id", how="left")
           .join(dec, on="event_id", how="left"))
    out = out.with_columns(
        # (the format's dates are ISO 8601; any other is not guessed at: Polars' own
        # inference read "01/07/2024" as 1 July, not 7 January, without a word)
        pl.col("datetime").str.slice(0, 10).str.to_date("%Y-%m-%d", strict=False)
        .alias("date"),
        pl.col("rounds").fill_null(0).cast(pl.Int64),
        pl.col("swiss_rounds").fill_null(0).cast(pl.Int64),
        pl.col("playoff_rounds").fill_null(0).cast(pl.Int64),
        pl.col("stages").fill_null(0).cast(pl.Int64),
        pl.col("players").fill_null(0).cast(pl.Int64),
        pl.col("decimals").cast(pl.Int64),
    ).with_columns(
        pl.when(pl.col("stages") > 1).then(pl.col("_d1end")).alias("day2_after_round"),
    )
    structure_txt = pl.concat_str([
        pl.format("{} swiss", pl.col("swiss_rounds")),
        pl.when(pl.col("stages") > 1).then(pl.format(" (cut after round {})",
                                                     pl.col("day2_after_round"))),
        pl.when(pl.col("playoff_rounds") > 0).then(
            pl.format(" + top {} ({} rounds)", pl.col("playoff_size"), pl.col("playoff_rounds"))),
    ], ignore_nulls=True)
    era = pl.when(pl.col("source") == "melee").then(melee_era(pl.col("date"), pl.col("decimals")))
    return out.select(
        "event_id", "source", "name", "date", "datetime", "format", "url", "path", "players",
        "rounds", "swiss_rounds", "playoff_rounds", "stages", "day2_after_round",
        pl.col("playoff_size").cast(pl.Int64), structure_txt.alias("structure"), "decimals",
        era.alias("era"),
    ).sort("event_id")
