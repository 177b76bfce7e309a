"""Read results tables from CSV or Parquet, in long or one-row-per-match form."""

from __future__ import annotations

import glob
import os
from collections.abc import Iterable
from pathlib import Path

import polars as pl

from swissframe.errors import ImportFormatError, SchemaError
from swissframe.schema import MATCH_COLUMNS, MatchColumns, from_matches, validate_results

__all__ = ["expand_paths", "read_results"]

PathLike = str | os.PathLike[str]
_TABLE_SUFFIXES = (".csv", ".parquet", ".pq", ".tsv")


def expand_paths(paths: PathLike | Iterable[PathLike], suffixes: tuple[str, ...]) -> list[Path]:
    """Files named by paths, folders (searched recursively for ``suffixes``) and globs.

    Raises :class:`~swissframe.errors.ImportFormatError` when a path matches nothing.
    """
    items = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    out: list[Path] = []
    for item in items:
        p = Path(item)
        if p.is_dir():
            found = sorted(f for f in p.rglob("*") if f.is_file()
                           and any(f.name.lower().endswith(s) for s in suffixes))
        elif p.is_file():
            found = [p]
        else:
            found = sorted(Path(g) for g in glob.glob(str(item), recursive=True)
                           if Path(g).is_file())
        if not found:
            what = (f"no {'/'.join(suffixes)} file in folder" if p.is_dir()
                    else "no such file, folder or glob match:")
            msg = (f"{what} {str(item)!r}. Hint: check the path; folders are searched "
                   f"(recursively) for {', '.join(suffixes)} files.")
            raise ImportFormatError(msg)
        out.extend(found)
    return list(dict.fromkeys(out))


def _read_one(path: Path) -> pl.DataFrame:
    name = path.name.lower()
    try:
        if name.endswith((".parquet", ".pq")):
            return pl.read_parquet(path)
        sep = "\t" if name.endswith(".tsv") else ","
        return pl.read_csv(path, separator=sep, infer_schema_length=10_000,
                           schema_overrides={"event_id": pl.String, "player_id": pl.String,
                                             "opponent_id": pl.String, "player_a": pl.String,
                                             "player_b": pl.String})
    except (pl.exceptions.PolarsError, OSError, UnicodeDecodeError) as exc:
        msg = f"cannot read {path}: {exc}. Hint: CSV (UTF-8, header row) or Parquet is expected."
        raise ImportFormatError(msg) from exc


def read_results(paths: PathLike | Iterable[PathLike], *,
                 columns: MatchColumns = MATCH_COLUMNS) -> pl.DataFrame:
    """Read one or many CSV/Parquet files into the validated long results table.

    Each file is either the long form (``player_id``/``opponent_id`` columns) or the match
    form (``player_a``/``player_b``, see :func:`swissframe.from_matches`). A file without an
    ``event_id`` column is one event named after the file (its name without the suffix).

    Examples
    --------
    >>> import swissframe as sf
    >>> res = sf.read_results("data/events/store-championship.csv")
    >>> res.select("event_id", "round", "player_id").head(2)
    shape: (2, 3)
    ┌────────────────────┬───────┬───────────┐
    │ event_id           ┆ round ┆ player_id │
    │ ---                ┆ ---   ┆ ---       │
    │ str                ┆ i64   ┆ str       │
    ╞════════════════════╪═══════╪═══════════╡
    │ store-championship ┆ 1     ┆ Alice     │
    │ store-championship ┆ 1     ┆ Bob       │
    └────────────────────┴───────┴───────────┘
    """
    frames = []
    for path in expand_paths(paths, _TABLE_SUFFIXES):
        df = _read_one(path)
        stem = path.name.split(".")[0]
        if "event_id" not in df.columns:
            df = df.with_columns(pl.lit(stem, dtype=pl.String).alias("event_id"))
        if columns.player_a in df.columns and "player_id" not in df.columns:
            df = from_matches(df, columns=columns)
        elif "player_id" not in df.columns:
            msg = (f"{path}: neither a long results table (player_id, opponent_id, …) nor a "
                   f"match table ({columns.player_a}, {columns.player_b}, …); columns are "
                   f"{df.columns}. Hint: see swissframe.schema for both forms.")
            raise SchemaError(msg)
        frames.append(df)
    combined = pl.concat(frames, how="diagonal_relaxed")
    out = validate_results(combined).collect()
    order = ["event_id", "round", "player_id", "opponent_id"]
    return out.sort(order, nulls_last=True)
