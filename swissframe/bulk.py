"""Recompute standings for a whole archive: out-of-core on one machine, or on a Dask cluster.

:func:`recompute` reads a Parquet dataset (a file, a folder or a glob) and writes one
standings table per *batch of events* as a Parquet dataset. Memory is bounded by a batch,
never by the archive:

1. **Plan** — only the ``event_id`` column is scanned; events are sorted and cut into
   contiguous batches of at most ``batch_rows`` rows (and ``batch_events`` events).
2. **Split** — the input is read one chunk of row groups at a time; each chunk is joined to
   the (small) plan and split by batch, so all rows of one event land in the same batch
   whichever file or row group they came from.
3. **Compute** — each batch is one :func:`swissframe.standings.standings` call (vectorized
   over its events) and one output file ``part-00000.parquet``, ``part-00001.parquet``, …

With ``engine="dask"`` steps 2 and 3 are Dask tasks (chunks → pieces per batch, held by the
cluster; one task per batch gathers its pieces) over the same plan, so the output files are
identical to the single-machine run. See ``docs/distributed.md``.

Every input row is accounted for: ``rows_in = rows_used + rows_rejected`` (with reasons),
written to ``_recompute.json`` next to the output.

A run survives being killed at any moment: every file is written under a temporary name
(``*.tmp``) and renamed when complete, so a ``part-*.parquet`` is always whole; the manifest
says ``"status": "running"`` until the last part is written, and each finished batch leaves a
small record in ``_batches/``. A later run into the same folder says what it found: it
refuses an incomplete run unless told to ``resume=True`` (compute only the batches without a
record, when the inputs and settings are unchanged) or ``overwrite=True`` (start over). The
scratch folder of a killed run is removed by the next one. Files inside ``dest`` are never
read as input (``recompute SRC -o SRC/out``). Events that break the results-table
contract stop the run (``on_error="stop"``, the default, naming event, round and player), or
are reported and skipped when asked (``on_error="skip"``; their problems are written to
``_rejected.parquet``).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

import orjson
import polars as pl

from swissframe._batches import BATCH, batch_plan, by_batch
from swissframe._display import count
from swissframe.engine.standings import standings
from swissframe.errors import (
    DataError,
    ImportFormatError,
    SchemaError,
    ValidationError,
    check_choice,
    check_flag,
    check_whole,
)
from swissframe.io._files import (
    _polars_text,
    check_parquet_pages,
    concat_files,
    each_file_once,
    glob_files,
    local_path,
    make_folder,
    path_items,
    read_bytes,
    resolved,
    write_atomic,
)
from swissframe.rules._ruleset import Ruleset, get
from swissframe.schema import (
    FIND_PROBLEMS_SCHEMA,
    ID_COLUMNS,
    checked,
    codes_of_rows,
    format_problems,
    holds_non_ids,
    ids_as_text,
    raise_problems,
    trusted,
    validate_results,
)

__all__ = ["RecomputeReport", "recompute"]

Engine = Literal["polars", "dask"]
OnError = Literal["stop", "skip"]

#: Name of the JSON manifest (row accounting) written next to the output parts.
MANIFEST: Final = "_recompute.json"
#: Name of the table of problems of skipped events (only with ``on_error="skip"``).
REJECTED: Final = "_rejected.parquet"
NULL_EVENT: Final = "null_event_id"
#: Folder (inside ``dest``) of per-batch records, for resuming an interrupted run.
BATCHES: Final = "_batches"
#: Default scratch folder (inside ``dest``) for the per-batch split.
SCRATCH: Final = "_scratch"
#: Scratch folders are named with this prefix and the process id (see :func:`clean_scratch`).
SCRATCH_PREFIX: Final = "swissframe-recompute-"


@dataclass(frozen=True)
class RecomputeReport:
    """What a :func:`recompute` run read, used, rejected and wrote.

    ``rows_in == rows_used + rows_rejected`` always holds; ``rejected_by_reason`` splits
    ``rows_rejected`` by the first problem kind of each skipped event. ``events_in`` counts
    the events read, ``events_unplayed`` of them with no round played (no result row: a
    file's event read before its first pairing, which the command line converts; they
    have no standings).
    """

    rows_in: int
    rows_used: int
    rows_playoff: int
    rows_rejected: int
    rejected_by_reason: dict[str, int]
    events_in: int
    events_done: int
    events_rejected: int
    batches: int
    standings_rows: int
    seconds: float
    dest: str
    files: tuple[str, ...] = ()
    problems: pl.DataFrame = field(
        default_factory=lambda: pl.DataFrame(schema=FIND_PROBLEMS_SCHEMA))
    events_unplayed: int = 0

    def summary(self) -> str:
        """A few lines of row accounting, for people.

        Examples
        --------
        >>> r = RecomputeReport(rows_in=10, rows_used=8, rows_playoff=2, rows_rejected=2,
        ...     rejected_by_reason={"mirror_mismatch": 2}, events_in=3, events_done=2,
        ...     events_rejected=1, batches=1, standings_rows=6, seconds=0.5, dest="out")
        >>> print(r.summary())
        rows in: 10 = used 8 (of which 2 playoff, not part of Swiss standings) + rejected 2
          rejected: mirror_mismatch 2
        events: 3 in, 2 recomputed, 1 skipped; 6 standings rows in 1 batch → out (0.5 s)

        An event read with no round played is in, and said (bad data 150):

        >>> r = RecomputeReport(rows_in=0, rows_used=0, rows_playoff=0, rows_rejected=0,
        ...     rejected_by_reason={}, events_in=1, events_done=0, events_rejected=0,
        ...     batches=0, standings_rows=0, seconds=0.1, dest="out", events_unplayed=1)
        >>> print(r.summary())
        rows in: 0 = used 0 (of which 0 playoff, not part of Swiss standings) + rejected 0
        events: 1 in, 0 recomputed, 0 skipped; 0 standings rows in 0 batches → out (0.1 s)
          no round played: 1 event (no standings)
        """
        from swissframe._display import count

        lines = [f"rows in: {self.rows_in:,} = used {self.rows_used:,} (of which "
                 f"{self.rows_playoff:,} playoff, not part of Swiss standings) + rejected "
                 f"{self.rows_rejected:,}"]
        if self.rejected_by_reason:
            lines.append("  rejected: " + ", ".join(
                f"{k} {v:,}" for k, v in sorted(self.rejected_by_reason.items())))
        lines.append(f"events: {self.events_in:,} in, {self.events_done:,} recomputed, "
                     f"{self.events_rejected:,} skipped; "
                     f"{count(self.standings_rows, 'standings row')} in "
                     f"{count(self.batches, 'batch')} → {self.dest} "
                     f"({self.seconds:.1f} s)")
        if self.events_unplayed:
            lines.append(f"  no round played: {count(self.events_unplayed, 'event')} "
                         "(no standings)")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """The report as plain JSON-able values (without the problems table)."""
        return {
            "rows_in": self.rows_in, "rows_used": self.rows_used,
            "rows_playoff": self.rows_playoff, "rows_rejected": self.rows_rejected,
            "rejected_by_reason": self.rejected_by_reason, "events_in": self.events_in,
            "events_done": self.events_done, "events_rejected": self.events_rejected,
            "events_unplayed": self.events_unplayed, "batches": self.batches,
            "standings_rows": self.standings_rows,
            "seconds": round(self.seconds, 3), "dest": self.dest, "files": list(self.files),
        }


@dataclass(frozen=True)
class _Chunk:
    """A readable unit of the input: consecutive whole row groups of one Parquet file."""

    path: str
    offset: int
    length: int


@dataclass(frozen=True)
class _BatchResult:
    batch: int
    file: str
    standings_rows: int
    rows: int
    rows_playoff: int
    events_done: int
    events: int
    problems: pl.DataFrame


# --------------------------------------------------------------------------- inputs


def in_output(path: str | Path, dest: str | Path) -> bool:
    """Whether ``path`` lies inside the output folder ``dest``: such a file is never input
    (a rerun would read its own output), here and in the CLI's conversion of other
    formats."""
    return resolved(path).is_relative_to(resolved(dest))


def _files(source: str | Path | Sequence[str | Path], exclude: Path | None = None) -> list[str]:
    """Parquet files of a file, folder (recursively) or glob, in sorted order.

    Files under ``exclude`` (the output folder) are left out: a run never reads its own
    output, even when ``dest`` is inside ``source``.
    """
    out: list[str] = []
    for s in path_items(source):
        p = Path(s)
        if p.is_dir():
            out += sorted(str(f) for f in p.rglob("*.parquet") if f.is_file())
        elif p.is_file():
            out.append(str(p))
        else:
            out += [str(f) for f in glob_files(s)]
    if exclude is not None:
        out = [f for f in out if not in_output(f, exclude)]
    if not out:
        msg = (f"no Parquet files found at {source!s}. Hint: pass a .parquet file, a folder "
               "holding *.parquet files, or a glob such as 'archive/**/*.parquet' (files "
               "inside the output folder are never read).")
        raise ImportFormatError(msg)
    # (each file once, as every reader's inputs: one archive named by two spellings was
    # read twice, every seat a duplicate)
    return [out[i] for i, _ in each_file_once([Path(f) for f in out])]


def _chunks(files: Sequence[str], chunk_rows: int) -> list[_Chunk]:
    """Group each file's row groups into chunks of about ``chunk_rows`` rows."""
    import pyarrow as pa  # not on `import swissframe`: only archives need it
    import pyarrow.parquet as pq
    out: list[_Chunk] = []
    for f in files:
        try:
            meta = pq.ParquetFile(f).metadata
            groups = [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]
        except pa.ArrowNotImplementedError:
            # a column type pyarrow does not read (Polars' Int128, which Polars reads the
            # chunks with: "Integers with more than 64 bits not implemented"): slices of
            # the file's rows, not of its row groups
            n_rows = int(pl.scan_parquet(f, glob=False).select(pl.len()).collect().item())
            groups = [min(chunk_rows, n_rows - i) for i in range(0, n_rows, chunk_rows)]
        except (OSError, pa.ArrowException) as exc:  # a broken, truncated or unreadable file
            msg = f"cannot read Parquet metadata of {f}: {exc}. Hint: is the file complete?"
            raise ImportFormatError(msg) from exc
        start = rows = 0
        for n in groups:
            if rows and rows + n > chunk_rows:
                out.append(_Chunk(f, start, rows))
                start, rows = start + rows, 0
            rows += n
        if rows:
            out.append(_Chunk(f, start, rows))
    return out


def _read_chunk(chunk: _Chunk) -> pl.DataFrame:
    """One chunk, read by Polars' own Parquet reader (row-group aligned slice).

    Polars decodes Parquet straight into its Arrow-format buffers; going through
    ``pyarrow`` first would convert every string column (Arrow ``large_string`` → Polars
    string views), measured 10× slower (see docs/distributed.md).
    """
    try:
        return ids_as_text(pl.scan_parquet(chunk.path, glob=False)
                           .slice(chunk.offset, chunk.length).collect())
    except _UNREADABLE as exc:
        raise _unreadable(chunk.path, exc) from None


#: What Polars raises on a file it cannot decode: a damaged page (a byte changed) is a
#: ``ComputeError`` ("Dictionary Index is out-of-bounds", "zstd error") or a panic of its
#: decoder (a ``PanicException``, a BaseException); it was said as "a swissframe bug".
_UNREADABLE: Final = (pl.exceptions.PolarsError, pl.exceptions.PanicException, OSError)


def _unreadable(f: str, exc: BaseException) -> ImportFormatError:
    """The error of a file of the archive that cannot be read, naming it (what the reader
    said as the readers say it: :func:`~swissframe.io._files._polars_text`)."""
    msg = (f"cannot read {f}: {_polars_text(exc)}. Hint: is the file complete? Re-export "
           "it, or move it out of the archive.")
    return ImportFormatError(msg)


def _check_schema(files: Sequence[str]) -> None:
    """Fail early, naming the file: ImportFormatError when a file cannot be read (truncated,
    not Parquet), SchemaError when it misses a column or has a wrong type."""
    for f in files:
        try:
            pl.scan_parquet(f, glob=False).collect_schema()
        except _UNREADABLE as exc:
            raise _unreadable(f, exc) from exc
        check_parquet_pages(f, f)  # (a damaged page header aborted the process in Polars)
        head = pl.scan_parquet(f, glob=False).head(0).collect()
        # (the one rule of ids, sf.read's too: whole numbers are read as text, a float, a
        # date or a Boolean refused — sf.read read those as text: class 135)
        ids = [f"{c} is {t}" for c, t in head.schema.items()
               if c in ID_COLUMNS and holds_non_ids(t)]
        if ids:
            msg = (f"{f}: mistyped column(s): {'; '.join(ids)}, expected text (or whole "
                   "numbers). Hint: write ids as text (pl.col(...).cast(pl.String) before "
                   "writing the file).")
            raise SchemaError(msg)
        try:
            validate_results(ids_as_text(head))
        except SchemaError as exc:
            msg = f"{f}: {exc}"
            raise SchemaError(msg) from exc


# --------------------------------------------------------------------------- plan


def _plan(files: Sequence[str], batch_rows: int, batch_events: int | None) -> pl.DataFrame:
    """``event_id, rows, _batch``: events in sorted order cut into contiguous batches."""
    # each file's event ids on their own (files may differ in optional columns, the ids'
    # type, or have no event_id column: its rows are the event "event", as in _split)
    def ids(f: str) -> pl.LazyFrame:
        scan = pl.scan_parquet(f, glob=False)
        if "event_id" not in scan.collect_schema().names():
            return scan.with_columns(pl.lit("event", dtype=pl.String).alias("event_id")).select(
                "event_id")  # (with_columns: one id per row, not one literal row)
        return scan.select(pl.col("event_id").cast(pl.String))

    try:
        counts = (pl.concat([ids(f) for f in files])
                  .group_by("event_id").agg(rows=pl.len().cast(pl.Int64))
                  .collect(engine="streaming"))
    except _UNREADABLE as exc:
        for f in files:  # the file that cannot be read, named
            try:
                ids(f).select(pl.len()).collect()
            except _UNREADABLE as one:
                raise _unreadable(f, one) from None
        raise _unreadable(", ".join(files), exc) from None
    counts = counts.with_columns(pl.col("event_id").cast(pl.String)).sort(
        "event_id", nulls_last=True)
    return batch_plan(counts, batch_rows=batch_rows, batch_events=batch_events)


def _split(chunk: _Chunk, plan: pl.DataFrame) -> dict[int, pl.DataFrame]:
    """The rows of one chunk, split by batch (rows with a null event_id under batch -1)."""
    return _split_frames([_read_chunk(chunk)], plan)


# --------------------------------------------------------------------------- output files


#: The suffix of the temporary name an output file is written at (``<name>.tmp``).
_TMP: Final = ".tmp"


def _atomic(path: Path, write: Callable[[Path], object]) -> None:
    """Write ``path`` through ``write(tmp)`` and rename (:func:`~swissframe.io._files.\
write_atomic`) at ``<name>.tmp``: a reader never sees a partial file, and a killed run's
    leftovers are recognised by name (:func:`_own_temporaries`)."""
    write_atomic(path, write, temp=path.with_name(path.name + _TMP))


def _own_temporaries(dest: Path) -> list[Path]:
    """The temporary files a recompute run writes into ``dest`` (its parts, manifest and
    rejected rows at ``<name>.tmp``), and no other ``*.tmp`` file: the folder may be a
    user's, holding files of their own."""
    return [*dest.glob(f"part-*.parquet{_TMP}"), dest / f"{MANIFEST}{_TMP}",
            dest / f"{REJECTED}{_TMP}"]


def _write_json(path: Path, doc: dict[str, Any]) -> None:
    _atomic(path, lambda tmp: tmp.write_bytes(orjson.dumps(doc, option=orjson.OPT_INDENT_2)))


def _batch_record(dest: str, batch: int) -> Path:
    return Path(dest, BATCHES, f"part-{batch:05d}.json")


def _save_batch(dest: str, res: _BatchResult) -> None:
    """Record a finished batch (after its part file): what a resumed run reuses."""
    rec = _batch_record(dest, res.batch)
    rec.parent.mkdir(exist_ok=True)
    if res.problems.height:
        _atomic(rec.with_suffix(".problems.parquet"), res.problems.write_parquet)
    _write_json(rec, {"batch": res.batch, "file": res.file, "standings_rows": res.standings_rows,
                      "rows": res.rows, "rows_playoff": res.rows_playoff,
                      "events_done": res.events_done, "events": res.events,
                      "problems": res.problems.height})


#: The fields of a batch's record and their types (:func:`_load_batches`).
_RECORD: Final[Mapping[str, type]] = {
    "batch": int, "file": str, "standings_rows": int, "rows": int, "rows_playoff": int,
    "events_done": int, "events": int, "problems": int}


def _json_object(path: Path) -> dict[str, Any] | None:
    """A JSON object a run wrote (its manifest, a batch's record), or None where the file
    cannot be read as one: not a regular file of bounded size (``_files.read_bytes``: a
    link to ``/dev/zero`` was read until memory ran out), not JSON, or JSON of another
    kind — a file damaged or edited by hand (a list there was a bare ``AttributeError``
    of ``--resume``)."""
    try:
        doc = orjson.loads(read_bytes(path))
    except (ImportFormatError, orjson.JSONDecodeError):
        return None
    return doc if isinstance(doc, dict) else None


def _load_batches(dest: Path) -> dict[int, _BatchResult]:
    """The batches a previous run finished: a record whose fields are of their types
    (:data:`_RECORD`) and whose part and problems files are read. A record is renamed
    into place whole, so any other (damaged, edited) is redone, as a missing one is."""
    done: dict[int, _BatchResult] = {}
    for rec in sorted((dest / BATCHES).glob("part-*.json")):
        doc = _json_object(rec)
        # (type, not isinstance: True is no count)
        if doc is None or any(type(doc.get(k)) is not t for k, t in _RECORD.items()):
            continue
        if doc["file"] and not Path(doc["file"]).is_file():
            continue
        probs = rec.with_suffix(".problems.parquet")
        try:  # (missing or damaged: redone; the pages first, as every Parquet read: class 96)
            if doc["problems"]:
                check_parquet_pages(probs, str(probs))
                problems = pl.read_parquet(probs, glob=False)
            else:
                problems = pl.DataFrame(schema=FIND_PROBLEMS_SCHEMA)
        except (OSError, ImportFormatError, pl.exceptions.PolarsError):
            continue
        done[int(doc["batch"])] = _BatchResult(
            batch=int(doc["batch"]), file=doc["file"], standings_rows=doc["standings_rows"],
            rows=doc["rows"], rows_playoff=doc["rows_playoff"], events_done=doc["events_done"],
            events=doc["events"], problems=problems)
    return done


def _clear_outputs(dest: Path) -> None:
    """Remove what a recompute run writes into ``dest`` (parts, records, manifest)."""
    for f in (*dest.glob("part-*.parquet"), *_own_temporaries(dest), dest / MANIFEST,
              dest / REJECTED):
        f.unlink(missing_ok=True)
    shutil.rmtree(dest / BATCHES, ignore_errors=True)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - another user's live process
        return True
    return True


def clean_scratch(root: Path) -> None:
    """Remove scratch folders left by killed runs (their process no longer exists)."""
    for d in root.glob(f"{SCRATCH_PREFIX}*"):
        pid = d.name[len(SCRATCH_PREFIX):].split("-", 1)[0]
        if d.is_dir() and pid.isdigit() and not _pid_alive(int(pid)):
            shutil.rmtree(d, ignore_errors=True)


def _fingerprint(files: Sequence[str], rules: Ruleset, batch_rows: int,
                 batch_events: int | None, on_error: str) -> dict[str, Any]:
    """What must be unchanged for a run to be resumed: inputs (size, mtime) and settings.
    A missing input (an ``origin`` file removed) reads as size and mtime null."""
    def stat(f: str) -> list[Any]:
        try:
            st = os.stat(f)
        except OSError:
            return [f, None, None]
        return [f, st.st_size, st.st_mtime_ns]

    stats = [stat(f) for f in files]
    return {"files": stats, "rules": repr(rules), "batch_rows": batch_rows,
            "batch_events": batch_events, "on_error": on_error}


# --------------------------------------------------------------------------- compute


def _compute_batch(frames: Sequence[pl.DataFrame], batch: int, rules: Ruleset, skip: bool,
                   dest: str) -> _BatchResult:
    """Standings of one batch, written to ``dest/part-<batch>.parquet``."""
    kept = [f for f in frames if f.height]
    # (rows of several files: optional columns a file lacks take their default, categorical
    # ids become strings: the one rule the reader follows, io._files.concat_files)
    df = concat_files(kept) if kept else None
    if df is None or df.height == 0:
        df = pl.DataFrame(schema={"event_id": pl.String})
    rows = df.height
    problems = pl.DataFrame(schema=FIND_PROBLEMS_SCHEMA)
    good, table = df, pl.DataFrame()
    if rows:
        # validated once: the valid events are ranked from the normalised table and its
        # id codes (schema.trusted), not validated a second time
        found, frame, codes = checked(df)
        if found.height:
            if not skip:
                raise_problems(found)
            problems = found
            # (a null event id matches no problem's: such rows stay, as in an anti join)
            keep = ~frame["event_id"].is_in(found["event_id"].unique().implode()) \
                .fill_null(value=True)
            frame = frame.filter(keep)
            codes = codes_of_rows(codes, keep) if codes is not None else None
        good = frame
        if good.height:
            with trusted(good, codes):
                table = standings(good, rules)
    path = os.path.join(dest, f"part-{batch:05d}.parquet")
    if table.height:
        _atomic(Path(path), table.write_parquet)
    n_events = df.select(pl.col("event_id").n_unique()).item() if rows else 0
    done = good.select(pl.col("event_id").n_unique()).item() if good.height else 0
    playoff = (good.select((pl.col("phase") == "playoff").sum()).item()
               if "phase" in good.columns and good.height else 0)
    res = _BatchResult(batch=batch, file=path if table.height else "",
                       standings_rows=table.height, rows=rows, rows_playoff=int(playoff or 0),
                       events_done=int(done), events=int(n_events), problems=problems)
    _save_batch(dest, res)
    return res


def _null_event_problems(frames: Sequence[pl.DataFrame]) -> pl.DataFrame:
    rows = concat_files([f for f in frames if f.height])
    return rows.select(
        pl.lit(NULL_EVENT).alias("kind"), pl.lit(None, dtype=pl.String).alias("event_id"),
        pl.col("round").cast(pl.Int64, strict=False), pl.col("player_id").cast(pl.String),
        pl.col("opponent_id").cast(pl.String),
        pl.lit("row has no event_id, so it cannot be placed in an event").alias("detail"))


# --------------------------------------------------------------------------- engines


def _run_local(chunks: Sequence[_Chunk], plan: pl.DataFrame, todo: Sequence[int], *,
               rules: Ruleset, skip: bool, dest: str, workers: int, scratch: str,
               progress: Callable[[int], None] | None) -> tuple[list[_BatchResult],
                                                                  list[pl.DataFrame]]:
    """Split every chunk to a scratch folder (one file per chunk per batch), then compute."""
    null_rows: list[pl.DataFrame] = []
    wanted = set(todo)
    with tempfile.TemporaryDirectory(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-",
                                     dir=scratch) as tmp:
        if len(todo) == 1:
            frames = [_read_chunk(c) for c in chunks]
            parts = [_split_frames(frames, plan)]
            spilled: dict[int, list[pl.DataFrame]] = {}
            for p in parts:
                for b, f in p.items():
                    spilled.setdefault(b, []).append(f)
            null_rows = spilled.pop(-1, [])

            def load(b: int) -> list[pl.DataFrame]:
                return spilled.get(b, [])
        else:
            for i, c in enumerate(chunks):
                for b, f in _split(c, plan).items():
                    if b < 0:
                        null_rows.append(f)
                        continue
                    if b not in wanted:  # finished by an earlier, interrupted run
                        continue
                    d = Path(tmp, f"b{b:05d}")
                    d.mkdir(exist_ok=True)
                    f.write_parquet(d / f"c{i:05d}.parquet", compression="lz4")

            def load(b: int) -> list[pl.DataFrame]:
                d = Path(tmp, f"b{b:05d}")
                return [pl.read_parquet(f, glob=False) for f in sorted(d.glob("*.parquet"))]

        def work(b: int) -> _BatchResult:
            res = _compute_batch(load(b), b, rules, skip, dest)
            if progress is not None:
                progress(res.events)
            return res

        if workers > 1:
            with ThreadPoolExecutor(max_workers=workers) as pool:
                results = list(pool.map(work, todo))
        else:
            results = [work(b) for b in todo]
    return results, null_rows


def _split_frames(frames: Sequence[pl.DataFrame], plan: pl.DataFrame
                  ) -> dict[int, pl.DataFrame]:
    """The rows of ``frames`` (one file's chunk, or every chunk), split by batch; a table
    without ``event_id`` is the event ``"event"``, as :func:`_plan` counts it."""
    df = concat_files(frames)
    if "event_id" not in df.columns:
        df = df.with_columns(pl.lit("event", dtype=pl.String).alias("event_id"))
    return by_batch(df.with_columns(pl.col("event_id").cast(pl.String)), plan)


def _piece(parts: dict[int, pl.DataFrame], batch: int) -> pl.DataFrame:
    return parts.get(batch, pl.DataFrame())


def _compute_pieces(batch: int, rules: Ruleset, skip: bool, dest: str,
                    *pieces: pl.DataFrame) -> _BatchResult:
    return _compute_batch(list(pieces), batch, rules, skip, dest)


def _run_dask(chunks: Sequence[_Chunk], plan: pl.DataFrame, todo: Sequence[int], *,
              rules: Ruleset,
              skip: bool, dest: str, workers: int, scheduler: Any,
              progress: Callable[[int], None] | None) -> tuple[list[_BatchResult],
                                                                 list[pl.DataFrame]]:
    """The same split/compute as a Dask graph: chunk tasks → one task per batch.
    ``scheduler``: a client (:func:`_connect`'s, or the caller's), or None for a local
    cluster of this call's own."""
    dist = _distributed()
    own_cluster = None
    if scheduler is None:
        own_cluster = dist.LocalCluster(n_workers=max(workers, 1), threads_per_worker=1,
                                   processes=False, dashboard_address=None)
        client = dist.Client(own_cluster)
    else:
        client = scheduler
    try:
        plan_f = client.scatter(plan, broadcast=True)
        splits = [client.submit(_split, c, plan_f, pure=False) for c in chunks]
        null_f = [client.submit(_piece, s, -1, pure=False) for s in splits]
        futures = []
        for b in todo:
            pieces = [client.submit(_piece, s, b, pure=False) for s in splits]
            futures.append(client.submit(_compute_pieces, b, rules, skip, dest, *pieces,
                                         pure=False))
        results: list[_BatchResult] = []
        for fut in dist.as_completed(futures):
            res = fut.result()
            results.append(res)
            if progress is not None:
                progress(res.events)
        null_rows = [f for f in client.gather(null_f) if f.height]
    finally:
        if own_cluster is not None:
            client.close()
            own_cluster.close()
    return sorted(results, key=lambda r: r.batch), null_rows


def _distributed() -> Any:
    """Dask's ``distributed``, or a :class:`DataError` saying how to install it."""
    try:
        return importlib.import_module("distributed")
    except ImportError as exc:  # pragma: no cover - depends on the environment
        msg = ("engine='dask' needs Dask's distributed scheduler. Hint: pip install "
               "'swissframe[distributed]' (or 'dask[distributed]').")
        raise DataError(msg) from exc


def _connect(scheduler: str) -> Any:
    """A client of the Dask scheduler at ``scheduler``, connected before the output folder
    is made: an address where none answers was Dask's "Timed out trying to connect" with
    the CLI's "check the path", and left a "running" manifest asking for --resume."""
    try:
        return _distributed().Client(scheduler)
    except (OSError, ValueError) as exc:  # (no scheduler there, or not an address)
        msg = (f"cannot reach the Dask scheduler at {scheduler!r}: {exc}. Hint: start one "
               "(dask scheduler) and give its address, e.g. tcp://host:8786, or leave the "
               "scheduler out for a local cluster.")
        raise DataError(msg) from None


@contextlib.contextmanager
def _scheduler_client(engine: str, scheduler: Any) -> Iterator[Any]:
    """``scheduler`` as :func:`_run_dask` takes it: an address connected (:func:`_connect`)
    and closed at the end, a client or None as it is."""
    if engine != "dask" or not isinstance(scheduler, str):
        yield scheduler
        return
    client = _connect(scheduler)
    try:
        yield client
    finally:
        client.close()


# --------------------------------------------------------------------------- public


def recompute(source: str | Path | Sequence[str | Path], dest: str | Path,
              rules: str | Ruleset = "mtg", *, engine: Engine = "polars", workers: int = 1,
              on_error: OnError = "stop", batch_rows: int = 2_000_000,
              batch_events: int | None = None, overwrite: bool = False, resume: bool = False,
              scheduler: Any = None, scratch: str | Path | None = None,
              progress: Callable[[int], None] | None = None,
              on_plan: Callable[[int], None] | None = None,
              origin: str | Path | Sequence[str | Path] | None = None,
              unplayed: int = 0) -> RecomputeReport:
    """Recompute the standings of every event of a Parquet archive, batch by batch.

    Parameters
    ----------
    source
        A Parquet file, a folder (searched recursively for ``*.parquet``), a glob, or a list
        of these. Rows of one event may be spread over several files.
    dest
        Output folder: ``part-00000.parquet``, … (standings, one file per batch, events in
        ``event_id`` order) plus ``_recompute.json`` (the row accounting) and, when events
        were skipped, ``_rejected.parquet`` (their problems).
    rules
        Ruleset name or :class:`~swissframe.rules.Ruleset`.
    engine
        ``"polars"`` (this machine) or ``"dask"`` (a Dask cluster; see ``scheduler``).
    workers
        Polars: batches computed concurrently (memory grows with it; Polars already uses
        every core inside a batch). Dask: workers of the local cluster started when no
        ``scheduler`` is given.
    on_error
        ``"stop"`` (default): the first batch with invalid events raises
        :class:`~swissframe.errors.ValidationError` naming event, round and player, and the
        parts written by this run are removed. ``"skip"``: invalid events are left out,
        counted in the report and listed in ``_rejected.parquet``.
    batch_rows, batch_events
        Upper bounds of a batch (an event is never split; one larger than ``batch_rows`` is
        a batch of its own). Peak memory is a small multiple of one batch.
    overwrite
        Replace what an earlier run left in ``dest`` (complete or interrupted).
    resume
        Finish an interrupted run into ``dest``: batches it recorded as done are kept, the
        others computed. Refused (``DataError``) when the inputs or settings changed.
    scheduler
        Dask only: a ``distributed.Client`` or a scheduler address (``"tcp://host:8786"``).
    scratch
        Folder for the temporary per-batch split (default: ``dest/_scratch``, removed at the
        end; the leftovers of a killed run are removed by the next run).
    progress
        Called with the number of events finished after each batch.
    on_plan
        Called once with the total number of events, before any batch runs.
    origin
        The files ``source`` was converted from (the CLI converts CSV, decklist, TOM and TRF
        inputs to a Parquet file of its own, new at every run): ``resume`` then compares
        these files, and the settings, instead of ``source``'s.
    unplayed
        Events of those files with no round played, which the conversion holds no row of
        (a TOM, TRF or decklist file saved before its first pairing): counted in, as the
        events read, with no standings (``events_in``, ``events_unplayed``, the progress's
        total and count).

    Returns
    -------
    RecomputeReport
        Row and event accounting (``rows_in == rows_used + rows_rejected``).

    Examples
    --------
    >>> import tempfile, polars as pl, swissframe as sf
    >>> from swissframe.bulk import recompute
    >>> m = pl.DataFrame({"event_id": ["e1", "e1", "e2"], "round": [1, 2, 1],
    ...     "player_a": ["A", "A", "X"], "player_b": ["B", "B", "Y"],
    ...     "games_a": [2, 0, 2], "games_b": [0, 2, 1], "games_drawn": [0, 0, 0]})
    >>> d = tempfile.mkdtemp()
    >>> sf.from_matches(m).write_parquet(f"{d}/archive.parquet")
    >>> report = recompute(f"{d}/archive.parquet", f"{d}/out")
    >>> report.rows_in, report.rows_used, report.events_done
    (6, 6, 2)
    >>> pl.read_parquet(f"{d}/out/*.parquet").select("event_id", "player_id", "rank").rows()
    [('e1', 'A', 1), ('e1', 'B', 1), ('e2', 'X', 1), ('e2', 'Y', 2)]
    """
    t0 = time.perf_counter()
    ruleset = get(rules)
    check_choice("on_error", on_error, ("stop", "skip"))
    check_choice("engine", engine, ("polars", "dask"))
    check_flag("resume", resume)
    check_flag("overwrite", overwrite)
    # (a count past 64 bits passed and ended in orjson's bare TypeError, writing the manifest)
    for name, value in (("batch_rows", batch_rows), ("workers", workers),
                        ("batch_events", batch_events)):
        # (None only where the signature allows it: batch_events; workers=None or
        # batch_rows=None was a bare "'>' not supported")
        if value is not None or name != "batch_events":
            check_whole(name, value, low=1, hint=f"e.g. {name}=1000")
    check_whole("unplayed", unplayed, hint="the events read with no result row")
    if scratch is not None and not isinstance(scratch, (str, os.PathLike)):
        msg = (f"scratch must be a folder's path, got {scratch!r:.60}. Hint: e.g. "
               "scratch='/tmp/swissframe-scratch', or leave it out (a folder in dest).")
        raise DataError(msg)
    if resume and overwrite:
        msg = "resume and overwrite both given. Hint: resume finishes a run, overwrite restarts."
        raise DataError(msg)
    skip = on_error == "skip"
    out = Path(local_path(dest, what="recompute: dest"))  # (bad data 244)
    files = _files(source, exclude=out)
    _check_schema(files)
    # (one file, or several: path_items, the one reading of a paths argument)
    fingerprint = _fingerprint(files if origin is None else [str(f) for f in path_items(origin)],
                               ruleset, batch_rows, batch_events, on_error)
    # planned before the output folder is made: an input that cannot be read leaves no
    # folder behind (nor a "running" manifest that asks for --resume or --overwrite)
    plan = _plan(files, batch_rows, batch_events)
    chunks = _chunks(files, max(batch_rows, 1))
    # (a scheduler's address reached before the output folder is made: where none
    # answers, nothing is left behind)
    with _scheduler_client(engine, scheduler) as client:
        make_folder(out)
        done = _previous_run(out, fingerprint, overwrite=overwrite, resume=resume)
        _write_json(out / MANIFEST, {"status": "running", "pid": os.getpid(),
                                     "fingerprint": fingerprint})
        rows_in = int(plan["rows"].sum())
        known = plan.filter(pl.col("event_id").is_not_null())
        n_batches = int(known.select(pl.col(BATCH).max()).item() or 0) + 1 if known.height else 0
        plan = known
        if on_plan is not None:
            on_plan(plan.height + unplayed)
        previous = [done[b] for b in range(n_batches) if b in done]
        if progress is not None:
            if unplayed:  # (nothing to compute: done)
                progress(unplayed)
            for res in previous:
                progress(res.events)
        todo = [b for b in range(n_batches) if b not in done]
        scratch_root = Path(scratch) if scratch is not None else out / SCRATCH
        scratch_root.mkdir(parents=True, exist_ok=True)
        clean_scratch(scratch_root)
        try:
            if engine == "dask":
                results, null_rows = _run_dask(chunks, plan, todo, rules=ruleset, skip=skip,
                                               dest=str(out), workers=workers, scheduler=client,
                                               progress=progress)
            else:
                results, null_rows = _run_local(
                    chunks, plan, todo, rules=ruleset, skip=skip, dest=str(out),
                    workers=workers, scratch=str(scratch_root), progress=progress)
            null_problems = (_null_event_problems(null_rows) if null_rows
                             else pl.DataFrame(schema=FIND_PROBLEMS_SCHEMA))
            if null_problems.height and not skip:
                msg = (f"{count(null_problems.height, 'row')} "
                       f"{'has' if null_problems.height == 1 else 'have'} no event_id:\n"
                       + format_problems(null_problems)
                       + "\nHint: fill event_id, or pass on_error='skip' to leave them out.")
                raise ValidationError(msg, null_problems)
        except ValidationError:
            _clear_outputs(out)
            raise
        finally:
            if scratch is None:
                shutil.rmtree(scratch_root, ignore_errors=True)
        results = sorted([*previous, *results], key=lambda r: r.batch)
        problems = pl.concat([r.problems for r in results] + [null_problems], how="vertical")
        reasons: dict[str, int] = {}
        rejected_events = problems.filter(pl.col("event_id").is_not_null())["event_id"].n_unique()
        if problems.height:
            reasons = dict(_rejected_rows(plan, problems).iter_rows())
        rows_rejected = sum(reasons.values())
        rows_used = sum(r.rows for r in results) - (rows_rejected - null_problems.height)
        report = RecomputeReport(
            rows_in=rows_in, rows_used=rows_used,
            rows_playoff=sum(r.rows_playoff for r in results), rows_rejected=rows_rejected,
            rejected_by_reason=reasons, events_in=plan.height + unplayed,
            events_done=sum(r.events_done for r in results), events_rejected=int(rejected_events),
            batches=n_batches, standings_rows=sum(r.standings_rows for r in results),
            seconds=time.perf_counter() - t0, dest=str(out),
            files=tuple(r.file for r in results if r.file), problems=problems,
            events_unplayed=unplayed)
        if rows_in != report.rows_used + report.rows_rejected:  # pragma: no cover - invariant
            msg = (f"internal: row accounting does not add up ({report.summary()}). Hint: "
                   "please report this with the input.")
            raise AssertionError(msg)
        if problems.height:
            _atomic(out / REJECTED, problems.write_parquet)
        # the manifest is written last: "complete" means every part above is in place
        _write_json(out / MANIFEST, {"status": "complete", **report.to_dict(),
                                     "resumed_batches": len(previous)})
        shutil.rmtree(out / BATCHES, ignore_errors=True)
        return report


def _previous_run(out: Path, fingerprint: dict[str, Any], *, overwrite: bool,
                  resume: bool) -> dict[int, _BatchResult]:
    """Say what an earlier run left in ``out``; clear it, refuse, or return its batches."""
    for f in _own_temporaries(out):  # a file a killed run was writing: never complete
        f.unlink(missing_ok=True)
    parts = sorted(out.glob("part-*.parquet"))
    manifest = (None if not os.path.lexists(out / MANIFEST)
                else _json_object(out / MANIFEST) or {"status": "unreadable"})
    if manifest is None and not parts and not (out / BATCHES).exists():
        return {}
    status = (manifest or {}).get("status", "complete" if manifest else "unknown")
    if overwrite:
        _clear_outputs(out)
        return {}
    if status != "complete" and resume:
        if manifest is None or manifest.get("fingerprint") != fingerprint:
            msg = (f"{out} holds an interrupted run over other inputs or settings, so it "
                   "cannot be resumed. Hint: pass overwrite=True (--overwrite) to start over.")
            raise DataError(msg)
        return _load_batches(out)
    if status != "complete":
        n = len(_load_batches(out))
        msg = (f"{out} holds an interrupted recompute run ({count(n, 'batch')} "
               f"finished, {count(len(parts), 'part file')}); its output is incomplete. "
               "Hint: pass resume=True (--resume) to finish it, or overwrite=True "
               "(--overwrite) to start over.")
        raise DataError(msg)
    msg = (f"{out} already holds a complete run ({count(len(parts), 'part file')}). Hint: "
           "choose an "
           "empty folder or pass overwrite=True (--overwrite).")
    raise DataError(msg)


def _rejected_rows(plan: pl.DataFrame, problems: pl.DataFrame) -> pl.DataFrame:
    """``kind, rows``: rows of each rejected event under its first problem kind."""
    first = (problems.filter(pl.col("event_id").is_not_null())
             .sort("kind", "event_id", "round", "player_id", nulls_last=True)
             .group_by("event_id", maintain_order=True).agg(pl.col("kind").first()))
    counts = (first.join(plan.select("event_id", "rows"), on="event_id", how="inner")
              .group_by("kind").agg(pl.col("rows").sum().cast(pl.Int64)))
    n_null = problems.filter(pl.col("kind") == NULL_EVENT).height
    nulls = pl.DataFrame({"kind": [NULL_EVENT] if n_null else [],
                          "rows": [n_null] if n_null else []},
                         schema={"kind": pl.String, "rows": pl.Int64})
    return pl.concat([counts, nulls]).sort("kind")
