"""A validation report: every problem of a results table, grouped by kind, with a severity.

:func:`swissframe.schema.validate_results` guards the engine and stops at the first failing
check family (it raises). :func:`validate` is for people: it runs every check at once and
returns a :class:`ValidationReport` listing each problem with its event, round, player, the
offending values and what to do about it. It never raises for bad rows.

Severity
--------
``error``
    The standings would be wrong or cannot be computed (the engine refuses the table, or it
    would silently count a match that cannot have happened / miss a whole round).
``warning``
    Suspicious but computable: the standings follow the documented rules for it, yet the
    data may not say what the organiser meant (a late return, a duplicated event, ...).

The kinds, their severity, meaning and the user's remedy are in :data:`KINDS` (and in
``docs/bad-data.md``). The contract-level checks (nulls, rounds below 1, negative games,
phases, self-pairings, duplicate seats, unknown opponents, one-sided and contradictory
mirrors) come from :func:`swissframe.schema.find_problems`; this module adds type coercion
with per-cell reporting, game scores for a best-of-N match, missing rounds, late entries and
returns, suspicious ids (surrounding whitespace, invisible characters, look-alike ids of one
event: :func:`lookalike_key`) and duplicated events.

Decisions
---------
- A Swiss *win with fewer than the needed games* (1-0, 1-0-1 in best-of-three) is allowed and
  not reported: MTR §2.1 — at time, the player with more game wins wins the match.
- A player with no row in some rounds *between* their first and last rounds (a *late
  return*) is a warning: the engine counts only the rounds they played, and the player is
  not "dropped" (dropped = no row in the event's last Swiss round).
- Two player ids of one event that read as one (``'Alice'`` / ``'alice'``, a composed and a
  decomposed ``'Eléna'``, ``'Al\\u200bice'``) are a warning, not an error: almost always one
  person under two spellings, yet two real people may differ only in case, and the
  standings are computable either way (as two players).
"""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Final, NamedTuple

import polars as pl

from swissframe._collect import collect, scoped
from swissframe._display import bounded, count, count_expr, escaped, noun_expr, quoted
from swissframe.engine._chess import inferred_absences
from swissframe.engine._record import event_rounds, missing_stage
from swissframe.errors import DataError, SchemaError, ValidationError
from swissframe.rules._infer import AUTO, DEFAULT, auto_rules, is_auto
from swissframe.rules._ruleset import Ruleset, get
from swissframe.schema import (
    FLAG_COLUMNS,
    ID_COLUMNS,
    INT_COLUMNS,
    OPTIONAL_COLUMNS,
    REQUIRED_COLUMNS,
    VOCABULARY,
    as_frame,
    blank,
    default_event,
    find_problems,
    fits_int64,
    flag_cells,
    flag_spellings,
    flag_values,
    has_text_form,
    impossible_score,
    impossible_score_words,
    key_columns,
    misnamed_optional,
    not_a_table,
    string_like,
    whole_numbers,
)

if TYPE_CHECKING:
    from swissframe.io._files import Source

__all__ = [
    "KINDS",
    "PROBLEM_SCHEMA",
    "Kind",
    "ValidationReport",
    "coerce",
    "file_problem",
    "lookalike_key",
    "raise_for",
    "read_problems",
    "validate",
    "validate_read",
]

Frame = pl.DataFrame | pl.LazyFrame
#: The column :func:`swissframe.read` names each row's file in (``Source.results``).
SOURCE_FILE: Final = "source_file"


class Kind(NamedTuple):
    """What a problem kind means, how bad it is, and what the user should do."""

    severity: str
    meaning: str
    action: str


#: Every kind a report can contain (schema.find_problems' kinds keep their names).
KINDS: Final[Mapping[str, Kind]] = MappingProxyType({
    "unreadable_file": Kind(
        "error", "a file could not be read or parsed (truncated, garbage, wrong format, "
        "unsafe XML)", "re-export the file; its rows are not in the report"),
    "schema": Kind(
        "error", "a required column is missing, or a column has a type the engine refuses",
        "rename / add the column, or cast it (ids to strings, game counts to integers)"),
    "bad_value": Kind(
        "error", "a cell cannot be read as its column's type (text or a fraction in a game "
        "count, an unknown 'unplayed' or 'color' code); the row is left out of the other checks",
        "correct the cell"),
    "null_value": Kind(
        "error", "a required cell is empty", "fill it in (an unpaired round has a null "
        "opponent_id, but never a null round, player or game count)"),
    "round_below_1": Kind("error", "a round number below 1", "rounds are numbered from 1"),
    "negative_games": Kind("error", "a negative game count", "correct the score"),
    "bad_phase": Kind("error", "phase is not 'swiss' or 'playoff'", "use one of the two"),
    "self_pairing": Kind("error", "a player paired with themself",
                         "correct the opponent id"),
    "duplicate_seat": Kind(
        "error", "a player has more than one row in one round",
        "keep one row per player per round (a duplicated file or round?)"),
    "unknown_opponent": Kind(
        "error", "an opponent id never appears as a player of the event",
        "check the spelling (case, spaces) or add the opponent's rows"),
    "missing_mirror": Kind(
        "error", "one-sided match: the opponent has no row against the player in that round",
        "add the mirror row, or repair explicitly with sf.repair_mirrors(...)"),
    "too_many_games": Kind(
        "error", "a game count above 2**31 - 1: not the games of one match",
        "check the column mapping (a score in the wrong column, an id read as a count)"),
    "empty_id": Kind(
        "error", "an empty or blank id (\"\", spaces only): such a cell would become a "
        "phantom player", "fill in the id, or leave the opponent null for an unpaired round"),
    "unpaired_draw": Kind(
        "error", "an unpaired round (null opponent) scored as a draw",
        "a bye is 2-0-0, an unopposed loss 0-2-0; a half-point bye has unplayed='half_bye'"),
    "phase_mismatch": Kind(
        "error", "the two seats of one match are in different phases (swiss / playoff)",
        "give both rows the same phase"),
    "stage_mismatch": Kind(
        "error", "the rows of one round hold different stages (the two seats of a match, "
        "or two matches): a round is of one stage, and a ruleset that takes each player at "
        "the end of their stage would move every player of that stage to the wrong round",
        "give every row of the round its stage (e.g. 'day2')"),
    "mirror_mismatch": Kind(
        "error", "contradictory match: the two seats report records that are not opposite",
        "correct one seat from the match slip"),
    "double_loss_mismatch": Kind(
        "error", "one seat of a match marks it as a double loss (double_loss = True) and the "
        "other does not, or a row with no opponent does",
        "mark both seats (an unresolved match lost by both) or neither"),
    "forfeit_mismatch": Kind(
        "error", "the two seats of a match disagree on whether it was played: one marks a "
        "forfeit (unplayed = forfeit_win / forfeit_loss), the other a game over the board, or "
        "both the forfeit win", "correct one seat: a forfeit is forfeit_win against "
        "forfeit_loss (TRF '+' against '-')"),
    "impossible_score": Kind(
        "error", "a game score no best-of-N match can end with (3-0 or 2-2 in best of "
        "three: more game wins than needed, or both players reaching the needed wins)",
        "correct the score, or pass the right best_of (1 for match-level sources)"),
    "missing_round": Kind(
        "error", "the event has no row at all in a round before its last one",
        "a round's results are lost: re-export the event"),
    "no_swiss_round": Kind(
        "warning", "the event has rows but not one Swiss row (only playoff rows): its Swiss "
        "standings are empty",
        "fine for a knockout event or a bracket on its own; for standings, add the event's "
        "Swiss rounds (or give its Swiss rows phase 'swiss')"),
    "unusual_score": Kind(
        "warning", "more than 2 × best_of games in one match (huge or mistyped counts)",
        "check the score"),
    "zero_games": Kind(
        "warning", "a 0-0-0 record: counted as a drawn match with no games",
        "an intentional draw is 0-0-3; an unreported match should be fixed or removed"),
    "playoff_draw": Kind(
        "warning", "a drawn playoff match (single elimination has a winner)",
        "correct the score; Swiss standings ignore playoff rows"),
    "late_entry": Kind(
        "warning", "a player's first row is after the event's first round",
        "fine for a late arrival; the pokemon presets count a loss for each missed round "
        "(late_rounds='loss', TRH §5.2.2), MTG counts only the rounds played"),
    "late_return": Kind(
        "warning", "a player has no row in a round between their first and last rounds "
        "(dropped, then came back)",
        "allowed: the pokemon presets count each such round as a loss (late_rounds="
        "'loss'), the others only the rounds played; add a row (bye, loss or 'absent') if "
        "the round should count otherwise"),
    "inferred_absence": Kind(
        "warning", "a player of the event has no row in one of its rounds, and the ruleset "
        "reads that as an absence (FIDE C.07 Art. 16: missing_rounds='absent')",
        "fine for a withdrawal or a skipped round; add the row if the player was paired"),
    "suspicious_id": Kind(
        "warning", "an id has leading/trailing whitespace or invisible characters (control, "
        "zero-width, bidi), or two ids of one event read as one once case, Unicode form and "
        "spacing are set aside (look-alike ids)",
        "fix the id in the source: ' Alice', 'Al\\u200bice', 'alice' and 'Alice' are four "
        "different players (one person under two spellings?)"),
    "duplicate_event": Kind(
        "warning", "two events have identical rounds (the same event under two ids or "
        "files, or a truncated copy of another)",
        "keep one copy, or the event counts twice in any aggregate"),
    "event_split": Kind(
        "warning", "one event id gets rows from several files",
        "fine when an event is split by day; otherwise two events share a name: give "
        "them distinct event_id values"),
    "import_note": Kind(
        "warning", "an importer repaired or left out something (reported, not silent)",
        "read the detail; the importer's report lists the rule applied"),
    "format_note": Kind(
        "note", "the file's format writes something in its own normal way, read as meant "
        "(e.g. melee.gg lists a draw once for each player): listed, not a problem",
        ""),
})

#: Severities in report order. A ``note`` is no problem: it leaves a report clean (and
#: ``validate --strict`` passing), and is listed so that nothing read is unexplained.
_SEVERITY_ORDER: Final = {"error": 0, "warning": 1, "note": 2}

#: Columns (and dtypes) of :attr:`ValidationReport.problems`.
PROBLEM_SCHEMA: Final[Mapping[str, pl.DataType]] = {
    "severity": pl.String(), "kind": pl.String(), "event_id": pl.String(),
    "round": pl.Int64(), "player_id": pl.String(), "opponent_id": pl.String(),
    "games_won": pl.Int64(), "games_lost": pl.Int64(), "games_drawn": pl.Int64(),
    "value": pl.String(), "file": pl.String(), "detail": pl.String(),
}

_STR_COLUMNS: Final = (*ID_COLUMNS, "phase", *OPTIONAL_COLUMNS)
_ROW: Final = "_sf_row"
_SHOWN_PER_KIND: Final = 5


def _empty() -> pl.DataFrame:
    return pl.DataFrame(schema=dict(PROBLEM_SCHEMA))


def _rows(kind: str, frame: pl.LazyFrame | pl.DataFrame, detail: pl.Expr, *,
          value: pl.Expr | None = None) -> pl.LazyFrame:
    """Problem rows of one kind from a frame holding (some of) the contract columns."""
    lf = frame.lazy()
    names = lf.collect_schema().names()
    cols: list[pl.Expr] = [pl.lit(KINDS[kind].severity).alias("severity"),
                           pl.lit(kind).alias("kind")]
    for c, dt in PROBLEM_SCHEMA.items():
        if c in ("severity", "kind", "detail", "value", "file"):
            continue
        cols.append(pl.col(c).cast(dt, strict=False) if c in names
                    else pl.lit(None, dtype=dt).alias(c))
    cols.append((value if value is not None else pl.lit(None)).cast(pl.String).alias("value"))
    cols.append(pl.lit(None, dtype=pl.String).alias("file"))
    cols.append(detail.cast(pl.String).alias("detail"))
    return lf.select(cols)


def file_problem(kind: str, detail: str, *, file: str | None = None,
                 event_id: str | None = None) -> pl.DataFrame:
    """One problem row about a whole file or event (used by the command line)."""
    row: dict[str, object] = dict.fromkeys(PROBLEM_SCHEMA)
    row.update(severity=KINDS[kind].severity, kind=kind, detail=detail, file=file,
               event_id=event_id)
    return pl.DataFrame([row], schema=dict(PROBLEM_SCHEMA))


def read_problems(source: Source) -> list[pl.DataFrame]:
    """What a read said about its files, as problem rows: each file that could not be read
    (:attr:`~swissframe.io._files.Source.problems`: ``unreadable_file``), each import note
    (:attr:`~swissframe.io._files.Source.notes`: a format's routine, such as melee.gg's
    draw listed once per player, is a ``format_note`` of severity ``note``; a repair or a
    drop an ``import_note`` warning, its own kind first in the detail) and each bad cell
    of a match table (``read(..., validate=False)``: severity and value set). The one
    reading of them, for :func:`validate` of a ``Source`` and ``swissframe validate``.
    """
    from swissframe.io._files import CHECKED_NOTES, ROUTINE_NOTES

    out = [file_problem("unreadable_file", msg, file=f) for f, msg in source.problems]
    notes = source.notes.filter(~pl.col("kind").is_in(list(CHECKED_NOTES)))
    if notes.height:
        routine = pl.col("kind").is_in(list(ROUTINE_NOTES))
        imported = notes.filter(pl.col("severity").is_null()).with_columns(
            pl.when(routine).then(pl.lit("note")).otherwise(pl.lit("warning"))
            .alias("severity"),
            pl.when(routine).then(pl.lit("format_note")).otherwise(pl.lit("import_note"))
            .alias("kind"),
            pl.format("{}: {}", pl.col("kind"), pl.col("detail")).alias("detail"))
        cells = notes.filter(pl.col("severity").is_not_null())
        out += [_as_problems(f) for f in (imported, cells) if f.height]
    return out


def _as_problems(frame: pl.DataFrame) -> pl.DataFrame:
    """``frame``'s columns of :data:`PROBLEM_SCHEMA`, the others null."""
    fill = [pl.lit(None, dtype=dt).alias(c) for c, dt in PROBLEM_SCHEMA.items()
            if c not in frame.columns]
    return (frame.with_columns(fill).select(list(PROBLEM_SCHEMA))
            .cast(pl.Schema(PROBLEM_SCHEMA)))


# --------------------------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ValidationReport:
    """Every problem found in a results table.

    Attributes
    ----------
    problems
        One row per problem, sorted errors first, then by kind, event, round and player:
        ``severity, kind, event_id, round, player_id, opponent_id, games_won, games_lost,
        games_drawn`` (the offending record, where one applies), ``value`` (the offending
        cell as text, for ``bad_value``/``schema``), ``file`` (when known) and ``detail``.
    rows
        Number of input rows.
    events
        Number of distinct event ids among the readable rows.
    rules
        Name of the ruleset the table was checked against.
    best_of
        Games per match the scores were checked against (None: not checked).
    """

    problems: pl.DataFrame
    rows: int = 0
    events: int = 0
    rules: str = "mtg"
    best_of: int | None = 3
    files: tuple[str, ...] = field(default=())

    @property
    def summary(self) -> pl.DataFrame:
        """Problem counts per kind: ``severity, kind, count`` (errors first)."""
        if self.problems.height == 0:
            return pl.DataFrame(schema={"severity": pl.String, "kind": pl.String,
                                        "count": pl.UInt32})
        return (self.problems.group_by("severity", "kind").agg(pl.len().alias("count"))
                .with_columns(pl.col("severity").replace_strict(_SEVERITY_ORDER,
                                                                return_dtype=pl.Int8)
                              .alias("_o"))
                .sort("_o", "kind").drop("_o"))

    @property
    def errors(self) -> pl.DataFrame:
        """The error-level problems."""
        return self.problems.filter(pl.col("severity") == "error")

    @property
    def warnings(self) -> pl.DataFrame:
        """The warning-level problems."""
        return self.problems.filter(pl.col("severity") == "warning")

    @property
    def ok(self) -> bool:
        """True when there is no error (warnings allowed)."""
        return self.errors.height == 0

    @property
    def notes(self) -> pl.DataFrame:
        """The notes: what a format writes in its own normal way, no problem."""
        return self.problems.filter(pl.col("severity") == "note")

    @property
    def clean(self) -> bool:
        """True when there is no problem at all: no error and no warning (notes allowed)."""
        return self.errors.height == 0 and self.warnings.height == 0

    def by_kind(self) -> dict[str, pl.DataFrame]:
        """The problems grouped by kind, in report order."""
        return {str(k): g for (k,), g in self.problems.group_by("kind", maintain_order=True)}

    def _facts(self) -> list[str]:
        from swissframe._display import count

        verdict = "clean" if self.clean else "ok" if self.ok else "not ok"
        n_notes = self.notes.height
        return [verdict, count(self.rows, "row"), count(self.events, "event"),
                f"rules {self.rules}", count(self.errors.height, "error"),
                count(self.warnings.height, "warning"),
                *([count(n_notes, "note")] if n_notes else [])]

    def __repr__(self) -> str:
        """A one-line summary; ``str(report)`` is the full report, ``.problems`` the rows.

        >>> ValidationReport(pl.DataFrame(schema={"severity": pl.String}), rows=4, events=1)
        ValidationReport: clean, 4 rows, 1 event, rules mtg, 0 errors, 0 warnings
        — .problems, .summary
        """
        from swissframe._display import summary_text

        return summary_text("ValidationReport", self._facts(), ["problems", "summary"])

    def _repr_html_(self) -> str:
        from swissframe._display import summary_html

        return summary_html("ValidationReport", self._facts(),
                            {"summary": self.summary, "problems": self.problems}, rows=10)

    def __str__(self) -> str:
        return self.text()

    def text(self, more: str = "see report.problems") -> str:
        """The full report, ``str(report)``; ``more`` says where a kind's rows beyond the
        first few are (the CLI: its ``-o problems.csv``)."""
        from swissframe._display import count

        n_err, n_warn = self.errors.height, self.warnings.height
        head = (f"swissframe validate: {count(self.rows, 'row')}, "
                f"{count(self.events, 'event')}, rules {self.rules}, "
                + (f"best of {self.best_of}" if self.best_of else "scores unchecked") + " — ")
        n_notes = self.notes.height
        if self.problems.height == 0:
            return head + "no problems found."
        lines = [head + ("no problems found" if self.clean
                         else f"{count(n_err, 'error')}, {count(n_warn, 'warning')}")
                 + (f"; {count(n_notes, 'note')}." if n_notes else ".")]
        # the one file and the one event every problem is of, said once above them (a
        # decklist file's path and id, 150 characters each, opened every problem's line)
        shared = {c: vals[0] for c in ("file", "event_id") if c in self.problems.columns
                  and len(vals := self.problems[c].unique().to_list()) == 1
                  and vals[0] is not None}
        lines += [f"all in file {v}" if c == "file" else f"all in event {quoted(v)}"
                  for c, v in shared.items()]
        for kind, grp in self.by_kind().items():
            info = KINDS.get(kind, Kind("error", kind, ""))
            lines.append(f"\n{info.severity.upper()} {kind} ({grp.height}): {info.meaning}")
            for row in grp.head(_SHOWN_PER_KIND).iter_rows(named=True):
                lines.append("  - " + _describe({**row, **dict.fromkeys(shared)},
                                                said_above=bool(shared)))
            if grp.height > _SHOWN_PER_KIND:
                lines.append(f"  … and {grp.height - _SHOWN_PER_KIND} more ({more})")
            if info.action:
                lines.append(f"  Hint: {info.action}.")
        return bounded("\n".join(lines))  # (an id of a million characters, cut)


def _describe(row: Mapping[str, object], *, said_above: bool = False) -> str:
    """One problem's line: where (file, event, round, player, record) and what.
    ``said_above``: the file or the event every problem is of is said once above the
    lines (``all in file …``), so a line left with no place is the detail alone (it was
    "table: …", a decklist or TOM file's event-level note called a table)."""
    parts = []
    if row["file"] is not None:
        parts.append(f"file {row['file']}")
    if row["event_id"] is not None:
        parts.append(f"event {quoted(row['event_id'])}")
    if row["round"] is not None:
        parts.append(f"round {row['round']}")
    if row["player_id"] is not None:
        opp = f" vs {quoted(row['opponent_id'])}" if row["opponent_id"] is not None else ""
        parts.append(f"player {quoted(row['player_id'])}{opp}")
    rec = (row["games_won"], row["games_lost"], row["games_drawn"])
    if all(v is not None for v in rec):
        parts.append("record " + "-".join(str(v) for v in rec))
    where = ", ".join(parts) or ("" if said_above else "table")
    return f"{where}: {row['detail']}" if where else str(row["detail"])


# --------------------------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------------------------


def coerce(frame: Frame, *, int_columns: Sequence[str] = INT_COLUMNS,
           str_columns: Sequence[str] = _STR_COLUMNS, text: bool = False
           ) -> tuple[pl.LazyFrame | None, list[pl.LazyFrame]]:
    """Cast columns to the contract's types, reporting each column and cell that needs it.

    Whole-number cells are read by ``schema.whole_numbers``, flag cells (``double_loss``)
    by ``schema.flag_values``: the engine's readings. With ``text`` the frame was read
    from a CSV file, whose cells are all text: a text column is then no ``schema``
    problem (only its cells that do not read are, as ``bad_value``).

    Returns the cast frame (with a ``_sf_row`` row index; rows holding a bad cell removed),
    or None when the table cannot be read at all, and the problem frames.
    """
    lf = frame.lazy().with_row_index(_ROW)
    schema = lf.collect_schema()
    problems: list[pl.LazyFrame] = []

    def schema_row(detail: str, value: str | None = None) -> pl.LazyFrame:
        return file_problem("schema", detail).with_columns(
            pl.lit(value, dtype=pl.String).alias("value")).lazy()

    fatal = False
    casts: list[pl.Expr] = []
    bad_cells: list[tuple[str, pl.Expr, str]] = []
    for c in int_columns:
        if c not in schema:
            continue
        dt = schema[c]
        if dt.is_integer() or dt == pl.Null:
            if dt.is_integer() and not fits_int64(dt):  # values beyond Int64, either side
                as_int = whole_numbers(c, dt)
                casts.append(as_int.alias(c))
                bad_cells.append((c, pl.col(c).is_not_null() & as_int.is_null(),
                                  "is beyond the 64-bit integer range"))
            else:
                casts.append(pl.col(c).cast(pl.Int64))
            continue
        if dt.is_float() or dt.is_decimal() or string_like(dt):
            if not (text and string_like(dt)):
                problems.append(schema_row(
                    f"{c} is {dt}, expected an integer type; values are read as whole "
                    "numbers (cast it with pl.col(...).cast(pl.Int64))", str(dt)))
            as_int = whole_numbers(c, dt)  # (the contract's reading of such a cell)
            casts.append(as_int.alias(c))
            bad_cells.append((c, pl.col(c).is_not_null() & as_int.is_null(),
                              "is not a whole number"))
            continue
        problems.append(schema_row(f"{c} is {dt}, expected an integer type; it cannot be "
                                   "read as one", str(dt)))
        fatal = True
    for c in str_columns:
        if c not in schema:
            continue
        dt = schema[c]
        if string_like(dt):
            casts.append(pl.col(c).cast(pl.String))
        elif has_text_form(dt):
            problems.append(schema_row(
                f"{c} is {dt}, expected a string type (read as text; cast it with "
                "pl.col(...).cast(pl.String))", str(dt)))
            casts.append(pl.col(c).cast(pl.String))
        else:
            problems.append(schema_row(f"{c} is {dt}, expected a string type; it cannot be "
                                       "read as one", str(dt)))
            fatal = True
    for c in FLAG_COLUMNS:
        if c not in schema or schema[c] in (pl.Boolean, pl.Null):
            continue
        dt = schema[c]
        if not (dt.is_integer() or string_like(dt)):
            problems.append(schema_row(f"{c} is {dt}, expected Boolean; it cannot be read "
                                       "as one", str(dt)))
            fatal = True
            continue
        if not (text and string_like(dt)):
            problems.append(schema_row(
                f"{c} is {dt}, expected Boolean; values are read as flags "
                f"({flag_spellings()})", str(dt)))
        casts.append(flag_values(c, dt).alias(c))
        bad_cells.append((c, pl.col(c).is_not_null() & flag_cells(c, dt).is_null(),
                          f"is not a flag ({flag_spellings()})"))
    if fatal:
        return None, problems
    raw = lf
    lf = lf.with_columns(casts)
    for c, vocab in VOCABULARY.items():
        if c in schema:
            bad_cells.append((c, pl.col(c).cast(pl.String).is_not_null()
                              & ~pl.col(c).cast(pl.String).is_in(vocab),
                              f"is not one of {', '.join(vocab)}"))
    if not bad_cells:
        return lf, problems
    # every condition reads the raw (uncast) values
    flags = raw.with_columns(
        [pl.col(c).cast(pl.String, strict=False).alias(f"_raw{i}")
         for i, (c, _, _) in enumerate(bad_cells)]).select(
        _ROW, *[f"_raw{i}" for i in range(len(bad_cells))],
        *[cond.alias(f"_bad{i}") for i, (_, cond, _) in enumerate(bad_cells)])
    merged = lf.join(flags, on=_ROW, how="left")
    any_bad = pl.any_horizontal(pl.col(f"_bad{i}") for i in range(len(bad_cells)))
    for i, (c, _, why) in enumerate(bad_cells):
        hit = merged.filter(pl.col(f"_bad{i}"))
        problems.append(_rows("bad_value", hit, pl.format(
            "{} '{}' {}", pl.lit(c), pl.col(f"_raw{i}"), pl.lit(why)),
            value=pl.col(f"_raw{i}")))
    kept = merged.filter(~any_bad.fill_null(False)).select(lf.collect_schema().names())
    return kept, problems


def _one_seat(lf: pl.LazyFrame, ev: Sequence[str]) -> pl.LazyFrame:
    """One row per match: the unpaired rows, seat A (smaller id), and rows with no mirror."""
    mirror = lf.select(*ev, "round", pl.col("player_id").alias("opponent_id"),
                       pl.col("opponent_id").alias("player_id")).unique()
    lonely = lf.filter(pl.col("opponent_id").is_not_null()).join(
        mirror, on=[*ev, "round", "player_id", "opponent_id"], how="anti")
    main = lf.filter(pl.col("opponent_id").is_null()
                     | (pl.col("player_id") < pl.col("opponent_id")))
    lonely = lonely.filter(pl.col("player_id") > pl.col("opponent_id"))
    return pl.concat([main, lonely], how="vertical")


def _scores(lf: pl.LazyFrame, ev: Sequence[str], best_of: int | None) -> list[pl.LazyFrame]:
    w, lo, d = pl.col("games_won"), pl.col("games_lost"), pl.col("games_drawn")
    valid = (w >= 0) & (lo >= 0) & (d >= 0)
    rows = _one_seat(lf.filter(valid), ev)
    rec = pl.format("{}-{}-{}", w, lo, d)
    out: list[pl.LazyFrame] = []
    if best_of is not None:
        known = rows
        schema = lf.collect_schema()
        if "games_known" in schema:  # (the decklist reader's column, perhaps written to a
            # file and read back as text, "yes" or "x": Polars casts no text to Boolean,
            # so such a table ended in an internal InvalidOperationError; a cell that is
            # no flag is a score checked)
            known = rows.filter(flag_values("games_known", schema["games_known"])
                                .fill_null(value=True))
        impossible = impossible_score(w, lo, best_of)
        out.append(_rows("impossible_score", known.filter(impossible), pl.format(
            f"{{}} is {impossible_score_words(best_of)}", rec)))
        total = w.cast(pl.Float64) + lo.cast(pl.Float64) + d.cast(pl.Float64)
        out.append(_rows("unusual_score", known.filter(~impossible & (total > 2 * best_of)),
                         pl.format("{} games in one best-of-{} match", rec, pl.lit(best_of))))
    zero = (w == 0) & (lo == 0) & (d == 0)
    if "double_loss" in lf.collect_schema().names():  # a double loss is not a draw
        zero = zero & ~pl.col("double_loss").cast(pl.Boolean, strict=False).fill_null(False)
    out.append(_rows("zero_games", rows.filter(zero), pl.when(
        pl.col("opponent_id").is_null()).then(pl.lit(
            "unpaired round reported 0-0-0: counted as a match draw"))
        .otherwise(pl.lit("match reported 0-0-0: counted as a match draw with no games"))))
    out.append(_rows("playoff_draw", rows.filter(
        (pl.col("phase") == "playoff") & pl.col("opponent_id").is_not_null() & (w == lo)),
        pl.format("playoff match drawn {}", rec)))
    return out


def missing_rounds(lf: pl.LazyFrame, ev: Sequence[str] = ("event_id",)) -> pl.LazyFrame:
    """The ``missing_round`` problems: each run of rounds before an event's last in which
    it has no row at all (all phases), as problem rows (what ``validate`` lists, and what
    :func:`swissframe.read` warns of)."""
    ev = list(ev)
    present = lf.filter(pl.col("round") >= 1).select(*ev, "round").unique()
    # gaps in the event's rounds (all phases): never materialise the missing range
    gaps = (present.sort([*ev, "round"])
            .with_columns(_prev=pl.col("round").shift(1).over(ev).fill_null(0))
            .filter(pl.col("round") - pl.col("_prev") > 1)
            .with_columns(_first=pl.col("_prev") + 1, _last=pl.col("round") - 1))
    gaps = gaps.join(present.group_by(ev).agg(_max=pl.col("round").max()), on=ev, how="left")
    return _rows("missing_round", gaps.with_columns(pl.col("_first").alias("round")),
                    pl.when(pl.col("_first") == pl.col("_last"))
                    .then(pl.format("no row in round {} (the event has rows up to round {})",
                                    pl.col("_first"), pl.col("_max")))
                    .otherwise(pl.format("no row in rounds {}–{} (the event has rows up to "
                                         "round {})", pl.col("_first"), pl.col("_last"),
                                         pl.col("_max"))),
                    value=pl.format("{}-{}", pl.col("_first"), pl.col("_last")))


def no_swiss_rounds(lf: pl.LazyFrame, ev: Sequence[str] = ("event_id",)) -> pl.LazyFrame:
    """The ``no_swiss_round`` problems: each event with rows (``swiss`` or ``playoff``)
    but not one Swiss row — a knockout event (157 of the real decklist-cache events: last
    chance qualifiers, single-elimination side events), or a bracket exported without its
    Swiss rounds —, whose Swiss standings are empty: it vanished from ``standings``
    without a word (what ``validate`` lists, and what :func:`swissframe.read` warns of)."""
    ev = list(ev)
    per = lf.group_by(ev).agg(_swiss=(pl.col("phase") == "swiss").sum(), _n=pl.len(),
                              _first=pl.col("round").min(), _last=pl.col("round").max())
    rounds = (pl.when(pl.col("_first") == pl.col("_last"))
              .then(pl.format("round {}", pl.col("_first")))
              .otherwise(pl.format("rounds {}–{}", pl.col("_first"), pl.col("_last"))))
    return _rows("no_swiss_round", per.filter(pl.col("_swiss") == 0), pl.format(
        "{} in {} and no Swiss row: the event has no Swiss standings",
        count_expr(pl.col("_n"), "playoff row"), rounds))


def _rounds(lf: pl.LazyFrame, ev: Sequence[str]) -> list[pl.LazyFrame]:
    """Missing rounds of each event (a gap, or no Swiss round at all), and late entries /
    returns of each player."""
    missing = pl.concat([missing_rounds(lf, ev), no_swiss_rounds(lf, ev)])
    ok = lf.filter(pl.col("round") >= 1)
    # players: Swiss rounds only, positions among the event's Swiss rounds
    swiss = ok.filter(pl.col("phase") == "swiss")
    ev_rounds = event_rounds(ok, ev).rename({"_i": "_pos"})
    per = (swiss.group_by([*ev, "player_id"])
           .agg(_first=pl.col("round").min(), _last=pl.col("round").max(),
                _n=pl.col("round").n_unique()))
    per = (per.join(ev_rounds.rename({"round": "_first", "_pos": "_p0"}), on=[*ev, "_first"])
           .join(ev_rounds.rename({"round": "_last", "_pos": "_p1"}), on=[*ev, "_last"])
           .join(ev_rounds.group_by(ev).agg(_ev_first=pl.col("round").min()), on=ev))
    late = per.filter(pl.col("_first") > pl.col("_ev_first"))
    entries = _rows("late_entry", late.with_columns(pl.col("_first").alias("round")),
                    pl.format("first row in round {}; the event's first round is {}",
                              pl.col("_first"), pl.col("_ev_first")))
    gap_players = per.filter(pl.col("_n") < pl.col("_p1") - pl.col("_p0") + 1)
    absent = (gap_players.select(*ev, "player_id", "_first", "_last")
              .join(ev_rounds.select(*ev, "round"), on=ev)
              .filter((pl.col("round") > pl.col("_first")) & (pl.col("round") < pl.col("_last")))
              .join(swiss.select(*ev, "round", "player_id"), on=[*ev, "round", "player_id"],
                    how="anti")
              .group_by([*ev, "player_id", "_first", "_last"])
              .agg(_missed=pl.col("round").sort()))
    returns = _rows("late_return", absent.with_columns(
        pl.col("_missed").list.first().alias("round")), pl.format(
        "no row in {} {} but plays again up to round {} (a late return: only the "
        "rounds played count, or under late_rounds='loss' a loss each)",
        noun_expr(pl.col("_missed").list.len(), "round"),
        pl.col("_missed").cast(pl.List(pl.String)).list.join(", "), pl.col("_last")))
    return [missing, entries, returns]


#: Characters a reader does not see in an id: controls (Cc, e.g. a tab or U+0085), format
#: characters (Cf: zero-width U+200B–U+200D, the bidi marks and overrides U+200E–U+200F,
#: U+202A–U+202E and U+2066–U+2069, the byte-order mark U+FEFF, the soft hyphen U+00AD …)
#: and the line and paragraph separators U+2028 / U+2029.
_INVISIBLE: Final = r"[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]"
#: A character a zero-width non-joiner or joiner belongs beside: a letter, mark or symbol
#: of a script other than Latin (Persian and Indic letters, an emoji, its variation
#: selector). Between two of them a joiner is the name's spelling (علی‌رضا, a family emoji
#: 👨‍👩‍👧), not an invisible character typed by mistake (bad data 156); beside a Latin or
#: ASCII letter, a space or an end ('Al\u200dice') it stays suspicious.
_JOINABLE: Final = r"[[\p{L}\p{M}\p{S}]--[\p{Latin}\x00-\x7F]]"
#: A placeholder for a joiner after a joinable character while the one after it is looked
#: at (a noncharacter: an id holding one is flagged all the same).
_MARK: Final = "\uffff"
_INVISIBLE_OR_MARK: Final = r"[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\x{FFFF}]"


def _unjoined(ids: pl.Expr) -> pl.Expr:
    """``ids`` without the zero-width joiners that stand between two joinable characters
    (:data:`_JOINABLE`), the others kept (Polars' patterns look neither behind nor ahead:
    a joiner after a joinable character is marked, then dropped where one follows).

    >>> import polars as pl
    >>> ids = pl.Series(["Ali\u200cReza", "\u0639\u0644\u06cc\u200c\u0631\u0636\u0627",
    ...                  "\U0001f468\u200d\U0001f469\u200d\U0001f467", "\u0639\u200c"])
    >>> out = ids.to_frame("id").select(_unjoined(pl.col("id")))["id"].to_list()
    >>> [len(a) - len(b) for a, b in zip(ids, out, strict=True)]  # (joiners dropped)
    [0, 1, 2, 0]
    """
    joiner = r"[\x{200C}\x{200D}]"
    return (ids.str.replace_all(f"({_JOINABLE}){joiner}", "${1}" + _MARK)
            .str.replace_all(f"{_MARK}({_JOINABLE})", "${1}"))


#: The invisible characters that do not space words apart (removed from a look-alike key;
#: tabs, newlines and the separators count as a space).
_NOT_SPACING: Final = r"[\p{Cf}[\p{Cc}--\s]]"
#: Cyrillic and Greek capitals drawn like a Latin capital (a look-alike key is built in
#: capitals, so that 'Аlice' with a Cyrillic А and 'Alice' meet). Not the whole Unicode
#: confusables table (UTS #39): the letters of names typed on two keyboards.
_HOMOGLYPHS: Final[Mapping[str, str]] = {
    **dict(zip("АВЕЅІЈКМНОРСТХУҺԚԜ", "ABESIJKMHOPCTXYHQW", strict=True)),
    **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEZHIKMNOPTYX", strict=True)),
}


def lookalike_key(ids: pl.Expr) -> pl.Expr:
    """The reading of an id under which ids a reader takes for one are equal.

    Unicode compatibility form (NFKC: composed accents, full-width letters and the no-break
    space as their plain forms), invisible format and control characters removed, each run
    of whitespace one space, no surrounding space, Cyrillic and Greek capitals drawn like
    Latin ones read as those, and case folded (capitals, then small letters: 'ß' meets
    'SS'). Accents are kept: 'Elena' and 'Eléna' stay two ids.

    Examples
    --------
    >>> import polars as pl
    >>> ids = pl.Series(["Ele\\u0301na", "El\\u00e9na", "Al\\u200bice", " ALICE", "\\u0410lice",
    ...                  "Stra\\u00dfe", "STRASSE", "Ｂｏｂ", "Elena"])
    >>> ids.to_frame("id").select(lookalike_key(pl.col("id")))["id"].to_list()
    ['eléna', 'eléna', 'alice', 'alice', 'alice', 'strasse', 'strasse', 'bob', 'elena']
    """
    return (ids.str.normalize("NFKC").str.replace_all(_NOT_SPACING, "")
            .str.replace_all(r"\s+", " ").str.strip_chars().str.to_uppercase()
            .str.replace_many(_HOMOGLYPHS).str.to_lowercase())


def _shown(ids: pl.Expr) -> pl.Expr:
    """An id as the report shows it: quoted, and spelled in escapes too when its letters
    are not all ASCII (where look-alike ids differ: 'Eléna' (El\\xe9na), 'Eléna'
    (Ele\\u0301na)). Applied to the reported ids only."""
    return ids.map_elements(
        lambda s: repr(s) if repr(s) == ascii(s) else f"{quoted(s)} ({escaped(s)})",
        return_dtype=pl.String)


def _round_ranges(frame: pl.LazyFrame, by: Sequence[str]) -> pl.LazyFrame:
    """``by`` and ``_rounds_text`` ('1, 3–5') from the sorted ``_rounds`` list of each row."""
    runs = (frame.select(*by, "_rounds").explode("_rounds").drop_nulls("_rounds")
            .with_columns(_run=pl.col("_rounds") - pl.int_range(pl.len()).over(by))
            .group_by([*by, "_run"]).agg(_a=pl.col("_rounds").min(), _b=pl.col("_rounds").max())
            .sort([*by, "_a"])
            .with_columns(pl.when(pl.col("_a") == pl.col("_b")).then(pl.col("_a").cast(pl.String))
                          .otherwise(pl.format("{}–{}", "_a", "_b")).alias("_t")))
    return runs.group_by(by, maintain_order=True).agg(_rounds_text=pl.col("_t").str.join(", "))


def _ids(lf: pl.LazyFrame, ev: Sequence[str]) -> list[pl.LazyFrame]:
    """Ids a reader would misread: ids with surrounding whitespace or invisible characters,
    and distinct ids of one event that read as one (:func:`lookalike_key`)."""
    ids = pl.concat([lf.select("event_id", "round", pl.col(c).alias("_id"),
                               pl.lit(c).alias("_col")) for c in ID_COLUMNS if c != "event_id"]
                    + [lf.select("event_id", "round", pl.col("event_id").alias("_id"),
                                 pl.lit("event_id").alias("_col"))], how="vertical")
    ids = ids.filter(pl.col("_id").is_not_null())
    # an empty or blank id is an error of the contract (empty_id); these are computable
    # oddities
    spaced = pl.col("_id").str.strip_chars() != pl.col("_id")
    invisible = _unjoined(pl.col("_id")).str.contains(_INVISIBLE_OR_MARK)
    no_id = blank(pl.col("_id")) & (pl.col("_col") != "event_id")  # (empty_id's)
    hit = (ids.filter((spaced | invisible) & ~no_id).group_by("event_id", "_col", "_id")
           .agg(pl.col("round").min()).with_columns(
               pl.when(pl.col("_col") == "opponent_id").then(pl.col("_id"))
               .alias("opponent_id"),
               pl.when(pl.col("_col") == "player_id").then(pl.col("_id")).alias("player_id")))
    odd = _rows("suspicious_id", hit, pl.format(
        "{} {} has {}", pl.col("_col"), _shown(pl.col("_id")), pl.concat_str(
            [pl.when(spaced).then(pl.lit("surrounding whitespace")),
             pl.when(invisible).then(pl.lit("invisible characters (control, zero-width or "
                                            "bidi)"))], separator=" and ", ignore_nulls=True)),
        value=pl.col("_id"))
    return [odd, *_lookalikes(lf, ev)]


def _lookalikes(lf: pl.LazyFrame, ev: Sequence[str]) -> list[pl.LazyFrame]:
    """One suspicious_id row per set of distinct player ids of one event with one
    :func:`lookalike_key`: the spelling in the fewest rounds is the row's player, the others
    its value. The key is computed once per distinct id of the table, and only the ids that
    share their key with another id anywhere are grouped by event: a table without such ids
    (most) costs one ``unique`` and no more queries (10,000 events: ≈ 20 ms)."""
    names = (lf.select(pl.col("player_id").unique())
             .filter(pl.col("player_id").is_not_null() & (pl.col("player_id") != ""))
             .with_columns(_key=lookalike_key(pl.col("player_id")))
             .filter(pl.len().over("_key") > 1)).pipe(collect)
    if names.height == 0:
        return []
    per_id = (lf.join(names.lazy(), on="player_id")
              .group_by([*ev, "player_id", "_key"])
              .agg(_rounds=pl.col("round").drop_nulls().unique().sort()))
    twins = per_id.filter(pl.len().over([*ev, "_key"]) > 1)
    twins = twins.join(_round_ranges(twins, [*ev, "player_id"]), on=[*ev, "player_id"],
                       how="left", nulls_equal=True)
    n = pl.col("_rounds").list.len()
    twins = twins.with_columns(_text=pl.format(
        "{} in {}", _shown(pl.col("player_id")),
        pl.when(n == 0).then(pl.lit("no numbered round")).otherwise(pl.format(
            "{} {}", pl.when(n == 1).then(pl.lit("round")).otherwise(pl.lit("rounds")),
            pl.col("_rounds_text")))))
    groups = (twins.sort([*ev, "_key", pl.col("_rounds").list.len(), "player_id"])
              .group_by([*ev, "_key"], maintain_order=True)
              .agg(pl.col("player_id").first(), round=pl.col("_rounds").first().list.first(),
                   _others=pl.col("player_id").slice(1), _texts=pl.col("_text")))
    return [_rows("suspicious_id", groups, pl.format(
        "{} read as one id once case, Unicode form, spacing and invisible characters are "
        "set aside: one person under two spellings? fix the id in the source",
        pl.col("_texts").list.join(" and ")),
        value=pl.col("_others").list.join(", "))]


def _duplicate_events(lf: pl.LazyFrame, ev: Sequence[str]) -> list[pl.LazyFrame]:
    """Events whose every round appears identically in another event: each copy of an
    event named against the first of its copies (by id), and an event whose rounds are
    all in a longer one (a truncated copy) against the first such event.

    Copies are found by one group-by of the events' signatures, not by pairing the
    events that share a round: k copies of one event (the same one-match event 10,000
    times) paired k² events, out of memory (bad data 263), and said k(k − 1)/2 rows."""
    # a round's rows as a multiset: the sum of its rows' hashes (wrapping; equal multisets
    # give equal sums, different ones collide with odds of about 2**-64 — a warning's).
    # Joining each round's sorted rows as text took 16 s and 3 GB on 37.5M rows.
    line = pl.struct(pl.col("phase"), pl.col("player_id"), pl.col("opponent_id"),
                     pl.col("games_won"), pl.col("games_lost"), pl.col("games_drawn")).hash(7)
    per_round = (lf.group_by([*ev, "round"])
                 .agg(_h=line.sum(), _n=pl.len()))
    # an event as its rounds (each round's number and rows): the same signature, round
    # count and row count are the same event
    order = pl.concat_str([pl.col(c).fill_null("") for c in ev], separator="\x1f")
    events = (per_round.group_by(ev)
              .agg(_k=pl.len(), _rows=pl.col("_n").sum(),
                   _sig=pl.struct("round", "_h").hash(11).sum())
              .with_columns(_order=order))
    first = (events.sort("_order").group_by("_sig", "_k", "_rows", maintain_order=True)
             .agg(*[pl.col(c).first().alias(f"_o_{c}") for c in ev]))
    # each event beside the first of its copies (itself, where it is the first)
    beside = events.join(first, on=["_sig", "_k", "_rows"])
    copies = beside.filter(
        pl.any_horizontal(pl.col(c).ne_missing(pl.col(f"_o_{c}")) for c in ev))
    rounds = count_expr(pl.col("_k"), "round")
    said = [_rows("duplicate_event", copies, pl.format(
        "same rounds and results as event '{}' ({}, {})", pl.col("_o_event_id"), rounds,
        count_expr(pl.col("_rows"), "row")), value=pl.col("_o_event_id"))]
    # a truncated copy, among the first of each set of copies: every round of a shorter
    # event in a longer one (the first copies' rounds, with their events' round counts)
    kept = beside.filter(
        pl.all_horizontal(pl.col(c).eq_missing(pl.col(f"_o_{c}")) for c in ev)
    ).select(*ev, "_k", "_order")
    ones = per_round.join(kept, on=ev, nulls_equal=True)
    other = ones.select(
        *[pl.col(c).alias(f"_o_{c}") for c in ev], "round", "_h", pl.col("_k").alias("_ok"),
        pl.col("_order").alias("_oorder"))
    within = (ones.join(other, on=["round", "_h"])
              .filter(pl.col("_k") < pl.col("_ok"))
              .group_by([*ev, *[f"_o_{c}" for c in ev], "_k", "_ok", "_oorder"])
              .agg(_m=pl.len())
              .filter(pl.col("_m") == pl.col("_k"))
              .sort("_oorder").group_by(ev, maintain_order=True).first())
    return [*said, _rows("duplicate_event", within, pl.format(
        "{} identically in event '{}' ({}): a truncated copy?",
        pl.when(pl.col("_k") == 1).then(pl.lit("its 1 round appears"))
        .otherwise(pl.format("all {} appear", rounds)),
        pl.col("_o_event_id"), count_expr(pl.col("_ok"), "round")),
        value=pl.col("_o_event_id"))]


def _origin(lf: pl.LazyFrame, origin: str) -> tuple[list[pl.LazyFrame], pl.LazyFrame]:
    files = (lf.filter(pl.col(origin).is_not_null()).group_by("event_id")
             .agg(pl.col(origin).cast(pl.String).unique().sort().alias("_files")))
    split = files.filter(pl.col("_files").list.len() > 1)
    probs = [_rows("event_split", split, pl.format(
        "event rows come from {} files: {}", pl.col("_files").list.len(),
        pl.col("_files").list.join(", ")))]
    names = files.select("event_id", pl.col("_files").list.join(", ").alias("_file"))
    return probs, names


def _with_records(found: pl.DataFrame, table: pl.LazyFrame, ev: Sequence[str]) -> pl.LazyFrame:
    """schema.find_problems rows, with severities and the offending records joined in."""
    keys = ["event_id", "round", "player_id", "opponent_id"]
    games = ["games_won", "games_lost", "games_drawn"]
    # a seat given twice with different records (a duplicate seat) names no record: which
    # one a problem is about is not in its keys, and the first in the rows' order made the
    # report depend on that order
    recs = (table.select(*keys, *games)
            .join(found.lazy().select(keys).unique(), on=keys, how="semi", nulls_equal=True)
            .unique()
            .group_by(keys).agg(pl.col(games).first(), pl.len().alias("_n"))
            .select(*keys, *(pl.when(pl.col("_n") == 1).then(pl.col(g)).alias(g)
                             for g in games)))
    base = found.lazy().join(recs, on=keys, how="left", nulls_equal=True)
    sev = pl.col("kind").replace_strict({k: v.severity for k, v in KINDS.items()},
                                        default="error")
    return base.select(
        sev.alias("severity"), "kind", *keys, "games_won", "games_lost", "games_drawn",
        pl.lit(None, dtype=pl.String).alias("value"), pl.lit(None, dtype=pl.String)
        .alias("file"), "detail")


def resolve_best_of(best_of: object, kinds: Sequence[str] = ()) -> int | None:
    """The games per match a ``best_of`` argument asks for: a whole number ≥ 1 as given,
    None (no score checks), or ``"auto"`` (any case): the most common format's among
    ``kinds``, the formats of the files read (:func:`~swissframe.io._files.auto_best_of`:
    3 for tables and decklists, 1 for TOM and TRF, which record matches, not games; 3
    for a table not read from files).

    Examples
    --------
    >>> resolve_best_of("auto", ["trf"]), resolve_best_of("Auto"), resolve_best_of(5)
    (1, 3, 5)
    """
    from swissframe.io._files import auto_best_of

    if is_auto(best_of):
        return auto_best_of(kinds)
    if best_of is None:
        return None
    # (a NumPy integer was "best_of must be a whole number": bad data 242)
    if isinstance(best_of, numbers.Integral) and not isinstance(best_of, bool) \
            and int(best_of) >= 1:
        return int(best_of)
    msg = (f"best_of must be a whole number ≥ 1, 'auto' or None, got {best_of!r}. "
           "Hint: 1, 3 or 5; 'auto' reads it from the files' format.")
    raise SchemaError(msg)


def _validate(results: Frame, *, rules: str | Ruleset = AUTO,
              best_of: int | str | None = 3,
              keys: Sequence[str] = (), origin: str | None = None,
              default_event_id: str = "event", extra: Sequence[pl.DataFrame] = (),
              rows_extra: int = 0) -> ValidationReport:
    keys = key_columns(keys)  # (None or a number was a bare TypeError; one name, its letters)
    auto = is_auto(rules)
    if not auto:
        get(rules)  # (an unknown name is refused before the table is read)
    best_of = resolve_best_of(best_of)
    if not isinstance(results, (pl.DataFrame, pl.LazyFrame)):
        kind, hint = not_a_table(results, made_by="sf.validate(sf.read(path))")
        msg = (f"validate takes a polars DataFrame or LazyFrame (or what sf.read returns), "
               f"got {kind}. Hint: {hint}.")
        raise SchemaError(msg)
    lf_in = as_frame(results).lazy()  # (a LazyFrame's plan runs once, its failure named)
    ruleset = get(auto_rules(lf_in)[0] if auto else rules)
    schema = lf_in.collect_schema()
    n_rows = int(lf_in.select(pl.len()).pipe(collect).item()) + rows_extra
    problems: list[pl.LazyFrame] = [e.lazy() for e in extra]

    def finish(events: int, file_names: pl.LazyFrame | None = None) -> ValidationReport:
        frames = [p.select(list(PROBLEM_SCHEMA)).cast(pl.Schema(PROBLEM_SCHEMA))
                  for p in problems]
        out = pl.concat(frames, how="vertical") if frames else _empty().lazy()
        if file_names is not None:
            out = (out.join(file_names, on="event_id", how="left")
                   .with_columns(pl.coalesce("file", "_file").alias("file")).drop("_file"))
        out = (out.with_columns(pl.col("severity").replace_strict(
            _SEVERITY_ORDER, default=0, return_dtype=pl.Int8).alias("_o"))
            # (value and detail last: rows alike up to the opponent come from joins whose
            # output order is not fixed — an event's several duplicates — and the report
            # must not depend on it)
            .sort("_o", "kind", "event_id", "round", "player_id", "opponent_id", "value",
                  "detail", nulls_last=True, maintain_order=True).drop("_o"))
        return ValidationReport(problems=out.pipe(collect), rows=n_rows, events=events,
                                rules=ruleset.name, best_of=best_of)

    missing = [c for c in REQUIRED_COLUMNS if c not in schema]
    missing += [k for k in keys if k not in schema]
    no_stage = missing_stage(ruleset, list(schema))
    if no_stage is not None:
        problems.append(file_problem("schema", no_stage).lazy())
    if missing:
        problems.append(file_problem("schema", (
            f"missing required column(s) {missing}; found {list(schema)} (a one-row-per-"
            "match table goes through sf.from_matches first)")).lazy())
        return finish(0)
    misnamed, why = misnamed_optional(list(schema))
    if misnamed:  # (said once; the other checks read the rows as the contract reads them)
        problems.append(file_problem("schema", why).lazy())
        lf_in = lf_in.drop(misnamed)
    if "event_id" not in schema:
        lf_in = lf_in.with_columns(default_event(default_event_id))
    if "phase" not in schema:
        lf_in = lf_in.with_columns(pl.lit("swiss", dtype=pl.String).alias("phase"))
    cast, coerced = coerce(lf_in)
    problems.extend(coerced)
    if cast is None:
        return finish(0)
    table = cast.pipe(collect).lazy()
    ev = ["event_id", *keys]
    # analysis keys are compared as text (they only need equality)
    table = table.with_columns(pl.col(k).cast(pl.String, strict=False) for k in keys)
    contract = table.drop(_ROW)
    if origin is not None and origin in schema:
        contract = contract.drop(origin)
    try:
        found = find_problems(contract, default_event_id=default_event_id, keys=list(keys))
    except SchemaError as exc:  # defensive: coerce() should have made the table readable
        problems.append(file_problem("schema", str(exc).splitlines()[0]).lazy())
        return finish(0)
    problems.append(_with_records(found, table, ev))
    # (a null phase is a null_value of schema.find_problems: the engine would skip the row)
    need = ["event_id", "round", "player_id", "games_won", "games_lost", "games_drawn"]
    rows_ok = table.filter(pl.all_horizontal(pl.col(c).is_not_null() for c in need))
    problems.extend(_scores(rows_ok, ev, best_of))
    problems.extend(_rounds(rows_ok.filter(pl.col("phase").is_in(("swiss", "playoff"))), ev))
    problems.extend(_ids(table, ev))
    if ruleset.missing_rounds == "absent":
        problems.append(_rows("inferred_absence", inferred_absences(rows_ok, ev),
                              pl.format("no row in round {}: counted as an absence "
                                        "(unplayed='absent')", pl.col("round"))))
    problems.extend(_duplicate_events(rows_ok, ev))
    file_names = None
    if origin is not None and origin in schema:
        split, file_names = _origin(table, origin)
        problems.extend(split)
    events = int(table.select(pl.col("event_id").drop_nulls().n_unique()).pipe(collect).item())
    return finish(events, file_names)


@scoped
def validate(results: Frame | Source, *, rules: str | Ruleset = AUTO,
             best_of: int | str | None = AUTO, keys: Sequence[str] = (),
             origin: str | None = None,
             default_event_id: str = "event") -> ValidationReport:
    """Check a results table and list every problem, grouped by kind.

    Unlike :func:`swissframe.validate_results`, nothing is raised for bad rows: the report
    collects schema problems, unreadable cells, contract violations (duplicate seats,
    self-pairings, one-sided or contradictory mirrors, unknown opponents, ...), impossible
    game scores for a best-of-``best_of`` match, missing rounds, late entries and returns,
    suspicious ids and duplicated events. See :data:`KINDS` for every kind and its severity.
    Given what :func:`swissframe.read` read (a :class:`~swissframe.io._files.Source`), it
    also lists what the read said (:func:`read_problems`: unreadable files, import notes,
    a format's routine as a ``format_note``), as ``swissframe validate`` does.

    Parameters
    ----------
    results
        A long results table (DataFrame or LazyFrame), in any state of disrepair, or a
        ``Source`` (its results, each row's file as ``origin``, and its notes).
    rules
        Ruleset name or instance (a ``"stage"``-snapshot ruleset needs a ``stage`` column);
        ``"auto"``: the one ruleset the table's ``ruleset`` column names (what
        :func:`swissframe.read` infers for each event), else ``mtg``.
    best_of
        Games per match the game scores are checked against; None skips the score
        checks. ``"auto"``: 1 for a ``Source`` read mostly from TOM or TRF files (they
        record matches, not games), else 3 (MTG's best of three), as ``swissframe
        validate`` chooses (:func:`resolve_best_of`). Rows with ``games_known`` False are
        not checked.
    keys
        Extra key columns that, with ``event_id``, identify an event (e.g. ``scenario_id``).
    origin
        Optional column naming where each row came from (a file); reported per event and
        used to spot one event id fed by several files (a ``Source``: ``source_file``).
    default_event_id
        Event id of a table without an ``event_id`` column.

    Returns
    -------
    ValidationReport
        ``.problems``, ``.summary``, ``.ok`` (no errors), ``.clean`` (no problems at all),
        ``.notes`` (a format's routine: no problem); ``.files``: a ``Source``'s files.

    Raises
    ------
    RulesetError
        Unknown ruleset name.
    SchemaError
        ``results`` is not a polars frame or a ``Source``, or ``best_of`` is not a
        positive integer, ``"auto"`` or None.

    Examples
    --------
    >>> import polars as pl
    >>> from swissframe.validate import validate
    >>> df = pl.DataFrame({"event_id": ["e"] * 4, "round": [1, 1, 2, 2],
    ...     "player_id": ["a", "b", "a", "b"], "opponent_id": ["b", "a", "b", "a"],
    ...     "games_won": [3, 0, 2, 1], "games_lost": [0, 3, 1, 2], "games_drawn": [0] * 4})
    >>> report = validate(df)
    >>> report.ok
    False
    >>> report.summary.rows()
    [('error', 'impossible_score', 1)]
    >>> report.problems.filter(pl.col("kind") == "impossible_score").select(
    ...     "round", "player_id", "games_won", "games_lost").rows()
    [(1, 'a', 3, 0)]

    What a read said is in the report of its ``Source``: melee.gg lists a drawn match once
    for each player, the format's routine, read as meant (a note, so the report is clean):

    >>> import swissframe as sf
    >>> report = validate(sf.read("tests/fixtures/decklist/melee-draws-2-2024-07-13.json"))
    >>> report.clean, report.rules
    (True, 'melee-e2')
    >>> report.notes.select("kind", "round", "player_id").rows()
    [('format_note', 1, 'B'), ('format_note', 2, 'A'), ('format_note', 2, 'C')]
    """
    from swissframe.io._files import Source

    if origin is not None and not isinstance(origin, str):  # (a list: a bare TypeError)
        msg = (f"origin must be a column name, got {origin!r:.60}. Hint: e.g. "
               "origin='source_file', or leave it out.")
        raise DataError(msg)
    if not isinstance(results, Source):
        return _validate(results, rules=rules, best_of=best_of, keys=keys, origin=origin,
                         default_event_id=default_event_id)
    table = results.results if results.results.width else pl.DataFrame(
        schema={c: PROBLEM_SCHEMA[c] for c in ("event_id", *REQUIRED_COLUMNS)})
    return validate_read(table, results, rules=rules, best_of=best_of, keys=keys,
                         origin=origin if origin is not None else SOURCE_FILE,
                         default_event_id=default_event_id, extra=read_problems(results))


def validate_read(table: Frame, src: Source | None, *, rules: str | Ruleset = AUTO,
                  best_of: int | str | None = AUTO, origin: str,
                  extra: Sequence[pl.DataFrame] = (), keys: Sequence[str] = (),
                  default_event_id: str = "event") -> ValidationReport:
    """The checks of what a read gave: ``table``, the rows of ``src`` (each row's file in
    column ``origin``), with ``extra`` problems (what the read said:
    :func:`read_problems`; the command line's paths that match nothing too).

    The one sequence of :func:`validate` of a ``Source`` and ``swissframe validate`` (which
    reads the files itself, to go on past an unreadable one): the games per match from the
    files' formats (``best_of="auto"``: :func:`resolve_best_of`), the ruleset from the
    events read (``rules="auto"``: an event with no round has no row, class 142), the
    checks, then the events read counted (``Source.event_count``) and the files named.
    ``src`` None: nothing was read (``mtg``, best of three under ``"auto"``).
    """
    games = resolve_best_of(best_of, src.file_formats if src is not None else ())
    if is_auto(rules):
        rules = auto_rules(src.events)[0] if src is not None else DEFAULT
    report = _validate(table, rules=rules, best_of=games, keys=keys, origin=origin,
                       default_event_id=default_event_id, extra=extra)
    if src is None:
        return report
    return dataclasses.replace(report, files=tuple(src.files),
                               events=max(report.events, src.event_count))


def raise_for(report: ValidationReport) -> None:
    """Raise :class:`~swissframe.errors.ValidationError` when the report has errors.

    Examples
    --------
    >>> import polars as pl
    >>> from swissframe.validate import raise_for, validate
    >>> raise_for(validate(pl.DataFrame({"round": [1], "player_id": ["a"],
    ...     "opponent_id": [None], "games_won": [2], "games_lost": [0], "games_drawn": [0]})))
    """
    if report.ok:
        return
    kinds = report.errors["kind"].unique(maintain_order=True).to_list()
    msg = (f"{count(report.errors.height, 'error')} in the results ({', '.join(kinds)}):\n"
           + "\n".join("  - " + _describe(r) for r in report.errors.head(10).iter_rows(
               named=True))
           + "\nHint: " + "; ".join(KINDS[k].action for k in kinds if k in KINDS) + ".")
    raise ValidationError(msg, report.errors)

