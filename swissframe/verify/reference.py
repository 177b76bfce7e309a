"""Verify TOM and TRF files against the reference software's published values.

Two checks, both returning one long table (one row per compared value):

:func:`verify_tom`
    Pokémon TOM files: the recomputed Swiss order, per age division (combined pods are
    paired together, ranked per division), against TOM's published placings (top-cut
    players by ``<seed>``, everyone else by ``<standings>`` place). TOM publishes no
    OppWin% values, only the order, so the comparison is by position. How an earned bye
    (outcome 4) enters OppWin% is unresolved on the evidence (SOURCES.md), so each event is
    checked under every requested reading (``earned_bye``).
:func:`verify_trf`
    Chess TRF files: every tie-break of a reference table (FIDE TEC's TieBreakServer output,
    :func:`read_tiebreakserver_table`; Held's published answers, :func:`read_held_values`)
    and the TRF's declared points. The FIDE rule set (C.07 Art. 16 before / from
    1 March 2026) is chosen per event from the ``042`` start date as TieBreakServer does,
    or from the reference's own date, and can be overridden.

Every tie-break value is the engine's (:func:`swissframe.standings.standings` with the
``fide`` rulesets and these registered criteria, usable in any
:class:`~swissframe.rules.Ruleset`; ``method="engine"``): PTS, BH with Cut-1/2 and
Median-1/2, SB and ESB (for individual events SB with the secondary score, which is the
same game score) with Cut-1/2 and Median-1/2 (``sb`` with ``cut``/``median``: the
lowest-*scoring* opponent's contribution goes, a voluntarily unplayed round's first, as
TieBreakServer cuts), PS and PS/C1, WIN, WON, BPG, BWG, VUR, NUM, FB (``fore_buchholz``),
ABH (the adjusted score that Buchholz credits, ``abh``), AOB (``aob``; rounded half-up to
0.01 as TieBreakServer prints it) and KS (Koya, ``koya``). Derived here
(``method="derived"``): COP/CSQ (colour preference and sequence), DE where a player is
untied on the preceding criteria, and the reference's rank. Rating-based values (ARO,
TPR, PTP, APRO) are not implemented (``status="not_implemented"``).

Values compare exactly after rounding the computed value half-up to the decimals the
reference prints.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from datetime import date
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Final, Literal

import polars as pl

from swissframe import rules as _rules
from swissframe._collect import collect, scoped
from swissframe.engine._chess import inferred_absences
from swissframe.engine._exact import to_decimals
from swissframe.engine.standings import standings
from swissframe.errors import DataError, ImportFormatError, check_events, check_names
from swissframe.io._files import read_text, shown
from swissframe.rules._ruleset import Criterion, Ruleset, buchholz
from swissframe.schema import as_frame, check_output, swiss_part, whole_text

if TYPE_CHECKING:  # (the readers load on first use: swissframe/__init__.py)
    from swissframe.io.tom import TomEvents
    from swissframe.io.trf import TrfEvents

__all__ = [
    "EARNED_BYE_READINGS",
    "FIDE_2026_START",
    "NOT_IMPLEMENTED",
    "REFERENCE_COLUMNS",
    "TOM_COLUMNS",
    "TRF_COLUMNS",
    "fide_tiebreaks",
    "read_held_values",
    "read_tiebreakserver_table",
    "rule_set_for_date",
    "summarize_reference",
    "verify_tom",
    "verify_trf",
]

# ---------------------------------------------------------------------------- TOM

#: Earned-bye readings: label → ``Ruleset.earned_bye_opponent``. ``"bye"`` leaves the
#: earned bye out of OppWin% like a random bye; ``"3/4"`` and ``"own"`` count it as an
#: opponent with win % 75% / the recipient's own win % (SOURCES.md, Pokémon section).
EARNED_BYE_READINGS: Final[Mapping[str, Fraction | Literal["own"] | None]] = {
    "bye": None,
    "3/4": Fraction(3, 4),
    "own": "own",
}

_READING_SETS: Final[Mapping[str, tuple[str, ...]]] = {
    "both": ("bye", "3/4"),
    "all": ("bye", "3/4", "own"),
}

#: Columns of :func:`verify_tom`'s table.
TOM_COLUMNS: Final = (
    "event_id", "division", "player_id", "reading", "expected_position",
    "computed_position", "match", "status", "rank", "match_points", "omwp", "oomwp",
    "dropped", "has_earned_bye", "readings_agree",
)


def _readings(earned_bye: str | Sequence[str]) -> tuple[str, ...]:
    names = (_READING_SETS.get(earned_bye, (earned_bye,)) if isinstance(earned_bye, str)
             else tuple(earned_bye))
    bad = [n for n in names if n not in EARNED_BYE_READINGS]
    if bad or not names:
        msg = (f"unknown earned-bye reading(s) {bad or names!r}. Hint: use 'both', 'all' or "
               f"any of {sorted(EARNED_BYE_READINGS)}.")
        raise DataError(msg)
    return tuple(dict.fromkeys(names))


@scoped
def verify_tom(ev: TomEvents, *, rules: str | Ruleset = "pokemon",
               earned_bye: str | Sequence[str] = "both") -> pl.DataFrame:
    """Recompute each division's Swiss order and compare it with TOM's published placings.

    Parameters
    ----------
    ev
        Events from :func:`swissframe.io.tom.read_tom`.
    rules
        The Pokémon ruleset (name or value); its ``earned_bye_opponent`` is replaced per
        reading.
    earned_bye
        ``"both"`` (default: ``"bye"`` and ``"3/4"``), ``"all"`` (also ``"own"``), one
        reading name, or a sequence of names from :data:`EARNED_BYE_READINGS`.

    Returns
    -------
    polars.DataFrame
        One row per (event, division, player, reading): ``expected_position`` (position of
        TOM's Swiss order within the division: top-cut players by seed, then places),
        ``computed_position`` (position in the recomputed order; null for a no-show, who
        has no result rows), ``match`` and ``status``: ``"match"``, ``"differs"``,
        ``"no_show"`` (no rounds played: matched when TOM also places them after everyone
        who played, since no rule orders no-shows among themselves),
        ``"disqualified"`` (TOM lists them under ``dnf`` and the recomputed standings
        give them no rank, as :func:`~swissframe.io.tom.read_tom` flags them: a match;
        ranked, they are ``"differs"``) or ``"not_published"`` (in the rounds but not in
        TOM's standings; ``match`` null).
        ``has_earned_bye`` marks events with an outcome-4 bye; ``readings_agree`` whether
        every reading gives the same order for the division. Columns:
        :data:`TOM_COLUMNS`.

    Examples
    --------
    >>> from swissframe.io.tom import parse_tom
    >>> xml = '''<tournament type="2" stage="5" version="1.86" mode="LEAGUECHALLENGE">
    ... <data><name>Demo</name><id>1</id><startdate>10/04/2026</startdate></data>
    ... <players><player userid="1"><firstname>A</firstname><lastname>X</lastname></player>
    ... <player userid="2"><firstname>B</firstname><lastname>X</lastname></player></players>
    ... <pods><pod category="2" stage="5"><subgroups><subgroup><players>
    ... <player userid="1"/><player userid="2"/></players></subgroup></subgroups>
    ... <rounds><round number="1" type="2" stage="8"><matches>
    ... <match outcome="1"><player1 userid="1"/><player2 userid="2"/></match>
    ... </matches></round></rounds></pod></pods>
    ... <standings><pod category="2" type="finished"><player id="1" place="1"/>
    ... <player id="2" place="2"/></pod></standings></tournament>'''
    >>> t = verify_tom(parse_tom(xml, event_key="demo"), earned_bye="bye")
    >>> t.select("player_id", "expected_position", "computed_position", "status").rows()
    [('1', 1, 1, 'match'), ('2', 2, 2, 'match')]
    """
    from swissframe.io.tom import TomEvents

    check_events(ev, (TomEvents,), call="verify_tom",
                 hint="ev = sf.read_tom(path); sf.verify_tom(ev)")
    base = _rules.get(rules)
    names = _readings(earned_bye)
    swiss = ev.results.filter(pl.col("phase") == "swiss")
    division = ev.players.select("event_id", "player_id", "division")
    earned = (swiss.group_by("event_id")
              .agg((pl.col("unplayed") == "full_bye").any().alias("has_earned_bye")))
    pub = (ev.published.filter(pl.col("swiss_place").is_not_null())
           .with_columns(expected_position=pl.col("swiss_place").rank("ordinal")
                         .over("event_id", "division").cast(pl.Int64))
           .select("event_id", "division", "player_id", "expected_position"))
    parts = []
    for name in names:  # a handful of readings, each over every event at once
        rs = dataclasses.replace(base, name=f"{base.name}/earned-bye={name}",
                                 earned_bye_opponent=EARNED_BYE_READINGS[name])
        st = (standings(swiss, rs).join(division, on=["event_id", "player_id"], how="left")
              .select("event_id", "division", "player_id", "rank", "match_points", "omwp",
                      "oomwp", "dropped")
              .with_columns(pl.col("match_points").cast(pl.Float64)))
        st = st.with_columns(computed_position=pl.col("rank").rank("ordinal")
                             .over("event_id", "division").cast(pl.Int64))
        parts.append(st.with_columns(reading=pl.lit(name)))
    got = pl.concat(parts)
    # (the players ranked: a disqualified player has rows but no rank)
    played = got.group_by("event_id", "division", "reading").agg(
        pl.col("rank").is_not_null().sum().cast(pl.Int64).alias("_played"))
    readings = pl.DataFrame({"reading": list(names)})
    expected = pub.join(readings, how="cross")
    # TOM's dnf players (disqualified, TRH §5.7.3): removed from its standings
    dnf = (ev.published.filter(pl.col("standing") == "dnf")
           .select("event_id", "division", "player_id", pl.lit(value=True).alias("_dnf"))
           .unique())
    table = (expected.join(got, on=["event_id", "division", "player_id", "reading"],
                           how="full", coalesce=True)
             .join(played, on=["event_id", "division", "reading"], how="left")
             .join(dnf, on=["event_id", "division", "player_id"], how="left", nulls_equal=True)
             .with_columns(pl.col("_played").fill_null(0), pl.col("_dnf").fill_null(value=False)))
    no_show = pl.col("computed_position").is_null()
    table = table.with_columns(
        status=pl.when(pl.col("_dnf") & no_show).then(pl.lit("disqualified"))
        .when(pl.col("_dnf")).then(pl.lit("differs"))
        .when(pl.col("expected_position").is_null()).then(pl.lit("not_published"))
        .when(no_show).then(pl.lit("no_show"))
        .when(pl.col("computed_position") == pl.col("expected_position")).then(pl.lit("match"))
        .otherwise(pl.lit("differs")),
        match=pl.when(pl.col("_dnf")).then(no_show)
        .when(pl.col("expected_position").is_null()).then(None)
        .when(no_show).then(pl.col("expected_position") > pl.col("_played"))
        .otherwise(pl.col("computed_position") == pl.col("expected_position")),
    )
    table = table.with_columns(pl.when((pl.col("status") == "no_show") & ~pl.col("match"))
                               .then(pl.lit("differs")).otherwise(pl.col("status"))
                               .alias("status"))
    order = (table.sort("computed_position", nulls_last=True)
             .group_by("event_id", "division", "reading")
             .agg(pl.col("player_id").alias("_order")))
    agree = order.group_by("event_id", "division").agg(
        (pl.col("_order").n_unique() == 1).alias("readings_agree"))
    table = (table.join(agree, on=["event_id", "division"], how="left")
             .join(earned, on="event_id", how="left")
             .with_columns(pl.col("has_earned_bye").fill_null(value=False)))
    reading_order = {n: i for i, n in enumerate(names)}
    return (table.with_columns(_r=pl.col("reading").replace_strict(reading_order,
                                                                  return_dtype=pl.Int64))
            .sort("event_id", "division", "_r", "expected_position", "computed_position",
                  nulls_last=True)
            .select(TOM_COLUMNS))


# ---------------------------------------------------------------------------- TRF

#: First day of FIDE C.07 as revised by the FIDE Council on 2 Feb 2026 (Art. 16.4 caps).
FIDE_2026_START: Final = date(2026, 3, 1)

#: Reference tie-breaks this module does not compute (rating-based; the TieBreakServer
#: tables print ``-0`` for them because the reference treats the players as unrated).
NOT_IMPLEMENTED: Final = frozenset({"ARO", "ARO/C1", "TPR", "PTP", "APRO", "APPO", "RTNG"})

#: Columns of a reference table (:func:`read_tiebreakserver_table`, :func:`read_held_values`).
REFERENCE_COLUMNS: Final = ("event_id", "player_id", "reference", "tiebreak", "position",
                            "expected", "start_date", "rule_set")

#: Columns of :func:`verify_trf`'s table.
TRF_COLUMNS: Final = ("event_id", "player_id", "reference", "tiebreak", "rule_set",
                      "rule_source", "expected", "computed", "match", "status", "method")

_REF_SCHEMA: Final[dict[str, pl.DataType]] = {
    "event_id": pl.String(), "player_id": pl.String(), "reference": pl.String(),
    "tiebreak": pl.String(), "position": pl.Int64(), "expected": pl.String(),
    "start_date": pl.Date(), "rule_set": pl.String(),
}

_ENGINE_COLUMNS: Final = {
    "PTS": "match_points", "BH": "bh", "BH/C1": "bh_c1", "BH/C2": "bh_c2", "BH/M1": "bh_m1",
    "BH/M2": "bh_m2", "SB": "sb", "PS": "ps", "WIN": "win", "WON": "won", "BPG": "bpg",
    "BWG": "bwg", "FB": "fb", "ABH": "abh", "KS": "ks", "AOB": "aob", "ESB": "sb",
    "SB/C1": "sb_c1", "SB/C2": "sb_c2", "SB/M1": "sb_m1", "SB/M2": "sb_m2", "VUR": "vur",
    "NUM": "num", "PS/C1": "ps_c1",
}

#: Criteria TieBreakServer's ``.all`` listing puts before DE (DE is derived only for
#: players untied on these).
DE_AFTER: Final = ("PTS", "WIN", "WON", "BWG", "BPG", "VUR", "NUM")

_RULE_SETS: Final = ("fide-2023", "fide-2026")


def rule_set_for_date(start: date | None) -> str:
    """The FIDE tie-break rule set TieBreakServer applies for an event starting on ``start``.

    Before 1 March 2026: ``"fide-2023"`` (C.07 2023/2024 text); from then on, or with no
    date (the reference then uses today's date): ``"fide-2026"``.

    Examples
    --------
    >>> rule_set_for_date(date(2026, 2, 28)), rule_set_for_date(date(2026, 3, 1))
    ('fide-2023', 'fide-2026')
    """
    return "fide-2023" if start is not None and start < FIDE_2026_START else "fide-2026"


def _engine_rules(rule_set: str) -> Ruleset:
    base = _rules.FIDE if rule_set == "fide-2023" else _rules.FIDE_2026
    extra = (buchholz(), buchholz(cut=1), buchholz(cut=2), buchholz(median=1),
             buchholz(median=2), Criterion("sb"), Criterion("ps"), Criterion("win"),
             Criterion("won"), Criterion("bpg"), Criterion("bwg"),
             Criterion("fb", function="fore_buchholz"), Criterion("abh"),
             Criterion("ks", function="koya"), Criterion("aob"),
             *[Criterion(f"sb_{m}{n}", function="sb",
                         params=(("cut", n if m == "c" else 0), ("median", n if m == "m" else 0)))
               for m in ("c", "m") for n in (1, 2)],
             Criterion("vur"), Criterion("num"), Criterion("ps_c1", function="ps",
                                                           params=(("cut", 1),)))
    return dataclasses.replace(base, name=f"{base.name}/verify-reference", columns=extra)


def _prepared(results: pl.DataFrame) -> pl.DataFrame:
    """Swiss rows with the flags the colour values need (``_played``, ``_color``)."""
    names = results.columns
    kind = (pl.col("unplayed") if "unplayed" in names else pl.lit(None, dtype=pl.String))
    color = pl.col("color") if "color" in names else pl.lit(None, dtype=pl.String)
    swiss = swiss_part(results)
    return (swiss
            .select("event_id", "player_id", "round", color.alias("_color"),
                    _played=kind.is_null() & pl.col("opponent_id").is_not_null())
            .sort("event_id", "player_id", "round"))


def fide_tiebreaks(results: pl.DataFrame, rule_set: str = "fide-2023") -> pl.DataFrame:
    """Every tie-break this module can produce, per player, in TieBreakServer's codes.

    Parameters
    ----------
    results
        A chess results table (e.g. :attr:`TrfEvents.results`), with ``unplayed``,
        ``color`` and ``scheduled_opponent_id`` when available.
    rule_set
        ``"fide-2023"`` (C.07 before 1 March 2026) or ``"fide-2026"``.

    Returns
    -------
    polars.DataFrame
        Long form: ``event_id, player_id, tiebreak, computed`` (the value as text;
        numbers print without trailing zeros), ``value`` (Float64, null for COP/CSQ) and
        ``method`` (``"engine"`` or ``"derived"``).

    Examples
    --------
    >>> import swissframe as sf
    >>> m = pl.DataFrame({"round": [1, 2], "player_a": ["A", "A"], "player_b": ["B", "C"],
    ...     "games_a": [1, 0], "games_b": [0, 0], "games_drawn": [0, 1]})
    >>> t = fide_tiebreaks(sf.from_matches(m))
    >>> t.filter(pl.col("player_id") == "A", pl.col("tiebreak").is_in(["BH", "KS", "NUM"])
    ...          ).select("tiebreak", "computed", "method").rows()
    [('BH', '1', 'engine'), ('KS', '0', 'engine'), ('NUM', '2', 'engine')]
    """
    if rule_set not in _RULE_SETS:
        msg = f"unknown FIDE rule set {rule_set!r}. Hint: use one of {list(_RULE_SETS)}."
        raise DataError(msg)
    pk = ["event_id", "player_id"]
    # a player with no row in a round is absent in it (Art. 16), for the derived values too
    ev = ["event_id"] if "event_id" in results.columns else []
    results = pl.concat([results, inferred_absences(results, ev).pipe(collect)],
                        how="diagonal_relaxed")
    engine_input = results
    if "scheduled_opponent_id" in results.columns:
        # the engine holds ids as categoricals but not this column; joining the two
        # panics in Polars 2.1 on some tables (reported to the lead): match the dtypes
        engine_input = results.with_columns(pl.col("scheduled_opponent_id")
                                            .cast(pl.Categorical))
    engine = standings(engine_input, _engine_rules(rule_set))
    # AOB as TieBreakServer computes it: the mean rounded half-up to 0.01
    aob = to_decimals(pl.col("aob"), 2)
    eng_long = (engine.with_columns(aob=aob)
                .select(*pk, *[pl.col(c).cast(pl.Float64).alias(k)
                               for k, c in _ENGINE_COLUMNS.items()])
                .unpivot(index=pk, variable_name="tiebreak", value_name="value")
                .with_columns(method=pl.lit("engine")))
    rows = _prepared(results)
    num = eng_long.drop("method")
    # DE: 0 for a player untied on the criteria TieBreakServer lists before it
    wide = num.filter(pl.col("tiebreak").is_in(list(DE_AFTER))).pivot(
        "tiebreak", index=pk, values="value")
    de = wide.with_columns(
        _size=pl.len().over("event_id", *[c for c in DE_AFTER if c in wide.columns])
    ).select(*pk, pl.when(pl.col("_size") == 1).then(0.0).otherwise(None).alias("value"),
             tiebreak=pl.lit("DE"))
    num = pl.concat([num, de.select(*pk, "tiebreak", "value")])
    method = pl.when(pl.col("tiebreak").is_in(list(_ENGINE_COLUMNS))).then(pl.lit("engine")
                                                                          ).otherwise(pl.lit("derived"))
    num = num.with_columns(computed=_fmt(pl.col("value")), method=method)
    colours = _colours(rows)
    out = pl.concat([num.select(*pk, "tiebreak", "computed", "value", "method"), colours])
    return out.sort("event_id", "player_id", "tiebreak")


def _fmt(value: pl.Expr) -> pl.Expr:
    """A float as short text: ``2.0`` → ``'2'``, ``0.5`` → ``'0.5'``."""
    rounded = value.round(6)
    return (pl.when(rounded == rounded.floor()).then(rounded.cast(pl.Int64).cast(pl.String))
            .otherwise(rounded.cast(pl.String)))


def _colours(rows: pl.DataFrame) -> pl.DataFrame:
    """CSQ (colours of the games played over the board) and COP (TieBreakServer's colour
    preference: the colour owed and 0/1/2 for mild/strong/absolute)."""
    pk = ["event_id", "player_id"]
    played = rows.filter(pl.col("_played") & pl.col("_color").is_not_null()).sort(*pk, "round")
    seq = played.group_by(pk).agg(
        pl.col("_color").str.join("").alias("CSQ"),
        ((pl.col("_color") == "w").sum().cast(pl.Int64)
         - (pl.col("_color") == "b").sum().cast(pl.Int64)).alias("_cod"),
        pl.col("_color").last().alias("_last"),
        pl.col("_color").reverse().get(1, null_on_oob=True).alias("_prev"),
    )
    other = pl.when(pl.col("_last") == "w").then(pl.lit("b")).otherwise(pl.lit("w"))
    cod = pl.col("_cod")
    letter = (pl.when(cod == 0).then(other)
              .when(cod.is_between(1, 4)).then(pl.lit("b"))
              .when(cod.is_between(-4, -1)).then(pl.lit("w"))
              .when(cod >= 5).then(pl.lit("w"))
              .when(cod.is_between(-8, -5)).then(pl.lit("b"))
              .otherwise(other))
    strength = (pl.when(pl.col("_prev") == pl.col("_last")).then(pl.lit("2"))
                .otherwise(cod.abs().cast(pl.String)))
    everyone = rows.select(pk).unique()
    seq = everyone.join(seq.with_columns(COP=letter + strength), on=pk, how="left")
    return (seq.select(*pk, pl.col("COP").fill_null(""), pl.col("CSQ").fill_null(""))
            .unpivot(index=pk, variable_name="tiebreak", value_name="computed")
            .with_columns(value=pl.lit(None, dtype=pl.Float64), method=pl.lit("derived")))


def _start_number(path: Path, line: int, cell: str, seen: dict[int, int]) -> int:
    """A reference table's player (a start number) as ``schema.whole_text`` reads a whole
    number (``int()`` read ``"١"`` as 1 and ``"1_0"`` as 10, and ``"abc"`` was a bare
    ``ValueError``), each once: a player given twice was compared twice, without a word.
    ``seen`` maps the numbers read to their lines."""
    number = whole_text(cell)
    if number is None or number < 1:
        msg = (f"{shown(path)}, line {line}: the player {cell.strip()!r} is not a start "
               "number (a whole number from 1, ASCII digits). Hint: the table is damaged; "
               "write it again from TieBreakServer.")
        raise ImportFormatError(msg)
    if number in seen:
        msg = (f"{shown(path)}, lines {seen[number]} and {line}: player {number} is given "
               "twice. Hint: keep one line per player.")
        raise ImportFormatError(msg)
    seen[number] = line
    return number


def read_tiebreakserver_table(path: str | Path, *, event_id: str | None = None
                              ) -> pl.DataFrame:
    """Read a TieBreakServer output table (tab-separated, ``StartNo`` first, ``Check:``
    last) into the long reference form (:data:`REFERENCE_COLUMNS`).

    The date in the file name (``<name>.<YYYY-MM-DD>[.all].txt``) is the start date the
    reference used to choose its rule set; it becomes ``start_date``. ``event_id``
    defaults to the file name up to its first dot.

    Examples
    --------
    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "club.2026-03-01.txt"
    >>> _ = p.write_text("StartNo\\tRank\\tPTS\\tSB\\n1\\t1\\t1.0\\t0.50\\nCheck: True\\n")
    >>> read_tiebreakserver_table(p).select("event_id", "tiebreak", "expected", "start_date"
    ...                                     ).rows()  # doctest: +NORMALIZE_WHITESPACE
    [('club', 'Rank', '1', datetime.date(2026, 3, 1)),
     ('club', 'PTS', '1.0', datetime.date(2026, 3, 1)),
     ('club', 'SB', '0.50', datetime.date(2026, 3, 1))]
    """
    p = Path(path)
    lines = [(n, ln) for n, ln in enumerate(read_text(p).splitlines(), start=1)
             if ln.strip() and not ln.startswith("Check:")]
    if not lines or not lines[0][1].startswith("StartNo\t"):
        msg = (f"{shown(p)}: not a TieBreakServer table (no 'StartNo' header line). "
               "Hint: pass the tab-separated .txt output of TieBreakServer.")
        raise ImportFormatError(msg)
    header = lines[0][1].split("\t")
    rows = []
    seen: dict[int, int] = {}
    for lineno, ln in lines[1:]:
        cells = ln.split("\t")
        if len(cells) != len(header):
            msg = (f"{shown(p)}, line {lineno}: {len(cells)} cells for {len(header)} columns. "
                   "Hint: the table is truncated or not tab-separated.")
            raise ImportFormatError(msg)
        cells[0] = str(_start_number(p, lineno, cells[0], seen))
        rows.append(cells)
    m = re.search(r"\.(\d{4})-(\d{2})-(\d{2})(?:\.|$)", p.name.removesuffix(".txt"))
    start = date(int(m[1]), int(m[2]), int(m[3])) if m else None
    eid = event_id or p.name.split(".")[0]
    label = "TieBreakServer " + p.name.removesuffix(".txt").split(".", 1)[-1]
    long = [{"event_id": eid, "player_id": r[0], "reference": label,
             "tiebreak": col, "position": i, "expected": r[i].strip(),
             "start_date": start, "rule_set": None}
            for r in rows for i, col in enumerate(header) if i > 0]
    return pl.DataFrame(long, schema=_REF_SCHEMA).select(REFERENCE_COLUMNS)


_V2_LINE: Final = re.compile(r"^\s*-\s*(?P<tb>[A-Z]+(?:/[A-Z0-9]+)?):\s*(?P<body>.*)$")
_CHANGE: Final = re.compile(r"(?:player\s+)?(\d+)\s*→\s*(-?\d+(?:\.\d+)?)")


def read_held_values(sources_md: str | Path, *, event_id: str = "held_swiss_5"
                     ) -> pl.DataFrame:
    """Held's published answers for ``held_swiss_5.trf``, read from the shared
    ``SOURCES.md`` (its values table for the pre-2026 rules, ``/V1``, and the listed
    ``/V2`` changes), in the long reference form (:data:`REFERENCE_COLUMNS`).

    ``/V1`` rows get ``rule_set="fide-2023"``; ``/V2`` rows ``"fide-2026"`` and hold the
    ``/V1`` value with the listed changes applied, for every tie-break whose changes are
    listed plus PS (unaffected by Art. 16). AOB under ``/V2`` is listed only as "changes
    for 10 players", without values, so it is not a ``/V2`` reference.

    Examples
    --------
    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "SOURCES.md"
    >>> _ = p.write_text("held_swiss_5.trf under the pre-2026 rules\\n\\n"
    ...     "| TB | 1 | 2 |\\n|---|---|---|\\n| BH | 12.5 | 13.0 |\\n| PS | 11.0 | 13.0 |\\n\\n"
    ...     "Under the 2026 rules (`/V2`) these values change:\\n- BH: player 2 → 12.0;\\n")
    >>> read_held_values(p).select("reference", "tiebreak", "player_id", "expected").rows()
    ... # doctest: +NORMALIZE_WHITESPACE
    [('Held /V1', 'BH', '1', '12.5'), ('Held /V1', 'BH', '2', '13.0'),
     ('Held /V1', 'PS', '1', '11.0'), ('Held /V1', 'PS', '2', '13.0'),
     ('Held /V2', 'BH', '1', '12.5'), ('Held /V2', 'BH', '2', '12.0'),
     ('Held /V2', 'PS', '1', '11.0'), ('Held /V2', 'PS', '2', '13.0')]
    """
    p = Path(sources_md)
    lines = read_text(p).splitlines()
    start = next((i for i, ln in enumerate(lines) if "held_swiss_5.trf" in ln
                  and "pre-2026" in ln), None)
    table_at = None if start is None else next(
        (i for i in range(start, min(start + 12, len(lines)))
         if lines[i].lstrip().startswith("| TB |")), None)
    if table_at is None:
        msg = (f"{shown(p)}: no values table for held_swiss_5.trf under the pre-2026 rules. "
               "Hint: pass the shared folder's data/realworld/SOURCES.md.")
        raise ImportFormatError(msg)
    header = [c.strip() for c in lines[table_at].strip().strip("|").split("|")]
    v1: dict[tuple[str, str], str] = {}
    order: list[str] = []
    for at, ln in enumerate(lines[table_at + 2:], start=table_at + 3):
        if not ln.lstrip().startswith("|"):
            break
        cells = [c.strip() for c in ln.strip().strip("|").split("|")]
        if len(cells) != len(header):  # (a bare ValueError of zip)
            msg = (f"{shown(p)}, line {at}: {len(cells)} cells for the values table's "
                   f"{len(header)} columns. Hint: the table is damaged; pass the shared "
                   "SOURCES.md.")
            raise ImportFormatError(msg)
        if cells[0] in order:  # (its values were compared twice, without a word)
            msg = (f"{shown(p)}, line {at}: the tie-break {cells[0]!r} is given twice in the "
                   "values table. Hint: keep one row per tie-break.")
            raise ImportFormatError(msg)
        order.append(cells[0])
        for player, value in zip(header[1:], cells[1:], strict=True):
            v1[(cells[0], player)] = value
    v2_changes: dict[tuple[str, str], str] = {}
    listed: set[str] = set()
    v2_at = next((i for i in range(table_at, len(lines)) if "/V2" in lines[i]), None)
    started = False
    for ln in lines[(v2_at or len(lines)) + 1:]:
        m = _V2_LINE.match(ln)
        if m is None:
            if started or ln.lstrip().startswith("-"):
                break
            continue  # the sentence introducing the list
        started = True
        changes = _CHANGE.findall(m["body"])
        if changes:
            listed.add(m["tb"])
            v2_changes.update({(m["tb"], pl_): val for pl_, val in changes})
    # (a change for a tie-break or a player the table lacks was left out without a word)
    if strays := [f"{tb} player {n}" for tb, n in v2_changes
                  if tb not in order or n not in header[1:]]:
        msg = (f"{shown(p)}: the /V2 changes name {', '.join(strays)}, not in the values "
               "table. Hint: the list is damaged; pass the shared SOURCES.md.")
        raise ImportFormatError(msg)
    rows = []
    for pos, tb in enumerate(order, start=1):
        for player in header[1:]:
            rows.append({"event_id": event_id, "player_id": player, "reference": "Held /V1",
                         "tiebreak": tb, "position": pos, "expected": v1[(tb, player)],
                         "start_date": None, "rule_set": "fide-2023"})
    for pos, tb in enumerate(order, start=1):
        if tb not in listed and tb != "PS":
            continue
        for player in header[1:]:
            rows.append({"event_id": event_id, "player_id": player, "reference": "Held /V2",
                         "tiebreak": tb, "position": pos,
                         "expected": v2_changes.get((tb, player), v1[(tb, player)]),
                         "start_date": None, "rule_set": "fide-2026"})
    return pl.DataFrame(rows, schema=_REF_SCHEMA).select(REFERENCE_COLUMNS)


def _decimals(expected: pl.Expr) -> pl.Expr:
    return (pl.when(expected.str.contains(r"\."))
            .then(expected.str.extract(r"\.(\d+)$").str.len_chars())
            .otherwise(0).fill_null(0))


def _ranks(ref: pl.DataFrame, computed: pl.DataFrame) -> pl.DataFrame:
    """The reference's rank recomputed: players ordered by the reference's columns in
    order (DE ascending, everything else descending), equal on all of them share a rank."""
    pk = ["event_id", "player_id"]
    out = []
    keys = ["event_id", "reference", "rule_set"]
    groups = ref.filter(pl.col("tiebreak") != "Rank").select(*keys, "tiebreak", "position"
                                                              ).unique()
    for (event, reference, rule_set), g in groups.group_by(keys, maintain_order=True):
        cols = [c for c in g.sort("position")["tiebreak"].to_list()
                if c not in NOT_IMPLEMENTED and c not in ("COP", "CSQ", "Rank")]
        vals = (computed.filter((pl.col("event_id") == event) & (pl.col("rule_set") == rule_set)
                                & pl.col("tiebreak").is_in(cols))
                .pivot("tiebreak", index=pk, values="value"))
        cols = [c for c in cols if c in vals.columns]
        if not cols or vals.select(pl.col(cols).is_null().any()).row(0) != (False,) * len(cols):
            continue  # a criterion is not computed for someone: no rank
        ordered = vals.sort(cols, descending=[c != "DE" for c in cols])
        ordered = ordered.with_columns(_g=pl.struct(cols).rle_id(),
                                       _i=pl.int_range(1, pl.len() + 1))
        ranked = ordered.with_columns(value=pl.col("_i").min().over("_g").cast(pl.Float64))
        out.append(ranked.select(*pk, pl.lit(reference).alias("reference"),
                                 pl.lit(rule_set).alias("rule_set"), "value"))
    if not out:
        return pl.DataFrame(schema={"event_id": pl.String, "player_id": pl.String,
                                    "reference": pl.String, "rule_set": pl.String,
                                    "value": pl.Float64})
    return pl.concat(out)


@scoped
def verify_trf(ev: TrfEvents, *, rule_set: str | Mapping[str, str] = "auto",
               reference: pl.DataFrame | None = None) -> pl.DataFrame:
    """Recompute the tie-breaks of TRF events and compare them with reference values.

    Parameters
    ----------
    ev
        Events from :func:`swissframe.io.trf.read_trf`.
    rule_set
        ``"auto"`` (default): per reference row its own rule set or start date
        (:func:`read_held_values`, :func:`read_tiebreakserver_table`), else the event's
        ``042`` start date (:func:`rule_set_for_date`), as TieBreakServer chooses.
        ``"fide-2023"`` / ``"fide-2026"``: that rule set for everything. A mapping
        event_id → rule set overrides per event.
    reference
        Reference values in the long form of :data:`REFERENCE_COLUMNS` (several tables can
        be concatenated). The TRF's declared points are always compared (reference
        ``"TRF declared"``, tie-break ``PTS``).

    Returns
    -------
    polars.DataFrame
        One row per reference value: the ``rule_set`` used and why (``rule_source``),
        ``expected`` and ``computed`` text, ``match`` (computed rounded half-up to the
        reference's decimals equals the reference; null when not computed) and ``status``:
        ``"match"``, ``"differs"``, ``"not_implemented"`` (rating-based tie-breaks) or
        ``"not_derived"`` (DE for a player tied on the preceding criteria, or a rank that
        needs one). Columns: :data:`TRF_COLUMNS`.

    Examples
    --------
    >>> from swissframe.io.trf import parse_trf
    >>> trf = ("042 2024/01/01\\n"
    ...     "001    1      A" + " " * 66 + "1.5    1     2 w 1     3 b =\\n"
    ...     "001    2      B" + " " * 66 + "0.0    3     1 b 0  0000 - Z\\n"
    ...     "001    3      C" + " " * 66 + "0.5    2  0000 - Z     1 w =\\n")
    >>> ev = parse_trf(trf, event_key="club")
    >>> ref = pl.DataFrame({"event_id": ["club"], "player_id": ["1"], "reference": ["mine"],
    ...     "tiebreak": ["BH"], "position": [1], "expected": ["1.0"]})
    >>> v = verify_trf(ev, reference=ref)
    >>> v.filter(pl.col("reference") == "mine").select("rule_set", "computed", "status").row(0)
    ('fide-2023', '1', 'match')
    """
    from swissframe.io.trf import TrfEvents

    check_events(ev, (TrfEvents,), call="verify_trf",
                 hint="ev = sf.read_trf(path); sf.verify_trf(ev)")
    pk = ["event_id", "player_id"]
    declared = ev.players.select(
        *pk, pl.lit("TRF declared").alias("reference"), pl.lit("PTS").alias("tiebreak"),
        pl.lit(1, dtype=pl.Int64).alias("position"),
        pl.col("points").map_elements(lambda x: f"{x:.1f}", return_dtype=pl.String)
        .alias("expected"),
        pl.lit(None, dtype=pl.Date).alias("start_date"),
        pl.lit(None, dtype=pl.String).alias("rule_set"),
    ).filter(pl.col("expected").is_not_null())
    refs = [declared.cast(_REF_SCHEMA)]  # type: ignore[arg-type]
    if reference is not None:
        missing = [c for c in ("event_id", "player_id", "tiebreak", "expected")
                   if c not in reference.columns]
        if missing:
            msg = (f"reference table lacks column(s) {missing}. Hint: build it with "
                   "read_tiebreakserver_table or read_held_values.")
            raise DataError(msg)
        filled = reference.with_columns(*[pl.lit(None, dtype=t).alias(c)
                                          for c, t in _REF_SCHEMA.items()
                                          if c not in reference.columns])
        if "reference" not in reference.columns:
            filled = filled.with_columns(reference=pl.lit("reference"))
        refs.append(filled.select(REFERENCE_COLUMNS).cast(_REF_SCHEMA))  # type: ignore[arg-type]
    ref = pl.concat(refs)
    known = set(ev.players["event_id"].unique().to_list())
    unknown = sorted(set(ref["event_id"].unique().to_list()) - known)
    if unknown:
        msg = (f"reference event(s) {unknown} are not among the TRF events {sorted(known)}. "
               "Hint: pass event_id= to the reference reader.")
        raise DataError(msg)
    header = ev.header.select("event_id", pl.col("start_date").alias("_042"))
    ref = ref.join(header, on="event_id", how="left")
    if isinstance(rule_set, str) and rule_set != "auto":
        if rule_set not in _RULE_SETS:
            msg = f"unknown rule set {rule_set!r}. Hint: 'auto' or one of {list(_RULE_SETS)}."
            raise DataError(msg)
        ref = ref.with_columns(rule_set=pl.lit(rule_set), rule_source=pl.lit("override"))
    else:
        def by_date(col: str) -> pl.Expr:
            return (pl.when(pl.col(col) < FIDE_2026_START).then(pl.lit("fide-2023"))
                    .otherwise(pl.lit("fide-2026")))
        ref = ref.with_columns(
            rule_source=pl.when(pl.col("rule_set").is_not_null()).then(pl.lit("reference"))
            .when(pl.col("start_date").is_not_null())
            .then(pl.lit("reference date ") + pl.col("start_date").cast(pl.String))
            .when(pl.col("_042").is_not_null())
            .then(pl.lit("042 ") + pl.col("_042").cast(pl.String))
            .otherwise(pl.lit("no 042 date: current rules")),
            rule_set=pl.coalesce(pl.col("rule_set"),
                                 pl.when(pl.col("start_date").is_not_null())
                                 .then(by_date("start_date")),
                                 pl.when(pl.col("_042").is_not_null()).then(by_date("_042")),
                                 pl.lit("fide-2026")))
        if isinstance(rule_set, Mapping):
            bad = sorted({v for v in rule_set.values() if v not in _RULE_SETS})
            if bad:
                msg = f"unknown rule set(s) {bad}. Hint: use one of {list(_RULE_SETS)}."
                raise DataError(msg)
            over = pl.col("event_id").replace_strict(dict(rule_set), default=None,
                                                      return_dtype=pl.String)
            ref = ref.with_columns(
                rule_source=pl.when(over.is_not_null()).then(pl.lit("override"))
                .otherwise(pl.col("rule_source")),
                rule_set=pl.coalesce(over, pl.col("rule_set")))
    # (no reference value at all — a file whose points column is blank, no table beside
    # it — leaves no rule set: one is computed for the table's columns, and the table is
    # empty, which the CLI says; it was Polars' bare "cannot concat empty list")
    needed = sorted(ref["rule_set"].unique().to_list()) or ["fide-2026"]
    computed = pl.concat([fide_tiebreaks(ev.results, rs).with_columns(rule_set=pl.lit(rs))
                          for rs in needed])  # at most two rule sets, each over all events
    ranks = _ranks(ref, computed).with_columns(tiebreak=pl.lit("Rank"),
                                               computed=_fmt(pl.col("value")),
                                               method=pl.lit("derived"))
    plain = ref.filter(pl.col("tiebreak") != "Rank").join(
        computed, on=[*pk, "tiebreak", "rule_set"], how="left")
    ranked = ref.filter(pl.col("tiebreak") == "Rank").join(
        ranks, on=[*pk, "reference", "rule_set", "tiebreak"], how="left")
    table = pl.concat([plain, ranked.select(plain.columns)])
    exp_num = pl.col("expected").str.strip_chars().cast(pl.Float64, strict=False)
    shown = to_decimals(pl.col("value"), _decimals(pl.col("expected").str.strip_chars()))
    is_num = exp_num.is_not_null() & pl.col("value").is_not_null()
    equal = (pl.when(is_num).then((shown - exp_num).abs() < 1e-9)
             .when(pl.col("computed").is_not_null())
             .then(pl.col("computed") == pl.col("expected").str.strip_chars())
             .otherwise(None))
    table = table.with_columns(match=equal).with_columns(
        status=pl.when(pl.col("match")).then(pl.lit("match"))
        .when(pl.col("match").not_()).then(pl.lit("differs"))
        .when(pl.col("tiebreak").is_in(list(NOT_IMPLEMENTED))).then(pl.lit("not_implemented"))
        .otherwise(pl.lit("not_derived")))
    return (table.sort("event_id", "reference", "rule_set", "position", "player_id",
                       nulls_last=True)
            .with_columns(pl.col("player_id").cast(pl.Int64, strict=False).alias("_n"))
            .sort("event_id", "reference", "position", "_n", nulls_last=True,
                  maintain_order=True)
            .select(TRF_COLUMNS))


def summarize_reference(table: pl.DataFrame, by: Sequence[str] | None = None
                        ) -> pl.DataFrame:
    """Agreement counts of a :func:`verify_tom` or :func:`verify_trf` table.

    Parameters
    ----------
    table
        The output of either function.
    by
        Grouping columns; default ``event_id, division, reading`` for TOM tables and
        ``event_id, reference, rule_set, tiebreak`` for TRF tables.

    Returns
    -------
    polars.DataFrame
        Per group: ``compared`` (values with a verdict), ``matched``, ``share`` and, for
        TRF tables, ``not_implemented`` and ``not_derived`` counts.

    Examples
    --------
    >>> t = pl.DataFrame({"event_id": ["e"] * 3, "reference": ["r"] * 3,
    ...     "rule_set": ["fide-2023"] * 3, "tiebreak": ["BH", "BH", "ARO"],
    ...     "match": [True, False, None], "status": ["match", "differs", "not_implemented"]})
    >>> summarize_reference(t, by=["event_id"]).row(0)
    ('e', 2, 1, 0.5, 1, 0)
    """
    # (a path or None: named, not an AttributeError)
    table = as_frame(table, what="table of sf.verify_tom / sf.verify_trf",
                     made_by="sf.verify_tom(sf.read_tom(path))")
    tom = "reading" in table.columns
    keys = list(check_names("by", by, hint="e.g. by=['event_id'].")) if by is not None else (
        ["event_id", "division", "reading"] if tom
        else ["event_id", "reference", "rule_set", "tiebreak"])
    # (another table was Polars' bare ColumnNotFoundError)
    check_output(table, [*keys, "match", *([] if tom else ["status"])],
                 what="summarize_reference's table",
                 result="a table of sf.verify_tom or sf.verify_trf",
                 hint="summarize_reference(sf.verify_tom(...)), or name its columns in by=.")
    aggs = [pl.col("match").is_not_null().sum().cast(pl.Int64).alias("compared"),
            pl.col("match").fill_null(value=False).sum().cast(pl.Int64).alias("matched")]
    if not tom:
        aggs += [(pl.col("status") == "not_implemented").sum().cast(pl.Int64)
                 .alias("not_implemented"),
                 (pl.col("status") == "not_derived").sum().cast(pl.Int64).alias("not_derived")]
    out = table.group_by(keys, maintain_order=True).agg(aggs).with_columns(
        share=pl.when(pl.col("compared") > 0)
        .then(pl.col("matched") / pl.col("compared")).otherwise(None))
    cols = [*keys, "compared", "matched", "share", *(
        [] if tom else ["not_implemented", "not_derived"])]
    return out.select(cols)
