"""What every ``swissframe`` command shares: flags, output writing, terminal tables, progress.

One place per concern, so that every command behaves the same way:

- :class:`Parser` — argparse with the one-line error contract (``swissframe: error: … Hint: …``,
  exit status 2);
- :func:`add_files`, :func:`add_rules`, :func:`add_event`, :func:`add_top`,
  :func:`add_output`, :func:`add_quiet` — the common flags, with one meaning everywhere;
- :func:`positive_int`, :func:`non_negative_int` — argparse types for counts;
- :func:`output_format`, :func:`write_frame`, :func:`atomic_path` — the output format follows
  the suffix of ``-o`` (``.csv``, ``.tsv``, ``.parquet``, ``.json``, ``.ndjson``, ``.xlsx``,
  ``.txt``), an input is never overwritten, and a file appears only complete (temporary name,
  then rename);
- :func:`render_table` — a terminal table that fits the terminal's width and shows
  percentages as percentages;
- :func:`progress`, :func:`working` — tqdm bars, silenced by ``--quiet`` and never drawn on a
  stderr that is not a terminal;
- :func:`error_line` — the one-line message of an error caught at the CLI boundary.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import errno
import importlib
import importlib.util
import io
import os
import shutil
import sys
import threading
import warnings
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any, Final, NamedTuple, NoReturn, TextIO

import polars as pl

from swissframe._batches import reporting
from swissframe._display import (
    bounded,
    count,
    escaped,
    fill,
    fitted,
    number_text,
    plural,
    quoted,
    shown_as_is,
    text_width,
)
from swissframe.compare import PERCENT_CRITERIA, column_heading
from swissframe.errors import (
    DataError,
    DataWarning,
    SwissframeError,
    check_whole,
    did_you_mean,
    nearest,
)
from swissframe.io._files import (
    FORMATS,
    NO_RESULTS,
    NO_RESULTS_HINT,
    Source,
    local_path,
    names_a_folder,
    output_target,
    rank_within,
    read,
    replacing,
    resolved,
    said_of,
    temp_beside,
)
from swissframe.rules import Ruleset
from swissframe.rules._infer import describe

__all__ = [
    "EVENT_HELP",
    "FORMAT_BY_SUFFIX",
    "INPUT_FORMATS",
    "OUTPUT_FORMATS",
    "Parser",
    "PlayerRead",
    "absence_notes_of",
    "add_event",
    "add_files",
    "add_output",
    "add_quiet",
    "add_rules",
    "add_through_round",
    "add_top",
    "atomic_path",
    "check_round",
    "done",
    "error_line",
    "event_id_of",
    "event_ids",
    "filter_events",
    "find_player",
    "flush_notes",
    "for_terminal",
    "format_cell",
    "headings",
    "is_percent",
    "non_negative_int",
    "note",
    "one_event_id",
    "output_format",
    "positive_int",
    "progress",
    "read_player_event",
    "reading",
    "refuse_output",
    "render_table",
    "rows_said",
    "say",
    "show_error",
    "show_progress",
    "terminal_width",
    "text_columns",
    "working",
    "write_frame",
    "write_per_event",
    "write_text",
    "wrote",
]

#: The narrowest a player's name column gets in a terminal table (``Andrew Debevo…``)
#: to make room for a ranking column.
_NARROWEST: Final = 14
#: Output formats a table can be written in (``table`` is the readable text table).
OUTPUT_FORMATS: Final = ("table", "csv", "tsv", "parquet", "json", "ndjson", "xlsx")
INPUT_FORMATS: Final = ("auto", *FORMATS)
#: The output format chosen by the suffix of ``-o``.
FORMAT_BY_SUFFIX: Final = {".csv": "csv", ".tsv": "tsv", ".parquet": "parquet",
                           ".pq": "parquet", ".json": "json", ".ndjson": "ndjson",
                           ".jsonl": "ndjson", ".xlsx": "xlsx", ".txt": "table"}
#: Suffixes of files of another kind than a table (an image, a page, a document, a
#: compressed file or an archive, another spreadsheet, a tournament file): ``--format csv``
#: wrote a CSV named ``x.png``, ``x.csv.gz`` (not compressed) or ``x.tdf`` (bad data 222).
OTHER_KIND_SUFFIXES: Final = frozenset({
    ".png", ".svg", ".pdf", ".jpg", ".jpeg", ".gif", ".webp", ".html", ".htm", ".md", ".doc",
    ".docx", ".odt", ".gz", ".bz2", ".xz", ".zst", ".zip", ".7z", ".rar", ".tar", ".xls",
    ".xlsm", ".ods", ".tdf", ".trf", ".py"})
#: The suffix a format's file is named with (where it is not the format's name).
_SUFFIX_OF: Final = {"table": "txt"}
#: Formats that only make sense in a file.
_BINARY: Final = frozenset({"parquet", "xlsx"})
#: Decimals kept by the display formats (text table: 4, CSV/TSV/JSON/Excel: 6); Parquet keeps
#: every bit.
_CSV_DECIMALS: Final = 6
#: Criteria and columns whose values are fractions in [0, 1].
_PERCENT_BASES: Final = PERCENT_CRITERIA | {"probability", "kendall_tau_pct", "share"}


# --------------------------------------------------------------------------- parser


class Parser(argparse.ArgumentParser):
    """argparse with the swissframe error contract: one line on stderr, exit status 2.

    Examples
    --------
    >>> import contextlib, io
    >>> p = Parser(prog="swissframe x"); _ = p.add_argument("--n", type=positive_int)
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err):
    ...     try:
    ...         p.parse_args(["--n", "0"])
    ...     except SystemExit as exc:
    ...         print(exc.code)
    2
    >>> err.getvalue()  # doctest: +NORMALIZE_WHITESPACE
    "swissframe: error: argument --n: the value must be a whole number ≥ 1, got 0. Hint: use 1
     or more (see 'swissframe x --help').\\n"
    """

    def error(self, message: str) -> NoReturn:
        """Print ``swissframe: error: MESSAGE`` plus a hint pointing at ``--help``; exit 2."""
        text = message.rstrip(".")
        hint = f"see '{self.prog} --help'"
        text = f"{text} ({hint})." if "Hint:" in text else f"{text}. Hint: {hint}."
        self.exit(2, _wrapped(f"swissframe: error: {' '.join(text.split())}", sys.stderr)
                  + "\n")


def positive_int(text: str) -> int:
    """argparse type: a whole number ≥ 1.

    >>> positive_int("3")
    3
    """
    return _int(text, 1, "use 1 or more")


def non_negative_int(text: str) -> int:
    """argparse type: a whole number ≥ 0.

    >>> non_negative_int("0")
    0
    """
    return _int(text, 0, "use 0 or more")


def _int(text: str, low: int, hint: str) -> int:
    """``text`` read by :func:`~swissframe.errors.check_whole`, the one rule of a count (a
    number past 64 bits ended in NumPy's, Polars' or orjson's bare error); argparse names
    the flag before the message.

    >>> _int("1180591620717411303424", 0, "use 0 or more")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: the value must be a whole number from 0 to 9,223,...
    """
    try:
        value: object = int(text)
    except ValueError:  # (text, a fraction: quoted as given)
        value = text
    try:
        return check_whole("the value", value, low=low, hint=hint)
    except DataError as exc:
        raise argparse.ArgumentTypeError(str(exc).rstrip(".")) from None


_NOTES: list[str] = []


def note(args: argparse.Namespace, text: str) -> None:
    """A note for the person at the terminal (which ruleset was used, …), printed on stderr
    by :func:`flush_notes` once the command has succeeded (an error stays the one line);
    ``--quiet`` silences it."""
    if not getattr(args, "quiet", False):
        _NOTES.append(text)


#: What the CLI writes for a character its output's encoding lacks (a Windows console or a
#: redirected file in cp1252, ``PYTHONIOENCODING=ascii``): the tables' box-drawing
#: characters one ASCII character each (the columns stay aligned), some punctuation its
#: ASCII; any other character its ``\\u`` escape (:func:`legible_output`; bad data 172).
_PLAIN: Final = {**dict.fromkeys("┌┐└┘├┤┬┴┼╞╡╪╤╧╔╗╚╝", "+"), "─": "-", "═": "=",
                 "│": "|", "┆": "|", "…": "...", "—": "--", "–": "-", "‘": "'", "’": "'",
                 "“": '"', "”": '"', "→": "->", "←": "<-", "↑": "^", "↓": "v", "≥": ">=",
                 "≤": "<=", "×": "x", "−": "-", "±": "+/-", "·": ".", "•": "*", "½": "1/2",
                 "≈": "~", "§": "section ", "Σ": "sum ", "τ": "tau", "\u00a0": " "}
#: The characters of this command's output written as escapes (in the order met).
_ESCAPED: dict[str, None] = {}
#: stdout's encoding while :func:`legible_output` writes for one that lacks characters.
_LACKING: list[str] = []
_ERRORS: Final = "swissframe-legible"


def _legible(exc: UnicodeError) -> tuple[str, int]:
    """The codec error handler of :func:`legible_output`."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    out = []
    for ch in exc.object[exc.start:exc.end]:
        plain = _PLAIN.get(ch)
        if plain is None:
            _ESCAPED.setdefault(ch)
            plain = _escape(ch)
        out.append(plain)
    return "".join(out), exc.end


def _escape(ch: str) -> str:
    """A character's ``\\u`` (``\\x``, ``\\U``) escape, as :func:`_legible` writes it."""
    return ch.encode("ascii", "backslashreplace").decode("ascii")


codecs.register_error(_ERRORS, _legible)


@contextlib.contextmanager
def legible_output() -> Iterator[None]:
    """Within: stdout and stderr, where their encoding cannot write every character (a
    Windows console or redirected file in cp1252, ``PYTHONIOENCODING=ascii``; a table's
    borders, a Japanese name), write what it lacks as ASCII or a ``\\u`` escape
    (:data:`_PLAIN`) instead of ending in a ``UnicodeEncodeError`` traceback; after, one
    warning names the characters escaped and how to get UTF-8. The streams are set back
    as they were (the command may run in a notebook's process)."""
    _ESCAPED.clear()
    changed = []
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None)
        if (isinstance(stream, io.TextIOWrapper) and encoding
                and not _writes_every_character(encoding)):
            changed.append((stream, stream.errors))
            with contextlib.suppress(ValueError, OSError):  # (a stream closed already)
                stream.reconfigure(errors=_ERRORS)
            if stream is sys.stdout:
                _LACKING.append(encoding)
    try:
        yield
    finally:
        if _ESCAPED:
            shown = ", ".join(repr(ch)[1:-1] if not ch.isprintable() else _escape(ch)
                              for ch in list(_ESCAPED)[:6])
            more = f" and {len(_ESCAPED) - 6} more" if len(_ESCAPED) > 6 else ""
            encodings = ", ".join(dict.fromkeys(str(st.encoding) for st, _ in changed))
            with contextlib.suppress(ValueError, OSError):
                n = len(_ESCAPED)
                _to_stderr(f"swissframe: warning: {count(n, 'character')} of the output "
                           f"{'is' if n == 1 else 'are'} not in its encoding ({encodings}) "
                           f"and {'was' if n == 1 else 'were'} written as "
                           f"escapes: {shown}{more}. Hint: set PYTHONIOENCODING=utf-8 (or "
                           "PYTHONUTF8=1) to write UTF-8, or write a file with -o, which is "
                           "UTF-8.")
        _ESCAPED.clear()
        _LACKING.clear()
        for stream, errors in changed:
            with contextlib.suppress(ValueError, OSError):
                stream.reconfigure(errors=errors)


def legible(text: str) -> str:
    """``text`` as stdout writes it within :func:`legible_output` (as it is when stdout's
    encoding writes every character): a table's cells are made so before its columns are
    laid out, so that an escaped name keeps them aligned."""
    if not _LACKING:
        return text
    return text.encode(_LACKING[0], _ERRORS).decode(_LACKING[0])


class _ClosedOutput(io.StringIO):
    """Standard output for a process started with it closed (``swissframe … >&-``, where
    Python sets ``sys.stdout`` to None and the first line written ended in an
    ``AttributeError`` traceback; bad data 177): what is written goes nowhere, and
    flushing says so, as a full disk's stdout does at its flush (an error of the command
    that wrote to it; a command writing only files with ``-o`` never does)."""

    def flush(self) -> None:
        if self.tell():  # (once: what was written is dropped, as a full disk drops it)
            self.seek(0)
            self.truncate()
            raise OSError(errno.EBADF, "standard output is closed")

    def isatty(self) -> bool:
        return False


@contextlib.contextmanager
def usable_streams() -> Iterator[None]:
    """Within: a standard stream the process was started without (closed: ``>&-``,
    ``2>&-``) stands in as :class:`_ClosedOutput` (stdout: writing to it is an error of
    the command) or the null device (stderr: the exit status says what went wrong); set
    back after."""
    saved = sys.stdout, sys.stderr
    if sys.stdout is None:
        sys.stdout = _ClosedOutput()
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - (closed below)
    try:
        yield
    finally:
        if saved[1] is None:
            with contextlib.suppress(OSError):
                sys.stderr.close()
        sys.stdout, sys.stderr = saved


def _writes_every_character(encoding: str) -> bool:
    """Whether ``encoding`` writes every character (UTF-8, -16, -32, GB 18030)."""
    try:
        "┌東\U0001f600".encode(encoding)
    except (UnicodeError, LookupError):
        return False
    return True


def flush_notes(*, ok: bool) -> None:
    """Print the notes of a command that succeeded (wrapped on a terminal, one line each
    on a log or a pipe); drop them after an error."""
    notes = list(_NOTES)
    _NOTES.clear()
    if not ok:
        return
    for text in notes:
        _to_stderr(text)


def for_terminal(text: str, stream: TextIO) -> str:
    """A text report for ``stream``: each line wrapped at word boundaries to the terminal's
    width when ``stream`` is a terminal (a line of 82 characters broke mid-word at 80
    columns), as it is on a file or a pipe; its final newline kept."""
    end = "\n" if text.endswith("\n") else ""
    return _wrapped(text, stream) + end if stream.isatty() else text


def machine_text(text: str, stream: TextIO) -> str:
    """A machine-readable report (JSON) for ``stream``: as it is on a file or a pipe; on a
    terminal, where it is read, each character a terminal would act on written as its
    escape (:func:`printable`), as :func:`write_frame` writes CSV and JSON there."""
    return _readable(text) if stream.isatty() else text


def _wrapped(text: str, stream: TextIO) -> str:
    """``text`` with each line wrapped to the terminal's width (continuation lines
    indented) when ``stream`` is a terminal; as it is on a log or a pipe; a word of more
    than ``_display.MAX_RUN`` characters cut (:func:`~swissframe._display.bounded`), and a
    character a terminal would act on written as its escape (:func:`printable`)."""
    # (an id of a million characters: not a line of a megabyte; an escape sequence in a
    # file's name, quoted in an error, recoloured the terminal)
    text = _readable(text)
    if not stream.isatty():
        return text
    width = max(terminal_width(), 40)
    # (continuation lines two spaces deeper than their line: a list item's stay under it;
    # a word longer than the line, a file's path, kept whole on a line of its own: cut at
    # the edge, it could not be copied. wcwidth's wrap is textwrap's, in terminal columns:
    # a Japanese event's name takes two a character; breaks where textwrap breaks)
    import wcwidth

    return "\n".join("\n".join(wcwidth.wrap(
        line, width=width, break_on_hyphens=False, break_long_words=False,
        subsequent_indent=" " * (len(line) - len(line.lstrip(" ")) + 2),
        line_break="ascii")) or line
        for line in text.splitlines())


def _to_stderr(text: str) -> None:
    """One note or warning on stderr (:func:`_wrapped`; none where stderr cannot be
    written, a full disk: the command's output and status stand)."""
    with contextlib.suppress(OSError):
        print(_wrapped(text, sys.stderr), file=sys.stderr)


def say(text: str) -> None:
    """A command's plain-text result on stdout, its lines wrapped on a terminal
    (:func:`_wrapped`: a word is not cut at the edge) and as they are in a pipe."""
    print(_wrapped(text, sys.stdout))


def done(args: argparse.Namespace, text: str, *, stream: TextIO | None = None) -> None:
    """A line saying what a command did, not its output (``read 3 events in 0.2 s``), on
    stdout (or ``stream``) at once, wrapped like :func:`say`; ``--quiet`` silences it: the
    one place a command's own lines go (a file written: :func:`wrote`, on stderr)."""
    if not getattr(args, "quiet", False):
        # (an output that is stdout itself, -o /dev/stdout to pipe a page on: the line goes
        # to stderr, not after the page's </html> in the pipe; bad data 250)
        out = stream or (sys.stderr if _writes_stdout(args) else sys.stdout)
        print(_wrapped(text, out), file=out)


def wrote(args: argparse.Namespace | None, out: str | os.PathLike[str],
          what: str = "") -> None:
    """The one line saying a command wrote a file: ``wrote s.csv (42 rows, 3 events)``, on
    stderr (never stdout: the output may be stdout itself, ``-o /dev/stdout``, bad data 250,
    and stdout is for the output asked for), at once; ``what`` says what is in it where that
    helps. ``--quiet`` silences it; no ``args`` (a command's ``run`` called from Python
    with none to give): no line.

    >>> import argparse, contextlib, io
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err):
    ...     wrote(argparse.Namespace(quiet=False), "s.csv", "42 rows")
    ...     wrote(argparse.Namespace(quiet=True), "s.csv", "42 rows")
    >>> err.getvalue()
    'wrote s.csv (42 rows)\\n'
    """
    if args is not None:
        done(args, f"wrote {os.fspath(out)}" + (f" ({what})" if what else ""),
             stream=sys.stderr)


def rows_said(df: pl.DataFrame) -> str:
    """What a table written holds, as :func:`wrote` says it: ``42 rows, 3 events``.

    >>> rows_said(pl.DataFrame({"event_id": ["a", "a", "b"]})), rows_said(pl.DataFrame())
    ('3 rows, 2 events', '0 rows')
    """
    said = count(df.height, "row")
    if "event_id" in df.columns and df.height:
        said += f", {count(df.get_column('event_id').n_unique(), 'event')}"
    return said


#: The options naming a command's output files.
_OUTPUT_OPTIONS: Final = ("output", "players_output", "events_output")


def _writes_stdout(args: argparse.Namespace) -> bool:
    """Whether one of the command's outputs is the file its stdout is (``/dev/stdout``,
    ``/proc/self/fd/1``, a link to either)."""
    try:
        mine = os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return False  # (a stdout without a file: captured in Python)
    for name in _OUTPUT_OPTIONS:
        out = getattr(args, name, None)
        if isinstance(out, (str, os.PathLike)):
            with contextlib.suppress(OSError, ValueError):
                if os.path.samestat(os.stat(out), mine):
                    return True
    return False


def flush_warnings(caught: Sequence[warnings.WarningMessage]) -> None:
    """Print each distinct warning a command raised as one ``swissframe: warning: …``
    line on stderr (wrapped on a terminal, like the notes); ``--quiet`` keeps them: a
    warning says the output is not what the input alone would suggest (a problem of the
    input; what a format normally does is listed, not warned of: ``Source.notes``)."""
    for text in dict.fromkeys(" ".join(str(w.message).split()) for w in caught):
        _to_stderr(f"swissframe: warning: {text}")


def ruleset_name(text: str) -> str:
    """A preset name (checked while the arguments are parsed: one usage error line)."""
    from swissframe.errors import RulesetError
    from swissframe.rules import get

    try:
        get(text)
    except RulesetError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc
    return text


def add_files(p: argparse.ArgumentParser, *, nargs: str | int = "+") -> None:
    """``FILE…`` and ``--input-format``."""
    p.add_argument("files", nargs=nargs, metavar="FILE",
                   help="results files or folders: CSV/Parquet (long or match form), "
                        "decklist-cache .json(.gz), TOM .tdf/.xml or TRF files")
    p.add_argument("--input-format", choices=INPUT_FORMATS, default="auto",
                   help="how to read FILE (default: auto, recognised by its content)")


def add_rules(p: argparse.ArgumentParser, *, default: str | None = None,
              what: str = "the ruleset the standings are computed with") -> None:
    """``--rules NAME``: sets the ruleset (a preset name, see ``swissframe rules``); by
    default (None) the ruleset follows the data (``docs/inference.md``)."""
    shown = (f" (default: {default})" if default else
             " (default: inferred from the data: FIDE for TRF, pokemon for TOM, the "
             "platform's preset for decklist files, mtg for tables; see docs/inference.md)")
    p.add_argument("--rules", default=default, metavar="NAME", type=ruleset_name,
                   help=f"{what}: a preset from 'swissframe rules'{shown}")


#: What ``--event`` takes, said by every command's help (:func:`event_id_of`).
EVENT_HELP: Final = "its id, or its name as the headings show it (any case)"


def add_event(p: argparse.ArgumentParser, *, many: bool = True) -> None:
    """``--event EVENT``: only this event, by id or name (repeatable when ``many``)."""
    if many:
        p.add_argument("--event", action="append", metavar="EVENT",
                       help=f"only this event: {EVENT_HELP} (repeatable; default: every "
                            "event in FILE)")
    else:
        p.add_argument("--event", metavar="EVENT",
                       help=f"the event (needed when FILE holds several): {EVENT_HELP}")


def add_through_round(p: argparse.ArgumentParser, *, what: str = "the standings") -> None:
    """``--through-round R``: as it stood after round R (past the last round: an error)."""
    p.add_argument("--through-round", type=positive_int, metavar="R",
                   help=f"{what} as they stood after round R (default: final; a round "
                        "after every event's last one is an error; an event that ended "
                        "before R: its final standings, said in a note)")


def add_top(p: argparse.ArgumentParser, *, default: int | None, what: str) -> None:
    """``--top N``: the size of the cut / the places that matter."""
    shown = f" (default: {default})" if default is not None else ""
    p.add_argument("--top", type=positive_int, default=default, metavar="N",
                   help=f"{what}{shown}")


def add_output(p: argparse.ArgumentParser, *, formats: Sequence[str] = OUTPUT_FORMATS,
               what: str = "the table") -> None:
    """``--format`` and ``-o OUT`` (the format follows OUT's suffix)."""
    p.add_argument("--format", choices=formats, default=None, metavar="FORMAT",
                   help=f"how to write {what}: {', '.join(formats)} (default: from the suffix "
                        "of -o, else a readable table fitted to the terminal, in a pipe too: "
                        "COLUMNS, else the terminal's width, else 80; csv has every column)")
    suffixes = ", ".join(s for s, f in FORMAT_BY_SUFFIX.items() if f in formats)
    p.add_argument("-o", "--output", metavar="OUT",
                   help=f"write {what} to this file instead of stdout; its suffix chooses "
                        f"the format ({suffixes}), or --format for a name without one "
                        "(-o /dev/stdout --format csv); a link is written through")


def add_quiet(p: argparse.ArgumentParser) -> None:
    """``--quiet``: on success, nothing but the output itself (:func:`note`,
    :func:`done`, :func:`flush_warnings`, :func:`working`)."""
    p.add_argument("--quiet", action="store_true",
                   help="print nothing on success but the output itself: no progress bar, "
                        "note or 'wrote …' line (a warning of a problem in the input, and an "
                        "error, still print)")


# --------------------------------------------------------------------------- input helpers


def event_id_of(text: str, names: Mapping[str, str]) -> str:
    """The id of the event ``--event`` names (``names``: each event's id → its name, the
    one rule every heading follows, :attr:`~swissframe.io._files.Source.event_names`): an
    id as it is, else the name as every heading shows it — exactly, then in any case (an
    id in any case too). A text that names no event, or several, is a
    :class:`~swissframe.errors.DataError` listing the events it could mean ("did you
    mean", :func:`~swissframe.errors.nearest`, and the names holding it) or, when none is
    near, the events there are.

    Examples
    --------
    >>> names = {"rr-2026": "Summer Cup", "cup-a": "Cup", "cup-b": "CUP"}
    >>> event_id_of("rr-2026", names), event_id_of("Summer Cup", names)
    ('rr-2026', 'rr-2026')
    >>> event_id_of("summer cup", names), event_id_of("Cup", names)
    ('rr-2026', 'cup-a')
    >>> event_id_of("cup", names)
    Traceback (most recent call last):
    ...
    swissframe.errors.DataError: --event 'cup' names 2 events: 'Cup' (id cup-a), 'CUP' (id
    cup-b). Hint: give the event's id, e.g. --event cup-a.
    >>> event_id_of("Sumer Cup", names)
    Traceback (most recent call last):
    ...
    swissframe.errors.DataError: --event 'Sumer Cup' is no event of the input. Hint: did you
    mean 'Summer Cup' (id rr-2026)?
    """
    if text in names:
        return text
    for found in ([e for e, n in names.items() if n == text],
                  [e for e, n in names.items()
                   if text.casefold() in (n.casefold(), e.casefold())]):
        if len(found) == 1:
            return found[0]
        if found:
            msg = (f"--event {text!r} names {len(found)} events: {_events_said(found, names)}."
                   f" Hint: give the event's id, e.g. --event {found[0]}.")
            raise DataError(msg)
    # (not one: the ids and names nearest to it, then the names that hold it: a part of
    # a melee.gg name, "Houston", is far from the whole in difflib's ratio)
    near = nearest(text, [*names, *names.values()], n=3, fold_case=True)
    by_name = {n: e for e, n in names.items()}
    hits = list(dict.fromkeys([*(by_name.get(m, m) for m in near),
                               *(e for e, n in names.items()
                                 if text.strip() and text.casefold() in n.casefold())]))
    if hits:
        hint = f"did you mean {_events_said(hits[:5], names, ' or ')}?"
    else:
        hint = (f"the events are {_events_said(list(names)[:10], names)}"
                + (f" and {len(names) - 10:,} more" if len(names) > 10 else "")
                + ": give an event's id, or its name as the headings show it.")
    msg = f"--event {text!r} is no event of the input. Hint: {hint}"
    raise DataError(msg)


def _events_said(ids: Sequence[str], names: Mapping[str, str], last: str = ", ") -> str:
    """Events as a hint lists them: ``'Summer Cup' (id rr-2026)``, the id alone where it is
    the name."""
    said = [repr(e) if names.get(e, e) == e else f"{names[e]!r} (id {e})" for e in ids]
    return ", ".join(said) if len(said) < 2 or last == ", " else \
        f"{', '.join(said[:-1])}{last}{said[-1]}"


def event_ids(src: Source, events: str | Sequence[str] | None) -> list[str] | None:
    """``--event``'s events (each an id or a name: :func:`event_id_of`) as their ids;
    None when none is given (every event)."""
    if not events:
        return None
    names = src.event_names
    return [event_id_of(e, names) for e in ([events] if isinstance(events, str) else events)]


def one_event_id(src: Source, event: str | None) -> str | None:
    """The one event ``--event`` names (an id or a name: :func:`event_id_of`), as its id."""
    return None if event is None else event_id_of(event, src.event_names)


def filter_events(results: pl.DataFrame, events: str | Sequence[str] | None,
                  known: Collection[str] = ()) -> pl.DataFrame:
    """Only the rows of ``events`` (all when None; ids: :func:`event_ids` reads a name);
    an unknown id is an error with a hint. ``known``: the events read beside those with
    rows (``Source.event_names``: an event with no round played is one, and was "not in
    the input": bad data 146).

    >>> df = pl.DataFrame({"event_id": ["a", "b"], "round": [1, 1]})
    >>> filter_events(df, ["b"])["event_id"].to_list()
    ['b']
    """
    keep = _event_rows(results, events, known)
    return results if keep is None else results.filter(keep)


def _event_rows(results: pl.DataFrame, events: str | Sequence[str] | None,
                read: Collection[str] = ()) -> pl.Series | None:
    """Which rows ``events`` keeps (None: all); an id neither in the rows nor among the
    events ``read`` is an error with a hint."""
    if not events:
        return None
    wanted = [events] if isinstance(events, str) else list(events)
    known = sorted({*results["event_id"].cast(pl.String).unique().to_list(), *read})
    missing = [e for e in wanted if e not in set(known)]
    if missing:
        near = [m for e in missing for m in nearest(e, known, n=2)]
        hint = (f"did you mean {', '.join(map(quoted, near))}?" if near else
                f"events present: {known[:10]}{' …' if len(known) > 10 else ''}.")
        msg = f"event(s) {missing} not in the input. Hint: {hint}"
        raise SwissframeError(msg)
    return results.select(pl.col("event_id").is_in(wanted)).to_series()


@contextlib.contextmanager
def input_rows(src: Source, events: str | Sequence[str] | None) -> Iterator[pl.DataFrame]:
    """``src``'s results of ``events`` (:func:`filter_events`), which the analyses run in
    this block take as validated: :func:`~swissframe.io.read` validated them, and each
    analysis checked them again (a command's second pass over every row: 0.3 of the 1.9 s
    of ``swissframe standings`` on 10,000 events). Read's id codes go with them
    (``schema.trusted``; those of the kept rows for ``--event``): read ``src`` with
    ``read(..., _keep_codes=True)``. Rows read without them (or validated in batches,
    which keeps none) are checked as before."""
    from swissframe.schema import codes_of_rows, trusted

    keep = _event_rows(src.results, event_ids(src, events), src.event_names)
    results = src.results if keep is None else src.results.filter(keep)
    if results.height == 0:  # (an empty table is a valid answer, but not a silent one)
        msg = f"{NO_RESULTS}: the output is empty. {NO_RESULTS_HINT}"
        warnings.warn(msg, DataWarning, stacklevel=3)
    validated = src._validated
    # (the codes are for the frame read validated: not for another put in its place)
    codes = validated[1] if validated is not None and validated[0] is src.results else None
    if codes is not None and keep is not None:
        codes = codes_of_rows(codes, keep)
    if codes is None:
        yield results
        return
    with trusted(results, codes):
        yield results


def need_swiss(results: pl.DataFrame, what: str) -> None:
    """A :class:`DataError` when ``results`` hold rows but not one Swiss row (a playoff
    bracket exported on its own, ``validate.no_swiss_rounds``), for a command whose
    analysis ``what`` reads the Swiss rounds: its error said the round analysed had no
    pairings, or that "the Swiss has rounds 1–0" (the read's warning saying why is not
    printed after an error)."""
    from swissframe.validate import no_swiss_rounds

    if results.height == 0 or results.filter(pl.col("phase") == "swiss").height:
        return
    first = no_swiss_rounds(results.lazy()).collect().row(0, named=True)
    msg = (f"{what} reads the Swiss rounds, and event {first['event_id']!r} has only playoff "
           f"rows ({first['detail']}). Hint: add the event's Swiss rounds (or, if its rows "
           "are Swiss rounds, give them phase 'swiss').")
    raise DataError(msg)


def find_player(results: pl.DataFrame, player: str, event: str | None,
                names: pl.DataFrame | None = None) -> str:
    """The event of ``player`` (checked), or a :class:`DataError` with "did you mean":
    among the ids, and the players' names where the files hold them (``names``:
    ``event_id, player_id, name``; a TRF's or TOM's ids are numbers, which a misspelt
    name is never near).

    Examples
    --------
    >>> df = pl.DataFrame({"event_id": ["e", "e"], "player_id": ["Alice", "Bob"]})
    >>> find_player(df, "Alice", None)
    'e'
    >>> find_player(df, "alise", None)
    Traceback (most recent call last):
    ...
    swissframe.errors.DataError: player 'alise' is not in event 'e'. Hint: did you mean 'Alice'?
    >>> chess = pl.DataFrame({"event_id": ["c", "c"], "player_id": ["1", "2"]})
    >>> named = pl.DataFrame({"event_id": ["c", "c"], "player_id": ["1", "2"],
    ...                       "name": ["Franck", "Grace"]})
    >>> find_player(chess, "Frank", None, named)
    Traceback (most recent call last):
    ...
    swissframe.errors.DataError: player 'Frank' is not in event 'c'. Hint: did you mean 'Franck'?
    """
    ids = results.select(pl.col("event_id").cast(pl.String),
                         pl.col("player_id").cast(pl.String)).unique()
    mine = ids.filter(pl.col("player_id") == player)["event_id"].sort().to_list()
    if not mine:
        pool = ids["player_id"].unique().sort().to_list()
        if names is not None and {"event_id", "player_id", "name"} <= set(names.columns):
            # (the names of the players of these events: the ids a name resolves to)
            known = names.join(ids, on=["event_id", "player_id"], how="semi")
            pool += known["name"].drop_nulls().cast(pl.String).unique().sort().to_list()
        where = (f"event {event!r}" if event is not None else
                 f"event {ids['event_id'][0]!r}" if ids["event_id"].n_unique() == 1 else
                 f"any of the {ids['event_id'].n_unique()} events")
        hint = did_you_mean(player, pool, "check the spelling (ids are case-sensitive), or "
                            "run 'swissframe standings FILE' to list the players.",
                            fold_case=True)
        msg = f"player {player!r} is not in {where}. Hint: {hint}"
        raise DataError(msg)
    if len(mine) > 1:
        shown = ", ".join(mine[:5]) + (" …" if len(mine) > 5 else "")
        msg = (f"player {player!r} plays in {len(mine)} events ({shown}). Hint: add "
               f"--event ID, e.g. --event {mine[0]}.")
        raise DataError(msg)
    return str(mine[0])


class PlayerRead(NamedTuple):
    """What :func:`read_player_event` found: the event's rows, its id, the players' ids
    (a name the files hold becomes its id), the ruleset (``--rules`` or inferred) and the
    event's names by player id (TOM, TRF; empty when the ids are the names)."""

    results: pl.DataFrame
    event: str
    players: tuple[str, ...]
    rules: str
    names: dict[str, str] = {}  # noqa: RUF012 (a NamedTuple default, never mutated)
    #: player id -> age division where the event ranks several apart (a combined TOM pod,
    #: paired together and ranked per division: :func:`division_ranks`); else empty
    divisions: dict[str, str] = {}  # noqa: RUF012 (a NamedTuple default, never mutated)
    #: the event's name as every surface says it (:attr:`~swissframe.io._files.Source.event_names`)
    event_name: str = ""


def read_player_event(args: argparse.Namespace, *players: str) -> PlayerRead:
    """Read ``args.files``, keep ``--event``, find the one event of ``players`` (by id or
    name, with "did you mean" for a wrong one), check ``--through-round``, and say which
    ruleset is used (one stderr line)."""
    with working(args, reading(args.files)):
        src = read(args.files, format=args.input_format)
    chosen = one_event_id(src, args.event)  # (its id or its name)
    results = filter_events(src.results, chosen, src.event_names)
    if results.height == 0:  # (an event with no round: "not in any of the 0 events")
        what = (f"event {printable(chosen)!r} has no result rows (no round played)"
                if chosen is not None else NO_RESULTS)
        msg = f"{what}: no player has a round to show. {NO_RESULTS_HINT}"
        raise DataError(msg)
    ids = tuple(src.player_id(p, chosen) for p in players)
    event = find_player(results, ids[0], chosen, src.names)
    results = results.filter(pl.col("event_id") == event)
    for other in ids[1:]:
        find_player(results, other, event, src.names)
    check_round(args, results)
    rules = args.rules or src.ruleset_of(event)
    note(args, describe(src.events.filter(pl.col("event_id") == event), args.rules))
    names = {str(i): str(n) for i, n in src.names.filter(pl.col("event_id") == event)
             .select("player_id", "name").drop_nulls().iter_rows()} \
        if {"event_id", "player_id", "name"} <= set(src.names.columns) else {}
    own = (src.divisions.filter(pl.col("event_id") == event).drop_nulls("division")
           if src.divisions.height else src.divisions)
    divisions = ({str(p): str(d) for p, d in own.select("player_id", "division").iter_rows()}
                 if own.height and own["division"].n_unique() > 1 else {})
    apart = sorted({divisions.get(p, "") for p in ids})
    if len(ids) > 1 and divisions and len(apart) > 1:
        who = " and ".join(f"{names.get(p, p)} ({divisions.get(p, 'no division')})"
                           for p in ids)
        msg = (f"{who} are ranked in different age divisions of event {printable(event)!r}, "
               "a combined pod (paired together, ranked per division). Hint: compare two "
               "players of one division.")
        raise SwissframeError(msg)
    return PlayerRead(results, event, ids, rules, names, divisions,
                      src.event_names.get(event, event))


def division_ranks(table: pl.DataFrame, divisions: Mapping[str, str]) -> pl.DataFrame:
    """A standings table of one event with each player's rank within their age division
    where the event ranks several apart (``divisions``, :class:`PlayerRead`), as
    ``standings`` prints them (:func:`~swissframe.io._files.rank_within`); the table as it
    is otherwise."""
    if not divisions or "rank" not in table.columns:
        return table
    own = pl.DataFrame({"player_id": list(divisions), "_division": list(divisions.values())},
                       schema={"player_id": pl.String, "_division": pl.String})
    return (table.join(own, on="player_id", how="left", maintain_order="left")
            .with_columns(rank_within(["_division"])).drop("_division"))


def absence_notes_of(results: pl.DataFrame, through_round: int | None, *,
                     short: bool = False) -> pl.DataFrame:
    """Why each player not in the last round counted is not there, in words
    (:func:`~swissframe.cut._words.absence_notes` of
    :func:`~swissframe.cut._round.absences`; ``short``: as a table's column says it):
    ``event_id, player_id, note``."""
    from swissframe.cut._round import absences
    from swissframe.cut._words import absence_notes

    rows = results if through_round is None else results.filter(
        pl.col("round") <= through_round)
    return absence_notes(absences(rows), short=short)


def check_round(args: argparse.Namespace, results: pl.DataFrame, *,
                option: str = "through_round") -> None:
    """``--through-round`` (or ``option``: chart's ``--round``) of ``args`` against
    ``results``: a round after every event's
    last Swiss round is an error, the API's own
    (:func:`~swissframe.engine.standings.past_last_round`, the one check); events that
    ended before it get their final standings, said in a note (``--quiet`` silences it).

    >>> import argparse
    >>> df = pl.DataFrame({"event_id": ["e"], "round": [9], "phase": ["swiss"]})
    >>> check_round(argparse.Namespace(through_round=9, quiet=True), df)
    >>> check_round(argparse.Namespace(through_round=20, quiet=True), df)
    Traceback (most recent call last):
    ...
    swissframe.errors.DataError: --through-round 20: the Swiss has 9 rounds (event 'e'). ...
    """
    from swissframe.engine.standings import past_last_round

    round_ = getattr(args, option, None)
    if round_ is None or results.height == 0:
        return
    short = past_last_round(results, round_, flag="--" + option.replace("_", "-"))
    if short:
        names = ", ".join(printable(e) for e in short[:5])
        note(args, f"{count(len(short), 'event')} ended before round {round_} ({names}"
                   f"{' …' if len(short) > 5 else ''}): "
                   f"{'its' if len(short) == 1 else 'their'} final standings are shown.")


# --------------------------------------------------------------------------- output


def output_format(fmt: str | None, out: str | None) -> str:
    """The format to write: ``--format`` if given, else the suffix of ``-o``, else a table.

    Examples
    --------
    >>> output_format(None, "x.xlsx"), output_format("csv", None), output_format(None, None)
    ('xlsx', 'csv', 'table')
    >>> output_format("csv", "/dev/stdout")
    'csv'
    >>> output_format("csv", "x.png")
    Traceback (most recent call last):
    ...
    swissframe.errors.SwissframeError: --format csv but -o 'x.png' names a .png file, ...
    >>> output_format(None, "x.docx")
    Traceback (most recent call last):
    ...
    swissframe.errors.SwissframeError: cannot write 'x.docx': unknown suffix '.docx'. Hint: ...
    """
    by_suffix: str | None = None
    suffix = ""
    if out is not None:
        suffix = Path(out).suffix.lower()
        by_suffix = FORMAT_BY_SUFFIX.get(suffix)
        # (--format chooses for a name with no known suffix: -o /dev/stdout --format csv)
        if by_suffix is None and fmt is None:
            known = ", ".join(FORMAT_BY_SUFFIX)
            msg = (f"cannot write {out!r}: unknown suffix {suffix or '(none)'!r}. Hint: end -o "
                   f"with one of {known}, or name the format (e.g. --format csv).")
            raise SwissframeError(msg)
    if fmt is not None:
        if by_suffix is not None and by_suffix != fmt:
            msg = (f"--format {fmt} but -o {out!r} is a {by_suffix} file name. Hint: drop "
                   "--format (the suffix chooses) or change the suffix.")
            raise SwissframeError(msg)
        if by_suffix is None and suffix in OTHER_KIND_SUFFIXES:
            msg = (f"--format {fmt} but -o {out!r} names a {suffix} file, of another kind "
                   f"than a {fmt} table. Hint: end -o with .{_SUFFIX_OF.get(fmt, fmt)} (or "
                   "with no suffix, e.g. -o /dev/stdout).")
            raise SwissframeError(msg)
        return fmt
    return by_suffix or "table"


def refuse_output(out: str | os.PathLike[str], inputs: Sequence[str] = (), *,
                  example: str = "standings.csv") -> None:
    """Refuse an ``-o`` that is empty or one of ``inputs`` (a file, or a file inside an
    input folder): the one check of an output name, for :func:`atomic_path` and the
    commands that write through their own writer (``report``)."""
    if not os.fspath(out).strip():
        msg = f"-o is empty. Hint: give a file name, e.g. -o {example}."
        raise SwissframeError(msg)
    _refuse_input(Path(out), inputs)


def _refuse_input(out: Path, inputs: Sequence[str]) -> None:
    target = resolved(out)
    for item in inputs:
        p = Path(item)
        if not p.exists():
            continue
        same = target.exists() and os.path.samefile(p, target) if p.is_file() else \
            p.is_dir() and target.exists() and target.is_relative_to(resolved(p))
        if same:
            msg = (f"-o {str(out)!r} would overwrite the input {item!r}. Hint: write to "
                   "another file name.")
            raise SwissframeError(msg)


@contextlib.contextmanager
def atomic_path(out: str | os.PathLike[str], inputs: Sequence[str] = ()) -> Iterator[Path]:
    """A temporary path next to ``out``, renamed to ``out`` only when the block succeeds.

    A failed write leaves no file behind (and an existing ``out`` untouched); ``out`` is
    never one of ``inputs`` (files, or a file inside an input folder).

    Examples
    --------
    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> with atomic_path(d / "a.txt") as tmp:
    ...     _ = tmp.write_text("done")
    >>> (d / "a.txt").read_text(), sorted(p.name for p in d.iterdir())
    ('done', ['a.txt'])
    """
    out = local_path(out, what="-o")  # (a URL wrote a local folder 'http:'; bad data 244)
    refuse_output(out, inputs)
    target, in_place = output_target(out)
    # (a name ending in a separator means a folder: Path drops the separator, and "x/"
    # was written as a file named x)
    if names_a_folder(out):
        msg = (f"-o {os.fspath(out)!r} is a folder. Hint: give a file name, e.g. "
               f"{Path(out) / 'out.csv'}.")
        raise SwissframeError(msg)
    if in_place:  # a device or a FIFO (-o /dev/null): written as it is, never replaced
        with said_of(target):
            yield target
        return
    try:
        tmp = temp_beside(target)
    except OSError as exc:  # (named as the user wrote it, not by the temporary file)
        msg = (f"-o {str(target)!r}: cannot write there ({exc.strerror or exc}). Hint: "
               "choose a folder you can write to.")
        raise SwissframeError(msg) from None
    with replacing(tmp, target):
        yield tmp


def _display(df: pl.DataFrame, decimals: int) -> pl.DataFrame:
    """Floats rounded and list columns joined, for text formats."""
    lists = [c for c, t in df.schema.items() if isinstance(t, pl.List)]
    out = df.with_columns(pl.col(pl.Float64, pl.Float32).round(decimals))
    if lists:
        out = out.with_columns(pl.col(c).cast(pl.List(pl.String)).list.join(", ")
                               for c in lists)
    return out


def _text(df: pl.DataFrame, fmt: str, width: int | None) -> str:
    if fmt in ("csv", "tsv"):
        return _display(df, _CSV_DECIMALS).write_csv(separator="," if fmt == "csv" else "\t")
    if fmt == "json":
        return df.write_json() + "\n"
    if fmt == "ndjson":
        return df.write_ndjson()
    return render_table(df, width=width)


def _terminal_safe(df: pl.DataFrame) -> pl.DataFrame:
    """``df`` with each text cell and column name :func:`printable`: CSV, TSV or JSON
    written to a terminal is read there, and an id holding ``ESC [``, a bidi override or
    a C1 control (``\\x9b``, which JSON does not escape) recoloured the terminal or moved
    its cursor (class 68 escaped the readable table only). To a file or a pipe the text is
    kept as it is."""
    text = [c for c, t in df.schema.items()
            if t == pl.String or isinstance(t, (pl.Categorical, pl.Enum))]
    bad = [c for c in text if df.get_column(c).cast(pl.String).str.contains(_UNPRINTABLE).any()]
    out = df.with_columns(pl.col(c).cast(pl.String).map_elements(
        printable, return_dtype=pl.String, skip_nulls=True) for c in bad) if bad else df
    names = {c: printable(c) for c in out.columns if printable(c) != c}
    return out.rename(names) if names else out


def write_frame(df: pl.DataFrame, fmt: str | None, out: str | None, *,
                inputs: Sequence[str] = (), stdout: IO[str] | None = None,
                args: argparse.Namespace | None = None) -> str:
    """Write ``df`` to ``out`` (atomically; format from ``fmt`` or the suffix) or stdout;
    a file written is said by :func:`wrote` (with the command's ``args``: ``--quiet``).

    Returns the format used. The text table to stdout fits :func:`terminal_width` (in a
    pipe too: ``COLUMNS``, else the terminal of stderr or stdin, else 80), a file (``-o
    x.txt``) holds every column; CSV and
    TSV round floats to 6 decimals, Parquet keeps full precision, ``.xlsx`` goes through
    Polars' ``write_excel`` (needs ``xlsxwriter``: ``pip install swissframe[excel]``).

    Examples
    --------
    >>> import io
    >>> buf = io.StringIO()
    >>> write_frame(pl.DataFrame({"x": [1 / 3]}), "csv", None, stdout=buf)
    'csv'
    >>> buf.getvalue()
    'x\\n0.333333\\n'
    """
    kind = output_format(fmt, out)
    if out is None:
        if kind in _BINARY:
            msg = f"--format {kind} needs -o OUT. Hint: add -o out.{kind}."
            raise SwissframeError(msg)
        stream = stdout or sys.stdout
        # (a text table read in a pipe too: | less, | head, > x.txt fit as the terminal
        # does, terminal_width(); the whole table is --format csv or -o FILE)
        if stream.isatty() and kind != "table":
            df = _terminal_safe(df)
        stream.write(_text(df, kind, terminal_width()))
        return kind
    with atomic_path(out, inputs) as tmp:
        if kind == "parquet":
            df.write_parquet(tmp)
        elif kind == "xlsx":
            _write_excel(df, tmp)
        else:
            tmp.write_text(_text(df, kind, None), encoding="utf-8")
    wrote(args, out, rows_said(df))
    return kind


def write_text(text: str, out: str | None, *, inputs: Sequence[str] = (),
               args: argparse.Namespace | None = None) -> None:
    """A command's text report to stdout, or atomically to ``out`` (never an input; said
    by :func:`wrote`, with the command's ``args``).

    >>> import io, contextlib
    >>> buf = io.StringIO()
    >>> with contextlib.redirect_stdout(buf):
    ...     write_text("done", None)
    >>> buf.getvalue()
    'done\\n'
    """
    body = text if text.endswith("\n") else text + "\n"
    body = _readable(body)
    if out is None:
        sys.stdout.write(body)
        return
    with atomic_path(out, inputs) as tmp:
        tmp.write_text(body, encoding="utf-8")
    wrote(args, out)


#: What one Excel worksheet holds: rows (the header is one) and characters in a cell.
EXCEL_ROWS: Final = 1_048_576
EXCEL_CELL_CHARS: Final = 32_767


def _write_excel(df: pl.DataFrame, path: Path) -> None:
    if importlib.util.find_spec("xlsxwriter") is None:
        msg = ("writing .xlsx needs the xlsxwriter package. Hint: pip install "
               "'swissframe[excel]' (or write .csv / .parquet).")
        raise SwissframeError(msg)
    _fits_excel(df)
    shown = _display(df, 15)
    percent: dict[Any, str] = {c: "0.00%" for c, t in shown.schema.items()
                               if t.is_float() and is_percent(c)}
    # (built in memory, then written as one file: xlsxwriter writes its zip archive itself,
    # and a full disk as it did left an unclosed archive whose clean-up printed a traceback
    # after the error line; a worksheet's size is bounded by _fits_excel: bad data 215)
    book = io.BytesIO()
    shown.write_excel(book, worksheet="swissframe", column_formats=percent or None,
                      float_precision=4, autofit=True, freeze_panes=(1, 0))
    path.write_bytes(book.getbuffer())


def _fits_excel(df: pl.DataFrame) -> None:
    """A :class:`DataError` for a table a worksheet cannot hold, before anything is
    written: more rows than Excel's 1,048,576 (Polars' ``InvalidOperationError``, said as
    "a swissframe bug"), or a text longer than a cell's 32,767 characters (cut to that
    length by xlsxwriter without a word: two ids alike in their first 32,767 characters
    became one)."""
    if df.height + 1 > EXCEL_ROWS:
        msg = (f"cannot write {df.height:,} rows to .xlsx: an Excel worksheet holds "
               f"{EXCEL_ROWS - 1:,} below its header. Hint: write .csv or .parquet, or "
               "fewer rows (--event, --top).")
        raise DataError(msg)
    texts = [c for c, t in df.schema.items() if t in (pl.String, pl.Categorical)
             or isinstance(t, pl.Enum)]
    if not texts:
        return
    longest = df.select(pl.col(texts).cast(pl.String).str.len_chars().max()).row(0)
    over = [(c, n) for c, n in zip(texts, longest, strict=True)
            if n is not None and n > EXCEL_CELL_CHARS]
    if over:
        c, n = over[0]
        msg = (f"cannot write column {c!r} to .xlsx: it holds a text of {n:,} characters, "
               f"and an Excel cell holds {EXCEL_CELL_CHARS:,} (it would be cut without a "
               "word). Hint: write .csv or .parquet.")
        raise DataError(msg)


# --------------------------------------------------------------------------- tables


def terminal_width() -> int:
    """Columns of the terminal: ``COLUMNS``, else the first of stdout, stderr, stdin that is
    a terminal (so ``swissframe cut … | less`` still fits), else 80; at least 40.

    >>> terminal_width() >= 40
    True
    """
    env = os.environ.get("COLUMNS", "")
    if env.isdigit() and int(env) > 0:
        return max(40, int(env))
    for fd in (1, 2, 0):
        try:
            columns = os.get_terminal_size(fd).columns
        except OSError:
            continue
        if columns > 0:  # (a pty that reports no size: 0 columns, read as unknown)
            return max(40, columns)
    return max(40, shutil.get_terminal_size((80, 24)).columns or 80)


def is_percent(name: str) -> bool:
    """True for columns holding a fraction shown as a percentage (``omwp``, ``opp_gwp_raw``,
    ``probability_win``, ``a_p_draw`` …).

    >>> [is_percent(c) for c in ("omwp", "opp_mwp_raw", "probability_draw", "rank", "a_p_win")]
    [True, True, True, False, True]
    """
    base = name.removeprefix("opp_").removesuffix("_raw").removesuffix("_e")
    return (base in _PERCENT_BASES or base.startswith("probability")
            or "_p_" in f"_{base}" or base.endswith("_share"))


def format_cell(name: str, value: object) -> str:
    """One value as a person reads it: ``66.67%``, ``0.5``, ``yes``, empty for null.

    >>> format_cell("omwp", 2 / 3), format_cell("bh", 8.5), format_cell("x", None)
    ('66.67%', '8.5', '')
    """
    return number_text(value, percent=isinstance(value, float) and is_percent(name),
                       decimals=4 if not is_percent(name) else 2, null="")


#: A character a terminal acts on or hides instead of showing it: anything but letters,
#: marks, numbers, punctuation, symbols, the spaces (Zs) and the zero-width joiners (Unicode
#: Cc, Cf but the joiners, Zl, Zp, Co, Cn), as a Polars pattern;
#: :func:`~swissframe._display.shown_as_is` is the same rule for one character (the
#: messages' quoted names follow it too).
_UNPRINTABLE: Final = r"[^\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}\x{200C}\x{200D}]"


def _readable(text: str) -> str:
    """``text`` as readable output writes it: a run longer than ``_display.MAX_RUN``
    characters cut (:func:`~swissframe._display.bounded`) and each line :func:`printable`
    (the line breaks kept) — the messages' and the text reports' one rule."""
    return "\n".join(printable(line) for line in bounded(text).split("\n"))


def printable(text: str) -> str:
    """``text`` with each character a terminal would act on or hide written as its escape
    (:data:`_UNPRINTABLE`): a data cell (an id read from a file) cannot recolour the
    terminal or move its cursor (``ESC [``), reorder a line (a bidi override), or break a
    table's row (a carriage return or a newline) in the readable output, and in CSV, TSV
    or JSON written to a terminal (:func:`write_frame`). A file or a pipe keeps the text as
    it is.

    >>> print(printable("Al\\x1b[31mice"), printable("\\u202eecilA"), printable("Zoë 🐉"))
    Al\\x1b[31mice \\u202eecilA Zoë 🐉
    >>> printable("東京\\u3000杯") == "東京\\u3000杯"  # (the spaces and joiners as they are)
    True
    """
    if text.isprintable():
        return text
    return "".join(c if shown_as_is(c) else escaped(c) for c in text)


def _as_text(df: pl.DataFrame, max_cell: int) -> pl.DataFrame:
    cols = {}
    for name, dtype in df.schema.items():
        s = df[name]
        if dtype.is_float() or dtype == pl.Boolean or isinstance(dtype, pl.List):
            s = pl.Series(name, [format_cell(name, v) for v in s.to_list()], dtype=pl.String)
        else:
            s = s.cast(pl.String).fill_null("")
            if s.str.contains(_UNPRINTABLE).any():  # (a Python pass only where one is)
                s = pl.Series(name, [printable(v) for v in s.to_list()], dtype=pl.String)
            if _LACKING and not s.str.contains(r"^[\x20-\x7e]*$").all():
                s = pl.Series(name, [legible(v) for v in s.to_list()], dtype=pl.String)
        cols[name] = s
    return pl.DataFrame(cols).with_columns(_cut_to(pl.col(pl.String), max_cell))


def _cut_to(text: pl.Expr, n: int) -> pl.Expr:
    """``text`` cut to ``n`` characters where longer, its end an ellipsis as the output
    writes it (:func:`legible`: three dots where its encoding has none)."""
    mark = legible("…")
    return (pl.when(text.str.len_chars() > n).then(text.str.slice(0, n - len(mark)) + mark)
            .otherwise(text))


def headings(columns: Sequence[str], rules: Sequence[Ruleset] = ()) -> dict[str, str]:
    """Each column's heading in a text table (:func:`~swissframe.compare.column_heading`,
    the one mapping): in the words of the rulesets ``rules`` where they agree on one
    (chess: "points"), else the game-free heading; a heading two columns would share is
    the later column's own name.

    >>> headings(["player_id", "match_points", "omwp", "name"])
    {'player_id': 'player', 'match_points': 'match points', 'omwp': 'OMW%', 'name': 'name'}
    >>> headings(["player_id", "player", "event_id", "event"])
    {'player_id': 'player_id', 'player': 'player', 'event_id': 'event_id', 'event': 'event'}
    """
    out: dict[str, str] = {}
    for c in columns:
        heads = {column_heading(c, r) for r in rules}
        out[c] = heads.pop() if len(heads) == 1 else column_heading(c)
    # a heading two columns share, or one that is another column's own name, goes back to
    # the column's own name, until none is shared (player_id's "player" beside a column
    # named player, FIDE's match_points "points" beside points: Polars' DuplicateError)
    while clash := [c for c in columns if out[c] != c and (
            out[c] in columns or list(out.values()).count(out[c]) > 1)]:
        out[clash[-1]] = clash[-1]
    return out


def render_table(df: pl.DataFrame, *, width: int | None = None, max_cell: int = 40,
                 keep: int = 2, priority: Sequence[str] = (),
                 whole: str = "use --format csv or -o FILE.csv",
                 legend: Mapping[str, str] | None = None,
                 rules: Sequence[Ruleset] = ()) -> str:
    """``df`` as a box table that fits ``width`` columns (None: no limit), each column
    under its heading (:func:`headings`, in the words of ``rules``: ``OMW%``, not
    ``omwp``; ``priority`` and ``legend`` name the data columns).

    Percentages show as ``66.67%``; columns that do not fit are left out — those named in
    ``priority`` are kept first, in that order, then the others from the left (never the
    first ``keep``; none once a priority column is left out: a narrower other column
    does not take its place) — and named under the table, with ``whole``: how to see
    them all.
    The columns shown keep their order; a shown column named in ``legend`` gets a line
    under the table saying what its number counts (``direct_encounter: tied players
    ranked below``).

    Examples
    --------
    >>> t = render_table(pl.DataFrame({"player_id": ["A"], "omwp": [2 / 3]}))
    >>> "66.67%" in t, t.splitlines()[1]
    (True, '│ player ┆ OMW%   │')
    >>> wide = pl.DataFrame({f"column_{i}": [i] for i in range(12)})
    >>> lines = render_table(wide, width=60).splitlines()
    >>> print(render_table(wide, width=40, priority=["column_9"]).splitlines()[1])
    │ column_0 ┆ column_1 ┆ column_9 │
    >>> narrow = pl.DataFrame({"player_id": ["A"], "rank": [1], "dropped": [True], "b": [0]})
    >>> render_table(narrow, width=25, priority=["rank", "dropped"]).splitlines()[1]
    '│ player ┆ rank │'
    >>> max(len(x) for x in lines) <= 60, lines[-2:]
    (True, ['(+7 more columns: column_5, …, column_11;', 'use --format csv or -o FILE.csv)'])
    >>> render_table(wide, width=40, priority=["column_9"], legend={
    ...     "column_9": "tied players ranked below", "column_10": "not shown"}).splitlines()[-1]
    'column_9: tied players ranked below'
    """
    text = _as_text(df, max_cell)
    heads = headings(text.columns, rules)
    lens = [max(len(heads[c]), int(text[c].str.len_chars().max() or 0))  # type: ignore[arg-type]
            for c in text.columns]
    shown = list(text.columns)
    size = dict(zip(text.columns, lens, strict=True))
    if width is not None and sum(n + 3 for n in lens) + 1 > width:
        first = [c for c in priority if c in size]
        order = [*text.columns[:keep], *first,
                 *(c for c in text.columns[keep:] if c not in first)]
        # the kept columns (the player's name) give way down to _NARROWEST characters
        # for a priority column, never for another (a name cut to show "byes" reads worse)
        kept = [c for c in text.columns[:keep] if text.schema[c] == pl.String]
        full = dict(size)
        size |= {c: min(size[c], _NARROWEST) for c in kept}
        picked: set[str] = set()
        total = 1
        cut = False  # (a priority column left out: no other column takes its place)
        for c in dict.fromkeys(order):
            given_way = sum(full[n] - size[n] for n in kept if n in picked)
            if (total + size[c] + 3 + (0 if c in first else given_way) <= width
                    and (not cut or c in first)) or len(picked) < keep:
                picked.add(c)
                total += size[c] + 3
            elif c in first:
                cut = True
        room = width - total
        for c in kept:  # (the room left goes back to the names)
            back = min(full[c] - size[c], max(room, 0))
            size[c] += back
            room -= back
        shown = [c for c in text.columns if c in picked]
        narrowed = {c: size[c] for c in kept if size[c] < full[c]}
        if narrowed:
            text = text.with_columns(_cut_to(pl.col(c), n).alias(c)
                                     for c, n in narrowed.items())
    # (from Polars' defaults, not the environment's POLARS_FMT_* settings: one hiding the
    # column names printed a table without its headings; bad data 176)
    with pl.Config(restore_defaults=True, tbl_rows=-1, tbl_cols=-1, tbl_width_chars=10_000,
                   fmt_str_lengths=max_cell,
                   tbl_hide_dataframe_shape=True, tbl_hide_column_data_types=True,
                   tbl_cell_numeric_alignment="RIGHT"):
        body = str(text.select(shown).rename({c: heads[c] for c in shown})) if shown else ""
    hidden = [heads[c] for c in text.columns if c not in shown]
    if hidden:
        names = ", ".join(hidden) if len(hidden) <= 3 else f"{hidden[0]}, …, {hidden[-1]}"
        note = f"(+{len(hidden)} more columns: {names}; {whole})"
        if width and len(note) > width:  # (how to see them on a line of its own: a command
            # is not cut in two)
            note = "\n".join([fill(f"(+{len(hidden)} more columns: {names};",
                                             width=width),
                              fill(f"{whole})", width=width)])
        body += "\n" + note
    for c in shown:
        if (legend or {}).get(c):
            line = f"{heads[c]}: {(legend or {})[c]}"
            body += "\n" + (fill(line, width=width) if width else line)
    return body + "\n"


def write_per_event(df: pl.DataFrame, priority: Sequence[str] = (), *,
                    stream: IO[str] | None = None, heading: str = "{}\n",
                    whole: str = "use --format csv or -o FILE.csv",
                    legend: Mapping[str, str] | None = None,
                    legend_of: Callable[[pl.DataFrame], Mapping[str, str]] | None = None,
                    rules: Sequence[Ruleset] = (),
                    names: Mapping[str, str] | None = None) -> None:
    """One terminal table per event, under the event's name (``heading`` formatted with
    it), fitted to the terminal with the ``priority`` columns kept first (``whole`` and
    ``legend``, ``rules``: see :func:`render_table`; ``legend_of``: more legend lines
    from an event's own rows, for a value only some events show; ``names``: the events'
    names, :attr:`~swissframe.io._files.Source.event_names`, else the ids)."""
    out = stream or sys.stdout
    width = terminal_width()
    for (event,), grp in df.group_by("event_id", maintain_order=True):
        # (a long name, a melee.gg event's 81 characters, wrapped at words: cut by the
        # terminal mid-word before)
        said = heading.format(printable(str((names or {}).get(str(event), event))))
        out.write("\n".join(fill(line, width=width, break_long_words=False,
                                           break_on_hyphens=False) if line else line
                             for line in said.split("\n")))
        lines = {**(legend or {}), **(legend_of(grp) if legend_of else {})}
        out.write(render_table(grp.drop("event_id"), width=width, keep=1, priority=priority,
                               whole=whole, legend=lines or None, rules=rules))


def text_columns(heads: list[str], rows: list[list[str]], width: int, *,
                 shrink: Sequence[int] = (), right: Collection[int] = (),
                 two_lines: Collection[int] = ()) -> list[str]:
    """Plain aligned columns two spaces apart (``right``: right-aligned); when too wide,
    the widest of the ``shrink`` columns gives way, down to 8 characters, and long cells
    end in "…". A heading of the ``two_lines`` columns wider than its cells is written on
    two lines (``match`` over ``points``), the game's word kept in the width its numbers
    need.

    >>> print("\\n".join(text_columns(["n", "name"], [["1", "Alexandra"]], 10, shrink=[1],
    ...                                right=[0])))
    n  name
    1  Alexand…
    >>> print("\\n".join(text_columns(["player", "match points"], [["Ann", "9"]], 40,
    ...                                right=[1], two_lines=[1])))
            match
    player  points
    Ann          9

    A cell is written as :func:`printable` text first, so that a newline or a control
    sequence in an id neither breaks its row nor shifts the columns after it.
    """
    # (and as the output writes it: escapes where its encoding lacks a character)
    heads = [legible(printable(h)) for h in heads]
    rows = [[legible(printable(c)) for c in r] for r in rows]
    # a heading of words wider than its cells goes on two lines ("match / points" over a
    # column of 2-digit numbers): the game's word kept, in the width its values need
    # (widths in terminal columns: a Japanese name's characters take two each)
    parts = [_two_lines(h, max((text_width(r[i]) for r in rows), default=0))
             if i in two_lines else [h] for i, h in enumerate(heads)]
    widths = [max([*map(text_width, p), *(text_width(r[i]) for r in rows)])
              for i, p in enumerate(parts)]
    over = sum(widths) + 2 * (len(widths) - 1) - width
    while over > 0:  # the widest name column gives way, down to 8 characters
        i = max(shrink, key=lambda k: widths[k])
        if widths[i] <= 8:
            break
        widths[i] -= 1
        over -= 1

    def line(cells: list[str]) -> str:
        return "  ".join(fitted(cell, w, right=i in right)
                         for i, (cell, w) in enumerate(zip(cells, widths, strict=True))
                         ).rstrip()

    tall = any(len(p) > 1 for p in parts)
    top = [line([p[0] if len(p) > 1 else "" for p in parts])] if tall else []
    return [*top, line([p[-1] for p in parts]), *(line(r) for r in rows)]


def _two_lines(heading: str, cells: int) -> list[str]:
    """``heading`` as one line, or as two lines split at the space that leaves the
    narrower column, where it is wider than its ``cells`` and a split narrows it.

    >>> _two_lines("match points", 2), _two_lines("match points", 14), _two_lines("pts", 2)
    (['match', 'points'], ['match points'], ['pts'])
    """
    if len(heading) <= cells or " " not in heading:
        return [heading]
    spaces = [i for i, c in enumerate(heading) if c == " "]
    at = min(spaces, key=lambda i: max(i, len(heading) - i - 1))
    return [heading[:at], heading[at + 1:]]


# --------------------------------------------------------------------------- progress


def show_progress(args: argparse.Namespace) -> bool:
    """Whether to draw bars: not ``--quiet`` and stderr is a terminal."""
    return not getattr(args, "quiet", False) and sys.stderr.isatty()


def progress(args: argparse.Namespace, **kwargs: Any) -> Any:
    """A tqdm bar on stderr, disabled by ``--quiet`` or a non-terminal stderr; two columns
    short of the terminal's width: a bar of the full width left the cursor at the edge,
    where the terminal's echo of a Ctrl-C (``^C``) wrapped to the next line, and the bar's
    erasing then cleared that line and left the bar on the screen."""
    from tqdm import tqdm

    on = show_progress(args)
    if on and "ncols" not in kwargs:
        with contextlib.suppress(OSError, ValueError):
            kwargs["ncols"] = max(os.get_terminal_size(sys.stderr.fileno()).columns - 2, 20)
    return tqdm(disable=not on, file=sys.stderr, leave=False, **kwargs)


def counting(unit: str) -> str:
    """The one look of a bar whose total is known (simulate's events, recompute's events,
    a folder's files, a table's batches, a season's pages): how far, a bar, done of all
    and the time left, ``simulating:  40%|████      | 2/5 events [00:03<00:04]``.

    >>> counting("batch")
    '{desc}: {percentage:3.0f}%|{bar}| {n:.0f}/{total_fmt} batches [{elapsed}<{remaining}]'
    """
    units = plural(unit)
    # (n as a whole number: simulate counts an event's rounds in fractions of it)
    return f"{{desc}}: {{percentage:3.0f}}%|{{bar}}| {{n:.0f}}/{{total_fmt}} {units} " \
        "[{elapsed}<{remaining}]"


def reading(paths: Sequence[str]) -> str:
    """The label of the reading step: ``reading store.csv``, ``reading 2,249 inputs``.

    >>> reading(["data/events/"]), reading(["a.csv", "b.csv"])
    ('reading events/', 'reading 2 inputs')
    """
    if len(paths) == 1:
        p = Path(paths[0])
        return f"reading {p.name}{'/' if p.is_dir() or paths[0].endswith('/') else ''}"
    return f"reading {len(paths):,} inputs"


@contextlib.contextmanager
def working(args: argparse.Namespace, desc: str) -> Iterator[None]:
    """A "``desc``… 12s" line for a step (reading files, ranking); once the step says how
    much it has to do (:func:`~swissframe._batches.reporting`: a folder's files, a very
    large table's batches, a season's pages) a bar of :func:`counting`, done of all and
    the time left. It is erased when the step ends or fails, so an error line is never
    mixed with a bar."""
    if not show_progress(args):
        yield
        return
    bar = progress(args, desc=desc, total=None, bar_format="{desc}… {elapsed}")
    stop = threading.Event()
    wake = threading.Event()  # (a count has begun: drawn now, not at the next tick)

    def at_batch(done: int, total: int, unit: str = "batch") -> None:
        # (a folder's files, a very large table's batches, a season's event pages)
        if total < 2:  # (one of one: a count says nothing the elapsed time does not)
            return
        # (the values only: the ticking thread draws the line, never this one, which a
        # Ctrl-C may interrupt mid-line: the line was then left on the screen)
        begun = bar.total != total or bar.unit != unit
        if begun:  # (a new count: its own clock, whose rate gives the time left)
            bar.total, bar.unit, bar.bar_format = total, unit, counting(unit)
            # (and as drawn since: tqdm erases only a line drawn after its start)
            bar.start_t = bar.last_print_t = bar._time()
        bar.n = min(done, total)
        if begun:  # (a read of half a second was over before its count was ever drawn)
            wake.set()

    def tick() -> None:
        while not stop.is_set():
            wake.wait(0.5)
            wake.clear()
            if not stop.is_set():
                bar.refresh()

    thread = threading.Thread(target=tick, daemon=True)
    thread.start()
    try:
        with reporting(at_batch):
            yield
    finally:
        stop.set()
        wake.set()
        try:  # (a Ctrl-C sent again, _swissframe_cli.interrupts_kept, may land in the
            # join: the line is erased all the same)
            thread.join()
        finally:
            bar.close()


# --------------------------------------------------------------------------- errors


def show_error(exc: BaseException) -> None:
    """Print :func:`error_line` on stderr: one line on a log or a pipe, wrapped at word
    boundaries on a terminal (:func:`_wrapped`)."""
    _to_stderr(error_line(exc))  # (stderr on a full disk: the status says it)


def error_line(exc: BaseException) -> str:
    """The one line printed for an error caught at the CLI boundary.

    >>> error_line(SwissframeError("bad row\\n  detail. Hint: fix it."))
    'swissframe: error: bad row | detail. Hint: fix it.'
    >>> error_line(FileNotFoundError(2, "No such file or directory", "x.csv"))
    'swissframe: error: x.csv: No such file or directory. Hint: check the path.'
    """
    if isinstance(exc, OSError) and exc.errno == errno.EBADF and exc.filename is None:
        # (stdout closed: bad data 177)
        text = (f"{exc.strerror} (writing the output). Hint: give the output a place: "
                "redirect it (> FILE), or write a file with -o.")
    elif isinstance(exc, OSError) and exc.strerror and exc.filename is None:
        # no file named: the output stream (stdout on a full disk), not a path given
        text = (f"{exc.strerror} (writing the output). Hint: check the disk, or write "
                "elsewhere with -o.")
    elif isinstance(exc, OSError) and exc.strerror:
        text = f"{exc.filename}: {exc.strerror}. Hint: check the path."
    elif isinstance(exc, OSError):
        text = f"{exc}. Hint: check the path."
    elif isinstance(exc, MemoryError):
        text = "out of memory. Hint: ask for less at once (fewer files, events or players)."
    elif isinstance(exc, SwissframeError):
        text = " | ".join(x.strip() for x in str(exc).splitlines() if x.strip())
    else:  # an engine error that escaped the checks: a bug, said as such
        first = next((x.strip() for x in str(exc).splitlines() if x.strip()), "")
        text = (f"internal {type(exc).__name__}: {first}. Hint: this is a swissframe bug; "
                "rerun with --debug and report the traceback.")
    return f"swissframe: error: {text}"
