"""Pokémon TOM (Tournament Operations Manager) files → the long results table.

TOM saves an event as XML (``.tdf``; some copies use ``.xml``). :func:`read_tom` parses
any number of them with a safe parser (``defusedxml``: no DTD, no entity expansion) and
returns a :class:`TomEvents` bundle.

Event key
---------
A TOM file holds one or more **pods**; each pod is paired on its own with its own round
numbers (a Cup may run Juniors for 3 rounds and Masters for 5 in one file), so the event key
is the pod: ``event_id`` is the file key (the file name without extension, prefixed with as
many parent folders as needed to keep the keys of the given files unique) when the file has
one pod, and ``"<file key>:<pod label>"`` when it has several (labels in
:data:`POD_LABELS`, e.g. ``"masters"`` or ``"all"`` for a combined pod).

Combined pods (categories 8, 9, 10) are paired together but ranked per age division: the
players table has a ``division`` column (``juniors`` / ``seniors`` / ``masters``) taken
from the pod for a single-division pod and from TOM's published ``<standings>`` for a
combined pod (``division_source`` says which; null when a mid-event save has no
standings). Opponents from the whole pod count, which the pod-level ``event_id`` gives.

Outcomes
--------
Every outcome code the format documents is mapped in :data:`TOM_OUTCOMES` (codes 6, 7
and 9 are not documented anywhere and are refused with an
:class:`~swissframe.errors.ImportFormatError`, as is any other code). Pokémon has no
game-level statistic, so the games columns hold the match result: win ``1-0-0``, loss
``0-1-0``, tie ``0-0-1`` (one match point each).

- ``4`` earned bye and ``5`` random (pairing) bye are both ``1-0-0`` with a null opponent;
  they stay distinguishable through ``unplayed`` (``"full_bye"`` for an earned bye,
  ``"pairing_bye"`` for a random one) and ``tom_outcome``, because how an earned bye
  enters win % is a ruleset option.
- ``8`` forced loss (a late entrant's missed round): ``0-1-0``, null opponent,
  ``unplayed="absent"``.
- ``10`` double loss: both players ``0-1-0`` against each other with ``double_loss=True``
  (the contract's double-loss representation: a loss for both, and each counts the other
  as an opponent).
- ``0`` pending (mid-round saves): not a result; such matches are left out of ``results``
  and listed in :attr:`TomEvents.pending` (an explicit, reported exclusion).

Round types
-----------
A ``<round type>`` says how the round was paired (:data:`TOM_ROUND_TYPES`): ``1`` is the
single-elimination top cut (rows with ``phase="playoff"``); a Swiss round repeats the root
``<tournament type>``, ``2`` (one division: League Challenge, prerelease) or ``3`` (a Cup
with age divisions), and its rows have ``phase="swiss"``. Any other code, or none, is
refused with an :class:`~swissframe.errors.ImportFormatError` naming the file, pod and
round: the phase decides whether a round counts in the Swiss standings, so a guess would
change them (``docs/fidelity-tom-trf.md``, "Round types", gives the sources).

Extra result columns: ``unplayed``, ``scheduled_opponent_id``,
``tom_outcome`` (the match-level outcome name), ``table``, and ``disqualified`` when a file
lists a player under ``<standings><pod type="dnf">`` (TRH §5.7.3: removed from the
standings): True on that player's last Swiss row (TOM does not record the round), so the
standings give them no rank and their results still count for their opponents.
"""

from __future__ import annotations

import codecs
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import date
from pathlib import Path
from typing import Any, Final, NamedTuple
from xml.etree.ElementTree import Element, ParseError

import defusedxml
import defusedxml.ElementTree as SafeET
import polars as pl

from swissframe._display import count, quoted
from swissframe.errors import ImportFormatError, SwissframeError
from swissframe.io._files import (
    bom_decoded,
    built_in_chunks,
    event_keys,
    say_warnings,
    several_files,
)
from swissframe.schema import (
    DISQUALIFIED,
    RESULT_COLUMNS,
    flag_spellings,
    flag_text,
    validate_results,
    whole_text,
)

__all__ = [
    "DIVISION_NAMES",
    "POD_LABELS",
    "TOM_OUTCOMES",
    "TOM_ROUND_TYPES",
    "TOM_STANDING_TYPES",
    "TomEvents",
    "TomOutcome",
    "event_keys",
    "parse_tom",
    "read_tom",
]


class TomOutcome(NamedTuple):
    """How one TOM ``<match outcome=...>`` code becomes result rows."""

    name: str
    """Match-level name, copied to the ``tom_outcome`` column."""
    seats: int
    """1 for a single ``<player>`` match, 2 for ``<player1>``/``<player2>``, 0 for either."""
    first: tuple[int, int, int] | None
    """(won, lost, drawn) of player1 / the single player; None = not a result (pending)."""
    second: tuple[int, int, int] | None
    """(won, lost, drawn) of player2 (two-seat outcomes only)."""
    unplayed: str | None
    """Value of the ``unplayed`` column for the row(s)."""
    keeps_opponent: bool
    """False for single-seat outcomes (no opponent)."""
    double_loss: bool = False
    """Both seats lost (the ``double_loss`` column)."""


#: Every outcome code the TOM format documents (ciphermaniac's ``tdf.ts`` and OpenTourney's
#: fixture notes, summarised in ``SOURCES.md``). Codes 6, 7 and 9 are documented nowhere and
#: are refused, like any other unknown code.
TOM_OUTCOMES: Final[Mapping[int, TomOutcome]] = {
    0: TomOutcome("pending", 0, None, None, None, keeps_opponent=True),
    1: TomOutcome("player1_win", 2, (1, 0, 0), (0, 1, 0), None, keeps_opponent=True),
    2: TomOutcome("player2_win", 2, (0, 1, 0), (1, 0, 0), None, keeps_opponent=True),
    3: TomOutcome("tie", 2, (0, 0, 1), (0, 0, 1), None, keeps_opponent=True),
    4: TomOutcome("earned_bye", 1, (1, 0, 0), None, "full_bye", keeps_opponent=False),
    5: TomOutcome("random_bye", 1, (1, 0, 0), None, "pairing_bye", keeps_opponent=False),
    8: TomOutcome("forced_loss", 1, (0, 1, 0), None, "absent", keeps_opponent=False),
    10: TomOutcome("double_loss", 2, (0, 1, 0), (0, 1, 0), None, keeps_opponent=True,
                   double_loss=True),
}

#: Age divisions by TOM category code.
DIVISION_NAMES: Final[Mapping[int, str]] = {0: "juniors", 1: "seniors", 2: "masters"}

#: Pod labels by TOM pod category (8, 9, 10 are combined pods).
POD_LABELS: Final[Mapping[int, str]] = {
    **DIVISION_NAMES,
    8: "juniors+seniors",
    9: "seniors+masters",
    10: "all",
}

#: The phase of each ``<round type>`` code TOM writes: ``1`` single elimination (the top
#: cut); a Swiss round repeats the root ``<tournament type>``, ``2`` (one division) or ``3``
#: (a Cup with age divisions) — ciphermaniac's ``shared/tournament/tdf.ts``, OpenTourney's
#: and the shared folder's real files (``SOURCES.md``). Any other code is refused.
TOM_ROUND_TYPES: Final[Mapping[str, str]] = {"1": "playoff", "2": "swiss", "3": "swiss"}
#: The kinds of a ``<standings><pod type>`` TOM writes: ``finished`` (every player who
#: finished or dropped, in place order) and ``dnf`` (the disqualified, TRH §5.7.3) — every
#: real file in the shared folder (``SOURCES.md``, TOM format) and every fixture. Any other
#: kind, or none, is refused: the kind decides who is ranked and who is disqualified.
TOM_STANDING_TYPES: Final = ("finished", "dnf")
_FINALIZED_STAGE: Final = "5"
TOM_SUFFIXES: Final = (".tdf", ".xml")

_RESULT_SCHEMA: Final[dict[str, pl.DataType]] = {
    **RESULT_COLUMNS,  # the contract, then this format's own columns
    "unplayed": pl.String(),
    "scheduled_opponent_id": pl.String(),
    "tom_outcome": pl.String(),
    "table": pl.Int64(),
    "double_loss": pl.Boolean(),
}

_PLAYER_SCHEMA: Final[dict[str, pl.DataType]] = {
    "event_id": pl.String(),
    "player_id": pl.String(),
    "name": pl.String(),
    "division": pl.String(),
    "division_source": pl.String(),
    "dropped_after_round": pl.Int64(),
    "late": pl.Boolean(),
    "earned_byes": pl.Int64(),
    "seed": pl.Int64(),
    "order": pl.Int64(),
    "birth_year": pl.Int64(),
    "pod_category": pl.Int64(),
    "swiss_rounds_played": pl.Int64(),
}

_STRUCTURE_SCHEMA: Final[dict[str, pl.DataType]] = {
    "event_id": pl.String(),
    "source": pl.String(),
    "name": pl.String(),
    "sanction_id": pl.String(),
    "start_date": pl.Date(),
    "mode": pl.String(),
    "tom_version": pl.String(),
    "tournament_type": pl.String(),
    "finalized": pl.Boolean(),
    "pod_category": pl.Int64(),
    "pod_label": pl.String(),
    "division": pl.String(),
    "players": pl.UInt32(),
    "swiss_rounds": pl.Int64(),
    "topcut_rounds": pl.Int64(),
    "cut": pl.Int64(),
    "published_player_count": pl.Int64(),
}

_PUBLISHED_SCHEMA: Final[dict[str, pl.DataType]] = {
    "event_id": pl.String(),
    "division": pl.String(),
    "player_id": pl.String(),
    "place": pl.Int64(),
    "standing": pl.String(),
    "seed": pl.Int64(),
    "order": pl.Int64(),
    "swiss_place": pl.Int64(),
}

_EMPTY_ROUNDS_SCHEMA: Final[dict[str, pl.DataType]] = {
    "source": pl.String(), "event_id": pl.String(), "round": pl.Int64()}
_UNKNOWN_SCHEMA: Final[dict[str, pl.DataType]] = {
    "source": pl.String(), "parent": pl.String(), "tag": pl.String()}
#: The elements each container may hold; anything else is reported in ``unknown``.
_CHILDREN: Final[Mapping[str, str]] = {"players": "player", "pods": "pod", "rounds": "round",
                                       "matches": "match"}

_PENDING_SCHEMA: Final[dict[str, pl.DataType]] = {
    "event_id": pl.String(),
    "round": pl.Int64(),
    "player_id": pl.String(),
    "opponent_id": pl.String(),
    "phase": pl.String(),
    "table": pl.Int64(),
}


@dataclass(frozen=True)
class TomEvents:
    """Everything :func:`read_tom` extracts from TOM files (one event per pod).

    Attributes
    ----------
    results
        The long results table (validated against the contract) plus ``unplayed``,
        ``scheduled_opponent_id``, ``tom_outcome`` and ``table``.
    players
        One row per (event, player): ``event_id, player_id, name, division,
        division_source, dropped_after_round, late, earned_byes, seed, order, birth_year,
        pod_category, swiss_rounds_played``. A player who dropped before being paired (a
        no-show) has ``swiss_rounds_played == 0`` and no rows in ``results``, but TOM still
        lists them in its standings. ``dropped_after_round`` is the round TOM recorded the
        drop in: the last round the player was in, or the next one of a save made before
        it was paired (a no-show has 1); a round past that is refused (bad data 140).
    structure
        One row per (event, division): source file, tournament name, sanction id, start
        date, mode, TOM version, finalized flag, pod category and label, player count,
        Swiss and top-cut round counts, the chosen cut and TOM's ``playercount``.
    published
        TOM's published placings per division: ``event_id, division, player_id, place,
        standing`` (``finished`` / ``dnf``), ``seed``, ``order`` and ``swiss_place`` (the
        expected Swiss order: the seed for top-cut players, else the place).
    pending
        Matches with outcome 0 (unreported), one row per seat; left out of ``results``.
    unseated
        Players listed in a file's ``<players>`` who sit in none of its pods (a file may
        carry the roster of another pod that was run separately): ``source, player_id,
        name``. They are in no event and not in ``players``.
    unknown
        Elements the format does not define where players, pods, rounds or matches are
        listed (``source, parent, tag``): ignored, and reported here and by a warning
        (a ``<matchx>`` could hide a result).
    empty_rounds
        Rounds a pod lists with no match (``source, event_id, round``): they have no row,
        so a lost last round left the standings of the rounds before it without a word
        (bad data 195); reported here and by a warning (``empty_round``).
    """

    results: pl.DataFrame
    players: pl.DataFrame
    structure: pl.DataFrame
    published: pl.DataFrame
    pending: pl.DataFrame
    unseated: pl.DataFrame
    unknown: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=_UNKNOWN_SCHEMA))
    empty_rounds: pl.DataFrame = field(
        default_factory=lambda: pl.DataFrame(schema=_EMPTY_ROUNDS_SCHEMA))

    def _facts(self) -> list[str]:

        return [count(self.structure.height, "event"), count(self.players.height, "player"),
                count(self.results.height, "result row"),
                count(self.published.height, "published placing"),
                count(self.pending.height, "pending seat")]

    def __repr__(self) -> str:
        """A one-line summary, as the other result objects print (the frames are
        ``.results``, ``.players``, …; printing one dumped every frame: bad data 246).

        >>> e = pl.DataFrame()
        >>> TomEvents(e, e, pl.DataFrame({"event_id": ["a"]}), e, e, e)
        TomEvents: 1 event, 0 players, 0 result rows, 0 published placings, 0 pending seats
        — .results, .players, .structure, .published, .pending, .unseated, .unknown,
        .empty_rounds
        """
        from swissframe._display import summary_text

        return summary_text("TomEvents", self._facts(), [f.name for f in fields(self)])

    def _repr_html_(self) -> str:
        from swissframe._display import summary_html

        return summary_html("TomEvents", self._facts(),
                            {f.name: getattr(self, f.name) for f in fields(self)})


# ---------------------------------------------------------------------------- helpers


def _text(el: Element | None, tag: str) -> str | None:
    if el is None:
        return None
    child = el.find(tag)
    if child is None or child.text is None:
        return None
    t = child.text.strip()
    return t or None


def _int(value: str | None, *, what: str, where: str) -> int | None:
    if value is None or value.strip() == "":
        return None
    n = whole_text(value)  # (ASCII digits: int() read "1_0" as round 10)
    if n is None or not -(2**63) <= n < 2**63:
        msg = (f"{where}: {what} is {value!r}, not an integer in digits 0-9 (64-bit). "
               "Hint: the file is damaged or not a TOM save.")
        raise ImportFormatError(msg) from None
    return n


def _date(value: str | None) -> date | None:
    if value is None:
        return None
    m = re.fullmatch(r"([0-9]{1,2})/([0-9]{1,2})/([0-9]{4})", value.strip())
    if m is None:
        return None
    try:
        return date(int(m.group(3)), int(m.group(1)), int(m.group(2)))
    except ValueError:
        return None


def _parse_xml(data: bytes | str, source: str) -> Element:
    try:
        root: Element = SafeET.fromstring(data, forbid_dtd=True, forbid_entities=True,
                                          forbid_external=True)
    except defusedxml.DefusedXmlException as exc:
        msg = (f"{source}: refused unsafe XML ({type(exc).__name__}: {exc}). "
               "Hint: TOM files never declare a DTD or entities; this is not a TOM save.")
        raise ImportFormatError(msg) from None
    except ParseError as exc:
        msg = f"{source}: not well-formed XML ({exc}). Hint: {_not_utf8(data)}"
        raise ImportFormatError(msg) from None
    except (ValueError, UnicodeError) as exc:
        msg = f"{source}: cannot decode the XML ({exc}). Hint: re-export the file from TOM."
        raise ImportFormatError(msg) from None
    except LookupError as exc:  # (the parser looks the declared encoding up in `codecs`)
        msg = (f"{source}: the XML declaration names an encoding that is not a known text "
               f"encoding ({exc}). Hint: declare the encoding the file is in "
               "(<?xml version=\"1.0\" encoding=\"UTF-8\"?>), or re-export it from TOM.")
        raise ImportFormatError(msg) from None
    if root.tag != "tournament":
        msg = (f"{source}: root element is <{root.tag}>, expected <tournament>. "
               "Hint: this is not a TOM .tdf file.")
        raise ImportFormatError(msg)
    return root


_DECLARED: Final = re.compile(rb"""\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)""")


def _declared_decoded(data: bytes, source: str) -> str | None:
    """The text of a file whose XML declaration names an encoding other than UTF-8 and
    UTF-16/32, decoded by Python's codec of that name: the XML parser (expat) reads only
    single-byte code pages itself, and refused a well-formed file declaring Shift_JIS,
    EUC-JP, GBK, Big5 or EUC-KR as "multi-byte encodings are not supported", with the hint
    to re-export it from TOM (bad data 158). None when the declaration names UTF-8,
    UTF-16/32, nothing, or no text encoding (the parser then says which)."""
    m = _DECLARED.match(data)
    if m is None:
        return None
    declared = m.group(1).decode("ascii")
    try:
        codec = codecs.lookup(declared).name
        if codec.startswith(("utf-8", "utf-16", "utf-32")):
            return None
        return data.decode(declared)
    except LookupError:  # (not a known codec, or not a text encoding: rot13, zlib)
        return None
    except UnicodeDecodeError as exc:
        msg = (f"{source}: byte {exc.start} ({data[exc.start:exc.start + 4].hex(' ')}) is "
               f"not {declared}, the encoding the XML declaration names. Hint: declare the "
               "encoding the file is in, save it again as UTF-8, or re-export it from TOM.")
        raise ImportFormatError(msg) from None


def _not_utf8(data: bytes | str) -> str:
    """The hint for a file the XML parser refused: when it is to be read as UTF-8 (so it
    declares, or declares nothing) and is not — an editor re-saved it in a Windows code
    page —, the first byte that is not; else that it is damaged."""
    m = _DECLARED.match(data) if isinstance(data, bytes) else None
    declared = m.group(1).decode().lower() if m else "utf-8"
    if isinstance(data, bytes) and declared in ("utf-8", "utf8"):
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            return (f"byte {exc.start} ({data[exc.start:exc.start + 4].hex(' ')}) is not "
                    "UTF-8, as the file declares (or XML assumes without a declaration): "
                    "save it again as UTF-8, or declare the encoding it is in "
                    "(<?xml version=\"1.0\" encoding=\"windows-1252\"?>).")
    return "the file is truncated or damaged; re-export it from TOM."


# ---------------------------------------------------------------------------- parsing


def _read_players(root: Element, source: str) -> list[dict[str, Any]]:
    players_el = root.find("players")
    if players_el is None:
        msg = f"{source}: no <players> element. Hint: the file is truncated or not a TOM save."
        raise ImportFormatError(msg)
    out: list[dict[str, Any]] = []
    for p in players_el.findall("player"):
        uid = (p.get("userid") or "").strip()
        where = f"{source}, player {uid or '?'}"
        if not uid:
            msg = f"{source}: a <player> has no userid. Hint: the file is damaged."
            raise ImportFormatError(msg)
        dropped = _dropped(p, where)
        late = _late(p, where)
        birth = _text(p, "birthdate")
        birth_year = None
        if birth is not None:
            m = re.search(r"([0-9]{4})\s*$", birth)
            birth_year = int(m.group(1)) if m else None
        name = " ".join(x for x in (_text(p, "firstname"), _text(p, "lastname")) if x)
        byes = _int(_text(p, "byes"), what="<byes>", where=where) or 0
        seed = _int(_text(p, "seed"), what="<seed>", where=where)
        if byes < 0 or (seed is not None and seed < 1):  # (bad data 147)
            what = (f"<byes> {byes}, a count of earned byes below 0" if byes < 0 else
                    f"<seed> {seed}, and seeds are Swiss places, numbered from 1")
            msg = (f"{where}: {what}. Hint: the file is damaged; correct the player's "
                   f"<{'byes' if byes < 0 else 'seed'}>, or re-export the file from TOM.")
            raise ImportFormatError(msg)
        out.append({
            "player_id": uid,
            "name": name or None,
            "dropped_after_round": dropped,
            "late": late,
            "earned_byes": byes,
            "seed": seed,
            "order": _int(_text(p, "order"), what="<order>", where=where),
            "birth_year": birth_year,
        })
    ids = [r["player_id"] for r in out]
    # (counted once: ids.count per id compared every pair, 4.4 s at 20,000 players)
    dupes = sorted(i for i, n in Counter(ids).items() if n > 1)
    if dupes:
        msg = (f"{source}: player userid(s) {dupes} listed more than once in <players>. "
               "Hint: the file is damaged.")
        raise ImportFormatError(msg)
    return out


#: What TOM writes in a player's ``<dropped><status>``, and what it means: ``1``, dropped
#: after the ``<round>`` beside it (every real file, and TOM's own saves: ``SOURCES.md`` of
#: ``../shared/data/realworld``); ``0``, not dropped (the reading of ciphermaniac's reader
#: of TOM's saves, and this reader's). A ``<dropped>`` without a ``<status>`` is a drop
#: after its ``<round>`` (OpenTourney's notes of TOM's exports; ciphermaniac's reader).
#: Any other status is refused (bad data 151): ``docs/fidelity-tom-trf.md``.
_DROP_STATUS: Final[Mapping[str, bool]] = {"1": True, "0": False}


def _dropped(player: Element, where: str) -> int | None:
    """The round a player dropped after (None: no drop), from their ``<dropped>``.

    A status TOM does not write (:data:`_DROP_STATUS`: ``2``, ``true``, ``-1``) was read as
    a drop without a word, and a drop without its round as no drop (bad data 151): both
    are an :class:`ImportFormatError` naming file and player, as a round below 1 is (bad
    data 133)."""
    el = player.find("dropped")
    if el is None:
        return None
    status = _text(el, "status")
    if status is not None and status not in _DROP_STATUS:
        msg = (f"{where}: <dropped> holds <status> {status!r}, which TOM does not write "
               "(1: dropped after the <round> beside it; 0: not dropped). Hint: the file is "
               "damaged or not TOM's; correct the player's <status> to 1 or 0, or re-export "
               "the file from TOM.")
        raise ImportFormatError(msg)
    if status is not None and not _DROP_STATUS[status]:
        return None
    dropped = _int(_text(el, "round"), what="dropped round", where=where)
    if dropped is None:
        msg = (f"{where}: <dropped> gives no <round> (TOM writes the round a player dropped "
               "after). Hint: the file is damaged; add the player's <round>, or re-export "
               "the file from TOM.")
        raise ImportFormatError(msg)
    if dropped < 1:  # (a drop is after a round: bad data 133)
        msg = (f"{where}: <dropped> gives round {dropped}, and rounds are numbered "
               "from 1 (a drop is after a round). Hint: the file is damaged; "
               "correct the <round> of the player's <dropped>, or re-export the "
               "file from TOM.")
        raise ImportFormatError(msg)
    return dropped


def _late(player: Element, where: str) -> bool:
    """Whether a player entered late: a ``<late>`` element, empty or holding a flag
    spelled as every reader reads one (:func:`~swissframe.schema.flag_text`); any other
    text is an :class:`ImportFormatError` (``<late>maybe</late>`` or ``<late>no</late>``
    were read as late without a word: bad data 148)."""
    if player.find("late") is None:
        return False
    text = _text(player, "late")
    late = True if text is None else flag_text(text)
    if late is None:
        msg = (f"{where}: <late> holds {text!r}, which is no flag. Hint: TOM writes <late> "
               f"empty or as true/false ({flag_spellings()} are read); correct it, or "
               "re-export the file from TOM.")
        raise ImportFormatError(msg)
    return late


def _seat(el: Element | None, source: str, where: str) -> str:
    uid = (el.get("userid") or "").strip() if el is not None else ""
    if not uid:
        msg = f"{source}, {where}: a match seat has no userid. Hint: the file is damaged."
        raise ImportFormatError(msg)
    return uid


def _read_pods(root: Element, source: str, known_players: set[str]) -> list[dict[str, Any]]:
    pods_el = root.find("pods")
    if pods_el is None:
        msg = f"{source}: no <pods> element. Hint: the file is truncated or not a TOM save."
        raise ImportFormatError(msg)
    pods: list[dict[str, Any]] = []
    for pod in pods_el.findall("pod"):
        cat = _int(pod.get("category"), what="pod category", where=source)
        if cat is None or cat not in POD_LABELS:
            msg = (f"{source}: unknown pod category {pod.get('category')!r}. "
                   f"Hint: TOM uses {sorted(POD_LABELS)} ({', '.join(POD_LABELS.values())}).")
            raise ImportFormatError(msg)
        if any(p["category"] == cat for p in pods):
            msg = f"{source}: pod category {cat} appears twice. Hint: the file is damaged."
            raise ImportFormatError(msg)
        roster = [_seat(pl_el, source, f"pod {cat} roster")
                  for pl_el in pod.iterfind("subgroups/subgroup/players/player")]
        _check_roster(roster, known_players, source, cat=cat)
        matches: list[dict[str, Any]] = []
        round_types: dict[int, str] = {}
        empty: list[int] = []
        rounds_el = pod.find("rounds")
        for rnd in rounds_el.findall("round") if rounds_el is not None else []:
            number = _int(rnd.get("number"), what="round number", where=f"{source}, pod {cat}")
            if number is None or number < 1:
                msg = (f"{source}, pod {cat}: round number {rnd.get('number')!r} "
                       "(must be ≥ 1). Hint: the file is damaged.")
                raise ImportFormatError(msg)
            if number in round_types:
                msg = (f"{source}, pod {cat}: round {number} appears twice. "
                       "Hint: the file is damaged.")
                raise ImportFormatError(msg)
            phase = _round_phase(rnd.get("type"), source, cat=cat, number=number)
            round_types[number] = phase
            held = [_read_match(m, source, cat=cat, number=number, phase=phase,
                                known_players=known_players)
                    for m in rnd.iterfind("matches/match")]
            if not held:
                empty.append(number)
            matches += held
        pods.append({"category": cat, "roster": roster, "matches": matches,
                     "round_types": round_types, "empty_rounds": empty})
    return pods


def _check_roster(roster: Sequence[str], known_players: set[str], source: str, *,
                  cat: int) -> None:
    """Every userid of a pod's roster is a player of ``<players>``, as every match seat is
    (:func:`_read_match`): one that is not was left out of the players, the no-shows and
    the standings without a word (a roster names the pod's players: class 98)."""
    unknown = [uid for uid in roster if uid not in known_players]
    if unknown:
        msg = (f"{source}, pod {cat} roster: player {unknown[0]} is not listed in <players>"
               f"{f' ({len(unknown)} such players)' if len(unknown) > 1 else ''}. Hint: the "
               "file is damaged or truncated; re-export it from TOM.")
        raise ImportFormatError(msg)


def _round_phase(code: str | None, source: str, *, cat: int, number: int) -> str:
    """The phase of a ``<round type>`` (:data:`TOM_ROUND_TYPES`); an unknown code or none
    is an :class:`ImportFormatError` (it was read as Swiss: a round of another kind
    counted in the Swiss standings without a word)."""
    phase = TOM_ROUND_TYPES.get((code or "").strip())
    if phase is None:
        known = ", ".join(f"{c} ({'top cut' if p == 'playoff' else p})"
                          for c, p in TOM_ROUND_TYPES.items())
        what = f"unknown round type {code!r}" if code is not None else "no round type"
        msg = (f"{source}, pod {cat}, round {number}: {what}, so whether the round is "
               f"Swiss or top cut is not known. Hint: TOM writes {known}; correct the "
               "<round type=...> attribute, or re-export the file from TOM.")
        raise ImportFormatError(msg)
    return phase


def _read_match(m: Element, source: str, *, cat: int, number: int, phase: str,
                known_players: set[str]) -> dict[str, Any]:
    where = f"pod {cat}, round {number}"
    code = _int(m.get("outcome"), what="match outcome", where=f"{source}, {where}")
    if code is None or code not in TOM_OUTCOMES:
        msg = (f"{source}, {where}: unknown match outcome code {m.get('outcome')!r}. "
               f"Hint: documented TOM codes are {sorted(TOM_OUTCOMES)}; see "
               "swissframe.io.tom.TOM_OUTCOMES.")
        raise ImportFormatError(msg)
    outcome = TOM_OUTCOMES[code]
    # every seat element counted: a third seat (a second <player2>) was ignored, silently
    found: dict[str, list[Element]] = {"player": [], "player1": [], "player2": []}
    for child in m:  # (one pass over the match's children: three findall were 3 passes)
        if (seats_of := found.get(child.tag)) is not None:
            seats_of.append(child)
    counts = tuple(len(found[t]) for t in ("player", "player1", "player2"))
    if counts == (1, 0, 0):
        seats = [_seat(found["player"][0], source, where)]
    elif counts == (0, 1, 1):
        seats = [_seat(found["player1"][0], source, where),
                 _seat(found["player2"][0], source, where)]
    else:
        held = ", ".join(f"{n} <{t}>" for t, n in zip(found, counts, strict=True) if n)
        msg = (f"{source}, {where}: a match must have one <player> or one <player1> and one "
               f"<player2>; this one has {held or 'none'}. Hint: the file is damaged.")
        raise ImportFormatError(msg)
    if outcome.seats and len(seats) != outcome.seats:
        msg = (f"{source}, {where}, player {seats[0]}: outcome {code} ({outcome.name}) needs "
               f"{count(outcome.seats, 'seat')}, the match has {len(seats)}. "
               "Hint: the file is damaged.")
        raise ImportFormatError(msg)
    unknown = [s for s in seats if s not in known_players]
    if unknown:
        msg = (f"{source}, {where}: player {unknown[0]} is not listed in <players>. "
               "Hint: the file is damaged or truncated.")
        raise ImportFormatError(msg)
    table = _int(_text(m, "tablenumber"), what="table number", where=f"{source}, {where}")
    return {"round": number, "phase": phase, "code": code, "p1": seats[0],
            "p2": seats[1] if len(seats) > 1 else None, "table": table}


def _standing_type(pod: Element, source: str, *, cat: int) -> str:
    """The kind of a ``<standings><pod type>`` (:data:`TOM_STANDING_TYPES`); an unknown kind
    or none is an :class:`ImportFormatError` naming the file, the pod and its first player
    (any kind was stored as given, and none read as ``finished``: a list of another kind
    was ranked, or its disqualified players were not, without a word)."""
    code = pod.get("type")
    kind = (code or "").strip()
    if kind in TOM_STANDING_TYPES:
        return kind
    first = next((p.get("id") for p in pod.iterfind("player")), None)
    who = f", player {quoted(first.strip())}" if first and first.strip() else ""
    what = f"unknown standings type {code!r}" if code is not None else "no standings type"
    msg = (f"{source}, standings pod {cat}{who}: {what}, so whether its players finished "
           "or were disqualified is not known. Hint: TOM writes "
           f"{' or '.join(TOM_STANDING_TYPES)} (disqualified); correct the "
           "<standings><pod type=...> attribute, or re-export the file from TOM.")
    raise ImportFormatError(msg)


def _read_standings(root: Element, source: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    lists: set[tuple[int, str]] = set()
    listed: dict[str, str] = {}
    for pod in root.iterfind("standings/pod"):
        cat = _int(pod.get("category"), what="standings category", where=source)
        if cat is None or cat not in POD_LABELS:
            msg = (f"{source}: unknown standings category {pod.get('category')!r}. "
                   f"Hint: TOM uses {sorted(POD_LABELS)}.")
            raise ImportFormatError(msg)
        kind = _standing_type(pod, source, cat=cat)
        if (cat, kind) in lists:
            msg = (f"{source}: <standings> holds two '{kind}' lists of pod {cat} "
                   f"({POD_LABELS[cat]}), whose places would be read as one list. Hint: the "
                   "file is damaged or two saves were joined; keep one, or re-export it.")
            raise ImportFormatError(msg)
        lists.add((cat, kind))
        for p in pod.findall("player"):
            pid = (p.get("id") or "").strip()
            if not pid:
                msg = f"{source}: a standings entry has no id. Hint: the file is damaged."
                raise ImportFormatError(msg)
            entry = f"the '{kind}' list of pod {cat} (place {p.get('place')})"
            if pid in listed:
                # (a player finished or was disqualified, once: twice was two published
                # places, and a player in both lists was disqualified without a word)
                msg = (f"{source}, player {pid}: <standings> lists the player twice, in "
                       f"{listed[pid]} and in {entry}. Hint: the file is damaged; keep the "
                       "player's one entry, or re-export the file from TOM.")
                raise ImportFormatError(msg)
            listed[pid] = entry
            out.append({
                "player_id": pid,
                "division": POD_LABELS[cat],
                "place": _int(p.get("place"), what="place", where=f"{source}, player {pid}"),
                "standing": kind,
            })
    _check_places(out, source)
    return out


def _check_places(entries: Sequence[Mapping[str, Any]], source: str) -> None:
    """Each published place of a division is a number ≥ 1, given once (the ``finished``
    and ``dnf`` lists of a pod share one numbering): a place left out, 0, or two players
    at one place were kept as published without a word, and ``verify-ref`` compared the
    standings with an order the file does not give."""
    seen: dict[tuple[str, int], str] = {}
    for e in entries:
        place, pid, division = e["place"], e["player_id"], e["division"]
        if place is None or place < 1:
            what = "no place" if place is None else f"place {place}"
            msg = (f"{source}, player {pid}: <standings> gives the player {what} in the "
                   f"{division} division; places are numbered from 1. Hint: the file is "
                   "damaged; re-export it from TOM.")
            raise ImportFormatError(msg)
        other = seen.setdefault((division, place), pid)
        if other != pid:
            msg = (f"{source}, player {pid}: <standings> gives place {place} of the "
                   f"{division} division to players {other} and {pid}. Hint: the file is "
                   "damaged; one place per player — re-export it from TOM.")
            raise ImportFormatError(msg)


_MATCH_AT: Final = "tournament/pods/pod/rounds/round/matches/match"
#: Where the reader reads each element that holds pods, rounds, matches or their seats:
#: TOM's layout, every real file's (``SOURCES.md``; a ``<round>`` also says when a player
#: dropped). One of these names anywhere else is read nowhere (:func:`_check_layout`).
_READ_AT: Final[Mapping[str, tuple[str, ...]]] = {
    "pods": ("tournament/pods",),
    "pod": ("tournament/pods/pod", "tournament/standings/pod"),
    "rounds": ("tournament/pods/pod/rounds",),
    "round": ("tournament/pods/pod/rounds/round", "tournament/players/player/dropped/round"),
    "matches": ("tournament/pods/pod/rounds/round/matches",),
    "match": (_MATCH_AT,),
    "player1": (f"{_MATCH_AT}/player1",),
    "player2": (f"{_MATCH_AT}/player2",),
}
#: The elements read once where they are (the first of two would be the one read).
_READ_ONCE: Final[Mapping[str, tuple[str, ...]]] = {
    "tournament": ("data", "players", "pods"), "pod": ("rounds",),
    # (the values read from a player, a drop, a match, the event's data and a cut: a second
    # <byes>, <seed> or <tablenumber> was left unread without a word; bad data 131)
    "player": ("firstname", "lastname", "birthdate", "dropped", "late", "byes", "seed",
               "order"),
    "dropped": ("status", "round"), "match": ("tablenumber",),
    "data": ("name", "id", "startdate"), "categorycut": ("cut", "playercount")}


def _check_layout(root: Element, source: str) -> None:
    """Every element that holds pods, rounds, matches or their seats is where the reader
    reads it (:data:`_READ_AT`), and each container read once is there once
    (:data:`_READ_ONCE`): a ``<match>`` written straight into its ``<round>``, a second
    ``<rounds>`` or ``<pods>``, a ``<pod>`` inside a pod were left out of the results
    without a word (their rounds lost, ``validate`` clean). An
    :class:`ImportFormatError` names the element, where it is, the pod and round it is in,
    and where TOM writes it."""
    def where(pod: str | None, rnd: str | None) -> str:
        return "".join([f", pod {pod}" if pod else "", f", round {rnd}" if rnd else ""])

    stack: list[tuple[Element, str, str | None, str | None]] = [
        (root, root.tag, None, None)]
    while stack:
        el, path, pod, rnd = stack.pop()
        once = _READ_ONCE.get(el.tag, ())
        seen: set[str] = set()
        listed = _CHILDREN.get(el.tag)
        for child in el:
            tag = child.tag if isinstance(child.tag, str) else ""
            if listed is not None and tag != listed:
                continue  # (an unknown element of a list, reported by _unknown: a <matchx>)
            here = f"{path}/{tag}"
            c_pod = child.get("category") if tag == "pod" else pod
            c_rnd = child.get("number") if tag == "round" else rnd
            allowed = _READ_AT.get(tag)
            if allowed is not None and here not in allowed:
                msg = (f"{source}{where(c_pod, c_rnd)}: a <{tag}> at {here}, where a TOM save "
                       f"never puts one, so it would not be read (TOM writes it at "
                       f"{' or '.join(allowed)}). Hint: the file is damaged or was edited by "
                       "hand; move the element there, or re-export the file from TOM.")
                raise ImportFormatError(msg)
            if tag in once:
                if tag in seen:
                    owner = path.rsplit("/", 1)[-1]
                    if el.get("userid"):
                        owner += f' userid="{el.get("userid")}"'
                    msg = (f"{source}{where(pod, rnd)}: <{owner}> holds two "
                           f"<{tag}> elements, and only one would be read. Hint: the file is "
                           "damaged or two saves were joined; keep one, or re-export the "
                           "file from TOM.")
                    raise ImportFormatError(msg)
                seen.add(tag)
            if len(child):  # (a leaf holds nothing to check: not visited)
                stack.append((child, here, c_pod, c_rnd))


def parse_tom(data: bytes | str, *, event_key: str = "event", source: str | None = None
              ) -> TomEvents:
    """Parse the bytes of one TOM file (see :func:`read_tom` for the output).

    Parameters
    ----------
    data
        The file content.
    event_key
        The event id (the pod label is appended when the file has several pods).
    source
        Name used in error messages (defaults to ``event_key``).

    Examples
    --------
    >>> xml = '''<tournament type="2" stage="5" version="1.86" mode="LEAGUECHALLENGE">
    ... <players><player userid="1"><firstname>A</firstname></player>
    ... <player userid="2"><firstname>B</firstname></player></players>
    ... <pods><pod category="2"><rounds><round number="1" type="2" stage="8"><matches>
    ... <match outcome="1"><player1 userid="1"/><player2 userid="2"/></match>
    ... </matches></round></rounds></pod></pods></tournament>'''
    >>> ev = parse_tom(xml, event_key="demo")
    >>> ev.results.select("player_id", "opponent_id", "games_won", "games_lost").rows()
    [('1', '2', 1, 0), ('2', '1', 0, 1)]
    """
    out = _parse_tom(data, event_key=event_key, source=source)
    say_warnings(tom_warnings(out))
    return out


def _parse_tom(data: bytes | str, *, event_key: str, source: str | None) -> TomEvents:
    """:func:`parse_tom` without its warnings (:func:`read_tom` gives them once for all
    its files)."""
    return _build([_parsed(data, event_key=event_key, source=source)])


@dataclass(frozen=True)
class _TomFile:
    """What one TOM file holds, read from its XML into plain Python (no frame yet):
    :func:`_build` makes the frames of any number of files at once. The XML tree is not
    kept (a season of files held at once)."""

    source: str
    event_key: str
    players: list[dict[str, Any]]
    pods: list[dict[str, Any]]
    standings: list[dict[str, Any]]
    #: ``name, sanction_id, start_date, mode, tom_version, tournament_type, finalized``
    meta: dict[str, Any]
    #: each ``<finalsoptions><categorycut>``'s key, ``<cut>`` and ``<playercount>`` as
    #: written (read as numbers by :func:`_build`, after the checks of the matches, so
    #: that a file's first error is the one it always gave)
    cuts: list[tuple[str | None, str | None, str | None]]
    unknown: list[dict[str, Any]]


def _parsed(data: bytes | str, *, event_key: str, source: str | None) -> _TomFile:
    """One TOM file's :class:`_TomFile`: the XML parsed and every check of its elements
    made."""
    src = source or event_key
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    # UTF-16/32 with a byte-order mark: decoded by the mark, as a text whose declaration
    # (often still "UTF-8" after a re-save) the parser then ignores
    text = bom_decoded(raw, src)
    if text is None:
        text = _declared_decoded(raw, src)
    root = _parse_xml(raw if text is None else text, src)
    _check_layout(root, src)
    players = _read_players(root, src)
    known = {p["player_id"] for p in players}
    pods = _read_pods(root, src, known)
    standings = _read_standings(root, src)
    unknown = sorted({s["player_id"] for s in standings} - known)
    if unknown:
        msg = (f"{src}: <standings> lists player(s) {unknown[:5]} missing from <players>. "
               "Hint: the file is damaged.")
        raise ImportFormatError(msg)
    data_el = root.find("data")
    meta = {"name": _text(data_el, "name"), "sanction_id": _text(data_el, "id"),
            "start_date": _date(_text(data_el, "startdate")), "mode": root.get("mode"),
            "tom_version": root.get("version"), "tournament_type": root.get("type"),
            "finalized": root.get("stage") == _FINALIZED_STAGE}
    cuts = [(c.get("key"), _text(c, "cut"), _text(c, "playercount"))
            for c in root.iterfind("finalsoptions/categorycut")]
    return _TomFile(source=src, event_key=event_key, players=players, pods=pods,
                    standings=standings, meta=meta, cuts=cuts, unknown=_unknown(root, src))


#: The column that tells the files of one :func:`_build` apart while it builds (dropped
#: from what it returns; a key name of no contract column, for validation's ``keys``).
_FILE: Final = "tom_file_index"


def _build(files: Sequence[_TomFile]) -> TomEvents:
    """The frames of any number of parsed files at once: every join, group-by, sort and
    check keyed by the file (:data:`_FILE`), so the output is each file's, stacked in
    the given order (a frame of a few rows per file cost ≈ 10 ms a file, 58 small
    queries). A damaged file raises here
    (:func:`~swissframe.io._files.built_in_chunks` finds which)."""
    pod_event = [{p["category"]: (f"{f.event_key}:{POD_LABELS[p['category']]}"
                                  if len(f.pods) > 1 else f.event_key) for p in f.pods}
                 for f in files]
    # ---- matches → long rows (vectorised over all matches of the files)
    match_rows = [{**m, "event_id": pod_event[i][p["category"]], "category": p["category"],
                   _FILE: i}
                  for i, f in enumerate(files) for p in f.pods for m in p["matches"]]
    matches = pl.DataFrame(match_rows, schema={
        "round": pl.Int64, "phase": pl.String, "code": pl.Int64, "p1": pl.String,
        "p2": pl.String, "table": pl.Int64, "event_id": pl.String, "category": pl.Int64,
        _FILE: pl.Int64})
    outcome_tbl = pl.DataFrame([
        {"code": c, "tom_outcome": o.name, "unplayed": o.unplayed,
         "keeps": o.keeps_opponent, "pending": o.first is None, "double_loss": o.double_loss,
         "w1": (o.first or (0, 0, 0))[0], "l1": (o.first or (0, 0, 0))[1],
         "d1": (o.first or (0, 0, 0))[2], "w2": (o.second or (0, 0, 0))[0],
         "l2": (o.second or (0, 0, 0))[1], "d2": (o.second or (0, 0, 0))[2]}
        for c, o in TOM_OUTCOMES.items()], schema_overrides={"unplayed": pl.String})
    matches = matches.join(outcome_tbl, on="code", how="left")
    seat1 = matches.select(
        "event_id", "round", pl.col("p1").alias("player_id"),
        pl.when(pl.col("keeps")).then(pl.col("p2")).alias("opponent_id"),
        pl.col("w1").alias("games_won"), pl.col("l1").alias("games_lost"),
        pl.col("d1").alias("games_drawn"), "phase", "unplayed",
        pl.col("p2").alias("scheduled_opponent_id"), "tom_outcome", "table", "double_loss",
        "pending", _FILE)
    seat2 = matches.filter(pl.col("p2").is_not_null()).select(
        "event_id", "round", pl.col("p2").alias("player_id"),
        pl.when(pl.col("keeps")).then(pl.col("p1")).alias("opponent_id"),
        pl.col("w2").alias("games_won"), pl.col("l2").alias("games_lost"),
        pl.col("d2").alias("games_drawn"), "phase", "unplayed",
        pl.col("p1").alias("scheduled_opponent_id"), "tom_outcome", "table", "double_loss",
        "pending", _FILE)
    rows = pl.concat([seat1, seat2], how="vertical").sort(_FILE, "event_id", "round",
                                                          "player_id")
    pending = rows.filter(pl.col("pending")).select(
        "event_id", "round", "player_id", pl.col("scheduled_opponent_id").alias("opponent_id"),
        "phase", "table").cast(_PENDING_SCHEMA)  # type: ignore[arg-type]
    result_types: dict[str, pl.DataType] = {**_RESULT_SCHEMA, _FILE: pl.Int64()}
    results = rows.filter(~pl.col("pending")).drop("pending").cast(
        result_types)  # type: ignore[arg-type]
    results = _disqualified(results, [(i, s["player_id"]) for i, f in enumerate(files)
                                      for s in f.standings if s["standing"] == "dnf"])
    try:
        validate_results(results, keys=[_FILE]).collect()
    except SwissframeError as exc:
        src = files[0].source
        msg = (f"{src}: the matches do not form a consistent results table: {exc}")
        raise ImportFormatError(msg) from None

    # ---- players: event by pod (matches first, then roster), division
    membership = pl.DataFrame(
        [{_FILE: i, "category": p["category"], "player_id": pid, "prio": 0}
         for i, f in enumerate(files) for p in f.pods for m in p["matches"]
         for pid in (m["p1"], m["p2"]) if pid]
        + [{_FILE: i, "category": p["category"], "player_id": pid, "prio": 1}
           for i, f in enumerate(files) for p in f.pods for pid in p["roster"]],
        schema={_FILE: pl.Int64, "category": pl.Int64, "player_id": pl.String,
                "prio": pl.Int64})
    clash = (membership.filter(pl.col("prio") == 0).unique([_FILE, "category", "player_id"])
             .filter(pl.len().over(_FILE, "player_id") > 1).sort(_FILE, "player_id"))
    if clash.height:
        pid, i = clash["player_id"][0], clash[_FILE][0]
        msg = (f"{files[i].source}: player {pid} plays in more than one pod. "
               "Hint: the file is damaged.")
        raise ImportFormatError(msg)
    membership = (membership.sort(_FILE, "prio", "category")
                  .unique([_FILE, "player_id"], keep="first"))
    pod_tbl = pl.DataFrame(
        [{_FILE: i, "category": c, "event_id": e}
         for i, events in enumerate(pod_event) for c, e in events.items()],
        schema={_FILE: pl.Int64, "category": pl.Int64, "event_id": pl.String})
    std = pl.DataFrame([{**s, _FILE: i} for i, f in enumerate(files) for s in f.standings],
                       schema={"player_id": pl.String, "division": pl.String,
                               "place": pl.Int64, "standing": pl.String, _FILE: pl.Int64})
    swiss_counts = (results.filter(pl.col("phase") == "swiss")
                    .group_by(_FILE, "event_id", "player_id")
                    .agg(pl.len().cast(pl.Int64).alias("swiss_rounds_played")))
    std_div = (std.unique([_FILE, "player_id"], keep="first")
               .select(_FILE, "player_id", pl.col("division").alias("std_div")))
    pod_div = pl.col("pod_category").replace_strict(DIVISION_NAMES, default=None,
                                                    return_dtype=pl.String)
    all_players = pl.DataFrame(
        [{**p, _FILE: i} for i, f in enumerate(files) for p in f.players], schema={
            "player_id": pl.String, "name": pl.String, "dropped_after_round": pl.Int64,
            "late": pl.Boolean, "earned_byes": pl.Int64, "seed": pl.Int64,
            "order": pl.Int64, "birth_year": pl.Int64, _FILE: pl.Int64})
    # (each file's own values: its name for the players it seats nowhere, the rest for its
    # events' structure)
    meta = pl.DataFrame([{_FILE: i, "source": f.source, **f.meta} for i, f in enumerate(files)],
                        schema={_FILE: pl.Int64, "source": pl.String, "name": pl.String,
                                "sanction_id": pl.String, "start_date": pl.Date,
                                "mode": pl.String, "tom_version": pl.String,
                                "tournament_type": pl.String, "finalized": pl.Boolean})
    unseated = (all_players.join(membership, on=[_FILE, "player_id"], how="anti",
                                 maintain_order="left")
                .join(meta.select(_FILE, "source"), on=_FILE, how="left", maintain_order="left")
                .select("source", "player_id", "name"))
    players_df = (
        all_players
        .join(membership.select(_FILE, "player_id", pl.col("category").alias("pod_category")),
              on=[_FILE, "player_id"], how="inner")
        .join(pod_tbl.rename({"category": "pod_category"}), on=[_FILE, "pod_category"],
              how="left")
        .join(std_div, on=[_FILE, "player_id"], how="left")
        .with_columns(
            pl.coalesce(pod_div, pl.col("std_div")).alias("division"),
            pl.when(pod_div.is_not_null()).then(pl.lit("pod"))
            .when(pl.col("std_div").is_not_null()).then(pl.lit("standings"))
            .alias("division_source"))
        .join(swiss_counts, on=[_FILE, "event_id", "player_id"], how="left")
        .with_columns(pl.col("swiss_rounds_played").fill_null(0))
        .select(_FILE, *_PLAYER_SCHEMA)
        .cast(_PLAYER_SCHEMA)  # type: ignore[arg-type]
        .sort(_FILE, "event_id", "player_id")
    )
    _check_drop_rounds(players_df, [
        (i, pod_event[i][p["category"]], max(p["round_types"], default=0))
        for i, f in enumerate(files) for p in f.pods], files)
    _check_seeds(players_df, files)

    # ---- published standings
    published = (
        std.join(players_df.select(_FILE, "player_id", "event_id", "seed", "order"),
                 on=[_FILE, "player_id"], how="left")
        .with_columns(
            pl.when(pl.col("standing") == "finished")
            .then(pl.coalesce("seed", "place")).alias("swiss_place"))
        .sort(_FILE, "event_id", "division", pl.col("standing") != "finished", "place",
              nulls_last=True)
        .select(list(_PUBLISHED_SCHEMA))
        .cast(_PUBLISHED_SCHEMA)  # type: ignore[arg-type]
    )

    # ---- structure: one row per (event, division)
    cut_tbl = pl.DataFrame(
        [{_FILE: i, "division": DIVISION_NAMES.get(k, POD_LABELS.get(k))
          if k is not None else None, "cut": cut, "published_player_count": listed}
         for i, f in enumerate(files) for k, (cut, listed) in _cuts(f).items()],
        schema={_FILE: pl.Int64, "division": pl.String, "cut": pl.Int64,
                "published_player_count": pl.Int64})
    round_tbl = pl.DataFrame(
        [{_FILE: i, "event_id": pod_event[i][p["category"]], "phase": ph}
         for i, f in enumerate(files) for p in f.pods for ph in p["round_types"].values()],
        schema={_FILE: pl.Int64, "event_id": pl.String, "phase": pl.String})
    round_counts = round_tbl.group_by(_FILE, "event_id").agg(
        (pl.col("phase") == "swiss").sum().cast(pl.Int64).alias("swiss_rounds"),
        (pl.col("phase") == "playoff").sum().cast(pl.Int64).alias("topcut_rounds"))
    div_counts = players_df.group_by(_FILE, "event_id", "pod_category", "division").agg(
        pl.len().alias("players"))
    structure = (
        pod_tbl.rename({"category": "pod_category"})
        .join(div_counts.drop("pod_category"), on=[_FILE, "event_id"], how="left")
        .join(round_counts, on=[_FILE, "event_id"], how="left")
        .join(cut_tbl, on=[_FILE, "division"], how="left")
        .join(meta, on=_FILE, how="left")
        .with_columns(
            pl.col("pod_category").replace_strict(POD_LABELS, return_dtype=pl.String)
            .alias("pod_label"),
            pl.col("players").fill_null(0),
            pl.col("swiss_rounds").fill_null(0),
            pl.col("topcut_rounds").fill_null(0))
        .sort(_FILE, "event_id", "division", nulls_last=True)
        .select(list(_STRUCTURE_SCHEMA))
        .cast(_STRUCTURE_SCHEMA)  # type: ignore[arg-type]
    )
    empty_rounds = pl.DataFrame(
        [{"source": f.source, "event_id": pod_event[i][p["category"]], "round": n}
         for i, f in enumerate(files) for p in f.pods for n in p["empty_rounds"]],
        schema=_EMPTY_ROUNDS_SCHEMA)
    return TomEvents(results=results.drop(_FILE), players=players_df.drop(_FILE),
                     structure=structure, published=published, pending=pending,
                     unseated=unseated,
                     unknown=pl.DataFrame([u for f in files for u in f.unknown],
                                          schema=_UNKNOWN_SCHEMA),
                     empty_rounds=empty_rounds)


def _cuts(f: _TomFile) -> dict[int | None, tuple[int | None, int | None]]:
    """A file's ``<categorycut>``s by category key: (cut, TOM's player count)."""
    src = f.source
    return {_int(k, what="categorycut key", where=src): (
        _int(cut, what="<cut>", where=src), _int(listed, what="<playercount>", where=src))
        for k, cut, listed in f.cuts}


def _check_drop_rounds(players: pl.DataFrame, last_round: Sequence[tuple[int, str, int]],
                       files: Sequence[_TomFile]) -> None:
    """A player's ``<dropped>`` round is at most one past the last round of their pod (bad
    data 140). TOM records the round in progress when a player drops: the last round they
    were in, or the next one when it is not yet paired — a no-show dropped before round 1
    is paired has round 1 and no match (every real file), and a save in progress may hold
    a drop for the round about to be paired. A round beyond that is in no file TOM writes
    (it was read as the player's drop round without a word); an
    :class:`ImportFormatError` naming the file, the player, both rounds and the pod.
    ``last_round``: each pod's (file, event, last round)."""
    last = pl.DataFrame(last_round, schema={_FILE: pl.Int64, "event_id": pl.String,
                                            "_last": pl.Int64}, orient="row")
    past = (players.join(last, on=[_FILE, "event_id"], how="inner")
            .filter(pl.col("dropped_after_round") > pl.col("_last") + 1))
    if past.height:
        r = past.row(0, named=True)
        n = past.filter(pl.col(_FILE) == r[_FILE]).height
        more = f" ({n} players like this)" if n > 1 else ""
        last_said = (f"whose last round is {r['_last']}" if r["_last"]
                     else "which has no round yet")
        msg = (f"{files[r[_FILE]].source}, player {r['player_id']}: <dropped> gives round "
               f"{r['dropped_after_round']}, past the rounds of the player's pod "
               f"({POD_LABELS.get(r['pod_category'], r['pod_category'])}), {last_said}: a "
               "drop is recorded in the round in progress, or the next one before it is "
               f"paired{more}. Hint: the file is damaged; correct the <round> of the "
               "player's <dropped>, or re-export the file from TOM.")
        raise ImportFormatError(msg)


def _check_seeds(players: pl.DataFrame, files: Sequence[_TomFile]) -> None:
    """Each ``<seed>`` of a division is given once (bad data 147): the seed is a top-cut
    player's Swiss place (``published.swiss_place``, what ``verify-ref`` compares the
    standings with), and two players at one seed were an order the file does not give,
    kept without a word, as two players at one published place were (class 118)."""
    twice = (players.filter(pl.col("seed").is_not_null())
             .filter(pl.len().over(_FILE, "event_id", "division", "seed") > 1)
             .sort(_FILE, "event_id", "division", "seed", "player_id"))
    if twice.height:
        a, b = twice.row(0, named=True), twice.row(1, named=True)
        msg = (f"{files[a[_FILE]].source}, player {b['player_id']}: <seed> {a['seed']} of "
               f"the {a['division'] or '?'} division is given to players {a['player_id']} "
               f"and {b['player_id']}; a seed is a Swiss place, one per player. Hint: the "
               "file is damaged; re-export it from TOM.")
        raise ImportFormatError(msg)


def _disqualified(results: pl.DataFrame, dnf: Sequence[tuple[int, str]]) -> pl.DataFrame:
    """``results`` with the contract's ``disqualified`` flag when TOM's ``<standings>``
    list a player under ``<pod type="dnf">`` (disqualified: TRH §5.7.3), set on that
    player's last Swiss row (TOM does not record the round of a disqualification; the
    player is disqualified from that round on). Unchanged when no player is. ``dnf``:
    each such player's (file, player id)."""
    if not dnf:
        return results
    listed = pl.DataFrame(dnf, schema={_FILE: pl.Int64, "player_id": pl.String},
                          orient="row").unique().with_columns(_dnf=pl.lit(value=True))
    swiss = pl.col("phase") == "swiss"
    last = pl.col("round").filter(swiss).max().over(_FILE, "event_id", "player_id")
    flag = pl.col("_dnf").fill_null(value=False) & swiss & (pl.col("round") == last)
    return (results.join(listed, on=[_FILE, "player_id"], how="left", maintain_order="left")
            .with_columns(flag.fill_null(value=False).alias(DISQUALIFIED)).drop("_dnf"))


def _unknown(root: Element, source: str) -> list[dict[str, Any]]:
    """Unknown children of the containers in :data:`_CHILDREN` (e.g. a ``<matchx>``):
    rows of ``unknown``."""
    return [{"source": source, "parent": parent.tag, "tag": child.tag}
            for parent in root.iter() if parent.tag in _CHILDREN
            for child in parent if child.tag != _CHILDREN[parent.tag]]


def read_tom(paths: str | Path | Iterable[str | Path], *,
             event_ids: Sequence[str] | None = None, max_bytes: int | None = None
             ) -> TomEvents:
    """Read one or many TOM files (``.tdf`` / ``.xml``) into a :class:`TomEvents`.

    Parameters
    ----------
    paths
        A path or an iterable of paths. Event ids are derived from the file names (see the
        module docstring); a file with several pods gives one event per pod.
    event_ids
        File keys, one per path, used instead of the derived ones.
    max_bytes
        Largest file read (see :mod:`swissframe.io._files`; default 512 MiB).

    Returns
    -------
    TomEvents
        ``results`` (validated long table), ``players``, ``structure``, ``published``,
        ``pending``.

    Raises
    ------
    ImportFormatError
        Unreadable, truncated or non-TOM file, unsafe XML (DTD / entities), unknown
        outcome code, round type or pod category, inconsistent matches. The message names the file,
        pod, round and player.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "night.tdf").write_text('''<tournament type="2" stage="5">
    ... <players><player userid="7"/><player userid="8"/><player userid="9"/></players>
    ... <pods><pod category="2"><rounds><round number="1" type="2"><matches>
    ... <match outcome="3"><player1 userid="7"/><player2 userid="8"/></match>
    ... <match outcome="5"><player userid="9"/></match>
    ... </matches></round></rounds></pod></pods></tournament>''')
    >>> ev = read_tom([d / "night.tdf"])
    >>> ev.results.select("event_id", "player_id", "games_won", "games_drawn", "unplayed").rows()
    [('night', '7', 0, 1, None), ('night', '8', 0, 1, None), ('night', '9', 1, 0, 'pairing_bye')]
    """
    out = _read_tom(paths, event_ids=event_ids, max_bytes=max_bytes)
    say_warnings(tom_warnings(out))
    return out


def _read_tom(paths: str | Path | Iterable[str | Path], *, event_ids: Sequence[str] | None,
              max_bytes: int | None) -> TomEvents:
    """:func:`read_tom` without its warnings (``swissframe.read`` lists some as import
    notes, and says the others itself: :func:`tom_warnings`).

    Each file is parsed to plain Python, and the parsed files are built into frames many
    at a time (:func:`~swissframe.io._files.built_in_chunks`, :func:`_build`); the first
    damaged file in the given order is the one named."""
    return built_in_chunks(
        paths, event_ids=event_ids, max_bytes=max_bytes, parse=_parsed,
        rows=lambda f: len(f.players) + sum(len(p["matches"]) for p in f.pods),
        build=_build, stack=_stacked)


def _stacked(parts: list[TomEvents]) -> TomEvents:
    """The frames of several builds, stacked in order (a build without a disqualified
    player has no flag column: False there)."""
    results = pl.concat([p.results for p in parts], how="diagonal")
    if DISQUALIFIED in results.columns:
        results = results.with_columns(pl.col(DISQUALIFIED).fill_null(value=False))
    return TomEvents(results=results, **{
        f.name: pl.concat([getattr(p, f.name) for p in parts], how="vertical")
        for f in fields(TomEvents) if f.name != "results"})


def tom_warnings(events: TomEvents) -> dict[str, str]:
    """What :func:`read_tom` and :func:`parse_tom` warn of, by kind, one line per kind
    however many files say it: ``unknown_element`` (elements the format does not define,
    ignored), ``empty_round`` (a round listed with no match) and ``no_pod`` (a file
    listing players but no pod — saved before its first pairing —, which holds no event:
    its players would vanish without a word)."""
    out = {}
    unknown = events.unknown
    if unknown.height:
        r = unknown.row(0, named=True)
        out["unknown_element"] = (
            f"{r['source']}: {count(unknown.height, 'unknown element')} ignored, e.g. <{r['tag']}> "
            f"in <{r['parent']}> (listed in TomEvents.unknown). Hint: check that the file "
            "is a TOM save; its matches may be incomplete.")
    empty = events.empty_rounds
    if empty.height:
        r = empty.row(0, named=True)
        out["empty_round"] = (
            f"{r['source']}: {count(empty.height, 'round')} listed with no match, e.g. round "
            f"{r['round']} of {r['event_id']!r}: no result of such a round is in the file "
            "(a round not yet paired, or lost); the standings are those of the rounds it "
            "holds (TomEvents.empty_rounds). Hint: save the file again once the round is "
            "paired.")
    podless = (events.unseated.join(events.structure.select("source").unique(), on="source",
                                    how="anti")
               .group_by("source", maintain_order=True).len())
    if podless.height:
        src, n = podless.row(0)
        out["no_pod"] = (several_files(podless.height,
                                       "list players but no pod (TomEvents.unseated)")
                         + f"{src}: {count(n, 'player')} listed but no pod: no match to read (a "
                         "tournament saved before its first pairing?). Hint: save the file "
                         "again once round 1 is paired.")
    return out
