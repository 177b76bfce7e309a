"""The one file reader: expand paths, sniff each file's format by content, read, combine.

Every command and :func:`swissframe.read` go through :func:`read`; the importers
(:mod:`~swissframe.io.tables`, :mod:`~swissframe.io.decklist`, :mod:`~swissframe.io.tom`,
:mod:`~swissframe.io.trf`) read their bytes through :func:`read_bytes` /
:func:`read_decompressed`, so that every file is checked once for being a regular file of
bounded size.

Formats (:data:`FORMATS`) and how a file's is recognised (:func:`sniff`, from the first
:data:`_HEAD` bytes; the suffix only breaks ties between text tables):

========== ========================================================================
format     content
========== ========================================================================
table      Parquet (``PAR1`` magic) or CSV/TSV whose header names ``player_id`` or
           ``player_a`` (a file named explicitly: any ``.csv``/``.tsv``)
decklist   a JSON object (``{``), plain or gzip-compressed
tom        XML (``<``): Pokémon TOM ``.tdf``
trf        FIDE TRF-16 / TRF(x): a line starting ``001``, ``012`` or ``XXR`` + blank
========== ========================================================================

Size limits
    A file is read only when it is a regular file (a named pipe, ``/dev/zero`` or a
    socket is refused up front: they could block or never end) of at most ``max_bytes``
    bytes, and a compressed file is decompressed in a stream that stops at ``max_bytes``
    (a decompression bomb is an :class:`~swissframe.errors.ImportFormatError` naming the
    file and the limit). The default, :data:`DEFAULT_MAX_BYTES`, can be raised per call
    (``max_bytes=``) or for the process with the ``SWISSFRAME_MAX_BYTES`` environment
    variable.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import errno
import functools
import glob
import gzip
import io
import os
import re
import secrets
import stat
import unicodedata
import warnings
import zlib
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Final, Literal, TypeVar

import polars as pl

from swissframe._batches import counted
from swissframe._display import count, escaped, quoted, told_apart
from swissframe.errors import (
    MAX_WHOLE,
    DataError,
    DataWarning,
    ImportFormatError,
    ImportNotesWarning,
    SchemaError,
    SwissframeError,
    ValidationError,
    check_choice,
    check_flag,
    check_whole,
)

if TYPE_CHECKING:
    from swissframe.io.decklist import DecklistEvents
    from swissframe.io.tom import TomEvents
    from swissframe.io.trf import TrfEvents
    from swissframe.schema import IdCodes, MatchColumns

__all__ = [
    "CHUNK_ROWS",
    "DEFAULT_MAX_BYTES",
    "FORMATS",
    "Source",
    "built_in_chunks",
    "check_workers",
    "each_file_once",
    "empty_round_detail",
    "event_keys",
    "expand",
    "expand_resolved",
    "file_list",
    "home",
    "keys_for",
    "max_bytes",
    "names_a_folder",
    "parse_each",
    "read",
    "read_bytes",
    "read_decompressed",
    "resolved",
    "say_warnings",
    "several_files",
    "shown",
    "sniff",
]

PathLike = str | os.PathLike[str]
_T = TypeVar("_T")
Format = Literal["table", "decklist", "tom", "trf"]

#: Every input format, in the order they are read.
FORMATS: Final[tuple[Format, ...]] = ("table", "decklist", "tom", "trf")
#: Largest file (and largest decompressed content) read by default: 512 MiB.
DEFAULT_MAX_BYTES: Final = 512 * 2**20
_ENV_LIMIT: Final = "SWISSFRAME_MAX_BYTES"
_HEAD: Final = 4096
_TABLE_SUFFIXES: Final = (".csv", ".tsv", ".parquet", ".pq")
_TABLE_HEADER: Final = re.compile(rb"^\W*[\w\t ,;|\"']*\b(player_id|player_a)\b")
_TRF_LINE: Final = re.compile(rb"(^|\n)(001|012|XXR) ")
#: What every command says of an input with no result row (a CSV header alone, a TRF, TOM
#: or decklist file with no round played), before what that means for its output, and the
#: hint after it: one sentence for the standings' warning, the report's, the chart's and
#: ``explain``'s errors (bad data 146).
NO_RESULTS: Final = ("the input has no result rows (a header alone, or files with no round "
                     "played)")
NO_RESULTS_HINT: Final = "Hint: swissframe validate FILE says what was read."
#: Games per match by format (TOM and TRF record match results, not games).
BEST_OF_BY_FORMAT: Final[dict[str, int]] = {"table": 3, "decklist": 3, "tom": 1, "trf": 1}


def common_format(kinds: Sequence[str]) -> str:
    """The format most of ``kinds`` (one per file read) are in, ties to the first in
    :data:`FORMATS` order; ``"table"`` for none: what ``best_of="auto"`` reads.

    Examples
    --------
    >>> common_format(["trf", "decklist", "trf"]), common_format([])
    ('trf', 'table')
    """
    return max(FORMATS, key=list(kinds).count) if kinds else "table"


def auto_best_of(kinds: Sequence[str]) -> int:
    """Games per match of ``best_of="auto"``: the most common format's
    (:func:`common_format`, :data:`BEST_OF_BY_FORMAT`).

    Examples
    --------
    >>> auto_best_of(["tom", "tom", "decklist"]), auto_best_of(["table"])
    (1, 3)
    """
    return BEST_OF_BY_FORMAT.get(common_format(kinds), 3)


def shown(path: PathLike) -> str:
    """A path as printable text (undecodable bytes of a file name escaped, never an error).

    Examples
    --------
    >>> shown(os.fsdecode(b"caf\\xe9.csv"))
    'caf\\\\xe9.csv'
    """
    text = os.fspath(path)
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def resolved(path: PathLike) -> Path:
    """``Path(path).resolve()``, with a loop of symbolic links an ``OSError`` (``ELOOP``)
    naming ``path`` on every Python: before 3.13 ``resolve`` raised a ``RuntimeError``
    ("Symlink loop from …"), which no caller maps, and the CLI ended in a traceback (an
    input or ``-o`` that is such a loop). Every comparison of paths by their resolved form
    (``-o`` against the inputs, files inside an output folder) resolves through here.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp()); (d / "a").symlink_to(d / "b"); (d / "b").symlink_to(d / "a")
    >>> try:
    ...     resolved(d / "a")
    ... except OSError as exc:
    ...     print(exc.strerror)
    Too many levels of symbolic links
    """
    try:
        return Path(path).resolve()
    except RuntimeError:  # (Python < 3.13: a loop of links)
        raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), shown(path)) from None


def home() -> Path | None:
    """The user's home folder, or None where Python can name none (``HOME`` unset and the
    user id absent from the password database: a container run as an arbitrary user),
    where ``Path.home()`` raises. Every folder under the home (the fonts', the caches') is
    found through here, and skipped without one.

    >>> home() is None or home().is_absolute()
    True
    """
    try:
        return Path.home()
    except (RuntimeError, KeyError, OSError):
        return None


def max_bytes(limit: int | None = None) -> int:
    """The size limit in force: ``limit``, else ``$SWISSFRAME_MAX_BYTES``, else the default.

    Examples
    --------
    >>> max_bytes(10), max_bytes() == DEFAULT_MAX_BYTES or _ENV_LIMIT in os.environ
    (10, True)
    """
    if limit is not None:
        value: object = limit
    else:
        env = os.environ.get(_ENV_LIMIT)
        if env is None:
            return DEFAULT_MAX_BYTES
        value = env
    try:
        n = int(str(value))
    except ValueError:
        n = 0
    # (a read asks for one byte more than the limit, and past MAX_WHOLE that size was
    # Python's bare OverflowError, "cannot fit 'int' into an index-sized integer", in every
    # reader but the tables')
    if not 1 <= n < MAX_WHOLE:
        msg = (f"size limit {value!r:.40} is not a number of bytes from 1 to "
               f"{MAX_WHOLE - 1:,}. "
               f"Hint: pass max_bytes=2**31 or set {_ENV_LIMIT}=2147483648.")
        raise ImportFormatError(msg)
    return n


def _too_big(path: Path, limit: int, what: str) -> ImportFormatError:
    msg = (f"{shown(path)}: {what} more than the limit of {limit:,} bytes. Hint: raise it "
           f"with max_bytes= or the {_ENV_LIMIT} environment variable if the file is "
           "genuine.")
    return ImportFormatError(msg)


def cannot_read(path: PathLike, exc: OSError) -> ImportFormatError:
    """The error of a file the system does not open (missing, a loop of symbolic links, no
    permission), naming it: every reader's, and the decklist reader's resolving of its
    paths (a loop of links given to ``read_decklist_cache`` was a bare ``OSError``)."""
    return ImportFormatError(f"{shown(path)}: cannot read the file ({exc.strerror}). Hint: "
                             "check the path.")


def _regular(path: Path, limit: int) -> int:
    """The size of ``path`` after checking it is a regular file within ``limit``."""
    try:
        st = path.stat()
    except OSError as exc:
        raise cannot_read(path, exc) from None
    if stat.S_ISDIR(st.st_mode):  # (it was "a pipe, device or socket": a reader of one
        # file — read_tom, read_trf, --pairings, --reference — given a folder)
        msg = (f"{shown(path)}: a folder, where a file is read. Hint: name a file in it; "
               "sf.read (and every command's inputs) reads each results file of a folder.")
        raise ImportFormatError(msg)
    if not stat.S_ISREG(st.st_mode):
        msg = (f"{shown(path)}: not a regular file (a pipe, device or socket). Hint: copy "
               "the data to a file first; swissframe reads files of known size only.")
        raise ImportFormatError(msg)
    if st.st_size > limit:
        raise _too_big(path, limit, f"the file is {st.st_size:,} bytes,")
    return st.st_size


def read_bytes(path: PathLike, *, limit: int | None = None, head: int | None = None) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (or its first ``head`` bytes).

    Raises :class:`~swissframe.errors.ImportFormatError` naming the file when it is
    missing, unreadable, not a regular file or too big.

    Examples
    --------
    >>> read_bytes("/dev/zero")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    swissframe.errors.ImportFormatError: /dev/zero: not a regular file ...
    """
    p = Path(path)
    cap = max_bytes(limit)
    size = _regular(p, cap)
    # (one byte more than the file's size, not than the limit: a read allocates what it
    # asks for, and a generous max_bytes=2**40 was a MemoryError on a 9 KB file)
    want = min(cap, size) + 1 if head is None else min(head, cap + 1)
    try:
        with p.open("rb") as fh:
            data = fh.read(want)
    except OSError as exc:
        raise cannot_read(p, exc) from None
    if head is None and len(data) > size:  # (past the limit too, when size was the limit)
        msg = (f"{shown(p)}: the file grew while it was read ({size:,} bytes, then more). "
               "Hint: read it once it is written.")
        raise ImportFormatError(msg)
    return data


def read_decompressed(path: PathLike, *, limit: int | None = None) -> bytes:
    """The content of a file, gunzipped in a stream when it starts with the gzip magic.

    Decompression stops at ``limit`` bytes: a larger content (a decompression bomb) is an
    :class:`~swissframe.errors.ImportFormatError` naming the file and the limit; a corrupt
    stream is one too.

    Examples
    --------
    >>> import gzip, tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "bomb.json.gz"
    >>> _ = f.write_bytes(gzip.compress(b"{" + b" " * 10_000 + b"}"))
    >>> len(read_decompressed(f))
    10002
    >>> read_decompressed(f, limit=1000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    swissframe.errors.ImportFormatError: ...bomb.json.gz: decompressed, ... limit of 1,000 bytes...
    """
    p = Path(path)
    cap = max_bytes(limit)
    raw = read_bytes(p, limit=cap)
    if raw[:2] != b"\x1f\x8b":
        return raw
    fast = _isal_member(raw, cap)
    if fast is not None:
        return fast
    out = bytearray()
    try:
        while raw:
            d = zlib.decompressobj(wbits=31)
            chunk = d.decompress(raw, cap + 1 - len(out))
            if not out and d.eof and len(chunk) <= cap and not d.unused_data.lstrip(b"\x00"):
                return chunk  # (one member, the common case: its bytes, not two copies)
            out += chunk
            while d.unconsumed_tail and len(out) <= cap:
                out += d.decompress(d.unconsumed_tail, cap + 1 - len(out))
            if len(out) > cap:
                raise _too_big(p, cap, "decompressed, it holds")
            if not d.eof:
                msg = (f"{shown(p)}: cannot read the gzip stream: it is truncated. Hint: the "
                       "download or copy was cut short; fetch the file again.")
                raise ImportFormatError(msg)
            raw = d.unused_data.lstrip(b"\x00")  # a further gzip member
    except zlib.error as exc:
        msg = (f"{shown(p)}: cannot read the gzip data, it is corrupt ({exc}). Hint: the "
               "file is damaged; fetch it again.")
        raise ImportFormatError(msg) from None
    return bytes(out)


#: The gzip header's flag bits that no gzip writer sets (RFC 1952): zlib refuses them.
_RESERVED_FLAGS: Final = 0xE0


@functools.cache
def _isal() -> ModuleType | None:
    """ISA-L's inflate (optional, about twice zlib's speed), imported on the first gzip read
    (``import swissframe`` does not load it), or None where it is not installed."""
    try:
        from isal import isal_zlib
    except ImportError:  # pragma: no cover - the wheels cover the supported platforms
        return None
    return isal_zlib


def _isal_member(raw: bytes, cap: int) -> bytes | None:
    """The content of a gzip file of one member (the common case) by ISA-L, or None when
    zlib is to read it (:func:`read_decompressed`): a file of several members or larger
    than ``cap``, one ISA-L refuses (zlib words the error) or whose header sets a reserved
    flag (ISA-L reads it, zlib refuses it), or no ISA-L (an optional dependency). ISA-L
    checks the CRC-32 and the length of the content as zlib does."""
    isal_zlib = _isal()
    if isal_zlib is None or len(raw) < 10 or raw[3] & _RESERVED_FLAGS:
        return None
    try:
        d = isal_zlib.decompressobj(wbits=31)
        chunk: bytes = d.decompress(raw, cap + 1)
    except Exception:  # (isal's IsalError: zlib reads it again for its own message)
        return None
    if d.eof and len(chunk) <= cap and not d.unused_data.lstrip(b"\x00"):
        return chunk
    return None


def _gunzip_head(raw: bytes) -> bytes:
    try:
        return zlib.decompressobj(wbits=31).decompress(raw, _HEAD)
    except zlib.error:
        return b""


#: The first bytes of compressed files and archives, and what each is called.
_PACKED: Final = ((b"\x1f\x8b", "gzip-compressed"), (b"PK\x03\x04", "a zip archive"),
                  (b"BZh", "bzip2-compressed"), (b"\xfd7zXZ\x00", "xz-compressed"),
                  (b"\x28\xb5\x2f\xfd", "zstd-compressed"),
                  (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"), (b"Rar!", "a RAR archive"))


def packed(path: Path, head: bytes) -> str:
    """What a compressed file or an archive is, from its first bytes ("" when it is
    neither), for its error: swissframe reads a compressed file only for decklist-cache
    JSON (``.json.gz``); a gzipped CSV, TRF or TOM file, a zip of results, was refused as
    "not a results table … force a format" (forced, as "it holds NUL bytes … UTF-16")."""
    kind = _packed_kind(head)
    if not kind:
        return ""
    unpack = "gunzip it" if kind.startswith("gzip") else "unpack it"
    return (f"{shown(path)}: {kind}, not a results file: swissframe reads compressed "
            f"files only for decklist-cache JSON (.json.gz). Hint: {unpack} first, and "
            "read what it holds.")


def _packed_kind(head: bytes) -> str:
    return next((name for magic, name in _PACKED if head.startswith(magic)), "")


def _skip_reason(path: Path) -> str:
    """Why a file of a folder is not read (a ``skipped_file`` note)."""
    if _broken_link(path):
        return "a link to no file (broken, or a loop of links)"
    if path.is_dir():  # (_folder_files' passed-over entries: no results file is read there)
        return ("a link to a folder, not followed (read the folder it names by its own path)"
                if path.is_symlink() else "a folder that cannot be listed (no permission)")
    try:
        regular = stat.S_ISREG(path.stat().st_mode)
    except OSError:
        regular = False
    if not regular:
        return "a pipe, device or socket: not read (swissframe reads files of known size)"
    try:
        kind = _packed_kind(read_bytes(path, head=8))
    except (OSError, SwissframeError):
        kind = ""
    return (f"{kind}: only decklist-cache JSON is read compressed (.json.gz)" if kind
            else "not a results file (judged by its content)")


def _is_workbook(path: Path, limit: int | None) -> bool:
    """Whether a file is a spreadsheet workbook by its name and first bytes (a zip archive:
    xlsx, xlsm, ods; an OLE file: xls): what an analyst saves when they mean CSV."""
    return (path.name.lower().endswith((".xlsx", ".xlsm", ".xls", ".ods"))
            and read_bytes(path, limit=limit, head=4) in (b"PK\x03\x04", b"\xd0\xcf\x11\xe0"))


#: A URL's scheme (``http://``, ``s3://``, ``file://``): what :func:`local_path` refuses.
_URL: Final = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+://")


def _not_a_path(value: object, *, output: bool = False) -> str:
    """Why ``value``, given where a path is read or written, is none, or ``""`` for a
    path: an open file or an in-memory buffer (an ``io`` stream: a text one was iterated
    line by line and each line looked up as a path, ``no such file … 'round,player_a,…'``),
    bytes, an ``os.PathLike`` whose ``__fspath__`` gives no text (a bare ``TypeError``), a
    URL (``no such file`` of a name that is none; written, a local folder ``http:``)."""
    if isinstance(value, io.IOBase):
        name = getattr(value, "name", None)
        return (f"an open file ({shown(name)!r}). Hint: pass its path, e.g. f.name"
                if isinstance(name, str) else
                f"data in memory ({type(value).__name__}). Hint: "
                + ("write to a file's path, then read the file back" if output else
                   "write it to a file and pass its path, or read the table with Polars "
                   "(pl.read_csv(buffer)) and pass that"))
    if isinstance(value, bytes):
        return f"bytes ({value!r:.60}). Hint: pass the path as text: os.fsdecode(path)"
    if isinstance(value, os.PathLike):
        try:
            text = os.fspath(value)
        except TypeError as exc:
            return f"{type(value).__name__} whose path is none ({exc}). Hint: check it"
        if not isinstance(text, str):
            return f"{type(value).__name__} naming bytes. Hint: pass the path as text"
    elif not isinstance(value, str):
        return ""
    text = os.fspath(value)
    if _URL.match(text):
        local = text[len("file://"):] if text.lower().startswith("file://") else ""
        return (f"a URL ({shown(text)!r}): swissframe reads and writes local files only. "
                + (f"Hint: the local path is {shown(local)!r}" if local else
                   "Hint: write a local file, then copy it there" if output else
                   "Hint: download it first (e.g. curl -O URL), then name the file"))
    return ""


def local_path(value: object, *, what: str = "path", output: bool = True) -> str:
    """``value`` as a local path's text with ``~`` expanded (``~/events`` was looked up as
    a folder named ``~``, and an output written there made one in the working folder),
    or a :class:`~swissframe.errors.DataError` naming ``what`` and what it got
    (:func:`_not_a_path`; a number, None or a table: :func:`path_items` names them). The
    one reading of a path argument: every reader's paths (:func:`path_items`) and every
    output's (``output``: a chart, a report, ``recompute``'s folder, the CLI's ``-o``).

    >>> local_path("out/x.csv"), local_path("~/x.csv") == os.path.expanduser("~/x.csv")
    ('out/x.csv', True)
    >>> local_path("https://example.org/x.csv", what="save")
    Traceback (most recent call last):
    swissframe.errors.DataError: save: a URL ('https://example.org/x.csv'): swissframe ...
    """
    why = _not_a_path(value, output=output)
    if why or not isinstance(value, (str, os.PathLike)):
        why = why or (f"{type(value).__name__} ({value!r:.60}). Hint: name a file, e.g. "
                      "'out/standings.csv'")
        msg = f"{what}: {why}." if why.startswith("a URL") else f"{what} must be a path, got {why}."
        raise DataError(msg)
    text = os.fspath(value)
    assert isinstance(text, str)
    return os.path.expanduser(text) if text.startswith("~") else text


def path_items(paths: object) -> list[str]:
    """The paths a reader was given: one path (text or ``Path``) or a sequence of them, as
    a non-empty list of texts (:func:`local_path`: ``~`` expanded; a URL, an open file, a
    buffer or bytes refused); an :class:`~swissframe.errors.ImportFormatError` otherwise
    (None or a number ended in ``list()``'s bare ``TypeError``; a table is not a path).

    >>> path_items("a.csv"), path_items(["a.csv", "b.csv"])
    (['a.csv'], ['a.csv', 'b.csv'])
    """
    if why := _not_a_path(paths):  # (a stream is iterable: its lines are no paths)
        raise ImportFormatError(_path_refused(why))
    items: list[object] | None = [paths] if isinstance(paths, (str, os.PathLike)) else (
        list(paths) if isinstance(paths, Iterable) and not isinstance(paths, bytes)
        and not isinstance(paths, (pl.DataFrame, pl.LazyFrame)) else None)
    if items is not None and (why := next(filter(None, map(_not_a_path, items)), "")):
        raise ImportFormatError(_path_refused(why))
    if items is None or not all(isinstance(i, (str, os.PathLike)) for i in items):
        msg = (f"expected a file, folder or glob path (or a list of them), got "
               f"{type(paths).__name__} ({paths!r:.60}). Hint: e.g. sf.read('events/'); a "
               "table is already read: pass it to sf.standings directly.")
        raise ImportFormatError(msg)
    if not items:
        msg = "no input files given. Hint: pass a file, a folder or a glob."
        raise ImportFormatError(msg)
    if any(isinstance(i, str) and not i for i in items):
        # ('' is Path('.'): every results file under the working folder was read, or a
        # TOM / TRF reader ended in pathlib's bare "has an empty name")
        msg = ("an empty path ('') given as input. Hint: name a file, a folder or a glob "
               "('.' for the working folder); an unset shell variable gives ''.")
        raise ImportFormatError(msg)
    given = [local_path(i, output=False) for i in items]
    if nul := next((i for i in given if "\x00" in i), None):
        # (the system's calls refuse it with a bare ValueError, "embedded null byte")
        msg = (f"the path {shown(nul)!r} holds a NUL byte, which no file's name holds. Hint: "
               "check how the path was made (a NUL-separated list, find -print0, read as one).")
        raise ImportFormatError(msg)
    return given


def _path_refused(why: str) -> str:
    """The message of an input that is no path (:func:`_not_a_path`)."""
    return (f"cannot read {why}." if why.startswith("a URL") else
            f"expected a file, folder or glob path (or a list of them), got {why}.")


#: The first bytes of a Parquet file (what :func:`sniff` and :func:`_is_parquet` test).
_PARQUET_MAGIC: Final = b"PAR1"


def sniff(path: PathLike, *, limit: int | None = None) -> Format | None:
    """The format of a file from its first bytes (None when it is none of :data:`FORMATS`).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "a.dat").write_text("event_id,round,player_id,opponent_id\\n")
    >>> _ = (d / "b.txt").write_text("012 Club\\n001    1      A\\n")
    >>> _ = (d / "c").write_text('<tournament type="2">')
    >>> _ = (d / "d.md").write_text("# notes")
    >>> [sniff(d / n) for n in ("a.dat", "b.txt", "c", "d.md")]
    ['table', 'trf', 'tom', None]
    """
    p = Path(path)
    head = read_bytes(p, limit=limit, head=_HEAD)
    if head[:2] == b"\x1f\x8b":
        head = _gunzip_head(head)
        text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
        return "decklist" if text[:1] in (b"{", b"[") else None
    if head.startswith(_PARQUET_MAGIC):
        return "table"
    encoding = _bom_encoding(head)
    if encoding is not None:  # UTF-16/32 text: sniffed as its UTF-8 (each reader decodes
        head = head.decode(encoding, errors="ignore").encode("utf-8")  # it: bom_decoded)
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text[:1] == b"<":
        return "tom"
    if text[:1] in (b"{", b"["):
        return "decklist"
    # (a table's header first: its rows may start like TRF records — an event or a player
    # "001 Kai" in the first column was sniffed as TRF and refused as a misaligned line —
    # while a TRF's first line never names player_id or player_a)
    if _TABLE_HEADER.match(text):
        return "table"
    if _TRF_LINE.search(head):
        return "trf"
    return None


#: Usual suffixes per format: with a forced format, a folder's files with one of these are
#: taken without sniffing; other files are taken when their content is of that format.
SUFFIXES: Final[dict[str, tuple[str, ...]]] = {
    "table": _TABLE_SUFFIXES, "decklist": (".json", ".json.gz"), "tom": (".tdf", ".xml"),
    "trf": (".trf", ".trfx")}


def _kind(f: Path, format: str, *, named: bool, limit: int | None) -> Format | None:
    if format == "auto":
        kind = sniff(f, limit=limit)
        if kind is None:  # a results suffix on other content: read (and fail) by the suffix,
            name = f.name.lower()  # so that a damaged results file is never skipped
            kind = next((k for k in FORMATS if name.endswith(SUFFIXES[k])), None)
        return kind
    forced: Format = format  # type: ignore[assignment]
    if named or f.name.lower().endswith(SUFFIXES[forced]):
        return forced
    return forced if sniff(f, limit=limit) == forced else None


def _folder_files(root: Path) -> tuple[list[Path], list[Path]]:
    """The files under the folder ``root``, searched recursively, and what is passed over
    there, each list sorted: what ``root.rglob("*")`` lists, less hidden names (a leading
    ".") and all under a hidden folder, which are not descended into. Passed over, for the
    caller to report as skipped (:func:`_skip_reason` says why): links that name no file
    (broken, or a loop of links), links to a folder (not followed), pipes, devices and
    sockets (or links to them), and folders that cannot be listed. Those were dropped
    without a word, but for the broken links (bad data 212: a season folder's unreadable
    sub-folder lost its events). One ``scandir`` per folder, its entries' types as listed:
    the 2,249 files of a decklist cache were ≈ 0.1 s of ``pathlib`` calls a read.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> for name in ("a/x.json", "a/.h/y.json", ".top", "b/z.csv"):
    ...     (d / name).parent.mkdir(parents=True, exist_ok=True)
    ...     _ = (d / name).write_text("")
    >>> (d / "a" / "gone").symlink_to(d / "nowhere")
    >>> files, passed = _folder_files(d)
    >>> [f.relative_to(d).as_posix() for f in files], [f.name for f in passed]
    (['a/x.json', 'b/z.csv'], ['gone'])
    """
    files: list[Path] = []
    passed: list[Path] = []
    folders = [os.fspath(root)]
    while folders:
        folder = folders.pop()
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError:  # (no permission to list it; the root itself was listed before)
            passed.append(Path(folder))
            continue
        for entry in entries:
            if entry.name.startswith("."):
                continue
            if entry.is_dir(follow_symlinks=False):
                folders.append(entry.path)
                continue
            try:
                is_file = entry.is_file()  # (through a link)
            except OSError:  # (a loop of links)
                is_file = False
            (files if is_file else passed).append(Path(entry.path))
    return sorted(files), sorted(passed)


def _broken_link(path: Path) -> bool:
    """A symbolic link that names no file (a broken link, or a loop of links)."""
    return path.is_symlink() and not path.exists()


def glob_files(pattern: PathLike) -> list[Path]:
    """The files a glob pattern matches, sorted: what ``glob.glob(pattern, recursive=True)``
    matches — a name with a leading "." only where the pattern writes the dot — except
    that ``**`` never descends into a link to a folder, as a folder's read
    (:func:`_folder_files`) does not. ``glob.glob`` follows such links: a link to a folder
    above (``a/up -> ..``) read one file 41 times, under 41 paths round the loop, and two
    such links made it walk 2**40 paths (a hang).

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> (d / "a").mkdir(); _ = (d / "a" / "x.csv").write_text(""); _ = (d / ".h.csv").write_text("")
    >>> (d / "a" / "up").symlink_to("..")
    >>> [f.relative_to(d).as_posix() for f in glob_files(d / "**" / "*.csv")]
    ['a/x.csv']
    """
    parts = Path(pattern).parts
    first = next((i for i, p in enumerate(parts) if glob.escape(p) != p), len(parts))
    base = Path(*parts[:first]) if first else Path()
    # (within a name, ** is * to glob; pathlib before 3.13 refuses it)
    rest = [p if p == "**" else re.sub(r"\*{2,}", "*", p) for p in parts[first:]]
    if not rest:
        return [base] if base.is_file() else []
    if rest[-1] == "**":  # (glob's trailing ** matches the files below too)
        rest.append("*")
    dotted = any(p.startswith(".") for p in rest)
    return sorted(f for f in base.glob("/".join(rest)) if f.is_file() and (
        dotted or not any(p.startswith(".") for p in f.relative_to(base).parts)))


def resolved_paths(files: Sequence[Path]) -> list[Path]:
    """``[f.resolve() for f in files]`` with each folder resolved once: a path whose last
    part is not a symbolic link resolves to its resolved folder joined with that part (one
    ``lstat`` per file and folder instead of one per component of every path: the 2,249
    files of a decklist cache). A loop of links is the reader's error (:func:`cannot_read`).
    What :func:`expand` tells one file's paths apart by."""
    cache: dict[str, str] = {}

    def real(path: str) -> str:
        got = cache.get(path)
        if got is None:
            head, tail = os.path.split(path)
            if not head or not tail or tail in (".", "..") or os.path.islink(path):
                got = os.fspath(resolved(path))  # (a loop of links: an OSError)
            else:
                got = os.path.join(real(head), tail)
            cache[path] = got
        return got

    out = []
    for f in files:
        try:
            out.append(Path(real(os.fspath(f))))
        except OSError as exc:  # (a loop of symbolic links)
            raise cannot_read(f, exc) from None
    return out


def each_file_once(files: Sequence[Path]) -> list[tuple[int, Path]]:
    """``(position, resolved form)`` of the first path in ``files`` of each file, by the
    resolved forms (:func:`resolved_paths`): one file named by two spellings (a relative
    and an absolute path, ``sub/../x``, a link to it) was read twice — a table's every
    seat twice, "duplicate_seat"; a TOM or TRF file two events (bad data 197). The one
    rule of every reader's inputs (:func:`expand`) and of ``recompute``'s archives."""
    first: dict[Path, int] = {}
    for i, real in enumerate(resolved_paths(files)):
        first.setdefault(real, i)
    return [(i, real) for real, i in first.items()]


def expand(paths: PathLike | Iterable[PathLike], *, format: str = "auto",
           limit: int | None = None) -> tuple[list[tuple[Path, Format]], list[Path]]:
    """Files named by ``paths`` (files, folders searched recursively, globs) with formats.

    Returns the (file, format) pairs, each file once, and the files of a folder or glob
    skipped because they are in no known format or are links to no file (hidden files are
    not looked at). A file named explicitly must be in a known format (or ``format``
    forces one).

    Raises
    ------
    ImportFormatError
        A path matches nothing, a named file has no known format, or nothing is left.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "e.csv").write_text("player_id,opponent_id\\n")
    >>> _ = (d / "README.md").write_text("notes")
    >>> found, skipped = expand(d)
    >>> [(f.name, k) for f, k in found], [f.name for f in skipped]
    ([('e.csv', 'table')], ['README.md'])
    """
    found_once, skipped = expand_resolved(paths, format=format, limit=limit)
    return [(f, kind) for f, kind, _ in found_once], skipped


def expand_resolved(paths: PathLike | Iterable[PathLike], *, format: str = "auto",
                    limit: int | None = None
                    ) -> tuple[list[tuple[Path, Format, Path]], list[Path]]:
    """:func:`expand`, each file with its resolved form (:func:`each_file_once`), for a
    reader that orders its files by them (the decklist reader) without resolving them
    again (2,249 files: ≈ 35 ms)."""
    if format != "auto" and format not in FORMATS:
        # (a file's kind named by its suffix, "csv" or ".tdf": the format that reads it,
        # from the one table of usual suffixes)
        said = "." + str(format).strip().lower().lstrip(".")
        kind = next((k for k in FORMATS if said in SUFFIXES[k]), None)
        meant = f"a {said} file is format {kind!r}; " if kind else ""
        msg = (f"unknown input format {format!r}. Hint: {meant}use one of auto, "
               f"{', '.join(FORMATS)}.")
        raise ImportFormatError(msg)
    items = path_items(paths)
    found: dict[Path, Format] = {}
    skipped: list[Path] = []
    for item in items:
        p = Path(item)
        try:  # (pathlib passes over a missing file or a loop, not a name too long for the
            # system, ENAMETOOLONG, nor a folder it may not search: bare OSErrors)
            is_dir, is_there = p.is_dir(), p.exists() or p.is_symlink()
        except OSError as exc:
            raise cannot_read(p, exc) from None
        if is_dir:
            members, passed = _folder_files(p)
            # (what a folder's read passes over was dropped without a word)
            skipped.extend(passed)
            named = False
        elif is_there:
            members, named = [p], True
        else:
            members = glob_files(item)
            named = False
            if not members:
                msg = (f"no such file, folder or glob match: {shown(item)!r}. Hint: check "
                       "the path.")
                raise ImportFormatError(msg)
        kept = 0
        for f in members:
            kind = _kind(f, format, named=named, limit=limit)
            if kind is None:
                if named and _is_workbook(f, limit):
                    msg = (f"{shown(f)}: a spreadsheet workbook (xlsx, xls or ods), not a results "
                           "file. Hint: save its sheet as CSV UTF-8, or read it with "
                           "pl.read_excel and pass the frame to swissframe.")
                    raise ImportFormatError(msg)
                if named and (msg := packed(f, read_bytes(f, limit=limit, head=8))):
                    raise ImportFormatError(msg)
                if named:
                    msg = (f"{shown(f)}: not a results table, decklist-cache JSON, TOM or "
                           "TRF file (judged by its content). Hint: force a format with "
                           "format= in Python, --input-format on the command line (not "
                           "--format, which chooses the output).")
                    raise ImportFormatError(msg)
                skipped.append(f)
                continue
            kept += 1
            found.setdefault(f, kind)
        if not kept and not named:
            msg = (f"{shown(item)}: no results file in this folder or glob (tables, "
                   "decklist-cache JSON, TOM, TRF). Hint: check the path.")
            raise ImportFormatError(msg)
    pairs = list(found.items())  # (each file once, the first given kept)
    return [(*pairs[i], real) for i, real in each_file_once([f for f, _ in pairs])], skipped


def file_list(paths: PathLike | Iterable[PathLike]) -> list[Path]:
    """``paths`` as a non-empty list of paths (one path or an iterable of them:
    :func:`path_items`)."""
    return [Path(p) for p in path_items(paths)]


def event_keys(paths: Sequence[PathLike]) -> list[str]:
    """Short unique event keys for files: the stem, plus parent folders where needed.

    Files whose names differ only by extension keep the extension in their key.

    Examples
    --------
    >>> event_keys(["a/challenge/11-final.tdf", "b/earned/11-final.tdf", "x/cup.tdf"])
    ['challenge/11-final', 'earned/11-final', 'cup']
    """
    resolved = [Path(p) for p in paths]
    full = [shown(p.as_posix()) for p in resolved]
    dupes = sorted({k for k in full if full.count(k) > 1})
    if dupes:
        msg = f"the same file is given more than once: {dupes}. Hint: pass each file once."
        raise DataError(msg)
    candidates = []
    for p, whole in zip(resolved, full, strict=True):
        # (a path with no name — '.', './', '/' — has no suffix: pathlib raised a bare
        # ValueError; the reader then names it as a folder)
        parts = [shown(x) for x in ((p.with_suffix("") if p.name else p).parts or (whole,))]
        candidates.append(["/".join(parts[-d:]) for d in range(1, len(parts) + 1)] + [whole])
    level = [0] * len(candidates)
    while True:
        keys = [c[min(i, len(c) - 1)] for c, i in zip(candidates, level, strict=True)]
        clash = {k for k in keys if keys.count(k) > 1}
        if not clash:
            return keys
        level = [i + 1 if k in clash else i for k, i in zip(keys, level, strict=True)]


def keys_for(files: Sequence[Path], event_ids: Sequence[str] | None) -> list[str]:
    """``event_ids`` checked against ``files`` (one distinct id each, as text; one id
    given as text is that id, not its letters), else derived keys."""
    if isinstance(event_ids, str):
        event_ids = [event_ids]
    elif isinstance(event_ids, Iterable):
        event_ids = list(event_ids)  # (an iterator is read once)
    if event_ids is not None and not (
            isinstance(event_ids, list) and all(isinstance(k, str) for k in event_ids)):
        # (None in the list was "the round blocks do not form a consistent results table:
        # null_value" of the file; a number, the file's rows under a number id)
        msg = (f"event_ids must be ids as text, one per path; got {event_ids!r:.80}. Hint: "
               "e.g. event_ids=['club-2026'], or leave it out to derive them from the file "
               "names.")
        raise DataError(msg)
    keys = list(event_ids) if event_ids is not None else event_keys(files)
    if len(keys) != len(files) or len(set(keys)) != len(keys):
        msg = (f"event_ids must be {len(files)} distinct ids, one per path; got {keys}. "
               "Hint: leave event_ids out to derive them from the file names.")
        raise DataError(msg)
    return keys


def parse_each(paths: str | Path | Iterable[str | Path], *, event_ids: Sequence[str] | None,
               max_bytes: int | None, parse: Callable[..., _T]) -> list[_T]:
    """Each file of ``paths`` (:func:`file_list`) read within ``max_bytes``
    (:func:`read_bytes`) and parsed as ``parse(data, event_key=…, source=…)``: its event
    key (:func:`keys_for`, ``event_ids`` or derived from the names) and the name it is
    shown by. The loop of each format's ``read_*`` (TOM, TRF); each file counted to the
    progress line (a season's folder: "400/1,000 files")."""
    files = file_list(paths)
    keys = keys_for(files, event_ids)
    return [parse(_unpacked(f, read_bytes(f, limit=max_bytes)), event_key=k, source=shown(f))
            for f, k in counted(list(zip(files, keys, strict=True)), "file")]


#: Rows (matches or round blocks, and players) of the parsed files a reader builds into
#: frames at once (:func:`built_in_chunks`): a season of small files is a few builds, and
#: the plain-Python rows held before a build stay bounded (all 1,000 files of the reader
#: rows at once held 520 MiB).
CHUNK_ROWS: Final = 100_000

_P = TypeVar("_P")


def built_in_chunks(paths: str | Path | Iterable[str | Path], *,
                    event_ids: Sequence[str] | None, max_bytes: int | None,
                    parse: Callable[..., _P], rows: Callable[[_P], int],
                    build: Callable[[Sequence[_P]], _T],
                    stack: Callable[[list[_T]], _T]) -> _T:
    """Each file of ``paths`` parsed to plain Python (``parse``, as :func:`parse_each`
    calls it), and the parsed files built into frames a chunk at a time (``build``: the
    frames of many files at once, each chunk about :data:`CHUNK_ROWS` ``rows``), the
    chunks stacked in the given order (``stack``; one chunk is returned as it is). The
    loop of the TOM and TRF readers.

    The error raised is the first damaged file's in the given order, as reading and
    building the files one by one gave: a file that cannot be read or parsed has the
    unbuilt files before it built first, and a chunk whose build fails is built again
    file by file, the first file's own error raised (:func:`_built_in_order`)."""
    parts: list[_T] = []
    done: list[_P] = []
    held = 0

    def each(data: bytes, *, event_key: str, source: str) -> None:
        nonlocal held
        done.append(parse(data, event_key=event_key, source=source))
        held += rows(done[-1])
        if held >= CHUNK_ROWS:
            chunk = list(done)
            done.clear()
            held = 0
            parts.append(_built_in_order(build, chunk))

    try:
        parse_each(paths, event_ids=event_ids, max_bytes=max_bytes, parse=each)
    except SwissframeError:
        if done:
            _built_in_order(build, done)
        raise
    if done or not parts:
        parts.append(_built_in_order(build, done))
    return parts[0] if len(parts) == 1 else stack(parts)


def _built_in_order(build: Callable[[Sequence[_P]], _T], files: Sequence[_P]) -> _T:
    """``build(files)``; where it finds a damaged file, the error of the first damaged
    file in the given order, as building each file alone in turn gives (only on the way
    to an error: each file built again alone)."""
    try:
        return build(files)
    except ImportFormatError:
        if len(files) > 1:
            for f in files:
                build([f])
        raise


def _unpacked(path: Path, data: bytes) -> bytes:
    """``data``, or the :func:`packed` error of a compressed file given as TOM or TRF (it
    was "no player lines", "not well-formed XML")."""
    if msg := packed(path, data[:8]):
        raise ImportFormatError(msg)
    return data


# ------------------------------------------------------------------------------- Source


def event_names(bundles: Iterable[object], event_ids: Iterable[str]) -> dict[str, str]:
    """Each of ``event_ids`` by its name, the one rule every surface names an event by
    (the terminal's headings, ``cut``, ``explain``, the charts, the reports): the name
    its file gives it (a decklist file's tournament, a TOM file's ``<name>``, a TRF's 012
    line; in ``bundles``, the importers' results, their ``events`` / ``structure`` /
    ``header`` frames), with the pod's division where one file's pods share it ("Cup
    (juniors)"); else the event's id (a table's: its file's stem, or its ``event_id``
    column).

    >>> event_names([], ["league-night"])
    {'league-night': 'league-night'}
    """
    frames = []
    for obj in bundles:
        for attr in ("events", "structure", "header"):
            frame = getattr(obj, attr, None)
            if isinstance(frame, pl.DataFrame) and {"event_id", "name"} <= set(frame.columns):
                frames.append(frame.select(pl.col("event_id").cast(pl.String),
                                           pl.col("name").cast(pl.String)))
                break
    ids = list(dict.fromkeys(str(e) for e in event_ids))
    if not frames:
        return {e: e for e in ids}
    named = (pl.concat(frames).filter(pl.col("name").str.strip_chars() != "").drop_nulls()
             .unique("event_id", keep="first", maintain_order=True))
    # one file, several pods / divisions: "Two Pods (juniors)"
    named = named.with_columns(name=pl.when(pl.len().over("name") > 1)
                               .then(pl.format("{} ({})", pl.col("name"),
                                               pl.col("event_id").str.split(":").list.last()))
                               .otherwise(pl.col("name")))
    known = dict(named.iter_rows())
    return {e: str(known.get(e) or e) for e in ids}


@dataclass(frozen=True)
class Source:
    """What :func:`read` read: the results and what the files say about them.

    Attributes
    ----------
    results
        The long results table of every file (importers' extra columns kept, null where
        a format lacks them), plus ``source_file`` (the file of each row) and ``ruleset``
        (the preset the data calls for, see :mod:`swissframe.rules._infer`; what
        ``rules="auto"`` uses). TOM rows also carry ``division`` (the pod's division).
    events
        One row per event: ``event_id, source_file, source_kind`` (``table``,
        ``decklist``, ``tom``, ``trf``), ``platform`` (decklist source, else null),
        ``start_date``, ``ruleset``, ``ruleset_reason``.
    names
        ``event_id, player_id, name`` where the files hold names (TOM, TRF); empty else.
    divisions
        ``event_id, player_id, division`` (TOM age divisions); empty for other formats.
    published
        Published standings where the format has them (decklist: ``rank`` and the
        tiebreakers; TOM: ``place``), else None.
    notes
        What was read but not used, or repaired: ``file, event_id, round, player_id,
        opponent_id, kind, detail`` (skipped files, pending matches, unknown records,
        decklist repairs); with ``validate=False`` also a match table's bad cells
        (``severity`` and ``value`` set).
    problems
        ``(file, message)`` of each file that could not be read (``on_error="collect"``
        only; otherwise the first such file raises).
    bundles
        Each importer's own result by format (``"decklist"`` →
        :class:`~swissframe.io.decklist.DecklistEvents`, ``"tom"`` →
        :class:`~swissframe.io.tom.TomEvents`, ``"trf"`` →
        :class:`~swissframe.io.trf.TrfEvents`), for what needs more than the results
        (``verify``, ``verify-ref``); with ``on_error="collect"`` the first readable part.
    """

    results: pl.DataFrame
    events: pl.DataFrame
    names: pl.DataFrame
    divisions: pl.DataFrame
    published: pl.DataFrame | None
    notes: pl.DataFrame
    problems: tuple[tuple[str, str], ...] = field(default=())
    bundles: Mapping[str, object] = field(default_factory=dict)
    #: the validated frame and its validation's id codes, row for row (None unvalidated,
    #: or validated in batches): what lets the CLI hand ``results`` to analyses as
    #: validated (``cli._common.input_rows``) — while ``results`` is that very frame —
    #: instead of each checking it again
    _validated: tuple[pl.DataFrame, IdCodes] | None = field(default=None, repr=False,
                                                            compare=False)

    @property
    def source_kind(self) -> str:
        """The format of the files (``"mixed"`` when they differ, ``"none"`` when empty)."""
        kinds = sorted(set(self.events["source_kind"].to_list()))
        return kinds[0] if len(kinds) == 1 else ("none" if not kinds else "mixed")

    @property
    def file_formats(self) -> list[str]:
        """The format of each file read, in order (what ``best_of="auto"`` reads:
        :func:`auto_best_of`)."""
        return self.events.unique("source_file", maintain_order=True)[
            "source_kind"].to_list()

    @property
    def files(self) -> list[str]:
        """The files read, in order."""
        return list(dict.fromkeys(self.events["source_file"].to_list()))

    @property
    def keys(self) -> tuple[str, ...]:
        """Extra key columns for the engine: ``("division",)`` when TOM files were read."""
        return ("division",) if "division" in self.results.columns else ()

    def ruleset_of(self, event_id: str | None = None) -> str:
        """The inferred ruleset of one event (or of every event, when they agree).

        Raises :class:`~swissframe.errors.DataError` when the events call for several.
        """
        ev = self.events if event_id is None else self.events.filter(
            pl.col("event_id") == event_id)
        names = sorted(set(ev["ruleset"].to_list())) or ["mtg"]
        if len(names) > 1:
            msg = (f"the events call for different rulesets ({', '.join(names)}). Hint: "
                   "pick one event with --event, or name the rules with --rules.")
            raise DataError(msg)
        return str(names[0])

    def _facts(self) -> list[str]:
        from swissframe._display import count

        kinds = (self.events["source_kind"].value_counts(sort=True).iter_rows()
                 if self.events.height else [])
        by = ", ".join(f"{k} {n}" for k, n in kinds)
        return [count(self.event_count, "event")
                + (f" ({by})" if by else ""),
                count(self.results.height, "result row"),
                count(self.notes.height, "note"),
                count(len(self.problems), "unreadable file")]

    def __repr__(self) -> str:
        """A one-line summary (the frames are ``.results``, ``.events``, …), as the other
        result objects print (the dataclass's own repr printed every frame: 71 lines).

        >>> import swissframe as sf
        >>> sf.read("data/events/store-championship.csv")
        Source: 1 event (table 1), 34 result rows, 0 notes, 0 unreadable files — ...
        """
        from swissframe._display import summary_text

        return summary_text("Source", self._facts(),
                            ["results", "events", "names", "notes", "published"])

    def _repr_html_(self) -> str:
        from swissframe._display import summary_html

        return summary_html("Source", self._facts(), {
            "events": self.events, "results": self.results, "notes": self.notes})

    @property
    def event_count(self) -> int:
        """How many events the read found, rows or none: an event with no round played is
        one, as ``standings`` lists it (bad data 142); what every count of the events read
        says (``validate``'s report, this object's summary).

        >>> import swissframe as sf
        >>> sf.read("data/events/store-championship.csv").event_count
        1
        """
        return int(self.events["event_id"].n_unique()) if self.events.height else 0

    @property
    def event_names(self) -> dict[str, str]:
        """Each event's name, the one rule of every surface (:func:`event_names`): the
        name the file gives it, else its id (a file's stem).

        >>> import swissframe as sf
        >>> sf.read("data/events/store-championship.csv").event_names
        {'store-championship': 'store-championship'}
        """
        return event_names(self.bundles.values(), self.events["event_id"].to_list())

    def player_id(self, player: str, event_id: str | None = None) -> str:
        """``player`` as a player id: an id is kept; a name the files hold becomes its id
        (in any case); an id or a name in another Unicode form than the file's (NFC, NFD)
        becomes the file's id.

        Raises :class:`~swissframe.errors.DataError` when a name belongs to several ids.
        """
        rows = self.results if event_id is None else self.results.filter(
            pl.col("event_id") == event_id)
        if rows.filter(pl.col("player_id") == player).height:
            return player
        # the same text in another Unicode form: 'Zoë' typed as one letter, the file's
        # 'Zoe' + U+0308 (a macOS export), was "not in the event" with no hint (bad data 159)
        canon = unicodedata.normalize("NFC", player)
        same = sorted(set(rows.filter(pl.col("player_id").cast(pl.String).str.normalize("NFC")
                                      == canon)["player_id"].cast(pl.String).to_list()))
        if len(same) > 1:
            msg = (f"{quoted(player)} is the id of {len(same)} players whose ids differ only in "
                   f"Unicode form ({', '.join(f'{quoted(i)}: {escaped(i)}' for i in same[:4])})."
                   " Hint: one person under two spellings? swissframe validate FILE lists them "
                   "(suspicious_id); fix the id in the source.")
            raise DataError(msg)
        if same:
            return str(same[0])
        if not self.names.height:
            return player
        names = self.names if event_id is None else self.names.filter(
            pl.col("event_id") == event_id)
        hit = names.filter(pl.col("name").str.normalize("NFC").str.to_lowercase()
                           == canon.strip().lower())
        ids = sorted(set(hit["player_id"].to_list()))
        if len(ids) > 1:
            msg = (f"{quoted(player)} is the name of several players ({', '.join(ids)}). Hint: "
                   "pass the player id, or the event with --event.")
            raise DataError(msg)
        return str(ids[0]) if ids else player

    def label(self, table: pl.DataFrame) -> pl.DataFrame:
        """A standings table with the players' ``name`` (where the files hold names) and
        ``division`` beside ``player_id``; a combined TOM pod (paired together, ranked per
        age division) is re-ranked within each division: a player's division rank is one
        plus the number of players of that division ranked strictly above them.

        Examples
        --------
        >>> import swissframe as sf
        >>> src = sf.read("tests/fixtures/tom/combined.tdf")
        >>> t = src.label(sf.standings(src.results, keys=src.keys))
        >>> t.columns[:4]
        ['event_id', 'division', 'player_id', 'name']
        >>> t.group_by("division").agg(pl.col("rank").min()).sort("division").rows()
        [('juniors', 1), ('masters', 1), ('seniors', 1)]
        """
        out = table
        keys = ["event_id"]
        if "division" not in out.columns and self.divisions.height:
            out = out.join(self.divisions, on=["event_id", "player_id"], how="left")
        if "division" in out.columns:
            keys.append("division")
            out = out.with_columns(pl.col("division").replace("", None))
            if self.divisions.height:
                own = self.divisions.select("event_id", "player_id",
                                            pl.col("division").alias("_own"))
                out = out.join(own, on=["event_id", "player_id"], how="left")
                moved = pl.col("_own").is_not_null() & (pl.col("_own") != pl.col("division"))
                rerank = "rank" in out.columns and bool(out.select(moved.any()).item())
                out = out.with_columns(pl.coalesce("_own", "division").alias("division"))
                if rerank:
                    # (a disqualified player, with no rank, stays after the ranked)
                    out = out.with_columns(rank_within(keys)).sort(
                        [*keys, "rank"], nulls_last=True, maintain_order=True)
                out = out.drop("_own")
        named = self.names.filter(pl.col("name").is_not_null())
        if named.height:
            out = out.join(named.unique(["event_id", "player_id"]), on=["event_id", "player_id"],
                           how="left")
            keys += ["player_id", "name"]
        else:
            keys.append("player_id")
        return out.select(*keys, pl.exclude(keys))

    def named(self, table: pl.DataFrame, *columns: str) -> pl.DataFrame:
        """``table`` with the player ids in ``columns`` (one id, or a list of ids, per
        cell; per ``event_id``) shown as the players' names where the files hold names
        (TOM, TRF: an id is a number the user never typed), as :meth:`label` shows them;
        a name two players of an event share keeps its id beside it: ``Ann (12)``.

        Examples
        --------
        >>> import swissframe as sf
        >>> src = sf.read("tests/fixtures/tom/three_divisions.tdf")
        >>> t = pl.DataFrame({"event_id": ["three_divisions:juniors"] * 2,
        ...                   "leaving": [["101", "999"], []], "place_n": ["102", None]})
        >>> src.named(t, "leaving", "place_n").drop("event_id").rows()
        [(['Ada Junior', '999'], 'Ben Junior'), ([], None)]
        """
        names = self.names.filter(pl.col("name").is_not_null()).unique(
            ["event_id", "player_id"])
        if not names.height:
            return table
        names = names.select("event_id", "player_id",
                             told_apart("name", "player_id", "event_id").alias("_shown"))
        out = table.with_row_index("_row")
        for c in columns:
            listed = isinstance(out.schema[c], pl.List)
            cells = out.select("_row", "event_id", c)
            if listed:
                cells = cells.explode(c)
            cells = cells.join(names, left_on=["event_id", c],
                               right_on=["event_id", "player_id"], how="left")
            shown = pl.coalesce("_shown", c).alias(c)
            cells = (cells.group_by("_row").agg(shown.drop_nulls()) if listed
                     else cells.select("_row", shown))
            out = out.drop(c).join(cells, on="_row", how="left")
            if listed:
                out = out.with_columns(pl.col(c).fill_null([]))
        return out.sort("_row").select(table.columns)


#: Import notes of what a format normally does (melee.gg lists a draw once per player:
#: :data:`~swissframe.io.decklist.DRAWS_LISTED_AGAIN`): listed in :attr:`Source.notes` and
#: by ``swissframe validate``, but not warned of by :func:`read` (a warning on every event
#: with a draw said nothing about the file).
ROUTINE_NOTES: Final = frozenset({"draw_listed_again", "no_match"})

#: Import notes that a check of ``validate`` makes itself, by the same rule (the decklist
#: reader's ``impossible_score``, :func:`swissframe.schema.impossible_score`): warned of by
#: :func:`read`, but not listed again among ``validate``'s read problems (each match once).
CHECKED_NOTES: Final = frozenset({"impossible_score"})

_NOTE_SCHEMA: Final[dict[str, pl.DataType]] = {
    "file": pl.String(), "event_id": pl.String(), "round": pl.Int64(),
    "player_id": pl.String(), "opponent_id": pl.String(), "kind": pl.String(),
    "detail": pl.String(), "severity": pl.String(), "value": pl.String()}
_EVENT_SCHEMA: Final[dict[str, pl.DataType]] = {
    "event_id": pl.String(), "source_file": pl.String(), "source_kind": pl.String(),
    "platform": pl.String(), "start_date": pl.Date(), "decimals": pl.Int64()}
_NAME_SCHEMA: Final[dict[str, pl.DataType]] = {
    "event_id": pl.String(), "player_id": pl.String(), "name": pl.String()}
_DIVISION_SCHEMA: Final[dict[str, pl.DataType]] = {
    "event_id": pl.String(), "player_id": pl.String(), "division": pl.String()}


def _fit(df: pl.DataFrame, schema: dict[str, pl.DataType]) -> pl.DataFrame:
    cols = [pl.col(c).cast(t) if c in df.columns else pl.lit(None, dtype=t).alias(c)
            for c, t in schema.items()]
    return df.select(cols)


@dataclass
class _Part:
    kind: str
    results: pl.DataFrame
    events: pl.DataFrame
    names: pl.DataFrame | None = None
    divisions: pl.DataFrame | None = None
    published: pl.DataFrame | None = None
    notes: list[pl.DataFrame] = field(default_factory=list)
    bundle: object = None


# --------------------------------------------------------------------------- per format


_ID_OVERRIDES: Final = {"event_id": pl.String, "player_id": pl.String,
                        "opponent_id": pl.String, "player_a": pl.String, "player_b": pl.String}
#: Whole-number columns of both table forms (a CSV file's cells of these are read as text,
#: then by ``schema.whole_numbers``).
WHOLE_COLUMNS: Final = ("round", "games_won", "games_lost", "games_drawn", "games_a",
                        "games_b")


def make_folder(folder: Path) -> None:
    """``folder`` and its parents made (as ``mkdir -p``); an ``OSError`` naming the file in
    the way when one of them is a file (``mkdir`` said "File exists" or "Not a
    directory", naming no file the user could see), or a link naming no folder (a link to
    a folder gone, or a loop: "File exists", where nothing is: bad data 223). The one
    making of an output's folder (every atomic write, ``recompute``'s output, a season's
    pages)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        blocking = next((p for p in (folder, *folder.parents)
                         if os.path.lexists(p) and not p.is_dir()), None)
        if blocking is None:
            raise
        if blocking.is_symlink():  # (a link naming nothing: "File exists", of nothing there)
            said = (f"{shown(blocking)!r} is a link to {os.readlink(blocking)!r}, which names "
                    "no folder")
            raise FileNotFoundError(errno.ENOENT, said, shown(folder)) from None
        raise NotADirectoryError(errno.ENOTDIR, f"{shown(blocking)!r} is a file, not a folder",
                                 shown(folder)) from None


def _made_beside(target: Path, make: Callable[[Path], object]) -> Path:
    """A new hidden, unique name beside ``target`` (``.NAME.<random>.part``) made by
    ``make`` (a file or a folder, created only if the name is free), named before it is
    made: a failure or an interrupt as it is made leaves nothing (``tempfile``'s makers
    name it once made, and an interrupt before they returned left it: bad data 144)."""
    make_folder(target.parent)
    stem = _scratch_stem(target)
    for _ in range(100):
        tmp = target.parent / f".{stem}.{secrets.token_hex(4)}.part"
        try:
            make(tmp)
        except FileExistsError:
            continue
        except OSError as exc:
            settled(functools.partial(_remove_new, tmp))
            raise _naming(exc, tmp, target) from None
        except BaseException:  # (an interrupt as it was made: ours, if it is there)
            settled(functools.partial(_remove_new, tmp))
            raise
        return tmp
    raise FileExistsError(errno.EEXIST, "no free temporary name", shown(target))


#: Bytes a scratch name adds to its output's: ``.`` before, ``.<8 hex>.part`` after.
_SCRATCH_BYTES: Final = 15


def _scratch_stem(target: Path) -> str:
    """The part of ``target``'s name its scratch's name holds: the whole name, or its first
    characters when the whole would make the scratch's name longer than its folder takes
    (``NAME_MAX``, 255 bytes on most file systems). An output named by 241 to 255 bytes —
    a name the folder takes — was refused as "File name too long", of the name 15 bytes
    longer it was written through (bad data 220).

    >>> len(_scratch_stem(Path("/tmp") / ("é" * 127 + ".csv")).encode())  # (120 of them)
    240
    """
    try:
        most = os.pathconf(target.parent, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):  # (not there yet, or no pathconf)
        most = 255
    room = most - _SCRATCH_BYTES
    name = target.name
    # (cut on a character: a name's bytes are UTF-8, or surrogate escapes of other bytes)
    while len(os.fsencode(name)) > room:
        name = name[:-1]
    return name


def _naming(exc: OSError, tmp: Path, target: Path) -> OSError:
    """``exc`` naming ``target`` where it named the temporary ``tmp`` written for it, or
    no file: the same kind of error, about the output the user named (a chart saved to
    ``/proc/x.png`` was "/proc/.x.png.a1dee9e4.part: No such file or directory": bad data
    179; a full disk as the file was written named no file: bad data 215).

    >>> _naming(FileNotFoundError(2, "No such file", "/d/.x.1.part"), Path("/d/.x.1.part"),
    ...         Path("/d/x")).filename
    '/d/x'
    >>> _naming(OSError(28, "No space left on device"), Path("/d/.x.1.part"),
    ...         Path("/d/x")).filename
    '/d/x'
    """
    names = (exc.filename, exc.filename2)
    if exc.errno is None or (os.fspath(tmp) not in names and names != (None, None)):
        return exc
    return type(exc)(exc.errno, exc.strerror, shown(target))


def _full_disk(tmp: Path) -> OSError | None:
    """An ``ENOSPC`` error when the file system ``tmp`` is written on has no free block
    left: a writer whose own error quotes none (Polars' Parquet writer on a full disk:
    ``Invalid thrift: transport error``) failed for that (bad data 215)."""
    try:
        free = os.statvfs(tmp.parent).f_bavail
    except (OSError, AttributeError):  # (no statvfs: Windows)
        return None
    return None if free else OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


#: How Rust's I/O errors end (Polars' Parquet and IPC writers): "… (os error 28)".
_RUST_OS_ERROR: Final = re.compile(r"\(os error (\d+)\)")


def _os_error_in(exc: BaseException) -> OSError | None:
    """The operating system's error behind ``exc``, an error raised while an output was
    written: ``exc`` itself, an ``OSError`` it was raised from or during (xlsxwriter's
    ``FileCreateError`` of a full disk), or the one its text quotes (Polars' Parquet
    writer: ``ComputeError: … No space left on device (os error 28)``, which the CLI
    said as an internal bug); None for another error, and for swissframe's own (which say
    what they mean, whatever they were raised during: bad data 215).

    >>> _os_error_in(RuntimeError("parquet: underlying IO error: No space (os error 28)")).errno
    28
    >>> _os_error_in(ValueError("bad")) is None
    True
    """
    if isinstance(exc, SwissframeError):
        return None
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, OSError) and cause.errno is not None:
            return cause
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    found = _RUST_OS_ERROR.search(str(exc))
    if found is None:
        return None
    code = int(found.group(1))
    return OSError(code, os.strerror(code))


def _remove_new(tmp: Path) -> None:
    """Remove ``tmp``, just made (an empty folder or a file), if it is there: a name never
    made is not removed, whose removal on a read-only file system is ``EROFS``, not "no
    such file", and that error of the cleanup replaced the error of the write, naming the
    temporary file (``ro/.c.png.6b9d6e28.part: Read-only file system``: bad data 216)."""
    if not os.path.lexists(tmp):
        return
    with contextlib.suppress(FileNotFoundError):
        if tmp.is_dir():
            tmp.rmdir()
        else:
            tmp.unlink()


def _new_file(tmp: Path) -> None:
    # (the permissions a new file gets: 0666 less the umask, as every writer's own open)
    os.close(os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))


def temp_beside(target: Path) -> Path:
    """A new, empty file beside ``target`` (hidden, unique, with the permissions a new file
    gets), to write ``target`` through and rename; OSError when its folder cannot take it,
    before anything is written. Nothing is left when making it fails or is interrupted."""
    return _made_beside(target, _new_file)


def output_target(path: PathLike) -> tuple[Path, bool]:
    """Where writing ``path`` goes, and whether it is written in place.

    A symbolic link is written through (the file it names is replaced, the link kept, as a
    shell's ``>`` does; renaming over the link replaced it with a file). An existing
    device, FIFO or socket (``/dev/null``, ``/dev/stdout``, a named pipe) is written in
    place: it is not a file a rename may replace — renaming over it replaced
    ``/dev/null`` itself with a regular file when run as root — and a stream has no
    partial file to leave. Everything else is written through a temporary file and
    renamed (``in_place`` False).

    >>> output_target("/dev/null")
    (PosixPath('/dev/null'), True)
    """
    target = Path(path)
    with contextlib.suppress(OSError):  # (not there yet, or not reachable: the write says)
        if not stat.S_ISREG(mode := target.stat().st_mode) and not stat.S_ISDIR(mode):
            return target, True  # (by its own name: /dev/stdout's link names no path)
    if target.is_symlink():
        target = Path(os.path.realpath(target))
    return target, False


def write_atomic(path: PathLike, write: Callable[[Path], object], *,
                 temp: Path | None = None) -> Path:
    """``write`` a file at a temporary name beside ``path``, then rename it to ``path``: a
    failed write (a full disk, an error while rendering) leaves no partial file, and an
    existing ``path`` untouched. ``write`` gets the temporary path (:func:`temp_beside`;
    ``temp`` for a caller whose readers know its own temporary names). A symbolic link is
    written through, a device or FIFO in place (:func:`output_target`). Returns ``path``."""
    target, in_place = output_target(path)
    if in_place:
        with said_of(target):
            write(target)
        return Path(path)
    if temp is None:
        tmp = temp_beside(target)
    else:
        make_folder(target.parent)
        tmp = temp
    with replacing(tmp, target):
        write(tmp)
    return Path(path)


@contextlib.contextmanager
def replacing(tmp: Path, target: Path) -> Iterator[None]:
    """Rename ``tmp`` to ``target`` when the block succeeds; remove ``tmp`` either way (the
    rename-or-remove of every atomic write: :func:`write_atomic`, the CLI's ``-o``)."""
    try:
        with said_of(target, tmp):
            yield
            _keep_mode(tmp, target)
            os.replace(tmp, target)
    finally:
        settled(functools.partial(_remove_new, tmp))


def _keep_mode(tmp: Path, target: Path) -> None:
    """Give ``tmp`` the permissions of the file ``target`` it replaces, if there is one: the
    new file had a new file's (0644 under the usual umask), so an output the user had made
    private (``chmod 600 standings.csv``) became readable by every user of the machine, or
    one made read-only writable (bad data 219; a folder's twin, ``temp_folder_beside``,
    kept them already)."""
    try:
        st = os.stat(target)
    except FileNotFoundError:
        return
    if stat.S_ISREG(st.st_mode):
        os.chmod(tmp, stat.S_IMODE(st.st_mode))


@contextlib.contextmanager
def said_of(target: Path, tmp: Path | None = None) -> Iterator[None]:
    """An error of writing ``target`` (through ``tmp``) said as the operating system's error
    naming ``target``: one naming the temporary file, or no file (a full disk as the file
    was written), or wrapped by the library that wrote it (Polars' Parquet writer,
    xlsxwriter), which the CLI said as an internal bug or a traceback (bad data 179, 215).
    Every output's write goes through it: :func:`replacing`, and an output written in
    place (a device, a FIFO: :func:`output_target`)."""
    try:
        yield
    except Exception as exc:
        found = _os_error_in(exc)
        if found is None and tmp is not None and not isinstance(exc, SwissframeError):
            found = _full_disk(tmp)  # (not a device's: /dev reports no free block)
        if found is None:
            raise
        raise _naming(found, tmp or target, target) from None


def write_folder_atomic(path: PathLike, write: Callable[[Path], object], *,
                        owned: Callable[[Path], bool]) -> Path:
    """``write`` a folder of files at a temporary name beside ``path``, then swap it in
    for ``path``: the folder's twin of :func:`write_atomic` (a season report's pages). A
    failed or interrupted write leaves an existing ``path`` as it was (it was written page
    by page over the old pages, which left old and new pages mixed: class 136); the old
    folder is removed only once the new one is in its place. ``write`` gets the temporary
    folder, empty. ``owned`` says which paths (relative to the folder) such an output
    writes: a folder holding anything else (a user's files) is refused before anything is
    written, as the swap would delete it. A symbolic link is written through. Returns
    ``path``."""
    target = Path(os.path.realpath(path))  # (".", a link: the folder they name)
    if target.exists() and not target.is_dir():
        msg = (f"{shown(Path(path))!r} is a file, not a folder. Hint: give a folder name (no "
               "suffix), or a .html file for the season page alone.")
        raise DataError(msg)
    foreign = (sorted(str(f.relative_to(target)) for f in target.rglob("*")
                      if not owned(f.relative_to(target))) if target.is_dir() else [])
    if foreign:
        listed = ", ".join(repr(f) for f in foreign[:3]) + (", …" if len(foreign) > 3 else "")
        them = "it" if len(foreign) == 1 else "them"
        msg = (f"{shown(Path(path))!r} holds {count(len(foreign), 'file')} this output does not "
               f"write ({listed}): replacing the folder would delete {them}, and writing into "
               f"it would mix old and new files. Hint: choose a new or empty folder, or "
               f"move {'that file' if len(foreign) == 1 else 'those files'} out.")
        raise DataError(msg)
    tmp = temp_folder_beside(target)
    with replacing_folder(tmp, target):
        write(tmp)
    return Path(path)


def temp_folder_beside(target: Path) -> Path:
    """A new, empty folder beside ``target`` (hidden, unique, with ``target``'s permissions
    or a new folder's), to write ``target`` into and swap in: :func:`temp_beside`'s twin.
    Nothing is left when making it fails or is interrupted."""
    mode = stat.S_IMODE(target.stat().st_mode) if target.is_dir() else None

    def make(tmp: Path) -> None:
        os.mkdir(tmp)  # (0777 less the umask: a new folder's)
        if mode is not None:
            tmp.chmod(mode)

    return _made_beside(target, make)


@contextlib.contextmanager
def replacing_folder(tmp: Path, target: Path) -> Iterator[None]:
    """Swap the folder ``tmp`` in for ``target`` when the block succeeds; remove ``tmp``
    either way: the folder's :func:`replacing` (:func:`write_folder_atomic`). However the
    block or the swap ends — an error, Ctrl-C (``KeyboardInterrupt``) at any step — the
    cleanup reads what is on disk: an old folder moved aside is put back unless the new
    one is in its place, and then removed; nothing hidden is left beside ``target`` (an
    interrupt between the two renames left the old folder hidden and none in its place,
    and one as the scratch was made or removed left ``.NAME.*.part``: bad data 144)."""
    import shutil

    old = tmp.with_suffix(".old")  # (the scratch's unique name: no other writer's)

    def clean() -> None:
        if old.exists():
            if tmp.exists():  # (the swap did not happen: the old folder back in place)
                os.replace(old, target)
            else:
                shutil.rmtree(old)
        if tmp.exists():
            shutil.rmtree(tmp)

    try:
        yield
        if target.is_dir():
            os.replace(target, old)
        os.replace(tmp, target)
    finally:
        settled(clean)


#: How many interrupts in a row a cleanup outlasts (:func:`settled`).
_CLEANUP_TRIES: Final = 8


def settled(clean: Callable[[], None]) -> None:
    """``clean()`` (the cleanup of an atomic write: a temporary file or folder removed, an
    old folder put back) run to its end, a Ctrl-C while it runs deferred: the cleanup runs
    again (it reads what is on disk, so a second run finishes the first) and the
    ``KeyboardInterrupt`` is raised once it is done — an interrupt arriving as the write
    was being cleaned up left the scratch beside the output (bad data 144)."""
    interrupted: KeyboardInterrupt | None = None
    for _ in range(_CLEANUP_TRIES):
        try:
            clean()
        except KeyboardInterrupt as exc:
            interrupted = exc
            continue
        break
    if interrupted is not None:
        raise interrupted


def write_text_atomic(path: PathLike, text: str) -> Path:
    """``text`` (UTF-8) written to ``path`` through :func:`write_atomic`: the pages, specs
    and JSON a command saves. Returns ``path``."""
    return write_atomic(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def names_a_folder(path: PathLike) -> bool:
    """Whether an output ``path`` names a folder: one that exists, or text ending in a
    separator (``out/``: a folder to be made), where a page is written as ``index.html``.

    >>> names_a_folder("pages/"), names_a_folder("page.html"), names_a_folder(".")
    (True, False, True)
    """
    text = os.fspath(path)
    return text.endswith(("/", os.sep)) or Path(text).is_dir()


#: Digits of the largest number a file's field may hold: every value of 18 digits is an
#: Int64, and no tournament's round, rating or count comes near it.
MAX_DIGITS: Final = 18


#: Bytes read to find a CSV file's header line (:func:`csv_separator`).
_HEADER_BYTES: Final = 65_536
#: Separators a CSV file's header may use besides the comma: spreadsheets set to a
#: locale whose decimal mark is a comma save "CSV" with semicolons, some tools with tabs.
_OTHER_SEPARATORS: Final = (";", "\t", "|")


#: Excel's separator line (``sep=;``, quoted or not) before a CSV file's header: it was
#: read as a header of one or two columns, every row then "of other than the header's 2
#: fields".
_EXCEL_SEP: Final = re.compile(rb'(?:\xef\xbb\xbf)?("?sep=.?"?)[ \t]*\r?\n', re.IGNORECASE)

def csv_separator(head: bytes) -> str:
    r"""The separator of a CSV file from its first bytes: a comma when its header line
    (outside quotes) has one, else the most frequent of :data:`_OTHER_SEPARATORS` there,
    else a comma (a one-column file).

    Examples
    --------
    >>> csv_separator(b"event_id;round;player_id\r\nA;1;x")
    ';'
    >>> csv_separator(b'"a;b",c\n')
    ','
    """
    line = head.split(b"\n", 1)[0].decode("utf-8", errors="replace")
    outside = "".join(part for i, part in enumerate(line.split('"')) if i % 2 == 0)
    if "," in outside:
        return ","
    counts = {sep: outside.count(sep) for sep in _OTHER_SEPARATORS}
    best = max(_OTHER_SEPARATORS, key=lambda sep: counts[sep])
    return best if counts[best] else ","


#: Byte-order marks that declare a text file's encoding (UTF-32 first: its little-endian
#: mark begins with UTF-16's). Excel's "Unicode Text" is UTF-16 with a mark.
_BOMS: Final = ((b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"),
                (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))


def _bom_encoding(head: bytes) -> str | None:
    """The encoding a text file's byte-order mark declares, None without one (UTF-8's
    mark is read by the CSV reader itself)."""
    return next((enc for bom, enc in _BOMS if head.startswith(bom)), None)


def bom_decoded(data: bytes, source: str) -> str | None:
    """``data`` decoded by the UTF-16 or UTF-32 byte-order mark it starts with; None without
    one. Every reader of text (TRF, decklist JSON; TOM's XML parser reads the mark itself,
    tables :func:`read_table_file`) decodes such a file by its mark: Windows tools save
    "Unicode" text as UTF-16, which was read as Latin-1 (a TRF then had no player line)
    or refused as JSON. Bytes the mark's encoding cannot hold are an
    :class:`~swissframe.errors.ImportFormatError` naming ``source``."""
    encoding = _bom_encoding(data)
    if encoding is None:
        return None
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        msg = (f"{source}: the file starts with a {encoding.upper()} byte-order mark but "
               f"byte {exc.start} ({data[exc.start:exc.start + 4].hex(' ')}) is not "
               f"{encoding.upper()}. Hint: the file is truncated or damaged; save it again "
               "(as UTF-8).")
        raise ImportFormatError(msg) from None


def read_text(path: PathLike, *, limit: int | None = None) -> str:
    """The text of a file that is no results file (``verify-ref``'s TieBreakServer tables
    and ``SOURCES.md``), read as the readers read theirs: a regular file of at most
    ``limit`` bytes (:func:`read_bytes`: a link to ``/dev/zero`` or a FIFO had the command
    read until memory ran out, or wait forever), decoded by its UTF-16/32 byte-order mark
    (:func:`bom_decoded`), else as UTF-8 with or without its mark (a mark was read as part
    of the first line: "no 'StartNo' header line"), a byte that is not UTF-8 named by its
    line (:func:`_decoded`). :class:`~swissframe.errors.ImportFormatError` naming the file.
    """
    p = Path(path)
    data = read_bytes(p, limit=limit)
    text = bom_decoded(data, shown(p))
    return (_decoded(p, data, "utf-8") if text is None else text).removeprefix("\ufeff")


def _decoded(path: Path, data: bytes, encoding: str) -> str:
    """``data`` decoded, or an error naming the file, the line and the bytes that are
    not in ``encoding`` (a file saved in a legacy code page is not guessed at: the same
    bytes mean other letters in each)."""
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        bad = data[exc.start:exc.start + 4].hex(" ")
        what = ("UTF-8" if encoding == "utf-8"
                else f"{encoding.upper()} (as its byte-order mark declares)")
        msg = (f"cannot read {shown(path)}: line {line} is not {what} (bytes {bad} at byte "
               f"{exc.start}). Hint: save the file as UTF-8 (in Excel: 'CSV UTF-8'); a "
               "file from a legacy code page is not guessed at.")
        raise ImportFormatError(msg) from None


def _without_blank_lines(path: Path, df: pl.DataFrame, sep: str, limit: int | None
                         ) -> pl.DataFrame:
    """``df`` without the rows Polars makes of blank lines (every cell null, or blanks: a
    line of spaces or tabs, an editor's trailing whitespace, which the shape check
    :func:`_uneven_lines` already took for a blank line, was a row whose first cell held
    the blanks — "'   ' is not a whole number", "null in round, player_id, …"): by CSV
    convention a blank line is no record (Python's ``csv.DictReader``, pandas and R skip
    them), and an editor or a spreadsheet easily leaves one at the end. A line of only
    separators (a spreadsheet's used but empty row) is a record with no value: refused,
    naming its lines (it was reported as a row of nulls with no line)."""
    empty = df.select(pl.all_horizontal(
        pl.col(c).is_null() | (pl.col(c).str.strip_chars() == "") if t == pl.String
        else pl.col(c).is_null() for c, t in df.schema.items())).to_series() \
        if df.width else None
    if empty is None or not empty.any():
        return df
    data = read_bytes(path, limit=limit)
    encoding = _bom_encoding(data) or "utf-8-sig"
    lines = data.decode(encoding, errors="replace").splitlines()
    # (a row of nulls is a blank line unless a line holds only separators: no line
    # count is compared, since a quoted cell may itself hold a blank line)
    hollow = [i + 1 for i, line in enumerate(lines)
              if line.strip() and not line.strip(f"{sep} \"\t")]
    if not hollow:
        return df.filter(~empty)
    shown_lines = ", ".join(map(str, hollow[:5])) + (" …" if len(hollow) > 5 else "")
    msg = (f"{shown(path)}: line(s) {shown_lines} hold no value, only separators. "
           "Hint: delete those rows (a spreadsheet's used but empty rows); blank lines "
           "are skipped.")
    raise SchemaError(msg)


#: A line that ends in a carriage return alone (not CRLF).
_LONE_CR: Final = re.compile(rb"\r(?!\n)")


def _line_feeds(data: bytes) -> bytes:
    r"""``data`` with every line that ends in a carriage return alone (a classic Mac file,
    or such a line in a mixed file) ended by a line feed, outside quoted cells only (a CR
    inside quotes is the cell's own text). Polars ends lines at LF and CRLF only: a
    CR-only file was one header line holding every cell ("column(s) ['0', '0\r1', …]
    appear more than once"). TRF lines end the same three ways (``io.trf``).

    >>> _line_feeds(b'a,b\r1,"x\ry"\r2,3\r\n')
    b'a,b\n1,"x\ry"\n2,3\r\n'
    """
    parts = data.split(b'"')
    parts[::2] = [_LONE_CR.sub(b"\n", x) for x in parts[::2]]
    return b'"'.join(parts)


#: Rows (or lines) a message about a CSV file's shape names at most.
_SHOWN_LINES: Final = 5


def _uneven_lines(data: bytes, sep: str) -> bool:
    r"""Whether a line of ``data`` holds another number of separators than the header: a
    quick screen before :func:`_csv_shape` (Python's CSV reader, ≈ 0.5 s a million rows),
    for a file whose last column has empty cells — a legitimate file (an opponent column
    last, empty for a bye) must not pay for the reader. Quotes are not read here: a line
    holding a quote counts as uneven, and the reader decides. Blank lines are no rows.

    >>> _uneven_lines(b"a,b,c\n1,2,\n3,4,5\n", ","), _uneven_lines(b"a,b,c\n1,2\n", ",")
    (False, True)
    >>> _uneven_lines(b'a,b\n"x,y",1\n', ",")
    True
    """
    if b"\x1f" in data:  # (the unit separator splits the lines below: none may hold it)
        return True
    try:  # the lines, one cell each (Polars: 4x faster than bytes.splitlines + a Series)
        lines = pl.read_csv(io.BytesIO(data), has_header=False, separator="\x1f",
                            quote_char=None, new_columns=["l"], infer_schema=False)
    except (pl.exceptions.PolarsError, UnicodeDecodeError):
        return True  # (not text Polars reads: the reader names it)
    if lines.height == 0:
        return True
    counts = lines.select(
        pl.col("l").str.count_matches(sep, literal=True).alias("n"),
        pl.col("l").str.contains('"', literal=True).alias("q"),
        pl.col("l").str.strip_chars().fill_null("").eq("").alias("blank"))
    head = counts.row(0)[0]
    return bool(counts.select(((pl.col("n") != head) & ~pl.col("blank")) | pl.col("q"))
                .to_series().any())


def _csv_shape(data: bytes, sep: str, *, strict: bool) -> str:
    """What breaks a CSV text into rows of other widths than its header, naming lines:
    a quote that is never closed (the rest of the file would be one cell), rows with more
    or fewer fields than the header (Polars named no line, and filled a short row with
    nulls without a word); with ``strict``, also a quote closed inside a cell. "" when
    every row is as wide as the header. Blank lines are no rows."""
    text = data.decode("utf-8-sig", errors="replace")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep, strict=strict)
    width: int | None = None
    odd: list[str] = []
    start = 1
    limit = csv.field_size_limit()
    csv.field_size_limit(max(limit, len(text) + 1))  # (one cell may hold the whole file)
    try:
        for row in reader:
            if width is None:
                width = len(row)
            elif (row and (len(row) > 1 or row[0].strip()) and len(row) != width
                  and len(odd) < _SHOWN_LINES):
                end = reader.line_num
                where = f"line {start}" if end == start else f"lines {start}-{end}"
                odd.append(f"{where}: {len(row)} field{'s' * (len(row) != 1)}")
            start = reader.line_num + 1
    except csv.Error as exc:
        if "end of data" in str(exc):
            last = text.count("\n") + (not text.endswith("\n"))
            return (f'a quote (") opened on line {start} is never closed: lines {start}-'
                    f"{last} would be one cell")
        return f"line {reader.line_num}: {exc} (a quote inside a cell is written twice: \"\")"
    finally:
        csv.field_size_limit(limit)
    if not odd:
        return ""
    return (f"rows with other than the header's {width} fields: {'; '.join(odd)}"
            + (" …" if len(odd) == _SHOWN_LINES else ""))


def _shape_error(path: Path, shape: str, sep: str) -> ImportFormatError:
    shown_sep = {"\t": "a tab", ",": "a comma", ";": "a semicolon", "|": "a bar"}.get(sep, sep)
    hint = ("close the quote where the value ends, or remove it" if shape.startswith("a quote")
            else "give each row one value per header column")
    msg = (f"cannot read {shown(path)}: {shape}. Hint: {hint}; a value holding the separator "
           f'({shown_sep}) or a line break goes in quotes ("…"), and a quote inside it is '
           'written twice ("").')
    return ImportFormatError(msg)


#: The Rust wording around a panic's own message (``JoinError::Panic(Id(7), "…", ...)``).
_PANIC_PREFIX: Final = re.compile(
    r'^called `Result::unwrap\(\)` on an `Err` value: JoinError::Panic\(Id\(\d+\), "'
    r'(?:internal error: entered unreachable code: )?|", \.\.\.\)$')


def _polars_text(exc: BaseException) -> str:
    """A Polars error as a short clause: its first line, without Polars' advice on its
    own arguments (which a file's user cannot follow)."""
    first = next((x.strip() for x in str(exc).splitlines() if x.strip()), type(exc).__name__)
    first = re.split(r"\s*(?:You might want to try|Consider setting)", first)[0]
    return first if len(first) <= 160 else first[:157] + "…"


def check_parquet_pages(source: str | Path | io.BytesIO, name: str) -> None:
    """Refuse a Parquet file whose page headers do not read (an
    :class:`~swissframe.errors.ImportFormatError` naming ``name``), before Polars reads it.

    One byte changed in a page header (its value count read as negative) made Polars'
    reader ask for 2**61 bytes: the failed allocation aborted the process (SIGABRT), which
    no Python code catches — a notebook's kernel died without a word. pyarrow's page scan
    (``ParquetFile.scan_contents``: pages read, no table built; 52 ms on the 3.7M-row
    benchmark file, against Polars' 70–160 ms read) reports it as an ``OSError``. A type
    pyarrow does not read (Polars' Int128) is left to Polars' reader. Imports pyarrow
    (≈ 0.15 s, once) only when a Parquet file is read."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        pq.ParquetFile(source).scan_contents()
    except pa.ArrowNotImplementedError:
        return
    except (OSError, pa.ArrowException) as exc:
        raise _damaged(name, "Parquet", _polars_text(exc)) from None
    finally:
        if isinstance(source, io.BytesIO):
            source.seek(0)


def _damaged(name: str, kind: str, said: str) -> ImportFormatError:
    """The error of a file whose reading found it damaged (pyarrow's page scan, Polars'
    decoder), quoting what the reader said."""
    msg = (f"cannot read {name} as {kind}: the file is damaged ({said}). Hint: re-export "
           "the file, or copy it again.")
    return ImportFormatError(msg)


def read_table_file(path: Path, *, limit: int | None = None, event_id: str | None = None,
                    name_event: bool = True, whole: Sequence[str] = ()) -> pl.DataFrame:
    """One CSV/TSV/Parquet file as it is (``event_id`` filled with ``event_id``, by default
    the file name, when absent and ``name_event``: a results file names its event, a
    pairings file does not), errors naming the file; the contract is checked by the
    caller.

    A CSV file's whole-number columns (:data:`WHOLE_COLUMNS` and ``whole``: a custom
    match form's) and flag columns are read as the contract reads such a cell
    (``schema.whole_numbers``, ``schema.flag_values``; :func:`typed_columns`) — a
    whole-number column Polars types as Int64 as it is (its integers are the cells
    ``whole_numbers`` reads, to the same values), any other from its text — so
    that ``"2e0"`` or ``"４"`` is the same bad cell for every command (Polars' own
    inference read ``2e0`` as 2 and stopped at ``４`` with an error on its arguments); a
    column holding a cell that is not readable is left as text for the caller to name.
    Lines may end in LF, CRLF or CR alone; a row of another width than the header, or a
    quote never closed, is an :class:`~swissframe.errors.ImportFormatError` naming its
    lines."""
    from swissframe.schema import FLAG_COLUMNS, fits_int64, holds_non_ids, misnamed_optional

    size = _regular(path, max_bytes(limit))
    head = read_bytes(path, limit=limit, head=_HEADER_BYTES) if size else b""
    # Polars opens only UTF-8 paths: a file whose name is not is read as bytes
    where: Path | io.BytesIO = (path if shown(path) == os.fspath(path)
                                else io.BytesIO(read_bytes(path, limit=limit)))
    parquet = _is_parquet(path, head)
    encoding = None if parquet else _bom_encoding(head)
    if encoding is not None:  # (a text file whose byte-order mark declares UTF-16/32)
        text = _decoded(path, read_bytes(path, limit=limit), encoding)
        head = text[:_HEADER_BYTES].encode("utf-8")
        where = io.BytesIO(text.encode("utf-8"))
    if not parquet and (msg := packed(path, head)):
        raise ImportFormatError(msg)
    if not parquet and b"\x00" in head:  # (no text file holds a NUL byte)
        msg = (f"cannot read {shown(path)}: it holds NUL bytes (byte {head.index(0)}): text "
               "in UTF-16 without a byte-order mark, or not a text file. Hint: save it as "
               "UTF-8 CSV (in Excel: 'CSV UTF-8').")
        raise ImportFormatError(msg)
    # (the head may end between a CR and its LF)
    if not parquet and _LONE_CR.search(head if size <= len(head) else head[:-1]):
        where = io.BytesIO(_line_feeds(_bytes_of(path, where, limit)))
        head = where.getvalue()[:_HEADER_BYTES]
    if not parquet and (excel := _EXCEL_SEP.match(head)):
        said = excel.group(1).decode("utf-8", "replace")
        msg = (f"cannot read {shown(path)}: line 1 is {said!r}, "
               "the separator line Excel writes for itself, not the header. Hint: delete "
               "line 1 (swissframe takes the separator from the header line).")
        raise ImportFormatError(msg)
    sep = "\t" if path.name.lower().endswith(".tsv") else csv_separator(head)
    texts = dict.fromkeys([*FLAG_COLUMNS, *_text_columns()], pl.String)
    wholes = [c for c in dict.fromkeys([*WHOLE_COLUMNS, *whole]) if c not in texts]
    try:
        # (glob=False: a file named "results [final].csv" is a file, not a pattern that
        # matched nothing — or "a*b.csv" one that matched other files too)
        if parquet:
            check_parquet_pages(where, shown(path))
        df = (pl.read_parquet(where, glob=False) if parquet
              else _read_csv(path, where, sep, texts))
        # the whole-number columns as Polars types them first: the cells it reads as
        # integers (ASCII digits, a leading minus) are those whole_numbers reads, to the
        # same values, and reading them as text first cost twice the whole read (1M rows
        # 0.40 -> 0.90 s); a column it types as anything else (a float: "3.0", but also
        # "2e0", no whole number; Int128: past 64 bits) is read again as text, for the one
        # reading of its cells
        if not parquet and any(not fits_int64(df.schema[c]) and df.schema[c] != pl.String
                               for c in wholes if c in df.columns):
            df = _read_csv(path, where, sep, {**texts, **dict.fromkeys(wholes, pl.String)})
    except (pl.exceptions.PolarsError, pl.exceptions.PanicException, OSError,
            UnicodeDecodeError) as exc:
        # (a damaged Parquet page — a byte changed — makes Polars' decoder panic: a bare
        # PanicException, a BaseException, said as "a swissframe bug")
        if isinstance(exc, pl.exceptions.PanicException):
            said = _PANIC_PREFIX.sub("", _polars_text(exc))
            raise _damaged(shown(path), "Parquet" if parquet else "CSV",
                           f"Polars failed decoding it: {said}") from None
        if not parquet and "utf-8" in str(exc).lower():
            _decoded(path, read_bytes(path, limit=limit), "utf-8")  # names the line
        if not parquet:
            shape = _csv_shape(_bytes_of(path, where, limit), sep, strict=True)
            if shape:
                raise _shape_error(path, shape, sep) from None
        msg = (f"cannot read {shown(path)} as {'Parquet' if parquet else 'CSV'}: "
               f"{_polars_text(exc)}. Hint: a CSV file (UTF-8, a header row) or a Parquet "
               "file is expected; re-export it.")
        raise ImportFormatError(msg) from None
    if not parquet:
        df = _without_blank_lines(path, df, sep, limit)
        # (Polars fills a row with fewer fields than the header with nulls, silently: a
        # null in the last column is where to look)
        if df.width > 1 and df.get_column(df.columns[-1]).null_count():
            data = _bytes_of(path, where, limit)
            shape = _csv_shape(data, sep, strict=False) if _uneven_lines(data, sep) else ""
            if shape:
                raise _shape_error(path, shape, sep)
    # (Polars keeps a repeated header name as "<name>_duplicated_<n>": two columns that
    # may disagree, of which the engine would read the first without a word)
    repeated = sorted({m.group(1) for c in df.columns
                       if (m := re.fullmatch(r"(.+)_duplicated_\d+", c)) and m.group(1)
                       in df.columns})
    if repeated:
        msg = (f"{shown(path)}: column(s) {repeated} appear more than once in the header. "
               "Hint: keep one column of each name.")
        raise SchemaError(msg)
    if not parquet:
        df = typed_columns(df, whole=[*WHOLE_COLUMNS, *whole])
    # (a column named like an optional one but for case or spaces is not read: its rows
    # would take the default without a word — every row Swiss, no double loss, the event
    # named after the file; the required columns are named by table_long)
    _, misnamed = misnamed_optional(df.columns)
    if misnamed:
        msg = f"{shown(path)}: {misnamed}"
        raise SchemaError(msg)
    if "event_id" not in df.columns:
        if not name_event:
            return df
        stem = event_id if event_id is not None else shown(path.name).split(".")[0]
        df = df.with_columns(pl.lit(stem, dtype=pl.String).alias("event_id"))
    dt = df.schema["event_id"]
    # (the one rule of ids, recompute's too: a float, a date or a Boolean was read here as
    # its text, "1.0" or "true", and refused by recompute — class 135)
    if holds_non_ids(dt):
        msg = (f"{shown(path)}: event_id is {dt}, expected text (or whole numbers). Hint: "
               "write the event ids as text (pl.col('event_id').cast(pl.String) before "
               "writing the file).")
        raise SchemaError(msg)
    return df.with_columns(pl.col("event_id").cast(pl.String))


def _text_columns() -> tuple[str, ...]:
    """The contract's text columns besides the ids: ``phase`` and the optional ones (a
    stage "1" is a label, not a number)."""
    from swissframe.schema import OPTIONAL_COLUMNS, PHASE

    return (PHASE, *OPTIONAL_COLUMNS)


def _bytes_of(path: Path, where: Path | io.BytesIO, limit: int | None) -> bytes:
    return where.getvalue() if isinstance(where, io.BytesIO) else read_bytes(path, limit=limit)


def _read_csv(path: Path, where: Path | io.BytesIO, sep: str,
              texts: Mapping[str, pl.DataType | type[pl.DataType]]) -> pl.DataFrame:
    """The CSV file read by Polars, the contract's columns as text and the others typed
    by inference. Polars' inference reads a column whose first 10,000 cells are numbers
    as numbers and then stops at a later text cell, or at a digit other than ASCII
    (``４``: its inference takes it for a digit, its parser does not): such a file is read
    again with the column types taken from every row, then with every column as text."""
    overrides: dict[str, pl.DataType | type[pl.DataType]] = {**_ID_OVERRIDES, **texts}
    tries: list[dict[str, object]] = [{"infer_schema_length": 10_000},
                                      {"infer_schema_length": None}, {"infer_schema": False}]
    for i, how in enumerate(tries):
        if isinstance(where, io.BytesIO):
            where.seek(0)
        try:
            return pl.read_csv(where, separator=sep, schema_overrides=overrides, glob=False,
                               **how)  # type: ignore[arg-type]
        except pl.exceptions.ComputeError as exc:
            # (a cell Polars cannot parse as the type it inferred: not a quoting error)
            if ("could not parse" not in str(exc) or "escaped" in str(exc)
                    or i == len(tries) - 1):
                raise
    msg = f"cannot read {shown(path)}. Hint: re-export the file as CSV."
    raise ImportFormatError(msg)  # (not reached: the last try raises or returns)


def table_long(path: Path, df: pl.DataFrame, columns: MatchColumns | None = None
               ) -> pl.DataFrame:
    """One file's table in the long form (a match table goes through ``from_matches``),
    its contract columns' types checked here so that an error names the file."""
    from swissframe.schema import (
        MATCH_COLUMNS,
        OPPONENT_ID,
        PLAYER_ID,
        REQUIRED_COLUMNS,
        flag_spellings,
        from_matches,
        holds_non_ids,
        ids_as_text,
        near_names,
        string_like,
    )

    cols = columns or MATCH_COLUMNS
    if cols.player_a in df.columns and "player_id" not in df.columns:
        try:
            df = from_matches(df, columns=cols)
        except SwissframeError as exc:
            msg = f"{shown(path)}: {exc}"
            raise type(exc)(msg) from None
    known = ["event_id", *REQUIRED_COLUMNS, *dataclasses.astuple(cols)]
    if "player_id" not in df.columns:
        msg = (f"{shown(path)}: neither a long results table (player_id, opponent_id, …) nor "
               f"a match table ({cols.player_a}, {cols.player_b}, …); columns are "
               f"{df.columns}. Hint: "
               f"{near_names(df.columns, known) or 'see swissframe.schema for both forms.'}")
        raise SchemaError(msg)
    # (checked per file: next to other files, a missing column would be filled with nulls
    # and reported row by row, without the file's name)
    missing = [c for c in REQUIRED_COLUMNS if c not in df.columns]
    if missing:
        hint = (near_names(df.columns, missing)
                or "is it a results file (not standings or pairings)?")
        msg = (f"{shown(path)}: a long results table without column(s) {missing}; columns "
               f"are {df.columns}. Hint: {hint}")
        raise SchemaError(msg)
    df, bad = whole_columns(df)
    if bad:
        msg = (f"{shown(path)}: mistyped column(s): {'; '.join(bad)}, expected integers. "
               "Hint: rounds and game counts are whole numbers in ASCII digits 0-9 (a "
               "trailing .0 is read; text, a fraction, an exponent such as 2e0 or a number "
               "too large is not); fix those cells in the file.")
        raise SchemaError(msg)
    df, bad = flag_columns(df)
    if bad:
        msg = (f"{shown(path)}: {'; '.join(bad)}. Hint: write a flag as {flag_spellings()} "
               "(any case), or leave the cell empty for no flag.")
        raise SchemaError(msg)
    # (a Parquet file's ids and labels: a CSV file's are read as text; the engine refused
    # numbers or lists there without naming the file. Whole-number ids are read as their
    # digits, as recompute reads them: the one rule of ids, is_id_type — class 135)
    ids = [f"{c} is {t}" for c, t in df.schema.items()
           if c in (PLAYER_ID, OPPONENT_ID) and holds_non_ids(t)]
    texts = [f"{c} is {t}" for c, t in df.schema.items()
             if c in _text_columns() and not string_like(t)]
    if ids or texts:
        expected = "; ".join(
            [f"{'; '.join(ids)}, expected text (or whole numbers)"] * bool(ids)
            + [f"{'; '.join(texts)}, expected text"] * bool(texts))
        msg = (f"{shown(path)}: mistyped column(s): {expected}. Hint: write ids and labels "
               "as text (pl.col(...).cast(pl.String) before writing the file).")
        raise SchemaError(msg)
    return ids_as_text(df)


def whole_columns(df: pl.DataFrame, columns: Sequence[str] | None = None
                  ) -> tuple[pl.DataFrame, list[str]]:
    """A file's whole-number columns (rounds, game counts; ``columns``, by default the long
    form's) read the one way such a cell is read (``schema.whole_numbers``: ``"3.0"`` is
    3, a column with no value is empty), and the columns that hold a cell that is not
    whole, each named with its cells (row, event, round, player: the column's type alone
    did not say where to look). Those are left as they are: ``table_long`` refuses them,
    ``validate`` lists their cells."""
    from swissframe.schema import INT_COLUMNS, fits_int64, not_whole_cells, whole_numbers

    wanted = INT_COLUMNS if columns is None else columns
    bad, whole = [], []
    for c, t in df.schema.items():
        if c not in wanted or t == pl.Null or fits_int64(t):
            continue
        where = not_whole_cells(df, c, ["event_id", "round", "player_id", "opponent_id",
                                        "player_a", "player_b"])
        if not where:  # every cell whole ("3.0", or no value at all: a header-only file)
            whole.append(whole_numbers(c, t).alias(c))
        elif t == pl.String:  # (a CSV file's cells, read as text)
            bad.append(f"{c} holds cells that are not whole numbers within 64 bits ({where})")
        elif not t.is_integer():
            bad.append(f"{c} is {t} ({where})")
        else:  # (an integer column Polars read wider than Int64: a value past 64 bits)
            bad.append(f"{c} holds {df.get_column(c).max()!s}, past 64 bits ({where})")
    return (df.with_columns(whole) if whole else df), bad


def flag_columns(df: pl.DataFrame) -> tuple[pl.DataFrame, list[str]]:
    """A file's flag columns (``double_loss``) read the one way a flag cell is read
    (``schema.flag_values``: true/false, yes/no, 1/0 in any case; a blank cell is no
    flag), and the columns holding a cell that is none of these, named with their cells
    (it was "double_loss is String, expected Boolean", with a hint on Polars casts)."""
    from swissframe.schema import FLAG_COLUMNS, flag_values, not_flag_cells

    bad, read = [], []
    for c, t in df.schema.items():
        if c not in FLAG_COLUMNS or t in (pl.Boolean, pl.Null):
            continue
        where = not_flag_cells(df, c, ["event_id", "round", "player_id", "opponent_id",
                                       "player_a", "player_b"])
        if where:
            bad.append(f"{c} holds cells that are not flags ({where})")
        else:
            read.append(flag_values(c, t).alias(c))
    return (df.with_columns(read) if read else df), bad


def typed_columns(df: pl.DataFrame, *, whole: Sequence[str] = WHOLE_COLUMNS) -> pl.DataFrame:
    """A CSV file's whole-number and flag columns read from their text where every cell
    of the column reads (:func:`whole_columns`, :func:`flag_columns`); a column with a
    cell that does not is left as text, for the caller to name its cells."""
    text = [c for c, t in df.schema.items() if t == pl.String]
    df = whole_columns(df, [c for c in whole if c in text])[0]
    return flag_columns(df)[0]


_MATCH_INT: Final = ("round", "games_a", "games_b", "games_drawn")


def _coerced(path: Path, df: pl.DataFrame) -> tuple[pl.DataFrame, list[pl.DataFrame]]:
    """A table whose bad cells are reported (``swissframe validate``), not fatal: read as
    the readers of ``standings`` read it (a match table through ``from_matches``), the
    rows of a cell that does not read listed as ``bad_value`` notes and left out. A CSV
    file's cells are text: that is no ``schema`` problem (``coerce(text=True)``)."""
    from swissframe.schema import FLAG_COLUMNS, INT_COLUMNS, from_matches
    from swissframe.validate import coerce

    text = not _is_parquet(path)
    match = "player_a" in df.columns and "player_id" not in df.columns
    # seat A / B double as player / opponent so that cell problems name them
    seats = df.with_columns(pl.col("player_a").alias("player_id"),
                            pl.col("player_b").alias("opponent_id")) \
        if match and "player_b" in df.columns else df
    ints = [c for c in (_MATCH_INT if match else INT_COLUMNS) if c in df.columns]
    strs = (["event_id", "player_a", "player_b"] if match
            else ["event_id", "player_id", "opponent_id", *_text_columns()])
    cast, problems = coerce(seats, int_columns=ints,
                            str_columns=[c for c in strs if c in df.columns], text=text)
    notes = [p.collect().with_columns(pl.lit(shown(path)).alias("file")) for p in problems]
    if cast is None:
        msg = (f"{shown(path)}: the table's columns cannot be read: "
               + "; ".join(n["detail"][0] for n in notes if n.height) + ". Hint: re-export "
               "it with the contract's columns (see swissframe.schema).")
        raise SchemaError(msg)
    out = cast.drop("_sf_row").collect()
    if match:
        out = from_matches(out.drop("player_id", "opponent_id", strict=False))
    flags = [c for c in FLAG_COLUMNS if c in out.columns]  # (read by coerce)
    return out.with_columns(pl.col(flags).cast(pl.Boolean)) if flags else out, notes


def _is_parquet(path: Path, head: bytes | None = None) -> bool:
    """Whether a table file is Parquet: by its name, or its first bytes (``head``, read
    here when the caller has not)."""
    if path.name.lower().endswith((".parquet", ".pq")):
        return True
    return (read_bytes(path, head=4) if head is None else head).startswith(_PARQUET_MAGIC)


def _read_tables(files: Sequence[Path], limit: int | None, *, strict: bool = True) -> _Part:
    frames, seen = [], []
    notes: list[pl.DataFrame] = []
    # a file without an event_id column is the event named by its file, unique among the
    # files (a/event.csv and b/event.csv are two events, not one)
    # (each file counted to the progress line: a folder of many tables)
    for f, key in counted(list(zip(files, event_keys(files), strict=True)), "file"):
        df = read_table_file(f, limit=limit, event_id=key)
        if strict or not ("player_id" in df.columns or "player_a" in df.columns):
            df = table_long(f, df)
        else:  # (validate: cells read as the engine reads them, bad ones listed)
            df, found = _coerced(f, df)
            notes += found
        name = pl.lit(shown(f), dtype=pl.String).alias("source_file")
        frames.append(df.with_columns(name))
        # the file's events in order of appearance (a unique over the id and the file name
        # of every row of the stacked files cost 2.3 s on 37.5M rows; the ids alone 0.6 s)
        seen.append(df.select(pl.col("event_id").unique(maintain_order=True), name))
    results = concat_files(frames)
    events = concat_files(seen).with_columns(pl.lit("table").alias("source_kind"))
    return _Part(kind="table", results=results, events=events, notes=notes)


def _read_decklists(files: Sequence[Path], limit: int | None, workers: int | None) -> _Part:
    from swissframe.io.decklist import read_decklist_cache

    dl = read_decklist_cache(list(files), max_bytes=limit, workers=workers)
    where = dl.events.select("event_id", pl.col("path").alias("source_file"))
    results = dl.results.join(where, on="event_id", how="left")
    events = events_of(dl)
    notes = dl.report.join(where, on="event_id", how="left").select(
        pl.col("source_file").alias("file"), "event_id", "round", "player_id", "kind", "detail")
    return _Part(kind="decklist", results=results, events=events, published=dl.published,
                 notes=[notes], bundle=dl)


def _tom_pods(ev: TomEvents) -> pl.DataFrame:
    """One row per TOM event (a pod): its file, start date and label."""
    return ev.structure.group_by("event_id", maintain_order=True).agg(
        pl.col("source").first().alias("source_file"), pl.col("start_date").first(),
        pl.col("pod_label").first())


def events_of(bundle: DecklistEvents | TomEvents | TrfEvents) -> pl.DataFrame:
    """The events an importer read, as :class:`Source`'s ``events`` has them before the
    ruleset is inferred (``event_id, source_file, source_kind, start_date``; a decklist's
    ``platform`` and ``decimals``): what :func:`~swissframe.rules._infer.infer_rulesets`
    reads, for files read here and for an importer's result given as it is (the report).
    """
    from swissframe.io.decklist import DecklistEvents
    from swissframe.io.tom import TomEvents

    if isinstance(bundle, DecklistEvents):
        return bundle.events.select(
            "event_id", pl.col("path").alias("source_file"),
            pl.lit("decklist").alias("source_kind"), pl.col("source").alias("platform"),
            pl.col("date").alias("start_date"), "decimals")
    if isinstance(bundle, TomEvents):
        return _tom_pods(bundle).select("event_id", "source_file",
                                        pl.lit("tom").alias("source_kind"), "start_date")
    return bundle.header.select("event_id", pl.col("source").alias("source_file"),
                                pl.lit("trf").alias("source_kind"), "start_date")


def _pending_notes(pending: pl.DataFrame, where: pl.DataFrame) -> pl.DataFrame:
    return pending.join(where, on="event_id", how="left").select(
        pl.col("source_file").alias("file"), "event_id", "round", "player_id", "opponent_id",
        pl.lit("pending").alias("kind"),
        pl.lit("paired but no result yet; left out of the results").alias("detail"))


def several_files(count: int, what: str) -> str:
    """How a reader's one warning for many files opens: ``"N files <what>; the first, "``
    before the first file's own message, or nothing for one file.

    >>> several_files(3, "have a note"), several_files(1, "have a note")
    ('3 files have a note; the first, ', '')
    """
    return f"{count} files {what}; the first, " if count > 1 else ""


def say_warnings(said: Mapping[str, str], *, listed: Collection[str] = (),
                 stacklevel: int = 2) -> None:
    """Warn of what a reader says (``said``: kind -> text, its ``*_warnings``), one
    ``UserWarning`` per kind, except the kinds in ``listed``: :func:`read` lists those as
    import notes and summarises them in one warning, so they are not said twice.
    ``stacklevel`` as the caller's own ``warnings.warn`` would take it. Used by each
    reader's public function (``read_tom``, ``read_trf``) and by :func:`read`."""
    for kind, text in said.items():
        if kind not in listed:
            warnings.warn(text, UserWarning, stacklevel=stacklevel + 1)


def _read_toms(files: Sequence[Path], keys: Sequence[str], limit: int | None) -> _Part:
    from swissframe.io.tom import _read_tom, tom_warnings

    ev = _read_tom(list(files), event_ids=list(keys), max_bytes=limit)
    say_warnings(tom_warnings(ev), listed={"unknown_element", "empty_round"}, stacklevel=3)
    st = _tom_pods(ev)
    where = st.select("event_id", "source_file")
    results = ev.results.join(st.select("event_id", "source_file",
                                        pl.col("pod_label").alias("division")),
                              on="event_id", how="left")
    events = events_of(ev)
    unknown = ev.unknown.select(pl.col("source").alias("file"), pl.lit("unknown_element")
                                .alias("kind"), pl.format("unknown element <{}> in <{}> "
                                                          "ignored", "tag", "parent")
                                .alias("detail"))
    return _Part(kind="tom", results=results, events=events,
                 names=ev.players.select("event_id", "player_id", "name"),
                 divisions=ev.players.select("event_id", "player_id", "division"),
                 published=ev.published,
                 notes=[_pending_notes(ev.pending, where), unknown, _no_match_notes(ev, where),
                        _empty_round_notes(ev.empty_rounds, where)],
                 bundle=ev)


def _empty_round_notes(empty: pl.DataFrame, where: pl.DataFrame) -> pl.DataFrame:
    """A round a TOM pod lists with no match (``TomEvents.empty_rounds``): no row of it is
    read, as a decklist file's (bad data 195)."""
    return empty.join(where, on="event_id", how="left").select(
        pl.col("source_file").alias("file"), "event_id", "round",
        pl.lit(None, dtype=pl.String).alias("player_id"),
        pl.lit(None, dtype=pl.String).alias("opponent_id"), pl.lit("empty_round").alias("kind"),
        empty_round_detail().alias("detail"))


def empty_round_detail(named: pl.Expr | None = None) -> pl.Expr:
    """What an ``empty_round`` import note says (a round a file lists with no match: TOM,
    decklist files), the one sentence of both readers; ``named``: the round's name where
    the note has no round number (a decklist round's name).

    >>> pl.select(empty_round_detail(pl.lit("Round 9"))).item()[:47]
    "the file lists round 'Round 9' with no match: n"
    """
    which = pl.lit("this round") if named is None else pl.format("round '{}'", named)
    return pl.format("the file lists {} with no match: no result of that round is in the "
                     "file (lost in the export, or not yet paired); the standings are those "
                     "of the rounds it holds", which)


def _no_match_notes(ev: TomEvents, where: pl.DataFrame) -> pl.DataFrame:
    """A player of an event's pod who plays no match (and has none pending): a no-show,
    whom the standings cannot rank — listed (``no_match``, a format's routine: TOM places
    no-shows after every player with results), not dropped without a word."""
    seen = pl.concat([ev.results.select("event_id", "player_id"),
                      ev.pending.select("event_id", "player_id")]).unique()
    return (ev.players.join(seen, on=["event_id", "player_id"], how="anti")
            .join(where, on="event_id", how="left")
            .select(pl.col("source_file").alias("file"), "event_id",
                    pl.lit(None, dtype=pl.Int64).alias("round"), "player_id",
                    pl.lit(None, dtype=pl.String).alias("opponent_id"),
                    pl.lit("no_match").alias("kind"),
                    pl.format("{} is a player of the event but plays no match (a no-show): "
                              "not in the standings; TOM places no-shows after every "
                              "player with results",
                              pl.col("name").fill_null(pl.col("player_id"))).alias("detail")))


def _read_trfs(files: Sequence[Path], keys: Sequence[str], limit: int | None) -> _Part:
    from swissframe.io.trf import _read_trf, declared_points_differ, team_events, trf_warnings

    ev = _read_trf(list(files), event_ids=list(keys), max_bytes=limit)
    say_warnings(trf_warnings(ev), listed={"unknown_record", "not_applied", "start_date",
                                           "rounds_declared", "declared_points",
                                           "team_event"},
                 stacklevel=3)
    where = ev.header.select("event_id", pl.col("source").alias("source_file"))
    results = ev.results.join(where, on="event_id", how="left")
    events = events_of(ev)
    unknown = ev.unknown.join(where, on="event_id", how="left").select(
        pl.col("source_file").alias("file"), "event_id", pl.lit("unknown_record").alias("kind"),
        pl.format("line {}: unknown record {} ignored", "line",
                  pl.col("value").str.slice(0, 40)).alias("detail"))
    # (TRF-2026 records that would change the scores: scoring system, abnormal points)
    not_applied = ev.not_applied.join(where, on="event_id", how="left").select(
        pl.col("source_file").alias("file"), "event_id", pl.lit("not_applied").alias("kind"),
        pl.format("line {}: {}", "line", "detail").alias("detail"))
    # (a 042 start date present but unreadable, or read one way of two that fall in
    # different FIDE eras: the era chosen and the presets to pass instead)
    dated = ev.header.filter(pl.col("start_date_note").is_not_null()).select(
        pl.col("source").alias("file"), "event_id", pl.lit("start_date").alias("kind"),
        pl.col("start_date_note").alias("detail"))
    # (an XXR that is no number of rounds, or games in rounds past it: trf.declared_rounds)
    beyond = ev.header.filter(pl.col("rounds_note").is_not_null()).select(
        pl.col("source").alias("file"), "event_id", pl.lit("rounds_declared").alias("kind"),
        pl.col("rounds_note").alias("detail"))
    # (a declared total the round blocks do not give: the organiser's, not reproduced)
    points = declared_points_differ(ev.players).join(where, on="event_id", how="left").select(
        pl.col("source_file").alias("file"), "event_id",
        pl.lit(None, dtype=pl.Int64).alias("round"), "player_id",
        pl.lit(None, dtype=pl.String).alias("opponent_id"),
        pl.lit("declared_points").alias("kind"),
        "detail")
    # (a team tournament: its boards ranked one by one, the teams' standings not computed)
    teams = team_events(ev.records).join(where, on="event_id", how="left").select(
        pl.col("source_file").alias("file"), "event_id", pl.lit("team_event").alias("kind"),
        "detail")
    return _Part(kind="trf", results=results, events=events,
                 names=ev.players.select("event_id", "player_id", "name"),
                 notes=[_pending_notes(ev.pending, where), unknown, not_applied, dated, beyond,
                        points, teams],
                 bundle=ev)


def concat_files(frames: Sequence[pl.DataFrame]) -> pl.DataFrame:
    """Frames of several files as one: optional columns a file lacks are filled with their
    contract default for that file's rows, categorical / string ids become strings, and
    types that cannot be unified name the column and the files."""
    from swissframe.schema import RESULT_COLUMNS

    if not frames:
        return pl.DataFrame()
    fixed = []
    for df in frames:
        cats = [c for c, t in df.schema.items() if isinstance(t, (pl.Categorical, pl.Enum))]
        fixed.append(df.with_columns(pl.col(cats).cast(pl.String)) if cats else df)
    names = list(dict.fromkeys(c for df in fixed for c in df.columns))
    if len(fixed) > 1 and "phase" in names:  # the one optional column with a default
        fixed = [df if "phase" in df.columns
                 else df.with_columns(pl.lit("swiss", dtype=pl.String).alias("phase"))
                 for df in fixed]
    try:
        return pl.concat(fixed, how="diagonal_relaxed")
    except (pl.exceptions.SchemaError, pl.exceptions.ComputeError,
            pl.exceptions.InvalidOperationError) as exc:
        clash = _type_clash(fixed)
        files = [df["source_file"][0] if "source_file" in df.columns and df.height else "?"
                 for df in fixed]
        msg = (f"the files' columns have types that cannot be combined ({clash or exc}); "
               f"files: {', '.join(dict.fromkeys(files))}. Hint: the contract types are "
               f"{ {c: str(t) for c, t in list(RESULT_COLUMNS.items())[:7]} }.")
        raise SchemaError(msg) from None


def _type_clash(frames: Sequence[pl.DataFrame]) -> str:
    seen: dict[str, tuple[pl.DataType, str]] = {}
    for df in frames:
        name = df["source_file"][0] if "source_file" in df.columns and df.height else "?"
        for c, t in df.schema.items():
            if c in seen and seen[c][0] != t:
                return f"column {c!r} is {seen[c][0]} in {seen[c][1]} and {t} in {name}"
            seen.setdefault(c, (t, name))
    return ""


# --------------------------------------------------------------------------------- read


def _named_rulesets(results: pl.DataFrame, inferred: pl.DataFrame) -> pl.DataFrame:
    """``inferred`` (``event_id, ruleset, ruleset_reason``) with each event whose rows name
    a ruleset (a results table with a ``ruleset`` column: what :func:`read` and
    ``swissframe simulate`` write) taking that one, as ``rules="auto"`` reads a DataFrame
    (:func:`~swissframe.rules._infer.table_rulesets`). A name no ruleset has, or two names
    in one event, is an :class:`ImportFormatError` naming the event and the file: the table
    would be ranked by rules it does not name."""
    from swissframe.rules import PRESETS
    from swissframe.rules._infer import RULESET_COLUMN, check_ruleset_column, table_rulesets
    from swissframe.rules._ruleset import known_name

    files = (results["source_file"].unique(maintain_order=True).to_list()
             if "source_file" in results.columns else [])
    try:
        check_ruleset_column(results.schema, where=f"{files[0]}: " if len(files) == 1 else "")
    except SchemaError as exc:  # (a file's column: the file's error)
        raise ImportFormatError(str(exc)) from None
    named = results.filter(pl.col(RULESET_COLUMN).is_not_null())
    # (each name read as rules= reads it, "MTG" as mtg: known_name; an unknown one kept,
    # to be refused below)
    spelled = named.get_column(RULESET_COLUMN).cast(pl.String).unique().to_list()
    names = {n: known_name(n) or n for n in spelled}
    if any(k != v for k, v in names.items()):
        named = named.with_columns(pl.col(RULESET_COLUMN).cast(pl.String).replace(names))
    per_event = named.group_by("event_id").agg(
        pl.col(RULESET_COLUMN).cast(pl.String).unique().sort().alias("_names"),
        pl.col("source_file").first().alias("_file") if "source_file" in named.columns
        else pl.lit(None, pl.String).alias("_file"))
    twice = per_event.filter(pl.col("_names").list.len() > 1).sort("event_id")
    unknown = (per_event.explode("_names").filter(~pl.col("_names").is_in(list(PRESETS)))
               .sort("event_id"))
    if twice.height or unknown.height:
        bad = (twice if twice.height else unknown).row(0, named=True)
        what = (f"names the rulesets {', '.join(map(repr, bad['_names']))} (one event, one "
                "ruleset)" if twice.height else f"names the ruleset {bad['_names']!r}, which "
                "swissframe does not have")
        where = f"{bad['_file']}: " if bad["_file"] else ""
        msg = (f"{where}event {bad['event_id']!r}: the ruleset column {what}. Hint: one of "
               f"{', '.join(sorted(PRESETS))} per event, or leave the column out (--rules "
               "chooses).")
        raise ImportFormatError(msg)
    table = table_rulesets(named)
    return (inferred.join(table, on="event_id", how="left", suffix="_t")
            .select("event_id", pl.coalesce("ruleset_t", "ruleset").alias("ruleset"),
                    pl.coalesce("ruleset_reason_t", "ruleset_reason").alias("ruleset_reason")))


def with_files(exc: ValidationError, events: pl.DataFrame) -> ValidationError:
    """A read's contract error naming the files of the events it lists: it named event,
    round and player only, and a read of a folder did not say which file to open
    (class 138; ``read_results``' too, class 193). ``events``: ``event_id, source_file``."""
    probs = exc.problems
    if not isinstance(probs, pl.DataFrame) or "event_id" not in probs.columns:
        return exc
    files = (probs.select(pl.col("event_id").cast(pl.String)).unique(maintain_order=True)
             .join(events.select("event_id", "source_file"), on="event_id", how="inner",
                   maintain_order="left")
             ["source_file"].drop_nulls().unique(maintain_order=True).to_list())
    if not files:
        return exc
    named = ", ".join(files[:3]) + (f" and {len(files) - 3} other files" if len(files) > 3
                                    else "")
    return ValidationError(f"{named}: {exc}", probs)


def _combine(parts: Sequence[_Part], skipped: Sequence[Path],
             problems: Sequence[tuple[str, str]], validate: bool, *,
             keep_codes: bool = False) -> Source:
    """The parts read, as one :class:`Source`; ``keep_codes``: with the id codes of its
    validation (``Source._validated``, for the CLI: 24 bytes a row that a caller of
    :func:`read` would otherwise hold for nothing)."""
    from swissframe.rules._infer import RULESET_COLUMN, infer_rulesets
    from swissframe.schema import validated_table

    codes = None
    events = pl.concat([_fit(p.events, _EVENT_SCHEMA) for p in parts], how="vertical") \
        if parts else pl.DataFrame(schema=_EVENT_SCHEMA)
    # one ruleset per event, also for an event whose rows come from several files (a day
    # per file): events has a row per (event, file), and joining every such row onto the
    # results would repeat each result row once per file of its event, squared
    rulesets = infer_rulesets(events).unique("event_id", keep="first", maintain_order=True)
    results = concat_files([p.results for p in parts]) if parts else pl.DataFrame()
    if RULESET_COLUMN in results.columns:  # a table naming its events' rulesets keeps them
        rulesets = _named_rulesets(results, rulesets)
        results = results.drop(RULESET_COLUMN)
    # (a null event_id — an empty cell, which validate=False lets through to be listed —
    # is an event of its own here as in the inference: a join that drops null keys gave
    # it no ruleset, and `swissframe validate` ended in a TypeError sorting the names)
    events = events.join(rulesets, on="event_id", how="left", maintain_order="left",
                         nulls_equal=True)
    if parts:
        results = results.join(rulesets.select("event_id", "ruleset"), on="event_id",
                               how="left", maintain_order="left", nulls_equal=True)
        if "division" in results.columns:  # a key column: no nulls (other formats' rows)
            results = results.with_columns(pl.col("division").fill_null(""))
        if validate:
            try:
                results, codes = validated_table(results)
            except ValidationError as exc:
                raise with_files(exc, events) from None
    notes = [_fit(n, _NOTE_SCHEMA) for p in parts for n in p.notes]
    if skipped:
        notes.append(_fit(pl.DataFrame({
            "file": [shown(f) for f in skipped], "kind": ["skipped_file"] * len(skipped),
            "detail": [_skip_reason(f) for f in skipped]}),
            _NOTE_SCHEMA))
    published = [p.published for p in parts if p.published is not None]
    names = [_fit(p.names, _NAME_SCHEMA) for p in parts if p.names is not None]
    divisions = [_fit(p.divisions, _DIVISION_SCHEMA) for p in parts if p.divisions is not None]
    return Source(
        results=results, events=events,
        names=pl.concat(names) if names else pl.DataFrame(schema=_NAME_SCHEMA),
        divisions=pl.concat(divisions) if divisions else pl.DataFrame(schema=_DIVISION_SCHEMA),
        published=pl.concat(published, how="diagonal_relaxed") if published else None,
        notes=pl.concat(notes) if notes else pl.DataFrame(schema=_NOTE_SCHEMA),
        problems=tuple(problems),
        bundles={k: v for p in reversed(parts) if p.bundle is not None
                 for k, v in [(p.kind, p.bundle)]},
        _validated=None if codes is None or not keep_codes else (results, codes))


def _read_group(kind: Format, files: Sequence[Path], keys: Sequence[str],
                limit: int | None, *, strict: bool, workers: int | None) -> _Part:
    if kind == "table":
        return _read_tables(files, limit, strict=strict)
    if kind == "decklist":
        return _read_decklists(files, limit, workers)
    if kind == "tom":
        return _read_toms(files, keys, limit)
    return _read_trfs(files, keys, limit)


#: What a failing importer may raise, mapped to an :class:`ImportFormatError` naming the
#: file at the boundary (foreign errors by kind; anything else is a bug and propagates).
_FOREIGN: Final = (OSError, UnicodeError, EOFError, zlib.error, gzip.BadGzipFile,
                   pl.exceptions.InvalidOperationError, pl.exceptions.ComputeError,
                   pl.exceptions.SchemaError, pl.exceptions.ColumnNotFoundError)


def _message(exc: BaseException, file: Path) -> str:
    text = " | ".join(x.strip() for x in str(exc).splitlines() if x.strip())
    name = shown(file)
    return text if name in text else f"{name}: {text}"


def check_workers(workers: object) -> int | None:
    """The processes parsing decklist files: None (one per core, up to 8) or a whole number
    ≥ 1, else a :class:`DataError` naming the argument (``"4"`` and ``2.5`` were a bare
    ``TypeError``, ``0`` and ``-3`` one process without a word); read by :func:`read` and
    :func:`swissframe.io.decklist.read_decklist_cache`.

    >>> check_workers(None), check_workers(4)
    (None, 4)
    """
    if workers is None:
        return None
    return check_whole("workers", workers, low=1, hint="the processes parsing decklist "
                       "files, e.g. workers=4 (None: one per core, up to 8)")


def read(paths: PathLike | Iterable[PathLike], *, format: str = "auto",
         max_bytes: int | None = None, on_error: Literal["raise", "collect"] = "raise",
         validate: bool = True, workers: int | None = None,
         _keep_codes: bool = False) -> Source:
    """Read results from any mix of files: CSV/Parquet tables, decklist-cache JSON(.gz),
    Pokémon TOM ``.tdf`` and FIDE TRF, each recognised by its content.

    Parameters
    ----------
    paths
        Files, folders (searched recursively; files in no known format are skipped and
        listed in ``notes``) and glob patterns.
    format
        ``"auto"`` (sniff each file) or one of :data:`FORMATS` for every file.
    max_bytes
        Largest file and largest decompressed content read (see the module docstring).
    on_error
        ``"raise"``: the first unreadable file raises an
        :class:`~swissframe.errors.ImportFormatError` naming it. ``"collect"``: unreadable
        files are listed in :attr:`Source.problems` and the others are read.
    validate
        Check the combined results against the contract (``False``: the caller validates,
        as ``swissframe validate`` does to list every problem; a match table's bad cells
        are then listed in ``notes`` instead of raising).
    workers
        Processes parsing many decklist files (see
        :func:`~swissframe.io.decklist.read_decklist_cache`).

    Examples
    --------
    >>> src = read("data/events/store-championship.csv")
    >>> src.source_kind, src.events["ruleset"].to_list()
    ('table', ['mtg'])
    >>> src.results.select("event_id", "round", "player_id").head(1).rows()
    [('store-championship', 1, 'Alice')]
    """
    check_choice("on_error", on_error, ("raise", "collect"))
    check_flag("validate", validate)
    check_workers(workers)
    found, skipped = expand(paths, format=format, limit=max_bytes)
    keyed = [f for f, k in found if k in ("tom", "trf")]
    keys = dict(zip(keyed, event_keys(keyed), strict=True)) if keyed else {}
    parts: list[_Part] = []
    problems: list[tuple[str, str]] = []
    for kind in FORMATS:
        files = [f for f, k in found if k == kind]
        if not files:
            continue
        groups = ([files] if on_error == "raise" or len(files) == 1
                  else [files, *([f] for f in files)])
        for group in groups:
            try:
                parts.append(_read_group(kind, group, [keys.get(f, "") for f in group],
                                         max_bytes, strict=validate, workers=workers))
            except (SwissframeError, *_FOREIGN) as exc:
                if on_error == "raise":
                    if isinstance(exc, SwissframeError):
                        raise
                    msg = _message(exc, group[0] if len(group) == 1 else Path(
                        ", ".join(shown(f) for f in group)))
                    raise ImportFormatError(msg) from exc
                if len(group) == 1:
                    problems.append((shown(group[0]), _message(exc, group[0])))
                continue
            if group is files:
                break  # the whole group was read: no need to read file by file
    src = _combine(parts, skipped, problems, validate, keep_codes=_keep_codes)
    said = src.notes.filter(~pl.col("kind").is_in(list(ROUTINE_NOTES))) if validate \
        else src.notes.clear()
    if said.height:
        # a repair or a drop is reported where it happens, to every caller (each CLI
        # command prints it as a warning line); validate=False: the caller lists them
        warnings.warn(notes_summary(said), ImportNotesWarning, stacklevel=2)
    if validate and src.results.height:
        warn_missing_rounds(src.results)
    return src


def rank_within(keys: Sequence[str]) -> pl.Expr:
    """A standings table's ``rank`` within ``keys`` (a combined TOM pod's age division: its
    players are paired together and ranked per division): one plus the number of players
    of the same keys ranked strictly above — the one rule of :meth:`Source.label` and of
    ``why`` / ``explain`` (:func:`~swissframe.cli._common.read_player_event`)."""
    return pl.col("rank").rank("min").over(keys).cast(pl.Int64)


def warn_missing_rounds(results: pl.DataFrame) -> None:
    """Warn of events whose files hold no row at all in a round before their last (a
    round's results lost in the export): the standings would count it as a round no one
    played, silently; and of events with no Swiss row at all (a playoff bracket alone),
    which the standings left out without a word. ``validate`` lists each (an error, a
    warning); its rules, read here."""
    from swissframe.validate import missing_rounds, no_swiss_rounds

    bracket = no_swiss_rounds(results.lazy()).collect()
    if bracket.height:
        first = bracket.row(0, named=True)
        n = bracket.height
        msg = (f"{n} event{'s' * (n > 1)} with only playoff rows (a knockout event, or a "
               f"bracket without its Swiss rounds), e.g. event {quoted(first['event_id'])}: "
               f"{first['detail']}; the standings leave {'them' if n > 1 else 'it'} out. "
               "Hint: if the event had Swiss rounds, they are missing from the export (or "
               "marked 'playoff'): swissframe validate FILE lists each.")
        warnings.warn(msg, DataWarning, stacklevel=3)
    # (a bracket alone misses the Swiss rounds before it: said above)
    gaps = missing_rounds(results.lazy()).collect().filter(
        ~pl.col("event_id").is_in(bracket["event_id"].implode()))
    if not gaps.height:
        return
    first = gaps.row(0, named=True)
    n = gaps["event_id"].n_unique()
    its = "their" if n > 1 else "its"
    msg = (f"{n} event{'s' * (n > 1)} with no row at all in a round before {its} "
           f"last, e.g. event {quoted(first['event_id'])}: {first['detail']}; the standings count "
           "such a round as played by no one. Hint: a round's results may be lost in the "
           "export: swissframe validate FILE lists each.")
    warnings.warn(msg, DataWarning, stacklevel=3)


def notes_summary(notes: pl.DataFrame) -> str:
    """One line on what a read left out or repaired (:attr:`Source.notes`): the count of
    each kind and the first note, with where it is.

    Examples
    --------
    >>> notes = pl.DataFrame({"file": ["a.json", "a.json", "x.txt"],
    ...     "event_id": ["a", "a", None], "round": [4, 5, None],
    ...     "player_id": ["Ann", "Bo", None], "opponent_id": [None] * 3,
    ...     "kind": ["unreported_match", "unreported_match", "skipped_file"],
    ...     "detail": ["Ann vs Cy reported 0-0-0", "Bo vs Di reported 0-0-0", "not results"]})
    >>> print(notes_summary(notes))  # doctest: +NORMALIZE_WHITESPACE
    3 import notes (unreported_match ×2, skipped_file ×1), e.g. a.json, event 'a', round 4,
    player 'Ann': Ann vs Cy reported 0-0-0. Hint: swissframe validate FILE lists each
    (Source.notes in Python).
    """
    kinds = ", ".join(f"{k} ×{n}" for k, n in
                      notes.group_by("kind", maintain_order=True).len().iter_rows())
    first = notes.row(0, named=True)
    where = [str(first["file"])] if first.get("file") else []
    where += [f"{c.replace('_id', '')} {quoted(first[c])}" if isinstance(first[c], str)
              else f"{c} {first[c]}" for c in ("event_id", "round", "player_id")
              if first.get(c) is not None]
    n = notes.height
    return (f"{n} import note{'s' * (n > 1)} ({kinds}), e.g. {', '.join(where)}: "
            f"{str(first['detail']).rstrip('.')}. Hint: swissframe validate FILE lists each "
            "(Source.notes in Python).")
